// Board files (spookludo boards --check FILE, spookludo sim --boards FILE): JSON text read as the
// client reads it, then spook::parse_board_file, and for a file that reads, the report the
// client prints (character counts and expected finish under best play, spook::report_boards).
// Invariants: nothing but the documented exceptions leaves the reader; every board it accepts is
// fully filled and prints back to a notation that reads as the same board; the boards differ;
// a file written back (board_file_json) reads as the same boards and names.
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz.h"
#include "spookludo/spook/board.h"
#include "spookludo/spook/setup.h"

namespace spook = spookludo::spook;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    spookludo::fuzz::Bytes in(data, size);
    const int pieces = in.in(0, 3);  // 0: no report
    const std::string_view text = in.rest();
    nlohmann::json file;
    try {
        file = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        // Not JSON (a parse error, or a number out of range: the client reports either). The
        // notation alone, then, as a board of a file.
        try {
            const spook::Board board = spook::Board::from_notation(text);
            FUZZ_CHECK(spook::Board::from_notation(board.notation()) == board, board.notation());
        } catch (const std::invalid_argument&) {
        }
        return 0;
    }
    std::vector<spook::NamedBoard> boards;
    try {
        boards = spook::parse_board_file(file);
    } catch (const std::invalid_argument& e) {
        FUZZ_CHECK(e.what()[0] != '\0', "an empty reason");
        return 0;
    }
    FUZZ_CHECK(!boards.empty(), "");
    std::vector<spook::Board> plain;
    for (const auto& b : boards) {
        FUZZ_CHECK(!b.board.first_empty_square(), b.board.notation());
        FUZZ_CHECK(spook::Board::from_notation(b.board.notation()) == b.board, b.board.notation());
        int characters = 0;
        for (auto c : spook::kCharacters) characters += b.board.count(c);
        FUZZ_CHECK(characters == spook::kCharacterSquares, b.board.notation());
        for (const auto& other : plain) FUZZ_CHECK(!(other == b.board), b.board.notation());
        plain.push_back(b.board);
    }
    const auto back = spook::parse_board_file(spook::board_file_json(boards), static_cast<int>(boards.size()));
    FUZZ_CHECK(back.size() == boards.size(), "");
    for (std::size_t i = 0; i < back.size(); ++i) {
        FUZZ_CHECK(back[i].name == boards[i].name, back[i].name);
        FUZZ_CHECK(back[i].board == boards[i].board, back[i].board.notation());
    }
    if (pieces > 0 && plain.size() <= 2) {  // solving is the slow part: a board or two per input
        const auto report = spook::report_boards(plain, pieces);
        FUZZ_CHECK(report.boards.size() == plain.size(), "");
        for (const auto& entry : report.boards) FUZZ_CHECK(entry.expected_finish > 0, std::to_string(entry.expected_finish));
        FUZZ_CHECK(report.spread >= 0, std::to_string(report.spread));
    }
    return 0;
}
