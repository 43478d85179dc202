#include "spookludo/game_view.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "spookludo/json_lenient.h"
#include "spookludo/ludo/game.h"
#include "spookludo/spook/game.h"

namespace spookludo {

using nlohmann::json;

namespace {

using json_lenient::get;

std::vector<int> seats_of(const std::vector<int>& room_seats, int players) {
    if (static_cast<int>(room_seats.size()) == players) return room_seats;
    std::vector<int> seats;
    for (int s = 0; s < players; ++s) seats.push_back(s);
    return seats;
}

}  // namespace

void to_json(json& j, const SpookView& m) {
    json finished = json::array();
    for (const auto& f : m.finished_round) finished.push_back(f ? json(*f) : json(nullptr));
    j = {{"players", m.players}, {"round", m.round}, {"phase", m.phase}, {"boards", m.boards},
         {"positions", m.positions}, {"finished_round", finished}};
    if (m.roll) j["roll"] = *m.roll;
}
void from_json(const json& j, SpookView& m) {
    get(j, "players", m.players);
    get(j, "round", m.round);
    get(j, "phase", m.phase);
    get(j, "roll", m.roll);
    get(j, "boards", m.boards);
    get(j, "positions", m.positions);
    m.finished_round.clear();
    if (auto it = j.find("finished_round"); it != j.end() && it->is_array())
        for (const auto& f : *it) m.finished_round.push_back(f.is_null() ? std::nullopt : std::optional<int>(f.get<int>()));
}

void to_json(json& j, const LudoView& m) {
    j = {{"players", m.players}, {"position", m.position}, {"phase", m.phase}, {"current_seat", m.current_seat},
         {"turn", m.turn}};
    if (m.face) j["face"] = *m.face;
}
void from_json(const json& j, LudoView& m) {
    get(j, "players", m.players);
    get(j, "position", m.position);
    get(j, "phase", m.phase);
    get(j, "current_seat", m.current_seat);
    get(j, "turn", m.turn);
    get(j, "face", m.face);
}

SpookView spook_view(const spook::Game& game, const std::vector<int>& room_seats) {
    SpookView v;
    v.players = seats_of(room_seats, game.players());
    v.round = game.round();
    v.phase = std::string(spook::to_string(game.phase()));
    v.roll = game.movement_roll();
    const auto span = static_cast<std::size_t>(*std::max_element(v.players.begin(), v.players.end()) + 1);
    v.boards.resize(span);
    v.positions.resize(span);
    v.finished_round.resize(span);
    for (int s = 0; s < game.players(); ++s) {
        const auto at = static_cast<std::size_t>(v.players[static_cast<std::size_t>(s)]);
        v.boards[at] = game.board(s).notation();
        const auto pos = game.player(s).positions();
        v.positions[at].assign(pos.begin(), pos.end());
        v.finished_round[at] = game.player(s).finished_round;
    }
    return v;
}

LudoView ludo_view(const ludo::Game& game, const std::vector<int>& room_seats) {
    LudoView v;
    v.players = seats_of(room_seats, game.players());
    v.position = game.position();
    v.phase = std::string(ludo::to_string(game.phase()));
    const int current = game.current_seat();
    v.current_seat = current >= 0 && current < game.players() ? v.players[static_cast<std::size_t>(current)] : current;
    v.turn = game.turns();
    if (game.phase() == ludo::Phase::awaiting_choice) v.face = game.face();
    return v;
}

}  // namespace spookludo
