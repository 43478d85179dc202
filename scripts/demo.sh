#!/usr/bin/env bash
# The main job: installs what is needed, builds, and runs the demo. For now the demo is the
# simulator: the best-play bot against the random one, then a full 8-player Halloween party of
# bots with all three policies. Extra arguments go to the first simulation.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
scripts/build.sh release spookludo
bin=build/release/client/spookludo
echo
echo "== Spook & Werewolf Ludo, 2 players: best play against random moves =="
"$bin" sim --players 2 --policy best --policy random --games 20000 "$@"
echo
echo "== A party of 8 bots (2 best, 3 greedy, 3 random), 3 pieces each =="
"$bin" sim --players 8 --pieces 3 --policy best,best,greedy,greedy,greedy,random --games 5000
