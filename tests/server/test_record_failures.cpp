// When records cannot be written (issue #14, item 7): the server binary with a data directory
// it cannot create, a file size limit (as a full disk: the write fails), and no file descriptors
// left (a transient failure: the record is kept and written once descriptors are free).
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;
using namespace spookludo::testing;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A fresh directory for one test, removed at the end.
struct Scratch {
    fs::path path;
    explicit Scratch(const std::string& name) {
        path = fs::temp_directory_path() / ("spookludo-" + name + "-" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};


// A running server: its pid and port (read from its log).
struct Server {
    pid_t pid = -1;
    std::uint16_t port = 0;
    fs::path log;
    std::string text() const { return slurp(log); }
    ~Server() {
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
    }
    // SIGTERM; the exit status (or -1).
    int stop() {
        kill(pid, SIGTERM);
        int status = 0;
        waitpid(pid, &status, 0);
        pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
};

void start(Server& server, const fs::path& dir, const std::function<void()>& in_child) {
    server.log = dir / "log.txt";
    server.pid = spawn_server(server.log,
                       {"--port", "0", "--bind", "127.0.0.1", "--data-dir", (dir / "data").string(), "--export-records",
                        (dir / "data" / "records").string(), "--pace-ms", "0", "--log-level", "info"},
                       in_child);
    for (int i = 0; i < 400; ++i) {
        const std::string text = server.text();
        if (const auto at = text.find("listening on 127.0.0.1:"); at != std::string::npos) {
            server.port = static_cast<std::uint16_t>(std::stoi(text.substr(at + 23)));
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    FAIL("the server did not start: " << server.text());
}

// The value of a metric line "NAME VALUE" in /metrics text; -1 when absent.
long metric(const std::string& text, const std::string& name) {
    const auto at = text.find("\n" + name + " ");
    if (at == std::string::npos) return -1;
    return std::stol(text.substr(at + name.size() + 2));
}

std::vector<std::string> temporary_files(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().ends_with(".tmp")) names.push_back(e.path().filename().string());
    return names;
}

// The server with `args`, expected to stop at start: its exit status (-1 when killed by a
// signal); a server still running after 5 s is killed and the test fails.
int refused_at_start(const fs::path& out, const std::vector<std::string>& args) {
    const pid_t pid = spawn_server(out, args);
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 200 && done == 0; ++i) {
        done = waitpid(pid, &status, WNOHANG);
        if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        FAIL("the server kept running: " << slurp(out));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

}  // namespace

TEST_CASE("server process: a data directory that cannot be created stops the server at start, saying why [server][process][records]") {
    Scratch dir("datadir");
    std::ofstream(dir.path / "a-file") << "not a directory";
    const fs::path out = dir.path / "out.txt";
    const int status = refused_at_start(out, {"--port", "0", "--bind", "127.0.0.1", "--data-dir", (dir.path / "a-file" / "data").string()});
    const std::string text = slurp(out);
    INFO(text);
    CHECK(status == 1);
    CHECK(text.find("cannot use the data directory") != std::string::npos);
    CHECK(text.find((dir.path / "a-file" / "data").string()) != std::string::npos);
    CHECK(text.find("Not a directory") != std::string::npos);  // the cause, from the system
    CHECK(text.find("listening") == std::string::npos);
}

TEST_CASE("server process: --export-records into a file is refused at start, saying why [server][process][records]") {
    Scratch dir("exportdir");
    std::ofstream(dir.path / "a-file") << "not a directory";
    const fs::path out = dir.path / "out.txt";
    const int status = refused_at_start(out, {"--port", "0", "--bind", "127.0.0.1", "--data-dir", (dir.path / "data").string(),
                                              "--export-records", (dir.path / "a-file").string()});
    const std::string text = slurp(out);
    INFO(text);
    CHECK(status == 1);
    CHECK(text.find("cannot write records into " + (dir.path / "a-file").string() + " (--export-records") != std::string::npos);
    CHECK(text.find("listening") == std::string::npos);
}

TEST_CASE("server process: an exported record file that cannot be written (a full disk) leaves no temporary file, logs the cause, and the database serves the record [server][process][records]") {
    Scratch dir("fsize");
    // The export directory on a file system of one page (4 KB): a Ludo game's record does not fit
    // (the database is not on it).
    TestMount small(true, "4k", dir.path / "data" / "records");
    if (!small.mounted) {
        MESSAGE("skipped: mounting a tmpfs needs root");
        return;
    }
    Server server;
    start(server, dir.path, {});
    Client ann(server.port);
    create_room(ann, {{"game", "ludo"}, {"players", 4}}, "Ann", json{{"pace_ms", 0}});
    for (int i = 0; i < 3; ++i) ann.send({{"type", "add_bot"}, {"policy", "random"}});
    ann.send({{"type", "start"}});
    const json over = play_to_end(ann, std::chrono::seconds(60));
    CHECK(over["status"] == "finished");
    const fs::path records = dir.path / "data" / "records";
    // The log names the cause; the temporary file is gone.
    bool logged = false;
    for (int i = 0; i < 100 && !logged; ++i) {
        logged = server.text().find("No space left on device") != std::string::npos;
        if (!logged) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    INFO(server.text());
    CHECK(logged);
    CHECK(temporary_files(records).empty());
    const std::string id = over.value("record", std::string("/records/?")).substr(9);
    CHECK_FALSE(fs::exists(records / (id + ".json")));
    // The store is the database: the record is served at once.
    const auto [status, text] = http_get(server.port, "/records/" + id);
    CHECK(status == 200);
    CHECK(verify(parse_record(text)).ok);
    // Counted, and held for a retry (it keeps failing here).
    const auto metrics = http_get(server.port, "/metrics").second;
    CHECK(metric(metrics, "spookludo_record_write_failures_total") >= 1);
    CHECK(metric(metrics, "spookludo_records_pending") == 1);
    CHECK(server.stop() == 0);
    CHECK(temporary_files(records).empty());
    CHECK(server.text().find("record of game " + id + " was never written") != std::string::npos);
}

// Release build only: out of descriptors, UBSan's vptr check fails by itself (see
// test_process.cpp, "out of file descriptors").
TEST_CASE("server process: out of file descriptors a finished game's record is kept and written once descriptors are free [server][process][records]" *
          doctest::skip(kSanitized)) {
    Scratch dir("nofile-record");
    Server server;
    start(server, dir.path, [] {
        const rlimit limit{48, 48};
        setrlimit(RLIMIT_NOFILE, &limit);
    });
    // The board pools are solved on a thread at start (about a second; a minute at most on a
    // loaded machine): not part of what is measured.
    for (int i = 0; i < 2400 && server.text().find("board pools solved") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    REQUIRE(server.text().find("board pools solved") != std::string::npos);

    Client ann(server.port);
    create_room(ann, {{"game", "spook"}, {"players", 2}, {"pieces", 2}}, "Ann", json{{"pace_ms", 0}, {"decision_ms", 60000}});
    ann.send({{"type", "add_bot"}, {"policy", "random"}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "s"}});
    const json first = ann.expect("decision", std::chrono::seconds(20));

    // Every descriptor taken: connections the server accepts until it has none left.
    std::vector<int> sockets;
    for (int i = 0; i < 80; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(server.port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        sockets.push_back(fd);
    }
    for (int i = 0; i < 100 && server.text().find("Too many open files") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE(server.text().find("Too many open files") != std::string::npos);
    // The connections it could not take are answered 503 and closed, one by one, with the
    // descriptor it keeps in reserve; that is over when none waits in its accept queue any more
    // (the kernel's list of connections says; without it, half a second), and then none is free.
    if (!port_sockets(server.port).known) std::this_thread::sleep_for(std::chrono::milliseconds(500));
    bool answered = false;
    for (int i = 0; i < 500 && !(answered = port_sockets(server.port).queued == 0); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE_MESSAGE(answered, port_sockets(server.port).queued, " connections still wait to be accepted");

    // The game ends now: its record cannot be written.
    ann.send({{"type", "choose"}, {"decision", first["decision"]}, {"piece", first["options"][0]["piece"]}});
    const json over = play_to_end(ann, std::chrono::seconds(60));
    CHECK(over["status"] == "finished");
    REQUIRE(over.contains("record"));
    const std::string id = over["record"].get<std::string>().substr(9);
    const fs::path file = dir.path / "data" / "records" / (id + ".json");
    const std::string failed = "cannot write the record of game " + id;
    for (int i = 0; i < 500 && server.text().find(failed) == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    INFO(server.text());
    CHECK(server.text().find(failed) != std::string::npos);
    CHECK_FALSE(fs::exists(file));

    // Descriptors free again: the record appears, whole, and verifies.
    for (int fd : sockets) ::close(fd);
    for (int i = 0; i < 300 && !fs::exists(file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE(fs::exists(file));
    const VerifyReport report = verify(parse_record(slurp(file)));
    CHECK(report.ok);
    std::string metrics;
    for (int i = 0; i < 100 && metrics.find("spookludo_records_pending") == std::string::npos; ++i) {
        try {
            metrics = http_get(server.port, "/metrics").second;
        } catch (const std::exception&) {
        }
        if (metrics.find("spookludo_records_pending") == std::string::npos)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(metric(metrics, "spookludo_records_written_on_retry_total") == 1);
    CHECK(metric(metrics, "spookludo_records_pending") == 0);
    CHECK(metric(metrics, "spookludo_records_dropped_total") == 0);
    CHECK(server.stop() == 0);
}
