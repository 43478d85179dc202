#pragma once
// Dice scripted by the fuzzer's bytes: each draw takes the next byte(s). Once the bytes are used
// up the dice go on from a fixed seed, so a game always reaches its end (a roll-off of all 1s
// would otherwise tie for ever).
#include "fuzz.h"
#include "spookludo/dice.h"

namespace spookludo::fuzz {

class FuzzDice final : public Dice {
public:
    explicit FuzzDice(Bytes& bytes) noexcept : bytes_(bytes) {}
    std::uint32_t draw(std::uint32_t n, DrawPurpose purpose) override {
        if (!bytes_.empty()) return bytes_.below(n);
        return after_.draw(n, purpose);
    }

private:
    Bytes& bytes_;
    SeededDice after_{0x5eed};
};

}  // namespace spookludo::fuzz
