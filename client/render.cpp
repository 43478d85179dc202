#include "render.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "spookludo/spook/board.h"

namespace spookludo::client {

namespace pr = protocol;

namespace {

// ---- Text helpers ------------------------------------------------------------------------------

std::size_t to_size(int v) { return v > 0 ? static_cast<std::size_t>(v) : 0; }

// `text` wrapped in the SGR `codes` when colour is on.
std::string paint(const Style& style, std::string_view codes, std::string_view text) {
    if (!style.color || codes.empty() || text.empty()) return std::string(text);
    std::string out = "\x1b[";
    out += codes;
    out += 'm';
    out += text;
    out += "\x1b[0m";
    return out;
}

// The line cut to `width` visible columns (escape sequences kept, colour reset after a cut).
std::string fit(const std::string& line, int width) {
    std::string out;
    int seen = 0;
    bool escapes = false;
    for (std::size_t i = 0; i < line.size();) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c == 0x1b && i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < line.size() && (static_cast<unsigned char>(line[j]) < 0x40 || static_cast<unsigned char>(line[j]) > 0x7e)) ++j;
            out.append(line, i, j + 1 - i);
            escapes = true;
            i = j + 1;
            continue;
        }
        std::size_t len = 1;
        if (c >= 0xf0) len = 4;
        else if (c >= 0xe0) len = 3;
        else if (c >= 0xc0) len = 2;
        if (seen >= width) {
            if (escapes) out += "\x1b[0m";
            return out;
        }
        out.append(line, i, len);
        ++seen;
        i += len;
    }
    return out;
}

// Cut or padded with spaces to exactly `width` visible columns.
std::string pad(const std::string& line, int width) {
    std::string out = fit(line, width);
    const int w = visible_width(out);
    if (w < width) out.append(to_size(width - w), ' ');
    return out;
}

// Without the trailing blanks (escape sequences kept).
std::string rtrim(const std::string& line) {
    std::string out;
    std::size_t keep = 0;  // out's length up to the last visible non-blank
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < line.size() && (static_cast<unsigned char>(line[j]) < 0x40 || static_cast<unsigned char>(line[j]) > 0x7e)) ++j;
            out.append(line, i, j + 1 - i);
            i = j;
            continue;
        }
        if (line[i] != ' ') {
            // Blanks between the last visible character and this one stay.
            keep = out.size() + 1;
        }
        out += line[i];
    }
    // Drop the blanks after `keep`, but not the escape sequences among them.
    std::string tail;
    for (std::size_t i = keep; i < out.size(); ++i)
        if (out[i] != ' ') tail += out[i];
    // A blank inside an escape sequence cannot occur (parameters are digits and ';').
    return out.substr(0, keep) + tail;
}

std::string centre(const std::string& text, int width) {
    const int w = visible_width(text);
    if (w >= width) return fit(text, width);
    return std::string(to_size((width - w) / 2), ' ') + text;
}

// Word-wraps plain text (the story) to `width` columns.
std::vector<std::string> wrap(const std::string& text, int width) {
    std::vector<std::string> lines;
    if (width <= 0) return lines;
    std::string line;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos) end = text.size();
        std::string word = text.substr(at, end - at);
        at = end + 1;
        if (word.empty()) continue;
        const int lw = visible_width(line);
        const int ww = visible_width(word);
        if (!line.empty() && lw + 1 + ww > width) {
            lines.push_back(line);
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
        while (visible_width(line) > width) {  // a word longer than the line
            const std::string head = fit(line, width);
            lines.push_back(head);
            line = line.substr(head.size());
        }
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

std::string seconds_text(int ms) {
    char buffer[32];
    if (ms % 1000 == 0) std::snprintf(buffer, sizeof buffer, "%d s", ms / 1000);
    else std::snprintf(buffer, sizeof buffer, "%.1f s", ms / 1000.0);
    return buffer;
}

const pr::SeatView* seat_view(const GameView& view, int seat) {
    if (!view.snapshot()) return nullptr;
    for (const auto& s : view.snapshot()->seats)
        if (s.seat == seat && !s.free) return &s;
    return nullptr;
}

// "you", "bot", "away" for a seat.
std::vector<std::string> seat_tags(const GameView& view, int seat) {
    std::vector<std::string> tags;
    if (seat == view.my_seat()) tags.emplace_back("you");
    if (const auto* s = seat_view(view, seat)) {
        const std::string status = view.seat_status(seat);
        if (s->kicked) tags.emplace_back("kicked");
        else if (s->bot) tags.emplace_back("bot");
        else if (status == "server") tags.emplace_back("server plays");
        else if (status == "left") tags.emplace_back("left");
        else if (status == "away" || s->away.value_or(false) || !s->connected.value_or(true)) tags.emplace_back("away");
    }
    return tags;
}

// "1 seat", "3 seats".
std::string count_of(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

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

std::string join(const std::vector<std::string>& items, std::string_view sep) {
    std::string out;
    for (const auto& item : items) {
        if (!out.empty()) out += sep;
        out += item;
    }
    return out;
}

// ---- Spook -------------------------------------------------------------------------------------

std::string_view character_sgr(char letter) {
    switch (letter) {
        case 'H': return "33";    // Wizard's Hat: yellow
        case 'C': return "35";    // Black Cat: magenta
        case 'S': return "36";    // Spook: cyan
        case 'W': return "31";    // Werewolf: red
        case 'X': return "32";    // Witch: green
        case '.': return "2";     // entrance
        case '+': return "1;97";  // church
        default: return "";
    }
}

// The piece marks under (or over) the 40 squares: '1'..'3', '*' two pieces, '#' three; the
// squares a piece crossed in its last move are '-'. moved[i] is true for a piece that just moved.
struct SpookMarks {
    std::array<char, 40> mark{};
    std::array<bool, 40> moved{};
    std::array<bool, 40> trail{};
};

SpookMarks spook_marks(const GameView& view, int seat) {
    SpookMarks m;
    m.mark.fill(' ');
    const auto& positions = view.spook_positions();
    if (to_size(seat) >= positions.size()) return m;
    const auto& pieces = positions[to_size(seat)];
    std::array<int, 40> count{};
    std::array<int, 40> which{};
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        const int s = pieces[p];
        if (s < 1 || s > 40) continue;
        ++count[to_size(s - 1)];
        which[to_size(s - 1)] = static_cast<int>(p);
    }
    for (std::size_t i = 0; i < 40; ++i) {
        if (count[i] == 1) m.mark[i] = static_cast<char>('1' + which[i]);
        else if (count[i] == 2) m.mark[i] = '*';
        else if (count[i] >= 3) m.mark[i] = '#';
    }
    for (const auto& mv : view.last_moves()) {
        if (mv.seat != seat || mv.piece < 0 || to_size(mv.piece) >= pieces.size()) continue;
        if (pieces[to_size(mv.piece)] != mv.to || mv.to <= mv.from || mv.from < 1 || mv.to > 40) continue;
        m.moved[to_size(mv.to - 1)] = true;
        for (int s = mv.from; s < mv.to; ++s)
            if (count[to_size(s - 1)] == 0) {
                m.mark[to_size(s - 1)] = '-';
                m.trail[to_size(s - 1)] = true;
            }
    }
    return m;
}

// '|' before square 1, between the regions and around the church; ' ' in the pieces line.
bool region_break_before(int square) { return square == 1 || square == 11 || square == 21 || square == 31 || square == 40; }

// Dense: "12,25,1 you, done r24"; two lines: "you, done r24" (the squares go on the pieces line).
std::string spook_right_text(const GameView& view, int seat, bool with_positions) {
    std::vector<std::string> items;
    if (with_positions && to_size(seat) < view.spook_positions().size()) {
        std::string at;
        for (const int s : view.spook_positions()[to_size(seat)]) {
            if (!at.empty()) at += ',';
            at += std::to_string(s);
        }
        items.push_back(at);
    }
    std::vector<std::string> tags = seat_tags(view, seat);
    const auto& finished = view.spook_finished();
    if (to_size(seat) < finished.size() && finished[to_size(seat)])
        tags.push_back("done r" + std::to_string(*finished[to_size(seat)]));
    if (!tags.empty()) items.push_back(join(tags, ", "));
    return join(items, " ");
}

std::string spook_legend(const GameView& view, const Style& style, bool dense) {
    std::string out;
    const std::pair<char, const char*> keys[] = {{'H', "hat"}, {'C', "cat"}, {'S', "spook"}, {'W', "werewolf"},
                                                 {'X', "witch"}, {'+', "church"}};
    for (const auto& [letter, name] : keys) {
        if (!out.empty()) out += ' ';
        out += paint(style, character_sgr(letter), std::string(1, letter));
        out += ' ';
        out += name;
    }
    const int pieces = view.options().spook.pieces;
    out += " | pieces 1";
    if (pieces > 1) out += "-" + std::to_string(pieces);
    if (pieces > 1) out += ", *=2";
    if (pieces > 2) out += ", #=3";
    if (!dense) out += ", -=moved";
    return out;
}

}  // namespace

int visible_width(const std::string& line) {
    int width = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c == 0x1b && i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && (static_cast<unsigned char>(line[i]) < 0x40 || static_cast<unsigned char>(line[i]) > 0x7e)) ++i;
            continue;
        }
        if ((c & 0xc0) == 0x80) continue;  // UTF-8 continuation byte
        ++width;
    }
    return width;
}

std::vector<std::string> render_spook_boards(const GameView& view, const Style& style) {
    std::vector<std::string> lines;
    const auto list = game_seats(view, std::max(view.spook_boards().size(), view.spook_positions().size()));
    const int seats = static_cast<int>(list.size());
    // Two lines a seat (squares, then pieces) when they leave room for a decision; else one.
    const bool dense = 2 * seats + 1 > style.height - 9;
    const int name_w = std::clamp(style.width - 68, 4, 12);
    for (const int seat : list) {
        const std::string board =
            to_size(seat) < view.spook_boards().size() ? view.spook_boards()[to_size(seat)] : std::string();
        const SpookMarks marks = spook_marks(view, seat);
        const bool me = seat == view.my_seat();
        std::string top = me ? paint(style, "1", ">") : std::string(" ");
        top += paint(style, me ? "1" : "", pad(view.seat_name(seat), name_w));
        top += ' ';
        std::string bottom(to_size(name_w + 2), ' ');
        for (int square = 1; square <= 40; ++square) {
            const auto i = to_size(square - 1);
            if (region_break_before(square)) {
                top += paint(style, "2", "|");
                bottom += ' ';
            }
            const char letter = i < board.size() ? board[i] : '?';
            const char mark = marks.mark[i];
            if (dense && mark != ' ' && !marks.trail[i]) {
                top += paint(style, marks.moved[i] ? "1;7;33" : "1;7", std::string(1, mark));
            } else {
                top += paint(style, character_sgr(letter), std::string(1, letter));
            }
            if (marks.moved[i]) bottom += paint(style, "1;33", std::string(1, mark));
            else if (marks.trail[i]) bottom += paint(style, "33", std::string(1, mark));
            else bottom += paint(style, mark == ' ' ? "" : "1", std::string(1, mark));
        }
        top += paint(style, "2", "|");
        bottom += ' ';
        const std::string right = spook_right_text(view, seat, dense);
        lines.push_back(fit(right.empty() ? top : top + " " + right, style.width));
        if (!dense) {
            std::string at;
            if (to_size(seat) < view.spook_positions().size()) {
                at = "at ";
                bool first = true;
                for (const int s : view.spook_positions()[to_size(seat)]) {
                    if (!first) at += ", ";
                    at += std::to_string(s);
                    first = false;
                }
            }
            lines.push_back(rtrim(fit(bottom + " " + at, style.width)));
        }
    }
    for (auto& l : wrap(spook_legend(view, style, dense), style.width)) lines.push_back(std::move(l));
    return lines;
}

// ---- Ludo --------------------------------------------------------------------------------------

namespace {

GridCell rotate(GridCell cell, int times, int size) {
    for (int t = 0; t < times; ++t) cell = GridCell{cell.col, size - 1 - cell.row};
    return cell;
}

constexpr std::array<char, 4> kColourLetter{'g', 'y', 'r', 'b'};
constexpr std::array<std::string_view, 4> kColourFg{"32", "33", "31", "34"};
constexpr std::array<std::string_view, 4> kColourBg{"30;42", "30;43", "30;41", "97;44"};

struct BoardCell {
    std::string text;  // cw characters
    std::string sgr;
};

// The panel's lines about the game: the players (colour, name, yard and home counts, tags), the
// last throw with the seat that threw it, the last move.
std::vector<std::string> ludo_panel_info(const GameView& view, const Style& style) {
    const int n = view.options().ludo.arm;
    const ludo::Geometry geo(n);
    std::vector<std::string> panel;
    panel.push_back("Classic Ludo, arms of " + std::to_string(n) + ", turn " + std::to_string(view.turn()));
    for (const int seat : game_seats(view, view.ludo_progress().size())) {
        const int col = std::max(0, view.ludo_colour(seat));
        const auto& progress = view.ludo_progress()[to_size(seat)];
        int home = 0, yard = 0;
        for (const int p : progress) {
            home += p >= geo.home() ? 1 : 0;
            yard += p == ludo::kYard ? 1 : 0;
        }
        std::string line = seat == view.current_seat() ? ">" : " ";
        line += paint(style, "1;" + std::string(kColourFg[to_size(col)]), std::string(1, kColourLetter[to_size(col)]));
        line += ' ';
        line += pad(view.seat_name(seat), 12);
        line += " yard " + std::to_string(yard) + " home " + std::to_string(home);
        const auto tags = seat_tags(view, seat);
        if (!tags.empty()) line += " " + join(tags, ", ");
        panel.push_back(line);
    }
    if (view.last_face()) {
        // The seat that threw it: after a pass the seat to play is already the next one.
        std::string line = "Last throw: " + std::to_string(*view.last_face());
        if (view.last_thrower()) line += " (" + view.seat_name(*view.last_thrower()) + ")";
        panel.push_back(line);
    }
    if (!view.last_moves().empty()) {
        const auto& mv = view.last_moves().front();
        auto where = [&](int p) {
            if (p == ludo::kYard) return std::string("yard");
            if (p >= geo.home()) return std::string("home");
            return std::to_string(p);
        };
        panel.push_back("Last move: " + view.seat_name(mv.seat) + " piece " + std::to_string(mv.piece + 1) + ", " +
                        where(mv.from) + " -> " + where(mv.to));
    }
    return panel;
}

}  // namespace

std::vector<GridCell> ludo_circuit_cells(int arm) {
    const int n = arm;
    const int size = 2 * n + 3;
    // Green's quarter: along the top row of the left arm towards the centre, up the left column
    // of the top arm, across its end; the other colours' quarters are this turned clockwise.
    std::vector<GridCell> quarter;
    for (int c = 1; c <= n - 1; ++c) quarter.push_back({n, c});
    for (int r = n - 1; r >= 0; --r) quarter.push_back({r, n});
    quarter.push_back({0, n + 1});
    quarter.push_back({0, n + 2});
    std::vector<GridCell> cells;
    for (int q = 0; q < 4; ++q)
        for (const auto& cell : quarter) cells.push_back(rotate(cell, q, size));
    return cells;
}

std::vector<GridCell> ludo_home_column_cells(int arm, ludo::Colour colour) {
    const int n = arm;
    std::vector<GridCell> cells;
    for (int k = 0; k < n - 1; ++k) cells.push_back(rotate({n + 1, 1 + k}, static_cast<int>(colour), 2 * n + 3));
    return cells;
}

std::vector<std::string> render_ludo_board(const GameView& view, const Style& style) {
    const int n = view.options().ludo.arm;
    const ludo::Geometry geo(n);
    const int size = 2 * n + 3;
    const int cw = 2 * size <= style.width ? 2 : 1;
    // Per-seat arrays are indexed by room seat; the seats in the game are view.play_seats().
    const int players = static_cast<int>(view.ludo_progress().size());
    const auto seats = game_seats(view, view.ludo_progress().size());
    auto colour_of = [&](int seat) { return static_cast<ludo::Colour>(view.ludo_colour(seat) >= 0 ? view.ludo_colour(seat) : 0); };

    // Who stands where: per cell, per seat, the pieces.
    std::vector<std::vector<std::vector<std::vector<int>>>> at(
        to_size(size), std::vector<std::vector<std::vector<int>>>(to_size(size), std::vector<std::vector<int>>(to_size(players))));
    std::vector<std::vector<int>> yard(to_size(players));
    const auto circuit = ludo_circuit_cells(n);
    auto home_cell = [&](ludo::Colour c) { return rotate({n + 1, n}, static_cast<int>(c), size); };
    for (const int seat : seats) {
        const auto colour = colour_of(seat);
        const auto& progress = view.ludo_progress()[to_size(seat)];
        for (int piece = 0; piece < 4; ++piece) {
            const int p = progress[to_size(piece)];
            GridCell cell{-1, -1};
            if (p == ludo::kYard) {
                yard[to_size(seat)].push_back(piece);
                continue;
            }
            if (geo.on_circuit(p)) cell = circuit[to_size(geo.square_of(colour, p))];
            else if (geo.in_home_column(p)) cell = ludo_home_column_cells(n, colour)[to_size(p - geo.last_circuit_progress() - 1)];
            else if (p >= geo.home()) cell = home_cell(colour);
            if (cell.row >= 0) at[to_size(cell.row)][to_size(cell.col)][to_size(seat)].push_back(piece);
        }
    }
    // The last move's piece, highlighted when it is still where it went.
    GridCell moved{-1, -1};
    for (const auto& mv : view.last_moves()) {
        if (mv.seat < 0 || mv.seat >= players || mv.piece < 0 || mv.piece > 3) continue;
        if (view.ludo_progress()[to_size(mv.seat)][to_size(mv.piece)] != mv.to || view.ludo_colour(mv.seat) < 0) continue;
        const auto colour = colour_of(mv.seat);
        if (geo.on_circuit(mv.to)) moved = circuit[to_size(geo.square_of(colour, mv.to))];
        else if (geo.in_home_column(mv.to)) moved = ludo_home_column_cells(n, colour)[to_size(mv.to - geo.last_circuit_progress() - 1)];
    }

    // Where the options of the open decision lead: the cell of each target, marked with the
    // option's key ("*1"; "1" one column wide), so "piece 1: 30 -> 36" can be found on the board.
    std::vector<std::pair<GridCell, int>> targets;
    int deciding = -1;       // the seat choosing
    std::string own_block;   // a block of its two pieces drawn as their numbers ("34")
    if (const auto& pending = view.pending(); pending && view.ludo_colour(pending->decision.seat) >= 0) {
        deciding = pending->decision.seat;
        const auto colour = colour_of(pending->decision.seat);
        int key = 0;
        for (const auto& o : pending->decision.options) {
            ++key;
            GridCell cell{-1, -1};
            if (geo.on_circuit(o.to)) cell = circuit[to_size(geo.square_of(colour, o.to))];
            else if (geo.in_home_column(o.to)) cell = ludo_home_column_cells(n, colour)[to_size(o.to - geo.last_circuit_progress() - 1)];
            else if (o.to >= geo.home()) cell = home_cell(colour);
            if (cell.row >= 0) targets.emplace_back(cell, key);
        }
    }

    // The cells' base look.
    enum class Kind : unsigned char { none, track, start, column, centre, home };
    std::vector<std::vector<Kind>> kind(to_size(size), std::vector<Kind>(to_size(size), Kind::none));
    std::vector<std::vector<int>> owner(to_size(size), std::vector<int>(to_size(size), -1));
    for (const auto& cell : circuit) kind[to_size(cell.row)][to_size(cell.col)] = Kind::track;
    for (int r = n; r < n + 3; ++r)
        for (int c = n; c < n + 3; ++c) kind[to_size(r)][to_size(c)] = Kind::centre;
    for (int c = 0; c < 4; ++c) {
        const auto colour = static_cast<ludo::Colour>(c);
        const auto start = circuit[to_size(geo.start_square(colour))];
        kind[to_size(start.row)][to_size(start.col)] = Kind::start;
        owner[to_size(start.row)][to_size(start.col)] = c;
        for (const auto& cell : ludo_home_column_cells(n, colour)) {
            kind[to_size(cell.row)][to_size(cell.col)] = Kind::column;
            owner[to_size(cell.row)][to_size(cell.col)] = c;
        }
        const auto home = home_cell(colour);
        kind[to_size(home.row)][to_size(home.col)] = Kind::home;
        owner[to_size(home.row)][to_size(home.col)] = c;
    }

    auto cell_text = [&](int r, int c) -> BoardCell {
        const Kind k = kind[to_size(r)][to_size(c)];
        const int own = owner[to_size(r)][to_size(c)];
        for (const auto& [cell, key] : targets)
            if (cell == GridCell{r, c}) {
                const std::string digit = key < 10 ? std::to_string(key) : std::string("+");
                return {cw == 2 ? "*" + digit : digit, "1;7"};
            }
        for (const int seat : seats) {
            const auto& pieces = at[to_size(r)][to_size(c)][to_size(seat)];
            if (pieces.empty()) continue;
            const int col = static_cast<int>(colour_of(seat));
            const char letter = kColourLetter[to_size(col)];
            std::string text;
            if (pieces.size() == 1 && k != Kind::home) {
                text = cw == 2 ? std::string(1, letter) + std::to_string(pieces[0] + 1) : std::string(1, letter);
            } else if (pieces.size() == 2 && k != Kind::home && cw == 2 && seat == deciding) {
                // The chooser's two pieces together: both numbers ("34"), so that an option's
                // piece can be found in a block too.
                text = std::to_string(pieces[0] + 1) + std::to_string(pieces[1] + 1);
                own_block = text;
            } else {
                const char upper = static_cast<char>(letter - 'a' + 'A');
                text = cw == 2 ? std::string(1, upper) + std::to_string(pieces.size()) : std::string(1, upper);
            }
            std::string sgr = k == Kind::column ? std::string(kColourBg[to_size(col)]) + ";1" : "1;" + std::string(kColourFg[to_size(col)]);
            if (moved == GridCell{r, c}) sgr += ";7";
            return {text, sgr};
        }
        auto two = [&](const char* s2, const char* s1) { return std::string(cw == 2 ? s2 : s1); };
        switch (k) {
            case Kind::none: return {std::string(to_size(cw), ' '), ""};
            case Kind::track: return {two(". ", "."), "2"};
            case Kind::start: return {two("()", "o"), std::string(kColourBg[to_size(own)])};
            case Kind::column: return {two(": ", ":"), std::string(kColourBg[to_size(own)])};
            case Kind::centre: return {two("##", "#"), "2"};
            case Kind::home: return {two("##", "#"), std::string(kColourFg[to_size(own)])};
        }
        return {std::string(to_size(cw), ' '), ""};
    };

    // The yards' text: colour, player, the pieces waiting (two by two).
    const int yard_w = n * cw;
    auto yard_lines = [&](int colour_index) {
        std::vector<std::string> out(to_size(n), std::string());
        int seat = -1;
        for (const int s : seats)
            if (view.ludo_colour(s) == colour_index) seat = s;
        if (seat < 0) return out;
        const auto colour = static_cast<ludo::Colour>(colour_index);
        const std::string_view fg = kColourFg[to_size(colour_index)];
        const int top = std::max(0, (n - 4) / 2);
        out[to_size(top)] = paint(style, std::string(fg), centre(std::string(ludo::to_string(colour)), yard_w));
        out[to_size(top + 1)] = centre(fit(view.seat_name(seat), yard_w - 2), yard_w);
        const auto& waiting = yard[to_size(seat)];
        for (int row = 0; row < 2; ++row) {
            std::string text;
            for (int piece = 2 * row; piece < 2 * row + 2; ++piece) {
                if (piece == 2 * row + 1) text += ' ';
                const bool here = std::find(waiting.begin(), waiting.end(), piece) != waiting.end();
                text += here ? paint(style, "1;" + std::string(fg), std::string(1, kColourLetter[to_size(colour_index)]) +
                                                                        std::to_string(piece + 1))
                             : std::string("  ");
            }
            const int left = std::max(0, (yard_w - 5) / 2);
            out[to_size(top + 2 + row)] = std::string(to_size(left), ' ') + text;
        }
        return out;
    };
    const auto green_yard = yard_lines(0), yellow_yard = yard_lines(1), red_yard = yard_lines(2), blue_yard = yard_lines(3);

    std::vector<std::string> board;
    for (int r = 0; r < size; ++r) {
        std::string line;
        for (int c = 0; c < size; ++c) {
            const bool top = r < n, bottom = r >= n + 3, left = c < n, right = c >= n + 3;
            if ((top || bottom) && (left || right)) {
                if (c == 0 || c == n + 3) {
                    const auto& y = top ? (left ? green_yard : yellow_yard) : (left ? blue_yard : red_yard);
                    line += pad(y[to_size(top ? r : r - n - 3)], yard_w);
                }
                continue;
            }
            const BoardCell cell = cell_text(r, c);
            line += paint(style, cell.sgr, cell.text);
        }
        board.push_back(line);
    }

    // The side panel: players, whose turn, the last throw and move, a legend.
    std::vector<std::string> panel = ludo_panel_info(view, style);
    panel.emplace_back();
    panel.push_back("g1 green piece 1, G2 two green pieces");
    panel.push_back("() start square, : home column");
    panel.push_back("centre: G3 = 3 green pieces home");
    panel.push_back("moves count squares from the start");
    if (!targets.empty()) {
        panel.push_back(cw == 2 ? "*1 the square option 1 leads to" : "1 the square option 1 leads to");
        if (!own_block.empty())
            panel.push_back(own_block + " your pieces " + own_block.substr(0, 1) + " and " + own_block.substr(1, 1) + " together");
    }

    const int board_w = size * cw;
    const int panel_w = style.width - board_w - 2;
    std::vector<std::string> lines;
    if (panel_w >= 24) {
        for (std::size_t i = 0; i < std::max(board.size(), panel.size()); ++i) {
            const std::string b = i < board.size() ? pad(board[i], board_w) : std::string(to_size(board_w), ' ');
            const std::string line = i < panel.size() ? b + "  " + fit(panel[i], panel_w) : b;
            lines.push_back(rtrim(fit(line, style.width)));
        }
    } else {
        for (const auto& b : board) lines.push_back(rtrim(fit(b, style.width)));
    }
    return lines;
}

// ---- Lobby -------------------------------------------------------------------------------------

namespace {

// The lobby in parts: the small screen keeps the seats and the keys before the rest.
struct LobbyParts {
    std::vector<std::string> head, game, settings, seats, keys;
};

LobbyParts lobby_parts(const GameView& view, const Style& style, std::int64_t now_ms = 0) {
    LobbyParts parts;
    const auto& snap = view.snapshot();
    const GameOptions options = snap ? snap->options : view.options();
    std::string head = "Room " + (view.room().empty() ? std::string("?") : view.room()) + " - ";
    head += view.state() == "lobby" ? "waiting in the lobby" : view.state();
    parts.head.push_back(fit(paint(style, "1", head), style.width));
    std::string game;
    if (options.game == GameKind::spook) {
        const int p = options.spook.pieces;
        game = "Spook & Werewolf Ludo: " + count_of(options.players, "seat", "seats") + ", " + count_of(p, "piece", "pieces") +
               " (" + std::to_string(options.spook.pieces_to_finish()) + " in the church wins)" +
               (options.spook.balanced_boards ? ", balanced boards" : ", random boards");
    } else {
        game = "Classic Ludo: " + count_of(options.players, "seat", "seats") + ", arms of " + std::to_string(options.ludo.arm) +
               ", entry " + (options.ludo.entry == LudoEntry::text ? "as the text (6 squares out)" : "onto the start square") +
               (options.ludo.three_sixes ? ", three 6s end the turn" : "");
    }
    if (options.play_on) game += ", play on";
    parts.game = wrap(game, style.width);
    if (!snap) return parts;
    const auto& s = snap->settings;
    parts.settings = wrap("Settings: " + seconds_text(s.decision_ms) + " to choose, " + seconds_text(s.pace_ms) +
                              " between steps, hints " + (s.hints ? "on" : "off"),
                          style.width);
    // Every seat by its number (1-based; numbers need not be contiguous), free ones included.
    for (const int seat : view.room_seats()) {
        const auto* sv = view.seat_free(seat) ? nullptr : seat_view(view, seat);
        std::string line = (seat == view.my_seat() ? ">" : " ") + std::string(seat < 9 ? " " : "") + std::to_string(seat + 1) + "  ";
        if (!sv) {
            line += paint(style, "2", "(free)");
            parts.seats.push_back(fit(line, style.width));
            continue;
        }
        line += paint(style, seat == view.my_seat() ? "1" : "", pad(sv->name, 24));
        std::vector<std::string> tags;
        const std::string status = view.seat_status(seat);
        if (snap->host == seat) tags.emplace_back(paint(style, "1;33", "host"));
        if (sv->kicked) tags.emplace_back(paint(style, "31", "kicked: a best bot plays it"));
        else if (sv->bot) tags.push_back("bot (" + std::string(sv->policy ? to_string(*sv->policy) : "best") + ")");
        else if (status == "server") tags.emplace_back(paint(style, "31", "away, the server plays"));
        else if (status == "left") tags.emplace_back(paint(style, "31", "left"));
        else if (status == "away" || sv->away.value_or(false) || !sv->connected.value_or(true)) tags.emplace_back(paint(style, "31", "away"));
        if (seat == view.my_seat()) tags.emplace_back("you");
        line += " " + join(tags, ", ");
        parts.seats.push_back(rtrim(fit(line, style.width)));
    }
    if (snap->spectators > 0)
        parts.seats.push_back(fit("   " + count_of(snap->spectators, "spectator", "spectators"), style.width));
    // The keys wrap (never cut): a narrow window shows them on more lines. Only the keys that
    // do something for this game.
    if (view.am_host()) {
        for (auto& l : wrap(paint(style, "1", "You are the host.") + " Keys: s start, b g r add a best/greedy/random bot,", style.width))
            parts.keys.push_back(std::move(l));
        // Never broken inside a key's words ("c auto start"), unless one is wider than the window.
        std::vector<std::string> items{"x N remove seat N", "+ - seats"};
        if (options.game == GameKind::spook) items.insert(items.end(), {"p pieces", "d boards"});
        else items.insert(items.end(), {"a arm", "e entry", "3 three 6s"});
        items.insert(items.end(), {"h hints", "t time", "w pace", "c auto start", "o play on", "q leave"});
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
        parts.keys = wrap(std::string("You are watching.") +
                              (view.state() == "lobby" && view.has_free_seat() ? " j takes a free seat," : "") + " q leaves.",
                          style.width);
    } else {
        parts.keys = wrap("Waiting for " + (snap->host >= 0 ? view.seat_name(snap->host) : std::string("the host")) +
                              " (host) to start. q leaves.",
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

void append(std::vector<std::string>& to, const std::vector<std::string>& lines) { to.insert(to.end(), lines.begin(), lines.end()); }

}  // namespace

// ---- Decisions ---------------------------------------------------------------------------------

namespace {

std::string square_name(const std::string& id) {
    if (id == "church") return "the church";
    if (id == "entrance") return "entrance";
    if (const auto c = spook::parse_character_id(id)) return std::string(spook::name_of(*c));
    return id;
}

std::vector<std::string> decision_lines(const GameView& view, const Style& style, std::int64_t now_ms, bool compact) {
    std::vector<std::string> lines;
    const auto& pending = view.pending();
    if (!pending) return lines;
    const auto& d = pending->decision;
    const bool spook = view.options().game == GameKind::spook;
    const int home = ludo::Geometry(view.options().ludo.arm).home();
    std::optional<double> best_rounds;
    for (const auto& o : d.options)
        if (o.expected_rounds && (!best_rounds || *o.expected_rounds < *best_rounds)) best_rounds = o.expected_rounds;
    int key = 0;
    for (const auto& o : d.options) {
        ++key;
        std::string line = paint(style, "1", std::to_string(key)) + "  piece " + std::to_string(o.piece + 1) + ": ";
        if (spook) {
            line += std::to_string(o.from) + " -> " + std::to_string(o.to);
            if (o.square) line += " (" + square_name(*o.square) + ")";
            if (style.hints && o.expected_rounds) {
                char buffer[48];
                std::snprintf(buffer, sizeof buffer, "%.1f", *o.expected_rounds);
                std::string hint = std::string("(hint: ") + buffer + " rounds";
                if (best_rounds && *o.expected_rounds == *best_rounds && d.options.size() > 1) hint += ", best";
                line += " " + paint(style, "36", hint + ")");
            }
        } else {
            if (o.from == ludo::kYard) line += compact ? "yard" : "out of the yard";
            else line += std::to_string(o.from);
            line += " -> ";
            line += o.to >= home ? std::string("home") : std::to_string(o.to);
            if (o.captures.value_or(false)) line += " " + paint(style, "1;31", "captures!");
            if (style.hints && o.best.value_or(false)) line += " " + paint(style, "36", "(best)");
        }
        if (pending->chosen && *pending->chosen == o.piece) line += " " + paint(style, "1", "<- sent");
        lines.push_back(fit(line, style.width));
    }
    const auto left = view.time_left_ms(now_ms);
    std::string tail;
    if (pending->chosen) {
        tail = "You chose piece " + std::to_string(*pending->chosen + 1) + "; waiting for the server.";
    } else if (view.paused()) {
        // The countdown stands still: nobody's time runs while the game is paused.
        tail = "Paused (" + std::to_string((left + 999) / 1000) + " s left): choose when the game resumes.";
    } else if (view.disconnected()) {
        tail = "No connection: the countdown is stopped (" + std::to_string((left + 999) / 1000) + " s left).";
    } else if (left <= 0) {
        tail = "Time is up: the server moves for you.";
    } else {
        const auto seconds = (left + 999) / 1000;
        tail = "Choose 1-" + std::to_string(d.options.size()) + " within " +
               paint(style, seconds <= 5 ? "1;31" : "1", std::to_string(seconds) + " s");
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
        title += " | Spook round " + std::to_string(view.round());
        if (view.movement_roll()) title += ", die " + std::to_string(*view.movement_roll());
        if (view.last_character())
            if (const auto c = spook::parse_character_id(*view.last_character()))
                title += ", " + paint(style, character_sgr(spook::letter_of(*c)), std::string(spook::name_of(*c)));
    } else if (board) {
        title += " | Ludo turn " + std::to_string(view.turn());
        if (view.current_seat() >= 0) title += ", " + view.seat_name(view.current_seat()) + " to play";
    } else {
        title += " | " + view.state();
    }
    if (view.paused()) {
        const auto& why = view.snapshot()->pause_reason;
        title += " | " + paint(style, "1;31",
                               why == "restart"   ? "PAUSED (server restarted: waiting for the players)"
                               : why == "journal" ? "PAUSED (the server cannot save the game)"
                                                  : "PAUSED");
    }
    if (view.is_spectator()) title += " | watching";
    else if (view.my_seat() >= 0) title += " | you: " + view.seat_name(view.my_seat());
    return title;
}

std::string title_line(const GameView& view, const Style& style) { return fit(title_text(view, style), style.width); }

}  // namespace

namespace {

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

// The status (keys and messages) wrapped over as many lines as it takes, never cut.
std::vector<std::string> status_block(const std::string& status, const Style& style) {
    if (visible_width(status) <= style.width) return {status};
    return wrap(status, style.width);
}

// The window the full layout of a board needs: the board with its side panel or its seats'
// lines, a decision (or a line of the story), the status.
struct Need {
    int width = 0;
    int height = 0;
};

constexpr int kLudoPanelWidth = 37;  // the panel's legend, "g1 green piece 1, G2 two green pieces"

Need board_need(const GameView& view, const Style& style, const std::string& status) {
    Need need;
    const int below = std::max(1, decision_height(view));
    if (view.options().game == GameKind::spook) {
        // One line a seat: the name (4 columns at least), 40 squares between 6 bars, the squares.
        const auto seats = game_seats(view, std::max(view.spook_boards().size(), view.spook_positions().size()));
        int right = 0;
        for (const int seat : seats) right = std::max(right, visible_width(spook_right_text(view, seat, true)));
        // The squares need 52 columns, the positions and tags after them up to 80 (80x24 always
        // holds the full layout; a longer tag is cut there, as before).
        need.width = std::min(80, 52 + (right > 0 ? 1 + right : 0));
        const int legend = static_cast<int>(wrap(spook_legend(view, style, true), std::max(style.width, need.width)).size());
        need.height = 1 + static_cast<int>(seats.size()) + legend + below;
    } else {
        const int size = 2 * view.options().ludo.arm + 3;
        need.width = 2 * size + 2 + kLudoPanelWidth;
        need.height = 1 + size + below;
    }
    // The status at that width (a narrower window wraps it over more lines).
    need.height += static_cast<int>(status_block(status, Style{std::max(style.width, need.width), 0, false, true, {}, {}, {}}).size());
    return need;
}

std::string window_line(const Need& need, const Style& style, const char* what) {
    return "Make the window at least " + std::to_string(need.width) + "x" + std::to_string(need.height) + " for the " + what +
           " (now " + std::to_string(style.width) + "x" + std::to_string(style.height) + ")";
}

// A board's game without the board, one line a seat: for a window too small to draw it.
std::vector<std::string> board_summary(const GameView& view, const Style& style) {
    std::vector<std::string> lines;
    if (view.options().game == GameKind::ludo) {
        for (const auto& l : ludo_panel_info(view, style)) lines.push_back(fit(l, style.width));
        if (!lines.empty()) lines.erase(lines.begin());  // "Classic Ludo, arms of 6, turn 57": the title says it
        return lines;
    }
    for (const int seat : game_seats(view, std::max(view.spook_boards().size(), view.spook_positions().size()))) {
        std::string line = seat == view.my_seat() ? ">" : " ";
        line += view.seat_name(seat) + ": at " + spook_right_text(view, seat, true);
        lines.push_back(fit(line, style.width));
    }
    return lines;
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
    const auto window = wrap(window_line(need, style, board ? "board" : "lobby"), style.width);
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
        // The lobby: the seats and the keys first; the game's line and the settings if they fit.
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
    std::string line = "Places:";
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto& [place, seat] = order[i];
        const std::string item = std::to_string(place) + ". " + final_view.seat_name(seat) + " (seat " + std::to_string(seat + 1) + ")" +
                                 (i + 1 < order.size() ? "," : "");
        if (visible_width(line) + 1 + visible_width(item) > width && line != "Places:") {
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
    title += std::string(" | ") + (spook ? "Spook" : "Ludo") + " | game over";
    if (view.is_spectator()) title += " | watching";
    else if (view.my_seat() >= 0) title += " | you: " + final_view.seat_name(view.my_seat());

    std::vector<std::string> text;
    if (over.status == "finished") {
        std::vector<std::string> names;
        for (const int w : over.winners) names.push_back(final_view.seat_name(w));
        const std::string who = names.empty() ? std::string("Nobody") : join(names, " and ");
        append(text, wrap(paint(style, "1;32", "Game over! " + who + (names.size() > 1 ? " win together" : " wins") + " after " +
                                                   count_of(over.length, spook ? "round" : "turn", spook ? "rounds" : "turns") + "."),
                          style.width));
    } else {
        append(text, wrap(paint(style, "1;31", "The game was abandoned" + (over.reason ? ": " + *over.reason : std::string()) + "."),
                          style.width));
    }
    append(text, places_lines(final_view, over, style.width));
    if (over.record) {
        const std::string address = style.server_url + *over.record;
        append(text, wrap("The game's record: " + address, style.width));
        append(text, wrap("Check the dice and every move with:", style.width));
        append(text, wrap("spookludo verify " + address + style.verify_flags, style.width));
        if (!style.saved_record.empty())
            append(text, wrap("or, also once the server has gone, with the copy saved here: spookludo verify " +
                                  style.saved_record,
                              style.width));
    }
    // Always shown, with the status, however small the window.
    std::vector<std::string> tail = wrap(paint(style, "1", "Press any key to go back to the room."), style.width);
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
        const auto window = wrap(window_line(need, style, "final board"), style.width);
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
    return 1 + static_cast<int>(lobby) + 1 +
           static_cast<int>(status_block(status, Style{width, 0, false, true, {}, {}, {}}).size());
}

struct LobbyLayout {
    std::vector<std::string> lines;  // what the lobby draws under the title
    Need need;                       // the window the whole screen with them needs
};

constexpr int kLobbyMinWidth = 40;

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
        append(layout.lines, wrap("(a window of " + std::to_string(qr_need.width) + "x" + std::to_string(qr_need.height) +
                                      " shows the link as a QR code for a phone's camera)",
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

}  // namespace

std::vector<std::string> render_lobby(const GameView& view, const Style& style, std::int64_t now_ms,
                                      const std::string& status) {
    return lobby_layout(view, style, now_ms, status).lines;
}

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
