#include "redis_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>
#include <thread>

namespace spookludo::testing {

std::uint16_t free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        throw std::runtime_error("no free port");
    ::close(fd);
    return ntohs(a.sin_port);
}

bool eventually(const std::function<bool()>& what, std::chrono::milliseconds within, std::chrono::milliseconds every) {
    const auto until = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < until) {
        if (what()) return true;
        std::this_thread::sleep_for(every);
    }
    return what();
}

namespace {

bool answers(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

}  // namespace

RedisServer::RedisServer(bool persistent) : persistent_(persistent), port_(free_port()) { start(); }

RedisServer::~RedisServer() {
    if (process_) {
        process_->signal(SIGCONT);
        stop();
    }
}

void RedisServer::start() {
    std::vector<std::string> argv{"/usr/bin/redis-server", "--port", std::to_string(port_), "--bind", "127.0.0.1",
                                  "--dir", dir_.path().string(), "--save", "", "--daemonize", "no",
                                  "--protected-mode", "no"};
    if (persistent_) {
        argv.insert(argv.end(), {"--appendonly", "yes", "--appendfsync", "everysec"});
    } else {
        argv.insert(argv.end(), {"--appendonly", "no"});
    }
    SpawnOptions o;
    o.stdout_file = dir_ / "redis.log";
    o.stderr_file = dir_ / "redis.log";
    process_ = std::make_unique<Process>(argv, o);
    for (int i = 0; i < 500; ++i) {
        if (answers(port_)) return;
        if (!process_->running()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    throw std::runtime_error("redis-server did not start on port " + std::to_string(port_) + ": " + process_->out());
}

void RedisServer::stop() {
    if (!process_) return;
    process_->signal(SIGTERM);
    process_->wait(std::chrono::seconds(10));
    process_.reset();
}

void RedisServer::pause() {
    if (process_) process_->signal(SIGSTOP);
}

void RedisServer::resume() {
    if (process_) process_->signal(SIGCONT);
}

}  // namespace spookludo::testing
