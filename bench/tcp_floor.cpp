// tcp_floor: what one decision costs a server that does nothing but the network part of it,
// over loopback TCP on this machine. A "server" process keeps C connections; for each, it
// writes one message of --size bytes (a round's messages to a player, in one write) and reads
// one answer of --answer bytes, again and again; a "client" process answers each message at
// once. Both use plain epoll, no WebSocket, no JSON, no game: the server's CPU time per answer
// is the floor under spookludo-server's CPU per decision, which needs at least this one write and
// one read per decision. Both processes share the machine's cores, as in spookludo-load.
//
// --pace-ms P: the party-pace floor. The server writes to each connection once every P ms (the
// connections spread evenly over the period) instead of as soon as the answer is in: what the
// network alone costs at the pace people play, to read spookludo-server's party-pace figure against.
//
// --writes N: a decision's bytes leave in N writes instead of one (at full speed one after the
// other; at party pace at N moments of the period, as a round's roll, acceptance, moves and
// activation do), still with one answer: the floor of a protocol that writes N times a decision.
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cpu_time.h"

#include "spookludo/command_line.h"

namespace {

void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string(what) + ": " + std::strerror(errno));
}

// Writes `out` in `parts` writes of equal size (`out`'s size is a multiple of `parts`).
bool write_parts(int fd, const std::string& out, std::size_t parts) {
    const std::size_t part = out.size() / parts;
    for (std::size_t i = 0; i < parts; ++i)
        if (::write(fd, out.data() + i * part, part) != static_cast<ssize_t>(part)) return false;
    return true;
}

// Reads whatever has arrived and, for every whole message of `in` bytes, writes `out` bytes in
// `parts` writes. Returns the number of whole messages, or -1 when the peer is gone.
long serve(int fd, std::vector<char>& pending, std::size_t in, const std::string& out, std::size_t parts) {
    char buffer[65536];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) return -1;
    if (n < 0) return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    pending.insert(pending.end(), buffer, buffer + n);
    long whole = 0;
    while (pending.size() >= in) {
        pending.erase(pending.begin(), pending.begin() + static_cast<long>(in));
        ++whole;
    }
    for (long i = 0; i < whole; ++i)
        if (!write_parts(fd, out, parts)) return -1;
    return whole;
}

// An epoll instance watching every connection for reading, each under its index.
int watch_all(const std::vector<int>& fds) {
    const int ep = epoll_create1(0);
    for (std::size_t i = 0; i < fds.size(); ++i) {
        epoll_event e{};
        e.events = EPOLLIN;
        e.data.u64 = i;
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &e);
    }
    return ep;
}

long loop(const std::vector<int>& fds, std::size_t in, const std::string& out, double seconds, std::size_t parts = 1) {
    const int ep = watch_all(fds);
    std::vector<std::vector<char>> pending(fds.size());
    long total = 0;
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    epoll_event events[256];
    while (std::chrono::steady_clock::now() < end) {
        const int n = epoll_wait(ep, events, 256, 100);
        for (int i = 0; i < n; ++i) {
            const auto k = events[i].data.u64;
            const long r = serve(fds[k], pending[k], in, out, parts);
            if (r < 0) return total;
            total += r;
        }
    }
    ::close(ep);
    return total;
}

// The party-pace floor: each connection written to every `pace` (spread over the period, in
// turn; in `parts` writes at as many moments of the period), its answers read and counted.
// Returns the answers read.
long paced_loop(const std::vector<int>& fds, std::size_t in, const std::string& out, std::chrono::milliseconds pace,
                double seconds, std::size_t parts) {
    using Clock = std::chrono::steady_clock;
    const int ep = watch_all(fds);
    std::vector<std::size_t> pending(fds.size(), 0);  // bytes of an answer read so far
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    const auto gap = std::chrono::duration_cast<Clock::duration>(pace) /
                     static_cast<long>(std::max<std::size_t>(fds.size(), 1) * parts);
    const std::size_t part = out.size() / parts;
    std::size_t next = 0;  // the next connection to write to, at start + writes * gap
    long writes = 0, total = 0;
    epoll_event events[256];
    char buffer[65536];
    for (auto now = Clock::now(); now < end; now = Clock::now()) {
        for (; start + writes * gap <= now; ++writes, next = (next + 1) % fds.size())
            if (::write(fds[next], out.data(), part) != static_cast<ssize_t>(part)) return total;
        // Sleeps until the next write is due (whole milliseconds, rounded up: the writes that fall
        // due within a millisecond go out together, as a server's timers would have them).
        const auto wait = std::chrono::ceil<std::chrono::milliseconds>(start + writes * gap - Clock::now());
        const int n = epoll_wait(ep, events, 256, static_cast<int>(std::clamp<long>(wait.count(), 1, 100)));
        for (int i = 0; i < n; ++i) {
            const auto k = events[i].data.u64;
            const ssize_t got = ::read(fds[k], buffer, sizeof buffer);
            if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) return total;
            if (got < 0) continue;
            pending[k] += static_cast<std::size_t>(got);
            total += static_cast<long>(pending[k] / in);
            pending[k] %= in;
        }
    }
    ::close(ep);
    return total;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"tcp_floor: the CPU a server spends per decision on loopback TCP alone (one write, one read)",
                 "tcp_floor"};
    app.set_version_flag("--version", std::string("tcp_floor ") + SPOOKLUDO_VERSION);
    app.footer("Exit status: 0 measured; 1 a socket call failed (named); 2 a usage error (an unknown option, a bad\n"
               "value: the message names it).");
    int connections = 200;
    std::size_t size = 700, answer = 60;
    double duration = 10, warmup = 2;
    int pace_ms = 0;
    std::size_t parts = 1;
    app.add_option("--connections", connections, "Connections (spookludo-load's 50 rooms of 4: 200)")->capture_default_str();
    app.add_option("--size", size, "Bytes the server writes per decision (a Spook round's messages to a player: about 700)")
        ->capture_default_str();
    app.add_option("--answer", answer, "Bytes of each answer (a masked choose frame: about 60)")->capture_default_str();
    app.add_option("--duration", duration, "Seconds measured")->capture_default_str();
    app.add_option("--warmup", warmup, "Seconds before measuring")->capture_default_str();
    app.add_option("--pace-ms", pace_ms,
                   "The party-pace floor: write to each connection once every this many ms (spread evenly), not as "
                   "soon as it answered; 0: as fast as the answers come")
        ->check(CLI::Range(0, 60000))
        ->capture_default_str();
    app.add_option("--writes", parts,
                   "Writes a decision's bytes leave in (one answer still): at full speed one after the other, at "
                   "party pace at as many moments of the period")
        ->check(CLI::Range(1, 16))
        ->capture_default_str();
    if (const auto usage = spookludo::parse_command_line(app, argc, argv)) return *usage;
    size -= size % parts;  // in equal parts
    try {
        ::signal(SIGPIPE, SIG_IGN);
        // Thousands of connections at party pace: as many open files as the system allows.
        rlimit files{};
        if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
            files.rlim_cur = files.rlim_max;
            ::setrlimit(RLIMIT_NOFILE, &files);
        }

        const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        check(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0, "bind");
        socklen_t len = sizeof addr;
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
        check(::listen(listener, 1024) == 0, "listen");

        const pid_t child = ::fork();
        if (child == 0) {  // the clients: answer every message
            std::vector<int> fds;
            for (int i = 0; i < connections; ++i) {
                const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
                check(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0, "connect");
                const int one = 1;
                ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                fds.push_back(fd);
            }
            loop(fds, size, std::string(answer, 'a'), warmup + duration + 5);
            ::_exit(0);
        }
        std::vector<int> fds;
        for (int i = 0; i < connections; ++i) {
            const int fd = ::accept(listener, nullptr, nullptr);
            check(fd >= 0, "accept");
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            fds.push_back(fd);
        }
        const std::string message(size, 'm');
        const auto pace = std::chrono::milliseconds(pace_ms);
        if (pace_ms == 0) {
            for (int fd : fds) check(write_parts(fd, message, parts), "write");
            loop(fds, answer, message, warmup, parts);
        } else {
            paced_loop(fds, answer, message, pace, warmup, parts);
        }
        const double cpu0 = spookludo::bench::process_cpu_seconds();
        const auto t0 = std::chrono::steady_clock::now();
        const long answers =
            pace_ms == 0 ? loop(fds, answer, message, duration, parts) : paced_loop(fds, answer, message, pace, duration, parts);
        const double cpu = spookludo::bench::process_cpu_seconds() - cpu0;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (int fd : fds) ::close(fd);
        ::kill(child, SIGTERM);
        ::waitpid(child, nullptr, 0);
        std::printf("connections %d%s, %zu bytes out in %zu write%s and %zu in per decision: %.0f decisions/s, server CPU "
                    "%.2f us per decision (%.0f %% of one core)\n",
                    connections, pace_ms ? (", each written every " + std::to_string(pace_ms) + " ms").c_str() : "",
                    size, parts, parts == 1 ? "" : "s", answer, static_cast<double>(answers) / wall, cpu * 1e6 / static_cast<double>(answers),
                    100 * cpu / wall);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tcp_floor: %s\n", e.what());
        return 1;
    }
    return 0;
}
