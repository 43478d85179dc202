// A game the host ends, or the server's shutdown ends, at any step: its record verifies (issue
// #14, item 3). The real server in this process, a player over loopback, the room paced so that
// each pause of a round can be caught.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "harness.h"
#include "spookludo/fair_dice.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

// Where the game is when it is ended.
enum class When { seed_collection, before_first_roll, mid_decision, after_moves, after_activation };
const char* name_of(When w) {
    switch (w) {
        case When::seed_collection: return "during the seed collection";
        case When::before_first_roll: return "after the start, before the first roll";
        case When::mid_decision: return "while the player is choosing";
        case When::after_moves: return "in the pause after a round's moves, before its activation";
        case When::after_activation: return "in the pause after an activation, before the next roll";
    }
    return "?";
}
enum class How { end_game, shutdown };

// The room's pause between steps: long enough for the test's answer to arrive inside it, also
// on a loaded machine under the sanitizers (a case whose end came after the pause is played
// again: end_at says so).
#if defined(__SANITIZE_ADDRESS__)
constexpr int kPaceMs = 1500;
#else
constexpr int kPaceMs = 500;
#endif

GameRecord read_record(const TestServer& server, const json& over) {
    REQUIRE(over.contains("record"));
    const std::string id = over["record"].get<std::string>().substr(std::string("/records/").size());
    std::ifstream in(server.data_dir() + "/records/" + id + ".json");  // exported: the server may have stopped
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    return parse_record(text.str());
}

// Plays Ann's side (seed, decisions: the first option) until `when`, then ends the game `how`;
// returns game_over. `late`: a step of the game (a roll, a decision, the moves, an activation)
// came before it, so the end came after the pause it was meant for (the test's thread, on a
// loaded machine, can be held up longer than a pause).
json end_at(TestServer& server, Client& ann, When when, How how, json& commitment, bool& late) {
    commitment = ann.expect("commitment");
    bool reached = when == When::seed_collection;
    bool chose = false;
    if (!reached) ann.send({{"type", "client_seed"}, {"seed", "ann's seed"}});
    while (!reached) {
        auto m = ann.read(10s);
        REQUIRE(m.has_value());
        const std::string type = (*m)["type"];
        REQUIRE(type != "game_over");
        if (type == "game_started" && when == When::before_first_roll) reached = true;
        if (type == "decision") {
            if (when == When::mid_decision) {
                reached = true;
            } else {
                ann.send({{"type", "choose"}, {"decision", (*m)["decision"]}, {"piece", (*m)["options"][0]["piece"]}});
                chose = true;
            }
        }
        // A round in which Ann chose, so that the record's last round holds a choice.
        if (type == "moves" && when == When::after_moves && chose) reached = true;
        if (type == "activation" && when == When::after_activation && chose) reached = true;
    }
    if (how == How::end_game)
        ann.send({{"type", "end_game"}});
    else
        server.shutdown();
    late = false;
    for (;;) {
        auto m = ann.read(10s);
        REQUIRE_MESSAGE(m.has_value(), "no game_over came");
        const std::string type = (*m)["type"];
        if (type == "game_over") return *m;
        if (type == "roll" || type == "decision" || type == "moves" || type == "activation") late = true;
    }
}

// One game of Spook ended `how` at `when`, and its record checked; false (nothing checked) when
// the end came after the pause it was meant for, unless it is the `last` try (then that fails).
bool end_and_check(How how, When when, bool last) {
    auto config = TestServer::fast_config();
    config.abandon_on_exit = true;  // a shutdown for good: games end and reveal their seeds
    config.export_records = config.data_dir + "/records";
    TestServer server(config);
    Client ann(server.port());
    // Paced: every pause (after the start, after the moves, after the activation) lasts long
    // enough for the end to arrive in it.
    create_room(ann, {{"game", "spook"}, {"players", 3}, {"pieces", 2}}, "Ann",
                json{{"pace_ms", kPaceMs}, {"decision_ms", 60000}});
    ann.send({{"type", "add_bot"}, {"policy", "random"}});
    ann.send({{"type", "add_bot"}, {"policy", "best"}});
    ann.send({{"type", "start"}});
    json commitment;
    bool late = false;
    const json over = end_at(server, ann, when, how, commitment, late);
    if (late && !last) return false;
    CHECK_FALSE_MESSAGE(late, "three games' ends came after the pause they were meant for");
    CHECK(over["status"] == "abandoned");
    REQUIRE(over["server_seed"].is_string());
    // The revealed seed is the committed one, whenever the game ended.
    CHECK(sha256_hex(std::string(reinterpret_cast<const char*>(
                                     ServerSeed::from_hex(over["server_seed"].get<std::string>()).bytes.data()),
                                 kServerSeedBytes)) == commitment["commitment"]);
    if (when == When::seed_collection) {
        // No game was played and no die drawn: nothing to record.
        CHECK_FALSE(over.contains("record"));
        return true;
    }
    const GameRecord record = read_record(server, over);
    CHECK(record.result.status == GameStatus::abandoned);
    CHECK(record.commitment == commitment["commitment"]);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
    if (when == When::after_moves) {
        // The last round was cut after its moves: its roll and choices are in the record.
        REQUIRE_FALSE(record.draws.empty());
        CHECK(record.draws.back().purpose == DrawPurpose::movement);
        REQUIRE_FALSE(record.choices.empty());
        CHECK(record.choices.back().step == record.result.length + 1);
    }
    return true;
}

}  // namespace

TEST_CASE("server: a Spook game ended by the host or by shutdown at any step leaves a record that verifies [server][spook][records]") {
    for (How how : {How::end_game, How::shutdown})
        for (When when : {When::seed_collection, When::before_first_roll, When::mid_decision, When::after_moves,
                          When::after_activation}) {
            const std::string where = std::string(how == How::end_game ? "end_game " : "shutdown ") + name_of(when);
            CAPTURE(where);
            // At most three games: one whose end came after the pause it was meant for is played
            // again (what is checked is an end inside it).
            for (int game = 1; !end_and_check(how, when, game == 3); ++game)
                MESSAGE(where, ": the end came after the pause (game ", game, "); once more");
        }
}
