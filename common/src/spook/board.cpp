#include "spookludo/spook/board.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace spookludo::spook {

std::string_view name_of(Region r) noexcept {
    switch (r) {
        case Region::haunted_orchard: return "Haunted Orchard";
        case Region::creepy_cornfield: return "Creepy Cornfield";
        case Region::gruesome_graveyard: return "Gruesome Graveyard";
        case Region::wild_wood: return "Wild Wood";
        case Region::church: return "the church";
    }
    return "?";
}

std::string_view name_of(Character c) noexcept {
    switch (c) {
        case Character::hat: return "Wizard's Hat";
        case Character::cat: return "Black Cat";
        case Character::spook: return "Spook";
        case Character::werewolf: return "Werewolf";
        case Character::witch: return "Witch";
        case Character::none: return "nobody";
    }
    return "?";
}

std::string_view action_of(Character c) noexcept {
    switch (c) {
        case Character::hat: return "moves forward 3 squares";
        case Character::cat: return "moves back 6 squares";
        case Character::spook:
        case Character::werewolf: return "goes back to the entrance of its region";
        case Character::witch: return "goes back to square 1";
        case Character::none: return "stays";
    }
    return "?";
}

std::string_view id_of(Character c) noexcept {
    switch (c) {
        case Character::hat: return "hat";
        case Character::cat: return "cat";
        case Character::spook: return "spook";
        case Character::werewolf: return "werewolf";
        case Character::witch: return "witch";
        case Character::none: return "none";
    }
    return "?";
}

std::optional<Character> parse_character_id(std::string_view id) noexcept {
    for (Character c : kCharacters)
        if (id == id_of(c)) return c;
    return std::nullopt;
}

char letter_of(Character c) noexcept {
    switch (c) {
        case Character::hat: return 'H';
        case Character::cat: return 'C';
        case Character::spook: return 'S';
        case Character::werewolf: return 'W';
        case Character::witch: return 'X';
        case Character::none: return '.';
    }
    return '?';
}

namespace {

std::optional<Character> character_from_letter(char ch) noexcept {
    for (Character c : kCharacters)
        if (ch == letter_of(c)) return c;
    return std::nullopt;
}

std::string square_error(Square s, const std::string& what) { return "square " + std::to_string(s) + ": " + what; }

}  // namespace

void Board::refresh() {
    for (Face face = 1; face <= 6; ++face) {
        const Character woken = character_for_face(face);
        for (Square s = 1; s <= kSquares; ++s) {
            const Square to = at(s) == woken ? action_destination(woken, s) : s;
            after_[static_cast<std::size_t>(face)][static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(to);
        }
    }
}

void Board::set(Square s, Character c) {
    if (!carries_character(s))
        throw std::invalid_argument(square_error(s, is_valid_square(s) ? "an entrance or the church carries no character"
                                                                       : "there is no such square"));
    squares_[static_cast<std::size_t>(s)] = c;
    refresh();
}

Board Board::from_notation(std::string_view text) {
    Board b;
    Square s = 0;
    for (char ch : text) {
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '|') continue;
        ++s;
        if (s > kSquares)
            throw std::invalid_argument("a board has 40 squares, this one has more (\"" + std::string(text) + "\")");
        if (carries_character(s)) {
            const auto c = character_from_letter(ch);
            if (!c) {
                if (ch == '.' || ch == '+')
                    throw std::invalid_argument(square_error(s, "carries no character, but every square other than "
                                                                "the entrances and the church must"));
                throw std::invalid_argument(
                    square_error(s, std::string("'") + ch + "' is not a character (use H, C, S, W or X)"));
            }
            b.squares_[static_cast<std::size_t>(s)] = *c;
        } else {
            const char expected = s == kChurch ? '+' : '.';
            if (ch != expected && ch != '.')
                throw std::invalid_argument(square_error(
                    s, std::string(s == kChurch ? "is the church" : "is an entrance") + " and carries no character (write '" +
                           expected + "', got '" + ch + "')"));
        }
    }
    if (s < kSquares)
        throw std::invalid_argument("a board has 40 squares, this one has " + std::to_string(s) + " (\"" +
                                    std::string(text) + "\")");
    b.refresh();
    return b;
}

std::vector<SharedBoard> share(std::vector<Board> boards) {
    std::vector<SharedBoard> out;
    out.reserve(boards.size());
    for (auto& b : boards) out.push_back(std::make_shared<const Board>(std::move(b)));
    return out;
}

std::string Board::notation() const {
    std::string out;
    out.reserve(kSquares);
    for (Square s = 1; s <= kSquares; ++s) out += s == kChurch ? '+' : letter_of(at(s));
    return out;
}

Board Board::random(Rng& rng) {
    std::array<Character, kCharacterSquares> deck{};
    for (std::size_t i = 0; i < deck.size(); ++i) deck[i] = kCharacters[i / 7];
    // Fisher-Yates with the unbiased generator.
    for (std::size_t i = deck.size() - 1; i > 0; --i)
        std::swap(deck[i], deck[rng.uniform(static_cast<std::uint32_t>(i + 1))]);
    Board b;
    std::size_t next = 0;
    for (Square s = 1; s < kChurch; ++s)
        if (carries_character(s)) b.squares_[static_cast<std::size_t>(s)] = deck[next++];
    b.refresh();
    return b;
}

std::array<std::uint64_t, 2> Board::key() const noexcept {
    std::array<std::uint64_t, 2> k{};
    for (Square s = 1; s < kChurch; ++s) {
        const auto bits = static_cast<std::uint64_t>(at(s));
        const int i = s - 1;  // 0..38: 20 squares in the first word, 19 in the second
        k[static_cast<std::size_t>(i / 20)] |= bits << (3 * (i % 20));
    }
    return k;
}

std::optional<Square> Board::first_empty_square() const noexcept {
    for (Square s = 1; s < kChurch; ++s)
        if (carries_character(s) && at(s) == Character::none) return s;
    return std::nullopt;
}

int Board::count(Character c) const noexcept {
    return static_cast<int>(std::count(squares_.begin() + 1, squares_.end(), c));
}

bool Board::has_seven_of_each() const noexcept {
    return std::all_of(kCharacters.begin(), kCharacters.end(), [this](Character c) { return count(c) == 7; });
}

std::vector<NamedBoard> parse_board_file(const nlohmann::json& file, int players) {
    if (!file.is_object() || !file.contains("boards") || !file.at("boards").is_array())
        throw std::invalid_argument("a board file is a JSON object with a \"boards\" array");
    const auto& list = file.at("boards");
    std::vector<NamedBoard> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& entry = list[i];
        const std::string label_no = "board " + std::to_string(i + 1);
        std::string name = label_no;
        if (entry.is_object() && entry.contains("name")) {
            if (!entry.at("name").is_string())
                throw std::invalid_argument(label_no + ": \"name\" must be a string");
            name = entry.at("name").get<std::string>();
        }
        const std::string label = label_no + " (\"" + name + "\")";
        if (!entry.is_object() || !entry.contains("squares") || !entry.at("squares").is_string())
            throw std::invalid_argument(label + ": needs \"squares\", the board's 40-letter notation");
        for (const auto& [key, value] : entry.items())
            if (key != "name" && key != "squares")
                throw std::invalid_argument(label + ": unknown key \"" + key + "\"");
        try {
            out.push_back({name, Board::from_notation(entry.at("squares").get<std::string>())});
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(label + ", " + e.what());
        }
        for (std::size_t j = 0; j + 1 < out.size(); ++j)
            if (out[j].board == out.back().board)
                throw std::invalid_argument(label + " is the same as board " + std::to_string(j + 1) + " (\"" +
                                            out[j].name + "\"): the boards of a game must all differ");
    }
    if (players > 0 && static_cast<int>(out.size()) != players)
        throw std::invalid_argument("the board file has " + std::to_string(out.size()) + " boards but the game has " +
                                    std::to_string(players) + " players: one board per player");
    if (out.empty()) throw std::invalid_argument("the board file has no boards");
    return out;
}

nlohmann::json board_file_json(const std::vector<NamedBoard>& boards) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& b : boards) list.push_back({{"name", b.name}, {"squares", b.board.notation()}});
    return {{"boards", list}};
}

}  // namespace spookludo::spook
