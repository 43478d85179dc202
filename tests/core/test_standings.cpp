// Places by the moment of finishing, shared by both games: ties share a place, seats that never
// finished share the place after all finishers.
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "spookludo/rng.h"
#include "spookludo/standings.h"

using namespace spookludo;

namespace {

using Finish = std::vector<std::optional<int>>;

struct Row {
    int seat, place;
    std::optional<int> at;
};

std::vector<Row> rows(const std::vector<Standing>& st) {
    std::vector<Row> out;
    for (const auto& s : st) out.push_back({s.seat, s.place, s.finished_at});
    return out;
}

bool operator==(const Row& a, const Row& b) {
    return a.seat == b.seat && a.place == b.place && a.at == b.at;
}

}  // namespace

TEST_CASE("earlier finishers rank higher [core][standings]") {
    const auto st = rank_by_finish(Finish{30, 12, 20});
    CHECK(rows(st) == std::vector<Row>{{1, 1, 12}, {2, 2, 20}, {0, 3, 30}});
    CHECK(winners_of(st) == std::vector<int>{1});
}

TEST_CASE("ties share a place and the next place is skipped [core][standings]") {
    const auto st = rank_by_finish(Finish{7, 5, 7, 5, 9});
    CHECK(rows(st) == std::vector<Row>{{1, 1, 5}, {3, 1, 5}, {0, 3, 7}, {2, 3, 7}, {4, 5, 9}});
    CHECK(winners_of(st) == std::vector<int>{1, 3});
}

TEST_CASE("seats that never finished share the place after all finishers [core][standings]") {
    const auto st = rank_by_finish(Finish{std::nullopt, 14, std::nullopt, 14, 20});
    CHECK(rows(st) == std::vector<Row>{{1, 1, 14}, {3, 1, 14}, {4, 3, 20}, {0, 4, std::nullopt}, {2, 4, std::nullopt}});
    CHECK(winners_of(st) == std::vector<int>{1, 3});
}

TEST_CASE("nobody finished: everyone shares place 1 but nobody won [core][standings]") {
    const auto st = rank_by_finish(Finish{std::nullopt, std::nullopt, std::nullopt});
    REQUIRE(st.size() == 3);
    for (const auto& s : st) {
        CHECK(s.place == 1);
        CHECK_FALSE(s.finished_at.has_value());
    }
    CHECK(winners_of(st).empty());
    CHECK(rank_by_finish(Finish{}).empty());
    CHECK(winners_of({}).empty());
}

TEST_CASE("one seat [core][standings]") {
    CHECK(rows(rank_by_finish(Finish{3})) == std::vector<Row>{{0, 1, 3}});
    CHECK(winners_of(rank_by_finish(Finish{3})) == std::vector<int>{0});
}

TEST_CASE("random finishes against a plain reference [core][standings]") {
    Rng rng(31);
    for (int trial = 0; trial < 500; ++trial) {
        const int seats = 1 + static_cast<int>(rng.uniform(8));
        Finish f;
        for (int s = 0; s < seats; ++s) {
            if (rng.uniform(4) == 0)
                f.push_back(std::nullopt);
            else
                f.push_back(1 + static_cast<int>(rng.uniform(5)));
        }
        const auto st = rank_by_finish(f);
        REQUIRE(st.size() == f.size());
        // Sorted by place, then seat; every seat once.
        std::vector<bool> seen(f.size(), false);
        for (std::size_t i = 0; i < st.size(); ++i) {
            const auto& s = st[i];
            REQUIRE(s.seat >= 0);
            REQUIRE(s.seat < seats);
            CHECK_FALSE(seen[static_cast<std::size_t>(s.seat)]);
            seen[static_cast<std::size_t>(s.seat)] = true;
            CHECK(s.finished_at == f[static_cast<std::size_t>(s.seat)]);
            if (i > 0) {
                const auto& prev = st[i - 1];
                CHECK((prev.place < s.place || (prev.place == s.place && prev.seat < s.seat)));
            }
            // Place = 1 + the seats strictly ahead; a finisher is ahead of every non-finisher.
            int ahead = 0;
            for (const auto& other : f) {
                const auto& mine = s.finished_at;
                if (other && (!mine || *other < *mine)) ++ahead;
            }
            CHECK(s.place == ahead + 1);
        }
        // The winners: the earliest finishers, if any.
        std::optional<int> first;
        for (const auto& x : f)
            if (x && (!first || *x < *first)) first = x;
        std::vector<int> expected;
        for (int s = 0; s < seats; ++s)
            if (first && f[static_cast<std::size_t>(s)] == first) expected.push_back(s);
        CHECK(winners_of(st) == expected);
    }
}
