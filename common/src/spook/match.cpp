#include "spookludo/spook/match.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "spookludo/spook/setup.h"

namespace spookludo::spook {

ChoiceSource source_of(ChoiceMaker maker) noexcept {
    switch (maker) {
        case ChoiceMaker::player: return ChoiceSource::player;
        case ChoiceMaker::timeout: return ChoiceSource::timeout;
        case ChoiceMaker::away: return ChoiceSource::away;
    }
    return ChoiceSource::player;
}

namespace {

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
    : Match(options, std::move(seats), share(std::move(published)), server_seed, std::move(client_seeds)) {}

Match::Match(const GameOptions& options, std::vector<RecordSeat> seats, std::vector<SharedBoard> published,
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
    for (const auto& b : published) record_.boards.push_back(b->notation());
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

bool verify_spook(const GameRecord& r, VerifyReport& report) {
    const int players = r.options.players;
    auto fail = [&](auto what) { return report.fail(std::move(what)); };

    // The published boards.
    if (static_cast<int>(r.boards.size()) != players)
        return fail(verify_line("boards: {boards} boards published for {players} players",
                                {{"boards", std::to_string(r.boards.size())}, {"players", std::to_string(players)}}));
    std::vector<Board> published;
    for (std::size_t i = 0; i < r.boards.size(); ++i) {
        try {
            published.push_back(Board::from_notation(r.boards[i]));
        } catch (const std::invalid_argument& e) {
            return fail(verify_line("boards: board {board}, {detail}", {{"board", std::to_string(i + 1)}, {"detail", e.what()}}));
        }
        for (std::size_t j = 0; j < i; ++j)
            if (published[j] == published[i])
                return fail(verify_line("boards: board {board} is the same as board {other}",
                                        {{"board", std::to_string(i + 1)}, {"other", std::to_string(j + 1)}}));
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
            return fail(verify_line(
                "boards: the options ask for balanced boards but their expected finishes differ by more than 2 %"));
    }

    RecordedDice dice(r.draws);
    try {
        const std::vector<int> assignment = draw_assignment(players, dice);
        if (assignment != r.assignment)
            return fail(verify_line("assignment: the draws give another assignment of boards to seats"));
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
                const std::string round_no = std::to_string(round), seat_no = std::to_string(c.seat + 1);
                if (!game.needs_decision(c.seat))
                    return fail(verify_line("round {round}, seat {seat}: a choice is recorded but the seat had nothing to "
                                            "choose (or chose twice)",
                                            {{"round", round_no}, {"seat", seat_no}}));
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
                        return fail(verify_line("round {round}, seat {seat}: the server moved piece {piece} for the player "
                                                "({maker}), which is not a best move",
                                                {{"round", round_no},
                                                 {"seat", seat_no},
                                                 {"piece", std::to_string(c.piece)},
                                                 {"maker", std::string(to_string(c.maker))}}));
                    ++server_choices;
                }
                if (auto v = game.choose(c.seat, c.piece); !v)
                    return fail(verify_line("round {round}, seat {seat}: illegal choice: {reason}",
                                            {{"round", round_no}, {"seat", seat_no}, {"reason", v.reason}}));
            }
            // An abandoned game may end anywhere in a round after its movement roll: while the
            // players are choosing, once they have chosen, or after the moves (in the pause before
            // the activation). Its record keeps the roll and the choices made (the roll's draw is
            // checked against the stream with every other one, each choice against the rules
            // above); there is no position, since the round was never played out.
            if (r.result.status == GameStatus::abandoned && dice.exhausted()) {
                const std::size_t waiting = game.awaiting().size();
                if (waiting == 0)
                    if (auto v = game.apply_moves(); !v)
                        return fail(verify_line("round {round}: {reason}", {{"round", std::to_string(round)}, {"reason", v.reason}}));
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
            if (auto v = game.apply_moves(); !v)
                return fail(verify_line("round {round}: {reason}", {{"round", std::to_string(round)}, {"reason", v.reason}}));
            try {
                face = dice.roll(DrawPurpose::activation);
            } catch (const RecordEnded&) {
                return fail(verify_line("round {round}: the record ends between the moves and the activation (only an "
                                        "abandoned game's record may end inside a round)",
                                        {{"round", std::to_string(round)}}));
            }
            (void)game.activate(face);
            if (next_position >= r.positions.size() || r.positions[next_position].step != round)
                return fail(verify_line("round {round}: no position recorded after the round", {{"round", std::to_string(round)}}));
            const std::string actual = position_text(game);
            if (r.positions[next_position].position != actual)
                return fail(verify_line("round {round}: the recorded position \"{recorded}\" is not the rules' \"{actual}\"",
                                        {{"round", std::to_string(round)},
                                         {"recorded", r.positions[next_position].position},
                                         {"actual", actual}}));
            ++next_position;
        }
        if (next_choice != r.choices.size())
            return fail(verify_line("choices: choice {choice} (round {round}) was never asked for",
                                    {{"choice", std::to_string(next_choice + 1)},
                                     {"round", std::to_string(r.choices[next_choice].step)}}));
        if (next_position != r.positions.size())
            return fail(verify_line("positions: position {position} (round {round}) comes after the game's last round",
                                    {{"position", std::to_string(next_position + 1)},
                                     {"round", std::to_string(r.positions[next_position].step)}}));
        if (!dice.exhausted())
            return fail(verify_line("draws: draw {draw} was recorded but the game never used it",
                                    {{"draw", std::to_string(dice.used())}}));
        report.pass(verify_line("rounds: {rounds} rounds replayed, {choices} choices legal ({server} made by the "
                                "server, all best moves), every position as recorded",
                                {{"rounds", std::to_string(next_position)},
                                 {"choices", std::to_string(r.choices.size())},
                                 {"server", std::to_string(server_choices)}}));
        if (partial_round) report.pass(std::move(*partial_round));

        // The result.
        if (game.over()) {
            if (r.result.status != GameStatus::finished)
                return fail(verify_line("result: the game ended in round {round} but the record says {status}",
                                        {{"round", std::to_string(game.round())},
                                         {"status", std::string(to_string(r.result.status))}}));
            if (r.result.winners != game.winners())
                return fail(verify_line("result: the winners are not the ones the rules give"));
            if (r.result.places != places_of(game))
                return fail(verify_line("result: the places are not the ones the rules give"));
            if (r.result.length != game.round())
                return fail(verify_line("result: the game lasted {rounds} rounds", {{"rounds", std::to_string(game.round())}}));
        } else {
            if (r.result.status != GameStatus::abandoned)
                return fail(verify_line("result: the record ends in round {round} but the game is not over and not "
                                        "marked abandoned",
                                        {{"round", std::to_string(game.round())}}));
            if (!r.result.winners.empty()) return fail(verify_line("result: an abandoned game has no winners"));
            if (r.result.places != std::vector<int>(static_cast<std::size_t>(players), 0))
                return fail(verify_line("result: an abandoned game gives no places"));
            if (r.result.length != static_cast<int>(next_position))
                return fail(verify_line("result: the record says {length} rounds, {played} were played out",
                                        {{"length", std::to_string(r.result.length)},
                                         {"played", std::to_string(next_position)}}));
        }
        report.pass(verify_line("result: {status} after {rounds} rounds as the rules give",
                                {{"status", std::string(to_string(r.result.status))},
                                 {"rounds", std::to_string(r.result.length)}}));
    } catch (const VerifyError& e) {  // RecordEnded among them
        return fail(e.line);
    }
    return true;
}

}  // namespace spookludo::spook
