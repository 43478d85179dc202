// TLS on the server's port (--tls-cert, --tls-key): wss:// and https:// with certificates made
// here at run time with OpenSSL (tests/tls/certificates.h: nothing secret is committed), versions and ciphers
// checked with `openssl s_client`, plain clients told what to do, the reload on SIGHUP.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "harness.h"
#include "raw_client.h"
#include "tls/certificates.h"

using namespace spookludo;
using namespace spookludo::testing;
using namespace spookludo::testing::raw;

namespace {

// Runs a shell command; returns its exit status and what it printed (stdout and stderr).
std::pair<int, std::string> run(const std::string& command) {
    std::string out;
    FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    REQUIRE(p);
    char buf[4096];
    while (const std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

server::Config tls_config(const Certificates& certs) {
    auto c = TestServer::fast_config();
    c.tls_cert = certs.cert;
    c.tls_key = certs.key;
    c.tls_handshakes_per_second = 0;  // the tests connect from 127.0.0.1 many times a second
    return c;
}

// The value of a line of /metrics (its name with labels), asked over TLS from `from`.
long metric(std::uint16_t port, const Certificates& certs, const std::string& line, const std::string& from) {
    const std::string text = tls_exchange(port, TlsClientOptions{certs.ca, "localhost", from},
                                          "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    const auto at = text.find("\n" + line + " ");
    if (at == std::string::npos) {
        FAIL_CHECK("no line " << line << " in /metrics");
        return -1;
    }
    return std::stol(text.substr(at + line.size() + 2));
}

// `openssl s_client` against the port with `flags`: its output (the handshake's story).
std::pair<int, std::string> s_client(std::uint16_t port, const std::string& flags) {
    return run("echo | timeout 10 openssl s_client -connect 127.0.0.1:" + std::to_string(port) + " " + flags);
}
bool handshake_ok(const std::string& out) {
    return out.find("Cipher is (NONE)") == std::string::npos && out.find("Cipher is ") != std::string::npos;
}

// The ciphers the server offers for TLS 1.2, as documented in docs/tls.md.
const std::set<std::string> kDocumentedTls12 = {
    "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",       "ECDHE-ECDSA-AES256-GCM-SHA384",
    "ECDHE-RSA-AES256-GCM-SHA384",   "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305"};

}  // namespace

TEST_CASE("tls: a whole game over wss:// with the certificate verified against its CA [server][tls]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    TestServer server(tls_config(certs));
    Client ann(server.port(), TlsClientOptions{certs.ca});
    create_room(ann, {{"game", "spook"}, {"players", 2}, {"pieces", 1}}, "Ann");
    ann.send({{"type", "add_bot"}, {"policy", "best"}});
    ann.expect("room");
    ann.send({{"type", "start"}});
    const json over = play_to_end(ann);
    CHECK(over["status"] == "finished");
    // The same server refuses a client that does not trust its CA.
    CHECK_THROWS(Client(server.port(), TlsClientOptions{"/etc/ssl/certs/ca-certificates.crt"}));
}

TEST_CASE("tls: a plain ws:// client on the TLS port is told at once to use wss://, a browser is sent to https:// [server][tls]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    TestServer server(tls_config(certs));
    {
        RawClient c(server.port());
        const auto started = std::chrono::steady_clock::now();
        REQUIRE(c.send_bytes(RawClient::upgrade_request()));
        const std::string answer = c.read_to_end(5s);
        CHECK(std::chrono::steady_clock::now() - started < 5s);
        CHECK(answer.rfind("HTTP/1.1 400", 0) == 0);
        CHECK(answer.find("connect with wss://127.0.0.1/ws") != std::string::npos);
    }
    RawClient browser(server.port());
    REQUIRE(browser.send_bytes("GET /healthz HTTP/1.1\r\nHost: party.example:7777\r\n\r\n"));
    const std::string answer = browser.read_to_end(5s);
    CHECK(answer.rfind("HTTP/1.1 301", 0) == 0);
    CHECK(answer.find("Location: https://party.example:7777/healthz") != std::string::npos);
}

TEST_CASE("tls: garbage instead of a ClientHello closes that connection, and a wss:// player goes on [server][tls]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    TestServer server(tls_config(certs));
    Client ann(server.port(), TlsClientOptions{certs.ca});
    ann.hello();
    RawClient junk(server.port());
    // A TLS record header (handshake, "TLS 1.0") with nonsense after it.
    REQUIRE(junk.send_bytes(std::string("\x16\x03\x01\x00\x20", 5) + std::string(32, '\x7f')));
    const auto started = std::chrono::steady_clock::now();
    junk.read_to_end(5s);  // the server ends the connection (an alert, then the close)
    CHECK(std::chrono::steady_clock::now() - started < 3s);
    ann.send({{"type", "ping"}, {"t", 5}});
    CHECK(ann.expect("pong")["t"] == 5);
}

TEST_CASE("tls: TLS 1.2 and 1.3 connect with ALPN http/1.1, TLS 1.0 and 1.1 are refused by the server [server][tls]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    TestServer server(tls_config(certs));
    for (const char* version : {"-tls1_2", "-tls1_3"}) {
        const auto [rc, out] = s_client(server.port(), std::string(version) + " -alpn http/1.1 -CAfile " + certs.ca);
        CHECK_MESSAGE(handshake_ok(out), version, "\n", out);
        CHECK(out.find("ALPN protocol: http/1.1") != std::string::npos);
        CHECK(out.find("Verify return code: 0 (ok)") != std::string::npos);
    }
    // The client side is allowed the old versions (security level 0): the refusal is the server's.
    for (const char* version : {"-tls1", "-tls1_1"}) {
        const auto [rc, out] = s_client(server.port(), std::string(version) + " -cipher 'DEFAULT:@SECLEVEL=0'");
        CHECK_MESSAGE(!handshake_ok(out), version, "\n", out);
        CHECK_MESSAGE(out.find("alert protocol version") != std::string::npos, version, "\n", out);
    }
}

TEST_CASE("tls: every TLS 1.2 cipher the server accepts is one of the documented list [server][tls]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    TestServer server(tls_config(certs));
    const auto [rc, all] = run("openssl ciphers -tls1_2 'ALL:@SECLEVEL=0'");
    REQUIRE(rc == 0);
    std::set<std::string> accepted;
    std::stringstream names(all);
    std::string name;
    int tried = 0;
    while (std::getline(names, name, ':')) {
        while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
        if (name.empty() || name.rfind("TLS_", 0) == 0) continue;  // TLS 1.3 suites are not set this way
        ++tried;
        const auto [c, out] = s_client(server.port(), "-tls1_2 -cipher '" + name + ":@SECLEVEL=0'");
        if (handshake_ok(out)) accepted.insert(name);
    }
    CHECK(tried > 20);
    CHECK_FALSE(accepted.empty());
    for (const auto& a : accepted) CHECK_MESSAGE(kDocumentedTls12.count(a) == 1, a, " is accepted but not documented");
    // The documented list is the one docs/tls.md shows.
    std::ifstream doc(std::string(SPOOKLUDO_SOURCE_DIR) + "/docs/tls.md");
    const std::string text((std::istreambuf_iterator<char>(doc)), std::istreambuf_iterator<char>());
    for (const auto& d : kDocumentedTls12) CHECK_MESSAGE(text.find(d) != std::string::npos, d, " missing in docs/tls.md");
}

TEST_CASE("tls: SIGHUP re-reads the certificate: new connections get the new one, an open connection goes on, a broken file keeps the old [server][tls]") {
    TempDir dir("tls");
    Certificates certs(dir.path, CertificateSpec{"First"});
    const auto data = dir.path / "data";
    const std::string log = (dir.path / "server.log").string();
    const pid_t pid = spawn_server(log, {"--port", "0", "--tls-cert", certs.cert, "--tls-key", certs.key, "--data-dir",
                                         data.string(), "--pid-file", (dir.path / "pid").string()});
    // The port, from the server's first lines.
    std::uint16_t port = 0;
    for (int i = 0; i < 100 && port == 0; ++i) {
        std::ifstream in(log);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (const auto at = text.find("listening on 0.0.0.0:"); at != std::string::npos)
            port = static_cast<std::uint16_t>(std::stoi(text.substr(at + 21)));
        else std::this_thread::sleep_for(50ms);
    }
    REQUIRE(port != 0);
    Client ann(port, TlsClientOptions{certs.ca});
    ann.hello();
    CHECK(s_client(port, "-CAfile " + certs.ca).second.find("O = First") != std::string::npos);

    certs.make("Renewed");
    REQUIRE(::kill(pid, SIGHUP) == 0);
    std::string seen;
    for (int i = 0; i < 50; ++i) {
        seen = s_client(port, "-CAfile " + certs.ca).second;
        if (seen.find("O = Renewed") != std::string::npos) break;
        std::this_thread::sleep_for(100ms);
    }
    CHECK(seen.find("O = Renewed") != std::string::npos);
    ann.send({{"type", "ping"}, {"t", 1}});
    CHECK(ann.expect("pong")["t"] == 1);  // the connection made before the reload goes on

    std::ofstream(certs.cert) << "-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n";
    REQUIRE(::kill(pid, SIGHUP) == 0);
    // The server says when it has read the broken file (within 10 s, on a loaded machine too).
    bool said = false;
    for (int i = 0; i < 200 && !said; ++i) {
        std::ifstream in(log);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        said = text.find("the old certificate stays") != std::string::npos;
        if (!said) std::this_thread::sleep_for(50ms);
    }
    CHECK(said);
    CHECK(s_client(port, "-CAfile " + certs.ca).second.find("O = Renewed") != std::string::npos);
    ann.send({{"type", "ping"}, {"t", 2}});
    CHECK(ann.expect("pong")["t"] == 2);
    // --healthcheck asks the TLS server too.
    const auto [rc, out] = run(std::string(SPOOKLUDO_SERVER_BINARY) + " --healthcheck --port " + std::to_string(port) +
                               " --tls-cert " + certs.ca + " --tls-key " + certs.key);
    CHECK_MESSAGE(rc == 0, out);
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
}

TEST_CASE("tls: the page over https:// has the CSP for wss://, and the WebSocket takes an https:// Origin of its own port, refuses http:// [server][tls][origin]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    TestServer server(tls_config(certs));
    const std::string port = std::to_string(server.port());
    const TlsClientOptions tls{certs.ca};
    const std::string page = tls_exchange(server.port(), tls,
                                          "GET /r/ABCDE HTTP/1.1\r\nHost: localhost:" + port + "\r\nConnection: close\r\n\r\n");
    INFO(page.substr(0, page.find("\r\n\r\n")));
    CHECK(page.rfind("HTTP/1.1 200", 0) == 0);
    CHECK(page.find("connect-src 'self' wss://localhost:" + port + ";") != std::string::npos);
    const auto upgrade = [&](const std::string& host, const std::string& origin) {
        return tls_exchange(server.port(), tls,
                            "GET /ws HTTP/1.1\r\nHost: " + host +
                                "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
                                (origin.empty() ? std::string() : "Origin: " + origin + "\r\n") + "\r\n");
    };
    CHECK(upgrade("127.0.0.1:" + port, "").rfind("HTTP/1.1 101", 0) == 0);
    CHECK(upgrade("127.0.0.1:" + port, "https://127.0.0.1:" + port).rfind("HTTP/1.1 101", 0) == 0);
    CHECK(upgrade("localhost:" + port, "https://LOCALHOST:" + port).rfind("HTTP/1.1 101", 0) == 0);
    const std::string refused = upgrade("127.0.0.1:" + port, "http://127.0.0.1:" + port);
    CHECK(refused.rfind("HTTP/1.1 403", 0) == 0);
    CHECK(refused.find("is not this server, \"https://127.0.0.1:" + port + "\"") != std::string::npos);
    CHECK(upgrade("127.0.0.1:" + port, "https://evil.example").rfind("HTTP/1.1 403", 0) == 0);
    const auto metrics = tls_exchange(server.port(), tls, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(metrics.find("\nspookludo_origin_refused_total 2\n") != std::string::npos);
}

TEST_CASE("tls: a connection over the per-address limit is closed before any handshake (no certificate sent), and /metrics counts it [server][tls][security]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    auto config = tls_config(certs);
    config.max_connections_per_address = 2;
    TestServer server(config);
    // Two players hold 127.0.0.1's two places.
    Client ann(server.port(), TlsClientOptions{certs.ca});
    Client bob(server.port(), TlsClientOptions{certs.ca});
    ann.hello();
    for (int i = 0; i < 3; ++i) {
        const auto third = tls_handshake(server.port(), TlsClientOptions{certs.ca});
        CHECK_FALSE(third.ok);
        CHECK_MESSAGE(!third.server_spoke, "the server answered a connection over the limit: ", third.error);
    }
    CHECK(metric(server.port(), certs, "spookludo_tls_refused_total{reason=\"connection_limit\"}", "127.0.0.2") == 3);
    ann.send({{"type", "ping"}, {"t", 1}});
    CHECK(ann.expect("pong")["t"] == 1);
}

TEST_CASE("tls: one address's handshakes beyond --tls-handshakes-per-second are closed before the handshake, another address's go through [server][tls][security]") {
    TempDir dir("tls");
    Certificates certs(dir.path);
    auto config = tls_config(certs);
    config.tls_handshakes_per_second = 1;  // bursts of 2
    TestServer server(config);
    const auto started = std::chrono::steady_clock::now();
    int made = 0, refused = 0;
    for (int i = 0; i < 40 && refused < 3; ++i) {
        const auto h = tls_handshake(server.port(), TlsClientOptions{certs.ca});
        if (h.ok) {
            ++made;
        } else {
            ++refused;
            CHECK_MESSAGE(!h.server_spoke, "a refused handshake got an answer: ", h.error);
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // A full bucket of 2, and one more for each second that passed.
    CHECK(made >= 2);
    CHECK(made <= 2 + seconds);
    CHECK(refused == 3);
    // Another address has its own bucket.
    CHECK(tls_handshake(server.port(), TlsClientOptions{certs.ca, "localhost", "127.0.0.2"}).ok);
    CHECK(metric(server.port(), certs, "spookludo_tls_refused_total{reason=\"handshake_rate\"}", "127.0.0.2") == refused);
}
