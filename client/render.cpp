// The screen's frame, around either game's board (render_spook.cpp, render_ludo.cpp) or the
// lobby (render_lobby.cpp): the title line, the decision with its countdown, whom the step
// waits for, the story, the status; the layout that puts them together, the small window's
// screen (what size it needs, and what fits), and the game-over screen. Also the seats' names
// and tags both games list.
#include <algorithm>

#include "game_words.h"
#include "i18n.h"
#include "render_parts.h"
#include "spookludo/spook/board.h"

namespace spookludo::client {

using namespace render_detail;
namespace pr = protocol;

// ---- Seats -------------------------------------------------------------------------------------

namespace render_detail {

const pr::SeatView* seat_view(const GameView& view, int seat) {
    if (!view.snapshot()) return nullptr;
    for (const auto& s : view.snapshot()->seats)
        if (s.seat == seat && !s.free) return &s;
    return nullptr;
}

// "you", "bot", "away" for a seat.
std::vector<std::string> seat_tags(const GameView& view, int seat) {
    std::vector<std::string> tags;
    if (seat == view.my_seat()) tags.emplace_back(trc("seat", "you"));
    if (const auto* s = seat_view(view, seat)) {
        const std::string status = view.seat_status(seat);
        if (s->kicked) tags.emplace_back(trc("seat", "kicked"));
        else if (s->bot) tags.emplace_back(trc("seat", "bot"));
        else if (status == "server") tags.emplace_back(trc("seat", "server plays"));
        else if (status == "left") tags.emplace_back(trc("seat", "left"));
        else if (status == "away" || s->away.value_or(false) || !s->connected.value_or(true)) tags.emplace_back(trc("seat", "away"));
    }
    return tags;
}

// The seats drawn for a game: the room seats in play order (seats are not contiguous), or, for a
// view that was never told, every seat its arrays hold.
std::vector<int> game_seats(const GameView& view, std::size_t arrays) {
    std::vector<int> seats;
    for (const int seat : view.play_seats())
        if (to_size(seat) < arrays) seats.push_back(seat);
    if (seats.empty() && view.play_seats().empty())
        for (std::size_t seat = 0; seat < arrays; ++seat) seats.push_back(static_cast<int>(seat));
    return seats;
}

}  // namespace render_detail

// ---- The status --------------------------------------------------------------------------------

namespace {

// The status (keys and messages) wrapped over as many lines as it takes, never cut.
std::vector<std::string> status_block(const std::string& status, const Style& style) {
    if (visible_width(status) <= style.width) return {status};
    return wrap(status, style.width);
}

}  // namespace

namespace render_detail {

int status_height(const std::string& status, int width) {
    Style at;
    at.width = width;
    return static_cast<int>(status_block(status, at).size());
}

}  // namespace render_detail

// ---- Decisions ---------------------------------------------------------------------------------

namespace {

// One option a line (the game says what each does), then the countdown or what happens instead.
std::vector<std::string> decision_lines(const GameView& view, const Style& style, std::int64_t now_ms, bool compact) {
    std::vector<std::string> lines;
    const auto& pending = view.pending();
    if (!pending) return lines;
    const auto& d = pending->decision;
    const auto moves = view.options().game == GameKind::spook ? spook_option_texts(d, style)
                                                              : ludo_option_texts(view, d, style, compact);
    for (std::size_t i = 0; i < d.options.size(); ++i) {
        const auto& o = d.options[i];
        std::string line = paint(style, "1", std::to_string(i + 1)) + "  " +
                           tr("piece {piece}: {move}", {{"piece", std::to_string(o.piece + 1)}, {"move", moves[i]}});
        if (pending->chosen && *pending->chosen == o.piece) line += " " + paint(style, "1", tr("<- sent"));
        lines.push_back(fit(line, style.width));
    }
    const auto left = view.time_left_ms(now_ms);
    std::string tail;
    if (pending->chosen) {
        tail = tr("You chose piece {piece}; waiting for the server.", {{"piece", std::to_string(*pending->chosen + 1)}});
    } else if (view.paused()) {
        // The countdown stands still: nobody's time runs while the game is paused.
        tail = tr("Paused ({seconds} s left): choose when the game resumes.", {{"seconds", std::to_string((left + 999) / 1000)}});
    } else if (view.disconnected()) {
        tail = tr("No connection: the countdown is stopped ({seconds} s left).", {{"seconds", std::to_string((left + 999) / 1000)}});
    } else if (view.no_time_limit()) {
        tail = tr("Choose 1-{n}: no time limit.", {{"n", std::to_string(d.options.size())}});
    } else if (left <= 0) {
        tail = tr("Time is up: the server moves for you.");
    } else {
        const auto seconds = (left + 999) / 1000;
        tail = tr("Choose 1-{count} within {time}",
                  {{"count", std::to_string(d.options.size())},
                   {"time", paint(style, seconds <= 5 ? "1;31" : "1", tr("{seconds} s", {{"seconds", std::to_string(seconds)}}))}});
    }
    lines.push_back(fit(tail, style.width));
    return lines;
}

}  // namespace

std::vector<std::string> render_decision(const GameView& view, const Style& style, std::int64_t now_ms) {
    return decision_lines(view, style, now_ms, false);
}

// ---- The screen --------------------------------------------------------------------------------

namespace {

std::string_view log_sgr(LogLine::Kind kind) {
    switch (kind) {
        case LogLine::Kind::info: return "";
        case LogLine::Kind::roll: return "1";
        case LogLine::Kind::move: return "";
        case LogLine::Kind::monster: return "35";
        case LogLine::Kind::capture: return "1;31";
        case LogLine::Kind::finish: return "1;32";
        case LogLine::Kind::error: return "31";
        case LogLine::Kind::mine: return "33";
    }
    return "";
}

// The last `count` screen lines of the story.
std::vector<std::string> story(const GameView& view, const Style& style, int count) {
    std::vector<std::string> out;
    if (count <= 0) return out;
    const auto& log = view.log();
    for (auto it = log.rbegin(); it != log.rend() && static_cast<int>(out.size()) < count; ++it) {
        auto wrapped = wrap(it->text, style.width);
        for (auto w = wrapped.rbegin(); w != wrapped.rend() && static_cast<int>(out.size()) < count; ++w)
            out.push_back(paint(style, log_sgr(it->kind), *w));
    }
    std::reverse(out.begin(), out.end());
    return out;
}

// The title: room, game, round or turn, the die, who you are (not cut to the width).
std::string title_text(const GameView& view, const Style& style) {
    std::string title = paint(style, "1", "SpookLudo");
    if (!view.room().empty()) title += " " + view.room();
    const bool board = view.in_game() || view.state() == "playing";
    if (board && view.options().game == GameKind::spook) {
        title += " | " + tr("Spook round {round}", {{"round", std::to_string(view.round())}});
        if (view.movement_roll()) title += ", " + tr("die {face}", {{"face", std::to_string(*view.movement_roll())}});
        if (view.last_character())
            if (const auto c = spook::parse_character_id(*view.last_character()))
                title += ", " + paint(style, character_sgr(spook::letter_of(*c)), character_name(*c));
    } else if (board) {
        title += " | " + tr("Ludo turn {turn}", {{"turn", std::to_string(view.turn())}});
        if (view.current_seat() >= 0) title += ", " + tr("{name} to play", {{"name", view.seat_name(view.current_seat())}});
    } else {
        title += " | " + state_name(view.state());
    }
    if (view.paused()) {
        const auto& why = view.snapshot()->pause_reason;
        title += " | " + paint(style, "1;31",
                               why == "restart"   ? tr("PAUSED (server restarted: waiting for the players)")
                               : why == "journal" ? tr("PAUSED (the server cannot save the game)")
                                                  : tr("PAUSED"));
    }
    if (view.is_spectator()) title += " | " + tr("watching");
    else if (view.my_seat() >= 0) title += " | " + tr("you: {name}", {{"name", view.seat_name(view.my_seat())}});
    return title;
}

std::string title_line(const GameView& view, const Style& style) { return fit(title_text(view, style), style.width); }

// The decision in at most `room` lines: one option a line, or two a line when that is too many.
std::vector<std::string> decision_block(const GameView& view, const Style& style, std::int64_t now_ms, int room) {
    std::vector<std::string> bottom = decision_lines(view, style, now_ms, false);
    if (static_cast<int>(bottom.size()) > room && bottom.size() > 2) {
        // Two options a line: keys stay readable on a short screen.
        auto compact = decision_lines(view, style, now_ms, true);
        const std::string tail = compact.back();
        compact.pop_back();
        const int col_w = (style.width - 2) / 2;
        bottom.clear();
        for (std::size_t i = 0; i < compact.size(); i += 2) {
            std::string line = pad(compact[i], col_w);
            if (i + 1 < compact.size()) line += "  " + fit(compact[i + 1], col_w);
            bottom.push_back(rtrim(line));
        }
        bottom.push_back(tail);
    }
    if (room <= 0) return {};
    if (static_cast<int>(bottom.size()) > room) bottom.erase(bottom.begin(), bottom.end() - room);
    return bottom;
}

// The lines a decision takes at least (two options a line, and the countdown).
int decision_height(const GameView& view) {
    if (!view.pending()) return 0;
    const int options = static_cast<int>(view.pending()->decision.options.size());
    return (options <= 2 ? options : (options + 1) / 2) + 1;
}

// Whom the step waits for once this client has no choice of its own to make (and their time),
// under the decision: "Still choosing (12 s left): Ben and Cid".
std::vector<std::string> choosing_block(const GameView& view, const Style& style, std::int64_t now_ms, int room) {
    const std::string text = view.choosing_text(now_ms);
    if (text.empty() || room <= 0) return {};
    auto lines = wrap(text, style.width);
    if (static_cast<int>(lines.size()) > room) lines.resize(to_size(room));
    return lines;
}

// The window the full layout of a board needs: the title, the board with its side panel or its
// seats' lines, a decision (or a line of the story), the status.
Need board_need(const GameView& view, const Style& style, const std::string& status) {
    Need need = view.options().game == GameKind::spook ? spook_boards_need(view, style) : ludo_board_need(view);
    need.height += 1 + std::max(1, decision_height(view));
    // The status at that width (a narrower window wraps it over more lines).
    need.height += status_height(status, std::max(style.width, need.width));
    return need;
}

enum class WindowFor { board, lobby, final_board };

std::string window_line(const Need& need, const Style& style, WindowFor what) {
    const std::string needed = std::to_string(need.width) + "x" + std::to_string(need.height);
    const std::string now = std::to_string(style.width) + "x" + std::to_string(style.height);
    switch (what) {
        case WindowFor::board: return tr("Make the window at least {size} for the board (now {now})", {{"size", needed}, {"now", now}});
        case WindowFor::lobby: return tr("Make the window at least {size} for the lobby (now {now})", {{"size", needed}, {"now", now}});
        case WindowFor::final_board: break;
    }
    return tr("Make the window at least {size} for the final board (now {now})", {{"size", needed}, {"now", now}});
}

// A board's game without the board, one line a seat: for a window too small to draw it.
std::vector<std::string> board_summary(const GameView& view, const Style& style) {
    return view.options().game == GameKind::ludo ? ludo_summary(view, style) : spook_summary(view, style);
}

// Puts the screen together: `head` first, `tail` last, `middle` between (cut at its end to the
// height, after the head and the tail), blank lines before the tail to the full height.
std::vector<std::string> assemble(std::vector<std::string> head, std::vector<std::string> middle, std::vector<std::string> tail,
                                  const Style& style) {
    const int height = style.height;
    if (static_cast<int>(tail.size()) > height) tail.erase(tail.begin(), tail.end() - height);
    const int head_room = height - static_cast<int>(tail.size());
    if (static_cast<int>(head.size()) > head_room) head.resize(to_size(head_room));
    const int middle_room = head_room - static_cast<int>(head.size());
    if (static_cast<int>(middle.size()) > middle_room) middle.resize(to_size(middle_room));
    std::vector<std::string> lines = std::move(head);
    append(lines, middle);
    while (static_cast<int>(lines.size()) + static_cast<int>(tail.size()) < height) lines.emplace_back();
    append(lines, tail);
    return lines;
}

// A window too small for the full layout: the title (wrapped), what size it needs, the decision
// and the status in full, then as much of the game (or lobby) and the story as fits.
std::vector<std::string> small_screen(const GameView& view, const Style& style, std::int64_t now_ms,
                                      const std::vector<std::string>& status, const Need& need, bool board) {
    std::vector<std::string> title = wrap(title_text(view, style), style.width);
    if (title.size() > 2) title.resize(2);
    if (style.height < 4) title.resize(1);
    const int rest = style.height - static_cast<int>(title.size()) - static_cast<int>(status.size());
    std::vector<std::string> bottom = board && view.pending() ? decision_block(view, style, now_ms, std::max(0, rest)) : std::vector<std::string>{};
    if (board) append(bottom, choosing_block(view, style, now_ms, rest - static_cast<int>(bottom.size())));
    int room = rest - static_cast<int>(bottom.size());
    std::vector<std::string> middle;
    const auto window = wrap(window_line(need, style, board ? WindowFor::board : WindowFor::lobby), style.width);
    if (static_cast<int>(window.size()) <= room) {
        append(middle, window);
        room -= static_cast<int>(window.size());
    }
    if (board) {
        auto summary = board_summary(view, style);
        if (static_cast<int>(summary.size()) > room) summary.resize(to_size(std::max(0, room)));
        room -= static_cast<int>(summary.size());
        append(middle, summary);
        append(middle, story(view, style, room));
    } else {
        append(middle, small_lobby(view, style, now_ms, room));
    }
    std::vector<std::string> tail = std::move(bottom);
    append(tail, status);
    return assemble(std::move(title), std::move(middle), std::move(tail), style);
}

// "Places: 1. Ann (seat 1), 2. best bot 1 (seat 3)" over lines of `width`, never breaking inside
// an entry: game_over.places is indexed by room seat, 0 for no place.
std::vector<std::string> places_lines(const GameView& final_view, const protocol::GameOver& over, int width) {
    std::vector<std::pair<int, int>> order;  // place, seat
    for (std::size_t seat = 0; seat < over.places.size(); ++seat)
        if (over.places[seat] > 0) order.emplace_back(over.places[seat], static_cast<int>(seat));
    if (order.empty())
        for (const int w : over.winners) order.emplace_back(1, w);
    std::sort(order.begin(), order.end());
    std::vector<std::string> lines;
    if (order.empty()) return lines;
    const std::string label = tr("Places:");
    std::string line = label;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto& [place, seat] = order[i];
        const std::string item = std::to_string(place) + ". " +
                                 tr("{name} (seat {seat})", {{"name", final_view.seat_name(seat)}, {"seat", std::to_string(seat + 1)}}) +
                                 (i + 1 < order.size() ? "," : "");
        if (visible_width(line) + 1 + visible_width(item) > width && line != label) {
            lines.push_back(line);
            line = item;
        } else {
            line += " " + item;
        }
    }
    lines.push_back(line);
    std::vector<std::string> out;
    for (const auto& l : lines) append(out, wrap(l, width));  // an entry wider than the window
    return out;
}

std::vector<std::string> game_over_screen(const GameView& view, const Style& style, const std::vector<std::string>& status,
                                          const std::string& status_text) {
    const auto& result = *view.result();
    const auto& over = result.over;
    const GameView& final_view = result.final_view ? *result.final_view : view;
    const bool spook = final_view.options().game == GameKind::spook;

    std::string title = paint(style, "1", "SpookLudo");
    if (!view.room().empty()) title += " " + view.room();
    title += " | " + (spook ? tr("Spook") : tr("Ludo")) + " | " + tr("game over");
    if (view.is_spectator()) title += " | " + tr("watching");
    else if (view.my_seat() >= 0) title += " | " + tr("you: {name}", {{"name", final_view.seat_name(view.my_seat())}});

    std::vector<std::string> text;
    if (over.status == "finished") {
        std::vector<std::string> names;
        for (const int w : over.winners) names.push_back(final_view.seat_name(w));
        const bool team = !spook && final_view.options().ludo.teams;
        append(text, wrap(paint(style, "1;32", game_over_sentence(names, over.length, spook, team)), style.width));
    } else {
        append(text, wrap(paint(style, "1;31", abandoned_sentence(over.reason)), style.width));
    }
    append(text, places_lines(final_view, over, style.width));
    if (!style.dice_check.empty()) append(text, wrap(paint(style, style.dice_fair ? "32" : "1;31", style.dice_check), style.width));
    if (over.record) {
        const std::string address = style.server_url + *over.record;
        append(text, wrap(tr("The game's record: {address}", {{"address", address}}), style.width));
        append(text, wrap(tr("Check the dice and every move with:"), style.width));
        append(text, wrap("spookludo verify " + address + style.verify_flags, style.width));
        if (!style.saved_record.empty())
            append(text, wrap(tr("or, also once the server has gone, with the copy saved here: {command}",
                                 {{"command", "spookludo verify " + style.saved_record}}),
                              style.width));
    }
    // Always shown, with the status, however small the window.
    std::vector<std::string> tail = wrap(paint(style, "1", tr("Press any key to go back to the room.")), style.width);
    append(tail, status);

    // The final boards, as they stood, when the window holds them with the text; else the
    // seats' lines and what size the window needs.
    const int status_h = static_cast<int>(tail.size());
    const int room = style.height - 1 - status_h;
    Style board_style = style;
    board_style.height = std::max(1, room - static_cast<int>(text.size()) + 1 + status_h);
    const auto board = spook ? render_spook_boards(final_view, board_style) : render_ludo_board(final_view, board_style);
    Need need = board_need(final_view, style, status_text);
    need.height = std::max(need.height, 1 + static_cast<int>(board.size() + text.size()) + status_h);
    std::vector<std::string> middle;
    if (need.width <= style.width && static_cast<int>(board.size() + text.size()) <= room) {
        middle = board;
    } else {
        const auto window = wrap(window_line(need, style, WindowFor::final_board), style.width);
        int left = room - static_cast<int>(text.size());
        if (static_cast<int>(window.size()) <= left) {
            append(middle, window);
            left -= static_cast<int>(window.size());
        }
        auto summary = board_summary(final_view, style);
        if (static_cast<int>(summary.size()) > left) summary.resize(to_size(std::max(0, left)));
        append(middle, summary);
    }
    append(middle, text);
    // The result right under the board, the blank lines below it.
    while (static_cast<int>(middle.size()) < room) middle.emplace_back();
    return assemble({fit(title, style.width)}, std::move(middle), std::move(tail), style);
}

}  // namespace

std::vector<std::string> render_screen(const GameView& view, const Style& style, std::int64_t now_ms,
                                       const std::string& status) {
    std::vector<std::string> lines;
    if (style.height <= 0 || style.width <= 0) return lines;
    const auto status_lines = status_block(status, style);
    if (view.showing_result()) return game_over_screen(view, style, status_lines, status);
    const bool board = view.in_game() || view.state() == "playing";

    // Too small for the full layout: say so, and keep the title, the decision and the keys.
    const int status_h = static_cast<int>(status_lines.size());
    LobbyLayout lobby;
    if (board) {
        const Need need = board_need(view, style, status);
        if (need.width > style.width || need.height > style.height) return small_screen(view, style, now_ms, status_lines, need, true);
    } else {
        lobby = lobby_layout(view, style, now_ms, status);
        if (lobby.need.width > style.width || lobby.need.height > style.height)
            return small_screen(view, style, now_ms, status_lines, lobby.need, false);
    }

    lines.push_back(title_line(view, style));
    std::vector<std::string> top;
    if (board && view.options().game == GameKind::spook) top = render_spook_boards(view, style);
    else if (board) top = render_ludo_board(view, style);
    else top = std::move(lobby.lines);
    const int room = std::max(0, style.height - 1 - status_h);  // between the title and the status
    if (static_cast<int>(top.size()) > room) top.resize(to_size(room));
    for (auto& l : top) lines.push_back(std::move(l));

    const int left = room - static_cast<int>(top.size());
    std::vector<std::string> bottom;
    if (board && view.pending()) bottom = decision_block(view, style, now_ms, left);
    if (board) append(bottom, choosing_block(view, style, now_ms, left - static_cast<int>(bottom.size())));
    const auto tale = story(view, style, left - static_cast<int>(bottom.size()));
    for (const auto& l : tale) lines.push_back(l);
    while (static_cast<int>(lines.size()) < 1 + room - static_cast<int>(bottom.size())) lines.emplace_back();
    for (auto& l : bottom) lines.push_back(std::move(l));
    for (const auto& l : status_lines) lines.push_back(l);
    if (static_cast<int>(lines.size()) > style.height) lines.resize(to_size(style.height));
    return lines;
}

}  // namespace spookludo::client
