#pragma once
// A real redis-server for the cluster's tests (Debian's redis-server, installed by
// scripts/setup.sh test): started on a free loopback port in a directory of its own, stopped,
// paused (SIGSTOP: a Redis that hangs) and started again on the same port and data.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "process_util.h"

namespace spookludo::testing {

class RedisServer {
public:
    // `persistent`: append-only file with a sync every second (the cluster's journal setting).
    explicit RedisServer(bool persistent = false);
    ~RedisServer();
    std::uint16_t port() const noexcept { return port_; }
    std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
    void stop();   // SIGTERM and wait
    void start();  // again, same port and directory; waits until it answers
    void pause();  // SIGSTOP
    void resume(); // SIGCONT
    bool running() const noexcept { return process_ != nullptr; }

private:
    bool persistent_;
    TempDir dir_{"spookludo-redis"};
    std::uint16_t port_ = 0;
    std::unique_ptr<Process> process_;
};

// A loopback port nobody listens on now.
std::uint16_t free_port();

// Polls `what` every `every` until it holds or `within` has passed; its last answer.
bool eventually(const std::function<bool()>& what, std::chrono::milliseconds within,
                std::chrono::milliseconds every = std::chrono::milliseconds(50));

}  // namespace spookludo::testing
