// The Spook & Werewolf engine applying arbitrary sequences of steps. The first two bytes pick the
// options (players 1..8, pieces 1..3, play on, boards from the balanced pool or random ones,
// some with squares changed so that they are not 7 of each) and the mode; the rest scripts the
// dice faces and the choices, including requests out of order and pieces that cannot move.
//   game:  spook::Game driven directly; invariants after every step: every seat keeps its piece
//          count, pieces stand on squares 1..40, a move goes exactly the roll forward, the
//          activation moves each piece as its board says, a finished seat stays finished and a
//          finished game stays finished, a refused request changes nothing.
//   match: spook::Match (fair dice from a fixed seed, the choices from the bytes), played to its
//          end or abandoned after a whole round; its record must verify (spookludo verify).
//          1 to 4 players, 1 or 2 pieces (verify solves every board: slow with 3 pieces).
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz.h"
#include "fuzz_dice.h"
#include "spookludo/spook/board.h"
#include "spookludo/spook/game.h"
#include "spookludo/spook/match.h"
#include "spookludo/spook/setup.h"
#include "spookludo/verify.h"

using namespace spookludo;
using spookludo::fuzz::Bytes;

namespace {

// Everything a request could change, to check that a refused one changed nothing.
std::string snapshot(const spook::Game& g) {
    std::string s = std::string(spook::to_string(g.phase())) + " round " + std::to_string(g.round()) + " roll " +
                    std::to_string(g.movement_roll().value_or(0)) + ": " + spook::position_text(g);
    for (int seat = 0; seat < g.players(); ++seat) {
        s += " | " + std::to_string(g.player(seat).finished_round.value_or(0));
        if (auto c = g.chosen(seat)) s += " chose " + std::to_string(c->piece);
    }
    return s;
}

void check_spook(const spook::Game& g) {
    for (int seat = 0; seat < g.players(); ++seat) {
        const auto& p = g.player(seat);
        FUZZ_CHECK(p.piece_count == g.pieces(), snapshot(g));
        FUZZ_CHECK(static_cast<int>(p.positions().size()) == g.pieces(), snapshot(g));
        for (spook::Square sq : p.positions()) FUZZ_CHECK(spook::is_valid_square(sq), snapshot(g));
        if (p.finished_round) {
            FUZZ_CHECK(p.in_church() >= g.options().spook.pieces_to_finish(), snapshot(g));
            FUZZ_CHECK(*p.finished_round <= g.round(), snapshot(g));
        }
    }
}

std::vector<spook::Board> make_boards(const GameOptions& o, Bytes& in) {
    std::vector<spook::Board> boards;
    if (o.spook.balanced_boards) {
        const auto pool = spook::balanced_pool(o.spook.pieces);
        std::set<std::size_t> used;
        while (static_cast<int>(boards.size()) < o.players) {
            std::size_t i = in.below(static_cast<std::uint32_t>(pool.size()));
            while (used.count(i)) i = (i + 1) % pool.size();
            used.insert(i);
            boards.push_back(spook::Board::from_notation(pool[i].notation));
        }
        return boards;
    }
    Rng rng(in.byte() * 0x9e3779b97f4a7c15ULL + in.byte());
    for (int s = 0; s < o.players; ++s) {
        spook::Board b = spook::Board::random(rng);
        for (int k = in.in(0, 3) == 3 ? in.in(1, 8) : 0; k > 0; --k) {  // some boards are not 7 of each
            const spook::Square sq = in.in(2, 39);
            if (spook::carries_character(sq)) b.set(sq, spook::kCharacters[in.below(5)]);
        }
        boards.push_back(b);
    }
    return boards;
}

void play_game(const GameOptions& o, std::vector<spook::Board> boards, Bytes& in) {
    spook::Game g(o, std::move(boards));
    check_spook(g);
    std::vector<std::optional<int>> finished(static_cast<std::size_t>(g.players()));
    for (int step = 0; step < 1500 && !g.over(); ++step) {
        const std::string before = snapshot(g);
        const spook::Game copy = g;
        const std::uint8_t what = in.byte();
        // A request the phase does not allow, now and then: refused, and nothing changes.
        if (what % 8 == 7) {
            Verdict v;
            switch (in.below(4)) {
                case 0: v = g.roll_movement(in.in(0, 7)); break;
                case 1: v = g.choose(in.in(-1, 8), in.in(-1, 3)); break;
                case 2: v = g.apply_moves(); break;
                default: v = g.activate(in.in(0, 7)); break;
            }
            if (!v) {
                FUZZ_CHECK(!v.reason.empty(), before);
                FUZZ_CHECK(snapshot(g) == before, "refused (" + v.reason + ") but changed: " + before + " -> " + snapshot(g));
            }
            check_spook(g);
            continue;
        }
        switch (g.phase()) {
            case spook::RoundPhase::movement_roll: {
                const Face face = in.empty() ? 1 + step % 6 : in.in(1, 6);
                FUZZ_CHECK(g.roll_movement(face), before);
                for (int s = 0; s < g.players(); ++s)
                    for (const auto& m : g.legal_moves(s)) {
                        FUZZ_CHECK(m.to == m.from + face && m.to <= spook::kChurch, before);
                        FUZZ_CHECK(g.player(s).pieces[static_cast<std::size_t>(m.piece)] == m.from, before);
                    }
                break;
            }
            case spook::RoundPhase::choosing: {
                const auto waiting = g.awaiting();
                if (waiting.empty()) {
                    FUZZ_CHECK(g.apply_moves(), before);
                    for (const auto& rec : g.last_moves()) {
                        if (!rec.move) continue;
                        FUZZ_CHECK(rec.move->to == rec.move->from + *copy.movement_roll(), before);
                        FUZZ_CHECK(g.player(rec.seat).pieces[static_cast<std::size_t>(rec.move->piece)] == rec.move->to, before);
                    }
                    break;
                }
                FUZZ_CHECK(!g.apply_moves(), "moves applied before every seat chose: " + before);
                const int seat = waiting[in.below(static_cast<std::uint32_t>(waiting.size()))];
                const auto& moves = g.legal_moves(seat);
                const int piece = in.flag() ? in.in(0, g.pieces() - 1) : moves[static_cast<int>(in.below(static_cast<std::uint32_t>(moves.size)))].piece;
                bool legal = false;
                for (const auto& m : moves) legal |= g.player(seat).pieces[static_cast<std::size_t>(piece)] == m.from;
                const Verdict v = g.choose(seat, piece);
                FUZZ_CHECK(v.ok() == legal, before + " seat " + std::to_string(seat) + " piece " + std::to_string(piece));
                if (!v) FUZZ_CHECK(snapshot(g) == before, v.reason);
                else FUZZ_CHECK(!g.choose(seat, piece), "a second choice was accepted");
                break;
            }
            case spook::RoundPhase::activation_roll: {
                const Face face = in.empty() ? 1 + step % 6 : in.in(1, 6);
                FUZZ_CHECK(g.activate(face), before);
                for (int s = 0; s < g.players(); ++s) {
                    if (copy.player(s).finished_round) continue;  // a finished seat takes no more part
                    for (int i = 0; i < g.pieces(); ++i) {
                        const auto idx = static_cast<std::size_t>(i);
                        const spook::Square was = copy.player(s).pieces[idx];
                        FUZZ_CHECK(g.player(s).pieces[idx] == g.board(s).after_activation(face, was), before);
                    }
                }
                break;
            }
            case spook::RoundPhase::finished: break;
        }
        check_spook(g);
        for (int s = 0; s < g.players(); ++s) {
            const auto& now = g.player(s).finished_round;
            auto& was = finished[static_cast<std::size_t>(s)];
            FUZZ_CHECK(!was || now == was, snapshot(g));
            was = now;
        }
    }
    if (g.over()) {
        const std::string before = snapshot(g);
        FUZZ_CHECK(!g.roll_movement(1) && !g.choose(0, 0) && !g.apply_moves() && !g.activate(1), before);
        FUZZ_CHECK(snapshot(g) == before, before);
        const auto winners = g.winners();
        FUZZ_CHECK(!winners.empty(), before);
        for (int w : winners) FUZZ_CHECK(g.player(w).finished_round.has_value(), before);
        FUZZ_CHECK(static_cast<int>(g.standings().size()) == g.players(), before);
    }
}

void play_match(const GameOptions& o, std::vector<spook::Board> boards, Bytes& in) {
    std::vector<RecordSeat> seats;
    std::vector<ClientSeed> client_seeds;
    for (int s = 0; s < o.players; ++s) {
        const bool bot = in.flag();
        seats.push_back({s, bot ? "bot " + std::to_string(s) : "player " + std::to_string(s), bot,
                         bot ? std::optional<PolicyKind>(PolicyKind::greedy) : std::nullopt, std::nullopt});
        if (!bot && in.flag()) client_seeds.push_back({s, "seed " + std::to_string(in.byte())});
    }
    ServerSeed seed;
    seed.bytes[0] = in.byte();
    spook::Match match(o, seats, std::move(boards), seed, client_seeds);
    const int abandon_after = in.flag() ? in.in(0, 40) : -1;  // rounds, or play to the end
    for (int round = 0; round < 400 && !match.over(); ++round) {
        if (round == abandon_after) break;
        match.roll_movement();
        for (int s : match.game().awaiting()) {
            const auto& moves = match.game().legal_moves(s);
            const int piece = moves[static_cast<int>(in.below(static_cast<std::uint32_t>(moves.size)))].piece;
            FUZZ_CHECK(match.choose(s, piece), "");
        }
        FUZZ_CHECK(match.apply_moves(), "");
        match.activate();
    }
    if (!match.over()) match.abandon();
    const auto report = verify(match.record());
    FUZZ_CHECK(report.ok, report.failure);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in(data, size);
    const std::uint8_t a = in.byte(), b = in.byte();
    const bool match = (b & 1) != 0;
    // verify solves every board of the record (about 0.5 s a board with 3 pieces, 40 ms with 2):
    // matches keep to 1..4 players and 1 or 2 pieces so that the fuzzer stays fast.
    GameOptions o = match ? GameOptions::spook_game(1 + a % 4, 1 + (a >> 3) % 2)
                          : GameOptions::spook_game(1 + a % 8, 1 + (a >> 3) % 3);
    o.play_on = (a & 0x40) != 0;
    o.spook.balanced_boards = (a & 0x80) == 0;
    std::vector<spook::Board> boards;
    try {
        boards = make_boards(o, in);
        if (match) play_match(o, std::move(boards), in);
        else play_game(o, std::move(boards), in);
    } catch (const std::invalid_argument& e) {
        // Only boards changed into each other may be refused: the same board twice.
        FUZZ_CHECK(std::string(e.what()).find("must all differ") != std::string::npos, e.what());
    }
    return 0;
}
