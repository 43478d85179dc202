#include "spookludo/spook/play.h"

#include <stdexcept>

#include "spookludo/spook/policy.h"
#include "spookludo/spook/setup.h"

namespace spookludo::spook {

void play_out(Game& game, const std::vector<PolicyKind>& seats, Dice& dice, Rng& policy_rng, SolutionCache& cache) {
    if (static_cast<int>(seats.size()) != game.players())
        throw std::invalid_argument("one policy per seat is needed");
    std::vector<std::shared_ptr<const Solution>> solutions(seats.size());
    for (std::size_t s = 0; s < seats.size(); ++s)
        if (seats[s] == PolicyKind::best)
            solutions[s] = cache.get(game.board(static_cast<int>(s)), game.pieces(), game.options().spook.pieces_to_finish());

    while (!game.over()) {
        (void)game.roll_movement(dice.roll(DrawPurpose::movement));
        for (int s = 0; s < game.players(); ++s) {
            if (!game.needs_decision(s)) continue;
            const auto idx = static_cast<std::size_t>(s);
            const int piece = choose_piece(seats[idx], game, s, policy_rng, solutions[idx].get());
            if (auto v = game.choose(s, piece); !v) throw std::logic_error("a policy chose an illegal move: " + v.reason);
        }
        if (auto v = game.apply_moves(); !v) throw std::logic_error(v.reason);
        (void)game.activate(dice.roll(DrawPurpose::activation));
    }
}

GameOutcome play_game(const GameOptions& options, const std::vector<PolicyKind>& seats,
                      const std::vector<Board>& board_set, Dice& dice, Rng& policy_rng, SolutionCache& cache) {
    const std::vector<int> board_of_seat = draw_assignment(static_cast<int>(board_set.size()), dice);
    std::vector<Board> boards;
    boards.reserve(board_set.size());
    for (int b : board_of_seat) boards.push_back(board_set[static_cast<std::size_t>(b)]);
    Game game(options, std::move(boards));
    play_out(game, seats, dice, policy_rng, cache);
    return {game.winners(), game.round()};
}

}  // namespace spookludo::spook
