// WebSocket framing (RFC 6455, section 5) from the protocol's point of view: the codec of
// protocol/websocket.h on its own, then the real server over loopback, spoken to by the raw
// client of raw_client.h (its frames built by hand, so that it can break the rules on purpose).
#include <algorithm>
#include <doctest/doctest.h>

#include <cctype>
#include <string>
#include <vector>

#include "raw_client.h"

using namespace spookludo;
using namespace spookludo::testing;
using namespace spookludo::testing::raw;

namespace {

// Every message the reader has whole; returns the status that stopped it.
Status drain(ws::FrameReader& reader, std::vector<Frame>& out) {
    for (;;) {
        ws::FrameReader::Message m;
        const Status s = reader.next(m);
        if (s != Status::message) return s;
        out.push_back({m.opcode, std::string(m.payload)});
    }
}

struct ReadAll {
    std::vector<Frame> frames;
    Status status = Status::need_more;
    std::uint16_t code = 0;  // the failure's close code
    std::string reason;
};

ReadAll read_all(std::string_view bytes, Role role = Role::server, std::size_t max = kMax) {
    ws::FrameReader reader(role, max);
    feed(reader, bytes);
    ReadAll r;
    r.status = drain(reader, r.frames);
    r.code = reader.failure().code;
    r.reason = reader.failure().reason;
    return r;
}

std::uint16_t failure_code(std::string_view bytes, Role role = Role::server) {
    const ReadAll r = read_all(bytes, role);
    if (r.status != Status::failed) return 0;
    CHECK_MESSAGE(!r.reason.empty(), "a failure comes with a reason");
    return r.code;
}

}  // namespace

// ================================================================================================
// The codec
// ================================================================================================

TEST_CASE("websocket: frame_header uses the shortest length form, 7, 16 or 64 bits, big-endian [websocket]") {
    struct Case {
        std::uint64_t size;
        std::string length_bytes;  // byte 1 (without the mask bit) and the extended length
    };
    const std::vector<Case> cases{
        {0, std::string("\x00", 1)},
        {1, "\x01"},
        {125, "\x7D"},
        {126, std::string("\x7E\x00\x7E", 3)},
        {127, std::string("\x7E\x00\x7F", 3)},
        {65535, "\x7E\xFF\xFF"},
        {65536, std::string("\x7F\x00\x00\x00\x00\x00\x01\x00\x00", 9)},
        {0x0123456789ABCDEFULL, std::string("\x7F\x01\x23\x45\x67\x89\xAB\xCD\xEF", 9)},
    };
    for (const auto& c : cases) {
        CAPTURE(c.size);
        const ws::FrameHeader plain = ws::frame_header(ws::Opcode::text, c.size);
        CHECK(plain.view() == "\x81" + c.length_bytes);  // FIN, no RSV, text; not masked

        const ws::FrameHeader masked = ws::frame_header(ws::Opcode::binary, c.size, &kMask);
        std::string want = "\x82" + c.length_bytes;
        want[1] = static_cast<char>(static_cast<unsigned char>(want[1]) | 0x80);
        want.append({static_cast<char>(kMask[0]), static_cast<char>(kMask[1]), static_cast<char>(kMask[2]),
                     static_cast<char>(kMask[3])});
        CHECK(masked.view() == want);
        CHECK(masked.size == plain.size + 4);
    }
    CHECK(ws::frame_header(ws::Opcode::ping, 0).view() == std::string("\x89\x00", 2));
    CHECK(ws::frame_header(ws::Opcode::pong, 3).view() == "\x8A\x03");
    CHECK(ws::frame_header(ws::Opcode::close, 2).view() == "\x88\x02");
}

TEST_CASE("websocket: append_frame masks the payload with the key, and apply_mask works from any offset [websocket]") {
    const std::string payload = "Hello";
    std::string out;
    ws::append_frame(out, ws::Opcode::text, payload, &kMask);
    REQUIRE(out.size() == 2 + 4 + payload.size());
    for (std::size_t i = 0; i < payload.size(); ++i)
        CHECK(static_cast<unsigned char>(out[6 + i]) == (static_cast<unsigned char>(payload[i]) ^ kMask[i % 4]));
    // RFC 6455, 5.7: a single-frame masked text message "Hello".
    const ws::MaskKey rfc_key{0x37, 0xfa, 0x21, 0x3d};
    std::string rfc;
    ws::append_frame(rfc, ws::Opcode::text, "Hello", &rfc_key);
    CHECK(rfc == "\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58");
    std::string unmasked;
    ws::append_frame(unmasked, ws::Opcode::text, "Hello");
    CHECK(unmasked == "\x81\x05\x48\x65\x6c\x6c\x6f");

    // Masking in two pieces, the second from offset 5, is masking in one.
    std::string whole = bytes_of(23), split = whole;
    ws::apply_mask(whole.data(), whole.size(), kMask2);
    ws::apply_mask(split.data(), 5, kMask2);
    ws::apply_mask(split.data() + 5, split.size() - 5, kMask2, 5);
    CHECK(whole == split);
    ws::apply_mask(whole.data(), whole.size(), kMask2);
    CHECK(whole == bytes_of(23));
}

TEST_CASE("websocket: frames round-trip, client frames masked to a server reader, server frames to a client reader [websocket]") {
    const std::vector<std::size_t> sizes{0, 1, 3, 4, 5, 125, 126, 127, 1000, 4095, 4096, 65535, 65536, 70000};
    for (std::size_t size : sizes) {
        CAPTURE(size);
        const std::string payload = bytes_of(size, static_cast<unsigned>(size));
        for (auto opcode : {ws::Opcode::binary, ws::Opcode::text}) {
            const std::string body = opcode == ws::Opcode::text ? std::string(size, 'x') : payload;
            // A client's frame (masked) read by the server.
            std::string wire;
            ws::append_frame(wire, opcode, body, &kMask);
            if (size > 0) CHECK(wire.substr(wire.size() - size) != body);  // really masked
            auto r = read_all(wire, Role::server, 1 << 20);
            CHECK(r.status == Status::need_more);
            REQUIRE(r.frames.size() == 1);
            CHECK(op(r.frames[0].opcode) == op(opcode));
            CHECK(r.frames[0].payload == body);
            // A server's frame (not masked) read by a client.
            wire.clear();
            ws::append_frame(wire, opcode, body);
            r = read_all(wire, Role::client, 1 << 20);
            CHECK(r.status == Status::need_more);
            REQUIRE(r.frames.size() == 1);
            CHECK(op(r.frames[0].opcode) == op(opcode));
            CHECK(r.frames[0].payload == body);
        }
    }
    // Control frames too, up to their 125 bytes.
    for (auto opcode : {ws::Opcode::ping, ws::Opcode::pong}) {
        const std::string payload = bytes_of(125, 7);
        std::string wire;
        ws::append_frame(wire, opcode, payload, &kMask2);
        const auto r = read_all(wire);
        REQUIRE(r.frames.size() == 1);
        CHECK(r.frames[0] == Frame{opcode, payload});
    }
}

TEST_CASE("websocket: several frames fed one byte at a time, or all in one chunk, give the same messages [websocket]") {
    const std::vector<Frame> sent{
        {ws::Opcode::text, kHello},
        {ws::Opcode::ping, "are you there?"},
        {ws::Opcode::binary, bytes_of(300)},
        {ws::Opcode::text, ""},
        {ws::Opcode::pong, ""},
        {ws::Opcode::text, std::string(2000, 'a') + "é"},
        {ws::Opcode::close, ws::close_payload(1000, "bye")},
    };
    for (Role role : {Role::server, Role::client}) {
        CAPTURE(static_cast<int>(role));
        std::string wire;
        int i = 0;
        for (const auto& f : sent) {
            const ws::MaskKey key{static_cast<std::uint8_t>(i), 0x42, static_cast<std::uint8_t>(0xF0 - i), 0x99};
            ++i;
            ws::append_frame(wire, f.opcode, f.payload, role == Role::server ? &key : nullptr);
        }
        // All at once.
        const auto at_once = read_all(wire, role);
        CHECK(at_once.status == Status::need_more);
        CHECK(at_once.frames == sent);

        // One byte at a time: nothing comes before its last byte, each message right after it.
        ws::FrameReader reader(role, kMax);
        std::vector<Frame> got;
        std::size_t ends_seen = 0;
        std::vector<std::size_t> ends;  // the offset just past each frame
        {
            std::size_t at = 0;
            for (const auto& f : sent) {
                at += ws::frame_header(f.opcode, f.payload.size(), role == Role::server ? &kMask : nullptr).size +
                      f.payload.size();
                ends.push_back(at);
            }
        }
        for (std::size_t k = 0; k < wire.size(); ++k) {
            feed(reader, wire.substr(k, 1));
            REQUIRE(drain(reader, got) == Status::need_more);
            while (ends_seen < ends.size() && ends[ends_seen] <= k + 1) ++ends_seen;
            REQUIRE(got.size() == ends_seen);
        }
        CHECK(got == sent);
        CHECK(reader.buffered() == 0);
    }
}

TEST_CASE("websocket: a fragmented message is joined, and a ping between its fragments comes out as it arrives [websocket]") {
    // "Hello, wörld": the ö (C3 B6) is cut between two fragments, which is allowed: the text is
    // checked as a whole.
    const std::string f1 = frame(ws::Opcode::text, "Hello, w\xC3", false);
    const std::string ping = frame(ws::Opcode::ping, "mid-message", true, &kMask2);
    const std::string f2 = frame(ws::Opcode::continuation, "\xB6r", false);
    const std::string f3 = frame(ws::Opcode::continuation, "ld", true, &kMask2);

    ws::FrameReader reader(Role::server, kMax);
    std::vector<Frame> got;
    feed(reader, f1);
    CHECK(drain(reader, got) == Status::need_more);
    CHECK(got.empty());
    feed(reader, ping);
    CHECK(drain(reader, got) == Status::need_more);
    REQUIRE(got.size() == 1);  // the ping at once, not after the message
    CHECK(got[0] == Frame{ws::Opcode::ping, "mid-message"});
    feed(reader, f2);
    CHECK(drain(reader, got) == Status::need_more);
    CHECK(got.size() == 1);
    feed(reader, f3);
    CHECK(drain(reader, got) == Status::need_more);
    REQUIRE(got.size() == 2);
    CHECK(got[1] == Frame{ws::Opcode::text, "Hello, w\xC3\xB6rld"});

    // The same bytes in one chunk, and a whole message after it.
    const auto r = read_all(f1 + ping + f2 + f3 + frame(ws::Opcode::text, "next"));
    CHECK(r.status == Status::need_more);
    CHECK(r.frames == std::vector<Frame>{{ws::Opcode::ping, "mid-message"},
                                         {ws::Opcode::text, "Hello, w\xC3\xB6rld"},
                                         {ws::Opcode::text, "next"}});

    // A binary message in fragments, empty fragments included.
    const auto b = read_all(frame(ws::Opcode::binary, "", false) + frame(ws::Opcode::continuation, bytes_of(10), false) +
                            frame(ws::Opcode::continuation, "", true));
    REQUIRE(b.frames.size() == 1);
    CHECK(b.frames[0] == Frame{ws::Opcode::binary, bytes_of(10)});
}

TEST_CASE("websocket: every protocol violation fails the reader with its close code and a reason [websocket]") {
    const std::string hello = frame(ws::Opcode::text, kHello);
    SUBCASE("a client frame that is not masked: 1002") {
        CHECK(failure_code(frame(ws::Opcode::text, kHello, true, nullptr)) == ws::kCloseProtocolError);
        CHECK(failure_code(frame(ws::Opcode::ping, "", true, nullptr)) == ws::kCloseProtocolError);
    }
    SUBCASE("a server frame that is masked: 1002") {
        CHECK(failure_code(hello, Role::client) == ws::kCloseProtocolError);
    }
    SUBCASE("reserved bits with no extension agreed: 1002") {
        for (std::uint8_t rsv : std::initializer_list<std::uint8_t>{0x40, 0x20, 0x10, 0x70}) {
            CAPTURE(rsv);
            CHECK(failure_code(raw_frame(static_cast<std::uint8_t>(0x81 | rsv), kHello)) == ws::kCloseProtocolError);
            CHECK(failure_code(raw_frame(static_cast<std::uint8_t>(0x89 | rsv), "")) == ws::kCloseProtocolError);
        }
    }
    SUBCASE("unknown opcodes: 1002") {
        for (std::uint8_t opcode : std::initializer_list<std::uint8_t>{0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF}) {
            CAPTURE(opcode);
            CHECK(failure_code(raw_frame(static_cast<std::uint8_t>(0x80 | opcode), "x")) == ws::kCloseProtocolError);
        }
    }
    SUBCASE("a fragmented control frame: 1002") {
        CHECK(failure_code(frame(ws::Opcode::ping, "x", false)) == ws::kCloseProtocolError);
        CHECK(failure_code(frame(ws::Opcode::pong, "", false)) == ws::kCloseProtocolError);
        CHECK(failure_code(frame(ws::Opcode::close, ws::close_payload(1000, ""), false)) == ws::kCloseProtocolError);
    }
    SUBCASE("a control frame over 125 bytes: 1002") {
        CHECK(failure_code(frame(ws::Opcode::ping, std::string(126, 'p'))) == ws::kCloseProtocolError);
        CHECK(failure_code(frame(ws::Opcode::pong, std::string(1000, 'p'))) == ws::kCloseProtocolError);
        std::string close_payload = ws::close_payload(1000, "");
        close_payload.append(124, 'r');
        CHECK(failure_code(frame(ws::Opcode::close, close_payload)) == ws::kCloseProtocolError);
    }
    SUBCASE("a continuation with no message to continue: 1002") {
        CHECK(failure_code(frame(ws::Opcode::continuation, "stray")) == ws::kCloseProtocolError);
        CHECK(failure_code(frame(ws::Opcode::continuation, "stray", false)) == ws::kCloseProtocolError);
        // ... also right after a message ended.
        const auto r = read_all(frame(ws::Opcode::text, "a", false) + frame(ws::Opcode::continuation, "b") +
                                frame(ws::Opcode::continuation, "c"));
        CHECK(r.frames == std::vector<Frame>{{ws::Opcode::text, "ab"}});
        CHECK(r.status == Status::failed);
        CHECK(r.code == ws::kCloseProtocolError);
    }
    SUBCASE("a new message before the last one's final fragment: 1002") {
        CHECK(failure_code(frame(ws::Opcode::text, "a", false) + hello) == ws::kCloseProtocolError);
        CHECK(failure_code(frame(ws::Opcode::text, "a", false) + frame(ws::Opcode::binary, "b", false)) ==
              ws::kCloseProtocolError);
    }
    SUBCASE("a message over the maximum: 1009; the maximum itself is fine") {
        CHECK(failure_code(frame(ws::Opcode::text, std::string(kMax + 1, 'a'))) == ws::kCloseTooBig);
        CHECK(failure_code(frame(ws::Opcode::binary, bytes_of(kMax + 1))) == ws::kCloseTooBig);
        const auto at_max = read_all(frame(ws::Opcode::text, std::string(kMax, 'a')));
        REQUIRE(at_max.frames.size() == 1);
        CHECK(at_max.frames[0].payload.size() == kMax);
        // In fragments, each small, together one byte too many.
        CHECK(failure_code(frame(ws::Opcode::text, std::string(kMax / 2, 'a'), false) +
                           frame(ws::Opcode::continuation, std::string(kMax / 2, 'b'), false) +
                           frame(ws::Opcode::continuation, "c")) == ws::kCloseTooBig);
        const auto fragments_at_max = read_all(frame(ws::Opcode::text, std::string(kMax / 2, 'a'), false) +
                                               frame(ws::Opcode::continuation, std::string(kMax / 2, 'b')));
        REQUIRE(fragments_at_max.frames.size() == 1);
        CHECK(fragments_at_max.frames[0].payload.size() == kMax);
    }
    SUBCASE("text that is not UTF-8: 1007") {
        CHECK(failure_code(frame(ws::Opcode::text, "{\"type\":\"hello\xFF\"}")) == ws::kCloseInvalidData);
        CHECK(failure_code(frame(ws::Opcode::text, "caf\xC3")) == ws::kCloseInvalidData);
        CHECK(failure_code(frame(ws::Opcode::text, "ok", false) + frame(ws::Opcode::continuation, "\xED\xA0\x80")) ==
              ws::kCloseInvalidData);
        // Binary data is not text: any bytes are fine.
        CHECK(read_all(frame(ws::Opcode::binary, "\xFF\xFE")).status == Status::need_more);
    }
    SUBCASE("close frames: allowed codes pass, others 1002, a one-byte payload 1002, a reason not UTF-8 1007") {
        for (std::uint16_t code : std::initializer_list<std::uint16_t>{1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 4000, 4999}) {
            CAPTURE(code);
            const auto r = read_all(close_frame(code, "reason"));
            CHECK(r.status == Status::need_more);
            REQUIRE(r.frames.size() == 1);
            CHECK(op(r.frames[0].opcode) == op(ws::Opcode::close));
            CHECK(code_of(r.frames[0].payload) == code);
        }
        CHECK(read_all(frame(ws::Opcode::close, "")).frames.size() == 1);  // no code at all is allowed
        for (std::uint16_t code : std::initializer_list<std::uint16_t>{0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535}) {
            CAPTURE(code);
            CHECK(failure_code(close_frame(code)) == ws::kCloseProtocolError);
        }
        CHECK(failure_code(frame(ws::Opcode::close, "\x03")) == ws::kCloseProtocolError);
        CHECK(failure_code(frame(ws::Opcode::close, "\x03\xE8\xC0\xAF")) == ws::kCloseInvalidData);
    }
    SUBCASE("a 64-bit length with its top bit set fails") {
        const std::string header("\x82\xFF\x80\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04", 14);
        const auto code = failure_code(header);
        CHECK((code == ws::kCloseProtocolError || code == ws::kCloseTooBig));
    }
}

TEST_CASE("websocket: after a failure the reader stays failed, whatever comes next [websocket]") {
    ws::FrameReader reader(Role::server, kMax);
    std::vector<Frame> got;
    feed(reader, frame(ws::Opcode::text, "ok") + frame(ws::Opcode::text, "x", true, nullptr));
    CHECK(drain(reader, got) == Status::failed);
    CHECK(got == std::vector<Frame>{{ws::Opcode::text, "ok"}});  // what came before the violation
    const auto code = reader.failure().code;
    CHECK(code == ws::kCloseProtocolError);
    reader.clear();
    feed(reader, frame(ws::Opcode::text, kHello));
    CHECK(drain(reader, got) == Status::failed);
    CHECK(got.size() == 1);
    CHECK(reader.failure().code == code);
}

TEST_CASE("websocket: a declared length over the maximum fails as soon as the header is in, before the payload [websocket]") {
    for (std::uint64_t declared : {std::uint64_t{kMax + 1}, std::uint64_t{5000}, std::uint64_t{70000}, std::uint64_t{1} << 40}) {
        CAPTURE(declared);
        const ws::FrameHeader h = ws::frame_header(ws::Opcode::text, declared, &kMask);
        ws::FrameReader reader(Role::server, kMax);
        std::vector<Frame> got;
        // Byte by byte through the header: at the latest with its last byte the reader fails.
        Status s = Status::need_more;
        for (std::size_t k = 0; k < h.size && s == Status::need_more; ++k) {
            feed(reader, h.view().substr(k, 1));
            s = drain(reader, got);
        }
        CHECK(s == Status::failed);
        CHECK(reader.failure().code == ws::kCloseTooBig);
        CHECK(got.empty());
    }
    // A fragment that would take the message over the maximum fails at its header too.
    ws::FrameReader reader(Role::server, kMax);
    std::vector<Frame> got;
    feed(reader, frame(ws::Opcode::text, std::string(3000, 'a'), false));
    CHECK(drain(reader, got) == Status::need_more);
    feed(reader, ws::frame_header(ws::Opcode::continuation, 2000, &kMask).view());
    CHECK(drain(reader, got) == Status::failed);
    CHECK(reader.failure().code == ws::kCloseTooBig);
}

// A fragmented message's bytes stay in the reader after it is handed out; the size check of the
// next message must not count them (it did: a 3000-byte fragmented message then an ordinary
// 2000-byte one failed with 1009).
TEST_CASE("websocket: the size limit is per message: a big fragmented message does not count against the next one [websocket]") {
    const std::string fragmented = frame(ws::Opcode::text, std::string(1500, 'a'), false) +
                                   frame(ws::Opcode::continuation, std::string(1500, 'b'));
    for (bool next_fragmented : {false, true}) {
        CAPTURE(next_fragmented);
        const std::string next = next_fragmented ? frame(ws::Opcode::text, std::string(1500, 'c'), false) +
                                                       frame(ws::Opcode::continuation, std::string(500, 'd'))
                                                 : frame(ws::Opcode::text, std::string(2000, 'c'));
        const auto r = read_all(fragmented + next);
        CHECK(r.status == Status::need_more);
        INFO("failure: " << r.code << " " << r.reason);
        CHECK(r.frames.size() == 2);
        if (r.frames.size() != 2) continue;
        CHECK(r.frames[0].payload.size() == 3000);
        CHECK(r.frames[1].payload.size() == 2000);
    }
}

// Text that cannot become UTF-8 whatever follows fails the reader when its bytes arrive, not when
// the message is whole (a client that never sends the final fragment, or the rest of a frame,
// was not told; the Autobahn testsuite's 6.4 cases grade that "non-strict").
TEST_CASE("websocket: invalid UTF-8 fails the reader as soon as it arrives, in a first fragment or in part of a frame [websocket]") {
    const std::string bad = "{\"type\":\"hello\",\"client\":\"\xCE\xBA\xED\xA0\x80 edited\"}";  // a surrogate
    const std::size_t at = bad.find('\xED');
    SUBCASE("a fragment with the invalid bytes, the message not finished") {
        CHECK(failure_code(frame(ws::Opcode::text, bad.substr(0, at + 3), false)) == ws::kCloseInvalidData);
        CHECK(failure_code(frame(ws::Opcode::text, bad.substr(0, at + 1), false) +
                           frame(ws::Opcode::continuation, bad.substr(at + 1, 2), false)) == ws::kCloseInvalidData);
    }
    SUBCASE("one frame whose bytes have arrived up to the invalid one") {
        for (std::size_t extra : {2u, 3u, 6u}) {
            CAPTURE(extra);
            const std::string whole = frame(ws::Opcode::text, bad);
            const std::size_t header = whole.size() - bad.size();
            CHECK(failure_code(whole.substr(0, header + at + extra)) == ws::kCloseInvalidData);
        }
        // A server's (unmasked) frame read by a client fails the same way.
        const std::string whole = frame(ws::Opcode::text, bad, true, nullptr);
        const std::size_t header = whole.size() - bad.size();
        CHECK(failure_code(whole.substr(0, header + at + 2), Role::client) == ws::kCloseInvalidData);
    }
    SUBCASE("a lead byte at the end of what came is not yet a failure; a cut sequence at the message's end is") {
        CHECK(read_all(frame(ws::Opcode::text, bad.substr(0, at + 1), false)).status == Status::need_more);
        const std::string whole = frame(ws::Opcode::text, bad);
        const std::size_t header = whole.size() - bad.size();
        CHECK(read_all(whole.substr(0, header + at + 1)).status == Status::need_more);
        CHECK(failure_code(frame(ws::Opcode::text, "ok\xCE", false) + frame(ws::Opcode::continuation, "")) ==
              ws::kCloseInvalidData);
    }
    SUBCASE("binary data is never checked, whole or in part") {
        const std::string whole = frame(ws::Opcode::binary, bad);
        CHECK(read_all(whole.substr(0, whole.size() - 3)).status == Status::need_more);
        CHECK(read_all(frame(ws::Opcode::binary, bad, false)).status == Status::need_more);
    }
}

TEST_CASE("websocket: valid UTF-8 split anywhere, across fragments and across reads, with pings between, is one message [websocket]") {
    const std::string text = "{\"type\":\"hello\",\"client\":\"\xCE\xBA\xE1\xBD\xB9 \xF0\x9F\x91\xBB \xF4\x8F\xBF\xBF\"}";
    for (std::size_t cut = 1; cut < text.size(); ++cut) {
        CAPTURE(cut);
        const std::string bytes = frame(ws::Opcode::text, text.substr(0, cut), false) + frame(ws::Opcode::ping, "p") +
                                  frame(ws::Opcode::continuation, text.substr(cut));
        // All at once, and one byte at a time (every partial frame checked on the way).
        const auto r = read_all(bytes);
        CHECK(r.status == Status::need_more);
        CHECK(r.frames == std::vector<Frame>{{ws::Opcode::ping, "p"}, {ws::Opcode::text, text}});
        ws::FrameReader reader(Role::server, kMax);
        std::vector<Frame> got;
        for (char b : bytes) {
            feed(reader, std::string_view(&b, 1));
            REQUIRE(drain(reader, got) == Status::need_more);
        }
        CHECK(got == r.frames);
    }
    // The check starts again with each message: a message may not finish another's character.
    CHECK(failure_code(frame(ws::Opcode::text, "a\xCE") + frame(ws::Opcode::text, "\xBA")) == ws::kCloseInvalidData);
    const auto two = read_all(frame(ws::Opcode::text, "\xCE\xBA") + frame(ws::Opcode::text, "\xCE", false) +
                              frame(ws::Opcode::continuation, "\xBA"));
    CHECK(two.frames == std::vector<Frame>{{ws::Opcode::text, "\xCE\xBA"}, {ws::Opcode::text, "\xCE\xBA"}});
}

TEST_CASE("websocket: valid_utf8 takes well-formed text and refuses overlong forms, surrogates and cut sequences [websocket]") {
    const std::vector<std::string> good{
        "",
        "plain ASCII, longer than eight bytes at a time",
        std::string("nul \x00 inside", 12),
        "café crème, Ελληνικά, русский",  // 2-byte
        "日本語 €",                         // 3-byte
        "👻🎃 spooky",                      // 4-byte
        "\xF0\x90\x80\x80",                 // U+10000, the first 4-byte code point
        "\xF4\x8F\xBF\xBF",                 // U+10FFFF, the last
        "\xED\x9F\xBF",                     // U+D7FF, just below the surrogates
        "\xEE\x80\x80",                     // U+E000, just above
        "\xEF\xBF\xBF",                     // U+FFFF
        "\xC2\x80",                         // U+0080, the first 2-byte
        "\xE0\xA0\x80",                     // U+0800, the first 3-byte
        "1234567é",                         // a sequence across the 8-byte ASCII steps
        "12345678👻",
        "1234567👻90123456",
    };
    for (const auto& s : good) {
        CAPTURE(s);
        CHECK(ws::valid_utf8(s));
    }
    const std::vector<std::string> bad{
        "\xC0\xAF",                  // overlong '/'
        "\xC1\xBF",                  // overlong
        "\xE0\x80\xAF",              // overlong 3-byte
        "\xE0\x9F\xBF",              // overlong U+07FF
        "\xF0\x80\x80\xAF",          // overlong 4-byte
        "\xF0\x8F\xBF\xBF",          // overlong U+FFFF
        "\xED\xA0\x80",              // U+D800, a surrogate
        "\xED\xBF\xBF",              // U+DFFF
        "\xED\xA0\xBD\xED\xB1\xBB",  // a surrogate pair (CESU-8 👻)
        "\xF4\x90\x80\x80",          // U+110000, beyond Unicode
        "\xF5\x80\x80\x80",
        "\xF8\x88\x80\x80\x80",      // 5-byte form
        "\xFF",
        "\xFE",
        "\x80",                      // a lone continuation byte
        "abc\xBF",
        "\xC3",                      // cut sequences
        "caf\xC3",
        "\xE2\x82",
        "\xF0\x9F\x91",
        "12345678\xF0\x9F",
        "\xE2\x82" "A",              // a cut sequence in the middle
        "\xC3" "A",
        "\xF0\x9F\x91" "abcdefgh",
        "12345678\xFF" "12345678",   // after an all-ASCII 8-byte step
        "\xE2\x82\xAC\xAC",          // one continuation byte too many
    };
    for (const auto& s : bad) {
        CAPTURE(s);
        CHECK_FALSE(ws::valid_utf8(s));
    }
}

TEST_CASE("websocket: close_payload puts the code first and cuts a long reason to 125 bytes, never inside a UTF-8 sequence [websocket]") {
    CHECK(ws::close_payload(1000, "") == std::string("\x03\xE8", 2));
    CHECK(ws::close_payload(1009, "too big") == "\x03\xF1too big");
    CHECK(ws::close_payload(4321, "x") == "\x10\xE1x");

    const std::string ascii(300, 'r');
    CHECK(ws::close_payload(1002, ascii) == "\x03\xEA" + ascii.substr(0, 123));

    // For every alignment of 2-, 3- and 4-byte characters against the cut.
    for (const std::string ch : {"é", "€", "👻"}) {
        for (std::size_t lead = 0; lead < 4; ++lead) {
            std::string reason(lead, '.');
            while (reason.size() < 200) reason += ch;
            CAPTURE(ch);
            CAPTURE(lead);
            const std::string p = ws::close_payload(1001, reason);
            CHECK(p.size() <= 125);
            CHECK(p.size() > 125 - ch.size());  // cut no more than it must
            CHECK(code_of(p) == 1001);
            CHECK(reason.rfind(p.substr(2), 0) == 0);  // a prefix of the reason
            CHECK(ws::valid_utf8(p.substr(2)));
            // And a peer reads it as a valid close frame.
            std::string wire;
            ws::append_frame(wire, ws::Opcode::close, p);
            const auto r = read_all(wire, Role::client);
            REQUIRE(r.frames.size() == 1);
            CHECK(r.frames[0].payload == p);
        }
    }
    // A reason that fits is kept whole.
    const std::string fits = std::string(119, 'a') + "👻";  // 123 bytes
    CHECK(ws::close_payload(1000, fits).substr(2) == fits);
}

TEST_CASE("websocket: close_code_of and close_reason_of read what close_payload wrote, and no code reads as 0 [websocket]") {
    for (std::uint16_t code : std::initializer_list<std::uint16_t>{1000, 1009, 4321, 65535}) {
        const std::string p = ws::close_payload(code, "the reason");
        CHECK(ws::close_code_of(p) == code);
        CHECK(ws::close_reason_of(p) == "the reason");
    }
    CHECK(ws::close_code_of("") == 0);
    CHECK(ws::close_code_of("\x03") == 0);
    CHECK(ws::close_reason_of("") == "");
    CHECK(ws::close_reason_of(ws::close_payload(1000, "")) == "");
}

TEST_CASE("websocket: the reader gives back a grown buffer once it is empty, and keeps what is pending [websocket]") {
    const std::size_t none = std::string().capacity();  // an empty string's inline room
    ws::FrameReader reader(Role::server, kMax);
    CHECK(reader.capacity() == none);  // nothing held before the first read
    std::vector<Frame> got;

    // A small message: whatever is kept is small.
    feed(reader, frame(ws::Opcode::text, kHello));
    CHECK(drain(reader, got) == Status::need_more);
    reader.release_if_empty();
    CHECK(reader.capacity() <= 1024 + none);

    // A big message grows the buffer; once it is read, the memory goes back.
    feed(reader, frame(ws::Opcode::text, std::string(4000, 'a')));
    CHECK(reader.capacity() >= 4000);
    CHECK(drain(reader, got) == Status::need_more);
    CHECK(reader.buffered() == 0);
    const std::size_t grown = reader.capacity();
    reader.release_if_empty(2 * grown);  // a buffer within `keep` bytes is kept
    CHECK(reader.capacity() == grown);
    reader.release_if_empty();
    CHECK(reader.capacity() == none);

    // Bytes of a frame not yet whole are kept through release_if_empty.
    const std::string big = frame(ws::Opcode::binary, bytes_of(3000));
    feed(reader, std::string_view(big).substr(0, 2000));
    CHECK(drain(reader, got) == Status::need_more);
    reader.release_if_empty();
    CHECK(reader.buffered() == 2000);
    CHECK(reader.capacity() >= 2000);
    feed(reader, std::string_view(big).substr(2000));
    CHECK(drain(reader, got) == Status::need_more);
    REQUIRE(got.size() == 3);
    CHECK(got[2] == Frame{ws::Opcode::binary, bytes_of(3000)});

    // An open fragmented message survives release_if_empty between its fragments.
    feed(reader, frame(ws::Opcode::text, std::string(3000, 'x'), false));
    CHECK(drain(reader, got) == Status::need_more);
    CHECK(reader.buffered() == 0);
    reader.release_if_empty();
    CHECK(reader.capacity() >= 3000);  // the fragments so far
    feed(reader, frame(ws::Opcode::continuation, "yz"));
    CHECK(drain(reader, got) == Status::need_more);
    REQUIRE(got.size() == 4);
    CHECK(got[3].payload == std::string(3000, 'x') + "yz");
    // (What it holds after that: see the next test.)
}

// The server's one-thread read: each read lands in the thread's buffer, reused for the next
// connection's bytes; take() reads it in place and keep() saves only an incomplete frame.
TEST_CASE("websocket: bytes read in place from a shared buffer (take, keep) give the same messages cut anywhere, and a reader between whole frames holds no buffer [websocket]") {
    const std::vector<Frame> sent{
        {ws::Opcode::text, kHello},
        {ws::Opcode::ping, "are you there?"},
        {ws::Opcode::text, std::string(3000, 'a') + "é"},
        {ws::Opcode::binary, bytes_of(300)},
        {ws::Opcode::text, "last"},
    };
    std::string wire;
    std::vector<std::size_t> ends;  // the offset just past each frame
    for (const auto& f : sent) {
        ws::append_frame(wire, f.opcode, f.payload, &kMask);
        ends.push_back(wire.size());
    }
    // A fragmented message too, with a ping between its fragments.
    wire += frame(ws::Opcode::text, "frag", false, &kMask2);
    wire += frame(ws::Opcode::ping, "mid");
    wire += frame(ws::Opcode::continuation, "mented", true, &kMask2);
    const std::vector<Frame> all = [&] {
        auto v = sent;
        v.push_back({ws::Opcode::ping, "mid"});
        v.push_back({ws::Opcode::text, "fragmented"});
        return v;
    }();
    for (const std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{100}, std::size_t{2048}, wire.size()}) {
        CAPTURE(piece);
        ws::FrameReader reader(Role::server, kMax);
        std::vector<Frame> got;
        std::string scratch;  // the thread's buffer, overwritten at every read
        for (std::size_t at = 0; at < wire.size(); at += piece) {
            scratch.assign(wire, at, piece);
            reader.take(scratch.data(), scratch.size());
            REQUIRE(drain(reader, got) == Status::need_more);
            reader.keep();
            scratch.assign(scratch.size(), '\xAA');  // the next connection's bytes
            reader.release_if_empty();
            const std::size_t read = std::min(at + piece, wire.size());
            if (std::find(ends.begin(), ends.end(), read) != ends.end())
                CHECK(reader.capacity() == std::string().capacity());  // between whole frames: nothing held
        }
        CHECK(got == all);
        CHECK(reader.buffered() == 0);
    }
    // A failure stays a failure, and take() after it holds nothing.
    ws::FrameReader reader(Role::server, kMax);
    std::string bad = frame(ws::Opcode::text, kHello);
    bad[0] = static_cast<char>(bad[0] | 0x40);  // a reserved bit
    reader.take(bad.data(), bad.size());
    ws::FrameReader::Message m;
    CHECK(reader.next(m) == Status::failed);
    CHECK(reader.failure().code == ws::kCloseProtocolError);
    reader.keep();
    std::string more = frame(ws::Opcode::text, kHello);
    reader.take(more.data(), more.size());
    reader.keep();
    CHECK(reader.buffered() == 0);
    CHECK(reader.next(m) == Status::failed);
}

// A closing connection's reader (drain()): whatever comes, nothing is parsed into a buffer of its
// own, nothing fails, and only the peer's close frame comes out (the end of the exchange).
TEST_CASE("websocket: a draining reader skips every frame, valid or not and cut anywhere, holds nothing between reads, and reports only close frames [websocket]") {
    std::string wire = frame(ws::Opcode::ping, "are you there?") + frame(ws::Opcode::text, kHello) +
                       frame(ws::Opcode::text, "frag", false) + frame(ws::Opcode::continuation, "mented") +
                       frame(ws::Opcode::binary, bytes_of(300)) +           // a 16-bit length
                       frame(ws::Opcode::binary, bytes_of(70000)) +         // a 64-bit length, over the limit
                       close_frame(ws::kCloseNormal, "bye") +
                       frame(ws::Opcode::text, kHello, true, nullptr) +      // unmasked
                       raw_frame(0xC1, "reserved bits") + frame(ws::Opcode::ping, std::string(125, 'p')) +
                       frame(ws::Opcode::close, "");
    for (const bool in_place : {false, true}) {
        for (const std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{13}, std::size_t{700}, wire.size()}) {
            CAPTURE(in_place);
            CAPTURE(piece);
            ws::FrameReader reader(Role::server, kMax);
            reader.drain();
            CHECK(reader.draining());
            int closes = 0;
            std::string scratch;
            for (std::size_t at = 0; at < wire.size(); at += piece) {
                scratch.assign(wire, at, piece);
                if (in_place) {
                    reader.take(scratch.data(), scratch.size());
                } else {
                    std::memcpy(reader.prepare(scratch.size()), scratch.data(), scratch.size());
                    reader.commit(scratch.size());
                }
                ws::FrameReader::Message m;
                Status s;
                while ((s = reader.next(m)) == Status::message) {
                    CHECK(op(m.opcode) == op(ws::Opcode::close));
                    CHECK(m.payload.empty());
                    ++closes;
                }
                REQUIRE(s == Status::need_more);
                CHECK(reader.buffered() == 0);  // a cut header is kept inside the reader
                if (in_place) {
                    reader.keep();
                    scratch.assign(scratch.size(), '\xAA');
                }
                reader.release_if_empty();
                CHECK(reader.capacity() == std::string().capacity());
            }
            CHECK(closes == 2);
        }
    }
    // Told to drain in the middle of a fragmented message: what was joined is given back, and
    // the rest of the message is skipped like anything else.
    ws::FrameReader reader(Role::server, kMax);
    feed(reader, frame(ws::Opcode::text, std::string(3000, 'a'), false) + frame(ws::Opcode::ping, "x"));
    ws::FrameReader::Message m;
    REQUIRE(reader.next(m) == Status::message);  // the ping
    CHECK(reader.capacity() >= 3000);
    reader.drain();
    feed(reader, frame(ws::Opcode::continuation, std::string(1000, 'b')) + close_frame(ws::kCloseGoingAway));
    REQUIRE(reader.next(m) == Status::message);
    CHECK(op(m.opcode) == op(ws::Opcode::close));
    CHECK(reader.next(m) == Status::need_more);
    reader.release_if_empty();
    CHECK(reader.capacity() == std::string().capacity());
    // A failed reader stays failed.
    ws::FrameReader failed(Role::server, kMax);
    feed(failed, frame(ws::Opcode::text, kHello, true, nullptr));
    CHECK(failed.next(m) == Status::failed);
    failed.drain();
    feed(failed, close_frame(ws::kCloseNormal));
    CHECK(failed.next(m) == Status::failed);
}

// A joined message is not kept by an idle connection (it was, before release_if_empty freed it).
TEST_CASE("websocket: after a fragmented message that came in small frames, an idle reader holds at most a small buffer [websocket]") {
    ws::FrameReader reader(Role::server, kMax);
    std::vector<Frame> got;
    feed(reader, frame(ws::Opcode::text, std::string(500, 'a'), false));
    CHECK(drain(reader, got) == Status::need_more);
    reader.release_if_empty();
    for (int i = 0; i < 4; ++i) {
        feed(reader, frame(ws::Opcode::continuation, std::string(500, 'b'), false));
        CHECK(drain(reader, got) == Status::need_more);
        reader.release_if_empty();
    }
    feed(reader, frame(ws::Opcode::continuation, std::string(500, 'c')));
    CHECK(drain(reader, got) == Status::need_more);
    REQUIRE(got.size() == 1);
    CHECK(got[0].payload.size() == 3000);
    reader.release_if_empty();
    CHECK(reader.capacity() <= 1024 + std::string().capacity());
    // The next message is read as usual.
    feed(reader, frame(ws::Opcode::text, "after"));
    CHECK(drain(reader, got) == Status::need_more);
    REQUIRE(got.size() == 2);
    CHECK(got[1] == Frame{ws::Opcode::text, "after"});
}

// ================================================================================================
// The server over loopback, spoken to by the raw client
// ================================================================================================

TEST_CASE("websocket: a hello split across several TCP writes is answered [websocket][server]") {
    TestServer server;
    RawClient c(server.port());
    c.open();
    const std::string wire = frame(ws::Opcode::text, kHello);
    // Inside the header, inside the mask key, inside the payload.
    c.send_in_pieces(wire, {1, 4, 9, 20});
    const auto welcome = c.read_json();
    REQUIRE(welcome.has_value());
    CHECK((*welcome)["type"] == "welcome");
    CHECK((*welcome)["protocol"] == 1);

    // A 16-bit-length frame of exactly 4096 bytes, cut in its extended length.
    const std::string big = frame(ws::Opcode::text, hello_of_size(kMax), true, &kMask2);
    c.send_in_pieces(big, {3, 1000, 3000});
    const auto again = c.read_json();
    REQUIRE(again.has_value());
    CHECK((*again)["type"] == "welcome");
}

TEST_CASE("websocket: two messages in one TCP write are both answered, in order [websocket][server]") {
    TestServer server;
    RawClient c(server.port());
    c.open();
    REQUIRE(c.send_bytes(frame(ws::Opcode::text, kHello) +
                         frame(ws::Opcode::text, R"({"type":"ping","t":4242})", true, &kMask2)));
    const auto first = c.read_json();
    REQUIRE(first.has_value());
    CHECK((*first)["type"] == "welcome");
    const auto second = c.read_json();
    REQUIRE(second.has_value());
    CHECK((*second)["type"] == "pong");
    CHECK((*second)["t"] == 4242);
}

TEST_CASE("websocket: a fragmented hello is answered, and a ping between its fragments gets its pong first [websocket][server]") {
    TestServer server;
    RawClient c(server.port());
    c.open();
    const std::string text = kHello;
    REQUIRE(c.send_bytes(frame(ws::Opcode::text, text.substr(0, 10), false)));
    std::this_thread::sleep_for(30ms);
    REQUIRE(c.send_bytes(frame(ws::Opcode::continuation, text.substr(10, 15), false, &kMask2)));
    std::this_thread::sleep_for(30ms);
    REQUIRE(c.send_bytes(frame(ws::Opcode::ping, "between")));
    // The pong comes before the message is complete.
    const auto pong = c.read_frame();
    REQUIRE(pong.has_value());
    CHECK(*pong == Frame{ws::Opcode::pong, "between"});
    REQUIRE(c.send_bytes(frame(ws::Opcode::continuation, text.substr(25))));
    const auto welcome = c.read_json();
    REQUIRE(welcome.has_value());
    CHECK((*welcome)["type"] == "welcome");

    // The same in one write, with a message after it.
    REQUIRE(c.send_bytes(frame(ws::Opcode::text, text.substr(0, 5), false) + frame(ws::Opcode::ping, "again") +
                         frame(ws::Opcode::continuation, text.substr(5)) + frame(ws::Opcode::text, kHello)));
    const auto pong2 = c.read_frame();
    REQUIRE(pong2.has_value());
    CHECK(*pong2 == Frame{ws::Opcode::pong, "again"});
    for (int i = 0; i < 2; ++i) {
        const auto w = c.read_json();
        REQUIRE(w.has_value());
        CHECK((*w)["type"] == "welcome");
    }
}

// The same as a client sees it: a hello of 3000 bytes in fragments, then, in one TCP write, its
// last 10-byte fragment and an ordinary 2000-byte hello: both are answered.
TEST_CASE("websocket: a fragmented message does not count against the size of the next one [websocket][server]") {
    TestServer server;
    RawClient c(server.port());
    c.open();
    const std::string first = hello_of_size(3000);
    std::string wire = frame(ws::Opcode::text, first.substr(0, 500), false);
    for (std::size_t at = 500; at < 2990; at += 500)
        wire += frame(ws::Opcode::continuation, first.substr(at, std::min<std::size_t>(500, 2990 - at)), false);
    REQUIRE(c.send_bytes(wire));
    std::this_thread::sleep_for(200ms);  // read by the server: its buffer is empty again
    REQUIRE(c.send_bytes(frame(ws::Opcode::continuation, first.substr(2990), true) +
                         frame(ws::Opcode::text, hello_of_size(2000), true, &kMask2)));
    for (int i = 0; i < 2; ++i) {
        CAPTURE(i);
        const auto w = c.read_json();
        if (c.last_other && c.last_other->opcode == ws::Opcode::close && c.last_other->payload.size() >= 2)
            MESSAGE("closed with ", code_of(c.last_other->payload), ": ", c.last_other->payload.substr(2));
        REQUIRE(w.has_value());
        CHECK((*w)["type"] == "welcome");
    }
}

TEST_CASE("websocket: a ping with a payload is answered by a pong with the same payload [websocket][server]") {
    TestServer server;
    RawClient c(server.port());
    c.open();
    for (const std::string& payload : {std::string(), std::string("hi"), bytes_of(125, 3)}) {
        CAPTURE(payload.size());
        REQUIRE(c.send_bytes(frame(ws::Opcode::ping, payload)));
        const auto pong = c.read_frame();
        REQUIRE(pong.has_value());
        CHECK(op(pong->opcode) == op(ws::Opcode::pong));
        CHECK(pong->payload == payload);
    }
    // Before and after the hello alike; a pong from the client is not answered at all.
    REQUIRE(c.send_bytes(frame(ws::Opcode::pong, "unsolicited") + frame(ws::Opcode::text, kHello)));
    const auto welcome = c.read_json();
    REQUIRE(welcome.has_value());
    CHECK((*welcome)["type"] == "welcome");
}

TEST_CASE("websocket: a client's close frame is answered with the same code, then the server ends the connection [websocket][server]") {
    TestServer server;
    for (std::uint16_t code : std::initializer_list<std::uint16_t>{1000, 1001, 4321}) {
        CAPTURE(code);
        RawClient c(server.port());
        c.open();
        REQUIRE(c.send_bytes(frame(ws::Opcode::text, kHello)));
        REQUIRE(c.read_json().has_value());
        REQUIRE(c.send_bytes(close_frame(code, "see you")));
        const auto reply = c.read_frame();
        REQUIRE(reply.has_value());
        REQUIRE(op(reply->opcode) == op(ws::Opcode::close));
        CHECK(code_of(reply->payload) == code);
        CHECK(c.wait_closed());
        CHECK(c.after.empty());
    }
    // A close frame with no code is answered with a close frame too.
    RawClient c(server.port());
    c.open();
    REQUIRE(c.send_bytes(frame(ws::Opcode::close, "")));
    const auto reply = c.read_frame();
    REQUIRE(reply.has_value());
    CHECK(op(reply->opcode) == op(ws::Opcode::close));
    CHECK(c.wait_closed());
    another_connection_works(server.port());
}

TEST_CASE("websocket: protocol failures close that connection with their code, and the server serves others on [websocket][server]") {
    TestServer server;
    Client bystander(server.port());  // a connection open all along
    bystander.hello();

    struct Case {
        const char* what;
        std::string bytes;
        std::uint16_t code;
    };
    const std::vector<Case> cases{
        {"an unmasked frame", frame(ws::Opcode::text, kHello, true, nullptr), ws::kCloseProtocolError},
        {"invalid UTF-8 text", frame(ws::Opcode::text, "{\"type\":\"hello\",\"protocol\":1,\"client\":\"\xC3\x28\"}"),
         ws::kCloseInvalidData},
        {"a reserved bit", raw_frame(0xC1, kHello), ws::kCloseProtocolError},
        {"an unknown opcode", raw_frame(0x83, "x"), ws::kCloseProtocolError},
        {"a fragmented ping", frame(ws::Opcode::ping, "x", false), ws::kCloseProtocolError},
        {"a 126-byte ping", frame(ws::Opcode::ping, std::string(126, 'p')), ws::kCloseProtocolError},
        {"a stray continuation", frame(ws::Opcode::continuation, kHello), ws::kCloseProtocolError},
        {"close code 1005", close_frame(1005), ws::kCloseProtocolError},
        {"a message of 4097 bytes", frame(ws::Opcode::text, hello_of_size(kMax + 1)), ws::kCloseTooBig},
    };
    for (const auto& c : cases) {
        CAPTURE(c.what);
        RawClient raw(server.port());
        raw.open();
        REQUIRE(raw.send_bytes(c.bytes));
        expect_closed_with(raw, c.code);
        bystander.hello();
        another_connection_works(server.port());
    }
    // The closed connections are gone from the count; the bystander's is left.
    CHECK(connections_become(server.port(), 1));
}

TEST_CASE("websocket: a text message that is not UTF-8 is closed with 1007 when the bad bytes arrive, without waiting for its end [websocket][server]") {
    TestServer server;
    const std::string bad = "{\"type\":\"hello\",\"protocol\":1,\"client\":\"\xCE\xBA\xF4\x90\x80\x80 edited\"}";  // > U+10FFFF
    const std::size_t at = bad.find('\xF4');
    SUBCASE("in the second of three fragments, the third never sent") {
        RawClient c(server.port());
        c.open();
        REQUIRE(c.send_bytes(frame(ws::Opcode::text, bad.substr(0, at), false)));
        REQUIRE(c.send_bytes(frame(ws::Opcode::continuation, bad.substr(at, 4), false)));
        expect_closed_with(c, ws::kCloseInvalidData);
    }
    SUBCASE("in one frame of which only the bytes up to the invalid one are sent") {
        RawClient c(server.port());
        c.open();
        const std::string whole = frame(ws::Opcode::text, bad);
        REQUIRE(c.send_bytes(std::string_view(whole).substr(0, whole.size() - bad.size() + at + 2)));
        expect_closed_with(c, ws::kCloseInvalidData);
    }
    another_connection_works(server.port());
}

TEST_CASE("websocket: a frame declaring 5000 bytes is refused with 1009 before its payload is sent [websocket][server]") {
    TestServer server;
    RawClient c(server.port());
    c.open();
    REQUIRE(c.send_bytes(frame(ws::Opcode::text, kHello)));
    REQUIRE(c.read_json().has_value());
    // The header only (with its mask key): the server must not wait for 5000 bytes.
    REQUIRE(c.send_bytes(ws::frame_header(ws::Opcode::text, 5000, &kMask).view()));
    expect_closed_with(c, ws::kCloseTooBig);
    another_connection_works(server.port());
}

TEST_CASE("websocket: 20 bad messages close the connection with 1008 [websocket][server]") {
    TestServer server;
    RawClient c(server.port());
    c.open();
    std::string wire;
    for (int i = 0; i < 20; ++i) wire += frame(ws::Opcode::binary, "\x01\x02");
    REQUIRE(c.send_bytes(wire));
    int errors = 0;
    std::optional<Frame> f;
    while ((f = c.read_frame()) && f->opcode == ws::Opcode::text) {
        CHECK(json::parse(f->payload)["code"] == "binary_frame");
        ++errors;
    }
    CHECK(errors == 20);
    REQUIRE(f.has_value());
    REQUIRE(op(f->opcode) == op(ws::Opcode::close));
    CHECK(code_of(f->payload) == ws::kClosePolicy);
    CHECK(c.wait_closed());
    another_connection_works(server.port());
}

TEST_CASE("websocket: a bad upgrade request gets an HTTP error and the server goes on [websocket][server]") {
    TestServer server;
    {
        RawClient c(server.port());
        // No Sec-WebSocket-Key.
        const std::string answer = c.request_upgrade(RawClient::upgrade_request(""));
        INFO(answer);
        CHECK(answer.rfind("HTTP/1.1 400", 0) == 0);
        c.read_to_end();
        CHECK(c.ended());
    }
    {
        RawClient c(server.port());
        // A version this server does not speak: RFC 6455, 4.4 asks for the versions it does.
        const std::string request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n";
        const std::string answer = c.request_upgrade(request);
        INFO(answer);
        CHECK(answer.rfind("HTTP/1.1 4", 0) == 0);
        CHECK(answer.rfind("HTTP/1.1 101", 0) == std::string::npos);
        std::string lower = answer;
        for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        CHECK(lower.find("\r\nsec-websocket-version: 13\r\n") != std::string::npos);
    }
    another_connection_works(server.port());
    CHECK(http_get(server.port(), "/healthz").first == 200);
    CHECK(connections_become(server.port(), 0));  // the refused upgrades hold no connection
}

TEST_CASE("websocket: keep-alive: a silent client gets a ping, and is dropped about idle_timeout_ms later [websocket][server]") {
    auto config = TestServer::fast_config();
    config.idle_timeout_ms = 400;
    TestServer server(config);
    RawClient c(server.port());
    c.open();
    const auto start = Clock::now();
    const auto ping = c.read_frame(5s);
    REQUIRE(ping.has_value());
    CHECK(op(ping->opcode) == op(ws::Opcode::ping));
    // Not answered: the server ends the connection.
    CHECK(c.wait_closed(5s));
    const auto ended_after = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    MESSAGE("ended after ", ended_after.count(), " ms");
    CHECK(ended_after >= 250ms);   // not before the idle time (less some scheduling slack)
    CHECK(ended_after <= 2500ms);  // about idle_timeout_ms (400), with room for a loaded machine
    another_connection_works(server.port());
}

TEST_CASE("websocket: keep-alive: a client that answers the pings stays connected past two idle timeouts [websocket][server]") {
    // A ping after 1 s of silence, which the client has a second to answer (the 300 ms of an
    // idle time of 600 ms are not always enough for a loaded machine to schedule the reader).
    auto config = TestServer::fast_config();
    config.idle_timeout_ms = 2000;
    TestServer server(config);
    RawClient c(server.port());
    c.open();
    const auto until = Clock::now() + 2 * 2000ms + 300ms;
    while (Clock::now() < until) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        const auto f = c.read_frame(std::max(left, 1ms));
        if (!f) {
            REQUIRE_FALSE_MESSAGE(c.ended(), "the server ended a connection that answered its pings");
            break;
        }
        REQUIRE(op(f->opcode) == op(ws::Opcode::ping));
        ++c.pings;
        REQUIRE(c.send_bytes(frame(ws::Opcode::pong, f->payload)));
    }
    CHECK(c.pings >= 2);
    REQUIRE(c.send_bytes(frame(ws::Opcode::text, kHello)));
    const auto welcome = c.read_json();
    REQUIRE(welcome.has_value());
    CHECK((*welcome)["type"] == "welcome");
}

TEST_CASE("websocket: a spectator that stops reading is dropped, and the players' games go on [websocket][server]") {
    // The server's send buffer per connection is bounded (64 KB) and so is its queue (here 32
    // messages behind a write stalled for a second): a reader that takes nothing fills both
    // within a game or two of Ludo at zero pace and is disconnected, without holding up the
    // room. The host, who reads, is never taken for a slow reader, though a zero-pace room
    // queues more than 32 messages for it in a burst.
    auto config = TestServer::fast_config();
    config.send_queue_limit = 32;
    TestServer server(config);
    Client ann(server.port());
    const std::string code = create_room(ann, {{"game", "ludo"}, {"players", 2}, {"arm", 6}}, "Ann", {{"pace_ms", 0}});
    ann.send({{"type", "add_bot"}, {"policy", "random"}});

    RawClient slow(server.port(), 4096);
    slow.open();
    REQUIRE(slow.send_bytes(frame(ws::Opcode::text, kHello)));
    REQUIRE(slow.send_bytes(frame(ws::Opcode::text, json{{"type", "watch"}, {"room", code}}.dump())));
    // From here on it reads nothing.

    auto dropped = [&] {
        const auto [status, body] = http_get(server.port(), "/metrics");
        return body.find("spookludo_slow_readers_dropped_total 1\n") != std::string::npos;
    };
    int games = 0;
    for (; games < 30 && !dropped(); ++games) {
        ann.send({{"type", "start"}});
        CHECK(play_to_end(ann)["status"] == "finished");
        ann.expect("room");  // back in the lobby
    }
    MESSAGE("the spectator was dropped after ", games, " game(s)");
    CHECK(dropped());  // within seconds: each game sends the spectator tens of KB
    // Whatever it reads now, the connection has ended.
    slow.read_to_end(10s);
    CHECK(slow.ended());
    // And the room still plays.
    ann.send({{"type", "start"}});
    ann.expect("game_started", 10s);
}
