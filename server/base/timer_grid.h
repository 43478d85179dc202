#pragma once
// Timers on a grid: a deadline that need not be exact (a room's pause between steps, a
// connection's keep-alive) is moved to the next multiple of a grid tick of the clock, so that
// the timers falling due within one tick fire together, in one wake-up of the I/O thread,
// instead of each waking it on its own. At a step a second per room, thousands
// of rooms' timers then cost a few hundred wake-ups a second, not thousands. Never earlier than
// asked; later by less than one tick.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>

#include "room_clock.h"

namespace spookludo::server {

using GridClock = std::chrono::steady_clock;

// A room's pause between steps: one of at least kGridFrom is rounded up to the step grid
// (shorter ones, a test's or a fast room's, stay exact). Invisible at a party's pace (a few
// milliseconds in a second), it lets rooms that step within the same tick share a wake-up and a
// journal transaction.
inline constexpr std::chrono::milliseconds kGridFrom{250};
// The step grid's tick follows how many steps fall due: about kStepsPerTick in a tick, so that a
// tick's burst stays short (the last room of a burst waits for the others: at 4,500 rooms an
// 8 ms tick held 36 steps and the p99 round trip was 5 ms, 3.3 with 2 ms), between
// kStepTickLeast and kStepTickMost: 8 ms up to 1,000 steps a second (1,000 rooms at a step a
// second), 1.8 ms at 4,500.
inline constexpr double kStepsPerTick = 8;
inline constexpr std::chrono::milliseconds kStepTickLeast{1};
inline constexpr std::chrono::milliseconds kStepTickMost{8};
// A connection's keep-alive (a ping after half the idle time): a second's grid (an eighth of the
// half when the idle timeout is short).
inline constexpr std::chrono::milliseconds kKeepAliveGrid{1000};

inline GridClock::time_point on_grid(GridClock::time_point t, GridClock::duration grid) {
    const auto rest = t.time_since_epoch() % grid;
    return rest == GridClock::duration::zero() ? t : t + (grid - rest);
}

// The rooms' step grid: counts the steps it places and, once a second, sets its tick from their
// rate. One for the process (every room's steps share its ticks).
class StepGrid {
public:
    // When a pause of `after`, begun at `now`, ends: on the grid when it is long enough.
    GridClock::time_point deadline(GridClock::time_point now, GridClock::duration after) {
        if (after < kGridFrom) return now + after;
        std::lock_guard lock(mutex_);
        ++counted_;
        if (const auto span = now - counting_since_; span >= std::chrono::seconds(1)) {
            const double per_second = static_cast<double>(counted_) / std::chrono::duration<double>(span).count();
            tick_ = std::clamp<GridClock::duration>(
                std::chrono::duration_cast<GridClock::duration>(std::chrono::duration<double>(kStepsPerTick / per_second)),
                kStepTickLeast, kStepTickMost);
            counting_since_ = now;
            counted_ = 0;
        }
        return on_grid(now + after, tick_);
    }
    GridClock::duration tick() {
        std::lock_guard lock(mutex_);
        return tick_;
    }

private:
    std::mutex mutex_;
    GridClock::time_point counting_since_{};
    std::uint64_t counted_ = 0;
    GridClock::duration tick_ = kStepTickMost;
};

inline StepGrid& step_grid() {
    static StepGrid grid;
    return grid;
}

// When a room's pause of `after` from now ends.
inline GridClock::time_point step_deadline(GridClock::duration after) {
    return step_grid().deadline(RoomClock::now(), after);
}

}  // namespace spookludo::server
