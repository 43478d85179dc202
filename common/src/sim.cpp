#include "spookludo/sim.h"

#include <algorithm>
#include <stdexcept>

#include "spookludo/ludo/policy.h"
#include "spookludo/ludo/record.h"
#include "spookludo/spook/play.h"
#include "spookludo/spook/setup.h"

namespace spookludo {

namespace {

// The seats of a simulated game: server-side bots, named after their policy.
std::vector<RecordSeat> bot_seats(const std::vector<PolicyKind>& seats) {
    std::vector<RecordSeat> out;
    for (std::size_t s = 0; s < seats.size(); ++s)
        out.push_back({static_cast<int>(s), std::string(to_string(seats[s])) + " bot " + std::to_string(s + 1), true,
                       seats[s], std::nullopt});
    return out;
}

// A server seed drawn from the simulator's generator (reproducible, so not secret).
ServerSeed derived_seed(Rng& rng) {
    ServerSeed seed;
    for (std::size_t i = 0; i < seed.bytes.size(); i += 8) {
        const std::uint64_t w = rng.next();
        for (std::size_t b = 0; b < 8; ++b) seed.bytes[i + b] = static_cast<std::uint8_t>(w >> (8 * b));
    }
    return seed;
}

}  // namespace

SimReport simulate(const SimConfig& config, const std::function<void(int)>& progress) {
    if (auto err = config.options.validate()) throw std::invalid_argument(*err);
    if (static_cast<int>(config.seats.size()) != config.options.players)
        throw std::invalid_argument("give one policy per player: " + std::to_string(config.options.players) +
                                    " players, " + std::to_string(config.seats.size()) + " policies");
    if (config.games < 1) throw std::invalid_argument("play at least one game");

    std::vector<spook::Board> fixed_boards;
    for (const auto& text : config.boards) fixed_boards.push_back(spook::Board::from_notation(text));
    if (!fixed_boards.empty() && static_cast<int>(fixed_boards.size()) != config.options.players)
        throw std::invalid_argument("give one board per player");

    SimTally tally(config.seats);
    spook::SolutionCache cache;
    Rng master(config.seed);
    const int step = std::max(1, config.games / 200);
    for (int g = 0; g < config.games; ++g) {
        // Every game has its own streams, so game g is the same whatever came before it.
        Rng game_rng = master.split();
        SeededDice dice(game_rng.next());
        Rng policy_rng = game_rng.split();
        GameOutcome outcome;
        if (config.options.game == GameKind::spook) {
            const auto boards = fixed_boards.empty() ? spook::choose_board_set(config.options, game_rng) : fixed_boards;
            if (config.on_record) {
                spook::Match match(config.options, bot_seats(config.seats), boards, derived_seed(game_rng), {});
                spook::play_out(match, config.seats, policy_rng, cache);
                config.on_record(g, match.record());
                outcome = {match.game().winners(), match.game().round()};
            } else {
                outcome = spook::play_game(config.options, config.seats, boards, dice, policy_rng, cache);
            }
        } else if (config.on_record) {
            ludo::Match match(config.options, bot_seats(config.seats), derived_seed(game_rng), {});
            ludo::play_out(match, config.seats, policy_rng);
            config.on_record(g, match.record());
            outcome = {match.game().winners(), match.game().turns()};
        } else {
            outcome = play_ludo_game(config.options, config.seats, dice, policy_rng);
        }
        tally.add(outcome);
        if (progress && ((g + 1) % step == 0 || g + 1 == config.games)) progress(g + 1);
    }
    return tally.report();
}

}  // namespace spookludo
