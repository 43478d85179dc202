#include "spookludo/spook/match.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "spookludo/spook/setup.h"

namespace spookludo::spook {

namespace {

ChoiceSource source_of(ChoiceMaker maker) {
    switch (maker) {
        case ChoiceMaker::player: return ChoiceSource::player;
        case ChoiceMaker::timeout: return ChoiceSource::timeout;
        case ChoiceMaker::away: return ChoiceSource::away;
    }
    return ChoiceSource::player;
}

std::vector<int> places_of(const Game& game) {
    std::vector<int> places(static_cast<std::size_t>(game.players()), 0);
    for (const auto& s : game.standings()) places[static_cast<std::size_t>(s.seat)] = s.place;
    return places;
}

}  // namespace

std::string position_text(const Game& game) {
    std::string out;
    for (int s = 0; s < game.players(); ++s) {
        if (s > 0) out += ' ';
        const auto pos = game.player(s).positions();
        for (std::size_t i = 0; i < pos.size(); ++i) {
            if (i > 0) out += ',';
            out += std::to_string(pos[i]);
        }
    }
    return out;
}

Match::Match(const GameOptions& options, std::vector<RecordSeat> seats, std::vector<Board> published,
             const ServerSeed& server_seed, std::vector<ClientSeed> client_seeds)
    : server_seed_(server_seed),
      dice_(FairStream(server_seed, client_seeds)),
      game_(options, [&] {
          if (static_cast<int>(published.size()) != options.players)
              throw std::invalid_argument("publish one board per player");
          record_.assignment = draw_assignment(options.players, dice_);
          return boards_by_seat(published, record_.assignment);
      }()) {
    std::vector<int> assignment = std::move(record_.assignment);  // drawn while constructing game_
    record_ = start_record(options, std::move(seats), server_seed, std::move(client_seeds));
    record_.assignment = std::move(assignment);
    for (const auto& b : published) record_.boards.push_back(b.notation());
    record_.draws = dice_.draws();
}

Face Match::roll_movement() {
    if (game_.phase() != RoundPhase::movement_roll) throw std::logic_error("not the time for a movement roll");
    const Face face = dice_.roll(DrawPurpose::movement);
    (void)game_.roll_movement(face);
    record_.draws.push_back(dice_.draws().back());
    return face;
}

Verdict Match::choose(int seat, int piece, ChoiceMaker maker) {
    const bool decision = game_.needs_decision(seat);
    Verdict v = game_.choose(seat, piece, source_of(maker));
    if (v && decision) record_.choices.push_back({game_.round(), seat, piece, maker});
    return v;
}

Verdict Match::apply_moves() { return game_.apply_moves(); }

Face Match::activate() {
    if (game_.phase() != RoundPhase::activation_roll) throw std::logic_error("not the time for an activation roll");
    const Face face = dice_.roll(DrawPurpose::activation);
    const int round = game_.round();
    (void)game_.activate(face);
    record_.draws.push_back(dice_.draws().back());
    record_.positions.push_back({round, position_text(game_)});
    if (game_.over()) {
        record_.result.status = GameStatus::finished;
        record_.result.winners = game_.winners();
        record_.result.places = places_of(game_);
        finish_record();
    }
    return face;
}

void Match::abandon() {
    if (record_.result.status != GameStatus::in_progress) return;
    record_.result.status = GameStatus::abandoned;
    finish_record();
}

void Match::finish_record() {
    record_.result.length = game_.over() ? game_.round() : game_.round() - 1;
    record_.server_seed = server_seed_.hex();
}

// ---- Verification ------------------------------------------------------------------------

namespace {

std::string round_name(int round) { return "round " + std::to_string(round); }

}  // namespace

bool verify_spook(const GameRecord& r, VerifyReport& report) {
    const int players = r.options.players;
    auto fail = [&](const std::string& what) {
        report.failure = what;
        return false;
    };

    // The published boards.
    if (static_cast<int>(r.boards.size()) != players)
        return fail("boards: " + std::to_string(r.boards.size()) + " boards published for " + std::to_string(players) +
                    " players");
    std::vector<Board> published;
    for (std::size_t i = 0; i < r.boards.size(); ++i) {
        try {
            published.push_back(Board::from_notation(r.boards[i]));
        } catch (const std::invalid_argument& e) {
            return fail("boards: board " + std::to_string(i + 1) + ", " + e.what());
        }
        for (std::size_t j = 0; j < i; ++j)
            if (published[j] == published[i])
                return fail("boards: board " + std::to_string(i + 1) + " is the same as board " + std::to_string(j + 1));
    }
    const BoardSetReport balance = report_boards(published, r.options.spook.pieces);
    report.pass(verify_line("boards: {boards} distinct boards, one character on each square",
                            {{"boards", std::to_string(players)}}));
    {
        char spread[32];
        std::snprintf(spread, sizeof spread, "%.2f", 100 * balance.spread);
        const std::vector<std::pair<std::string, std::string>> args{{"spread", spread}};
        const bool asked = r.options.spook.balanced_boards;
        if (balance.balanced())
            report.note(asked ? verify_line("boards: expected finish balanced, spread by {spread} % (the game asked for "
                                            "balanced boards)",
                                            args)
                              : verify_line("boards: expected finish balanced, spread by {spread} % (balance was off)", args));
        else
            report.note(asked ? verify_line("boards: expected finish NOT balanced, spread by {spread} % (the game asked "
                                            "for balanced boards)",
                                            args)
                              : verify_line("boards: expected finish NOT balanced, spread by {spread} % (balance was off)",
                                            args));
        if (!balance.seven_of_each) report.note(verify_line("boards: not every board has 7 of each character"));
        if (r.options.spook.balanced_boards && !balance.balanced())
            return fail("boards: the options ask for balanced boards but their expected finishes differ by more than 2 %");
    }

    RecordedDice dice(r.draws);
    try {
        const std::vector<int> assignment = draw_assignment(players, dice);
        if (assignment != r.assignment) return fail("assignment: the draws give another assignment of boards to seats");
        report.pass(verify_line("assignment: boards to seats as the draws give them"));

        Game game(r.options, boards_by_seat(published, assignment));
        SolutionCache cache;
        std::size_t next_choice = 0, next_position = 0;
        int server_choices = 0;
        std::optional<VerifyLine> partial_round;  // an abandoned game's last round, cut short
        while (!game.over()) {
            const int round = game.round();
            Face face = 0;
            try {
                face = dice.roll(DrawPurpose::movement);
            } catch (const RecordEnded&) {
                break;  // an abandoned game ends between rounds
            }
            (void)game.roll_movement(face);
            const std::size_t first_choice_of_round = next_choice;
            for (; next_choice < r.choices.size() && r.choices[next_choice].step == round; ++next_choice) {
                const auto& c = r.choices[next_choice];
                const std::string where = round_name(round) + ", seat " + std::to_string(c.seat + 1);
                if (!game.needs_decision(c.seat))
                    return fail(where + ": a choice is recorded but the seat had nothing to choose (or chose twice)");
                if (c.maker != ChoiceMaker::player) {
                    // The server's choice for a player who timed out or was away must be a best move.
                    const auto solution = cache.get(game.board(c.seat), game.pieces(), r.options.spook.pieces_to_finish());
                    const auto& pos = game.player(c.seat).positions();
                    const int best = solution->best_piece(pos, face);
                    auto value = [&](int piece) {
                        std::array<Square, kMaxPieces> moved{};
                        std::copy(pos.begin(), pos.end(), moved.begin());
                        moved[static_cast<std::size_t>(piece)] += face;
                        return solution->expected_after_move({moved.data(), pos.size()});
                    };
                    if (c.piece < 0 || c.piece >= game.pieces() || pos[static_cast<std::size_t>(c.piece)] + face > kChurch ||
                        value(c.piece) > value(best) + 1e-9)
                        return fail(where + ": the server moved piece " + std::to_string(c.piece) + " for the player (" +
                                    std::string(to_string(c.maker)) + "), which is not a best move");
                    ++server_choices;
                }
                if (auto v = game.choose(c.seat, c.piece); !v) return fail(where + ": illegal choice: " + v.reason);
            }
            // An abandoned game may end anywhere in a round after its movement roll: while the
            // players are choosing, once they have chosen, or after the moves (in the pause before
            // the activation). Its record keeps the roll and the choices made (the roll's draw is
            // checked against the stream with every other one, each choice against the rules
            // above); there is no position, since the round was never played out.
            if (r.result.status == GameStatus::abandoned && dice.exhausted()) {
                const std::size_t waiting = game.awaiting().size();
                if (waiting == 0)
                    if (auto v = game.apply_moves(); !v) return fail(round_name(round) + ": " + v.reason);
                std::vector<std::pair<std::string, std::string>> args{
                    {"round", std::to_string(round)},
                    {"roll", std::to_string(face)},
                    {"choices", std::to_string(next_choice - first_choice_of_round)}};
                if (waiting > 0) {
                    args.emplace_back("waiting", std::to_string(waiting));
                    partial_round = verify_line("round {round} abandoned after its movement roll ({roll}), {waiting} "
                                                "player(s) still choosing; its roll and {choices} choice(s) checked, no "
                                                "position",
                                                std::move(args));
                } else {
                    partial_round = verify_line("round {round} abandoned after its movement roll ({roll}), every choice "
                                                "made, the activation never rolled; its roll and {choices} choice(s) "
                                                "checked, no position",
                                                std::move(args));
                }
                break;
            }
            if (auto v = game.apply_moves(); !v) return fail(round_name(round) + ": " + v.reason);
            try {
                face = dice.roll(DrawPurpose::activation);
            } catch (const RecordEnded&) {
                return fail(round_name(round) + ": the record ends between the moves and the activation (only an "
                            "abandoned game's record may end inside a round)");
            }
            (void)game.activate(face);
            if (next_position >= r.positions.size() || r.positions[next_position].step != round)
                return fail(round_name(round) + ": no position recorded after the round");
            const std::string actual = position_text(game);
            if (r.positions[next_position].position != actual)
                return fail(round_name(round) + ": the recorded position \"" + r.positions[next_position].position +
                            "\" is not the rules' \"" + actual + "\"");
            ++next_position;
        }
        if (next_choice != r.choices.size())
            return fail("choices: choice " + std::to_string(next_choice + 1) + " (round " +
                        std::to_string(r.choices[next_choice].step) + ") was never asked for");
        if (next_position != r.positions.size())
            return fail("positions: position " + std::to_string(next_position + 1) + " (round " +
                        std::to_string(r.positions[next_position].step) + ") comes after the game's last round");
        if (!dice.exhausted())
            return fail("draws: draw " + std::to_string(dice.used()) + " was recorded but the game never used it");
        report.pass(verify_line("rounds: {rounds} rounds replayed, {choices} choices legal ({server} made by the "
                                "server, all best moves), every position as recorded",
                                {{"rounds", std::to_string(next_position)},
                                 {"choices", std::to_string(r.choices.size())},
                                 {"server", std::to_string(server_choices)}}));
        if (partial_round) report.pass(std::move(*partial_round));

        // The result.
        if (game.over()) {
            if (r.result.status != GameStatus::finished)
                return fail("result: the game ended in round " + std::to_string(game.round()) + " but the record says " +
                            std::string(to_string(r.result.status)));
            if (r.result.winners != game.winners()) return fail("result: the winners are not the ones the rules give");
            if (r.result.places != places_of(game)) return fail("result: the places are not the ones the rules give");
            if (r.result.length != game.round()) return fail("result: the game lasted " + std::to_string(game.round()) + " rounds");
        } else {
            if (r.result.status != GameStatus::abandoned)
                return fail("result: the record ends in round " + std::to_string(game.round()) +
                            " but the game is not over and not marked abandoned");
            if (!r.result.winners.empty()) return fail("result: an abandoned game has no winners");
            if (r.result.places != std::vector<int>(static_cast<std::size_t>(players), 0))
                return fail("result: an abandoned game gives no places");
            if (r.result.length != static_cast<int>(next_position))
                return fail("result: the record says " + std::to_string(r.result.length) + " rounds, " +
                            std::to_string(next_position) + " were played out");
        }
        report.pass(verify_line("result: {status} after {rounds} rounds as the rules give",
                                {{"status", std::string(to_string(r.result.status))},
                                 {"rounds", std::to_string(r.result.length)}}));
    } catch (const RecordEnded& e) {
        return fail(e.what());
    } catch (const VerifyError& e) {
        return fail(e.what());
    }
    return true;
}

}  // namespace spookludo::spook
