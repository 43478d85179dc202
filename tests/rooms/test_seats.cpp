// The room's seats on their own (server/rooms/seats.h): who sits where, the seat count changed
// in the lobby, names, bots' names. No room, no clock, no socket.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "seats.h"
#include "test_peer.h"

namespace spookludo::testing {
namespace {

using server::Seat;
using server::Seats;

void sit(Seat& s, const std::string& name, const std::shared_ptr<TestPeer>& peer = nullptr) {
    s.taken = true;
    s.name = name;
    s.peer = peer;
    s.connected = peer != nullptr;
}
std::vector<int> numbers(const Seats& seats) {
    std::vector<int> v;
    for (const auto& s : seats) v.push_back(s.number);
    return v;
}
std::vector<int> numbers(const std::vector<Seat>& seats) {
    std::vector<int> v;
    for (const auto& s : seats) v.push_back(s.number);
    return v;
}

TEST_CASE("seats: a newcomer takes the lowest free seat, a gap left by a leaver first, and a full room has none [rooms][lobby]") {
    Seats seats(4);
    CHECK(numbers(seats) == std::vector<int>{0, 1, 2, 3});
    for (const char* name : {"Ann", "Bea", "Cat"}) sit(*seats.lowest_free(), name);
    CHECK(seats.lowest_free()->number == 3);
    CHECK(seats.taken() == 3);
    Seats::free(*seats.at(1));  // Bea leaves
    CHECK_FALSE(seats.at(1)->taken);
    CHECK(seats.at(1)->name.empty());
    CHECK(seats.lowest_free()->number == 1);
    sit(*seats.lowest_free(), "Dan");
    sit(*seats.lowest_free(), "Eve");
    CHECK(seats.lowest_free() == nullptr);
    CHECK(seats.taken() == 4);
    CHECK(seats.at(7) == nullptr);
}

TEST_CASE("seats: names are unique among the taken seats, and a bot's name is the lowest number no other seat has [rooms][lobby]") {
    Seats seats(4);
    sit(*seats.at(0), "Ann");
    CHECK(seats.name_taken("Ann"));
    CHECK_FALSE(seats.name_taken("ann"));  // names are compared as given (the lobby checks them first)
    Seat& b1 = *seats.at(1);
    b1.taken = true;
    b1.bot = true;
    b1.name = seats.bot_name(PolicyKind::greedy, b1);
    CHECK(b1.name == "greedy bot 1");
    Seat& b2 = *seats.at(2);
    b2.taken = true;
    b2.bot = true;
    b2.name = seats.bot_name(PolicyKind::greedy, b2);
    CHECK(b2.name == "greedy bot 2");
    CHECK(seats.bot_name(PolicyKind::best, *seats.at(3)) == "best bot 1");
    Seats::free(b1);
    CHECK(seats.bot_name(PolicyKind::greedy, *seats.at(1)) == "greedy bot 1");  // free again
    CHECK_FALSE(seats.name_taken("greedy bot 1"));
}

TEST_CASE("seats: seats come and go at the top, new ones take the lowest unused numbers, nobody's seat changes its number, and fewer seats than are taken is refused [rooms][lobby]") {
    Seats seats(4);
    sit(*seats.at(0), "Ann");
    sit(*seats.at(3), "Dan");
    // Down to 2: the highest free seats go (2, then 1); Dan keeps seat 3.
    auto down = seats.resize(2);
    REQUIRE(down);
    CHECK(numbers(down->removed) == std::vector<int>{2, 1});
    CHECK(down->added.empty());
    CHECK(numbers(seats) == std::vector<int>{0, 3});
    CHECK(seats.at(3)->name == "Dan");
    CHECK(seats.span() == 4);  // arrays by seat still reach seat 3
    // Below the taken: nothing changes.
    CHECK_FALSE(seats.resize(1));
    CHECK(numbers(seats) == std::vector<int>{0, 3});
    // Up to 5: the gaps first (1, 2), then the top (4), in order.
    auto up = seats.resize(5);
    REQUIRE(up);
    CHECK(numbers(up->added) == std::vector<int>{1, 2, 4});
    CHECK(numbers(seats) == std::vector<int>{0, 1, 2, 3, 4});
    CHECK(seats.lowest_free()->number == 1);
}

TEST_CASE("seats: a person's seat is found by their connection, a bot's seat is nobody's, and a freed seat forgets its player [rooms][lobby]") {
    Seats seats(3);
    auto ann = std::make_shared<TestPeer>(1, "127.0.0.1");
    auto bea = std::make_shared<TestPeer>(2, "127.0.0.1");
    sit(*seats.at(0), "Ann", ann);
    sit(*seats.at(2), "Bea", bea);
    REQUIRE(seats.of(ann));
    CHECK(seats.of(ann)->number == 0);
    CHECK(seats.of(bea)->number == 2);
    seats.at(2)->bot = true;  // kicked: a bot plays on in that seat
    CHECK(seats.of(bea) == nullptr);
    Seats::free(*seats.at(0));
    CHECK(seats.of(ann) == nullptr);
    CHECK(seats.at(0)->token_hash.empty());
}

}  // namespace
}  // namespace spookludo::testing
