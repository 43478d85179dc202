#pragma once
// What the server sends, built for the view and render tests: a seat, a room snapshot, a Ludo event.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spookludo/protocol/server_messages.h"

namespace spookludo::testing {

// A person at the seat, connected (or away).
inline protocol::SeatView player(int seat, const std::string& name, bool away = false) {
    protocol::SeatView s;
    s.seat = seat;
    s.name = name;
    s.connected = !away;
    s.away = away;
    return s;
}

// Room KQZTM with these options and seats, seat 0 its host.
inline protocol::RoomSnapshot snapshot(const GameOptions& options, std::vector<protocol::SeatView> seats,
                                       const std::string& state = "lobby") {
    protocol::RoomSnapshot s;
    s.room = "KQZTM";
    s.state = state;
    s.options = options;
    s.settings = protocol::RoomSettings{20000, 1500, true};
    s.host = 0;
    s.seats = std::move(seats);
    s.server_time_ms = 1764489600000;
    return s;
}

inline protocol::EventView event(const char* kind, int seat, std::optional<int> piece = {}, std::optional<int> face = {},
                                 std::optional<int> from = {}, std::optional<int> to = {}) {
    protocol::EventView e;
    e.kind = kind;
    e.seat = seat;
    e.piece = piece;
    e.face = face;
    e.from = from;
    e.to = to;
    e.text = kind;
    return e;
}

}  // namespace spookludo::testing
