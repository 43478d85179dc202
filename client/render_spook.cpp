// Spook & Werewolf Ludo's drawing: one block per seat (its 40 squares with the characters'
// letters, the pieces on them and the squares a move crossed), the legend, and what the frame
// asks of the game: the size the boards need, a seat's line for a small window, the options'
// words (the square's character, the hint's expected rounds).
#include <algorithm>
#include <array>
#include <cstdio>

#include "game_words.h"
#include "render_parts.h"
#include "spookludo/spook/board.h"

namespace spookludo::client {

using namespace render_detail;
namespace pr = protocol;

namespace {

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
        tags.push_back(tr("done r{round}", {{"round", std::to_string(*finished[to_size(seat)])}}));
    if (!tags.empty()) items.push_back(join(tags, ", "));
    return join(items, " ");
}

std::string spook_legend(const GameView& view, const Style& style, bool dense) {
    std::string out;
    const std::pair<char, std::string> keys[] = {{'H', trc("legend", "hat")},         {'C', trc("legend", "cat")},
                                                 {'S', trc("legend", "spook")},       {'W', trc("legend", "werewolf")},
                                                 {'X', trc("legend", "witch")},       {'+', trc("legend", "church")}};
    for (const auto& [letter, name] : keys) {
        if (!out.empty()) out += ' ';
        out += paint(style, character_sgr(letter), std::string(1, letter));
        out += ' ';
        out += name;
    }
    const int pieces = view.options().spook.pieces;
    out += " | ";
    out += pieces > 1 ? tr("pieces 1-{n}", {{"n", std::to_string(pieces)}}) : tr("pieces 1");
    if (pieces > 1) out += ", *=2";
    if (pieces > 2) out += ", #=3";
    if (!dense) out += ", -=" + tr("moved");
    return out;
}

// The seats that have a board or pieces.
std::vector<int> spook_seats(const GameView& view) {
    return game_seats(view, std::max(view.spook_boards().size(), view.spook_positions().size()));
}

// What stands on an option's target square, in words.
std::string square_name(const std::string& id) {
    if (id == "church") return tr("the church");
    if (id == "entrance") return tr("entrance");
    return character_name(id);
}

}  // namespace

namespace render_detail {

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

Need spook_boards_need(const GameView& view, const Style& style) {
    Need need;
    // One line a seat: the name (4 columns at least), 40 squares between 6 bars, the squares.
    const auto seats = spook_seats(view);
    int right = 0;
    for (const int seat : seats) right = std::max(right, visible_width(spook_right_text(view, seat, true)));
    // The squares need 52 columns, the positions and tags after them up to 80 (80x24 always
    // holds the full layout; a longer tag is cut there, as before).
    need.width = std::min(80, 52 + (right > 0 ? 1 + right : 0));
    const int legend = static_cast<int>(wrap(spook_legend(view, style, true), std::max(style.width, need.width)).size());
    need.height = static_cast<int>(seats.size()) + legend;
    return need;
}

std::vector<std::string> spook_summary(const GameView& view, const Style& style) {
    std::vector<std::string> lines;
    for (const int seat : spook_seats(view)) {
        std::string line = seat == view.my_seat() ? ">" : " ";
        line += tr("{name}: at {where}", {{"name", view.seat_name(seat)}, {"where", spook_right_text(view, seat, true)}});
        lines.push_back(fit(line, style.width));
    }
    return lines;
}

std::vector<std::string> spook_option_texts(const pr::Decision& d, const Style& style) {
    std::optional<double> best_rounds;
    for (const auto& o : d.options)
        if (o.expected_rounds && (!best_rounds || *o.expected_rounds < *best_rounds)) best_rounds = o.expected_rounds;
    std::vector<std::string> texts;
    for (const auto& o : d.options) {
        std::string line = std::to_string(o.from) + " -> " + std::to_string(o.to);
        if (o.square) line += " (" + square_name(*o.square) + ")";
        if (style.hints && o.expected_rounds) {
            char buffer[48];
            std::snprintf(buffer, sizeof buffer, "%.1f", *o.expected_rounds);
            const bool best = best_rounds && *o.expected_rounds == *best_rounds && d.options.size() > 1;
            line += ' ';
            line += paint(style, "36", best ? tr("(hint: {rounds} rounds, best)", {{"rounds", buffer}})
                                            : tr("(hint: {rounds} rounds)", {{"rounds", buffer}}));
        }
        texts.push_back(std::move(line));
    }
    return texts;
}

}  // namespace render_detail

std::vector<std::string> render_spook_boards(const GameView& view, const Style& style) {
    std::vector<std::string> lines;
    const auto list = spook_seats(view);
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
                std::string squares;
                for (const int s : view.spook_positions()[to_size(seat)]) {
                    if (!squares.empty()) squares += ", ";
                    squares += std::to_string(s);
                }
                at = tr("at {squares}", {{"squares", squares}});
            }
            lines.push_back(rtrim(fit(bottom + " " + at, style.width)));
        }
    }
    for (auto& l : wrap(spook_legend(view, style, dense), style.width)) lines.push_back(std::move(l));
    return lines;
}

}  // namespace spookludo::client
