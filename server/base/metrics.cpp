#include "metrics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

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
    gauge("spookludo_analyses_computed_total", "Games analysed for GET /analysis/<id> (each once while it is kept).",
          "counter", analyses_computed);
    gauge("spookludo_analyses_refused_total",
          "Analyses refused (429) because their address had asked for its new analyses of the minute.", "counter",
          analyses_refused);
    gauge("spookludo_rooms_refused_per_address_total",
          "create_room refused because the address held its bound of open rooms (--max-rooms-per-address).",
          "counter", rooms_refused_per_address);
    gauge("spookludo_reactions_total", "Quick reactions told to their rooms.", "counter", reactions);
    gauge("spookludo_reactions_refused_total",
          "Quick reactions refused: a sender's second within 2 s, or over its room's bound (4 a second).", "counter",
          reactions_refused);
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

}  // namespace spookludo::server
