#pragma once
// The client's network layer: one event loop per process (Asio underneath, kept in net.cpp so
// that nothing else compiles Boost) and WebSocket connections to the server. Every callback runs
// on the loop's thread, so the code above it needs no locks.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace spookludo::client {

// ws://HOST:PORT[/PATH]; the path defaults to /ws. Errors say what is wrong with the text.
struct Url {
    std::string host;
    std::string port;
    std::string path = "/ws";
    std::string text() const { return "ws://" + host + ":" + port + (path == "/ws" ? std::string() : path); }
};
// The parsed URL, or an error message (e.g. "wss:// is not supported: use ws://").
std::optional<Url> parse_url(std::string_view text, std::string& error);

// http://HOST[:PORT][/TARGET] (plain HTTP: the server's records, /records/<id>). The port
// defaults to 80, the target to "/". Errors say what is wrong with the text.
struct HttpUrl {
    std::string host;
    std::string port = "80";
    std::string target = "/";
};
std::optional<HttpUrl> parse_http_url(std::string_view text, std::string& error);

// A blocking GET (its own connection, nothing else runs meanwhile). The status and the body;
// throws std::runtime_error saying why in words: "connection refused", "timed out", "the body
// is larger than N bytes", ...
struct HttpResponse {
    int status = 0;
    std::string body;
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
