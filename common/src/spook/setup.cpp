#include "spookludo/spook/setup.h"

#include "spookludo/spook/solver.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace spookludo::spook {

std::vector<Board> choose_board_set(const GameOptions& options, Rng& rng) {
    if (auto err = options.validate()) throw std::invalid_argument(*err);
    const auto count = static_cast<std::size_t>(options.players);
    std::vector<Board> boards;
    boards.reserve(count);
    if (options.spook.balanced_boards) {
        const auto pool = balanced_pool(options.spook.pieces);
        if (pool.size() < count) throw std::logic_error("the balanced board pool is smaller than a full table");
        // A partial Fisher-Yates over the pool's indices picks `count` distinct boards.
        std::vector<std::size_t> idx(pool.size());
        std::iota(idx.begin(), idx.end(), std::size_t{0});
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t j = i + rng.uniform(static_cast<std::uint32_t>(idx.size() - i));
            std::swap(idx[i], idx[j]);
            boards.push_back(Board::from_notation(pool[idx[i]].notation));
        }
    } else {
        while (boards.size() < count) {
            Board b = Board::random(rng);
            if (std::find(boards.begin(), boards.end(), b) == boards.end()) boards.push_back(b);
        }
    }
    return boards;
}

std::vector<int> draw_assignment(int count, Dice& dice) {
    std::vector<int> board_of_seat(static_cast<std::size_t>(count));
    std::iota(board_of_seat.begin(), board_of_seat.end(), 0);
    for (int i = 0; i + 1 < count; ++i) {
        const int last = count - 1 - i;
        const auto j = dice.draw(static_cast<std::uint32_t>(last + 1), DrawPurpose::assignment);
        std::swap(board_of_seat[static_cast<std::size_t>(last)], board_of_seat[j]);
    }
    return board_of_seat;
}

namespace {

template <class B>
std::vector<B> by_seat(const std::vector<B>& published, const std::vector<int>& board_of_seat) {
    std::vector<B> boards;
    boards.reserve(board_of_seat.size());
    for (int b : board_of_seat) boards.push_back(published.at(static_cast<std::size_t>(b)));
    return boards;
}

}  // namespace

std::vector<Board> boards_by_seat(const std::vector<Board>& published, const std::vector<int>& board_of_seat) {
    return by_seat(published, board_of_seat);
}

std::vector<SharedBoard> boards_by_seat(const std::vector<SharedBoard>& published, const std::vector<int>& board_of_seat) {
    return by_seat(published, board_of_seat);
}

double balance_spread(std::span<const double> expected) noexcept {
    if (expected.size() < 2) return 0.0;
    const auto [lo, hi] = std::minmax_element(expected.begin(), expected.end());
    return (*hi - *lo) / *lo;
}

BoardSetReport report_boards(std::span<const Board> boards, int pieces) {
    BoardSetReport report;
    std::vector<double> finishes;
    for (const Board& b : boards) {
        BoardSetReport::Entry e;
        for (std::size_t c = 0; c < kCharacters.size(); ++c) e.counts[c] = b.count(kCharacters[c]);
        e.expected_finish = Solution::solve(b, pieces, spook_pieces_to_finish(pieces)).expected_finish();
        report.seven_of_each = report.seven_of_each && b.has_seven_of_each();
        finishes.push_back(e.expected_finish);
        report.boards.push_back(e);
    }
    report.spread = balance_spread(finishes);
    return report;
}

}  // namespace spookludo::spook
