#include "spookludo/ludo/policy.h"

#include <algorithm>
#include <optional>

#include <array>
#include <stdexcept>

namespace spookludo::ludo {

namespace {

constexpr std::size_t ix(int i) noexcept {
    return static_cast<std::size_t>(i);
}

constexpr double kWinScore = 10000;

double piece_value(const Geometry& g, int p, const Weights& w) noexcept {
    if (p == kYard) return 0;
    p = g.steps(p) < 0 ? 0 : p;  // behind its start square (capture_to_home): a new lap ahead
    double v = w.entered + w.progress * p + w.progress2 * p * p / g.home();
    if (p > g.last_circuit_progress()) v += w.home_column;
    if (p == g.home()) v += w.home;
    return v;
}

// Is the circuit path of `seat`'s piece from progress `first` to `last` free of blocks of other
// seats?
bool path_clear(const Game& game, int seat, Colour c, int first, int last) noexcept {
    const Geometry& g = game.geometry();
    for (int p = first; p <= last; ++p)
        if (game.blocks(seat, g.square_ahead(c, p))) return false;
    return true;
}

// Whether a piece on circuit square `sq` can be captured there at all (safe_squares).
bool capturable_on(const Game& game, int sq) noexcept {
    return !(game.options().ludo.safe_squares && game.geometry().is_safe_square(sq));
}

// Whether seat `o` plays against `me` (not itself, not its partner under teams).
bool against(const Game& game, int me, int o) noexcept {
    return game.side(o) != game.side(me);
}

// The faces with which `attacker` could land on circuit square `sq` (a bit per face 1..6).
// `far` counts the attacker's pieces 7 to 12 squares behind (a 6 and then the rest).
unsigned hitting_faces(const Game& game, int attacker, int sq, int& far) noexcept {
    const Geometry& g = game.geometry();
    const Colour c = game.colour(attacker);
    if (!capturable_on(game, sq)) return 0;
    const int t = g.progress_at(c, sq);  // where sq lies on the attacker's track
    if (t > g.last_circuit_progress()) return 0;
    const int entry = game.options().ludo.entry == LudoEntry::text ? 5 : 0;
    unsigned faces = 0;
    bool yard_checked = false;
    for (int j = 0; j < kPiecesPerPlayer; ++j) {
        const int q = game.progress(attacker, j);
        if (q == kYard) {
            if (!yard_checked && t == entry && path_clear(game, attacker, c, 0, entry - 1)) faces |= 1u << 6;
            yard_checked = true;
            continue;
        }
        if (!g.on_circuit(q)) continue;
        const int d = t - g.steps(q);
        if (d > 6 && d <= 12) ++far;
        if (d < 1 || d > 6) continue;
        if (faces & (1u << d)) continue;
        if (path_clear(game, attacker, c, g.steps(q) + 1, t - 1)) faces |= 1u << d;
    }
    return faces;
}

int popcount(unsigned x) noexcept {
    int n = 0;
    for (; x; x &= x - 1) ++n;
    return n;
}

double material(const Game& game, int seat, const Weights& w) noexcept {
    double v = 0;
    for (int i = 0; i < kPiecesPerPlayer; ++i) v += piece_value(game.geometry(), game.progress(seat, i), w);
    return v;
}

// The score of a game that is over for `me` (finished, or lost), or nothing while it goes on.
// Earlier finishers rank higher; under play_on the rest of the game no longer matters.
std::optional<double> terminal_score(const Game& game, int me) {
    if (game.options().ludo.teams) {
        // A team wins when both partners are home: until then a finished partner plays on
        // through the other.
        if (game.phase() != Phase::finished) return std::nullopt;
        const auto w = game.winners();
        return std::find(w.begin(), w.end(), me) != w.end() ? kWinScore : -kWinScore;
    }
    if (game.has_finished(me)) {
        int before = 0;
        for (int s = 0; s < game.players(); ++s)
            before += (s != me && game.has_finished(s) && *game.finished_at(s) < *game.finished_at(me)) ? 1 : 0;
        return kWinScore - 1000.0 * before;
    }
    if (game.phase() == Phase::finished) return -kWinScore;
    return std::nullopt;
}

}  // namespace

BlockEffect block_effect(const Game& game, int opponent, int square, int reach) {
    const Geometry& g = game.geometry();
    BlockEffect e;
    e.track = g.progress_at(game.colour(opponent), square);
    e.on_way = e.track <= g.last_circuit_progress();
    if (!e.on_way) return e;
    for (int j = 0; j < kPiecesPerPlayer; ++j) {
        const int q = game.progress(opponent, j);
        if (q == kYard)
            e.yard = true;
        else if (g.on_circuit(q) && e.track - q >= 1 && e.track - q <= reach)
            ++e.held;
    }
    return e;
}

bool first_of_block(const Game& game, int seat, int i) {
    const Geometry& g = game.geometry();
    const int p = game.progress(seat, i);
    if (!g.on_circuit(p) || !game.is_block(g.square_of(game.colour(seat), p))) return false;
    for (int j = 0; j < i; ++j)
        if (game.progress(seat, j) == p) return false;
    return true;
}

Weights house_rules_weights() noexcept {
    // Coordinate search from the defaults (x0.6 and x1.5 a term, 3,000 games against three
    // `random` on the home_rules preset, common dice): a piece out is worth less where the start
    // square is safe, the leader's material a little less, and single opposing pieces one throw
    // ahead (a capture earns a throw) a little more.
    Weights w;
    w.entered = 17.1;
    w.opponents = 1.176;
    w.threat = 0.5;
    return w;
}

const Weights& weights_for(const BestConfig& config, const GameOptions& options) noexcept {
    return options.ludo.safe_squares || options.ludo.bonus_throws ? config.house_weights : config.weights;
}

namespace {

// The opposing material evaluate() weighs against one's own: the strongest opponent's, or under
// teams the opposing team's (the mean of its two players: it wins when both are home).
double opposing_material(const Game& game, int me, const Weights& w) {
    double strongest = 0, team = 0;
    int in_team = 0;
    for (int o = 0; o < game.players(); ++o) {
        if (!against(game, me, o)) continue;
        const double m = material(game, o, w);
        team += m;
        ++in_team;
        if (game.has_finished(o)) continue;
        strongest = m > strongest ? m : strongest;
    }
    if (game.options().ludo.teams) return in_team ? team / in_team : 0;
    return strongest;
}

// capture_to_home: a player who has not captured yet cannot bring a piece home; every piece not
// home carries that debt until the first capture.
double home_lock(const Game& game, int seat) {
    if (!game.options().ludo.capture_to_home || game.has_captured(seat)) return 0;
    return 6.0 * (kPiecesPerPlayer - game.pieces_home(seat));
}

// evaluate()'s terms of one seat's own pieces: material, exposure, blocks, threats, danger.
double own_part(const Game& game, int me, const Weights& w) {
    const int players = game.players();
    const Geometry& g = game.geometry();
    const Colour mine = game.colour(me);
    double own = material(game, me, w) - home_lock(game, me);

    // Exposure: every single piece on the circuit shares the throws with the others there, so the
    // more pieces out, the longer each stays in reach of opposing pieces on its way round.
    int out = 0;
    int to_go = 0;
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        const int p = game.progress(me, i);
        if (g.on_circuit(p) && !game.is_block(g.square_of(mine, p)) && capturable_on(game, g.square_of(mine, p))) {
            ++out;
            to_go += g.last_circuit_progress() + 1 - g.steps(p);
        }
    }
    own -= w.exposure * out * to_go;

    // Danger: the expected loss from captures before this seat throws again, and the blocks.
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        const int p = game.progress(me, i);
        if (!g.on_circuit(p)) continue;
        const int sq = g.square_of(mine, p);
        if (game.is_block(sq)) {
            if (!first_of_block(game, me, i)) continue;
            own += w.block;
            const int entry = game.options().ludo.entry == LudoEntry::text ? 5 : 0;
            for (int o = 0; o < players; ++o) {
                if (!against(game, me, o) || game.has_finished(o)) continue;
                const BlockEffect e = block_effect(game, o, sq, 6);
                if (!e.on_way) continue;
                for (int k = 0; k < e.held; ++k) own += w.blockade;
                if (e.yard && e.track <= entry) own += w.lockout;
            }
            continue;
        }
        if (w.threat != 0) {
            // Threats: single opposing pieces one throw ahead (captures are forward only, so a
            // piece behind them is also out of their reach).
            for (int d = 1; d <= 6 && g.steps(p) + d <= g.last_circuit_progress(); ++d) {
                const int ahead = g.square_ahead(mine, g.steps(p) + d);
                const int o = game.occupant(ahead);
                if (o < 0) continue;
                if (game.blocks(me, ahead)) break;
                if (!against(game, me, o) || !capturable_on(game, ahead)) continue;
                own += w.threat / 6.0 * piece_value(g, g.progress_at(game.colour(o), ahead), w);
            }
        }
        double safe = 1;
        for (int o = 0; o < players; ++o) {
            if (!against(game, me, o) || game.has_finished(o)) continue;
            int far = 0;
            const unsigned faces = hitting_faces(game, o, sq, far);
            const double hit = popcount(faces) / 6.0 + w.far * far / 36.0;
            if (hit > 0) safe *= hit < 1 ? 1.0 - hit : 0.0;
        }
        own -= w.danger * (1.0 - safe) * piece_value(g, p, w);
    }
    return own;
}

}  // namespace

double evaluate(const Game& game, int me, const Weights& w) {
    if (auto end = terminal_score(game, me)) return *end;
    double own = own_part(game, me, w);
    // Under teams the partner's pieces are one's own too.
    if (const int p = game.partner(me); p >= 0) own += own_part(game, p, w);
    return own - w.opponents * opposing_material(game, me, w);
}

namespace {

// The greedy choice of the seat to move: the best position one step ahead.
int greedy_index(const Game& game, const MoveList& moves, const Weights& w) {
    if (moves.size() == 1) return 0;
    const int seat = game.current_seat();
    int best = 0;
    double best_value = -1e300;
    for (int k = 0; k < moves.size(); ++k) {
        Game child = game;
        child.play(moves[k]);
        const double v = evaluate(child, seat, w);
        if (v > best_value) {
            best_value = v;
            best = k;
        }
    }
    return best;
}

struct Search {
    int me;
    const Weights& w;
    double greed;
    Weights model = greedy_weights();  // how the opponents are assumed to weigh their choices
    long budget;
    long nodes = 0;
    const ValueNet* net = nullptr;  // score the leaves by the learned value instead

    // The expected score of a position awaiting a throw, looking `plies` throws ahead.
    double chance(const Game& game, int plies) {
        if (game.phase() == Phase::finished || plies == 0 || nodes >= budget) {
            ++nodes;
            return net ? learned_value(*net, game, me) : evaluate(game, me, w);
        }
        double sum = 0;
        for (Face f = 1; f <= 6; ++f) {
            Game c = game;
            c.apply_throw(f);
            if (c.phase() != Phase::awaiting_choice) {
                sum += chance(c, plies - 1);
                continue;
            }
            const MoveList moves = c.legal_moves();
            if (c.current_seat() == me) {
                double best = -1e300;
                for (const Move& m : moves) {
                    Game child = c;
                    child.play(m);
                    const double v = chance(child, plies - 1);
                    best = v > best ? v : best;
                }
                sum += best;
            } else if (moves.size() == 1 || greed >= 1) {
                const int k = greedy_index(c, moves, model);
                nodes += moves.size() > 1 ? moves.size() : 0;
                Game child = c;
                child.play(moves[k]);
                sum += chance(child, plies - 1);
            } else {
                // The opponent plays its greedy choice with probability `greed`, otherwise any.
                const int k = greed > 0 ? greedy_index(c, moves, model) : 0;
                double total = 0, chosen = 0;
                for (int j = 0; j < moves.size(); ++j) {
                    Game child = c;
                    child.play(moves[j]);
                    const double v = chance(child, plies - 1);
                    total += v;
                    if (j == k) chosen = v;
                }
                sum += greed * chosen + (1 - greed) * total / moves.size();
            }
        }
        return sum / 6;
    }
};

// ---------------------------------------------------------------------------------------------
// The exact-danger variant of `best` (BestConfig::exact_danger): its own move and its own extra
// throws after a 6, each position scored with the capture chances of capture_chances() instead of
// the one-throw reach of evaluate(). As strong as the default search (within a point, see
// BENCHMARKS.md), about four times faster; kept as the measuring tool of the capture experiments.

// Adds to cap[i] the probability that seat `o`, about to throw in `g`, captures piece i of `me`
// during its turn (its 6s included, `chain` more throws deep), the turn being reached with
// probability `weight`. The opponent picks uniformly among its distinct legal choices, except
// that with probability `greed` it takes a capture when it has one.
void opponent_turn(const Game& g, int o, int me, double weight, int chain, double greed,
                   std::array<double, kPiecesPerPlayer>& cap) {
    for (Face f = 1; f <= 6; ++f) {
        const MoveList ms = g.legal_moves_for(o, f);
        const int k = ms.size();
        if (k == 0) continue;
        int captures = 0;
        for (const Move& m : ms) captures += m.captures() ? 1 : 0;
        const double base = weight / 6.0;
        for (const Move& m : ms) {
            double q = (captures > 0 ? (1 - greed) : 1.0) / k;
            if (captures > 0 && m.captures()) q += greed / captures;
            const double w = base * q;
            if (m.captured_seat == me) cap[ix(m.captured_piece)] += w;
            if (f == 6 && chain > 0) {
                Game c = g;
                c.start_with(o);
                c.apply_throw(6);
                c.play(m);
                if (c.phase() == Phase::awaiting_throw && c.current_seat() == o)
                    opponent_turn(c, o, me, w, chain - 1, greed, cap);
            }
        }
    }
}

}  // namespace

std::array<double, kPiecesPerPlayer> capture_chances(const Game& g, int me, double greed) {
    std::array<double, kPiecesPerPlayer> survive{1, 1, 1, 1};
    const int players = g.players();
    for (int d = 1; d < players; ++d) {
        const int o = (me + d) % players;
        if (g.has_finished(o) || !against(g, me, o)) continue;
        std::array<double, kPiecesPerPlayer> cap{};
        opponent_turn(g, o, me, 1.0, 1, greed, cap);
        for (int i = 0; i < kPiecesPerPlayer; ++i) survive[ix(i)] *= 1 - (cap[ix(i)] < 1 ? cap[ix(i)] : 1.0);
    }
    std::array<double, kPiecesPerPlayer> out{};
    for (int i = 0; i < kPiecesPerPlayer; ++i) out[ix(i)] = 1 - survive[ix(i)];
    return out;
}

namespace {

// evaluate() with the exact danger: material, blocks (with blockade and lockout), exposure, the
// expected loss from captures before the next own throw, the strongest opponent's material.
double best_evaluate(const Game& game, int me, const Weights& w, double greed) {
    const int players = game.players();
    if (auto end = terminal_score(game, me)) return *end;
    const Geometry& g = game.geometry();
    const Colour mine = game.colour(me);
    double own = material(game, me, w) - home_lock(game, me);
    int out = 0;
    int to_go = 0;
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        const int p = game.progress(me, i);
        if (!g.on_circuit(p)) continue;
        const int sq = g.square_of(mine, p);
        if (game.is_block(sq)) {
            if (!first_of_block(game, me, i)) continue;
            own += w.block;
            for (int o = 0; o < players; ++o) {
                if (!against(game, me, o) || game.has_finished(o)) continue;
                const BlockEffect e = block_effect(game, o, sq, w.blockade_reach);
                if (!e.on_way) continue;
                for (int k = 0; k < e.held; ++k) own += w.blockade;
                if (e.yard) own += w.lockout;
            }
            continue;
        }
        ++out;
        to_go += g.last_circuit_progress() + 1 - g.steps(p);
    }
    own -= w.exposure * out * to_go;
    const auto cap = capture_chances(game, me, greed);
    for (int i = 0; i < kPiecesPerPlayer; ++i)
        if (cap[ix(i)] > 0) own -= w.danger * cap[ix(i)] * piece_value(g, game.progress(me, i), w);
    return own - w.opponents * opposing_material(game, me, w);
}

struct BestSearch {
    int me;
    const Weights& w;
    double greed;

    // The value of a position after one of our moves: our own extra throws after a 6 are searched
    // `depth` deep, then the position is scored.
    double after_move(const Game& game, int depth) {
        if (game.phase() == Phase::finished || game.current_seat() != me || depth == 0)
            return best_evaluate(game, me, w, greed);
        double sum = 0;
        for (Face f = 1; f <= 6; ++f) {
            Game c = game;
            c.apply_throw(f);
            if (c.phase() != Phase::awaiting_choice) {
                sum += best_evaluate(c, me, w, greed);
                continue;
            }
            double best = -1e300;
            for (const Move& m : c.legal_moves()) {
                Game child = c;
                child.play(m);
                const double v = after_move(child, depth - 1);
                best = v > best ? v : best;
            }
            sum += best;
        }
        return sum / 6;
    }
};

}  // namespace

const ValueNet* leaf_net(const BestConfig& config, const GameOptions& options) noexcept {
    if (!config.learned) return nullptr;
    if (config.net) return config.net;
    const ValueNet* shipped = shipped_net_for(options);
    return shipped == &shipped_home_value_net() && !config.learned_home ? nullptr : shipped;
}

Move choose_move(PolicyKind policy, const Game& game, Rng& rng, const BestConfig& config) {
    const MoveList moves = game.legal_moves();
    if (moves.empty()) throw std::logic_error("choose_move: there is no choice to make");
    if (moves.size() == 1) return moves[0];
    switch (policy) {
        case PolicyKind::random:
            return moves[static_cast<int>(rng.uniform(static_cast<std::uint32_t>(moves.size())))];
        case PolicyKind::greedy:
            return moves[greedy_index(game, moves, greedy_weights())];
        case PolicyKind::best:
            break;
    }
    if (config.exact_danger) {
        BestSearch bs{game.current_seat(), weights_for(config, game.options()), config.opponent_greed};
        int best = 0;
        double best_value = -1e300;
        for (int k = 0; k < moves.size(); ++k) {
            Game child = game;
            child.play(moves[k]);
            const double v = bs.after_move(child, config.depth);
            if (v > best_value) {
                best_value = v;
                best = k;
            }
        }
        return moves[best];
    }
    if (const ValueNet* net = leaf_net(config, game.options())) {
        if (config.rollouts > 0) return rollout_choice(game, *net, config.rollouts, config.horizon, rng.next());
        if (config.learned_ply > 0) return learned_choice(game, *net, config.learned_ply);
    }
    const std::vector<double> values = move_values(game, config);
    int best = 0;
    double best_value = -1e300;
    for (int k = 0; k < moves.size(); ++k) {
        if (values[static_cast<std::size_t>(k)] > best_value) {
            best_value = values[static_cast<std::size_t>(k)];
            best = k;
        }
    }
    return moves[best];
}

bool move_values_are_win_chances(const GameOptions& options, const BestConfig& config) noexcept {
    return leaf_net(config, options) != nullptr && !config.exact_danger;
}

std::vector<double> move_values(const Game& game, const BestConfig& config) {
    const MoveList moves = game.legal_moves();
    const ValueNet* net = leaf_net(config, game.options());
    const int depth = net ? config.learned_depth : config.depth;
    // Expectimax: deepen while the estimated cost fits the node budget.
    int plies = 0;
    long estimate = moves.size();
    while (plies < depth && estimate * 6 * 3 <= config.node_budget) {
        estimate *= 6 * 3;
        ++plies;
    }
    Search search{game.current_seat(), weights_for(config, game.options()), config.opponent_greed, greedy_weights(),
                  config.node_budget};
    search.net = net;
    std::vector<double> values;
    for (int k = 0; k < moves.size(); ++k) {
        Game child = game;
        child.play(moves[k]);
        values.push_back(search.chance(child, plies));
    }
    return values;
}

int choose_piece(PolicyKind policy, const Game& game, Rng& rng, const BestConfig& config) {
    return choose_move(policy, game, rng, config).piece;
}

}  // namespace spookludo::ludo

namespace spookludo {

GameOutcome play_ludo_game(const GameOptions& options, const std::vector<PolicyKind>& seats, Dice& dice,
                           Rng& policy_rng) {
    ludo::Game game(options);
    if (static_cast<int>(seats.size()) != game.players())
        throw std::invalid_argument("play_ludo_game: " + std::to_string(game.players()) + " players but " +
                                    std::to_string(seats.size()) + " policies");
    game.roll_off(dice);
    // A safety net far beyond any real game (typical games last a few hundred throws).
    constexpr int kMaxTurns = 1'000'000;
    while (game.phase() != ludo::Phase::finished && game.turns() < kMaxTurns) {
        game.throw_die(dice);
        if (game.phase() != ludo::Phase::awaiting_choice) continue;
        game.play(ludo::choose_move(seats[static_cast<std::size_t>(game.current_seat())], game, policy_rng));
    }
    return GameOutcome{game.winners(), game.turns()};
}

}  // namespace spookludo
