// The terminal client's play flow against the real server (issue #15): a host who leaves the
// lobby hands the host keys on, a seat comes back after kill -9 by the same command, a kick, a
// leave on SIGTERM, a pause that stops every countdown, E that asks again, a server that dies
// mid-decision, errors in a player's words. The programs run on pseudo-terminals (what the screen
// shows) or on pipes (what a log shows); each player has its own XDG_STATE_HOME.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "client/e2e_server.h"
#include "process_util.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

std::string screen(Process& p) { return strip_escapes(p.out()); }

bool wait_screen(Process& p, const std::string& text, std::chrono::milliseconds timeout = patience(10s)) {
    return p.wait_for([&](const std::string& s) { return strip_escapes(s).find(text) != std::string::npos; }, timeout);
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// A player's terminal (80x24, no colour) with its own state directory.
SpawnOptions terminal(const std::string& state_home) {
    SpawnOptions o;
    o.pty = true;
    o.env = {{"NO_COLOR", "1"}, {"TERM", "xterm-256color"}, {"XDG_STATE_HOME", state_home}};
    return o;
}

SpawnOptions piped(const std::string& state_home) {
    SpawnOptions o;
    o.stdin_pipe = true;
    o.env = {{"NO_COLOR", std::nullopt}, {"XDG_STATE_HOME", state_home}};
    return o;
}

// "You are in room ABCDE, seat 2." -> ABCDE
std::string room_of(Process& p) {
    std::string room = word_after(screen(p), "You are in room ");
    if (!room.empty() && room.back() == ',') room.pop_back();
    return room;
}

// A bot process that creates a room of `players` seats and starts it when they are full.
std::unique_ptr<Process> bot_host(Server& server, const std::string& game, int players, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"bot", server.url(), "--create", game, "--players", std::to_string(players), "--count",
                                  "1", "--name", "host", "--policy", "best", "--start", "--fill-after", "600"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto host = server.client("host", args);
    REQUIRE_MESSAGE(host->wait_for_text("host-1 token ", patience(10s)), host->describe());
    return host;
}

std::string seats_file(const std::string& state_home) { return state_home + "/spookludo/seats.json"; }

json kept_seats(const std::string& state_home) {
    const std::string file = seats_file(state_home);
    if (!std::filesystem::exists(file)) return json::array();
    return json::parse(read_file(file)).at("seats");
}

bool keeps_seat_of(const std::string& state_home, const std::string& name) {
    for (const auto& e : kept_seats(state_home))
        if (e.value("name", "") == name) return true;
    return false;
}

// Waits until the text drawn after `from` matches `pattern`.
bool wait_drawn(Process& p, std::size_t from, const std::string& pattern, std::chrono::milliseconds timeout = patience(10s)) {
    const std::regex re(pattern);
    return p.wait_for([&](const std::string& s) { return std::regex_search(strip_escapes(s.substr(std::min(from, s.size()))), re); },
                      timeout);
}

// The state file gets the entry soon after joining (the client writes it on the room's snapshot).
bool soon_keeps_seat_of(const std::string& state_home, const std::string& name) {
    const auto deadline = std::chrono::steady_clock::now() + patience(5s);
    while (std::chrono::steady_clock::now() < deadline) {
        if (keeps_seat_of(state_home, name)) return true;
        std::this_thread::sleep_for(20ms);
    }
    return false;
}

}  // namespace

TEST_CASE("play flow: the host leaves the lobby, the next player is told 'You are now the host' and its host keys add a bot and start [e2e][play][pty][item1]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "3", "--name", "Ann",
                                     "--decision-ms", "20000"},
                             piped(state / "ann"));
    REQUIRE_MESSAGE(ann->wait_for_text("You are in room ", patience(10s)), ann->describe());
    const std::string room = room_of(*ann);
    REQUIRE(room.size() == 5);
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, terminal(state / "ben"));
    REQUIRE_MESSAGE(wait_screen(*ben, "Waiting for Ann (host) to start."), ben->describe());
    CHECK(screen(*ben).find("> 2  Ben") != std::string::npos);  // Ben sits at seat 2

    ann->write("q");
    CHECK_MESSAGE(ann->wait(patience(10s)) == 0, ann->describe());
    REQUIRE_MESSAGE(wait_screen(*ben, "You are now the host."), ben->describe());
    REQUIRE_MESSAGE(wait_screen(*ben, "You are the host. Keys:"), ben->describe());
    // Still seat 2 (seats keep their numbers), now with the host's keys.
    CHECK(screen(*ben).find("> 2  Ben                      host, you") != std::string::npos);
    ben->write("b");
    REQUIRE_MESSAGE(wait_screen(*ben, "bot (best)"), ben->describe());
    ben->write("s");
    REQUIRE_MESSAGE(wait_screen(*ben, "Spook round", patience(15s)), ben->describe());
    ben->write("qq");
    CHECK_MESSAGE(ben->wait(patience(10s)) == 0, ben->describe());
    server.stop();
}

TEST_CASE("play flow: kill -9 of play mid-game, then the same play command takes the same seat back, and the token file is private [e2e][play][pty][item4]") {
    Server server;
    TempDir state("spookludo-state");
    auto host = bot_host(server, "spook", 2, {"--pace-ms", "300", "--decision-ms", "60000"});
    const std::string room = line_word(host->out(), "room ");
    const std::vector<std::string> command{"play", server.url(), "--room", room, "--name", "Ben"};
    auto ben = server.client("ben", command, terminal(state / "ben"));
    REQUIRE_MESSAGE(wait_screen(*ben, "You are in room " + room + ", seat 2."), ben->describe());
    // The resume command is told once, on joining.
    REQUIRE_MESSAGE(wait_screen(*ben, "the same command takes the seat back"), ben->describe());
    REQUIRE_MESSAGE(wait_screen(*ben, "Choose 1-", patience(15s)), ben->describe());

    // The seat's token is in the private state file: folder 0700, file 0600, one entry.
    const std::string file = seats_file(state / "ben");
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    REQUIRE(::stat((state / "ben/spookludo").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    const json kept = kept_seats(state / "ben");
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].at("server") == server.url());
    CHECK(kept[0].at("room") == room);
    CHECK(kept[0].at("name") == "Ben");
    CHECK(kept[0].at("token").get<std::string>().size() == 32);

    ben->signal(SIGKILL);
    REQUIRE(ben->wait(patience(5s)) == 128 + SIGKILL);
    REQUIRE_MESSAGE(host->wait_for_text("Ben lost the connection", patience(10s)), host->describe());

    // The same command again: back at seat 2 as a player (not a spectator), answering again.
    auto back = server.client("ben-back", command, terminal(state / "ben"));
    REQUIRE_MESSAGE(wait_screen(*back, "You are in room " + room + ", seat 2."), back->describe());
    CHECK(screen(*back).find("You are watching") == std::string::npos);
    REQUIRE_MESSAGE(host->wait_for_text("Ben is back at seat 2", patience(10s)), host->describe());
    CHECK_MESSAGE(host->out().find("game_over") == std::string::npos, "the game ended before Ben came back\n" << host->describe());
    REQUIRE_MESSAGE(wait_screen(*back, "Choose 1-", patience(15s)), back->describe());
    back->write("qq");
    CHECK_MESSAGE(back->wait(patience(10s)) == 0, back->describe());
    // Left on purpose: nothing kept to take back.
    CHECK_FALSE(keeps_seat_of(state / "ben", "Ben"));
    server.stop();
}

TEST_CASE("play flow: kill -9 of the host's play --create, then the same command takes the room, the host's seat and the host keys back, the guest's screen never moves the host, and after the host left on purpose it makes a new room and says so [e2e][play][pty][host]") {
    Server server;
    TempDir state("spookludo-state");
    const std::vector<std::string> create{"play", server.url(), "--create", "ludo", "--players", "3", "--name", "Hana",
                                          "--decision-ms", "60000"};
    auto hana = server.client("hana", create, terminal(state / "hana"));
    REQUIRE_MESSAGE(wait_screen(*hana, "You are the host."), hana->describe());
    const std::string room = room_of(*hana);
    REQUIRE(room.size() == 5);
    REQUIRE_MESSAGE(wait_screen(*hana, "the same command takes the seat back"), hana->describe());
    REQUIRE(soon_keeps_seat_of(state / "hana", "Hana"));
    auto bea = server.client("bea", {"play", server.url(), "--room", room, "--name", "Bea"}, terminal(state / "bea"));
    REQUIRE_MESSAGE(wait_screen(*bea, "Waiting for Hana (host) to start."), bea->describe());

    hana->signal(SIGKILL);
    REQUIRE(hana->wait(patience(5s)) == 128 + SIGKILL);
    REQUIRE_MESSAGE(wait_screen(*bea, "Hana lost the connection"), bea->describe());
    // The seat keeps the role while it waits: Bea's screen still names Hana as the host.
    std::size_t mark = bea->out().size();
    auto back = server.client("hana-back", create, terminal(state / "hana"));
    REQUIRE_MESSAGE(wait_screen(*back, "You are back in room " + room + ", the room you created, as its host."),
                    back->describe());
    REQUIRE_MESSAGE(wait_screen(*back, "You are the host. Keys:"), back->describe());
    REQUIRE_MESSAGE(wait_screen(*bea, "Hana is back at seat 1"), bea->describe());
    REQUIRE_MESSAGE(wait_drawn(*bea, mark, "Waiting for Hana \\(host\\) to start."), bea->describe());
    CHECK(screen(*bea).find("is the host now") == std::string::npos);
    CHECK(screen(*bea).find("You are now the host") == std::string::npos);
    // The host keys work again: a bot for the free seat.
    back->write("b");
    REQUIRE_MESSAGE(wait_screen(*bea, "bot (best)"), bea->describe());

    // Left on purpose: the role moves once, and the same command makes a new room, saying so.
    back->write("q");
    CHECK_MESSAGE(back->wait(patience(10s)) == 0, back->describe());
    REQUIRE_MESSAGE(wait_screen(*bea, "Bea is the host now (Hana left)"), bea->describe());
    CHECK_FALSE(keeps_seat_of(state / "hana", "Hana"));
    auto fresh = server.client("hana-new", create, terminal(state / "hana"));
    REQUIRE_MESSAGE(wait_screen(*fresh, "is a new room: you created it and are its host."), fresh->describe());
    const std::string other = room_of(*fresh);
    CHECK(other.size() == 5);
    CHECK(other != room);
    fresh->write("q");
    bea->write("q");
    CHECK(fresh->wait(patience(10s)) == 0);
    CHECK(bea->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: the host's play --create again after its room closed makes a new room and says the old one is gone [e2e][play][pipe][host]") {
    Server server({"--reconnect-ms", "300"});
    TempDir state("spookludo-state");
    const std::vector<std::string> create{"play", server.url(), "--create", "spook", "--players", "2", "--name", "Hana"};
    auto hana = server.client("hana", create, piped(state / "hana"));
    REQUIRE_MESSAGE(hana->wait_for_text("You are in room ", patience(10s)), hana->describe());
    const std::string room = room_of(*hana);
    REQUIRE(soon_keeps_seat_of(state / "hana", "Hana"));
    hana->signal(SIGKILL);
    REQUIRE(hana->wait(patience(5s)) == 128 + SIGKILL);
    // Alone in its lobby, the room closes when the reconnect window is over.
    REQUIRE_MESSAGE(server.wait_for_log("room " + room + ": closed (nobody left)", patience(10s)), server.log());
    auto again = server.client("hana-again", create, piped(state / "hana"));
    REQUIRE_MESSAGE(again->wait_for_text("is a new room: your room " + room + " is not open for you any more.", patience(10s)),
                    again->describe());
    CHECK(again->out().find("creating a new room") != std::string::npos);
    CHECK(room_of(*again) != room);
    again->signal(SIGTERM);
    CHECK(again->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: a kicked player is told they were removed, exits 1 and is offered no token, and the host sees the kick [e2e][play][item5]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                                     "--decision-ms", "60000", "--pace-ms", "200"},
                             terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    const std::string room = room_of(*ann);
    // The host's lobby keeps the join command for the others in view.
    REQUIRE_MESSAGE(wait_screen(*ann, "--room " + room + " --name YOUR_NAME"), ann->describe());
    CHECK(screen(*ann).find("join with: spookludo play ws://") != std::string::npos);
    CHECK(screen(*ann).find("on a phone or laptop, open: http://") != std::string::npos);
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, piped(state / "ben"));
    REQUIRE_MESSAGE(ben->wait_for_text("You are in room " + room + ", seat 2.", patience(10s)), ben->describe());
    REQUIRE_MESSAGE(wait_screen(*ann, "Ben"), ann->describe());
    CHECK(soon_keeps_seat_of(state / "ben", "Ben"));
    ann->write("s");
    REQUIRE_MESSAGE(ben->wait_for_text("Round 1:", patience(15s)), ben->describe());
    ann->write("k");
    REQUIRE_MESSAGE(wait_screen(*ann, "Kick which seat? (1-2; a best bot takes it over)"), ann->describe());
    ann->write("2");
    const auto status = ben->wait(patience(10s));
    INFO(ben->describe());
    CHECK(status == 1);
    CHECK(ben->err().find("You were removed from room " + room + " by the host.") != std::string::npos);
    const std::string out = ben->out();
    const auto removed = out.find("You were removed from room " + room + " by the host.");
    REQUIRE(removed != std::string::npos);
    CHECK(out.find("--token", removed) == std::string::npos);
    CHECK(out.find("Your seat waits") == std::string::npos);
    CHECK_FALSE(keeps_seat_of(state / "ben", "Ben"));
    REQUIRE_MESSAGE(wait_screen(*ann, "was kicked: a best bot plays it"), ann->describe());
    ann->write("qq");
    CHECK(ann->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: a kept token the server no longer knows is forgotten and the same command joins the room by name [e2e][play][pipe][item4]") {
    Server server;
    TempDir state("spookludo-state");
    auto host = bot_host(server, "spook", 3);
    const std::string room = line_word(host->out(), "room ");
    // A seat kept from an earlier game of this room: its token is void now.
    std::filesystem::create_directories(state / "ben/spookludo");
    json old{{"version", 1},
             {"seats", {{{"server", server.url()}, {"room", room}, {"name", "Ben"}, {"token", std::string(32, 'f')}, {"saved_ms", 1}},
                        {{"server", "ws://192.0.2.1:7777"}, {"room", "QQQQQ"}, {"name", "Ben"}, {"token", std::string(32, 'e')}, {"saved_ms", 2}}}}};
    {
        std::ofstream out(seats_file(state / "ben"));
        out << old.dump();
    }
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, piped(state / "ben"));
    REQUIRE_MESSAGE(ben->wait_for_text("The seat kept for Ben in room " + room + " is gone; joining the room again.", patience(10s)),
                    ben->describe());
    REQUIRE_MESSAGE(ben->wait_for_text("You are in room " + room + ", seat 2.", patience(10s)), ben->describe());
    REQUIRE_MESSAGE(ben->wait_for_text("the same command takes the seat back", patience(10s)), ben->describe());
    // The new token replaced the void one; the other server's entry is kept.
    const json kept = kept_seats(state / "ben");
    REQUIRE(kept.size() == 2);
    for (const auto& e : kept) {
        if (e.at("room") == room) CHECK(e.at("token") != std::string(32, 'f'));
        else CHECK(e.at("token") == std::string(32, 'e'));
    }
    CHECK(ben->out().find("bad_token") == std::string::npos);
    ben->write("q");
    CHECK(ben->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: SIGTERM leaves on purpose: exit 0, the room's story says so, and no token is kept [e2e][play][item6]") {
    Server server;
    TempDir state("spookludo-state");
    auto host = bot_host(server, "spook", 2, {"--pace-ms", "200", "--decision-ms", "60000"});
    const std::string room = line_word(host->out(), "room ");
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, piped(state / "ben"));
    REQUIRE_MESSAGE(ben->wait_for_text("Type the number of your choice", patience(15s)), ben->describe());
    CHECK(soon_keeps_seat_of(state / "ben", "Ben"));
    ben->signal(SIGTERM);
    CHECK_MESSAGE(ben->wait(patience(10s)) == 0, ben->describe());
    CHECK(ben->out().find("You left the game: the server plays your seat to the end.") != std::string::npos);
    REQUIRE_MESSAGE(host->wait_for_text("Ben left: the server plays seat 2", patience(10s)), host->describe());
    CHECK(host->out().find("Ben lost the connection") == std::string::npos);  // left, not away
    CHECK_FALSE(keeps_seat_of(state / "ben", "Ben"));
    server.stop();
}

TEST_CASE("play flow: pause stops every player's countdown, a key during it says to wait, and E asks again before ending the game [e2e][play][pty][item7][item8]") {
    Server server;
    TempDir state("spookludo-state");
    // 8 s to choose (the pause comes well within them on a loaded machine too): without the
    // pause both countdowns would run out while it lasts.
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                                     "--decision-ms", "8000", "--pace-ms", "0"},
                             terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    const std::string room = room_of(*ann);
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, terminal(state / "ben"));
    REQUIRE_MESSAGE(wait_screen(*ben, "Waiting for Ann"), ben->describe());
    ann->write("s");
    // (Ben's terminal is read meanwhile too: a terminal nobody reads stops its program.) Ann has
    // no choice while her two pieces share a square (both on 1 at the start, and again whenever
    // a monster sends the one that moved back), and each such round where Ben has one waits for
    // his 8 s to run out (nobody answers for him): the dice gave three of those in a row once,
    // past 15 s. A minute covers seven.
    REQUIRE_MESSAGE(ann->wait_for(
                        [&](const std::string& o) {
                            (void)ben->out();
                            return strip_escapes(o).find("Choose 1-") != std::string::npos;
                        },
                        patience(60s)),
                    ann->describe());
    ann->write("P");
    REQUIRE_MESSAGE(wait_screen(*ann, "Ann paused the game"), ann->describe());
    REQUIRE_MESSAGE(wait_screen(*ann, "s left): choose when the game resumes."), ann->describe());
    REQUIRE_MESSAGE(wait_screen(*ben, "Ann paused the game"), ben->describe());
    // Ben's screen too (his countdown, when he has a choice open in this round, stands still).
    REQUIRE_MESSAGE(wait_screen(*ben, "PAUSED"), ben->describe());
    const std::size_t ann_from = ann->out().size(), ben_from = ben->out().size();
    ann->write("1");
    REQUIRE_MESSAGE(wait_screen(*ann, "The game is paused: choose when it resumes."), ann->describe());
    // Longer than the time that was left to choose: nobody's time runs out while paused.
    std::smatch left;
    const std::string paused_screen = strip_escapes(ann->out());
    REQUIRE(std::regex_search(paused_screen, left, std::regex("Paused \\(([0-9]+) s left\\)")));
    std::this_thread::sleep_for(std::chrono::seconds(std::stoi(left[1].str()) + 1));
    const std::string ann_during = strip_escapes(ann->out().substr(ann_from));
    const std::string ben_during = strip_escapes(ben->out().substr(ben_from));
    CHECK(ann_during.find("Time is up") == std::string::npos);
    CHECK(ben_during.find("Time is up") == std::string::npos);
    CHECK(ann_during.find("You chose piece") == std::string::npos);  // the key did not move a piece
    // The countdown stood still: the last screen shows the seconds the first paused one did.
    // (The terminal redraws only lines that change: a countdown that stands still is not drawn
    // again at all.)
    for (const std::string* during : {&ann_during, &ben_during}) {
        const auto first = during->find("Paused ("), last = during->rfind("Paused (");
        if (first != std::string::npos) CHECK(during->substr(first, 14) == during->substr(last, 14));
    }

    // E once only asks; the game goes on.
    ann->write("E");
    REQUIRE_MESSAGE(wait_screen(*ann, "End the game for everyone? y yes (or E again), n no"), ann->describe());
    ann->write("n");
    REQUIRE_MESSAGE(wait_screen(*ann, "The game goes on."), ann->describe());
    ann->write("P");  // resume
    REQUIRE_MESSAGE(wait_screen(*ann, "Ann resumed the game"), ann->describe());
    std::this_thread::sleep_for(300ms);
    CHECK(screen(*ann).find("abandoned") == std::string::npos);
    CHECK(ann->running());
    // E, then y, ends it.
    ann->write("E");
    ann->write("y");
    REQUIRE_MESSAGE(wait_screen(*ben, "The game was abandoned", patience(10s)), ben->describe());
    // The game-over screen stays; the first key only dismisses it (q does not leave yet) and
    // shows the rematch lobby.
    REQUIRE_MESSAGE(wait_screen(*ann, "The game was abandoned", patience(10s)), ann->describe());
    const std::size_t over_at = ann->out().size();
    std::this_thread::sleep_for(500ms);
    CHECK(ann->running());
    ann->write("q");
    REQUIRE_MESSAGE(wait_drawn(*ann, over_at, "You are the host\\."), ann->describe());
    CHECK(ann->running());
    ann->write("q");
    ben->write(" q");
    CHECK(ann->wait(patience(10s)) == 0);
    CHECK(ben->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: the server dies mid-decision: the countdown stops, the screen says it is trying again, and giving up says how to come back [e2e][play][pty][item9]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                                     "--decision-ms", "3000", "--pace-ms", "0", "--reconnect-for", "4"},
                             terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    ann->write("b");
    REQUIRE_MESSAGE(wait_screen(*ann, "bot (best)"), ann->describe());
    ann->write("s");
    REQUIRE_MESSAGE(wait_screen(*ann, "Choose 1-", patience(15s)), ann->describe());
    const std::size_t from = ann->out().size();
    server.kill();
    REQUIRE_MESSAGE(wait_screen(*ann, "server is not answering; trying again (1)"), ann->describe());
    REQUIRE_MESSAGE(wait_screen(*ann, "No connection: the countdown is stopped"), ann->describe());
    const auto status = ann->wait(patience(20s));
    INFO(ann->describe());
    CHECK(status == 1);
    const std::string after = strip_escapes(ann->out().substr(from));
    CHECK(after.find("trying again (2)") != std::string::npos);
    CHECK(after.find("Time is up") == std::string::npos);
    CHECK(after.find("Your seat waits") == std::string::npos);
    CHECK(after.find("The server could not be reached. When it is back (with the room still open), the same command "
                     "takes your seat back:") != std::string::npos);
    CHECK(after.find("--name Ann") != std::string::npos);
    CHECK(ann->err().find("could not be reached for 4 s") != std::string::npos);
    // The token stays kept for that same command.
    CHECK(keeps_seat_of(state / "ann", "Ann"));
}

TEST_CASE("play flow: without a terminal, errors are said in a player's words, once, and prompts and limits use the room's seat numbers [e2e][play][pipe][item3][item14]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "ludo", "--players", "2", "--name", "Ann"},
                             piped(state / "ann"));
    REQUIRE_MESSAGE(ann->wait_for_text("You are in room ", patience(10s)), ann->describe());
    ann->write("b");
    REQUIRE_MESSAGE(ann->wait_for_text("bot takes seat 2", patience(10s)), ann->describe());
    ann->write("b");
    REQUIRE_MESSAGE(ann->wait_for_text("The room is full: press + for another seat.", patience(10s)), ann->describe());
    // The prompt names the room's seats: ask until the new seat is there (a key that is no seat
    // number, 0, closes the prompt in between).
    auto prompt_says = [&](const std::string& seats) {
        for (int tries = 0; tries < 50; ++tries) {
            ann->write("x");
            if (ann->wait_for_text("Remove which seat? (" + seats + ")", 200ms)) return true;
            ann->write("0");
        }
        return false;
    };
    ann->write("+");
    REQUIRE_MESSAGE(prompt_says("1-3"), ann->describe());
    ann->write("0+");
    REQUIRE_MESSAGE(prompt_says("1-4"), ann->describe());
    ann->write("7\n");
    REQUIRE_MESSAGE(ann->wait_for_text("There is no seat 7 in this room.", patience(10s)), ann->describe());
    ann->write("+");
    REQUIRE_MESSAGE(ann->wait_for_text("Ludo takes 2 to 4 players.", patience(10s)), ann->describe());
    ann->write("p");
    REQUIRE_MESSAGE(ann->wait_for_text("in Ludo everyone has four", patience(10s)), ann->describe());
    ann->write("q");
    CHECK(ann->wait(patience(10s)) == 0);
    const std::string out = ann->out();
    INFO(out);
    CHECK(count_of(out, "The room is full: press + for another seat.") == 1);
    CHECK(count_of(out, "Ludo takes 2 to 4 players.") == 1);
    CHECK(out.find("(room_full)") == std::string::npos);
    CHECK(out.find("bad_field") == std::string::npos);
    CHECK(ann->err().find("room is full") == std::string::npos);
    server.stop();
}

TEST_CASE("play flow: a lobby with an automatic start shows its countdown to a joined player [e2e][play][pty][item17]") {
    Server server;
    TempDir state("spookludo-state");
    std::vector<std::string> args{"bot", server.url(), "--create", "spook", "--players", "3", "--count", "1",
                                  "--name", "host", "--start", "--fill-after", "90"};
    auto host = server.client("host", args);
    REQUIRE_MESSAGE(host->wait_for_text("host-1 token ", patience(10s)), host->describe());
    const std::string room = line_word(host->out(), "room ");
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, terminal(state / "ben"));
    REQUIRE_MESSAGE(wait_screen(*ben, "(free seats get bots)"), ben->describe());
    CHECK(screen(*ben).find("Starts in 1:") != std::string::npos);
    ben->write("q");
    CHECK(ben->wait(patience(10s)) == 0);
    server.stop();
}


TEST_CASE("play flow: a scripted party on pseudo-terminals: the host hands over in the lobby, a kill -9 comes back by the same command, pause freezes every countdown, a drop, a leave and a kick each show their own label, and the result stays [e2e][play][pty][party]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "5", "--name", "Ann",
                                     "--decision-ms", "60000", "--pace-ms", "100"},
                             terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    const std::string room = room_of(*ann);
    auto player = [&](const std::string& name) {
        return std::vector<std::string>{"play", server.url(), "--room", room, "--name", name};
    };
    auto ben = server.client("ben", player("Ben"), terminal(state / "ben"));
    REQUIRE_MESSAGE(wait_screen(*ben, "You are in room " + room + ", seat 2."), ben->describe());
    auto cy = server.client("cy", player("Cy"), terminal(state / "cy"));
    REQUIRE_MESSAGE(wait_screen(*cy, "You are in room " + room + ", seat 3."), cy->describe());
    auto dee = server.client("dee", player("Dee"), terminal(state / "dee"));
    REQUIRE_MESSAGE(wait_screen(*dee, "You are in room " + room + ", seat 4."), dee->describe());
    auto eve = server.client("eve", player("Eve"), terminal(state / "eve"));
    REQUIRE_MESSAGE(wait_screen(*eve, "You are in room " + room + ", seat 5."), eve->describe());
    SpawnOptions wo = terminal(state / "sam");
    wo.rows = 30;
    auto sam = server.client("sam", {"watch", server.url(), "--room", room}, wo);
    REQUIRE_MESSAGE(wait_screen(*sam, "You are watching."), sam->describe());
    // The spectator's lobby (the demo's screen) keeps the join command in view.
    REQUIRE_MESSAGE(wait_screen(*sam, "--room " + room + " --name YOUR_NAME"), sam->describe());

    // The host leaves the lobby: Ben is told, and starts the game with the host's keys.
    ann->write("q");
    CHECK(ann->wait(patience(10s)) == 0);
    REQUIRE_MESSAGE(wait_screen(*ben, "You are now the host."), ben->describe());
    ben->write("b");
    REQUIRE_MESSAGE(wait_screen(*ben, "bot (best)"), ben->describe());
    ben->write("s");
    // Somebody has a choice to make (a player whose pieces stand together has none: the server
    // moves for them); nobody answers, so the round waits for them.
    std::vector<Process*> deciding;
    const auto deadline = std::chrono::steady_clock::now() + patience(20s);
    while (deciding.empty() && std::chrono::steady_clock::now() < deadline) {
        for (Process* p : {ben.get(), cy.get(), dee.get(), eve.get()})
            if (screen(*p).find("Choose 1-") != std::string::npos) deciding.push_back(p);
        if (deciding.empty()) std::this_thread::sleep_for(50ms);
    }
    REQUIRE_MESSAGE(!deciding.empty(), ben->describe());
    std::this_thread::sleep_for(300ms);  // the others' decisions of the same round
    deciding.clear();
    for (Process* p : {ben.get(), cy.get(), dee.get(), eve.get()})
        if (screen(*p).find("Choose 1-") != std::string::npos) deciding.push_back(p);

    // Pause: every deciding player's countdown stands still, the spectator's title says so.
    std::size_t mark_sam = sam->out().size();
    ben->write("P");
    for (Process* p : deciding) REQUIRE_MESSAGE(wait_screen(*p, "s left): choose when the game resumes."), p->describe());
    REQUIRE_MESSAGE(wait_drawn(*sam, mark_sam, "PAUSED"), sam->describe());
    ben->write("P");
    REQUIRE_MESSAGE(wait_screen(*cy, "Ben resumed the game"), cy->describe());

    // A drop: Cy's program dies; the seat shows "away"; the same command takes it back.
    mark_sam = sam->out().size();
    cy->signal(SIGKILL);
    REQUIRE(cy->wait(patience(5s)) == 128 + SIGKILL);
    REQUIRE_MESSAGE(wait_drawn(*sam, mark_sam, R"(Cy +\|[^\n]*\+\| away)"), sam->describe());
    auto cy_back = server.client("cy-back", player("Cy"), terminal(state / "cy"));
    REQUIRE_MESSAGE(wait_screen(*cy_back, "You are in room " + room + ", seat 3."), cy_back->describe());
    REQUIRE_MESSAGE(wait_screen(*ben, "Cy is back at seat 3"), ben->describe());

    // A leave: Dee presses q twice; the seat shows "left".
    mark_sam = sam->out().size();
    dee->write("q");
    dee->write("q");
    CHECK(dee->wait(patience(10s)) == 0);
    REQUIRE_MESSAGE(wait_drawn(*sam, mark_sam, R"(Dee +\|[^\n]*\+\| left)"), sam->describe());

    // A kick: Ben kicks seat 5; Eve is told, the seat shows "kicked".
    mark_sam = sam->out().size();
    ben->write("k");
    REQUIRE_MESSAGE(wait_screen(*ben, "Kick which seat? (1-5; a best bot takes it over)"), ben->describe());
    ben->write("5");
    CHECK(eve->wait(patience(10s)) == 1);
    CHECK(strip_escapes(eve->out()).find("You were removed from room " + room + " by the host.") != std::string::npos);
    REQUIRE_MESSAGE(wait_drawn(*sam, mark_sam, R"(Eve +\|[^\n]*\+\| kicked)"), sam->describe());

    // The end: E asks, E again ends it; the result stays on every screen (nobody is thrown out).
    ben->write("E");
    REQUIRE_MESSAGE(wait_screen(*ben, "End the game for everyone?"), ben->describe());
    ben->write("E");
    for (Process* p : {ben.get(), cy_back.get(), sam.get()})
        REQUIRE_MESSAGE(wait_screen(*p, "The game was abandoned"), p->describe());
    std::this_thread::sleep_for(500ms);
    CHECK(ben->running());
    CHECK(cy_back->running());
    CHECK(sam->running());
    for (Process* p : {ben.get(), cy_back.get(), sam.get()}) p->write(" q");  // dismiss the result, leave
    for (Process* p : {ben.get(), cy_back.get(), sam.get()}) CHECK(p->wait(patience(10s)) == 0);
    server.stop();
}

// The screen as last drawn (the client redraws it whole, from the top left corner each time), its
// lines joined by a space: a text the window wrapped reads as one.
std::string last_frame(Process& p) {
    const std::string out = p.out();
    const auto end = out.rfind("\x1b[J");  // a frame's end: one being written is not read yet
    if (end == std::string::npos) return {};
    const auto at = out.rfind("\x1b[H", end);
    const std::string frame = at == std::string::npos ? out.substr(0, end) : out.substr(at, end - at);
    return std::regex_replace(strip_escapes(frame), std::regex("\\s+"), " ");
}

bool wait_frame(Process& p, const std::function<bool(const std::string&)>& ok, std::chrono::milliseconds timeout = patience(10s)) {
    return p.wait_for([&](const std::string&) { return ok(last_frame(p)); }, timeout);
}

bool frame_has(Process& p, const std::string& pattern) {
    const std::regex re(pattern);
    return wait_frame(p, [&](const std::string& f) { return std::regex_search(f, re); });
}

TEST_CASE("play flow: the terminal host's keys set the pace, the automatic start, play on, the boards, the entry and three 6s, and every screen shows the room's new settings [e2e][play][pty][issue34-12]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "3", "--name", "Ann",
                                     "--decision-ms", "20000"},
                             terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    const std::string room = room_of(*ann);
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, terminal(state / "ben"));
    REQUIRE_MESSAGE(frame_has(*ben, "Settings: 20 s to choose, 0 s between steps, hints off"), ben->describe());
    // The host's key line names them.
    CHECK(frame_has(*ann, "w pace, c auto start, o play on"));
    CHECK(frame_has(*ann, "d boards"));

    // Each key is a set_settings or set_options: Ben's screen shows what the server made of it.
    ann->write("w");
    CHECK_MESSAGE(frame_has(*ben, "0\\.5 s between steps"), ben->describe());
    ann->write("w");
    CHECK_MESSAGE(frame_has(*ben, "Settings: 20 s to choose, 1 s between steps"), ben->describe());
    ann->write("t");
    CHECK_MESSAGE(frame_has(*ben, "Settings: 30 s to choose, 1 s between steps"), ben->describe());
    ann->write("o");
    CHECK_MESSAGE(frame_has(*ben, "balanced boards, play on"), ben->describe());
    ann->write("d");
    CHECK_MESSAGE(frame_has(*ben, "random boards, play on"), ben->describe());
    ann->write("o");
    CHECK_MESSAGE(wait_frame(*ben, [](const std::string& f) { return f.find("random boards") != std::string::npos &&
                                                                    f.find("play on") == std::string::npos; }),
                  ben->describe());
    // The automatic start: 30 s, 1, 2, 5 min, then off.
    for (const char* countdown : {"Starts in 0:[23]\\d", "Starts in (1:00|0:5\\d)", "Starts in (2:00|1:5\\d)",
                                  "Starts in (5:00|4:5\\d)"}) {
        ann->write("c");
        CHECK_MESSAGE(frame_has(*ben, std::string(countdown) + " \\(free seats get bots\\)"), countdown << "\n" << ben->describe());
        CHECK(frame_has(*ann, countdown));  // before the next press: the host's key goes on from the room's value
    }
    ann->write("c");
    CHECK_MESSAGE(wait_frame(*ben, [](const std::string& f) { return f.find("Starts in") == std::string::npos; }), ben->describe());
    CHECK(wait_frame(*ann, [](const std::string& f) { return f.find("Starts in") == std::string::npos; }));
    // A player who is not the host changes nothing with the same keys.
    ben->write("w");
    std::this_thread::sleep_for(300ms);
    CHECK(frame_has(*ann, "Settings: 30 s to choose, 1 s between steps"));
    for (Process* p : {ann.get(), ben.get()}) p->write("q");
    for (Process* p : {ann.get(), ben.get()}) CHECK(p->wait(patience(10s)) == 0);

    // Ludo's own: e the entry, 3 three 6s.
    auto cid = server.client("cid", {"play", server.url(), "--create", "ludo", "--players", "2", "--name", "Cid"},
                             terminal(state / "cid"));
    REQUIRE_MESSAGE(frame_has(*cid, "entry as the text \\(6 squares out\\)"), cid->describe());
    CHECK(frame_has(*cid, "a arm, e entry, 3 three 6s"));
    cid->write("e");
    CHECK_MESSAGE(frame_has(*cid, "entry onto the start square"), cid->describe());
    cid->write("3");
    CHECK_MESSAGE(frame_has(*cid, "onto the start square, house rules: three 6s end the turn"), cid->describe());
    cid->write("d");  // Spook's key: told what it is for
    CHECK_MESSAGE(frame_has(*cid, "d sets Spook's boards"), cid->describe());
    cid->write("q");
    CHECK(cid->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: spookludo watch takes a free seat in the lobby with j under --name, and a refused name keeps it watching [e2e][play][pty][issue34-7]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann"},
                             piped(state / "ann"));
    REQUIRE_MESSAGE(ann->wait_for_text("You are in room ", patience(10s)), ann->describe());
    const std::string room = room_of(*ann);
    // A name taken in the room: refused, and the watcher goes on watching.
    auto twin = server.client("twin", {"watch", server.url(), "--room", room, "--name", "Ann"}, terminal(state / "twin"));
    REQUIRE_MESSAGE(frame_has(*twin, "You are watching\\. j takes a free seat, q leaves\\."), twin->describe());
    twin->write("j");
    REQUIRE_MESSAGE(frame_has(*twin, "is taken in this room"), twin->describe());
    std::this_thread::sleep_for(300ms);
    CHECK(twin->running());
    CHECK(frame_has(*twin, "You are watching\\."));
    twin->write("q");
    CHECK(twin->wait(patience(10s)) == 0);

    auto sam = server.client("sam", {"watch", server.url(), "--room", room, "--name", "Sam"}, terminal(state / "sam"));
    REQUIRE_MESSAGE(frame_has(*sam, "j takes a free seat"), sam->describe());
    sam->write("j");
    CHECK_MESSAGE(frame_has(*sam, "> 2 Sam you"), sam->describe());
    CHECK_MESSAGE(ann->wait_for_text("Sam sits at seat 2", patience(10s)), ann->describe());
    // Seated: its token is kept like a player's, and the room is full now.
    CHECK(soon_keeps_seat_of(state / "sam", "Sam"));
    CHECK(frame_has(*sam, "Waiting for Ann \\(host\\) to start\\."));
    sam->write("q");
    CHECK(sam->wait(patience(10s)) == 0);
    CHECK_MESSAGE(ann->wait_for_text("Sam left seat 2", patience(10s)), ann->describe());
    ann->write("q\n");
    CHECK(ann->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: the host's lobby at the window size it advises for the QR code draws it, and does not say the window is too small [e2e][play][pty][issue34-8]") {
    Server server;
    TempDir state("spookludo-state");
    auto small = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "3", "--name", "Ann"},
                               terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*small, "shows the link as a QR code"), small->describe());
    std::smatch m;
    const std::string advice = last_frame(*small);
    REQUIRE_MESSAGE(std::regex_search(advice, m, std::regex(R"(a window of (\d+)x(\d+)\s+shows the link as a QR code)")), advice);
    CHECK(advice.find("Make the window") == std::string::npos);
    small->write("q");
    CHECK(small->wait(patience(10s)) == 0);

    auto sized = terminal(state / "ben");
    sized.cols = static_cast<unsigned short>(std::stoi(m[1]));
    sized.rows = static_cast<unsigned short>(std::stoi(m[2]));
    auto there = server.client("ben", {"play", server.url(), "--create", "spook", "--players", "3", "--name", "Ben"}, sized);
    REQUIRE_MESSAGE(wait_frame(*there, [](const std::string& f) { return count_of(f, "\u2580") >= 12; }), there->describe());
    const std::string frame = last_frame(*there);
    CHECK_MESSAGE(frame.find("Make the window") == std::string::npos, frame);
    CHECK_MESSAGE(frame.find("You are the host.") != std::string::npos, frame);
    there->write("q");
    CHECK(there->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: the host's lobby in a tall enough window draws the join link as a QR code, a small one says how big a window it needs [e2e][play]") {
    Server server;
    TempDir state("spookludo-state");
    auto tall = terminal(state / "ann");
    tall.rows = 50;
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann"}, tall);
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    const std::string room = room_of(*ann);
    REQUIRE_MESSAGE(wait_screen(*ann, "/r/" + room), ann->describe());
    // Half blocks, a dozen lines or more of them: the code's modules.
    REQUIRE_MESSAGE(ann->wait_for([](const std::string& s) { return count_of(strip_escapes(s), "\u2580") >= 12; }, patience(10s)),
                    ann->describe());
    ann->write("qq");
    CHECK(ann->wait(patience(10s)) == 0);

    auto small = server.client("cid", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Cid"},
                               terminal(state / "cid"));
    REQUIRE_MESSAGE(wait_screen(*small, "shows the link as a QR code for a phone's camera"), small->describe());
    small->write("qq");
    CHECK(small->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: the game ends, then the server stops for good: the terminal says so at once, keeps no seat, and the verify command it shows works after the server is gone [e2e][play][pty][shutdown]") {
    Server server({"--abandon-on-exit"});
    TempDir state("spookludo-state");
    SpawnOptions wide = terminal(state / "ann");
    wide.cols = 200;
    wide.rows = 50;
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "1", "--pieces", "1",
                                     "--pace-ms", "0", "--name", "Ann"},
                             wide);
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    ann->write("s");
    REQUIRE_MESSAGE(wait_screen(*ann, "game over", patience(30s)), ann->describe());
    // The game-over screen names the copy of the record saved on this computer.
    REQUIRE_MESSAGE(wait_screen(*ann, "the copy saved here: spookludo verify "), ann->describe());
    const std::size_t from = ann->out().size();
    server.stop();
    // Told at once that the server stopped for good: no two minutes of trying again.
    const auto status = ann->wait(patience(10s));
    INFO(ann->describe());
    CHECK(status == 1);
    CHECK(ann->err().find("the server has stopped for good") != std::string::npos);
    const std::string after = strip_escapes(ann->out().substr(from));
    CHECK(after.find("trying again") == std::string::npos);
    CHECK(after.find("restarting") == std::string::npos);
    CHECK(after.find("takes your seat back") == std::string::npos);
    CHECK_FALSE(keeps_seat_of(state / "ann", "Ann"));
    // The last words: the saved file's verify command, not the address that no longer answers.
    CHECK(after.find("check it with: spookludo verify http") == std::string::npos);
    const std::string file = word_after(after, "check it with: spookludo verify ");
    REQUIRE_FALSE(file.empty());
    CHECK(file.rfind((std::filesystem::path(state / "ann") / "spookludo" / "records").string(), 0) == 0);
    const Finished verified = run_to_end({kClientBinary, "verify", file}, server.dir(), "verify-saved", 30s);
    INFO(verified.described);
    CHECK(verified.status == 0);
    CHECK(verified.out.find("VERIFIED: " + file) != std::string::npos);
}

TEST_CASE("play flow: without a terminal, a decision that comes while the leave question is open says how to answer both, and y then leaves [e2e][play][pipe][leave question]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                                     "--decision-ms", "60000", "--pace-ms", "0"},
                             piped(state / "ann"));
    REQUIRE_MESSAGE(ann->wait_for_text("You are in room ", patience(10s)), ann->describe());
    ann->write("b");
    REQUIRE_MESSAGE(ann->wait_for_text("bot takes seat 2", patience(10s)), ann->describe());
    ann->write("s");
    REQUIRE_MESSAGE(ann->wait_for_text("Type the number of your choice and Enter.", patience(20s)), ann->describe());
    // Choose, then ask to leave: the next decision comes while the question is open.
    ann->write("1\nq\n");
    REQUIRE_MESSAGE(ann->wait_for_text("Leave the game? The server will play your seat", patience(10s)), ann->describe());
    const std::string asked = "Leave the game? y and Enter leaves; the number of your choice and Enter stays and chooses it.";
    REQUIRE_MESSAGE(ann->wait_for_text(asked, patience(20s)), ann->describe());
    const std::string out = ann->out();
    const std::string since = out.substr(out.find("Leave the game? The server will play your seat"));
    CHECK(since.find("Type the number of your choice and Enter.") == std::string::npos);
    ann->write("y\n");
    CHECK(ann->wait(patience(10s)) == 0);
    CHECK(ann->out().find("You left the game: the server plays your seat to the end.") != std::string::npos);
}

namespace {

// The screen as last drawn (the terminal draws whole screens from the top left), without escapes.
std::string last_screen(Process& p) {
    const std::string out = p.out();
    const auto at = out.rfind("\x1b[H");
    return strip_escapes(at == std::string::npos ? out : out.substr(at));
}

// "Starts in 1:29" -> "1:29" (the last one drawn), or "".
std::string last_countdown(const std::string& text, const std::string& before) {
    const auto at = text.rfind(before);
    if (at == std::string::npos) return {};
    const auto end = text.find_first_of(" )", at + before.size());
    return text.substr(at + before.size(), end == std::string::npos ? std::string::npos : end - at - before.size());
}

}  // namespace

TEST_CASE("play flow: the lobby's automatic-start countdown runs on the screens of play and watch, with no message from the server [e2e][play][watch][pty][issue34]") {
    Server server;
    TempDir state("spookludo-state");
    std::vector<std::string> args{"bot", server.url(), "--create", "spook", "--players", "3", "--count", "1",
                                  "--name", "host", "--start", "--fill-after", "90"};
    auto host = server.client("host", args);
    REQUIRE_MESSAGE(host->wait_for_text("host-1 token ", patience(10s)), host->describe());
    const std::string room = line_word(host->out(), "room ");
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, terminal(state / "ben"));
    auto eve = server.client("eve", {"watch", server.url(), "--room", room}, terminal(state / "eve"));
    for (Process* p : {ben.get(), eve.get()})
        REQUIRE_MESSAGE(p->wait_for(
                            [&](const std::string& o) {
                                (void)ben->out(), (void)eve->out();
                                return strip_escapes(o).find("(free seats get bots)") != std::string::npos;
                            },
                            patience(10s)),
                        p->describe());
    // Both are in: the room sends nothing more until the start. Each screen still counts down.
    std::this_thread::sleep_for(300ms);
    for (Process* p : {ben.get(), eve.get()}) {
        const std::size_t from = p->out().size();
        const std::string shown = last_countdown(screen(*p), "Starts in ");
        REQUIRE_FALSE(shown.empty());
        CHECK_MESSAGE(wait_drawn(*p, from, "Starts in (?!" + shown + "\\b)\\d+:\\d\\d \\(free seats get bots\\)", patience(4s)),
                      "the countdown stood at " << shown << "\n" << p->describe());
        (void)ben->out(), (void)eve->out();
    }
    ben->write("q");
    eve->write("q");
    CHECK(ben->wait(patience(10s)) == 0);
    CHECK(eve->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: after choosing, a Spook player sees who is still choosing and their time left, and the list shrinks as they choose [e2e][play][pty][issue34]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "3", "--name", "Ann",
                                     "--decision-ms", "30000", "--pace-ms", "0"},
                             terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    const std::string room = room_of(*ann);
    // Two slow players: Ben answers after 5 s, Cid after 12 s.
    // (Seated in this order: the line names them in seat order.)
    auto ben = server.client("ben", {"bot", server.url(), "--room", room, "--count", "1", "--name", "Ben", "--think", "5000"});
    REQUIRE_MESSAGE(wait_screen(*ann, "Ben-1"), ann->describe());
    auto cid = server.client("cid", {"bot", server.url(), "--room", room, "--count", "1", "--name", "Cid", "--think", "12000"});
    REQUIRE_MESSAGE(wait_screen(*ann, "Cid-1"), ann->describe());
    ann->write("s");
    // Ann answers every choice at once, until a round asks both Ben and Cid (a round asks only the
    // players whose options differ): her screen then says whom it waits for, and how long they have.
    const std::regex both_re("Still choosing \\((\\d+) s left\\): Ben-1 and Cid-1");
    std::size_t scan = 0, both_at = 0;
    int first = 0;  // the seconds left it showed first
    const auto deadline = std::chrono::steady_clock::now() + patience(60s);
    while (std::chrono::steady_clock::now() < deadline) {
        const std::string out = ann->out();
        const std::string text = strip_escapes(out);
        if (std::smatch both; std::regex_search(text, both, both_re)) {
            both_at = out.size();
            first = std::stoi(both[1].str());
            break;
        }
        const auto at = out.find("Choose 1-", scan);
        if (at == std::string::npos) {
            ann->wait_for([&](const std::string& o) { return o.size() > out.size(); }, 200ms);
            continue;
        }
        ann->write("1");
        std::size_t ack = std::string::npos;
        ann->wait_for([&](const std::string& o) { return (ack = o.find("You chose piece", at)) != std::string::npos; }, patience(5s));
        scan = ack != std::string::npos ? ack : ann->out().size();
    }
    REQUIRE_MESSAGE(both_at > 0, ann->describe());
    CHECK(first > 20);
    CHECK(first <= 30);
    // It counts down between messages.
    CHECK_MESSAGE(wait_drawn(*ann, both_at, "Still choosing \\((?!" + std::to_string(first) + " )\\d+ s left\\): Ben-1 and Cid-1", patience(4s)),
                  ann->describe());
    // Ben answers: the list shrinks to Cid, the time goes on.
    REQUIRE_MESSAGE(wait_drawn(*ann, both_at, "Still choosing \\((1\\d|2\\d) s left\\): Cid-1\\s", patience(10s)), ann->describe());
    CHECK(last_screen(*ann).find("Ben-1 and Cid-1") == std::string::npos);
    ann->write("q");
    ann->write("y");
    CHECK(ann->wait(patience(10s)) == 0);
    ben->signal(SIGTERM);
    cid->signal(SIGTERM);
    server.stop();
}

TEST_CASE("play flow: the host's End question stays on the screen when the next decision arrives, and y still ends the game [e2e][play][pty][issue34]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                                     "--decision-ms", "30000", "--pace-ms", "1000"},
                             terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*ann, "You are the host."), ann->describe());
    ann->write("b");
    REQUIRE_MESSAGE(wait_screen(*ann, "bot (best)"), ann->describe());
    ann->write("s");
    REQUIRE_MESSAGE(wait_screen(*ann, "Choose 1-", patience(15s)), ann->describe());
    // Ann answers and asks to end the game at once: the question waits for y or n...
    const std::size_t asked = ann->out().size();
    ann->write("1E");
    const std::string question = "End the game for everyone? y yes (or E again), n no";
    REQUIRE_MESSAGE(wait_drawn(*ann, asked, "End the game for everyone\\?"), ann->describe());
    // ...while the next round asks her again: the question stays on the screen beside it.
    const std::size_t shown = ann->out().size();
    REQUIRE_MESSAGE(wait_drawn(*ann, shown, "Choose 1-", patience(15s)), ann->describe());
    std::this_thread::sleep_for(300ms);
    const std::string now = last_screen(*ann);
    CHECK_MESSAGE(now.find("Choose 1-") != std::string::npos, now);
    CHECK_MESSAGE(now.find(question) != std::string::npos, now);
    // y still answers it.
    ann->write("y");
    REQUIRE_MESSAGE(wait_screen(*ann, "The game was abandoned", patience(10s)), ann->describe());
    ann->write(" q");
    CHECK(ann->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: ! then a number sends a reaction every player's story shows as 'Name: reaction', a second within 2 s is refused, and m mutes the others' [e2e][play][pipe][reactions]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "ludo", "--players", "3", "--name", "Ann"},
                             piped(state / "ann"));
    REQUIRE_MESSAGE(ann->wait_for_text("You are in room ", patience(10s)), ann->describe());
    const std::string room = room_of(*ann);
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben"}, piped(state / "ben"));
    auto cid = server.client("cid", {"play", server.url(), "--room", room, "--name", "Cid"}, piped(state / "cid"));
    REQUIRE_MESSAGE(ben->wait_for_text("You are in room ", patience(10s)), ben->describe());
    REQUIRE_MESSAGE(cid->wait_for_text("You are in room ", patience(10s)), cid->describe());
    REQUIRE_MESSAGE(ann->wait_for_text("Ben sits at seat", patience(10s)), ann->describe());
    REQUIRE_MESSAGE(ann->wait_for_text("Cid sits at seat", patience(10s)), ann->describe());

    ann->write("!");
    REQUIRE_MESSAGE(ann->wait_for_text("React with? 1 \U0001F44D  2 \U0001F602", patience(10s)), ann->describe());
    ann->write("6");
    ann->write("!5");  // within 2 s of the first (typed at once: seeing the first can take longer)
    for (auto* p : {ann.get(), ben.get(), cid.get()}) REQUIRE_MESSAGE(p->wait_for_text("Ann: phew", patience(10s)), p->describe());
    REQUIRE_MESSAGE(ann->wait_for_text("One reaction every 2 seconds", patience(10s)), ann->describe());

    ben->write("m");
    REQUIRE_MESSAGE(ben->wait_for_text("Reactions muted", patience(10s)), ben->describe());
    cid->write("!8");
    REQUIRE_MESSAGE(ann->wait_for_text("Cid: well played", patience(10s)), ann->describe());
    // Cid leaves: Ben's notice of it comes after the reaction the room sent him before.
    cid->write("q");
    REQUIRE_MESSAGE(ben->wait_for_text("Cid left", patience(10s)), ben->describe());
    CHECK(ben->out().find("Cid: well played") == std::string::npos);
    CHECK(ann->out().find("Ann: nooo!") == std::string::npos);
    for (auto* p : {ann.get(), ben.get()}) p->write("q");
    CHECK(ann->wait(patience(10s)) == 0);
    CHECK(ben->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("play flow: spookludo watch may react only after the host's v lets spectators react, and the players' stories show 'a spectator: ...' [e2e][play][watch][pipe][reactions]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "ludo", "--players", "2", "--name", "Ann"},
                             piped(state / "ann"));
    REQUIRE_MESSAGE(ann->wait_for_text("You are in room ", patience(10s)), ann->describe());
    auto sam = server.client("sam", {"watch", server.url(), "--room", room_of(*ann), "--name", "Sam"}, piped(state / "sam"));
    REQUIRE_MESSAGE(sam->wait_for_text("You are watching", patience(10s)), sam->describe());
    sam->write("!");
    REQUIRE_MESSAGE(sam->wait_for_text("Spectators may not send reactions in this room", patience(10s)), sam->describe());
    ann->write("v");
    // The setting reaches Sam's screen with the room's next snapshot: ! asks until it offers the list.
    bool offered = false;
    for (int tries = 0; tries < 50 && !offered; ++tries) {
        sam->write("!");
        offered = sam->wait_for_text("React with? 1", 200ms);
    }
    REQUIRE_MESSAGE(offered, sam->describe());
    sam->write("4");
    REQUIRE_MESSAGE(ann->wait_for_text("a spectator: \U0001F47B", patience(10s)), ann->describe());
    REQUIRE_MESSAGE(sam->wait_for_text("a spectator: \U0001F47B", patience(10s)), sam->describe());
    for (auto* p : {ann.get(), sam.get()}) p->write("q");
    CHECK(ann->wait(patience(10s)) == 0);
    CHECK(sam->wait(patience(10s)) == 0);
    server.stop();
}
