#pragma once
// A person as a room sees one (server/rooms/peer.h), played by a test in this process: what the
// room sends is kept, parsed, in `inbox`.
#include <unistd.h>

#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "peer.h"
#include "room_clock.h"

namespace spookludo::testing {

class TestPeer final : public server::Peer {
public:
    TestPeer(std::uint64_t id, std::string address) : id_(id), address_(std::move(address)) {}
    std::uint64_t id() const noexcept override { return id_; }
    const std::string& address() const noexcept override { return address_; }
    using Peer::send;
    void send(std::shared_ptr<const std::string> text) override {
        if (!closed_) inbox.push_back(nlohmann::json::parse(*text));
    }
    void detach(const server::Room&, std::uint64_t) override {}
    void strike() override {}
    void grant_answer() override {}
    void close() override { closed_ = true; }
    void post(std::function<bool()> fn) override { (void)fn(); }

    std::deque<nlohmann::json> inbox;
    bool closed() const { return closed_; }

private:
    std::uint64_t id_;
    std::string address_;
    bool closed_ = false;
};

// Runs what is ready on `io`, the timers of the hand-turned clock (RoomClock::Manual) that it has
// reached included: such a timer comes due when the clock is turned, not when the kernel's timer
// says, and a timer due now makes the io_context look at every timer again.
inline void run_due(boost::asio::io_context& io) {
    server::RoomTimer nudge(io);
    bool nudged = false;
    nudge.expires_at(server::RoomClock::now());
    nudge.async_wait([&](boost::system::error_code) { nudged = true; });
    io.restart();
    while (!nudged) io.run_one();
    io.poll();
}

// A data directory of the test's own, removed with everything in it at the end.
struct TempDataDir {
    std::string path;
    TempDataDir() {
        static int counter = 0;
        path = (std::filesystem::temp_directory_path() /
                ("spookludo-parts-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                   .string();
    }
    ~TempDataDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDataDir(const TempDataDir&) = delete;
    TempDataDir& operator=(const TempDataDir&) = delete;
};

}  // namespace spookludo::testing
