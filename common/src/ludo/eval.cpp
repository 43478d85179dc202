// The learned evaluation of Classic Ludo positions (policy.h, "Learned value"): a feature vector
// of the position seen from one seat, and a small neural network (one hidden layer) that maps it
// to that seat's chance of winning. The shipped weights were trained by TD(lambda) against
// three `random` players (bench/ludo_td.cpp writes value_net_data.inc).
#include <algorithm>
#include <cmath>

#include "spookludo/ludo/policy.h"

namespace spookludo::ludo {

namespace {

constexpr std::size_t ux(int i) noexcept {
    return static_cast<std::size_t>(i);
}

// Progress counted from the yard: 0 in the yard, 1 on the entry square's track start, and so on.
int travelled(int p) noexcept {
    return p + 1;
}

}  // namespace

void value_features(const Game& game, int me, std::array<float, kValueFeatures>& x) {
    x.fill(0.0f);
    const Geometry& g = game.geometry();
    const int players = game.players();
    const int last = g.last_circuit_progress();
    const int home = g.home();
    const float full = static_cast<float>(kPiecesPerPlayer * (home + 1));
    const int entry = game.options().ludo.entry == LudoEntry::text ? 5 : 0;
    int k = 0;
    auto put = [&](double v) { x[ux(k++)] = static_cast<float>(v); };

    // --- Own pieces.
    const Colour mine = game.colour(me);
    int yard = 0, at_home = 0, column = 0, column_left = 0, total = 0;
    std::array<int, 13> bins{};
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        const int p = game.progress(me, i);
        total += travelled(p);
        if (p == kYard)
            ++yard;
        else if (p == home)
            ++at_home;
        else if (p > last) {
            ++column;
            column_left += home - p;
        } else {
            bins[ux(std::min(12, p * 13 / (last + 1)))] += 1;
        }
    }
    for (int v = 0; v <= 4; ++v) put(yard == v ? 1 : 0);     // 0..4
    for (int v = 0; v <= 4; ++v) put(at_home == v ? 1 : 0);  // 5..9
    for (int b = 0; b < 13; ++b) put(bins[ux(b)]);          // 10..22
    put(column);                                            // 23
    put(column_left / 5.0);                                 // 24
    put(static_cast<float>(total) / full);                                      // 25

    // --- Danger to own single pieces (exact, opponents uniform), blocks.
    const auto cap = capture_chances(game, me, 0.0);
    double danger = 0, danger_weighted = 0, danger_max = 0;
    int singles = 0, blocks = 0, held = 0, locked = 0;
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        const int p = game.progress(me, i);
        if (!g.on_circuit(p)) continue;
        const int sq = g.square_of(mine, p);
        if (game.is_block(sq)) {
            if (!first_of_block(game, me, i)) continue;
            ++blocks;
            for (int o = 0; o < players; ++o) {
                if (o == me || game.has_finished(o)) continue;
                const BlockEffect e = block_effect(game, o, sq, 6);
                if (!e.on_way) continue;
                held += e.held;
                if (e.yard && e.track <= entry) ++locked;
            }
            continue;
        }
        ++singles;
        const double c = cap[ux(i)];
        danger += c;
        danger_weighted += c * travelled(p) / (last + 1.0);
        danger_max = std::max(danger_max, c);
    }
    put(danger);           // 26
    put(danger_weighted);  // 27
    put(danger_max);       // 28
    put(singles / 4.0);    // 29
    put(blocks);           // 30
    put(held / 4.0);       // 31
    put(locked);           // 32

    // --- Threats: single opposing pieces 1..6 squares ahead of an own piece.
    int targets = 0;
    double target_value = 0;
    for (int o = 0; o < players; ++o) {
        if (o == me || game.has_finished(o)) continue;
        const Colour oc = game.colour(o);
        for (int j = 0; j < kPiecesPerPlayer; ++j) {
            const int q = game.progress(o, j);
            if (!g.on_circuit(q)) continue;
            const int sq = g.square_of(oc, q);
            if (game.is_block(sq) || (game.options().ludo.safe_squares && g.is_safe_square(sq))) continue;
            const int t = g.progress_at(mine, sq);  // where it stands on my track
            bool hit = false;
            for (int i = 0; i < kPiecesPerPlayer && !hit; ++i) {
                const int p = game.progress(me, i);
                if (!g.on_circuit(p)) continue;
                const int d = t - p;
                hit = d >= 1 && d <= 6 && t <= last;
            }
            if (hit) {
                ++targets;
                target_value += travelled(q) / (last + 1.0);
            }
        }
    }
    put(targets / 4.0);  // 33
    put(target_value);   // 34

    // --- Opponents, in seat order after me (empty seats count as finished nothing).
    double best_opp = 0, sum_opp = 0;
    for (int d = 1; d < kMaxPlayers; ++d) {
        if (d >= players) {
            for (int z = 0; z < 5; ++z) put(0);
            continue;
        }
        const int o = (me + d) % players;
        int oy = 0, oh = 0, ot = 0, os = 0, oc_left = 0;
        for (int j = 0; j < kPiecesPerPlayer; ++j) {
            const int q = game.progress(o, j);
            ot += travelled(q);
            if (q == kYard)
                ++oy;
            else if (q == home)
                ++oh;
            else if (q > last)
                oc_left += home - q;
            else if (!game.is_block(g.square_of(game.colour(o), q)))
                ++os;
        }
        put(oy / 4.0);           // yard
        put(oh / 4.0);           // home
        put(static_cast<float>(ot) / full);          // progress
        put(os / 4.0);           // singles on the circuit
        put(oc_left / 20.0);     // squares still to throw exactly in the home column
        best_opp = std::max(best_opp, ot / static_cast<double>(full));
        sum_opp += ot / static_cast<double>(full);
    }  // 35..49
    put(best_opp);                                                       // 50
    put(static_cast<float>(total) / full - best_opp);                                        // 51
    put(sum_opp / 3.0);                                                  // 52
    put(game.phase() == Phase::awaiting_throw && game.current_seat() == me ? 1 : 0);  // 53
    // k == kValueFeatures
}

double value_of(const ValueNet& net, const std::array<float, kValueFeatures>& x) {
    double out = net.b2;
    for (int h = 0; h < kValueHidden; ++h) {
        double a = net.b1[ux(h)];
        const float* w = &net.w1[ux(h * kValueFeatures)];
        for (int f = 0; f < kValueFeatures; ++f) a += w[f] * x[ux(f)];
        out += net.w2[ux(h)] * std::tanh(a);
    }
    return 1.0 / (1.0 + std::exp(-out));
}

double learned_value(const ValueNet& net, const Game& game, int me) {
    if (game.has_finished(me)) return 1.0;
    if (game.phase() == Phase::finished) return 0.0;
    std::array<float, kValueFeatures> x;
    value_features(game, me, x);
    return value_of(net, x);
}

Move learned_choice(const Game& game, const ValueNet& net, int ply) {
    const MoveList moves = game.legal_moves();
    if (moves.size() == 1) return moves[0];
    const int me = game.current_seat();
    int best = 0;
    double best_v = -1;
    for (int k = 0; k < moves.size(); ++k) {
        Game c = game;
        c.play(moves[k]);
        double v = 0;
        if (ply >= 2 && c.phase() == Phase::awaiting_throw && c.current_seat() == me) {
            for (Face f = 1; f <= 6; ++f) {  // the extra throw after a 6
                Game t = c;
                t.apply_throw(f);
                if (t.phase() != Phase::awaiting_choice) {
                    v += learned_value(net, t, me);
                    continue;
                }
                double b = -1;
                for (const Move& m : t.legal_moves()) {
                    Game u = t;
                    u.play(m);
                    b = std::max(b, learned_value(net, u, me));
                }
                v += b;
            }
            v /= 6;
        } else {
            v = learned_value(net, c, me);
        }
        if (v > best_v) {
            best_v = v;
            best = k;
        }
    }
    return moves[best];
}

Move rollout_choice(const Game& game, const ValueNet& net, int rollouts, int horizon, std::uint64_t seed) {
    const MoveList moves = game.legal_moves();
    if (moves.size() == 1) return moves[0];
    const int me = game.current_seat();
    int best = 0;
    double best_v = -1;
    for (int k = 0; k < moves.size(); ++k) {
        double sum = 0;
        for (int r = 0; r < rollouts; ++r) {
            // The same streams for every choice (common random numbers).
            std::uint64_t s = seed + static_cast<std::uint64_t>(r);
            Rng dice(splitmix64(s));
            Rng pick(splitmix64(s));
            Game g = game;
            g.play(moves[k]);
            int ended = 0;  // own turns ended since the choice
            bool mine = g.current_seat() == me;
            while (g.phase() != Phase::finished) {
                if (mine && g.current_seat() != me && ++ended > horizon) break;
                mine = g.current_seat() == me;
                g.apply_throw(static_cast<Face>(1 + dice.uniform(6)));
                if (g.phase() != Phase::awaiting_choice) continue;
                if (g.current_seat() == me) {
                    g.play(learned_choice(g, net, 1));
                } else {
                    const MoveList ms = g.legal_moves();
                    g.play(ms[static_cast<int>(pick.uniform(static_cast<std::uint32_t>(ms.size())))]);
                }
            }
            sum += learned_value(net, g, me);
        }
        if (sum > best_v) {
            best_v = sum;
            best = k;
        }
    }
    return moves[best];
}

namespace {

namespace classic {
#include "value_net_data.inc"
}  // namespace classic

namespace home {
#include "value_net_home_data.inc"
}  // namespace home

template <std::size_t W1, std::size_t H>
ValueNet net_of(const float (&w1)[W1], const float (&b1)[H], const float (&w2)[H], float b2) {
    static_assert(W1 == kValueFeatures * kValueHidden && H == kValueHidden);
    ValueNet n;
    for (std::size_t i = 0; i < n.w1.size(); ++i) n.w1[i] = w1[i];
    for (std::size_t i = 0; i < n.b1.size(); ++i) n.b1[i] = b1[i];
    for (std::size_t i = 0; i < n.w2.size(); ++i) n.w2[i] = w2[i];
    n.b2 = b2;
    return n;
}

bool four_on_six(const GameOptions& o) noexcept {
    return o.game == GameKind::ludo && o.players == 4 && o.ludo.arm == 6 && !o.play_on && !o.table;
}

}  // namespace

const ValueNet& shipped_value_net() {
    static const ValueNet net = net_of(classic::kNetW1, classic::kNetB1, classic::kNetW2, classic::kNetB2);
    return net;
}

const ValueNet& shipped_home_value_net() {
    static const ValueNet net = net_of(home::kNetW1, home::kNetB1, home::kNetW2, home::kNetB2);
    return net;
}

const ValueNet* shipped_net_for(const GameOptions& o) noexcept {
    if (!four_on_six(o)) return nullptr;
    if (o.ludo.entry == LudoEntry::text && !o.ludo.house_rules()) return &shipped_value_net();
    if (o.ludo == home_rules()) return &shipped_home_value_net();
    return nullptr;
}

bool learned_value_applies(const GameOptions& o) noexcept {
    return shipped_net_for(o) != nullptr;
}

}  // namespace spookludo::ludo
