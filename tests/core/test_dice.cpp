// Dice for both games: the seeded generator's range and unbiasedness, SeededDice, ScriptedDice.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "spookludo/dice.h"
#include "spookludo/rng.h"

using namespace spookludo;

namespace {

// Pearson's chi-square statistic of observed counts against equal expectation.
double chi_square(const std::vector<int>& counts) {
    double total = 0;
    for (int c : counts) total += c;
    const double expected = total / static_cast<double>(counts.size());
    double chi2 = 0;
    for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
    return chi2;
}

}  // namespace

TEST_CASE("Rng is deterministic per seed [core][dice]") {
    Rng a(123), b(123), c(124);
    std::vector<std::uint64_t> xa, xb, xc;
    for (int i = 0; i < 16; ++i) {
        xa.push_back(a.next());
        xb.push_back(b.next());
        xc.push_back(c.next());
    }
    CHECK(xa == xb);
    CHECK(xa != xc);
    // split() gives a new stream, different from the parent's continuation, and reproducible.
    Rng p1(9), p2(9);
    Rng child1 = p1.split(), child2 = p2.split();
    CHECK(child1.next() == child2.next());
    CHECK(p1.next() != child1.next());
}

TEST_CASE("Rng::uniform stays in range [core][dice]") {
    Rng rng(1);
    for (int i = 0; i < 1000; ++i) CHECK(rng.uniform(1) == 0u);
    for (std::uint32_t n : {2u, 3u, 6u, 7u, 52u, 1000u, 0x80000001u, 0xFFFFFFFFu}) {
        CAPTURE(n);
        std::uint32_t top = 0;
        for (int i = 0; i < 20000; ++i) {
            const std::uint32_t v = rng.uniform(n);
            REQUIRE(v < n);
            top = std::max(top, v);
        }
        if (n <= 1000) CHECK(top == n - 1);  // the top value is reached
    }
}

TEST_CASE("Rng::uniform is unbiased for small ranges [core][dice]") {
    Rng rng(2024);
    for (std::uint32_t n : {2u, 3u, 5u, 6u, 7u, 10u}) {
        CAPTURE(n);
        std::vector<int> counts(n, 0);
        const int draws = 60000;
        for (int i = 0; i < draws; ++i) ++counts[rng.uniform(n)];
        // Critical values at p = 0.0001 for n - 1 degrees of freedom are at most 33.7 here.
        CHECK(chi_square(counts) < 35.0);
    }
}

TEST_CASE("Rng::uniform has no modulo bias for large ranges [core][dice]") {
    // n = 3 * 2^30. Reducing a 32-bit word modulo n would make [0, 2^30) twice as likely
    // (probability 1/2 instead of 1/3); multiplying without rejecting would favour multiples of
    // 3 (1/2 instead of 1/3). A fair draw gives 1/3 for both.
    const std::uint32_t n = 3u << 30;
    Rng rng(77);
    const int draws = 60000;
    int low = 0, multiple_of_3 = 0;
    for (int i = 0; i < draws; ++i) {
        const std::uint32_t v = rng.uniform(n);
        low += v < (1u << 30);
        multiple_of_3 += v % 3 == 0;
    }
    // 1/3 +- 5 standard errors (sd of a proportion: sqrt(2/9 / 60000) ~ 0.0019).
    CHECK(std::abs(low / double(draws) - 1.0 / 3) < 0.01);
    CHECK(std::abs(multiple_of_3 / double(draws) - 1.0 / 3) < 0.01);
}

TEST_CASE("SeededDice: faces 1 to 6, uniform, the same for the same seed [core][dice]") {
    SeededDice a(5), b(5), c(6);
    std::vector<int> counts(6, 0);
    bool differs = false;
    for (int i = 0; i < 36000; ++i) {
        const Face fa = a.roll(DrawPurpose::movement);
        REQUIRE(fa >= 1);
        REQUIRE(fa <= 6);
        CHECK(b.roll(DrawPurpose::activation) == fa);  // the purpose does not change the stream
        differs = differs || c.roll(DrawPurpose::movement) != fa;
        ++counts[static_cast<std::size_t>(fa - 1)];
    }
    CHECK(differs);
    CHECK(chi_square(counts) < 25.0);  // 5 degrees of freedom, p < 0.0002
    // Draws of other sizes come from the same generator.
    SeededDice d(5);
    Rng r(5);
    for (int i = 0; i < 100; ++i) CHECK(d.draw(8, DrawPurpose::assignment) == r.uniform(8));
}

TEST_CASE("ScriptedDice returns its script, then refuses [core][dice]") {
    SUBCASE("faces") {
        ScriptedDice dice{3, 1, 6};
        CHECK(dice.remaining() == 3);
        CHECK(dice.roll(DrawPurpose::movement) == 3);
        CHECK(dice.roll(DrawPurpose::activation) == 1);
        CHECK(dice.roll(DrawPurpose::throw_) == 6);
        CHECK(dice.remaining() == 0);
        CHECK_THROWS_AS((void)dice.roll(DrawPurpose::movement), std::logic_error);
    }
    SUBCASE("a face is drawn as face - 1 of 6") {
        ScriptedDice dice;
        dice.push_face(4);
        CHECK(dice.draw(6, DrawPurpose::movement) == 3u);
    }
    SUBCASE("raw draws") {
        ScriptedDice dice;
        dice.push_draw(2);
        dice.push_draw(0);
        CHECK(dice.draw(3, DrawPurpose::assignment) == 2u);
        CHECK(dice.draw(1, DrawPurpose::assignment) == 0u);
    }
    SUBCASE("out of range") {
        ScriptedDice dice;
        CHECK_THROWS_AS(dice.push_face(0), std::logic_error);
        CHECK_THROWS_AS(dice.push_face(7), std::logic_error);
        CHECK(dice.remaining() == 0);
        dice.push_draw(5);
        CHECK_THROWS_AS((void)dice.draw(5, DrawPurpose::assignment), std::logic_error);
        CHECK(dice.remaining() == 1);  // not consumed
        CHECK(dice.draw(6, DrawPurpose::assignment) == 5u);
    }
    SUBCASE("running out names the draw") {
        ScriptedDice dice;
        try {
            (void)dice.roll(DrawPurpose::activation);
            FAIL("an empty script must throw");
        } catch (const std::logic_error& e) {
            CHECK(std::string(e.what()).find("activation") != std::string::npos);
        }
    }
}

TEST_CASE("draw purposes have names [core][dice]") {
    CHECK(to_string(DrawPurpose::assignment) == "assignment");
    CHECK(to_string(DrawPurpose::roll_off) == "roll_off");
    CHECK(to_string(DrawPurpose::movement) == "movement");
    CHECK(to_string(DrawPurpose::activation) == "activation");
    CHECK(to_string(DrawPurpose::throw_) == "throw");
}
