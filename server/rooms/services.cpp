#include "services.h"

#include "cluster.h"
#include "database.h"
#include "record_store.h"

#include <fstream>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace spookludo::server {

void Services::forget_room(const std::string& code) {
    registry.remove(code);
    if (cluster) cluster->release_code(code);
}


Services::Services(const Config& c)
    : config(c),
      solutions({std::size_t(c.solution_cache_mb) << 20, c.solves_per_minute}, metrics),
      analyses({std::size_t(c.analysis_cache_mb) << 20, c.analyses_per_minute, 16}, solutions, metrics),
      registry(c.max_rooms, c.max_rooms_per_address),
      database([&] {
          std::filesystem::create_directories(c.data_dir);  // throws, saying why, when it cannot
          return std::make_unique<db::Database>(std::filesystem::path(c.data_dir) / "spookludo.db");
      }()),
      history(std::make_unique<HistoryStore>(*database, HistoryLimits{c.records_kept, c.bot_records_kept}, &metrics)),
      journal(std::make_unique<Journal>(*database, history.get())) {
    import_record_files(c.data_dir, c.export_records, *history, *journal);
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
