#pragma once
// The answer to a request that the rules may refuse (an illegal choice, a move out of turn):
// either accepted, or rejected with a reason a player can read. A rejected request changes nothing.
#include <string>
#include <utility>

namespace spookludo {

struct [[nodiscard]] Verdict {
    std::string reason;  // empty when accepted

    static Verdict accept() { return {}; }
    static Verdict reject(std::string why) { return Verdict{std::move(why)}; }
    bool ok() const noexcept { return reason.empty(); }
    explicit operator bool() const noexcept { return ok(); }
};

}  // namespace spookludo
