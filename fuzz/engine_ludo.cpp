// The Classic Ludo engine applying arbitrary sequences of steps. The first byte picks the options
// (players, arm, entry rule, three sixes, play on; with its bit 6 a second byte the house rules:
// ludo_drive.h), the next the mode; the rest scripts the dice and the choices.
//   game:  ludo::Game driven directly, including requests out of turn and pieces that cannot
//          move, with the engine's invariants checked after every step (ludo_drive.h);
//   match: ludo::Match (fair dice from a fixed seed; choices from the bytes, made by the player
//          or by the server for a player who timed out or is away), played to its end or
//          abandoned at any step; its record must verify (spookludo verify).
#include "fuzz.h"
#include "ludo_drive.h"
#include "spookludo/ludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;

namespace {

void play_match(const GameOptions& o, fuzz::Bytes& in) {
    std::vector<RecordSeat> seats;
    std::vector<ClientSeed> client_seeds;
    for (int s = 0; s < o.players; ++s) {
        const bool bot = in.flag();
        seats.push_back({s, bot ? "bot " + std::to_string(s) : "player " + std::to_string(s), bot,
                         bot ? std::optional<PolicyKind>(PolicyKind::greedy) : std::nullopt});
        if (!bot && in.flag()) client_seeds.push_back({s, "seed " + std::to_string(in.byte())});
    }
    ServerSeed seed;
    seed.bytes[0] = in.byte();
    ludo::Match match(o, seats, seed, client_seeds);
    const int abandon_at = in.flag() ? in.in(0, 255) : -1;  // a step, or play to the end
    for (int step = 0; step < 3000 && !match.over(); ++step) {
        if (step == abandon_at) break;
        fuzz::check_ludo(match.game());
        if (!match.awaiting_choice()) {
            match.throw_die();
            continue;
        }
        const std::uint8_t how = in.byte();
        const int seat = match.game().current_seat();
        if (how % 16 == 15) {
            FUZZ_CHECK(match.choose_for_player(how & 16 ? ChoiceMaker::away : ChoiceMaker::timeout), "");
            continue;
        }
        const auto moves = match.game().legal_moves();
        const int piece = how % 16 == 14 ? in.in(-1, 4) : moves[static_cast<int>(in.below(static_cast<std::uint32_t>(moves.size())))].piece;
        const ludo::Game before = match.game();
        const auto choices = match.record().choices.size();
        const Verdict v = match.choose(seat, piece);
        FUZZ_CHECK(v.ok() == before.check(seat, piece).ok(), v.reason);
        if (!v) FUZZ_CHECK(match.game() == before && match.record().choices.size() == choices, v.reason);
    }
    if (!match.over()) match.abandon();
    const auto report = verify(match.record());
    FUZZ_CHECK(report.ok, report.failure);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::Bytes in(data, size);
    const GameOptions options = fuzz::ludo_options(in);
    if (in.byte() & 1) {
        play_match(options, in);
        return 0;
    }
    ludo::Game game(options);
    fuzz::drive_ludo(game, in);
    return 0;
}
