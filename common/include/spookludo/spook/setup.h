#pragma once
// Setting up a game of Spook & Werewolf Ludo: which boards it uses, and which seat gets which.
#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "spookludo/dice.h"
#include "spookludo/options.h"
#include "spookludo/spook/board.h"

namespace spookludo::spook {

// The largest spread of expected finish allowed among a game's boards: (max - min) / min.
inline constexpr double kBalanceTolerance = 0.02;

// A board of the shipped pools, with its expected finish under best play (in rounds).
struct PooledBoard {
    std::string_view notation;
    double expected_finish;
};

// The balanced pool for a piece count (1, 2 or 3): boards with 7 of each character, all
// different, whose expected finishes lie within kBalanceTolerance of each other, so any
// subset is balanced. Computed ahead of time by `bench/make_board_pool` and shipped.
std::span<const PooledBoard> balanced_pool(int pieces);

// The set of boards a game publishes before the assignment is drawn: `players` different boards,
// drawn with `rng` from the balanced pool (options.spook.balanced_boards) or generated at random
// with 7 of each character. The server uses its own secret randomness here; the assignment to
// seats then comes from the fair dice.
std::vector<Board> choose_board_set(const GameOptions& options, Rng& rng);

// Which published board goes to which seat, drawn from the dice (DrawPurpose::assignment) by a
// Fisher-Yates shuffle: result[seat] is the index of the seat's board. Draw i (from 0) is a
// uniform integer in [0, count - i) and swaps position count-1-i with it.
std::vector<int> draw_assignment(int count, Dice& dice);

// The boards in seat order: result[seat] = published[board_of_seat[seat]].
std::vector<Board> boards_by_seat(const std::vector<Board>& published, const std::vector<int>& board_of_seat);
std::vector<SharedBoard> boards_by_seat(const std::vector<SharedBoard>& published, const std::vector<int>& board_of_seat);

// (max - min) / min of a set of expected finishes (0 for fewer than two).
double balance_spread(std::span<const double> expected_finishes) noexcept;

// What RULES.md asks to be reported of boards a host loads (they need not have 7 of each
// character nor be balanced, but the players should know): per board its character counts and
// expected finish under best play for the piece count, and the spread across the set.
struct BoardSetReport {
    struct Entry {
        std::array<int, 5> counts{};  // hat, cat, spook, werewolf, witch
        double expected_finish = 0;
    };
    std::vector<Entry> boards;
    double spread = 0;             // (max - min) / min of the expected finishes
    bool seven_of_each = true;     // every board has 7 of each character
    bool balanced() const noexcept { return spread <= kBalanceTolerance; }
};
BoardSetReport report_boards(std::span<const Board> boards, int pieces);

}  // namespace spookludo::spook
