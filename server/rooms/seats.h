#pragma once
// The room's seats and the rules of who sits where, apart from the rest of the room: a seat's
// number is fixed for the life of the room, a newcomer takes the lowest free one (a gap left by a
// leaver or a removed seat first), seats come and go at the top, and names are unique among the
// taken seats. Nothing here sends, writes or times anything: the lobby (room_lobby.cpp) decides,
// these answer (tests/rooms/test_seats.cpp).
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "peer.h"
#include "room_clock.h"
#include "spookludo/policy.h"

namespace spookludo::server {

// What a seated player is doing, as everyone sees it.
enum class Presence { here, away, server, left };
inline const char* name_of(Presence p) {
    switch (p) {
        case Presence::here: return "here";
        case Presence::away: return "away";
        case Presence::server: return "server";
        case Presence::left: return "left";
    }
    return "?";
}
inline Presence presence_named(const std::string& name) {
    for (Presence p : {Presence::here, Presence::away, Presence::server, Presence::left})
        if (name == name_of(p)) return p;
    throw std::invalid_argument("unknown presence " + name);
}

// One seat of the room. Its number is fixed for the life of the room; a free seat keeps it.
struct Seat {
    int number = 0;
    bool taken = false;
    std::string name;
    bool bot = false;
    PolicyKind policy = PolicyKind::best;
    bool kicked = false;  // a bot playing a kicked player's seat to the end of the game
    std::string token_hash;  // SHA-256 of the seat's token, hex (the token goes to its player only)
    std::weak_ptr<Peer> peer;
    bool connected = false;
    Presence presence = Presence::here;
    std::optional<std::string> client_seed;
    std::shared_ptr<RoomTimer> reconnect_timer;
    RoomClock::time_point dropped_at{};  // when the connection was lost (away)
    // The decision this seat owes, if any.
    std::string decision_id;
    RoomClock::time_point decision_sent{};
    // A dropped player's decision is held open this long (the drop grace) before the server plays it.
    std::shared_ptr<RoomTimer> grace_timer;
    // The host hurried this seat's open decision (hurry): its own deadline, or while the game is
    // paused what was left of it.
    bool hurried = false;
    RoomClock::time_point hurry_at{};
    RoomClock::duration hurry_left{};
    std::shared_ptr<RoomTimer> hurry_timer;
    // The player's last ask_time (at most one in kAskTimeIntervalMs); not journaled.
    std::optional<RoomClock::time_point> asked_time_at;

    bool human() const { return taken && !bot; }
    // Played by the server instead of the player (gone, or the window is over, or left).
    bool server_played() const { return human() && (!connected || presence != Presence::here); }
};

inline Seat empty_seat(int number) {
    Seat s;
    s.number = number;
    return s;
}

class Seats {
public:
    explicit Seats(int count = 0);

    // The seat of that number, or null.
    Seat* at(int number);
    const Seat* at(int number) const;
    // The seat a person holds (a player's own, not a bot's), or null.
    const Seat* of(const std::shared_ptr<Peer>& peer) const;
    // Where a newcomer sits: the lowest free seat, or null when the room is full.
    Seat* lowest_free();
    bool name_taken(const std::string& name) const;
    int taken() const;
    int size() const { return static_cast<int>(seats_.size()); }
    bool empty() const { return seats_.empty(); }
    // The highest seat number + 1: the length of the arrays indexed by room seat.
    std::size_t span() const { return seats_.empty() ? 0 : static_cast<std::size_t>(seats_.back().number) + 1; }

    // The room's seat count changes: new seats take the lowest unused numbers, the highest free
    // seats go; nobody's seat changes its number. What was added and removed, in order, or none
    // when fewer seats than are taken were asked for (nothing changes then).
    struct Change {
        std::vector<Seat> added, removed;
    };
    std::optional<Change> resize(int count);
    // A seat freed: everything about its occupant goes (its reconnect window is cancelled).
    static void free(Seat& seat);
    // A bot's name for this seat: "<policy> bot N", the lowest N no other taken seat has.
    std::string bot_name(PolicyKind policy, const Seat& seat) const;
    // The seats as a journal kept them (a room taken up again).
    void assign(std::vector<Seat> seats) { seats_ = std::move(seats); }

    auto begin() { return seats_.begin(); }
    auto end() { return seats_.end(); }
    auto begin() const { return seats_.begin(); }
    auto end() const { return seats_.end(); }

private:
    std::vector<Seat> seats_;  // by number, ascending; gaps where a seat was removed
};

}  // namespace spookludo::server
