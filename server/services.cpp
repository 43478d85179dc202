#include "services.h"

#include "cluster.h"
#include "database.h"
#include "room.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cerrno>
#include <fstream>
#include <tuple>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "spookludo/spook/setup.h"

namespace spookludo::server {

void Metrics::observe_round_trip(double ms) {
    std::size_t i = 0;
    while (i < std::size(kBuckets) && ms > kBuckets[i]) ++i;
    ++round_trip_count[i];
    round_trip_sum_us += static_cast<long>(ms * 1000);
}

void Metrics::count_error(std::string_view code) {
    std::lock_guard lock(errors_mutex);
    ++errors[std::string(code)];
}

std::string Metrics::prometheus_text() {
    std::ostringstream o;
    auto gauge = [&](const char* name, const char* help, const char* type, long v) {
        o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n' << name << ' ' << v << '\n';
    };
    gauge("spookludo_connections", "Open WebSocket connections.", "gauge", connections);
    gauge("spookludo_tcp_connections", "Open TCP connections: WebSocket, HTTP, and not yet upgraded.", "gauge",
          tcp_connections);
    gauge("spookludo_refused_out_of_descriptors_total",
          "Connections answered 503 and closed because the server was out of file descriptors.", "counter",
          refused_out_of_descriptors);
    gauge("spookludo_tls_handshake_failures_total",
          "TLS port: connections whose TLS handshake failed or timed out (garbage, old protocol versions).", "counter",
          tls_handshake_failures);
    o << "# HELP spookludo_tls_refused_total TLS port: connections closed before any handshake: over "
         "--max-connections or --max-connections-per-address (connection_limit), or over their address's "
         "--tls-handshakes-per-second (handshake_rate).\n# TYPE spookludo_tls_refused_total counter\n"
         "spookludo_tls_refused_total{reason=\"connection_limit\"} "
      << tls_refused_connection_limit << "\nspookludo_tls_refused_total{reason=\"handshake_rate\"} "
      << tls_refused_handshake_rate << '\n';
    gauge("spookludo_plain_on_tls_port_total",
          "TLS port: plain HTTP requests, answered with a redirect to https:// or told to use wss://.", "counter",
          plain_on_tls_port);
    gauge("spookludo_origin_refused_total",
          "WebSocket upgrades refused with 403 because their Origin was another site (not this server, not "
          "--allow-origin).",
          "counter", origin_refused);
    gauge("spookludo_rooms", "Rooms on the server.", "gauge", rooms);
    gauge("spookludo_games_started_total", "Games started.", "counter", games_started);
    gauge("spookludo_games_finished_total", "Games played to the end.", "counter", games_finished);
    gauge("spookludo_games_abandoned_total", "Games abandoned.", "counter", games_abandoned);
    gauge("spookludo_decisions_total", "Decision requests sent to players.", "counter", decisions);
    gauge("spookludo_auto_moves_total", "Moves the server made for players who timed out or were away.", "counter",
          auto_moves);
    gauge("spookludo_messages_in_total", "WebSocket messages received.", "counter", messages_in);
    gauge("spookludo_messages_out_total", "WebSocket messages sent.", "counter", messages_out);
    gauge("spookludo_slow_readers_dropped_total", "Connections dropped because they did not read what was sent.",
          "counter", slow_readers_dropped);
    gauge("spookludo_websocket_read_bytes",
          "Bytes the WebSocket connections hold for what they read: read buffers, frames cut by a read's end, "
          "messages being joined.",
          "gauge", websocket_read_bytes);
    gauge("spookludo_internal_errors_total",
          "Messages whose handling failed inside the server (each answered with internal_error; a defect to report).",
          "counter", internal_errors);
    gauge("spookludo_solution_cache_bytes", "Board solutions kept for reuse, in bytes (the balanced pools' aside).",
          "gauge", solution_cache_bytes);
    gauge("spookludo_solution_cache_entries", "Board solutions kept for reuse (the balanced pools' aside).", "gauge",
          solution_cache_entries);
    gauge("spookludo_solution_pinned_bytes", "The balanced pools' board solutions, never evicted, in bytes.", "gauge",
          solution_pinned_bytes);
    gauge("spookludo_solution_pinned_entries", "The balanced pools' board solutions, never evicted.", "gauge",
          solution_pinned_entries);
    gauge("spookludo_solution_evictions_total", "Board solutions evicted from the cache (least recently used first).",
          "counter", solution_evictions);
    gauge("spookludo_solves_refused_total",
          "Games with random boards refused because their address had asked for its solves of the minute.", "counter",
          solves_refused);
    gauge("spookludo_rooms_refused_per_address_total",
          "create_room refused because the address held its bound of open rooms (--max-rooms-per-address).",
          "counter", rooms_refused_per_address);
    auto by_class = [&](const char* name, const char* help, const char* type, const std::atomic<long>* v) {
        o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n' << name
          << "{class=\"human\"} " << v[0] << '\n' << name << "{class=\"bot_only\"} " << v[1] << '\n';
    };
    by_class("spookludo_records", "Finished games in the database (GET /games), by retention class.", "gauge",
             records_kept);
    by_class("spookludo_records_evicted_total", "Finished games removed from the database to keep within the bounds, by class.",
             "counter", records_evicted);
    by_class("spookludo_exported_records", "Record files in the --export-records directory, by retention class.",
             "gauge", exported_kept);
    by_class("spookludo_exported_records_evicted_total",
             "Record files of --export-records removed to keep within the bounds, by class.", "counter",
             exported_evicted);
    gauge("spookludo_record_write_failures_total",
          "Attempts to write a record file of --export-records that failed (each is logged).", "counter",
          record_write_failures);
    gauge("spookludo_records_pending", "Record files of --export-records held in memory until they can be written.",
          "gauge", records_pending);
    gauge("spookludo_journal_writes_total",
          "Journal transactions written (each holds the room passes of a few milliseconds: group commit).", "counter",
          journal_writes);
    gauge("spookludo_journal_passes_total",
          "Room passes written to the journal (a message or a timer that changed something).", "counter",
          journal_passes);
    gauge("spookludo_journal_write_failures_total",
          "Rooms' journal writes that failed (a full disk, a read-only file, Redis out of reach, ...; each retry counts).", "counter",
          journal_write_failures);
    gauge("spookludo_journal_paused_rooms", "Rooms paused because the journal cannot take their writes.", "gauge",
          journal_paused_rooms);
    gauge("spookludo_rooms_resumed_total", "Rooms taken up again from the journal when the server started.", "counter",
          rooms_resumed);
    gauge("spookludo_rooms_lost_total",
          "Rooms the journal held that could not be taken up again (their people are told; a game's record is kept up "
          "to its last step the engine agrees with).",
          "counter", rooms_lost);
    gauge("spookludo_games_resumed_total", "Games in progress taken up again from the journal when the server started.",
          "counter", games_resumed);
    gauge("spookludo_records_written_on_retry_total", "Record files of --export-records written after a failed attempt.",
          "counter", records_written_on_retry);
    gauge("spookludo_records_dropped_total",
          "Record files of --export-records given up on (never written; each is logged).", "counter", records_dropped);
    if (in_cluster) {
        gauge("spookludo_cluster_nodes", "Live nodes of the cluster, this one included (as of its last heartbeat).",
              "gauge", cluster_nodes_alive);
        gauge("spookludo_cluster_dead_nodes", "Nodes of the cluster whose heartbeat has expired.", "gauge",
              cluster_nodes_dead);
        const auto until = std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(cluster_lease_until_ns));
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        gauge("spookludo_cluster_lease_ms", "How long this node holds its lease from now (0: it does not).", "gauge",
              cluster_lease_until_ns ? std::max(0L, static_cast<long>(left.count())) : 0L);
        gauge("spookludo_cluster_redis_connected", "1 while this node is connected to the cluster's Redis.", "gauge",
              cluster_redis_connected);
        gauge("spookludo_cluster_lease_losses_total", "Times this node lost its lease (Redis unreachable or too slow).",
              "counter", cluster_lease_losses);
        gauge("spookludo_cluster_rooms_taken_over_total",
              "Rooms this node took over from a dead node (or took up again after its own restart).", "counter",
              cluster_rooms_taken_over);
    }
    o << "# HELP spookludo_decision_round_trip_ms From a decision request to its answer.\n"
         "# TYPE spookludo_decision_round_trip_ms histogram\n";
    long cumulative = 0;
    for (std::size_t i = 0; i <= std::size(kBuckets); ++i) {
        cumulative += round_trip_count[i];
        o << "spookludo_decision_round_trip_ms_bucket{le=\"";
        if (i < std::size(kBuckets))
            o << kBuckets[i];
        else
            o << "+Inf";
        o << "\"} " << cumulative << '\n';
    }
    o << "spookludo_decision_round_trip_ms_sum " << static_cast<double>(round_trip_sum_us) / 1000.0 << '\n';
    o << "spookludo_decision_round_trip_ms_count " << cumulative << '\n';
    o << "# HELP spookludo_errors_total Errors sent to clients, by code.\n# TYPE spookludo_errors_total counter\n";
    std::lock_guard lock(errors_mutex);
    for (const auto& [code, n] : errors) o << "spookludo_errors_total{code=\"" << code << "\"} " << n << '\n';
    return o.str();
}

// ---- Records ------------------------------------------------------------------------------

RecordClass class_of(const GameRecord& record) noexcept {
    if (record.seats.empty()) return RecordClass::human;
    for (const auto& s : record.seats)
        if (!s.bot) return RecordClass::human;
    return RecordClass::bot_only;
}

std::string_view to_string(RecordClass c) noexcept { return c == RecordClass::human ? "human" : "bot_only"; }

namespace {

namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

constexpr const char* kIndexFile = "index.tsv";

std::string errno_text(int e) { return std::error_code(e, std::generic_category()).message(); }

// Writes all of `text` to `fd`; errno of the failure, or 0.
int write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

// The group a record counts against: its owner's address, or itself when the owner is unknown.
std::string group_key(const std::string& id, const std::string& owner) {
    return owner.empty() ? "?" + id : "@" + owner;
}

// What a records directory's index.tsv knows: id -> class and owner, in the order the records
// were written.
struct IndexLine {
    RecordClass cls;
    std::string owner;
    std::size_t line;
};

std::map<std::string, IndexLine> read_index(const fs::path& dir) {
    std::map<std::string, IndexLine> known;
    std::ifstream in(dir / kIndexFile);
    std::string line;
    for (std::size_t n = 0; std::getline(in, line); ++n) {
        const auto t1 = line.find('\t');
        const auto t2 = t1 == std::string::npos ? std::string::npos : line.find('\t', t1 + 1);
        if (t2 == std::string::npos) continue;
        const std::string cls = line.substr(t1 + 1, t2 - t1 - 1);
        known[line.substr(0, t1)] = {cls == "bot_only" ? RecordClass::bot_only : RecordClass::human, line.substr(t2 + 1), n};
    }
    return known;
}

// An address as one field of index.tsv (no tabs, no line breaks).
std::string index_field(std::string text) {
    for (char& c : text)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return text;
}

// The class of a record file's text. The seats are read alone when the text is laid out as the
// server writes it (one key a line: a record's draws and positions make most of it); anything
// else is read whole.
RecordClass class_of_text(const std::string& text) {
    constexpr std::string_view marker = "\n  \"seats\": ";
    if (const auto at = text.find(marker); at != std::string::npos) {
        const auto begin = at + marker.size();
        const auto end = text.compare(begin, 2, "[]") == 0 ? begin + 2 : text.find("\n  ]", begin);
        if (end != std::string::npos) {
            try {
                const auto seats = nlohmann::json::parse(text.substr(begin, end == begin + 2 ? 2 : end + 4 - begin));
                bool ok = seats.is_array(), all_bots = !seats.empty();
                for (const auto& seat : seats) {
                    if (!seat.is_object() || !seat.contains("bot") || !seat["bot"].is_boolean()) ok = false;
                    else if (!seat["bot"].get<bool>()) all_bots = false;
                }
                if (ok) return all_bots ? RecordClass::bot_only : RecordClass::human;
            } catch (const std::exception&) {
                // read it whole below
            }
        }
    }
    return class_of(parse_record(text));
}

bool is_record_id(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
    return true;
}

}  // namespace

std::optional<std::string> RecordStore::check_writable(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "cannot create " + dir.string() + ": " + ec.message();
    if (!fs::is_directory(dir, ec)) return dir.string() + " is not a directory";
    const fs::path probe = dir / (".write-test-" + std::to_string(::getpid()));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot write into " + dir.string() + ": " + errno_text(errno);
    ::close(fd);
    ::unlink(probe.c_str());
    return std::nullopt;
}

RecordStore::RecordStore(fs::path dir, RecordLimits limits, Metrics* metrics)
    : dir_(std::move(dir)), limits_(limits), metrics_(metrics) {
    try {
        open_directory();
    } catch (const std::exception& e) {
        spdlog::error("records: cannot read {}: {}", dir_.string(), e.what());
    }
}

void RecordStore::open_directory() {
    std::lock_guard lock(mutex_);
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) spdlog::error("cannot create the records directory {}: {}", dir_.string(), ec.message());

    const std::map<std::string, IndexLine> known = read_index(dir_);

    // The records on disk. Leftover temporary files (a write cut short by a crash) go.
    struct OnDisk {
        std::string id;
        RecordClass cls;
        std::string owner;
        bool indexed;
        std::size_t line;
        fs::file_time_type time;
    };
    std::vector<OnDisk> files;
    int leftovers = 0;
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() > 9 && name.ends_with(".json.tmp")) {
            std::error_code ignored;
            if (fs::remove(e.path(), ignored)) ++leftovers;
            continue;
        }
        if (e.path().extension() != ".json") continue;
        std::error_code time_ec;
        OnDisk f{e.path().stem().string(), RecordClass::human, "", false, 0, e.last_write_time(time_ec)};
        if (auto it = known.find(f.id); it != known.end()) {
            f.cls = it->second.cls;
            f.owner = it->second.owner;
            f.indexed = true;
            f.line = it->second.line;
        } else {
            // Not in the index (written before it existed, or its line was lost): its seats say
            // its class; its owner is unknown, so it is a group of its own.
            try {
                std::ifstream in(e.path(), std::ios::binary);
                std::ostringstream text;
                text << in.rdbuf();
                f.cls = class_of_text(text.str());
            } catch (const std::exception&) {
                f.cls = RecordClass::human;  // not readable as a record: kept with the most care
            }
        }
        files.push_back(std::move(f));
    }
    if (ec) spdlog::error("cannot read the records directory {}: {}", dir_.string(), ec.message());
    if (leftovers > 0) spdlog::warn("records: removed {} unfinished temporary file(s) in {}", leftovers, dir_.string());
    // Oldest first: the records the index does not know (older than it) by time, then the
    // index's in the order it wrote them.
    std::sort(files.begin(), files.end(), [](const OnDisk& a, const OnDisk& b) {
        if (a.indexed != b.indexed) return !a.indexed;
        if (a.indexed) return a.line < b.line;
        return a.time != b.time ? a.time < b.time : a.id < b.id;
    });
    for (const auto& f : files) keep(f.id, f.cls, f.owner, false);
    enforce(RecordClass::human);
    enforce(RecordClass::bot_only);
    rewrite_index();
    update_gauges();
    if (!files.empty())
        spdlog::info("records: {} kept in {} ({} with human players, {} bot-only){}", count_[0] + count_[1],
                     dir_.string(), count_[0], count_[1],
                     files.size() > static_cast<std::size_t>(count_[0] + count_[1])
                         ? fmt::format("; {} removed to keep within the bounds",
                                       files.size() - static_cast<std::size_t>(count_[0] + count_[1]))
                         : std::string());
}

RecordStore::~RecordStore() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (retry_thread_.joinable()) retry_thread_.join();
    std::lock_guard lock(mutex_);
    if (pending_.empty()) return;
    retry_due(SteadyClock::now(), true);  // one last attempt
    for (const auto& p : pending_) {
        spdlog::error("records: the record of game {} was never written (the server is stopping)", p.id);
        if (metrics_) ++metrics_->records_dropped;
    }
    pending_.clear();
    update_gauges();
}

std::optional<std::string> RecordStore::write_file(const std::string& id, const std::string& text) {
    std::error_code ec;
    fs::create_directories(dir_, ec);  // it may have been removed under the server
    const fs::path file = dir_ / (id + ".json");
    const fs::path tmp = dir_ / (id + ".json.tmp");
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot create " + tmp.string() + ": " + errno_text(errno);
    std::string failure;
    if (const int e = write_all(fd, text)) failure = "cannot write " + tmp.string() + ": " + errno_text(e);
    if (::close(fd) != 0 && failure.empty()) failure = "cannot write " + tmp.string() + ": " + errno_text(errno);
    if (failure.empty() && ::rename(tmp.c_str(), file.c_str()) != 0)
        failure = "cannot rename " + tmp.string() + ": " + errno_text(errno);
    if (failure.empty()) return std::nullopt;
    ::unlink(tmp.c_str());  // never leave a partial file behind
    return failure;
}

void RecordStore::keep(const std::string& id, RecordClass cls, const std::string& owner, bool append_index) {
    // A record written again (a game replayed after a restart ends with the same record) counts
    // once: its earlier entry goes.
    [&] {
        for (std::size_t k = 0; k < 2; ++k)
            for (auto it = groups_[k].begin(); it != groups_[k].end(); ++it) {
                auto& kept = it->second;
                const auto at = std::find_if(kept.begin(), kept.end(), [&](const Kept& e) { return e.id == id; });
                if (at == kept.end()) continue;
                kept.erase(at);
                --count_[k];
                if (kept.empty()) groups_[k].erase(it);
                return;
            }
    }();
    const auto c = static_cast<std::size_t>(cls);
    groups_[c][group_key(id, owner)].push_back({seq_++, id});
    ++count_[c];
    if (!append_index) return;
    const std::string line = id + '\t' + std::string(to_string(cls)) + '\t' + index_field(owner) + '\n';
    const fs::path index = dir_ / kIndexFile;
    const int fd = ::open(index.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const int e = fd < 0 ? errno : write_all(fd, line);
    if (fd >= 0) ::close(fd);
    if (e != 0) {
        // The record is on disk; after a restart it will count as a group of its own.
        spdlog::warn("records: cannot add game {} to {}: {}", id, index.string(), errno_text(e));
        return;
    }
    // The index only grows between starts; rewrite it once most of its lines are gone.
    if (++index_lines_ > 2 * static_cast<std::size_t>(count_[0] + count_[1]) + 64) rewrite_index();
}

void RecordStore::rewrite_index() {
    std::vector<std::tuple<std::uint64_t, std::string, RecordClass, std::string>> rows;
    for (std::size_t c = 0; c < 2; ++c)
        for (const auto& [key, kept] : groups_[c])
            for (const auto& k : kept)
                rows.emplace_back(k.seq, k.id, static_cast<RecordClass>(c), key[0] == '@' ? key.substr(1) : "");
    std::sort(rows.begin(), rows.end());
    std::string text;
    for (const auto& [seq, id, cls, owner] : rows)
        text += id + '\t' + std::string(to_string(cls)) + '\t' + index_field(owner) + '\n';
    const fs::path tmp = dir_ / (std::string(kIndexFile) + ".tmp");
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int e = fd < 0 ? errno : write_all(fd, text);
    if (fd >= 0 && ::close(fd) != 0 && e == 0) e = errno;
    if (e == 0 && ::rename(tmp.c_str(), (dir_ / kIndexFile).c_str()) != 0) e = errno;
    if (e != 0) {
        ::unlink(tmp.c_str());
        spdlog::warn("records: cannot rewrite {}: {}", (dir_ / kIndexFile).string(), errno_text(e));
        return;
    }
    index_lines_ = rows.size();
}

void RecordStore::enforce(RecordClass cls) {
    const auto c = static_cast<std::size_t>(cls);
    const int bound = cls == RecordClass::human ? limits_.human_kept : limits_.bot_kept;
    auto& groups = groups_[c];
    while (count_[c] > bound && !groups.empty()) {
        // The group holding the most; of those, the one with the oldest record.
        auto victim = groups.begin();
        for (auto it = std::next(groups.begin()); it != groups.end(); ++it)
            if (it->second.size() > victim->second.size() ||
                (it->second.size() == victim->second.size() && it->second.front().seq < victim->second.front().seq))
                victim = it;
        std::error_code ignored;
        fs::remove(dir_ / (victim->second.front().id + ".json"), ignored);
        victim->second.pop_front();
        if (victim->second.empty()) groups.erase(victim);
        --count_[c];
        if (metrics_) ++metrics_->exported_evicted[c];
    }
}

void RecordStore::update_gauges() {
    if (!metrics_) return;
    metrics_->exported_kept[0] = count_[0];
    metrics_->exported_kept[1] = count_[1];
    metrics_->records_pending = static_cast<long>(pending_.size());
}

std::string RecordStore::save(const GameRecord& record, const std::string& id, const std::string& owner) {
    std::string text;
    try {
        text = record_text(record);
    } catch (const std::exception& e) {
        spdlog::error("records: cannot render the record of game {}: {}", id, e.what());
        return "";
    }
    return save(record, id, owner, std::move(text));
}

std::string RecordStore::save(const GameRecord& record, const std::string& id, const std::string& owner, std::string text) {
    const RecordClass cls = class_of(record);
    std::lock_guard lock(mutex_);
    if (auto failure = write_file(id, text)) {
        if (metrics_) ++metrics_->record_write_failures;
        if (pending_.size() >= limits_.pending_max) {
            spdlog::error("records: dropped the record of game {} ({} records wait for a retry already)",
                          pending_.front().id, pending_.size());
            if (metrics_) ++metrics_->records_dropped;
            pending_.pop_front();
        }
        const auto now = SteadyClock::now();
        pending_.push_back({id, owner, std::move(text), cls, 1, now, now + limits_.retry_first});
        spdlog::error("records: cannot write the record of game {}: {}; kept in memory, retrying", id, *failure);
        update_gauges();
        if (!retry_thread_.joinable()) retry_thread_ = std::thread([this] { retry_loop(); });
        wake_.notify_all();
        return id;
    }
    keep(id, cls, owner, true);
    enforce(cls);
    if (!pending_.empty()) {
        // A write went through: whatever stopped the pending ones may be over too.
        for (auto& p : pending_) p.next_at = SteadyClock::now();
        wake_.notify_all();
    }
    update_gauges();
    return id;
}

void RecordStore::retry_due(SteadyClock::time_point now, bool all) {
    for (auto it = pending_.begin(); it != pending_.end();) {
        if (!all && it->next_at > now) {
            ++it;
            continue;
        }
        if (auto failure = write_file(it->id, it->text)) {
            if (metrics_) ++metrics_->record_write_failures;
            if (now - it->first_failed >= limits_.give_up_after) {
                spdlog::error("records: gave up on the record of game {} after {} attempts: {}", it->id,
                              it->attempts + 1, *failure);
                if (metrics_) ++metrics_->records_dropped;
                it = pending_.erase(it);
                continue;
            }
            auto wait = limits_.retry_first;
            for (int i = 0; i < it->attempts && wait < limits_.retry_max; ++i) wait *= 2;
            ++it->attempts;
            it->next_at = now + std::min(wait, limits_.retry_max);
            ++it;
            continue;
        }
        spdlog::info("records: the record of game {} is written (attempt {})", it->id, it->attempts + 1);
        if (metrics_) ++metrics_->records_written_on_retry;
        keep(it->id, it->cls, it->owner, true);
        enforce(it->cls);
        it = pending_.erase(it);
    }
    update_gauges();
}

void RecordStore::retry_loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (pending_.empty()) {
            wake_.wait(lock, [this] { return stopping_ || !pending_.empty(); });
            continue;
        }
        auto due = pending_.front().next_at;
        for (const auto& p : pending_) due = std::min(due, p.next_at);
        if (SteadyClock::now() < due) {
            wake_.wait_until(lock, due);
            continue;
        }
        retry_due(SteadyClock::now(), false);
    }
}

void RecordStore::retry_now() {
    std::lock_guard lock(mutex_);
    retry_due(SteadyClock::now(), true);
}

std::size_t RecordStore::pending() const {
    std::lock_guard lock(mutex_);
    return pending_.size();
}

std::optional<fs::path> RecordStore::path_of(const std::string& id) const {
    if (!is_record_id(id)) return std::nullopt;
    auto p = dir_ / (id + ".json");
    std::error_code ec;  // a file system error is "no such record", never an exception on the HTTP path
    if (!fs::is_regular_file(p, ec) || ec) return std::nullopt;
    return p;
}

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

std::string normalise_room_code(std::string_view code) {
    std::string out;
    for (char c : code)
        if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

void Services::forget_room(const std::string& code) {
    registry.remove(code);
    if (cluster) cluster->release_code(code);
}

std::string random_room_code() {
    static thread_local std::mt19937_64 gen{std::random_device{}()};
    std::string code;
    for (std::size_t i = 0; i < kRoomCodeLength; ++i)
        code += kRoomCodeAlphabet[std::uniform_int_distribution<std::size_t>(0, kRoomCodeAlphabet.size() - 1)(gen)];
    return code;
}

std::string Registry::fresh_code() {
    for (;;) {
        std::string code = random_room_code();
        if (!rooms_.count(code)) return code;
    }
}

std::shared_ptr<Room> Registry::find(const std::string& code) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(normalise_room_code(code));
    return it == rooms_.end() ? nullptr : it->second.room;
}

int Registry::held_locked(const std::string& address) const {
    const auto it = held_.find(address);
    return it == held_.end() ? 0 : it->second;
}

bool Registry::over_address_bound(const std::string& address) const {
    return max_rooms_per_address_ > 0 && !address.empty() && held_locked(address) >= max_rooms_per_address_;
}

void Registry::count(const std::string& address) {
    if (!address.empty()) ++held_[address];
}

void Registry::uncount(const std::string& address) {
    if (address.empty()) return;
    if (auto it = held_.find(address); it != held_.end() && --it->second <= 0) held_.erase(it);
}

void Registry::erase(std::map<std::string, Entry>::iterator it) {
    uncount(it->second.address);
    rooms_.erase(it);
}

void Registry::adopt(const std::string& code, std::shared_ptr<Room> room) {
    std::string address = room ? room->creator_address() : std::string();
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(code); it != rooms_.end()) erase(it);  // the same room again (a cluster's)
    count(address);
    rooms_.emplace(code, Entry{std::move(room), std::move(address)});
}

void Registry::remove_if(const std::string& code, const Room* room) {
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(code); it != rooms_.end() && it->second.room.get() == room) erase(it);
}

void Registry::remove(const std::string& code) {
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(code); it != rooms_.end()) erase(it);
}

std::vector<std::shared_ptr<Room>> Registry::all() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Room>> out;
    for (auto& [code, entry] : rooms_) out.push_back(entry.room);
    return out;
}

std::size_t Registry::size() {
    std::lock_guard lock(mutex_);
    return rooms_.size();
}

int Registry::held_by(const std::string& address) {
    std::lock_guard lock(mutex_);
    return held_locked(address);
}

bool Registry::address_full(const std::string& address) {
    std::lock_guard lock(mutex_);
    return over_address_bound(address);
}

namespace {

// The record files of a server from before the database kept its records (<data dir>/records/
// *.json) go into the history, oldest first (their owners from the directory's index), at the
// first start on that directory (a mark in the journal says it was done, so an export directory
// there is not taken for old files later); those already in the history are skipped. The
// directory is then renamed records.imported and kept, unless it is this server's export.
void import_record_files(const Config& c, HistoryStore& history, Journal& journal) {
    if (journal.read_mark("records_imported")) return;
    const fs::path dir = fs::path(c.data_dir) / "records";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return journal.mark("records_imported", 1);
    const bool exported_there = !c.export_records.empty() && fs::equivalent(dir, c.export_records, ec);
    const auto known = read_index(dir);
    struct File {
        fs::path path;
        fs::file_time_type time;
    };
    std::vector<File> files;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".json" && e.is_regular_file(ec)) files.push_back({e.path(), e.last_write_time(ec)});
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.time < b.time; });
    int imported = 0, unreadable = 0;
    for (const auto& f : files) {
        const std::string id = f.path.stem().string();
        try {
            if (history.record(id)) continue;
            std::ifstream in(f.path, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            const auto it = known.find(id);
            const auto ended = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::file_clock::to_sys(f.time).time_since_epoch());
            history.add({parse_record(text.str()), id, it == known.end() ? std::string() : it->second.owner, text.str(),
                         ended.count()});
            ++imported;
        } catch (const db::Error&) {
            throw;
        } catch (const std::exception& e) {
            ++unreadable;
            spdlog::warn("records: {} is not a record ({}): not imported", f.path.string(), e.what());
        }
    }
    journal.mark("records_imported", 1);
    const fs::path moved = fs::path(c.data_dir) / "records.imported";
    if (!exported_there) fs::rename(dir, moved, ec);
    spdlog::info("records: {} record file(s) of an older server imported into the database{}; the files are in {}{}",
                 imported, unreadable ? fmt::format(" ({} not records)", unreadable) : std::string(),
                 exported_there || ec ? dir.string() : moved.string(),
                 ec ? " (cannot rename it: " + ec.message() + ")" : std::string());
}

}  // namespace

void LostRooms::add(const std::string& code, std::string told) {
    std::lock_guard lock(mutex_);
    std::erase_if(lost_, [&](const Lost& l) { return l.code == code; });
    if (lost_.size() >= kKept) lost_.erase(lost_.begin());
    lost_.push_back({code, std::move(told), std::chrono::steady_clock::now()});
}

std::optional<std::string> LostRooms::find(const std::string& code) {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    std::erase_if(lost_, [&](const Lost& l) { return now - l.at > std::chrono::hours(24); });
    for (const auto& l : lost_)
        if (l.code == code) return l.told;
    return std::nullopt;
}

Services::Services(const Config& c)
    : config(c),
      solutions({std::size_t(c.solution_cache_mb) << 20, c.solves_per_minute}, metrics),
      registry(c.max_rooms, c.max_rooms_per_address),
      database([&] {
          std::filesystem::create_directories(c.data_dir);  // throws, saying why, when it cannot
          return std::make_unique<db::Database>(std::filesystem::path(c.data_dir) / "spookludo.db");
      }()),
      history(std::make_unique<HistoryStore>(*database, HistoryLimits{c.records_kept, c.bot_records_kept}, &metrics)),
      journal(std::make_unique<Journal>(*database, history.get())) {
    import_record_files(c, *history, *journal);
    // A cluster's node gets its writer with its store in Redis (app.cpp).
    if (!c.no_journal && c.cluster.empty())
        journal_writer = std::make_unique<JournalWriter>(*journal, std::chrono::milliseconds(c.journal_window_ms), 512,
                                                         journal_counters());
    if (!c.export_records.empty())
        exported = std::make_unique<RecordStore>(
            c.export_records, RecordLimits{.human_kept = c.records_kept, .bot_kept = c.bot_records_kept}, &metrics);
}

Services::~Services() = default;

JournalWriter::Counters Services::journal_counters() {
    return {.written =
                [this](std::size_t transactions, std::size_t passes) {
                    metrics.journal_writes += static_cast<long>(transactions);
                    metrics.journal_passes += static_cast<long>(passes);
                },
            .failed = [this](std::size_t rooms) { metrics.journal_write_failures += static_cast<long>(rooms); }};
}

void Services::export_record(const FinishedGame& game) {
    if (exported) exported->save(game.record, game.id, game.owner, game.text);
}

void Services::mark_stop() {
    if (config.no_journal) return;
    try {
        journal->mark("stopped_ms", std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
    } catch (const std::exception& e) {
        spdlog::error("the journal cannot take the time of the stop ({}): the next start uses the last sign of life", e.what());
    }
}

void Services::journal_failed(const std::string& why) {
    std::lock_guard lock(journal_problem_mutex_);
    journal_problem_ = why;
}

void Services::journal_recovered() {
    std::lock_guard lock(journal_problem_mutex_);
    if (metrics.journal_paused_rooms == 0) journal_problem_.reset();
}

std::optional<std::string> Services::journal_problem() {
    std::lock_guard lock(journal_problem_mutex_);
    return journal_problem_;
}

}  // namespace spookludo::server
