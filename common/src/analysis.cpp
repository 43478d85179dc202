// The analysis document's frame, shared by both games (analysis.h); each game's part is in
// analysis_spook.cpp and analysis_ludo.cpp.
#include "spookludo/analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace spookludo {

namespace analysis_detail {

std::vector<int> room_seats(const GameRecord& record) {
    std::vector<int> seats;
    for (std::size_t i = 0; i < record.seats.size(); ++i)
        seats.push_back(record.seats[i].room_seat.value_or(static_cast<int>(i)));
    // Room seats must be distinct and sane; otherwise the players' own numbers.
    std::vector<int> sorted = seats;
    std::sort(sorted.begin(), sorted.end());
    const bool usable = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end() &&
                        (sorted.empty() || (sorted.front() >= 0 && sorted.back() < 64));
    if (!usable)
        for (std::size_t i = 0; i < seats.size(); ++i) seats[i] = static_cast<int>(i);
    return seats;
}

double rounded(double v) {
    if (!std::isfinite(v)) return 0;
    return std::round(v * 10000.0) / 10000.0;
}

nlohmann::json decision_head(std::size_t step, int room_seat, std::optional<int> round, std::optional<int> turn,
                             ChoiceMaker maker, bool bot_seat) {
    nlohmann::json d;
    d["step"] = step;
    d["seat"] = room_seat;
    d["round"] = round ? nlohmann::json(*round) : nlohmann::json(nullptr);
    d["turn"] = turn ? nlohmann::json(*turn) : nlohmann::json(nullptr);
    d["by"] = maker == ChoiceMaker::player && bot_seat ? std::string("bot") : std::string(to_string(maker));
    return d;
}

}  // namespace analysis_detail

nlohmann::json analyse(const GameRecord& record, const AnalysisOptions& options) {
    using nlohmann::json;
    if (record.options.table)
        throw std::invalid_argument("a game at one table has no moves to analyse: its coins were never seen");
    if (static_cast<int>(record.seats.size()) != record.options.players)
        throw std::invalid_argument("the record has " + std::to_string(record.seats.size()) + " seats for " +
                                    std::to_string(record.options.players) + " players");
    const std::vector<int> seats = analysis_detail::room_seats(record);
    json out;
    out["format"] = "spookludo-analysis";
    out["version"] = 1;
    out["game_id"] = options.game_id;
    out["game"] = std::string(to_string(record.options.game));
    out["status"] = std::string(to_string(record.result.status));
    out["options"] = record.options;
    const int span = seats.empty() ? 0 : *std::max_element(seats.begin(), seats.end()) + 1;
    json names = json::array();
    for (int s = 0; s < span; ++s) names.push_back("");
    json bots = json::array();
    for (std::size_t i = 0; i < record.seats.size(); ++i) {
        names[static_cast<std::size_t>(seats[i])] = record.seats[i].name;
        if (record.seats[i].bot) bots.push_back(seats[i]);
    }
    out["names"] = std::move(names);
    out["bots"] = std::move(bots);
    json winners = json::array();
    for (int w : record.result.winners)
        if (w >= 0 && w < static_cast<int>(seats.size())) winners.push_back(seats[static_cast<std::size_t>(w)]);
    out["winners"] = std::move(winners);
    out["players"] = seats;
    out["length"] = record.result.length;
    out["cut"] = false;
    out["steps"] = json::array();
    out["decisions"] = json::array();
    out["summary"] = json::array();
    if (record.options.game == GameKind::spook)
        analysis_detail::analyse_spook(record, options, out);
    else
        analysis_detail::analyse_ludo(record, options, out);
    return out;
}

namespace {

std::string number_text(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string ordinal(int n) {
    const int tens = n % 100;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

std::string move_text(const nlohmann::json& move, bool spook) {
    std::string text = "piece " + std::to_string(move.value("piece", 0) + 1) + " to " + std::to_string(move.value("to", 0));
    if (spook && move.contains("square")) text += " (" + move["square"].get<std::string>() + ")";
    return text;
}

}  // namespace

std::string decision_line(const nlohmann::json& analysis, const nlohmann::json& d) {
    const bool spook = analysis.value("game", "") == "spook";
    const int seat = d.value("seat", 0);
    std::string name = "seat " + std::to_string(seat + 1);
    if (const auto& names = analysis["names"]; names.is_array() && seat >= 0 && seat < static_cast<int>(names.size()) &&
                                               !names[static_cast<std::size_t>(seat)].get<std::string>().empty())
        name = names[static_cast<std::size_t>(seat)].get<std::string>();
    const std::string unit = d.value("unit", "");
    const double cost = d.value("cost", 0.0);
    std::string line = name + " moved " + move_text(d["chosen"], spook);
    if (d.value("rank", 1) == 1 && cost < 1e-9) return line + ": the best move";
    line += "; best was " + move_text(d["best"], spook);
    if (unit == "rounds") return line + ": cost " + number_text(cost, 2) + " rounds";
    if (unit == "points") return line + ": cost " + number_text(cost, 1) + " points of the chance to win";
    return line + ": the " + ordinal(d.value("rank", 1)) + " best of " + std::to_string(d.value("of", 1)) + " moves";
}

}  // namespace spookludo
