#include <stdexcept>
#include <string>

#include "spookludo/spook/setup.h"

namespace spookludo::spook {

namespace {
// kPool1, kPool2, kPool3: written by bench/make_board_pool (see BENCHMARKS.md), checked by the
// tests (7 of each character, all different, expected finishes within kBalanceTolerance).
#include "board_pool_data.inc"
}  // namespace

std::span<const PooledBoard> balanced_pool(int pieces) {
    switch (pieces) {
        case 1: return kPool1;
        case 2: return kPool2;
        case 3: return kPool3;
        default: throw std::invalid_argument("a player has 1, 2 or 3 pieces (got " + std::to_string(pieces) + ")");
    }
}

}  // namespace spookludo::spook
