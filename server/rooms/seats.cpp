// The room's seats and the rules of who sits where (seats.h).
#include "seats.h"

#include <algorithm>
#include <iterator>

namespace spookludo::server {

Seats::Seats(int count) {
    for (int n = 0; n < count; ++n) seats_.push_back(empty_seat(n));
}

Seat* Seats::at(int number) {
    for (auto& s : seats_)
        if (s.number == number) return &s;
    return nullptr;
}

const Seat* Seats::at(int number) const { return const_cast<Seats*>(this)->at(number); }

const Seat* Seats::of(const std::shared_ptr<Peer>& peer) const {
    for (const auto& s : seats_)
        if (s.human() && s.peer.lock() == peer) return &s;
    return nullptr;
}

Seat* Seats::lowest_free() {
    for (auto& s : seats_)
        if (!s.taken) return &s;
    return nullptr;
}

bool Seats::name_taken(const std::string& name) const {
    return std::any_of(seats_.begin(), seats_.end(), [&](const Seat& s) { return s.taken && s.name == name; });
}

int Seats::taken() const {
    return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return s.taken; }));
}

std::optional<Seats::Change> Seats::resize(int count) {
    const int have = size();
    if (count < have && have - count > have - taken()) return std::nullopt;
    Change change;
    for (int n = have; n < count; ++n) {
        int number = 0;
        while (at(number)) ++number;
        const auto where = std::find_if(seats_.begin(), seats_.end(), [&](const Seat& s) { return s.number > number; });
        change.added.push_back(*seats_.insert(where, empty_seat(number)));
    }
    for (int n = count; n < have; ++n)
        for (auto it = seats_.rbegin(); it != seats_.rend(); ++it)
            if (!it->taken) {
                change.removed.push_back(*it);
                seats_.erase(std::next(it).base());
                break;
            }
    return change;
}

void Seats::free(Seat& seat) {
    if (seat.reconnect_timer) seat.reconnect_timer->cancel();
    seat = empty_seat(seat.number);
}

std::string Seats::bot_name(PolicyKind policy, const Seat& seat) const {
    for (int n = 1;; ++n) {
        std::string name = std::string(to_string(policy)) + " bot " + std::to_string(n);
        const bool other = std::any_of(seats_.begin(), seats_.end(),
                                       [&](const Seat& s) { return &s != &seat && s.taken && s.name == name; });
        if (!other) return name;
    }
}

}  // namespace spookludo::server
