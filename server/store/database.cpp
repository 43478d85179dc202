#include "database.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "spookludo/text.h"

namespace spookludo::server::db {

namespace {

// Version 1: finished games (their records and an index to query them by).
constexpr std::string_view kSchema1 = R"sql(
CREATE TABLE games (
    id        TEXT PRIMARY KEY,   -- the game id: ROOM-<start ms>-<commitment prefix>
    room      TEXT NOT NULL,
    game      TEXT NOT NULL,      -- spook | ludo
    status    TEXT NOT NULL,      -- finished | abandoned
    ended_ms  INTEGER NOT NULL,   -- when it ended (Unix ms)
    length    INTEGER NOT NULL,   -- rounds (Spook) or turns (Ludo)
    people    INTEGER NOT NULL,   -- players who were people (0: a bot-only game)
    owner     TEXT NOT NULL,      -- the address it counts against when records are trimmed
    record    TEXT NOT NULL       -- the game record (docs/game-record.md), as served
);
CREATE INDEX games_by_end ON games (ended_ms DESC, id DESC);
CREATE INDEX games_by_room ON games (room, ended_ms DESC);
CREATE TABLE game_players (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,    -- the room seat
    name     TEXT NOT NULL,
    bot      INTEGER NOT NULL,
    place    INTEGER NOT NULL,    -- 1 = first; 0 = none (an abandoned game)
    winner   INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_by_name ON game_players (name COLLATE NOCASE, game_id);
)sql";

// Version 2: the journal of open rooms (journal.h): each room's durable state, the game in
// progress (its seeds and seats) and its events in order, and the server's clock marks.
constexpr std::string_view kSchema2 = R"sql(
CREATE TABLE rooms (
    code        TEXT PRIMARY KEY,
    created_ms  INTEGER NOT NULL,
    state       TEXT NOT NULL       -- the room's durable state (JSON: options, settings, seats with token hashes, ...)
);
CREATE TABLE room_games (
    code  TEXT PRIMARY KEY,         -- the room playing it
    game  TEXT NOT NULL             -- the game as published (JSON: id, options, seats, server seed, boards, client seeds)
);
CREATE TABLE room_events (
    code  TEXT NOT NULL,
    seq   INTEGER NOT NULL,         -- the room's order
    kind  TEXT NOT NULL,            -- seed | advance | choice | resolve
    data  TEXT NOT NULL,            -- JSON
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
CREATE TABLE server_marks (
    name   TEXT PRIMARY KEY,        -- alive_ms: the server was running then; stopped_ms: it stopped cleanly then
    value  INTEGER NOT NULL
);
)sql";

// Version 3: the events of all rooms in one table in the order they were written (each
// transaction appends to the same last pages instead of one page per room), and each game's
// first event: a room's events from there on are its game's; those before are dead, deleted in
// ranges from the oldest (journal.cpp).
constexpr std::string_view kSchema3 = R"sql(
CREATE TABLE journal_events (
    id    INTEGER PRIMARY KEY,      -- the order of writing, across rooms
    code  TEXT NOT NULL,
    seq   INTEGER NOT NULL,         -- the room's order
    kind  TEXT NOT NULL,            -- seed | advance | choice | resolve
    data  TEXT NOT NULL             -- JSON
);
ALTER TABLE room_games ADD COLUMN first_event INTEGER NOT NULL DEFAULT 0;
INSERT INTO journal_events (code, seq, kind, data) SELECT code, seq, kind, data FROM room_events ORDER BY code, seq;
DROP TABLE room_events;
)sql";

// Version 4: players are found by their name in any case (GET /games?player=, /players/<name>):
// each row keeps its name case-folded (fold_case, Unicode's simple case folding, which SQLite's
// NOCASE is not beyond ASCII), and the index is on that. The names already kept are folded here.
constexpr std::string_view kSchema4 = R"sql(
ALTER TABLE game_players ADD COLUMN folded_name TEXT NOT NULL DEFAULT '';
DROP INDEX game_players_by_name;
CREATE INDEX game_players_by_folded_name ON game_players (folded_name, game_id);
)sql";

// Version 5: an address's games in the order they ended, for the history's bound (history.cpp:
// the address holding the most gives up its oldest, found without reading the whole table).
constexpr std::string_view kSchema5 = R"sql(
CREATE INDEX games_by_owner ON games (owner, ended_ms, id);
)sql";

void fold_player_names(Database& db) {
    auto names = db.prepare("SELECT DISTINCT name FROM game_players");
    auto fold = db.prepare("UPDATE game_players SET folded_name = ?2 WHERE name = ?1");
    while (names.step()) {
        const std::string name = names.text(0);
        fold.reset();
        fold.bind(1, name).bind(2, fold_case(name)).run();
    }
}

constexpr Migration kMigrations[] = {{1, kSchema1}, {2, kSchema2}, {3, kSchema3}, {4, kSchema4, fold_player_names}, {5, kSchema5}};

// SQLite's words, and the system's when the operating system refused (a full disk, a read-only
// file system: "disk I/O error (Read-only file system)").
std::string with_system_error(sqlite3* db, std::string why, int rc) {
    if (const int e = db ? sqlite3_system_errno(db) : 0; e != 0 && (rc & 0xff) != SQLITE_CONSTRAINT)
        why += std::string(" (") + std::strerror(e) + ")";
    return why;
}

std::string message_of(sqlite3* db, int rc) {
    if (!db) return sqlite3_errstr(rc);
    return with_system_error(db, sqlite3_errmsg(db), rc);
}

constexpr const char* kRestore =
    ": restore it from a backup, or move it away (with its -wal and -shm files) to start with an empty database";

// The files of an existing database must be this process's to read and write: SQLite would open
// a file it cannot write read-only (the server would start unable to save anything), and a -wal
// or -shm file it cannot write stops it later. Nothing is changed when one is not.
void check_writable(const std::filesystem::path& file) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
        const std::string path = file.string() + suffix;
        if (::access(path.c_str(), F_OK) != 0) continue;
        const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (fd >= 0) {
            ::close(fd);
            continue;
        }
        const int error = errno;
        std::string why = std::strerror(error);
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0) {
            char mode[8];
            std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
            why += std::string(error == EPERM ? " (an immutable file? lsattr shows it)" : "") + " (its mode " + mode +
                   ", its owner uid " + std::to_string(st.st_uid) + ")";
        }
        throw Error("the database file " + path + " cannot be written by the server's user (uid " +
                        std::to_string(::geteuid()) + "): " + why +
                        ". The server reads and writes the database and its -wal and -shm files: change their owner "
                        "or mode (docs/security.md)",
                    SQLITE_READONLY);
    }
}

// What an existing, non-empty file must be before SQLite opens it: SQLite takes a few bytes that
// are not a database as an empty one and writes a new database over them, and says only
// "database disk image is malformed" of a truncated one. Throws Error saying what the file is.
void check_whole(const std::filesystem::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error("cannot read the database " + file.string() + ": " + std::strerror(errno), SQLITE_CANTOPEN);
    struct stat st {};
    unsigned char header[100] = {};
    const bool stated = ::fstat(fd, &st) == 0;
    const auto n = ::pread(fd, header, sizeof header, 0);
    const int error = errno;
    ::close(fd);
    if (!stated || n < 0) throw Error("cannot read the database " + file.string() + ": " + std::strerror(error), SQLITE_IOERR);
    static constexpr char kMagic[] = "SQLite format 3";  // and its NUL: 16 bytes
    const auto size = static_cast<std::uint64_t>(st.st_size);
    const std::size_t compared = std::min<std::size_t>(static_cast<std::size_t>(n), sizeof kMagic);
    if (std::memcmp(header, kMagic, compared) != 0)
        throw Error("the file " + file.string() + " is not a SQLite database (it does not start with SQLite's header): "
                        "move it away, or start with another --data-dir",
                    SQLITE_NOTADB);
    if (n < static_cast<long>(sizeof header))
        throw Error("the database " + file.string() + " is damaged: truncated to " + std::to_string(size) +
                        (size == 1 ? " byte" : " bytes") + ", shorter than a database's 100-byte header" + kRestore,
                    SQLITE_CORRUPT);
    // Pages: 512 to 65536 bytes (1 stands for 65536); the header counts them, when its count is
    // valid (its change counter matches the version it was written at).
    const auto be32 = [&](int at) {
        return (std::uint32_t{header[at]} << 24) | (std::uint32_t{header[at + 1]} << 16) |
               (std::uint32_t{header[at + 2]} << 8) | std::uint32_t{header[at + 3]};
    };
    std::uint32_t page = (std::uint32_t{header[16]} << 8) | header[17];
    if (page == 1) page = 65536;
    if (page < 512 || (page & (page - 1)) != 0)
        throw Error("the database " + file.string() + " is damaged: its header gives a page size of " +
                        std::to_string(page) + " bytes" + kRestore,
                    SQLITE_CORRUPT);
    // Pages the WAL still holds may not be in the file yet (a checkpoint cut short): the sizes are
    // for a file without a WAL to finish it.
    struct stat wal {};
    if (::stat((file.string() + "-wal").c_str(), &wal) == 0 && wal.st_size > 0) return;
    const bool counted = be32(28) != 0 && be32(24) == be32(92);
    const std::uint64_t pages_bytes = std::uint64_t{be32(28)} * page;
    if (counted && size < pages_bytes)
        throw Error("the database " + file.string() + " is damaged: truncated to " + std::to_string(size) +
                        " bytes of the " + std::to_string(pages_bytes) + " its header counts" + kRestore,
                    SQLITE_CORRUPT);
    if (size % page != 0)
        throw Error("the database " + file.string() + " is damaged: truncated to " + std::to_string(size) +
                        " bytes, not a whole number of its " + std::to_string(page) + "-byte pages" + kRestore,
                    SQLITE_CORRUPT);
}

// The database's files and, when one is too open, what its mode becomes: the group's and
// others' permissions taken away, the owner's left as they are.
void make_private(const std::filesystem::path& file) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
        const std::string path = file.string() + suffix;
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0) ::chmod(path.c_str(), st.st_mode & 07700);
    }
}

}  // namespace

std::span<const Migration> migrations() { return kMigrations; }

Database::Database(const std::filesystem::path& file, std::span<const Migration> steps) : file_(file) {
    // A new file is created private to this user before SQLite opens it (SQLite would follow the
    // umask); the WAL and shared-memory files SQLite makes beside it take the database's mode. An
    // empty file is new too: the one a server that died while creating it leaves.
    struct stat st {};
    const bool existed = ::stat(file.c_str(), &st) == 0;
    const bool empty = existed && st.st_size == 0 && S_ISREG(st.st_mode);
    if (!existed) {
        const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            throw Error("cannot create the database " + file.string() + ": " + std::strerror(errno), SQLITE_CANTOPEN);
        if (fd >= 0) ::close(fd);
    }
    // One process uses the file: a second server started on the same directory is refused
    // instead of sharing the journal. The lock (flock) is on a file of its own beside the
    // database, taken before SQLite opens it and held as long as this Database: never a
    // descriptor of the database file itself, whose closing would drop the POSIX locks SQLite
    // holds on it for this process.
    const std::string lock_file = file.string() + ".lock";
    lock_fd_ = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd_ < 0)
        throw Error("cannot open the database's lock file " + lock_file + ": " + std::strerror(errno), SQLITE_CANTOPEN);
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
        const bool busy = errno == EWOULDBLOCK;
        const std::string why = std::strerror(errno);
        close_all();
        if (busy)
            throw Error("the database " + file.string() +
                            " is in use by another process: is another SpookLudo server running on this data "
                            "directory?",
                        SQLITE_BUSY);
        throw Error("cannot lock the database " + file.string() + ": " + why, SQLITE_CANTOPEN);
    }
    // An existing file is checked before SQLite opens it, and refused with what it is: nothing is
    // changed then, its mode included.
    try {
        check_writable(file);
        if (existed && !empty) check_whole(file);
    } catch (...) {
        close_all();
        throw;
    }
    const int rc = sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string why = message_of(db_, rc);
        close_all();
        throw Error("cannot open the database " + file.string() + ": " + why, rc);
    }
    sqlite3_extended_result_codes(db_, 0);
    sqlite3_busy_timeout(db_, 5000);
    try {
        // Whatever the files' modes said, a connection SQLite could only open read-only (a
        // read-only file system, an immutable file) is refused: the server would save nothing.
        if (sqlite3_db_readonly(db_, "main") == 1)
            throw Error("the database " + file.string() + " can only be read, not written (a read-only file system?)",
                        SQLITE_READONLY);
        // A newer server's file is refused before anything here changes it.
        const int known = steps.empty() ? 0 : steps.back().version;
        if (const int at = schema_version(); at > known)
            throw TooNew("the database " + file_.string() + " was written by a newer SpookLudo server (schema version " +
                             std::to_string(at) + "; this server knows up to " + std::to_string(known) +
                             "): run that version or newer, or start with another --data-dir",
                         at, known);
        exec("PRAGMA foreign_keys = ON");
        // WAL: readers never block the writer; NORMAL: no fsync per transaction, only at checkpoints.
        std::string mode;
        {
            Statement wal(*this, "PRAGMA journal_mode = WAL");
            if (wal.step()) mode = wal.text(0);
        }
        if (mode != "wal")
            throw Error("the database " + file.string() + " cannot use write-ahead logging (journal mode " + mode +
                            "): is the data directory on a network file system?",
                        SQLITE_CANTOPEN);
        exec("PRAGMA synchronous = NORMAL");
        // 1 MiB of pages in memory (the default is 2): what a transaction touches stays cached (the
        // last pages of the journal's events, written in order, the rooms' rows, the history's
        // newest pages), so it writes and seldom reads. More only holds old pages: 16 MiB cost
        // 12 KB of memory per room at 1,000 rooms for no CPU saved, and 4 MiB, filled at full
        // speed, 36 KB a room at 100 rooms, again for no CPU saved (BENCHMARKS.md).
        exec("PRAGMA cache_size = -1024");
        // Checkpoints are the checkpointer's (this replaces SQLite's own at 1,000 pages).
        sqlite3_wal_hook(db_, &Database::on_wal_commit, this);
        // A file damaged inside (pages cut or overwritten) is found now, not by a room's write
        // later: SQLite's quick check reads every page once (milliseconds for the history's
        // bounds).
        if (existed && !empty) {
            Statement check(*this, "PRAGMA quick_check(1)");
            if (check.step() && check.text(0) != "ok")
                throw Error("the database " + file.string() + " is damaged (SQLite's check: " + check.text(0) + ")" +
                                kRestore,
                            SQLITE_CORRUPT);
        }
        migrate(steps);
        // Private to the server's user (docs/security.md): a file made here is 0600 already; an
        // existing one readable by others is made private (the owner's permissions kept).
        make_private(file);
    } catch (const Error& e) {
        close_all();
        if (e.code() == SQLITE_CORRUPT || e.code() == SQLITE_NOTADB) {
            if (std::string_view(e.what()).find(" is damaged") != std::string_view::npos) throw;
            throw Error("the database " + file.string() + " is damaged (" + e.what() + ")" + kRestore, e.code());
        }
        if (e.code() == SQLITE_BUSY)
            throw Error("the database " + file.string() +
                            " is in use by another process: is another SpookLudo server running on this data "
                            "directory? (" + e.what() + ")",
                        SQLITE_BUSY);
        throw;
    } catch (...) {
        close_all();
        throw;
    }
}

Database::~Database() { close_all(); }

void Database::close_all() noexcept {
    {
        std::lock_guard lock(checkpoint_mutex_);
        checkpoint_stop_ = true;
    }
    checkpoint_wake_.notify_one();
    if (checkpointer_.joinable()) checkpointer_.join();
    if (db_) sqlite3_close_v2(db_);  // the last connection: checkpoints what is left, removes the WAL
    db_ = nullptr;
    if (lock_fd_ >= 0) ::close(lock_fd_);
    lock_fd_ = -1;
}

// After each commit on the main connection (by the thread that committed, holding mutex()).
// Never throws (it runs inside SQLite).
int Database::on_wal_commit(void* self, sqlite3* db, const char* name, int frames) noexcept {
    auto* d = static_cast<Database*>(self);
    if (frames < kCheckpointFrames) {
        d->asked_at_ = 0;  // the WAL started over
        return SQLITE_OK;
    }
    if (frames < kCheckpointFramesMost) {
        // Once per kCheckpointFrames more, not at every commit (the checkpointer catches up by
        // itself, checkpoint_loop); an ask while it is at work is not taken, and asked again at
        // the next commit.
        if ((frames >= d->asked_at_ + kCheckpointFrames || frames < d->asked_at_) && d->ask_checkpoint())
            d->asked_at_ = frames;
        return SQLITE_OK;
    }
    int log = 0, copied = 0;
    // Busy: the checkpointer is at it (it fell behind); it goes on.
    const int rc = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
    if (rc == SQLITE_OK) ++d->inline_;
    else if (rc != SQLITE_BUSY) ++d->failed_;
    return SQLITE_OK;
}

bool Database::ask_checkpoint() noexcept {
    try {
        std::lock_guard lock(checkpoint_mutex_);
        if (checkpoint_stop_ || checkpoint_asked_) return false;
        if (!checkpointer_.joinable()) checkpointer_ = std::thread([this] { checkpoint_loop(); });
        checkpoint_asked_ = true;
        checkpoint_wake_.notify_one();
        return true;
    } catch (...) {  // no thread: the committing thread checkpoints past kCheckpointFramesMost
        ++failed_;
        return false;
    }
}

void Database::checkpoint_loop() {
    sqlite3* c = nullptr;
    if (sqlite3_open_v2(file_.c_str(), &c, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        // Without it, the committing threads checkpoint past kCheckpointFramesMost.
        sqlite3_close_v2(c);
        ++failed_;
        return;
    }
    sqlite3_exec(c, "PRAGMA synchronous = NORMAL", nullptr, nullptr, nullptr);
    std::unique_lock lock(checkpoint_mutex_);
    for (;;) {
        checkpoint_wake_.wait(lock, [&] { return checkpoint_asked_ || checkpoint_stop_; });
        if (checkpoint_stop_) break;
        lock.unlock();
        // Passive: copies what it can without waiting for the writer, who goes on meanwhile.
        // The WAL starts over at the first commit after a checkpoint that found every page
        // copied, so while the rooms write on, it goes again for the pages written meanwhile
        // (few, and quick) until one finds nothing new, up to kCatchUpRounds times.
        for (int round = 0; round < kCatchUpRounds; ++round) {
            int log = 0, copied = 0;
            const int rc = sqlite3_wal_checkpoint_v2(c, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
            if (rc == SQLITE_OK) ++background_;
            else if (rc != SQLITE_BUSY) ++failed_;
            if (rc != SQLITE_OK || copied >= log) break;
            std::lock_guard stopping(checkpoint_mutex_);
            if (checkpoint_stop_) break;
        }
        lock.lock();
        checkpoint_asked_ = false;
    }
    lock.unlock();
    sqlite3_close_v2(c);
}

int Database::schema_version() {
    Statement s(*this, "PRAGMA user_version");
    s.step();
    return static_cast<int>(s.int64(0));
}

void Database::migrate(std::span<const Migration> steps) {
    for (const auto& step : steps) {
        // The version is read again inside the step's transaction (a step another process did
        // is not done twice).
        Transaction t(*this);
        if (schema_version() >= step.version) continue;
        exec(step.sql);
        if (step.then) step.then(*this);
        exec("PRAGMA user_version = " + std::to_string(step.version));
        t.commit();
    }
}

void Database::exec(std::string_view sql) {
    char* error = nullptr;
    const std::string text(sql);
    if (const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error); rc != SQLITE_OK) {
        const std::string why = error ? with_system_error(db_, error, rc) : message_of(db_, rc);
        sqlite3_free(error);
        throw Error(why, rc);
    }
}

Statement Database::prepare(std::string_view sql) { return Statement(*this, sql); }

std::int64_t Database::changes() const { return sqlite3_changes64(db_); }

Statement::Statement(Database& db, std::string_view sql) : db_(&db) {
    if (const int rc = sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr);
        rc != SQLITE_OK)
        throw Error(message_of(db.handle(), rc) + " (in: " + std::string(sql.substr(0, 80)) + ")", rc);
}

Statement::~Statement() {
    if (stmt_) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) { other.stmt_ = nullptr; }

Statement& Statement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
    return *this;
}
Statement& Statement::bind(int index, std::string_view value) {
    sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    return *this;
}
Statement& Statement::bind(int index, std::nullopt_t) {
    sqlite3_bind_null(stmt_, index);
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    const std::string why = message_of(db_->handle(), rc);
    sqlite3_reset(stmt_);
    throw Error(why, rc);
}

void Statement::reset() { sqlite3_reset(stmt_); }

std::int64_t Statement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }

std::string Statement::text(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
             : std::string();
}

bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (done_) return;
    try {
        db_.exec("ROLLBACK");
    } catch (...) {
        // Nothing to do: SQLite rolls back by itself when a statement failed badly enough.
    }
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

}  // namespace spookludo::server::db
