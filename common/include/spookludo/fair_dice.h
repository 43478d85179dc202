#pragma once
// Provably fair dice (RULES.md part 3; the byte-by-byte algorithm is docs/fair-dice.md).
//
// The server commits to a secret 32-byte server seed by publishing SHA-256(server seed) before
// the players send their client seeds. Every draw of the game then comes from one stream:
//   block(counter, attempt) = HMAC-SHA256(key = server seed,
//                                         message = context || u64be(counter) || u32be(attempt))
//   context = "spookludo/fair-dice/v1" || u32be(number of client seeds)
//             || for each client seed in seat order: u32be(seat) || u32be(byte length) || bytes
// Draw number `counter` (0, 1, 2, ...) of a uniform integer in [0, n) reads the first 8 bytes of
// block(counter, 0) as a big-endian 64-bit word w; if w < 2^64 - (2^64 mod n) the value is
// w mod n, otherwise it tries attempt 1, 2, ... (rejection sampling: no modulo bias).
// The server draws the seed itself (`ServerSeed::generate`); this engine code only takes seeds.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spookludo/dice.h"

struct evp_mac_ctx_st;  // OpenSSL's EVP_MAC_CTX

namespace spookludo {

inline constexpr std::size_t kServerSeedBytes = 32;
inline constexpr std::size_t kMaxClientSeedBytes = 128;

struct ServerSeed {
    std::array<std::uint8_t, kServerSeedBytes> bytes{};

    // A fresh seed from the operating system's secure source (OpenSSL RAND_bytes).
    static ServerSeed generate();
    // 64 hex digits; throws std::invalid_argument naming the problem.
    static ServerSeed from_hex(std::string_view hex);
    std::string hex() const;
    // SHA-256 of the 32 seed bytes, as 64 lowercase hex digits: what the server publishes first.
    std::string commitment() const;
    friend bool operator==(const ServerSeed&, const ServerSeed&) = default;
};

// A seated human player's contribution: any text of 1 to 128 bytes (clients make a random one).
struct ClientSeed {
    int seat = 0;
    std::string seed;
    friend bool operator==(const ClientSeed&, const ClientSeed&) = default;
};

// Empty when fine, else why a client seed is refused (empty, too long).
std::optional<std::string> check_client_seed(std::string_view seed);

std::array<std::uint8_t, 32> sha256(std::string_view bytes);
std::string sha256_hex(std::string_view bytes);
std::string to_hex(const std::uint8_t* data, std::size_t size);

// One draw of a game, as a record keeps it.
struct Draw {
    std::uint64_t counter = 0;
    DrawPurpose purpose = DrawPurpose::movement;
    std::uint32_t range = 6;  // the value is uniform in [0, range)
    std::uint32_t value = 0;
    friend bool operator==(const Draw&, const Draw&) = default;
};

// The stream of a game: draw(counter, n) is a pure function of the seeds.
class FairStream {
public:
    // Client seeds in any order; they are sorted by seat (seats must be distinct).
    FairStream(const ServerSeed& server, std::vector<ClientSeed> clients);
    std::uint32_t draw(std::uint64_t counter, std::uint32_t range) const;
    // The raw 32 bytes of block(counter, attempt), for test vectors.
    std::array<std::uint8_t, 32> block(std::uint64_t counter, std::uint32_t attempt) const;
    const std::vector<std::uint8_t>& context() const noexcept { return context_; }

private:
    std::shared_ptr<const evp_mac_ctx_st> keyed_prefix() const;

    ServerSeed server_;
    std::vector<std::uint8_t> context_;
    // The HMAC state after the key and the context (copies share it; it is only read).
    std::shared_ptr<const evp_mac_ctx_st> prefix_;
};

// Dice backed by the stream: the n-th draw uses counter n, and every draw is logged.
class FairDice final : public Dice {
public:
    explicit FairDice(FairStream stream) : stream_(std::move(stream)) {}
    std::uint32_t draw(std::uint32_t n, DrawPurpose purpose) override;
    const std::vector<Draw>& draws() const noexcept { return draws_; }

private:
    FairStream stream_;
    std::vector<Draw> draws_;
};

}  // namespace spookludo
