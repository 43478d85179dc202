#pragma once
// Classic Ludo bots, under the policy names every program shares (spookludo/policy.h):
//   random  any distinct legal choice, uniformly
//   greedy  one step: the choice whose resulting position scores best on a heuristic that weighs
//           entering, capturing, escaping danger, forming blocks and finishing
//   best    expectimax over the die within a node budget: its own move, then the throws of the
//           opponents (each answering with the greedy choice) and its own next throw, scored by
//           the same kind of heuristic; cheap enough to move for a timed-out player.
// All are deterministic given the Rng (it only breaks ties, and picks for `random`).
#include <vector>

#include "spookludo/ludo/game.h"
#include "spookludo/policy.h"
#include "spookludo/rng.h"
#include "spookludo/sim.h"

namespace spookludo::ludo {

// The terms of the position heuristic (per piece unless said otherwise), in units of squares.
struct Weights {
    double entered = 14;        // a piece out of the yard (worth the wait for a 6)
    double progress = 1;        // per square of progress
    double home_column = 10;    // safe in the home column
    double home = 8;            // extra for a piece home
    double danger = 1.0;        // times the expected loss from being captured before the next turn
    double block = 4;           // own block on the circuit
    double blockade = 3;        // own block within six squares in front of an opposing piece
    double lockout = 6;         // own block on the way in of an opponent with pieces in its yard
    double exposure = 0.0;      // per piece out, times (pieces out) x (squares still to go on the circuit)
    double opponents = 0.6;     // weight of the strongest opponent's score against one's own
};

struct BestConfig {
    int node_budget = 2000;  // positions scored per move at most (the search shrinks to fit)
    int depth = 2;           // 1: own move only; 2: + the opponents' and own next throws
    double opponent_greed = 1;  // the search's opponents play greedily this often, else uniformly
    Weights weights{};
};

// The heuristic score of the position for `seat` (higher is better).
double evaluate(const Game& game, int seat, const Weights& weights);

// The move a policy chooses for the current throw. Precondition: game.phase() is
// awaiting_choice (so there is at least one legal move).
Move choose_move(PolicyKind policy, const Game& game, Rng& rng, const BestConfig& config = {});
// The same, as the piece to give to Game::choose.
int choose_piece(PolicyKind policy, const Game& game, Rng& rng, const BestConfig& config = {});

}  // namespace spookludo::ludo

namespace spookludo {

// Plays one game of Classic Ludo from the roll-off to the end, a policy per seat. length is the
// number of throws (turns) played; winners the seats with place 1. Throws std::invalid_argument
// for invalid options or a policy list that does not match options.players.
GameOutcome play_ludo_game(const GameOptions& options, const std::vector<PolicyKind>& seats, Dice& dice,
                           Rng& policy_rng);

}  // namespace spookludo
