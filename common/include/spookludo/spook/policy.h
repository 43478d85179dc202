#pragma once
// The three policies of Spook & Werewolf Ludo, by their shared names (spookludo/policy.h).
#include "spookludo/policy.h"
#include "spookludo/rng.h"
#include "spookludo/spook/game.h"
#include "spookludo/spook/solver.h"

namespace spookludo::spook {

// The piece `seat` moves under `kind`, or -1 when it cannot move. `best` needs the solution of
// the seat's board (for the game's piece count); `random` uses `rng`; `greedy` neither.
//   random: any distinct legal move, uniformly.
//   greedy: the move that gains most squares this round, the activation's expected effect on
//           the moved piece included (a one-round look-ahead, no knowledge of later rounds).
//   best:   the move with the fewest expected rounds to finish (Solution::best_piece).
int choose_piece(PolicyKind kind, const Game& game, int seat, Rng& rng, const Solution* best = nullptr);

// Greedy's score of a move on a board: the expected square of the moved piece after the
// activation roll minus where it would have stood without moving; reaching the church scores
// above every other move.
double greedy_score(const Board& board, const Move& move) noexcept;

}  // namespace spookludo::spook
