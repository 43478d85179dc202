#include "reactions.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace spookludo::server {

namespace {
std::chrono::milliseconds ceil_ms(std::chrono::duration<double> d) {
    return std::chrono::milliseconds(static_cast<long long>(std::ceil(d.count() * 1000.0)));
}
}  // namespace

Reactions::Verdict Reactions::admit(std::uint64_t sender, Clock::time_point now) {
    // Senders whose 2 s are over are forgotten (the map holds at most the room's people).
    std::erase_if(last_, [&](const auto& e) { return now - e.second >= kPerSender; });
    if (auto it = last_.find(sender); it != last_.end())
        return {Verdict::Kind::sender, ceil_ms(kPerSender - (now - it->second))};
    if (refilled_)
        tokens_ = std::min(kRoomBurst,
                           tokens_ + kRoomPerSecond * std::chrono::duration<double>(now - *refilled_).count());
    refilled_ = now;
    if (tokens_ < 1) return {Verdict::Kind::room, ceil_ms(std::chrono::duration<double>((1 - tokens_) / kRoomPerSecond))};
    tokens_ -= 1;
    last_[sender] = now;
    return {};
}

}  // namespace spookludo::server
