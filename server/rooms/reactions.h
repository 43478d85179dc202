#pragma once
// The bounds on a room's quick reactions (react, PROTOCOL.md "Quick reactions"), apart from the
// rest of the room: each sender at most one every 2 s, and the room as a whole a token bucket
// (4 a second, bursts of 4), so that a room full of spectators cannot flood its screens. Nothing
// here sends or times anything: the room asks, this answers (tests/rooms/test_reactions.cpp).
#include <chrono>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "room_clock.h"

namespace spookludo::server {

class Reactions {
public:
    using Clock = RoomClock;
    static constexpr std::chrono::milliseconds kPerSender{2000};  // protocol::kReactionIntervalMs
    static constexpr double kRoomPerSecond = 4;
    static constexpr double kRoomBurst = 4;

    // Who sends: a seat (players) or a connection (spectators), kept apart.
    static std::uint64_t player(int seat) { return static_cast<std::uint64_t>(seat); }
    static std::uint64_t spectator(std::uint64_t peer_id) { return (std::uint64_t{1} << 63) | peer_id; }

    struct Verdict {
        enum class Kind { ok, sender, room } kind = Kind::ok;  // refused: the sender's 2 s, or the room's bound
        std::chrono::milliseconds wait{0};                      // refused: when one would be taken
        explicit operator bool() const { return kind == Kind::ok; }
    };

    // Takes a reaction from `sender` now, or says why not and how long to wait. A refused one
    // counts against nothing.
    Verdict admit(std::uint64_t sender, Clock::time_point now);

    // Senders remembered (those within their 2 s): bounded by the room's people.
    std::size_t remembered() const { return last_.size(); }

private:
    std::unordered_map<std::uint64_t, Clock::time_point> last_;  // each sender's last reaction taken
    double tokens_ = kRoomBurst;
    std::optional<Clock::time_point> refilled_;
};

}  // namespace spookludo::server
