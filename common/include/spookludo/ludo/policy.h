#pragma once
// Classic Ludo bots, under the policy names every program shares (spookludo/policy.h):
//   random  any distinct legal choice, uniformly
//   greedy  one step: the choice whose resulting position scores best on a heuristic that weighs
//           entering, capturing, escaping danger, forming blocks and finishing
//   best    expectimax over the die within a node budget: its own move, then the next throw
//           (an opponent answering with greedy's choice, itself with its best after a 6), the
//           positions scored by a learned value (a small network trained by TD(lambda) against
//           `random` players, eval.cpp); cheap enough (about 0.1 ms) to move for a timed-out player.
// All are deterministic given the Rng (it only breaks ties, and picks for `random`).
#include <array>
#include <vector>

#include "spookludo/ludo/game.h"
#include "spookludo/policy.h"
#include "spookludo/rng.h"
#include "spookludo/sim.h"

namespace spookludo::ludo {

// The terms of the position heuristic (per piece unless said otherwise), in units of squares.
// The defaults are `best`'s, tuned by hill-climbing (n = 6, 2,000 games per step, common dice) on
// the win rate against three `random` players plus twice that against three `greedy` ones;
// `greedy` plays the hand-set greedy_weights().
struct Weights {
    double entered = 28.5;     // a piece out of the yard (worth the wait for a 6)
    double progress = 1;       // per square of progress
    double home_column = 0.2;  // safe in the home column
    double home = 5.9;         // extra for a piece home
    double danger = 0.75;      // times the expected loss from being captured before the next turn
    double block = 5.1;        // own block on the circuit
    double blockade = 1.8;     // own block within six squares in front of an opposing piece
    double lockout = 5.3;      // own block on the way in of an opponent with pieces in its yard
    double exposure = 0.01;    // per piece out, times (pieces out) x (squares still to go on the circuit)
    double threat = 0.0;       // times the value of single opposing pieces one throw ahead, / 6
    double far = 0.0;          // weight of pieces 7 to 12 squares behind (a 6 and the rest) in danger
    double progress2 = 0.0;    // per square of progress, times progress / home
    double opponents = 1.96;   // weight of the strongest opponent's material against one's own
    int blockade_reach = 6;    // exact_danger only: how far behind an own block opposing pieces count
};

// `best`'s weights where the house rules safe_squares or bonus_throws change what a piece on the
// circuit risks and what a capture earns: the same terms tuned the same way on the home_rules
// preset (BENCHMARKS.md, "House rules").
Weights house_rules_weights() noexcept;

// The one-step heuristic of `greedy`: the same terms, set by hand.
constexpr Weights greedy_weights() noexcept {
    Weights w;
    w.entered = 14;
    w.home_column = 10;
    w.home = 8;
    w.danger = 1.0;
    w.block = 4;
    w.blockade = 3;
    w.lockout = 6;
    w.exposure = 0;
    w.opponents = 0.6;
    return w;
}

// --- Learned value (eval.cpp): the chance that `seat` wins from a position, by a small neural
// network (kValueFeatures inputs, one tanh hidden layer, a sigmoid output) over features of the
// position seen from that seat. The shipped weights are trained by TD(lambda) against three
// `random` players (bench/ludo_td.cpp).
inline constexpr int kValueFeatures = 54;
inline constexpr int kValueHidden = 32;
struct ValueNet {
    std::array<float, kValueFeatures * kValueHidden> w1{};  // hidden unit h: w1[h * kValueFeatures + f]
    std::array<float, kValueHidden> b1{};
    std::array<float, kValueHidden> w2{};
    float b2 = 0;
};
void value_features(const Game& game, int seat, std::array<float, kValueFeatures>& x);
double value_of(const ValueNet& net, const std::array<float, kValueFeatures>& x);
// 1 once `seat` has finished, 0 once the game is over without it, else the network's estimate.
double learned_value(const ValueNet& net, const Game& game, int seat);
// The shipped networks: the rule text's game (4 players, n = 6, the text's entry, first home wins,
// no house rule), and the home_rules preset's (4 players, first home wins, no capture_to_home nor
// teams), each trained against three `random` players in its own game.
const ValueNet& shipped_value_net();
const ValueNet& shipped_home_value_net();
// The shipped network trained for games with these options, or none (there `best` keeps its
// heuristic search).
const ValueNet* shipped_net_for(const GameOptions& options) noexcept;
bool learned_value_applies(const GameOptions& options) noexcept;  // shipped_net_for() has one
// The move whose resulting position `net` values highest for the seat to move; with ply 2 its
// extra throw after a 6 is searched too (the expected value of its best answer to each face).
Move learned_choice(const Game& game, const ValueNet& net, int ply = 1);
// Truncated rollouts with common random numbers: every choice is followed by the same `rollouts`
// dice streams (drawn from `seed`), the other seats playing uniformly at random and the seat to
// move by learned_choice, to the end of its `horizon`-th turn after this one; the mean learned
// value there scores the choice.
Move rollout_choice(const Game& game, const ValueNet& net, int rollouts, int horizon, std::uint64_t seed);

struct BestConfig {
    int node_budget = 2000;     // positions scored per move at most (the search shrinks to fit)
    int depth = 2;              // throws searched after the own move: 0 = one step, as greedy does;
                                // 2 = the next two throws (the next players', or its own after a 6)
    double opponent_greed = 1;  // the search's opponents play greedily this often, else uniformly
    Weights weights{};
    // Played instead of `weights` under safe_squares or bonus_throws (house_rules_weights()).
    Weights house_weights = house_rules_weights();
    // Where a network applies (leaf_net()): the search scores its leaves by the learned value
    // instead of evaluate() with `weights`, and looks `learned_depth` throws ahead instead of
    // `depth`. Elsewhere (and with learned = false) `best` is the heuristic search as before
    // (about 64 % against three `random`s at 4 players, n = 6).
    bool learned = true;
    int learned_depth = 1;
    const ValueNet* net = nullptr;  // when set, used whatever the options (training, measuring)
    bool learned_home = true;       // the home_rules preset's network too (false: its heuristic search)
    // With learned: no search but learned_choice(learned_ply) when 1 or 2, or rollout_choice when
    // rollouts > 0 (its streams seeded from the Rng). Measuring tools, see BENCHMARKS.md.
    int learned_ply = 0;
    int rollouts = 0;
    int horizon = 1;
    // Instead of the search above: only its own move and its own extra throws after a 6 (`depth`
    // of them), each position scored with the exact capture chances of capture_chances() (opponents
    // uniform, taking a capture with probability opponent_greed) as the danger term, on the
    // heuristic with `weights`. As strong as the heuristic search, about four times faster; the
    // measuring tool of the capture experiments.
    bool exact_danger = false;
};

// The network `best` with `config` scores its leaves by for these options: none without
// `learned`, else `config.net` when set, else shipped_net_for(options) (the home_rules preset's
// only with `learned_home`).
const ValueNet* leaf_net(const BestConfig& config, const GameOptions& options) noexcept;

// The weights `best` plays with these options: `house_weights` under safe_squares or
// bonus_throws, else `weights`.
const Weights& weights_for(const BestConfig& config, const GameOptions& options) noexcept;

// The heuristic score of the position for `seat` (higher is better).
double evaluate(const Game& game, int seat, const Weights& weights);

// What an own block on circuit square `square` does to `opponent` (the block terms of evaluate()
// and of the learned value): whether it stands on the opponent's way round (`on_way`; `track` is
// where on the opponent's track), how many of the opponent's pieces on the circuit stand 1 to
// `reach` squares behind it (held up), and whether the opponent has pieces in its yard.
struct BlockEffect {
    bool on_way = false;
    int track = 0;
    int held = 0;
    bool yard = false;
};
BlockEffect block_effect(const Game& game, int opponent, int square, int reach);
// Whether piece `i` of `seat` stands in a block on the circuit as its lowest-numbered piece (so
// that each block is counted once).
bool first_of_block(const Game& game, int seat, int i);

// The probability that each piece of `seat` is captured before `seat` throws again, the other
// seats throwing in turn and choosing uniformly among their distinct legal choices, except that
// with probability `greed` they take a capture when they have one (their 6s followed one throw
// deep; each opponent judged on the current position).
std::array<double, kPiecesPerPlayer> capture_chances(const Game& game, int seat, double greed = 0);

// What `best` (with `config`, its search: not exact_danger, rollouts nor learned_ply) makes of each
// of legal_moves(), in that order: the higher the better; its choice is the first of the highest.
// Where move_values_are_win_chances(), each is the mover's chance to win (0 to 1) after the move,
// its next throw searched; elsewhere the heuristic search's score (evaluate()'s units, about a
// square of progress each). Precondition: awaiting_choice. What the analysis of a game reports.
std::vector<double> move_values(const Game& game, const BestConfig& config = {});
bool move_values_are_win_chances(const GameOptions& options, const BestConfig& config = {}) noexcept;

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
