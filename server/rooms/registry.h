#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spookludo::server {

class Room;

// Rooms that could not be taken up again from the journal (a restart, a cluster's take-over):
// what their people are told when they come back with the code (`room_lost`). Bounded: the
// newest 1,000, each for a day.
class LostRooms {
public:
    // What a client is told of a lost room: the English text, and the address of the game's
    // record kept up to its last checked step ("" when none is).
    struct Told {
        std::string text, record;
    };
    void add(const std::string& code, std::string told, std::string record = {});
    std::optional<Told> find(const std::string& code);

private:
    static constexpr std::size_t kKept = 1000;
    struct Lost {
        std::string code, told, record;
        std::chrono::steady_clock::time_point at;
    };
    std::mutex mutex_;
    std::vector<Lost> lost_;  // oldest first
};

// Rooms by code. Copies pointers under its lock; all I/O happens outside it.
//
// Each room counts against the address that created it (its creator_address: the room knows it,
// and the journal keeps it) from its creation until it is removed, that is until it closed and
// the journal has its end, or the server stops: one address holds at most max_rooms_per_address
// rooms (0: no bound), so that an address creating rooms and dropping them (each lobby waits
// for its creator) cannot take every room of the server. A room of no known address counts
// against nobody.
class Registry {
public:
    Registry(int max_rooms, int max_rooms_per_address)
        : max_rooms_(max_rooms), max_rooms_per_address_(max_rooms_per_address) {}
    // What create() made, or why it made nothing.
    struct Created {
        std::shared_ptr<Room> room;  // nullptr: refused
        // Refused because `address` holds its bound of rooms (how many it holds); else, refused
        // because the server is full (or, create_with, the code is in use here).
        int address_holds = 0;
        explicit operator bool() const noexcept { return room != nullptr; }
    };
    // A new unused code and a room made by `make(code)`, counted against `address`.
    template <class Make>
    Created create(const std::string& address, Make&& make);
    // The same under a code claimed elsewhere (a cluster's).
    template <class Make>
    Created create_with(const std::string& code, const std::string& address, Make&& make);
    std::shared_ptr<Room> find(const std::string& code);
    // A room taken up again from a journal under its own code (at start, or a cluster's room taken
    // over): it counts against its creator_address, whatever the bound (it was within it when made).
    void adopt(const std::string& code, std::shared_ptr<Room> room);
    void remove(const std::string& code);
    // The same only while the code is still this room's (a room that stops may have been taken
    // up again under its code meanwhile).
    void remove_if(const std::string& code, const Room* room);
    std::vector<std::shared_ptr<Room>> all();
    std::size_t size();
    // The rooms `address` holds; and whether it holds its bound (a create from it is refused).
    int held_by(const std::string& address);
    bool address_full(const std::string& address);
    int max_rooms_per_address() const noexcept { return max_rooms_per_address_; }

private:
    struct Entry {
        std::shared_ptr<Room> room;
        std::string address;  // the address it counts against (empty: none)
    };
    // Under the lock.
    std::string fresh_code();
    int held_locked(const std::string& address) const;
    bool over_address_bound(const std::string& address) const;
    void count(const std::string& address);
    void uncount(const std::string& address);
    void erase(std::map<std::string, Entry>::iterator it);

    int max_rooms_;
    int max_rooms_per_address_;
    std::mutex mutex_;
    std::map<std::string, Entry> rooms_;
    std::map<std::string, int> held_;  // rooms by address, for the addresses that hold some
    std::uint64_t counter_ = 0;
};


// Room codes: 5 letters from an alphabet without look-alikes (no I, L, O, 0, 1).
inline constexpr std::string_view kRoomCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ";
inline constexpr std::size_t kRoomCodeLength = 5;
std::string normalise_room_code(std::string_view code);  // upper case, trimmed
std::string random_room_code();
template <class Make>
Registry::Created Registry::create(const std::string& address, Make&& make) {
    std::lock_guard lock(mutex_);
    if (static_cast<int>(rooms_.size()) >= max_rooms_) return {};
    if (over_address_bound(address)) return {nullptr, held_locked(address)};
    std::string code = fresh_code();
    auto room = make(code);
    rooms_.emplace(code, Entry{room, address});
    count(address);
    return {std::move(room)};
}

template <class Make>
Registry::Created Registry::create_with(const std::string& code, const std::string& address, Make&& make) {
    std::lock_guard lock(mutex_);
    if (static_cast<int>(rooms_.size()) >= max_rooms_ || rooms_.count(code)) return {};
    if (over_address_bound(address)) return {nullptr, held_locked(address)};
    auto room = make(code);
    rooms_.emplace(code, Entry{room, address});
    count(address);
    return {std::move(room)};
}

}  // namespace spookludo::server
