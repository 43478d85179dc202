// Fair dice (RULES.md part 3, docs/fair-dice.md): the documented test vectors, uniformity, and
// the commitment.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "spookludo/fair_dice.h"
#include "spookludo/spook/setup.h"

using namespace spookludo;

namespace {

const ServerSeed kVectorSeed =
    ServerSeed::from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");

std::vector<int> first_faces(const FairStream& stream, int count) {
    std::vector<int> faces;
    for (int c = 0; c < count; ++c) faces.push_back(static_cast<int>(stream.draw(static_cast<std::uint64_t>(c), 6)) + 1);
    return faces;
}

}  // namespace

TEST_CASE("fair dice: the commitment is SHA-256 of the server seed [dice][fair]") {
    CHECK(kVectorSeed.commitment() == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(ServerSeed::from_hex(kVectorSeed.hex()) == kVectorSeed);
}

TEST_CASE("fair dice: the documented test vectors with two client seeds [dice][fair]") {
    const FairStream stream(kVectorSeed, {{2, "carol's lucky socks"}, {0, "alice"}});  // any order: sorted by seat
    CHECK(to_hex(stream.context().data(), stream.context().size()) ==
          "73706f6f6b6c75646f2f666169722d646963652f7631000000020000000000000005616c69636500000002000000136361726f6c277320"
          "6c75636b7920736f636b73");
    const auto b0 = stream.block(0, 0);
    CHECK(to_hex(b0.data(), b0.size()) == "c3dfea3757bc33abd4e6a51677642ccdba1f1b54640417fcaa32545cb12502ae");
    const auto b1 = stream.block(1, 0);
    CHECK(to_hex(b1.data(), b1.size()) == "6ad32ea8645f2d503af1f882899d46a83dbeb70863ee0dea4a625313a349aad4");
    CHECK(first_faces(stream, 20) == std::vector<int>{2, 3, 2, 5, 5, 3, 2, 3, 4, 3, 5, 4, 1, 2, 2, 4, 4, 4, 2, 6});

    FairDice dice(stream);
    CHECK(spook::draw_assignment(4, dice) == std::vector<int>{0, 1, 2, 3});
    REQUIRE(dice.draws().size() == 3);
    CHECK(dice.draws()[0] == Draw{0, DrawPurpose::assignment, 4, 3});
    CHECK(dice.draws()[1] == Draw{1, DrawPurpose::assignment, 3, 2});
    CHECK(dice.draws()[2] == Draw{2, DrawPurpose::assignment, 2, 1});
}

TEST_CASE("fair dice: the documented test vector without client seeds [dice][fair]") {
    const FairStream stream(kVectorSeed, {});
    CHECK(to_hex(stream.context().data(), stream.context().size()) ==
          "73706f6f6b6c75646f2f666169722d646963652f763100000000");
    CHECK(first_faces(stream, 20) == std::vector<int>{1, 6, 6, 1, 3, 3, 3, 1, 4, 1, 2, 2, 5, 2, 4, 3, 6, 3, 4, 5});
}

TEST_CASE("fair dice: every seed changes the stream, and seat order is canonical [dice][fair]") {
    const auto base = first_faces(FairStream(kVectorSeed, {{0, "alice"}, {1, "bob"}}), 40);
    CHECK(first_faces(FairStream(kVectorSeed, {{1, "bob"}, {0, "alice"}}), 40) == base);
    CHECK(first_faces(FairStream(kVectorSeed, {{0, "alice"}, {1, "bob!"}}), 40) != base);
    CHECK(first_faces(FairStream(kVectorSeed, {{0, "bob"}, {1, "alice"}}), 40) != base);  // swapped seeds
    CHECK(first_faces(FairStream(kVectorSeed, {{0, "alice"}, {2, "bob"}}), 40) != base);  // another seat
    ServerSeed other = kVectorSeed;
    other.bytes[31] ^= 1;
    CHECK(first_faces(FairStream(other, {{0, "alice"}, {1, "bob"}}), 40) != base);
    // The encoding is unambiguous: moving bytes between two seeds changes the stream.
    CHECK(first_faces(FairStream(kVectorSeed, {{0, "alic"}, {1, "ebob"}}), 40) != base);
}

TEST_CASE("fair dice: bad seeds are refused with a reason [dice][fair]") {
    CHECK_THROWS_WITH_AS(ServerSeed::from_hex("abc"), doctest::Contains("64 hex digits"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(ServerSeed::from_hex(std::string(63, '0') + "g"), doctest::Contains("hex digits only"),
                         std::invalid_argument);
    CHECK(check_client_seed("").has_value());
    CHECK(check_client_seed(std::string(129, 'x')).has_value());
    CHECK_FALSE(check_client_seed(std::string(128, 'x')).has_value());
    CHECK_THROWS_AS(FairStream(kVectorSeed, {{0, "a"}, {0, "b"}}), std::invalid_argument);
    CHECK_THROWS_AS(FairStream(kVectorSeed, {{0, ""}}), std::invalid_argument);
}

TEST_CASE("fair dice: generated server seeds are fresh [dice][fair]") {
    const ServerSeed a = ServerSeed::generate(), b = ServerSeed::generate();
    CHECK(a != b);
    CHECK(a.commitment().size() == 64);
}

TEST_CASE("fair dice: faces are uniform (chi-square over 600,000 faces, fixed seeds) [dice][fair]") {
    // Six faces, five degrees of freedom: the 99.9 % point of chi-square is 20.52. With fixed
    // seeds the test is deterministic; a biased mapping (e.g. a plain modulo of a byte) fails it.
    const FairStream stream(kVectorSeed, {{0, "uniformity"}});
    constexpr int kFaces = 600000;
    std::array<long, 6> counts{};
    for (int c = 0; c < kFaces; ++c) ++counts[stream.draw(static_cast<std::uint64_t>(c), 6)];
    const double expected = kFaces / 6.0;
    double chi2 = 0;
    for (long n : counts) chi2 += (static_cast<double>(n) - expected) * (static_cast<double>(n) - expected) / expected;
    INFO("chi-square = " << chi2);
    CHECK(chi2 < 20.52);

    // The same test detects the bias of a plain modulo of one byte (256 mod 6 = 4: faces 1-4 come
    // up 43 times in 256, faces 5-6 only 42): it must fail there, or it could not catch a bias.
    std::array<long, 6> biased{};
    for (int c = 0; c < kFaces; ++c) ++biased[stream.block(static_cast<std::uint64_t>(c), 0)[0] % 6];
    double chi2_biased = 0;
    for (long n : biased) chi2_biased += (static_cast<double>(n) - expected) * (static_cast<double>(n) - expected) / expected;
    INFO("biased chi-square = " << chi2_biased);
    CHECK(chi2_biased > 20.52);
}
