#include "spookludo/protocol/websocket.h"

#include <algorithm>
#include <cstring>

namespace spookludo::protocol::ws {

namespace {

constexpr std::size_t kMinBuffer = 512;
constexpr std::size_t kMaxControlPayload = 125;

bool is_control(Opcode op) noexcept { return (static_cast<std::uint8_t>(op) & 0x8) != 0; }

bool known_opcode(std::uint8_t op) noexcept {
    return op == 0x0 || op == 0x1 || op == 0x2 || op == 0x8 || op == 0x9 || op == 0xA;
}

// Close codes a peer may send (RFC 6455, 7.4).
bool valid_close_code(std::uint16_t code) noexcept {
    if (code >= 3000 && code <= 4999) return true;
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014);
}

}  // namespace

FrameHeader frame_header(Opcode opcode, std::uint64_t payload_size, const MaskKey* mask) noexcept {
    FrameHeader h;
    auto* b = reinterpret_cast<unsigned char*>(h.bytes.data());
    b[0] = static_cast<unsigned char>(0x80 | static_cast<std::uint8_t>(opcode));
    const unsigned char masked = mask ? 0x80 : 0x00;
    std::size_t n = 2;
    if (payload_size < 126) {
        b[1] = static_cast<unsigned char>(masked | payload_size);
    } else if (payload_size <= 0xFFFF) {
        b[1] = masked | 126;
        b[2] = static_cast<unsigned char>(payload_size >> 8);
        b[3] = static_cast<unsigned char>(payload_size);
        n = 4;
    } else {
        b[1] = masked | 127;
        for (int i = 0; i < 8; ++i) b[2 + i] = static_cast<unsigned char>(payload_size >> (56 - 8 * i));
        n = 10;
    }
    if (mask) {
        std::memcpy(b + n, mask->data(), 4);
        n += 4;
    }
    h.size = static_cast<std::uint8_t>(n);
    return h;
}

void apply_mask(char* data, std::size_t size, const MaskKey& key, std::size_t offset) noexcept {
    for (std::size_t i = 0; i < size; ++i) data[i] = static_cast<char>(data[i] ^ key[(offset + i) & 3]);
}

void append_frame(std::string& out, Opcode opcode, std::string_view payload, const MaskKey* mask) {
    const FrameHeader h = frame_header(opcode, payload.size(), mask);
    out.append(h.view());
    const std::size_t at = out.size();
    out.append(payload);
    if (mask) apply_mask(out.data() + at, payload.size(), *mask);
}

std::string close_payload(std::uint16_t code, std::string_view reason) {
    std::string p;
    p.push_back(static_cast<char>(code >> 8));
    p.push_back(static_cast<char>(code & 0xFF));
    std::size_t keep = std::min<std::size_t>(reason.size(), kMaxControlPayload - 2);
    // Never cut a UTF-8 sequence in two.
    while (keep > 0 && keep < reason.size() && (static_cast<unsigned char>(reason[keep]) & 0xC0) == 0x80) --keep;
    p.append(reason.substr(0, keep));
    return p;
}

std::uint16_t close_code_of(std::string_view payload) noexcept {
    if (payload.size() < 2) return 0;
    return static_cast<std::uint16_t>((static_cast<unsigned char>(payload[0]) << 8) | static_cast<unsigned char>(payload[1]));
}

std::string_view close_reason_of(std::string_view payload) noexcept {
    return payload.size() > 2 ? payload.substr(2) : std::string_view();
}

bool Utf8Checker::feed(std::string_view bytes) noexcept {
    const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t n = bytes.size();
    std::size_t i = 0;
    while (i < n) {
        if (need_ == 0) {
            // ASCII, eight bytes at a time.
            while (i + 8 <= n) {
                std::uint64_t word;
                std::memcpy(&word, s + i, 8);
                if (word & 0x8080808080808080ULL) break;
                i += 8;
            }
            if (i >= n) break;
            const unsigned char c = s[i++];
            if (c < 0x80) continue;
            // The well-formed sequences (Unicode, table 3-7): the lead byte fixes the length
            // and the range of the first continuation byte, which rules out overlong forms
            // (E0, F0), surrogates (ED) and code points beyond U+10FFFF (F4).
            low_ = 0x80;
            high_ = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                need_ = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need_ = 2;
                if (c == 0xE0) low_ = 0xA0;
                if (c == 0xED) high_ = 0x9F;
            } else if (c >= 0xF0 && c <= 0xF4) {
                need_ = 3;
                if (c == 0xF0) low_ = 0x90;
                if (c == 0xF4) high_ = 0x8F;
            } else {
                return false;  // a continuation byte with no lead, C0, C1, F5-FF
            }
            continue;
        }
        const unsigned char c = s[i++];
        if (c < low_ || c > high_) return false;
        low_ = 0x80;
        high_ = 0xBF;
        --need_;
    }
    return true;
}

bool valid_utf8(std::string_view text) noexcept {
    Utf8Checker checker;
    return checker.feed(text) && checker.complete();
}

char* FrameReader::prepare(std::size_t min_free) {
    if (borrowed_) keep();
    if (begin_ == end_) begin_ = end_ = 0;
    if (capacity_ - end_ >= min_free) return buffer_.get() + end_;
    const std::size_t used = end_ - begin_;
    if (begin_ > 0 && capacity_ - used >= min_free) {
        std::memmove(buffer_.get(), buffer_.get() + begin_, used);
    } else {
        const std::size_t size = std::max({kMinBuffer, 2 * capacity_, used + min_free});
        auto bigger = std::make_unique_for_overwrite<char[]>(size);
        if (used) std::memcpy(bigger.get(), buffer_.get() + begin_, used);
        buffer_ = std::move(bigger);
        capacity_ = size;
    }
    begin_ = 0;
    end_ = used;
    return buffer_.get() + end_;
}

void FrameReader::take(char* data, std::size_t n) {
    if (n == 0 || failure_.code) return;  // a failed reader reads nothing more
    if (borrowed_ == nullptr && begin_ == end_) {
        borrowed_ = data;
        begin_ = 0;
        end_ = n;
        return;
    }
    if (borrowed_) keep();
    std::memcpy(prepare(n), data, n);
    commit(n);
}

void FrameReader::keep() {
    if (!borrowed_) return;
    const char* rest = borrowed_ + begin_;
    const std::size_t size = end_ - begin_;
    borrowed_ = nullptr;
    begin_ = end_ = 0;
    if (size == 0 || failure_.code) return;  // nothing after a failure is worth keeping
    std::memcpy(prepare(size), rest, size);  // checked_ counts from the frame's start: still right
    commit(size);
}

void FrameReader::release_if_empty(std::size_t keep) noexcept {
    // A joined message is not kept once it has been handed out.
    if (fragmented_ == Opcode::continuation && fragments_.capacity() > std::string().capacity())
        std::string().swap(fragments_);
    if (borrowed_ || begin_ != end_ || capacity_ == 0 || capacity_ <= keep) return;
    buffer_.reset();
    capacity_ = begin_ = end_ = 0;
}

FrameReader::Status FrameReader::fail(std::uint16_t code, std::string reason) {
    failure_ = {code, std::move(reason)};
    return Status::failed;
}

FrameReader::Status FrameReader::skip(Message& message) {
    if (fragmented_ != Opcode::continuation || fragments_.capacity() > std::string().capacity()) {
        fragmented_ = Opcode::continuation;
        std::string().swap(fragments_);
    }
    checked_ = 0;
    const char* const base = borrowed_ ? borrowed_ : buffer_.get();
    while (begin_ < end_) {
        if (skip_ > 0) {  // a payload: passed over in one step
            const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(skip_, end_ - begin_));
            begin_ += n;
            skip_ -= n;
            continue;
        }
        // A header, a byte at a time: it may be cut anywhere by a read's end.
        head_[head_size_++] = static_cast<unsigned char>(base[begin_++]);
        if (head_size_ < 2) continue;
        const unsigned char length7 = head_[1] & 0x7F;
        const std::size_t extended = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
        const std::size_t size = 2 + extended + ((head_[1] & 0x80) ? 4 : 0);
        if (head_size_ < size) continue;
        std::uint64_t length = length7;
        if (extended) {
            length = 0;
            for (std::size_t i = 0; i < extended; ++i) length = (length << 8) | head_[2 + i];
        }
        skip_ = length;
        head_size_ = 0;
        if ((head_[0] & 0x0F) == static_cast<std::uint8_t>(Opcode::close)) {
            message = {Opcode::close, {}};
            return Status::message;
        }
    }
    return Status::need_more;
}

FrameReader::Status FrameReader::next(Message& message) {
    if (failure_.code) return Status::failed;
    if (draining_) return skip(message);
    for (;;) {
        const std::size_t avail = end_ - begin_;
        if (avail < 2) return Status::need_more;
        char* const base = borrowed_ ? borrowed_ : buffer_.get();
        const auto* b = reinterpret_cast<const unsigned char*>(base + begin_);
        const bool fin = (b[0] & 0x80) != 0;
        if (b[0] & 0x70) return fail(kCloseProtocolError, "reserved bits set (no extension was agreed)");
        const std::uint8_t raw_op = b[0] & 0x0F;
        if (!known_opcode(raw_op)) return fail(kCloseProtocolError, "unknown opcode " + std::to_string(raw_op));
        const auto op = static_cast<Opcode>(raw_op);
        const bool masked = (b[1] & 0x80) != 0;
        if (role_ == Role::server && !masked) return fail(kCloseProtocolError, "a client's frames must be masked");
        if (role_ == Role::client && masked) return fail(kCloseProtocolError, "a server's frames must not be masked");
        std::uint64_t length = b[1] & 0x7F;
        std::size_t header = 2;
        if (length == 126) {
            if (avail < 4) return Status::need_more;
            length = (std::uint64_t{b[2]} << 8) | b[3];
            header = 4;
        } else if (length == 127) {
            if (avail < 10) return Status::need_more;
            length = 0;
            for (int i = 0; i < 8; ++i) length = (length << 8) | b[2 + i];
            header = 10;
            if (length >> 63) return fail(kCloseProtocolError, "a frame length with its top bit set");
        }
        if (is_control(op)) {
            if (!fin) return fail(kCloseProtocolError, "a fragmented control frame");
            if (length > kMaxControlPayload) return fail(kCloseProtocolError, "a control frame over 125 bytes");
        } else {
            if (op == Opcode::continuation && fragmented_ == Opcode::continuation)
                return fail(kCloseProtocolError, "a continuation frame with no message to continue");
            if (op != Opcode::continuation && fragmented_ != Opcode::continuation)
                return fail(kCloseProtocolError, "a new message before the last one's final fragment");
            const std::size_t so_far = op == Opcode::continuation ? fragments_.size() : 0;  // of this message
            if (length + so_far > max_message_)
                return fail(kCloseTooBig, "a message over " + std::to_string(max_message_) + " bytes");
        }
        MaskKey key{};
        if (masked) {
            if (avail < header + 4) return Status::need_more;
            std::memcpy(key.data(), b + header, 4);
            header += 4;
        }
        char* payload = base + begin_ + header;
        const bool text = op == Opcode::text || (op == Opcode::continuation && fragmented_ == Opcode::text);
        if (op == Opcode::text && checked_ == 0) utf8_.reset();  // a new text message
        if (avail < header + length) {
            // Part of a text frame: what has come is unmasked and checked now, so that invalid
            // UTF-8 fails the connection without waiting for the rest.
            if (text && avail > header + checked_) {
                const std::size_t part = avail - header;
                if (masked) apply_mask(payload + checked_, part - checked_, key, checked_);
                if (!utf8_.feed(std::string_view(payload + checked_, part - checked_)))
                    return fail(kCloseInvalidData, "a text message that is not UTF-8");
                checked_ = part;
            }
            return Status::need_more;
        }
        const auto size = static_cast<std::size_t>(length);
        if (masked) apply_mask(payload + checked_, size - checked_, key, checked_);
        if (text && !utf8_.feed(std::string_view(payload + checked_, size - checked_)))
            return fail(kCloseInvalidData, "a text message that is not UTF-8");
        checked_ = 0;
        begin_ += header + size;
        std::string_view data(payload, size);

        if (is_control(op)) {
            if (op == Opcode::close) {
                if (size == 1) return fail(kCloseProtocolError, "a close frame with a one-byte payload");
                if (size >= 2) {
                    const auto code = close_code_of(data);
                    if (!valid_close_code(code))
                        return fail(kCloseProtocolError, "close code " + std::to_string(code) + " is not allowed");
                    if (!valid_utf8(close_reason_of(data))) return fail(kCloseInvalidData, "a close reason that is not UTF-8");
                }
            }
            message = {op, data};
            return Status::message;
        }
        Opcode kind = op;
        if (op == Opcode::continuation) {
            kind = fragmented_;
            fragments_.append(data);
            if (!fin) continue;
            data = fragments_;
            fragmented_ = Opcode::continuation;
        } else if (!fin) {
            fragmented_ = op;
            fragments_.assign(data);
            continue;
        }
        if (kind == Opcode::text && !utf8_.complete())
            return fail(kCloseInvalidData, "a text message that is not UTF-8 (it ends inside a character)");
        message = {kind, data};
        return Status::message;
    }
}

}  // namespace spookludo::protocol::ws
