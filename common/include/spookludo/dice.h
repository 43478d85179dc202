#pragma once
// Dice come into both games through this interface: the server supplies fair dice (committed
// seed, RULES.md part 3), the simulator a fast seeded generator, tests a script of faces.
#include <cstdint>
#include <deque>
#include <string_view>

#include "spookludo/rng.h"

namespace spookludo {

using Face = int;  // 1..6

// What a draw is for; recorded with every draw in a game record.
enum class DrawPurpose : std::uint8_t {
    assignment,  // Spook: which board goes to which seat
    roll_off,    // Ludo: who starts
    movement,    // Spook: the movement roll of a round
    activation,  // Spook: the roll that wakes a character
    throw_,      // Ludo: a player's throw
};

std::string_view to_string(DrawPurpose purpose) noexcept;

class Dice {
public:
    virtual ~Dice() = default;
    // A uniform integer in [0, n); n >= 1.
    virtual std::uint32_t draw(std::uint32_t n, DrawPurpose purpose) = 0;
    // A die face, 1..6.
    Face roll(DrawPurpose purpose) { return static_cast<Face>(draw(6, purpose)) + 1; }
};

// Fast seeded dice for simulations and benchmarks: the same seed gives the same faces.
class SeededDice final : public Dice {
public:
    explicit SeededDice(std::uint64_t seed) : rng_(seed) {}
    std::uint32_t draw(std::uint32_t n, DrawPurpose) override { return rng_.uniform(n); }

private:
    Rng rng_;
};

// Dice that return values from a script, for tests. A die face f is scripted as f (roll()
// draws f - 1 from 6). Running out of script, or a value out of range, throws std::logic_error.
class ScriptedDice final : public Dice {
public:
    ScriptedDice() = default;
    ScriptedDice(std::initializer_list<Face> faces);
    void push_face(Face face);
    void push_draw(std::uint32_t value);
    std::uint32_t draw(std::uint32_t n, DrawPurpose purpose) override;
    std::size_t remaining() const noexcept { return script_.size(); }

private:
    std::deque<std::uint32_t> script_;
};

}  // namespace spookludo
