#!/usr/bin/env bash
# Configures and builds a CMake preset (release by default): scripts/build.sh [PRESET] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache: paths relative to the checkout, so a fresh clone elsewhere reuses the cache.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
# ... and keys that leave the locale out (it changes only the compiler's messages), so that a
# build in the Docker image, whose environment has no LANG, reuses this machine's cache.
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-locale}
preset=${1:-release}
shift || true
cmake --preset "$preset" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" --target "$@"
else
  cmake --build --preset "$preset"
fi
