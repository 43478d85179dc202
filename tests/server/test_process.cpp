// The spookludo-server program itself: started as a process, stopped with SIGTERM.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "harness.h"

using namespace spookludo::testing;

namespace {

// Starts the server binary on a free port it reports through its pid file and stdout; returns
// the pid and the port.
std::pair<pid_t, std::uint16_t> start_server(const std::string& dir) {
    const std::string out = dir + "/stdout.txt";
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        execl(SPOOKLUDO_SERVER_BINARY, "spookludo-server", "--port", "0", "--bind", "127.0.0.1", "--data-dir",
              dir.c_str(), "--pid-file", (dir + "/server.pid").c_str(), "--pace-ms", "0", "--log-level", "info",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    // The log names the port: "listening on 127.0.0.1:PORT".
    for (int i = 0; i < 200; ++i) {
        std::ifstream in(out);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto at = text.find("listening on 127.0.0.1:");
        if (at != std::string::npos) {
            const auto port = std::stoi(text.substr(at + 23));
            return {pid, static_cast<std::uint16_t>(port)};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    kill(pid, SIGKILL);
    FAIL("the server did not start");
    return {0, 0};
}

}  // namespace

TEST_CASE("server process: SIGTERM with a game in progress stops gracefully and exits 0 [server][process]") {
    const auto dir = std::filesystem::temp_directory_path() / ("spookludo-proc-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    auto [pid, port] = start_server(dir.string());
    CHECK(std::filesystem::exists(dir / "server.pid"));
    CHECK(http_get(port, "/healthz").first == 200);

    Client ann(port);
    ann.hello();
    ann.send({{"type", "create_room"}, {"options", {{"game", "spook"}, {"players", 2}}}, {"name", "Ann"}});
    ann.expect("joined");
    ann.send({{"type", "add_bot"}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "s"}});
    ann.expect("decision", std::chrono::seconds(20));

    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(kill(pid, SIGTERM) == 0);
    const json over = ann.expect("game_over");
    CHECK(over["status"] == "abandoned");
    CHECK(over["server_seed"].get<std::string>().size() == 64);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!WIFEXITED(status)) {
        std::ifstream log(dir / "stdout.txt");
        MESSAGE("server output:\n" << std::string((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>()));
    }
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(seconds < 5.0);
    CHECK_FALSE(std::filesystem::exists(dir / "server.pid"));
    const std::string id = over["record"].get<std::string>().substr(9);
    CHECK(std::filesystem::exists(dir / "records" / (id + ".json")));
    std::filesystem::remove_all(dir);
}
