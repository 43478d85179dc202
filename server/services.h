#pragma once
// What every room shares: settings, metrics, the solution cache, the record store, the registry.
// No Asio here: rooms get their executor from the io_context they are created on.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "config.h"
#include "history.h"
#include "journal.h"
#include "spookludo/record.h"
#include "spookludo/spook/solver.h"

namespace spookludo::server {

class Room;
class Cluster;

// Counters for /metrics (Prometheus text format).
struct Metrics {
    std::atomic<long> connections{0};      // open WebSocket connections
    std::atomic<long> tcp_connections{0};  // open TCP connections of any kind (the limits count these)
    std::atomic<long> refused_out_of_descriptors{0};
    std::atomic<long> tls_handshake_failures{0};  // TLS port: handshakes that failed or timed out
    // TLS port: connections closed before any handshake, over the connection limits or over the
    // address's --tls-handshakes-per-second.
    std::atomic<long> tls_refused_connection_limit{0};
    std::atomic<long> tls_refused_handshake_rate{0};
    std::atomic<long> plain_on_tls_port{0};       // TLS port: plain HTTP requests (redirected or refused)
    std::atomic<long> origin_refused{0};          // WebSocket upgrades from another site's page (403)
    std::atomic<long> rooms{0};
    std::atomic<long> games_started{0};
    std::atomic<long> games_finished{0};
    std::atomic<long> games_abandoned{0};
    std::atomic<long> decisions{0};       // decision requests sent to players
    std::atomic<long> auto_moves{0};      // moves the server made for players (timeout, away)
    std::atomic<long> messages_in{0};
    std::atomic<long> messages_out{0};
    std::atomic<long> slow_readers_dropped{0};  // connections dropped with a full send queue
    std::atomic<long> websocket_read_bytes{0};  // held by WebSocket connections' frame readers
    std::atomic<long> internal_errors{0};       // messages whose handling threw (a defect)
    // The board-solution cache (SharedSolutions): its unpinned and pinned solutions.
    std::atomic<long> solution_cache_bytes{0};
    std::atomic<long> solution_cache_entries{0};
    std::atomic<long> solution_pinned_bytes{0};
    std::atomic<long> solution_pinned_entries{0};
    std::atomic<long> solution_evictions{0};    // solutions evicted from the cache
    std::atomic<long> solves_refused{0};        // games refused because their address had solved enough
    std::atomic<long> rooms_refused_per_address{0};  // create_room refused: the address held its bound of rooms
    // The finished games in the database (HistoryStore), by RecordClass.
    std::atomic<long> records_kept[2]{};
    std::atomic<long> records_evicted[2]{};  // removed by retention
    // The record files of --export-records (RecordStore).
    std::atomic<long> exported_kept[2]{};         // on disk, by RecordClass
    std::atomic<long> exported_evicted[2]{};      // removed by retention, by RecordClass
    std::atomic<long> record_write_failures{0};  // attempts to write a record file that failed
    std::atomic<long> records_pending{0};        // held in memory, waiting for a retry
    std::atomic<long> records_written_on_retry{0};
    std::atomic<long> records_dropped{0};  // given up on: never written
    // The journal (journal.h).
    std::atomic<long> journal_writes{0};          // transactions written (each holds the passes of several rooms)
    std::atomic<long> journal_passes{0};          // room passes written (one per message or timer that changed something)
    std::atomic<long> journal_write_failures{0};  // room writes that failed (each retry counts)
    std::atomic<long> journal_paused_rooms{0};    // rooms waiting for the journal to take their writes
    std::atomic<long> rooms_resumed{0};           // rooms taken up again from the journal at start
    std::atomic<long> rooms_lost{0};              // rooms the journal held that could not be taken up again
    // The cluster's view (--cluster; shown only then), as of the last heartbeat.
    std::atomic<bool> in_cluster{false};
    std::atomic<long> cluster_nodes_alive{0}, cluster_nodes_dead{0};
    std::atomic<long long> cluster_lease_until_ns{0};  // when this node's lease ends (steady clock; 0: none)
    std::atomic<long> cluster_redis_connected{0};
    std::atomic<long> cluster_lease_losses{0};    // times the lease ended
    std::atomic<long> cluster_rooms_taken_over{0};  // rooms this node took over (a dead node's, or its own again)
    std::atomic<long> games_resumed{0};           // of them, games in progress
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

// Which retention class a record is in: bot-only when every seat is a server-side bot (the
// record's seats say so), otherwise a game with human players (a player connection counts as a
// human: the server cannot tell a person from a program on the other end).
enum class RecordClass : unsigned char { human = 0, bot_only = 1 };
RecordClass class_of(const GameRecord& record) noexcept;
std::string_view to_string(RecordClass c) noexcept;

struct RecordLimits {
    int human_kept = 1000;  // records of games with human players kept on disk
    int bot_kept = 200;     // records of bot-only games kept on disk (a bound of their own)
    // A record that cannot be written (disk full, out of descriptors, ...) is held in memory and
    // retried: at most `pending_max` records, after retry_first, then doubling up to retry_max
    // between attempts, given up `give_up_after` its first failure (logged, counted).
    std::size_t pending_max = 64;
    std::chrono::milliseconds retry_first{250};
    std::chrono::milliseconds retry_max{5000};
    std::chrono::milliseconds give_up_after{600000};
};

// Game records on disk: <dir>/<id>.json. Retention (docs/security.md, README "Game records"):
// each class has its bound; when a class is over it, the group holding the most records of that
// class gives up its oldest (a group: the address of the host who started the game; the ties go
// to the group with the oldest record). So a flood from one address evicts its own games first,
// and bot-only games never push out games with human players. The groups are remembered across
// restarts in <dir>/index.tsv (id, class, address: never served, never in a record); a record
// the index does not know is classified from its seats and is a group of its own.
class RecordStore {
public:
    // Reads the directory (creating it): removes leftover temporary files, rebuilds the index
    // from the records on disk and applies the bounds. Logs what fails, never throws.
    RecordStore(std::filesystem::path dir, RecordLimits limits, Metrics* metrics = nullptr);
    ~RecordStore();  // one last attempt at the pending records
    RecordStore(const RecordStore&) = delete;
    RecordStore& operator=(const RecordStore&) = delete;

    // Writes the record, `owner` the address it counts against (empty: a group of its own).
    // Returns its id: written, or pending (held for a retry, written when the cause clears).
    // Never throws; "" only for a record that could not even be rendered.
    std::string save(const GameRecord& record, const std::string& id, const std::string& owner = {});
    // The same with the record already rendered (`text`, as record_text gives it).
    std::string save(const GameRecord& record, const std::string& id, const std::string& owner, std::string text);
    // The file of a record id, when it exists and the id is well formed.
    std::optional<std::filesystem::path> path_of(const std::string& id) const;
    // Tries the pending records now (the retry thread does it on its own schedule).
    void retry_now();
    std::size_t pending() const;

    // Empty when `dir` can be created and written, else why not (for a clear error at start).
    static std::optional<std::string> check_writable(const std::filesystem::path& dir);

private:
    struct Kept {
        std::uint64_t seq;
        std::string id;
    };
    struct Pending {
        std::string id, owner, text;
        RecordClass cls;
        int attempts = 0;
        std::chrono::steady_clock::time_point first_failed, next_at;
    };
    void open_directory();  // the constructor's work
    // All under mutex_.
    std::optional<std::string> write_file(const std::string& id, const std::string& text);
    void keep(const std::string& id, RecordClass cls, const std::string& owner, bool append_index);
    void enforce(RecordClass cls);
    void rewrite_index();
    void retry_due(std::chrono::steady_clock::time_point now, bool all);
    void retry_loop();
    void update_gauges();

    std::filesystem::path dir_;
    RecordLimits limits_;
    Metrics* metrics_;
    mutable std::mutex mutex_;
    std::uint64_t seq_ = 0;
    int count_[2] = {0, 0};
    std::map<std::string, std::deque<Kept>> groups_[2];  // by group key, oldest first
    std::size_t index_lines_ = 0;                        // lines in index.tsv (live or not)
    std::deque<Pending> pending_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread retry_thread_;  // started at the first failure
};

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

// Board solutions shared by all rooms. The pools' boards are solved once, ahead of time, by
// warm_up() on a thread of its own; a board not yet solved is solved by the room that needs it
// without holding the lock, so no room waits for another room's solve.
//
// Memory is bounded: the balanced pools' boards (a fixed set: 96 boards, 23 MB) are pinned, never
// evicted; every other solution (the random boards of games with balanced_boards false) is
// kept while the cache's `cache_bytes` allow, the least recently used evicted first. A room
// holds its seats' solutions through their shared_ptr, so an evicted solution lives on until
// its game ends. How much solving one address may ask for is bounded by allow_solves().
class SharedSolutions {
public:
    struct Limits {
        std::size_t cache_bytes = std::size_t{64} << 20;  // the unpinned solutions, at most
        int solves_per_minute = 48;  // per address (a bucket of this many, refilled over a minute); 0: no limit
    };
    SharedSolutions(Limits limits, Metrics& metrics);

    std::shared_ptr<const spook::Solution> get(const spook::Board& board, int pieces, int need);
    // Solves every board of the balanced pools (about a second on one core); stops early, after
    // the board in hand, once `stop` is set (a shutdown need not wait for it).
    void warm_up(const std::atomic<bool>& stop);

    // Takes `solves` from the address's budget; when it has not that many left, takes nothing
    // and says how long until it has (whole seconds, at least 1).
    std::optional<std::chrono::seconds> allow_solves(const std::string& address, int solves);

private:
    using Key = std::pair<std::array<std::uint64_t, 2>, int>;
    struct Entry {
        std::shared_ptr<const spook::Solution> solution;
        std::size_t bytes = 0;
        bool pinned = false;
        std::list<Key>::iterator recent;  // in recent_ (unpinned entries only)
    };
    void evict_over_limit();  // under the lock
    void publish_gauges();    // under the lock

    Limits limits_;
    Metrics& metrics_;
    std::set<Key> pool_keys_;  // the balanced pools' boards: pinned
    std::mutex mutex_;
    std::map<Key, Entry> solved_;
    std::list<Key> recent_;  // unpinned entries, most recently used first
    std::size_t bytes_ = 0, pinned_bytes_ = 0, pinned_entries_ = 0;

    AddressBuckets solves_;  // by address: solves_per_minute, refilled over a minute
};

// Rooms that could not be taken up again from the journal (a restart, a cluster's take-over):
// what their people are told when they come back with the code (`room_lost`). Bounded: the
// newest 1,000, each for a day.
class LostRooms {
public:
    void add(const std::string& code, std::string told);
    std::optional<std::string> find(const std::string& code);

private:
    static constexpr std::size_t kKept = 1000;
    struct Lost {
        std::string code, told;
        std::chrono::steady_clock::time_point at;
    };
    std::mutex mutex_;
    std::vector<Lost> lost_;  // oldest first
};

// Rooms by code. Copies pointers under its lock; all I/O happens outside it.
//
// Each room counts against the address that created it (its creator_address: the room knows it,
// and the journal keeps it) from its creation until it is removed, that is until it closed and
// the journal has its end, or the server stops: one address holds at most max_rooms_per_address
// rooms (0: no bound), so that an address creating rooms and dropping them (each lobby waits
// for its creator) cannot take every room of the server. A room of no known address counts
// against nobody.
class Registry {
public:
    Registry(int max_rooms, int max_rooms_per_address)
        : max_rooms_(max_rooms), max_rooms_per_address_(max_rooms_per_address) {}
    // What create() made, or why it made nothing.
    struct Created {
        std::shared_ptr<Room> room;  // nullptr: refused
        // Refused because `address` holds its bound of rooms (how many it holds); else, refused
        // because the server is full (or, create_with, the code is in use here).
        int address_holds = 0;
        explicit operator bool() const noexcept { return room != nullptr; }
    };
    // A new unused code and a room made by `make(code)`, counted against `address`.
    template <class Make>
    Created create(const std::string& address, Make&& make);
    // The same under a code claimed elsewhere (a cluster's).
    template <class Make>
    Created create_with(const std::string& code, const std::string& address, Make&& make);
    std::shared_ptr<Room> find(const std::string& code);
    // A room taken up again from a journal under its own code (at start, or a cluster's room taken
    // over): it counts against its creator_address, whatever the bound (it was within it when made).
    void adopt(const std::string& code, std::shared_ptr<Room> room);
    void remove(const std::string& code);
    // The same only while the code is still this room's (a room that stops may have been taken
    // up again under its code meanwhile).
    void remove_if(const std::string& code, const Room* room);
    std::vector<std::shared_ptr<Room>> all();
    std::size_t size();
    // The rooms `address` holds; and whether it holds its bound (a create from it is refused).
    int held_by(const std::string& address);
    bool address_full(const std::string& address);
    int max_rooms_per_address() const noexcept { return max_rooms_per_address_; }

private:
    struct Entry {
        std::shared_ptr<Room> room;
        std::string address;  // the address it counts against (empty: none)
    };
    // Under the lock.
    std::string fresh_code();
    int held_locked(const std::string& address) const;
    bool over_address_bound(const std::string& address) const;
    void count(const std::string& address);
    void uncount(const std::string& address);
    void erase(std::map<std::string, Entry>::iterator it);

    int max_rooms_;
    int max_rooms_per_address_;
    std::mutex mutex_;
    std::map<std::string, Entry> rooms_;
    std::map<std::string, int> held_;  // rooms by address, for the addresses that hold some
    std::uint64_t counter_ = 0;
};

namespace db {
class Database;
}

struct Services {
    Config config;
    Metrics metrics;
    SharedSolutions solutions;
    Registry registry;
    LostRooms lost_rooms;
    // The database (<data dir>/spookludo.db) and the finished games in it (GET /games ...).
    std::unique_ptr<db::Database> database;
    std::unique_ptr<HistoryStore> history;
    // The open rooms' journal, in the same database.
    std::unique_ptr<Journal> journal;
    // A cluster's node keeps its rooms' journal in Redis instead (cluster_journal.h; made once
    // the io_context is there, app.cpp).
    std::unique_ptr<JournalStore> cluster_journal;
    // Writes the rooms' passes to the journal, many in a transaction (none with --no-journal).
    // Stopped (what is queued written) before the rooms' io_context goes.
    std::unique_ptr<JournalWriter> journal_writer;
    JournalWriter::Counters journal_counters();
    // The record files of --export-records (none without it).
    std::unique_ptr<RecordStore> exported;
    // The cluster this node is in (--cluster; none for a server on its own). Made once the
    // io_context is there (app.cpp), let go before it.
    std::unique_ptr<Cluster> cluster;
    // When the previous run stopped (Unix ms): its clean stop, else its last sign of life; 0 when
    // unknown. Set at start, before the rooms are taken up again (their decisions' time left).
    std::int64_t previous_stop_ms = 0;
    std::atomic<bool> shutting_down{false};
    // The `welcome`'s lan_urls: http(s)://ADDRESS:PORT for each network address the server
    // listens on (none inside a container, none bound to loopback). Set once before serving.
    std::vector<std::string> lan_urls;

    // Opens the database (throws db::Error, or db::TooNew for a newer server's file).
    explicit Services(const Config& c);
    ~Services();

    // A game's record as a file of --export-records (nothing without it). The database has it
    // already: the journal's transaction that ends the game puts it there. Never throws: a
    // failure is logged, counted and retried.
    void export_record(const FinishedGame& game);

    // A room closed: its code is free again (in the cluster's directory too).
    void forget_room(const std::string& code);

    // A clean stop: the time the rooms stopped goes to the journal, for the next start. Never throws.
    void mark_stop();

    // The journal's health for /healthz: empty while every write succeeds; else why the last
    // failed (rooms are paused meanwhile).
    void journal_failed(const std::string& why);
    void journal_recovered();
    std::optional<std::string> journal_problem();

private:
    std::mutex journal_problem_mutex_;
    std::optional<std::string> journal_problem_;
};

// Room codes: 5 letters from an alphabet without look-alikes (no I, L, O, 0, 1).
inline constexpr std::string_view kRoomCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ";
inline constexpr std::size_t kRoomCodeLength = 5;
std::string normalise_room_code(std::string_view code);  // upper case, trimmed
std::string random_room_code();

template <class Make>
Registry::Created Registry::create(const std::string& address, Make&& make) {
    std::lock_guard lock(mutex_);
    if (static_cast<int>(rooms_.size()) >= max_rooms_) return {};
    if (over_address_bound(address)) return {nullptr, held_locked(address)};
    std::string code = fresh_code();
    auto room = make(code);
    rooms_.emplace(code, Entry{room, address});
    count(address);
    return {std::move(room)};
}

template <class Make>
Registry::Created Registry::create_with(const std::string& code, const std::string& address, Make&& make) {
    std::lock_guard lock(mutex_);
    if (static_cast<int>(rooms_.size()) >= max_rooms_ || rooms_.count(code)) return {};
    if (over_address_bound(address)) return {nullptr, held_locked(address)};
    auto room = make(code);
    rooms_.emplace(code, Entry{room, address});
    count(address);
    return {std::move(room)};
}

}  // namespace spookludo::server
