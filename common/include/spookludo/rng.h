#pragma once
// A small, fast, seedable pseudo-random generator for simulations, bots and tests.
// Not for the server's dice: those come from the fair-dice stream (RULES.md part 3).
#include <cstdint>

namespace spookludo {

// SplitMix64: expands one 64-bit seed into well-mixed words (used to seed Rng).
constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// xoshiro256** (Blackman and Vigna): 256-bit state, passes the usual statistical batteries.
class Rng {
public:
    explicit constexpr Rng(std::uint64_t seed = 0) noexcept {
        std::uint64_t s = seed;
        for (auto& word : state_) word = splitmix64(s);
    }

    constexpr std::uint64_t next() noexcept {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    // Uniform in [0, n) for n >= 1, without modulo bias (Lemire's multiply-and-reject).
    constexpr std::uint32_t uniform(std::uint32_t n) noexcept {
        std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
        auto low = static_cast<std::uint32_t>(m);
        if (low < n) {
            const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
            while (low < threshold) {
                m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
                low = static_cast<std::uint32_t>(m);
            }
        }
        return static_cast<std::uint32_t>(m >> 32);
    }

    // A new generator whose sequence is independent of this one's (for per-game streams).
    constexpr Rng split() noexcept { return Rng(next()); }

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
        return (x << k) | (x >> (64 - k));
    }
    std::uint64_t state_[4]{};
};

}  // namespace spookludo
