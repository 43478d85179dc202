// Golden-text tests of the client's drawing (client/render.h): a GameView is built from a message
// sequence made with the protocol structs, drawn without colour, and compared with the expected
// text literally. Every fixture must fit 80x24 with and without colour.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "join_hint.h"
#include "qr_text.h"
#include "view_fixtures.h"
#include "render.h"

using namespace spookludo;
using namespace spookludo::client;
namespace pr = spookludo::protocol;

namespace {

// Boards in the notation (square 1 first): characters chosen so the story below is consistent.
const std::vector<std::string> kBoards = {
    ".HCCWCHWXH.HSXWXHSWH.SWSSSXCCC.XXXSWCHW+",  // 0
    ".HCXWSXHCX.WSSHSCHWX.CWWHHSCCX.HSWXXCWS+",  // 1
    ".XHSCWSCHW.CXWHSXCWH.HSCXWHXSC.WHCSXWHC+",  // 2
    ".SWXHCHWHH.CSXWCXSHW.XCHSWSCXH.CWSXHWCS+",  // 3
    ".CSHXWCSHX.WHCXSHWCS.SXWHCSXWH.XHCWSCHX+",  // 4
    ".WXCSHXWCS.HXSCWHXSC.CHXSWCHSW.SCXHWXSH+",  // 5
    ".HWSCXHSWC.SCHWXCSHX.WSHCXWSCH.HXWCSHXW+",  // 6
    ".XSWHCSXCH.XWCHSXHWC.HCSWXHCSX.WSHXCWHS+",  // 7
};

pr::SeatView bot(int seat, const std::string& name, PolicyKind policy = PolicyKind::best) {
    pr::SeatView s;
    s.seat = seat;
    s.name = name;
    s.bot = true;
    s.policy = policy;
    return s;
}

pr::Joined joined(int seat, bool host) {
    pr::Joined j;
    j.room = "KQZTM";
    j.seat = seat;
    j.role = seat >= 0 ? "player" : "spectator";
    if (seat >= 0) j.token = "4f1c0a9e2b7d45c8a1e3f0b2c4d6e8fa";
    j.host = host;
    return j;
}

pr::PieceMoveView pm(int seat, int piece, int from, int to, const char* by = nullptr) {
    pr::PieceMoveView m;
    m.seat = seat;
    m.piece = piece;
    m.from = from;
    m.to = to;
    if (by) m.by = by;
    return m;
}

using spookludo::testing::event;
using spookludo::testing::player;
using spookludo::testing::snapshot;

pr::DecisionOption spook_option(int piece, int from, int to, const char* square, std::optional<double> rounds) {
    pr::DecisionOption o;
    o.piece = piece;
    o.from = from;
    o.to = to;
    o.square = square;
    o.expected_rounds = rounds;
    return o;
}

pr::DecisionOption ludo_option(int piece, int from, int to, bool captures, bool best) {
    pr::DecisionOption o;
    o.piece = piece;
    o.from = from;
    o.to = to;
    o.captures = captures;
    o.best = best;
    return o;
}

// ---- Fixtures ----------------------------------------------------------------------------------

// Ann (host, seat 1) waits in a Spook lobby with a bot, an away player and a free seat.
GameView spook_lobby() {
    GameView v;
    v.apply(pr::to_message(joined(0, true)));
    auto s = snapshot(GameOptions::spook_game(5, 2), {player(0, "Ann"), bot(1, "best bot 1"), player(2, "Ben", true),
                                                      bot(3, "greedy bot 2", PolicyKind::greedy)});
    s.spectators = 1;
    v.apply(pr::to_message(s));
    return v;
}

constexpr std::int64_t kDecisionAt = 1000;  // local clock when the decision arrived

// Spook with 4 seats in round 3, Ann (seat 1) asked to choose, with hints.
GameView spook_game4() {
    GameView v;
    const auto options = GameOptions::spook_game(4, 2);
    v.apply(pr::to_message(joined(0, true)));
    v.apply(pr::to_message(snapshot(options, {player(0, "Ann"), bot(1, "best bot 1"), player(2, "Ben"),
                                              player(3, "Cleopatra the Great", true)})));
    pr::Commitment c;
    c.game_id = "KQZTM-1764489600000-630dcd29";
    c.commitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";
    c.seed_wait_ms = 10000;
    c.boards = {kBoards[0], kBoards[1], kBoards[2], kBoards[3]};
    v.apply(pr::to_message(c));
    pr::GameStarted g;
    g.game_id = c.game_id;
    g.options = options;
    g.assignment = {1, 0, 3, 2};
    v.apply(pr::to_message(g));
    v.apply(pr::to_message(pr::Roll{1, 4}));
    v.apply(pr::to_message(pr::Moves{1, {pm(0, 0, 1, 5, "player"), pm(1, 1, 1, 5, "bot"), pm(2, 0, 1, 5, "player"),
                                         pm(3, 0, 1, 5, "away")}}));
    pr::Activation a1;
    a1.round = 1;
    a1.face = 5;
    a1.character = "werewolf";
    a1.name = "Werewolf";
    a1.action = "moves back to the entrance of its region";
    a1.moved = {pm(1, 1, 5, 1)};  // seat 2 plays board 0: a werewolf on square 5
    v.apply(pr::to_message(a1));
    v.apply(pr::to_message(pr::Roll{2, 4}));
    v.apply(pr::to_message(pr::Moves{2, {pm(0, 0, 5, 9, "player"), pm(1, 0, 1, 5, "bot"), pm(2, 1, 1, 5, "player"),
                                         pm(3, 0, 5, 9, "timeout")}}));
    pr::Activation a2;
    a2.round = 2;
    a2.face = 1;
    a2.character = "hat";
    a2.name = "Wizard's Hat";
    a2.action = "moves forward 3 squares";
    a2.moved = {pm(3, 0, 9, 12)};  // seat 4 plays board 2: a hat on square 9
    v.apply(pr::to_message(a2));
    v.apply(pr::to_message(pr::Roll{3, 4}));
    pr::Decision d;
    d.decision = "17";
    d.seat = 0;
    d.step = 3;
    d.options = {spook_option(0, 9, 13, "spook", 29.8), spook_option(1, 1, 5, "werewolf", 31.25)};
    d.time_left_ms = 20000;
    d.server_time_ms = 1764489600000;
    v.apply(pr::to_message(d), kDecisionAt);
    return v;
}

// Spook with 8 seats and 3 pieces, seen by a spectator who arrived in round 25 (snapshot only).
GameView spook_game8() {
    GameView v;
    v.apply(pr::to_message(joined(-1, false)));
    auto options = GameOptions::spook_game(8, 3);
    options.play_on = true;
    auto s = snapshot(options, {player(0, "Ann"), bot(1, "best bot 1"), player(2, "Ben"), player(3, "Cleo", true),
                                bot(4, "random bot 2", PolicyKind::random), player(5, "Dmitri"), player(6, "Eve"),
                                bot(7, "greedy bot 3", PolicyKind::greedy)},
                      "playing");
    s.game_id = "KQZTM-1764489600000-630dcd29";
    pr::SpookView g;
    g.round = 25;
    g.phase = "choosing";
    g.roll = 6;
    g.boards = kBoards;
    g.positions = {{40, 40, 7}, {33, 21, 1}, {12, 12, 12}, {1, 1, 2}, {39, 38, 10}, {40, 17, 17}, {22, 30, 31}, {5, 6, 7}};
    g.finished_round = {24, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    s.spook = g;
    v.apply(pr::to_message(s));
    return v;
}

// Classic Ludo, arms of 6, four players; Ben (yellow, seat 2) threw a second 6 and chooses.
GameView ludo_game6() {
    GameView v;
    const auto options = GameOptions::ludo_game(4, 6);
    v.apply(pr::to_message(joined(1, false)));
    auto s = snapshot(options, {player(0, "Ann"), player(1, "Ben"), bot(2, "best bot 1"), player(3, "Cleo", true)},
                      "playing");
    pr::LudoView g;
    // green: yard, yard, 5, 31 | yellow: home, yard, 20, 14 | red: 3 in the yard, 53 in the home
    // column | blue: 0 (its start square, where yellow's 20 + 6 lands).
    g.position = "green:Y,Y,5,31 yellow*:H,Y,20,14 red:Y,Y,Y,53 blue:0,Y,Y,Y";
    g.phase = "awaiting_throw";
    g.current_seat = 1;
    g.turn = 56;
    s.ludo = g;
    v.apply(pr::to_message(s));
    v.apply(pr::to_message(pr::Throw{56, 1, 6, {event("throw", 1, {}, 6)}}));
    v.apply(pr::to_message(pr::LudoMove{56, "player", {event("moved", 1, 3, {}, 14, 20), event("extra_throw", 1)}}));
    v.apply(pr::to_message(pr::Throw{57, 1, 6, {event("throw", 1, {}, 6)}}));
    pr::Decision d;
    d.decision = "31";
    d.seat = 1;
    d.step = 57;
    d.options = {ludo_option(1, -1, 5, false, false), ludo_option(2, 20, 26, true, true)};
    d.time_left_ms = 20000;
    v.apply(pr::to_message(d), kDecisionAt);
    return v;
}

// Classic Ludo, arms of 8, two players (green and red); Ann (green) threw a 3 and has 3 choices.
GameView ludo_game8() {
    GameView v;
    const auto options = GameOptions::ludo_game(2, 8);
    v.apply(pr::to_message(joined(0, true)));
    auto s = snapshot(options, {player(0, "Ann"), bot(1, "best bot 1")}, "playing");
    pr::LudoView g;
    // green: yard, 10, 66 (the last circuit square), 70 (home column) | red: yard, yard, home, 30.
    g.position = "green*:Y,10,66,70 red:Y,Y,H,30";
    g.phase = "awaiting_throw";
    g.current_seat = 0;
    g.turn = 80;
    s.ludo = g;
    v.apply(pr::to_message(s));
    v.apply(pr::to_message(pr::Throw{81, 0, 3, {event("throw", 0, {}, 3)}}));
    pr::Decision d;
    d.decision = "40";
    d.seat = 0;
    d.step = 81;
    d.options = {ludo_option(1, 10, 13, false, false), ludo_option(2, 66, 69, false, true),
                 ludo_option(3, 70, 73, false, false)};
    d.time_left_ms = 20000;
    v.apply(pr::to_message(d), kDecisionAt);
    return v;
}

std::string joined_lines(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

// Shows the drawing when a golden comparison fails (and with SPOOKLUDO_SHOW_RENDER=1).
void check_golden(const std::vector<std::string>& lines, const std::string& expected) {
    const std::string got = joined_lines(lines);
    if (got != expected || std::getenv("SPOOKLUDO_SHOW_RENDER")) std::cout << "----- drawn:\n" << got << "-----\n";
    CHECK(got == expected);
}

// The lines without their escape sequences.
std::vector<std::string> strip(std::vector<std::string> lines) {
    for (auto& line : lines) {
        std::string out;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '\x1b') {
                while (i < line.size() && line[i] != 'm') ++i;
                continue;
            }
            out += line[i];
        }
        line = out;
    }
    return lines;
}

// A raw literal written from its own line: the first newline is not part of the text.
std::string golden(const char* text) {
    std::string s = text;
    if (!s.empty() && s.front() == '\n') s.erase(0, 1);
    return s;
}

constexpr std::int64_t kNow = kDecisionAt + 3000;  // 17 s left of 20
const std::string kStatus = "keys: 1-9 choose  q quit";

struct Fixture {
    const char* name;
    GameView view;
};

std::vector<Fixture> fixtures() {
    return {{"spook lobby", spook_lobby()}, {"spook 4 seats", spook_game4()}, {"spook 8 seats", spook_game8()},
            {"ludo arm 6", ludo_game6()},   {"ludo arm 8", ludo_game8()}};
}

}  // namespace

TEST_CASE("render: dump (SPOOKLUDO_SHOW_RENDER=1)") {
    if (!std::getenv("SPOOKLUDO_SHOW_RENDER")) return;
    for (auto& f : fixtures()) {
        std::cout << "===== " << f.name << "\n" << joined_lines(render_screen(f.view, Style{}, kNow, kStatus));
        if (std::getenv("SPOOKLUDO_SHOW_COLOUR"))
            std::cout << joined_lines(render_screen(f.view, Style{80, 24, true, true, {}, {}}, kNow, kStatus));
    }
}

TEST_CASE("render: every fixture fits 80x24, with and without colour, and colour has ANSI codes, plain none") {
    for (auto& f : fixtures()) {
        CAPTURE(f.name);
        for (const bool color : {false, true}) {
            CAPTURE(color);
            const Style style{80, 24, color, true, {}, {}};
            const auto screen = render_screen(f.view, style, kNow, kStatus);
            CHECK(screen.size() == 24);
            std::string all;
            for (const auto& line : screen) {
                CAPTURE(line);
                CHECK(visible_width(line) <= 80);
                all += line;
            }
            const bool ansi = all.find("\x1b[") != std::string::npos;
            CHECK(ansi == color);
            if (!color) {
                for (const char c : all) CHECK((c >= 0x20 && c < 0x7f));
            }
            // The parts on their own fit too.
            const bool ludo = f.view.options().game == GameKind::ludo;
            const auto part = f.view.in_game() ? (ludo ? render_ludo_board(f.view, style) : render_spook_boards(f.view, style))
                                               : render_lobby(f.view, style);
            CHECK(part.size() <= 22);
            for (const auto& line : part) CHECK(visible_width(line) <= 80);
            for (const auto& line : render_decision(f.view, style, kNow)) CHECK(visible_width(line) <= 80);
        }
    }
}

TEST_CASE("render: smaller and larger terminals keep the lines within the width and the height") {
    for (auto& f : fixtures()) {
        CAPTURE(f.name);
        for (const auto& [w, h] : {std::pair{60, 20}, std::pair{40, 16}, std::pair{120, 40}}) {
            for (const bool color : {false, true}) {
                const Style style{w, h, color, true, {}, {}};
                const auto screen = render_screen(f.view, style, kNow, kStatus);
                CHECK(static_cast<int>(screen.size()) == h);
                for (const auto& line : screen) CHECK(visible_width(line) <= w);
            }
        }
    }
}

TEST_CASE("render: visible_width skips escape sequences and counts a UTF-8 character once") {
    CHECK(visible_width("") == 0);
    CHECK(visible_width("abc") == 3);
    CHECK(visible_width("\x1b[1;31mred\x1b[0m!") == 4);
    CHECK(visible_width("K\xc3\xa4the") == 5);      // Käthe
    CHECK(visible_width("\xe2\x96\x88\xe2\x96\x88") == 2);  // two full blocks
}

TEST_CASE("render: the Ludo circuit is a closed loop of adjacent cells (orthogonal but round the centre's 4 corners), each square its own cell") {
    for (const int arm : {6, 8}) {
        CAPTURE(arm);
        const ludo::Geometry geo(arm);
        const int size = 2 * arm + 3;
        const auto cells = ludo_circuit_cells(arm);
        REQUIRE(static_cast<int>(cells.size()) == geo.circuit_squares());
        std::set<std::pair<int, int>> seen;
        int diagonals = 0;
        for (std::size_t s = 0; s < cells.size(); ++s) {
            const auto a = cells[s];
            const auto b = cells[(s + 1) % cells.size()];
            CAPTURE(s);
            CHECK(a.row >= 0);
            CHECK(a.row < size);
            CHECK(a.col >= 0);
            CHECK(a.col < size);
            const int dr = std::abs(a.row - b.row), dc = std::abs(a.col - b.col);
            if (dr == 1 && dc == 1) {
                // 8n+4 squares on a (2n+3)-square cross: where an arm meets the next, the track
                // steps diagonally round a corner cell of the centre, as on a printed board.
                ++diagonals;
                auto centre_corner = [&](int r, int c) { return (r == arm || r == arm + 2) && (c == arm || c == arm + 2); };
                CHECK((centre_corner(a.row, b.col) || centre_corner(b.row, a.col)));
            } else {
                CHECK(dr + dc == 1);
            }
            seen.insert({a.row, a.col});
            // Off the centre, and on an arm (not in a corner yard).
            const bool centre_rows = a.row >= arm && a.row < arm + 3;
            const bool centre_cols = a.col >= arm && a.col < arm + 3;
            CHECK(centre_rows != centre_cols);
        }
        CHECK(seen.size() == cells.size());
        CHECK(diagonals == 4);
        // Green's start square is one from the end of the left arm, next to the top-left yard.
        CHECK(cells[0] == GridCell{arm, 1});
        for (int c = 0; c < 4; ++c) {
            const auto colour = static_cast<ludo::Colour>(c);
            const auto start = cells[static_cast<std::size_t>(geo.start_square(colour))];
            // The last circuit square of the colour (8n+2) is the end of its arm's middle column,
            // from which its home column leads to the centre, n-1 squares, none on the circuit.
            const auto last = cells[static_cast<std::size_t>(geo.square_of(colour, geo.last_circuit_progress()))];
            const auto column = ludo_home_column_cells(arm, colour);
            REQUIRE(static_cast<int>(column.size()) == geo.home_column_squares());
            CHECK(std::abs(last.row - column.front().row) + std::abs(last.col - column.front().col) == 1);
            for (std::size_t k = 0; k + 1 < column.size(); ++k)
                CHECK(std::abs(column[k].row - column[k + 1].row) + std::abs(column[k].col - column[k + 1].col) == 1);
            for (const auto& cell : column) CHECK(seen.count({cell.row, cell.col}) == 0);
            const auto end = column.back();
            CHECK(((end.row >= arm - 1 && end.row <= arm + 3) && (end.col >= arm - 1 && end.col <= arm + 3)));
            // The square behind the start square (8n+3) is the arm's corner, between the two.
            const auto behind = cells[static_cast<std::size_t>((geo.start_square(colour) + geo.circuit_squares() - 1) %
                                                               geo.circuit_squares())];
            CHECK(std::abs(behind.row - last.row) + std::abs(behind.col - last.col) == 1);
            CHECK(std::abs(behind.row - start.row) + std::abs(behind.col - start.col) == 1);
        }
        // Yellow's start square is green's turned a quarter clockwise.
        CHECK(cells[static_cast<std::size_t>(geo.start_square(ludo::Colour::yellow))] == GridCell{1, size - 1 - arm});
    }
}

TEST_CASE("render golden: a Spook lobby: seats, host, bots, the away player, options, settings, the host's keys") {
    check_golden(render_screen(spook_lobby(), Style{}, kNow, kStatus), golden(R"--(
SpookLudo KQZTM | lobby | you: Ann
Room KQZTM - waiting in the lobby
Spook & Werewolf Ludo: 5 seats, 2 pieces (2 in the church wins), balanced boards
Settings: 20 s to choose, 1.5 s between steps, hints on

> 1  Ann                      host, you
  2  best bot 1               bot (best)
  3  Ben                      away
  4  greedy bot 2             bot (greedy)
  5  (free)
   1 spectator

You are the host. Keys: s start, b g r add a best/greedy/random bot,
  x N remove seat N, + - seats, p pieces, d boards, h hints, t time,
  T more time, w pace, c auto start, o play on, q leave
You are in room KQZTM, seat 1 (host).







keys: 1-9 choose  q quit
)--"));
}

TEST_CASE("render golden: Spook, 4 seats in round 3: squares, pieces, last moves, the story, a decision with hints") {
    check_golden(render_screen(spook_game4(), Style{}, kNow, kStatus), golden(R"--(
SpookLudo KQZTM | Spook round 3, die 4 | you: Ann
>Ann          |.HCXWSXHCX|.WSSHSCHWX|.CWWHHSCCX|.HSWXXCWS|+| you
               2   ----1                                     at 9, 1
 best bot 1   |.HCCWCHWXH|.HSXWXHSWH|.SWSSSXCCC|.XXXSWCHW|+| bot
               2---1                                         at 5, 1
 Ben          |.SWXHCHWHH|.CSXWCXSHW|.XCHSWSCXH|.CWSXHWCS|+|
               ----*                                         at 5, 5
 Cleopatra th |.XHSCWSCHW|.CXWHSXCWH|.HSCXWHXSC|.WHCSXWHC|+| away
               2           1                                 at 12, 1
H hat C cat S spook W werewolf X witch + church | pieces 1-2, *=2, -=moved
Round 2: the die shows 4. Everyone moves one piece 4 squares.
Ann moves piece 1 from square 5 to 9.
best bot 1 moves piece 1 from square 1 to 5.
Ben moves piece 2 from square 1 to 5.
Cleopatra the Great moves piece 1 from square 5 to 9 (time ran out: the server
chose the best move).
The die shows 1: it's the Wizard's Hat! Any piece on the Wizard's Hat moves
forward 3 squares.
Cleopatra the Great's piece 1: 9 -> 12
Round 3: the die shows 4. Everyone moves one piece 4 squares.
1  piece 1: 9 -> 13 (Spook) (hint: 29.8 rounds, best)
2  piece 2: 1 -> 5 (Werewolf) (hint: 31.2 rounds)
Choose 1-2 within 17 s
keys: 1-9 choose  q quit
)--"));
}

TEST_CASE("render golden: Spook, 8 seats and 3 pieces for a spectator: one line a seat, pieces over the squares") {
    check_golden(render_screen(spook_game8(), Style{}, kNow, kStatus), golden(R"--(
SpookLudo KQZTM | Spook round 25, die 6 | watching
 Ann          |.HCCWC3WXH|.HSXWXHSWH|.SWSSSXCCC|.XXXSWCHW|*| 40,40,7 done r24
 best bot 1   |3HCXWSXHCX|.WSSHSCHWX|2CWWHHSCCX|.H1WXXCWS|+| 33,21,1 bot
 Ben          |.XHSCWSCHW|.#XWHSXCWH|.HSCXWHXSC|.WHCSXWHC|+| 12,12,12
 Cleo         |*3WXHCHWHH|.CSXWCXSHW|.XCHSWSCXH|.CWSXHWCS|+| 1,1,2 away
 random bot 2 |.CSHXWCSH3|.WHCXSHWCS|.SXWHCSXWH|.XHCWSC21|+| 39,38,10 bot
 Dmitri       |.WXCSHXWCS|.HXSCW*XSC|.CHXSWCHSW|.SCXHWXSH|1| 40,17,17
 Eve          |.HWSCXHSWC|.SCHWXCSHX|.1SHCXWSC2|3HXWCSHXW|+| 22,30,31
 greedy bot 3 |.XSW123XCH|.XWCHSXHWC|.HCSWXHCSX|.WSHXCWHS|+| 5,6,7 bot
H hat C cat S spook W werewolf X witch + church | pieces 1-3, *=2, #=3
You are watching room KQZTM.












keys: 1-9 choose  q quit
)--"));
}

TEST_CASE("render golden: Classic Ludo with arms of 6: yards, circuit, a block, a home column, home, a capture option") {
    check_golden(render_screen(ludo_game6(), Style{}, kNow, kStatus), golden(R"--(
SpookLudo KQZTM | Ludo turn 57, Ben to play | you: Ben
            . . .               Classic Ludo, arms of 6, turn 57
   green    . : ()   yellow      g Ann          yard 2 home 0
    Ann     . : .     Ben       >y Ben          yard 1 home 1 you
   g1 g2    . : .       y2       r best bot 1   yard 3 home 0 bot
            . : .                b Cleo         yard 3 home 0 away
            g3: .               Last throw: 6 (Ben)
. (). . . . ##Y1##*1. . . . .   Last move: Ben piece 4, 14 -> 20
. : : : : : ######: : r4: : .
. . . . . . ######. . . . ().   g1 green piece 1, G2 two green pieces
            . : g4              () start square, : home column
    blue    . : .     red       centre: G3 = 3 green pieces home
    Cleo    . : 34 best bot 1   moves count squares from the start
      b2    . : .    r1 r2      *1 the square option 1 leads to
   b3 b4    *2: .    r3         34 your pieces 3 and 4 together
            . . .
Ben (yellow) throws a 6.
Ben (yellow) moves piece 4 from 14 to 20.
Ben (yellow) played a 6 and throws again.
Ben (yellow) throws a 6.
1  piece 2: out of the yard -> 5
2  piece 3: 20 -> 26 captures! (best)
Choose 1-2 within 17 s
keys: 1-9 choose  q quit
)--"));
}

TEST_CASE("render golden: Classic Ludo with arms of 8, two players: the 19x19 cross and a decision two options a line") {
    check_golden(render_screen(ludo_game8(), Style{}, kNow, kStatus), golden(R"--(
SpookLudo KQZTM | Ludo turn 81, Ann to play | you: Ann
                . . .                   Classic Ludo, arms of 8, turn 81
                *1: ()                  >g Ann          yard 1 home 0 you
     green      . : .                    r best bot 1   yard 2 home 1 bot
      Ann       . : .                   Last throw: 3 (Ann)
     g1         g2: .
                . : .                   g1 green piece 1, G2 two green pieces
                . : .                   () start square, : home column
                . : .                   centre: G3 = 3 green pieces home
. (). . . . . . ######. . . . . . . .   moves count squares from the start
g3: : *2g4: : *3####R1: : : : : : : .   *1 the square option 1 leads to
. r4. . . . . . ######. . . . . . ().
                . : .
                . : .
                . : .       red
                . : .    best bot 1
                . : .      r1 r2
                . : .
                (): .
                . . .
1  piece 2: 10 -> 13                     2  piece 3: 66 -> 69 (best)
3  piece 4: 70 -> 73
Choose 1-3 within 17 s
keys: 1-9 choose  q quit
)--"));
}

TEST_CASE("render golden: a decision without hints, after choosing, and when the time is up") {
    GameView v = spook_game4();
    Style style;
    style.hints = false;
    check_golden(render_decision(v, style, kNow), golden(R"--(
1  piece 1: 9 -> 13 (Spook)
2  piece 2: 1 -> 5 (Werewolf)
Choose 1-2 within 17 s
)--"));
    // The countdown rounds up: 2.5 s left shows 3 s; none left, the server moves.
    CHECK(render_decision(v, style, kDecisionAt + 17500).back() == "Choose 1-2 within 3 s");
    CHECK(render_decision(v, style, kDecisionAt + 20000).back() == "Time is up: the server moves for you.");
    v.mark_chosen(1);
    check_golden(render_decision(v, Style{}, kNow), golden(R"--(
1  piece 1: 9 -> 13 (Spook) (hint: 29.8 rounds, best)
2  piece 2: 1 -> 5 (Werewolf) (hint: 31.2 rounds) <- sent
You chose piece 2; waiting for the server.
)--"));
    // The server accepts: the decision is gone.
    v.apply(pr::to_message(pr::ChoiceAccepted{"17", 1}), kNow);
    CHECK(render_decision(v, Style{}, kNow).empty());

    GameView l = ludo_game6();
    check_golden(render_decision(l, style, kNow), golden(R"--(
1  piece 2: out of the yard -> 5
2  piece 3: 20 -> 26 captures!
Choose 1-2 within 17 s
)--"));
}

TEST_CASE("render: Spook options to an entrance and into the church name the square") {
    GameView v = spook_game4();
    pr::Decision d;
    d.decision = "18";
    d.seat = 0;
    d.options = {spook_option(0, 36, 40, "church", 0.0), spook_option(1, 7, 11, "entrance", 12.5)};
    d.time_left_ms = 9000;
    v.apply(pr::to_message(d), 0);
    check_golden(render_decision(v, Style{}, 0), golden(R"--(
1  piece 1: 36 -> 40 (the church) (hint: 0.0 rounds, best)
2  piece 2: 7 -> 11 (entrance) (hint: 12.5 rounds)
Choose 1-2 within 9 s
)--"));
}

TEST_CASE("render golden: the Spook boards on their own, two lines a seat") {
    check_golden(render_spook_boards(spook_game4(), Style{}), golden(R"--(
>Ann          |.HCXWSXHCX|.WSSHSCHWX|.CWWHHSCCX|.HSWXXCWS|+| you
               2   ----1                                     at 9, 1
 best bot 1   |.HCCWCHWXH|.HSXWXHSWH|.SWSSSXCCC|.XXXSWCHW|+| bot
               2---1                                         at 5, 1
 Ben          |.SWXHCHWHH|.CSXWCXSHW|.XCHSWSCXH|.CWSXHWCS|+|
               ----*                                         at 5, 5
 Cleopatra th |.XHSCWSCHW|.CXWHSXCWH|.HSCXWHXSC|.WHCSXWHC|+| away
               2           1                                 at 12, 1
H hat C cat S spook W werewolf X witch + church | pieces 1-2, *=2, -=moved
)--"));
}

TEST_CASE("render: a Ludo lobby for a player who is not the host") {
    GameView v;
    v.apply(pr::to_message(joined(1, false)));
    auto options = GameOptions::ludo_game(3, 6);
    options.ludo.three_sixes = true;
    v.apply(pr::to_message(snapshot(options, {player(0, "Ann"), player(1, "Ben")})));
    check_golden(render_lobby(v, Style{}), golden(R"--(
Room KQZTM - waiting in the lobby
Classic Ludo: 3 seats, arms of 6, entry as the text (6 squares out), house
rules: three 6s end the turn
Settings: 20 s to choose, 1.5 s between steps, hints on

  1  Ann                      host
> 2  Ben                      you
  3  (free)

Waiting for Ann (host) to start. q leaves.
)--"));
}

namespace {

// A host's lobby of `seats` seats: Ann, bots in every other seat after hers, the rest free.
GameView host_lobby(int seats) {
    GameView v;
    v.apply(pr::to_message(joined(0, true)));
    std::vector<pr::SeatView> taken{player(0, "Ann")};
    for (int seat = 1; seat < seats; seat += 2) taken.push_back(bot(seat, "best bot " + std::to_string(seat)));
    v.apply(pr::to_message(snapshot(GameOptions::spook_game(seats, 2), taken)));
    return v;
}

// The size a screen advises ("... WxH ..." after `words`), the lines joined as wrapped.
std::optional<std::pair<int, int>> advised(const std::vector<std::string>& screen, const std::string& pattern) {
    std::string all;
    for (const auto& l : screen) all += l + " ";
    all = std::regex_replace(all, std::regex(" +"), " ");
    std::smatch m;
    if (!std::regex_search(all, m, std::regex(pattern))) return std::nullopt;
    return std::pair{std::stoi(m[1]), std::stoi(m[2])};
}

const std::string kMakeWindow = R"(Make the window at least (\d+)x(\d+) for the lobby)";
const std::string kQrWindow = R"(a window of (\d+)x(\d+) shows the link as a QR code)";

bool draws_qr(const std::vector<std::string>& screen) {
    for (const auto& l : screen)
        if (l.find("\u2580") != std::string::npos || l.find("\u2584") != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("render: the lobby's advice on the window is a size that fits: there the QR code is drawn, and nothing says the window is too small, plain and TLS, 2 to 8 seats [issue34-8]") {
    Url plain{"127.0.0.1", "7777"};
    Url tls = plain;
    tls.tls = true;
    tls.ca_file = "cert.pem";
    struct Where {
        const char* what;
        JoinHint hint;
    };
    const std::vector<Where> servers{{"plain", join_hint(plain, "KQZTM", {"192.168.1.20"})},
                                     {"tls", join_hint(tls, "KQZTM", {"192.168.1.20"})},
                                     {"public", join_hint(plain, "KQZTM", {}, "https://party.example.org")}};
    const std::string long_status(100, 'x');  // a message over two lines
    int followed = 0;
    for (const auto& server : servers) {
        CAPTURE(server.what);
        for (int seats = 2; seats <= 8; ++seats) {
            CAPTURE(seats);
            const GameView v = host_lobby(seats);
            for (const std::string& status : {std::string(), long_status}) {
                CAPTURE(status.size());
                const auto draw = [&](int w, int h) {
                    Style style;
                    style.width = w;
                    style.height = h;
                    style.join_hint = server.hint.lines;
                    style.join_qr = qr_lines(server.hint.link, false);
                    const auto screen = render_screen(v, style, kNow, status);
                    CHECK(static_cast<int>(screen.size()) == h);
                    for (const auto& line : screen) CHECK(visible_width(line) <= w);
                    return screen;
                };
                for (const auto& [w, h] : {std::pair{80, 24}, std::pair{80, 30}, std::pair{100, 30}, std::pair{100, 31},
                                           std::pair{100, 32}, std::pair{60, 20}}) {
                    CAPTURE(w);
                    CAPTURE(h);
                    auto screen = draw(w, h);
                    // Too small for the lobby: the size it names holds the whole lobby.
                    if (const auto need = advised(screen, kMakeWindow)) {
                        CAPTURE(need->first);
                        CAPTURE(need->second);
                        CHECK((need->first > w || need->second > h));
                        screen = draw(need->first, need->second);
                        CHECK_FALSE(advised(screen, kMakeWindow));
                        ++followed;
                    }
                    // The QR code's window: there it is drawn, and the lobby is whole.
                    if (const auto need = advised(screen, kQrWindow)) {
                        CAPTURE(need->first);
                        CAPTURE(need->second);
                        CHECK_FALSE(draws_qr(screen));
                        const auto there = draw(need->first, need->second);
                        CHECK(draws_qr(there));
                        CHECK_FALSE(advised(there, kMakeWindow));
                        CHECK_FALSE(advised(there, kQrWindow));
                        // One line less, and it is not.
                        CHECK_FALSE(draws_qr(draw(need->first, need->second - 1)));
                        ++followed;
                    } else {
                        CHECK((draws_qr(screen) || advised(screen, kMakeWindow)));
                    }
                }
                // The issue's windows: a lobby of up to 8 seats fits 80x30 and 100x30 (with or
                // without its QR code).
                if (status.empty() && seats <= 8)
                    for (const auto& [w, h] : {std::pair{80, 30}, std::pair{100, 30}, std::pair{100, 31}, std::pair{100, 32}})
                        CHECK_FALSE(advised(draw(w, h), kMakeWindow));
            }
        }
    }
    CHECK(followed > 40);
}

TEST_CASE("render: colour draws the characters, pieces and countdown with ANSI codes") {
    const Style colour{80, 24, true, true, {}, {}};
    const auto boards = joined_lines(render_spook_boards(spook_game4(), colour));
    CHECK(boards.find("\x1b[33mH\x1b[0m") != std::string::npos);   // a hat, yellow
    CHECK(boards.find("\x1b[35mC\x1b[0m") != std::string::npos);   // a cat, magenta
    CHECK(boards.find("\x1b[31mW\x1b[0m") != std::string::npos);   // a werewolf, red
    CHECK(boards.find("\x1b[32mX\x1b[0m") != std::string::npos);   // a witch, green
    CHECK(boards.find("\x1b[1;33m1\x1b[0m") != std::string::npos);  // a piece that just moved
    const auto ludo = joined_lines(render_ludo_board(ludo_game6(), colour));
    CHECK(ludo.find("\x1b[1;33mY2;7\x1b[0m") == std::string::npos);
    CHECK(ludo.find("\x1b[1;33;7m34\x1b[0m") != std::string::npos);  // the block that just moved, reversed (the chooser's: its pieces 3 and 4)
    CHECK(ludo.find("\x1b[30;42m()\x1b[0m") != std::string::npos);   // green's start square
    const auto decision = joined_lines(render_decision(ludo_game6(), colour, kNow));
    CHECK(decision.find("\x1b[1;31mcaptures!\x1b[0m") != std::string::npos);
    CHECK(visible_width(render_decision(ludo_game6(), colour, kNow)[1]) ==
          visible_width(render_decision(ludo_game6(), Style{}, kNow)[1]));
}

TEST_CASE("render: any number of Spook seats and Ludo players leaves the whole decision on an 80x24 screen") {
    for (int seats = 1; seats <= 8; ++seats) {
        for (int pieces = 1; pieces <= 3; ++pieces) {
            CAPTURE(seats);
            CAPTURE(pieces);
            GameView v;
            v.apply(pr::to_message(joined(seats - 1, false)));
            auto options = GameOptions::spook_game(seats, pieces);
            std::vector<pr::SeatView> list;
            pr::SpookView g;
            g.round = 4;
            g.roll = 3;
            for (int s = 0; s < seats; ++s) {
                list.push_back(player(s, "Player number " + std::to_string(s + 1)));
                g.boards.push_back(kBoards[static_cast<std::size_t>(s)]);
                g.positions.push_back(std::vector<int>(static_cast<std::size_t>(pieces), 1 + s));
                g.finished_round.emplace_back();
            }
            auto snap = snapshot(options, list, "playing");
            snap.spook = g;
            v.apply(pr::to_message(snap));
            pr::Decision d;
            d.decision = "5";
            d.seat = seats - 1;
            for (int p = 0; p < pieces; ++p) d.options.push_back(spook_option(p, 1 + p, 4 + p, "cat", 20.0 + p));
            d.time_left_ms = 30000;
            v.apply(pr::to_message(d), 0);
            REQUIRE(v.pending());
            for (const bool color : {false, true}) {
                const auto screen = strip(render_screen(v, Style{80, 24, color, true, {}, {}}, 0, kStatus));
                REQUIRE(screen.size() == 24);
                for (const auto& line : screen) CHECK(visible_width(line) <= 80);
                CHECK(screen[22].find("within 30 s") != std::string::npos);
                const std::string all = joined_lines(screen);
                for (int p = 0; p < pieces; ++p) CHECK(all.find("piece " + std::to_string(p + 1) + ": ") != std::string::npos);
                CHECK(all.find("Player number " + std::to_string(seats)) != std::string::npos);  // every seat drawn
            }
        }
    }
    for (const int arm : {6, 8}) {
        for (int players = 2; players <= 4; ++players) {
            CAPTURE(arm);
            CAPTURE(players);
            GameView v;
            v.apply(pr::to_message(joined(0, true)));
            std::vector<pr::SeatView> list;
            for (int s = 0; s < players; ++s) list.push_back(player(s, "Player number " + std::to_string(s + 1)));
            auto snap = snapshot(GameOptions::ludo_game(players, arm), list, "playing");
            pr::LudoView g;
            g.current_seat = 0;
            for (int s = 0; s < players; ++s)
                g.position += std::string(s ? " " : "") + std::string(ludo::to_string(ludo::colour_of_seat(players, s))) +
                              ":Y,3,7,11";
            snap.ludo = g;
            v.apply(pr::to_message(snap));
            pr::Decision d;
            d.decision = "9";
            d.options = {ludo_option(0, -1, 5, true, false), ludo_option(1, 3, 9, false, false),
                         ludo_option(2, 7, 13, false, true), ludo_option(3, 11, 17, true, false)};
            d.time_left_ms = 30000;
            v.apply(pr::to_message(d), 0);
            for (const bool color : {false, true}) {
                const auto screen = strip(render_screen(v, Style{80, 24, color, true, {}, {}}, 0, kStatus));
                REQUIRE(screen.size() == 24);
                for (const auto& line : screen) CHECK(visible_width(line) <= 80);
                CHECK(screen[22] == "Choose 1-4 within 30 s");
                const std::string all = joined_lines(screen);
                for (int p = 1; p <= 4; ++p) CHECK(all.find(std::to_string(p) + "  piece " + std::to_string(p)) != std::string::npos);
                CHECK(all.find("yard 1 home 0") != std::string::npos);
            }
        }
    }
}

TEST_CASE("render: the colour screen is the plain screen with escape sequences added") {
    for (auto& f : fixtures()) {
        CAPTURE(std::string(f.name));
        const auto colour = strip(render_screen(f.view, Style{80, 24, true, true, {}, {}}, kNow, kStatus));
        const auto plain = render_screen(f.view, Style{80, 24, false, true, {}, {}}, kNow, kStatus);
        REQUIRE(colour.size() == plain.size());
        for (std::size_t i = 0; i < plain.size(); ++i) CHECK(colour[i] == plain[i]);
    }
}

// ---- Issue #15 -----------------------------------------------------------------------------------

namespace {

bool has_line(const std::vector<std::string>& lines, const std::string& text) {
    for (const auto& l : lines)
        if (l == text) return true;
    return false;
}

bool contains(const std::vector<std::string>& lines, const std::string& text) { return joined_lines(lines).find(text) != std::string::npos; }

// The cell's text on a drawn Ludo board (two columns a cell; row 0 is the board's first line).
std::string cell_at(const std::vector<std::string>& board, GridCell cell) {
    const auto& line = board.at(static_cast<std::size_t>(cell.row));
    const auto at = static_cast<std::size_t>(2 * cell.col);
    return at < line.size() ? line.substr(at, 2) : std::string();
}

// A free seat as the server lists it (protocol: every seat, free ones included).
nlohmann::json free_seat(int seat) { return {{"seat", seat}, {"free", true}, {"name", ""}, {"bot", false}}; }

}  // namespace

TEST_CASE("render #15.11: Ludo options are found on the board: the pieces are numbered and the options' squares marked *1 *2 *3, also without colour") {
    const GameView v = ludo_game8();  // Ann (green): 1 piece 2 10 -> 13, 2 piece 3 66 -> 69, 3 piece 4 70 -> 73
    const int arm = 8;
    const ludo::Geometry geo(arm);
    const auto circuit = ludo_circuit_cells(arm);
    const auto column = ludo_home_column_cells(arm, ludo::Colour::green);
    auto cell_of = [&](int progress) {
        return geo.on_circuit(progress) ? circuit[static_cast<std::size_t>(geo.square_of(ludo::Colour::green, progress))]
                                        : column[static_cast<std::size_t>(progress - geo.last_circuit_progress() - 1)];
    };
    for (const bool color : {false, true}) {
        CAPTURE(color);
        const auto board = strip(render_ludo_board(v, Style{80, 24, color, true, {}, {}}));
        // The pieces that can move stand on the board under their numbers...
        CHECK(cell_at(board, cell_of(10)) == "g2");
        CHECK(cell_at(board, cell_of(66)) == "g3");
        CHECK(cell_at(board, cell_of(70)) == "g4");
        // ... and the squares the options lead to carry the option's key.
        CHECK(cell_at(board, cell_of(13)) == "*1");
        CHECK(cell_at(board, cell_of(69)) == "*2");
        CHECK(cell_at(board, cell_of(73)) == "*3");
        CHECK(contains(board, "*1 the square option 1 leads to"));
    }
    // A capture's square is marked too (where blue's piece stands, yellow's 20 + 6), and the
    // chooser's two pieces together on 20 show both numbers, 3 and 4 (others' blocks: "Y2").
    const auto board6 = render_ludo_board(ludo_game6(), Style{});
    CHECK(contains(board6, "*2: ."));
    CHECK(cell_at(board6, ludo_circuit_cells(6)[static_cast<std::size_t>(ludo::Geometry(6).square_of(ludo::Colour::yellow, 20))]) == "34");
    // Without an open decision, nothing is marked.
    GameView done = ludo_game8();
    done.apply(pr::to_message(pr::ChoiceAccepted{"40", 2}), kNow);
    CHECK_FALSE(contains(render_ludo_board(done, Style{}), "*1"));
}

TEST_CASE("render #15.13: a 60x15 window keeps the title, says how big a window the board needs, and shows the decision and the keys in full") {
    const std::string keys = "Press 1-2 to choose. ? hints, q leave, P pause, k N kick, E end the game for everyone";
    const auto screen = render_screen(ludo_game6(), Style{60, 15, false, true, {}, {}}, kNow, keys);
    if (std::getenv("SPOOKLUDO_SHOW_RENDER")) std::cout << joined_lines(screen);
    REQUIRE(screen.size() == 15);
    for (const auto& line : screen) CHECK(visible_width(line) <= 60);
    CHECK(screen[0] == "SpookLudo KQZTM | Ludo turn 57, Ben to play | you: Ben");
    // 69 columns for the board and its panel; 15 lines, a line of the decision, the keys (two
    // lines even at 69 columns) and the title: 21.
    CHECK(has_line(screen, "Make the window at least 69x21 for the board (now 60x15)"));
    // The side panel's facts are not dropped: every player, the last throw and move.
    CHECK(contains(screen, ">y Ben          yard 1 home 1 you"));
    CHECK(contains(screen, "Last throw: 6 (Ben)"));
    // The whole decision, and the keys wrapped over two lines at the bottom, not cut.
    CHECK(has_line(screen, "1  piece 2: out of the yard -> 5"));
    CHECK(has_line(screen, "2  piece 3: 20 -> 26 captures! (best)"));
    CHECK(has_line(screen, "Choose 1-2 within 17 s"));
    CHECK(screen[13] + " " + screen[14] == keys);

    // The lobby at 60 columns: the host's keys wrap ("random bot," is not cut to "ran").
    const auto lobby = render_screen(spook_lobby(), Style{60, 15, false, true, {}, {}}, kNow, kStatus);
    if (std::getenv("SPOOKLUDO_SHOW_RENDER")) std::cout << joined_lines(lobby);
    REQUIRE(lobby.size() == 15);
    for (const auto& line : lobby) CHECK(visible_width(line) <= 60);
    CHECK(lobby[0] == "SpookLudo KQZTM | lobby | you: Ann");
    CHECK(contains(lobby, "best/greedy/random bot,"));
    CHECK(contains(lobby, "leave"));  // "q" may end the line above
    CHECK(contains(lobby, "  5  (free)"));
    CHECK(lobby.back() == kStatus);
}

TEST_CASE("render #15.13: a 40x10 window keeps the title with the round and the die, the size it needs, the decision and the status") {
    const auto screen = render_screen(spook_game4(), Style{40, 10, false, true, {}, {}}, kNow, kStatus);
    if (std::getenv("SPOOKLUDO_SHOW_RENDER")) std::cout << joined_lines(screen);
    REQUIRE(screen.size() == 10);
    for (const auto& line : screen) CHECK(visible_width(line) <= 40);
    CHECK(screen[0].rfind("SpookLudo KQZTM | Spook round 3, die 4", 0) == 0);
    CHECK(contains(screen, "Make the window at least 62x11 for the"));
    CHECK(contains(screen, "(now 40x10)"));
    CHECK(has_line(screen, "Choose 1-2 within 17 s"));
    CHECK(contains(screen, "1  piece 1: 9 -> 13 (Spook)"));
    CHECK(screen.back() == kStatus);
    // Even smaller: the title first, the status last, every line within the width.
    for (const auto& [w, h] : {std::pair{20, 5}, std::pair{30, 3}, std::pair{12, 1}}) {
        for (auto& f : fixtures()) {
            CAPTURE(f.name);
            const auto tiny = render_screen(f.view, Style{w, h, false, true, {}, {}}, kNow, kStatus);
            REQUIRE(static_cast<int>(tiny.size()) == h);
            for (const auto& line : tiny) CHECK(visible_width(line) <= w);
            if (h > 2) CHECK(tiny[0].rfind("SpookLudo", 0) == 0);
        }
    }
}

TEST_CASE("render #15.13: at the normal size nothing asks for a bigger window, and 4 Spook seats fit 64x15 with the boards") {
    for (auto& f : fixtures()) {
        CAPTURE(f.name);
        CHECK_FALSE(contains(render_screen(f.view, Style{}, kNow, kStatus), "Make the window"));
    }
    const auto screen = render_screen(spook_game4(), Style{64, 15, false, true, {}, {}}, kNow, kStatus);
    if (std::getenv("SPOOKLUDO_SHOW_RENDER")) std::cout << joined_lines(screen);
    CHECK_FALSE(contains(screen, "Make the window"));
    CHECK(screen[1].rfind(">Ann  |2HCXWSXH1X|", 0) == 0);  // one line a seat, the pieces on the squares
    CHECK(has_line(screen, "Choose 1-2 within 17 s"));
}

TEST_CASE("render #15.9: a long status wraps over lines instead of being cut at the window's edge") {
    const std::string status =
        "connection lost (connection refused by 127.0.0.1:33202 (is the server running, and is the port right?)); "
        "retrying in 2 s, q quits, r retries now";
    REQUIRE(status.size() >= 140);
    for (auto& f : fixtures()) {
        CAPTURE(f.name);
        const auto screen = render_screen(f.view, Style{100, 24, false, true, {}, {}}, kNow, status);
        REQUIRE(screen.size() == 24);
        for (const auto& line : screen) CHECK(visible_width(line) <= 100);
        CHECK(screen[0].rfind("SpookLudo KQZTM", 0) == 0);
        CHECK(screen[22] + " " + screen[23] == status);
    }
}

TEST_CASE("render #15 protocol: a lobby lists every seat by its number, free ones included: seats 1 and 3 taken, 2 free") {
    GameView v;
    v.apply(pr::to_message(joined(2, false)));
    auto s = snapshot(GameOptions::spook_game(3, 1), {player(0, "Ann"), player(2, "Ben")});
    auto message = pr::to_message(s);
    message["seats"] = nlohmann::json::array({message["seats"][0], free_seat(1), message["seats"][1]});
    v.apply(message);
    CHECK(v.seat_free(1));
    CHECK_FALSE(v.seat_free(2));
    CHECK(v.seat_name(1) == "seat 2");
    check_golden(render_lobby(v, Style{}), golden(R"--(
Room KQZTM - waiting in the lobby
Spook & Werewolf Ludo: 3 seats, 1 piece (1 in the church wins), balanced boards
Settings: 20 s to choose, 1.5 s between steps, hints on

  1  Ann                      host
  2  (free)
> 3  Ben                      you

Waiting for Ann (host) to start. q leaves.
)--"));
    // Seats 1 and 3 only (the `-` key removed the free seat 2): numbered as they are, no seat 2.
    GameView gap;
    gap.apply(pr::to_message(joined(2, false)));
    gap.apply(pr::to_message(snapshot(GameOptions::spook_game(2, 1), {player(0, "Ann"), player(2, "Ben")})));
    const auto lines = render_lobby(gap, Style{});
    CHECK(has_line(lines, "  1  Ann                      host"));
    CHECK(has_line(lines, "> 3  Ben                      you"));
    CHECK_FALSE(contains(lines, "  2  "));
    CHECK(contains(lines, "2 seats"));
    // A room of one seat says "1 seat".
    GameView one;
    one.apply(pr::to_message(joined(0, true)));
    one.apply(pr::to_message(snapshot(GameOptions::spook_game(1, 1), {player(0, "Ann")})));
    CHECK(contains(render_lobby(one, Style{}), "Spook & Werewolf Ludo: 1 seat, 1 piece"));
}

TEST_CASE("render #15 protocol: a Spook game on room seats 0 and 2 (seat 1 free): boards and pieces by room seat, no seat 2 drawn") {
    GameView v;
    v.apply(pr::to_message(joined(2, false)));
    const auto options = GameOptions::spook_game(3, 1);
    auto lobby = pr::to_message(snapshot(options, {player(0, "Ann"), player(2, "Ben")}));
    lobby["seats"] = nlohmann::json::array({lobby["seats"][0], free_seat(1), lobby["seats"][1]});
    v.apply(lobby);
    pr::Commitment c;
    c.game_id = "KQZTM-1-2";
    c.commitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";
    c.boards = {kBoards[0], kBoards[1]};
    v.apply(pr::to_message(c));
    pr::GameStarted g;
    g.game_id = c.game_id;
    g.options = options;
    g.assignment = {1, -1, 0};
    auto started = pr::to_message(g);
    started["players"] = {0, 2};
    v.apply(started);
    CHECK(v.play_seats() == std::vector<int>{0, 2});
    REQUIRE(v.spook_boards().size() == 3);
    CHECK(v.spook_boards()[0] == kBoards[1]);
    CHECK(v.spook_boards()[1].empty());
    CHECK(v.spook_boards()[2] == kBoards[0]);
    v.apply(pr::to_message(pr::Roll{1, 3}));
    v.apply(pr::to_message(pr::Moves{1, {pm(0, 0, 1, 4, "player"), pm(2, 0, 1, 4, "player")}}));
    CHECK(v.spook_positions()[2] == std::vector<int>{4});
    const auto boards = render_spook_boards(v, Style{});
    check_golden(boards, golden(R"--(
 Ann          |.HCXWSXHCX|.WSSHSCHWX|.CWWHHSCCX|.HSWXXCWS|+|
               ---1                                          at 4
>Ben          |.HCCWCHWXH|.HSXWXHSWH|.SWSSSXCCC|.XXXSWCHW|+| you
               ---1                                          at 4
H hat C cat S spook W werewolf X witch + church | pieces 1, -=moved
)--"));
    CHECK(contains(render_screen(v, Style{}, 0, kStatus), "Ben moves piece 1 from square 1 to 4."));
    CHECK_FALSE(contains(render_screen(v, Style{}, 0, kStatus), "seat 2"));
}

TEST_CASE("render #15 protocol: a Ludo game on room seats 0 and 2: the colours go in play order, the position lists the players") {
    GameView v;
    v.apply(pr::to_message(joined(2, false)));
    auto s = snapshot(GameOptions::ludo_game(3, 6), {player(0, "Ann"), player(2, "Ben")}, "playing");
    pr::LudoView g;
    g.position = "green:Y,Y,5,31 red*:Y,Y,Y,12";
    g.phase = "awaiting_throw";
    g.current_seat = 2;
    g.turn = 9;
    s.ludo = g;
    auto message = pr::to_message(s);
    message["seats"] = nlohmann::json::array({message["seats"][0], free_seat(1), message["seats"][1]});
    message["game"]["players"] = {0, 2};
    v.apply(message);
    CHECK(v.play_seats() == std::vector<int>{0, 2});
    CHECK(v.ludo_colour(2) == static_cast<int>(ludo::Colour::red));
    CHECK(v.ludo_position(2) == "green:Y,Y,5,31 red*:Y,Y,Y,12");
    v.apply(pr::to_message(pr::Throw{10, 2, 4, {event("throw", 2, {}, 4)}}));
    v.apply(pr::to_message(pr::LudoMove{10, "player", {event("moved", 2, 3, {}, 12, 16)}}));
    CHECK(v.ludo_progress()[2][3] == 16);
    const auto screen = render_screen(v, Style{}, 0, kStatus);
    CHECK(contains(screen, " g Ann          yard 2 home 0"));
    CHECK(contains(screen, "r Ben          yard 3 home 0 you"));
    CHECK(contains(screen, "Ben (red) moves piece 4 from 12 to 16."));
    CHECK_FALSE(contains(screen, "seat 2"));
}

TEST_CASE("render: once Ann has chosen, the line under the story names who is still choosing and their time left, counts down, and goes with the round's moves [issue34]") {
    GameView v = spook_game4();
    const auto options = GameOptions::spook_game(4, 2);
    v.apply(pr::to_message(pr::ChoiceAccepted{"17", 1}), kNow);
    // The server: Ben (seat 3) and Cleopatra (seat 4) still choose, 12 s left by its clock.
    auto ben = player(2, "Ben");
    ben.choosing = true;
    auto cleo = player(3, "Cleopatra the Great", true);
    cleo.choosing = true;
    auto s = snapshot(options, {player(0, "Ann"), bot(1, "best bot 1"), ben, cleo}, "playing");
    s.decision_deadline_ms = s.server_time_ms + 12000;
    v.apply(pr::to_message(s), kNow);
    const auto has = [](const std::vector<std::string>& lines, const std::string& text) {
        return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l == text; });
    };
    auto screen = render_screen(v, Style{}, kNow, kStatus);
    CHECK_MESSAGE(has(screen, "Still choosing (12 s left): Ben and Cleopatra the Great"), joined_lines(screen));
    CHECK(screen.back() == kStatus);
    // Between messages it counts down (rounding up).
    screen = render_screen(v, Style{}, kNow + 2500, kStatus);
    CHECK_MESSAGE(has(screen, "Still choosing (10 s left): Ben and Cleopatra the Great"), joined_lines(screen));
    // While the game is paused the server gives no deadline: nobody's time runs.
    s.paused = true;
    s.decision_deadline_ms.reset();
    v.apply(pr::to_message(s), kNow);
    CHECK(has(render_screen(v, Style{}, kNow, kStatus), "Still choosing (paused): Ben and Cleopatra the Great"));
    // The round's moves end the step: the line goes.
    v.apply(pr::to_message(pr::Moves{3, {pm(0, 1, 1, 5, "player"), pm(1, 0, 5, 9, "bot"), pm(2, 0, 5, 9, "player"),
                                         pm(3, 0, 12, 16, "timeout")}}),
            kNow);
    screen = render_screen(v, Style{}, kNow, kStatus);
    CHECK_FALSE(std::any_of(screen.begin(), screen.end(), [](const std::string& l) { return l.find("Still choosing") != std::string::npos; }));
}

TEST_CASE("render: a decision without a time limit says so instead of a countdown, and the lobby shows the room's more time [more_time]") {
    GameView v = spook_game4();
    pr::Decision d;
    d.decision = "17";
    d.seat = 0;
    d.step = 3;
    d.options = {spook_option(0, 9, 13, "spook", 29.8), spook_option(1, 1, 5, "werewolf", 31.25)};
    d.server_time_ms = 1764489600000;  // no time_left_ms: no limit (settings.time_factor 0)
    v.apply(pr::to_message(d), kDecisionAt);
    Style style;
    style.hints = false;
    CHECK(v.no_time_limit());
    // An hour later it still waits: nothing counts down, nothing says the time is up.
    CHECK(render_decision(v, style, kDecisionAt + 3600000).back() == "Choose 1-2: no time limit.");

    for (const auto& [factor, words] : {std::pair{0, "Time to choose: no limit"}, std::pair{2, "Time to choose: x2"}}) {
        CAPTURE(factor);
        GameView lobby;
        lobby.apply(pr::to_message(joined(0, true)));
        auto s = snapshot(GameOptions::spook_game(2, 2), {player(0, "Ann"), bot(1, "best bot 1")});
        s.settings.time_factor = factor;
        lobby.apply(pr::to_message(s));
        std::string screen;
        for (const auto& line : render_screen(lobby, Style{}, kNow, kStatus)) screen += line + " ";  // wrapped at spaces
        CHECK(screen.find(words) != std::string::npos);
    }
}
