// Cluster nodes (server/cluster.h): real spookludo-server processes and a real redis-server on
// loopback. Every node sees every node; a node killed is seen dead once its heartbeat expires; a
// node that cannot reach Redis loses its lease and says so on /healthz.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "redis_server.h"
#include "spookludo/protocol/messages.h"

using namespace std::chrono_literals;
using namespace spookludo::testing;
using json = nlohmann::json;

namespace {

// GET over a plain socket: status and body (0 when nothing answers).
std::pair<int, std::string> http_get(std::uint16_t port, const std::string& path) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    timeval tv{3, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return {0, {}};
    }
    const std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) < 0) {
        ::close(fd);
        return {0, {}};
    }
    std::string answer;
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) answer.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    if (answer.size() < 12) return {0, {}};
    const auto body = answer.find("\r\n\r\n");
    return {std::stoi(answer.substr(9, 3)), body == std::string::npos ? std::string() : answer.substr(body + 4)};
}


struct Node {
    std::string id;
    std::uint16_t port = free_port();
    TempDir dir{"spookludo-node"};
    std::unique_ptr<Process> process;
    Node(std::string node_id, const std::string& redis_url) : id(std::move(node_id)) {
        SpawnOptions o;
        o.stdout_file = dir / "out.log";
        o.stderr_file = dir / "out.log";
        process = std::make_unique<Process>(
            std::vector<std::string>{SPOOKLUDO_SERVER_BINARY, "--bind", "127.0.0.1", "--port", std::to_string(port),
                                     "--data-dir", dir / "data", "--cluster", redis_url, "--node-id", id,
                                     "--public-url", url()},
            o);
        REQUIRE_MESSAGE(eventually([&] { return http_get(port, "/healthz").first == 200; }, 15s), process->out());
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
    json cluster() const {
        const auto [status, body] = http_get(port, "/cluster");
        if (status != 200) return json::object();
        return json::parse(body);
    }
    // What this node knows of another: its entry in /cluster, or an empty object.
    json entry(const std::string& other) const {
        const json c = cluster();
        if (c.is_object())
            for (const auto& n : c["nodes"])
                if (n["id"] == other) return n;
        return json::object();
    }
};

// The `welcome` a WebSocket client gets from the node (Debian's python3-websockets: a client that
// is not ours).
json welcome_of(std::uint16_t port) {
    TempDir dir("spookludo-welcome");
    const std::string script =
        "import asyncio, json, sys, websockets\n"
        "async def main():\n"
        "    async with websockets.connect(sys.argv[1]) as ws:\n"
        "        await ws.send(json.dumps({'type': 'hello', 'protocol': int(sys.argv[2]), 'client': 'test'}))\n"
        "        print(await asyncio.wait_for(ws.recv(), 5))\n"
        "asyncio.run(main())\n";
    SpawnOptions o;
    o.stdout_file = dir / "out";
    o.stderr_file = dir / "err";
    Process p({"/usr/bin/python3", "-c", script, "ws://127.0.0.1:" + std::to_string(port) + "/ws",
               std::to_string(spookludo::protocol::kProtocolVersion)},
              o);
    REQUIRE(p.wait(15s) == std::optional<int>(0));
    return json::parse(p.out());
}

}  // namespace

TEST_CASE("cluster: every node lists every node with its address, rooms and connections, and its welcome names the live nodes [cluster]") {
    RedisServer redis;
    Node a("node-a", redis.url()), b("node-b", redis.url());
    for (const Node* n : {&a, &b})
        for (const Node* other : {&a, &b}) {
            INFO(n->id << " about " << other->id);
            REQUIRE(eventually([&] { return n->entry(other->id).value("alive", false); }, 10s));
            const json e = n->entry(other->id);
            CHECK(e["url"] == other->url());
            CHECK(e.contains("rooms"));
            CHECK(e.contains("connections"));
            CHECK(e["heartbeat_ms"].get<long long>() > 0);
        }
    const json c = a.cluster();
    CHECK(c["node"] == "node-a");
    CHECK(c["redis_connected"] == true);
    CHECK(c["lease_ms"].get<long long>() > 0);
    // /metrics has the cluster's view too.
    REQUIRE(eventually([&] { return http_get(a.port, "/metrics").second.find("spookludo_cluster_nodes 2\n") != std::string::npos; }, 10s));
    const std::string metrics = http_get(a.port, "/metrics").second;
    CHECK(metrics.find("spookludo_cluster_redis_connected 1\n") != std::string::npos);
    CHECK(metrics.find("spookludo_cluster_dead_nodes 0\n") != std::string::npos);
    // A client learns where to go if its node dies.
    const json w = welcome_of(b.port);
    CHECK(w["type"] == "welcome");
    CHECK(w["nodes"] == json::array({a.url(), b.url()}));
}

TEST_CASE("cluster: a node killed with SIGKILL is listed dead once its heartbeat has expired, within about 6 s [cluster]") {
    RedisServer redis;
    Node a("node-a", redis.url()), b("node-b", redis.url());
    REQUIRE(eventually([&] { return a.entry("node-b").value("alive", false); }, 10s));
    b.process->signal(SIGKILL);
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(eventually([&] { return a.entry("node-b").value("alive", true) == false; }, 20s));
    const auto took = std::chrono::steady_clock::now() - t0;
    CHECK(took < 15s);  // 6 s of expiry and a 2 s heartbeat at most, and a loaded machine's delays
    CHECK(a.entry("node-b")["url"] == b.url());  // its last heartbeat is still shown
    CHECK(a.entry("node-a").value("alive", false));
}

TEST_CASE("cluster: a node that cannot reach Redis loses its lease and /healthz says degraded, until Redis is back [cluster]") {
    RedisServer redis;
    Node a("node-a", redis.url());
    REQUIRE(eventually([&] { return a.cluster().value("lease_ms", 0) > 0; }, 10s));
    redis.stop();
    REQUIRE(eventually([&] { return http_get(a.port, "/healthz").first == 503; }, 10s));
    const auto [status, body] = http_get(a.port, "/healthz");
    CHECK(body.find("no lease in the cluster (Redis cannot be reached)") != std::string::npos);
    REQUIRE(eventually([&] { return http_get(a.port, "/metrics").second.find("spookludo_cluster_lease_losses_total 1\n") != std::string::npos; }, 5s));
    redis.start();
    REQUIRE(eventually([&] { return http_get(a.port, "/healthz").first == 200; }, 10s));
}

TEST_CASE("cluster: --cluster without --public-url, a bad Redis address or a bad node id is refused at start, saying why [cluster]") {
    const auto run = [](std::vector<std::string> args) {
        TempDir dir("spookludo-node");
        SpawnOptions o;
        o.stdout_file = dir / "out.log";
        o.stderr_file = dir / "out.log";
        args.insert(args.begin(), {SPOOKLUDO_SERVER_BINARY, "--port", "0", "--data-dir", dir / "data"});
        Process p(args, o);
        const auto status = p.wait(10s);
        return std::pair<int, std::string>(status.value_or(-1), p.out());
    };
    auto [s1, out1] = run({"--cluster", "redis://127.0.0.1:6379"});
    CHECK(s1 == 2);
    CHECK(out1.find("--cluster needs --public-url") != std::string::npos);
    auto [s2, out2] = run({"--cluster", "http://127.0.0.1:6379", "--public-url", "http://127.0.0.1:1"});
    CHECK(s2 == 2);
    CHECK(out2.find("redis://HOST:PORT") != std::string::npos);
    auto [s3, out3] = run({"--cluster", "redis://127.0.0.1:6379", "--public-url", "http://127.0.0.1:1", "--node-id", "a b"});
    CHECK(s3 == 2);
    CHECK(out3.find("--node-id 'a b'") != std::string::npos);
    auto [s4, out4] = run({"--node-id", "x"});
    CHECK(s4 == 2);
    CHECK(out4.find("--node-id is for a cluster node") != std::string::npos);
}

TEST_CASE("cluster: a node stopped with SIGTERM leaves the cluster at once: no other node lists it [cluster]") {
    RedisServer redis;
    Node a("node-a", redis.url()), b("node-b", redis.url());
    REQUIRE(eventually([&] { return a.entry("node-b").value("alive", false); }, 10s));
    b.process->signal(SIGTERM);
    CHECK(b.process->wait(10s) == std::optional<int>(0));
    // Not listed at all: a node whose heartbeat expired is listed dead for a minute (above).
    REQUIRE(eventually([&] { return !a.entry("node-b").contains("id"); }, 10s));
}

TEST_CASE("cluster: create_room goes to the node with the fewest rooms, and join_room, watch and resume through any node reach the room's node, by a redirect a third-party client follows [cluster]") {
    RedisServer redis;
    Node a("node-a", redis.url()), b("node-b", redis.url());
    REQUIRE(eventually([&] { return a.entry("node-b").value("alive", false) && b.entry("node-a").value("alive", false); }, 10s));
    TempDir dir("spookludo-redirects");
    SpawnOptions o;
    o.stdout_file = dir / "out";
    o.stderr_file = dir / "out";
    Process p({"/usr/bin/python3", std::string(SPOOKLUDO_CLUSTER_TESTS) + "/redirects.py", a.url(), b.url(), "node-b"}, o);
    const auto status = p.wait(60s);
    INFO(p.out());
    CHECK(status == std::optional<int>(0));
    CHECK(p.out().find("FAILED") == std::string::npos);
}
