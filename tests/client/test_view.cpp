// The client's view of a game, built from recorded message sequences: whole games that bots
// played against the real server (`spookludo bot --transcript`), checked against the game
// records the server wrote for the same games (tests/client/data).
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "bot_brain.h"
#include "render.h"
#include "spookludo/record.h"
#include "view.h"
#include "view_fixtures.h"

using namespace spookludo;
using nlohmann::json;

namespace {

std::vector<json> read_transcript(const std::string& name) {
    std::ifstream in(std::string(SPOOKLUDO_TEST_DATA) + "/" + name);
    REQUIRE_MESSAGE(in.good(), "missing test data " << name);
    std::vector<json> messages;
    std::string line;
    while (std::getline(in, line))
        if (!line.empty()) messages.push_back(json::parse(line));
    return messages;
}

json read_record(const std::string& name) {
    std::ifstream in(std::string(SPOOKLUDO_TEST_DATA) + "/" + name);
    REQUIRE_MESSAGE(in.good(), "missing test data " << name);
    return json::parse(in);
}

std::map<int, std::string> positions_by_step(const json& record) {
    std::map<int, std::string> out;
    for (const auto& p : record.at("positions")) {
        std::string text = p.at("position");
        std::erase(text, '*');
        out[p.at("step").get<int>()] = text;
    }
    return out;
}

std::string spook_positions_text(const client::GameView& v) {
    std::string out;
    for (const auto& seat : v.spook_positions()) {
        if (!out.empty()) out += ' ';
        for (std::size_t i = 0; i < seat.size(); ++i) out += (i ? "," : "") + std::to_string(seat[i]);
    }
    return out;
}

// The seat-0 choices the record holds, by step.
std::map<int, int> choices_of_seat0(const json& record) {
    std::map<int, int> out;
    for (const auto& c : record.at("choices"))
        if (c.at("seat") == 0 && c.at("by") == "player") out[c.at("step").get<int>()] = c.at("piece").get<int>();
    return out;
}

bool log_has(const client::GameView& v, const std::string& text) {
    for (const auto& line : v.log())
        if (line.text.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("view: a recorded Spook game replays to the record's positions after every round") {
    const auto messages = read_transcript("spook_4p.jsonl");
    const auto record = read_record("spook_4p.record.json");
    const auto expected = positions_by_step(record);
    client::GameView v;
    int rounds_checked = 0;
    for (const auto& m : messages) {
        v.apply(m, 0);
        if (m.at("type") == "roll" && m.at("round") == 1) CHECK(log_has(v, "Round 1: the die shows"));
        if (m.at("type") == "activation") {
            const int round = m.at("round");
            REQUIRE(expected.count(round) == 1);
            CHECK_MESSAGE(spook_positions_text(v) == expected.at(round), "round " << round);
            ++rounds_checked;
        }
    }
    CHECK(rounds_checked == record.at("result").at("length").get<int>());
    // Each seat's board is the published board the fair draw assigned it.
    const auto& boards = record.at("boards");
    const auto& assignment = record.at("assignment");
    REQUIRE(v.spook_boards().size() == 4);
    for (std::size_t s = 0; s < 4; ++s) CHECK(v.spook_boards()[s] == boards.at(assignment.at(s).get<std::size_t>()));
    REQUIRE(v.result());
    CHECK(v.result()->over.winners == record.at("result").at("winners").get<std::vector<int>>());
    CHECK(v.my_seat() == 0);
    CHECK_FALSE(v.pending());
    // The story reads like a host: rolls, monsters, the end.
    CHECK(log_has(v, "it's the"));
    CHECK(log_has(v, "Game over! bot-"));
    CHECK(log_has(v, "Server seed revealed"));
}

TEST_CASE("view: a recorded Ludo game replays to the record's position after every turn") {
    const auto messages = read_transcript("ludo_4p_n6.jsonl");
    const auto record = read_record("ludo_4p_n6.record.json");
    const auto expected = positions_by_step(record);
    client::GameView v;
    int turns_checked = 0;
    int captures = 0;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        v.apply(messages[i], 0);
        const std::string type = messages[i].at("type");
        if (type == "roll_off") CHECK(log_has(v, "starts."));
        if (type == "move" || type == "throw") {
            for (const auto& e : messages[i].at("events"))
                if (e.at("kind") == "captured") ++captures;
            const int turn = messages[i].at("turn");
            // The end of a turn: the next throw or move belongs to another turn.
            std::size_t k = i + 1;
            while (k < messages.size() && messages[k].at("type") != "throw" && messages[k].at("type") != "move" &&
                   messages[k].at("type") != "game_over")
                ++k;
            const bool turn_over = k == messages.size() || !messages[k].contains("turn") || messages[k].at("turn") != turn;
            if (turn_over) {
                REQUIRE(expected.count(turn) == 1);
                std::string position = v.ludo_position(-1);
                CHECK_MESSAGE(position == expected.at(turn), "turn " << turn);
                ++turns_checked;
            }
        }
    }
    CHECK(turns_checked == record.at("result").at("length").get<int>());
    REQUIRE(v.result());
    CHECK(v.result()->over.winners == record.at("result").at("winners").get<std::vector<int>>());
    CHECK(captures > 0);
    CHECK(log_has(v, ") captures "));
    CHECK(log_has(v, "has all four pieces home!"));
}

TEST_CASE("view: the bot's brain makes the same choices again from the recorded messages") {
    // bot-1 (seat 0) played these games with these policies and this seed (bot_command.cpp).
    const std::pair<const char*, PolicyKind> games[] = {{"spook_4p", PolicyKind::greedy}, {"ludo_4p_n6", PolicyKind::greedy}};
    for (const auto& [name, policy] : games) {
        CAPTURE(name);
        const auto messages = read_transcript(std::string(name) + ".jsonl");
        const auto choices = choices_of_seat0(read_record(std::string(name) + ".record.json"));
        client::GameView v;
        client::BotBrain brain(policy, std::uint64_t{0x5eed0000});
        int checked = 0;
        for (const auto& m : messages) {
            v.apply(m, 0);
            if (m.at("type") != "decision") continue;
            const int step = m.at("step");
            REQUIRE(choices.count(step) == 1);
            CHECK_MESSAGE(brain.choose(v) == choices.at(step), "step " << step);
            ++checked;
        }
        CHECK(checked == static_cast<int>(choices.size()));
        CHECK(checked > 5);
    }
}

TEST_CASE("view: a snapshot alone (a reconnection) gives the whole picture") {
    SUBCASE("Spook") {
        protocol::RoomSnapshot s;
        s.room = "KQZTM";
        s.state = "playing";
        s.options = GameOptions::spook_game(2, 2);
        protocol::SpookView g;
        g.round = 7;
        g.phase = "choosing";
        g.roll = 3;
        g.boards = {".HCCWCHWXH.HSXWXHSWH.SWSSSXCCC.XXXSWCHW+", ".HCXWSXHCX.WSSHSCHWX.CWWHHSCCX.HSWXXCWS+"};
        g.positions = {{12, 5}, {40, 9}};
        g.finished_round = {std::nullopt, std::nullopt};
        s.spook = g;
        client::GameView v;
        v.apply(protocol::to_message(s));
        CHECK(v.in_game());
        CHECK(v.round() == 7);
        CHECK(v.movement_roll() == 3);
        CHECK(spook_positions_text(v) == "12,5 40,9");
        CHECK(v.spook_boards() == g.boards);
    }
    SUBCASE("Ludo") {
        protocol::RoomSnapshot s;
        s.room = "KQZTM";
        s.state = "playing";
        s.options = GameOptions::ludo_game(4, 6);
        protocol::LudoView g;
        g.position = "green:H,Y,5,12 yellow*:Y,Y,Y,50 red:Y,55,Y,Y blue:0,0,Y,Y";
        g.phase = "awaiting_throw";
        g.current_seat = 1;
        g.turn = 57;
        s.ludo = g;
        client::GameView v;
        v.apply(protocol::to_message(s));
        CHECK(v.in_game());
        CHECK(v.turn() == 57);
        CHECK(v.current_seat() == 1);
        CHECK(v.ludo_position(1) == "green:H,Y,5,12 yellow*:Y,Y,Y,50 red:Y,55,Y,Y blue:0,0,Y,Y");
    }
}

TEST_CASE("view: errors and unreadable messages are told, and change nothing") {
    client::GameView v;
    v.apply(protocol::to_message(protocol::Roll{1, 4}));
    const auto before = v.movement_roll();
    v.apply_text("{not json");
    CHECK(v.log().back().kind == client::LogLine::Kind::error);
    v.apply(protocol::to_message(protocol::ErrorReply{"illegal_choice", "piece 2 cannot move 4: the church needs an exact throw", "choose", std::nullopt}));
    REQUIRE(v.last_error());
    CHECK(v.last_error()->code == "illegal_choice");
    CHECK(log_has(v, "The rules do not allow that move."));  // no args: the rules' reason is not known
    protocol::ErrorReply worded{"illegal_choice", "piece 2 on square 38 cannot move 4: the church needs an exact throw of 2", "choose",
                                std::nullopt, json{{"reason", "exact_throw"}, {"piece", 2}, {"square", 38}, {"face", 4}, {"needed", 2}}};
    v.apply(protocol::to_message(worded));
    CHECK(log_has(v, "Piece 2 on square 38 cannot move 4: the church needs an exact throw of 2."));
    v.apply(json{{"type", "roll"}, {"round", "three"}, {"face", 2}});  // a field of the wrong type
    CHECK(v.log().back().text.find("could not read") != std::string::npos);
    v.apply(json{{"type", "something_new"}});  // a newer server's message: ignored
    CHECK(v.movement_roll() == before);
}

TEST_CASE("view: a decision counts down on the local clock and closes when answered or timed out") {
    client::GameView v;
    protocol::Decision d;
    d.decision = "17";
    d.seat = 0;
    d.time_left_ms = 20000;
    d.options = {protocol::DecisionOption{0, 5, 9, {}, {}, {}, {}}, protocol::DecisionOption{1, 1, 5, {}, {}, {}, {}}};
    v.apply(protocol::to_message(d), 1000);
    REQUIRE(v.pending());
    CHECK(v.time_left_ms(1000) == 20000);
    CHECK(v.time_left_ms(15000) == 6000);
    CHECK(v.time_left_ms(30000) == 0);
    v.apply(protocol::to_message(protocol::ChoiceAccepted{"16", 0}));  // another decision's
    CHECK(v.pending());
    v.apply(protocol::to_message(protocol::ChoiceAccepted{"17", 0}));
    CHECK_FALSE(v.pending());
    v.apply(protocol::to_message(d), 1000);
    v.apply(protocol::to_message(protocol::DecisionTimeout{"17"}));
    CHECK_FALSE(v.pending());
    CHECK(log_has(v, "Time's up"));
}

TEST_CASE("view: every step of the recorded games draws within 80x24, with and without colour") {
    for (const char* name : {"spook_4p.jsonl", "ludo_4p_n6.jsonl"}) {
        CAPTURE(name);
        client::GameView v;
        for (const auto& m : read_transcript(name)) {
            v.apply(m, 0);
            for (const bool color : {false, true}) {
                client::Style style;
                style.color = color;
                const auto lines = client::render_screen(v, style, 0, "status");
                REQUIRE(lines.size() <= 24);
                for (const auto& line : lines) REQUIRE(client::visible_width(line) <= 80);
            }
        }
    }
}

TEST_CASE("view: the best bot's brain answers every recorded decision with one of its options") {
    for (const char* name : {"spook_4p.jsonl", "ludo_4p_n6.jsonl"}) {
        CAPTURE(name);
        client::GameView v;
        client::BotBrain brain(PolicyKind::best, 7);
        int checked = 0;
        for (const auto& m : read_transcript(name)) {
            v.apply(m, 0);
            if (m.at("type") != "decision") continue;
            const int piece = brain.choose(v);
            bool listed = false;
            for (const auto& o : m.at("options")) listed = listed || o.at("piece") == piece;
            CHECK_MESSAGE(listed, "step " << m.at("step") << " piece " << piece);
            ++checked;
        }
        CHECK(checked > 5);
    }
}

TEST_CASE("view: lines_since hands out each story line once, skipping what fell off the log") {
    client::GameView v;
    std::size_t cursor = 0;
    v.apply(protocol::to_message(protocol::Roll{1, 4}));
    v.apply(protocol::to_message(protocol::Roll{2, 5}));
    auto lines = v.lines_since(cursor);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].find("Round 1: the die shows 4") == 0);
    CHECK(v.lines_since(cursor).empty());
    for (int r = 3; r < 3 + static_cast<int>(client::GameView::kMaxLog) + 10; ++r)
        v.apply(protocol::to_message(protocol::Roll{r, 1}));
    lines = v.lines_since(cursor);
    CHECK(lines.size() == client::GameView::kMaxLog);  // the oldest 10 were dropped from the log
    CHECK(lines.back().find("Round " + std::to_string(2 + client::GameView::kMaxLog + 10)) == 0);
}

TEST_CASE("records: a record file written by the server reads back and is written again byte for byte [record]") {
    // The record format is pinned: record_text writes the same text a server wrote for these
    // games (keys in order, one list entry per line), so that records diff cleanly.
    for (const char* name : {"spook_4p.record.json", "ludo_4p_n6.record.json"}) {
        INFO(name);
        std::ifstream in(std::string(SPOOKLUDO_TEST_DATA) + "/" + name);
        REQUIRE(in.good());
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK(record_text(parse_record(text)) == text);
    }
}

// ---- Issue #15 -----------------------------------------------------------------------------------

namespace {

std::string screen_text(const client::GameView& v, const client::Style& style = {}) {
    std::string out;
    for (const auto& line : client::render_screen(v, style, 0, "status")) out += line + "\n";
    return out;
}

// The lobby snapshot a server sends after game_over (the rematch lobby), here without bot-4.
json rematch_lobby(const std::vector<json>& messages) {
    json lobby;
    for (const auto& m : messages)
        if (m.at("type") == "room" && m.at("state") == "lobby") lobby = m;
    REQUIRE(lobby.is_object());
    lobby["seats"].erase(lobby["seats"].size() - 1);
    return lobby;
}

}  // namespace

TEST_CASE("view #15.10: Ludo's side panel names the seat that threw, not the seat to play next (a recorded game)") {
    const auto messages = read_transcript("ludo_4p_n6.jsonl");
    client::GameView v;
    int throws = 0, passes = 0;
    for (const auto& m : messages) {
        v.apply(m, 0);
        if (m.at("type") != "throw") continue;
        ++throws;
        const int seat = m.at("seat");
        for (const auto& e : m.at("events")) passes += e.at("kind") == "turn" ? 1 : 0;
        REQUIRE(v.last_thrower() == seat);
        const std::string expected = "Last throw: " + std::to_string(m.at("face").get<int>()) + " (bot-" + std::to_string(seat + 1) + ")";
        const auto board = client::render_ludo_board(v, client::Style{});
        bool found = false;
        for (const auto& line : board) found = found || line.find(expected) != std::string::npos;
        CHECK_MESSAGE(found, "turn " << m.at("turn") << ": " << expected);
    }
    CHECK(throws > 300);
    CHECK(passes > 100);  // throws after which another seat is to play: the old panel named that seat
}

TEST_CASE("view #15.12: the story says who captured whom, with colours and the square, and the Hat's empty square is no 'Phew'") {
    const auto messages = read_transcript("ludo_4p_n6.jsonl");
    client::GameView v;
    int captures = 0;
    for (const auto& m : messages) {
        const std::size_t before = v.log_count();
        v.apply(m, 0);
        if (!m.contains("events")) continue;
        int mover = -1, to = -1;
        for (const auto& e : m.at("events")) {
            if (e.at("kind") == "moved" || e.at("kind") == "entered") {
                mover = e.at("seat");
                to = e.at("to");
            }
            if (e.at("kind") != "captured") continue;
            ++captures;
            static const char* colours[] = {"green", "yellow", "red", "blue"};
            const int victim = e.at("seat");
            const std::string line = "bot-" + std::to_string(mover + 1) + " (" + colours[mover] + ") captures bot-" +
                                     std::to_string(victim + 1) + "'s piece " + std::to_string(e.at("piece").get<int>() + 1) +
                                     " (" + colours[victim] + ") on " + std::to_string(to) + ": it goes back to the yard.";
            std::size_t cursor = before;
            bool found = false;
            for (const auto& l : v.lines_since(cursor)) found = found || l == line;
            CHECK_MESSAGE(found, line);
        }
    }
    CHECK(captures > 5);

    client::GameView s;
    protocol::Activation hat;
    hat.round = 4;
    hat.face = 1;
    hat.character = "hat";
    hat.name = "Wizard's Hat";
    hat.action = "moves forward 3 squares";
    s.apply(protocol::to_message(hat));
    CHECK(s.log().back().text == "Nobody stands on the Wizard's Hat.");
    protocol::Activation wolf = hat;
    wolf.character = "werewolf";
    wolf.name = "Werewolf";
    wolf.action = "moves back to the entrance of its region";
    s.apply(protocol::to_message(wolf));
    CHECK(s.log().back().text == "Nobody stands on the Werewolf. Phew!");
}

TEST_CASE("view #15.18: a finished game stays on screen: final boards, winner, places, the record and how to verify it, until dismissed") {
    const auto messages = read_transcript("spook_4p.jsonl");
    const auto record = read_record("spook_4p.record.json");
    client::GameView v;
    for (const auto& m : messages) v.apply(m, 0);
    REQUIRE(v.showing_result());
    // The rematch lobby arrives at once (bot-4 has gone): the game-over screen still shows the game.
    v.apply(rematch_lobby(messages), 0);
    CHECK(v.state() == "lobby");
    REQUIRE(v.showing_result());
    client::Style style;
    style.server_url = "http://127.0.0.1:8080";
    const std::string screen = screen_text(v, style);
    CAPTURE(screen);
    const std::string address = "http://127.0.0.1:8080/records/" + messages.back().at("game_id").get<std::string>();
    CHECK(screen.find("game over") != std::string::npos);
    // The final boards as they stood: every seat's board, bot-4 among them, its pieces in the church.
    for (std::size_t seat = 0; seat < 4; ++seat) {
        const std::string board = record.at("boards").at(record.at("assignment").at(seat).get<std::size_t>());
        CHECK(screen.find(board.substr(1, 9)) != std::string::npos);
        CHECK(screen.find("bot-" + std::to_string(seat + 1)) != std::string::npos);
    }
    CHECK(screen.find("Game over! bot-4 wins after 30 rounds.") != std::string::npos);
    // The places by room seat, 1-based, an entry never broken over two lines.
    CHECK(screen.find("Places: 1. bot-4 (seat 4), 2. bot-1 (seat 1), 2. bot-2 (seat 2),\n2. bot-3 (seat 3)\n") != std::string::npos);
    CHECK(screen.find("The game's record: " + address) != std::string::npos);
    CHECK(screen.find("spookludo verify " + address) != std::string::npos);
    CHECK(screen.find("Press any key") != std::string::npos);
    // Small windows keep the result's text.
    for (const auto& [w, h] : {std::pair{60, 15}, std::pair{40, 10}}) {
        client::Style small = style;
        small.width = w;
        small.height = h;
        const auto lines = client::render_screen(v, small, 0, "status");
        REQUIRE(static_cast<int>(lines.size()) == h);
        std::string all;
        for (const auto& line : lines) {
            CHECK(client::visible_width(line) <= w);
            all += line + "\n";
        }
        if (std::getenv("SPOOKLUDO_SHOW_RENDER")) std::cout << all;
        CHECK(all.find("Game over! bot-4 wins") != std::string::npos);
        CHECK(all.find("Press any key") != std::string::npos);
    }
    for (const auto& [w, h] : {std::pair{20, 5}, std::pair{12, 1}, std::pair{200, 60}}) {
        client::Style odd = style;
        odd.width = w;
        odd.height = h;
        const auto lines = client::render_screen(v, odd, 0, "status");
        REQUIRE(static_cast<int>(lines.size()) == h);
        for (const auto& line : lines) CHECK(client::visible_width(line) <= w);
    }
    // A key press: the lobby.
    v.dismiss_result();
    CHECK_FALSE(v.showing_result());
    CHECK(v.result());  // still known (the summary on leaving uses it)
    CHECK(screen_text(v).find("waiting in the lobby") != std::string::npos);

    // The host starts a rematch before any key: the new game's commitment ends the screen.
    client::GameView w;
    for (const auto& m : messages) w.apply(m, 0);
    REQUIRE(w.showing_result());
    for (const auto& m : messages)
        if (m.at("type") == "commitment") w.apply(m, 0);
    CHECK_FALSE(w.showing_result());
}

TEST_CASE("view #15.18: a Ludo game's end shows the final board and the places (a recorded game)") {
    const auto messages = read_transcript("ludo_4p_n6.jsonl");
    client::GameView v;
    for (const auto& m : messages) v.apply(m, 0);
    v.apply(rematch_lobby(messages), 0);
    REQUIRE(v.showing_result());
    const std::string screen = screen_text(v);
    CAPTURE(screen);
    if (std::getenv("SPOOKLUDO_SHOW_RENDER")) std::cout << screen;
    CHECK(screen.find("Game over! bot-2 wins after 354 turns.") != std::string::npos);
    CHECK(screen.find("Places: 1. bot-2 (seat 2), 2. bot-1 (seat 1)") != std::string::npos);
    CHECK(screen.find("yard 0 home 4") != std::string::npos);  // the winner's pieces, all home
    CHECK(screen.find("The game's record: /records/WHMNU-1796035348568-4d17f595") != std::string::npos);
}

TEST_CASE("view #15 protocol: notice lines are the story, and then the snapshots' seat changes are not told twice, and a kick says why") {
    client::GameView v;
    protocol::RoomSnapshot s;
    s.room = "KQZTM";
    s.state = "lobby";
    s.options = GameOptions::spook_game(3, 1);
    s.seats = {spookludo::testing::player(0, "Ann")};
    v.apply(protocol::to_message(s));
    s.seats.push_back(spookludo::testing::player(1, "Ben"));
    v.apply(protocol::to_message(s));
    CHECK(v.log().back().text == "Ben took seat 2");  // a server without notices: told from the snapshots
    v.apply(json{{"type", "notice"}, {"kind", "joined"}, {"seat", 2}, {"name", "Cleo"}, {"host", false}, {"text", "Cleo sits at seat 3"}});
    CHECK(v.log().back().text == "Cleo sits at seat 3");
    const auto count = v.log_count();
    s.seats.push_back(spookludo::testing::player(2, "Cleo"));
    v.apply(protocol::to_message(s));
    CHECK(v.log_count() == count);
    v.apply(json{{"type", "kicked"}, {"room", "KQZTM"}, {"reason", "the host removed you from the room"}});
    CHECK(v.kicked());
    CHECK(v.log().back().text == "You were removed from room KQZTM by the host.");
}

TEST_CASE("view #15 protocol: the countdown stands still while the game is paused") {
    client::GameView v;
    protocol::RoomSnapshot s;
    s.room = "KQZTM";
    s.state = "playing";
    s.options = GameOptions::spook_game(2, 2);
    protocol::Decision d;
    d.decision = "7";
    d.seat = 0;
    d.time_left_ms = 20000;
    d.options = {protocol::DecisionOption{0, 5, 9, {}, {}, {}, {}}, protocol::DecisionOption{1, 1, 5, {}, {}, {}, {}}};
    v.apply(protocol::to_message(d), 1000);
    s.paused = true;
    v.apply(protocol::to_message(s), 6000);
    CHECK(v.time_left_ms(6000) == 15000);
    CHECK(v.time_left_ms(60000) == 15000);
    // On resuming the server sends the decision again with the time that was left.
    s.paused = false;
    v.apply(protocol::to_message(s), 60000);
    d.time_left_ms = 15000;
    v.apply(protocol::to_message(d), 60000);
    CHECK(v.time_left_ms(61000) == 14000);
}
