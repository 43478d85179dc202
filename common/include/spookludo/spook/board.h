#pragma once
// A Spook & Werewolf Ludo board (RULES.md part 1): 40 squares in four regions, the church on 40,
// and one character on each square that is neither an entrance nor the church.
#include <array>
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "spookludo/dice.h"

namespace spookludo::spook {

using Square = int;  // 1..40

inline constexpr Square kStartSquare = 1;
inline constexpr Square kChurch = 40;
inline constexpr int kSquares = 40;
inline constexpr int kCharacterSquares = 35;
inline constexpr int kMaxPieces = 3;

enum class Region : std::uint8_t { haunted_orchard, creepy_cornfield, gruesome_graveyard, wild_wood, church };

enum class Character : std::uint8_t { none, hat, cat, spook, werewolf, witch };
inline constexpr std::array<Character, 5> kCharacters{Character::hat, Character::cat, Character::spook,
                                                      Character::werewolf, Character::witch};

constexpr bool is_valid_square(Square s) noexcept { return s >= 1 && s <= kChurch; }

constexpr Region region_of(Square s) noexcept {
    if (s >= kChurch) return Region::church;
    return static_cast<Region>((s - 1) / 10);
}

// The first square of a region (1, 11, 21, 31; the church is its own entrance).
constexpr Square entrance_of(Region r) noexcept {
    return r == Region::church ? kChurch : 1 + 10 * static_cast<int>(r);
}

constexpr bool is_entrance(Square s) noexcept { return s == 1 || s == 11 || s == 21 || s == 31; }

// Squares that carry a character: everything but the entrances and the church.
constexpr bool carries_character(Square s) noexcept { return is_valid_square(s) && s != kChurch && !is_entrance(s); }

// The character woken by an activation roll: 1 or 2 the Wizard's Hat, 3 the Black Cat,
// 4 the Spook, 5 the Werewolf, 6 the Witch.
constexpr Character character_for_face(Face face) noexcept {
    switch (face) {
        case 1:
        case 2: return Character::hat;
        case 3: return Character::cat;
        case 4: return Character::spook;
        case 5: return Character::werewolf;
        case 6: return Character::witch;
        default: return Character::none;
    }
}

// Where a piece standing on `s` (a square carrying `c`) goes when `c` is woken.
// Hat: forward 3, but never past the church (from 37 into the church, from 38 or 39 it stays).
// Cat: back 6, never below square 1. Spook and Werewolf: back to the entrance of the region.
// Witch: back to square 1.
constexpr Square action_destination(Character c, Square s) noexcept {
    switch (c) {
        case Character::hat: return s + 3 <= kChurch ? s + 3 : s;
        case Character::cat: return s - 6 >= kStartSquare ? s - 6 : kStartSquare;
        case Character::spook:
        case Character::werewolf: return entrance_of(region_of(s));
        case Character::witch: return kStartSquare;
        case Character::none: return s;
    }
    return s;
}

std::string_view name_of(Region r) noexcept;       // "Haunted Orchard"
std::string_view name_of(Character c) noexcept;    // "Wizard's Hat"
std::string_view action_of(Character c) noexcept;  // "moves forward 3 squares"
std::string_view id_of(Character c) noexcept;      // "hat", "cat", "spook", "werewolf", "witch"
std::optional<Character> parse_character_id(std::string_view id) noexcept;

// The board notation uses one letter per square: H hat, C cat, S spook, W werewolf, X witch,
// '.' for an entrance and '+' for the church, e.g. ".HCSWXHCSW.HCSW...".
char letter_of(Character c) noexcept;

class Board {
public:
    Board() = default;  // every character square empty: not a playable board until filled

    // The 40-letter notation (white space and '|' between squares are ignored). Throws
    // std::invalid_argument naming the first bad square, e.g. "square 12: 'Q' is not a
    // character (use H, C, S, W or X)".
    static Board from_notation(std::string_view text);
    std::string notation() const;

    // A board with exactly 7 of each character, shuffled with `rng`.
    static Board random(Rng& rng);

    Character at(Square s) const noexcept { return squares_[static_cast<std::size_t>(s)]; }
    void set(Square s, Character c);  // throws std::invalid_argument for entrances or the church

    // Empty when every character square carries a character, else the first square without.
    std::optional<Square> first_empty_square() const noexcept;
    int count(Character c) const noexcept;
    bool has_seven_of_each() const noexcept;

    // Where a piece on `s` ends when the activation roll shows `face` (s itself if untouched).
    Square after_activation(Face face, Square s) const noexcept {
        return after_[static_cast<std::size_t>(face)][static_cast<std::size_t>(s)];
    }

    // The characters packed 3 bits a square: equal boards have equal keys (for caches).
    std::array<std::uint64_t, 2> key() const noexcept;

    friend bool operator==(const Board& a, const Board& b) noexcept { return a.squares_ == b.squares_; }

private:
    void refresh();
    std::array<Character, kSquares + 1> squares_{};                       // index 1..40
    std::array<std::array<std::uint8_t, kSquares + 1>, 7> after_{};        // [face][square]
};

// A board as games hold it: one immutable copy shared by every game that plays it (a pool's
// board is in many rooms at once).
using SharedBoard = std::shared_ptr<const Board>;
std::vector<SharedBoard> share(std::vector<Board> boards);

// A board with a name, as a host loads it from a board file.
struct NamedBoard {
    std::string name;
    Board board;
};

// A board file: {"boards": [{"name": "Bat", "squares": ".HCSWX..."}, ...]}.
// Checks RULES.md part 1: every board puts one character on each of the 35 character squares
// (and nothing on entrances or the church), the boards are distinct, and there is one per player
// (`players`, or any number when 0). Throws std::invalid_argument naming the board and square:
//   board 2 ("Bat"), square 17: 'Q' is not a character (use H, C, S, W or X)
std::vector<NamedBoard> parse_board_file(const nlohmann::json& file, int players = 0);
nlohmann::json board_file_json(const std::vector<NamedBoard>& boards);

}  // namespace spookludo::spook
