#pragma once
// Shared setup of the Classic Ludo tests.
#include <string>
#include <string_view>
#include <vector>

#include "spookludo/dice.h"
#include "spookludo/ludo/game.h"

namespace ludo_test {

using namespace spookludo;
using namespace spookludo::ludo;

inline GameOptions ludo_options(int players, int arm = 6, LudoEntry entry = LudoEntry::text, bool play_on = false,
                                bool three_sixes = false) {
    GameOptions o = GameOptions::ludo_game(players, arm);
    o.ludo.entry = entry;
    o.play_on = play_on;
    o.ludo.three_sixes = three_sixes;
    return o;
}

// A game in `position` (its seat count gives the number of players), at n = `arm`.
inline Game at(std::string_view position, int arm = 6, LudoEntry entry = LudoEntry::text, bool play_on = false,
               bool three_sixes = false) {
    int players = 1;
    for (char c : position) players += c == ' ' ? 1 : 0;
    return Game::from_position(ludo_options(players, arm, entry, play_on, three_sixes), position);
}

// The pieces (by index) of the legal moves.
inline std::vector<int> movable(const Game& game) {
    std::vector<int> pieces;
    for (const Move& m : game.legal_moves()) pieces.push_back(m.piece);
    return pieces;
}

// Dice that remember the purpose of every draw.
class RecordingDice final : public Dice {
public:
    explicit RecordingDice(std::initializer_list<Face> faces) : inner_(faces) {}
    std::uint32_t draw(std::uint32_t n, DrawPurpose purpose) override {
        purposes.push_back(purpose);
        return inner_.draw(n, purpose);
    }
    std::size_t remaining() const { return inner_.remaining(); }
    std::vector<DrawPurpose> purposes;

private:
    ScriptedDice inner_;
};

}  // namespace ludo_test
