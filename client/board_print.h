#pragma once
// The Spook boards printed for a game played on the table (spookludo boards --print): a PDF, one
// board a page (A4 or US Letter), each with its player's name, the four regions named, the
// square numbers, every square's character as a black-and-white picture and its word, and the
// legend (the die's roll, the character, what it does). Drawn with pdf_writer.h.
#include <string>
#include <vector>

#include "pdf_writer.h"
#include "spookludo/spook/board.h"

namespace spookludo::cli {

struct BoardPage {
    std::string player;    // the page's title: whose board it is
    std::string subtitle;  // under it, e.g. "Board A" or "room K7QXM, seat 2"
    spook::Board board;
};

// The whole PDF file.
std::string boards_pdf(const std::vector<BoardPage>& pages, pdf::PageSize size);

}  // namespace spookludo::cli
