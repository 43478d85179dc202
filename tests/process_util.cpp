#include "process_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace spookludo::testing {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

TempDir::TempDir(const std::string& prefix) {
    std::string pattern = (fs::temp_directory_path() / (prefix + ".XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed: " + std::string(std::strerror(errno)));
    path_ = pattern;
}

TempDir::~TempDir() {
    if (std::getenv("SPOOKLUDO_KEEP_TEST_DIRS")) return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

namespace {

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void exec_child(char* const* argv) {
    ::execv(argv[0], argv);
    static const char msg[] = "exec failed\n";
    [[maybe_unused]] const auto n = ::write(2, msg, sizeof msg - 1);
    ::_exit(127);
}

int open_output(const std::string& path) {
    if (path.empty()) return ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    return fd;
}

}  // namespace

Process::Process(std::vector<std::string> argv, SpawnOptions options) : argv_(std::move(argv)), options_(std::move(options)) {
    if (argv_.empty()) throw std::invalid_argument("Process: no program");
    // Everything the child needs is prepared before the fork.
    std::vector<char*> args;
    for (auto& a : argv_) args.push_back(a.data());
    args.push_back(nullptr);
    // Truncate the output files once; both streams append (so one file for both works).
    for (const auto* f : {&options_.stdout_file, &options_.stderr_file})
        if (!f->empty()) std::ofstream(*f, std::ios::trunc);
    const int out_fd = options_.pty ? -1 : open_output(options_.stdout_file);
    const int err_fd = (options_.pty && options_.stderr_file.empty()) ? -1 : open_output(options_.stderr_file);
    int in_pipe[2] = {-1, -1};
    if (options_.stdin_pipe && !options_.pty && ::pipe2(in_pipe, O_CLOEXEC) != 0)
        throw std::runtime_error("pipe2 failed");
    const int null_in = (!options_.pty && !options_.stdin_pipe) ? ::open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;

    // The environment of the child: ours with the changes applied.
    std::vector<std::string> env_strings;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        const auto eq = entry.find('=');
        const std::string name = entry.substr(0, eq);
        bool replaced = false;
        for (const auto& [n, v] : options_.env) replaced = replaced || n == name;
        if (!replaced) env_strings.push_back(entry);
    }
    for (const auto& [n, v] : options_.env)
        if (v) env_strings.push_back(n + "=" + *v);
    std::vector<char*> envp;
    for (auto& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);

    if (options_.pty) {
        winsize ws{};
        ws.ws_col = options_.cols;
        ws.ws_row = options_.rows;
        int master = -1;
        pid_ = ::forkpty(&master, nullptr, nullptr, &ws);
        if (pid_ == 0) {
            if (err_fd >= 0) ::dup2(err_fd, 2);
            environ = envp.data();
            exec_child(args.data());
        }
        if (pid_ > 0) {
            pty_fd_ = master;
            ::fcntl(pty_fd_, F_SETFD, FD_CLOEXEC);
            ::fcntl(pty_fd_, F_SETFL, ::fcntl(pty_fd_, F_GETFL) | O_NONBLOCK);
            stdin_fd_ = master;
        }
    } else {
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(options_.stdin_pipe ? in_pipe[0] : null_in, 0);
            ::dup2(out_fd, 1);
            ::dup2(err_fd, 2);
            environ = envp.data();
            exec_child(args.data());
        }
        if (options_.stdin_pipe) {
            ::close(in_pipe[0]);
            stdin_fd_ = in_pipe[1];
        }
    }
    for (const int fd : {out_fd, err_fd, null_in})
        if (fd >= 0) ::close(fd);
    if (pid_ < 0) throw std::runtime_error("fork failed: " + std::string(std::strerror(errno)));
}

Process::~Process() {
    if (pid_ > 0 && !status_) {
        ::kill(pid_, SIGKILL);
        reap(true);
    }
    if (stdin_fd_ >= 0 && stdin_fd_ != pty_fd_) ::close(stdin_fd_);
    if (pty_fd_ >= 0) ::close(pty_fd_);
}

std::string Process::command() const {
    std::string c;
    for (const auto& a : argv_) c += (c.empty() ? "" : " ") + a;
    return c;
}

void Process::drain_pty() {
    if (pty_fd_ < 0) return;
    char buffer[8192];
    for (;;) {
        const auto n = ::read(pty_fd_, buffer, sizeof buffer);
        if (n > 0) {
            pty_out_.append(buffer, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        return;  // EAGAIN: nothing more now; EIO or 0: the terminal's other side is closed
    }
}

std::string Process::out() {
    if (options_.pty) {
        drain_pty();
        return pty_out_;
    }
    return options_.stdout_file.empty() ? std::string() : read_file(options_.stdout_file);
}

std::string Process::err() {
    if (options_.pty && options_.stderr_file.empty()) return {};
    return options_.stderr_file.empty() ? std::string() : read_file(options_.stderr_file);
}

bool Process::reap(bool block) {
    if (status_) return true;
    int st = 0;
    pid_t r;
    do {
        r = ::waitpid(pid_, &st, block ? 0 : WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r != pid_) return false;
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
    return true;
}

bool Process::running() {
    drain_pty();
    return !reap(false);
}

namespace {
// A short pause between looks: on the terminal (any output wakes us) or the clock.
void pause(int pty_fd) {
    if (pty_fd >= 0) {
        pollfd p{pty_fd, POLLIN, 0};
        ::poll(&p, 1, 20);
    } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}
}  // namespace

bool Process::wait_for(const std::function<bool(const std::string&)>& done, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (done(out())) return true;
        if (!running()) return done(out());
        if (Clock::now() > deadline) return false;
        pause(pty_fd_);
    }
}

bool Process::wait_for_text(std::string_view text, std::chrono::milliseconds timeout) {
    return wait_for([text](const std::string& o) { return o.find(text) != std::string::npos; }, timeout);
}

void Process::write(std::string_view bytes) {
    if (stdin_fd_ < 0) throw std::logic_error("Process::write: stdin is not a pipe or a terminal");
    std::size_t at = 0;
    while (at < bytes.size()) {
        const auto n = ::write(stdin_fd_, bytes.data() + at, bytes.size() - at);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
            pause(-1);
            continue;
        }
        if (n <= 0) return;  // the program has gone
        at += static_cast<std::size_t>(n);
    }
}

void Process::close_stdin() {
    if (stdin_fd_ >= 0 && stdin_fd_ != pty_fd_) ::close(stdin_fd_);
    if (stdin_fd_ != pty_fd_) stdin_fd_ = -1;
}

void Process::signal(int sig) {
    if (pid_ > 0 && !status_) ::kill(pid_, sig);
}

std::optional<int> Process::wait(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (!running()) return status_;
        if (Clock::now() > deadline) return std::nullopt;
        pause(pty_fd_);
    }
}

std::string Process::describe() {
    const auto tail = [](std::string s) {
        s = strip_escapes(s);
        return s.size() > 3000 ? "..." + s.substr(s.size() - 3000) : s;
    };
    std::ostringstream o;
    o << "$ " << command() << "\n";
    o << "status: " << (status_ ? std::to_string(*status_) : (running() ? "running" : std::to_string(*status_))) << "\n";
    o << "--- stdout ---\n" << tail(out()) << "\n";
    if (const auto e = err(); !e.empty()) o << "--- stderr ---\n" << tail(e) << "\n";
    return o.str();
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string word_after(const std::string& text, std::string_view prefix) {
    const auto at = text.find(prefix);
    if (at == std::string::npos) return {};
    std::size_t end = at + prefix.size();
    while (end < text.size() && static_cast<unsigned char>(text[end]) > ' ') ++end;
    return text.substr(at + prefix.size(), end - at - prefix.size());
}

std::string line_word(const std::string& text, std::string_view prefix) {
    for (std::size_t at = 0; at < text.size();) {
        if (text.compare(at, prefix.size(), prefix) == 0) return word_after(text.substr(at), prefix);
        const auto nl = text.find('\n', at);
        if (nl == std::string::npos) break;
        at = nl + 1;
    }
    return {};
}

std::string strip_escapes(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\r') continue;
        if (c != '\x1b') {
            out += c;
            continue;
        }
        if (i + 1 >= text.size()) break;
        const char k = text[++i];
        if (k == '[') {  // CSI: parameters, then a final byte in @..~
            while (i + 1 < text.size() && !(text[i + 1] >= '@' && text[i + 1] <= '~')) ++i;
            ++i;
        } else if (k == ']') {  // OSC: up to BEL or ST
            while (i + 1 < text.size() && text[i + 1] != '\a' && text[i + 1] != '\x1b') ++i;
            ++i;
            if (i < text.size() && text[i] == '\x1b') ++i;
        } else if (k == '(' || k == ')') {
            ++i;
        }
    }
    return out;
}

ClosedPort::ClosedPort() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) throw std::runtime_error("bind failed");
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
}

ClosedPort::~ClosedPort() {
    if (fd_ >= 0) ::close(fd_);
}

Finished run_to_end(std::vector<std::string> argv, const TempDir& dir, const std::string& label,
                    std::chrono::milliseconds timeout) {
    SpawnOptions o;
    o.stdout_file = dir / (label + ".out");
    o.stderr_file = dir / (label + ".err");
    Process p(std::move(argv), o);
    const auto status = p.wait(patience(timeout));
    Finished r;
    r.described = p.describe();
    r.status = status.value_or(-1);
    r.out = p.out();
    r.err = p.err();
    return r;
}

ServerProcess::ServerProcess(std::string binary, const std::string& prefix)
    : binary_(std::move(binary)), dir_(prefix) {}

ServerProcess::~ServerProcess() {
    if (!process_) return;
    process_->signal(SIGTERM);
    process_->wait(patience(std::chrono::seconds(10)));
}

void ServerProcess::start(const std::vector<std::string>& extra) {
    SpawnOptions o;
    o.stdout_file = dir_ / "server.log";
    o.stderr_file = o.stdout_file;
    std::vector<std::string> argv{binary_, "--port", "0", "--bind", "127.0.0.1", "--data-dir", dir_ / "data",
                                  "--export-records", dir_ / "records", "--pace-ms", "0", "--log-level", "info"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    process_ = std::make_unique<Process>(argv, o);
    if (!process_->wait_for_text("listening on 127.0.0.1:", patience(std::chrono::seconds(10))))
        throw std::runtime_error("the server did not start:\n" + process_->describe());
    port_ = static_cast<std::uint16_t>(std::stoi(word_after(process_->out(), "listening on 127.0.0.1:")));
}

std::string ServerProcess::record_file(const std::string& id) const {
    return (dir_.path() / "records" / (id + ".json")).string();
}

}  // namespace spookludo::testing
