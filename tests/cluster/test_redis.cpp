// The cluster's Redis client (server/redis.h) against a real redis-server on loopback: commands
// and their answers, a Redis that stops and comes back, a Redis that hangs.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "redis.h"
#include "redis_server.h"

using namespace std::chrono_literals;
using namespace spookludo::testing;
namespace redis = spookludo::server::redis;
namespace net = boost::asio;

namespace {

// An io_context on a thread of its own, as the server's I/O threads run it.
struct Loop {
    net::io_context io;
    net::executor_work_guard<net::io_context::executor_type> work{io.get_executor()};
    std::thread thread{[this] { io.run(); }};
    ~Loop() {
        work.reset();
        io.stop();
        thread.join();
    }
};

redis::Reply call(redis::Client& c, std::vector<std::string> args, std::chrono::milliseconds wait = 5s) {
    auto answer = std::make_shared<std::promise<redis::Reply>>();
    auto f = answer->get_future();
    c.command(std::move(args), [answer](redis::Reply r) { answer->set_value(std::move(r)); });
    if (f.wait_for(wait) != std::future_status::ready) throw std::runtime_error("no answer at all");
    return f.get();
}

bool eventually(const std::function<bool()>& what) { return spookludo::testing::eventually(what, 10s, 20ms); }

}  // namespace

TEST_CASE("redis: addresses are redis://HOST:PORT, and a wrong one is refused saying what is wrong [cluster]") {
    CHECK(redis::parse_url("redis://127.0.0.1:6380").port == 6380);
    CHECK(redis::parse_url("redis://127.0.0.1:6380").host == "127.0.0.1");
    CHECK(redis::parse_url("redis://cache.local/").port == 6379);
    CHECK(redis::parse_url("redis://[::1]:7000").host == "::1");
    CHECK(redis::parse_url("redis://[::1]:7000").port == 7000);
    CHECK_THROWS_WITH_AS(redis::parse_url("http://x:1"), doctest::Contains("redis://HOST:PORT"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(redis::parse_url("redis://x:port"), doctest::Contains("not a number"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(redis::parse_url("redis://x:70000"), doctest::Contains("between 1 and 65535"),
                         std::invalid_argument);
    CHECK_THROWS_AS(redis::parse_url("redis://:1"), std::invalid_argument);
    CHECK_THROWS_AS(redis::parse_url("redis://user@x:1"), std::invalid_argument);
    CHECK_THROWS_AS(redis::parse_url("redis://x:1/2"), std::invalid_argument);
}

TEST_CASE("redis: commands get their answers in every shape: strings (binary too), numbers, nil, arrays, errors [cluster]") {
    RedisServer server;
    Loop loop;
    auto c = redis::Client::make(loop.io, redis::parse_url(server.url()));
    REQUIRE(eventually([&] { return c->connected(); }));
    const std::string binary("a\0b\r\n", 5);
    CHECK(call(*c, {"SET", "k", binary}).text == "OK");
    const auto got = call(*c, {"GET", "k"});
    CHECK(got.type == redis::Reply::Type::string);
    CHECK(got.text == binary);
    CHECK(call(*c, {"INCRBY", "n", "41"}).integer == 41);
    CHECK(call(*c, {"GET", "nothing"}).nil());
    call(*c, {"RPUSH", "l", "x", "y"});
    const auto list = call(*c, {"LRANGE", "l", "0", "-1"});
    REQUIRE(list.elements.size() == 2);
    CHECK(list.elements[1].text == "y");
    const auto wrong = call(*c, {"INCR", "l"});  // a list is not a number: Redis says so
    CHECK(wrong.error());
    CHECK_FALSE(wrong.lost);
    CHECK(wrong.text.find("WRONGTYPE") != std::string::npos);
    // Many at once (pipelined), answered in order.
    std::vector<std::future<redis::Reply>> answers;
    for (int i = 0; i < 200; ++i) {
        auto p = std::make_shared<std::promise<redis::Reply>>();
        answers.push_back(p->get_future());
        c->command({"INCR", "counter"}, [p](redis::Reply r) { p->set_value(std::move(r)); });
    }
    for (std::size_t i = 0; i < answers.size(); ++i) CHECK(answers[i].get().integer == static_cast<long long>(i + 1));
    c->close();
}

TEST_CASE("redis: a Redis that stops is said at once (lost), and when it is back the client is connected again by itself [cluster]") {
    RedisServer server;
    Loop loop;
    std::atomic<int> ups{0}, downs{0};
    auto c = redis::Client::make(loop.io, redis::parse_url(server.url()), {.command_timeout = 1000ms, .reconnect_delay = 50ms},
                                 [&](bool up) { ++(up ? ups : downs); });
    REQUIRE(eventually([&] { return c->connected(); }));
    CHECK(call(*c, {"SET", "k", "v"}).text == "OK");
    server.stop();
    REQUIRE(eventually([&] { return !c->connected(); }));
    CHECK(eventually([&] { return downs == 1; }));
    const auto r = call(*c, {"GET", "k"}, 2s);
    CHECK(r.lost);
    CHECK(r.text.find("not connected to Redis at " + server.url()) != std::string::npos);
    server.start();
    REQUIRE(eventually([&] { return c->connected(); }));
    CHECK(eventually([&] { return ups == 2; }));
    CHECK(call(*c, {"PING"}).text == "PONG");
    c->close();
    REQUIRE(eventually([&] { return !c->connected(); }));
    CHECK(call(*c, {"PING"}).lost);
}

TEST_CASE("redis: a Redis that hangs: the command is answered lost within its time, and the client connects again when it wakes [cluster]") {
    RedisServer server;
    Loop loop;
    auto c = redis::Client::make(loop.io, redis::parse_url(server.url()), {.command_timeout = 500ms, .reconnect_delay = 50ms});
    REQUIRE(eventually([&] { return c->connected(); }));
    server.pause();
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = call(*c, {"PING"}, 5s);
    const auto took = std::chrono::steady_clock::now() - t0;
    CHECK(r.lost);
    CHECK(r.text.find("no answer from Redis") != std::string::npos);
    CHECK(took < 4s);  // its 500 ms, with room for a loaded machine (the call waits 5 s)
    server.resume();
    REQUIRE(eventually([&] { return c->connected() && call(*c, {"PING"}).text == "PONG"; }));
    c->close();
}

TEST_CASE("redis: a client made while Redis is down connects when it comes up [cluster]") {
    const auto port = free_port();
    Loop loop;
    auto c = redis::Client::make(loop.io, redis::parse_url("redis://127.0.0.1:" + std::to_string(port)),
                                 {.command_timeout = 1000ms, .reconnect_delay = 50ms});
    std::this_thread::sleep_for(200ms);
    CHECK_FALSE(c->connected());
    CHECK(call(*c, {"PING"}).lost);
    c->close();
}
