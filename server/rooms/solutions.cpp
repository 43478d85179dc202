#include "solutions.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "spookludo/spook/setup.h"

namespace spookludo::server {

SharedSolutions::SharedSolutions(Limits limits, Metrics& metrics)
    : limits_(limits), metrics_(metrics),
      solves_(std::max(1, limits.solves_per_minute), std::max(1, limits.solves_per_minute) / 60.0) {
    for (int pieces = 1; pieces <= 3; ++pieces)
        for (const auto& pooled : spook::balanced_pool(pieces))
            pool_keys_.insert({spook::Board::from_notation(pooled.notation).key(), pieces * 8 + spook_pieces_to_finish(pieces)});
}

std::shared_ptr<const spook::Solution> SharedSolutions::get(const spook::Board& board, int pieces, int need) {
    const Key key{board.key(), pieces * 8 + need};
    {
        std::lock_guard lock(mutex_);
        if (auto it = solved_.find(key); it != solved_.end()) {
            if (!it->second.pinned) recent_.splice(recent_.begin(), recent_, it->second.recent);
            return it->second.solution;
        }
    }
    auto solution = std::make_shared<const spook::Solution>(spook::Solution::solve(board, pieces, need));
    std::lock_guard lock(mutex_);
    auto [it, fresh] = solved_.try_emplace(key);
    if (!fresh) return it->second.solution;  // another room solved it meanwhile
    Entry& e = it->second;
    e.solution = solution;  // the caller holds it even when it is evicted at once
    e.bytes = solution->memory_bytes();
    e.pinned = pool_keys_.count(key) > 0;
    if (e.pinned) {
        pinned_bytes_ += e.bytes;
        ++pinned_entries_;
    } else {
        recent_.push_front(key);
        e.recent = recent_.begin();
        bytes_ += e.bytes;
        evict_over_limit();  // may erase `e`
    }
    publish_gauges();
    return solution;
}

void SharedSolutions::evict_over_limit() {
    while (bytes_ > limits_.cache_bytes && !recent_.empty()) {
        auto it = solved_.find(recent_.back());
        bytes_ -= it->second.bytes;
        recent_.pop_back();
        solved_.erase(it);  // rooms that use it keep it through their shared_ptr
        ++metrics_.solution_evictions;
    }
}

void SharedSolutions::publish_gauges() {
    metrics_.solution_cache_bytes = static_cast<long>(bytes_);
    metrics_.solution_cache_entries = static_cast<long>(recent_.size());
    metrics_.solution_pinned_bytes = static_cast<long>(pinned_bytes_);
    metrics_.solution_pinned_entries = static_cast<long>(pinned_entries_);
}

void SharedSolutions::warm_up(const std::atomic<bool>& stop) {
    for (int pieces = 1; pieces <= 3; ++pieces)
        for (const auto& pooled : spook::balanced_pool(pieces)) {
            if (stop) return;
            (void)get(spook::Board::from_notation(pooled.notation), pieces, spook_pieces_to_finish(pieces));
        }
}

std::optional<std::chrono::seconds> SharedSolutions::allow_solves(const std::string& address, int solves) {
    if (limits_.solves_per_minute <= 0 || solves <= 0) return std::nullopt;
    const auto wait = solves_.take(address, solves);
    if (!wait) return std::nullopt;
    ++metrics_.solves_refused;
    return std::max(std::chrono::seconds(1), std::chrono::ceil<std::chrono::seconds>(*wait));
}

}  // namespace spookludo::server
