#include "spookludo/policy.h"

namespace spookludo {

std::string_view to_string(PolicyKind kind) noexcept {
    switch (kind) {
        case PolicyKind::random: return "random";
        case PolicyKind::greedy: return "greedy";
        case PolicyKind::best: return "best";
    }
    return "unknown";
}

std::optional<PolicyKind> parse_policy(std::string_view name) noexcept {
    for (PolicyKind k : {PolicyKind::random, PolicyKind::greedy, PolicyKind::best})
        if (name == to_string(k)) return k;
    return std::nullopt;
}

}  // namespace spookludo
