#pragma once
#include <chrono>
#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace spookludo::server {

// Token buckets by address, for what one address may use up over time (solves, TLS handshakes):
// a bucket of `burst` tokens, refilled at `per_second`. Bounded: at most `max_addresses` are
// remembered; past that, the address used least recently is forgotten (it starts again with a full
// bucket, as a new one does). Thread-safe.
class AddressBuckets {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::size_t kMaxAddresses = 4096;
    AddressBuckets(double burst, double per_second, std::size_t max_addresses = kMaxAddresses);

    // Takes `n` tokens (at most a full bucket) from the address's bucket; when it has not that
    // many, takes nothing and says how long until it has.
    std::optional<Clock::duration> take(const std::string& address, double n = 1, Clock::time_point now = Clock::now());
    std::size_t addresses() const;

private:
    struct Bucket {
        double tokens = 0;
        Clock::time_point refilled;
        std::list<std::string>::iterator recent;  // in recent_
    };
    double burst_, per_second_;
    std::size_t max_addresses_;
    mutable std::mutex mutex_;
    std::map<std::string, Bucket, std::less<>> buckets_;
    std::list<std::string> recent_;  // addresses, most recently used first
};

}  // namespace spookludo::server
