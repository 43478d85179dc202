// End to end over real processes: the spookludo-server binary on a loopback port, and the
// spookludo client binary as bots, as a player on a pseudo-terminal or on pipes, and as a
// spectator. Every wait has a deadline; nothing sleeps to synchronise.
#include <doctest/doctest.h>

#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/e2e_server.h"
#include "process_util.h"
#include "spookludo/protocol/websocket.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// The game id of a bot's "game_over ID STATUS record /records/ID" line, checking its form.
std::string game_over_id(Process& bot, const std::string& status = "finished") {
    const std::string out = bot.out();
    const std::string id = line_word(out, "game_over ");
    INFO(bot.describe());
    REQUIRE_FALSE(id.empty());
    CHECK(out.find("game_over " + id + " " + status + " record /records/" + id + "\n") != std::string::npos);
    return id;
}

// `spookludo verify FILE` must say VERIFIED and exit 0.
void check_verifies(Server& server, const std::string& file) {
    REQUIRE_MESSAGE(std::filesystem::exists(file), "no record file " << file);
    auto v = server.run("verify", {"verify", file});
    INFO(v->describe());
    CHECK(v->status() == 0);
    CHECK(v->out().find("VERIFIED: " + file) != std::string::npos);
}

json read_record(const std::string& file) {
    return json::parse(read_file(file));
}

// How many choices of `seat` the record says were made by `by`.
int choices_by(const json& record, int seat, const std::string& by) {
    int n = 0;
    for (const auto& c : record.at("choices"))
        if (c.at("seat") == seat && c.at("by") == by) ++n;
    return n;
}

// Every SGR sequence ("ESC [ ... m") in the text whose parameters set a colour or a style, i.e.
// anything but a plain reset.
std::vector<std::string> styling_sequences(const std::string& text) {
    std::vector<std::string> found;
    static const std::regex sgr("\x1b\\[([0-9;]*)m");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), sgr); it != std::sregex_iterator(); ++it) {
        const std::string params = (*it)[1];
        if (params != "" && params != "0") found.push_back(params);
    }
    return found;
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// A room whose host (a bot process, seat 1) waits until `players` seats are taken by anyone,
// then starts. Returns the host process once it has printed the room's code.
std::unique_ptr<Process> host_waiting_for_players(Server& server, const std::string& game, int players,
                                                  std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"bot",    server.url(), "--create", game, "--players", std::to_string(players),
                                  "--count", "1",         "--name",   "host", "--policy", "best", "--start",
                                  // --fill-after starts as soon as the seats are full; the wait is
                                  // far longer than the test.
                                  "--fill-after", "600"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto host = server.client("host", args);
    REQUIRE_MESSAGE(host->wait_for_text("host-1 token ", patience(10s)), host->describe());
    return host;
}

}  // namespace

// ---- Bots play whole games ------------------------------------------------------------------------

TEST_CASE("e2e bot: four bots in one process play a whole Spook game: exit 0 and the record verifies [e2e][bot]") {
    Server server;
    auto bot = server.run("bots", {"bot", server.url(), "--create", "spook", "--players", "4", "--count", "4",
                                   "--policy", "best", "--start"});
    INFO(bot->describe());
    REQUIRE(bot->status() == 0);
    const std::string out = bot->out();
    const std::string room = line_word(out, "room ");
    CHECK(room.size() == 5);
    CHECK_FALSE(word_after(out, "bot-1 token ").empty());
    // One line per event, tagged with the room.
    CHECK(out.find("[" + room + "] Round 1: the die shows") != std::string::npos);
    CHECK(out.find("[" + room + "] Game over!") != std::string::npos);
    CHECK(bot->err().empty());
    const std::string id = game_over_id(*bot);
    CHECK(id.rfind(room + "-", 0) == 0);
    const std::string file = server.record_file(id);
    check_verifies(server, file);
    const json record = read_record(file);
    CHECK(record.at("options").at("game") == "spook");
    CHECK(record.at("seats").size() == 4);
    CHECK(record.at("result").at("status") == "finished");
    // The bots answered their own decisions.
    for (int seat = 0; seat < 4; ++seat) CHECK(choices_by(record, seat, "player") > 0);
    server.stop();
}

TEST_CASE("e2e bot: a Ludo game on arms of 6 with greedy bots to its end: exit 0 and the record verifies [e2e][bot]") {
    Server server;
    auto bot = server.run("bots", {"bot", server.url(), "--create", "ludo", "--arm", "6", "--players", "4", "--count",
                                   "4", "--policy", "greedy", "--start"});
    INFO(bot->describe());
    REQUIRE(bot->status() == 0);
    const std::string file = server.record_file(game_over_id(*bot));
    check_verifies(server, file);
    const json record = read_record(file);
    CHECK(record.at("options").at("game") == "ludo");
    CHECK(record.at("options").at("arm") == 6);
    CHECK(record.at("result").at("status") == "finished");
    server.stop();
}

TEST_CASE("e2e bot: a Ludo game under the home rules with teams to its end: the partners win together and the record verifies [e2e][bot][house]") {
    Server server;
    auto bot = server.run("bots", {"bot", server.url(), "--create", "ludo", "--home-rules", "--teams", "--count", "4",
                                   "--policy", "greedy", "--start"});
    INFO(bot->describe());
    REQUIRE(bot->status() == 0);
    const std::string out = bot->out();
    CHECK(out.find(" win as a team after ") != std::string::npos);
    const std::string file = server.record_file(game_over_id(*bot));
    check_verifies(server, file);
    const json record = read_record(file);
    const json& options = record.at("options");
    CHECK(options.at("arm") == 6);
    CHECK(options.at("entry") == "start_square");
    CHECK(options.at("safe_squares") == true);
    CHECK(options.at("bonus_throws") == true);
    CHECK(options.at("three_sixes") == true);
    CHECK(options.at("teams") == true);
    CHECK(record.at("result").at("status") == "finished");
    // Partners opposite win together: seats 1 and 3, or 2 and 4.
    const json winners = record.at("result").at("winners");
    REQUIRE(winners.size() == 2);
    CHECK(std::abs(winners[0].get<int>() - winners[1].get<int>()) == 2);
    server.stop();
}

TEST_CASE("e2e bot: two bot processes fill one room by its code: the game starts when the seats are full [e2e][bot]") {
    Server server;
    auto host = host_waiting_for_players(server, "spook", 3);
    const std::string room = line_word(host->out(), "room ");
    REQUIRE(room.size() == 5);
    // Nobody else is there yet: the room waits.
    CHECK(host->running());
    auto guests = server.client("guests", {"bot", server.url(), "--room", room, "--count", "2", "--name", "guest",
                                           "--policy", "random"});
    CHECK_MESSAGE(guests->wait(patience(20s)) == 0, guests->describe());
    CHECK_MESSAGE(host->wait(patience(20s)) == 0, host->describe());
    const std::string id = game_over_id(*host);
    CHECK(game_over_id(*guests) == id);
    CHECK(guests->out().find("room " + room + "\n") != std::string::npos);
    const std::string file = server.record_file(id);
    check_verifies(server, file);
    const json record = read_record(file);
    REQUIRE(record.at("seats").size() == 3);
    CHECK(record.at("seats")[0].at("name") == "host-1");
    // The guests join at once, in either order.
    std::set<std::string> guests_seated;
    for (std::size_t seat = 1; seat < 3; ++seat) guests_seated.insert(record.at("seats")[seat].at("name").get<std::string>());
    CHECK(guests_seated == std::set<std::string>{"guest-1", "guest-2"});
    server.stop();
}

TEST_CASE("e2e bot: a bot killed mid-game comes back with its token, resumes its seat, and the game finishes [e2e][bot][reconnect]") {
    Server server;
    // Slow enough (100 ms between steps) that the game is still on when the bot comes back.
    auto host = host_waiting_for_players(server, "spook", 2, {"--pace-ms", "100"});
    const std::string room = line_word(host->out(), "room ");
    auto guest = server.client("guest", {"bot", server.url(), "--room", room, "--count", "1", "--name", "guest"});
    REQUIRE_MESSAGE(guest->wait_for_text("guest-1 token ", patience(10s)), guest->describe());
    const std::string token = word_after(guest->out(), "guest-1 token ");
    REQUIRE(token.size() == 32);
    REQUIRE_MESSAGE(guest->wait_for_text("] Round 3:", patience(20s)), guest->describe());
    guest->signal(SIGKILL);
    REQUIRE(guest->wait(patience(5s)) == 128 + SIGKILL);
    CHECK_MESSAGE(host->out().find("game_over") == std::string::npos, "the game ended before the bot came back; "
                                                                      "raise the pace\n"
                                                                          << host->describe());

    auto back = server.client("guest-back", {"bot", server.url(), "--room", room, "--token", token, "--count", "1",
                                             "--name", "guest"});
    CHECK_MESSAGE(back->wait(patience(30s)) == 0, back->describe());
    CHECK_MESSAGE(host->wait(patience(10s)) == 0, host->describe());
    INFO(back->describe());
    CHECK(back->out().find("room " + room + "\n") != std::string::npos);
    // Back in its own seat (seat 2), answering decisions again.
    CHECK(back->out().find("guest-1 (seat 2) chooses piece") != std::string::npos);
    const std::string id = game_over_id(*back);
    CHECK(game_over_id(*host) == id);
    const std::string file = server.record_file(id);
    check_verifies(server, file);
    const json record = read_record(file);
    CHECK(record.at("seats")[1].at("name") == "guest-1");
    CHECK(choices_by(record, 1, "player") > 0);
    server.stop();
}

// ---- What a user sees when it goes wrong -----------------------------------------------------------

TEST_CASE("e2e bot: an unknown room: exit 2 and the message names the room [e2e][bot][errors]") {
    Server server;
    auto bot = server.run("bot", {"bot", server.url(), "--room", "qqqqq"});
    INFO(bot->describe());
    CHECK(bot->status() == 2);
    const std::string err = bot->err();
    CHECK(err.find("spookludo bot: bot-1: no room QQQQQ on this server (check the code)") != std::string::npos);
    CHECK(err.find("[room_not_found]") != std::string::npos);
    server.stop();
}

TEST_CASE("e2e bot, play and watch: a refused connection: exit 2 and \"connection refused\" [e2e][errors]") {
    ClosedPort closed;
    TempDir dir("spookludo-e2e-refused");
    const std::string url = "ws://127.0.0.1:" + std::to_string(closed.port());
    for (const std::string command : {"bot", "play", "watch"}) {
        CAPTURE(command);
        SpawnOptions o;
        o.stdout_file = dir / (command + ".out");
        o.stderr_file = dir / (command + ".err");
        std::vector<std::string> argv{kClientBinary, command, url};
        if (command == "bot") argv.insert(argv.end(), {"--create", "spook"});
        if (command == "play") argv.insert(argv.end(), {"--room", "ABCDE", "--name", "Ann"});
        if (command == "watch") argv.insert(argv.end(), {"--room", "ABCDE"});
        Process p(argv, o);
        const auto status = p.wait(patience(10s));
        INFO(p.describe());
        CHECK(status == 2);
        CHECK(p.err().find("connection refused by 127.0.0.1:" + std::to_string(closed.port())) != std::string::npos);
    }
}

// A server of a newer protocol, just enough of one: it completes the WebSocket handshake (RFC
// 6455's Sec-WebSocket-Accept), reads the client's hello and answers what spookludo-server answers
// a hello of another version, then waits for the client to hang up. On its own thread.
class NewerServer {
public:
    NewerServer() {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        REQUIRE(::listen(listener_, 4) == 0);
        socklen_t len = sizeof addr;
        REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~NewerServer() {
        (void)finish();
        ::close(listener_);
    }
    std::string url() const { return "ws://127.0.0.1:" + std::to_string(port_); }
    // Stops serving (once the connection it took has ended); the client's first message.
    std::string finish() {
        ::shutdown(listener_, SHUT_RDWR);
        if (thread_.joinable()) thread_.join();
        return hello_;
    }

private:
    static std::string accept_key(const std::string& key) {
        const std::string text = key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
        unsigned char digest[SHA_DIGEST_LENGTH];
        SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
        unsigned char out[64];
        const int n = EVP_EncodeBlock(out, digest, SHA_DIGEST_LENGTH);
        return std::string(reinterpret_cast<char*>(out), static_cast<std::size_t>(n));
    }
    void serve() {
        const int fd = ::accept(listener_, nullptr, nullptr);
        if (fd < 0) return;
        std::string in;
        char buf[4096];
        auto read_more = [&] {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n > 0) in.append(buf, static_cast<std::size_t>(n));
            return n > 0;
        };
        while (in.find("\r\n\r\n") == std::string::npos && read_more()) {}
        const std::string field = "Sec-WebSocket-Key: ";
        const auto at = in.find(field);
        if (at != std::string::npos) {
            const std::string key = in.substr(at + field.size(), in.find("\r\n", at) - at - field.size());
            const std::string reply = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                      "Sec-WebSocket-Accept: " + accept_key(key) + "\r\n\r\n";
            (void)::send(fd, reply.data(), reply.size(), MSG_NOSIGNAL);
            in.erase(0, in.find("\r\n\r\n") + 4);
            // The hello, read with the project's own frame reader (a server reads masked frames).
            namespace ws = spookludo::protocol::ws;
            ws::FrameReader reader(ws::FrameReader::Role::server, 4096);
            ws::FrameReader::Message message;
            if (!in.empty()) {  // bytes that came with the request
                std::memcpy(reader.prepare(in.size()), in.data(), in.size());
                reader.commit(in.size());
            }
            auto status = reader.next(message);
            while (status == ws::FrameReader::Status::need_more) {
                char* room = reader.prepare(4096);
                const ssize_t n = ::recv(fd, room, reader.free_space(), 0);
                if (n <= 0) break;
                reader.commit(static_cast<std::size_t>(n));
                status = reader.next(message);
            }
            if (status == ws::FrameReader::Status::message) hello_ = std::string(message.payload);
            std::string frame;
            ws::append_frame(frame, ws::Opcode::text,
                             R"({"type":"error","code":"version_mismatch","ref":"hello","message":"this server speaks protocol 2, the client 1: update the client"})");
            (void)::send(fd, frame.data(), frame.size(), MSG_NOSIGNAL);
            while (read_more()) {}  // until the client closes
        }
        ::close(fd);
    }

    int listener_ = -1;
    std::uint16_t port_ = 0;
    std::thread thread_;
    std::string hello_;
};

TEST_CASE("e2e bot: a server of another protocol version: exit 2 and the message says which to update [e2e][bot][errors]") {
    NewerServer newer;
    TempDir dir("spookludo-e2e-version");
    SpawnOptions o;
    o.stdout_file = dir / "bot.out";
    o.stderr_file = dir / "bot.err";
    Process bot({kClientBinary, "bot", newer.url(), "--create", "spook"}, o);
    const auto status = bot.wait(patience(10s));
    INFO(bot.describe());
    CHECK(status == 2);
    CHECK(bot.err().find("this client speaks protocol 1 and the server does not: this server speaks protocol 2, "
                         "the client 1: update the client [version_mismatch]") != std::string::npos);
    // What the client had said: its hello, with the protocol version it speaks.
    const std::string said = newer.finish();
    INFO(said);
    const json hello = json::parse(said, nullptr, false);
    CHECK(hello.value("type", "") == "hello");
    CHECK(hello.value("protocol", 0) == 1);
}

TEST_CASE("e2e bot: a wrong URL (http://, no port): exit 2 with what to type instead [e2e][bot][errors]") {
    Server server;
    const std::string http = "http://127.0.0.1:" + std::to_string(server.port());
    auto bot = server.run("bot-http", {"bot", http, "--create", "spook"});
    INFO(bot->describe());
    CHECK(bot->status() == 2);
    CHECK(bot->err().find("must start with ws:// or wss:// (got http://): try ws://127.0.0.1:" + std::to_string(server.port())) !=
          std::string::npos);
    auto bare = server.run("bot-bare", {"bot", "127.0.0.1", "--create", "spook"});
    INFO(bare->describe());
    CHECK(bare->status() == 2);
    CHECK(bare->err().find("ws://HOST:PORT") != std::string::npos);
    server.stop();
}

TEST_CASE("e2e bot: a full room refuses a joiner (exit 2, room_full), so does a wrong token (bad_token), and Ctrl-C leaves (exit 130) [e2e][bot][errors]") {
    Server server;
    // Two bots take both seats and wait in the lobby (no --start).
    auto sitters = server.client("sitters", {"bot", server.url(), "--create", "spook", "--players", "2", "--count", "2"});
    REQUIRE_MESSAGE(sitters->wait_for_text("bot-1 token ", patience(10s)), sitters->describe());
    const std::string room = line_word(sitters->out(), "room ");
    REQUIRE(room.size() == 5);
    REQUIRE_MESSAGE(sitters->wait_for_text("bot-2 sits at seat 2", patience(10s)), sitters->describe());

    auto late = server.run("late", {"bot", server.url(), "--room", room, "--name", "late"});
    {
        INFO(late->describe());
        CHECK(late->status() == 2);
        CHECK(late->err().find("spookludo bot: late-1: The room is full.") != std::string::npos);  // worded from the code
        CHECK(late->err().find("[room_full]") != std::string::npos);
    }

    auto forger = server.run("forger", {"bot", server.url(), "--room", room, "--token", "0123456789abcdef0123456789abcdef"});
    {
        INFO(forger->describe());
        CHECK((forger->status() == 2 || forger->status() == 1));
        CHECK(forger->err().find("[bad_token]") != std::string::npos);
    }

    // Ctrl-C: the bots leave the room and the process says so.
    sitters->signal(SIGINT);
    CHECK_MESSAGE(sitters->wait(patience(10s)) == 130, sitters->describe());
    CHECK(sitters->out().find("interrupted: the bots leave the room") != std::string::npos);
    server.stop();
}

// ---- A person at a terminal ---------------------------------------------------------------------

TEST_CASE("e2e play: in the lobby the host's f sets the home rules, 2 teams (four seats), f again the text's rules, and the lobby says each [e2e][play][pty][house]") {
    Server server;
    SpawnOptions o;
    o.pty = true;
    o.cols = 180;  // the rules' line on one line
    o.rows = 40;
    o.env = {{"NO_COLOR", "1"}, {"TERM", "xterm-256color"}};
    auto play = server.client("play", {"play", server.url(), "--create", "ludo", "--players", "2", "--name", "Ann"}, o);
    REQUIRE_MESSAGE(play->wait_for_text("You are the host.", patience(10s)), play->describe());
    // The screen drawn after a key: what it shows from then on.
    auto after = [&](std::size_t mark, const std::string& text) {
        return play->wait_for([&](const std::string& s) { return s.find(text, mark) != std::string::npos; }, patience(10s));
    };
    const std::string home =
        "home rules (arms of 6, entry onto the start square, safe squares, bonus throws, three 6s end the turn)";
    std::size_t mark = play->out().size();
    play->write("f");
    REQUIRE_MESSAGE(after(mark, "Classic Ludo: 2 seats, " + home), play->describe());
    mark = play->out().size();
    play->write("2");
    REQUIRE_MESSAGE(after(mark, "Classic Ludo: 4 seats, " + home + ", teams: seats 1+3 against 2+4"), play->describe());
    mark = play->out().size();
    play->write("f");
    REQUIRE_MESSAGE(after(mark, "Classic Ludo: 4 seats, arms of 8, entry as the text (6 squares out)"), play->describe());
    CHECK(play->out().find("house rules:", mark) == std::string::npos);
    play->write("q");
    CHECK_MESSAGE(play->wait(patience(10s)) == 0, play->describe());
    server.stop();
}

TEST_CASE("e2e play: on an 80x24 pseudo-terminal with NO_COLOR the host adds a bot, starts, and chooses by key [e2e][play][pty]") {
    Server server;
    SpawnOptions o;
    o.pty = true;
    o.cols = 80;
    o.rows = 24;
    o.env = {{"NO_COLOR", "1"}, {"TERM", "xterm-256color"}};
    auto play = server.client("play", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                                       "--once", "--decision-ms", "20000", "--pace-ms", "0"},
                              o);
    REQUIRE_MESSAGE(play->wait_for_text("You are the host.", patience(10s)), play->describe());
    CHECK(play->out().find("waiting in the lobby") != std::string::npos);
    play->write("b");
    REQUIRE_MESSAGE(play->wait_for_text("bot (best)", patience(10s)), play->describe());
    play->write("s");

    // Answer every choice with the first option; after a key press, look for the next prompt only
    // in what was drawn after the press was taken ("You chose piece").
    int presses = 0;
    std::size_t scan = 0;
    const auto deadline = std::chrono::steady_clock::now() + patience(60s);
    while (play->running() && std::chrono::steady_clock::now() < deadline) {
        const std::string out = play->out();
        auto at = std::min(out.find("Choose 1-", scan), out.find("Press 1-", scan));
        if (at == std::string::npos) {
            play->wait_for([&](const std::string& o2) { return o2.size() > out.size(); }, 200ms);
            continue;
        }
        play->write("1");
        ++presses;
        std::size_t ack = std::string::npos;
        play->wait_for(
            [&](const std::string& o2) {
                ack = o2.find("You chose piece", at);
                return ack != std::string::npos;
            },
            patience(5s));
        scan = ack != std::string::npos ? ack : play->out().size();
    }
    const auto status = play->wait(patience(15s));
    const std::string out = play->out();
    INFO(play->describe());
    REQUIRE(status == 0);
    CHECK(presses > 0);
    MESSAGE("key presses answering decisions: " << presses);

    const std::string text = strip_escapes(out);
    CHECK(text.find("Spook round") != std::string::npos);
    CHECK(text.find("Game over!") != std::string::npos);
    // After the full screen: how to check the game.
    const std::string id =
        line_word(text, "The game record: http://127.0.0.1:" + std::to_string(server.port()) + "/records/");
    REQUIRE_FALSE(id.empty());
    const std::string file = server.record_file(id);
    check_verifies(server, file);
    const json record = read_record(file);
    CHECK(record.at("seats")[0].at("name") == "Ann");
    CHECK(record.at("seats")[1].at("bot") == true);
    // The key presses reached the server: seat 1 (Ann) chose herself.
    CHECK(choices_by(record, 0, "player") > 0);
    // No colour: the only SGR sequences are resets (cursor movement and clearing are fine).
    const auto styled = styling_sequences(out);
    CHECK_MESSAGE(styled.empty(), "SGR with parameters " << (styled.empty() ? "" : styled.front()));
    CHECK(out.find("\x1b[3") == std::string::npos);
    // Every screen fits 80 columns: no line drawn on the full screen (between entering and leaving
    // the alternate screen) is wider; each screen starts at the top left.
    const auto screen_from = out.find("\x1b[?1049h"), screen_to = out.rfind("\x1b[?1049l");
    REQUIRE(screen_from != std::string::npos);
    REQUIRE(screen_to != std::string::npos);
    std::string lines = out.substr(screen_from, screen_to - screen_from);
    for (auto at = lines.find("\x1b[H"); at != std::string::npos; at = lines.find("\x1b[H", at)) lines.replace(at, 3, "\n");
    std::size_t widest = 0, line = 0;
    std::string widest_line, current;
    for (const char c : strip_escapes(lines) + "\n") {
        if (c == '\n') {
            if (line > widest) widest = line, widest_line = current;
            line = 0;
            current.clear();
            continue;
        }
        current += c;
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++line;  // characters, not UTF-8 continuation bytes
    }
    CHECK_MESSAGE(widest <= 80, "a line of " << widest << " characters: " << widest_line);
    server.stop();
}

TEST_CASE("e2e watch: a spectator on a pseudo-terminal sees the boards of a bot game in colour and leaves at its end (--once) [e2e][watch][pty]") {
    Server server;
    auto host = host_waiting_for_players(server, "spook", 2, {"--pace-ms", "20"});
    const std::string room = line_word(host->out(), "room ");
    SpawnOptions o;
    o.pty = true;
    o.env = {{"NO_COLOR", std::nullopt}, {"TERM", "xterm-256color"}};
    auto watch = server.client("watch", {"watch", server.url(), "--room", room, "--once"}, o);
    // The spectator is in before the game starts, so it sees all of it.
    REQUIRE_MESSAGE(watch->wait_for_text("You are watching.", patience(10s)), watch->describe());
    auto guest = server.client("guest", {"bot", server.url(), "--room", room, "--count", "1", "--name", "guest"});
    REQUIRE_MESSAGE(watch->wait_for([](const std::string& s) { return strip_escapes(s).find("Spook round") != std::string::npos; },
                                    patience(20s)),
                    watch->describe());
    const auto status = watch->wait(patience(30s));
    INFO(watch->describe());
    CHECK(status == 0);
    const std::string out = watch->out();
    const std::string text = strip_escapes(out);
    CHECK(text.find("SpookLudo " + room) != std::string::npos);
    CHECK(text.find("watching") != std::string::npos);
    CHECK(text.find("host-1") != std::string::npos);
    CHECK(text.find("guest-1") != std::string::npos);
    CHECK(text.find("Game over!") != std::string::npos);
    CHECK(text.find("Choose 1-") == std::string::npos);  // no prompts for a spectator
    // On a terminal, with colour.
    CHECK_FALSE(styling_sequences(out).empty());
    CHECK(guest->wait(patience(10s)) == 0);
    CHECK(host->wait(patience(10s)) == 0);
    server.stop();
}

TEST_CASE("e2e play: without a terminal the story is printed line by line and a typed number answers a decision [e2e][play][pipe]") {
    Server server;
    SpawnOptions o;
    o.stdin_pipe = true;
    o.env = {{"NO_COLOR", std::nullopt}, {"TERM", "xterm-256color"}};
    auto play = server.client("play", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                                       "--once", "--decision-ms", "20000", "--pace-ms", "0"},
                              o);
    REQUIRE_MESSAGE(play->wait_for_text("You are in room ", patience(10s)), play->describe());
    // The host's keys work from a pipe too. "joined" comes just before the room's first snapshot;
    // a key typed in between is kept until the snapshot says who hosts, so one press is enough.
    play->write("b");
    REQUIRE_MESSAGE(play->wait_for_text("a best bot takes seat 2", patience(10s)), play->describe());
    play->write("s");
    const std::string prompt = "Type the number of your choice and Enter.\n";
    std::size_t answered = 0;
    const auto deadline = std::chrono::steady_clock::now() + patience(60s);
    while (play->running() && std::chrono::steady_clock::now() < deadline) {
        play->wait_for([&](const std::string& s) { return count_of(s, prompt) > answered; }, 200ms);
        for (const auto asked = count_of(play->out(), prompt); answered < asked; ++answered) play->write("1\n");
    }
    const auto status = play->wait(patience(10s));
    const std::string out = play->out();
    INFO(play->describe());
    REQUIRE(status == 0);
    CHECK(answered > 0);
    MESSAGE("decisions answered by a typed 1: " << answered);
    CHECK(out.find('\x1b') == std::string::npos);  // plain text: not a terminal
    CHECK(out.find("\nRound 1: the die shows ") != std::string::npos);
    CHECK(out.find("\n1  piece ") != std::string::npos);  // the options, numbered
    CHECK(out.find("Game over!") != std::string::npos);
    const std::string id =
        line_word(out, "The game record: http://127.0.0.1:" + std::to_string(server.port()) + "/records/");
    REQUIRE_FALSE(id.empty());
    const std::string file = server.record_file(id);
    check_verifies(server, file);
    CHECK(choices_by(read_record(file), 0, "player") > 0);
    server.stop();
}
