#pragma once
// A game replayed from its record with its analysis (spookludo/analysis.h): for every step of the
// timeline, the boards as they stood after it (a GameView fed the step's position, drawn by the
// play screen's own code), the story of the step in the reader's language (the same lines the
// play screen writes, from the step's moves and events), and the analysis's lines for its
// decisions; and the per-player summary. What `spookludo replay` shows and prints. No network,
// no terminal: unit-tested.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spookludo/record.h"
#include "view.h"

namespace spookludo::client {

class ReplayBook {
public:
    // `analysis`: analyse(record) (or the server's GET /analysis/<id>, the same document).
    ReplayBook(GameRecord record, nlohmann::json analysis);

    const GameRecord& record() const noexcept { return record_; }
    const nlohmann::json& analysis() const noexcept { return analysis_; }
    bool spook() const noexcept { return record_.options.game == GameKind::spook; }
    int steps() const noexcept { return static_cast<int>(analysis_["steps"].size()); }
    const nlohmann::json& step(int i) const { return analysis_["steps"][static_cast<std::size_t>(i)]; }

    // The boards after step i, to draw with render_spook_boards / render_ludo_board.
    GameView view_at(int i) const;
    // "Round 4, movement roll" / "Throw 57" / "The roll-off": the step's heading.
    std::string heading(int i) const;
    // The story of step i, in the reader's language.
    const std::vector<std::string>& story(int i) const { return story_[static_cast<std::size_t>(i)]; }
    // The analysis of step i's decisions, one line each: "Ann moved piece 1 to 9 (Black Cat); best
    // was piece 2 to 6 (Wizard's Hat): cost 1.40 rounds".
    std::vector<std::string> decision_lines(int i) const;
    // The per-player summary: what was expected, what the choices cost, how the dice went.
    std::vector<std::string> summary_lines() const;

    // Moving about the timeline. The round (Spook) or turn (a player's throws in a row, Ludo) of a
    // step; the first step of the next or previous one (clamped to the ends).
    int next_round(int i) const;
    int previous_round(int i) const;
    // The first step of round `number` (Spook) or the throw `number` (Ludo); -1 when there is none.
    int step_of(int number) const;
    // The next step after i holding a decision (-1 when none).
    int next_decision(int i) const;

private:
    std::string name(int room_seat) const;
    int round_key(int i) const;  // what next_round groups by

    GameRecord record_;
    nlohmann::json analysis_;
    std::vector<std::vector<std::string>> story_;
    std::vector<int> keys_;  // by step: its round (Spook) or turn (Ludo)
    nlohmann::json seats_;  // the snapshot's seats
};

}  // namespace spookludo::client
