#include "harness.h"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <fstream>
#include <cstring>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <thread>
#include <variant>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <spdlog/spdlog.h>

#include "network.h"
#include "room.h"
#include "spookludo/protocol/websocket.h"

namespace spookludo::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {
// Connects `socket` to the loopback port from the local address `from` (empty: the system's choice).
void connect_from(tcp::socket& socket, std::uint16_t port, const std::string& from) {
    socket.open(tcp::v4());
    if (!from.empty()) socket.bind(tcp::endpoint(net::ip::make_address(from), 0));
    socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
}
}  // namespace

// ---- Server -----------------------------------------------------------------------------------
struct TestServer::Impl {
    net::io_context io;  // declared first so that it outlives the rooms' timers in `services`
    server::Services services;
    std::unique_ptr<server::Network> network;
    std::vector<std::thread> threads;
    std::atomic<bool> down{false};
    bool keep_data = false;

    explicit Impl(const server::Config& c) : io(c.threads), services(c) {
        server::resume_rooms(io, services);  // what an earlier server on this data directory left
        network = std::make_unique<server::Network>(io, services);
        network->start();
        for (int i = 0; i < std::max(1, c.threads); ++i) threads.emplace_back([this] { io.run(); });
    }
};

server::Config TestServer::fast_config() {
    static std::atomic<int> counter{0};
    server::Config c;
    c.bind = "127.0.0.1";
    c.port = 0;
    c.pace_ms = 0;
    // Two I/O threads, as a busy operator would run it: rooms and connections on strands, their
    // hand-overs between threads under test (the server's default, one thread, is what the
    // end-to-end tests start).
    c.threads = 2;
    // SPOOKLUDO_TEST_THREADS=1: the same tests on the server's default (tests/CMakeLists.txt runs
    // the WebSocket and security tests so too: a plain connection is read differently there).
    if (const char* t = std::getenv("SPOOKLUDO_TEST_THREADS")) c.threads = std::max(1, std::atoi(t));
    c.decision_ms = 5000;
    c.seed_wait_ms = 2000;
    c.reconnect_ms = 5000;
    c.max_messages_per_second = 1000;
    c.data_dir = (std::filesystem::temp_directory_path() /
                  ("spookludo-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                     .string();
    spdlog::set_level(spdlog::level::warn);
    return c;
}

TestServer::TestServer(server::Config config) : impl_(std::make_unique<Impl>(config)) {}

void TestServer::shutdown() {
    if (impl_->down.exchange(true)) return;
    impl_->services.shutting_down = true;
    auto rooms = impl_->services.registry.all();
    auto left = std::make_shared<std::atomic<std::size_t>>(rooms.size());
    for (auto& room : rooms) room->shutdown([left] { --*left; });
    for (int i = 0; i < 500 && *left > 0; ++i) std::this_thread::sleep_for(10ms);
    impl_->services.mark_stop();
    const auto port = impl_->network->port();
    impl_->network->stop();
    // What was queued for each WebSocket connection goes out, its close frame last (then the
    // server's side is half-closed, or gone) before the threads stop: the real server gives that
    // 300 ms, which a loaded machine can need more than; here it is waited for (5 s at most), or
    // given the server's 300 ms where the kernel's list of connections cannot be read.
    if (!port_sockets(port).known) std::this_thread::sleep_for(300ms);
    for (int i = 0; i < 500 && impl_->services.metrics.connections > 0 && port_sockets(port).open > 0; ++i)
        std::this_thread::sleep_for(10ms);
    impl_->io.stop();
    for (auto& t : impl_->threads) t.join();
}

TestServer::~TestServer() {
    shutdown();
    // The rooms go before the io_context their timers are bound to.
    for (const auto& room : impl_->services.registry.all()) impl_->services.registry.remove(room->code());
    if (impl_->keep_data) return;
    std::error_code ec;
    std::filesystem::remove_all(impl_->services.config.data_dir, ec);
}

std::uint16_t TestServer::port() const { return impl_->network->port(); }
std::string TestServer::data_dir() const { return impl_->services.config.data_dir; }
void TestServer::keep_data_dir() { impl_->keep_data = true; }

PortSockets port_sockets(std::uint16_t port) {
    PortSockets out;
    std::ifstream in("/proc/net/tcp");
    std::string line;
    out.known = static_cast<bool>(std::getline(in, line));  // the header
    while (std::getline(in, line)) {
        // "sl: LOCAL_IP:PORT REMOTE_IP:PORT STATE TX_QUEUE:RX_QUEUE ...", in hexadecimal
        char local[64] = {}, remote[64] = {};
        unsigned state = 0, tx = 0, rx = 0;
        if (std::sscanf(line.c_str(), " %*[^:]: %63s %63s %x %x:%x", local, remote, &state, &tx, &rx) != 5) continue;
        const char* colon = std::strchr(local, ':');
        if (!colon || std::strtoul(colon + 1, nullptr, 16) != port) continue;
        if (state == 0x0A) out.queued += static_cast<int>(rx);  // listening: rx is the accept queue
        else if (state == 0x01 || state == 0x08) ++out.open;    // established, close wait
    }
    return out;
}

// ---- Client -----------------------------------------------------------------------------------
using PlainWs = websocket::stream<beast::tcp_stream>;
using TlsWs = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

struct Client::Impl {
    net::io_context io;
    net::ssl::context ctx{net::ssl::context::tls_client};
    std::variant<std::monostate, PlainWs, TlsWs> ws;
    beast::flat_buffer buffer;
    bool closed = false;

    template <class F>
    decltype(auto) with(F&& f) {
        if (auto* p = std::get_if<PlainWs>(&ws)) return f(*p);
        return f(std::get<TlsWs>(ws));
    }
};

Client::Client(std::uint16_t port, std::string path, const std::string& from) : impl_(std::make_unique<Impl>()) {
    auto& ws = impl_->ws.emplace<PlainWs>(impl_->io);
    tcp::resolver resolver(impl_->io);
    if (from.empty()) {
        beast::get_lowest_layer(ws).connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    } else {
        auto& socket = beast::get_lowest_layer(ws).socket();
        socket.open(tcp::v4());
        socket.bind(tcp::endpoint(net::ip::make_address(from), 0));
        socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    }
    ws.handshake("127.0.0.1:" + std::to_string(port), path);
}

Client::Client(std::uint16_t port, const TlsClientOptions& tls) : impl_(std::make_unique<Impl>()) {
    impl_->ctx.load_verify_file(tls.ca_file);
    impl_->ctx.set_verify_mode(net::ssl::verify_peer);
    auto& ws = impl_->ws.emplace<TlsWs>(impl_->io, impl_->ctx);
    auto& ssl = ws.next_layer();
    SSL_set_tlsext_host_name(ssl.native_handle(), tls.host.c_str());
    ssl.set_verify_callback(net::ssl::host_name_verification(tls.host));
    connect_from(beast::get_lowest_layer(ws).socket(), port, tls.from);
    ssl.handshake(net::ssl::stream_base::client);
    ws.handshake(tls.host + ":" + std::to_string(port), "/ws");
}

Client::~Client() = default;

void Client::send(const json& message) { send_text(message.dump()); }

void Client::send_text(const std::string& text) {
    if (impl_->closed) return;
    beast::error_code ec;
    impl_->with([&](auto& ws) {
        ws.text(true);
        ws.write(net::buffer(text), ec);
    });
    if (ec) impl_->closed = true;
}

void Client::send_binary(const std::string& bytes) {
    beast::error_code ec;
    impl_->with([&](auto& ws) {
        ws.binary(true);
        ws.write(net::buffer(bytes), ec);
        ws.text(true);
    });
    if (ec) impl_->closed = true;
}

std::optional<json> Client::read(std::chrono::milliseconds timeout) {
    if (impl_->closed) return std::nullopt;
    bool done = false;
    beast::error_code result;
    impl_->with([&](auto& ws) {
        ws.async_read(impl_->buffer, [&](beast::error_code ec, std::size_t) {
            done = true;
            result = ec;
        });
    });
    impl_->io.restart();
    impl_->io.run_for(timeout);
    if (!done) {
        // Time is up: cancel the read and let it finish.
        impl_->with([](auto& ws) { beast::get_lowest_layer(ws).cancel(); });
        impl_->io.restart();
        impl_->io.run();
        impl_->closed = true;  // a cancelled read leaves the stream unusable
        return std::nullopt;
    }
    if (result) {
        impl_->closed = true;
        return std::nullopt;
    }
    std::string text = beast::buffers_to_string(impl_->buffer.data());
    impl_->buffer.consume(impl_->buffer.size());
    json j = json::parse(text);
    log_.push_back(j);
    return j;
}

json Client::expect(const std::string& type, std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        auto m = read(std::max(left, 1ms));
        if (!m) break;
        if ((*m)["type"] == type) return *m;
        if ((*m)["type"] == "error" && type != "error") MESSAGE("(while waiting for ", type, ") ", m->dump());
    }
    FAIL("no \"" << type << "\" message arrived");
    return {};
}

bool Client::closed() const noexcept { return impl_->closed; }

void Client::close() {
    beast::error_code ec;
    impl_->with([&](auto& ws) { beast::get_lowest_layer(ws).socket().close(ec); });
    impl_->closed = true;
}

void Client::hello() {
    send({{"type", "hello"}, {"protocol", 1}, {"client", "tests"}});
    expect("welcome");
}

json next_of(Client& c, const std::function<bool(const json&)>& pred, const std::string& what,
             std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        auto m = c.read(std::max(left, 1ms));
        if (!m) break;
        if (pred(*m)) return *m;
    }
    FAIL("no " << what << " arrived");
    return {};
}
json room_where(Client& c, const std::function<bool(const json&)>& pred, const std::string& what,
                std::chrono::milliseconds timeout) {
    return next_of(c, [&](const json& m) { return m["type"] == "room" && pred(m); }, "room snapshot with " + what, timeout);
}
json notice_of(Client& c, const std::string& kind, std::chrono::milliseconds timeout) {
    return next_of(c, [&](const json& m) { return m["type"] == "notice" && m["kind"] == kind; },
                   "notice of kind " + kind, timeout);
}
std::pair<int, std::string> http_get(std::uint16_t port, const std::string& target) {
    auto reply = http_get_reply(port, target);
    return {reply.status, std::move(reply.body)};
}
HttpReply http_get_reply(std::uint16_t port, const std::string& target) {
    net::io_context io;
    beast::tcp_stream stream(io);
    tcp::resolver resolver(io);
    stream.connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    HttpReply reply{static_cast<int>(res.result_int()), res.body(), {}};
    for (const auto& field : res) {
        std::string name(field.name_string());
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        reply.headers[name] = std::string(field.value());
    }
    return reply;
}

namespace {
// A TLS client's context that checks the server's certificate against the test CA, and a stream
// that asks for `host` and checks the certificate names it.
net::ssl::context verifying_context(const TlsClientOptions& tls) {
    net::ssl::context ctx{net::ssl::context::tls_client};
    ctx.load_verify_file(tls.ca_file);
    ctx.set_verify_mode(net::ssl::verify_peer);
    return ctx;
}
void expect_host(beast::ssl_stream<beast::tcp_stream>& stream, const std::string& host) {
    SSL_set_tlsext_host_name(stream.native_handle(), host.c_str());
    stream.set_verify_callback(net::ssl::host_name_verification(host));
}
}  // namespace

std::string tls_exchange(std::uint16_t port, const TlsClientOptions& tls, const std::string& request,
                         std::chrono::milliseconds timeout) {
    net::io_context io;
    net::ssl::context ctx = verifying_context(tls);
    beast::ssl_stream<beast::tcp_stream> stream(io, ctx);
    expect_host(stream, tls.host);
    beast::get_lowest_layer(stream).expires_after(timeout);
    connect_from(beast::get_lowest_layer(stream).socket(), port, tls.from);
    stream.handshake(net::ssl::stream_base::client);
    net::write(stream, net::buffer(request));
    // Read until the server closes, the head of a 101 is in, or the time is up (the stream's
    // timeout holds for its asynchronous reads).
    std::string got;
    char buf[4096];
    std::function<void()> read = [&] {
        stream.async_read_some(net::buffer(buf), [&](beast::error_code ec, std::size_t n) {
            got.append(buf, n);
            if (ec || (got.rfind("HTTP/1.1 101", 0) == 0 && got.find("\r\n\r\n") != std::string::npos)) return;
            read();
        });
    };
    beast::get_lowest_layer(stream).expires_after(timeout);
    read();
    io.run();
    return got;
}

TlsHandshake tls_handshake(std::uint16_t port, const TlsClientOptions& tls, std::chrono::milliseconds timeout) {
    net::io_context io;
    net::ssl::context ctx = verifying_context(tls);
    beast::ssl_stream<beast::tcp_stream> stream(io, ctx);
    expect_host(stream, tls.host);
    TlsHandshake result;
    // OpenSSL's message callback sees every record and handshake message; write_p 0: from the server.
    SSL_set_msg_callback(stream.native_handle(), [](int write_p, int, int, const void*, std::size_t, SSL*, void* arg) {
        if (write_p == 0) *static_cast<bool*>(arg) = true;
    });
    SSL_set_msg_callback_arg(stream.native_handle(), &result.server_spoke);
    beast::get_lowest_layer(stream).expires_after(timeout);
    connect_from(beast::get_lowest_layer(stream).socket(), port, tls.from);
    stream.async_handshake(net::ssl::stream_base::client, [&](beast::error_code ec) {
        result.ok = !ec;
        if (ec) result.error = ec.message();
    });
    io.run();
    beast::error_code ignored;
    beast::get_lowest_layer(stream).socket().shutdown(tcp::socket::shutdown_both, ignored);
    return result;
}

namespace {

template <class Stream>
void flood_on(Stream& stream, net::io_context& io, const std::string& opening, const std::string& burst,
              std::chrono::milliseconds timeout, Flood& out) {
    using Clock = std::chrono::steady_clock;
    namespace ws = protocol::ws;
    beast::error_code ec;
    net::write(stream, net::buffer(opening), ec);
    if (ec) return;
    ws::FrameReader reader(ws::FrameReader::Role::client, 1 << 20);
    std::string head;
    bool closed_seen = false, over = false;
    auto end = [&](beast::error_code e) {
        if (over) return;
        over = true;
        if (e != net::error::operation_aborted) {  // not our own time limit
            out.ended = true;
            out.ended_at = Clock::now();
        }
        beast::error_code ignored;
        beast::get_lowest_layer(stream).socket().close(ignored);
    };
    char buf[16384];
    std::function<void()> read = [&] {
        stream.async_read_some(net::buffer(buf), [&](beast::error_code e, std::size_t n) {
            // The end of what the server sends (after its close frame) is not yet the end of
            // the connection: the server may go on reading. It has hung up when a write fails.
            if (e == net::error::eof || e == net::ssl::error::stream_truncated) return;
            if (e) return end(e);
            std::string_view got(buf, n);
            if (out.head.empty()) {
                head.append(got);
                const auto at = head.find("\r\n\r\n");
                if (at == std::string::npos) return read();
                out.head = head.substr(0, at + 4);
                got = std::string_view(head).substr(at + 4);
            }
            if (!got.empty()) {
                std::memcpy(reader.prepare(got.size()), got.data(), got.size());
                reader.commit(got.size());
            }
            ws::FrameReader::Message m;
            while (reader.next(m) == ws::FrameReader::Status::message) {
                out.frames.push_back({static_cast<int>(m.opcode), std::string(m.payload), Clock::now()});
                if (m.opcode == ws::Opcode::close) closed_seen = true;
            }
            read();
        });
    };
    std::function<void()> write = [&] {
        net::async_write(stream, net::buffer(burst), [&](beast::error_code e, std::size_t n) {
            if (e) return end(e);
            if (closed_seen) out.sent_after_close += n;
            write();
        });
    };
    net::steady_timer limit(io);
    limit.expires_after(timeout);
    limit.async_wait([&](beast::error_code e) {
        if (!e) end(net::error::operation_aborted);
    });
    read();
    write();
    while (!over && io.run_one()) {
    }
    limit.cancel();
    io.restart();
    io.run();  // what was left to finish (aborted)
}

}  // namespace

Flood flood(std::uint16_t port, const std::string& opening, const std::string& burst, std::chrono::milliseconds timeout,
            const TlsClientOptions* tls) {
    net::io_context io;
    tcp::resolver resolver(io);
    Flood out;
    if (!tls) {
        beast::tcp_stream stream(io);
        stream.connect(resolver.resolve("127.0.0.1", std::to_string(port)));
        flood_on(stream, io, opening, burst, timeout, out);
        return out;
    }
    net::ssl::context ctx = verifying_context(*tls);
    beast::ssl_stream<beast::tcp_stream> stream(io, ctx);
    expect_host(stream, tls->host);
    beast::get_lowest_layer(stream).connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    stream.handshake(net::ssl::stream_base::client);
    flood_on(stream, io, opening, burst, timeout, out);
    return out;
}

std::string create_room(Client& c, const json& options, const std::string& name, json settings) {
    c.hello();
    json m{{"type", "create_room"}, {"options", options}, {"name", name}};
    if (!settings.is_null()) m["settings"] = settings;
    c.send(m);
    const json joined = c.expect("joined");
    CHECK(joined["seat"] == 0);
    CHECK(joined["host"] == true);
    CHECK(joined["token"].get<std::string>().size() == 32);
    return joined["room"];
}

json join(Client& c, const std::string& code, const std::string& name) {
    c.hello();
    c.send({{"type", "join_room"}, {"room", code}, {"name", name}});
    return c.expect("joined");
}

json resume(Client& c, const std::string& code, const std::string& token) {
    c.hello();
    c.send({{"type", "resume"}, {"room", code}, {"token", token}});
    return c.expect("joined");
}

std::string token_of(const Client& c) {
    for (const auto& m : c.log())
        if (m["type"] == "joined" && m.contains("token")) return m["token"];
    return {};
}

json play_to_end(Client& c, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        auto m = c.read(10s);
        REQUIRE(m.has_value());
        const std::string type = (*m)["type"];
        if (type == "commitment") c.send({{"type", "client_seed"}, {"seed", "seed of " + std::to_string(c.log().size())}});
        if (type == "decision")
            c.send({{"type", "choose"}, {"decision", (*m)["decision"]}, {"piece", (*m)["options"][0]["piece"]}});
        if (type == "game_over") return *m;
    }
    FAIL("the game did not end in time");
    return {};
}

TempDir::TempDir(const std::string& what) {
    static std::atomic<int> counter{0};
    path = std::filesystem::temp_directory_path() /
           ("spookludo-" + what + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

static int sh(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

TestMount::TestMount(bool tmpfs, const std::string& size, std::filesystem::path at) {
    static std::atomic<int> counter{0};
    const std::string name = "spookludo-mount-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    path = at.empty() ? std::filesystem::temp_directory_path() / name : at;
    std::filesystem::create_directories(path);
    if (::geteuid() != 0) return;
    if (tmpfs) {
        mounted = sh("mount -t tmpfs -o size=" + size + " tmpfs " + path.string()) == 0;
    } else {
        image = path.string() + ".ext4";
        mounted = sh("truncate -s " + size + " " + image.string()) == 0 && sh("mkfs.ext4 -q " + image.string()) == 0 &&
                  sh("mount -o loop,errors=remount-ro " + image.string() + " " + path.string()) == 0;
    }
}

TestMount::~TestMount() {
    if (mounted) sh("umount -l " + path.string());
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    if (!image.empty()) std::filesystem::remove(image, ec);
}

void TestMount::fill() {
    const int fd = ::open((path / "filler").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0);
    const std::string block(1 << 16, 'x');
    while (::write(fd, block.data(), block.size()) > 0) {
    }
    ::close(fd);
}

void TestMount::free_space() { std::filesystem::remove(path / "filler"); }

bool TestMount::turn_read_only() {
    FILE* p = ::popen(("findmnt -n -o SOURCE " + path.string()).c_str(), "r");
    char line[256] = {};
    const bool got = p && std::fgets(line, sizeof line, p);
    if (p) ::pclose(p);
    if (!got) return false;
    const std::string device = std::filesystem::path(std::string(line).substr(0, std::strcspn(line, "\n"))).filename();
    {
        std::ofstream trigger("/sys/fs/ext4/" + device + "/trigger_fs_error");
        if (!(trigger << "crash-test\n" << std::flush)) return false;
    }
    // The kernel turns it read-only a moment later.
    for (int i = 0; i < 200; ++i) {
        if (sh("touch " + (path / "probe").string()) != 0) return true;
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

std::set<std::string> record_ids_in(const std::filesystem::path& dir) {
    std::set<std::string> ids;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".json") ids.insert(e.path().stem().string());
    return ids;
}

pid_t spawn_server(const std::string& out, std::vector<std::string> args, const std::function<void()>& in_child) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        if (in_child) in_child();
        std::vector<char*> argv{const_cast<char*>("spookludo-server")};
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(SPOOKLUDO_SERVER_BINARY, argv.data());
        _exit(127);
    }
    return pid;
}

}  // namespace spookludo::testing
