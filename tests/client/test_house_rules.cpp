// Ludo's house rules in the terminal client: the lobby names the rules in force, the board draws
// the safe squares and a piece gone round behind its start square, the story says what each new
// event did, and a team's win is said as a team's. Views built from protocol messages, drawn
// without colour (and with Unicode glyphs where asked).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "view_fixtures.h"
#include "render.h"
#include "server_words.h"
#include "spookludo/ludo/geometry.h"
#include "view.h"

using namespace spookludo;
using namespace spookludo::client;
namespace pr = spookludo::protocol;

namespace {

using spookludo::testing::player;
using spookludo::testing::snapshot;

pr::RoomSnapshot room(const GameOptions& options, const std::string& state) {
    const char* names[] = {"Ann", "Ben", "Cid", "Dot"};
    std::vector<pr::SeatView> seats;
    for (int seat = 0; seat < options.players; ++seat) seats.push_back(player(seat, names[seat]));
    return snapshot(options, std::move(seats), state);
}

pr::Joined joined(int seat, bool host) {
    pr::Joined j;
    j.room = "KQZTM";
    j.seat = seat;
    j.role = "player";
    j.token = "4f1c0a9e2b7d45c8a1e3f0b2c4d6e8fa";
    j.host = host;
    return j;
}

GameOptions ludo_options(const char* json_text) { return nlohmann::json::parse(json_text).get<GameOptions>(); }

GameView lobby(const GameOptions& options, bool host = false) {
    GameView v;
    v.apply(pr::to_message(joined(host ? 0 : 1, host)));
    v.apply(pr::to_message(room(options, "lobby")));
    return v;
}

// A game in progress at `position` (the engine's notation), Ann (seat 1) to throw.
GameView game(const GameOptions& options, const std::string& position) {
    GameView v;
    v.apply(pr::to_message(joined(0, true)));
    auto s = room(options, "playing");
    pr::LudoView g;
    g.position = position;
    g.phase = "awaiting_throw";
    g.current_seat = 0;
    g.turn = 40;
    s.ludo = g;
    v.apply(pr::to_message(s));
    return v;
}

using spookludo::testing::event;

std::string all(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

std::vector<std::string> story(const GameView& v) {
    std::vector<std::string> out;
    for (const auto& l : v.log()) out.push_back(l.text);
    return out;
}

bool has_line(const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// The text drawn in a board cell (two columns a cell: an 80-column window, plain ASCII).
std::string cell_at(const std::vector<std::string>& board, GridCell cell) {
    const auto& line = board.at(static_cast<std::size_t>(cell.row));
    const auto at = static_cast<std::size_t>(2 * cell.col);
    return at < line.size() ? line.substr(at, 2) : std::string();
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

const char* kHomeRules4 = R"({"game":"ludo","players":4,"preset":"home_rules"})";

}  // namespace

TEST_CASE("house rules, lobby: the home rules preset is named with what it holds, teams with their partners") {
    const auto preset = all(render_lobby(lobby(ludo_options(kHomeRules4)), Style{160, 40}));
    CHECK(preset.find("Classic Ludo: 4 seats, home rules (arms of 6, entry onto the start square, safe squares, bonus "
                      "throws, three 6s end the turn)\n") != std::string::npos);
    const auto teams = all(render_lobby(lobby(ludo_options(R"({"game":"ludo","preset":"home_rules","teams":true})")), Style{160, 40}));
    CHECK(teams.find("home rules (arms of 6, entry onto the start square, safe squares, bonus throws, three 6s end the "
                     "turn), teams: seats 1+3 against 2+4\n") != std::string::npos);
    // Not the preset (arms of 8): the rules one by one.
    const auto own = all(render_lobby(
        lobby(ludo_options(R"({"game":"ludo","players":4,"safe_squares":true,"bonus_throws":true,"three_sixes":true,"capture_to_home":true})")),
        Style{160, 40}));
    CHECK(own.find("Classic Ludo: 4 seats, arms of 8, entry as the text (6 squares out), house rules: safe squares, bonus "
                   "throws, three 6s end the turn, capture before home\n") != std::string::npos);
    CHECK(own.find("home rules (") == std::string::npos);
}

TEST_CASE("house rules, lobby: the host's keys list the house rules in Ludo, not in Spook") {
    const auto host = all(render_lobby(lobby(ludo_options(kHomeRules4), true), Style{120, 40}));
    for (const char* key : {"f home rules", "* safe squares", "B bonus throws", "C capture before home", "2 teams"}) {
        CAPTURE(key);
        CHECK(host.find(key) != std::string::npos);
    }
    const auto spook = all(render_lobby(lobby(GameOptions::spook_game(4), true), Style{120, 40}));
    CHECK(spook.find("f home rules") == std::string::npos);
}

TEST_CASE("house rules, board: the safe squares are drawn with a star, '*' in ASCII and '✦' in Unicode, only when on") {
    const auto options = ludo_options(kHomeRules4);
    const auto view = game(options, "green*:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y");
    const ludo::Geometry geo(6);
    const auto cells = ludo_circuit_cells(6);
    const auto ascii = render_ludo_board(view, Style{});
    for (int c = 0; c < 4; ++c) {
        const auto colour = static_cast<ludo::Colour>(c);
        CAPTURE(c);
        CHECK(cell_at(ascii, cells[static_cast<std::size_t>(geo.star_square(colour))]) == "* ");
        CHECK(cell_at(ascii, cells[static_cast<std::size_t>(geo.start_square(colour))]) == "()");
    }
    CHECK(all(ascii).find("() start, * star: safe; : home column") != std::string::npos);
    Style unicode;
    unicode.unicode = true;
    const auto drawn = all(render_ludo_board(view, unicode));
    CHECK(count(drawn, "\u2726 ") == 5);  // the four star squares and the legend
    CHECK(drawn.find("() start, \u2726 star: safe; : home column") != std::string::npos);
    // Without the house rule: no star, the usual legend.
    auto plain = options;
    plain.ludo.safe_squares = false;
    const auto without = render_ludo_board(game(plain, "green*:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y"), Style{});
    CHECK(cell_at(without, cells[static_cast<std::size_t>(geo.star_square(ludo::Colour::green))]) == ". ");
    CHECK(all(without).find("() start square, : home column") != std::string::npos);
}

TEST_CASE("house rules, board: two sides sharing a safe square are both drawn, each colour's letter, capital for a block") {
    // Green's piece on its star square (8), a yellow block beside it (yellow's progress 47 is square 8).
    const auto view = game(ludo_options(kHomeRules4), "green*:8,Y,Y,Y yellow:47,47,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y");
    const ludo::Geometry geo(6);
    const auto board = render_ludo_board(view, Style{});
    CHECK(cell_at(board, ludo_circuit_cells(6)[static_cast<std::size_t>(geo.star_square(ludo::Colour::green))]) == "gY");
    CHECK(all(board).find("gY green and yellow on one square") != std::string::npos);
}

TEST_CASE("house rules, board: a piece gone round (capture before home) stands on the square behind its start square, not at home") {
    auto options = ludo_options(R"({"game":"ludo","players":2,"arm":6,"capture_to_home":true})");
    const auto view = game(options, "green*:B,Y,Y,Y red+:Y,Y,Y,53");
    const ludo::Geometry geo(6);
    const auto board = render_ludo_board(view, Style{});
    const auto behind = ludo_circuit_cells(6)[static_cast<std::size_t>(geo.square_ahead(ludo::Colour::green, -1))];
    CHECK(cell_at(board, behind) == "g1");
    const auto text = all(board);
    CHECK(text.find(" Ann          yard 3 home 0") != std::string::npos);
    // The bot's position for the engine keeps both: B, and red's capture.
    CHECK(view.ludo_position(0) == "green*:B,Y,Y,Y red+:Y,Y,Y,53");
    CHECK_FALSE(view.ludo_has_captured(0));
    CHECK(view.ludo_has_captured(1));
}

TEST_CASE("house rules, story: a safe square, the bonus throws, going round again and the team's win each have their line") {
    auto view = game(ludo_options(R"({"game":"ludo","preset":"home_rules","teams":true,"capture_to_home":true})"),
                     "green*:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y");
    auto safe = event("safe_square", 0, 1, {}, 4, 8);
    safe.square = 8;
    safe.with = 1;
    auto capture = event("extra_throw", 0);
    capture.reason = "capture";
    auto home = event("extra_throw", 2);
    home.reason = "home";
    auto six = event("extra_throw", 2);
    six.reason = "six";
    view.apply(pr::to_message(pr::LudoMove{41, "player", {event("moved", 0, 1, {}, 4, 8), safe}}));
    view.apply(pr::to_message(pr::LudoMove{42, "player", {capture, home, six}}));
    view.apply(pr::to_message(pr::LudoMove{43, "player", {event("moved", 1, 0, {}, 50, 57), event("circles", 1, 0, {}, 50, 57)}}));
    const auto lines = story(view);
    CHECK(has_line(lines, "Ann's piece 2 lands beside Ben's on a safe square: no capture."));
    CHECK(has_line(lines, "Ann (green) throws again: a bonus throw for the capture."));
    CHECK(has_line(lines, "Cid (red) throws again: a bonus throw for the piece home."));
    CHECK(has_line(lines, "Cid (red) played a 6 and throws again."));
    CHECK(has_line(lines, "Ben (yellow) moves piece 1 from 50 to behind start."));
    CHECK(has_line(lines, "Ben's piece 1 has not captured yet: it goes round again."));
    CHECK(view.ludo_progress()[1][0] == ludo::Geometry(6).behind_start());

    auto won = event("team_finished", 2);
    won.with = 0;
    view.apply(pr::to_message(pr::LudoMove{80, "player", {event("finished", 2), won, event("game_over", -1)}}));
    pr::GameOver over;
    over.game_id = "KQZTM-1764489600000-630dcd29";
    over.status = "finished";
    over.winners = {0, 2};
    over.places = {1, 2, 1, 2};
    over.length = 80;
    view.apply(pr::to_message(over));
    const auto after = story(view);
    CHECK(has_line(after, "Ann and Cid win as a team!"));
    CHECK(has_line(after, "Game over! Ann and Cid win as a team after 80 turns."));
    // The game-over screen says it too.
    const auto screen = all(render_screen(view, Style{100, 30}, 0, ""));
    CHECK(screen.find("Game over! Ann and Cid win as a team after 80 turns.") != std::string::npos);
}

TEST_CASE("house rules, board: under teams the players' list says who plays with whom") {
    const auto view = game(ludo_options(R"({"game":"ludo","preset":"home_rules","teams":true})"),
                           "green*:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y");
    CHECK(all(render_ludo_board(view, Style{})).find("Teams: green+red against yellow+blue") != std::string::npos);
}

TEST_CASE("house rules, server words: the new events are worded without a name function too") {
    CHECK(event_text(nlohmann::json::parse(R"({"kind":"extra_throw","seat":0,"colour":"green","reason":"capture"})")) ==
          "green throws again: a bonus throw for the capture");
    CHECK(event_text(nlohmann::json::parse(R"({"kind":"extra_throw","seat":0,"colour":"green","reason":"home"})")) ==
          "green throws again: a bonus throw for the piece home");
    CHECK(event_text(nlohmann::json::parse(R"({"kind":"circles","seat":1,"colour":"yellow","piece":0,"from":50,"to":3})")) ==
          "yellow piece 0 has not captured yet: it goes round again");
    const auto names = [](int s) { return std::string(s == 0 ? "Ann" : s == 2 ? "Cid" : "Ben"); };
    CHECK(event_text(nlohmann::json::parse(R"({"kind":"team_finished","seat":2,"colour":"red","with":0})"), names) ==
          "Cid (red) and Ann win as a team");
    CHECK(event_text(nlohmann::json::parse(R"({"kind":"safe_square","seat":0,"colour":"green","piece":1,"square":8,"with":1})"),
                     names) == "Ann (green) piece 1 lands beside Ben on safe square 8: no capture");
}
