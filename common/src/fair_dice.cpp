#include "spookludo/fair_dice.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace spookludo {

namespace {

constexpr std::string_view kContextLabel = "spookludo/fair-dice/v1";

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::string to_hex(const std::uint8_t* data, std::size_t size) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out += digits[data[i] >> 4];
        out += digits[data[i] & 15];
    }
    return out;
}

std::array<std::uint8_t, 32> sha256(std::string_view bytes) {
    static_assert(SHA256_DIGEST_LENGTH == 32);
    std::array<std::uint8_t, 32> digest{};
    SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest.data());
    return digest;
}

std::string sha256_hex(std::string_view bytes) {
    const auto digest = sha256(bytes);
    return to_hex(digest.data(), digest.size());
}

ServerSeed ServerSeed::generate() {
    ServerSeed s;
    if (RAND_bytes(s.bytes.data(), static_cast<int>(s.bytes.size())) != 1)
        throw std::runtime_error("the system's secure random source failed");
    return s;
}

ServerSeed ServerSeed::from_hex(std::string_view hex) {
    if (hex.size() != 2 * kServerSeedBytes)
        throw std::invalid_argument("a server seed is 64 hex digits (got " + std::to_string(hex.size()) + " characters)");
    ServerSeed s;
    for (std::size_t i = 0; i < kServerSeedBytes; ++i) {
        const int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            throw std::invalid_argument("a server seed is hex digits only (bad character at position " +
                                        std::to_string(2 * i + (hi < 0 ? 1 : 2)) + ")");
        s.bytes[i] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    return s;
}

std::string ServerSeed::hex() const { return to_hex(bytes.data(), bytes.size()); }

std::string ServerSeed::commitment() const {
    return sha256_hex(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::optional<std::string> check_client_seed(std::string_view seed) {
    if (seed.empty()) return "a client seed must not be empty";
    if (seed.size() > kMaxClientSeedBytes)
        return "a client seed is at most " + std::to_string(kMaxClientSeedBytes) + " bytes (got " +
               std::to_string(seed.size()) + ")";
    return std::nullopt;
}

FairStream::FairStream(const ServerSeed& server, std::vector<ClientSeed> clients) : server_(server) {
    std::sort(clients.begin(), clients.end(), [](const ClientSeed& a, const ClientSeed& b) { return a.seat < b.seat; });
    for (std::size_t i = 0; i < clients.size(); ++i) {
        if (clients[i].seat < 0) throw std::invalid_argument("a client seed's seat must not be negative");
        if (i > 0 && clients[i].seat == clients[i - 1].seat)
            throw std::invalid_argument("two client seeds for seat " + std::to_string(clients[i].seat + 1));
        if (auto err = check_client_seed(clients[i].seed))
            throw std::invalid_argument("seat " + std::to_string(clients[i].seat + 1) + ": " + *err);
    }
    context_.assign(kContextLabel.begin(), kContextLabel.end());
    put_u32(context_, static_cast<std::uint32_t>(clients.size()));
    for (const auto& c : clients) {
        put_u32(context_, static_cast<std::uint32_t>(c.seat));
        put_u32(context_, static_cast<std::uint32_t>(c.seed.size()));
        context_.insert(context_.end(), c.seed.begin(), c.seed.end());
    }
    prefix_ = keyed_prefix();
}

namespace {

// HMAC-SHA256 keyed with the server seed, with the context already absorbed: each block copies
// this state and adds only its counter and attempt (the one-shot HMAC() looked the algorithm up
// and hashed the key and context again for every die).
struct MacDeleter {
    void operator()(EVP_MAC_CTX* c) const noexcept { EVP_MAC_CTX_free(c); }
};

EVP_MAC* hmac_algorithm() {
    static EVP_MAC* const mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    if (!mac) throw std::runtime_error("HMAC is not available in OpenSSL");
    return mac;
}

}  // namespace

std::shared_ptr<const EVP_MAC_CTX> FairStream::keyed_prefix() const {
    std::unique_ptr<EVP_MAC_CTX, MacDeleter> ctx(EVP_MAC_CTX_new(hmac_algorithm()));
    char digest[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
    if (!ctx || !EVP_MAC_init(ctx.get(), server_.bytes.data(), server_.bytes.size(), params) ||
        !EVP_MAC_update(ctx.get(), context_.data(), context_.size()))
        throw std::runtime_error("HMAC-SHA256 failed");
    return std::shared_ptr<const EVP_MAC_CTX>(ctx.release(), MacDeleter{});
}

std::array<std::uint8_t, 32> FairStream::block(std::uint64_t counter, std::uint32_t attempt) const {
    std::unique_ptr<EVP_MAC_CTX, MacDeleter> ctx(EVP_MAC_CTX_dup(prefix_.get()));
    std::array<std::uint8_t, 12> tail{};
    for (int i = 0; i < 8; ++i) tail[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(counter >> (56 - 8 * i));
    for (int i = 0; i < 4; ++i) tail[static_cast<std::size_t>(8 + i)] = static_cast<std::uint8_t>(attempt >> (24 - 8 * i));
    std::array<std::uint8_t, 32> out{};
    std::size_t len = 0;
    if (!ctx || !EVP_MAC_update(ctx.get(), tail.data(), tail.size()) ||
        !EVP_MAC_final(ctx.get(), out.data(), &len, out.size()) || len != out.size())
        throw std::runtime_error("HMAC-SHA256 failed");
    return out;
}

std::uint32_t FairStream::draw(std::uint64_t counter, std::uint32_t range) const {
    if (range == 0) throw std::invalid_argument("a draw needs a range of at least 1");
    // Accept words below the largest multiple of `range` that fits in 64 bits.
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                                (std::numeric_limits<std::uint64_t>::max() % range + 1) % range;
    for (std::uint32_t attempt = 0;; ++attempt) {
        const auto b = block(counter, attempt);
        std::uint64_t w = 0;
        for (int i = 0; i < 8; ++i) w = (w << 8) | b[static_cast<std::size_t>(i)];
        if (w <= limit) return static_cast<std::uint32_t>(w % range);
    }
}

std::uint32_t FairDice::draw(std::uint32_t n, DrawPurpose purpose) {
    const std::uint64_t counter = draws_.size();
    const std::uint32_t value = stream_.draw(counter, n);
    draws_.push_back({counter, purpose, n, value});
    return value;
}

}  // namespace spookludo
