#include "spookludo/ludo/record.h"

#include <algorithm>
#include <stdexcept>

#include "spookludo/ludo/policy.h"

namespace spookludo::ludo {

namespace {

std::vector<int> places_of(const Game& game) {
    std::vector<int> places(static_cast<std::size_t>(game.players()), 0);
    for (const auto& s : game.standings()) places[static_cast<std::size_t>(s.seat)] = s.place;
    return places;
}

// Throws played out so far: a throw awaiting its choice is not played yet.
int throws_played(const Game& game) {
    return game.phase() == Phase::awaiting_choice ? game.turns() - 1 : game.turns();
}

}  // namespace

int server_choice(const Game& game, int version) {
    if (version < 1 || version > kServerMoveVersion)
        throw std::invalid_argument("unknown server move version " + std::to_string(version) + " (this program knows 1 to " +
                                    std::to_string(kServerMoveVersion) + ")");
    BestConfig config;
    config.learned = version >= 2;
    config.learned_home = version >= 3;
    Rng rng(0);
    return choose_piece(PolicyKind::best, game, rng, config);
}

Match::Match(const GameOptions& options, std::vector<RecordSeat> seats, const ServerSeed& server_seed,
             std::vector<ClientSeed> client_seeds, int server_move_version)
    : server_seed_(server_seed), dice_(FairStream(server_seed, client_seeds)), game_(options) {
    if (server_move_version < 1 || server_move_version > kServerMoveVersion)
        throw std::invalid_argument("unknown server move version " + std::to_string(server_move_version) +
                                    " (this program knows 1 to " + std::to_string(kServerMoveVersion) + ")");
    version_ = server_move_version;
    record_ = start_record(options, std::move(seats), server_seed, std::move(client_seeds));
    record_.server_move_version = version_;
    game_.roll_off(dice_, &events_);
    record_.draws = dice_.draws();
}

Face Match::throw_die() {
    if (abandoned()) throw std::logic_error("the game was abandoned");
    if (game_.phase() != Phase::awaiting_throw)
        throw std::logic_error("no throw is due (the game is " + std::string(to_string(game_.phase())) + ")");
    events_.clear();
    game_.throw_die(dice_, &events_);
    record_.draws.push_back(dice_.draws().back());
    const Face face = static_cast<Face>(record_.draws.back().value) + 1;
    if (game_.phase() == Phase::awaiting_choice) {
        const MoveList moves = game_.legal_moves();
        if (moves.size() >= 2) return face;  // a real choice: wait for it
        game_.play(moves[0], &events_);       // one possible outcome: not a choice
    }
    throw_played();
    return face;
}

Verdict Match::choose(int seat, int piece, ChoiceMaker maker) {
    if (abandoned()) return Verdict::reject("the game was abandoned");
    if (Verdict v = game_.check(seat, piece); !v) return v;
    if (maker != ChoiceMaker::player) {
        // The record must show the server's move for the player exactly as verify recomputes it.
        Game mine = game_, servers = game_;
        (void)mine.choose(seat, piece);
        (void)servers.choose(seat, server_choice());
        if (!(mine == servers))
            return Verdict::reject("the server's move for a player must be server_choice's (piece " +
                                   std::to_string(server_choice()) + ", server move version " +
                                   std::to_string(version_) + ")");
    }
    const bool real_choice = game_.legal_moves().size() >= 2;
    const int step = game_.turns();
    EventLog log;
    Verdict v = game_.choose(seat, piece, &log);
    if (!v) return v;
    events_ = std::move(log);
    if (real_choice) record_.choices.push_back({step, seat, piece, maker});
    throw_played();
    return v;
}

Verdict Match::choose_for_player(ChoiceMaker maker) {
    if (!awaiting_choice()) return Verdict::reject("no choice is awaited");
    return choose(game_.current_seat(), server_choice(), maker);
}

void Match::throw_played() {
    record_.positions.push_back({game_.turns(), game_.position()});
    if (over()) {
        record_.result.status = GameStatus::finished;
        record_.result.winners = game_.winners();
        record_.result.places = places_of(game_);
        finish_record();
    }
}

void Match::abandon() {
    if (record_.result.status != GameStatus::in_progress) return;
    record_.result.status = GameStatus::abandoned;
    finish_record();
}

void Match::finish_record() {
    record_.result.length = throws_played(game_);
    record_.server_seed = server_seed_.hex();
}

void play_out(Match& match, const std::vector<PolicyKind>& seats, Rng& policy_rng) {
    const Game& game = match.game();
    if (static_cast<int>(seats.size()) != game.players()) throw std::invalid_argument("one policy per seat is needed");
    constexpr int kMaxThrows = 1'000'000;  // far beyond any real game (a few hundred throws)
    while (!match.over() && !match.abandoned()) {
        if (game.turns() >= kMaxThrows) {
            match.abandon();
            break;
        }
        match.throw_die();
        if (!match.awaiting_choice()) continue;
        const int seat = game.current_seat();
        const int piece = choose_piece(seats[static_cast<std::size_t>(seat)], game, policy_rng);
        if (auto v = match.choose(seat, piece); !v) throw std::logic_error("a policy chose an illegal move: " + v.reason);
    }
}

// ---- Verification ------------------------------------------------------------------------

bool verify_ludo(const GameRecord& r, VerifyReport& report) {
    auto fail = [&](auto what) { return report.fail(std::move(what)); };
    if (!r.boards.empty()) return fail(verify_line("boards: a Ludo record has no boards"));
    if (!r.assignment.empty()) return fail(verify_line("assignment: a Ludo record has no assignment of boards"));
    if (static_cast<int>(r.seats.size()) != r.options.players)
        return fail(verify_line("seats: {seats} seats for {players} players",
                                {{"seats", std::to_string(r.seats.size())}, {"players", std::to_string(r.options.players)}}));
    std::optional<Game> start;
    try {
        start.emplace(r.options);
    } catch (const std::invalid_argument& e) {
        return fail(verify_line("options: {detail}", {{"detail", e.what()}}));
    }
    Game& game = *start;

    // Which definitions of the server's move the record may have been played with: the one it
    // names, or (records from before the field) every one this program knows, narrowed by each
    // move the server made.
    unsigned versions = 0;
    if (r.server_move_version) {
        if (*r.server_move_version > kServerMoveVersion)
            return fail(verify_line("server_move_version: {version} is newer than this program knows (1 to {newest}): "
                                    "verify the record with a newer spookludo",
                                    {{"version", std::to_string(*r.server_move_version)},
                                     {"newest", std::to_string(kServerMoveVersion)}}));
        versions = 1u << *r.server_move_version;
    } else {
        for (int v = 1; v <= kServerMoveVersion; ++v) versions |= 1u << v;
    }
    auto version_numbers = [&] {
        std::string names;
        for (int v = 1; v <= kServerMoveVersion; ++v)
            if (versions & (1u << v)) names += (names.empty() ? "" : " or ") + std::to_string(v);
        return names;
    };

    RecordedDice dice(r.draws);
    try {
        game.roll_off(dice);
        report.pass(verify_line("roll-off: {throws} throws; {colour} (seat {seat}) starts, as the draws give",
                                {{"throws", std::to_string(dice.used())},
                                 {"colour", std::string(to_string(game.colour(game.current_seat())))},
                                 {"seat", std::to_string(game.current_seat() + 1)}}));

        std::size_t next_choice = 0, next_position = 0;
        int server_choices = 0;
        bool ends_awaiting_choice = false;
        while (game.phase() != Phase::finished) {
            Face face = 0;
            try {
                face = dice.roll(DrawPurpose::throw_);
            } catch (const RecordEnded&) {
                break;  // an abandoned game ends between throws
            }
            game.apply_throw(face);
            const int step = game.turns();
            const std::string throw_no = std::to_string(step);
            if (next_choice < r.choices.size() && r.choices[next_choice].step < step)
                return fail(verify_line("throw {throw}: a choice is recorded but that throw had nothing to choose",
                                        {{"throw", std::to_string(r.choices[next_choice].step)}}));
            if (game.phase() == Phase::awaiting_choice) {
                const MoveList moves = game.legal_moves();
                if (moves.size() == 1) {
                    game.play(moves[0]);  // one possible outcome: the replay makes it
                } else if (next_choice < r.choices.size() && r.choices[next_choice].step == step) {
                    const RecordedChoice& c = r.choices[next_choice++];
                    const std::string seat_no = std::to_string(c.seat + 1);
                    auto illegal = [&](const std::string& reason) {
                        return fail(verify_line("throw {throw}, seat {seat}: illegal choice: {reason}",
                                                {{"throw", throw_no}, {"seat", seat_no}, {"reason", reason}}));
                    };
                    if (Verdict v = game.check(c.seat, c.piece); !v) return illegal(v.reason);
                    if (c.maker != ChoiceMaker::player) {
                        // The versions of server_choice still possible after this move (a piece
                        // standing with the defined piece makes the same move).
                        Game recorded = game;
                        (void)recorded.choose(c.seat, c.piece);
                        unsigned still = 0;
                        int defined = -1;  // the piece of the newest version still possible
                        for (int v = 1; v <= kServerMoveVersion; ++v) {
                            if (!(versions & (1u << v))) continue;
                            Game servers = game;
                            defined = server_choice(game, v);
                            (void)servers.choose(c.seat, defined);
                            if (recorded == servers) still |= 1u << v;
                        }
                        if (!still)
                            return fail(verify_line("throw {throw}, seat {seat}: the server moved piece {piece} for the "
                                                    "player ({maker}), not the server's move (piece {defined}, the best "
                                                    "bot with Rng(0), server move version {versions})",
                                                    {{"throw", throw_no},
                                                     {"seat", seat_no},
                                                     {"piece", std::to_string(c.piece)},
                                                     {"maker", std::string(to_string(c.maker))},
                                                     {"defined", std::to_string(defined)},
                                                     {"versions", version_numbers()}}));
                        versions = still;
                        ++server_choices;
                    }
                    if (Verdict v = game.choose(c.seat, c.piece); !v) return illegal(v.reason);
                } else if (dice.exhausted() && next_position == r.positions.size() &&
                           r.result.status == GameStatus::abandoned) {
                    ends_awaiting_choice = true;  // abandoned while the player was choosing
                    break;
                } else {
                    return fail(verify_line("throw {throw}: the throw left {moves} moves to choose from but no choice is "
                                            "recorded",
                                            {{"throw", throw_no}, {"moves", std::to_string(moves.size())}}));
                }
            }
            if (next_choice < r.choices.size() && r.choices[next_choice].step == step)
                return fail(verify_line("throw {throw}: a choice is recorded but the throw had nothing to choose",
                                        {{"throw", throw_no}}));
            if (next_position >= r.positions.size() || r.positions[next_position].step != step)
                return fail(verify_line("throw {throw}: no position recorded after the throw", {{"throw", throw_no}}));
            const std::string actual = game.position();
            if (r.positions[next_position].position != actual)
                return fail(verify_line("throw {throw}: the recorded position \"{recorded}\" is not the rules' \"{actual}\"",
                                        {{"throw", throw_no}, {"recorded", r.positions[next_position].position}, {"actual", actual}}));
            ++next_position;
        }
        if (next_choice != r.choices.size())
            return fail(verify_line("choices: choice {choice} (throw {throw}) was never asked for",
                                    {{"choice", std::to_string(next_choice + 1)},
                                     {"throw", std::to_string(r.choices[next_choice].step)}}));
        if (next_position != r.positions.size())
            return fail(verify_line("positions: position {position} (throw {throw}) comes after the game's last throw",
                                    {{"position", std::to_string(next_position + 1)},
                                     {"throw", std::to_string(r.positions[next_position].step)}}));
        if (!dice.exhausted())
            return fail(verify_line("draws: draw {draw} was recorded but the game never used it",
                                    {{"draw", std::to_string(dice.used())}}));
        {
            std::vector<std::pair<std::string, std::string>> args{{"throws", std::to_string(next_position)},
                                                                  {"choices", std::to_string(r.choices.size())},
                                                                  {"server", std::to_string(server_choices)}};
            if (server_choices > 0) {
                args.emplace_back("versions", version_numbers());
                report.pass(verify_line("throws: {throws} throws replayed, {choices} choices legal ({server} made by the "
                                        "server, each server_choice's move, server move version {versions}), every "
                                        "position as recorded",
                                        std::move(args)));
            } else {
                report.pass(verify_line("throws: {throws} throws replayed, {choices} choices legal ({server} made by the "
                                        "server, each server_choice's move), every position as recorded",
                                        std::move(args)));
            }
        }

        // The result.
        const int played = ends_awaiting_choice ? game.turns() - 1 : game.turns();
        if (game.phase() == Phase::finished) {
            if (r.result.status != GameStatus::finished)
                return fail(verify_line("result: the game ended at throw {throw} but the record says {status}",
                                        {{"throw", std::to_string(game.turns())},
                                         {"status", std::string(to_string(r.result.status))}}));
            if (r.result.winners != game.winners())
                return fail(verify_line("result: the winners are not the ones the rules give"));
            if (r.result.places != places_of(game))
                return fail(verify_line("result: the places are not the ones the rules give"));
        } else {
            if (r.result.status != GameStatus::abandoned)
                return fail(verify_line("result: the record ends after throw {throw} but the game is not over and not "
                                        "marked abandoned",
                                        {{"throw", std::to_string(played)}}));
            if (!r.result.winners.empty()) return fail(verify_line("result: an abandoned game has no winners"));
            if (r.result.places != std::vector<int>(static_cast<std::size_t>(r.options.players), 0))
                return fail(verify_line("result: an abandoned game gives no places"));
        }
        if (r.result.length != played)
            return fail(verify_line("result: the record says {length} throws, the game had {played}",
                                    {{"length", std::to_string(r.result.length)}, {"played", std::to_string(played)}}));
        report.pass(verify_line("result: {status} after {throws} throws as the rules give",
                                {{"status", std::string(to_string(r.result.status))}, {"throws", std::to_string(played)}}));
    } catch (const VerifyError& e) {
        return fail(e.line);
    } catch (const std::logic_error& e) {
        return fail(verify_line("replay: {detail}", {{"detail", e.what()}}));
    }
    return true;
}

}  // namespace spookludo::ludo
