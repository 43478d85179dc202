// Classic Ludo's drawing: the cross-shaped board with the four colours (the track, the start
// squares, the home columns, the yards with their waiting pieces, the centre), the side panel
// (players, the last throw and move, a legend), and what the frame asks of the game: the size
// the board needs, its panel's lines for a small window, the options' words.
#include <algorithm>
#include <cctype>
#include <array>

#include "game_words.h"
#include "render_parts.h"

namespace spookludo::client {

using namespace render_detail;
namespace pr = protocol;

namespace {

// "G2": a piece's colour letter and number (built in place: GCC 12 warns, wrongly, on char + string).
std::string piece_label(char colour_letter, int piece) {
    std::string label(1, colour_letter);
    label += std::to_string(piece + 1);
    return label;
}


// A progress as the panel and the options say it: "yard", "home", "behind start" (a piece gone
// round again under capture_to_home), else its number.
std::string progress_text(const ludo::Geometry& geo, int p, bool compact) {
    if (p == ludo::kYard) return compact ? trc("square", "yard") : tr("out of the yard");
    if (p == geo.home()) return trc("square", "home");
    if (p == geo.behind_start()) return trc("square", "behind start");
    return std::to_string(p);
}

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
    panel.push_back(tr("Classic Ludo, arms of {arm}, turn {turn}", {{"arm", std::to_string(n)}, {"turn", std::to_string(view.turn())}}));
    for (const int seat : game_seats(view, view.ludo_progress().size())) {
        const int col = std::max(0, view.ludo_colour(seat));
        const auto& progress = view.ludo_progress()[to_size(seat)];
        int home = 0, yard = 0;
        for (const int p : progress) {
            home += p == geo.home() ? 1 : 0;
            yard += p == ludo::kYard ? 1 : 0;
        }
        std::string line = seat == view.current_seat() ? ">" : " ";
        line += paint(style, "1;" + std::string(kColourFg[to_size(col)]), std::string(1, kColourLetter[to_size(col)]));
        line += ' ';
        line += pad(view.seat_name(seat), 12);
        line += ' ';
        line += tr("yard {yard} home {home}", {{"yard", std::to_string(yard)}, {"home", std::to_string(home)}});
        const auto tags = seat_tags(view, seat);
        if (!tags.empty()) {
            line += ' ';
            line += join(tags, ", ");
        }
        panel.push_back(line);
    }
    if (view.options().ludo.teams && view.ludo_progress().size() == 4) {
        // Partners sit opposite: green and red against yellow and blue.
        auto name = [](int c) { return colour_name(static_cast<ludo::Colour>(c)); };
        panel.push_back(tr("Teams: {a}+{b} against {c}+{d}", {{"a", name(0)}, {"b", name(2)}, {"c", name(1)}, {"d", name(3)}}));
    }
    if (view.last_face()) {
        // The seat that threw it: after a pass the seat to play is already the next one.
        const std::string face = std::to_string(*view.last_face());
        panel.push_back(view.last_thrower()
                            ? tr("Last throw: {face} ({name})", {{"face", face}, {"name", view.seat_name(*view.last_thrower())}})
                            : tr("Last throw: {face}", {{"face", face}}));
    }
    if (!view.last_moves().empty()) {
        const auto& mv = view.last_moves().front();
        auto where = [&](int p) { return progress_text(geo, p, true); };
        panel.push_back(tr("Last move: {name} piece {piece}, {from} -> {to}",
                           {{"name", view.seat_name(mv.seat)}, {"piece", std::to_string(mv.piece + 1)},
                            {"from", where(mv.from)}, {"to", where(mv.to)}}));
    }
    return panel;
}

// The glyph of a safe star square (house rule safe_squares).
std::string star_glyph(const Style& style) { return style.unicode ? "\u2726" : "*"; }

constexpr int kLudoPanelWidth = 37;  // the panel's legend, "g1 green piece 1, G2 two green pieces"

}  // namespace

namespace render_detail {

Need ludo_board_need(const GameView& view) {
    const int size = 2 * view.options().ludo.arm + 3;
    return {2 * size + 2 + kLudoPanelWidth, size};
}

std::vector<std::string> ludo_summary(const GameView& view, const Style& style) {
    std::vector<std::string> lines;
    for (const auto& l : ludo_panel_info(view, style)) lines.push_back(fit(l, style.width));
    if (!lines.empty()) lines.erase(lines.begin());  // "Classic Ludo, arms of 6, turn 57": the title says it
    return lines;
}

std::vector<std::string> ludo_option_texts(const GameView& view, const pr::Decision& d, const Style& style,
                                           bool compact) {
    const ludo::Geometry geo(view.options().ludo.arm);
    std::vector<std::string> texts;
    for (const auto& o : d.options) {
        std::string line = progress_text(geo, o.from, compact);
        line += " -> ";
        line += progress_text(geo, o.to, true);
        if (o.captures.value_or(false)) {
            line += ' ';
            line += paint(style, "1;31", tr("captures!"));
        }
        if (style.hints && o.best.value_or(false)) {
            line += ' ';
            line += paint(style, "36", tr("(best)"));
        }
        texts.push_back(std::move(line));
    }
    return texts;
}

}  // namespace render_detail

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
    std::string shared;      // the first square two sides share, as drawn ("gy")
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
    enum class Kind : unsigned char { none, track, start, star, column, centre, home };
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
        if (view.options().ludo.safe_squares) {
            const auto star = circuit[to_size(geo.star_square(colour))];
            kind[to_size(star.row)][to_size(star.col)] = Kind::star;
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
        // Two sides on one square (a safe square, or partners under teams): both colours' letters,
        // each capital for two or more pieces ("Yr"); one column: '&'.
        std::vector<int> here;
        for (const int seat : seats)
            if (!at[to_size(r)][to_size(c)][to_size(seat)].empty()) here.push_back(seat);
        if (here.size() >= 2 && k != Kind::home) {
            std::string text;
            for (std::size_t i = 0; i < 2; ++i) {
                const char letter = kColourLetter[to_size(static_cast<int>(colour_of(here[i])))];
                const bool many = at[to_size(r)][to_size(c)][to_size(here[i])].size() > 1;
                text += many ? static_cast<char>(letter - 'a' + 'A') : letter;
            }
            if (shared.empty()) shared = text;
            std::string sgr = "1;" + std::string(kColourFg[to_size(static_cast<int>(colour_of(here[0])))]);
            if (moved == GridCell{r, c}) sgr += ";7";
            return {cw == 2 ? text : std::string("&"), sgr};
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
            case Kind::star: return {star_glyph(style) + (cw == 2 ? " " : ""), "1"};
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
        out[to_size(top)] = paint(style, std::string(fg), centre(fit(colour_name(colour), yard_w), yard_w));
        out[to_size(top + 1)] = centre(fit(view.seat_name(seat), yard_w - 2), yard_w);
        const auto& waiting = yard[to_size(seat)];
        for (int row = 0; row < 2; ++row) {
            std::string text;
            for (int piece = 2 * row; piece < 2 * row + 2; ++piece) {
                if (piece == 2 * row + 1) text += ' ';
                const bool here = std::find(waiting.begin(), waiting.end(), piece) != waiting.end();
                text += here ? paint(style, "1;" + std::string(fg), piece_label(kColourLetter[to_size(colour_index)], piece))
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
    panel.push_back(tr("g1 green piece 1, G2 two green pieces"));
    if (view.options().ludo.safe_squares)
        panel.push_back(tr("() start, {star} star: safe; : home column", {{"star", star_glyph(style)}}));
    else
        panel.push_back(tr("() start square, : home column"));
    panel.push_back(tr("centre: G3 = 3 green pieces home"));
    if (!shared.empty() && cw == 2) {
        // Instead of the least needed line: what a shared square's two letters say.
        auto name = [](char letter) {
            for (int c = 0; c < 4; ++c)
                if (kColourLetter[to_size(c)] == std::tolower(static_cast<unsigned char>(letter)))
                    return colour_name(static_cast<ludo::Colour>(c));
            return std::string("?");
        };
        panel.push_back(shared + " " + tr("{a} and {b} on one square", {{"a", name(shared[0])}, {"b", name(shared[1])}}));
    } else {
        panel.push_back(tr("moves count squares from the start"));
    }
    if (!targets.empty()) {
        panel.push_back(cw == 2 ? tr("*1 the square option 1 leads to") : tr("1 the square option 1 leads to"));
        if (!own_block.empty())
            panel.push_back(own_block + " " + tr("your pieces {a} and {b} together",
                                                 {{"a", own_block.substr(0, 1)}, {"b", own_block.substr(1, 1)}}));
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

}  // namespace spookludo::client
