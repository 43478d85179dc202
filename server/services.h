#pragma once
// What every room shares: settings, metrics, the solution cache, the record store, the registry.
// No Asio here: rooms get their executor from the io_context they are created on.
#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "config.h"
#include "spookludo/record.h"
#include "spookludo/spook/solver.h"

namespace spookludo::server {

class Room;

// Counters for /metrics (Prometheus text format).
struct Metrics {
    std::atomic<long> connections{0};      // open WebSocket connections
    std::atomic<long> tcp_connections{0};  // open TCP connections of any kind (the limits count these)
    std::atomic<long> refused_out_of_descriptors{0};
    std::atomic<long> rooms{0};
    std::atomic<long> games_started{0};
    std::atomic<long> games_finished{0};
    std::atomic<long> games_abandoned{0};
    std::atomic<long> decisions{0};       // decision requests sent to players
    std::atomic<long> auto_moves{0};      // moves the server made for players (timeout, away)
    std::atomic<long> messages_in{0};
    std::atomic<long> messages_out{0};
    std::atomic<long> slow_readers_dropped{0};  // connections dropped with a full send queue
    std::atomic<long> internal_errors{0};       // messages whose handling threw (a defect)
    // Decision round trip (request sent to answer received), histogram buckets in ms.
    static constexpr double kBuckets[] = {0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000};
    std::atomic<long> round_trip_count[std::size(kBuckets) + 1]{};
    std::atomic<long> round_trip_sum_us{0};
    std::mutex errors_mutex;
    std::map<std::string, long> errors;  // by error code

    void observe_round_trip(double ms);
    void count_error(std::string_view code);
    std::string prometheus_text();
};

// Game records on disk: <data_dir>/records/<id>.json, the newest `keep` kept.
class RecordStore {
public:
    RecordStore(std::filesystem::path dir, int keep);
    // Writes the record; returns its id. Never throws (logs and returns "" on failure).
    std::string save(const GameRecord& record, const std::string& id);
    // The file of a record id, when it exists and the id is well formed.
    std::optional<std::filesystem::path> path_of(const std::string& id) const;

private:
    std::filesystem::path dir_;
    int keep_;
    std::mutex mutex_;
    bool indexed_ = false;                     // the directory has been read
    std::deque<std::filesystem::path> kept_;  // the records on disk, oldest first
};

// Board solutions shared by all rooms. The pools' boards are solved once, ahead of time, by
// warm_up() on a thread of its own; a board not yet solved is solved by the room that needs it
// without holding the lock, so no room waits for another room's solve.
class SharedSolutions {
public:
    std::shared_ptr<const spook::Solution> get(const spook::Board& board, int pieces, int need);
    // Solves every board of the balanced pools (about a second on one core); stops early, after
    // the board in hand, once `stop` is set (a shutdown need not wait for it).
    void warm_up(const std::atomic<bool>& stop);

private:
    using Key = std::pair<std::array<std::uint64_t, 2>, int>;
    std::mutex mutex_;
    std::map<Key, std::shared_ptr<const spook::Solution>> solved_;
};

// Rooms by code. Copies pointers under its lock; all I/O happens outside it.
class Registry {
public:
    explicit Registry(int max_rooms) : max_rooms_(max_rooms) {}
    // A new unused code and a room made by `make(code)`; nullptr when the server is full.
    template <class Make>
    std::shared_ptr<Room> create(Make&& make);
    std::shared_ptr<Room> find(const std::string& code);
    void remove(const std::string& code);
    std::vector<std::shared_ptr<Room>> all();
    std::size_t size();

private:
    std::string fresh_code();  // under the lock
    int max_rooms_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Room>> rooms_;
    std::uint64_t counter_ = 0;
};

struct Services {
    Config config;
    Metrics metrics;
    RecordStore records;
    SharedSolutions solutions;
    Registry registry;
    std::atomic<bool> shutting_down{false};

    explicit Services(const Config& c)
        : config(c),
          records(std::filesystem::path(c.data_dir) / "records", c.records_kept),
          registry(c.max_rooms) {}
};

// Room codes: 5 letters from an alphabet without look-alikes (no I, L, O, 0, 1).
inline constexpr std::string_view kRoomCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ";
inline constexpr std::size_t kRoomCodeLength = 5;
std::string normalise_room_code(std::string_view code);  // upper case, trimmed

template <class Make>
std::shared_ptr<Room> Registry::create(Make&& make) {
    std::lock_guard lock(mutex_);
    if (static_cast<int>(rooms_.size()) >= max_rooms_) return nullptr;
    std::string code = fresh_code();
    auto room = make(code);
    rooms_.emplace(code, room);
    return room;
}

}  // namespace spookludo::server
