#pragma once
// Classic Ludo (RULES.md part 2): the game state as a small copyable value, its one legal-move
// generator, and the steps a server (or the simulator, or a search) drives it through:
//
//   awaiting_roll_off --roll_off(dice)--> awaiting_throw --throw_die(dice)--> awaiting_choice
//        awaiting_choice --choose(seat, piece)--> awaiting_throw (same seat after a played 6,
//        otherwise the next seat) ... --> finished
//
// A throw with no legal move (also a 6), or a third 6 in a row under the three_sixes option,
// passes play on without entering awaiting_choice. The house rules (options.h, docs/rules.md)
// change where pieces may go and capture (safe_squares, capture_to_home, teams: partners never
// capture each other, and two pieces of one team on a square block the other team), who throws
// again (bonus_throws) and who wins (teams). Every step can report what happened as
// events (for broadcasts and game records); pass nullptr where nobody listens (the hot path).
//
// Position notation (tests, logs): the seats in seat order, separated by spaces, each its colour
// name, a '*' when it is that seat's turn, ':' and its four pieces' progress separated by commas,
// 'Y' for the yard and 'H' for home, 'B' for the square behind the start square (capture_to_home),
// and a '+' after the colour of a seat that has captured (written under capture_to_home only):
//   "green*:Y,Y,5,12 red:H,Y,50,Y"   "green+*:B,Y,5,12 red:H,Y,50,Y"
// Progress is the piece's own track (see geometry.h): 0 = its start square, up to 8n+2 on the
// circuit, then the home column, home = 9n+2 (written H).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spookludo/dice.h"
#include "spookludo/ludo/geometry.h"
#include "spookludo/options.h"
#include "spookludo/standings.h"
#include "spookludo/verdict.h"

namespace spookludo::ludo {

enum class Phase : std::uint8_t { awaiting_roll_off, awaiting_throw, awaiting_choice, finished };
std::string_view to_string(Phase phase) noexcept;

// One legal choice for the current throw.
struct Move {
    std::int8_t piece = -1;          // 0..3
    std::int8_t from = 0;            // progress before (yard = -1)
    std::int8_t to = 0;              // progress after
    std::int8_t captured_seat = -1;  // whose single piece is sent back to its yard, -1 for none
    std::int8_t captured_piece = -1;

    constexpr bool enters() const noexcept { return from == kYard; }
    constexpr bool captures() const noexcept { return captured_seat >= 0; }
    friend constexpr bool operator==(const Move&, const Move&) = default;
};

// The distinct legal choices of a throw: at most one per piece, and pieces standing together
// (in the yard, or in one block) give one choice, named by the lowest-numbered of them.
class MoveList {
public:
    constexpr int size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr const Move& operator[](int i) const noexcept { return moves_[static_cast<std::size_t>(i)]; }
    constexpr const Move* begin() const noexcept { return moves_.data(); }
    constexpr const Move* end() const noexcept { return moves_.data() + size_; }
    constexpr void push_back(const Move& m) noexcept { moves_[static_cast<std::size_t>(size_++)] = m; }

private:
    std::array<Move, kPiecesPerPlayer> moves_{};
    int size_ = 0;
};

enum class EventKind : std::uint8_t {
    roll_off_throw,  // seat, face: a throw of the roll-off
    starts,          // seat: won the roll-off and throws first
    throw_,          // seat, face, turn: a throw of the game
    pass,            // seat: no legal move for this throw; play passes on
    three_sixes,     // seat: third 6 in a row (option), unplayed; play passes on
    entered,         // seat, piece, from (= yard), to, square: a piece left the yard
    moved,           // seat, piece, from, to, square (-1 in the home column / home)
    captured,        // seat, piece (the captured one), from (its progress), square; back to its yard
    reached_home,    // seat, piece
    finished,        // seat, turn: all four pieces home
    extra_throw,     // seat, detail (an ExtraThrow): a played 6 (or a bonus), the same seat throws again
    turn,            // seat: play passes to this seat
    game_over,       // turn
    // House rules:
    safe_square,     // seat, piece, square, detail (a seat standing there): landed beside it, no capture
    circles,         // seat, piece, from, to: passed its home column (no capture yet) and goes round again
    team_finished,   // seat, detail (the partner), turn: both partners have all their pieces home
};

// Why a seat throws again (the extra_throw event's detail).
enum class ExtraThrow : std::int8_t { six = 0, capture = 1, home = 2 };
std::string_view to_string(EventKind kind) noexcept;

struct Event {
    EventKind kind = EventKind::turn;
    std::int8_t seat = -1;
    std::int8_t piece = -1;
    std::int8_t face = 0;
    std::int8_t from = 0;
    std::int8_t to = 0;
    std::int8_t square = -1;
    int turn = 0;
    std::int8_t detail = -1;  // see the kinds above
    friend bool operator==(const Event&, const Event&) = default;
};
using EventLog = std::vector<Event>;

// A readable line for an event, e.g. "red piece 2 is captured on circuit square 31 and goes back
// to its yard" (English, for logs and simple clients).
std::string describe(const Event& event, int players);

class Game {
public:
    // Throws std::invalid_argument when the options are not valid Ludo options.
    explicit Game(const GameOptions& options);

    // A game in the given position (notation above), awaiting the throw of the marked seat
    // (seat 0 when none is marked). Throws std::invalid_argument naming what is wrong. Seats
    // already all home count as finished at turn 0.
    static Game from_position(const GameOptions& options, std::string_view position);
    std::string position() const;

    // --- Questions -------------------------------------------------------------------------
    const GameOptions& options() const noexcept { return options_; }
    const Geometry& geometry() const noexcept { return geometry_; }
    int players() const noexcept { return players_; }
    Colour colour(int seat) const noexcept { return colours_[idx(seat)]; }
    Phase phase() const noexcept { return phase_; }
    int current_seat() const noexcept { return seat_; }   // whose throw or choice it is
    Face face() const noexcept { return face_; }          // the throw to play (awaiting_choice)
    int sixes_in_row() const noexcept { return sixes_; }  // of the current seat's turn
    int turns() const noexcept { return turns_; }         // throws of the game so far
    int progress(int seat, int piece) const noexcept { return progress_[idx(seat)][idx(piece)]; }
    int pieces_home(int seat) const noexcept { return home_count_[idx(seat)]; }
    bool has_finished(int seat) const noexcept { return finished_at_[idx(seat)] >= 0; }
    std::optional<int> finished_at(int seat) const noexcept;
    int unfinished_players() const noexcept;

    // Who stands on a circuit square: a seat, or -1 (several colours share a square only on a safe
    // square, or partners under teams: then the lowest seat), and how many pieces in all.
    int occupant(int square) const noexcept;
    int occupant_count(int square) const noexcept;
    int count_on(int square, int seat) const noexcept { return (squares_[idx(square)] >> (4 * seat)) & 15; }
    // A block: two or more pieces of one side (a colour, or under teams a team) on the square.
    bool is_block(int square) const noexcept;
    // A block that pieces of `seat` can neither pass nor land on (another side's).
    bool blocks(int seat, int square) const noexcept;
    // The side a seat plays for: itself, or under teams its team (0: seats 1 and 3, 1: seats 2 and 4).
    int side(int seat) const noexcept { return options_.ludo.teams ? seat % 2 : seat; }
    int partner(int seat) const noexcept { return options_.ludo.teams ? (seat + 2) % 4 : -1; }
    // The seat has captured a piece in this game (capture_to_home opens its home column).
    bool has_captured(int seat) const noexcept { return captured_[idx(seat)]; }
    // Under capture_to_home, whether seat's pieces may turn into their home column.
    bool may_enter_home(int seat) const noexcept { return !options_.ludo.capture_to_home || captured_[idx(seat)]; }

    // The legal choices of the current throw (empty unless awaiting_choice).
    MoveList legal_moves() const noexcept;
    // The legal choices a seat would have with this face in the current position (a question
    // only: play() takes moves of legal_moves()).
    MoveList legal_moves_for(int seat, Face face) const noexcept;

    // Standings so far (final once finished): rank_by_finish on the turns seats finished in (under
    // teams, the turn the team's second partner finished: partners share their place).
    std::vector<Standing> standings() const;
    std::vector<int> winners() const;  // seats with place 1 (empty until someone finishes)

    // --- Steps -----------------------------------------------------------------------------
    // Every player throws (DrawPurpose::roll_off); the highest starts; those tied for highest
    // throw again. Only decides who starts. Throws std::logic_error outside awaiting_roll_off.
    void roll_off(Dice& dice, EventLog* log = nullptr);
    // Skip the roll-off: `seat` throws first (tests, positions).
    void start_with(int seat);

    // Whether `seat` may throw now (a readable reason when not).
    Verdict can_throw(int seat) const;
    // The current seat throws (DrawPurpose::throw_). Throws std::logic_error outside awaiting_throw.
    void throw_die(Dice& dice, EventLog* log = nullptr);
    // The same with a given face (search, tests).
    void apply_throw(Face face, EventLog* log = nullptr);

    // Whether `seat` may move `piece` with the current throw (a readable reason when not).
    Verdict check(int seat, int piece) const;
    // Moves `piece` of `seat` with the current throw; an illegal choice is rejected with the
    // reason and changes nothing.
    Verdict choose(int seat, int piece, EventLog* log = nullptr);
    // Plays a move taken from legal_moves(), unchecked (bots, search).
    void play(const Move& move, EventLog* log = nullptr);

    // Every invariant of the state; empty when all hold, else what is broken (tests).
    std::optional<std::string> broken_invariant() const;

    friend bool operator==(const Game&, const Game&) = default;

private:
    static constexpr std::size_t idx(int i) noexcept { return static_cast<std::size_t>(i); }
    static constexpr int kMaxSquares = 8 * 8 + 4;

    enum class MoveCheck : std::uint8_t { ok, home_already, needs_six, overshoots, entry_blocked, path_blocked };
    // Whether piece `piece` of `seat` can move with `face`; fills `move` when it can.
    MoveCheck check_piece(int seat, int piece, Face face, Move& move, int& blocked_square) const noexcept;
    void put(int seat, int square) noexcept;
    void lift(int seat, int square) noexcept;
    void end_turn(EventLog* log);  // play passes to the next unfinished seat

    GameOptions options_;
    Geometry geometry_;
    int players_ = 4;
    std::array<Colour, kMaxPlayers> colours_{};
    std::array<std::array<std::int8_t, kPiecesPerPlayer>, kMaxPlayers> progress_{};
    std::array<std::uint16_t, kMaxSquares> squares_{};  // 4 bits a seat: its pieces on the square
    std::array<bool, kMaxPlayers> captured_{};
    std::array<std::int8_t, kMaxPlayers> home_count_{};
    std::array<int, kMaxPlayers> finished_at_{-1, -1, -1, -1};
    Phase phase_ = Phase::awaiting_roll_off;
    std::int8_t seat_ = 0;
    std::int8_t face_ = 0;
    std::int8_t sixes_ = 0;
    int turns_ = 0;
};

}  // namespace spookludo::ludo
