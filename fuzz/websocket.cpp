// The WebSocket frame reader (protocol/websocket.h) in one role, compiled twice: websocket_server
// (masked frames, the server's 4096-byte limit) and websocket_client (unmasked frames, the
// client's 1 MiB limit). The first byte picks the mode:
//   raw:    the rest of the input is the byte stream, fed in chunks whose sizes come from the
//           next bytes, as reads of any size would deliver it;
//   frames: the rest describes frames (opcode, fin, payload), written with append_frame in the
//           role's masking and fed in chunks; every whole message must come out as it went in.
// Invariants: messages never exceed the limit (125 bytes for control frames), text is UTF-8,
// close frames carry an allowed code, a failure carries 1002, 1007 or 1009 and a reason that
// fits a close frame, and a failed reader stays failed. A reader told to drain (a closing
// connection's) never fails, yields only close frames (one for each in the stream, payload empty)
// and holds nothing between reads.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz.h"
#include "spookludo/protocol/messages.h"
#include "spookludo/protocol/websocket.h"

#ifndef SPOOKLUDO_FUZZ_ROLE_CLIENT
#define SPOOKLUDO_FUZZ_ROLE_CLIENT 0
#endif

namespace ws = spookludo::protocol::ws;
using spookludo::fuzz::Bytes;

namespace {

constexpr bool kClient = SPOOKLUDO_FUZZ_ROLE_CLIENT != 0;
constexpr ws::FrameReader::Role kRole = kClient ? ws::FrameReader::Role::client : ws::FrameReader::Role::server;
// The limits the programs use: the server's protocol limit, the client's (client/net_websocket.cpp).
constexpr std::size_t kRealLimit = kClient ? std::size_t{1} << 20 : spookludo::protocol::kMaxMessageBytes;

bool allowed_close_code(std::uint16_t code) {
    return (code >= 3000 && code <= 4999) || (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014);
}

struct Out {
    ws::Opcode opcode;
    std::string payload;
};

// Feeds `stream` in chunks (sizes from `chunks`), collecting messages; checks every invariant.
// Returns false when the reader failed.
bool feed(ws::FrameReader& reader, std::string_view stream, Bytes& chunks, std::size_t limit, std::vector<Out>& out) {
    std::array<std::size_t, 4> sizes{};
    for (auto& s : sizes) {
        const std::uint8_t b = chunks.byte();
        s = b < 200 ? std::size_t{b} % 16 + 1 : std::size_t{b - 199u} * 97;  // mostly small reads, some large
    }
    const std::size_t min_free = chunks.flag() ? 16384 : 1 + chunks.below(600);
    // Or as the server's one-thread read: each chunk in a shared buffer, read in place (take),
    // what is left of it saved (keep) and the buffer overwritten before the next chunk.
    const bool in_place = chunks.flag();
    std::string shared;
    std::size_t at = 0, n = 0;
    bool failed = false;
    while (at < stream.size()) {
        const std::size_t want = std::min(sizes[n++ % sizes.size()], stream.size() - at);
        std::size_t give = want;
        if (in_place) {
            shared.assign(stream.substr(at, give));
            reader.take(shared.data(), give);
        } else {
            char* into = reader.prepare(std::min(want, min_free));
            give = std::min(want, reader.free_space());
            FUZZ_CHECK(give > 0, "prepare left no room");
            std::memcpy(into, stream.data() + at, give);
            reader.commit(give);
        }
        at += give;
        ws::FrameReader::Message m;
        for (;;) {
            const auto status = reader.next(m);
            if (status == ws::FrameReader::Status::need_more) break;
            if (status == ws::FrameReader::Status::failed) {
                const auto& f = reader.failure();
                FUZZ_CHECK(f.code == ws::kCloseProtocolError || f.code == ws::kCloseInvalidData || f.code == ws::kCloseTooBig,
                           "code " + std::to_string(f.code));
                FUZZ_CHECK(!f.reason.empty(), "a failure without a reason");
                const std::string close = ws::close_payload(f.code, f.reason);
                FUZZ_CHECK(close.size() <= 125, std::to_string(close.size()) + " bytes");
                FUZZ_CHECK(ws::close_code_of(close) == f.code, "");
                FUZZ_CHECK(ws::valid_utf8(ws::close_reason_of(close)), f.reason);
                ws::FrameReader::Message again;
                FUZZ_CHECK(reader.next(again) == ws::FrameReader::Status::failed, "a failed reader went on");
                failed = true;
                break;
            }
            const std::size_t size = m.payload.size();
            switch (m.opcode) {
                case ws::Opcode::text:
                    FUZZ_CHECK(ws::valid_utf8(m.payload), "a text message that is not UTF-8");
                    [[fallthrough]];
                case ws::Opcode::binary: FUZZ_CHECK(size <= limit, std::to_string(size) + " > " + std::to_string(limit)); break;
                case ws::Opcode::close:
                    FUZZ_CHECK(size == 0 || size >= 2, "a one-byte close payload");
                    if (size >= 2) {
                        FUZZ_CHECK(allowed_close_code(ws::close_code_of(m.payload)), std::to_string(ws::close_code_of(m.payload)));
                        FUZZ_CHECK(ws::valid_utf8(ws::close_reason_of(m.payload)), "a close reason that is not UTF-8");
                    }
                    [[fallthrough]];
                case ws::Opcode::ping:
                case ws::Opcode::pong: FUZZ_CHECK(size <= 125, std::to_string(size)); break;
                case ws::Opcode::continuation: FUZZ_CHECK(false, "a continuation came out as a message");
            }
            out.push_back({m.opcode, std::string(m.payload)});
        }
        if (in_place) {
            reader.keep();
            shared.assign(shared.size(), '\xAA');
        }
        if (failed) return false;
        if (chunks.flag()) reader.release_if_empty(chunks.flag() ? 0 : 16384);
    }
    return true;
}

// The same stream read by a reader that drains from the start, or from its `after`th message on
// (a connection that closed there): returns the close frames it reported while draining.
std::size_t drained(ws::FrameReader& reader, std::string_view stream, Bytes chunks, std::size_t after) {
    const bool in_place = chunks.flag();
    std::string shared;
    std::size_t at = 0, messages = 0, closes = 0;
    if (after == 0) reader.drain();
    while (at < stream.size()) {
        std::size_t give = std::min<std::size_t>(1 + chunks.below(700), stream.size() - at);
        if (in_place) {
            shared.assign(stream.substr(at, give));
            reader.take(shared.data(), give);
        } else {
            char* into = reader.prepare(give);
            give = std::min(give, reader.free_space());
            std::memcpy(into, stream.data() + at, give);
            reader.commit(give);
        }
        at += give;
        ws::FrameReader::Message m;
        for (;;) {
            const auto status = reader.next(m);
            if (status == ws::FrameReader::Status::need_more) break;
            if (status == ws::FrameReader::Status::failed) {
                FUZZ_CHECK(!reader.draining(), "a draining reader failed: " + reader.failure().reason);
                return closes;  // failed before it began to drain
            }
            if (reader.draining()) {
                FUZZ_CHECK(m.opcode == ws::Opcode::close && m.payload.empty(),
                           "a draining reader gave opcode " + std::to_string(static_cast<int>(m.opcode)));
                ++closes;
            } else if (++messages == after) {
                reader.drain();
            }
        }
        if (in_place) {
            reader.keep();
            shared.assign(shared.size(), '\xAA');
        }
        if (reader.draining()) {
            FUZZ_CHECK(reader.buffered() == 0, std::to_string(reader.buffered()) + " bytes kept while draining");
            reader.release_if_empty();
            FUZZ_CHECK(reader.capacity() == std::string().capacity(),
                       std::to_string(reader.capacity()) + " bytes held while draining");
        }
    }
    return closes;
}

void raw(Bytes& in) {
    const std::size_t limit = in.flag() ? kRealLimit : std::size_t{in.byte()} * 4;
    ws::FrameReader reader(kRole, limit);
    const std::size_t split = std::min<std::size_t>(in.left(), 10);  // the chunking's bytes come first
    const Bytes chunking(reinterpret_cast<const std::uint8_t*>(in.take(split).data()), split);
    Bytes chunks = chunking;
    const std::string_view stream = in.rest();
    std::vector<Out> out;
    feed(reader, stream, chunks, limit, out);
    Bytes again = chunking;
    ws::FrameReader closing(kRole, limit);
    drained(closing, stream, again, again.byte() % 4);
}

// Frames built from the input, with a model of what the protocol allows: what comes out must be
// what went in, up to the first frame the model refuses, where the reader must fail.
void frames(Bytes& in) {
    const std::size_t limit = in.flag() ? kRealLimit : std::size_t{in.byte()} + 1;
    const Bytes chunking = in;  // the chunking reuses the same bytes: it needs no independent choices
    Bytes chunks = chunking;
    std::size_t close_frames = 0;  // valid or not, every frame's header is well formed
    std::string stream;
    std::vector<Out> expected;
    std::string joining;
    ws::Opcode joining_op = ws::Opcode::continuation;
    bool valid = true;  // every frame so far is one the reader must accept
    const int count = in.in(1, 12);
    for (int i = 0; i < count && !in.empty(); ++i) {
        static constexpr ws::Opcode kOps[] = {ws::Opcode::text, ws::Opcode::binary, ws::Opcode::continuation,
                                              ws::Opcode::ping, ws::Opcode::pong,   ws::Opcode::close};
        const std::uint8_t shape = in.byte();
        const ws::Opcode op = kOps[shape % 6];
        const bool fin = (shape & 0x40) == 0;
        std::size_t length = in.byte();
        if (shape & 0x80) length = length * 64 + in.byte();
        std::string payload(in.take(length));
        const bool control = op == ws::Opcode::ping || op == ws::Opcode::pong || op == ws::Opcode::close;
        if (op == ws::Opcode::close && payload.size() == 1) payload.clear();
        if (op == ws::Opcode::close && payload.size() >= 2) {  // an allowed code, a UTF-8 reason
            payload[0] = static_cast<char>(0x03);
            payload[1] = static_cast<char>(0xE8);
            for (std::size_t k = 2; k < payload.size(); ++k) payload[k] = static_cast<char>('a' + (payload[k] & 15));
        }
        ws::MaskKey key{};
        for (auto& k : key) k = in.byte();
        // A frame header says "final" through append_frame; a non-final frame is written by hand.
        std::string frame;
        ws::append_frame(frame, op, payload, kClient ? nullptr : &key);
        if (!fin) frame[0] = static_cast<char>(frame[0] & 0x7F);
        stream += frame;
        if (op == ws::Opcode::close) ++close_frames;
        if (!valid) continue;
        if (control) {
            if (!fin || payload.size() > 125) valid = false;
            else expected.push_back({op, payload});
            continue;
        }
        if ((op == ws::Opcode::continuation) != (joining_op != ws::Opcode::continuation)) {
            valid = false;
            continue;
        }
        if (op != ws::Opcode::continuation) {
            joining_op = op;
            joining.clear();
        }
        joining += payload;
        if (joining.size() > limit) {
            valid = false;
            continue;
        }
        // Text is checked as it arrives: a fragment whose bytes can no longer begin valid
        // UTF-8 fails at once, without waiting for the message's end.
        if (!fin && joining_op == ws::Opcode::text && !ws::Utf8Checker{}.feed(joining)) {
            valid = false;
            continue;
        }
        if (fin) {
            if (joining_op == ws::Opcode::text && !ws::valid_utf8(joining)) valid = false;
            else expected.push_back({joining_op, joining});
            joining_op = ws::Opcode::continuation;
        }
    }
    ws::FrameReader reader(kRole, limit);
    std::vector<Out> out;
    const bool ok = feed(reader, stream, chunks, limit, out);
    // The reader fails exactly at the first frame the protocol refuses, and everything before it
    // came out whole, in order.
    FUZZ_CHECK(ok == valid, ok ? "a bad frame was accepted" : "good frames failed: " + reader.failure().reason);
    FUZZ_CHECK(out.size() == expected.size(), std::to_string(out.size()) + " of " + std::to_string(expected.size()));
    for (std::size_t k = 0; k < out.size(); ++k) {
        FUZZ_CHECK(out[k].opcode == expected[k].opcode, "message " + std::to_string(k));
        FUZZ_CHECK(out[k].payload == expected[k].payload, "message " + std::to_string(k));
    }
    // Drained from the start, the reader skips every frame, valid or not, and finds each close.
    ws::FrameReader closing(kRole, limit);
    const std::size_t closes = drained(closing, stream, chunking, 0);
    FUZZ_CHECK(closes == close_frames, std::to_string(closes) + " closes of " + std::to_string(close_frames));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in(data, size);
    if (in.flag()) frames(in);
    else raw(in);
    return 0;
}
