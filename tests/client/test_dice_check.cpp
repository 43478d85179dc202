// The client's own check of a game's dice (client/dice_check.h), fed the messages a game sends:
// every die recomputed from the seeds, the first one that does not match named, a revealed seed
// that is not the committed one, a seat's own seed left out, and a late screen that says how many
// it checked and takes the rest from the game's record only once that record agrees with it.
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <iterator>

#include <nlohmann/json.hpp>

#include "dice_check.h"
#include "i18n.h"
#include "render.h"
#include "spookludo/record.h"
#include "spookludo/spook/setup.h"
#include "view.h"

using namespace spookludo;
using client::DiceVerdict;
using client::DiceWitness;
using nlohmann::json;

namespace {

const ServerSeed kSeed = ServerSeed::from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
const std::string kGame = "KQZTM-1764489600000-630dcd29";

// A Spook game of two players at room seats 0 and 2 (seat 1 free) whose seeds are "alice" and
// "bob", as the server would send it; `faces` holds every die after the boards' deal.
struct SpookGame {
    FairStream stream{kSeed, {{0, "alice"}, {1, "bob"}}};
    std::vector<int> dealt;
    int rounds = 0;

    explicit SpookGame(int rounds_played) : rounds(rounds_played) {
        FairDice dealer(stream);
        dealt = spook::draw_assignment(2, dealer);
    }
    // Draw 0 is the deal; round r's movement die is draw 2r - 1, its activation die draw 2r.
    int face(int round, int which) const {
        return static_cast<int>(stream.draw(static_cast<std::uint64_t>(1 + 2 * (round - 1) + which), 6)) + 1;
    }

    json commitment() const {
        return {{"type", "commitment"},
                {"game_id", kGame},
                {"commitment", kSeed.commitment()},
                {"seed_wait_ms", 10000},
                {"boards", {".HCC", ".HCX"}}};
    }
    json started() const {
        return {{"type", "game_started"},
                {"game_id", kGame},
                {"options",
                 {{"game", "spook"}, {"players", 2}, {"pieces", 2}, {"balanced_boards", true}, {"play_on", false}}},
                {"client_seeds", {{{"seat", 0}, {"seed", "alice"}}, {{"seat", 2}, {"seed", "bob"}}}},
                {"assignment", {dealt[0], -1, dealt[1]}},
                {"players", {0, 2}}};
    }
    json roll(int round) const { return {{"type", "roll"}, {"round", round}, {"face", face(round, 0)}}; }
    json activation(int round) const {
        return {{"type", "activation"}, {"round", round},         {"face", face(round, 1)},
                {"character", "cat"},   {"moved", json::array()}, {"finished", json::array()}};
    }
    json over(const std::string& seed_hex) const {
        return {{"type", "game_over"}, {"game_id", kGame}, {"status", "finished"},    {"winners", {0}},
                {"places", {1, 0, 2}}, {"length", rounds}, {"server_seed", seed_hex}, {"record", "/records/" + kGame}};
    }
    // A snapshot of the game in round `round`, its movement die thrown.
    json snapshot(int round) const {
        return {{"type", "room"},
                {"room", "KQZTM"},
                {"state", "playing"},
                {"game_id", kGame},
                {"commitment", kSeed.commitment()},
                {"options", {{"game", "spook"}, {"players", 3}}},
                {"game", {{"players", {0, 2}}, {"round", round}, {"phase", "choosing"}, {"roll", face(round, 0)}}}};
    }
    // The game's record as the server writes it.
    std::string record() const {
        GameOptions options;
        options.players = 2;
        GameRecord r = start_record(options, {{0, "Ann", false, std::nullopt, 0}, {1, "Bob", false, std::nullopt, 2}},
                                    kSeed, {{0, "alice"}, {1, "bob"}});
        r.boards = {".HCC", ".HCX"};
        r.assignment = dealt;
        r.draws.push_back({0, DrawPurpose::assignment, 2, stream.draw(0, 2)});
        for (std::uint64_t c = 1; c <= static_cast<std::uint64_t>(2 * rounds); ++c)
            r.draws.push_back({c, c % 2 == 1 ? DrawPurpose::movement : DrawPurpose::activation, 6, stream.draw(c, 6)});
        r.server_seed = kSeed.hex();
        r.result.status = GameStatus::finished;
        r.result.length = rounds;
        return record_text(r);
    }
    // Everything from the commitment to the end, `change` applied to each message first.
    void play(DiceWitness& w, const std::function<void(json&)>& change = {}) const {
        std::vector<json> all{commitment(), started()};
        for (int r = 1; r <= rounds; ++r) {
            all.push_back(roll(r));
            all.push_back(activation(r));
        }
        all.push_back(over(kSeed.hex()));
        for (auto& m : all) {
            if (change) change(m);
            w.observe(m);
        }
    }
};

}  // namespace

TEST_CASE(
    "dice check: a whole Spook game seen from its commitment says every die is checked and fair, with no record needed "
    "[client][dice]") {
    client::choose_language("en");
    const SpookGame game(5);
    DiceWitness w;
    game.play(w);
    CHECK(w.ended_game() == kGame);
    CHECK_FALSE(w.needs_record());
    const DiceVerdict v = w.check();
    CHECK(v.kind == DiceVerdict::Kind::fair);
    CHECK(v.checked == 10);
    CHECK(v.total == 10);
    CHECK(v.text.rfind("All 10 dice checked: fair.", 0) == 0);
    CHECK(v.text.find("the boards' deal") != std::string::npos);
    CHECK(v.machine_line() == "dice_check " + kGame + " fair 10 10");
}

TEST_CASE(
    "dice check: one activation die changed on its way names that die and the face the seeds give [client][dice]") {
    client::choose_language("en");
    const SpookGame game(5);
    const int shown = game.face(3, 1) % 6 + 1;
    DiceWitness w;
    game.play(w, [&](json& m) {
        if (m["type"] == "activation" && m["round"] == 3) m["face"] = shown;
    });
    const DiceVerdict v = w.check();
    CHECK(v.kind == DiceVerdict::Kind::unfair);
    CHECK(v.text.rfind("Round 3's activation die was " + std::to_string(shown) + ", the seeds give " +
                           std::to_string(game.face(3, 1)) + ": this game's dice are not the fair stream.",
                       0) == 0);
    CHECK(v.checked == 5);  // the five dice before it agreed
    CHECK(v.machine_line().rfind("dice_check " + kGame + " unfair ", 0) == 0);
}

TEST_CASE(
    "dice check: a revealed seed that is not the committed one says so, and a deal the seeds do not give names the "
    "seat [client][dice]") {
    client::choose_language("en");
    const SpookGame game(2);
    DiceWitness w;
    const std::string other = "100102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    game.play(w, [&](json& m) {
        if (m["type"] == "game_over") m["server_seed"] = other;
    });
    const DiceVerdict v = w.check();
    CHECK(v.kind == DiceVerdict::Kind::commitment_mismatch);
    CHECK(v.text.rfind("The revealed server seed does not match the commitment published before the game", 0) == 0);
    CHECK(v.machine_line() == "dice_check " + kGame + " commitment_mismatch 0 0");

    DiceWitness dealt;
    game.play(dealt, [&](json& m) {
        if (m["type"] == "game_started") m["assignment"] = {game.dealt[1], -1, game.dealt[0]};
    });
    const DiceVerdict d = dealt.check();
    CHECK(d.kind == DiceVerdict::Kind::unfair);
    CHECK(d.text.rfind("Seat 1 was dealt board " + std::to_string(game.dealt[1] + 1) + ", the seeds give board " +
                           std::to_string(game.dealt[0] + 1),
                       0) == 0);
}

TEST_CASE(
    "dice check: a player's own seed, accepted by the server but missing from the game's seeds, makes the dice not "
    "proven fair [client][dice]") {
    client::choose_language("en");
    const SpookGame game(1);
    DiceWitness w;
    w.observe(game.commitment());
    w.seed_sent("carol's own seed");
    w.observe({{"type", "client_seed_accepted"}});
    w.observe(game.started());
    w.observe(game.roll(1));
    w.observe(game.activation(1));
    w.observe(game.over(kSeed.hex()));
    const DiceVerdict v = w.check();
    CHECK(v.kind == DiceVerdict::Kind::unfair);
    CHECK(v.text.rfind("Your client seed, which the server accepted, is not among the game's seeds", 0) == 0);
}

TEST_CASE(
    "dice check: a screen that came at round 3 checks the dice it saw with the record's seeds, says how many of the "
    "game's, and refuses a record that disagrees [client][dice]") {
    client::choose_language("en");
    const SpookGame game(5);
    auto late = [&] {
        DiceWitness w;
        w.observe(game.snapshot(3));  // round 3's movement die is on the table
        w.observe(game.activation(3));
        for (int r = 4; r <= 5; ++r) {
            w.observe(game.roll(r));
            w.observe(game.activation(r));
        }
        w.observe(game.over(kSeed.hex()));
        return w;
    };
    const DiceWitness w = late();
    CHECK_FALSE(w.saw_seeds());
    REQUIRE(w.needs_record());
    REQUIRE(w.record_path() == "/records/" + kGame);

    const std::string record = game.record();
    const DiceVerdict v = w.check(&record);
    CHECK(v.kind == DiceVerdict::Kind::fair);
    CHECK(v.used_record);
    CHECK(v.checked == 6);
    CHECK(v.total == 10);
    CHECK(v.text.rfind(
              "6 of 10 dice checked: this screen joined at round 3; all fair. The client seeds and the other dice "
              "come from the game's record",
              0) == 0);

    // Without the record it cannot check anything, and says why.
    const DiceVerdict none = w.check(nullptr, "connection refused");
    CHECK(none.kind == DiceVerdict::Kind::unchecked);
    CHECK(none.text.find("connection refused") != std::string::npos);
    CHECK(none.machine_line() == "dice_check " + kGame + " unchecked 0 0");

    // A record whose draw differs from a die seen here is not believed.
    json changed = json::parse(record);
    auto& draw = changed["draws"][6];  // round 3's activation die
    draw["value"] = (draw["value"].get<int>() + 1) % 6;
    const std::string bad = changed.dump();
    const DiceVerdict refused = w.check(&bad);
    CHECK(refused.kind == DiceVerdict::Kind::unfair);
    CHECK(refused.text.rfind("The game's record does not agree with what this screen saw", 0) == 0);
}

TEST_CASE(
    "dice check: a Ludo game's roll-off and throws from its start are all checked, and a late screen maps its throws "
    "through the record [client][dice]") {
    client::choose_language("en");
    const FairStream stream(kSeed, {{0, "ann"}});
    auto face = [&](std::uint64_t c) { return static_cast<int>(stream.draw(c, 6)) + 1; };
    // The roll-off: draw until one seat is highest (2 players).
    std::vector<int> roll_off;
    std::uint64_t c = 0;
    for (;;) {
        const int a = face(c++), b = face(c++);
        roll_off.push_back(a);
        roll_off.push_back(b);
        if (a != b) break;
    }
    const std::uint64_t first_throw = c;
    const int throws = 12;
    json events = json::array();
    for (std::size_t i = 0; i < roll_off.size(); ++i)
        events.push_back(
            {{"kind", "roll_off_throw"}, {"seat", static_cast<int>(i % 2)}, {"face", roll_off[i]}, {"text", "."}});
    std::vector<json> messages{
        {{"type", "commitment"}, {"game_id", kGame}, {"commitment", kSeed.commitment()}, {"seed_wait_ms", 1000}},
        {{"type", "game_started"},
         {"game_id", kGame},
         {"options", {{"game", "ludo"}, {"players", 2}}},
         {"client_seeds", {{{"seat", 0}, {"seed", "ann"}}}},
         {"players", {0, 1}}},
        {{"type", "roll_off"}, {"starts", 0}, {"events", events}}};
    for (int t = 1; t <= throws; ++t)
        messages.push_back({{"type", "throw"},
                            {"turn", t},
                            {"seat", 0},
                            {"face", face(first_throw + static_cast<std::uint64_t>(t - 1))},
                            {"events", json::array()}});
    messages.push_back({{"type", "game_over"},
                        {"game_id", kGame},
                        {"status", "finished"},
                        {"winners", {0}},
                        {"places", {1, 2}},
                        {"length", throws},
                        {"server_seed", kSeed.hex()},
                        {"record", "/records/" + kGame}});
    DiceWitness whole;
    for (const auto& m : messages) whole.observe(m);
    CHECK_FALSE(whole.needs_record());
    const DiceVerdict v = whole.check();
    const int total = static_cast<int>(roll_off.size()) + throws;
    CHECK(v.kind == DiceVerdict::Kind::fair);
    CHECK(v.text.rfind("All " + std::to_string(total) + " dice checked: fair.", 0) == 0);

    // From throw 5 on, with the record.
    GameOptions options;
    options.game = GameKind::ludo;
    options.players = 2;
    GameRecord r = start_record(options, {{0, "Ann", false, std::nullopt, 0}, {1, "bot", true, PolicyKind::best, 1}},
                                kSeed, {{0, "ann"}});
    for (std::uint64_t i = 0; i < first_throw + throws; ++i)
        r.draws.push_back({i, i < first_throw ? DrawPurpose::roll_off : DrawPurpose::throw_, 6, stream.draw(i, 6)});
    r.server_seed = kSeed.hex();
    r.result.status = GameStatus::finished;
    r.result.length = throws;
    const std::string record = record_text(r);
    DiceWitness late;
    late.observe({{"type", "room"},
                  {"state", "playing"},
                  {"game_id", kGame},
                  {"commitment", kSeed.commitment()},
                  {"options", {{"game", "ludo"}, {"players", 2}}},
                  {"game", {{"players", {0, 1}}, {"turn", 4}}}});
    for (std::size_t i = 3 + 4; i < messages.size(); ++i) late.observe(messages[i]);
    REQUIRE(late.needs_record());
    const DiceVerdict l = late.check(&record);
    CHECK(l.kind == DiceVerdict::Kind::fair);
    CHECK(l.text.rfind("8 of " + std::to_string(total) + " dice checked: this screen joined at throw 5; all fair.",
                       0) == 0);
}

namespace {

std::vector<json> read_lines(const std::string& name) {
    std::ifstream in(std::string(SPOOKLUDO_TEST_DATA) + "/" + name);
    REQUIRE_MESSAGE(in.good(), "missing test data " << name);
    std::vector<json> messages;
    std::string line;
    while (std::getline(in, line))
        if (!line.empty()) messages.push_back(json::parse(line));
    return messages;
}

std::string read_text(const std::string& name) {
    std::ifstream in(std::string(SPOOKLUDO_TEST_DATA) + "/" + name);
    REQUIRE_MESSAGE(in.good(), "missing test data " << name);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The dice of a record: every draw but the Spook boards' deal.
int record_dice(const std::string& record) {
    int n = 0;
    const json parsed = json::parse(record);
    for (const auto& d : parsed.at("draws"))
        if (d.at("purpose") != "assignment") ++n;
    return n;
}

}  // namespace

TEST_CASE(
    "dice check: the messages of real Spook and Ludo games (bot transcripts of the server) check every die of their "
    "records as fair, also from the middle with the record, and the game-over screen shows the verdict "
    "[client][dice][transcript]") {
    client::choose_language("en");
    for (const std::string name : {"spook_4p", "ludo_4p_n6"}) {
        CAPTURE(name);
        const auto messages = read_lines(name + ".jsonl");
        const std::string record = read_text(name + ".record.json");
        const int dice = record_dice(record);
        DiceWitness whole;
        client::GameView view;
        for (const auto& m : messages) {
            whole.observe(m);
            view.apply(m);
        }
        CHECK_FALSE(whole.needs_record());
        const DiceVerdict v = whole.check();
        CHECK(v.kind == DiceVerdict::Kind::fair);
        CHECK(v.total == dice);
        CHECK(v.text.rfind("All " + std::to_string(dice) + " dice checked: fair.", 0) == 0);

        // On the game-over screen, under the places.
        REQUIRE(view.showing_result());
        client::Style style;
        style.width = 100;
        style.height = 60;
        style.dice_check = v.headline;
        std::string screen;
        for (const auto& line : client::render_screen(view, style, 0, "")) screen += line + "\n";
        CHECK(screen.find("All " + std::to_string(dice) + " dice checked: fair.") != std::string::npos);

        // From the middle of the game: a screen that comes then gets the room's snapshot first
        // (the game, its commitment), then the game's messages from a third of the way on.
        json snapshot = {{"type", "room"}, {"state", "playing"}};
        for (const auto& m : messages)
            if (m.value("type", "") == "commitment") {
                snapshot["game_id"] = m.at("game_id");
                snapshot["commitment"] = m.at("commitment");
            } else if (m.value("type", "") == "game_started") {
                snapshot["options"] = m.at("options");
            }
        snapshot["game"] = {{"players", {0, 1, 2, 3}}};
        DiceWitness late;
        late.observe(snapshot);
        for (std::size_t i = messages.size() / 3; i < messages.size(); ++i) late.observe(messages[i]);
        REQUIRE(late.needs_record());
        const DiceVerdict l = late.check(&record);
        CHECK(l.kind == DiceVerdict::Kind::fair);
        CHECK(l.total == dice);
        CHECK(l.checked > 0);
        CHECK(l.checked < dice);
        CHECK(l.text.find(" of " + std::to_string(dice) + " dice checked: this screen joined at ") !=
              std::string::npos);
    }
}
