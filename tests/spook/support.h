#pragma once
// Shared helpers of the Spook & Werewolf tests: boards built from the notation, and a few steps
// that drive a Game through whole rounds with activations that touch nobody, so that a test can
// put pieces where it needs them and then check one rule.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "spookludo/options.h"
#include "spookludo/spook/board.h"
#include "spookludo/spook/game.h"

namespace spook_test {

using namespace spookludo;
using namespace spookludo::spook;

// A board with 7 of each character in a repeating H C S W X pattern:
//   2 H  3 C  4 S  5 W  6 X  7 H  8 C  9 S 10 W | 12 X 13 H 14 C 15 S 16 W 17 X 18 H 19 C 20 S |
//  22 W 23 X 24 H 25 C 26 S 27 W 28 X 29 H 30 C | 32 S 33 W 34 X 35 H 36 C 37 S 38 W 39 X
inline constexpr const char* kBaseNotation = ".HCSWXHCSW.XHCSWXHCS.WXHCSWXHC.SWXHCSWX+";

inline Board base_board() {
    return Board::from_notation(kBaseNotation);
}

// The base board with some squares changed.
inline Board board_with(std::initializer_list<std::pair<Square, Character>> changes) {
    Board b = base_board();
    for (const auto& [s, c] : changes) b.set(s, c);
    return b;
}

// A board whose every character square carries `c` (playable, though not 7 of each).
inline Board uniform_board(Character c) {
    Board b;
    for (Square s = 1; s < kChurch; ++s)
        if (carries_character(s)) b.set(s, c);
    return b;
}

inline GameOptions spook_options(int players, int pieces, bool play_on = false) {
    GameOptions o = GameOptions::spook_game(players, pieces);
    o.play_on = play_on;
    return o;
}

// All positions of all seats, for "nothing changed" checks.
inline std::vector<std::vector<Square>> all_positions(const Game& g) {
    std::vector<std::vector<Square>> out;
    for (int s = 0; s < g.players(); ++s) {
        const auto p = g.player(s).positions();
        out.emplace_back(p.begin(), p.end());
    }
    return out;
}

// A face whose activation moves no piece of any seat (there is one while at most four pieces
// stand on character squares, since every square carries only one of the five characters).
inline Face quiet_face(const Game& g) {
    for (Face f : {1, 3, 4, 5, 6}) {
        bool quiet = true;
        for (int s = 0; s < g.players(); ++s)
            for (Square sq : g.player(s).positions()) quiet = quiet && g.board(s).after_activation(f, sq) == sq;
        if (quiet) return f;
    }
    FAIL("no activation face leaves every piece where it is");
    return 0;
}

// Movement roll `roll`; every seat that must decide moves piece `piece` (the others get their only
// move); the moves are applied. Leaves the game in the activation_roll phase.
inline void move_all(Game& g, Face roll, int piece = 0) {
    REQUIRE(g.phase() == RoundPhase::movement_roll);
    REQUIRE(g.roll_movement(roll).ok());
    for (int s = 0; s < g.players(); ++s)
        if (g.needs_decision(s)) REQUIRE_MESSAGE(g.choose(s, piece).ok(), "seat ", s, " piece ", piece);
    REQUIRE(g.apply_moves().ok());
}

// A whole round: move_all, then an activation that touches nobody.
inline void quiet_round(Game& g, Face roll, int piece = 0) {
    move_all(g, roll, piece);
    REQUIRE(g.activate(quiet_face(g)).ok());
}

// Quiet rounds that move `piece` of every seat forward by `distance` squares in total (6s, then
// the rest). Every seat moves the same piece, so seats with the same positions stay in step.
inline void walk(Game& g, int distance, int piece = 0) {
    while (distance > 0) {
        const int roll = distance >= 6 ? 6 : distance;
        quiet_round(g, roll, piece);
        distance -= roll;
    }
}

}  // namespace spook_test
