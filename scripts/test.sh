#!/usr/bin/env bash
# Installs what is needed, builds everything (release preset) and runs the whole test suite.
# scripts/test.sh asan runs the same tests built with AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
scripts/setup.sh test
scripts/build.sh "$preset"
ctest --preset "$preset" -j2
