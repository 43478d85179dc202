#pragma once
// A Ludo event as the server sends it, for the view and render tests.
#include <optional>

#include "spookludo/protocol/server_messages.h"

namespace spookludo::testing {

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
