#pragma once
// Playing a whole game of Spook & Werewolf Ludo offline, bots in every seat (the simulator, the
// benchmarks, and records written by the simulator).
#include <memory>
#include <stdexcept>
#include <vector>

#include "spookludo/sim.h"
#include "spookludo/spook/game.h"
#include "spookludo/spook/match.h"
#include "spookludo/spook/policy.h"
#include "spookludo/spook/solver.h"

namespace spookludo::spook {

// A game and the dice it is rolled with: the plain form of what Match is with fair dice.
struct DiceTable {
    Game& game_ref;
    Dice& dice;
    const Game& game() const noexcept { return game_ref; }
    bool over() const noexcept { return game_ref.over(); }
    Face roll_movement() {
        const Face f = dice.roll(DrawPurpose::movement);
        (void)game_ref.roll_movement(f);
        return f;
    }
    Verdict choose(int seat, int piece, ChoiceMaker) { return game_ref.choose(seat, piece); }
    Verdict apply_moves() { return game_ref.apply_moves(); }
    Face activate() {
        const Face f = dice.roll(DrawPurpose::activation);
        (void)game_ref.activate(f);
        return f;
    }
};

// Plays rounds to the end of the game on `table` (a DiceTable or a Match), a policy per seat.
template <class Table>
void play_out(Table& table, const std::vector<PolicyKind>& seats, Rng& policy_rng, SolutionCache& cache) {
    const Game& game = table.game();
    if (static_cast<int>(seats.size()) != game.players()) throw std::invalid_argument("one policy per seat is needed");
    std::vector<std::shared_ptr<const Solution>> solutions(seats.size());
    for (std::size_t s = 0; s < seats.size(); ++s)
        if (seats[s] == PolicyKind::best)
            solutions[s] = cache.get(game.board(static_cast<int>(s)), game.pieces(), game.options().spook.pieces_to_finish());
    while (!table.over()) {
        table.roll_movement();
        for (int s = 0; s < game.players(); ++s) {
            if (!game.needs_decision(s)) continue;
            const auto idx = static_cast<std::size_t>(s);
            const int piece = choose_piece(seats[idx], game, s, policy_rng, solutions[idx].get());
            if (auto v = table.choose(s, piece, ChoiceMaker::player); !v)
                throw std::logic_error("a policy chose an illegal move: " + v.reason);
        }
        if (auto v = table.apply_moves(); !v) throw std::logic_error(v.reason);
        table.activate();
    }
}

// The same on a plain game rolled with `dice`.
inline void play_out(Game& game, const std::vector<PolicyKind>& seats, Dice& dice, Rng& policy_rng,
                     SolutionCache& cache) {
    DiceTable table{game, dice};
    play_out(table, seats, policy_rng, cache);
}

// Plays one game with the published `board_set`: draws the assignment of boards to seats from
// `dice`, then rounds until the game ends. `seats` holds one policy per player; `cache` solves
// each board once for the `best` policy. Length = rounds played.
GameOutcome play_game(const GameOptions& options, const std::vector<PolicyKind>& seats,
                      const std::vector<Board>& board_set, Dice& dice, Rng& policy_rng, SolutionCache& cache);

}  // namespace spookludo::spook
