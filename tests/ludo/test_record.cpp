// Classic Ludo game records (docs/game-record.md): ludo::Match keeps the record of a game played
// with fair dice, a played game verifies, and tampering with any part of it fails at its step.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "helpers.h"
#include "spookludo/ludo/policy.h"
#include "spookludo/ludo/record.h"
#include "spookludo/sim.h"
#include "spookludo/verify.h"

using namespace ludo_test;

namespace {

const ServerSeed kSeed = ServerSeed::from_hex("5be1c0de00112233445566778899aabbccddeeff0123456789abcdef01234567");

const std::vector<RecordSeat> kSeats{{0, "Ann", false, std::nullopt, std::nullopt},
                                     {1, "best bot", true, PolicyKind::best, std::nullopt},
                                     {2, "Cid", false, std::nullopt, std::nullopt},
                                     {3, "greedy bot", true, PolicyKind::greedy, std::nullopt}};

// A 4-player game on the modern board (n = 6): two humans (seats 0 and 2, with client seeds) and
// two bots. Ann plays random moves and is away for her 4th, 8th, ... choice; Cid plays greedy
// moves and times out every 3rd choice (the server moves for them). With `max_throws`, the game
// is abandoned once that many throws were played (while a choice is awaited when `mid_choice`).
GameRecord play_record(int max_throws = 0, bool mid_choice = false) {
    Match match(ludo_options(4), kSeats, kSeed, {{2, "cid's seed"}, {0, "ann's seed"}});
    Rng rng(17);
    int choices = 0;
    while (!match.over()) {
        if (max_throws > 0 && match.game().turns() >= max_throws && match.awaiting_choice() == mid_choice) {
            match.abandon();
            break;
        }
        if (!match.awaiting_choice()) {
            match.throw_die();
            continue;
        }
        const Game& game = match.game();
        const int seat = game.current_seat();
        ++choices;
        if (seat == 0 && choices % 4 == 0) {
            REQUIRE(match.choose_for_player(ChoiceMaker::away));
        } else if (seat == 2 && choices % 3 == 0) {
            REQUIRE(match.choose(seat, server_choice(game), ChoiceMaker::timeout));
        } else {
            const PolicyKind policy = seat == 0 ? PolicyKind::random : seat == 2 ? PolicyKind::greedy : *kSeats[static_cast<std::size_t>(seat)].policy;
            REQUIRE(match.choose(seat, choose_piece(policy, game, rng)));
        }
    }
    return match.record();
}

std::string verify_failure(const GameRecord& r) {
    const VerifyReport report = verify(r);
    CHECK_FALSE(report.ok);
    return report.failure;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The index of the first choice made by `maker`.
std::size_t first_choice_by(const GameRecord& r, ChoiceMaker maker) {
    for (std::size_t i = 0; i < r.choices.size(); ++i)
        if (r.choices[i].maker == maker) return i;
    FAIL("no choice by " << to_string(maker));
    return 0;
}

}  // namespace

TEST_CASE("ludo records: a played game verifies [record][ludo]") {
    const GameRecord r = play_record();
    REQUIRE(r.result.status == GameStatus::finished);
    CHECK(r.server_seed == kSeed.hex());
    CHECK(r.commitment == kSeed.commitment());
    CHECK(r.client_seeds == std::vector<ClientSeed>{{0, "ann's seed"}, {2, "cid's seed"}});
    CHECK(r.boards.empty());
    CHECK(r.assignment.empty());

    // The roll-off comes first (at least one draw per player), then one draw per throw.
    std::size_t roll_off = 0;
    while (roll_off < r.draws.size() && r.draws[roll_off].purpose == DrawPurpose::roll_off) ++roll_off;
    CHECK(roll_off >= 4);
    CHECK(r.draws.size() - roll_off == static_cast<std::size_t>(r.result.length));
    for (std::size_t i = roll_off; i < r.draws.size(); ++i) CHECK(r.draws[i].purpose == DrawPurpose::throw_);

    // A position after every throw, numbered from 1; choices only for some throws.
    REQUIRE(r.positions.size() == static_cast<std::size_t>(r.result.length));
    for (std::size_t i = 0; i < r.positions.size(); ++i) CHECK(r.positions[i].step == static_cast<int>(i) + 1);
    CHECK(r.choices.size() < r.positions.size());
    bool timeout = false, away = false;
    for (const auto& c : r.choices) {
        timeout |= c.maker == ChoiceMaker::timeout;
        away |= c.maker == ChoiceMaker::away;
    }
    CHECK(timeout);
    CHECK(away);
    CHECK(r.result.winners.size() == 1);
    CHECK(r.result.places[static_cast<std::size_t>(r.result.winners[0])] == 1);

    const VerifyReport report = verify(r);
    INFO(report.failure);
    CHECK(report.ok);
    CHECK(report.passed.size() == 5);  // seed, draws, roll-off, throws, result
}

TEST_CASE("ludo records: the same seeds give the same game, and a JSON round trip [record][ludo]") {
    const GameRecord r = play_record();
    CHECK(play_record() == r);
    const GameRecord back = parse_record(record_text(r));
    CHECK(back == r);
    CHECK(nlohmann::json(back) == nlohmann::json(r));
    CHECK(verify(back).ok);
}

TEST_CASE("ludo records: Match steps, events and refusals [record][ludo]") {
    Match match(ludo_options(2), {kSeats[0], kSeats[1]}, kSeed, {{0, "ann's seed"}});
    CHECK(match.game().phase() == Phase::awaiting_throw);
    CHECK_FALSE(match.events().empty());
    CHECK(match.events().back().kind == EventKind::starts);
    CHECK_FALSE(match.record().server_seed.has_value());
    CHECK(match.record().positions.empty());
    CHECK(verify(match.record()).failure.find("not revealed") != std::string::npos);

    // Throws until a real choice is awaited: every throw before it was played out and recorded.
    while (!match.awaiting_choice()) {
        const int before = match.game().turns();
        match.throw_die();
        CHECK(match.events().front().kind == EventKind::throw_);
        if (!match.awaiting_choice()) CHECK(match.record().positions.back().step == before + 1);
    }
    CHECK(match.game().legal_moves().size() >= 2);
    CHECK(match.record().choices.empty());
    CHECK_THROWS_AS(match.throw_die(), std::logic_error);

    const int seat = match.game().current_seat();
    const std::string position = match.game().position();
    CHECK_FALSE(match.choose(1 - seat, 0));  // not that seat's turn
    // The server's move for an absent player is server_choice's and nothing else.
    const int best = server_choice(match.game());
    int other = -1;
    for (const Move& m : match.game().legal_moves())
        if (m.piece != best) other = m.piece;
    REQUIRE(other >= 0);
    const Verdict refused = match.choose(seat, other, ChoiceMaker::timeout);
    CHECK_FALSE(refused);
    CHECK(refused.reason.find("server_choice") != std::string::npos);
    CHECK(match.game().position() == position);  // refusals change nothing
    CHECK(match.record().choices.empty());

    REQUIRE(match.choose(seat, other));
    CHECK(match.record().choices == std::vector<RecordedChoice>{{match.game().turns(), seat, other, ChoiceMaker::player}});
    CHECK(match.record().positions.back() == RecordedPosition{match.game().turns(), match.game().position()});
    CHECK((match.events().front().kind == EventKind::moved || match.events().front().kind == EventKind::entered));

    match.abandon();
    CHECK(match.abandoned());
    CHECK(match.record().server_seed == kSeed.hex());
    CHECK_THROWS_AS(match.throw_die(), std::logic_error);
    CHECK_FALSE(match.choose_for_player(ChoiceMaker::away));
    CHECK(verify(match.record()).ok);
}

TEST_CASE("ludo records: server_choice is the best bot with a fresh Rng(0) [record][ludo]") {
    const Game game = [] {
        Game g = at("green*:Y,3,10,Y yellow:8,Y,Y,Y red:Y,Y,Y,Y blue:14,Y,Y,Y");
        g.apply_throw(6);
        return g;
    }();
    REQUIRE(game.legal_moves().size() >= 2);
    Rng rng(0);
    CHECK(server_choice(game) == choose_piece(PolicyKind::best, game, rng));
    CHECK(server_choice(game) == server_choice(game));
}

// A record as a server before the learned value wrote it: every choice of seat 2 made by the
// server (timeout) with version 1 of the server's move (or `version`), and no server_move_version
// field.
GameRecord record_of_old_server(int version = 1, const GameOptions& options = ludo_options(4)) {
    Match match(options, kSeats, kSeed, {{2, "cid's seed"}, {0, "ann's seed"}});
    Rng rng(5);
    std::vector<std::size_t> by_server;
    while (!match.over()) {
        if (!match.awaiting_choice()) {
            match.throw_die();
            continue;
        }
        const Game& game = match.game();
        const int seat = game.current_seat();
        if (seat == 2) by_server.push_back(match.record().choices.size());
        const int piece = seat == 2 ? server_choice(game, version) : choose_piece(PolicyKind::random, game, rng);
        REQUIRE(match.choose(seat, piece));  // as the player's: Match checks against today's version
    }
    GameRecord r = match.record();
    for (std::size_t i : by_server) r.choices[i].maker = ChoiceMaker::timeout;
    r.server_move_version.reset();
    return r;
}

// The line of a passed verification about the throws.
std::string throws_line(const VerifyReport& report) {
    for (const auto& line : report.passed)
        if (starts_with(line, "throws: ")) return line;
    return "";
}

// The moves of seat 2 (all by the server) where two versions of the server's move differ.
int server_moves_differ(const GameRecord& r, int a, int b) {
    Game g(r.options);
    RecordedDice dice(r.draws);
    g.roll_off(dice);
    std::size_t next = 0;
    int differ = 0;
    while (g.phase() != Phase::finished) {
        g.apply_throw(dice.roll(DrawPurpose::throw_));
        if (g.phase() != Phase::awaiting_choice) continue;
        if (g.legal_moves().size() == 1) {
            g.play(g.legal_moves()[0]);
            continue;
        }
        const RecordedChoice& c = r.choices[next++];
        if (c.maker == ChoiceMaker::timeout) {
            Game va = g, vb = g;
            (void)va.choose(c.seat, server_choice(g, a));
            (void)vb.choose(c.seat, server_choice(g, b));
            differ += va == vb ? 0 : 1;
        }
        REQUIRE(g.choose(c.seat, c.piece));
    }
    return differ;
}

TEST_CASE("ludo records: a record names its server move version and still verifies after best changes [record][ludo]") {
    // Today's records name the version they were played with, and keep it through JSON.
    const GameRecord now = play_record();
    REQUIRE(now.server_move_version == kServerMoveVersion);
    CHECK(record_text(now).find("\"server_move_version\": 3") != std::string::npos);
    CHECK(parse_record(record_text(now)) == now);
    const VerifyReport today = verify(now);
    REQUIRE(today.ok);
    CHECK(throws_line(today).find("server move version 3)") != std::string::npos);

    // Versions 1 and 2 really differ on the old server's moves (else this test proves nothing).
    GameRecord old = record_of_old_server();
    const int differ = server_moves_differ(old, 1, 2);
    INFO("server moves where versions 1 and 2 differ: " << differ);
    REQUIRE(differ >= 3);

    // Without the field (written before it existed): the version is found from the moves.
    const VerifyReport report = verify(old);
    INFO(report.failure);
    REQUIRE(report.ok);
    CHECK(throws_line(report).find("server move version 1)") != std::string::npos);

    // Naming the wrong version fails at the first move that differs; an unknown one is refused.
    old.server_move_version = 2;
    CHECK(verify_failure(old).find("not the server's move") != std::string::npos);
    old.server_move_version = kServerMoveVersion + 1;
    CHECK(starts_with(verify_failure(old), "server_move_version: 4 is newer than this program knows (1 to 3)"));
    CHECK_THROWS_AS(server_choice(Game(ludo_options(4)), 4), std::invalid_argument);
}

TEST_CASE("ludo records: a game keeps the server move version it started with (a game taken up from an older server's journal): its server moves and its record are that version's [record][ludo][house]") {
    GameOptions home = ludo_options(4);
    home.ludo = home_rules();
    CHECK_THROWS_AS(Match(home, kSeats, kSeed, {}, 0), std::invalid_argument);
    CHECK_THROWS_AS(Match(home, kSeats, kSeed, {}, kServerMoveVersion + 1), std::invalid_argument);
    Match match(home, kSeats, kSeed, {{2, "cid's seed"}, {0, "ann's seed"}}, 2);
    CHECK(match.server_move_version() == 2);
    CHECK(match.record().server_move_version == 2);
    int refused = 0;
    while (!match.over()) {
        if (!match.awaiting_choice()) {
            match.throw_die();
            continue;
        }
        const Game& game = match.game();
        if (game.current_seat() != 2) {
            REQUIRE(match.choose(game.current_seat(), server_choice(game, 3)));  // as players
            continue;
        }
        // Seat 2 is away: this server's (version 3) move is refused where version 2's differs.
        Game v2 = game, v3 = game;
        (void)v2.choose(2, server_choice(game, 2));
        (void)v3.choose(2, server_choice(game, 3));
        if (!(v2 == v3)) {
            const Verdict v = match.choose(2, server_choice(game, 3), ChoiceMaker::away);
            CHECK_FALSE(v);
            CHECK(v.reason.find("server move version 2") != std::string::npos);
            ++refused;
        }
        CHECK(match.server_choice() == server_choice(game, 2));
        REQUIRE(match.choose_for_player(ChoiceMaker::away));
    }
    CHECK(refused >= 3);
    const VerifyReport report = verify(match.record());
    INFO(report.failure);
    REQUIRE(report.ok);
    CHECK(throws_line(report).find("server move version 2)") != std::string::npos);
}

TEST_CASE("ludo records: a home_rules game a version 2 server played (before its learned value) still verifies [record][ludo][house]") {
    GameOptions home = ludo_options(4);
    home.ludo = home_rules();
    GameRecord old = record_of_old_server(2, home);
    INFO("server moves where versions 2 and 3 differ: " << server_moves_differ(old, 2, 3));
    REQUIRE(server_moves_differ(old, 2, 3) >= 3);
    // Without the field the version is found from the moves (1 and 2 agree outside the rule
    // text's game); with it, it is the one replayed.
    VerifyReport report = verify(old);
    INFO(report.failure);
    REQUIRE(report.ok);
    CHECK(throws_line(report).find("server move version 1 or 2)") != std::string::npos);
    old.server_move_version = 2;
    report = verify(old);
    REQUIRE(report.ok);
    CHECK(throws_line(report).find("server move version 2)") != std::string::npos);
    old.server_move_version = 3;
    CHECK(verify_failure(old).find("not the server's move") != std::string::npos);
    // Today's home_rules records: version 3.
    GameRecord now = record_of_old_server(3, home);
    now.server_move_version = 3;
    report = verify(now);
    REQUIRE(report.ok);
    CHECK(throws_line(report).find("server move version 3)") != std::string::npos);
}

TEST_CASE("ludo records: abandoned games verify, also while a choice is awaited [record][ludo]") {
    const GameRecord between = play_record(40, false);
    CHECK(between.result.status == GameStatus::abandoned);
    CHECK(between.server_seed == kSeed.hex());
    CHECK(between.result.length == 40);
    CHECK(between.result.winners.empty());
    CHECK(between.positions.size() == 40);
    VerifyReport report = verify(between);
    INFO(report.failure);
    CHECK(report.ok);

    const GameRecord waiting = play_record(40, true);
    CHECK(waiting.result.status == GameStatus::abandoned);
    CHECK(waiting.result.length == static_cast<int>(waiting.positions.size()));
    CHECK(waiting.draws.back().purpose == DrawPurpose::throw_);  // thrown, not played
    report = verify(waiting);
    INFO(report.failure);
    CHECK(report.ok);

    // An abandoned record claiming a winner, or a finished game's record claiming abandonment.
    GameRecord r = between;
    r.result.winners = {0};
    CHECK(starts_with(verify_failure(r), "result:"));
    r = play_record();
    r.result.status = GameStatus::abandoned;
    CHECK(starts_with(verify_failure(r), "result:"));
}

TEST_CASE("ludo records: tampering fails verification at the right step [record][ludo]") {
    const GameRecord good = play_record();
    REQUIRE(verify(good).ok);

    SUBCASE("a wrong server seed") {
        GameRecord r = good;
        r.server_seed = std::string(64, '7');
        CHECK(starts_with(verify_failure(r), "seed:"));
    }
    SUBCASE("swapped client seeds") {
        GameRecord r = good;
        std::swap(r.client_seeds[0].seed, r.client_seeds[1].seed);
        CHECK(starts_with(verify_failure(r), "draws:"));
    }
    SUBCASE("one throw changed") {
        GameRecord r = good;
        auto& d = r.draws[30];
        d.value = (d.value + 1) % d.range;
        CHECK(starts_with(verify_failure(r), "draws: draw 30 "));
    }
    SUBCASE("a roll-off draw relabelled as a throw") {
        GameRecord r = good;
        r.draws[0].purpose = DrawPurpose::throw_;
        CHECK(verify_failure(r).find("draw 0 is recorded as a throw draw") != std::string::npos);
    }
    SUBCASE("one choice changed") {
        GameRecord r = good;
        const std::size_t i = first_choice_by(r, ChoiceMaker::player);
        const RecordedChoice c = r.choices[i];
        // Every other piece is either illegal or gives another position at that throw, unless it
        // stands with the chosen one (the same move).
        int failed = 0;
        for (int piece = 0; piece < 4; ++piece) {
            if (piece == c.piece) continue;
            r.choices[i].piece = piece;
            const VerifyReport report = verify(r);
            if (report.ok) continue;
            ++failed;
            INFO(report.failure);
            const bool at_step = starts_with(report.failure, "throw " + std::to_string(c.step) + ":") ||
                                 starts_with(report.failure, "throw " + std::to_string(c.step) + ", seat");
            CHECK(at_step);
        }
        CHECK(failed >= 1);
    }
    SUBCASE("a server move that is not server_choice") {
        for (ChoiceMaker maker : {ChoiceMaker::timeout, ChoiceMaker::away}) {
            GameRecord r = good;
            const std::size_t i = first_choice_by(r, maker);
            const RecordedChoice c = r.choices[i];
            // Another piece for the server's move: illegal, the same move (a piece standing with
            // it), or a move that is not server_choice's, which must fail at that throw.
            bool found = false;
            for (int piece = 0; piece < 4 && !found; ++piece) {
                if (piece == c.piece) continue;
                r.choices[i].piece = piece;
                const std::string failure = verify(r).failure;
                if (failure.find("not the server's move") != std::string::npos) {
                    found = true;
                    CHECK(starts_with(failure, "throw " + std::to_string(c.step) + ", seat " + std::to_string(c.seat + 1)));
                }
            }
            CHECK(found);
        }
    }
    SUBCASE("a player's move relabelled as the server's") {
        // Some player choice differs from server_choice; marked `timeout`, it must fail there.
        bool found = false;
        for (std::size_t i = 0; i < good.choices.size() && !found; ++i) {
            if (good.choices[i].maker != ChoiceMaker::player) continue;
            GameRecord r = good;
            r.choices[i].maker = ChoiceMaker::timeout;
            const std::string failure = verify(r).failure;
            if (!failure.empty()) {
                found = true;
                CHECK(starts_with(failure, "throw " + std::to_string(good.choices[i].step) + ", seat"));
                CHECK(failure.find("not the server's move") != std::string::npos);
            }
        }
        CHECK(found);
    }
    SUBCASE("a changed position") {
        GameRecord r = good;
        r.positions[56].position = "green:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue*:Y,Y,Y,Y";
        CHECK(starts_with(verify_failure(r), "throw 57: the recorded position \"green:Y,Y,Y,Y"));
    }
    SUBCASE("a position left out") {
        GameRecord r = good;
        r.positions.erase(r.positions.begin() + 9);
        CHECK(starts_with(verify_failure(r), "throw 10: no position recorded"));
    }
    SUBCASE("a choice left out") {
        GameRecord r = good;
        const RecordedChoice c = r.choices[5];
        r.choices.erase(r.choices.begin() + 5);
        CHECK(starts_with(verify_failure(r), "throw " + std::to_string(c.step) + ": the throw left"));
    }
    SUBCASE("a choice recorded for a throw with nothing to choose") {
        GameRecord r = good;
        // The first throw without a recorded choice: a pass or a single possible move.
        int step = 1;
        for (const auto& c : r.choices) {
            if (c.step != step) break;
            ++step;
        }
        std::size_t at = 0;
        while (at < r.choices.size() && r.choices[at].step < step) ++at;
        r.choices.insert(r.choices.begin() + static_cast<std::ptrdiff_t>(at), {step, 0, 0, ChoiceMaker::player});
        CHECK(starts_with(verify_failure(r),
                          "throw " + std::to_string(step) + ": a choice is recorded but the throw had nothing to choose"));
    }
    SUBCASE("a changed winner, places or length") {
        GameRecord r = good;
        r.result.winners = {(good.result.winners.at(0) + 1) % 4};
        CHECK(starts_with(verify_failure(r), "result: the winners"));
        r = good;
        std::swap(r.result.places[0], r.result.places[1]);
        if (r.result.places != good.result.places) CHECK(starts_with(verify_failure(r), "result: the places"));
        r = good;
        r.result.length += 1;
        CHECK(starts_with(verify_failure(r), "result: the record says"));
    }
    SUBCASE("a draw added at the end, with the stream's value") {
        GameRecord r = good;
        const FairStream stream(kSeed, r.client_seeds);
        const auto n = static_cast<std::uint64_t>(r.draws.size());
        r.draws.push_back({n, DrawPurpose::throw_, 6, stream.draw(n, 6)});
        CHECK(starts_with(verify_failure(r), "draws: draw " + std::to_string(n) + " was recorded but the game never used it"));
    }
    SUBCASE("the record cut short but marked finished") {
        GameRecord r = good;
        r.draws.resize(r.draws.size() - 10);
        r.positions.resize(r.positions.size() - 10);
        while (!r.choices.empty() && r.choices.back().step > static_cast<int>(r.positions.size())) r.choices.pop_back();
        CHECK(starts_with(verify_failure(r), "result:"));
    }
    SUBCASE("Spook parts in a Ludo record") {
        GameRecord r = good;
        r.boards = {"x"};
        CHECK(starts_with(verify_failure(r), "boards:"));
        r = good;
        r.assignment = {0, 1, 2, 3};
        CHECK(starts_with(verify_failure(r), "assignment:"));
    }
}

TEST_CASE("ludo records: simulator games write records that verify [record][sim][ludo]") {
    for (bool three_sixes : {false, true}) {
        SimConfig config;
        config.options = ludo_options(3, 6, three_sixes ? LudoEntry::start_square : LudoEntry::text, three_sixes,
                                      three_sixes);
        config.seats = {PolicyKind::best, PolicyKind::greedy, PolicyKind::random};
        config.games = 3;
        config.seed = 5;
        std::vector<int> lengths;
        config.on_record = [&](int game, const GameRecord& r) {
            CHECK(game == static_cast<int>(lengths.size()));
            lengths.push_back(r.result.length);
            CHECK(r.client_seeds.empty());
            CHECK(r.seats[0].bot);
            CHECK(r.result.status == GameStatus::finished);
            const VerifyReport report = verify(parse_record(record_text(r)));
            INFO(report.failure);
            CHECK(report.ok);
        };
        const SimReport report = simulate(config);
        CHECK(lengths.size() == 3);
        CHECK(report.games == 3);
    }
}

// People count seats from 1 (issue #15): "red (seat 1) starts", and a tampered choice of the
// first seat (seat 0 in the file) fails naming "seat 1".
TEST_CASE("ludo verify: seats are numbered from 1 in the roll-off line and in a tampered choice's failure [record][ludo]") {
    const GameRecord good = play_record();
    const VerifyReport fine = verify(good);
    REQUIRE(fine.ok);
    bool roll_off = false;
    for (const auto& line : fine.passed) {
        CHECK_MESSAGE(line.find("seat 0") == std::string::npos, line);
        if (starts_with(line, "roll-off:")) {
            roll_off = true;
            // "roll-off: N throws; COLOUR (seat K) starts": K counts from 1 and is COLOUR's seat.
            INFO(line);
            const auto at = line.find(" (seat ");
            REQUIRE(at != std::string::npos);
            const int shown = std::stoi(line.substr(at + 7));
            REQUIRE(shown >= 1);
            REQUIRE(shown <= 4);
            const std::string colour(to_string(colour_of_seat(4, shown - 1)));
            CHECK(line.substr(0, at).ends_with("; " + colour));
        }
    }
    CHECK(roll_off);

    GameRecord r = good;
    std::size_t i = 0;
    while (i < r.choices.size() && r.choices[i].seat != 0) ++i;
    REQUIRE(i < r.choices.size());
    r.choices[i].piece = 7;
    const std::string failure = verify_failure(r);
    INFO(failure);
    CHECK(starts_with(failure, "throw " + std::to_string(r.choices[i].step) + ", seat 1: illegal choice"));
    CHECK(failure.find("seat 0") == std::string::npos);
}
