#include "registry.h"

#include <random>

#include "room.h"

namespace spookludo::server {

std::string normalise_room_code(std::string_view code) {
    std::string out;
    for (char c : code)
        if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}
std::string random_room_code() {
    static thread_local std::mt19937_64 gen{std::random_device{}()};
    std::string code;
    for (std::size_t i = 0; i < kRoomCodeLength; ++i)
        code += kRoomCodeAlphabet[std::uniform_int_distribution<std::size_t>(0, kRoomCodeAlphabet.size() - 1)(gen)];
    return code;
}

std::string Registry::fresh_code() {
    for (;;) {
        std::string code = random_room_code();
        if (!rooms_.count(code)) return code;
    }
}

std::shared_ptr<Room> Registry::find(const std::string& code) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(normalise_room_code(code));
    return it == rooms_.end() ? nullptr : it->second.room;
}

int Registry::held_locked(const std::string& address) const {
    const auto it = held_.find(address);
    return it == held_.end() ? 0 : it->second;
}

bool Registry::over_address_bound(const std::string& address) const {
    return max_rooms_per_address_ > 0 && !address.empty() && held_locked(address) >= max_rooms_per_address_;
}

void Registry::count(const std::string& address) {
    if (!address.empty()) ++held_[address];
}

void Registry::uncount(const std::string& address) {
    if (address.empty()) return;
    if (auto it = held_.find(address); it != held_.end() && --it->second <= 0) held_.erase(it);
}

void Registry::erase(std::map<std::string, Entry>::iterator it) {
    uncount(it->second.address);
    rooms_.erase(it);
}

void Registry::adopt(const std::string& code, std::shared_ptr<Room> room) {
    std::string address = room ? room->creator_address() : std::string();
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(code); it != rooms_.end()) erase(it);  // the same room again (a cluster's)
    count(address);
    rooms_.emplace(code, Entry{std::move(room), std::move(address)});
}

void Registry::remove_if(const std::string& code, const Room* room) {
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(code); it != rooms_.end() && it->second.room.get() == room) erase(it);
}

void Registry::remove(const std::string& code) {
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(code); it != rooms_.end()) erase(it);
}

std::vector<std::shared_ptr<Room>> Registry::all() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Room>> out;
    for (auto& [code, entry] : rooms_) out.push_back(entry.room);
    return out;
}

std::size_t Registry::size() {
    std::lock_guard lock(mutex_);
    return rooms_.size();
}

int Registry::held_by(const std::string& address) {
    std::lock_guard lock(mutex_);
    return held_locked(address);
}

bool Registry::address_full(const std::string& address) {
    std::lock_guard lock(mutex_);
    return over_address_bound(address);
}

void LostRooms::add(const std::string& code, std::string told, std::string record) {
    std::lock_guard lock(mutex_);
    std::erase_if(lost_, [&](const Lost& l) { return l.code == code; });
    if (lost_.size() >= kKept) lost_.erase(lost_.begin());
    lost_.push_back({code, std::move(told), std::move(record), std::chrono::steady_clock::now()});
}

std::optional<LostRooms::Told> LostRooms::find(const std::string& code) {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    std::erase_if(lost_, [&](const Lost& l) { return now - l.at > std::chrono::hours(24); });
    for (const auto& l : lost_)
        if (l.code == code) return Told{l.told, l.record};
    return std::nullopt;
}

}  // namespace spookludo::server
