#pragma once
// What every room shares: settings, metrics, the solution cache, the record store, the registry,
// the store (database, history, journal) and the cluster, if any. Made once by the app.
// No Asio here: rooms get their executor from the io_context they are created on.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "analyses.h"
#include "config.h"
#include "history.h"
#include "journal.h"
#include "metrics.h"
#include "record_store.h"
#include "registry.h"
#include "solutions.h"

namespace spookludo::server {

class Cluster;

namespace db {
class Database;
}

struct Services {
    Config config;
    Metrics metrics;
    SharedSolutions solutions;
    // Finished games' analyses (GET /analysis/<id>), computed on a worker thread of their own.
    Analyses analyses;
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

}  // namespace spookludo::server
