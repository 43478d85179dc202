#pragma once
// A raw WebSocket client written here with plain POSIX sockets (its frames built by hand, so
// that it can break the rules on purpose), and helpers for tests of the real server over
// loopback: frames, the hello, waiting for /metrics, the answer to a protocol failure.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "spookludo/protocol/messages.h"
#include "spookludo/protocol/websocket.h"

namespace spookludo::testing::raw {

namespace ws = spookludo::protocol::ws;
using Clock = std::chrono::steady_clock;
using Status = ws::FrameReader::Status;
using Role = ws::FrameReader::Role;

constexpr ws::MaskKey kMask{0xA5, 0x1C, 0x7E, 0x03};
constexpr ws::MaskKey kMask2{0x00, 0xFF, 0x5A, 0x81};
constexpr std::size_t kMax = protocol::kMaxMessageBytes;

struct Frame {
    ws::Opcode opcode = ws::Opcode::text;
    std::string payload;
    friend bool operator==(const Frame&, const Frame&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const Frame& f) {
    os << "{opcode " << static_cast<int>(f.opcode) << ", " << f.payload.size() << " bytes";
    if (f.payload.size() <= 40) os << " \"" << f.payload << "\"";
    return os << "}";
}

inline int op(ws::Opcode o) { return static_cast<int>(o); }

inline std::uint16_t code_of(std::string_view close_payload) {
    REQUIRE(close_payload.size() >= 2);
    return static_cast<std::uint16_t>((static_cast<unsigned char>(close_payload[0]) << 8) |
                                      static_cast<unsigned char>(close_payload[1]));
}

// Bytes 0..n-1 of a fixed pseudo-random sequence (every byte value, zeros included).
inline std::string bytes_of(std::size_t n, unsigned seed = 1) {
    std::string s(n, '\0');
    unsigned x = seed * 2654435761u + 12345u;
    for (auto& c : s) {
        x = x * 1103515245u + 12345u;
        c = static_cast<char>(x >> 16);
    }
    return s;
}

// A frame with any first byte (FIN, RSV1-3, opcode): the header of frame_header, byte 0 replaced.
inline std::string raw_frame(std::uint8_t byte0, std::string_view payload, const ws::MaskKey* mask = &kMask) {
    std::string out;
    ws::append_frame(out, ws::Opcode::text, payload, mask);
    out[0] = static_cast<char>(byte0);
    return out;
}

// A masked (client) frame, final unless fin is false.
inline std::string frame(ws::Opcode opcode, std::string_view payload, bool fin = true, const ws::MaskKey* mask = &kMask) {
    return raw_frame(static_cast<std::uint8_t>((fin ? 0x80 : 0x00) | static_cast<std::uint8_t>(opcode)), payload, mask);
}

inline std::string close_frame(std::uint16_t code, std::string_view reason = "", const ws::MaskKey* mask = &kMask) {
    return frame(ws::Opcode::close, ws::close_payload(code, reason), true, mask);
}

inline void feed(ws::FrameReader& reader, std::string_view bytes) {
    if (bytes.empty()) return;
    char* at = reader.prepare(bytes.size());
    REQUIRE(reader.free_space() >= bytes.size());
    std::memcpy(at, bytes.data(), bytes.size());
    reader.commit(bytes.size());
}

inline const std::string kHello = R"({"type":"hello","protocol":1,"client":"raw socket"})";

// A hello padded with spaces (JSON whitespace) to exactly `size` bytes.
inline std::string hello_of_size(std::size_t size) {
    std::string s = R"({"type":"hello","protocol":1,)";
    const std::string tail = R"("client":"raw"})";
    REQUIRE(size >= s.size() + tail.size());
    s.append(size - s.size() - tail.size(), ' ');
    s += tail;
    return s;
}

// ---- A raw WebSocket client over a POSIX socket ---------------------------------------------
class RawClient {
public:
    // receive_buffer: SO_RCVBUF in bytes (0: the system's), small for a reader that stops reading.
    explicit RawClient(std::uint16_t port, int receive_buffer = 0) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        REQUIRE(fd_ >= 0);
        int one = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // each send its own segment
        if (receive_buffer > 0) ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
    }
    ~RawClient() {
        if (fd_ >= 0) ::close(fd_);
    }
    RawClient(const RawClient&) = delete;
    RawClient& operator=(const RawClient&) = delete;

    static std::string upgrade_request(const std::string& extra_headers = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n") {
        return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Version: 13\r\n" +
               extra_headers + "\r\n";
    }

    // Sends an upgrade request and returns the response's head (status line and headers); what
    // follows it goes to the frame reader.
    std::string request_upgrade(const std::string& request, std::chrono::milliseconds timeout = 10s) {
        send_bytes(request);
        std::string got;
        const auto deadline = Clock::now() + timeout;
        std::size_t end;
        while ((end = got.find("\r\n\r\n")) == std::string::npos) {
            char buf[1024];
            const ssize_t n = recv_until(buf, sizeof buf, deadline);
            if (n <= 0) return got;
            got.append(buf, static_cast<std::size_t>(n));
        }
        feed(reader_, std::string_view(got).substr(end + 4));
        got.resize(end + 4);
        return got;
    }

    // The opening handshake with RFC 6455's example key; checks the 101 and the accept value.
    void open() {
        const std::string head = request_upgrade(upgrade_request());
        INFO(head);
        REQUIRE(head.rfind("HTTP/1.1 101", 0) == 0);
        // RFC 6455, 1.3: the accept value of the key "dGhlIHNhbXBsZSBub25jZQ==".
        CHECK(head.find("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") != std::string::npos);
    }

    // Everything the server sends until it ends the connection (or the time is up).
    std::string read_to_end(std::chrono::milliseconds timeout = 10s) {
        std::string got;
        const auto deadline = Clock::now() + timeout;
        char buf[4096];
        ssize_t n;
        while ((n = recv_until(buf, sizeof buf, deadline)) > 0) got.append(buf, static_cast<std::size_t>(n));
        return got;
    }

    // False when the server has closed the connection.
    bool send_bytes(std::string_view bytes) {
        while (!bytes.empty()) {
            const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }
    // Several writes, a pause between them so that they leave as separate TCP segments.
    void send_in_pieces(std::string_view bytes, const std::vector<std::size_t>& cuts) {
        std::size_t at = 0;
        for (std::size_t cut : cuts) {
            REQUIRE(send_bytes(bytes.substr(at, cut - at)));
            at = cut;
            std::this_thread::sleep_for(30ms);
        }
        REQUIRE(send_bytes(bytes.substr(at)));
    }

    // The next frame from the server, or nothing when none came in time or the connection ended.
    std::optional<Frame> read_frame(std::chrono::milliseconds timeout = 10s) {
        const auto deadline = Clock::now() + timeout;
        for (;;) {
            ws::FrameReader::Message m;
            const Status s = reader_.next(m);
            if (s == Status::message) return Frame{m.opcode, std::string(m.payload)};
            if (s == Status::failed) {
                FAIL_CHECK("the server sent a frame against RFC 6455: " << reader_.failure().reason);
                return std::nullopt;
            }
            char* at = reader_.prepare(4096);
            const ssize_t n = recv_until(at, reader_.free_space(), deadline);
            if (n <= 0) return std::nullopt;
            reader_.commit(static_cast<std::size_t>(n));
        }
    }

    // The next text message as JSON; pings on the way are answered (and counted).
    std::optional<json> read_json(std::chrono::milliseconds timeout = 10s) {
        const auto deadline = Clock::now() + timeout;
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            auto f = read_frame(std::max(left, 1ms));
            if (!f) return std::nullopt;
            if (f->opcode == ws::Opcode::ping) {
                ++pings;
                send_bytes(frame(ws::Opcode::pong, f->payload));
                continue;
            }
            if (f->opcode != ws::Opcode::text) {
                last_other = f;
                return std::nullopt;
            }
            return json::parse(f->payload);
        }
    }

    // Reads until the server ends the connection; true when it did in time. Frames read on the
    // way are kept in `after`.
    bool wait_closed(std::chrono::milliseconds timeout = 10s) {
        const auto deadline = Clock::now() + timeout;
        while (auto f = read_frame(std::max(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()), 1ms)))
            after.push_back(*f);
        return ended_;
    }

    bool ended() const noexcept { return ended_; }

    int pings = 0;
    std::optional<Frame> last_other;  // a frame that stopped read_json
    std::vector<Frame> after;         // frames read by wait_closed

private:
    // One recv, waiting until the deadline: > 0 bytes, 0 when the connection ended, -1 on time out.
    ssize_t recv_until(char* buf, std::size_t size, Clock::time_point deadline) {
        if (ended_) return 0;
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return -1;
            pollfd p{fd_, POLLIN, 0};
            const int r = ::poll(&p, 1, static_cast<int>(left));
            if (r < 0 && errno == EINTR) continue;
            if (r == 0) return -1;
            const ssize_t n = ::recv(fd_, buf, size, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n > 0) return n;
            ended_ = true;  // end of stream, or reset
            return 0;
        }
    }

    int fd_ = -1;
    ws::FrameReader reader_{Role::client, 1 << 20};
    bool ended_ = false;
};

// hello -> welcome over a fresh raw connection and over the harness's (Beast) client.
inline void another_connection_works(std::uint16_t port) {
    RawClient c(port);
    c.open();
    REQUIRE(c.send_bytes(frame(ws::Opcode::text, kHello)));
    const auto welcome = c.read_json();
    REQUIRE(welcome.has_value());
    CHECK((*welcome)["type"] == "welcome");
    Client beast_client(port);
    beast_client.hello();
}

// Waits until /metrics counts `n` open WebSocket connections; false when it does not in time.
inline bool connections_become(std::uint16_t port, long n, std::chrono::milliseconds timeout = 10s) {
    const std::string want = "\nspookludo_connections " + std::to_string(n) + "\n";
    const auto deadline = Clock::now() + timeout;
    std::string last;
    while (Clock::now() < deadline) {
        last = http_get(port, "/metrics").second;
        if (("\n" + last).find(want) != std::string::npos) return true;
        std::this_thread::sleep_for(50ms);
    }
    MESSAGE("/metrics: ", last);
    return false;
}

// The server's answer to a protocol failure: a close frame with `code` and a reason, then the
// end of the connection, and nothing after the close frame.
inline void expect_closed_with(RawClient& c, std::uint16_t code) {
    auto f = c.read_frame();
    // Anything the server sent before noticing (errors for earlier messages) is skipped.
    while (f && f->opcode == ws::Opcode::text) f = c.read_frame();
    REQUIRE_MESSAGE(f.has_value(), "no close frame came");
    REQUIRE(op(f->opcode) == op(ws::Opcode::close));
    CHECK(code_of(f->payload) == code);
    CHECK_MESSAGE(f->payload.size() > 2, "the close frame gives a reason");
    CHECK(ws::valid_utf8(f->payload.substr(2)));
    CHECK_MESSAGE(c.wait_closed(), "the server did not end the connection after its close frame");
    CHECK_MESSAGE(c.after.empty(), "the server sent frames after its close frame");
}


}  // namespace spookludo::testing::raw
