#include "spookludo/standings.h"

#include <algorithm>

namespace spookludo {

std::vector<Standing> rank_by_finish(const std::vector<std::optional<int>>& finished_at) {
    std::vector<Standing> out;
    out.reserve(finished_at.size());
    for (std::size_t seat = 0; seat < finished_at.size(); ++seat) {
        const auto& mine = finished_at[seat];
        // Place = 1 + the number of seats that did strictly better.
        int better = 0;
        for (const auto& other : finished_at) {
            if (!other) continue;
            if (!mine || *other < *mine) ++better;
        }
        out.push_back({static_cast<int>(seat), better + 1, mine});
    }
    std::stable_sort(out.begin(), out.end(), [](const Standing& a, const Standing& b) { return a.place < b.place; });
    return out;
}

std::vector<int> winners_of(const std::vector<Standing>& standings) {
    std::vector<int> winners;
    for (const auto& s : standings)
        if (s.place == 1 && s.finished_at) winners.push_back(s.seat);
    return winners;
}

}  // namespace spookludo
