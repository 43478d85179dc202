// The client's view of issue #15's room: stable seats with gaps and free seats, the server's
// notices as the story, a kick, a pause and a lost connection that stop the countdown, errors in
// a player's words, the automatic start's countdown. Built from server messages, no network.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "join_hint.h"
#include "render.h"
#include "seat_store.h"
#include "view.h"

using namespace spookludo;
using nlohmann::json;

namespace {

bool log_has(const client::GameView& v, const std::string& text) {
    for (const auto& line : v.log())
        if (line.text.find(text) != std::string::npos) return true;
    return false;
}

json seat_free(int seat) { return {{"seat", seat}, {"free", true}, {"name", ""}, {"bot", false}}; }
json seat_player(int seat, const std::string& name, const std::string& status = "here") {
    return {{"seat", seat}, {"name", name}, {"bot", false}, {"connected", status == "here"},
            {"away", status == "away" || status == "server"}, {"status", status}};
}
json seat_bot(int seat, const std::string& name) { return {{"seat", seat}, {"name", name}, {"bot", true}, {"policy", "best"}}; }

json lobby(json seats, int host, const std::string& game = "spook", int players = -1) {
    json options = game == "spook" ? json{{"game", "spook"}, {"players", players < 0 ? static_cast<int>(seats.size()) : players}, {"pieces", 2}}
                                   : json{{"game", "ludo"}, {"players", players < 0 ? static_cast<int>(seats.size()) : players}, {"arm", 8}};
    return {{"type", "room"},  {"room", "KQZTM"}, {"state", "lobby"}, {"paused", false}, {"options", options},
            {"settings", {{"decision_ms", 30000}, {"pace_ms", 0}, {"hints", false}}},
            {"host", host},    {"seats", seats},  {"spectators", 0},  {"server_time_ms", 0}};
}

json joined(int seat, bool host = false) {
    return {{"type", "joined"}, {"room", "KQZTM"}, {"seat", seat}, {"role", "player"},
            {"token", "0123456789abcdef0123456789abcdef"}, {"host", host}};
}

json decision(const std::string& id, int seat, int time_left_ms) {
    return {{"type", "decision"}, {"decision", id}, {"seat", seat}, {"time_left_ms", time_left_ms},
            {"options", json::array({{{"piece", 0}, {"from", 1}, {"to", 5}}, {{"piece", 1}, {"from", 1}, {"to", 5}}})}};
}

}  // namespace

TEST_CASE("view flow: a player finds itself by its seat number in a room with free seats and says 'You are now the host.' when the host leaves [item1][item2]") {
    client::GameView v;
    v.apply(joined(1));
    v.apply(lobby(json::array({seat_player(0, "Ann"), seat_player(1, "Ben"), seat_free(2)}), 0));
    CHECK(v.my_seat() == 1);
    CHECK_FALSE(v.am_host());
    // Ann leaves: her seat is free, Ben keeps seat 2 (index 1 of the list, number 1 on the wire).
    v.apply(json{{"type", "notice"}, {"kind", "host"}, {"seat", 1}, {"name", "Ben"}, {"text", "Ben is the host now"}});
    v.apply(lobby(json::array({seat_free(0), seat_player(1, "Ben"), seat_free(2)}), 1));
    CHECK(v.am_host());
    CHECK(log_has(v, "You are now the host."));
    CHECK(log_has(v, "Ben is the host now"));
    const auto lines = client::render_lobby(v, client::Style{});
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    CHECK(text.find("  1  (free)") != std::string::npos);
    CHECK(text.find("> 2  Ben                      host, you") != std::string::npos);
    CHECK(text.find("You are the host.") != std::string::npos);
    CHECK(text.find("Waiting for") == std::string::npos);
}

TEST_CASE("view flow: seats with a gap: prompts name the room's real seat numbers, and the list is never indexed by position [item2][item3]") {
    client::GameView v;
    v.apply(joined(2, true));
    v.apply(lobby(json::array({seat_bot(0, "best bot 1"), seat_player(2, "Cy")}), 2, "spook", 2));
    CHECK(v.am_host());
    CHECK(v.seat_name(2) == "Cy");
    CHECK(v.seat_numbers_text() == "1, 3");
    CHECK(v.has_seat_number(3));
    CHECK_FALSE(v.has_seat_number(2));
    v.apply(lobby(json::array({seat_player(0, "Ann"), seat_free(1), seat_free(2), seat_free(3)}), 0));
    CHECK(v.seat_numbers_text() == "1-4");
}

TEST_CASE("view flow: the story comes from the server's notices, not from snapshot differences [item6]") {
    client::GameView v;
    v.apply(joined(0, true));
    v.apply(json{{"type", "notice"}, {"kind", "joined"}, {"seat", 0}, {"name", "Ann"}, {"text", "\"Ann\" sits at seat 1 (the host)"}});
    v.apply(lobby(json::array({seat_player(0, "Ann"), seat_free(1)}), 0));
    const auto before = v.log_count();
    v.apply(lobby(json::array({seat_player(0, "Ann"), seat_player(1, "Ben")}), 0));
    CHECK(v.log_count() == before);  // no "took seat" line made up from the difference
    v.apply(json{{"type", "notice"}, {"kind", "left"}, {"seat", 1}, {"name", "Ben"}, {"then", "server"}, {"text", "Ben left: the server plays seat 2"}});
    CHECK(v.log().back().text == "Ben left: the server plays seat 2");
}

TEST_CASE("view flow: the seat list labels a seat left, away or played by the server, and kicked [item6]") {
    client::GameView v;
    v.apply(joined(0, true));
    json kicked = seat_bot(3, "Dee");
    kicked["kicked"] = true;
    v.apply(lobby(json::array({seat_player(0, "Ann"), seat_player(1, "Ben", "left"), seat_player(2, "Cy", "away"), kicked}), 0));
    std::string text;
    for (const auto& l : client::render_lobby(v, client::Style{})) text += l + "\n";
    CHECK(text.find("Ben                      left") != std::string::npos);
    CHECK(text.find("Cy                       away") != std::string::npos);
    CHECK(text.find("kicked") != std::string::npos);
}

TEST_CASE("view flow: kicked: the player is told they were removed, and the token is void [item5]") {
    client::GameView v;
    v.apply(joined(1));
    REQUIRE(v.token());
    v.apply(json{{"type", "kicked"}, {"room", "KQZTM"}, {"reason", "the host removed you from the room"}});
    CHECK(v.kicked());
    CHECK_FALSE(v.token());
    CHECK(log_has(v, "You were removed from room KQZTM by the host."));
}

TEST_CASE("view flow: a pause freezes the countdown (no 'Time is up' while paused), the re-sent decision runs on, and a lost connection stops it too [item7][item9]") {
    client::GameView v;
    v.apply(joined(0, true));
    json playing = lobby(json::array({seat_player(0, "Ann"), seat_bot(1, "best bot 1")}), 0);
    playing["state"] = "playing";
    v.apply(playing, 0);
    v.apply(decision("7", 0, 4000), 1000);
    CHECK(v.time_left_ms(2000) == 3000);
    json paused = playing;
    paused["paused"] = true;
    v.apply(paused, 2000);
    CHECK(v.paused());
    CHECK(v.time_left_ms(60000) == 3000);  // a minute later: still 3 s
    const auto lines = client::render_decision(v, client::Style{}, 60000);
    CHECK(lines.back() == "Paused (3 s left): choose when the game resumes.");
    // A choice refused during the pause stays to be made.
    v.mark_chosen(0);
    v.apply(json{{"type", "error"}, {"code", "paused"}, {"message", "the game is paused"}, {"ref", "choose"}});
    CHECK_FALSE(v.pending()->chosen);
    CHECK(log_has(v, "The game is paused: choose when it resumes"));
    // Resumed: the server sends the decision again with the time that was left.
    v.apply(playing, 61000);
    v.apply(decision("7", 0, 3000), 61000);
    CHECK_FALSE(v.paused());
    CHECK(v.time_left_ms(62000) == 2000);

    // The connection drops: the countdown stops until the decision comes again.
    v.set_disconnected(true, 62000);
    CHECK(v.time_left_ms(90000) == 2000);
    CHECK(client::render_decision(v, client::Style{}, 90000).back().find("No connection: the countdown is stopped") == 0);
    v.set_disconnected(false, 90000);
    CHECK(v.time_left_ms(90500) == 1500);
}

TEST_CASE("view flow: errors are said in a player's words [item14]") {
    client::GameView host;
    host.apply(joined(0, true));
    host.apply(lobby(json::array({seat_player(0, "Ann"), seat_bot(1, "b"), seat_bot(2, "c"), seat_bot(3, "d")}), 0, "ludo"));
    host.apply(json{{"type", "error"}, {"code", "room_full"}, {"message", "the room is full (4 players): raise options.players"}, {"ref", "add_bot"}});
    CHECK(host.log().back().text == "The room is full: press + for another seat.");
    host.apply(json{{"type", "error"}, {"code", "bad_field"}, {"message", "options: players must be 2 to 4 for ludo (got 5)"}, {"ref", "set_options"}});
    CHECK(host.log().back().text == "Ludo takes 2 to 4 players.");

    client::GameView guest;
    guest.apply(joined(1));
    guest.apply(lobby(json::array({seat_player(0, "Ann"), seat_player(1, "Ben")}), 0));
    guest.apply(json{{"type", "error"}, {"code", "room_full"}, {"message", "the room is full"}, {"ref", "add_bot"}});
    CHECK(guest.log().back().text == "The room is full.");
    guest.apply(json{{"type", "error"}, {"code", "bad_field"}, {"message", "options: players must be 1 to 8 (got 9)"}, {"ref", "set_options"}});
    CHECK(guest.log().back().text == "Spook & Werewolf takes 1 to 8 players.");
}

TEST_CASE("view flow: a Spook game on room seats 1 and 3 keeps boards and pieces by room seat [item2]") {
    client::GameView v;
    v.apply(joined(2));
    v.apply(lobby(json::array({seat_bot(0, "best bot 1"), seat_free(1), seat_player(2, "Cy")}), 0, "spook", 3));
    v.apply(json{{"type", "commitment"}, {"game_id", "KQZTM-1"}, {"commitment", std::string(64, 'a')}, {"seed_wait_ms", 1000},
                 {"boards", {".HCCWCHWXH.HSXWXHSWH.SWSSSXCCC.XXXSWCHW+", ".HCXWSXHCX.WSSHSCHWX.CWWHHSCCX.HSWXXCWS+"}}});
    v.apply(json{{"type", "game_started"}, {"game_id", "KQZTM-1"},
                 {"options", {{"game", "spook"}, {"players", 3}, {"pieces", 2}}},
                 {"client_seeds", json::array()}, {"assignment", {1, -1, 0}}, {"players", {0, 2}}});
    CHECK(v.play_seats() == std::vector<int>{0, 2});
    REQUIRE(v.spook_boards().size() == 3);
    CHECK(v.spook_boards()[0] == ".HCXWSXHCX.WSSHSCHWX.CWWHHSCCX.HSWXXCWS+");
    CHECK(v.spook_boards()[1].empty());
    CHECK(v.spook_boards()[2] == ".HCCWCHWXH.HSXWXHSWH.SWSSSXCCC.XXXSWCHW+");
    v.apply(json{{"type", "moves"}, {"round", 1}, {"moves", {{{"seat", 2}, {"piece", 1}, {"from", 1}, {"to", 5}}}}});
    CHECK(v.spook_positions()[2] == std::vector<int>{1, 5});
    CHECK(log_has(v, "Cy moves piece 2 from square 1 to 5"));
}

TEST_CASE("view flow: a Ludo snapshot on room seats 1 and 3 gives the pieces to those seats, in play order and colours [item2]") {
    client::GameView v;
    json s = lobby(json::array({seat_player(0, "Ann"), seat_free(1), seat_player(2, "Cy")}), 0, "ludo", 3);
    s["state"] = "playing";
    s["options"]["players"] = 3;
    s["game"] = {{"game", "ludo"}, {"players", {0, 2}}, {"position", "green:H,Y,5,12 red*:Y,55,Y,Y"},
                 {"phase", "awaiting_throw"}, {"current_seat", 2}, {"turn", 9}};
    v.apply(s);
    REQUIRE(v.in_game());
    CHECK(v.ludo_colour(0) == static_cast<int>(ludo::Colour::green));
    CHECK(v.ludo_colour(2) == static_cast<int>(ludo::Colour::red));
    CHECK(v.play_index(1) < 0);
    REQUIRE(v.ludo_progress().size() == 3);
    CHECK(v.ludo_progress()[2][1] == 55);
    CHECK(v.ludo_position(2) == "green:H,Y,5,12 red*:Y,55,Y,Y");
    // The board draws without the free seat.
    for (const auto& line : client::render_ludo_board(v, client::Style{})) CHECK(client::visible_width(line) <= 80);
}

TEST_CASE("view flow: a lobby with an automatic start shows 'Starts in 0:42 (free seats get bots)' on the server's clock [item17]") {
    client::GameView v;
    v.apply(joined(1));
    json s = lobby(json::array({seat_bot(0, "host-1"), seat_player(1, "Ben"), seat_free(2)}), 0);
    s["server_time_ms"] = 5000000;
    s["auto_start_at_ms"] = 5042000;
    v.apply(s, 100);  // the local clock at 100 ms
    CHECK(v.auto_start_text(100) == "Starts in 0:42 (free seats get bots)");
    CHECK(v.auto_start_text(30100) == "Starts in 0:12 (free seats get bots)");
    std::string text;
    for (const auto& l : client::render_lobby(v, client::Style{}, 100)) text += l + "\n";
    CHECK(text.find("Starts in 0:42 (free seats get bots)") != std::string::npos);
    s.erase("auto_start_at_ms");
    v.apply(s, 200);
    CHECK(v.auto_start_text(200).empty());
}

TEST_CASE("view flow: the host's join link and command are built from the address the host connected with, list LAN addresses only for a loopback one, and use the server's --public-url when it has one [item20]") {
    const auto lines = [](const client::Url& u, const std::vector<std::string>& lan,
                          const std::optional<std::string>& pub = std::nullopt) {
        return client::join_hint(u, "BZYZU", lan, pub).lines;
    };
    const client::Url lan_url{"192.168.1.20", "7777"};
    CHECK(lines(lan_url, {"10.0.0.5"}) ==
          std::vector<std::string>{"on a phone or laptop, open: http://192.168.1.20:7777/r/BZYZU",
                                   "join with: spookludo play ws://192.168.1.20:7777 --room BZYZU --name YOUR_NAME"});
    const client::Url loop{"127.0.0.1", "7777"};
    CHECK(lines(loop, {"192.168.1.20", "10.0.0.5"}) ==
          std::vector<std::string>{"on a phone or laptop, open: http://192.168.1.20:7777/r/BZYZU",
                                   "join with: spookludo play ws://192.168.1.20:7777 --room BZYZU --name YOUR_NAME",
                                   "join with: spookludo play ws://10.0.0.5:7777 --room BZYZU --name YOUR_NAME",
                                   "on this machine: spookludo play ws://127.0.0.1:7777 --room BZYZU --name YOUR_NAME"});
    CHECK(lines(loop, {}) ==
          std::vector<std::string>{"on a phone or laptop, open: http://127.0.0.1:7777/r/BZYZU",
                                   "join with: spookludo play ws://127.0.0.1:7777 --room BZYZU --name YOUR_NAME"});
    // The server's public address wins over every guess (a name, a forwarded port, TLS).
    CHECK(lines(loop, {"192.168.1.20"}, "https://party.example.org") ==
          std::vector<std::string>{"on a phone or laptop, open: https://party.example.org/r/BZYZU",
                                   "join with: spookludo play wss://party.example.org:443 --room BZYZU --name YOUR_NAME"});
    client::Url tls{"party.example.org", "8443"};
    tls.tls = true;
    CHECK(client::join_hint(tls, "BZYZU", {}).link == "https://party.example.org:8443/r/BZYZU");
    CHECK(client::join_hint(tls, "", {}).lines.empty());
    CHECK(spookludo::is_loopback_host("127.0.0.1"));
    CHECK(spookludo::is_loopback_host("127.1.2.3"));
    CHECK(spookludo::is_loopback_host("localhost"));
    CHECK(spookludo::is_loopback_host("::1"));
    CHECK_FALSE(spookludo::is_loopback_host("192.168.1.20"));
    CHECK_FALSE(spookludo::is_loopback_host("gamebox.local"));
    for (const auto& a : spookludo::lan_ipv4_addresses()) CHECK_FALSE(spookludo::is_loopback_host(a));

    // Drawn in the host's lobby (and a spectator's), not in another player's.
    client::Style style;
    style.join_hint = client::join_hint(lan_url, "KQZTM", {}).lines;
    client::GameView host;
    host.apply(joined(0, true));
    host.apply(lobby(json::array({seat_player(0, "Ann"), seat_free(1)}), 0));
    std::string text;
    for (const auto& l : client::render_lobby(host, style)) text += l + "\n";
    CHECK(text.find("join with: spookludo play ws://192.168.1.20:7777 --room KQZTM --name YOUR_NAME") != std::string::npos);
    client::GameView guest;
    guest.apply(joined(1));
    guest.apply(lobby(json::array({seat_player(0, "Ann"), seat_player(1, "Ben")}), 0));
    text.clear();
    for (const auto& l : client::render_lobby(guest, style)) text += l + "\n";
    CHECK(text.find("join with:") == std::string::npos);
}

TEST_CASE("view flow: the seat store keeps one token per server, room and name, the newest 64, in a private file written whole [item4]") {
    const auto dir = std::filesystem::temp_directory_path() / ("spookludo-seat-store-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    client::SeatStore store(dir / "spookludo" / "seats.json");
    CHECK_FALSE(store.token("ws://127.0.0.1:7777", "KQZTM", "Ben"));
    REQUIRE(store.remember("ws://127.0.0.1:7777", "KQZTM", "Ben", "aaaa"));
    CHECK(store.token("ws://127.0.0.1:7777", "KQZTM", "Ben") == "aaaa");
    CHECK_FALSE(store.token("ws://127.0.0.1:7777", "KQZTM", "Ann"));   // another name
    CHECK_FALSE(store.token("ws://127.0.0.1:7778", "KQZTM", "Ben"));   // another server
    REQUIRE(store.remember("ws://127.0.0.1:7777", "KQZTM", "Ben", "bbbb"));  // one entry, refreshed
    CHECK(store.token("ws://127.0.0.1:7777", "KQZTM", "Ben") == "bbbb");
    struct stat st {};
    REQUIRE(::stat(store.path().c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    REQUIRE(::stat((dir / "spookludo").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    // Bounded: 70 rooms later the newest 64 are kept, the oldest gone.
    for (int i = 0; i < 70; ++i) REQUIRE(store.remember("ws://127.0.0.1:7777", "R" + std::to_string(i), "Ben", "t" + std::to_string(i)));
    CHECK_FALSE(store.token("ws://127.0.0.1:7777", "KQZTM", "Ben"));
    CHECK_FALSE(store.token("ws://127.0.0.1:7777", "R5", "Ben"));
    CHECK(store.token("ws://127.0.0.1:7777", "R6", "Ben") == "t6");
    CHECK(store.token("ws://127.0.0.1:7777", "R69", "Ben") == "t69");
    const auto text = [&] {
        std::ifstream in(store.path());
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    CHECK(json::parse(text).at("seats").size() == client::SeatStore::kMaxEntries);
    store.forget("ws://127.0.0.1:7777", "R69", "Ben");
    CHECK_FALSE(store.token("ws://127.0.0.1:7777", "R69", "Ben"));
    // No temporary file is left beside it (written to a temporary file, then renamed).
    int files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir / "spookludo")) ++files;
    CHECK(files == 1);
    // An unreadable file is an empty store, and is replaced whole.
    { std::ofstream(store.path()) << "{not json"; }
    CHECK_FALSE(store.token("ws://127.0.0.1:7777", "R6", "Ben"));
    CHECK(store.remember("ws://127.0.0.1:7777", "R6", "Ben", "t6"));
    CHECK(store.token("ws://127.0.0.1:7777", "R6", "Ben") == "t6");
    std::filesystem::remove_all(dir);
}
