#pragma once
// The analysis of a played game, from its record (docs/analysis.md): the timeline (every step in
// order with its dice and the position after it, in the shape of a room snapshot's "game"), every
// real choice weighed against the best one, and per player what the choices cost and how the
// dice went (luck), so that cost and luck explain the difference between the start's expectation
// and the finish. Pure: the same document for the server's GET /analysis/<id>, the terminal's
// `spookludo replay` and the web replay page.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "spookludo/record.h"

namespace spookludo {

namespace spook {
class Board;
class Solution;
}  // namespace spook

struct AnalysisOptions {
    // The game's id, for the document's "game_id" (a record does not hold it).
    std::string game_id;
    // Spook: where a board's solution comes from (a server's shared cache); empty: solved here,
    // each board once.
    std::function<std::shared_ptr<const spook::Solution>(const spook::Board&, int pieces, int need)> solve;
    // At most this many steps are analysed (a record longer than any real game is cut there,
    // "cut": true): what one analysis may cost is bounded.
    int max_steps = 20000;
};

// The analysis document (docs/analysis.md, PROTOCOL.md "GET /analysis/<id>"). Throws
// std::invalid_argument for a record that cannot be replayed (a table game, boards or draws that
// do not fit the rules): verify() names what is wrong with such a record.
nlohmann::json analyse(const GameRecord& record, const AnalysisOptions& options = {});

// The parts of the document, for whoever reads it (the terminal's replay, tests). A decision's
// English line for logs: "Ann moved piece 1 to 9 (cat); best was piece 2 to 6 (hat): cost 1.4
// rounds", "... the 2nd best of 3 moves".
std::string decision_line(const nlohmann::json& analysis, const nlohmann::json& decision);

namespace analysis_detail {
// Each game's part (analysis_spook.cpp, analysis_ludo.cpp): fill "steps", "decisions", "summary".
void analyse_spook(const GameRecord& record, const AnalysisOptions& options, nlohmann::json& out);
void analyse_ludo(const GameRecord& record, const AnalysisOptions& options, nlohmann::json& out);
// Room seats of the record's players (in play order): room_seat, or the player's number.
std::vector<int> room_seats(const GameRecord& record);
// A value rounded to 4 decimals, for the document.
double rounded(double v);
// A decision's first fields, both games alike: its step, room seat, round (Spook) or turn (Ludo),
// and who chose ("bot" for a bot's seat, else the record's maker: player, timeout, away).
nlohmann::json decision_head(std::size_t step, int room_seat, std::optional<int> round, std::optional<int> turn,
                             ChoiceMaker maker, bool bot_seat);
}  // namespace analysis_detail

}  // namespace spookludo
