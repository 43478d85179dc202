#include "services.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <random>
#include <sstream>

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
    gauge("spookludo_internal_errors_total",
          "Messages whose handling failed inside the server (each answered with internal_error; a defect to report).",
          "counter", internal_errors);
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

RecordStore::RecordStore(std::filesystem::path dir, int keep) : dir_(std::move(dir)), keep_(keep) {}

std::string RecordStore::save(const GameRecord& record, const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        std::filesystem::create_directories(dir_);
        const auto file = dir_ / (id + ".json");
        const auto tmp = dir_ / (id + ".json.tmp");
        {
            std::ofstream out(tmp, std::ios::binary);
            out << record_text(record);
            if (!out) throw std::runtime_error("write failed");
        }
        std::filesystem::rename(tmp, file);
        // Retention: keep the newest `keep_` records. The directory is read once; after that
        // the store knows its files in the order they were written (no scan per game).
        if (!indexed_) {
            std::vector<std::filesystem::directory_entry> files;
            for (const auto& e : std::filesystem::directory_iterator(dir_))
                if (e.path().extension() == ".json" && e.path() != file) files.push_back(e);
            std::sort(files.begin(), files.end(),
                      [](const auto& a, const auto& b) { return a.last_write_time() < b.last_write_time(); });
            for (const auto& e : files) kept_.push_back(e.path());
            indexed_ = true;
        }
        kept_.push_back(file);
        while (static_cast<int>(kept_.size()) > keep_) {
            std::error_code ignored;
            std::filesystem::remove(kept_.front(), ignored);
            kept_.pop_front();
        }
        return id;
    } catch (const std::exception& e) {
        spdlog::error("cannot write the record of game {} into {}: {}", id, dir_.string(), e.what());
        return "";
    }
}

std::optional<std::filesystem::path> RecordStore::path_of(const std::string& id) const {
    if (id.empty() || id.size() > 64) return std::nullopt;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return std::nullopt;
    auto p = dir_ / (id + ".json");
    if (!std::filesystem::is_regular_file(p)) return std::nullopt;
    return p;
}

std::shared_ptr<const spook::Solution> SharedSolutions::get(const spook::Board& board, int pieces, int need) {
    const Key key{board.key(), pieces * 8 + need};
    {
        std::lock_guard lock(mutex_);
        if (auto it = solved_.find(key); it != solved_.end()) return it->second;
    }
    auto solution = std::make_shared<const spook::Solution>(spook::Solution::solve(board, pieces, need));
    std::lock_guard lock(mutex_);
    return solved_.emplace(key, std::move(solution)).first->second;
}

void SharedSolutions::warm_up(const std::atomic<bool>& stop) {
    for (int pieces = 1; pieces <= 3; ++pieces)
        for (const auto& pooled : spook::balanced_pool(pieces)) {
            if (stop) return;
            (void)get(spook::Board::from_notation(pooled.notation), pieces, spook_pieces_to_finish(pieces));
        }
}

std::string normalise_room_code(std::string_view code) {
    std::string out;
    for (char c : code)
        if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string Registry::fresh_code() {
    static thread_local std::mt19937_64 gen{std::random_device{}()};
    for (;;) {
        std::string code;
        for (std::size_t i = 0; i < kRoomCodeLength; ++i)
            code += kRoomCodeAlphabet[std::uniform_int_distribution<std::size_t>(0, kRoomCodeAlphabet.size() - 1)(gen)];
        if (!rooms_.count(code)) return code;
    }
}

std::shared_ptr<Room> Registry::find(const std::string& code) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(normalise_room_code(code));
    return it == rooms_.end() ? nullptr : it->second;
}

void Registry::remove(const std::string& code) {
    std::lock_guard lock(mutex_);
    rooms_.erase(code);
}

std::vector<std::shared_ptr<Room>> Registry::all() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Room>> out;
    for (auto& [code, room] : rooms_) out.push_back(room);
    return out;
}

std::size_t Registry::size() {
    std::lock_guard lock(mutex_);
    return rooms_.size();
}

}  // namespace spookludo::server
