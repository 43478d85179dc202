#pragma once
// Drives a Classic Ludo game through arbitrary steps chosen by the fuzzer's bytes (throws, faces,
// choices of any seat and piece, requests out of turn) and checks the engine's invariants after
// every step. Shared by the engine target and the position-notation target (which starts from
// a position it read).
#include <array>
#include <string>

#include "fuzz.h"
#include "fuzz_dice.h"
#include "spookludo/ludo/game.h"

namespace spookludo::fuzz {

inline void check_ludo(const ludo::Game& g) {
    if (auto broken = g.broken_invariant()) check_failed(__FILE__, __LINE__, "ludo invariant", *broken + ": " + g.position());
    const int home = g.geometry().home();
    for (int s = 0; s < g.players(); ++s) {
        int at_home = 0;
        for (int p = 0; p < ludo::kPiecesPerPlayer; ++p) {
            const int progress = g.progress(s, p);
            FUZZ_CHECK(g.geometry().valid_progress(progress), g.position());
            // The square behind the start square only for a piece going round (capture_to_home).
            FUZZ_CHECK(progress != g.geometry().behind_start() || g.options().ludo.capture_to_home, g.position());
            at_home += progress == home;
        }
        FUZZ_CHECK(at_home == g.pieces_home(s), g.position());
    }
    if (g.phase() == ludo::Phase::awaiting_throw) {
        // The notation writes every position the game can be in, and reads it back the same.
        const std::string text = g.position();
        const auto read = ludo::Game::from_position(g.options(), text);
        FUZZ_CHECK(read.position() == text, text + " -> " + read.position());
        FUZZ_CHECK(read.current_seat() == g.current_seat(), text);
    }
}

// What the events of one step must say under the house rules (docs/rules.md, "House rules"):
// no capture on a safe square, none between partners, an extra throw only for a 6 or (with
// bonus_throws) a capture or a piece home, pieces going round only before their player's capture.
inline void check_ludo_events(const ludo::Game& before, const ludo::Game& g, const ludo::EventLog& log) {
    const LudoOptions& rules = g.options().ludo;
    const int mover = before.current_seat();
    bool capture = false, home = false;
    for (const auto& e : log) {
        switch (e.kind) {
            case ludo::EventKind::captured:
                capture = true;
                FUZZ_CHECK(!rules.safe_squares || !g.geometry().is_safe_square(e.square), before.position());
                FUZZ_CHECK(g.side(e.seat) != g.side(mover), before.position());
                break;
            case ludo::EventKind::reached_home:
                home = true;
                break;
            case ludo::EventKind::safe_square:
                FUZZ_CHECK(rules.safe_squares && g.geometry().is_safe_square(e.square), before.position());
                FUZZ_CHECK(g.side(e.detail) != g.side(e.seat), before.position());
                break;
            case ludo::EventKind::circles:
                FUZZ_CHECK(rules.capture_to_home && !before.has_captured(e.seat), before.position());
                break;
            case ludo::EventKind::team_finished:
                FUZZ_CHECK(rules.teams && g.has_finished(e.seat) && g.has_finished(e.detail), before.position());
                break;
            case ludo::EventKind::extra_throw: {
                const auto why = static_cast<ludo::ExtraThrow>(e.detail);
                FUZZ_CHECK(why == ludo::ExtraThrow::six || rules.bonus_throws, before.position());
                FUZZ_CHECK((why == ludo::ExtraThrow::six) == (before.face() == 6), before.position());
                FUZZ_CHECK(why != ludo::ExtraThrow::capture || capture, before.position());
                FUZZ_CHECK(why != ludo::ExtraThrow::home || home, before.position());
                FUZZ_CHECK(!g.has_finished(e.seat), before.position());
                break;
            }
            default:
                break;
        }
    }
    if (g.phase() == ludo::Phase::finished && rules.teams) {
        const auto winners = g.winners();
        FUZZ_CHECK(winners.size() == 2 && winners[1] == g.partner(winners[0]), g.position());
    }
}

inline void drive_ludo(ludo::Game& g, Bytes& in, int max_steps = 2000) {
    FuzzDice dice(in);
    check_ludo(g);
    std::array<bool, ludo::kMaxPlayers> finished{};
    int turns = g.turns();
    for (int step = 0; step < max_steps && g.phase() != ludo::Phase::finished; ++step) {
        const ludo::Game before = g;
        const std::uint8_t what = in.empty() ? 0 : in.byte();
        switch (g.phase()) {
            case ludo::Phase::awaiting_roll_off:
                if (what % 8 == 7) g.start_with(static_cast<int>(in.below(static_cast<std::uint32_t>(g.players()))));
                else g.roll_off(dice);
                break;
            case ludo::Phase::awaiting_throw:
                if (what % 8 == 7) {  // someone else asks to throw
                    const int seat = static_cast<int>(in.below(ludo::kMaxPlayers + 2)) - 1;
                    const Verdict v = g.can_throw(seat);
                    FUZZ_CHECK(v.ok() == (seat == g.current_seat()), g.position() + " seat " + std::to_string(seat));
                } else if (what % 8 == 6) {
                    g.apply_throw(static_cast<Face>(in.below(6)) + 1);
                } else {
                    g.throw_die(dice);
                }
                break;
            case ludo::Phase::awaiting_choice: {
                const auto moves = g.legal_moves();
                FUZZ_CHECK(!moves.empty(), g.position());
                int seat = g.current_seat();
                int piece = 0;
                if (what % 4 == 3) {  // any request at all
                    seat = static_cast<int>(in.below(ludo::kMaxPlayers + 2)) - 1;
                    piece = static_cast<int>(in.below(ludo::kPiecesPerPlayer + 3)) - 1;
                } else {
                    piece = moves[static_cast<int>(in.below(static_cast<std::uint32_t>(moves.size())))].piece;
                }
                const Verdict checked = g.check(seat, piece);
                ludo::EventLog log;
                const Verdict v = g.choose(seat, piece, &log);
                check_ludo_events(before, g, log);
                FUZZ_CHECK(v.ok() == checked.ok(), v.reason + " / " + checked.reason);
                if (!v) {
                    FUZZ_CHECK(!v.reason.empty(), "");
                    FUZZ_CHECK(g == before, "a refused choice changed the game: " + v.reason);
                } else {
                    FUZZ_CHECK(seat == before.current_seat(), before.position());
                }
                break;
            }
            case ludo::Phase::finished: break;
        }
        check_ludo(g);
        FUZZ_CHECK(g.turns() >= turns, g.position());
        turns = g.turns();
        for (int s = 0; s < g.players(); ++s) {
            const auto idx = static_cast<std::size_t>(s);
            FUZZ_CHECK(!finished[idx] || g.has_finished(s), "seat " + std::to_string(s) + " unfinished again");
            finished[idx] = g.has_finished(s);
        }
    }
    if (g.phase() == ludo::Phase::finished) {
        // A finished game stays finished: nothing more is accepted and nothing changes.
        const ludo::Game before = g;
        FUZZ_CHECK(!g.choose(g.current_seat(), 0), "a choice after the end");
        FUZZ_CHECK(!g.can_throw(g.current_seat()), "a throw after the end");
        FUZZ_CHECK(g == before, "");
        FUZZ_CHECK(!g.winners().empty(), g.position());
        const auto standings = g.standings();
        FUZZ_CHECK(static_cast<int>(standings.size()) == g.players(), "");
        if (!g.options().play_on) FUZZ_CHECK(g.unfinished_players() >= 1, g.position());
        else FUZZ_CHECK(g.unfinished_players() <= 1, g.position());
    }
}

// Options from one byte: players 2..4, arm 6 or 8, the entry rule, three sixes, play on; with
// bit 6 set a second byte gives the house rules: bit 0 safe_squares, 1 bonus_throws,
// 2 capture_to_home, 3 teams (then 4 players, no play on), 4 the preset home_rules (its board,
// entry and rules, to which the others are added).
inline GameOptions ludo_options(Bytes& in) {
    const std::uint8_t b = in.byte();
    GameOptions o = GameOptions::ludo_game(2 + b % 3, (b & 4) ? 6 : 8);
    o.ludo.entry = (b & 8) ? LudoEntry::start_square : LudoEntry::text;
    o.ludo.three_sixes = (b & 16) != 0;
    o.play_on = (b & 32) != 0;
    if (b & 64) {
        const std::uint8_t h = in.byte();
        if (h & 16) o.ludo = home_rules();
        o.ludo.safe_squares = o.ludo.safe_squares || (h & 1) != 0;
        o.ludo.bonus_throws = o.ludo.bonus_throws || (h & 2) != 0;
        o.ludo.capture_to_home = (h & 4) != 0;
        o.ludo.teams = (h & 8) != 0;
        if (o.ludo.teams) {
            o.players = 4;
            o.play_on = false;
        }
    }
    return o;
}

}  // namespace spookludo::fuzz
