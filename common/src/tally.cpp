#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "spookludo/sim.h"

namespace spookludo {

SimTally::SimTally(std::vector<PolicyKind> seats)
    : seats_(std::move(seats)), sum_(seats_.size(), 0.0), sum_sq_(seats_.size(), 0.0) {}

void SimTally::add(const GameOutcome& outcome) {
    if (!outcome.winners.empty()) {
        const double share = 1.0 / static_cast<double>(outcome.winners.size());
        for (int w : outcome.winners) {
            if (w < 0 || static_cast<std::size_t>(w) >= seats_.size())
                throw std::logic_error("a game reported a winner outside its seats");
            sum_[static_cast<std::size_t>(w)] += share;
            sum_sq_[static_cast<std::size_t>(w)] += share * share;
        }
    }
    lengths_.push_back(outcome.length);
}

namespace {

// Mean and 95 % interval of per-game scores, from their sum and sum of squares over n games.
Estimate estimate(double sum, double sum_sq, double n) {
    Estimate e;
    if (n <= 0) return e;
    e.mean = sum / n;
    const double var = n > 1 ? std::max(0.0, (sum_sq - sum * sum / n) / (n - 1)) : 0.0;
    const double half = 1.959963984540054 * std::sqrt(var / n);
    e.low = std::max(0.0, e.mean - half);
    e.high = std::min(1.0, e.mean + half);
    return e;
}

}  // namespace

SimReport SimTally::report() const {
    SimReport r;
    r.games = static_cast<int>(lengths_.size());
    const double n = r.games;
    for (std::size_t s = 0; s < seats_.size(); ++s)
        r.seats.push_back({static_cast<int>(s), seats_[s], sum_[s], estimate(sum_[s], sum_sq_[s], n)});

    for (PolicyKind kind : {PolicyKind::random, PolicyKind::greedy, PolicyKind::best}) {
        PolicyReport p;
        p.policy = kind;
        double sum = 0, sum_sq = 0;
        for (std::size_t s = 0; s < seats_.size(); ++s) {
            if (seats_[s] != kind) continue;
            ++p.seats;
            sum += sum_[s];
            sum_sq += sum_sq_[s];
        }
        if (p.seats == 0) continue;
        p.wins = sum;
        // Every seat-game of this policy is one observation of the per-seat win share.
        p.share = estimate(sum, sum_sq, n * p.seats);
        r.policies.push_back(p);
    }

    if (!lengths_.empty()) {
        double total = 0;
        for (int l : lengths_) total += l;
        r.mean_length = total / n;
        std::vector<int> sorted = lengths_;
        std::sort(sorted.begin(), sorted.end());
        const std::size_t mid = sorted.size() / 2;
        r.median_length = sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }
    return r;
}

}  // namespace spookludo
