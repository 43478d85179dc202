// A stranger cannot break a party: what a hostile client tried against the real server over
// loopback, and what the server must do instead (each case failed before its fix).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include "raw_client.h"
#include "services.h"
#include "tls/certificates.h"

using namespace spookludo;
using namespace spookludo::testing;
using namespace spookludo::testing::raw;

namespace {

json spook_options(int players = 8) { return {{"game", "spook"}, {"players", players}, {"pieces", 2}}; }

std::string message(const json& m) { return frame(ws::Opcode::text, m.dump()); }

// The value of a metric without labels in /metrics, or -1.
long metric(std::uint16_t port, const std::string& name) {
    const std::string body = "\n" + http_get(port, "/metrics").second;
    const auto at = body.find("\n" + name + " ");
    if (at == std::string::npos) return -1;
    return std::stol(body.substr(at + name.size() + 2));
}

// Waits until the metric has the value; false when it does not in time.
bool metric_becomes(std::uint16_t port, const std::string& name, long value, std::chrono::milliseconds timeout = 10s) {
    const auto deadline = Clock::now() + timeout;
    long last = -1;
    while (Clock::now() < deadline) {
        if ((last = metric(port, name)) == value) return true;
        std::this_thread::sleep_for(50ms);
    }
    MESSAGE(name, " is ", last, ", not ", value);
    return false;
}

// Reads JSON messages until one of `type` (returned) or the time is up.
std::optional<json> read_until(RawClient& c, const std::string& type, std::chrono::milliseconds timeout = 5s) {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
        auto m = c.read_json(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
        if (!m) return std::nullopt;
        if ((*m)["type"] == type) return m;
    }
    return std::nullopt;
}

// The server's log lines (info and above) while it lives: the default logger is replaced, and
// put back when this goes. Made after the server's config (fast_config sets the level), before
// the server (which must be gone first).
class LogCapture {
public:
    LogCapture() : sink_(std::make_shared<Sink>()), before_(spdlog::default_logger()) {
        auto logger = std::make_shared<spdlog::logger>("captured", sink_);
        logger->set_level(spdlog::level::info);
        spdlog::set_default_logger(std::move(logger));
    }
    ~LogCapture() { spdlog::set_default_logger(before_); }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    // The lines that contain `what`.
    std::vector<std::string> lines_with(const std::string& what) const {
        std::vector<std::string> out;
        for (auto& line : sink_->lines())
            if (line.text.find(what) != std::string::npos) out.push_back(line.text);
        return out;
    }
    // When they were logged (the steady clock, read as the server logged them).
    std::vector<Clock::time_point> times_of(const std::string& what) const {
        std::vector<Clock::time_point> out;
        for (auto& line : sink_->lines())
            if (line.text.find(what) != std::string::npos) out.push_back(line.at);
        return out;
    }

private:
    struct Line {
        std::string text;
        Clock::time_point at;
    };
    class Sink final : public spdlog::sinks::base_sink<std::mutex> {
    public:
        std::vector<Line> lines() {
            std::lock_guard lock(mutex_);
            return lines_;
        }

    protected:
        void sink_it_(const spdlog::details::log_msg& msg) override {
            lines_.push_back({std::string(msg.payload.data(), msg.payload.size()), Clock::now()});
        }
        void flush_() override {}

    private:
        std::vector<Line> lines_;
    };
    std::shared_ptr<Sink> sink_;
    std::shared_ptr<spdlog::logger> before_;
};

// The value of a metric without labels, over https:// when `tls` is given; -1 when it cannot be had.
long metric_of(std::uint16_t port, const std::string& name, const TlsClientOptions* tls) {
    if (!tls) return metric(port, name);
    const std::string answer =
        "\n" + tls_exchange(port, *tls, "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    const auto at = answer.find("\n" + name + " ");
    if (at == std::string::npos) return -1;
    return std::stol(answer.substr(at + name.size() + 2));
}

// The largest value a metric takes while `during` runs, asked every 20 ms.
long peak_of(std::uint16_t port, const std::string& name, const TlsClientOptions* tls, const std::function<void()>& during) {
    std::atomic<bool> done{false};
    std::atomic<long> peak{-1};
    auto ask = [&] {
        try {
            peak = std::max(peak.load(), metric_of(port, name, tls));
        } catch (const std::exception&) {  // a refused request: asked again
        }
    };
    std::thread sampler([&] {
        while (!done) {
            ask();
            std::this_thread::sleep_for(20ms);
        }
    });
    during();
    done = true;
    sampler.join();
    ask();
    return peak;
}

// What a hostile client sends after the server has said close: pings, pongs (empty and full),
// messages, a fragmented one, binary frames, some 64 KB at a time.
std::string after_close_burst() {
    std::string one = frame(ws::Opcode::ping, "") + frame(ws::Opcode::pong, "") +
                      frame(ws::Opcode::ping, std::string(125, 'p')) + frame(ws::Opcode::pong, std::string(125, 'q')) +
                      frame(ws::Opcode::text, kHello) + frame(ws::Opcode::binary, "\x01\x02") +
                      frame(ws::Opcode::text, R"({"type":"ping",)", false) + frame(ws::Opcode::ping, "between") +
                      frame(ws::Opcode::continuation, R"("t":1})");
    std::string burst;
    while (burst.size() < 64 * 1024) burst += one;
    return burst;
}

// A server whose message rate is the default (20 a second, bursts of 40), so that 80 pings are
// over it.
server::Config default_rate() {
    auto c = TestServer::fast_config();
    c.max_messages_per_second = 20;
    return c;
}

constexpr auto kCloseWait = 2s;      // PROTOCOL.md: the server waits up to 2 s for the client's close
constexpr auto kHangUpMargin = 1s;  // the time it may take to notice, on a loaded machine

// A client that makes the server close with `trigger`, then goes on flooding it: the server sends
// one close frame with `code` and nothing after it, hangs up within the close wait of sending it
// whatever keeps coming, never holds more than a small read buffer meanwhile, and logs the close
// once (`log_line`).
void flood_after_close(std::uint16_t port, LogCapture& log, const std::string& trigger, std::uint16_t code,
                       const std::string& log_line, const TlsClientOptions* tls = nullptr) {
    const std::string burst = after_close_burst();
    Flood f;
    // The close comes at once: 6 s is the close wait, the margin, and some to spare.
    const long peak = peak_of(port, "spookludo_websocket_read_bytes", tls, [&] {
        f = flood(port, RawClient::upgrade_request() + trigger, burst, 6s, tls);
    });
    REQUIRE_MESSAGE(f.head.rfind("HTTP/1.1 101", 0) == 0, f.head);
    const auto close = std::find_if(f.frames.begin(), f.frames.end(),
                                    [](const Flood::Frame& fr) { return fr.opcode == op(ws::Opcode::close); });
    REQUIRE_MESSAGE(close != f.frames.end(), "no close frame came");
    CHECK(code_of(close->payload) == code);
    CHECK_MESSAGE(close + 1 == f.frames.end(), "the server sent ", (f.frames.end() - close - 1), " frames after its close frame");
    MESSAGE((f.sent_after_close / 1024), " KB sent after the close frame came");
    CHECK(f.sent_after_close > 0);
    CHECK_MESSAGE(f.ended, "the server never hung up while the client went on sending");
    if (f.ended) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(f.ended_at - close->at);
        CHECK_MESSAGE(ms <= kCloseWait + kHangUpMargin, "hung up ", ms.count(), " ms after its close frame");
    }
    REQUIRE_MESSAGE(peak >= 0, "/metrics could not be read");
    CHECK_MESSAGE(peak <= 4096, "the server held ", peak, " bytes for what it read");
    const auto lines = log.lines_with("; closed");
    CHECK_MESSAGE(lines.size() == 1, lines.size(), " lines say the connection closed");
    if (!lines.empty()) CHECK(lines.front().find(log_line) != std::string::npos);
}

std::string times(int n, const std::string& frame_bytes) {
    std::string out;
    for (int i = 0; i < n; ++i) out += frame_bytes;
    return out;
}

}  // namespace

// A seated player who drops keeps the seat for the reconnect window: these servers have a short one.
server::Config short_window() {
    auto c = TestServer::fast_config();
    c.reconnect_ms = 300;
    return c;
}

// How many seats of room `code` are taken, as a spectator who comes in now is shown them.
std::size_t seats_taken(std::uint16_t port, const std::string& code) {
    Client look(port);
    look.hello();
    look.send({{"type", "watch"}, {"room", code}});
    look.expect("joined");
    return taken_seats(room_where(look, [](const json&) { return true; }, "the room")).size();
}

// Waits until `n` seats of the room are taken (the others' reconnect windows over); false when
// they are not within `timeout`.
bool seats_taken_become(std::uint16_t port, const std::string& code, std::size_t n, std::chrono::milliseconds timeout = 10s) {
    const auto deadline = Clock::now() + timeout;
    std::size_t last = 0;
    while (Clock::now() < deadline) {
        if ((last = seats_taken(port, code)) == n) return true;
        std::this_thread::sleep_for(50ms);
    }
    MESSAGE(last, " seats taken, not ", n);
    return false;
}

TEST_CASE("security: join_room and create_room in one TCP write, then gone: no ghost seat and no room left behind [server][security]") {
    TestServer server(short_window());
    Client ann(server.port());
    const std::string code = create_room(ann, spook_options(), "Ann");
    for (int i = 0; i < 10; ++i) {
        RawClient c(server.port());
        c.open();
        REQUIRE(c.send_bytes(frame(ws::Opcode::text, kHello) +
                             message({{"type", "join_room"}, {"room", code}, {"name", "Guest " + std::to_string(i)}}) +
                             message({{"type", "create_room"}, {"options", spook_options(2)}, {"name", "Guest"}})));
    }  // each connection closes here, whatever the server made of its messages
    // Only Ann's room is left, and only Ann sits in it (once the guests' seats stopped waiting).
    CHECK(metric_becomes(server.port(), "spookludo_rooms", 1));
    CHECK(metric_becomes(server.port(), "spookludo_connections", 1));
    CHECK(seats_taken_become(server.port(), code, 1));
    ann.send({{"type", "add_bot"}, {"policy", "random"}});
    json room = ann.expect("room");
    while (taken_seats(room).size() < 2 || !taken_seats(room).back()["bot"].get<bool>()) room = ann.expect("room");
    CHECK(taken_seats(room).size() == 2);
    CHECK(room["host"] == 0);
    // Ann leaves: nobody is left, and the room closes.
    ann.close();
    CHECK(metric_becomes(server.port(), "spookludo_rooms", 0));
}

TEST_CASE("security: join_room A and join_room B in one TCP write put the connection in room A only [server][security]") {
    TestServer server;
    Client ann(server.port());
    const std::string a = create_room(ann, spook_options(), "Ann");
    Client bob(server.port());
    const std::string b = create_room(bob, spook_options(), "Bob");
    RawClient c(server.port());
    c.open();
    REQUIRE(c.send_bytes(frame(ws::Opcode::text, kHello) + message({{"type", "join_room"}, {"room", a}, {"name", "Cy"}}) +
                         message({{"type", "join_room"}, {"room", b}, {"name", "Cy"}})));
    REQUIRE(read_until(c, "welcome"));
    // The second join is refused as it is taken (the refusal and room A's welcome may come in
    // either order: one is the connection's, the other the room's).
    std::optional<json> refusal, joined;
    while (!refusal || !joined) {
        auto m = c.read_json(5s);
        if (!m) break;
        if ((*m)["type"] == "error") refusal = m;
        if ((*m)["type"] == "joined") joined = m;
    }
    REQUIRE(refusal);
    REQUIRE(joined);
    CHECK((*refusal)["code"] == "already_in_room");
    CHECK((*refusal)["ref"] == "join_room");
    CHECK((*joined)["room"] == a);
    // Room B has Bob alone (a bot added shows the seats as they are).
    bob.send({{"type", "add_bot"}, {"policy", "random"}});
    json room = bob.expect("room");
    while (taken_seats(room).size() < 2 || !taken_seats(room).back()["bot"].get<bool>()) room = bob.expect("room");
    CHECK(taken_seats(room).size() == 2);
}

TEST_CASE("security: a client that floods pings and never reads is cut off, its pongs not queued without end [server][security]") {
    TestServer server;
    RawClient c(server.port(), 4096);  // a small receive buffer, never read
    c.open();
    const std::string ping = frame(ws::Opcode::ping, "");
    std::string burst;
    for (int i = 0; i < 1000; ++i) burst += ping;
    const auto deadline = Clock::now() + 10s;
    int sent = 0;
    while (sent < 300000 && Clock::now() < deadline && c.send_bytes(burst)) sent += 1000;
    MESSAGE(sent, " pings sent");
    // Over the message rate its pings go unanswered and count as bad messages: the connection
    // is closed (before, every ping's pong was queued, 54 MB for 300,000, and it stayed open).
    CHECK(metric_becomes(server.port(), "spookludo_connections", 0));
    another_connection_works(server.port());
}

TEST_CASE("security: guessing seat tokens counts as bad messages: 20 wrong ones close the connection [server][security]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook_options(), "Ann");
    RawClient c(server.port());
    c.open();
    std::string guesses = frame(ws::Opcode::text, kHello);
    for (int i = 0; i < 25; ++i) {
        char token[33];
        std::snprintf(token, sizeof token, "%032x", i);
        guesses += message({{"type", "resume"}, {"room", code}, {"token", token}});
    }
    REQUIRE(c.send_bytes(guesses));
    expect_closed_with(c, ws::kClosePolicy);
    // Ann's room is untouched.
    ann.send({{"type", "ping"}, {"t", 1}});
    ann.expect("pong");
}

TEST_CASE("security: TCP connections that never upgrade count against the connection limits [server][security]") {
    auto config = TestServer::fast_config();
    config.max_connections_per_address = 3;
    TestServer server(config);
    {
        // Three silent connections hold the address's three places.
        RawClient s1(server.port()), s2(server.port()), s3(server.port());
        std::this_thread::sleep_for(200ms);  // accepted (a metrics request would be a fourth)
        RawClient fourth(server.port());
        const std::string head = fourth.request_upgrade(RawClient::upgrade_request());
        INFO(head);
        CHECK(head.rfind("HTTP/1.1 429", 0) == 0);
        // A plain request from the address is told why, too.
        const auto [status, body] = http_get(server.port(), "/healthz");
        CHECK(status == 429);
        CHECK(body.find("too many connections from your address") != std::string::npos);
    }
    // Once they are gone, the address is served again.
    int status = 0;
    for (int i = 0; i < 100 && status != 200; ++i) {
        status = http_get(server.port(), "/healthz").first;
        if (status != 200) std::this_thread::sleep_for(50ms);
    }
    CHECK(status == 200);
    another_connection_works(server.port());
}

TEST_CASE("security: the server-wide connection limit counts plain TCP connections too [server][security]") {
    auto config = TestServer::fast_config();
    config.max_connections = 2;
    TestServer server(config);
    RawClient s1(server.port()), s2(server.port());
    RawClient third(server.port());
    const std::string head = third.request_upgrade(RawClient::upgrade_request());
    INFO(head);
    CHECK(head.rfind("HTTP/1.1 503", 0) == 0);
}

TEST_CASE("security: a hello sent in the same TCP write as the upgrade request is answered [server][security]") {
    TestServer server;
    RawClient c(server.port());
    const std::string head = c.request_upgrade(RawClient::upgrade_request() + frame(ws::Opcode::text, kHello) +
                                               message({{"type", "ping"}, {"t", 7}}));
    REQUIRE(head.rfind("HTTP/1.1 101", 0) == 0);
    auto welcome = c.read_json();
    REQUIRE(welcome);
    CHECK((*welcome)["type"] == "welcome");
    auto pong = c.read_json();
    REQUIRE(pong);
    CHECK((*pong)["type"] == "pong");
    CHECK((*pong)["t"] == 7);
}

TEST_CASE("security: a wrong resume and a join_room of the same room in one TCP write: seated once, and gone when it goes [server][security]") {
    TestServer server(short_window());
    Client ann(server.port());
    const std::string code = create_room(ann, spook_options(), "Ann");
    {
        RawClient c(server.port());
        c.open();
        REQUIRE(c.send_bytes(frame(ws::Opcode::text, kHello) +
                             message({{"type", "resume"}, {"room", code}, {"token", std::string(32, '0')}}) +
                             message({{"type", "join_room"}, {"room", code}, {"name", "Cy"}})));
        REQUIRE(read_until(c, "joined"));
    }  // the room's refusal of the resume came after the join was sent: it must not let Cy go
    // Cy's seat is freed when Cy's reconnect window ends (a bot added shows the seats as they are).
    CHECK(metric_becomes(server.port(), "spookludo_connections", 1));
    CHECK(seats_taken_become(server.port(), code, 1));
    ann.send({{"type", "add_bot"}, {"policy", "random"}});
    json room = ann.expect("room");
    while (!taken_seats(room).back()["bot"].get<bool>()) room = ann.expect("room");
    CHECK(taken_seats(room).size() == 2);
}

TEST_CASE("security: HEAD of a record answers the record's headers and length without its body [server][security][http]") {
    TestServer server;
    Client ann(server.port());
    create_room(ann, spook_options(), "Ann");
    ann.send({{"type", "add_bot"}, {"policy", "best"}});
    ann.expect("room");
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "head"}});
    ann.expect("game_started");
    ann.send({{"type", "end_game"}});
    const json over = ann.expect("game_over");
    REQUIRE(over.contains("record"));
    const std::string path = over["record"];
    const auto [status, body] = http_get(server.port(), path);
    REQUIRE(status == 200);

    RawClient c(server.port());
    REQUIRE(c.send_bytes("HEAD " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
    const std::string answer = c.read_to_end();
    const auto end = answer.find("\r\n\r\n");
    REQUIRE(end != std::string::npos);
    CHECK(answer.rfind("HTTP/1.1 200", 0) == 0);
    CHECK(answer.find("Content-Length: " + std::to_string(body.size())) != std::string::npos);
    CHECK(answer.size() == end + 4);  // nothing after the headers
}

// ---- Rooms one address holds open (--max-rooms-per-address) ------------------------------------
namespace {

// These servers keep a dropped creator's lobby open for a minute (as the default two do), with at
// most `per_address` rooms open for one address and `max_rooms` in all.
server::Config rooms_bound(int per_address, int max_rooms, int reconnect_ms = 60000) {
    auto c = TestServer::fast_config();
    c.reconnect_ms = reconnect_ms;
    c.max_rooms = max_rooms;
    c.max_rooms_per_address = per_address;
    return c;
}

// Says hello and asks for a room: the `joined` or the `error` that answers.
json ask_for_room(Client& c) {
    c.hello();
    c.send({{"type", "create_room"}, {"options", spook_options(2)}, {"name", "Ann"}});
    return next_of(c, [](const json& m) { return m["type"] == "joined" || m["type"] == "error"; }, "joined or error");
}

json resume_seat(Client& c, const std::string& room, const std::string& token) {
    c.hello();
    c.send({{"type", "resume"}, {"room", room}, {"token", token}});
    return next_of(c, [](const json& m) { return m["type"] == "joined" || m["type"] == "error"; }, "joined or error");
}

// A closed room's place is given back once the journal has its end (a moment after the last
// person left): asks from a new connection every 20 ms until a room is made (that connection,
// seated) or 5 s pass (nullptr).
std::unique_ptr<Client> room_once_free(std::uint16_t port) {
    const auto deadline = Clock::now() + 5s;
    for (;;) {
        auto c = std::make_unique<Client>(port);
        if (ask_for_room(*c)["type"] == "joined") return c;
        if (Clock::now() > deadline) return nullptr;
        std::this_thread::sleep_for(20ms);
    }
}

}  // namespace

TEST_CASE("security: one address that creates rooms and drops them is refused at its bound of open rooms, and another address still creates one [server][security]") {
    TestServer server(rooms_bound(3, 6));
    // Each creator drops at once: its lobby waits for it (the reconnect window).
    int made = 0;
    json refusal = json::object();
    for (int i = 0; i < 6 && refusal.empty(); ++i) {
        Client c(server.port());
        const json answer = ask_for_room(c);
        if (answer["type"] == "joined") ++made;
        else refusal = answer;
    }
    CHECK(made == 3);
    CHECK(refusal.value("code", "") == "server_full");
    CHECK(refusal.value("ref", "") == "create_room");
    const std::string text = refusal.value("message", "");
    CHECK_MESSAGE(text.find("holds 3 open rooms") != std::string::npos, text);
    // Its rooms stay (their creators may come back); another address still gets a room.
    Client other(server.port(), "/ws", "127.0.0.2");
    const json answer = ask_for_room(other);
    CHECK(answer["type"] == "joined");
    CHECK_MESSAGE(answer.value("code", "") == "", answer.dump());
    CHECK(metric_becomes(server.port(), "spookludo_rooms", made + 1));
}

TEST_CASE("security: a host whose address holds its bound of rooms takes its dropped room back with its token [server][security]") {
    TestServer server(rooms_bound(2, 100));
    std::string code, token;
    {
        Client ann(server.port());
        const json joined = ask_for_room(ann);
        REQUIRE(joined["type"] == "joined");
        code = joined["room"];
        token = joined["token"];
    }  // Ann's client is lost
    Client ben(server.port());
    REQUIRE(ask_for_room(ben)["type"] == "joined");
    Client cy(server.port());
    CHECK(ask_for_room(cy).value("code", "") == "server_full");  // the address holds its 2 rooms
    // The same command again, from the same address: Ann's seat, her room, still its host.
    Client back(server.port());
    const json joined = resume_seat(back, code, token);
    REQUIRE_MESSAGE(joined["type"] == "joined", joined.dump());
    CHECK(joined["room"] == code);
    CHECK(joined["seat"] == 0);
    CHECK(joined["host"] == true);
    room_where(back, [](const json& r) { return r["seats"][0].value("connected", false); }, "Ann connected again");
    CHECK(metric(server.port(), "spookludo_rooms") == 2);
}

TEST_CASE("security: a room that closes no longer counts against the address that created it [server][security]") {
    TestServer server(rooms_bound(2, 100, 500));
    Client ann(server.port());
    REQUIRE(ask_for_room(ann)["type"] == "joined");
    Client ben(server.port());
    REQUIRE(ask_for_room(ben)["type"] == "joined");
    {
        Client cy(server.port());
        CHECK(ask_for_room(cy).value("code", "") == "server_full");
    }
    // Ann leaves: her room closes, and the address may open another.
    ann.send({{"type", "leave"}});
    auto dan = room_once_free(server.port());
    CHECK(dan);
    // Ben's client is lost and does not come back within the window: that lobby closes too.
    ben.close();
    auto eve = room_once_free(server.port());
    CHECK(eve);
    CHECK(metric_becomes(server.port(), "spookludo_rooms", 2));
}

TEST_CASE("security: rooms taken up again after a restart count against the address that created them [server][security][journal]") {
    const auto config = rooms_bound(2, 100);
    std::string code, token;
    {
        TestServer before(config);
        before.keep_data_dir();
        Client ann(before.port());
        const json joined = ask_for_room(ann);
        REQUIRE(joined["type"] == "joined");
        code = joined["room"];
        token = joined["token"];
        Client ben(before.port());
        REQUIRE(ask_for_room(ben)["type"] == "joined");
        before.shutdown();  // the rooms are saved for the next start
    }
    TestServer after(config);
    REQUIRE(metric(after.port(), "spookludo_rooms") == 2);
    Client cy(after.port());
    CHECK(ask_for_room(cy).value("code", "") == "server_full");
    Client other(after.port(), "/ws", "127.0.0.2");
    CHECK(ask_for_room(other)["type"] == "joined");
    Client back(after.port());
    const json joined = resume_seat(back, code, token);
    CHECK_MESSAGE(joined["type"] == "joined", joined.dump());
}

TEST_CASE("security: a request over the size limits is answered 414, 431 or 413 with the reason and closed, a malformed one 400, never a reset [server][security][http]") {
    TestServer server;
    // What the server answers to `request` before it closes the connection.
    auto answer_to = [&](const std::string& request) {
        RawClient c(server.port());
        REQUIRE(c.send_bytes(request));
        const auto started = std::chrono::steady_clock::now();
        std::string answer = c.read_to_end(5s);
        CHECK(c.ended());
        CHECK(std::chrono::steady_clock::now() - started < 3s);
        return answer;
    };
    // A 10 KB name in /players/...: the request line alone is over the 8 KB.
    std::string answer = answer_to("GET /players/" + std::string(10 * 1024, 'n') + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    INFO(answer.substr(0, 300));
    CHECK(answer.rfind("HTTP/1.1 414 ", 0) == 0);
    CHECK(answer.find("Connection: close") != std::string::npos);
    CHECK(answer.find("the request line must end within 8192 bytes") != std::string::npos);
    // A short request line with 10 KB of header fields.
    answer = answer_to("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + std::string(10 * 1024, 'c') + "\r\n\r\n");
    CHECK(answer.rfind("HTTP/1.1 431 ", 0) == 0);
    CHECK(answer.find("header fields are too large") != std::string::npos);
    // A body over the 8 KB, sent with its request.
    answer = answer_to("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 9000\r\n\r\n" + std::string(9000, 'b'));
    CHECK(answer.rfind("HTTP/1.1 413 ", 0) == 0);
    CHECK(answer.find("body is too large: at most 8192 bytes") != std::string::npos);
    // Not HTTP at all.
    answer = answer_to("GET /healthz HTTP/9\r\n\r\n");
    CHECK(answer.rfind("HTTP/1.1 400 ", 0) == 0);
    CHECK(answer.find("not a well-formed HTTP/1.1 request") != std::string::npos);
    // The server goes on.
    CHECK(http_get(server.port(), "/healthz").first == 200);
}

TEST_CASE("security: the token buckets by address keep at most their bound of addresses, the least recently used forgotten first [server][security]") {
    server::AddressBuckets buckets(2, 1, 3);  // 2 tokens, 1 a second, 3 addresses
    const auto now = std::chrono::steady_clock::now();
    CHECK_FALSE(buckets.take("a", 2, now));
    REQUIRE(buckets.take("a", 1, now));  // empty: refused, with when it has one again
    CHECK(*buckets.take("a", 1, now) == std::chrono::seconds(1));
    CHECK_FALSE(buckets.take("a", 1, now + std::chrono::seconds(1)));  // refilled
    CHECK_FALSE(buckets.take("b", 2, now));
    CHECK_FALSE(buckets.take("c", 2, now));
    CHECK(buckets.take("b", 1, now));  // "b" used last, "a" the least recently
    CHECK_FALSE(buckets.take("d", 1, now));
    CHECK(buckets.addresses() == 3);
    CHECK(buckets.take("b", 1, now));       // kept, still empty
    CHECK_FALSE(buckets.take("a", 2, now));  // forgotten: a new, full bucket
    for (int i = 0; i < 100; ++i) CHECK_FALSE(buckets.take("new " + std::to_string(i), 1, now));
    CHECK(buckets.addresses() == 3);
}

TEST_CASE("security: once the server has said close, a client that keeps sending cannot keep the connection or make it hold memory [server][security]") {
    // Before: each ping, pong or message over the rate after the close counted as another bad
    // message, closed again (the hang-up timer armed anew: never hung up while they came), left
    // the rest of each read in the reader (hundreds of MB) and logged a line per read.
    const auto config = default_rate();
    LogCapture log;
    TestServer server(config);
    SUBCASE("80 pings at once") {
        flood_after_close(server.port(), log, times(80, frame(ws::Opcode::ping, "")), ws::kClosePolicy,
                          "too many bad messages");
    }
    SUBCASE("80 pongs at once") {
        flood_after_close(server.port(), log, times(80, frame(ws::Opcode::pong, "")), ws::kClosePolicy,
                          "too many bad messages");
    }
    SUBCASE("80 messages at once, over the rate") {
        flood_after_close(server.port(), log, frame(ws::Opcode::text, kHello) + times(80, message({{"type", "ping"}, {"t", 1}})),
                          ws::kClosePolicy,
                          "too many bad messages");
    }
    SUBCASE("20 bad messages") {
        flood_after_close(server.port(), log, times(20, frame(ws::Opcode::binary, "\x01")), ws::kClosePolicy,
                          "too many bad messages");
    }
    SUBCASE("a protocol failure") {
        flood_after_close(server.port(), log, frame(ws::Opcode::text, kHello, true, nullptr), ws::kCloseProtocolError,
                          "a client's frames must be masked");
    }
    SUBCASE("a message over 4096 bytes") {
        flood_after_close(server.port(), log, std::string(ws::frame_header(ws::Opcode::text, 5000, &kMask).view()),
                          ws::kCloseTooBig, "a frame over 4096 bytes");
    }
    another_connection_works(server.port());
}

TEST_CASE("security: over TLS too, pings after the server's close neither keep the connection nor make it hold memory [server][security][tls]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    auto config = default_rate();
    config.tls_cert = certs.cert;
    config.tls_key = certs.key;
    LogCapture log;
    TestServer server(config);
    const TlsClientOptions tls{certs.ca};
    flood_after_close(server.port(), log, times(80, frame(ws::Opcode::ping, "")), ws::kClosePolicy,
                      "too many bad messages", &tls);
}

TEST_CASE("security: the client's close frame behind a megabyte of frames sent after the server's close ends the connection at once [server][security]") {
    auto config = default_rate();
    LogCapture log;
    TestServer server(config);
    // Before, the frames were taken one a read, and the close frame waited behind them until the
    // close wait (2 s) ran out. That wait starts after the server's close, whose log line says
    // when: a hang-up before it could end is the client's close frame's doing, however long a
    // loaded machine took. A try that hung up too late to tell is made again (three at most).
    const std::string closed_line = "too many bad messages; closed";
    bool told = false;
    for (int attempt = 1; attempt <= 3 && !told; ++attempt) {
        CAPTURE(attempt);
        const std::size_t before = log.times_of(closed_line).size();
        RawClient c(server.port());
        c.open();
        REQUIRE(c.send_bytes(times(80, frame(ws::Opcode::ping, ""))));
        const std::string burst = after_close_burst();
        for (int i = 0; i < 16; ++i) REQUIRE(c.send_bytes(burst));
        REQUIRE(c.send_bytes(close_frame(ws::kCloseNormal)));
        const auto sent = Clock::now();
        // The server's end of stream comes with its close frame (it sends nothing more); it has
        // hung up when what the client sends is refused. A ping every 10 ms asks.
        bool hung_up = false;
        while (!hung_up && Clock::now() - sent < 5s) {
            std::this_thread::sleep_for(10ms);
            hung_up = !c.send_bytes(frame(ws::Opcode::ping, ""));
        }
        const auto hung_up_at = Clock::now();
        REQUIRE_MESSAGE(hung_up, "the server did not hang up after the client's close frame");
        const auto closed_at = log.times_of(closed_line);
        REQUIRE(closed_at.size() == before + 1);
        const auto after_close = std::chrono::duration_cast<std::chrono::milliseconds>(hung_up_at - closed_at.back());
        MESSAGE("hung up ", std::chrono::duration_cast<std::chrono::milliseconds>(hung_up_at - sent).count(),
                " ms after the client's close frame, ", after_close.count(), " ms after the server's close");
        told = after_close < kCloseWait;
        CHECK(c.wait_closed());
        const auto close = std::find_if(c.after.begin(), c.after.end(), [](const Frame& f) { return f.opcode == ws::Opcode::close; });
        REQUIRE(close != c.after.end());
        CHECK(code_of(close->payload) == ws::kClosePolicy);
        CHECK(close + 1 == c.after.end());
    }
    CHECK_MESSAGE(told, "every try hung up after the server's close wait could have ended");
}
