#include "analyses.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "spookludo/analysis.h"
#include "spookludo/record.h"

namespace spookludo::server {

namespace {

std::shared_ptr<const std::string> error_body(const std::string& why) {
    return std::make_shared<const std::string>(
        nlohmann::json{{"error", why}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace

Analyses::Analyses(Limits limits, SharedSolutions& solutions, Metrics& metrics)
    : limits_(limits), solutions_(solutions), metrics_(metrics),
      buckets_(limits.per_minute > 0 ? limits.per_minute : 1, limits.per_minute > 0 ? limits.per_minute / 60.0 : 1) {}

Analyses::~Analyses() { stop(); }

void Analyses::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (worker_.joinable()) worker_.join();
    std::lock_guard lock(mutex_);
    jobs_.clear();
    waiting_.clear();
}

std::optional<Analyses::Answer> Analyses::cached(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = cache_.find(id);
    if (it == cache_.end()) return std::nullopt;
    recent_.splice(recent_.begin(), recent_, it->second.recent);
    return it->second.answer;
}

std::size_t Analyses::cached_bytes() {
    std::lock_guard lock(mutex_);
    return bytes_;
}

std::optional<Analyses::Refusal> Analyses::request(const std::string& id, std::string record_text,
                                                   const std::string& address, Done done) {
    std::unique_lock lock(mutex_);
    if (stopping_) return Refusal{503, 5, "the server is shutting down"};
    if (auto it = cache_.find(id); it != cache_.end()) {
        Answer answer = it->second.answer;
        lock.unlock();
        done(std::move(answer));
        return std::nullopt;
    }
    if (auto it = waiting_.find(id); it != waiting_.end()) {  // being computed for someone: free
        if (it->second.size() >= kMaxWaitersPerGame)
            return Refusal{503, 2, "too many requests wait for this analysis; ask again in a moment"};
        it->second.push_back(std::move(done));
        return std::nullopt;
    }
    if (static_cast<int>(waiting_.size()) >= limits_.queued)
        return Refusal{503, 2, "too many analyses are being computed now; ask again in a moment"};
    if (limits_.per_minute > 0)
        if (auto wait = buckets_.take(address)) {
            const auto seconds = std::chrono::ceil<std::chrono::seconds>(*wait).count();
            ++metrics_.analyses_refused;
            return Refusal{429, static_cast<int>(std::max<long long>(1, seconds)),
                           "this address asked for " + std::to_string(limits_.per_minute) +
                               " analyses of games not analysed yet within a minute; ask again in " +
                               std::to_string(std::max<long long>(1, seconds)) + " s"};
        }
    waiting_[id].push_back(std::move(done));
    jobs_.push_back({id, std::move(record_text)});
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    lock.unlock();
    wake_.notify_one();
    return std::nullopt;
}

void Analyses::work() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
            if (stopping_) return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        Answer answer = compute(job);
        std::vector<Done> callbacks;
        {
            std::lock_guard lock(mutex_);
            keep(job.id, answer);
            if (auto it = waiting_.find(job.id); it != waiting_.end()) {
                callbacks = std::move(it->second);
                waiting_.erase(it);
            }
        }
        for (auto& done : callbacks) {
            try {
                done(answer);
            } catch (const std::exception& e) {
                spdlog::error("analysis of {}: answering failed: {}", job.id, e.what());
            }
        }
    }
}

Analyses::Answer Analyses::compute(const Job& job) {
    const auto started = std::chrono::steady_clock::now();
    try {
        const GameRecord record = parse_record(job.record_text);
        AnalysisOptions options;
        options.game_id = job.id;
        options.solve = [this](const spook::Board& board, int pieces, int need) { return solutions_.get(board, pieces, need); };
        auto body = std::make_shared<const std::string>(
            analyse(record, options).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
        ++metrics_.analyses_computed;
        spdlog::debug("analysis of {} computed in {} ms ({} bytes)", job.id,
                      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count(),
                      body->size());
        return {200, std::move(body)};
    } catch (const std::invalid_argument& e) {
        return {422, error_body(std::string("this game cannot be analysed: ") + e.what())};
    } catch (const std::exception& e) {
        ++metrics_.internal_errors;
        spdlog::error("analysis of {} failed: {}", job.id, e.what());
        return {500, error_body("the analysis failed")};
    }
}

void Analyses::keep(const std::string& id, const Answer& answer) {
    if (answer.status == 500) return;  // not kept: a later request tries again
    const std::size_t bytes = answer.body->size() + id.size() + 64;
    if (bytes > limits_.cache_bytes) return;
    if (auto it = cache_.find(id); it != cache_.end()) return;
    recent_.push_front(id);
    cache_.emplace(id, Entry{answer, bytes, recent_.begin()});
    bytes_ += bytes;
    while (bytes_ > limits_.cache_bytes && !recent_.empty()) {
        auto old = cache_.find(recent_.back());
        bytes_ -= old->second.bytes;
        cache_.erase(old);
        recent_.pop_back();
    }
}

}  // namespace spookludo::server
