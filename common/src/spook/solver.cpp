#include "spookludo/spook/solver.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>

namespace spookludo::spook {

namespace {

constexpr int kBase = kSquares + 1;  // squares 1..40 as digits of a base-41 number

// The positions of k pieces (sorted ascending) and a table from the base-41 code of a sorted
// position to its dense index. Built once per piece count.
struct PositionSpace {
    int pieces = 0;
    std::vector<std::array<std::uint8_t, kMaxPieces>> positions;  // dense index -> sorted squares
    std::vector<std::int32_t> index_of;                           // base-41 code -> dense index

    explicit PositionSpace(int k) : pieces(k) {
        int codes = 1;
        for (int i = 0; i < k; ++i) codes *= kBase;
        index_of.assign(static_cast<std::size_t>(codes), -1);
        std::array<std::uint8_t, kMaxPieces> p{1, 1, 1};
        // Enumerate non-decreasing tuples in lexicographic order.
        while (true) {
            index_of[static_cast<std::size_t>(code(p))] = static_cast<std::int32_t>(positions.size());
            positions.push_back(p);
            int i = k - 1;
            while (i >= 0 && p[static_cast<std::size_t>(i)] == kSquares) --i;
            if (i < 0) break;
            const auto v = static_cast<std::uint8_t>(p[static_cast<std::size_t>(i)] + 1);
            for (int j = i; j < k; ++j) p[static_cast<std::size_t>(j)] = v;
        }
    }

    int code(const std::array<std::uint8_t, kMaxPieces>& sorted) const noexcept {
        int c = 0;
        for (int i = 0; i < pieces; ++i) c = c * kBase + sorted[static_cast<std::size_t>(i)];
        return c;
    }
};

const PositionSpace& space(int pieces) {
    static const PositionSpace one(1), two(2), three(3);
    switch (pieces) {
        case 1: return one;
        case 2: return two;
        case 3: return three;
        default: throw std::invalid_argument("a player has 1, 2 or 3 pieces (got " + std::to_string(pieces) + ")");
    }
}

// Index of an unsorted position of `k` squares.
inline int index_unsorted(const PositionSpace& sp, std::array<std::uint8_t, kMaxPieces> p) noexcept {
    if (sp.pieces >= 2 && p[0] > p[1]) std::swap(p[0], p[1]);
    if (sp.pieces == 3) {
        if (p[1] > p[2]) std::swap(p[1], p[2]);
        if (p[0] > p[1]) std::swap(p[0], p[1]);
    }
    return sp.index_of[static_cast<std::size_t>(sp.code(p))];
}

std::array<std::uint8_t, kMaxPieces> to_array(std::span<const Square> positions) noexcept {
    std::array<std::uint8_t, kMaxPieces> p{1, 1, 1};
    for (std::size_t i = 0; i < positions.size() && i < kMaxPieces; ++i) p[i] = static_cast<std::uint8_t>(positions[i]);
    return p;
}

// Activation outcomes are grouped by character: the hat wakes on two faces of six.
constexpr std::array<Face, 5> kFaceOfCharacter{1, 3, 4, 5, 6};
constexpr std::array<double, 5> kCharacterWeight{2.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6};

}  // namespace

int position_index(std::span<const Square> positions) {
    const auto& sp = space(static_cast<int>(positions.size()));
    return index_unsorted(sp, to_array(positions));
}

int position_count(int pieces) { return static_cast<int>(space(pieces).positions.size()); }

Solution Solution::solve(const Board& board, int pieces, int pieces_to_finish) {
    if (auto empty = board.first_empty_square())
        throw std::invalid_argument("cannot solve a board whose square " + std::to_string(*empty) +
                                    " carries no character");
    if (pieces_to_finish < 1 || pieces_to_finish > pieces)
        throw std::invalid_argument("pieces to finish must be 1 to the number of pieces");
    const PositionSpace& sp = space(pieces);
    const auto n = sp.positions.size();
    const auto k = static_cast<std::size_t>(pieces);

    Solution sol;
    sol.pieces_ = pieces;
    sol.need_ = pieces_to_finish;
    sol.e_.assign(n, 0.0);
    sol.q_.assign(n, 0.0);
    sol.start_ = index_unsorted(sp, {1, 1, 1});

    // Transitions, tabulated once: up to k distinct moves per face, 5 activation outcomes.
    std::vector<std::uint8_t> finished(n, 0);
    std::vector<std::int32_t> moves(n * 6 * kMaxPieces, -1);
    std::vector<std::int32_t> woken(n * 5, -1);
    for (std::size_t s = 0; s < n; ++s) {
        const auto& p = sp.positions[s];
        int in_church = 0;
        for (std::size_t i = 0; i < k; ++i) in_church += p[i] == kChurch;
        finished[s] = in_church >= pieces_to_finish;
        for (std::size_t c = 0; c < 5; ++c) {
            auto q = p;
            for (std::size_t i = 0; i < k; ++i)
                q[i] = static_cast<std::uint8_t>(board.after_activation(kFaceOfCharacter[c], q[i]));
            woken[s * 5 + c] = index_unsorted(sp, q);
        }
        for (int face = 1; face <= 6; ++face) {
            std::int32_t* out = &moves[(s * 6 + static_cast<std::size_t>(face - 1)) * kMaxPieces];
            int count = 0;
            for (std::size_t i = 0; i < k; ++i) {
                if (i > 0 && p[i] == p[i - 1]) continue;  // same square: same outcome
                if (p[i] == kChurch || p[i] + face > kChurch) continue;
                auto q = p;
                q[i] = static_cast<std::uint8_t>(q[i] + face);
                out[count++] = index_unsorted(sp, q);
            }
            if (count == 0) out[0] = static_cast<std::int32_t>(s);  // nobody can move: stay put
        }
    }

    // Gauss-Seidel sweeps from the most advanced positions back: a move only ever goes forward,
    // so every move's value is already this sweep's; only the monsters' backward jumps read
    // values from the previous sweep.
    std::vector<std::int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    auto sum_of = [&](std::int32_t s) {
        int t = 0;
        for (std::size_t i = 0; i < k; ++i) t += sp.positions[static_cast<std::size_t>(s)][i];
        return t;
    };
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return sum_of(a) > sum_of(b); });

    auto& e = sol.e_;
    auto& q = sol.q_;
    constexpr double kTolerance = 1e-10;
    constexpr int kMaxSweeps = 100000;
    for (sol.sweeps_ = 1; sol.sweeps_ <= kMaxSweeps; ++sol.sweeps_) {
        double change = 0;
        for (std::int32_t si : order) {
            const auto s = static_cast<std::size_t>(si);
            if (finished[s]) continue;
            double total = 0;
            for (std::size_t f = 0; f < 6; ++f) {
                const std::int32_t* m = &moves[(s * 6 + f) * kMaxPieces];
                double best = q[static_cast<std::size_t>(m[0])];
                for (std::size_t i = 1; i < kMaxPieces && m[i] >= 0; ++i)
                    best = std::min(best, q[static_cast<std::size_t>(m[i])]);
                total += best;
            }
            const double value = 1.0 + total / 6.0;
            change = std::max(change, std::abs(value - e[s]));
            e[s] = value;
            double after = 0;
            for (std::size_t c = 0; c < 5; ++c) after += kCharacterWeight[c] * e[static_cast<std::size_t>(woken[s * 5 + c])];
            q[s] = after;
        }
        if (change < kTolerance) break;
    }

    int codes = 1;
    for (int i = 0; i < pieces; ++i) codes *= kBase;
    sol.q_by_code_.assign(static_cast<std::size_t>(codes), 0.0);
    for (int c = 0; c < codes; ++c) {
        std::array<std::uint8_t, kMaxPieces> p{1, 1, 1};
        bool valid = true;
        for (int i = pieces - 1, rest = c; i >= 0; --i, rest /= kBase) {
            p[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(rest % kBase);
            valid &= p[static_cast<std::size_t>(i)] >= 1;
        }
        if (valid) sol.q_by_code_[static_cast<std::size_t>(c)] = q[static_cast<std::size_t>(index_unsorted(sp, p))];
    }
    return sol;
}

double Solution::expected_rounds(std::span<const Square> positions) const {
    if (static_cast<int>(positions.size()) != pieces_) throw std::invalid_argument("wrong number of pieces");
    return e_[static_cast<std::size_t>(position_index(positions))];
}

double Solution::expected_after_move(std::span<const Square> positions) const {
    if (static_cast<int>(positions.size()) != pieces_) throw std::invalid_argument("wrong number of pieces");
    return q_[static_cast<std::size_t>(position_index(positions))];
}

int Solution::best_piece(std::span<const Square> positions, Face roll) const noexcept {
    const auto k = static_cast<std::size_t>(pieces_);
    int code = 0;
    for (std::size_t i = 0; i < k; ++i) code = code * kBase + positions[i];
    int best = -1;
    double best_value = 0;
    int place = 1;  // kBase^(k-1-i): the weight of piece i's digit
    for (std::size_t i = 1; i < k; ++i) place *= kBase;
    for (std::size_t i = 0; i < k; ++i, place /= kBase) {
        const Square from = positions[i];
        if (from == kChurch || from + roll > kChurch) continue;
        const double v = q_by_code_[static_cast<std::size_t>(code + roll * place)];
        if (best < 0 || v < best_value) {
            best = static_cast<int>(i);
            best_value = v;
        }
    }
    return best;
}

std::shared_ptr<const Solution> SolutionCache::get(const Board& board, int pieces, int pieces_to_finish) {
    const Key key{board.key(), pieces, pieces_to_finish};
    if (auto it = entries_.find(key); it != entries_.end()) return it->second;
    if (entries_.size() >= kMaxEntries) entries_.clear();
    auto solution = std::make_shared<const Solution>(Solution::solve(board, pieces, pieces_to_finish));
    entries_.emplace(key, solution);
    return solution;
}

}  // namespace spookludo::spook
