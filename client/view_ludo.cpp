// The Ludo story: what a throw or a move's events did to the pieces, and their lines in the
// reader's language (split from view.cpp).
#include "view.h"

#include <algorithm>

#include "game_words.h"
#include "i18n.h"
#include "server_words.h"
#include "spookludo/ludo/game.h"
#include "spookludo/ludo/geometry.h"

namespace spookludo::client {

namespace pr = protocol;
using nlohmann::json;

void GameView::apply_ludo_events(const std::vector<pr::EventView>& events) {
    const ludo::Geometry geo(options_.ludo.arm);
    auto set = [&](int seat, int piece, int value) {
        if (seat < 0 || piece < 0 || piece > 3 || static_cast<std::size_t>(seat) >= ludo_progress_.size()) return;
        ludo_progress_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(piece)] = value;
    };
    // The seat whose move lands on a piece: the `entered` or `moved` event before `captured`.
    int mover = -1;
    int mover_to = -1;
    for (const auto& e : events) {
        const int seat = e.seat.value_or(-1);
        const int piece = e.piece.value_or(-1);
        LogLine::Kind kind = LogLine::Kind::move;
        if (e.kind == "entered" || e.kind == "moved") {
            set(seat, piece, e.to.value_or(ludo::kYard));
            last_moves_.assign(1, LastMove{seat, piece, e.from.value_or(0), e.to.value_or(0)});
        } else if (e.kind == "captured") {
            set(seat, piece, ludo::kYard);
            // The mover has captured (capture_to_home: its pieces may enter their home column now).
            if (mover >= 0 && static_cast<std::size_t>(mover) < ludo_captured_.size())
                ludo_captured_[static_cast<std::size_t>(mover)] = true;
            kind = LogLine::Kind::capture;
        } else if (e.kind == "reached_home") {
            set(seat, piece, geo.home());
            kind = LogLine::Kind::finish;
        } else if (e.kind == "finished" || e.kind == "team_finished") {
            kind = LogLine::Kind::finish;
        } else if (e.kind == "starts" || e.kind == "turn" || e.kind == "extra_throw") {
            current_seat_ = seat;
            kind = LogLine::Kind::info;
        } else if (e.kind == "throw" || e.kind == "roll_off_throw") {
            if (e.face) face_ = e.face;
            if (seat >= 0) thrower_ = seat;
            kind = LogLine::Kind::roll;
        } else {
            kind = LogLine::Kind::info;
        }
        if (e.kind == "turn" || e.kind == "game_over") continue;  // shown by the board, and by game_over
        auto colour_of = [&](int s) {
            const int c = ludo_colour(s);
            return c >= 0 ? colour_name(static_cast<ludo::Colour>(c)) : std::string("?");
        };
        // "Ann (red)".
        auto who_of = [&](int s) {
            return s >= 0 ? tr("{name} ({colour})", {{"name", seat_name(s)}, {"colour", colour_of(s)}}) : std::string("?");
        };
        const std::string who = who_of(seat);
        const std::string face = std::to_string(e.face.value_or(0));
        const std::string number = std::to_string(piece + 1);
        // A progress in a move's line: its number, or the square behind the start square (a
        // piece gone round again under capture_to_home).
        auto square = [&](int p) { return p == geo.behind_start() ? trc("square", "behind start") : std::to_string(p); };
        std::string text;
        if (e.kind == "roll_off_throw") text = tr("{who} throws {face} in the roll-off.", {{"who", who}, {"face", face}});
        else if (e.kind == "starts") text = tr("{who} starts.", {{"who", who}});
        else if (e.kind == "throw") text = tr("{who} throws a {face}.", {{"who", who}, {"face", face}});
        else if (e.kind == "pass") text = tr("{who} cannot move; play passes on.", {{"who", who}});
        else if (e.kind == "three_sixes") text = tr("{who} threw a third 6 in a row: it is not played.", {{"who", who}});
        else if (e.kind == "entered") text = tr("{who} brings piece {piece} out.", {{"who", who}, {"piece", number}});
        else if (e.kind == "moved" && e.to.value_or(0) == geo.home())
            text = tr("{who} moves piece {piece} from {from} to home.",
                      {{"who", who}, {"piece", number}, {"from", square(e.from.value_or(0))}});
        else if (e.kind == "moved")
            text = tr("{who} moves piece {piece} from {from} to {to}.",
                      {{"who", who}, {"piece", number}, {"from", square(e.from.value_or(0))}, {"to", square(e.to.value_or(0))}});
        else if (e.kind == "captured") {
            // "Ann (red) captures Ben's piece 2 (blue) on 17: it goes back to the yard."
            const std::string whose = seat_name(seat), colour = colour_of(seat);
            if (mover >= 0 && mover_to >= 0)
                text = tr("{who} captures {name}'s piece {piece} ({colour}) on {square}: it goes back to the yard.",
                          {{"who", who_of(mover)}, {"name", whose}, {"piece", number}, {"colour", colour},
                           {"square", std::to_string(mover_to)}});
            else if (mover >= 0)
                text = tr("{who} captures {name}'s piece {piece} ({colour}): it goes back to the yard.",
                          {{"who", who_of(mover)}, {"name", whose}, {"piece", number}, {"colour", colour}});
            else
                text = tr("Captured: {name}'s piece {piece} ({colour}): it goes back to the yard.",
                          {{"name", whose}, {"piece", number}, {"colour", colour}});
        }
        else if (e.kind == "reached_home") text = tr("{who}'s piece {piece} is home.", {{"who", who}, {"piece", number}});
        else if (e.kind == "finished") text = tr("{who} has all four pieces home!", {{"who", who}});
        else if (e.kind == "extra_throw" && e.reason == "capture")
            text = tr("{who} throws again: a bonus throw for the capture.", {{"who", who}});
        else if (e.kind == "extra_throw" && e.reason == "home")
            text = tr("{who} throws again: a bonus throw for the piece home.", {{"who", who}});
        else if (e.kind == "extra_throw") text = tr("{who} played a 6 and throws again.", {{"who", who}});
        else if (e.kind == "safe_square")
            // "Ann's piece 2 lands beside Ben's on a safe square: no capture."
            text = tr("{name}'s piece {piece} lands beside {other}'s on a safe square: no capture.",
                      {{"name", seat_name(seat)}, {"piece", number}, {"other", e.with ? seat_name(*e.with) : std::string("?")}});
        else if (e.kind == "circles")
            text = tr("{name}'s piece {piece} has not captured yet: it goes round again.", {{"name", seat_name(seat)}, {"piece", number}});
        else if (e.kind == "team_finished") {
            // The partners in seat order: "Ann and Cid win as a team!"
            const int other = e.with.value_or(-1);
            text = tr("{a} and {b} win as a team!",
                      {{"a", seat_name(other >= 0 ? std::min(seat, other) : seat)}, {"b", seat_name(other >= 0 ? std::max(seat, other) : other)}});
        }
        else text = event_text(nlohmann::json(e), [this](int s) { return seat_name(s); });
        const bool mine = seat == seat_ && seat_ >= 0 && kind == LogLine::Kind::move;
        say(mine ? LogLine::Kind::mine : kind, text);
        if (e.kind == "entered" || e.kind == "moved") {
            mover = seat;
            mover_to = e.to.value_or(-1);
        }
    }
}

}  // namespace spookludo::client
