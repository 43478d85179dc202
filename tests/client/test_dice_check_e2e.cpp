// Every player's own client checks the dice (client/dice_check.h), against the real server over
// loopback with the real client binary: an honest game ends with "fair" and the count (Spook and
// Ludo, play against bots, watch, bot's line for programs), a watch that joined mid-game says
// how many it checked, and a relay between a client and the server that changes one die, or the
// revealed seed, makes that client say the dice are not fair and name what does not match.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/e2e_server.h"
#include "process_util.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// A loopback TCP relay between a client and the real server that lets a test change what the
// server says. Frames from a server are not masked, so the relay reads each text message,
// hands it to `rewrite` as JSON and frames it again when it changed. The client's handshake
// loses any Sec-WebSocket-Extensions offer, so that no message comes compressed; an answer that
// is not 101 (the record's plain HTTP) passes as it is.
class TamperingRelay {
public:
    using Rewrite = std::function<bool(json&)>;  // true when it changed the message

    TamperingRelay(int server_port, Rewrite rewrite) : server_port_(server_port), rewrite_(std::move(rewrite)) {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        REQUIRE(::listen(listener_, 16) == 0);
        socklen_t len = sizeof addr;
        REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
        port_ = ntohs(addr.sin_port);
        acceptor_ = std::thread([this] { accept_loop(); });
    }
    ~TamperingRelay() {
        stop_ = true;
        ::shutdown(listener_, SHUT_RDWR);
        if (acceptor_.joinable()) acceptor_.join();
        std::lock_guard lock(mutex_);
        for (auto& t : relays_)
            if (t.joinable()) t.join();
        ::close(listener_);
    }
    std::string url() const { return "ws://127.0.0.1:" + std::to_string(port_); }
    int changed() const { return changed_; }

private:
    void accept_loop() {
        for (;;) {
            const int fd = ::accept(listener_, nullptr, nullptr);
            if (fd < 0) return;
            std::lock_guard lock(mutex_);
            relays_.emplace_back([this, fd] { relay(fd); });
        }
    }

    static bool send_all(int fd, const std::string& bytes) {
        for (std::size_t done = 0; done < bytes.size();) {
            const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
            if (n <= 0) return false;
            done += static_cast<std::size_t>(n);
        }
        return true;
    }

    // The frame for a text message from a server (FIN, no mask).
    static std::string text_frame(const std::string& payload) {
        std::string f(1, '\x81');
        const std::size_t n = payload.size();
        if (n < 126) {
            f += static_cast<char>(n);
        } else if (n < 65536) {
            f += '\x7e';
            f += static_cast<char>((n >> 8) & 0xff);
            f += static_cast<char>(n & 0xff);
        } else {
            f += '\x7f';
            for (int shift = 56; shift >= 0; shift -= 8) f += static_cast<char>((n >> shift) & 0xff);
        }
        return f + payload;
    }

    // Whole frames from the server's bytes, each passed on (a text message through rewrite_);
    // what is left is an incomplete frame.
    void pass_frames(std::string& in, int to) {
        for (;;) {
            if (in.size() < 2) return;
            const auto b0 = static_cast<unsigned char>(in[0]), b1 = static_cast<unsigned char>(in[1]);
            std::size_t header = 2, length = b1 & 0x7f;
            if (length == 126) {
                if (in.size() < 4) return;
                length = (static_cast<std::size_t>(static_cast<unsigned char>(in[2])) << 8) |
                         static_cast<unsigned char>(in[3]);
                header = 4;
            } else if (length == 127) {
                if (in.size() < 10) return;
                length = 0;
                for (int i = 2; i < 10; ++i)
                    length = (length << 8) | static_cast<unsigned char>(in[static_cast<std::size_t>(i)]);
                header = 10;
            }
            if (in.size() < header + length) return;
            std::string frame = in.substr(0, header + length);
            in.erase(0, header + length);
            if (b0 == 0x81 && (b1 & 0x80) == 0) {
                json message = json::parse(frame.substr(header), nullptr, false);
                if (!message.is_discarded() && rewrite_(message)) {
                    frame = text_frame(message.dump());
                    ++changed_;
                }
            }
            if (!send_all(to, frame)) return;
        }
    }

    void relay(int client) {
        const int server = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(static_cast<std::uint16_t>(server_port_));
        if (::connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            ::close(server);
            ::close(client);
            return;
        }
        // Each message on its way at once, as the real ends send them (no Nagle delay per frame).
        const int one = 1;
        ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        ::setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        std::string up, down;
        bool up_open = false, down_open = false, framed = false;
        pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
        char buf[16384];
        while (!stop_) {
            if (::poll(fds, 2, 50) < 0) break;
            bool closed = false;
            for (int i = 0; i < 2; ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                const ssize_t n = ::recv(fds[i].fd, buf, sizeof buf, 0);
                if (n <= 0) {
                    closed = true;
                    break;
                }
                (i == 0 ? up : down).append(buf, static_cast<std::size_t>(n));
            }
            if (closed) break;
            // The client's request: without an extension offer.
            if (!up_open) {
                if (const auto end = up.find("\r\n\r\n"); end != std::string::npos) {
                    std::string head = up.substr(0, end + 2), rest = up.substr(end + 4), kept;
                    for (std::size_t at = 0; at < head.size();) {
                        const auto eol = head.find("\r\n", at);
                        const std::string line = head.substr(at, eol - at);
                        std::string lower = line;
                        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                        if (lower.rfind("sec-websocket-extensions:", 0) != 0) kept += line + "\r\n";
                        at = eol + 2;
                    }
                    up = kept + "\r\n" + rest;
                    up_open = true;
                }
            }
            if (up_open && !up.empty()) {
                if (!send_all(server, up)) break;
                up.clear();
            }
            // The server's answer: a 101 then frames, or plain HTTP.
            if (!down_open) {
                if (const auto end = down.find("\r\n\r\n"); end != std::string::npos) {
                    framed = down.rfind("HTTP/1.1 101", 0) == 0;
                    if (!send_all(client, down.substr(0, end + 4))) break;
                    down.erase(0, end + 4);
                    down_open = true;
                }
            }
            if (down_open) {
                if (framed) {
                    pass_frames(down, client);
                } else if (!down.empty()) {
                    if (!send_all(client, down)) break;
                    down.clear();
                }
            }
        }
        ::close(server);
        ::close(client);
    }

    int server_port_;
    Rewrite rewrite_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<int> changed_{0};
    std::thread acceptor_;
    std::mutex mutex_;
    std::vector<std::thread> relays_;
};

SpawnOptions piped(const std::string& state_home) {
    SpawnOptions o;
    o.stdin_pipe = true;
    o.env = {{"NO_COLOR", std::nullopt}, {"XDG_STATE_HOME", state_home}};
    return o;
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

const std::string kPrompt = "Type the number of your choice and Enter.\n";

// Answers every decision of a `play` on a pipe with 1 until it ends (`answered`: those it had
// answered before).
void answer_until_the_end(Process& play, std::size_t answered = 0) {
    const std::string& prompt = kPrompt;
    const auto deadline = std::chrono::steady_clock::now() + patience(60s);
    while (play.running() && std::chrono::steady_clock::now() < deadline) {
        play.wait_for(
            [&](const std::string& s) {
                return count_of(s, prompt) > answered || s.find("spookludo verify") != std::string::npos;
            },
            200ms);
        for (const auto asked = count_of(play.out(), prompt); answered < asked; ++answered) play.write("1\n");
    }
}

// Answers the decisions of a Spook `play` on a pipe with 1 until one comes in round `round` or
// later, which it leaves open: the game waits for it. Returns how many it answered.
std::size_t answer_until_round(Process& play, int round) {
    const std::string marker = "Round " + std::to_string(round) + ": the die shows";
    std::size_t answered = 0;
    const auto deadline = std::chrono::steady_clock::now() + patience(60s);
    for (;;) {
        const std::string out = play.out();
        const auto asked = count_of(out, kPrompt);
        const auto at = out.find(marker);
        if (at != std::string::npos && asked > answered && out.rfind(kPrompt) > at) return answered;
        REQUIRE_MESSAGE(play.running(), play.describe());
        REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, play.describe());
        for (; answered < asked; ++answered) play.write("1\n");
        play.wait_for([&](const std::string& s) { return count_of(s, kPrompt) > answered; }, 200ms);
    }
}

// "All 57 dice checked: fair." -> 57 (0 when the line is not there).
int all_fair_count(const std::string& out) {
    std::smatch m;
    static const std::regex line("All ([0-9]+) dice checked: fair\\.");
    return std::regex_search(out, m, line) ? std::stoi(m[1]) : 0;
}

// The dice of a game as its record has them (every draw but the Spook boards' deal).
int record_dice(Server& server, const std::string& game_id) {
    const json record = json::parse(read_file(server.record_file(game_id)));
    int n = 0;
    for (const auto& d : record.at("draws"))
        if (d.at("purpose") != "assignment") ++n;
    return n;
}

// The room a `play --create` on a pipe made, once it is in it.
std::string create_room(Process& play) {
    REQUIRE_MESSAGE(play.wait_for_text("You are in room ", patience(10s)), play.describe());
    std::string room = word_after(play.out(), "You are in room ");
    if (!room.empty() && room.back() == ',') room.pop_back();
    REQUIRE(room.size() == 5);
    return room;
}

}  // namespace

TEST_CASE(
    "dice check e2e: an honest Spook game, played against a bot and watched from the start, ends on both screens with "
    "'All N dice checked: fair' and N is every die of the record [e2e][dice][play][watch]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann",
                             {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann", "--once",
                              "--decision-ms", "20000", "--pace-ms", "0"},
                             piped(state / "ann"));
    const std::string room = create_room(*ann);
    auto sam = server.client("sam", {"watch", server.url(), "--room", room, "--once"}, piped(state / "sam"));
    REQUIRE_MESSAGE(sam->wait_for_text("You are watching room " + room, patience(10s)), sam->describe());
    ann->write("b");
    REQUIRE_MESSAGE(ann->wait_for_text("a best bot takes seat 2", patience(10s)), ann->describe());
    ann->write("s");
    answer_until_the_end(*ann);
    CHECK_MESSAGE(ann->wait(patience(10s)) == 0, ann->describe());
    CHECK_MESSAGE(sam->wait(patience(10s)) == 0, sam->describe());
    const std::string id =
        line_word(ann->out(), "The game record: http://127.0.0.1:" + std::to_string(server.port()) + "/records/");
    REQUIRE_FALSE(id.empty());
    const int dice = record_dice(server, id);
    CHECK(dice >= 2);
    CHECK_MESSAGE(all_fair_count(ann->out()) == dice, ann->describe());
    CHECK_MESSAGE(all_fair_count(sam->out()) == dice, sam->describe());
    CHECK(ann->out().find("This client recomputed every die and the boards' deal from the seeds") != std::string::npos);
    server.stop();
}

TEST_CASE(
    "dice check e2e: an honest Ludo game, played against a bot process and watched from the start: play and watch say "
    "'All N dice checked: fair', the bot prints 'dice_check ID fair N N' [e2e][dice][play][watch][bot]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann",
                             {"play", server.url(), "--create", "ludo", "--arm", "6", "--players", "2", "--name", "Ann",
                              "--once", "--decision-ms", "20000", "--pace-ms", "0"},
                             piped(state / "ann"));
    const std::string room = create_room(*ann);
    auto sam = server.client("sam", {"watch", server.url(), "--room", room, "--once"}, piped(state / "sam"));
    REQUIRE_MESSAGE(sam->wait_for_text("You are watching room " + room, patience(10s)), sam->describe());
    auto bot =
        server.client("bot", {"bot", server.url(), "--room", room, "--count", "1", "--policy", "greedy", "--quiet"});
    REQUIRE_MESSAGE(ann->wait_for_text("bot-1", patience(10s)), ann->describe());
    ann->write("s");
    answer_until_the_end(*ann);
    CHECK_MESSAGE(ann->wait(patience(10s)) == 0, ann->describe());
    CHECK_MESSAGE(sam->wait(patience(10s)) == 0, sam->describe());
    CHECK_MESSAGE(bot->wait(patience(10s)) == 0, bot->describe());
    const std::string id = line_word(bot->out(), "game_over ");
    REQUIRE_FALSE(id.empty());
    const int dice = record_dice(server, id);
    CHECK(dice >= 2);
    CHECK_MESSAGE(all_fair_count(ann->out()) == dice, ann->describe());
    CHECK_MESSAGE(all_fair_count(sam->out()) == dice, sam->describe());
    const std::string n = std::to_string(dice);
    CHECK_MESSAGE(bot->out().find("dice_check " + id + " fair " + n + " " + n + "\n") != std::string::npos,
                  bot->describe());
    server.stop();
}

TEST_CASE(
    "dice check e2e: a watch that joined mid-game says how many of the game's dice it checked, the round it joined at, "
    "and that they are fair [e2e][dice][watch][late]") {
    Server server;
    TempDir state("spookludo-state");
    // Ann plays against a bot process; the game waits for her choice of round 3 or later while
    // Sam comes in (a game of bots alone could be over before a loaded machine has started him).
    auto ann = server.client("ann",
                             {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                              "--once", "--decision-ms", "60000", "--pace-ms", "0"},
                             piped(state / "ann"));
    const std::string room = create_room(*ann);
    auto bot =
        server.client("bot", {"bot", server.url(), "--room", room, "--count", "1", "--policy", "greedy", "--quiet"});
    REQUIRE_MESSAGE(ann->wait_for_text("bot-1", patience(10s)), ann->describe());
    ann->write("s");
    const std::size_t answered = answer_until_round(*ann, 3);
    auto sam = server.client("sam", {"watch", server.url(), "--room", room, "--once"}, piped(state / "sam"));
    REQUIRE_MESSAGE(sam->wait_for_text("You are watching room " + room, patience(10s)), sam->describe());
    answer_until_the_end(*ann, answered);
    CHECK_MESSAGE(ann->wait(patience(10s)) == 0, ann->describe());
    CHECK_MESSAGE(sam->wait(patience(30s)) == 0, sam->describe());
    CHECK_MESSAGE(bot->wait(patience(10s)) == 0, bot->describe());
    const std::string id = line_word(bot->out(), "game_over ");
    REQUIRE_FALSE(id.empty());
    const int dice = record_dice(server, id);
    // The bot saw it all; the watch, from the round it came.
    CHECK_MESSAGE(bot->out().find("dice_check " + id + " fair " + std::to_string(dice) + " " + std::to_string(dice)) !=
                      std::string::npos,
                  bot->describe());
    std::smatch m;
    const std::string out = sam->out();
    REQUIRE_MESSAGE(
        std::regex_search(
            out, m, std::regex("([0-9]+) of ([0-9]+) dice checked: this screen joined at round ([0-9]+); all fair\\.")),
        sam->describe());
    const int checked = std::stoi(m[1]), total = std::stoi(m[2]), round = std::stoi(m[3]);
    CHECK(total == dice);
    CHECK(round >= 3);
    CHECK(checked < total);
    CHECK(checked >= total - 2 * (round - 1) - 1);  // every die from its round on
    CHECK(out.find("The client seeds and the other dice come from the game's record") != std::string::npos);
    server.stop();
}

TEST_CASE(
    "dice check e2e: a relay that changes round 2's activation die on its way to the player makes play say that die "
    "was not the seeds' and name both faces [e2e][dice][play][tamper]") {
    Server server;
    TempDir state("spookludo-state");
    std::atomic<int> real{0}, shown{0};  // written on the relay's thread
    TamperingRelay relay(server.port(), [&](json& m) {
        if (m.value("type", "") != "activation" || m.value("round", 0) != 2) return false;
        real = m.at("face").get<int>();
        shown = real % 6 + 1;
        m["face"] = shown.load();
        return true;
    });
    auto ann = server.client("ann",
                             {"play", relay.url(), "--create", "spook", "--players", "2", "--name", "Ann", "--once",
                              "--decision-ms", "20000", "--pace-ms", "0"},
                             piped(state / "ann"));
    create_room(*ann);
    ann->write("b");
    REQUIRE_MESSAGE(ann->wait_for_text("a best bot takes seat 2", patience(10s)), ann->describe());
    ann->write("s");
    answer_until_the_end(*ann);
    CHECK_MESSAGE(ann->wait(patience(10s)) == 0, ann->describe());
    REQUIRE(relay.changed() == 1);
    const std::string out = ann->out();
    INFO(ann->describe());
    CHECK(out.find("Round 2's activation die was " + std::to_string(shown.load()) + ", the seeds give " +
                   std::to_string(real.load()) + ": this game's dice are not the fair stream.") != std::string::npos);
    CHECK(out.find("so this game's dice cannot be trusted") != std::string::npos);
    CHECK(all_fair_count(out) == 0);
    server.stop();
}

TEST_CASE(
    "dice check e2e: a relay that changes the revealed server seed makes a bot say the seed does not match the "
    "commitment, in its line for programs too [e2e][dice][bot][tamper]") {
    Server server;
    TamperingRelay relay(server.port(), [](json& m) {
        if (m.value("type", "") != "game_over" || !m.contains("server_seed")) return false;
        std::string seed = m.at("server_seed").get<std::string>();
        seed[0] = seed[0] == '0' ? '1' : '0';  // one hex digit
        m["server_seed"] = seed;
        return true;
    });
    auto bot = server.run("bot",
                          {"bot", relay.url(), "--create", "ludo", "--arm", "6", "--players", "2", "--count", "2",
                           "--policy", "greedy", "--start"},
                          patience(30s));
    INFO(bot->describe());
    CHECK(bot->status() == 0);
    CHECK(relay.changed() >= 1);
    const std::string id = line_word(bot->out(), "game_over ");
    REQUIRE_FALSE(id.empty());
    CHECK(bot->out().find("The revealed server seed does not match the commitment published before the game") !=
          std::string::npos);
    CHECK(bot->out().find("dice_check " + id + " commitment_mismatch 0 0\n") != std::string::npos);
    server.stop();
}
