#pragma once
// Finished games' analyses (spookludo/analysis.h) for GET /analysis/<id>: each computed once, on
// a worker thread of its own (never an I/O thread: no room waits for one), and kept in a bounded
// cache in memory (the least recently used goes first; a restart computes them again). Bounded
// per address like board solving: an address may start `per_minute` new analyses a minute (in a
// burst of as many); what is cached, or being computed for someone else, costs nothing. At most
// `queued` wait at once. The boards come from the rooms' shared solutions, so an analysis solves
// each board once, or not at all when a room (or the pools) solved it.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "address_buckets.h"
#include "metrics.h"
#include "solutions.h"

namespace spookludo::server {

class Analyses {
public:
    struct Limits {
        std::size_t cache_bytes = std::size_t{32} << 20;  // the analyses kept, at most
        int per_minute = 12;  // new analyses per address (a bucket of as many, refilled over a minute); 0: no limit
        int queued = 16;      // analyses waiting or being computed, at most
    };
    // An answer: 200 and the document, or an error status and {"error": why} (JSON either way).
    struct Answer {
        int status = 200;
        std::shared_ptr<const std::string> body;
    };
    using Done = std::function<void(Answer)>;
    // Why a request cannot start an analysis now: 429 (the address asked for too many) or 503
    // (too many waiting, or shutting down), with the seconds to wait and the reason.
    struct Refusal {
        int status = 429;
        int retry_after_s = 1;
        std::string reason;
    };

    // Requests waiting for one game's analysis, at most (each holds its connection meanwhile).
    static constexpr std::size_t kMaxWaitersPerGame = 64;

    Analyses(Limits limits, SharedSolutions& solutions, Metrics& metrics);
    ~Analyses();  // stop()
    Analyses(const Analyses&) = delete;
    Analyses& operator=(const Analyses&) = delete;

    // The kept answer of game `id`, if any.
    std::optional<Answer> cached(const std::string& id);
    // Asks for game `id`'s analysis, its record's JSON text given: `done` is called once, from the
    // worker thread, with the answer (or at once, from this thread, when it is cached by now).
    // A refusal calls nothing.
    std::optional<Refusal> request(const std::string& id, std::string record_text, const std::string& address, Done done);
    // Stops the worker (the analysis in hand is finished first); what waits is dropped, its
    // callbacks never called. Before the I/O threads' io_context goes.
    void stop();

    std::size_t cached_bytes();

private:
    struct Entry {
        Answer answer;
        std::size_t bytes = 0;
        std::list<std::string>::iterator recent;
    };
    struct Job {
        std::string id;
        std::string record_text;
    };
    void work();
    Answer compute(const Job& job);
    void keep(const std::string& id, const Answer& answer);  // under the lock

    Limits limits_;
    SharedSolutions& solutions_;
    Metrics& metrics_;
    AddressBuckets buckets_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::map<std::string, Entry> cache_;
    std::list<std::string> recent_;  // most recently used first
    std::size_t bytes_ = 0;
    std::deque<Job> jobs_;
    std::map<std::string, std::vector<Done>> waiting_;  // by game: who waits for it (queued or in hand)
    bool stopping_ = false;
    std::thread worker_;  // started with the first job
};

}  // namespace spookludo::server
