// `spookludo verify` of a record's address (issue #15, item 19): the address a game ends with,
// http://HOST:PORT/records/<id>, is one command away from a verdict. The real server binary, a
// bot game played on it, and the client binary; the errors a person can meet, each in words.
#include <doctest/doctest.h>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "process_util.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;

namespace {

const std::string kServer = SPOOKLUDO_SERVER_BINARY;
const std::string kClient = SPOOKLUDO_CLIENT_BINARY;

// The server binary on a free loopback port with a fresh data directory.
class Server : public ServerProcess {
public:
    Server() : ServerProcess(kServer, "spookludo-verify-url") { start(); }
    std::string http() const { return "http://127.0.0.1:" + std::to_string(port()); }
    std::string ws() const { return "ws://127.0.0.1:" + std::to_string(port()); }
};

using Run = Finished;

Run run(const TempDir& dir, const std::string& label, std::vector<std::string> args) {
    args.insert(args.begin(), kClient);
    return run_to_end(std::move(args), dir, label, 30s);
}

// A one-player Spook game of bots to its end; the game id from "game_over ID finished record ...".
std::string play_a_game(Server& server) {
    const Run bot = run(server.dir(), "bot", {"bot", server.ws(), "--create", "spook", "--players", "1", "--pieces", "1",
                                              "--count", "1", "--policy", "best", "--start", "--quiet"});
    INFO(bot.described);
    REQUIRE(bot.status == 0);
    const std::string id = line_word(bot.out, "game_over ");
    REQUIRE_FALSE(id.empty());
    return id;
}

// A loopback HTTP server that answers one request with `answer`, then closes.
class OneAnswer {
public:
    explicit OneAnswer(std::string answer) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        socklen_t len = sizeof addr;
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
        REQUIRE(::listen(fd_, 4) == 0);
        thread_ = std::thread([this, answer = std::move(answer)] {
            const int c = ::accept(fd_, nullptr, nullptr);
            if (c < 0) return;
            char buf[4096];
            (void)::read(c, buf, sizeof buf);  // the request (one read is enough on loopback)
            for (std::size_t sent = 0; sent < answer.size();) {
                const auto n = ::write(c, answer.data() + sent, answer.size() - sent);
                if (n <= 0) break;
                sent += static_cast<std::size_t>(n);
            }
            // Keep the connection open a moment: the client must stop reading by itself.
            for (int i = 0; i < 50 && !done_; ++i) ::usleep(20000);
            ::close(c);
        });
    }
    ~OneAnswer() {
        done_ = true;
        ::shutdown(fd_, SHUT_RDWR);
        thread_.join();
        ::close(fd_);
    }
    std::string url(const std::string& target) const { return "http://127.0.0.1:" + std::to_string(port_) + target; }

private:
    int fd_ = -1;
    std::uint16_t port_ = 0;
    std::atomic<bool> done_{false};
    std::thread thread_;
};

}  // namespace

TEST_CASE("verify URL: the record's address on the real server verifies (exit 0, VERIFIED: the address), as its file does [cli][verify]") {
    Server server;
    const std::string id = play_a_game(server);
    const std::string url = server.http() + "/records/" + id;
    const Run v = run(server.dir(), "verify-url", {"verify", url});
    INFO(v.described);
    CHECK(v.status == 0);
    CHECK(v.out.find("  ok    seed: the revealed server seed matches the commitment") != std::string::npos);
    CHECK(v.out.find("VERIFIED: " + url + " (spook, 1 player, finished)") != std::string::npos);
    CHECK(v.err.empty());
    // The same verdict as the file in the server's data directory.
    const Run f = run(server.dir(), "verify-file", {"verify", "--quiet", server.record_file(id)});
    INFO(f.described);
    CHECK(f.status == 0);
    CHECK(f.out.find("VERIFIED: " + server.record_file(id)) != std::string::npos);
}

TEST_CASE("verify URL: an unknown record (404), a body that is not a record, https:// to a plain server and a refused connection: exit 2 and why in words [cli][verify][errors]") {
    Server server;
    SUBCASE("404") {
        const Run v = run(server.dir(), "verify-404", {"verify", server.http() + "/records/NOSUCH-1"});
        INFO(v.described);
        CHECK(v.status == 2);
        CHECK(v.err.find("spookludo verify: no record at " + server.http() + "/records/NOSUCH-1 (HTTP 404") !=
              std::string::npos);
    }
    SUBCASE("not a record") {
        const Run v = run(server.dir(), "verify-healthz", {"verify", server.http() + "/healthz"});
        INFO(v.described);
        CHECK(v.status == 2);
        CHECK(v.err.find(server.http() + "/healthz is not a readable game record") != std::string::npos);
    }
    SUBCASE("https to a plain server") {
        const std::string url = "https" + server.http().substr(4) + "/records/KQZTM-1";
        const Run v = run(server.dir(), "verify-https", {"verify", url});
        INFO(v.described);
        CHECK(v.status == 2);
        CHECK(v.err.find("spookludo verify: cannot fetch " + url + ": ") != std::string::npos);
        CHECK(v.err.find("a server without a certificate is reached with " + server.http() + "/records/KQZTM-1") !=
              std::string::npos);
    }
    SUBCASE("refused") {
        ClosedPort closed;
        const std::string url = "http://127.0.0.1:" + std::to_string(closed.port()) + "/records/KQZTM-1";
        const Run v = run(server.dir(), "verify-refused", {"verify", url});
        INFO(v.described);
        CHECK(v.status == 2);
        CHECK(v.err.find("spookludo verify: cannot fetch " + url + ": connection refused") != std::string::npos);
    }
    SUBCASE("a bad address") {
        const Run v = run(server.dir(), "verify-bad-port", {"verify", "http://127.0.0.1:99999/records/KQZTM-1"});
        INFO(v.described);
        CHECK(v.status == 2);
        CHECK(v.err.find("must be a number from 1 to 65535") != std::string::npos);
    }
}

TEST_CASE("verify URL: an answer over 64 MB is refused before it is read, and another HTTP status is named: exit 2 [cli][verify][errors]") {
    TempDir dir("spookludo-verify-big");
    {
        OneAnswer huge("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n{\"version\":");
        const Run v = run(dir, "verify-huge", {"verify", huge.url("/records/KQZTM-1")});
        INFO(v.described);
        CHECK(v.status == 2);
        CHECK(v.err.find("larger than 64 MB: not a game record") != std::string::npos);
    }
    {
        OneAnswer busy("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy");
        const Run v = run(dir, "verify-503", {"verify", busy.url("/records/KQZTM-1")});
        INFO(v.described);
        CHECK(v.status == 2);
        CHECK(v.err.find("the server answered HTTP 503") != std::string::npos);
    }
}
