#pragma once
// Test harness for the server: the real server (in this process, on a loopback port chosen by
// the system) and a small blocking WebSocket/HTTP client. Beast stays inside harness.cpp.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.h"

namespace spookludo::testing {

using namespace std::chrono_literals;
using nlohmann::json;

class TestServer {
public:
    explicit TestServer(server::Config config = fast_config());
    ~TestServer();  // graceful shutdown, like SIGTERM
    std::uint16_t port() const;
    std::string data_dir() const;
    // Leaves the data directory behind (another TestServer takes up its rooms).
    void keep_data_dir();
    // Shuts down now, like SIGTERM (rooms saved for the next start, or abandoned with
    // abandon_on_exit; clients told); idempotent.
    void shutdown();
    static server::Config fast_config();  // pace 0, short timeouts, a fresh data dir

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A client over TLS (wss://): the certificate verified against `ca_file`, for `host`; `from`:
// the local address to connect from (empty: the system's choice), as for Client.
struct TlsClientOptions {
    std::string ca_file;
    std::string host = "localhost";
    std::string from;
};

class Client {
public:
    // `from`: the local address to connect from (another loopback address, e.g. 127.0.0.2, is
    // another client address for the server); empty: the system's choice.
    explicit Client(std::uint16_t port, std::string path = "/ws", const std::string& from = {});
    // Over TLS; throws (boost::system::system_error) when the handshake or the verification fails.
    Client(std::uint16_t port, const TlsClientOptions& tls);
    ~Client();
    void send(const json& message);
    void send_text(const std::string& text);
    void send_binary(const std::string& bytes);
    // The next message, or nothing when none came in time or the connection is closed.
    std::optional<json> read(std::chrono::milliseconds timeout = 5s);
    // Reads until a message of `type` (returned); fails the test when none comes in time.
    json expect(const std::string& type, std::chrono::milliseconds timeout = 5s);
    // Every message read so far, in order.
    const std::vector<json>& log() const noexcept { return log_; }
    bool closed() const noexcept;
    void close();
    // hello + welcome.
    void hello();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::vector<json> log_;
};

// Reads until a message satisfies `pred` (returned); fails the test when none comes in time.
json next_of(Client& c, const std::function<bool(const json&)>& pred, const std::string& what,
             std::chrono::milliseconds timeout = 5s);
// The next `room` snapshot that satisfies `pred`.
json room_where(Client& c, const std::function<bool(const json&)>& pred, const std::string& what,
                std::chrono::milliseconds timeout = 5s);
// The next notice of `kind`.
json notice_of(Client& c, const std::string& kind, std::chrono::milliseconds timeout = 5s);

// The server's side of the TCP connections on a loopback `port`, as the kernel lists them
// (/proc/net/tcp), whichever process holds them.
struct PortSockets {
    int open = 0;        // open both ways: established (accepted or not yet), or closed by the peer only
    int queued = 0;      // waiting in the listening socket's accept queue
    bool known = false;  // the list could be read
};
PortSockets port_sockets(std::uint16_t port);

// A plain HTTP GET on loopback: status and body.
std::pair<int, std::string> http_get(std::uint16_t port, const std::string& target);
// The same with the answer's header fields (names in lower case).
struct HttpReply {
    int status = 0;
    std::string body;
    std::map<std::string, std::string> headers;
};
HttpReply http_get_reply(std::uint16_t port, const std::string& target);

// Sends the raw HTTP `request` over TLS to loopback (the certificate verified as for Client) and
// returns what the server answers: the head of a 101, or everything until it closes the
// connection or `timeout` passes.
std::string tls_exchange(std::uint16_t port, const TlsClientOptions& tls, const std::string& request,
                         std::chrono::milliseconds timeout = 5s);

// One TLS handshake with the server on loopback and nothing more: whether it succeeded, and
// whether the server sent anything of TLS at all (a connection closed before its handshake
// gets nothing: no ServerHello, no certificate).
struct TlsHandshake {
    bool ok = false;
    bool server_spoke = false;
    std::string error;  // why it failed
};
TlsHandshake tls_handshake(std::uint16_t port, const TlsClientOptions& tls, std::chrono::milliseconds timeout = 5s);
// A client that will not stop sending: it connects (over TLS when `tls` is given), sends
// `opening` (an upgrade request and, in the same write, the frames that make the server close),
// then `burst` again and again as fast as the server takes it, reading all the server sends
// meanwhile, until the server ends the connection or `timeout` passes.
struct Flood {
    struct Frame {
        int opcode = 0;
        std::string payload;
        std::chrono::steady_clock::time_point at;  // when it arrived
    };
    std::string head;           // the answer to the upgrade request: status line and headers
    std::vector<Frame> frames;  // the server's frames, in order
    bool ended = false;         // the server hung up (a write failed, the connection was reset)
    std::chrono::steady_clock::time_point ended_at;
    std::uint64_t sent_after_close = 0;  // bytes the server took after its close frame came
};
Flood flood(std::uint16_t port, const std::string& opening, const std::string& burst, std::chrono::milliseconds timeout,
            const TlsClientOptions* tls = nullptr);

// Says hello and creates a room; returns its code (the client is seat 0 and host).
std::string create_room(Client& c, const json& options, const std::string& name = "Ann", json settings = nullptr);
// Says hello and joins the room by name, or resumes a seat by its token; returns `joined`.
json join(Client& c, const std::string& code, const std::string& name);
json resume(Client& c, const std::string& code, const std::string& token);
// The token of the seat `c` was given (its `joined`), or "" when none.
std::string token_of(const Client& c);
// Answers every decision with its first option (and the commitment with a seed) until
// game_over; returns game_over.
json play_to_end(Client& c, std::chrono::milliseconds limit = 30s);
// The taken seats of a `room` snapshot (it lists every seat of the room, free ones too).
inline json taken_seats(const json& room) {
    json out = json::array();
    for (const auto& s : room["seats"])
        if (!s.value("free", false)) out.push_back(s);
    return out;
}

// A fresh directory under the system's temporary one, removed at the end.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& what = "test");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

// A file system of its own for a data directory, mounted for a test and unmounted after it.
// `tmpfs`: a small tmpfs of `size` (it fills up, and space can be freed); else an ext4 image of
// `size` on a loop device mounted errors=remount-ro (the kernel turns it read-only on an error,
// as it does a failing disk's: a file system in use cannot be remounted read-only by hand, Linux
// refuses while files are open for writing). Mounting needs root, as CI runs: `mounted` says
// whether it worked (a test without it says it skipped).
struct TestMount {
    std::filesystem::path path, image;
    bool mounted = false;
    TestMount(bool tmpfs, const std::string& size, std::filesystem::path at = {});
    ~TestMount();
    TestMount(const TestMount&) = delete;
    TestMount& operator=(const TestMount&) = delete;
    void fill();        // a file of all the space that is left
    void free_space();  // that file removed
    // The kernel turns the ext4 file system read-only, as after a disk error (waits until it is).
    bool turn_read_only();
};

// The ids of the game records in a directory (its *.json files).
std::set<std::string> record_ids_in(const std::filesystem::path& dir);

// Forks the spookludo-server binary with `args`, its output (both streams) to the file `out`;
// `in_child` runs in the child before exec (limits, environment). Returns the child's pid.
pid_t spawn_server(const std::string& out, std::vector<std::string> args, const std::function<void()>& in_child = {});

}  // namespace spookludo::testing
