#pragma once
// How a client-side bot answers a decision: the same three policies as the engine's bots
// (random, greedy, best), applied to what the client knows from the server's messages.
#include "spookludo/policy.h"
#include "spookludo/rng.h"
#include "spookludo/spook/solver.h"
#include "view.h"

namespace spookludo::client {

class BotBrain {
public:
    explicit BotBrain(PolicyKind policy, std::uint64_t seed = 1) : policy_(policy), rng_(seed) {}

    // The piece to answer the view's pending decision with; -1 when nothing is pending.
    // Spook: random picks an option uniformly, greedy the best one-round gain, best the fewest
    // expected rounds for the bot's own board (solved here, cached). Ludo: the engine's policy on
    // the position the view holds. Falls back to the first option if the view and the decision
    // disagree (which would be a bug, reported on stderr once).
    int choose(const GameView& view);
    PolicyKind policy() const noexcept { return policy_; }

private:
    int choose_spook(const GameView& view, const protocol::Decision& d);
    int choose_ludo(const GameView& view, const protocol::Decision& d);

    PolicyKind policy_;
    Rng rng_;
    spook::SolutionCache solutions_;
};

}  // namespace spookludo::client
