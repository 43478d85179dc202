// The bounds on a room's quick reactions on their own (server/rooms/reactions.h): one every 2 s
// per sender, and a room-wide token bucket. No room, no socket: the clock is given.
#include <doctest/doctest.h>

#include <chrono>

#include "reactions.h"

namespace spookludo::testing {
namespace {

using server::Reactions;
using namespace std::chrono_literals;
using Kind = Reactions::Verdict::Kind;

TEST_CASE("reactions: a sender gets one every 2 s, told how long to wait, and a refusal does not push the wait back [rooms][reactions]") {
    Reactions r;
    const auto t0 = Reactions::Clock::time_point(10s);
    CHECK(r.admit(Reactions::player(1), t0));
    auto v = r.admit(Reactions::player(1), t0 + 500ms);
    CHECK(v.kind == Kind::sender);
    CHECK(v.wait == 1500ms);
    v = r.admit(Reactions::player(1), t0 + 1999ms);
    CHECK(v.kind == Kind::sender);
    CHECK(v.wait == 1ms);
    CHECK(r.admit(Reactions::player(1), t0 + 2000ms));
    // Another sender is not held up by the first; a seat and a spectator's connection are apart.
    CHECK(r.admit(Reactions::player(2), t0 + 2000ms));
    CHECK(r.admit(Reactions::spectator(1), t0 + 2000ms));
}

TEST_CASE("reactions: the room takes 4 at once and then 4 a second, whoever sends, and forgets senders after their 2 s [rooms][reactions]") {
    Reactions r;
    const auto t0 = Reactions::Clock::time_point(10s);
    int taken = 0;
    for (std::uint64_t peer = 1; peer <= 32; ++peer) taken += r.admit(Reactions::spectator(peer), t0) ? 1 : 0;
    CHECK(taken == 4);
    const auto v = r.admit(Reactions::spectator(33), t0);
    CHECK(v.kind == Kind::room);
    CHECK(v.wait == 250ms);
    // A refused sender was not counted: it may send as soon as the room has room.
    CHECK(r.admit(Reactions::spectator(33), t0 + 250ms));
    CHECK_FALSE(r.admit(Reactions::spectator(34), t0 + 260ms));
    // Ten seconds of a steady flood: about 4 a second get through, never more.
    taken = 0;
    std::uint64_t peer = 100;
    for (auto t = t0 + 1s; t < t0 + 11s; t += 10ms) taken += r.admit(Reactions::spectator(++peer), t) ? 1 : 0;
    CHECK(taken >= 40);
    CHECK(taken <= 44);
    CHECK(r.remembered() <= 9);  // only those within their 2 s
}

}  // namespace
}  // namespace spookludo::testing
