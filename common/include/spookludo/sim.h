#pragma once
// The offline simulator of both games: N seeded games, a policy per seat, and a summary.
// Deterministic: the same configuration and seed give the same report (timing is the caller's).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "spookludo/options.h"
#include "spookludo/dice.h"
#include "spookludo/policy.h"
#include "spookludo/record.h"

namespace spookludo {

// What one simulated game produced.
struct GameOutcome {
    std::vector<int> winners;  // joint winners share a win: each counts 1/k
    int length = 0;            // rounds (Spook) or turns (Ludo) played
};

struct SimConfig {
    GameOptions options;
    std::vector<PolicyKind> seats;  // one policy per seat, options.players entries
    int games = 1000;
    std::uint64_t seed = 1;
    // Spook only: a fixed set of boards (board notation, one per player) instead of drawing a
    // set per game; the assignment to seats is still drawn per game.
    std::vector<std::string> boards;
    // When set, games are played with the fair-dice stream and each game's record is passed
    // here (game number from 0). The server seeds then come from `seed`: such records verify,
    // but their dice were not secret, so they are for testing, not for play.
    std::function<void(int, const GameRecord&)> on_record;
};

struct Estimate {
    double mean = 0;  // win share: wins / games, a joint win counting 1/k
    double low = 0;   // 95 % confidence interval (normal approximation on per-game scores)
    double high = 0;
};

struct SeatReport {
    int seat = 0;
    PolicyKind policy = PolicyKind::random;
    double wins = 0;  // joint wins counted 1/k
    Estimate share;
};

struct PolicyReport {
    PolicyKind policy = PolicyKind::random;
    int seats = 0;    // seats playing this policy
    double wins = 0;
    Estimate share;   // per seat: wins / (games * seats)
};

struct SimReport {
    int games = 0;
    std::vector<SeatReport> seats;
    std::vector<PolicyReport> policies;
    double mean_length = 0;
    double median_length = 0;
};

// Accumulates outcomes into a report; separate from the game loop so both games share it.
class SimTally {
public:
    explicit SimTally(std::vector<PolicyKind> seats);
    void add(const GameOutcome& outcome);
    SimReport report() const;

private:
    std::vector<PolicyKind> seats_;
    std::vector<double> sum_, sum_sq_;  // per seat, of per-game scores
    std::vector<int> lengths_;
};

// Plays config.games games. `progress`, when set, is called with the number of games done
// (every few games and at the end). Throws std::invalid_argument for invalid options or a
// policy list that does not match the number of players.
SimReport simulate(const SimConfig& config, const std::function<void(int)>& progress = {});

}  // namespace spookludo
