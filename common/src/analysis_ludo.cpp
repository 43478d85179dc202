// The analysis of a Classic Ludo record (analysis.h, docs/analysis.md): the record replayed throw
// by throw, each real choice valued by the `best` policy's own evaluation (ludo::move_values):
// the chance to win where the learned value applies (4 players, arm 6, the text's entry, first
// home wins, no three-6s rule), elsewhere its heuristic search, reported as a rank.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "spookludo/analysis.h"
#include "spookludo/game_view.h"
#include "spookludo/ludo/game.h"
#include "spookludo/ludo/policy.h"
#include "spookludo/verify.h"

namespace spookludo::analysis_detail {

using nlohmann::json;
using namespace ludo;

namespace {

constexpr double kTie = 1e-9;

// Each player's chance to win from a position: the learned value of each (its estimate against
// opponents who play at random, what it was trained against) as a share of the table, so that the
// chances add up to 1.
std::vector<double> shares(const Game& game) {
    std::vector<double> v;
    double sum = 0;
    const ValueNet& net = *shipped_net_for(game.options());
    for (int s = 0; s < game.players(); ++s) {
        v.push_back(learned_value(net, game, s));
        sum += v.back();
    }
    for (double& x : v) x = sum > 0 ? x / sum : 1.0 / game.players();
    return v;
}

struct Account {
    double start = 0;  // chance to win at the start, 0 to 1 (points only)
    double cost = 0;   // points, or places below the best (rank)
    int decisions = 0;
    int best_choices = 0;
    std::optional<std::size_t> worst;
    double worst_cost = 0, worst_difference = 0;
    int throws = 0, sixes = 0, pips = 0;
};

class LudoAnalysis {
public:
    LudoAnalysis(const GameRecord& r, const AnalysisOptions& o, json& out)
        : r_(r), o_(o), out_(out), game_(r.options), points_(move_values_are_win_chances(r.options)) {}

    void run() {
        seats_ = room_seats(r_);
        const int players = game_.players();
        accounts_.resize(static_cast<std::size_t>(players));
        RecordedDice dice(r_.draws);
        if (points_) {
            // Before the roll-off every seat is as likely to start: the mean over who starts.
            for (int t = 0; t < players; ++t) {
                Game g(r_.options);
                g.start_with(t);
                const std::vector<double> at_start = shares(g);
                for (int s = 0; s < players; ++s) account(s).start += at_start[static_cast<std::size_t>(s)] / players;
            }
        }
        EventLog log;
        game_.roll_off(dice, &log);
        {
            json faces = json::array();
            for (const Event& e : log)
                if (e.kind == EventKind::roll_off_throw) faces.push_back({{"seat", room(e.seat)}, {"face", e.face}});
            json step = new_step("roll_off", std::nullopt, game_.current_seat(), std::nullopt, text_of(log));
            step["faces"] = std::move(faces);
            step["events"] = events_json(log);
            push(std::move(step));
        }
        std::size_t next_choice = 0;
        while (game_.phase() != Phase::finished) {
            if (static_cast<int>(out_["steps"].size()) + 1 > o_.max_steps) {
                out_["cut"] = true;
                break;
            }
            Face face = 0;
            try {
                face = dice.roll(DrawPurpose::throw_);
            } catch (const RecordEnded&) {
                break;  // an abandoned game ends between throws
            }
            const int mover = game_.current_seat();
            log.clear();
            game_.apply_throw(face, &log);
            const int turn = game_.turns();
            Account& a = account(mover);
            ++a.throws;
            a.pips += face;
            a.sixes += face == 6 ? 1 : 0;
            if (next_choice < r_.choices.size() && r_.choices[next_choice].step < turn)
                throw std::invalid_argument("throw " + std::to_string(r_.choices[next_choice].step) +
                                            ": a choice is recorded but that throw had nothing to choose");
            std::vector<int> step_decisions;
            bool partial = false;
            if (game_.phase() == Phase::awaiting_choice) {
                const MoveList moves = game_.legal_moves();
                if (moves.size() == 1) {
                    game_.play(moves[0], &log);
                } else if (next_choice < r_.choices.size() && r_.choices[next_choice].step == turn) {
                    const RecordedChoice& c = r_.choices[next_choice++];
                    if (Verdict v = game_.check(c.seat, c.piece); !v)
                        throw std::invalid_argument("throw " + std::to_string(turn) + ": " + v.reason);
                    step_decisions.push_back(decide(c, out_["steps"].size(), turn));
                    (void)game_.choose(c.seat, c.piece, &log);
                } else if (dice.exhausted() && r_.result.status == GameStatus::abandoned) {
                    partial = true;  // abandoned while the player was choosing
                } else {
                    throw std::invalid_argument("throw " + std::to_string(turn) + ": no choice is recorded");
                }
            }
            json step = new_step("throw", turn, mover, face, text_of(log));
            step["decisions"] = step_decisions;
            step["events"] = events_json(log);
            if (partial) {
                step["partial"] = true;
                push(std::move(step), false);
                break;
            }
            push(std::move(step));
        }
        if (next_choice != r_.choices.size() && out_["cut"] != true)
            throw std::invalid_argument("choice " + std::to_string(next_choice + 1) + " of the record was never asked for");
        summarise();
    }

private:
    Account& account(int s) { return accounts_[static_cast<std::size_t>(s)]; }
    int room(int s) const {
        return s >= 0 && s < static_cast<int>(seats_.size()) ? seats_[static_cast<std::size_t>(s)] : s;
    }

    std::string text_of(const EventLog& log) const {
        std::string text;
        for (const Event& e : log) {
            if (e.kind == EventKind::turn) continue;  // the next step says who throws
            text += (text.empty() ? "" : "; ") + describe(e, game_.players());
        }
        return text;
    }

    // The step's events as the `throw` and `move` messages show them (PROTOCOL.md), by room seat.
    json events_json(const EventLog& log) const {
        json list = json::array();
        for (const Event& e : log) {
            json v{{"kind", std::string(to_string(e.kind))}};  // (the step's text has the English)
            if (e.seat >= 0) {
                v["seat"] = room(e.seat);
                v["colour"] = std::string(to_string(colour_of_seat(game_.players(), e.seat)));
            }
            if (e.kind == EventKind::throw_) v["turn"] = e.turn;
            if (e.piece >= 0) v["piece"] = e.piece;
            if (e.face > 0) v["face"] = e.face;
            if (e.kind == EventKind::entered || e.kind == EventKind::moved || e.kind == EventKind::captured ||
                e.kind == EventKind::circles || e.kind == EventKind::safe_square) {
                v["from"] = e.from;
                v["to"] = e.to;
                if (e.square >= 0) v["square"] = e.square;
            }
            // The house rules' fields, as the live events carry them (server/rooms/table.cpp).
            if (e.kind == EventKind::extra_throw) {
                static constexpr const char* reasons[] = {"six", "capture", "home"};
                v["reason"] = reasons[e.detail >= 0 && e.detail <= 2 ? e.detail : 0];
            }
            if ((e.kind == EventKind::safe_square || e.kind == EventKind::team_finished) && e.detail >= 0)
                v["with"] = room(e.detail);
            list.push_back(std::move(v));
        }
        return list;
    }

    json new_step(const char* kind, std::optional<int> turn, std::optional<int> seat, std::optional<int> face,
                  std::string text) const {
        json step;
        step["kind"] = kind;
        step["round"] = nullptr;
        step["turn"] = turn ? json(*turn) : json(nullptr);
        step["seat"] = seat ? json(room(*seat)) : json(nullptr);
        step["face"] = face ? json(*face) : json(nullptr);
        step["text"] = std::move(text);
        step["decisions"] = json::array();
        return step;
    }
    // `whole`: the step was played out; its chances are the luck's end point so far.
    void push(json step, bool whole = true) {
        step["position"] = ludo_view(game_, seats_);
        if (points_) {
            std::vector<double> chances = shares(game_);
            json list = json::array();
            for (double c : chances) list.push_back(rounded(c));
            step["win_chances"] = std::move(list);  // in play order
            if (whole) end_ = std::move(chances);
        }
        out_["steps"].push_back(std::move(step));
    }

    int decide(const RecordedChoice& c, std::size_t step, int turn) {
        const MoveList moves = game_.legal_moves();
        const std::vector<double> values = move_values(game_);
        const int from = game_.progress(c.seat, c.piece);
        int chosen = -1, best = 0;
        for (int k = 0; k < moves.size(); ++k) {
            if (moves[k].from == from) chosen = k;
            if (values[static_cast<std::size_t>(k)] > values[static_cast<std::size_t>(best)]) best = k;
        }
        if (chosen < 0) throw std::invalid_argument("throw " + std::to_string(turn) + ": the recorded piece cannot move");
        auto rank_of = [&](double v) {
            int rank = 1;
            for (double o : values) rank += o > v + kTie ? 1 : 0;
            return rank;
        };
        // Shown: the policy's values; as the chance to win, each turned into the mover's share of
        // the table (its value against the others' at the position the move leaves).
        std::vector<double> shown = values;
        if (points_)
            for (int k = 0; k < moves.size(); ++k) {
                Game child = game_;
                child.play(moves[k]);
                double others = 0;
                for (int t = 0; t < child.players(); ++t)
                    if (t != c.seat) others += learned_value(*shipped_net_for(child.options()), child, t);
                const double mine = values[static_cast<std::size_t>(k)];
                shown[static_cast<std::size_t>(k)] = mine + others > 0 ? mine / (mine + others) : 0.0;
            }
        const double scale = points_ ? 100.0 : 1.0;
        auto move_json = [&](const Move& m, int piece) {
            return json{{"piece", piece}, {"from", m.from}, {"to", m.to}, {"captures", m.captures()}};
        };
        json options = json::array();
        for (int k = 0; k < moves.size(); ++k) {
            json o = move_json(moves[k], moves[k].piece);
            o["value"] = rounded(scale * shown[static_cast<std::size_t>(k)]);
            o["rank"] = rank_of(values[static_cast<std::size_t>(k)]);
            options.push_back(std::move(o));
        }
        const double difference =
            std::max(0.0, shown[static_cast<std::size_t>(best)] - shown[static_cast<std::size_t>(chosen)]);
        const int rank = rank_of(values[static_cast<std::size_t>(chosen)]);
        const double cost = points_ ? scale * difference : rank - 1;
        json d = analysis_detail::decision_head(step, room(c.seat), std::nullopt, turn, c.maker,
                                                r_.seats[static_cast<std::size_t>(c.seat)].bot);
        d["chosen"] = move_json(moves[chosen], c.piece);
        d["best"] = move_json(moves[best], moves[best].piece);
        d["options"] = std::move(options);
        d["unit"] = points_ ? "points" : "rank";
        d["cost"] = rounded(cost);
        d["difference"] = rounded(scale * difference);
        d["rank"] = rank;
        d["of"] = moves.size();
        const int index = static_cast<int>(out_["decisions"].size());
        out_["decisions"].push_back(std::move(d));
        Account& a = account(c.seat);
        a.cost += cost;
        ++a.decisions;
        a.best_choices += rank == 1 ? 1 : 0;
        if (cost > kTie && (!a.worst || cost > a.worst_cost + kTie ||
                            (cost > a.worst_cost - kTie && difference > a.worst_difference))) {
            a.worst = static_cast<std::size_t>(index);
            a.worst_cost = cost;
            a.worst_difference = difference;
        }
        return index;
    }

    void summarise() {
        for (int s = 0; s < game_.players(); ++s) {
            const Account& a = accounts_[static_cast<std::size_t>(s)];
            json sum;
            sum["seat"] = room(s);
            sum["name"] = r_.seats[static_cast<std::size_t>(s)].name;
            sum["start"] = {{"win_chance", points_ ? json(rounded(a.start)) : json(nullptr)}};
            sum["decisions"] = a.decisions;
            sum["best_choices"] = a.best_choices;
            sum["cost"] = rounded(a.cost);
            if (a.worst) {
                const json& d = out_["decisions"][*a.worst];
                sum["worst"] = {{"step", d["step"]}, {"round", nullptr}, {"turn", d["turn"]}, {"decision", *a.worst},
                                {"cost", d["cost"]}};
            } else {
                sum["worst"] = nullptr;
            }
            const auto& places = r_.result.places;
            const int place = s < static_cast<int>(places.size()) ? places[static_cast<std::size_t>(s)] : 0;
            json finish = {{"place", place > 0 ? json(place) : json(nullptr)},
                           {"turn", game_.finished_at(s) ? json(*game_.finished_at(s)) : json(nullptr)}};
            if (points_) {
                const double end = end_[static_cast<std::size_t>(s)];
                finish["win_chance"] = rounded(end);
                // luck = end - start + cost (points the dice and the others' moves gave).
                sum["luck"] = rounded(100.0 * (end - a.start) + a.cost);
            } else {
                sum["luck"] = nullptr;
            }
            sum["unit"] = points_ ? "points" : "rank";
            sum["finish"] = std::move(finish);
            sum["dice"] = {{"throws", a.throws},
                           {"sixes", a.sixes},
                           {"expected_sixes", rounded(a.throws / 6.0)},
                           {"mean_face", a.throws ? rounded(static_cast<double>(a.pips) / a.throws) : 0.0}};
            out_["summary"].push_back(std::move(sum));
        }
    }

    const GameRecord& r_;
    const AnalysisOptions& o_;
    json& out_;
    Game game_;
    bool points_;
    std::vector<int> seats_;
    std::vector<Account> accounts_;
    std::vector<double> end_;  // each player's chance to win after the last whole step
};

}  // namespace

void analyse_ludo(const GameRecord& record, const AnalysisOptions& options, json& out) {
    try {
        LudoAnalysis(record, options, out).run();
    } catch (const VerifyError& e) {
        throw std::invalid_argument(e.what());
    } catch (const std::logic_error& e) {
        throw std::invalid_argument(std::string("the record cannot be replayed: ") + e.what());
    }
}

}  // namespace spookludo::analysis_detail
