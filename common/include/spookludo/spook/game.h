#pragma once
// One game of Spook & Werewolf Ludo (RULES.md part 1) as a copyable value. The caller supplies
// the dice faces and the players' choices; the game checks every step against the rules.
//
// A round runs through the phases:
//   movement_roll  -- roll_movement(face) -->  choosing
//   choosing       -- choose(seat, piece) for every seat that needs_decision(), then
//                     apply_moves() -->  activation_roll
//   activation_roll -- activate(face) -->  movement_roll, or finished
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "spookludo/options.h"
#include "spookludo/spook/board.h"
#include "spookludo/standings.h"
#include "spookludo/verdict.h"

namespace spookludo::spook {

inline constexpr int kMaxPlayers = 8;

enum class RoundPhase : std::uint8_t { movement_roll, choosing, activation_roll, finished };
std::string_view to_string(RoundPhase phase) noexcept;

// Who decided a move: the player, nobody (only one outcome was possible), or the server with
// best play for a player who did not choose in time or is away.
enum class ChoiceSource : std::uint8_t { player, only_move, timeout, away };
std::string_view to_string(ChoiceSource source) noexcept;

// A legal move: which piece, from where to where.
struct Move {
    int piece = 0;
    Square from = 0;
    Square to = 0;
    friend bool operator==(const Move&, const Move&) = default;
};

// The distinct legal moves of one player for one roll: at most one per occupied square.
struct MoveList {
    std::array<Move, kMaxPieces> moves{};
    int size = 0;
    const Move* begin() const noexcept { return moves.data(); }
    const Move* end() const noexcept { return moves.data() + size; }
    bool empty() const noexcept { return size == 0; }
    const Move& operator[](int i) const noexcept { return moves[static_cast<std::size_t>(i)]; }
};

struct PlayerState {
    std::array<Square, kMaxPieces> pieces{kStartSquare, kStartSquare, kStartSquare};
    int piece_count = 2;
    std::optional<int> finished_round;  // the round in which enough pieces reached the church

    std::span<const Square> positions() const noexcept {
        return {pieces.data(), static_cast<std::size_t>(piece_count)};
    }
    int in_church() const noexcept;
};

// What happened to one piece in a step of the round.
struct PieceMove {
    int seat = 0;
    int piece = 0;
    Square from = 0;
    Square to = 0;
};

// The moves of a round, as applied by apply_moves(): one entry per seat that took part.
struct MoveRecord {
    int seat = 0;
    std::optional<Move> move;  // empty: no piece could move, the player stays put
    ChoiceSource source = ChoiceSource::only_move;
};

// The activation of a round: the face, the character it woke, every piece that it moved, and
// the seats that finished this round.
struct ActivationRecord {
    Face face = 0;
    Character character = Character::none;
    std::vector<PieceMove> moved;
    std::vector<int> finished;
};

class Game {
public:
    // `boards` in seat order, one per player (options.players), all different and fully filled.
    // Throws std::invalid_argument when the options or boards are not playable.
    Game(const GameOptions& options, std::vector<Board> boards);
    Game(const GameOptions& options, std::vector<SharedBoard> boards);

    const GameOptions& options() const noexcept { return options_; }
    int players() const noexcept { return options_.players; }
    int pieces() const noexcept { return options_.spook.pieces; }
    RoundPhase phase() const noexcept { return phase_; }
    int round() const noexcept { return round_; }  // 1 in the first round
    bool over() const noexcept { return phase_ == RoundPhase::finished; }
    const Board& board(int seat) const { return *boards_.at(static_cast<std::size_t>(seat)); }
    const PlayerState& player(int seat) const { return players_.at(static_cast<std::size_t>(seat)); }
    std::optional<Face> movement_roll() const noexcept { return roll_; }

    // A seat still playing (not finished, or finished but play goes on without it).
    bool in_play(int seat) const { return !player(seat).finished_round.has_value(); }

    // Movement roll: phase movement_roll -> choosing.
    Verdict roll_movement(Face face);

    // The distinct legal moves of `seat` for the current movement roll (empty when none, or
    // outside the choosing phase). Computed once per roll.
    const MoveList& legal_moves(int seat) const noexcept;
    // Whether `seat` has a real choice (two or more distinct moves) and has not yet chosen.
    bool needs_decision(int seat) const;
    // The seats that still have to choose this round.
    std::vector<int> awaiting() const;
    // A player's choice of which piece to move. Final once accepted. Rejected (and nothing
    // changes) outside the choosing phase, for a seat out of range or not in play, a piece that
    // cannot move, or a second choice.
    Verdict choose(int seat, int piece, ChoiceSource source = ChoiceSource::player);
    std::optional<Move> chosen(int seat) const;

    // Applies every player's move together: choosing -> activation_roll. Seats with only one
    // outcome are moved without asking; every seat with a real choice must have chosen.
    Verdict apply_moves();
    const std::vector<MoveRecord>& last_moves() const noexcept { return last_moves_; }

    // Activation roll and action, then the end of the round: activation_roll -> movement_roll
    // or finished.
    Verdict activate(Face face);
    const ActivationRecord& last_activation() const noexcept { return last_activation_; }

    // Places by the round of finishing (ties shared); seats that did not finish come last.
    std::vector<Standing> standings() const;
    // The joint winners: every seat that finished in the first round anyone finished.
    std::vector<int> winners() const;

private:
    bool game_should_end() const;
    MoveList compute_moves(int seat) const noexcept;

    GameOptions options_;
    std::vector<SharedBoard> boards_;  // shared, never changed: copies of a game (a bot's look-ahead) share them
    std::vector<PlayerState> players_;
    RoundPhase phase_ = RoundPhase::movement_roll;
    int round_ = 1;
    std::optional<Face> roll_;
    std::array<MoveList, kMaxPlayers> moves_{};                    // legal moves per seat, this roll
    std::array<std::optional<int>, kMaxPlayers> choice_{};         // chosen piece per seat
    std::array<ChoiceSource, kMaxPlayers> choice_source_{};
    std::vector<MoveRecord> last_moves_;
    ActivationRecord last_activation_;
};

}  // namespace spookludo::spook
