#pragma once
// The server's counters and gauges, read by /metrics (Prometheus text format). Every concern
// counts here; none of them reads another's counters.
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace spookludo::server {

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
    std::atomic<long> analyses_computed{0};     // games analysed for GET /analysis/<id> (analyses.h)
    std::atomic<long> analyses_refused{0};      // analyses refused because their address had asked for enough
    std::atomic<long> rooms_refused_per_address{0};  // create_room refused: the address held its bound of rooms
    std::atomic<long> reactions{0};          // quick reactions told to their rooms
    std::atomic<long> reactions_refused{0};  // over a sender's 2 s or the room's bound
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
    // Decision round trip (request sent to answer received), histogram buckets in ms: fine where
    // round trips fall (a quantile is interpolated within its bucket: between 2 and 5 ms it could be
    // off by a millisecond), coarse out to the decision time.
    static constexpr double kBuckets[] = {0.1, 0.25, 0.5, 0.75, 1,   1.5,  2,    2.5,  3,    4,    5,    7.5,  10,   15,
                                          20,  25,   35,  50,   75, 100, 250, 500, 1000, 2500, 5000, 10000, 30000};
    std::atomic<long> round_trip_count[std::size(kBuckets) + 1]{};
    std::atomic<long> round_trip_sum_us{0};
    std::mutex errors_mutex;
    std::map<std::string, long> errors;  // by error code

    void observe_round_trip(double ms);
    void count_error(std::string_view code);
    std::string prometheus_text();
};

}  // namespace spookludo::server
