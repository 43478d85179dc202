#pragma once
// The drawing's internal parts (not render.h's API): what the files of the drawing share with
// each other. render_text.cpp: text cut, padded, wrapped and painted to a width; render.cpp: the
// seats both games list, and the frame's status lines; render_spook.cpp and render_ludo.cpp: what
// the frame asks of each game (its size, its summary for a small window, its options' words);
// render_lobby.cpp: the lobby's layout.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "i18n.h"
#include "render.h"

namespace spookludo::client::render_detail {

// ---- Text (render_text.cpp) --------------------------------------------------------------------

inline std::size_t to_size(int v) { return v > 0 ? static_cast<std::size_t>(v) : 0; }

// `text` wrapped in the SGR `codes` when colour is on.
std::string paint(const Style& style, std::string_view codes, std::string_view text);
// The line cut to `width` visible columns (escape sequences kept, colour reset after a cut).
std::string fit(const std::string& line, int width);
// Cut or padded with spaces to exactly `width` visible columns.
std::string pad(const std::string& line, int width);
// Without the trailing blanks (escape sequences kept).
std::string rtrim(const std::string& line);
std::string centre(const std::string& text, int width);
// Word-wraps plain text (the story) to `width` columns.
std::vector<std::string> wrap(const std::string& text, int width);
std::string join(const std::vector<std::string>& items, std::string_view sep);
void append(std::vector<std::string>& to, const std::vector<std::string>& lines);
// "10 s", "1.5 s".
std::string seconds_text(int ms);
// The room's time to choose (settings.time_factor): "Time to choose: normal", "x2", "no limit".
std::string time_factor_text(int factor);

// ---- Seats (render.cpp) ------------------------------------------------------------------------

const protocol::SeatView* seat_view(const GameView& view, int seat);
// "you", "bot", "away" for a seat.
std::vector<std::string> seat_tags(const GameView& view, int seat);
// The seats drawn for a game: the room seats in play order (seats are not contiguous), or, for a
// view that was never told, every seat its arrays hold.
std::vector<int> game_seats(const GameView& view, std::size_t arrays);

// ---- The frame (render.cpp) --------------------------------------------------------------------

// The lines the status (keys and messages) takes in a window `width` columns wide: wrapped, never
// cut.
int status_height(const std::string& status, int width);

// A size in columns and lines: the window a layout needs, or a board's part of it.
struct Need {
    int width = 0;
    int height = 0;
};

// ---- Each game (render_spook.cpp, render_ludo.cpp) ---------------------------------------------

// A character's colour (the letters H C S W X, '.' an entrance, '+' the church).
std::string_view character_sgr(char letter);
// The columns and lines the boards need with their seats' lines and the legend (the frame adds
// the title, the decision and the status).
Need spook_boards_need(const GameView& view, const Style& style);
Need ludo_board_need(const GameView& view);
// The game without the board, one line a seat: for a window too small to draw it.
std::vector<std::string> spook_summary(const GameView& view, const Style& style);
std::vector<std::string> ludo_summary(const GameView& view, const Style& style);
// What each option of `d` does, after its key and piece: "12 -> 15 (Werewolf)", with the hint;
// "out of the yard -> 1 captures!" (compact: "yard -> 1 ...").
std::vector<std::string> spook_option_texts(const protocol::Decision& d, const Style& style);
std::vector<std::string> ludo_option_texts(const GameView& view, const protocol::Decision& d, const Style& style,
                                           bool compact);

// ---- The lobby (render_lobby.cpp) --------------------------------------------------------------

struct LobbyLayout {
    std::vector<std::string> lines;  // what the lobby draws under the title
    Need need;                       // the window the whole screen with them needs
};
// What the lobby draws and the window it needs (the QR code when the whole screen with it fits).
LobbyLayout lobby_layout(const GameView& view, const Style& style, std::int64_t now_ms, const std::string& status);
// The lobby in `room` lines of a window too small for it: the seats and the keys first; the
// game's line and the settings if they fit.
std::vector<std::string> small_lobby(const GameView& view, const Style& style, std::int64_t now_ms, int room);

}  // namespace spookludo::client::render_detail
