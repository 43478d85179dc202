#pragma once
// Drawing a GameView as text for a terminal: every line fits `width` visible columns (ANSI colour
// codes do not count), the whole screen fits `height` lines. Without colour the output is plain
// ASCII, which is what the golden tests compare.
#include <cstdint>
#include <string>
#include <vector>

#include "spookludo/ludo/geometry.h"
#include "view.h"

namespace spookludo::client {

struct Style {
    int width = 80;
    int height = 24;
    bool color = false;  // ANSI colours (off when not a terminal or NO_COLOR is set)
    bool hints = true;   // show the server's hint values when the decision carries them
    // The server's address ("http://host:port"): the game-over screen shows a record's address as
    // server_url + game_over.record ("/records/<id>"); empty: the path alone.
    std::string server_url;
    // The lobby's "join with: spookludo play ..." lines for the host and spectators (join_hint.h);
    // empty: none shown.
    std::vector<std::string> join_hint;
    // The web join link as a QR code (qr_text.h), drawn under the hint when the window is tall
    // enough; empty: none. The one thing drawn with non-ASCII characters without colour.
    std::vector<std::string> join_qr;
    // Flags the verify command needs after the address (" --ca-file FILE" for a private CA).
    std::string verify_flags;
    // The file this client saved the shown game's record in (saved_records.h), whose verify
    // command works after the server has gone; empty: not (yet) saved.
    std::string saved_record;
    // What this client's own check of the shown game's dice found (dice_check.h), and whether it
    // found them fair; empty: not (yet) checked.
    std::string dice_check;
    bool dice_fair = true;
    // Glyphs beyond ASCII where they read better (a UTF-8 terminal): the Ludo board's safe star
    // squares drawn as '✦' instead of '*'. Off, the board is plain ASCII.
    bool unicode = false;
};

// Spook: one block per seat: its 40 squares (the characters' letters H C S W X, entrances '.',
// the church '+') and a line under them marking where that seat's pieces stand.
std::vector<std::string> render_spook_boards(const GameView& view, const Style& style);
// Ludo: the cross-shaped board with the four colours, the yards and home columns.
std::vector<std::string> render_ludo_board(const GameView& view, const Style& style);
// Classic Ludo's grid: (2n+3) x (2n+3) cells, row 0 at the top, column 0 at the left; green's
// yard is the top-left corner, yellow's the top-right, red's the bottom-right, blue's the
// bottom-left. ludo_circuit_cells(n)[s] is the cell of circuit square s (0 = green's start square,
// clockwise); ludo_home_column_cells(n, c)[k] is the cell of progress 8n+3+k of colour c.
struct GridCell {
    int row = 0;
    int col = 0;
    friend bool operator==(const GridCell&, const GridCell&) = default;
};
std::vector<GridCell> ludo_circuit_cells(int arm);
std::vector<GridCell> ludo_home_column_cells(int arm, ludo::Colour colour);

// The lobby: room code, options, settings, seats (host, bots, away), what the host can do, and
// for the host and spectators how others join (the link's QR code when the whole screen with it,
// `status` included, fits style's window; else the window size that shows it).
// `now_ms` (the local steady clock) is for the automatic start's countdown.
std::vector<std::string> render_lobby(const GameView& view, const Style& style, std::int64_t now_ms = 0,
                                      const std::string& status = {});
// The decision being asked: one line per option with its key, piece, from -> to, what stands
// on the target square (Spook) or whether it captures (Ludo), the hint when present, and the
// countdown.
std::vector<std::string> render_decision(const GameView& view, const Style& style, std::int64_t now_ms);

// The whole screen: a title line, the board (or the lobby), the decision (or the last lines of
// the story), and `status` (keys and messages) on the last lines, wrapped, never cut.
// A window too small for the full layout keeps the title, says how big a window it needs
// ("Make the window at least 69x20 for the board (now 60x15)"), and shows the decision, the
// status, and what else fits. While view.showing_result(): the game-over screen (the final
// boards, the winner, the places, the record's address and how to verify it).
std::vector<std::string> render_screen(const GameView& view, const Style& style, std::int64_t now_ms,
                                       const std::string& status);

// The visible width of a line (ANSI escape sequences skipped, UTF-8 sequences counted once).
int visible_width(const std::string& line);

}  // namespace spookludo::client
