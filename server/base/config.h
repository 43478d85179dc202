#pragma once
// spookludo-server's settings: flags, with SPOOKLUDO_* environment variables as defaults.
#include <cstdint>
#include <string>
#include <vector>

namespace spookludo::server {

struct Config {
    std::string bind = "0.0.0.0";
    std::uint16_t port = 7777;
    std::string data_dir = "spookludo-data";  // the database: <data_dir>/spookludo.db
    std::string pid_file;
    std::string log_level = "info";
    // I/O threads: one by default (rooms and their connections on one thread: no hand-over
    // between threads on the hot path; BENCHMARKS.md, "Party pace").
    int threads = 1;
    int max_rooms = 1000;
    int max_connections = 5000;
    int max_connections_per_address = 64;
    // Rooms one address may hold open at once (0: no bound): a room counts against the address
    // that created it until it closes, a lobby whose creator dropped included (docs/security.md).
    int max_rooms_per_address = 10;
    int max_spectators = 32;
    int records_kept = 1000;             // finished games with human players kept (database, export)
    int bot_records_kept = 200;          // finished bot-only games kept (database, export)
    int decision_ms = 30000;             // default decision time of a new room
    int pace_ms = 1000;                  // default pause between steps
    int reconnect_ms = 120000;           // how long a dropped player's seat waits for them
    int drop_grace_ms = 10000;           // how long a dropped player's open decision waits for them
    int seed_wait_ms = 10000;            // how long the server waits for client seeds
    int idle_timeout_ms = 60000;         // a silent connection is closed (pings keep it open)
    int handshake_timeout_ms = 10000;
    int tls_handshakes_per_second = 20;  // per address, bursts of twice that (0: no limit)
    int max_messages_per_second = 20;    // per connection, averaged over a burst of twice that
    std::size_t send_queue_limit = 256;  // messages queued for a slow reader before it is dropped
    int solution_cache_mb = 64;          // board solutions kept for reuse (the balanced pools' aside)
    int solves_per_minute = 48;          // boards of unbalanced games one address may have solved (0: no limit)
    int analyses_per_minute = 12;        // new analyses (GET /analysis/<id>) one address may ask for (0: no limit)
    int analysis_cache_mb = 32;          // analyses kept for reuse
    // TLS: with both, the port serves https:// and wss:// (a plain request gets a redirect or a
    // clear refusal). PEM files; the certificate file may hold the chain. Re-read on SIGHUP.
    std::string tls_cert;
    std::string tls_key;
    // Origins (normalised: scheme://host[:port], normalise_origin) whose pages may open a WebSocket
    // besides the server's own (--allow-origin); an upgrade without an Origin is always taken.
    std::vector<std::string> allow_origins;
    // Where guests reach this server from outside (scheme://host[:port], --public-url): the join
    // link pages and terminals show; its origin may open WebSockets too. Empty: the machine's
    // network addresses are offered instead.
    std::string public_url;
    // The web page's files read from this directory at the start (--web-dir), rather than the
    // ones built into the program (server/http/web_dir.h). Empty: the built-in ones.
    std::string web_dir;
    // SIGTERM ends the games in progress (abandoned, their seeds revealed) and closes the rooms,
    // instead of saving them for the next start (--abandon-on-exit: a server going away for good).
    bool abandon_on_exit = false;
    // For measuring only (--no-journal): rooms are not written to the journal, so a restart or a
    // crash loses them. The history and the records are kept as always.
    bool no_journal = false;
    // Group commit (--journal-window-ms): 0, the passes of one burst of the I/O thread share a
    // transaction written at its end; above 0, a pass waits at most this long for others (its
    // messages wait with it).
    int journal_window_ms = 0;
    // Where finished games' records are also written as files, <dir>/<id>.json (--export-records;
    // empty: the database alone keeps them).
    std::string export_records;
    // A cluster (--cluster redis://HOST:PORT, docs/cluster.md): this node's id among the nodes
    // (--node-id; HOST-PORT of this machine when not given). Empty: a server on its own.
    std::string cluster;
    std::string node_id;
    bool tls() const { return !tls_cert.empty() || !tls_key.empty(); }
};

}  // namespace spookludo::server
