#pragma once
// Timers on a grid: a deadline that need not be exact (a room's pause between steps, a
// connection's keep-alive) is moved to the next multiple of a grid step of the clock, so that
// the timers falling due within one step fire together, in one wake-up of the I/O thread,
// instead of each waking it on its own. At a step a second per room, thousands
// of rooms' timers then cost a few hundred wake-ups a second, not thousands. Never earlier than
// asked; later by less than one grid step.
#include <chrono>

namespace spookludo::server {

using GridClock = std::chrono::steady_clock;

// A room's pause between steps: one of at least kGridFrom is rounded up to kStepGrid (shorter
// ones, a test's or a fast room's, stay exact). Invisible at a party's pace (a few milliseconds
// in a second), it lets rooms that step within the same 8 ms share a wake-up and a journal
// transaction.
inline constexpr std::chrono::milliseconds kStepGrid{8};
inline constexpr std::chrono::milliseconds kGridFrom{250};
// A connection's keep-alive (a ping after half the idle time): a second's grid (an eighth of the
// half when the idle timeout is short).
inline constexpr std::chrono::milliseconds kKeepAliveGrid{1000};

inline GridClock::time_point on_grid(GridClock::time_point t, GridClock::duration grid) {
    const auto rest = t.time_since_epoch() % grid;
    return rest == GridClock::duration::zero() ? t : t + (grid - rest);
}

// When a timer of `after` from now fires: on the step grid when it is long enough.
inline GridClock::time_point step_deadline(GridClock::duration after) {
    const auto at = GridClock::now() + after;
    return after >= kGridFrom ? on_grid(at, kStepGrid) : at;
}

}  // namespace spookludo::server
