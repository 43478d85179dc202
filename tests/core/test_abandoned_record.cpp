// An abandoned game's record verifies, wherever the game was abandoned (docs/game-record.md,
// "An abandoned game"): between rounds, after a round's movement roll, while the players choose,
// once they have all chosen, and after the moves before the activation. What the partial round
// holds is checked: the roll against the stream, every choice against the rules.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "spookludo/ludo/policy.h"
#include "spookludo/ludo/record.h"
#include "spookludo/record.h"
#include "spookludo/spook/match.h"
#include "spookludo/spook/play.h"
#include "spookludo/spook/setup.h"
#include "spookludo/verify.h"

using namespace spookludo;

namespace {

const ServerSeed kSeed = ServerSeed::from_hex("1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a7988");

// Where in a round a game is abandoned.
enum class Step { before_roll, after_roll, some_chosen, all_chosen, after_moves };
const char* name_of(Step s) {
    switch (s) {
        case Step::before_roll: return "before the round's roll";
        case Step::after_roll: return "after the movement roll, before any choice";
        case Step::some_chosen: return "after the first of the round's choices";
        case Step::all_chosen: return "after all the round's choices, before the moves";
        case Step::after_moves: return "after the moves, before the activation";
    }
    return "?";
}

// A 3-player Spook game (two humans with client seeds, a bot; everyone plays random moves),
// abandoned at `step` of round `round`; nullopt when the game ended before that point.
std::optional<GameRecord> abandoned_at(int round, Step step) {
    GameOptions options = GameOptions::spook_game(3, 2);
    Rng boards_rng(7);
    spook::Match match(options,
                       {{0, "Ann", false, std::nullopt}, {1, "Ben", false, std::nullopt},
                        {2, "random bot", true, PolicyKind::random}},
                       spook::choose_board_set(options, boards_rng), kSeed, {{0, "ann"}, {1, "ben"}});
    Rng rng(11);
    const auto& game = match.game();
    auto here = [&](Step s) { return game.round() == round && step == s; };
    while (!match.over()) {
        if (here(Step::before_roll)) break;
        match.roll_movement();
        if (here(Step::after_roll)) break;
        bool stop = false;
        int chosen = 0;
        for (int s = 0; s < 3 && !stop; ++s) {
            if (!game.needs_decision(s)) continue;
            REQUIRE(match.choose(s, spook::choose_piece(PolicyKind::random, game, s, rng)));
            ++chosen;
            if (here(Step::some_chosen) && !game.awaiting().empty()) stop = true;
        }
        if (stop || (here(Step::some_chosen) && chosen > 0)) break;
        if (here(Step::all_chosen)) break;
        REQUIRE(match.apply_moves());
        if (here(Step::after_moves)) break;
        match.activate();
    }
    if (match.over()) return std::nullopt;
    match.abandon();
    return match.record();
}

}  // namespace

TEST_CASE("records: a Spook game abandoned at any step of any round verifies, partial last round checked [record][spook]") {
    int records = 0;
    for (int round = 1; round < 200; ++round) {
        bool any = false;
        for (Step step : {Step::before_roll, Step::after_roll, Step::some_chosen, Step::all_chosen, Step::after_moves}) {
            const auto r = abandoned_at(round, step);
            if (!r) continue;
            any = true;
            ++records;
            CAPTURE(round);
            const std::string where = name_of(step);
            CAPTURE(where);
            CHECK(r->result.status == GameStatus::abandoned);
            CHECK(r->result.length == round - 1);  // the rounds played out
            CHECK(r->positions.size() == static_cast<std::size_t>(round - 1));
            const VerifyReport report = verify(*r);
            INFO(report.failure);
            REQUIRE(report.ok);
        }
        if (!any) break;  // the game is over by this round
    }
    CHECK(records > 20);
}

TEST_CASE("records: an abandoned Spook game's partial round is checked, not taken on trust [record][spook]") {
    // A round with at least one choice, abandoned after the moves.
    std::optional<GameRecord> good;
    for (int round = 1; round < 50 && !good; ++round) {
        auto r = abandoned_at(round, Step::after_moves);
        REQUIRE(r);
        if (!r->choices.empty() && r->choices.back().step == round) good = r;
    }
    REQUIRE(good);
    REQUIRE(verify(*good).ok);
    const int round = good->choices.back().step;

    SUBCASE("the report says the last round was cut short") {
        const VerifyReport report = verify(*good);
        bool named = false;
        for (const auto& line : report.passed)
            named |= line.find("round " + std::to_string(round) + " abandoned") != std::string::npos;
        CHECK(named);
    }
    SUBCASE("a changed roll in the partial round") {
        GameRecord r = *good;
        auto& d = r.draws.back();
        d.value = (d.value + 1) % d.range;
        CHECK(verify(r).failure.find("draws: draw " + std::to_string(r.draws.size() - 1)) != std::string::npos);
    }
    SUBCASE("an illegal choice in the partial round") {
        GameRecord r = *good;
        r.choices.back().piece = 7;
        const std::string failure = verify(r).failure;
        CHECK(failure.find("round " + std::to_string(round)) != std::string::npos);
        CHECK(failure.find("illegal choice") != std::string::npos);
    }
    SUBCASE("a record that is not marked abandoned may not end mid-round") {
        GameRecord r = *good;
        r.result.status = GameStatus::finished;
        CHECK_FALSE(verify(r).ok);
        r.result.status = GameStatus::in_progress;
        CHECK_FALSE(verify(r).ok);
    }
    SUBCASE("the length counts the rounds played out") {
        GameRecord r = *good;
        r.result.length = round;
        CHECK(verify(r).failure.rfind("result:", 0) == 0);
    }
    SUBCASE("an abandoned game gives no places") {
        GameRecord r = *good;
        r.result.places[0] = 1;
        CHECK(verify(r).failure.rfind("result:", 0) == 0);
    }
}

TEST_CASE("records: a Ludo game abandoned at any throw verifies [record][ludo]") {
    // After every throw and while the player chooses: what the server can leave behind.
    GameOptions options = GameOptions::ludo_game(2);
    for (int stop = 0; stop < 400; stop += 7) {
        ludo::Match match(options, {{0, "Ann", false, std::nullopt}, {1, "best bot", true, PolicyKind::best}}, kSeed,
                          {{0, "ann"}});
        Rng rng(5);
        int throws = 0;
        while (!match.over() && throws < stop) {
            match.throw_die();
            ++throws;
            if (match.awaiting_choice() && throws < stop)
                REQUIRE(match.choose(match.game().current_seat(),
                                     ludo::choose_piece(PolicyKind::random, match.game(), rng)));
        }
        if (match.over()) break;
        match.abandon();
        CAPTURE(stop);
        const VerifyReport report = verify(match.record());
        INFO(report.failure);
        CHECK(report.ok);
    }
}
