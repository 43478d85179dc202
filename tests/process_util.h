#pragma once
// Real processes for the tests that run the programs themselves: start one (its output to a
// file, or on a pseudo-terminal), wait for what it prints with a deadline, type into it, signal
// it, and collect its exit status. A Process still running when it is destroyed is killed.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spookludo::testing {

// A fresh directory under the system's temporary directory, removed with everything in it
// when the object goes (kept when SPOOKLUDO_KEEP_TEST_DIRS is set, for a post-mortem).
class TempDir {
public:
    explicit TempDir(const std::string& prefix);
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const noexcept { return path_; }
    std::string operator/(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

struct SpawnOptions {
    // Where stdout and stderr go (ignored for a pty's stdout). Empty: /dev/null. The same file
    // for both is fine.
    std::string stdout_file;
    std::string stderr_file;
    // stdin is a pipe the test writes into (write()); otherwise /dev/null (or the pty).
    bool stdin_pipe = false;
    // Run on a new pseudo-terminal of this size: stdin and stdout are the terminal (stderr too
    // unless stderr_file is given); out() is what the program wrote to it.
    bool pty = false;
    unsigned short cols = 80;
    unsigned short rows = 24;
    // Environment changes: set NAME=VALUE, or unset NAME when the value is nullopt.
    std::vector<std::pair<std::string, std::optional<std::string>>> env;
};

class Process {
public:
    Process(std::vector<std::string> argv, SpawnOptions options = {});
    ~Process();
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    pid_t pid() const noexcept { return pid_; }
    // The command line, for failure messages.
    std::string command() const;

    // Everything written to stdout (the file, or the terminal) so far; err() the same for stderr.
    std::string out();
    std::string err();

    // Waits until `done(out())` holds; false when the deadline passes or the process exits
    // first (after one last look at its output).
    bool wait_for(const std::function<bool(const std::string&)>& done, std::chrono::milliseconds timeout);
    bool wait_for_text(std::string_view text, std::chrono::milliseconds timeout);

    // Writes to the pipe or terminal that is the program's stdin.
    void write(std::string_view bytes);
    void close_stdin();

    void signal(int sig);
    // Still running? (Reaps it when it has ended.)
    bool running();
    // Waits for the end: the exit status, 128 + N when killed by signal N, or nothing when it
    // is still running at the deadline.
    std::optional<int> wait(std::chrono::milliseconds timeout);
    // The exit status once it has ended.
    std::optional<int> status() const noexcept { return status_; }

    // A description for a failed check: the command, its status and the ends of its output.
    std::string describe();

private:
    void drain_pty();
    bool reap(bool block);

    std::vector<std::string> argv_;
    SpawnOptions options_;
    pid_t pid_ = -1;
    int pty_fd_ = -1;
    int stdin_fd_ = -1;
    std::string pty_out_;
    std::optional<int> status_;
};

// Text helpers for the programs' output.
std::string read_file(const std::string& path);
// The word that follows `prefix` in `text` (up to a space, a newline or a control character):
// "room ABCDE" -> ABCDE. Empty when absent.
std::string word_after(const std::string& text, std::string_view prefix);
// The same for a line that starts with `prefix` ("room ABCDE" but not "You are in room ...").
std::string line_word(const std::string& text, std::string_view prefix);
// The text with terminal escape sequences (CSI, OSC, charset) removed, carriage returns dropped.
std::string strip_escapes(std::string_view text);

// A loopback port that is bound but not listening: connecting to it is refused. Closed by the
// destructor.
class ClosedPort {
public:
    ClosedPort();
    ~ClosedPort();
    ClosedPort(const ClosedPort&) = delete;
    ClosedPort& operator=(const ClosedPort&) = delete;
    std::uint16_t port() const noexcept { return port_; }

private:
    int fd_ = -1;
    std::uint16_t port_ = 0;
};

// Generous deadlines under the sanitizers (the programs run several times slower there).
constexpr int kSlowdown =
#if defined(__SANITIZE_ADDRESS__)
    4;
#else
    1;
#endif
inline std::chrono::milliseconds patience(std::chrono::milliseconds base) { return base * kSlowdown; }

// A program run to its end: its exit status (-1: killed or still running at the deadline), what
// it wrote, and Process::describe() for a failure's message.
struct Finished {
    int status = -1;
    std::string out, err, described;
};
// Runs `argv` with stdout and stderr to `<dir>/<label>.out` and `.err`, waiting up to `timeout`
// (times the sanitizers' slowdown).
Finished run_to_end(std::vector<std::string> argv, const TempDir& dir, const std::string& label,
                    std::chrono::milliseconds timeout);

// The server binary on a free loopback port (--port 0, --bind 127.0.0.1) with a fresh data
// directory in its own TempDir, zero pace; stopped with SIGTERM by the destructor. Made in two
// steps so that a test can put files (certificates) in dir() before start().
class ServerProcess {
public:
    ServerProcess(std::string binary, const std::string& prefix);
    ~ServerProcess();
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;
    // Starts it with `extra` arguments and waits until it listens; throws std::runtime_error
    // with its output when it does not.
    void start(const std::vector<std::string>& extra = {});
    const TempDir& dir() const noexcept { return dir_; }
    std::uint16_t port() const noexcept { return port_; }
    // <dir>/records/<id>.json: the server exports the records there (--export-records)
    std::string record_file(const std::string& id) const;

private:
    std::string binary_;
    TempDir dir_;
    std::unique_ptr<Process> process_;
    std::uint16_t port_ = 0;
};

}  // namespace spookludo::testing
