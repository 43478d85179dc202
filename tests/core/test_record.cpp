// Game records and `verify` (docs/game-record.md): a played game verifies; tampering with any
// part of it fails at the right step; bad files give clear errors.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "spookludo/record.h"
#include "spookludo/sim.h"
#include "spookludo/spook/match.h"
#include "spookludo/spook/play.h"
#include "spookludo/spook/setup.h"
#include "spookludo/verify.h"

using namespace spookludo;

namespace {

const ServerSeed kSeed = ServerSeed::from_hex("8c2f7e1a0b3d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6");

// A 3-player Spook game: two humans (seats 0 and 1, with client seeds) and a bot. Seat 0 plays
// random moves, seat 1 times out every third round (the server plays best for it), the bot
// plays best. Stops after `max_rounds` rounds (abandoned) when given.
GameRecord play_spook_record(int max_rounds = 0) {
    GameOptions options = GameOptions::spook_game(3, 2);
    Rng rng(99);
    const auto boards = spook::choose_board_set(options, rng);
    std::vector<RecordSeat> seats{{0, "Ann", false, std::nullopt},
                                  {1, "Ben", false, std::nullopt},
                                  {2, "best bot", true, PolicyKind::best}};
    spook::Match match(options, seats, boards, kSeed, {{1, "ben's seed"}, {0, "ann's seed"}});
    spook::SolutionCache cache;
    while (!match.over()) {
        if (max_rounds > 0 && match.game().round() > max_rounds) {
            match.abandon();
            break;
        }
        const Face roll = match.roll_movement();
        const auto& game = match.game();
        for (int s = 0; s < 3; ++s) {
            if (!game.needs_decision(s)) continue;
            const auto solution = cache.get(game.board(s), 2, 2);
            if (s == 0) {
                REQUIRE(match.choose(s, spook::choose_piece(PolicyKind::random, game, s, rng)));
            } else if (s == 1 && game.round() % 3 == 0) {
                REQUIRE(match.choose(s, solution->best_piece(game.player(s).positions(), roll), ChoiceMaker::timeout));
            } else {
                REQUIRE(match.choose(s, solution->best_piece(game.player(s).positions(), roll)));
            }
        }
        REQUIRE(match.apply_moves());
        match.activate();
    }
    return match.record();
}

std::string verify_failure(const GameRecord& r) {
    const VerifyReport report = verify(r);
    CHECK_FALSE(report.ok);
    return report.failure;
}

}  // namespace

TEST_CASE("records: a played Spook game verifies [record][spook]") {
    const GameRecord r = play_spook_record();
    REQUIRE(r.result.status == GameStatus::finished);
    CHECK(r.server_seed == kSeed.hex());
    CHECK(r.commitment == kSeed.commitment());
    CHECK(r.client_seeds == std::vector<ClientSeed>{{0, "ann's seed"}, {1, "ben's seed"}});
    CHECK(r.draws.front().purpose == DrawPurpose::assignment);  // the assignment is drawn first
    CHECK(r.positions.size() == static_cast<std::size_t>(r.result.length));
    bool server_made = false;
    for (const auto& c : r.choices) server_made |= c.maker == ChoiceMaker::timeout;
    CHECK(server_made);
    const VerifyReport report = verify(r);
    INFO(report.failure);
    CHECK(report.ok);
}

TEST_CASE("records: JSON round trip, and the file text parses back [record]") {
    const GameRecord r = play_spook_record();
    const GameRecord back = parse_record(record_text(r));
    CHECK(back == r);
    CHECK(nlohmann::json(back) == nlohmann::json(r));
}

TEST_CASE("records: the seed is revealed only at the end, and an abandoned game verifies [record][spook]") {
    GameOptions options = GameOptions::spook_game(2, 1);
    Rng rng(3);
    spook::Match match(options, {{0, "a", true, PolicyKind::random}, {1, "b", true, PolicyKind::random}},
                       spook::choose_board_set(options, rng), kSeed, {});
    match.roll_movement();
    CHECK_FALSE(match.record().server_seed.has_value());
    CHECK(verify(match.record()).failure.find("not revealed") != std::string::npos);

    const GameRecord abandoned = play_spook_record(5);
    CHECK(abandoned.result.status == GameStatus::abandoned);
    CHECK(abandoned.server_seed == kSeed.hex());
    CHECK(abandoned.result.length == 5);
    const VerifyReport report = verify(abandoned);
    INFO(report.failure);
    CHECK(report.ok);
}

TEST_CASE("records: tampering fails verification at the right step [record][spook]") {
    const GameRecord good = play_spook_record();
    REQUIRE(verify(good).ok);

    SUBCASE("a wrong server seed") {
        GameRecord r = good;
        r.server_seed = ServerSeed::from_hex(std::string(64, '7')).hex();
        CHECK(verify_failure(r).rfind("seed:", 0) == 0);
    }
    SUBCASE("one roll changed") {
        GameRecord r = good;
        auto& d = r.draws[5];
        d.value = (d.value + 1) % d.range;
        CHECK(verify_failure(r).find("draws: draw 5") != std::string::npos);
    }
    SUBCASE("one choice changed") {
        GameRecord r = good;
        // Find a player's choice whose other piece could have moved too, and switch pieces.
        std::size_t i = 0;
        while (i < r.choices.size() && r.choices[i].maker != ChoiceMaker::player) ++i;
        REQUIRE(i < r.choices.size());
        r.choices[i].piece = 1 - r.choices[i].piece;
        const std::string failure = verify_failure(r);
        CHECK(failure.find("round " + std::to_string(r.choices[i].step)) != std::string::npos);
    }
    SUBCASE("a server move that is not the best move") {
        GameRecord r = good;
        std::size_t i = 0;
        bool found = false;
        // A timed-out choice whose other piece gives a worse expectation: flip it.
        for (; i < r.choices.size() && !found; ++i) {
            if (r.choices[i].maker != ChoiceMaker::timeout) continue;
            GameRecord t = r;
            t.choices[i].piece = 1 - t.choices[i].piece;
            const auto failure = verify(t).failure;
            if (failure.find("not a best move") != std::string::npos) found = true;
        }
        CHECK(found);
    }
    SUBCASE("swapped client seeds") {
        GameRecord r = good;
        std::swap(r.client_seeds[0].seed, r.client_seeds[1].seed);
        CHECK(verify_failure(r).rfind("draws:", 0) == 0);
    }
    SUBCASE("a swapped board") {
        GameRecord r = good;
        std::swap(r.boards[0], r.boards[1]);
        // The draws still give the same assignment, so two seats now play each other's board:
        // the first round in which that matters shows a position the rules do not give.
        const std::string failure = verify_failure(r);
        INFO(failure);
        CHECK(failure.rfind("round ", 0) == 0);
        CHECK(failure.find("is not the rules'") != std::string::npos);
    }
    SUBCASE("a changed position") {
        GameRecord r = good;
        r.positions[3].position = "1,1 1,1 1,1";
        CHECK(verify_failure(r).find("round 4: the recorded position") != std::string::npos);
    }
    SUBCASE("a changed winner") {
        GameRecord r = good;
        r.result.winners = {(good.result.winners.at(0) + 1) % 3};
        CHECK(verify_failure(r).rfind("result:", 0) == 0);
    }
    SUBCASE("a draw left out at the end") {
        GameRecord r = good;
        r.draws.pop_back();
        CHECK_FALSE(verify(r).ok);
    }
    SUBCASE("a bot given a client seed") {
        GameRecord r = good;
        r.client_seeds.push_back({2, "bot seed"});
        CHECK(verify_failure(r).rfind("client seeds:", 0) == 0);
    }
}

TEST_CASE("records: bad or truncated files are refused with a clear error [record]") {
    const std::string text = record_text(play_spook_record());
    CHECK_THROWS_WITH_AS(parse_record(text.substr(0, text.size() / 2)), doctest::Contains("not valid JSON"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse_record("[1,2,3]"), doctest::Contains("a game record is a JSON object"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse_record("{\"format\":\"something else\"}"), doctest::Contains("not a SpookLudo game record"),
                         std::invalid_argument);
    nlohmann::json j = nlohmann::json::parse(text);
    j["draws"][12]["purpose"] = "dance";
    CHECK_THROWS_WITH_AS(parse_record(j.dump()), doctest::Contains("draws[12].purpose: unknown value \"dance\""),
                         std::invalid_argument);
    j = nlohmann::json::parse(text);
    j["result"].erase("winners");
    CHECK_THROWS_WITH_AS(parse_record(j.dump()), doctest::Contains("result.winners: is missing"), std::invalid_argument);
    j = nlohmann::json::parse(text);
    j["version"] = 99;
    CHECK_THROWS_WITH_AS(parse_record(j.dump()), doctest::Contains("version"), std::invalid_argument);
}

TEST_CASE("records: simulator games write records, and they verify [record][sim]") {
    for (GameKind kind : {GameKind::spook, GameKind::ludo}) {
        SimConfig config;
        config.options = kind == GameKind::spook ? GameOptions::spook_game(4, 3) : GameOptions::ludo_game(4, 6);
        config.seats = {PolicyKind::best, PolicyKind::greedy, PolicyKind::random, PolicyKind::random};
        config.games = 5;
        config.seed = 11;
        int written = 0;
        config.on_record = [&](int, const GameRecord& r) {
            ++written;
            const VerifyReport report = verify(parse_record(record_text(r)));
            INFO(report.failure);
            CHECK(report.ok);
        };
        const SimReport report = simulate(config);
        CHECK(written == 5);
        CHECK(report.games == 5);
    }
}

// Found by the record_verify fuzz target (fuzz/regressions/record_verify/): nlohmann's parser
// reports a number too large for a double as out_of_range, not as a parse error.
TEST_CASE("records: a number too large to read is refused as not valid JSON, like any damage [record]") {
    const std::string text = record_text(play_spook_record());
    CHECK_THROWS_WITH_AS(parse_record("5e8858"), doctest::Contains("not valid JSON"), std::invalid_argument);
    std::string damaged = text;
    damaged.replace(damaged.find("\"version\": 1"), 12, "\"version\": 1e999");
    CHECK_THROWS_WITH_AS(parse_record(damaged), doctest::Contains("not valid JSON"), std::invalid_argument);
}

// People count seats from 1 (issue #15): the first seat of the record (seat 0 in the file) is
// "seat 1" in what verify prints, and no line speaks of a "seat 0".
TEST_CASE("verify: a tampered choice of the first seat fails naming \"seat 1\", never \"seat 0\" [record][spook]") {
    const GameRecord good = play_spook_record();
    const VerifyReport fine = verify(good);
    REQUIRE(fine.ok);
    for (const auto& line : fine.passed) CHECK_MESSAGE(line.find("seat 0") == std::string::npos, line);

    GameRecord r = good;
    std::size_t i = 0;
    while (i < r.choices.size() && r.choices[i].seat != 0) ++i;
    REQUIRE(i < r.choices.size());
    r.choices[i].piece = 7;  // Ann (seat 0 in the file) moves a piece she does not have
    const std::string failure = verify_failure(r);
    INFO(failure);
    CHECK(failure.rfind("round " + std::to_string(r.choices[i].step) + ", seat 1: illegal choice", 0) == 0);
    CHECK(failure.find("seat 0") == std::string::npos);

    // The bot in the third seat given a client seed: "seat 3".
    GameRecord b = good;
    b.client_seeds.push_back({2, "bot seed"});
    CHECK(verify_failure(b).rfind("client seeds: seat 3 is a bot", 0) == 0);
}
