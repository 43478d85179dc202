#include "board_print.h"

#include <algorithm>
#include <string_view>

#include "game_words.h"
#include "i18n.h"

namespace spookludo::cli {

namespace {

using pdf::Font;
using pdf::Page;
using spook::Character;

// What a square shows when it carries no character.
enum class Mark { entrance, church };

// The pictures: simple shapes, told apart in black and white by their outline alone. Each
// fits a box of 2s x 2s around (x, y).
void draw_hat(Page& p, double x, double y, double s) {  // a wizard's hat: a bent cone on a brim, a star
    p.fill_grey(0);
    p.polygon({{x - 0.5 * s, y - 0.55 * s}, {x + 0.5 * s, y - 0.55 * s}, {x + 0.2 * s, y + 0.35 * s}, {x + 0.55 * s, y + 0.95 * s},
               {x - 0.05 * s, y + 0.5 * s}});
    p.fill();
    p.ellipse(x, y - 0.6 * s, 0.95 * s, 0.2 * s);
    p.fill();
    p.fill_grey(1);
    p.polygon({{x, y + 0.15 * s}, {x + 0.08 * s, y - 0.05 * s}, {x + 0.25 * s, y - 0.05 * s}, {x + 0.1 * s, y - 0.18 * s},
               {x + 0.15 * s, y - 0.38 * s}, {x, y - 0.25 * s}, {x - 0.15 * s, y - 0.38 * s}, {x - 0.1 * s, y - 0.18 * s},
               {x - 0.25 * s, y - 0.05 * s}, {x - 0.08 * s, y - 0.05 * s}});
    p.fill();
}

void draw_cat(Page& p, double x, double y, double s) {  // a cat's head: round, pointed ears, whiskers
    p.fill_grey(0);
    p.circle(x, y - 0.15 * s, 0.6 * s);
    p.fill();
    p.polygon({{x - 0.58 * s, y + 0.05 * s}, {x - 0.5 * s, y + 0.85 * s}, {x - 0.08 * s, y + 0.4 * s}});
    p.fill();
    p.polygon({{x + 0.58 * s, y + 0.05 * s}, {x + 0.5 * s, y + 0.85 * s}, {x + 0.08 * s, y + 0.4 * s}});
    p.fill();
    p.fill_grey(1);
    p.ellipse(x - 0.24 * s, y - 0.02 * s, 0.11 * s, 0.17 * s);
    p.fill();
    p.ellipse(x + 0.24 * s, y - 0.02 * s, 0.11 * s, 0.17 * s);
    p.fill();
    p.stroke_grey(0);
    p.line_width(0.06 * s);
    for (double side : {-1.0, 1.0}) {
        p.line(x + side * 0.45 * s, y - 0.35 * s, x + side * 1.0 * s, y - 0.22 * s);
        p.line(x + side * 0.45 * s, y - 0.45 * s, x + side * 1.0 * s, y - 0.55 * s);
    }
}

void draw_spook(Page& p, double x, double y, double s) {  // a ghost: white, outlined, wavy hem
    p.fill_grey(1);
    p.stroke_grey(0);
    p.line_width(0.12 * s);
    p.move_to(x - 0.6 * s, y - 0.85 * s);
    p.line_to(x - 0.6 * s, y + 0.2 * s);
    p.curve_to(x - 0.6 * s, y + 1.0 * s, x + 0.6 * s, y + 1.0 * s, x + 0.6 * s, y + 0.2 * s);
    p.line_to(x + 0.6 * s, y - 0.85 * s);
    p.line_to(x + 0.3 * s, y - 0.6 * s);
    p.line_to(x, y - 0.85 * s);
    p.line_to(x - 0.3 * s, y - 0.6 * s);
    p.close();
    p.fill_stroke();
    p.fill_grey(0);
    p.ellipse(x - 0.22 * s, y + 0.25 * s, 0.1 * s, 0.15 * s);
    p.fill();
    p.ellipse(x + 0.22 * s, y + 0.25 * s, 0.1 * s, 0.15 * s);
    p.fill();
    p.ellipse(x, y - 0.2 * s, 0.14 * s, 0.2 * s);
    p.fill();
}

void draw_werewolf(Page& p, double x, double y, double s) {  // a wolf's head: tall ears, long snout, fangs
    p.fill_grey(0);
    p.polygon({{x - 0.55 * s, y + 0.95 * s}, {x - 0.22 * s, y + 0.45 * s}, {x + 0.22 * s, y + 0.45 * s}, {x + 0.55 * s, y + 0.95 * s},
               {x + 0.8 * s, y + 0.05 * s}, {x + 0.32 * s, y - 0.35 * s}, {x + 0.14 * s, y - 0.95 * s},
               {x - 0.14 * s, y - 0.95 * s}, {x - 0.32 * s, y - 0.35 * s}, {x - 0.8 * s, y + 0.05 * s}});
    p.fill();
    p.fill_grey(1);
    p.polygon({{x - 0.45 * s, y + 0.2 * s}, {x - 0.12 * s, y + 0.05 * s}, {x - 0.3 * s, y - 0.05 * s}});
    p.fill();
    p.polygon({{x + 0.45 * s, y + 0.2 * s}, {x + 0.12 * s, y + 0.05 * s}, {x + 0.3 * s, y - 0.05 * s}});
    p.fill();
    p.polygon({{x - 0.12 * s, y - 0.6 * s}, {x - 0.04 * s, y - 0.6 * s}, {x - 0.08 * s, y - 0.82 * s}});
    p.fill();
    p.polygon({{x + 0.12 * s, y - 0.6 * s}, {x + 0.04 * s, y - 0.6 * s}, {x + 0.08 * s, y - 0.82 * s}});
    p.fill();
}

void draw_witch(Page& p, double x, double y, double s) {  // a witch's broom: a long stick, a bound brush
    p.stroke_grey(0);
    p.line_width(0.14 * s);
    p.line(x + 0.9 * s, y + 0.9 * s, x - 0.2 * s, y - 0.2 * s);
    p.fill_grey(0);
    p.polygon({{x - 0.1 * s, y - 0.3 * s}, {x - 0.3 * s, y - 0.1 * s}, {x - 0.98 * s, y - 0.55 * s}, {x - 0.55 * s, y - 0.98 * s}});
    p.fill();
    p.stroke_grey(1);
    p.line_width(0.05 * s);
    p.line(x - 0.3 * s, y - 0.3 * s, x - 0.8 * s, y - 0.8 * s);
    p.line(x - 0.25 * s, y - 0.18 * s, x - 0.85 * s, y - 0.6 * s);
    p.line(x - 0.18 * s, y - 0.25 * s, x - 0.6 * s, y - 0.85 * s);
    p.stroke_grey(0);
    p.line_width(0.1 * s);
    p.line(x - 0.05 * s, y - 0.38 * s, x - 0.38 * s, y - 0.05 * s);
}

void draw_entrance(Page& p, double x, double y, double s) {  // a gate: an open arch
    p.stroke_grey(0);
    p.line_width(0.1 * s);
    p.move_to(x - 0.5 * s, y - 0.8 * s);
    p.line_to(x - 0.5 * s, y + 0.1 * s);
    p.curve_to(x - 0.5 * s, y + 0.8 * s, x + 0.5 * s, y + 0.8 * s, x + 0.5 * s, y + 0.1 * s);
    p.line_to(x + 0.5 * s, y - 0.8 * s);
    p.stroke();
    p.line(x - 0.8 * s, y - 0.8 * s, x + 0.8 * s, y - 0.8 * s);
}

void draw_church(Page& p, double x, double y, double s) {  // a church: roof, cross, door
    p.stroke_grey(0);
    p.fill_grey(1);
    p.line_width(0.1 * s);
    p.rect(x - 0.5 * s, y - 0.9 * s, s, 0.85 * s);
    p.fill_stroke();
    p.fill_grey(0);
    p.polygon({{x - 0.65 * s, y - 0.05 * s}, {x, y + 0.5 * s}, {x + 0.65 * s, y - 0.05 * s}});
    p.fill();
    p.rect(x - 0.15 * s, y - 0.9 * s, 0.3 * s, 0.45 * s);
    p.fill();
    p.line(x, y + 0.5 * s, x, y + 1.0 * s);
    p.line(x - 0.18 * s, y + 0.8 * s, x + 0.18 * s, y + 0.8 * s);
}

void draw_character(Page& p, Character c, double x, double y, double s) {
    switch (c) {
        case Character::hat: draw_hat(p, x, y, s); break;
        case Character::cat: draw_cat(p, x, y, s); break;
        case Character::spook: draw_spook(p, x, y, s); break;
        case Character::werewolf: draw_werewolf(p, x, y, s); break;
        case Character::witch: draw_witch(p, x, y, s); break;
        case Character::none: break;
    }
}

// The legend's words for what a woken character does to a piece on one of its squares.
std::string action_words(Character c) {
    if (c == Character::hat)
        return client::tr("{action} (from 37 into the church; from 38 or 39 it stays)", {{"action", client::character_action(c)}});
    if (c == Character::cat) return client::tr("{action}, never below square 1", {{"action", client::character_action(c)}});
    return client::character_action(c);
}

std::string roll_words(Character c) {
    switch (c) {
        case Character::hat: return client::tr("{a} or {b}", {{"a", "1"}, {"b", "2"}});
        case Character::cat: return "3";
        case Character::spook: return "4";
        case Character::werewolf: return "5";
        case Character::witch: return "6";
        case Character::none: break;
    }
    return "";
}

// A square: its outline, its number (top left), its picture and its word (bottom).
void draw_square(Page& p, const spook::Board& board, spook::Square square, double x, double top, double w, double h) {
    const bool plain = !spook::carries_character(square);
    p.stroke_grey(0);
    p.fill_grey(plain ? 0.88 : 1);
    p.line_width(1);
    p.rect(x, top - h, w, h);
    p.fill_stroke();
    p.fill_grey(0);
    p.text(x + 3, top - 11, Font::bold, 10, std::to_string(square));
    const double size = std::min(w, h) * 0.28;
    const double cx = x + w / 2, cy = top - h * 0.47;
    std::string word;
    if (square == spook::kChurch) {
        draw_church(p, cx, cy, size);
        word = client::trc("square", "church");
    } else if (plain) {
        draw_entrance(p, cx, cy, size);
        word = client::trc("square", "entrance");
    } else {
        const Character c = board.at(square);
        draw_character(p, c, cx, cy, size);
        word = client::character_name(c);
    }
    p.fill_grey(0);
    double font = 7.5;
    while (font > 5 && pdf::text_width(Font::regular, font, word) > w - 4) font -= 0.5;
    p.text_centred(cx, top - h + 5, Font::regular, font, word);
}

void draw_page(Page& p, const BoardPage& page, pdf::PageSize size) {
    const double margin = 40;
    const double width = size.width - 2 * margin;
    double y = size.height - margin;
    p.fill_grey(0);
    const std::string title = page.player.empty() ? client::tr("Board") : page.player;
    double title_size = 26;  // smaller for a long name, to fit the page's width
    while (title_size > 10 && pdf::text_width(Font::bold, title_size, title) > width) title_size -= 1;
    p.text(margin, y - 24, Font::bold, title_size, title);
    y -= 42;
    p.text(margin, y, Font::regular, 10,
           page.subtitle.empty() ? client::tr("Spook & Werewolf Ludo")
                                 : client::tr("Spook & Werewolf Ludo: {subtitle}", {{"subtitle", page.subtitle}}));
    y -= 14;
    p.text(margin, y, Font::regular, 9, client::tr("Move left to right, row after row: square 1 to 39, then into the church on 40."));
    y -= 10;

    // The board: a row a region, ten squares a row (the last row ends with the church).
    const double cell_w = width / 10;
    const double cell_h = std::min(84.0, (size.height - 2 * margin) * 0.1);
    for (int r = 0; r < 4; ++r) {
        const auto region = static_cast<spook::Region>(r);
        const spook::Square first = spook::entrance_of(region);
        y -= 16;
        const std::string name = client::region_name(region);
        p.fill_grey(0);
        p.text(margin, y, Font::bold, 12, name);
        p.text(margin + pdf::text_width(Font::bold, 12, name) + 8, y, Font::regular, 9,
               client::tr("squares {first} to {last}", {{"first", std::to_string(first)}, {"last", std::to_string(first + 9)}}));
        y -= 5;
        for (int i = 0; i < 10; ++i) draw_square(p, page.board, first + i, margin + i * cell_w, y, cell_w, cell_h);
        y -= cell_h;
    }

    // The legend: the activation roll, the character's picture and name, what it does.
    y -= 26;
    p.fill_grey(0);
    p.text(margin, y, Font::bold, 13, client::tr("Legend"));
    p.text(margin + 56, y, Font::regular, 9, client::tr("The activation roll wakes one character for everybody: every piece on its squares moves."));
    y -= 18;
    const double col_roll = margin, col_pic = margin + 50, col_name = margin + 82, col_action = margin + 160;
    p.text(col_roll, y, Font::bold, 9, client::trc("legend", "Roll"));
    p.text(col_name, y, Font::bold, 9, client::trc("legend", "Character"));
    p.text(col_action, y, Font::bold, 9, client::trc("legend", "Action"));
    const double row_h = 26;
    for (Character c : spook::kCharacters) {
        y -= row_h;
        p.fill_grey(0);
        p.text(col_roll, y + 4, Font::bold, 11, roll_words(c));
        draw_character(p, c, col_pic + 10, y + 7, 10);
        p.fill_grey(0);
        p.text(col_name, y + 4, Font::bold, 10, client::character_name(c));
        p.text(col_action, y + 4, Font::regular, 9.5, action_words(c));
    }
    y -= 24;
    p.fill_grey(0);
    p.text(margin, y, Font::regular, 8, client::tr("The entrances (1, 11, 21, 31) and the church carry no character."));
    p.text(margin, margin - 10, Font::regular, 7, client::tr("Board notation: {notation}   (spookludo boards --print)", {{"notation", page.board.notation()}}));
}

}  // namespace

std::string boards_pdf(const std::vector<BoardPage>& pages, pdf::PageSize size) {
    pdf::Document doc(size, client::tr("Spook & Werewolf Ludo boards"));
    for (const auto& page : pages) draw_page(doc.add_page(), page, size);
    return doc.bytes();
}

}  // namespace spookludo::cli
