#pragma once
// WebSocket framing (RFC 6455, section 5) after the opening handshake, for both ends: the server
// frames its messages itself so that everything queued for a connection goes out in one write
// (Beast writes one frame per operation, one system call each), and the client reads and writes
// the same way. The handshake itself stays with Boost.Beast. No sockets here.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace spookludo::protocol::ws {

enum class Opcode : std::uint8_t { continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA };

// Close codes (RFC 6455, 7.4.1) this project sends.
inline constexpr std::uint16_t kCloseNormal = 1000;
inline constexpr std::uint16_t kCloseGoingAway = 1001;
inline constexpr std::uint16_t kCloseProtocolError = 1002;
inline constexpr std::uint16_t kCloseInvalidData = 1007;  // text that is not UTF-8
inline constexpr std::uint16_t kClosePolicy = 1008;       // too many bad messages, too slow a reader
inline constexpr std::uint16_t kCloseTooBig = 1009;

using MaskKey = std::array<std::uint8_t, 4>;

// The header of one final frame of `size` payload bytes: 2 to 14 bytes. Server frames are not
// masked; a client gives its mask key, and masks the payload with apply_mask.
struct FrameHeader {
    std::array<char, 14> bytes{};
    std::uint8_t size = 0;
    std::string_view view() const noexcept { return {bytes.data(), size}; }
};
FrameHeader frame_header(Opcode opcode, std::uint64_t payload_size, const MaskKey* mask = nullptr) noexcept;

// XORs data with the key, as if data started `offset` bytes into the payload.
void apply_mask(char* data, std::size_t size, const MaskKey& key, std::size_t offset = 0) noexcept;

// A whole final frame appended to `out` (masked when a key is given).
void append_frame(std::string& out, Opcode opcode, std::string_view payload, const MaskKey* mask = nullptr);

// The payload of a close frame: the code, then a reason cut to fit a control frame (123 bytes).
std::string close_payload(std::uint16_t code, std::string_view reason);
// The code of a received close frame's payload (0 when it has none) and its reason.
std::uint16_t close_code_of(std::string_view payload) noexcept;
std::string_view close_reason_of(std::string_view payload) noexcept;

bool valid_utf8(std::string_view text) noexcept;

// UTF-8 checked as it arrives, in pieces cut anywhere: feed() is false from the first byte that
// no continuation can make valid (an overlong form, a surrogate, beyond U+10FFFF, a stray or
// missing continuation byte); complete() says whether what came so far ends on a character
// boundary. A reader fails a text message at its bad bytes, not at its end.
class Utf8Checker {
public:
    bool feed(std::string_view bytes) noexcept;
    bool complete() const noexcept { return need_ == 0; }
    void reset() noexcept { *this = Utf8Checker(); }

private:
    std::uint8_t need_ = 0;                    // continuation bytes still to come
    std::uint8_t low_ = 0x80, high_ = 0xBF;    // the range the next continuation byte must be in
};

// Reads frames from a byte stream into whole messages: fragments are joined, control frames
// (ping, pong, close) come out as they arrive, even between the fragments of a message. Bytes
// go in through prepare/commit; next() yields each message, whose payload stays valid until
// the next call of next() or prepare(). A violation of the protocol stops the reader for good: failure()
// gives the close code to send and a reason a person can read.
class FrameReader {
public:
    enum class Role { server, client };  // a server reads masked frames, a client unmasked ones
    FrameReader(Role role, std::size_t max_message) noexcept : role_(role), max_message_(max_message) {}

    // Room for at least `min_free` more bytes at the end of what is buffered.
    char* prepare(std::size_t min_free);
    std::size_t free_space() const noexcept { return borrowed_ ? 0 : capacity_ - end_; }  // after prepare()
    void commit(std::size_t n) noexcept { end_ += n; }
    // Forgets what is buffered (after a failure, while waiting for the connection to end).
    void clear() noexcept {
        borrowed_ = nullptr;
        begin_ = end_ = 0;
        checked_ = 0;
    }

    struct Message {
        Opcode opcode = Opcode::text;  // text, binary, close, ping or pong
        std::string_view payload;
    };
    enum class Status { message, need_more, failed };
    Status next(Message& message);

    struct Failure {
        std::uint16_t code = 0;
        std::string reason;
    };
    const Failure& failure() const noexcept { return failure_; }

    // Bytes in a buffer of the caller's (one a thread, shared by its connections), instead of
    // prepare/commit: when nothing is buffered they are read where they are (unmasked in place),
    // else appended to what is. Before the caller's buffer is used again, keep() copies what
    // next() left of it (an incomplete frame) into the reader's own buffer; a connection that
    // reads whole frames holds no buffer at all. A failed reader takes and keeps nothing.
    void take(char* data, std::size_t n);
    void keep();

    std::size_t buffered() const noexcept { return end_ - begin_; }
    // Memory held (the buffer and a message being joined), for the idle-connection figures.
    std::size_t capacity() const noexcept { return capacity_ + fragments_.capacity(); }
    // Gives the buffer back when nothing is in it and it is larger than `keep` bytes (after a
    // large message, an idle connection goes back to a small buffer, or to none).
    void release_if_empty(std::size_t keep = 0) noexcept;

    // The connection is closing (this end said close): from the next call of next() on, frames
    // are skipped as they come, whatever they are. Only their headers are read: a payload is
    // neither unmasked, nor checked, nor joined, nor kept, and a message being joined is given
    // back. next() then yields only the arrival of a close frame (with an empty payload: the
    // peer's answer, the end of the exchange), and takes everything buffered each time, keeping
    // at most a header cut by a read's end (13 bytes, inside the reader). For good, like a failure;
    // a failed reader stays failed.
    void drain() noexcept { draining_ = true; }
    bool draining() const noexcept { return draining_; }

private:
    Status fail(std::uint16_t code, std::string reason);
    Status skip(Message& message);  // next() while draining

    Role role_;
    std::size_t max_message_;
    std::unique_ptr<char[]> buffer_;
    char* borrowed_ = nullptr;  // the caller's bytes being read (take), else buffer_'s
    std::size_t capacity_ = 0, begin_ = 0, end_ = 0;
    std::string fragments_;          // a fragmented message so far
    Opcode fragmented_ = Opcode::continuation;  // its opcode, continuation when none is open
    Utf8Checker utf8_;               // the text message being read, up to what has arrived
    std::size_t checked_ = 0;        // payload bytes of the incomplete frame unmasked and checked
    Failure failure_;
    // Draining (drain()): the payload bytes of the frame being skipped still to come, and a
    // header cut by a read's end.
    bool draining_ = false;
    std::uint64_t skip_ = 0;
    std::array<unsigned char, 14> head_{};
    std::uint8_t head_size_ = 0;
};

}  // namespace spookludo::protocol::ws
