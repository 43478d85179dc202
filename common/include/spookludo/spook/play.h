#pragma once
// Playing a whole game of Spook & Werewolf Ludo offline, bots in every seat (the simulator and
// the benchmarks).
#include <vector>

#include "spookludo/sim.h"
#include "spookludo/spook/game.h"
#include "spookludo/spook/solver.h"

namespace spookludo::spook {

// Plays one game with the published `board_set`: draws the assignment of boards to seats from
// `dice`, then rounds until the game ends. `seats` holds one policy per player; `cache` solves
// each board once for the `best` policy. Length = rounds played.
GameOutcome play_game(const GameOptions& options, const std::vector<PolicyKind>& seats,
                      const std::vector<Board>& board_set, Dice& dice, Rng& policy_rng, SolutionCache& cache);

// Plays rounds of an existing game to its end (the loop play_game uses).
void play_out(Game& game, const std::vector<PolicyKind>& seats, Dice& dice, Rng& policy_rng, SolutionCache& cache);

}  // namespace spookludo::spook
