// spookludo-load: how many parties one machine holds. Opens R rooms of P bot players against a
// server (started here, or one already running), plays games back to back, and reports
// throughput, decision round trips (client side, and the server's own histogram), errors, the
// server's CPU time per decision and its resident memory per room and per connection.
//
// Modes:
//   full   zero pace, zero think time: as fast as the server goes
//   paced  each room waits --pace-ms (1 s) between steps, like a party
//   idle   C connections that only say hello and wait: memory per connection
// --slow N adds N spectators that never read (slow readers); the server should drop them
// without the players noticing.
//
// The load runs on one thread (the client's event loop, net.h). It reads only what it needs
// from each message: the type by a string search, and decisions (about one message in five)
// with the JSON parser.
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "net.h"
#include "spookludo/command_line.h"
#include "spookludo/protocol/messages.h"
#include "spookludo/rng.h"

namespace {

using namespace spookludo;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

// ---- Measurements ------------------------------------------------------------------------------
// Round trips in microseconds, 1 µs buckets up to 100 ms (and the max beyond).
class Histogram {
public:
    void add(std::int64_t us) {
        if (us < 0) us = 0;
        if (us < static_cast<std::int64_t>(counts_.size())) ++counts_[static_cast<std::size_t>(us)];
        else ++over_;
        max_ = std::max(max_, us);
        ++n_;
    }
    std::uint64_t count() const { return n_; }
    double quantile(double q) const {
        if (n_ == 0) return 0;
        const auto target = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n_)));
        std::uint64_t seen = 0;
        for (std::size_t i = 0; i < counts_.size(); ++i) {
            seen += counts_[i];
            if (seen >= target) return static_cast<double>(i);
        }
        return static_cast<double>(max_);
    }
    std::int64_t max() const { return max_; }
    void clear() { *this = Histogram(); }

private:
    std::vector<std::uint32_t> counts_ = std::vector<std::uint32_t>(100000);
    std::uint64_t over_ = 0, n_ = 0;
    std::int64_t max_ = 0;
};

struct ProcSample {
    double cpu_s = 0;   // user + system
    long rss_kb = 0;
    double written = 0;  // bytes handed to write calls on files (/proc/PID/io wchar: the journal, logs)
};

ProcSample sample_process(int pid);
// Several processes (a cluster's nodes): their sums.
ProcSample sample_processes(const std::vector<int>& pids) {
    ProcSample sum;
    for (const int pid : pids) {
        const auto s = sample_process(pid);
        sum.cpu_s += s.cpu_s;
        sum.rss_kb += s.rss_kb;
        sum.written += s.written;
    }
    return sum;
}

ProcSample sample_process(int pid) {
    ProcSample s;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const auto close = text.rfind(')');
    if (close != std::string::npos) {
        std::istringstream rest(text.substr(close + 2));
        std::string field;
        std::vector<std::string> fields;
        while (rest >> field) fields.push_back(field);
        // fields[0] is field 3 (state); utime is field 14, stime field 15.
        if (fields.size() > 13) {
            const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
            s.cpu_s = (std::stod(fields[11]) + std::stod(fields[12])) / tick;
        }
    }
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) s.rss_kb = std::stol(line.substr(6));
    std::ifstream io("/proc/" + std::to_string(pid) + "/io");
    while (std::getline(io, line))
        if (line.rfind("wchar:", 0) == 0) s.written = std::stod(line.substr(6));
    return s;
}

// A blocking GET of the server's /metrics or /healthz (over TLS for a wss:// server); the body,
// or "" when the server does not answer.
std::string http_get(const client::Url& server, const std::string& path) {
    client::HttpUrl url;
    url.tls = server.tls;
    url.host = server.host;
    url.port = server.port;
    url.target = path;
    url.ca_file = server.ca_file;
    try {
        auto response = client::http_get(url, 16u << 20, std::chrono::seconds(10));
        return response.status == 200 ? std::move(response.body) : std::string();
    } catch (const std::exception&) {
        return {};
    }
}

// A self-signed certificate for 127.0.0.1 (EC P-256, a day), written as PEM to `cert` and
// `key`: --tls with --spawn measures a TLS server without any file of the user's.
void make_loopback_certificate(const std::string& cert, const std::string& key) {
    EVP_PKEY* pkey = EVP_EC_gen("P-256");
    X509* x = X509_new();
    if (!pkey || !x) throw std::runtime_error("cannot make a test certificate (OpenSSL)");
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), -60);
    X509_gmtime_adj(X509_getm_notAfter(x), 86400);
    X509_set_pubkey(x, pkey);
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
    X509_set_issuer_name(x, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, x, x, nullptr, nullptr, 0);
    if (X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "IP:127.0.0.1")) {
        X509_add_ext(x, san, -1);
        X509_EXTENSION_free(san);
    }
    X509_sign(x, pkey, EVP_sha256());
    FILE* c = std::fopen(cert.c_str(), "w");
    FILE* k = std::fopen(key.c_str(), "w");
    const bool ok = c && k && PEM_write_X509(c, x) == 1 && PEM_write_PrivateKey(k, pkey, nullptr, nullptr, 0, nullptr, nullptr) == 1;
    if (c) std::fclose(c);
    if (k) std::fclose(k);
    X509_free(x);
    EVP_PKEY_free(pkey);
    if (!ok) throw std::runtime_error("cannot write the test certificate to " + cert);
}

// The server's decision round-trip histogram (cumulative buckets, ms) from /metrics.
std::vector<std::pair<double, double>> server_histogram(const std::string& metrics) {
    std::vector<std::pair<double, double>> buckets;
    std::istringstream in(metrics);
    std::string line;
    const std::string key = "spookludo_decision_round_trip_ms_bucket{le=\"";
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) != 0) continue;
        const auto q = line.find('"', key.size());
        const std::string le = line.substr(key.size(), q - key.size());
        const double count = std::stod(line.substr(line.rfind(' ') + 1));
        buckets.emplace_back(le == "+Inf" ? INFINITY : std::stod(le), count);
    }
    return buckets;
}

double metric(const std::string& metrics, const std::string& name) {
    std::istringstream in(metrics);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
    return 0;
}

// A quantile from the difference of two cumulative histograms, linear within a bucket.
double histogram_quantile(const std::vector<std::pair<double, double>>& before,
                          const std::vector<std::pair<double, double>>& after, double q) {
    if (after.empty() || before.size() != after.size()) return NAN;
    const double total = after.back().second - before.back().second;
    if (total <= 0) return NAN;
    const double target = q * total;
    double prev_le = 0, prev_count = 0;
    for (std::size_t i = 0; i < after.size(); ++i) {
        const double c = after[i].second - before[i].second;
        if (c >= target) {
            if (std::isinf(after[i].first)) return prev_le;
            const double in_bucket = c - prev_count;
            const double frac = in_bucket > 0 ? (target - prev_count) / in_bucket : 1;
            return prev_le + frac * (after[i].first - prev_le);
        }
        prev_le = after[i].first;
        prev_count = c;
    }
    return NAN;
}

// ---- The load --------------------------------------------------------------------------------
struct Args {
    std::vector<std::string> url;  // several: a cluster's nodes, rooms created and joined through each in turn
    std::string spawn;  // server binary to start
    std::string server_args;
    std::string ca_file;  // wss://: the server's CA (or its self-signed certificate)
    bool tls = false;     // --spawn: a TLS server, with a certificate made here
    std::vector<int> pid;  // several: a cluster's nodes (summed)
    std::string mode = "full";
    int rooms = 50;
    int players = 4;
    std::string game = "spook";
    int pieces = 2;
    int pace_ms = 1000;
    double duration = 20;
    double warmup = 5;
    int connections = 1000;  // idle mode
    int slow = 0;
    int ramp_per_s = 2000;   // new connections a second
    bool json_out = false;
    std::uint64_t seed = 1;
    int slow_per_room() const { return slow; }
    bool trace = false;
};

// The value of the first string field `name` (no escapes expected: types and decision ids).
std::string_view string_field(std::string_view text, std::string_view name) {
    std::string key = "\"";
    key += name;
    key += "\":\"";
    const auto at = text.find(key);
    if (at == std::string_view::npos) return {};
    const auto start = at + key.size();
    const auto end = text.find('"', start);
    return text.substr(start, end - start);
}
std::string_view type_of(std::string_view text) { return string_field(text, "type"); }

class Load {
public:
    explicit Load(const Args& a) : a_(a), rng_(a.seed) {}

    int run() {
        if (!a_.ca_file.empty())
            if (auto problem = client::ca_file_problem(a_.ca_file)) throw std::invalid_argument(*problem);
        for (const auto& text : a_.url) {
            std::string error;
            auto url = client::parse_url(text, error);
            if (!url) throw std::invalid_argument(error);
            url->ca_file = a_.ca_file;
            urls_.push_back(*url);
        }
        url_ = urls_.front();
        base_ = sample_processes(a_.pid);
        start_ = Clock::now();
        if (a_.mode == "idle") {
            open_idle(0);
        } else {
            for (int r = 0; r < a_.rooms; ++r) rooms_.push_back(std::make_unique<Room>());
            open_room(0);
        }
        loop_.on_signal([this](int) { loop_.stop(); });
        schedule_measure();
        loop_.run();
        return report();
    }

private:
    struct Player;
    struct Room {
        std::string code;
        std::vector<Player*> players;
        int seated = 0;
        int pace_ms = 0;  // paced mode: this room's pause between steps
        bool started = false;
        int games = 0;
    };
    struct Player {
        Room* room = nullptr;
        int index = 0;
        bool slow = false;
        std::shared_ptr<client::Connection> conn;
        client::Url url;          // the node it connects to (a redirect changes it)
        bool redirected = false;  // closing to follow a redirect
        std::string decision;
        std::int64_t decision_at_us = 0;
    };

    static std::int64_t now_us() {
        return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch()).count();
    }

    // Connections are opened at a limited rate so that the listener's backlog keeps up.
    void pace_open(std::function<void()> next) {
        const auto gap = std::chrono::microseconds(1000000 / std::max(1, a_.ramp_per_s));
        loop_.after(std::chrono::duration_cast<std::chrono::milliseconds>(gap * 10), std::move(next));
    }

    void open_room(int r) {
        if (r >= a_.rooms) {
            opened_all_ = Clock::now();
            return;
        }
        auto* room = rooms_[static_cast<std::size_t>(r)].get();
        if (a_.mode == "paced") {
            // Parties start at any moment and keep their own rhythm: each room's pace is within
            // 10 % of --pace-ms, and the rooms open evenly over two steps (or as fast as --ramp
            // allows), so that their steps do not all fall on the same instants.
            room->pace_ms = static_cast<int>(a_.pace_ms * (0.9 + 0.2 * rng_.uniform(1001) / 1000.0));
            open_player(room, 0);
            const double spread_s = std::max(2.0 * a_.pace_ms / 1000.0,
                                             static_cast<double>(a_.rooms) * a_.players / std::max(1, a_.ramp_per_s));
            const auto gap = std::chrono::microseconds(static_cast<long>(spread_s * 1e6 / a_.rooms));
            loop_.after(std::chrono::duration_cast<std::chrono::milliseconds>(gap * (r + 1)) -
                            std::chrono::duration_cast<std::chrono::milliseconds>(gap * r),
                        [this, r] { open_room(r + 1); });
            return;
        }
        open_player(room, 0);
        // The joiners follow when the creator has the room's code (on_joined).
        if ((r + 1) % 10 == 0)
            pace_open([this, r] { open_room(r + 1); });
        else
            open_room(r + 1);
    }

    Player* new_player(Room* room, int index, bool slow) {
        players_.push_back(std::make_unique<Player>());
        auto* p = players_.back().get();
        p->room = room;
        p->index = index;
        p->slow = slow;
        if (room) room->players.push_back(p);
        return p;
    }

    void open_player(Room* room, int index, bool slow = false) {
        auto* p = new_player(room, index, slow);
        // Through the nodes in turn: room r's player i through node r + i.
        const auto r = room ? static_cast<std::size_t>(std::find_if(rooms_.begin(), rooms_.end(), [&](const auto& x) {
                                                               return x.get() == room;
                                                           }) - rooms_.begin())
                            : 0;
        p->url = urls_[(r + static_cast<std::size_t>(index)) % urls_.size()];
        connect(*p);
    }

    void connect(Player& player) {
        auto* p = &player;
        client::Connection::Handlers h;
        h.on_open = [this, p] { on_open(*p); };
        h.on_message = [this, p](std::string_view text) { on_message(*p, text); };
        h.on_close = [this, p](const std::string& reason) { on_close(*p, reason); };
        p->conn = client::Connection::open(loop_, p->url, std::move(h), std::chrono::seconds(30), p->slow ? 4096 : 0);
    }

    void open_idle(int i) {
        if (i >= a_.connections) {
            opened_all_ = Clock::now();
            return;
        }
        open_player(nullptr, i);
        if ((i + 1) % 10 == 0)
            pace_open([this, i] { open_idle(i + 1); });
        else
            open_idle(i + 1);
    }

    void send(Player& p, const protocol::ClientMessage& m) { p.conn->send(protocol::encode(m)); }

    void on_open(Player& p) {
        send(p, protocol::Hello{protocol::kProtocolVersion, "spookludo-load"});
        if (!p.room) return;  // idle
        if (p.slow) {
            send(p, protocol::Watch{p.room->code});
            p.conn->pause_reading(std::chrono::hours(24));  // never reads again
            return;
        }
        if (p.index == 0) {
            json o{{"game", a_.game}, {"players", a_.players}};
            if (a_.game == "spook") o["pieces"] = a_.pieces;
            else o["arm"] = 6;
            const protocol::SettingsChange s{30000, a_.mode == "paced" ? p.room->pace_ms : 0, false, std::nullopt, std::nullopt};
            send(p, protocol::CreateRoom{o.get<GameOptions>(), "load-0", s});
        } else {
            send(p, protocol::JoinRoom{p.room->code, "load-" + std::to_string(p.index)});
        }
    }

    void on_message(Player& p, std::string_view text) {
        const std::string_view type = type_of(text);
        if (a_.trace && p.room == rooms_.front().get())
            std::fprintf(stderr, "%lld p%d %.*s\n", static_cast<long long>(now_us() % 100000000), p.index,
                         static_cast<int>(type.size()), type.data());
        if (type == "redirect") {  // a cluster's node sends it to the room's node
            auto url = client::node_ws_url(json::parse(text).value("url", std::string()), p.url);
            if (!url) throw std::runtime_error("a redirect to an address that cannot be used: " + std::string(text));
            ++redirects_;
            p.url = *url;
            p.redirected = true;
            p.conn->close();
        } else if (type == "decision") {
            // A random option, read without a JSON tree (the server's decisions are written
            // with "decision" before "options", and every option starts with its "piece").
            p.decision_at_us = now_us();
            p.decision = string_field(text, "decision");
            std::array<int, 16> pieces{};
            std::size_t n = 0;
            static constexpr std::string_view key = "\"piece\":";
            for (auto at = text.find(key, text.find("\"options\"")); at != std::string_view::npos && n < pieces.size();
                 at = text.find(key, at + key.size()))
                pieces[n++] = std::atoi(text.data() + at + key.size());
            if (n == 0) throw std::runtime_error("a decision without options: " + std::string(text));
            const int piece = pieces[rng_.uniform(static_cast<std::uint32_t>(n))];
            p.conn->send("{\"type\":\"choose\",\"decision\":\"" + p.decision + "\",\"piece\":" + std::to_string(piece) + "}");
        } else if (type == "choice_accepted") {
            if (p.decision_at_us) {
                rtt_.add(now_us() - p.decision_at_us);
                p.decision_at_us = 0;
            }
            ++decisions_;
        } else if (type == "commitment") {
            send(p, protocol::SubmitClientSeed{"load"});
        } else if (type == "joined" && p.room && p.index == 0 && p.room->code.empty()) {
            const json m = json::parse(text);
            p.room->code = m.at("room").get<std::string>();
            for (int i = 1; i < a_.players; ++i) open_player(p.room, i);
            for (int i = 0; i < a_.slow_per_room(); ++i) open_player(p.room, 100 + i, true);
        } else if (type == "room" && p.room && p.index == 0) {
            // The host starts a game whenever the room is full and back in its lobby.
            if (text.find("\"state\":\"lobby\"") != std::string_view::npos) {
                // Every seat taken: a snapshot lists the free seats too ("free": true).
                const json m = json::parse(text);
                const auto& seats = m.at("seats");
                const auto taken = std::count_if(seats.begin(), seats.end(),
                                                 [](const json& s) { return !s.value("free", false); });
                if (taken == a_.players) send(p, protocol::Start{});
            }
        } else if (type == "game_over") {
            if (p.index == 0) {
                ++games_;
                p.room->games++;
            }
        } else if (type == "error") {
            const json m = json::parse(text);
            const std::string code = m.value("code", std::string("?"));
            if (a_.trace) std::fprintf(stderr, "  %.*s\n", static_cast<int>(text.size()), text.data());
            ++errors_[code];
            // A host that starts games faster than the server's message limit tries again.
            if (code == "rate_limited" && p.index == 0 && p.room)
                loop_.after(std::chrono::milliseconds(500), [this, &p] {
                    send(p, protocol::Start{});
                });
        } else if (type == "welcome" && !p.room) {
            ++idle_ready_;
        }
    }

    void on_close(Player& p, const std::string& reason) {
        if (std::exchange(p.redirected, false)) return connect(p);
        if (p.slow) return;
        if (!stopping_) {
            ++closed_[reason.substr(0, 60)];
        }
    }

    void schedule_measure() {
        // Warm-up (after every connection is open), then the measured window.
        loop_.after(std::chrono::milliseconds(200), [this] {
            if (!opened_all_) return schedule_measure();
            const double since_open = std::chrono::duration<double>(Clock::now() - *opened_all_).count();
            if (since_open < a_.warmup) return schedule_measure();
            begin_window();
            loop_.after(std::chrono::milliseconds(static_cast<long>(a_.duration * 1000)), [this] { end_window(); });
        });
    }

    // What is compared at the start and the end of the measured window.
    struct Sample {
        Clock::time_point at;
        std::uint64_t decisions = 0, games = 0;
        ProcSample proc;
        std::string metrics;  // the server's /metrics
    };
    Sample sample() {
        return {Clock::now(), decisions_, games_, sample_processes(a_.pid),
                http_get(url_, "/metrics")};
    }

    void begin_window() {
        rtt_.clear();
        w_ = sample();
        if (a_.duration >= 60) memory_trace_.push_back({0, w_.proc.rss_kb});
        trace_memory();
    }

    void trace_memory() {
        if (a_.pid.empty() || a_.duration < 60) return;
        loop_.after(std::chrono::seconds(10), [this] {
            if (stopping_) return;
            const double t = std::chrono::duration<double>(Clock::now() - w_.at).count();
            memory_trace_.push_back({t, sample_processes(a_.pid).rss_kb});
            trace_memory();
        });
    }

    void end_window() {
        end_ = sample();
        stopping_ = true;
        loop_.stop();
    }

    int report() {
        const double secs = std::chrono::duration<double>(end_.at - w_.at).count();
        if (secs <= 0) {
            std::cerr << "spookludo-load: stopped before the measured window ended\n";
            return 1;
        }
        const double decisions = static_cast<double>(end_.decisions - w_.decisions);
        const auto before = server_histogram(w_.metrics);
        const auto after = server_histogram(end_.metrics);
        const double server_out = metric(end_.metrics, "spookludo_messages_out_total") - metric(w_.metrics, "spookludo_messages_out_total");
        const double server_in = metric(end_.metrics, "spookludo_messages_in_total") - metric(w_.metrics, "spookludo_messages_in_total");
        json r;
        r["mode"] = a_.mode;
        r["rooms"] = a_.mode == "idle" ? 0 : a_.rooms;
        r["players_per_room"] = a_.players;
        r["game"] = a_.game;
        r["seconds"] = secs;
        r["games_finished"] = end_.games - w_.games;
        r["decisions"] = decisions;
        r["decisions_per_s"] = decisions / secs;
        r["server_messages_out_per_s"] = server_out / secs;
        r["server_messages_in_per_s"] = server_in / secs;
        const double journal_writes =
            metric(end_.metrics, "spookludo_journal_writes_total") - metric(w_.metrics, "spookludo_journal_writes_total");
        if (decisions > 0) r["server_journal_transactions_per_decision"] = journal_writes / decisions;
        r["client_rtt_us"] = {{"p50", rtt_.quantile(0.5)}, {"p95", rtt_.quantile(0.95)}, {"p99", rtt_.quantile(0.99)},
                              {"max", rtt_.max()}, {"n", rtt_.count()}};
        r["server_rtt_ms"] = {{"p50", histogram_quantile(before, after, 0.5)},
                              {"p95", histogram_quantile(before, after, 0.95)},
                              {"p99", histogram_quantile(before, after, 0.99)}};
        json errors = json::object();
        for (const auto& [code, n] : errors_) errors[code] = n;
        r["errors"] = errors;
        json closed = json::object();
        for (const auto& [why, n] : closed_) closed[why] = n;
        r["unexpected_closes"] = closed;
        if (urls_.size() > 1) {
            r["nodes"] = urls_.size();
            r["redirects"] = redirects_;
        }
        if (a_.slow) {
            r["slow_readers"] = a_.slow_per_room() * a_.rooms;
            // The server's count: a reader that never reads does not see its connection end.
            r["slow_readers_dropped"] = metric(end_.metrics, "spookludo_slow_readers_dropped_total");
        }
        if (!a_.pid.empty()) {
            const double cpu = end_.proc.cpu_s - w_.proc.cpu_s;
            r["server_cpu_s"] = cpu;
            r["server_cpu_share"] = cpu / secs;
            if (decisions > 0) r["server_cpu_us_per_decision"] = cpu * 1e6 / decisions;
            // What the server wrote to files (the journal's WAL and checkpoints, the log), per game.
            const double written = end_.proc.written - w_.proc.written;
            if (end_.games > w_.games) r["server_file_bytes_per_game"] = written / static_cast<double>(end_.games - w_.games);
            if (decisions > 0) r["server_file_bytes_per_decision"] = written / decisions;
            r["server_rss_kb"] = {{"before", base_.rss_kb}, {"end", end_.proc.rss_kb}};
            const double grown = static_cast<double>(end_.proc.rss_kb - base_.rss_kb) * 1024.0;
            if (a_.mode == "idle") {
                r["server_rss_bytes_per_connection"] = grown / a_.connections;
                r["idle_connections_ready"] = idle_ready_;
            } else {
                r["server_rss_bytes_per_room"] = grown / a_.rooms;
                r["server_rss_bytes_per_connection"] = grown / (a_.rooms * a_.players);
            }
            if (!memory_trace_.empty()) {
                json trace = json::array();
                for (const auto& [t, kb] : memory_trace_) trace.push_back({t, kb});
                r["server_rss_trace_kb"] = trace;
            }
        }
        if (a_.json_out) {
            std::cout << r.dump(2) << "\n";
        } else {
            print_human(r);
        }
        return 0;
    }

    static void print_human(const json& r) {
        std::printf("mode %s: %s\n", r["mode"].get<std::string>().c_str(), r.dump().c_str());
        const auto& c = r["client_rtt_us"];
        std::printf("\n  %.0f s measured; %lld games finished; %.0f decisions/s\n", r["seconds"].get<double>(),
                    r["games_finished"].get<long long>(), r["decisions_per_s"].get<double>());
        std::printf("  server messages: %.0f out/s, %.0f in/s\n", r["server_messages_out_per_s"].get<double>(),
                    r["server_messages_in_per_s"].get<double>());
        std::printf("  decision round trip, client: p50 %.0f us, p95 %.0f us, p99 %.0f us, max %lld us (%llu)\n",
                    c["p50"].get<double>(), c["p95"].get<double>(), c["p99"].get<double>(), c["max"].get<long long>(),
                    c["n"].get<unsigned long long>());
        if (r.contains("server_cpu_us_per_decision"))
            std::printf("  server CPU: %.2f us per decision (%.0f %% of one core)\n",
                        r["server_cpu_us_per_decision"].get<double>(), 100 * r["server_cpu_share"].get<double>());
        if (r.contains("server_journal_transactions_per_decision"))
            std::printf("  journal: %.2f transactions per decision", r["server_journal_transactions_per_decision"].get<double>());
        if (r.contains("server_file_bytes_per_game"))
            std::printf(", %.0f bytes written to files per game finished", r["server_file_bytes_per_game"].get<double>());
        if (r.contains("server_journal_transactions_per_decision")) std::printf("\n");
        if (r.contains("server_rss_bytes_per_room"))
            std::printf("  server memory: %.0f bytes per room, %.0f per connection\n",
                        r["server_rss_bytes_per_room"].get<double>(), r["server_rss_bytes_per_connection"].get<double>());
        else if (r.contains("server_rss_bytes_per_connection"))
            std::printf("  server memory: %.0f bytes per idle connection\n", r["server_rss_bytes_per_connection"].get<double>());
        if (r.contains("slow_readers"))
            std::printf("  slow readers: %lld, dropped by the server: %lld (during the whole run)\n",
                        r["slow_readers"].get<long long>(), static_cast<long long>(r["slow_readers_dropped"].get<double>()));
    }

    const Args& a_;
    Rng rng_;
    client::EventLoop loop_;
    client::Url url_;               // the first node: /metrics
    std::vector<client::Url> urls_;  // every node
    std::uint64_t redirects_ = 0;
    std::vector<std::unique_ptr<Room>> rooms_;
    std::vector<std::unique_ptr<Player>> players_;
    Histogram rtt_;
    std::uint64_t decisions_ = 0, games_ = 0;
    std::uint64_t idle_ready_ = 0;
    std::map<std::string, std::uint64_t> errors_, closed_;
    Clock::time_point start_;
    std::optional<Clock::time_point> opened_all_;
    ProcSample base_;
    Sample w_, end_;  // the measured window's start and end
    std::vector<std::pair<double, long>> memory_trace_;
    bool stopping_ = false;
};

int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    CLI::App app{"spookludo-load: a load generator for spookludo-server (rooms of bot players, games back to back)",
                 "spookludo-load"};
    app.set_version_flag("--version", std::string("spookludo-load ") + SPOOKLUDO_VERSION);
    app.footer(
        "Examples (start the server here, measure it, stop it):\n"
        "  spookludo-load --spawn build/release/server/spookludo-server --mode full --rooms 50 --duration 20\n"
        "  spookludo-load --spawn build/release/server/spookludo-server --mode paced --rooms 1000 --duration 60\n"
        "  spookludo-load --spawn build/release/server/spookludo-server --mode idle --connections 5000\n"
        "  spookludo-load --spawn build/release/server/spookludo-server --mode full --rooms 50 --slow 1\n"
        "  spookludo-load --spawn build/release/server/spookludo-server --tls --mode paced --rooms 1000\n"
        "Against a running server: --url ws://127.0.0.1:7777 --pid PID (the pid for CPU and memory), or\n"
        "--url wss://HOST:PORT --ca-file CA.pem for a TLS server whose certificate is not publicly trusted.\n"
        "The server needs limits above the load: --spawn passes --max-rooms, --max-connections and\n"
        "--max-connections-per-address to match (and, with --tls, --tls-handshakes-per-second 0), and lifts the bound on rooms per address (every room is\n"
        "created from 127.0.0.1) with SPOOKLUDO_MAX_ROOMS_PER_ADDRESS=0 in the server's environment (a\n"
        "server from before that bound ignores it), and the hosts' message rate with\n"
        "SPOOKLUDO_MAX_MESSAGES_PER_SECOND=100000 (at full speed a host starts a game as soon as one ends).\n"
        "A server started elsewhere for --url needs the same (--max-rooms-per-address 0\n"
        "--max-messages-per-second 100000, or those variables): by default one address holds at most 10 rooms.\n"
        "Exit status: 0 measured and reported; 1 stopped before the measured window ended; 2 a usage error\n"
        "(an unknown option, a bad value, neither or both of --url and --spawn) or the load could not run.");
    app.add_option("--url", a.url,
                   "A running server, ws://HOST:PORT or wss://HOST:PORT; several (comma-separated, or --url again): a "
                   "cluster's nodes, each room created and joined through them in turn (redirects followed)")
        ->delimiter(',');
    app.add_option("--ca-file", a.ca_file, "wss://: trust this PEM file (the server's CA or self-signed certificate)");
    app.add_flag("--tls", a.tls, "With --spawn: serve TLS (a self-signed certificate for 127.0.0.1 made here) and connect with wss://");
    app.add_option("--spawn", a.spawn, "Start this server binary on a free loopback port (and stop it at the end)");
    app.add_option("--server-args", a.server_args, "Extra arguments for the spawned server (one string)");
    app.add_option("--pid", a.pid,
                   "The running server's process id (CPU time and memory from /proc); several: a cluster's nodes, summed")
        ->delimiter(',');
    app.add_option("--mode", a.mode, "full, paced or idle")->check(CLI::IsMember({"full", "paced", "idle"}));
    app.add_option("--rooms", a.rooms, "Rooms (full, paced)")->check(CLI::Range(1, 100000));
    app.add_option("--players", a.players, "Bot players a room")->check(CLI::Range(1, 8));
    app.add_option("--game", a.game, "spook or ludo")->check(CLI::IsMember({"spook", "ludo"}));
    app.add_option("--pieces", a.pieces, "Spook pieces")->check(CLI::Range(1, 3));
    app.add_option("--pace-ms", a.pace_ms, "Paced mode: the rooms' pause between steps (each room within 10 % of it)")->check(CLI::Range(0, 10000));
    app.add_option("--duration", a.duration, "Seconds measured");
    app.add_option("--warmup", a.warmup, "Seconds after the last connection opened before measuring");
    app.add_option("--connections", a.connections, "Idle mode: connections held open")->check(CLI::Range(1, 1000000));
    app.add_option("--slow", a.slow, "Slow readers (spectators that never read) in each room")->check(CLI::Range(0, 8));
    app.add_option("--ramp", a.ramp_per_s, "New connections a second");
    app.add_flag("--json", a.json_out, "Print the report as JSON");
    app.add_flag("--trace", a.trace, "Print every message of the first room with a timestamp (us) on stderr");
    app.add_option("--seed", a.seed, "Seed of the bots' random choices");
    if (const auto usage = spookludo::parse_command_line(app, argc, argv)) return *usage;
    if (a.tls && a.spawn.empty()) {
        std::cerr << "spookludo-load: --tls goes with --spawn (for a running TLS server give --url wss://...)\n";
        return spookludo::kUsageError;
    }
    if (a.url.empty() == a.spawn.empty()) {
        std::cerr << "spookludo-load: give --url (a running server) or --spawn (a server binary to start)\n"
                     "Run 'spookludo-load --help' for the usage and the exit statuses.\n";
        return spookludo::kUsageError;
    }
    ::signal(SIGPIPE, SIG_IGN);
    pid_t child = 0;
    if (!a.spawn.empty()) {
        const int port = free_port();
        const int conns = (a.mode == "idle" ? a.connections : a.rooms * (a.players + a.slow)) + 100;
        std::vector<std::string> args{a.spawn,
                                      "--bind", "127.0.0.1",
                                      "--port", std::to_string(port),
                                      "--log-level", "warn",
                                      "--data-dir", "/tmp/spookludo-load-" + std::to_string(::getpid()),
                                      "--max-rooms", std::to_string(a.rooms + 10),
                                      "--max-connections", std::to_string(conns),
                                      "--max-connections-per-address", std::to_string(conns),
                                      "--records-kept", "100"};
        if (a.tls) {
            const std::string dir = "/tmp/spookludo-load-" + std::to_string(::getpid());
            std::filesystem::create_directories(dir);
            a.ca_file = dir + "/cert.pem";
            make_loopback_certificate(a.ca_file, dir + "/key.pem");
            // Every client connects from 127.0.0.1: no limit on its handshakes.
            for (const std::string& s : {std::string("--tls-cert"), a.ca_file, std::string("--tls-key"), dir + "/key.pem",
                                         std::string("--tls-handshakes-per-second"), std::string("0")})
                args.push_back(s);
        }
        std::istringstream extra(a.server_args);
        for (std::string s; extra >> s;) args.push_back(s);
        // Every room comes from this machine's one address: no bound on rooms per address. Said in
        // the environment the server inherits, not as a flag, so that an older server (an A B
        // comparison) still starts; --server-args may still give the flag, which wins.
        ::setenv("SPOOKLUDO_MAX_ROOMS_PER_ADDRESS", "0", 1);
        // At full speed a host starts its next game as soon as one ends: more than the 20 messages
        // a second a connection may send by default (answers and seeds are never limited).
        ::setenv("SPOOKLUDO_MAX_MESSAGES_PER_SECOND", "100000", 1);
        child = ::fork();
        if (child == 0) {
            // The server's own output would mix with the report (--json).
            const int null = ::open("/dev/null", O_WRONLY);
            if (null >= 0) ::dup2(null, STDOUT_FILENO);
            std::vector<char*> argv2;
            for (auto& s : args) argv2.push_back(s.data());
            argv2.push_back(nullptr);
            ::execv(argv2[0], argv2.data());
            std::perror("spookludo-load: cannot start the server");
            ::_exit(127);
        }
        a.url = {(a.tls ? "wss://127.0.0.1:" : "ws://127.0.0.1:") + std::to_string(port)};
        a.pid = {child};
        // Wait for /healthz (the board pools are solved at start-up).
        client::Url server;
        server.tls = a.tls;
        server.host = "127.0.0.1";
        server.port = std::to_string(port);
        server.ca_file = a.ca_file;
        for (int i = 0; i < 300 && http_get(server, "/healthz").empty(); ++i) ::usleep(100000);
        // And until it is idle: it solves its board pools at start-up, which would count as load.
        for (int i = 0; i < 200; ++i) {
            const double before = sample_process(child).cpu_s;
            ::usleep(300000);
            if (sample_process(child).cpu_s - before < 0.03) break;
        }
    }
    int rc = 0;
    try {
        Load load(a);
        rc = load.run();
    } catch (const std::exception& e) {
        std::cerr << "spookludo-load: " << e.what() << "\n";
        rc = 2;
    }
    if (child > 0) {
        ::kill(child, SIGTERM);
        int status = 0;
        ::waitpid(child, &status, 0);
        std::error_code ec;
        std::filesystem::remove_all("/tmp/spookludo-load-" + std::to_string(::getpid()), ec);
    }
    return rc;
}
