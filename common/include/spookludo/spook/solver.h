#pragma once
// Best play for one board (RULES.md part 1, "Best play"): the policy that minimises the expected
// number of rounds until the player has enough pieces in the church, the activation roll included.
// Computed by value iteration over the positions of the player's own pieces (pieces are
// interchangeable, so a position is the sorted multiset of squares).
#include <memory>
#include <span>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "spookludo/spook/board.h"

namespace spookludo::spook {

class Solution {
public:
    // Solves `board` for a player with `pieces` pieces (1 to 3) who finishes with `pieces_to_finish`
    // in the church. One core: about a millisecond for 2 pieces, tens of milliseconds for 3.
    static Solution solve(const Board& board, int pieces, int pieces_to_finish);

    int pieces() const noexcept { return pieces_; }
    int pieces_to_finish() const noexcept { return need_; }
    int sweeps() const noexcept { return sweeps_; }

    // Expected rounds to finish from the start (every piece on square 1): the board's
    // "expected finish", used to balance the boards of a game.
    double expected_finish() const noexcept { return e_[static_cast<std::size_t>(start_)]; }

    // Expected rounds to finish from a position at the start of a round (before the movement
    // roll); 0 when finished. `positions` has pieces() squares, in any order.
    double expected_rounds(std::span<const Square> positions) const;

    // Expected rounds still to play after this round, from a position just after the moves
    // (before the activation roll): the value of a move, shown as a hint.
    double expected_after_move(std::span<const Square> positions) const;

    // The piece to move (an index into `positions`) that minimises the expected rounds, or -1
    // when no piece can move with `roll`. Ties go to the lowest index.
    int best_piece(std::span<const Square> positions, Face roll) const noexcept;

    // The memory this solution holds, in bytes (the object and its tables): about 1 KB for one
    // piece, 27 KB for two, 740 KB for three. What a cache of solutions is bounded by.
    std::size_t memory_bytes() const noexcept {
        return sizeof(Solution) + (e_.capacity() + q_.capacity() + q_by_code_.capacity()) * sizeof(double);
    }

private:
    int pieces_ = 0;
    int need_ = 0;
    int sweeps_ = 0;
    int start_ = 0;
    std::vector<double> e_;  // per position, before the movement roll
    std::vector<double> q_;  // per position, after the moves and before the activation
    // q_ again, indexed by the base-41 code of the squares in any order, so that choosing a
    // move needs no sorting: the hot path of every bot and of the server's fallback.
    std::vector<double> q_by_code_;
};

// The dense index of a position among all sorted multisets of `pieces` squares (for callers that
// tabulate per position, such as the benchmarks); `positions` in any order.
int position_index(std::span<const Square> positions);
// The number of positions for `pieces` pieces: 40, 820 or 11480.
int position_count(int pieces);

// Caches solutions by board and piece count, so a simulator or a server solves each board once.
// Not thread-safe: one cache per thread or a lock around it. Holds at most kMaxEntries.
class SolutionCache {
public:
    static constexpr std::size_t kMaxEntries = 4096;
    std::shared_ptr<const Solution> get(const Board& board, int pieces, int pieces_to_finish);
    std::size_t size() const noexcept { return entries_.size(); }

private:
    // Keyed by the board and the piece counts; cleared when it grows past a bound.
    struct Key {
        std::array<std::uint64_t, 2> board;
        int pieces;
        int need;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const noexcept {
            const std::uint64_t counts = static_cast<unsigned>(k.pieces * 8 + k.need);
            const std::uint64_t mixed = (k.board[0] * std::uint64_t{0x9E3779B97F4A7C15}) ^
                                        (k.board[1] + std::uint64_t{0x632BE59BD9B4E019}) ^ counts;
            return static_cast<std::size_t>(mixed);
        }
    };
    std::unordered_map<Key, std::shared_ptr<const Solution>, KeyHash> entries_;
};

}  // namespace spookludo::spook
