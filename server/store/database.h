#pragma once
// The server's SQLite database (<data dir>/spookludo.db): a thin RAII layer over SQLite's C API
// (Debian's libsqlite3) and the schema's versions.
//
// The file is private to the server's user (mode 0600: it will hold seat-token hashes and server
// seeds). An existing file is used whole or not at all: one this process cannot write (the file,
// its -wal or its -shm), one that is not a SQLite database, and one cut short or damaged (its
// header, its size, SQLite's quick check) are refused with what they are, nothing changed, their
// modes included; an empty file is new (a server that died while creating it leaves one). It runs in WAL mode with synchronous=NORMAL: a transaction that returned is safe from a
// crash of the process (kill -9 included: the WAL is in the operating system's hands); a power
// cut or a kernel crash may lose the last transactions before a checkpoint, never corrupt the file.
//
// One process uses the file at a time (a lock on <file>.lock beside it, taken at open: a second
// server on the same data directory is refused). Checkpoints (copying the WAL's pages into the file, and syncing
// both) run on a thread of the Database's own, on a second connection, so that the thread that
// commits never waits for them: a checkpoint's syncs take milliseconds, which every room stepping
// meanwhile would wait for.
//
// The schema's version is SQLite's user_version. At open, the migrations above the file's version
// run in order, each in a transaction of its own; a file written by a newer server (a version
// above the newest migration) is refused with TooNew, the file left untouched.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

struct sqlite3;
struct sqlite3_stmt;

namespace spookludo::server::db {

// What SQLite said, with what was being done ("cannot open ...: unable to open database file").
class Error : public std::runtime_error {
public:
    Error(const std::string& what, int code) : std::runtime_error(what), code_(code) {}
    int code() const noexcept { return code_; }  // SQLite's primary result code (SQLITE_FULL, ...)

private:
    int code_;
};

// The file's schema is newer than this server knows: upgrade the server (or use another file).
class TooNew : public Error {
public:
    TooNew(const std::string& what, int file_schema, int known_schema)
        : Error(what, 0), file_version(file_schema), known(known_schema) {}
    int file_version;
    int known;
};

class Database;

struct Migration {
    int version;           // the user_version after it (1, 2, ...: one step each)
    std::string_view sql;  // statements separated by ';'
    void (*then)(Database&) = nullptr;  // what SQL cannot do, after the statements, in their transaction
};
// The server's schema, oldest first (database.cpp).
std::span<const Migration> migrations();

class Statement;

class Database {
public:
    // Opens `file`, creating it (0600) when missing or empty, and brings its schema up to the
    // newest of `steps` (the server's own by default); an existing file readable by others is made
    // private (the owner's permissions kept). Throws Error (saying what is wrong with a file it
    // refuses), or TooNew.
    explicit Database(const std::filesystem::path& file, std::span<const Migration> steps = migrations());
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    int schema_version();
    const std::filesystem::path& file() const noexcept { return file_; }
    void exec(std::string_view sql);  // statements without results; throws Error
    Statement prepare(std::string_view sql);
    std::int64_t changes() const;  // rows the last statement changed
    sqlite3* handle() const noexcept { return db_; }
    // The connection is used by one thread at a time: whoever uses it (the history, the journal)
    // holds this lock for the whole of what it does, its transaction included (and its statements'
    // ends). SQLite's own per-call locking is off (SQLITE_OPEN_NOMUTEX): this lock is the one.
    std::mutex& mutex() noexcept { return mutex_; }

    // A commit that leaves kCheckpointFrames pages or more in the WAL asks the checkpointer
    // (its thread is started then) for a passive checkpoint. The WAL starts over only after a
    // checkpoint that no commit overlapped, which rooms writing every few milliseconds seldom
    // leave it: past kCheckpointFramesMost the committing thread checkpoints itself, as SQLite
    // would by default at 1,000, but eight times less often and copying only what the
    // checkpointer has not copied yet.
    static constexpr int kCheckpointFrames = 1000;
    static constexpr int kCheckpointFramesMost = 8000;
    static constexpr int kCatchUpRounds = 4;  // checkpoints in a row for the pages written meanwhile
    struct Checkpoints {
        long background = 0;  // by the checkpointer's thread
        long inline_ = 0;     // by a committing thread, past kCheckpointFramesMost
        long failed = 0;
    };
    Checkpoints checkpoints() const noexcept { return {background_, inline_, failed_}; }

private:
    void migrate(std::span<const Migration> steps);
    void close_all() noexcept;
    static int on_wal_commit(void* self, sqlite3* db, const char* name, int frames) noexcept;
    bool ask_checkpoint() noexcept;  // false: not taken (one is under way, or stopping)
    void checkpoint_loop();

    std::filesystem::path file_;
    sqlite3* db_ = nullptr;
    int lock_fd_ = -1;  // holds the lock (flock) on <file>.lock: one process at a time
    std::mutex mutex_;
    // The checkpointer.
    std::mutex checkpoint_mutex_;
    std::condition_variable checkpoint_wake_;
    bool checkpoint_asked_ = false;
    bool checkpoint_stop_ = false;
    std::thread checkpointer_;
    int asked_at_ = 0;  // the WAL's frames when a checkpoint was last asked for (under mutex())
    std::atomic<long> background_{0}, inline_{0}, failed_{0};
};

// A prepared statement: bind (1-based), step through the rows, read columns (0-based).
class Statement {
public:
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&&) = delete;
    Statement(const Statement&) = delete;

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, std::string_view value);
    Statement& bind(int index, std::nullopt_t);
    // The next row (true), or the end (false); throws Error.
    bool step();
    void run() { while (step()) {} }  // to the end, for statements without rows
    void reset();                      // to run it again (the bindings stay)
    std::int64_t int64(int column) const;
    std::string text(int column) const;
    bool is_null(int column) const;

private:
    Database* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT; rolled back when destroyed without commit() (an exception).
class Transaction {
public:
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    Database& db_;
    bool done_ = false;
};

}  // namespace spookludo::server::db
