#pragma once
// Policy names shared by both games and every program (sim, bots, the server's fallback).
#include <optional>
#include <string_view>

namespace spookludo {

enum class PolicyKind : unsigned char {
    random,  // any legal choice, uniformly
    greedy,  // a one-step heuristic
    best,    // Spook: minimal expected rounds to finish; Ludo: a search over the die
};

std::string_view to_string(PolicyKind kind) noexcept;
std::optional<PolicyKind> parse_policy(std::string_view name) noexcept;

}  // namespace spookludo
