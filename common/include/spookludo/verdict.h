#pragma once
// The answer to a request that the rules may refuse (an illegal choice, a move out of turn):
// either accepted, or rejected with a reason a player can read. A rejected request changes nothing.
#include <string>
#include <utility>
#include <vector>

namespace spookludo {

struct [[nodiscard]] Verdict {
    std::string reason;  // empty when accepted
    // The same reason as a code and its numbers, for a client to word in its reader's language
    // (the illegal_choice error's args): exact_throw {piece, square, face, needed}, ... ("" when
    // the rules gave none).
    std::string code = {};
    std::vector<std::pair<std::string, int>> params = {};

    static Verdict accept() { return {}; }
    static Verdict reject(std::string why) { return Verdict{std::move(why)}; }
    static Verdict reject(std::string why, std::string code, std::vector<std::pair<std::string, int>> params) {
        return Verdict{std::move(why), std::move(code), std::move(params)};
    }
    bool ok() const noexcept { return reason.empty(); }
    explicit operator bool() const noexcept { return ok(); }
};

}  // namespace spookludo
