#include "spookludo/spook/play.h"

#include "spookludo/spook/setup.h"

namespace spookludo::spook {

GameOutcome play_game(const GameOptions& options, const std::vector<PolicyKind>& seats,
                      const std::vector<Board>& board_set, Dice& dice, Rng& policy_rng, SolutionCache& cache) {
    Game game(options, boards_by_seat(board_set, draw_assignment(static_cast<int>(board_set.size()), dice)));
    play_out(game, seats, dice, policy_rng, cache);
    return {game.winners(), game.round()};
}

}  // namespace spookludo::spook
