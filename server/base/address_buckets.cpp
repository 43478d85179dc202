#include "address_buckets.h"

#include <algorithm>

namespace spookludo::server {

AddressBuckets::AddressBuckets(double burst, double per_second, std::size_t max_addresses)
    : burst_(burst), per_second_(per_second), max_addresses_(std::max<std::size_t>(1, max_addresses)) {}

std::optional<AddressBuckets::Clock::duration> AddressBuckets::take(const std::string& address, double n,
                                                                    Clock::time_point now) {
    const double wanted = std::min(n, burst_);  // more than a bucket holds needs it full
    std::lock_guard lock(mutex_);
    auto it = buckets_.find(address);
    if (it == buckets_.end()) {
        if (buckets_.size() >= max_addresses_) {  // the address used least recently gives way
            buckets_.erase(recent_.back());
            recent_.pop_back();
        }
        recent_.push_front(address);
        it = buckets_.emplace(address, Bucket{burst_, now, recent_.begin()}).first;
    } else {
        recent_.splice(recent_.begin(), recent_, it->second.recent);
    }
    Bucket& b = it->second;
    if (now > b.refilled) {
        b.tokens = std::min(burst_, b.tokens + per_second_ * std::chrono::duration<double>(now - b.refilled).count());
        b.refilled = now;
    }
    if (b.tokens < wanted)
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>((wanted - b.tokens) / per_second_));
    b.tokens -= wanted;
    return std::nullopt;
}

std::size_t AddressBuckets::addresses() const {
    std::lock_guard lock(mutex_);
    return buckets_.size();
}

}  // namespace spookludo::server
