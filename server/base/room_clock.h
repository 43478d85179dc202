#pragma once
// The rooms' clock: every deadline, pause, grace and window of a room is on it. In a server it
// is the steady clock (and the system clock for the milliseconds told to clients); a test of a
// room's parts turns it by hand instead (RoomClock::Manual), so that a 30 s deadline passes at
// once and nothing depends on how fast the machine is. Its time points are the steady clock's,
// so they mix with the timer grid and the network's timers.
#include <atomic>
#include <chrono>
#include <cstdint>

#include <boost/asio/basic_waitable_timer.hpp>

namespace spookludo::server {

struct RoomClock {
    using duration = std::chrono::steady_clock::duration;
    using rep = duration::rep;
    using period = duration::period;
    using time_point = std::chrono::steady_clock::time_point;
    static constexpr bool is_steady = true;

    static time_point now() noexcept {
        if (const auto t = manual_.load(std::memory_order_relaxed); t != 0) return time_point(duration(t));
        return std::chrono::steady_clock::now();
    }
    // Unix time in milliseconds (what clients are told: deadlines, the server's time).
    static std::int64_t wall_ms() noexcept {
        if (const auto t = manual_.load(std::memory_order_relaxed); t != 0)
            return manual_wall_ms_.load(std::memory_order_relaxed) + std::chrono::duration_cast<std::chrono::milliseconds>(duration(t - manual_start_.load(std::memory_order_relaxed))).count();
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    }

    // For tests: while one lives, the clock stands still unless advance() turns it. A room's
    // timers that come due run at the io_context's next poll(). One at a time, on one thread.
    class Manual {
    public:
        Manual() {
            const rep start = std::chrono::steady_clock::now().time_since_epoch().count();
            manual_start_.store(start);
            manual_wall_ms_.store(std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
            manual_.store(start);
        }
        ~Manual() { manual_.store(0); }
        Manual(const Manual&) = delete;
        Manual& operator=(const Manual&) = delete;
        void advance(duration by) { manual_.fetch_add(by.count()); }
    };

private:
    static inline std::atomic<rep> manual_{0};  // 0: the real clocks
    static inline std::atomic<rep> manual_start_{0};
    static inline std::atomic<std::int64_t> manual_wall_ms_{0};
};

// A timer on the rooms' clock.
using RoomTimer = boost::asio::basic_waitable_timer<RoomClock>;

}  // namespace spookludo::server
