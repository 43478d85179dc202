// The analysis of a Spook & Werewolf record (analysis.h, docs/analysis.md): the record replayed
// round by round, each real choice valued by the board's exact solution, and each player's
// expected finish followed through the rounds so that the choices' cost and the dice's luck
// add up to the difference between the start's expectation and the finish.
#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

#include "spookludo/analysis.h"
#include "spookludo/game_view.h"
#include "spookludo/spook/game.h"
#include "spookludo/spook/match.h"
#include "spookludo/spook/setup.h"
#include "spookludo/spook/solver.h"
#include "spookludo/verify.h"

namespace spookludo::analysis_detail {

using nlohmann::json;
using namespace spook;

namespace {

constexpr double kTie = 1e-9;

// Adds a sentence to a step's text.
void say(std::string& text, const std::string& sentence) {
    text += ' ';
    text += sentence;
}

std::string square_label(const Board& board, Square s) {
    if (s == kChurch) return "church";
    if (is_entrance(s)) return "entrance";
    return std::string(id_of(board.at(s)));
}

// Per player: the expected finish followed through the game, and what changed it.
struct Account {
    double start = 0;           // expected rounds to finish at the start
    double cost = 0;            // the choices' cost, rounds
    double luck_movement = 0;   // rounds the movement rolls gained (negative: lost)
    double luck_activation = 0; // rounds the activation rolls gained
    int decisions = 0;
    std::optional<std::size_t> worst;  // index into the document's decisions
    double worst_cost = 0;
    double q_chosen = 0;        // this round: the value of the move made
    double expected_end = 0;    // after the last whole round: the round finished in, or the rounds
                                // played and the expected rounds still to go
};

class SpookAnalysis {
public:
    SpookAnalysis(const GameRecord& r, const AnalysisOptions& o, json& out) : r_(r), o_(o), out_(out) {}

    void run() {
        const int players = r_.options.players;
        if (static_cast<int>(r_.boards.size()) != players)
            throw std::invalid_argument("the record publishes " + std::to_string(r_.boards.size()) + " boards for " +
                                        std::to_string(players) + " players");
        std::vector<Board> published;
        for (const auto& b : r_.boards) published.push_back(Board::from_notation(b));
        seats_ = room_seats(r_);
        RecordedDice dice(r_.draws);
        const std::vector<int> assignment = draw_assignment(players, dice);
        game_.emplace(r_.options, boards_by_seat(published, assignment));
        const Game& game = *game_;
        const int need = r_.options.spook.pieces_to_finish();
        SolutionCache local;
        for (int s = 0; s < players; ++s) {
            solutions_.push_back(o_.solve ? o_.solve(game.board(s), game.pieces(), need)
                                          : local.get(game.board(s), game.pieces(), need));
            accounts_.push_back({});
            accounts_.back().start = solutions_.back()->expected_finish();
            accounts_.back().expected_end = accounts_.back().start;
        }
        {
            std::string text = "Boards assigned:";
            for (int s = 0; s < players; ++s)
                say(text, name(s) + " board " + std::to_string(assignment[static_cast<std::size_t>(s)] + 1) +
                              (s + 1 < players ? "," : "."));
            json step = new_step("assignment", std::nullopt, std::nullopt, std::nullopt, std::move(text));
            step["assignment"] = assignment;
            push(std::move(step));
        }

        std::size_t next_choice = 0;
        int whole_rounds = 0;
        while (!game.over()) {
            if (static_cast<int>(out_["steps"].size()) + 2 > o_.max_steps) {
                out_["cut"] = true;
                break;
            }
            const int round = game.round();
            Face face = 0;
            try {
                face = dice.roll(DrawPurpose::movement);
            } catch (const RecordEnded&) {
                break;  // an abandoned game ends between rounds
            }
            (void)game_->roll_movement(face);
            // Before anyone moves: each player's expectation, and the best this roll allows.
            std::vector<double> before(static_cast<std::size_t>(players), 0), best_after(before);
            for (int s = 0; s < players; ++s) {
                if (!game.in_play(s)) continue;
                const auto pos = game.player(s).positions();
                before[static_cast<std::size_t>(s)] = solution(s).expected_rounds(pos);
                double best = solution(s).expected_after_move(pos);  // nobody can move: stays put
                bool any = false;
                for (const Move& m : game.legal_moves(s)) {
                    const double v = value_of(s, m);
                    best = any ? std::min(best, v) : v;
                    any = true;
                }
                best_after[static_cast<std::size_t>(s)] = best;
                account(s).q_chosen = best;  // unless the player chooses otherwise below
            }
            const std::size_t step_index = out_["steps"].size();
            std::vector<int> step_decisions;
            for (; next_choice < r_.choices.size() && r_.choices[next_choice].step == round; ++next_choice) {
                const RecordedChoice& c = r_.choices[next_choice];
                if (!game.needs_decision(c.seat))
                    throw std::invalid_argument("round " + std::to_string(round) + ": a choice is recorded for seat " +
                                                std::to_string(c.seat + 1) + ", which had nothing to choose");
                step_decisions.push_back(decide(c, step_index, round, face));
                if (auto v = game_->choose(c.seat, c.piece, source_of(c.maker)); !v)
                    throw std::invalid_argument("round " + std::to_string(round) + ": " + v.reason);
            }
            const bool partial = r_.result.status == GameStatus::abandoned && dice.exhausted();
            if (partial && !game.awaiting().empty()) {
                // Abandoned while players were choosing: the roll and the choices made, no moves.
                json step = new_step("movement", round, std::nullopt, face,
                                     "Round " + std::to_string(round) + ": movement roll " + std::to_string(face) +
                                         " (the game was abandoned while players were choosing)");
                step["partial"] = true;
                step["decisions"] = step_decisions;
                push(std::move(step));
                mark_uncounted(step_decisions);
                break;
            }
            if (auto v = game_->apply_moves(); !v) throw std::invalid_argument("round " + std::to_string(round) + ": " + v.reason);
            {
                std::string text = "Round " + std::to_string(round) + ": movement roll " + std::to_string(face) + ".";
                for (const auto& m : game.last_moves()) {
                    if (m.move)
                        say(text, name(m.seat) + " moves piece " + std::to_string(m.move->piece + 1) + " from " +
                                std::to_string(m.move->from) + " to " + std::to_string(m.move->to) + ".");
                    else
                        say(text, name(m.seat) + " cannot move.");
                }
                json step = new_step("movement", round, std::nullopt, face, std::move(text));
                step["decisions"] = step_decisions;
                step["moves"] = moves_json();
                if (partial) step["partial"] = true;
                push(std::move(step));
            }
            if (partial) {
                mark_uncounted(step_decisions);
                break;  // abandoned after the moves, before the activation
            }
            try {
                face = dice.roll(DrawPurpose::activation);
            } catch (const RecordEnded&) {
                throw std::invalid_argument("round " + std::to_string(round) + ": the record ends before the activation");
            }
            std::vector<bool> playing(static_cast<std::size_t>(players));
            for (int s = 0; s < players; ++s) playing[static_cast<std::size_t>(s)] = game.in_play(s);
            (void)game_->activate(face);
            ++whole_rounds;
            for (int s = 0; s < players; ++s) {
                if (!playing[static_cast<std::size_t>(s)]) continue;
                const auto idx = static_cast<std::size_t>(s);
                Account& a = account(s);
                const double after = game.player(s).finished_round ? 0.0 : solution(s).expected_rounds(game.player(s).positions());
                // The round's change of the expected finish, 1 + after - before, is the movement
                // roll's luck, the choice's cost and the activation roll's luck (luck: rounds gained).
                a.luck_movement += before[idx] - (1.0 + best_after[idx]);
                a.luck_activation += a.q_chosen - after;
                const auto& finished = game.player(s).finished_round;
                a.expected_end = finished ? *finished : whole_rounds + after;
            }
            const auto& act = game.last_activation();
            std::string text = "Round " + std::to_string(round) + ": activation roll " + std::to_string(face) + " wakes the " +
                               std::string(name_of(act.character)) + ", which " + std::string(action_of(act.character)) + ".";
            for (const auto& m : act.moved)
                say(text, name(m.seat) + "'s piece " + std::to_string(m.piece + 1) + " goes from " +
                        std::to_string(m.from) + " to " + std::to_string(m.to) + ".");
            for (int s : act.finished) say(text, name(s) + " finishes.");
            json step = new_step("activation", round, std::nullopt, face, std::move(text));
            step["character"] = std::string(id_of(act.character));
            json moved = json::array(), finished = json::array();
            for (const auto& m : act.moved)
                moved.push_back({{"seat", room(m.seat)}, {"piece", m.piece}, {"from", m.from}, {"to", m.to}});
            for (int s : act.finished) finished.push_back(room(s));
            step["moved"] = std::move(moved);
            step["finished"] = std::move(finished);
            push(std::move(step));
        }
        if (next_choice != r_.choices.size() && out_["cut"] != true)
            throw std::invalid_argument("choice " + std::to_string(next_choice + 1) + " of the record was never asked for");
        summarise();
    }

private:
    const Solution& solution(int s) const { return *solutions_[static_cast<std::size_t>(s)]; }
    Account& account(int s) { return accounts_[static_cast<std::size_t>(s)]; }
    std::string name(int s) const {
        const auto& seat = r_.seats[static_cast<std::size_t>(s)];
        return seat.name.empty() ? "seat " + std::to_string(seats_[static_cast<std::size_t>(s)] + 1) : seat.name;
    }
    int room(int s) const { return seats_[static_cast<std::size_t>(s)]; }

    // The round's moves as the `moves` message shows them (PROTOCOL.md): by room seat, who chose.
    json moves_json() const {
        json list = json::array();
        for (const auto& m : game_->last_moves()) {
            json v{{"seat", room(m.seat)}};
            if (m.move) {
                v["piece"] = m.move->piece;
                v["from"] = m.move->from;
                v["to"] = m.move->to;
            } else {
                v["stays"] = true;
            }
            const bool bot = r_.seats[static_cast<std::size_t>(m.seat)].bot;
            v["by"] = m.source == ChoiceSource::player && bot ? std::string("bot") : std::string(to_string(m.source));
            list.push_back(std::move(v));
        }
        return list;
    }

    // The expected rounds still to play after this round if `s` makes move `m` now.
    double value_of(int s, const Move& m) const {
        const auto pos = game_->player(s).positions();
        std::array<Square, kMaxPieces> after{};
        std::copy(pos.begin(), pos.end(), after.begin());
        after[static_cast<std::size_t>(m.piece)] = m.to;
        return solution(s).expected_after_move({after.data(), pos.size()});
    }

    json new_step(const char* kind, std::optional<int> round, std::optional<int> seat, std::optional<int> face,
                  std::string text) const {
        json step;
        step["kind"] = kind;
        step["round"] = round ? json(*round) : json(nullptr);
        step["turn"] = nullptr;
        step["seat"] = seat ? json(room(*seat)) : json(nullptr);
        step["face"] = face ? json(*face) : json(nullptr);
        step["text"] = std::move(text);
        step["decisions"] = json::array();
        return step;
    }
    void push(json step) {
        step["position"] = spook_view(*game_, seats_);
        out_["steps"].push_back(std::move(step));
    }

    // Weighs a recorded choice against every option of the roll; returns its index in "decisions".
    int decide(const RecordedChoice& c, std::size_t step, int round, Face) {
        const Game& game = *game_;
        const Board& board = game.board(c.seat);
        const MoveList& moves = game.legal_moves(c.seat);
        const Square chosen_from = game.player(c.seat).pieces[static_cast<std::size_t>(c.piece)];
        std::vector<double> values;
        int chosen = -1, best = 0;
        for (int k = 0; k < moves.size; ++k) {
            values.push_back(value_of(c.seat, moves[k]));
            if (moves[k].from == chosen_from) chosen = k;
            if (values.back() < values[static_cast<std::size_t>(best)] - kTie) best = k;
        }
        if (chosen < 0) throw std::invalid_argument("round " + std::to_string(round) + ": the recorded piece cannot move");
        auto rank_of = [&](double v) {
            int rank = 1;
            for (double o : values) rank += o < v - kTie ? 1 : 0;
            return rank;
        };
        auto move_json = [&](const Move& m, int piece) {
            return json{{"piece", piece}, {"from", m.from}, {"to", m.to}, {"square", square_label(board, m.to)}};
        };
        json options = json::array();
        for (int k = 0; k < moves.size; ++k) {
            json o = move_json(moves[k], moves[k].piece);
            o["value"] = rounded(values[static_cast<std::size_t>(k)]);
            o["rank"] = rank_of(values[static_cast<std::size_t>(k)]);
            options.push_back(std::move(o));
        }
        const double v_chosen = values[static_cast<std::size_t>(chosen)], v_best = values[static_cast<std::size_t>(best)];
        const double cost = std::max(0.0, v_chosen - v_best);
        json d = analysis_detail::decision_head(step, room(c.seat), round, std::nullopt, c.maker,
                                                r_.seats[static_cast<std::size_t>(c.seat)].bot);
        d["chosen"] = move_json(moves[chosen], c.piece);
        d["best"] = move_json(moves[best], moves[best].piece);
        d["options"] = std::move(options);
        d["unit"] = "rounds";
        d["cost"] = rounded(cost);
        d["rank"] = rank_of(v_chosen);
        d["of"] = moves.size;
        const int index = static_cast<int>(out_["decisions"].size());
        out_["decisions"].push_back(std::move(d));
        Account& a = account(c.seat);
        a.q_chosen = v_chosen;
        a.cost += cost;
        ++a.decisions;
        if (cost > kTie && (!a.worst || cost > a.worst_cost)) {
            a.worst = static_cast<std::size_t>(index);
            a.worst_cost = cost;
        }
        return index;
    }

    // A round cut short by the game's end: its choices are shown but count in no sum (the round
    // was never played out, so neither its cost nor its luck is known).
    void mark_uncounted(const std::vector<int>& decisions) {
        for (int index : decisions) {
            json& d = out_["decisions"][static_cast<std::size_t>(index)];
            d["counted"] = false;
            const int s = player_of_room(d["seat"].get<int>());
            Account& a = account(s);
            a.cost -= d["cost"].get<double>();
            --a.decisions;
            if (a.worst == static_cast<std::size_t>(index)) a.worst.reset();
        }
    }
    int player_of_room(int room_seat) const {
        for (std::size_t i = 0; i < seats_.size(); ++i)
            if (seats_[i] == room_seat) return static_cast<int>(i);
        return 0;
    }

    void summarise() {
        const Game& game = *game_;
        for (int s = 0; s < game.players(); ++s) {
            const Account& a = accounts_[static_cast<std::size_t>(s)];
            const auto& finished = game.player(s).finished_round;
            const double end = a.expected_end;
            json sum;
            sum["seat"] = room(s);
            sum["name"] = r_.seats[static_cast<std::size_t>(s)].name;
            sum["start"] = {{"expected_rounds", rounded(a.start)}};
            sum["decisions"] = a.decisions;
            sum["cost"] = rounded(a.cost);
            if (a.worst) {
                const json& d = out_["decisions"][*a.worst];
                sum["worst"] = {{"step", d["step"]}, {"round", d["round"]}, {"turn", nullptr}, {"decision", *a.worst},
                                {"cost", d["cost"]}};
            } else {
                sum["worst"] = nullptr;
            }
            // luck = start + cost - end (rounds gained by the dice), its two rolls apart.
            sum["luck"] = rounded(a.start + a.cost - end);
            sum["luck_parts"] = {{"movement", rounded(a.luck_movement)}, {"activation", rounded(a.luck_activation)}};
            sum["unit"] = "rounds";
            const auto& places = r_.result.places;
            const int place = s < static_cast<int>(places.size()) ? places[static_cast<std::size_t>(s)] : 0;
            sum["finish"] = {{"round", finished ? json(*finished) : json(nullptr)},
                             {"expected_round", rounded(end)},
                             {"place", place > 0 ? json(place) : json(nullptr)}};
            out_["summary"].push_back(std::move(sum));
        }
    }

    const GameRecord& r_;
    const AnalysisOptions& o_;
    json& out_;
    std::vector<int> seats_;
    std::optional<Game> game_;
    std::vector<std::shared_ptr<const Solution>> solutions_;
    std::vector<Account> accounts_;
};

}  // namespace

void analyse_spook(const GameRecord& record, const AnalysisOptions& options, json& out) {
    try {
        SpookAnalysis(record, options, out).run();
    } catch (const VerifyError& e) {
        throw std::invalid_argument(e.what());
    }
}

}  // namespace spookludo::analysis_detail
