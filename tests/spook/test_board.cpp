// Boards of Spook & Werewolf Ludo (RULES.md part 1, "Board"): the geometry, the characters'
// actions as a board computes them, the 40-letter notation, board files, random boards, and the
// setup of a game (which boards it uses, which seat gets which).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "spookludo/spook/setup.h"
#include "support.h"

using namespace spook_test;

namespace {

// The error message of a call that must throw std::invalid_argument ("" when it did not throw).
template <class F>
std::string invalid_argument_of(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

bool starts_with(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}

// The notation with square `s` (1..40) replaced by `ch`.
std::string with_square(std::string notation, Square s, char ch) {
    notation[static_cast<std::size_t>(s - 1)] = ch;
    return notation;
}

}  // namespace

TEST_CASE("regions, entrances and the church [spook][board]") {
    CHECK(region_of(1) == Region::haunted_orchard);
    CHECK(region_of(10) == Region::haunted_orchard);
    CHECK(region_of(11) == Region::creepy_cornfield);
    CHECK(region_of(20) == Region::creepy_cornfield);
    CHECK(region_of(21) == Region::gruesome_graveyard);
    CHECK(region_of(30) == Region::gruesome_graveyard);
    CHECK(region_of(31) == Region::wild_wood);
    CHECK(region_of(39) == Region::wild_wood);
    CHECK(region_of(40) == Region::church);

    int character_squares = 0;
    for (Square s = 1; s <= kChurch; ++s) {
        const bool entrance = s == 1 || s == 11 || s == 21 || s == 31;
        CHECK(is_entrance(s) == entrance);
        CHECK(carries_character(s) == (!entrance && s != kChurch));
        character_squares += carries_character(s);
    }
    CHECK(character_squares == kCharacterSquares);
    CHECK_FALSE(carries_character(0));
    CHECK_FALSE(carries_character(41));
}

TEST_CASE("the activation roll wakes the character of its face [spook][board]") {
    CHECK(character_for_face(1) == Character::hat);
    CHECK(character_for_face(2) == Character::hat);
    CHECK(character_for_face(3) == Character::cat);
    CHECK(character_for_face(4) == Character::spook);
    CHECK(character_for_face(5) == Character::werewolf);
    CHECK(character_for_face(6) == Character::witch);
    CHECK(character_for_face(0) == Character::none);
    CHECK(character_for_face(7) == Character::none);
}

TEST_CASE("each character's action, square by square [spook][board]") {
    struct Case {
        Character c;
        Square from, to;
    };
    const std::vector<Case> cases{
        {Character::hat, 2, 5},      {Character::hat, 8, 11},       {Character::hat, 36, 39},
        {Character::hat, 37, 40},    {Character::hat, 38, 38},      {Character::hat, 39, 39},
        {Character::cat, 2, 1},      {Character::cat, 5, 1},        {Character::cat, 7, 1},
        {Character::cat, 8, 2},      {Character::cat, 17, 11},      {Character::cat, 12, 6},
        {Character::cat, 39, 33},    {Character::spook, 15, 11},    {Character::spook, 5, 1},
        {Character::spook, 10, 1},   {Character::spook, 20, 11},    {Character::spook, 30, 21},
        {Character::spook, 39, 31},  {Character::werewolf, 27, 21}, {Character::werewolf, 36, 31},
        {Character::werewolf, 5, 1}, {Character::werewolf, 12, 11}, {Character::witch, 2, 1},
        {Character::witch, 39, 1},   {Character::witch, 22, 1},
    };
    for (const auto& c : cases) {
        CAPTURE(id_of(c.c));
        CAPTURE(c.from);
        CHECK(action_destination(c.c, c.from) == c.to);
        // The same through a board that carries the character there, for every face that wakes it.
        const Board b = uniform_board(c.c);
        for (Face f = 1; f <= 6; ++f) {
            CAPTURE(f);
            CHECK(b.after_activation(f, c.from) == (character_for_face(f) == c.c ? c.to : c.from));
        }
    }
}

TEST_CASE("a board leaves entrances and the church where they are for every face [spook][board]") {
    std::vector<Board> boards{base_board()};
    for (Character c : kCharacters) boards.push_back(uniform_board(c));
    Rng rng(7);
    for (int i = 0; i < 5; ++i) boards.push_back(Board::random(rng));
    for (const Board& b : boards)
        for (Square s : {1, 11, 21, 31, 40})
            for (Face f = 1; f <= 6; ++f) {
                CAPTURE(b.notation());
                CAPTURE(s);
                CAPTURE(f);
                CHECK(b.at(s) == Character::none);
                CHECK(b.after_activation(f, s) == s);
            }
}

TEST_CASE("a square moves only when its own character is woken [spook][board]") {
    const Board b = base_board();
    for (Square s = 2; s < kChurch; ++s) {
        if (!carries_character(s)) continue;
        for (Face f = 1; f <= 6; ++f) {
            CAPTURE(s);
            CAPTURE(f);
            const Character woken = character_for_face(f);
            CHECK(b.after_activation(f, s) == (b.at(s) == woken ? action_destination(woken, s) : s));
        }
    }
}

TEST_CASE("notation round trip [spook][board]") {
    SUBCASE("the base board") {
        const Board b = base_board();
        CHECK(b.notation() == kBaseNotation);
        CHECK(Board::from_notation(b.notation()) == b);
        CHECK(b.at(2) == Character::hat);
        CHECK(b.at(3) == Character::cat);
        CHECK(b.at(4) == Character::spook);
        CHECK(b.at(5) == Character::werewolf);
        CHECK(b.at(6) == Character::witch);
        CHECK(b.at(1) == Character::none);
        CHECK(b.at(40) == Character::none);
        CHECK(b.has_seven_of_each());
        CHECK_FALSE(b.first_empty_square().has_value());
    }
    SUBCASE("random boards") {
        Rng rng(2024);
        for (int i = 0; i < 50; ++i) {
            const Board b = Board::random(rng);
            const std::string text = b.notation();
            CHECK(text.size() == 40);
            CHECK(text[0] == '.');
            CHECK(text[10] == '.');
            CHECK(text[20] == '.');
            CHECK(text[30] == '.');
            CHECK(text[39] == '+');
            CHECK(Board::from_notation(text) == b);
        }
    }
    SUBCASE("white space and bars between squares are ignored; '.' is accepted for the church") {
        const std::string spaced = ".HCSWXHCSW | .XHCSWXHCS\n.WXHCSWXHC\t.SWXHCSWX+";
        CHECK(Board::from_notation(spaced) == base_board());
        CHECK(Board::from_notation(with_square(kBaseNotation, 40, '.')) == base_board());
    }
    SUBCASE("boards that differ in one square are different") {
        CHECK_FALSE(board_with({{17, Character::hat}}) == base_board());
        CHECK(board_with({{17, Character::hat}}).notation() == with_square(kBaseNotation, 17, 'H'));
    }
}

TEST_CASE("invalid notation is rejected naming the square [spook][board]") {
    SUBCASE("not a character") {
        const auto msg = invalid_argument_of([] { (void)Board::from_notation(with_square(kBaseNotation, 12, 'Q')); });
        CHECK(starts_with(msg, "square 12: "));
        CHECK(msg.find("'Q'") != std::string::npos);
    }
    SUBCASE("lower case is not a character") {
        CHECK(starts_with(invalid_argument_of([] { (void)Board::from_notation(with_square(kBaseNotation, 2, 'h')); }),
                          "square 2: "));
    }
    SUBCASE("a character square left empty") {
        CHECK(starts_with(invalid_argument_of([] { (void)Board::from_notation(with_square(kBaseNotation, 5, '.')); }),
                          "square 5: "));
        CHECK(starts_with(invalid_argument_of([] { (void)Board::from_notation(with_square(kBaseNotation, 39, '+')); }),
                          "square 39: "));
    }
    SUBCASE("a character on an entrance or the church") {
        for (Square s : {1, 11, 21, 31, 40}) {
            CAPTURE(s);
            const auto msg =
                invalid_argument_of([s] { (void)Board::from_notation(with_square(kBaseNotation, s, 'H')); });
            CHECK(starts_with(msg, "square " + std::to_string(s) + ": "));
        }
        CHECK(starts_with(invalid_argument_of([] { (void)Board::from_notation(with_square(kBaseNotation, 11, '+')); }),
                          "square 11: "));
    }
    SUBCASE("the first bad square is named") {
        std::string text = with_square(kBaseNotation, 9, 'Z');
        text = with_square(text, 30, 'Q');
        CHECK(starts_with(invalid_argument_of([&] { (void)Board::from_notation(text); }), "square 9: "));
    }
    SUBCASE("too short or too long") {
        CHECK_THROWS_AS((void)Board::from_notation(std::string(kBaseNotation).substr(0, 39)), std::invalid_argument);
        CHECK_THROWS_AS((void)Board::from_notation(std::string(kBaseNotation) + "H"), std::invalid_argument);
        CHECK_THROWS_AS((void)Board::from_notation(""), std::invalid_argument);
    }
}

TEST_CASE("set puts characters only on character squares [spook][board]") {
    Board b = base_board();
    b.set(17, Character::witch);
    CHECK(b.at(17) == Character::witch);
    CHECK(b.after_activation(6, 17) == 1);  // the cached actions follow the change
    CHECK(b.after_activation(1, 17) == 17);
    b.set(17, Character::hat);
    CHECK(b.after_activation(6, 17) == 17);
    CHECK(b.after_activation(2, 17) == 20);
    for (Square s : {0, 1, 11, 21, 31, 40, 41}) {
        CAPTURE(s);
        const auto msg = invalid_argument_of([&] { b.set(s, Character::hat); });
        CHECK(starts_with(msg, "square " + std::to_string(s) + ": "));
    }
    CHECK(b.at(1) == Character::none);
}

TEST_CASE("counts, empty squares and seven of each [spook][board]") {
    const Board empty;
    REQUIRE(empty.first_empty_square().has_value());
    CHECK(*empty.first_empty_square() == 2);
    CHECK_FALSE(empty.has_seven_of_each());
    Board partial;
    partial.set(2, Character::cat);
    CHECK(*partial.first_empty_square() == 3);

    const Board hats = uniform_board(Character::hat);
    CHECK(hats.count(Character::hat) == 35);
    CHECK(hats.count(Character::witch) == 0);
    CHECK_FALSE(hats.has_seven_of_each());

    const Board b = board_with({{2, Character::cat}});  // 6 hats, 8 cats
    CHECK(b.count(Character::hat) == 6);
    CHECK(b.count(Character::cat) == 8);
    CHECK_FALSE(b.has_seven_of_each());
}

TEST_CASE("random boards have 7 of each character and differ by seed [spook][board]") {
    Rng rng(99);
    std::set<std::string> seen;
    for (int i = 0; i < 200; ++i) {
        const Board b = Board::random(rng);
        CHECK_FALSE(b.first_empty_square().has_value());
        for (Character c : kCharacters) CHECK(b.count(c) == 7);
        CHECK(b.has_seven_of_each());
        seen.insert(b.notation());
    }
    CHECK(seen.size() == 200);

    Rng a(5), again(5), other(6);
    CHECK(Board::random(a) == Board::random(again));
    Rng a2(5);
    CHECK_FALSE(Board::random(a2) == Board::random(other));

    // Every character lands on every square sometimes: the shuffle reaches the whole board.
    Rng spread(11);
    std::map<std::pair<Square, Character>, int> where;
    for (int i = 0; i < 400; ++i) {
        const Board b = Board::random(spread);
        for (Square s = 2; s < kChurch; ++s)
            if (carries_character(s)) ++where[{s, b.at(s)}];
    }
    CHECK(where.size() == 35u * 5u);
}

TEST_CASE("board files [spook][board]") {
    const std::string a = kBaseNotation;
    const std::string b = board_with({{17, Character::hat}}).notation();
    const std::string c = board_with({{39, Character::hat}}).notation();
    auto file = [](std::vector<std::pair<std::string, std::string>> boards) {
        nlohmann::json list = nlohmann::json::array();
        for (auto& [name, squares] : boards) list.push_back({{"name", name}, {"squares", squares}});
        return nlohmann::json{{"boards", list}};
    };

    SUBCASE("a valid file, written back the same") {
        const auto boards = parse_board_file(file({{"Owl", a}, {"Bat", b}, {"Rat", c}}), 3);
        REQUIRE(boards.size() == 3);
        CHECK(boards[0].name == "Owl");
        CHECK(boards[1].name == "Bat");
        CHECK(boards[0].board == base_board());
        CHECK(boards[1].board.notation() == b);
        CHECK(board_file_json(boards) == file({{"Owl", a}, {"Bat", b}, {"Rat", c}}));
        const auto again = parse_board_file(board_file_json(boards));
        REQUIRE(again.size() == 3);
        CHECK(again[2].board == boards[2].board);
    }
    SUBCASE("the name is optional; any number of boards when the player count is 0") {
        nlohmann::json f{{"boards", {{{"squares", a}}, {{"squares", b}}}}};
        const auto boards = parse_board_file(f);
        REQUIRE(boards.size() == 2);
        CHECK(boards[0].name == "board 1");
    }
    SUBCASE("an invalid board names the board and the square") {
        const auto msg = invalid_argument_of([&] {
            (void)parse_board_file(file({{"Owl", a}, {"Bat", with_square(b, 17, 'Q')}}));
        });
        CHECK(msg.find("board 2 (\"Bat\"), square 17") != std::string::npos);
        CHECK(msg.find("'Q'") != std::string::npos);
        const auto empty_square = invalid_argument_of([&] {
            (void)parse_board_file(file({{"Owl", with_square(a, 25, '.')}, {"Bat", b}}));
        });
        CHECK(empty_square.find("board 1 (\"Owl\"), square 25") != std::string::npos);
        const auto on_entrance = invalid_argument_of([&] {
            (void)parse_board_file(file({{"Owl", a}, {"Bat", b}, {"Rat", with_square(c, 21, 'W')}}));
        });
        CHECK(on_entrance.find("board 3 (\"Rat\"), square 21") != std::string::npos);
    }
    SUBCASE("duplicate boards are rejected") {
        const auto msg = invalid_argument_of([&] {
            (void)parse_board_file(file({{"Owl", a}, {"Bat", b}, {"Rat", a}}));
        });
        CHECK(msg.find("board 3 (\"Rat\")") != std::string::npos);
        CHECK(msg.find("board 1") != std::string::npos);
        // Spacing does not make a board different.
        CHECK_THROWS_AS((void)parse_board_file(file({{"Owl", a}, {"Bat", a.substr(0, 10) + " | " + a.substr(10)}})),
                        std::invalid_argument);
    }
    SUBCASE("one board per player") {
        const auto msg = invalid_argument_of([&] { (void)parse_board_file(file({{"Owl", a}, {"Bat", b}}), 3); });
        CHECK(msg.find("2 boards") != std::string::npos);
        CHECK(msg.find("3 players") != std::string::npos);
        CHECK_THROWS_AS((void)parse_board_file(file({{"Owl", a}, {"Bat", b}, {"Rat", c}}), 2), std::invalid_argument);
        CHECK_THROWS_AS((void)parse_board_file(file({})), std::invalid_argument);
        CHECK(parse_board_file(file({{"Owl", a}}), 1).size() == 1);
    }
    SUBCASE("counts of 7 are not required for loaded boards") {
        const std::string hats = uniform_board(Character::hat).notation();
        const std::string witches = uniform_board(Character::witch).notation();
        const auto boards = parse_board_file(file({{"Hats", hats}, {"Witches", witches}}), 2);
        REQUIRE(boards.size() == 2);
        CHECK(boards[0].board.count(Character::hat) == 35);
        CHECK_FALSE(boards[1].board.has_seven_of_each());
    }
    SUBCASE("malformed files") {
        CHECK_THROWS_AS((void)parse_board_file(nlohmann::json::array()), std::invalid_argument);
        CHECK_THROWS_AS((void)parse_board_file(nlohmann::json{{"board", nlohmann::json::array()}}),
                        std::invalid_argument);
        CHECK_THROWS_AS((void)parse_board_file(nlohmann::json{{"boards", 3}}), std::invalid_argument);
        const auto no_squares = invalid_argument_of([] {
            (void)parse_board_file(nlohmann::json{{"boards", {{{"name", "Owl"}}}}});
        });
        CHECK(no_squares.find("board 1 (\"Owl\")") != std::string::npos);
        const auto bad_name = invalid_argument_of([&] {
            (void)parse_board_file(nlohmann::json{{"boards", {{{"name", 5}, {"squares", a}}}}});
        });
        CHECK(bad_name.find("board 1") != std::string::npos);
        const auto unknown = invalid_argument_of([&] {
            (void)parse_board_file(nlohmann::json{{"boards", {{{"name", "Owl"}, {"squares", a}, {"colour", "red"}}}}});
        });
        CHECK(unknown.find("colour") != std::string::npos);
    }
}

TEST_CASE("choose_board_set gives distinct boards for a full table [spook][setup]") {
    for (bool balanced : {true, false}) {
        CAPTURE(balanced);
        for (int pieces = 1; pieces <= 3; ++pieces) {
            CAPTURE(pieces);
            GameOptions o = GameOptions::spook_game(8, pieces);
            o.spook.balanced_boards = balanced;
            Rng rng(static_cast<std::uint64_t>(pieces) * 31 + balanced);
            for (int round = 0; round < 10; ++round) {
                const auto boards = choose_board_set(o, rng);
                REQUIRE(boards.size() == 8);
                std::set<std::string> distinct;
                for (const Board& b : boards) {
                    distinct.insert(b.notation());
                    CHECK(b.has_seven_of_each());
                }
                CHECK(distinct.size() == 8);
                if (balanced) {
                    // Every board comes from the pool for the piece count.
                    std::set<std::string> pool;
                    for (const auto& p : balanced_pool(pieces)) pool.insert(std::string(p.notation));
                    for (const Board& b : boards) CHECK(pool.count(b.notation()) == 1);
                }
                // A game can be set up with them.
                CHECK_NOTHROW(Game(o, boards));
            }
        }
    }
    SUBCASE("a different draw gives a different set") {
        const GameOptions o = GameOptions::spook_game(4, 2);
        Rng r1(1), r2(2);
        CHECK(choose_board_set(o, r1) != choose_board_set(o, r2));
    }
    SUBCASE("invalid options are refused") {
        Rng rng(1);
        CHECK_THROWS_AS((void)choose_board_set(GameOptions::spook_game(9, 2), rng), std::invalid_argument);
        CHECK_THROWS_AS((void)choose_board_set(GameOptions::spook_game(2, 4), rng), std::invalid_argument);
    }
}

TEST_CASE("draw_assignment is a permutation driven by the dice [spook][setup]") {
    SUBCASE("scripted draws give a predictable permutation") {
        // Draw i is in [0, count - i) and swaps position count-1-i with it.
        ScriptedDice zeros;
        for (int i = 0; i < 3; ++i) zeros.push_draw(0);
        // [0 1 2 3] -> swap(3,0) [3 1 2 0] -> swap(2,0) [2 1 3 0] -> swap(1,0) [1 2 3 0]
        CHECK(draw_assignment(4, zeros) == std::vector<int>{1, 2, 3, 0});
        CHECK(zeros.remaining() == 0);

        ScriptedDice identity;
        for (std::uint32_t v : {3u, 2u, 1u}) identity.push_draw(v);
        CHECK(draw_assignment(4, identity) == std::vector<int>{0, 1, 2, 3});

        ScriptedDice swap_ends;
        for (std::uint32_t v : {0u, 2u, 1u}) swap_ends.push_draw(v);
        CHECK(draw_assignment(4, swap_ends) == std::vector<int>{3, 1, 2, 0});
    }
    SUBCASE("the draws are from shrinking ranges") {
        ScriptedDice too_big;
        too_big.push_draw(3);
        too_big.push_draw(3);  // the second draw is from [0, 3)
        CHECK_THROWS_AS((void)draw_assignment(4, too_big), std::logic_error);
    }
    SUBCASE("one board needs no draw") {
        ScriptedDice none;
        CHECK(draw_assignment(1, none) == std::vector<int>{0});
    }
    SUBCASE("seeded dice give every permutation, about equally often") {
        SeededDice dice(42);
        std::map<std::vector<int>, int> counts;
        const int n = 24000;
        for (int i = 0; i < n; ++i) {
            auto p = draw_assignment(4, dice);
            auto sorted = p;
            std::sort(sorted.begin(), sorted.end());
            REQUIRE(sorted == std::vector<int>{0, 1, 2, 3});
            ++counts[p];
        }
        CHECK(counts.size() == 24);
        double chi2 = 0;
        for (const auto& [perm, k] : counts) chi2 += (k - 1000.0) * (k - 1000.0) / 1000.0;
        CHECK(chi2 < 60.0);  // 23 degrees of freedom: p < 1e-4 that a fair shuffle exceeds this
        for (int count = 1; count <= 8; ++count) {
            auto p = draw_assignment(count, dice);
            std::sort(p.begin(), p.end());
            for (int k = 0; k < count; ++k) CHECK(p[static_cast<std::size_t>(k)] == k);
        }
    }
}

TEST_CASE("balance_spread [spook][setup]") {
    CHECK(balance_spread(std::vector<double>{}) == 0.0);
    CHECK(balance_spread(std::vector<double>{30.0}) == 0.0);
    CHECK(balance_spread(std::vector<double>{30.0, 30.6, 30.3}) == doctest::Approx(0.02));
    CHECK(balance_spread(std::vector<double>{40.0, 20.0}) == doctest::Approx(1.0));
}

TEST_CASE("names of characters and regions [spook][board]") {
    CHECK(name_of(Character::hat) == "Wizard's Hat");
    CHECK(name_of(Character::cat) == "Black Cat");
    CHECK(name_of(Region::creepy_cornfield) == "Creepy Cornfield");
    for (Character c : kCharacters) {
        REQUIRE(parse_character_id(id_of(c)).has_value());
        CHECK(*parse_character_id(id_of(c)) == c);
        CHECK_FALSE(action_of(c).empty());
    }
    CHECK_FALSE(parse_character_id("ghost").has_value());
    CHECK(letter_of(Character::witch) == 'X');
}

TEST_CASE("a game holds its boards shared: its copies and the seats it gives them read one board, and the checks stay [spook][setup]") {
    const std::vector<SharedBoard> published = share({base_board(), board_with({{2, Character::cat}})});
    const auto by_seat = boards_by_seat(published, {1, 0});
    CHECK(by_seat[0] == published[1]);  // the same object, not a copy
    Game g(spook_options(2, 2), by_seat);
    const Game copy = g;  // a bot's look-ahead copies the game
    CHECK(&copy.board(0) == &g.board(0));
    CHECK(&g.board(0) == published[1].get());
    CHECK(g.board(0).at(2) == Character::cat);

    // Two objects with the same squares are still the same board, and a missing one is named.
    auto twice = share({base_board(), base_board()});
    CHECK_THROWS_WITH_AS(Game(spook_options(2, 2), twice), "board 2 is the same as board 1: the boards of a game must all differ",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(Game(spook_options(2, 2), std::vector<SharedBoard>{published[0], nullptr}), "board 2: missing",
                         std::invalid_argument);
}
