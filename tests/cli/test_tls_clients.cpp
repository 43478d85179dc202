// The clients over TLS (issue #16): `spookludo bot|play|watch` on wss://, `spookludo verify` of
// an https:// record and `spookludo-load` against a TLS server, the real binaries against the
// real server serving a certificate from a CA made here at run time (tests/tls/certificates.h).
// A certificate that fails the check is refused with its own reason and what to do, exit 2,
// and never answered by a fall-back to plain text.
#include <doctest/doctest.h>

#include <signal.h>

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "process_util.h"
#include "tls/certificates.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;

namespace {

const std::string kServer = SPOOKLUDO_SERVER_BINARY;
const std::string kClient = SPOOKLUDO_CLIENT_BINARY;

// The server binary on a free loopback port, serving TLS with `spec`'s certificate (or plain).
class Server : public ServerProcess {
public:
    explicit Server(std::optional<CertificateSpec> spec = CertificateSpec{})
        : ServerProcess(kServer, "spookludo-tls-clients") {
        if (!spec) {
            start();
            return;
        }
        certs_ = std::make_unique<Certificates>(dir().path(), *spec);
        start({"--tls-cert", certs_->cert, "--tls-key", certs_->key});
    }
    std::string wss(const std::string& host = "localhost") const { return "wss://" + host + ":" + std::to_string(port()); }
    std::string ws() const { return "ws://127.0.0.1:" + std::to_string(port()); }
    std::string https(const std::string& host = "localhost") const {
        return "https://" + host + ":" + std::to_string(port());
    }
    const std::string& ca() const { return certs_->ca; }

private:
    std::unique_ptr<Certificates> certs_;
};

Finished client(const Server& server, const std::string& label, std::vector<std::string> args,
                std::chrono::milliseconds timeout = 30s) {
    args.insert(args.begin(), kClient);
    return run_to_end(std::move(args), server.dir(), label, timeout);
}

// A bot that tries to create a room at `url` (and fails before it has one).
Finished try_bot(const Server& server, const std::string& label, const std::string& url,
                 std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"bot", url, "--create", "spook", "--players", "1", "--count", "1", "--start",
                                  "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return client(server, label, args, 20s);
}

std::string bench_load() {
    const std::string all = SPOOKLUDO_BENCH_BINARIES;
    for (std::size_t at = 0; at < all.size();) {
        const auto end = all.find(':', at);
        const std::string path = all.substr(at, end - at);
        const std::string name = "/spookludo-load";
        if (path.size() > name.size() && path.compare(path.size() - name.size(), name.size(), name) == 0) return path;
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return {};
}

}  // namespace

TEST_CASE("tls clients: a bot game over wss:// with --ca-file plays to its end, a spectator follows it, and its record fetched over https:// verifies [cli][tls]") {
    Server server;
    // The spectator needs the room's code: the host bot waits for a second seat, the spectator
    // comes in, then a second bot process fills the seat and the host starts the full room.
    SpawnOptions o;
    o.stdout_file = server.dir() / "host.out";
    o.stderr_file = server.dir() / "host.err";
    Process host({kClient, "bot", server.wss(), "--ca-file", server.ca(), "--create", "spook", "--players", "2",
                  "--pieces", "1", "--count", "1", "--policy", "best", "--start", "--fill-after", "600"},
                 o);
    REQUIRE_MESSAGE(host.wait_for([](const std::string& out) { return !line_word(out, "room ").empty(); }, patience(20s)),
                    host.describe());
    const std::string room = line_word(host.out(), "room ");
    SpawnOptions w;
    w.stdout_file = server.dir() / "watch.out";
    w.stderr_file = server.dir() / "watch.err";
    Process watcher({kClient, "watch", server.wss(), "--ca-file", server.ca(), "--room", room, "--once"}, w);
    REQUIRE_MESSAGE(watcher.wait_for_text("You are watching room " + room, patience(10s)), watcher.describe());
    const Finished second = client(server, "second", {"bot", server.wss(), "--ca-file", server.ca(), "--room", room,
                                                      "--count", "1", "--policy", "best", "--name", "guest", "--quiet"},
                                   60s);
    INFO(second.described);
    CHECK(second.status == 0);
    const auto host_status = host.wait(patience(30s));
    INFO(host.describe());
    CHECK(host_status == 0);
    const std::string record = word_after(host.out(), " record ");
    REQUIRE_FALSE(record.empty());
    CHECK(watcher.wait(patience(30s)) == 0);
    INFO(watcher.describe());
    CHECK(watcher.out().find(" win") != std::string::npos);  // "wins", or "win together" on a tie

    const Finished v = client(server, "verify", {"verify", server.https() + record, "--ca-file", server.ca()});
    INFO(v.described);
    CHECK(v.status == 0);
    CHECK(v.out.find("VERIFIED: " + server.https() + record) != std::string::npos);
}

TEST_CASE("tls clients: a certificate from an unknown issuer is refused, saying so and how to trust it, exit 2 [cli][tls]") {
    Server server;
    const Finished f = try_bot(server, "untrusted", server.wss());
    INFO(f.described);
    CHECK(f.status == 2);
    CHECK(f.err.find("cannot trust " + server.wss() + ": the server's certificate comes from an unknown issuer "
                     "(\"SpookLudo test CA\")") != std::string::npos);
    CHECK(f.err.find("add --ca-file FILE") != std::string::npos);
    // The same for an https:// record, and for play.
    const Finished v = client(server, "verify-untrusted", {"verify", server.https() + "/records/X-1"});
    CHECK(v.status == 2);
    CHECK(v.err.find("unknown issuer") != std::string::npos);
    const Finished p = client(server, "play-untrusted", {"play", server.wss(), "--room", "ABCDE", "--name", "Ann"});
    CHECK(p.status == 2);
    CHECK(p.err.find("unknown issuer") != std::string::npos);
}

TEST_CASE("tls clients: a certificate for another host name is refused, naming the names it holds, exit 2 [cli][tls]") {
    CertificateSpec spec;
    spec.names = {"DNS:party.example.org"};
    Server server(spec);
    const Finished f = try_bot(server, "wrong-name", server.wss("127.0.0.1"), {"--ca-file", server.ca()});
    INFO(f.described);
    CHECK(f.status == 2);
    CHECK(f.err.find("the server's certificate is for party.example.org, not 127.0.0.1") != std::string::npos);
    CHECK(f.err.find("wss://party.example.org:") != std::string::npos);
}

TEST_CASE("tls clients: an expired certificate is refused, saying when it expired, exit 2 [cli][tls]") {
    CertificateSpec spec;
    spec.not_before = -10 * 86400;
    spec.not_after = -86400;
    Server server(spec);
    const Finished f = try_bot(server, "expired", server.wss(), {"--ca-file", server.ca()});
    INFO(f.described);
    CHECK(f.status == 2);
    CHECK(f.err.find("the server's certificate expired on ") != std::string::npos);
    CHECK(f.err.find("renew") != std::string::npos);
}

TEST_CASE("tls clients: ws:// to a TLS server is told to use wss://, wss:// to a plain server is told it does not speak TLS, both at once [cli][tls]") {
    Server tls_server;
    const std::string plain_url = "ws://127.0.0.1:" + tls_server.wss().substr(tls_server.wss().rfind(':') + 1);
    const Finished plain = try_bot(tls_server, "plain-on-tls", plain_url);
    INFO(plain.described);
    CHECK(plain.status == 2);
    CHECK(plain.err.find("the server speaks TLS only; connect with wss://") != std::string::npos);

    Server plain_server(std::nullopt);
    const std::string secure_url = "wss://127.0.0.1:" + plain_server.ws().substr(plain_server.ws().rfind(':') + 1);
    const Finished secure = try_bot(plain_server, "tls-on-plain", secure_url);
    INFO(secure.described);
    CHECK(secure.status == 2);
    CHECK(secure.err.find(secure_url) != std::string::npos);
    CHECK(secure.err.find("a server without a certificate is reached with ws://127.0.0.1:") != std::string::npos);
}

TEST_CASE("tls clients: --ca-file with ws://, or a file that holds no certificate, is a usage error [cli][tls]") {
    Server server(std::nullopt);
    const Finished plain = try_bot(server, "ca-with-ws", server.ws(), {"--ca-file", "/etc/hostname"});
    CHECK(plain.status == 2);
    CHECK(plain.err.find("--ca-file is for a wss:// address") != std::string::npos);
    const Finished junk = try_bot(server, "ca-junk", "wss://127.0.0.1:1", {"--ca-file", "/etc/hostname"});
    CHECK(junk.status == 2);
    CHECK(junk.err.find("--ca-file /etc/hostname holds no certificate") != std::string::npos);
    const Finished missing = try_bot(server, "ca-missing", "wss://127.0.0.1:1", {"--ca-file", "/nonexistent.pem"});
    CHECK(missing.status == 2);
    CHECK(missing.err.find("cannot read --ca-file /nonexistent.pem") != std::string::npos);
}

TEST_CASE("tls clients: spookludo-load drives a TLS server it starts (--tls) [cli][tls][bench]") {
    const std::string load = bench_load();
    if (load.empty()) {
        MESSAGE("the build has no benchmarks (SPOOKLUDO_BUILD_BENCH off)");
        return;
    }
    TempDir dir("spookludo-load-tls");
    const Finished f = run_to_end({load, "--spawn", kServer, "--tls", "--mode", "full", "--rooms", "2", "--duration", "2",
                                   "--warmup", "1", "--json"},
                                  dir, "load", 90s);
    INFO(f.described);
    REQUIRE(f.status == 0);
    const auto report = nlohmann::json::parse(f.out);
    CHECK(report["decisions"].get<double>() > 0);
    CHECK(report["unexpected_closes"].empty());
}

TEST_CASE("tls clients: over wss:// with --ca-file, the host's lobby join command carries --ca-file, and the story's verify line is a command that verifies [cli][tls]") {
    Server server;
    const std::string ca_name = std::filesystem::path(server.ca()).filename().string();
    SpawnOptions t;
    t.pty = true;
    t.cols = 220;
    t.rows = 40;
    t.stderr_file = server.dir() / "host.err";
    t.env = {{"NO_COLOR", "1"}, {"TERM", "xterm-256color"}, {"XDG_STATE_HOME", server.dir() / "host-state"}};
    Process host({kClient, "play", server.wss(), "--ca-file", server.ca(), "--create", "spook", "--players", "1",
                  "--pieces", "1", "--pace-ms", "0", "--name", "Ann"},
                 t);
    REQUIRE_MESSAGE(host.wait_for([&](const std::string& s) { return strip_escapes(s).find("join with: spookludo play wss://") != std::string::npos; },
                                  patience(20s)),
                    host.describe());
    const std::string room = word_after(strip_escapes(host.out()), "--room ");
    REQUIRE_FALSE(room.empty());
    CHECK_MESSAGE(strip_escapes(host.out()).find("join with: spookludo play " + server.wss() + " --room " + room +
                                                 " --name YOUR_NAME --ca-file " + ca_name) != std::string::npos,
                  strip_escapes(host.out()));

    SpawnOptions w;
    w.stdout_file = server.dir() / "watch.out";
    w.stderr_file = server.dir() / "watch.err";
    w.env = {{"XDG_STATE_HOME", server.dir() / "watch-state"}};
    Process watcher({kClient, "watch", server.wss(), "--ca-file", server.ca(), "--room", room, "--once"}, w);
    REQUIRE_MESSAGE(watcher.wait_for_text("You are watching room " + room, patience(10s)), watcher.describe());
    host.write("s");
    REQUIRE(watcher.wait(patience(30s)) == 0);
    const std::string story = watcher.out();
    INFO(story);
    const std::string says = "Check the game: ";
    const auto at = story.find(says);
    REQUIRE(at != std::string::npos);
    const std::string command = story.substr(at + says.size(), story.find('\n', at) - at - says.size());
    CHECK(command.rfind("spookludo verify " + server.https() + "/records/", 0) == 0);
    const std::string flag = " --ca-file " + server.ca();
    CHECK(command.size() > flag.size());
    CHECK(command.compare(command.size() - flag.size(), flag.size(), flag) == 0);
    // Run as printed (the words split at spaces: the paths have none).
    std::vector<std::string> argv;
    std::stringstream words(command);
    for (std::string word; words >> word;) argv.push_back(word);
    argv.front() = kClient;
    const Finished v = run_to_end(argv, server.dir(), "verify-story", 30s);
    INFO(v.described);
    CHECK(v.status == 0);
    CHECK(v.out.find("VERIFIED: ") != std::string::npos);
    host.write("q");
}
