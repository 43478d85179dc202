#pragma once
// The client's network layer: one event loop per process (Asio underneath, kept in the net*.cpp
// files so that nothing else compiles Boost) and WebSocket connections to the server. Every
// callback runs on the loop's thread, so the code above it needs no locks.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace spookludo::client {

// ws://HOST:PORT[/PATH] or wss://HOST:PORT[/PATH]; the port defaults to 7777 (the server's,
// with TLS or without), the path to /ws. Errors say what is wrong with the text.
struct Url {
    std::string host;
    std::string port;
    std::string path = "/ws";
    bool tls = false;  // wss://: TLS, the server's certificate checked (never a fall-back to plain)
    // wss://: trust the certificates in this PEM file (a private CA, or the server's self-signed
    // certificate) instead of the system's store. Empty: the system's CA store.
    std::string ca_file;
    std::string host_port() const;  // 127.0.0.1:7777, [::1]:7777
    std::string text() const;       // ws://host:port, or wss://, with the path when not /ws
    std::string http_base() const;  // http://host:port or https://host:port (the same server's HTTP)
};
// The parsed URL, or an error message (e.g. "the address must start with ws:// or wss://").
std::optional<Url> parse_url(std::string_view text, std::string& error);

// A cluster node's address as the server gives it (welcome's `nodes`, a `redirect`'s `url`:
// http(s)://HOST[:PORT][/PREFIX]) as the WebSocket URL to connect to: ws(s)://HOST:PORT[/PREFIX]/ws,
// trusting what `like` trusts (its ca_file). Nothing when it is not such an address.
std::optional<Url> node_ws_url(std::string_view node, const Url& like);

// http://HOST[:PORT][/TARGET] or https://... (the server's records, /records/<id>). The port
// defaults to 80 (443 for https), the target to "/". Errors say what is wrong with the text.
struct HttpUrl {
    bool tls = false;
    std::string host;
    std::string port = "80";
    std::string target = "/";
    std::string ca_file;  // https: as Url::ca_file
    std::string host_port() const;  // 127.0.0.1:80, [::1]:443
};
std::optional<HttpUrl> parse_http_url(std::string_view text, std::string& error);

// Checks that a --ca-file can be used (readable, holds at least one certificate); the reason
// it cannot, or nothing.
std::optional<std::string> ca_file_problem(const std::string& path);

// A blocking GET (its own connection, nothing else runs meanwhile), over TLS for https:// with
// the certificate checked as for wss://. The status and the body; throws std::runtime_error
// saying why in words: "connection refused", "timed out", "the body is larger than N bytes",
// "the server's certificate expired on ...", ...
struct HttpResponse {
    int status = 0;
    std::string body;
    std::string location;  // a redirect's Location
};
HttpResponse http_get(const HttpUrl& url, std::size_t max_body, std::chrono::milliseconds timeout);

// Milliseconds of the steady clock (deadlines, round trips) and of the system clock.
std::int64_t steady_ms();
std::int64_t wall_ms();

class EventLoop {
public:
    EventLoop();
    ~EventLoop();
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;

    // Runs until stop() or until there is nothing left to do.
    void run();
    void stop();
    bool stopped() const;
    void post(std::function<void()> fn);

    // A one-shot timer; cancel() before it fires and it never does.
    using TimerId = std::uint64_t;
    TimerId after(std::chrono::milliseconds delay, std::function<void()> fn);
    void cancel(TimerId id);

    // SIGINT and SIGTERM (and SIGHUP) call `fn` with the signal number.
    void on_signal(std::function<void(int)> fn);
    // Bytes from a file descriptor (a terminal or a pipe), as they arrive; `on_end` at EOF.
    void watch_input(int fd, std::function<void(std::string_view)> on_bytes, std::function<void()> on_end);
    // SIGWINCH: the terminal was resized.
    void on_resize(std::function<void()> fn);

    struct Impl;
    Impl& impl() noexcept { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

// One WebSocket connection to the server. Open it with open(); the handlers are called on the
// loop's thread; after on_close nothing else is called.
class Connection {
public:
    struct Handlers {
        std::function<void()> on_open;
        std::function<void(std::string_view text)> on_message;
        // Why it ended: a failed resolve/connect/handshake, the server's close, or close().
        std::function<void(const std::string& reason)> on_close;
    };
    struct Stats {
        std::uint64_t messages_in = 0;
        std::uint64_t messages_out = 0;
        std::uint64_t bytes_in = 0;
        std::uint64_t bytes_out = 0;
    };

    // receive_buffer: the socket's receive buffer in bytes (0: the system's; the load
    // generator's slow readers use a small one so that the server feels them soon).
    // A wss:// URL's certificate is checked against url.ca_file or the system's CA store, and
    // its host name; a failed check ends the connection (on_close says why and what to do),
    // never a fall-back to plain text. Throws std::runtime_error when the TLS context cannot
    // be made (an unusable ca_file: check it first with ca_file_problem).
    static std::shared_ptr<Connection> open(EventLoop& loop, const Url& url, Handlers handlers,
                                            std::chrono::milliseconds connect_timeout = std::chrono::seconds(10),
                                            int receive_buffer = 0);
    virtual ~Connection() = default;
    // Queues a text frame (sent in order).
    virtual void send(std::string text) = 0;
    // A polite close (close frame); on_close follows.
    virtual void close() = 0;
    // Stops reading for `ms` milliseconds (the load generator's slow readers).
    virtual void pause_reading(std::chrono::milliseconds ms) = 0;
    virtual bool is_open() const = 0;
    // Nothing left to do: closed (after a close(), once the queued frames went out and the
    // closing handshake ended or timed out).
    virtual bool is_closed() const = 0;
    virtual const Stats& stats() const = 0;
};

}  // namespace spookludo::client
