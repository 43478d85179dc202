#pragma once
// The server binary for the end-to-end tests (test_e2e.cpp, test_play_flow.cpp): on a free
// loopback port with a fresh data directory, and client programs run against it.
#include <signal.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "process_util.h"

namespace spookludo::testing {

using namespace std::chrono_literals;

const std::string kServerBinary = SPOOKLUDO_SERVER_BINARY;
const std::string kClientBinary = SPOOKLUDO_CLIENT_BINARY;

// The server on a free loopback port, with a fresh data directory; stop() checks that it ends
// cleanly on SIGTERM.
class Server {
public:
    explicit Server(std::vector<std::string> extra = {}) : dir_("spookludo-e2e") {
        std::vector<std::string> argv{kServerBinary, "--port", "0", "--bind", "127.0.0.1", "--data-dir",
                                      dir_ / "data", "--export-records", dir_ / "records", "--pid-file",
                                      dir_ / "server.pid", "--pace-ms", "0",
                                      "--log-level", "info"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        SpawnOptions o;
        o.stdout_file = dir_ / "server.log";
        o.stderr_file = o.stdout_file;
        process_ = std::make_unique<Process>(argv, o);
        REQUIRE_MESSAGE(process_->wait_for_text("listening on 127.0.0.1:", patience(10s)), process_->describe());
        port_ = std::stoi(word_after(process_->out(), "listening on 127.0.0.1:"));
    }
    ~Server() {
        if (process_->running()) {
            process_->signal(SIGTERM);
            process_->wait(patience(10s));
        }
    }

    int port() const { return port_; }
    std::string url() const { return "ws://127.0.0.1:" + std::to_string(port_); }
    const TempDir& dir() const { return dir_; }
    // The server exports the records there (--export-records), for the tests to read.
    std::string record_file(const std::string& game_id) const {
        return (dir_.path() / "records" / (game_id + ".json")).string();
    }

    // A client program with its stdout and stderr in files of the test's directory named after
    // `label` (on a pty, stdout is the terminal).
    std::unique_ptr<Process> client(const std::string& label, std::vector<std::string> args, SpawnOptions o = {}) {
        args.insert(args.begin(), kClientBinary);
        if (!o.pty) o.stdout_file = dir_ / (label + ".out");
        o.stderr_file = dir_ / (label + ".err");
        return std::make_unique<Process>(args, o);
    }

    // Runs a client program to its end (with a deadline) and returns it.
    std::unique_ptr<Process> run(const std::string& label, std::vector<std::string> args,
                                 std::chrono::milliseconds timeout = patience(20s)) {
        auto p = client(label, std::move(args));
        const auto status = p->wait(timeout);
        CHECK_MESSAGE(status.has_value(), "still running after the deadline:\n" << p->describe());
        return p;
    }

    void stop() {
        process_->signal(SIGTERM);
        const auto status = process_->wait(patience(10s));
        CHECK_MESSAGE(status == 0, "the server did not end cleanly on SIGTERM:\n" << process_->describe());
    }

    std::string log() { return process_->out(); }
    // Waits until the server's log has `text`; false when it has not within `timeout`.
    bool wait_for_log(const std::string& text, std::chrono::milliseconds timeout) {
        return process_->wait_for_text(text, timeout);
    }

    // The server dies at once (a crash, a power cut): no closing message for anyone.
    void kill() {
        process_->signal(SIGKILL);
        process_->wait(patience(10s));
    }

private:
    TempDir dir_;
    std::unique_ptr<Process> process_;
    int port_ = 0;
};

}  // namespace spookludo::testing
