#include "bot_brain.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "spookludo/dice.h"
#include "spookludo/ludo/game.h"
#include "spookludo/ludo/policy.h"
#include "spookludo/spook/board.h"
#include "spookludo/spook/policy.h"

namespace spookludo::client {

int BotBrain::choose(const GameView& view) {
    const auto& pending = view.pending();
    if (!pending || pending->decision.options.empty()) return -1;
    const auto& d = pending->decision;
    try {
        if (policy_ == PolicyKind::random)
            return d.options[static_cast<std::size_t>(rng_.uniform(static_cast<std::uint32_t>(d.options.size())))].piece;
        return view.options().game == GameKind::spook ? choose_spook(view, d) : choose_ludo(view, d);
    } catch (const std::exception& e) {
        static bool told = false;
        if (!told) std::fprintf(stderr, "bot: %s; answering with the first option\n", e.what());
        told = true;
        return d.options.front().piece;
    }
}

int BotBrain::choose_spook(const GameView& view, const protocol::Decision& d) {
    const auto seat = static_cast<std::size_t>(d.seat);
    if (seat >= view.spook_boards().size()) throw std::runtime_error("no board known for seat " + std::to_string(d.seat));
    const auto board = spook::Board::from_notation(view.spook_boards()[seat]);
    if (policy_ == PolicyKind::greedy) {
        const auto best = std::max_element(d.options.begin(), d.options.end(), [&](const auto& a, const auto& b) {
            return spook::greedy_score(board, spook::Move{a.piece, a.from, a.to}) <
                   spook::greedy_score(board, spook::Move{b.piece, b.from, b.to});
        });
        return best->piece;
    }
    const auto& options = view.options();
    const auto solution = solutions_.get(board, options.spook.pieces, options.spook.pieces_to_finish());
    const auto& positions = view.spook_positions().at(seat);
    std::vector<spook::Square> squares(positions.begin(), positions.end());
    const int piece = solution->best_piece(squares, view.movement_roll().value_or(0));
    // The solver names the lowest piece among those on one square; the server accepts any of
    // them, but answer with one the decision listed.
    for (const auto& o : d.options)
        if (o.piece == piece) return piece;
    const int from = squares.at(static_cast<std::size_t>(piece));
    for (const auto& o : d.options)
        if (o.from == from) return o.piece;
    throw std::runtime_error("best piece " + std::to_string(piece) + " is not among the options");
}

int BotBrain::choose_ludo(const GameView& view, const protocol::Decision& d) {
    auto game = ludo::Game::from_position(view.options(), view.ludo_position(d.seat));
    game.apply_throw(static_cast<Face>(view.last_face().value_or(0)));
    if (game.phase() != ludo::Phase::awaiting_choice)
        throw std::runtime_error("the position " + view.ludo_position(d.seat) + " with a " +
                                 std::to_string(view.last_face().value_or(0)) + " leaves nothing to choose");
    const int piece = ludo::choose_piece(policy_, game, rng_);
    for (const auto& o : d.options)
        if (o.piece == piece) return piece;
    // Pieces standing together give one option, named by the lowest of them. The engine's seats
    // are the players in play order; d.seat is a room seat (seats need not be contiguous).
    const int from = game.progress(view.play_index(d.seat), piece);
    for (const auto& o : d.options)
        if (o.from == from) return o.piece;
    throw std::runtime_error("the engine's piece " + std::to_string(piece) + " is not among the options");
}

}  // namespace spookludo::client
