#include "spookludo/spook/policy.h"

#include <stdexcept>

namespace spookludo::spook {

namespace {

// Expected square of a piece on `s` after the activation roll.
double expected_after_activation(const Board& board, Square s) noexcept {
    double total = 0;
    for (Face f = 1; f <= 6; ++f) total += board.after_activation(f, s);
    return total / 6.0;
}

}  // namespace

double greedy_score(const Board& board, const Move& move) noexcept {
    if (move.to == kChurch) return 1000.0;
    return expected_after_activation(board, move.to) - expected_after_activation(board, move.from);
}

int choose_piece(PolicyKind kind, const Game& game, int seat, Rng& rng, const Solution* best) {
    const MoveList& moves = game.legal_moves(seat);
    if (moves.empty()) return -1;
    if (moves.size == 1) return moves[0].piece;
    switch (kind) {
        case PolicyKind::random: return moves[static_cast<int>(rng.uniform(static_cast<std::uint32_t>(moves.size)))].piece;
        case PolicyKind::greedy: {
            const Board& board = game.board(seat);
            int pick = 0;
            double top = greedy_score(board, moves[0]);
            for (int i = 1; i < moves.size; ++i) {
                const double v = greedy_score(board, moves[i]);
                if (v > top) {
                    top = v;
                    pick = i;
                }
            }
            return moves[pick].piece;
        }
        case PolicyKind::best: {
            if (!best || best->pieces() != game.pieces())
                throw std::invalid_argument("the best policy needs the solution of the seat's board");
            return best->best_piece(game.player(seat).positions(), *game.movement_roll());
        }
    }
    return moves[0].piece;
}

}  // namespace spookludo::spook
