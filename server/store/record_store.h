#pragma once
// Game records as files (--export-records): retention by class and by address, retries of
// failed writes.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "metrics.h"
#include "spookludo/record.h"

namespace spookludo::server {

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

class HistoryStore;
class Journal;

// The record files of a server from before the database kept its records (<data dir>/records/
// *.json) go into the history, oldest first (their owners from the directory's index), at the
// first start on that directory (a mark in the journal says it was done, so an export directory
// there is not taken for old files later); those already in the history are skipped. The
// directory is then renamed records.imported and kept, unless it is this server's export
// (`export_records`, the --export-records directory).
void import_record_files(const std::string& data_dir, const std::string& export_records, HistoryStore& history,
                         Journal& journal);

}  // namespace spookludo::server
