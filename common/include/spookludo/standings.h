#pragma once
// Places from the moment each seat finished, shared by both games.
#include <optional>
#include <vector>

namespace spookludo {

struct Standing {
    int seat = 0;
    int place = 0;                  // 1 = winner; equal places for ties
    std::optional<int> finished_at;  // the round (Spook) or turn (Ludo) in which the seat finished
};

// Seats that finished earlier rank higher; seats that finished at the same time share a place;
// seats that never finished share the place after all finishers. Sorted by place, then seat.
std::vector<Standing> rank_by_finish(const std::vector<std::optional<int>>& finished_at);

// The seats with place 1 among finishers (empty when nobody finished).
std::vector<int> winners_of(const std::vector<Standing>& standings);

}  // namespace spookludo
