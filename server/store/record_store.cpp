#include "record_store.h"

#include "database.h"
#include "history.h"
#include "journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace spookludo::server {

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

// The record files of a server from before the database kept its records (<data dir>/records/
// *.json) go into the history, oldest first (their owners from the directory's index), at the
// first start on that directory (a mark in the journal says it was done, so an export directory
// there is not taken for old files later); those already in the history are skipped. The
// directory is then renamed records.imported and kept, unless it is this server's export.
void import_record_files(const std::string& data_dir, const std::string& export_records, HistoryStore& history,
                         Journal& journal) {
    if (journal.read_mark("records_imported")) return;
    const fs::path dir = fs::path(data_dir) / "records";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return journal.mark("records_imported", 1);
    const bool exported_there = !export_records.empty() && fs::equivalent(dir, export_records, ec);
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
    const fs::path moved = fs::path(data_dir) / "records.imported";
    if (!exported_there) fs::rename(dir, moved, ec);
    spdlog::info("records: {} record file(s) of an older server imported into the database{}; the files are in {}{}",
                 imported, unreadable ? fmt::format(" ({} not records)", unreadable) : std::string(),
                 exported_there || ec ? dir.string() : moved.string(),
                 ec ? " (cannot rename it: " + ec.message() + ")" : std::string());
}

}  // namespace spookludo::server
