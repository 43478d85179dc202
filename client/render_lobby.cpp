// The lobby's drawing: the room, the game and its settings, every seat (host, bots, away, free),
// the keys that do something for this client, the automatic start's countdown, how others join
// (the join hint, and the link's QR code when the window holds the whole screen with it), and
// the window size that shows it all.
#include <algorithm>

#include "game_words.h"
#include "i18n.h"
#include "render_parts.h"

namespace spookludo::client {

using namespace render_detail;

namespace {

// Classic Ludo's line: the seats, the board, the entry and the house rules in force; "home rules"
// when they are the preset (teams and capture before home may be added to it), the partners
// under teams.
std::string ludo_game_text(const GameOptions& options) {
    const auto& l = options.ludo;
    const std::string seats = trn("{n} seat", "{n} seats", options.players);
    std::vector<std::string> rules;
    LudoOptions base = l;
    base.teams = base.capture_to_home = false;
    const bool preset = !ludo_preset_of(base).empty();
    std::string game;
    if (preset) {
        game = tr("Classic Ludo: {seats}, home rules (arms of 6, entry onto the start square, safe squares, bonus throws, three 6s end the turn)",
                  {{"seats", seats}});
    } else {
        game = tr("Classic Ludo: {seats}, arms of {arm}, entry {entry}",
                  {{"seats", seats},
                   {"arm", std::to_string(l.arm)},
                   {"entry", l.entry == LudoEntry::text ? tr("as the text (6 squares out)") : tr("onto the start square")}});
        if (l.safe_squares) rules.push_back(tr("safe squares"));
        if (l.bonus_throws) rules.push_back(tr("bonus throws"));
        if (l.three_sixes) rules.push_back(tr("three 6s end the turn"));
    }
    if (l.capture_to_home) rules.push_back(tr("capture before home"));
    if (l.teams) rules.push_back(tr("teams: seats 1+3 against 2+4"));
    if (!rules.empty())
        game += ", " + (preset ? join(rules, ", ") : tr("house rules: {rules}", {{"rules", join(rules, ", ")}}));
    return game;
}

// The lobby in parts: the small screen keeps the seats and the keys before the rest.
struct LobbyParts {
    std::vector<std::string> head, game, settings, seats, keys;
};

LobbyParts lobby_parts(const GameView& view, const Style& style, std::int64_t now_ms = 0) {
    LobbyParts parts;
    const auto& snap = view.snapshot();
    const GameOptions options = snap ? snap->options : view.options();
    const std::string code = view.room().empty() ? std::string("?") : view.room();
    const std::string head = view.state() == "lobby" ? tr("Room {code} - waiting in the lobby", {{"code", code}})
                                                     : tr("Room {code} - {state}", {{"code", code}, {"state", state_name(view.state())}});
    parts.head.push_back(fit(paint(style, "1", head), style.width));
    std::string game;
    if (options.game == GameKind::spook) {
        const int p = options.spook.pieces;
        game = tr("Spook & Werewolf Ludo: {seats}, {pieces} ({finish} in the church wins), {boards}",
                  {{"seats", trn("{n} seat", "{n} seats", options.players)},
                   {"pieces", trn("{n} piece", "{n} pieces", p)},
                   {"finish", std::to_string(options.spook.pieces_to_finish())},
                   {"boards", options.spook.balanced_boards ? tr("balanced boards") : tr("random boards")}});
    } else {
        game = ludo_game_text(options);
    }
    if (options.play_on) game += ", " + tr("play on");
    parts.game = wrap(game, style.width);
    if (!snap) return parts;
    const auto& s = snap->settings;
    std::string settings = s.hints ? tr("Settings: {time} to choose, {pace} between steps, hints on",
                                        {{"time", seconds_text(s.decision_ms)}, {"pace", seconds_text(s.pace_ms)}})
                                   : tr("Settings: {time} to choose, {pace} between steps, hints off",
                                        {{"time", seconds_text(s.decision_ms)}, {"pace", seconds_text(s.pace_ms)}});
    if (s.time_factor != 1) settings += ". " + time_factor_text(s.time_factor);
    parts.settings = wrap(settings,
                          style.width);
    // Every seat by its number (1-based; numbers need not be contiguous), free ones included.
    for (const int seat : view.room_seats()) {
        const auto* sv = view.seat_free(seat) ? nullptr : seat_view(view, seat);
        std::string line = seat == view.my_seat() ? ">" : " ";
        if (seat < 9) line += ' ';
        line += std::to_string(seat + 1) + "  ";
        if (!sv) {
            line += paint(style, "2", tr("(free)"));
            parts.seats.push_back(fit(line, style.width));
            continue;
        }
        line += paint(style, seat == view.my_seat() ? "1" : "", pad(sv->name, 24));
        std::vector<std::string> tags;
        const std::string status = view.seat_status(seat);
        if (snap->host == seat) tags.emplace_back(paint(style, "1;33", trc("seat", "host")));
        if (sv->kicked) tags.emplace_back(paint(style, "31", tr("kicked: a best bot plays it")));
        else if (sv->bot) tags.push_back(tr("bot ({policy})", {{"policy", std::string(sv->policy ? to_string(*sv->policy) : "best")}}));
        else if (status == "server") tags.emplace_back(paint(style, "31", tr("away, the server plays")));
        else if (status == "left") tags.emplace_back(paint(style, "31", trc("seat", "left")));
        else if (status == "away" || sv->away.value_or(false) || !sv->connected.value_or(true)) tags.emplace_back(paint(style, "31", trc("seat", "away")));
        if (seat == view.my_seat()) tags.emplace_back(trc("seat", "you"));
        line += ' ';
        line += join(tags, ", ");
        parts.seats.push_back(rtrim(fit(line, style.width)));
    }
    if (snap->spectators > 0)
        parts.seats.push_back(fit("   " + trn("{n} spectator", "{n} spectators", snap->spectators), style.width));
    // The keys wrap (never cut): a narrow window shows them on more lines. Only the keys that
    // do something for this game.
    if (view.am_host()) {
        for (auto& l : wrap(paint(style, "1", tr("You are the host.")) + " " + tr("Keys: s start, b g r add a best/greedy/random bot,"), style.width))
            parts.keys.push_back(std::move(l));
        // Never broken inside a key's words ("c auto start"), unless one is wider than the window.
        std::vector<std::string> items{tr("x N remove seat N"), tr("+ - seats")};
        if (options.game == GameKind::spook) items.insert(items.end(), {tr("p pieces"), tr("d boards")});
        else
            items.insert(items.end(), {tr("a arm"), tr("e entry"), tr("3 three 6s"), tr("f home rules"), tr("* safe squares"),
                                       tr("B bonus throws"), tr("C capture before home"), tr("2 teams")});
        items.insert(items.end(), {tr("h hints"), tr("t time"), tr("T more time"), tr("w pace"), tr("c auto start"), tr("o play on"), tr("q leave")});
        std::string line;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string item = items[i] + (i + 1 < items.size() ? "," : "");
            if (!line.empty() && visible_width(line) + 1 + visible_width(item) > style.width - 2) {
                for (auto& l : wrap(line, style.width - 2)) parts.keys.push_back("  " + l);
                line.clear();
            }
            line += (line.empty() ? "" : " ") + item;
        }
        for (auto& l : wrap(line, style.width - 2)) parts.keys.push_back("  " + l);
    } else if (view.is_spectator()) {
        parts.keys = wrap(view.state() == "lobby" && view.has_free_seat() ? tr("You are watching. j takes a free seat, q leaves.")
                                                                          : tr("You are watching. q leaves."),
                          style.width);
    } else {
        parts.keys = wrap(snap->host >= 0 ? tr("Waiting for {name} (host) to start. q leaves.", {{"name", view.seat_name(snap->host)}})
                                          : tr("Waiting for the host to start. q leaves."),
                          style.width);
    }
    // Then the automatic start's countdown (the server's), and for the host and spectators the command
    // that lets others join (join_hint.h): kept in view while the lobby waits.
    if (const auto starts = view.auto_start_text(now_ms); !starts.empty())
        for (auto& l : wrap(paint(style, "1", starts), style.width)) parts.keys.push_back(std::move(l));
    if (view.am_host() || view.is_spectator())
        for (const auto& hint : style.join_hint)
            for (auto& l : wrap(hint, style.width)) parts.keys.push_back(std::move(l));
    return parts;
}

// ---- The lobby's layout ---------------------------------------------------------------------
// What the lobby draws and the window it needs come from one function, lobby_layout: the QR
// code is drawn when the whole screen with it fits (the title, the lobby, a line of the story,
// the status), and a window that does not hold it is told the size that does, reckoned the same
// way; so following the lobby's advice gives a screen that fits.

// The QR code's width: one column a module (escapes and UTF-8 continuation bytes aside).
int qr_columns(const std::vector<std::string>& qr) {
    if (qr.empty()) return 0;
    int columns = 0;
    const std::string& line = qr.front();
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '\x1b') {
            while (i < line.size() && line[i] != 'm') ++i;
            continue;
        }
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++columns;
    }
    return columns;
}

// The lobby's text at style.width: the room, the game, the settings, the seats, the keys.
std::vector<std::string> lobby_text(const GameView& view, const Style& style, std::int64_t now_ms) {
    const LobbyParts parts = lobby_parts(view, style, now_ms);
    std::vector<std::string> lines;
    append(lines, parts.head);
    append(lines, parts.game);
    if (!view.snapshot()) return lines;
    append(lines, parts.settings);
    lines.emplace_back();
    append(lines, parts.seats);
    lines.emplace_back();
    append(lines, parts.keys);
    return lines;
}

// The window height a screen of `lobby` lines needs at `width`: the title, the lobby, a line of
// the story, the status (wrapped at that width).
int lobby_screen_height(std::size_t lobby, const std::string& status, int width) {
    return 1 + static_cast<int>(lobby) + 1 + status_height(status, width);
}

constexpr int kLobbyMinWidth = 40;

}  // namespace

namespace render_detail {

LobbyLayout lobby_layout(const GameView& view, const Style& style, std::int64_t now_ms, const std::string& status) {
    LobbyLayout layout;
    layout.lines = lobby_text(view, style, now_ms);
    // The join link's QR code, for the host and spectators, in a window that holds it all.
    if (view.snapshot() && (view.am_host() || view.is_spectator()) && !style.join_qr.empty()) {
        Style wide = style;
        wide.width = std::max({style.width, qr_columns(style.join_qr), kLobbyMinWidth});
        const std::size_t with_qr = lobby_text(view, wide, now_ms).size() + 1 + style.join_qr.size();
        const Need qr_need{wide.width, lobby_screen_height(with_qr, status, wide.width)};
        if (qr_need.width <= style.width && qr_need.height <= style.height) {
            layout.lines.emplace_back();
            append(layout.lines, style.join_qr);
            layout.need = qr_need;
            return layout;
        }
        append(layout.lines,
               wrap(tr("(a window of {size} shows the link as a QR code for a phone's camera)",
                       {{"size", std::to_string(qr_need.width) + "x" + std::to_string(qr_need.height)}}),
                    style.width));
    }
    layout.need = {std::max(kLobbyMinWidth, style.width), lobby_screen_height(layout.lines.size(), status, style.width)};
    if (layout.need.width != style.width) {
        // Too narrow: what the lobby needs at the width it asks for.
        Style at = style;
        at.width = layout.need.width;
        at.height = std::max(style.height, layout.need.height);
        layout.need.height = lobby_layout(view, at, now_ms, status).need.height;
    }
    return layout;
}

std::vector<std::string> small_lobby(const GameView& view, const Style& style, std::int64_t now_ms, int room) {
    std::vector<std::string> middle;
    const LobbyParts parts = lobby_parts(view, style, now_ms);
    const int seats_and_keys = static_cast<int>(parts.seats.size() + parts.keys.size());
    const bool game = seats_and_keys + static_cast<int>(parts.game.size()) <= room;
    const bool settings = game && seats_and_keys + static_cast<int>(parts.game.size() + parts.settings.size()) <= room;
    if (game) append(middle, parts.game);
    if (settings) append(middle, parts.settings);
    auto seats = parts.seats;
    const int seat_room = std::max(0, room - static_cast<int>(parts.keys.size()) - (game ? static_cast<int>(parts.game.size()) : 0) -
                                      (settings ? static_cast<int>(parts.settings.size()) : 0));
    if (static_cast<int>(seats.size()) > seat_room) seats.resize(to_size(seat_room));
    append(middle, seats);
    append(middle, parts.keys);
    return middle;
}

}  // namespace render_detail

std::vector<std::string> render_lobby(const GameView& view, const Style& style, std::int64_t now_ms,
                                      const std::string& status) {
    return lobby_layout(view, style, now_ms, status).lines;
}

}  // namespace spookludo::client
