#include "replay_book.h"

#include <cmath>
#include <cstdio>

#include "game_words.h"
#include "i18n.h"
#include "spookludo/spook/board.h"

namespace spookludo::client {

using nlohmann::json;

namespace {

std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string signed_fixed(double v, int decimals) {
    const std::string text = fixed(v, decimals);
    return v >= 0 && text.find_first_not_of("0.") != std::string::npos ? "+" + text : text;
}

// What stands on a Spook square a move ends on ("church", "entrance" or a character's id).
std::string square_word(const json& move) {
    const std::string id = move.value("square", "");
    if (id == "church") return tr("the church");
    if (id == "entrance") return tr("an entrance");
    return character_name(id);
}

// "2nd", "3rd", "4th": a move's rank (never the 1st: that is the best move).
std::string ordinal(int n) {
    if (n == 2) return tr("2nd");
    if (n == 3) return tr("3rd");
    return tr("{n}th", {{"n", std::to_string(n)}});
}

int int_or(const json& j, const char* key, int fallback) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

}  // namespace

ReplayBook::ReplayBook(GameRecord record, json analysis) : record_(std::move(record)), analysis_(std::move(analysis)) {
    seats_ = json::array();
    const json& names = analysis_["names"];
    for (std::size_t seat = 0; seat < names.size(); ++seat) {
        const std::string n = names[seat].get<std::string>();
        json s{{"seat", static_cast<int>(seat)}, {"name", n}, {"bot", false}};
        if (n.empty()) s["free"] = true;
        seats_.push_back(std::move(s));
    }
    for (const auto& b : analysis_.value("bots", json::array()))
        if (b.is_number_integer() && b.get<std::size_t>() < seats_.size()) seats_[b.get<std::size_t>()]["bot"] = true;

    // The story, step by step: the play screen's own lines, from the messages a room would have
    // sent for each step.
    GameView story = view_at(0);
    std::size_t cursor = story.log_count();
    const bool is_spook = spook();
    for (int i = 0; i < steps(); ++i) {
        const json& s = step(i);
        const std::string kind = s.value("kind", "");
        if (kind == "assignment" || kind == "roll_off") {
            json started{{"type", "game_started"}, {"game_id", analysis_.value("game_id", "")}, {"options", record_.options},
                         {"players", analysis_["players"]}};
            if (kind == "assignment") {
                json by_seat = json::array();
                for (std::size_t seat = 0; seat < seats_.size(); ++seat) by_seat.push_back(-1);
                const auto& players = analysis_["players"];
                const auto& boards = s["assignment"];
                for (std::size_t p = 0; p < players.size() && p < boards.size(); ++p)
                    by_seat[players[p].get<std::size_t>()] = boards[p];
                started["assignment"] = std::move(by_seat);
            }
            story.apply(started);
        }
        if (kind == "movement") {
            story.apply(json{{"type", "roll"}, {"round", s["round"]}, {"face", s["face"]}});
            if (s.contains("moves")) story.apply(json{{"type", "moves"}, {"round", s["round"]}, {"moves", s["moves"]}});
        } else if (kind == "activation") {
            const auto c = spook::parse_character_id(s.value("character", ""));
            story.apply(json{{"type", "activation"},
                             {"round", s["round"]},
                             {"face", s["face"]},
                             {"character", s["character"]},
                             {"name", c ? std::string(spook::name_of(*c)) : std::string()},
                             {"action", c ? std::string(spook::action_of(*c)) : std::string()},
                             {"moved", s.value("moved", json::array())},
                             {"finished", s.value("finished", json::array())}});
        } else if (kind == "roll_off") {
            story.apply(json{{"type", "roll_off"}, {"starts", s["seat"]}, {"events", s.value("events", json::array())}});
        } else if (kind == "throw") {
            story.apply(json{{"type", "throw"},
                             {"turn", s["turn"]},
                             {"seat", s["seat"]},
                             {"face", s["face"]},
                             {"events", s.value("events", json::array())}});
        }
        std::vector<std::string> lines = story.lines_since(cursor);
        if (i + 1 == steps()) {
            if (analysis_.value("status", "") == "abandoned") {
                lines.push_back(tr("The game was abandoned here."));
            } else if (analysis_.value("status", "") == "finished") {
                std::vector<std::string> winners;
                for (const auto& w : analysis_["winners"]) winners.push_back(name(w.get<int>()));
                lines.push_back(game_over_sentence(winners, analysis_.value("length", 0), is_spook,
                                                   !is_spook && record_.options.ludo.teams));
            }
        }
        story_.push_back(std::move(lines));
        // What moving by round groups: Spook's rounds; Ludo's turns, a player's throws in a row.
        if (is_spook)
            keys_.push_back(int_or(s, "round", 0));
        else
            keys_.push_back(i == 0 ? 0
                                   : keys_.back() + (int_or(s, "seat", -1) != int_or(step(i - 1), "seat", -1) ||
                                                     step(i - 1).value("kind", "") == "roll_off"));
    }
}

std::string ReplayBook::name(int room_seat) const {
    const json& names = analysis_["names"];
    if (room_seat >= 0 && room_seat < static_cast<int>(names.size())) {
        const std::string n = names[static_cast<std::size_t>(room_seat)].get<std::string>();
        if (!n.empty()) return n;
    }
    return tr("seat {seat}", {{"seat", std::to_string(room_seat + 1)}});
}

GameView ReplayBook::view_at(int i) const {
    GameView view;
    if (i < 0 || i >= steps()) return view;
    json room{{"type", "room"},
              {"room", ""},
              {"state", "playing"},
              {"paused", false},
              {"options", record_.options},
              {"settings", json::object()},
              {"host", -1},
              {"seats", seats_},
              {"spectators", 0},
              {"server_time_ms", 0},
              {"game_id", analysis_.value("game_id", "")},
              {"game", step(i)["position"]}};
    if (!record_.boards.empty()) room["boards"] = record_.boards;
    view.apply(room);
    return view;
}

std::string ReplayBook::heading(int i) const {
    const json& s = step(i);
    const std::string kind = s.value("kind", "");
    const std::string round = std::to_string(int_or(s, "round", 0)), face = std::to_string(int_or(s, "face", 0));
    if (kind == "assignment") return tr("The boards are dealt");
    if (kind == "movement") return tr("Round {round}: the movement roll, {face}", {{"round", round}, {"face", face}});
    if (kind == "activation") return tr("Round {round}: the activation roll, {face}", {{"round", round}, {"face", face}});
    if (kind == "roll_off") return tr("The roll-off");
    return tr("Throw {turn}: {name} throws {face}",
              {{"turn", std::to_string(int_or(s, "turn", 0))}, {"name", name(int_or(s, "seat", 0))}, {"face", face}});
}

std::vector<std::string> ReplayBook::decision_lines(int i) const {
    std::vector<std::string> lines;
    for (const auto& index : step(i)["decisions"]) {
        const json& d = analysis_["decisions"][index.get<std::size_t>()];
        const json& chosen = d["chosen"];
        const json& best = d["best"];
        const std::string who = name(int_or(d, "seat", 0)), unit = d.value("unit", "");
        const std::string piece = std::to_string(int_or(chosen, "piece", 0) + 1), best_piece = std::to_string(int_or(best, "piece", 0) + 1);
        const double cost = d.value("cost", 0.0);
        const bool is_best = int_or(d, "rank", 1) == 1 && cost < 1e-9;
        if (unit == "rounds") {
            const std::string to = std::to_string(int_or(chosen, "to", 0)), square = square_word(chosen);
            if (is_best)
                lines.push_back(tr("{name} moved piece {piece} to {to} ({square}): the best move.",
                                   {{"name", who}, {"piece", piece}, {"to", to}, {"square", square}}));
            else
                lines.push_back(tr("{name} moved piece {piece} to {to} ({square}); best was piece {best} to {best_to} "
                                   "({best_square}): cost {cost} rounds.",
                                   {{"name", who},
                                    {"piece", piece},
                                    {"to", to},
                                    {"square", square},
                                    {"best", best_piece},
                                    {"best_to", std::to_string(int_or(best, "to", 0))},
                                    {"best_square", square_word(best)},
                                    {"cost", fixed(cost, 2)}}));
        } else if (is_best) {
            lines.push_back(tr("{name} moved piece {piece}: the best move.", {{"name", who}, {"piece", piece}}));
        } else if (unit == "points") {
            lines.push_back(tr("{name} moved piece {piece}; best was piece {best}: cost {cost} points of the chance to win.",
                               {{"name", who}, {"piece", piece}, {"best", best_piece}, {"cost", fixed(cost, 1)}}));
        } else {
            lines.push_back(tr("{name} moved piece {piece}; best was piece {best}: the {rank} best of {of} moves.",
                               {{"name", who},
                                {"piece", piece},
                                {"best", best_piece},
                                {"rank", ordinal(int_or(d, "rank", 1))},
                                {"of", std::to_string(int_or(d, "of", 1))}}));
        }
    }
    return lines;
}

std::vector<std::string> ReplayBook::summary_lines() const {
    std::vector<std::string> lines;
    for (const auto& s : analysis_["summary"]) {
        const std::string who = name(int_or(s, "seat", 0)), unit = s.value("unit", "");
        const json& finish = s["finish"];
        const json& worst = s["worst"];
        const int decisions = int_or(s, "decisions", 0);
        const double cost = s.value("cost", 0.0);
        const bool placed = finish.contains("place") && finish["place"].is_number_integer();
        const std::string place = placed ? std::to_string(finish["place"].get<int>()) : std::string();
        if (unit == "rounds") {
            const std::string start = fixed(s["start"].value("expected_rounds", 0.0), 1);
            if (finish["round"].is_number_integer())
                lines.push_back(tr("{name}: expected to finish in {start} rounds; finished in round {round}.",
                                   {{"name", who}, {"start", start}, {"round", std::to_string(finish["round"].get<int>())}}));
            else
                lines.push_back(tr("{name}: expected to finish in {start} rounds; did not finish (about {end} rounds by "
                                   "the end).",
                                   {{"name", who}, {"start", start}, {"end", fixed(finish.value("expected_round", 0.0), 1)}}));
        } else if (unit == "points") {
            const std::string start = fixed(100 * s["start"].value("win_chance", 0.0), 1);
            if (placed)
                lines.push_back(tr("{name}: a {start} per cent chance to win at the start; place {place}.",
                                   {{"name", who}, {"start", start}, {"place", place}}));
            else
                lines.push_back(tr("{name}: a {start} per cent chance to win at the start; {end} per cent when the game stopped.",
                                   {{"name", who}, {"start", start}, {"end", fixed(100 * finish.value("win_chance", 0.0), 1)}}));
        } else {
            lines.push_back(placed ? tr("{name}: place {place}.", {{"name", who}, {"place", place}})
                                   : tr("{name}: no place (the game was abandoned).", {{"name", who}}));
        }
        // The choices.
        if (decisions == 0) {
            lines.push_back("  " + tr("No choices to make."));
        } else if (unit == "rank") {
            lines.push_back("  " + trn("{best} of {n} choice was the best move.", "{best} of {n} choices were the best move.",
                                       decisions, {{"best", std::to_string(int_or(s, "best_choices", 0))}}));
        } else if (worst.is_null()) {
            lines.push_back("  " + trn("{n} choice, the best one.", "{n} choices, every one the best.", decisions));
        } else if (unit == "rounds") {
            lines.push_back("  " + trn("{n} choice cost {cost} rounds; the worst, in round {round}, {worst}.",
                                       "{n} choices cost {cost} rounds in all; the worst, in round {round}, {worst}.",
                                       decisions,
                                       {{"cost", fixed(cost, 2)},
                                        {"round", std::to_string(int_or(worst, "round", 0))},
                                        {"worst", fixed(worst.value("cost", 0.0), 2)}}));
        } else {
            lines.push_back("  " + trn("{n} choice cost {cost} points of the chance to win; the worst, at throw {turn}, {worst}.",
                                       "{n} choices cost {cost} points of the chance to win in all; the worst, at throw "
                                       "{turn}, {worst}.",
                                       decisions,
                                       {{"cost", fixed(cost, 1)},
                                        {"turn", std::to_string(int_or(worst, "turn", 0))},
                                        {"worst", fixed(worst.value("cost", 0.0), 1)}}));
        }
        // The luck.
        if (unit == "rounds") {
            const double luck = s.value("luck", 0.0);
            const json& parts = s["luck_parts"];
            const TrArgs args{{"luck", fixed(std::abs(luck), 2)},
                              {"movement", signed_fixed(parts.value("movement", 0.0), 2)},
                              {"activation", signed_fixed(parts.value("activation", 0.0), 2)}};
            lines.push_back("  " + (luck >= 0 ? tr("Luck: the dice gave {luck} rounds (movement rolls {movement}, "
                                                   "activation rolls {activation}).",
                                                   args)
                                              : tr("Luck: the dice cost {luck} rounds (movement rolls {movement}, "
                                                   "activation rolls {activation}).",
                                                   args)));
        } else if (unit == "points") {
            lines.push_back("  " + tr("Luck (the dice and the others' moves): {luck} points of the chance to win.",
                                      {{"luck", signed_fixed(s.value("luck", 0.0), 1)}}));
        }
        if (s.contains("dice")) {
            const json& dice = s["dice"];
            lines.push_back("  " + tr("Dice: {sixes} sixes in {throws} throws ({expected} expected).",
                                      {{"sixes", std::to_string(int_or(dice, "sixes", 0))},
                                       {"throws", std::to_string(int_or(dice, "throws", 0))},
                                       {"expected", fixed(dice.value("expected_sixes", 0.0), 1)}}));
        }
    }
    return lines;
}

int ReplayBook::round_key(int i) const { return keys_[static_cast<std::size_t>(i)]; }

int ReplayBook::next_round(int i) const {
    const int key = round_key(i);
    for (int j = i + 1; j < steps(); ++j)
        if (round_key(j) != key) return j;
    return steps() - 1;
}

int ReplayBook::previous_round(int i) const {
    if (i <= 0) return 0;
    const int key = round_key(i);
    int first = i;
    while (first > 0 && round_key(first - 1) == key) --first;
    if (first < i) return first;
    const int before = round_key(i - 1);
    first = i - 1;
    while (first > 0 && round_key(first - 1) == before) --first;
    return first;
}

int ReplayBook::step_of(int number) const {
    for (int j = 0; j < steps(); ++j)
        if (int_or(step(j), spook() ? "round" : "turn", -1) == number) return j;
    return -1;
}

int ReplayBook::next_decision(int i) const {
    for (int j = i + 1; j < steps(); ++j)
        if (!step(j)["decisions"].empty()) return j;
    return -1;
}

}  // namespace spookludo::client
