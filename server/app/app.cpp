#include "app.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "cluster.h"
#include "cluster_journal.h"
#include "database.h"
#include "history.h"
#include "http_routes.h"
#include "log_format.h"
#include "network.h"
#include "redis.h"
#include "room.h"
#include "spookludo/command_line.h"
#include "spookludo/host_addresses.h"
#include "web_dir.h"

namespace spookludo::server {

namespace net = boost::asio;

namespace {

// spookludo-server --healthcheck: a client of the server's own /healthz, for container health
// checks (the slim image has no curl).
int run_healthcheck(const Config& cfg) {
    if (cfg.port == 0) {
        std::cerr << "unhealthy: --healthcheck needs the server's port (--port or SPOOKLUDO_PORT), not 0" << std::endl;
        return 1;
    }
    // A server listening on every address answers on loopback; one bound to a single address
    // is asked there.
    std::string host = cfg.bind;
    if (host == "0.0.0.0" || host.empty()) host = "127.0.0.1";
    if (host == "::") host = "::1";
    const auto check = check_health(host, cfg.port, std::chrono::seconds(3), cfg.tls());
    if (check.healthy) {
        std::cout << "ok" << std::endl;
        return 0;
    }
    std::cerr << "unhealthy: " << check.reason << std::endl;
    return 1;
}

// spookludo-server --export-record ID: a finished game's record out of the database, for
// `spookludo verify FILE` when no server serves it.
int run_export_record(const Config& cfg, const std::string& id) {
    const auto file = std::filesystem::path(cfg.data_dir) / "spookludo.db";
    try {
        const auto text = read_record_from(file, id);
        if (!text) {
            std::cerr << "spookludo-server: no game " << id << " in " << file.string()
                      << " (the ids are in GET /games, spookludo history, and the game-over screens)" << std::endl;
            return 1;
        }
        std::cout << *text;
        if (!text->ends_with('\n')) std::cout << '\n';
        std::cout.flush();
        return std::cout ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "spookludo-server: " << e.what() << std::endl;
        return 1;
    }
}

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

// http(s)://ADDRESS:PORT for each network address guests may reach the server at: the bound
// address, or with 0.0.0.0 every IPv4 interface's; none on loopback or inside a container.
std::vector<std::string> lan_urls(const Config& cfg, std::uint16_t port, bool tls) {
    std::vector<std::string> hosts;
    if (cfg.bind == "0.0.0.0" || cfg.bind == "::" || cfg.bind.empty()) {
        if (!in_container()) hosts = lan_ipv4_addresses();
    } else if (!is_loopback_host(cfg.bind) && !in_container()) {
        hosts.push_back(cfg.bind.find(':') != std::string::npos ? "[" + cfg.bind + "]" : cfg.bind);
    }
    std::vector<std::string> urls;
    for (std::size_t i = 0; i < hosts.size() && i < 4; ++i)
        urls.push_back(std::string(tls ? "https://" : "http://") + hosts[i] + ":" + std::to_string(port));
    return urls;
}

// scheme://host[:port] of --allow-origin and --public-url, normalised (normalise_origin); a
// pasted address may end with a '/'.
const CLI::Validator origin_validator(
    [](std::string& origin) {
        const auto first = origin.find_first_not_of(" \t");
        origin = first == std::string::npos ? std::string() : origin.substr(first, origin.find_last_not_of(" \t") - first + 1);
        const auto normalised = normalise_origin(
            origin.ends_with("/") ? std::string_view(origin).substr(0, origin.size() - 1) : std::string_view(origin));
        if (!normalised || (normalised->rfind("http://", 0) != 0 && normalised->rfind("https://", 0) != 0))
            return "not an origin: " + origin + " (http:// or https://, a host, maybe a port; no path)";
        origin = *normalised;
        return std::string();
    },
    "", "origin");

int run_app(int argc, char** argv) {
    Config cfg;
    CLI::App app{"spookludo-server: the authoritative SpookLudo game server (HTTP and WebSocket on one port)",
                 "spookludo-server"};
    app.set_version_flag("--version", std::string("spookludo-server ") + SPOOKLUDO_VERSION);
    app.footer(
        "Every flag can also be set with the environment variable shown, e.g. SPOOKLUDO_PORT=8000.\n"
        "Players connect with: spookludo play ws://HOST:PORT --room CODE (WebSocket path /ws).\n"
        "HTTP: the web client on / (a room's join link: /r/<CODE>, its shared screen: /tv/<CODE>; a game's replay\n"
        "and analysis: /replay/<game id>; the history's pages: /history, /history/player/<name>), GET /healthz,\n"
        "GET /metrics (Prometheus), GET /games (finished games: ?room= &player= &game= &date=YYYY-MM-DD &page=),\n"
        "GET /games/<game id> (its record; /records/<game id> too), GET /analysis/<game id> (its analysis: choices\n"
        "against luck, JSON), GET /players/<name>. The installable page: GET /manifest.webmanifest (the web app\n"
        "manifest), /sw.js (its service worker), /icons/<name>.png. A WebSocket from a web page must come from\n"
        "the server's own pages (or an --allow-origin); one without an Origin header (a native client) is always\n"
        "taken.\n"
        "Health check (e.g. Docker's HEALTHCHECK): spookludo-server --healthcheck [--port PORT] exits 0 when\n"
        "the server on this machine answers GET /healthz with 200 within 3 s, 1 otherwise.\n"
        "A game's record from the database, with or without the server running (for spookludo verify FILE):\n"
        "  spookludo-server --export-record GAME_ID --data-dir DIR > game.json   (exit 0; 1 no such game)\n"
        "Exit status: 0 stopped cleanly (SIGTERM, SIGINT), --help, --version, or healthy (--healthcheck);\n"
        "1 could not start (the data directory or its database is not usable: the database cannot be written,\n"
        "is not a database or is damaged; the address or port cannot be bound, the TLS certificate or key cannot\n"
        "be used) or unhealthy (--healthcheck); 2 a usage error (an unknown option, a bad value, a file that\n"
        "does not exist: the message names it); 3 the data directory's database was written by a newer\n"
        "SpookLudo server (run that version, or use another --data-dir).");
    app.add_option("--port", cfg.port, "TCP port for HTTP and WebSocket (0: any free port)")
        ->envname("SPOOKLUDO_PORT")->capture_default_str();
    app.add_option("--bind", cfg.bind, "Address to listen on")->envname("SPOOKLUDO_BIND")->capture_default_str();
    app.add_option("--data-dir", cfg.data_dir,
                   "Where the server keeps its database (<dir>/spookludo.db): the open rooms' journal and the "
                   "finished games' records")
        ->envname("SPOOKLUDO_DATA_DIR")->capture_default_str();
    app.add_option("--pid-file", cfg.pid_file, "Write the process id here")->envname("SPOOKLUDO_PID_FILE");
    app.add_option("--log-level", cfg.log_level, "trace, debug, info, warn, error or off")
        ->envname("SPOOKLUDO_LOG_LEVEL")->capture_default_str()
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
    app.add_option("--threads", cfg.threads,
                   "I/O threads: 1 keeps every room and connection on one thread (the least CPU per decision); more "
                   "share the rooms between them (more decisions a second flat out, each costing more)")->envname("SPOOKLUDO_THREADS")->capture_default_str()
        ->check(CLI::Range(1, 64));
    app.add_option("--decision-ms", cfg.decision_ms, "Default time to choose a move, in ms")
        ->envname("SPOOKLUDO_DECISION_MS")->capture_default_str()->check(CLI::Range(1000, 600000));
    app.add_option("--pace-ms", cfg.pace_ms, "Default pause between steps, in ms (0 for bots and tests)")
        ->envname("SPOOKLUDO_PACE_MS")->capture_default_str()->check(CLI::Range(0, 10000));
    app.add_option("--reconnect-ms", cfg.reconnect_ms, "How long a dropped player's seat waits for them, in ms")
        ->envname("SPOOKLUDO_RECONNECT_MS")->capture_default_str()->check(CLI::Range(0, 3600000));
    app.add_option("--drop-grace-ms", cfg.drop_grace_ms,
                   "How long a decision waits for a player who lost the connection (a refreshed page, a phone that "
                   "slept) before the server plays it for them, in ms; never longer than the decision's own time, and "
                   "a pause does not count")
        ->envname("SPOOKLUDO_DROP_GRACE_MS")->capture_default_str()->check(CLI::Range(0, 600000));
    app.add_flag("--abandon-on-exit", cfg.abandon_on_exit,
                 "On SIGTERM or SIGINT, end the games in progress (abandoned: records written, seeds revealed) and "
                 "forget the rooms, for a server going away for good. Without it the rooms are saved in the journal "
                 "and the next start takes them up again where they were")
        ->envname("SPOOKLUDO_ABANDON_ON_EXIT");
    app.add_option("--export-records", cfg.export_records,
                   "Also write each finished game's record as a file, <dir>/<game id>.json, kept within the same "
                   "bounds as the database's (the database stays the store: /records/<id> serves from it)")
        ->envname("SPOOKLUDO_EXPORT_RECORDS");
    app.add_flag("--no-journal", cfg.no_journal,
                 "For measuring the journal's cost only: rooms and games are not saved, so a restart or a crash "
                 "loses them (finished games still go to the history)");
    app.add_option("--journal-window-ms", cfg.journal_window_ms,
                   "Group commit: 0 writes the steps that came together (the I/O thread's burst: rooms step on an "
                   "8 ms grid) in one journal transaction as soon as they are in; above 0, how long a step waits at most "
                   "for other rooms' steps, in ms (fewer transactions, more latency: its messages go out once it is written)")
        ->envname("SPOOKLUDO_JOURNAL_WINDOW_MS")->capture_default_str()->check(CLI::Range(0, 1000));
    app.add_option("--seed-wait-ms", cfg.seed_wait_ms, "How long to wait for the players' client seeds, in ms")
        ->envname("SPOOKLUDO_SEED_WAIT_MS")->capture_default_str()->check(CLI::Range(0, 120000));
    app.add_option("--max-rooms", cfg.max_rooms, "Rooms on the server at most")->envname("SPOOKLUDO_MAX_ROOMS")
        ->capture_default_str()->check(positive_number());
    app.add_option("--max-rooms-per-address", cfg.max_rooms_per_address,
                   "Rooms one address may hold open at once (0: no bound): a room counts against the address that "
                   "created it until it closes, a lobby waiting for its dropped creator included; a create_room over "
                   "it gets server_full. Per node in a cluster. Load tests from one machine: 0")
        ->envname("SPOOKLUDO_MAX_ROOMS_PER_ADDRESS")->capture_default_str()->check(non_negative_number());
    app.add_option("--max-connections", cfg.max_connections,
                   "TCP connections at most (WebSocket, HTTP, or not yet upgraded; counted from accept)")
        ->envname("SPOOKLUDO_MAX_CONNECTIONS")->capture_default_str()->check(positive_number());
    app.add_option("--max-connections-per-address", cfg.max_connections_per_address,
                   "TCP connections from one address at most (WebSocket, HTTP, or not yet upgraded)")
        ->envname("SPOOKLUDO_MAX_CONNECTIONS_PER_ADDRESS")->capture_default_str()->check(positive_number());
    app.add_option("--max-spectators", cfg.max_spectators, "Spectators per room at most")
        ->envname("SPOOKLUDO_MAX_SPECTATORS")->capture_default_str()->check(non_negative_number());
    app.add_option("--max-messages-per-second", cfg.max_messages_per_second, "Messages per connection per second")
        ->envname("SPOOKLUDO_MAX_MESSAGES_PER_SECOND")->capture_default_str()->check(positive_number());
    app.add_option("--idle-timeout-ms", cfg.idle_timeout_ms, "Close a connection silent this long (pings count)")
        ->envname("SPOOKLUDO_IDLE_TIMEOUT_MS")->capture_default_str()->check(CLI::Range(1000, 3600000));
    app.add_option("--records-kept", cfg.records_kept,
                   "Finished games with human players kept, in the database and as files of --export-records (over "
                   "it, the address holding the most gives up its oldest)")
        ->envname("SPOOKLUDO_RECORDS_KEPT")->capture_default_str()->check(positive_number());
    app.add_option("--solution-cache-mb", cfg.solution_cache_mb,
                   "Memory for board solutions kept for reuse, in MB (the balanced pools' boards are kept aside)")
        ->envname("SPOOKLUDO_SOLUTION_CACHE_MB")->capture_default_str()->check(CLI::Range(0, 1 << 20));
    app.add_option("--solves-per-minute", cfg.solves_per_minute,
                   "Boards of games with random boards (balanced_boards false) one address may have solved a minute "
                   "(0: no limit)")
        ->envname("SPOOKLUDO_SOLVES_PER_MINUTE")->capture_default_str()->check(non_negative_number());
    app.add_option("--analyses-per-minute", cfg.analyses_per_minute,
                   "Analyses of games not analysed yet (GET /analysis/<id>) one address may ask for a minute (0: no "
                   "limit); an analysis already made costs nothing")
        ->envname("SPOOKLUDO_ANALYSES_PER_MINUTE")->capture_default_str()->check(non_negative_number());
    app.add_option("--analysis-cache-mb", cfg.analysis_cache_mb, "Memory for analyses kept for reuse, in MB")
        ->envname("SPOOKLUDO_ANALYSIS_CACHE_MB")->capture_default_str()->check(CLI::Range(0, 1 << 20));
    app.add_option("--bot-records-kept", cfg.bot_records_kept,
                   "Finished bot-only games kept (their own bound: they never push out the others)")
        ->envname("SPOOKLUDO_BOT_RECORDS_KEPT")->capture_default_str()->check(positive_number());
    app.add_option("--tls-cert", cfg.tls_cert,
                   "TLS: the certificate (PEM; the file may hold the chain). With --tls-key the port serves https:// "
                   "and wss:// only (plain requests are redirected or told to use wss://); both re-read on SIGHUP")
        ->envname("SPOOKLUDO_TLS_CERT")->check(CLI::ExistingFile);
    app.add_option("--tls-key", cfg.tls_key, "TLS: the certificate's private key (PEM)")
        ->envname("SPOOKLUDO_TLS_KEY")->check(CLI::ExistingFile);
    app.add_option("--tls-handshakes-per-second", cfg.tls_handshakes_per_second,
                   "TLS: handshakes one address may start a second, in bursts of twice that (each costs the server "
                   "about half a millisecond of CPU); a connection over it is closed before its handshake. 0: no "
                   "limit")
        ->envname("SPOOKLUDO_TLS_HANDSHAKES_PER_SECOND")->capture_default_str()->check(CLI::Range(0, 1000000));
    app.add_option("--public-url", cfg.public_url,
                   "Where guests reach this server, as they would type it (e.g. https://party.example.org, or "
                   "http://203.0.113.7:7777 for a forwarded port): the join link and command every lobby shows, and "
                   "its QR code. Without it, the machine's network addresses are offered (not inside a container: "
                   "set it there)")
        ->envname("SPOOKLUDO_PUBLIC_URL")->type_name("URL")->transform(origin_validator);
    app.add_option("--allow-origin", cfg.allow_origins,
                   "An origin (scheme://host[:port], e.g. https://party.example.org) whose web pages may open a "
                   "WebSocket besides the server's own pages; repeat it or separate origins with commas. An upgrade "
                   "without an Origin header (a native client) is always taken; one from any other site gets 403")
        ->envname("SPOOKLUDO_ALLOW_ORIGIN")->delimiter(',')->type_name("ORIGIN")
        ->transform(origin_validator);
    app.add_option("--web-dir", cfg.web_dir,
                   "Serve the web page's files from this directory (a changed copy of the repository's web/), read "
                   "once at the start, rather than the ones built into the program; the same addresses, hashed names "
                   "and service worker, without gzip")
        ->envname("SPOOKLUDO_WEB_DIR")->check(CLI::ExistingDirectory)
        ->check(CLI::Validator(
            [](std::string& dir) -> std::string {
                try {
                    web::site_from(dir);  // read now, once: the routes find it read
                    return {};
                } catch (const std::exception& e) {
                    return e.what();
                }
            },
            "", "web files"));
    app.add_option("--cluster", cfg.cluster,
                   "Be one node of a cluster through this Redis (redis://HOST:PORT, docs/cluster.md): rooms are "
                   "spread over the nodes, their journal and the finished games live in Redis, and a dead node's "
                   "rooms go on on the others; needs --public-url, the address clients reach this node at")
        ->envname("SPOOKLUDO_CLUSTER")->type_name("URL");
    app.add_option("--node-id", cfg.node_id,
                   "With --cluster: this node's name among the nodes (A-Z a-z 0-9 . _ -, at most 64; default: this "
                   "machine's HOST-PORT)")
        ->envname("SPOOKLUDO_NODE_ID");
    bool healthcheck = false;
    app.add_flag("--healthcheck", healthcheck,
                 "Do not serve: ask the server on this machine (127.0.0.1, or the --bind address, at --port) for "
                 "GET /healthz; print ok and exit 0 on 200, else print why and exit 1 (3 s timeout; the Docker "
                 "image's HEALTHCHECK)");
    std::string export_record;
    app.add_option("--export-record", export_record,
                   "Do not serve: write the record of the finished game with this id (as in /records/<id>) from "
                   "the database in --data-dir to standard output, and exit: 0 written, 1 no such game or the "
                   "database cannot be read. Works while the server runs and after it has stopped")
        ->type_name("GAME_ID");
    if (const auto usage = parse_command_line(app, argc, argv)) return *usage;

    if (healthcheck) return run_healthcheck(cfg);
    if (!export_record.empty()) return run_export_record(cfg, export_record);
    if (cfg.no_journal) cfg.abandon_on_exit = true;  // nothing saved: a stop ends the games as before
    if (!cfg.cluster.empty()) {
        try {
            redis::parse_url(cfg.cluster);
        } catch (const std::invalid_argument& e) {
            std::cerr << "--cluster: " << e.what() << "\n";
            return 2;
        }
        if (cfg.public_url.empty()) {
            std::cerr << "--cluster needs --public-url: the address clients reach this node at (other nodes send "
                         "them there)\n";
            return 2;
        }
        if (cfg.node_id.empty()) {
            char host[256] = {};
            ::gethostname(host, sizeof host - 1);
            cfg.node_id = std::string(host) + "-" + std::to_string(cfg.port);
        }
        if (!valid_node_id(cfg.node_id)) {
            std::cerr << "--node-id '" << cfg.node_id << "': 1 to 64 of A-Z a-z 0-9 . _ -\n";
            return 2;
        }
    } else if (!cfg.node_id.empty()) {
        std::cerr << "--node-id is for a cluster node (--cluster)\n";
        return 2;
    }
    // A page served at the public address talks to this server (through a proxy, its Host may differ).
    if (!cfg.public_url.empty()) cfg.allow_origins.push_back(cfg.public_url);

    spdlog::set_level(spdlog::level::from_str(cfg.log_level));
    set_log_format();  // under systemd: each line's priority for the journal (log_format.h)

    // A file size limit (ulimit -f) must make a record's write fail (EFBIG, logged, retried), not
    // kill the server.
    std::signal(SIGXFSZ, SIG_IGN);
    // The data directory must be usable from the start: say why not and stop, rather than lose
    // every game's record later.
    if (auto problem = RecordStore::check_writable(cfg.data_dir)) {
        spdlog::error("cannot use the data directory {} (--data-dir, SPOOKLUDO_DATA_DIR): {}", cfg.data_dir, *problem);
        return 1;
    }
    if (!cfg.export_records.empty())
        if (auto problem = RecordStore::check_writable(cfg.export_records)) {
            spdlog::error("cannot write records into {} (--export-records, SPOOKLUDO_EXPORT_RECORDS): {}",
                          cfg.export_records, *problem);
            return 1;
        }

    // Every connection is a file descriptor: take the hard limit of open files (the soft one is
    // often 1024, below --max-connections).
    if (rlimit files{}; getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    if (rlimit files{}; getrlimit(RLIMIT_NOFILE, &files) == 0 &&
        files.rlim_cur < static_cast<rlim_t>(cfg.max_connections) + 64)
        spdlog::warn("the open-files limit ({}) is below --max-connections ({}): raise it (ulimit -n)", files.rlim_cur,
                     cfg.max_connections);

    // The services outlive the io_context: the handlers it still holds when it is destroyed
    // (sessions) count themselves out of the services' metrics. The rooms, whose timers are bound
    // to the io_context, are let go before it (at the end below).
    std::unique_ptr<Services> owned;
    try {
        owned = std::make_unique<Services>(cfg);
    } catch (const db::TooNew& e) {
        spdlog::error("{}", e.what());
        return 3;
    } catch (const std::exception& e) {
        spdlog::error("cannot use the data directory {} (--data-dir, SPOOKLUDO_DATA_DIR): {}", cfg.data_dir, e.what());
        return 1;
    }
    Services& services = *owned;
    net::io_context io(cfg.threads);
    // The journal's writer answers through the loop, and (without a window) writes each burst's
    // passes at its end.
    const auto post_to_io = [&io](std::function<void()> task) { net::post(io, std::move(task)); };
    const bool at_burst_end = cfg.journal_window_ms == 0;
    if (services.journal_writer) services.journal_writer->run_on(post_to_io, at_burst_end, true);
    std::unique_ptr<Network> network;
    try {
        network = std::make_unique<Network>(io, services);
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
        return 1;
    }
    // A server on its own takes up its rooms from its database; a cluster's node from Redis (its
    // own rooms, and a dead node's, claimed as the cluster's view comes in).
    if (!cfg.no_journal && cfg.cluster.empty()) resume_rooms(io, services);
    if (!cfg.cluster.empty()) {
        if (!cfg.no_journal) {
            services.cluster_journal = std::make_unique<RedisJournal>(
                redis::Client::make(io, redis::parse_url(cfg.cluster)), cfg.node_id, services.history.get(),
                static_cast<std::size_t>(cfg.records_kept + cfg.bot_records_kept));
            services.journal_writer = std::make_unique<JournalWriter>(
                *services.cluster_journal, std::chrono::milliseconds(cfg.journal_window_ms), 512,
                services.journal_counters());
            // Redis answers through this event loop: the writer's thread waits for it, never an I/O thread.
            services.journal_writer->run_on(post_to_io, at_burst_end, false);
        }
        services.cluster = Cluster::make(io, services, cfg.cluster, cfg.node_id, cfg.public_url);
        spdlog::info("cluster node {} through {} (reached at {})", cfg.node_id, cfg.cluster, cfg.public_url);
    }
    if (!cfg.pid_file.empty()) std::ofstream(cfg.pid_file) << getpid() << "\n";
    network->start();
    const auto port = network->port();
    services.lan_urls = lan_urls(cfg, port, network->tls());
    spdlog::info("spookludo-server {} listening on {}:{}{}", SPOOKLUDO_VERSION, cfg.bind, port,
                 network->tls() ? " (TLS: " + network->tls_certificate() + ")" : std::string());
    const std::string ws = network->tls() ? "wss" : "ws";
    const char* web = network->tls() ? "https" : "http";
    // Where people reach it: the --public-url, else the network addresses (in a container, its own:
    // the lobbies offer none there, but the operator reads them here, as the demo lists them), else
    // this machine alone.
    std::vector<std::string> bases;
    std::string where_note;
    if (!cfg.public_url.empty()) bases.push_back(cfg.public_url);
    else bases = services.lan_urls;
    const bool every_address = cfg.bind == "0.0.0.0" || cfg.bind == "::" || cfg.bind.empty();
    if (bases.empty() && every_address) {
        for (const auto& a : lan_ipv4_addresses())
            if (bases.size() < 4) bases.push_back(std::string(web) + "://" + a + ":" + std::to_string(port));
        if (!bases.empty())
            where_note = " (the container's own addresses: from other machines, the host's address and the port it "
                         "publishes, or --public-url)";
    }
    if (bases.empty()) {
        const std::string host = every_address ? "127.0.0.1" : cfg.bind.find(':') != std::string::npos ? "[" + cfg.bind + "]" : cfg.bind;
        bases.push_back(std::string(web) + "://" + host + ":" + std::to_string(port));
        if (every_address) where_note = " (this machine has no network address: only it can connect)";
    }
    std::cout << "SpookLudo server ready. Guests open " << bases.front() << "/ in a browser";
    for (std::size_t i = 1; i < bases.size(); ++i) std::cout << " (or " << bases[i] << "/)";
    std::cout << where_note;
    // The terminal client's port is 7777 unless given: always name it.
    std::string terminal = ws + bases.front().substr(bases.front().find("://"));
    if (const auto host_end = terminal.find(']') != std::string::npos ? terminal.find(']') : terminal.find("://") + 3;
        terminal.find(':', host_end) == std::string::npos)
        terminal += bases.front().starts_with("https://") ? ":443" : ":80";
    std::cout << "; terminals connect to " << terminal << " (WebSocket path /ws); health: " << web << "://localhost:"
              << port << "/healthz" << std::endl;

    // SIGHUP: the TLS certificate and key are read again (a renewal); connections go on.
    net::signal_set hangups(io, SIGHUP);
    std::function<void()> on_hangup = [&] {
        hangups.async_wait([&](boost::system::error_code ec, int) {
            if (ec) return;
            std::string why;
            if (!network->tls()) spdlog::info("SIGHUP: nothing to reload (no TLS)");
            else if (network->reload_tls(why)) spdlog::info("SIGHUP: TLS certificate reloaded ({})", network->tls_certificate());
            else spdlog::error("SIGHUP: the TLS files could not be used, the old certificate stays: {}", why);
            on_hangup();
        });
    };
    on_hangup();

    // The server's sign of life in the journal, every second: after a crash, the decisions that were
    // open get the time they had left then.
    net::steady_timer alive(io);
    std::function<void()> beat = [&] {
        try {
            if (!cfg.no_journal) services.journal->mark("alive_ms", unix_ms());
            services.journal_recovered();
        } catch (const std::exception& e) {
            services.journal_failed(e.what());
        }
        alive.expires_after(std::chrono::seconds(1));
        alive.async_wait([&](boost::system::error_code ec) {
            if (!ec && !services.shutting_down) beat();
        });
    };
    beat();

    // Graceful shutdown: stop accepting, abandon games (records written, seeds revealed), tell
    // every client, then stop.
    net::signal_set signals(io, SIGINT, SIGTERM);
    net::steady_timer grace(io);
    net::steady_timer stop_deadline(io);
    // Runs once every room has finished its shutdown: stop accepting, let the last messages go
    // out, stop.
    std::atomic<bool> finished{false};  // the rooms all done, or the deadline: whichever comes first
    const std::function<void()> finish = [&] {
        if (finished.exchange(true)) return;
        services.mark_stop();
        if (services.cluster) services.cluster->leave();
        network->stop();
        grace.expires_after(std::chrono::milliseconds(300));
        grace.async_wait([&](boost::system::error_code) { io.stop(); });
    };
    signals.async_wait([&](boost::system::error_code ec, int signal) {
        if (ec) return;
        spdlog::info("signal {}: shutting down", signal);
        hangups.cancel();
        services.shutting_down = true;  // the sign of life stops at its next beat
        auto rooms = services.registry.all();
        if (rooms.empty()) return net::post(io, finish);
        auto left = std::make_shared<std::atomic<std::size_t>>(rooms.size());
        for (auto& room : rooms)
            room->shutdown([left, &io, &finish] {
                if (--*left == 0) net::post(io, finish);
            });
        // A disk that hangs does not hold the stop for ever: what is not written by then was never
        // sent to anyone, and the next start takes the rooms up from what was.
        stop_deadline.expires_after(std::chrono::seconds(20));
        stop_deadline.async_wait([&, left](boost::system::error_code timer_ec) {
            if (timer_ec || *left == 0) return;
            spdlog::error("{} rooms did not finish saving within 20 s: stopping without them", left->load());
            net::post(io, finish);
        });
    });

    // Solve the pools' boards off the I/O threads, so that rooms find them ready.
    std::thread warm_up([&services] {
        try {
            const auto t0 = std::chrono::steady_clock::now();
            services.solutions.warm_up(services.shutting_down);
            spdlog::info("board pools solved in {:.2f} s",
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        } catch (const std::exception& e) {
            spdlog::error("solving the board pools failed: {} (games solve their boards when they start)", e.what());
        }
    });

    // A handler that throws (none should: rooms and sessions catch their own) is logged and
    // counted, and the thread goes back to work: one failure never ends the server.
    auto run = [&io, &services] {
        for (;;) {
            try {
                io.run();
                return;
            } catch (const std::exception& e) {
                ++services.metrics.internal_errors;
                spdlog::error("a handler failed: {}; the server goes on", e.what());
            }
        }
    };
    std::vector<std::thread> threads;
    for (int i = 1; i < cfg.threads; ++i) threads.emplace_back(run);
    run();
    for (auto& t : threads) t.join();
    warm_up.join();
    // The analyses' worker answers through the io_context: it stops while that is there.
    services.analyses.stop();
    // What the writer still holds is written before the rooms and their io_context go.
    if (services.journal_writer) services.journal_writer->stop();
    services.cluster.reset();
    // A cluster's store holds a Redis client on the io_context: it goes with it.
    if (services.cluster_journal) {
        services.journal_writer.reset();
        services.cluster_journal.reset();
    }
    // The rooms still listed go now, while their timers' io_context is there.
    for (const auto& room : services.registry.all()) services.registry.remove(room->code());
    network.reset();
    if (!cfg.pid_file.empty()) std::remove(cfg.pid_file.c_str());
    spdlog::info("stopped");
    return 0;
}

}  // namespace spookludo::server
