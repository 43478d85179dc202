// A table game (options.table, README, "A game at one table"): people at one table with paper boards
// and coins; the server throws the fair dice and announces them. The host's page and phones at
// the table send client seeds while the seed window is open (from the start to the host's first
// "next"); each "next" (or the table's own pace, settings.table_pace_ms) throws; the host skips a
// turn (Ludo) and ends the game by naming the winners. The game itself is table_game.cpp's.
#include "room_impl.h"

namespace spookludo::server {

namespace {
constexpr std::size_t kMaxTableSeedsInRoom = static_cast<std::size_t>(kMaxTableSeeds);
}

// A client seed for a table game: the host's page ("host's page" unless it says), or anyone
// watching (a phone at the table: it names itself with "by"). One per connection.
void RoomImpl::table_seed(const std::shared_ptr<Peer>& peer, protocol::SubmitClientSeed& m) {
    const bool host = seat_of(peer) == host_ && host_ >= 0;
    if (!host && seat_of(peer) < 0 && !is_spectator(peer))
        return error(peer, ErrorCode::not_in_room, "watch the room to add a client seed", "client_seed",
                     {{"reason", "seed"}});
    if (std::find(table_seed_peers_.begin(), table_seed_peers_.end(), peer->id()) != table_seed_peers_.end())
        return error(peer, ErrorCode::wrong_state, "your client seed is already in", "client_seed", {{"reason", "seed_in"}});
    if (table_seeds_.size() >= kMaxTableSeedsInRoom)
        return error(peer, ErrorCode::wrong_state,
                     "the table has " + std::to_string(kMaxTableSeeds) + " client seeds already: that is the most",
                     "client_seed", {{"reason", "seeds_full"}, {"max", kMaxTableSeeds}});
    if (auto err = check_client_seed(m.seed))
        return error(peer, ErrorCode::bad_field, "seed: " + *err, "client_seed", {{"field", "seed"}});
    std::string by = !m.by.empty() ? m.by : host ? "host's page" : "a phone at the table";
    for (const auto& [who, seed] : table_seeds_)
        if (who == by) by += " (" + std::to_string(table_seeds_.size() + 1) + ")";
    table_seeds_.emplace_back(by, m.seed);
    table_seed_peers_.push_back(peer->id());
    event("table_seed", {{"by", by}, {"seed", m.seed}});
    send(peer, ClientSeedAccepted{});
    notice("seed", nullptr, "a client seed from " + by + " is in", {{"by", by}});
    broadcast_snapshot();
}

// The seed window closes: the stream is fixed, the boards (Spook) are assigned, and the game
// waits for "next" (or throws at the table's pace).
void RoomImpl::begin_table_game() {
    step_timer_.cancel();
    std::vector<ClientSeed> client_seeds;
    std::vector<std::string> by;
    for (std::size_t i = 0; i < table_seeds_.size(); ++i) {
        client_seeds.push_back({static_cast<int>(i), table_seeds_[i].second});
        by.push_back(table_seeds_[i].first);
    }
    try {
        table_ = make_table(*game_options_, {}, *publication_, client_seeds, services_, by);
    } catch (const std::exception& e) {
        spdlog::error("room {}: cannot start the table game: {}", code_, e.what());
        return end_game(GameStatus::abandoned, std::string("the game could not start: ") + e.what(), "could_not_start");
    }
    state_ = RoomState::playing;
    journal_.changed();
    journal_game(true, client_seeds);
    ++services_.metrics.games_started;
    GameStarted started{game_id_, *game_options_, {}, table_->record().assignment, players_};
    for (const auto& c : client_seeds) started.client_seeds.push_back({c.seat, c.seed});
    broadcast(started);
    notice("table", nullptr,
           "the seeds are in (" + std::to_string(client_seeds.size()) + "): " +
               (settings_.table_pace_ms > 0 ? "the dice come by themselves" : "the host throws with \"next\""),
           {{"seeds", client_seeds.size()}, {"pace", settings_.table_pace_ms > 0 ? "auto" : "host"}});
    broadcast_snapshot();
    spdlog::info("room {}: table game {} started for {} names", code_, game_id_, game_options_->table_names.size());
    arm(Clock::duration::zero(), Next::advance);  // only at the table's pace (arm)
}

// What every host's step of a table game checks first; false when it answered with an error.
bool RoomImpl::table_host_step(const std::shared_ptr<Peer>& peer, std::string_view what) {
    if (!host_only(peer, what)) return false;
    if (!table_mode() || state_ == RoomState::lobby) {
        error(peer, ErrorCode::wrong_state,
              table_mode() ? "no table game is on: start one first" : "this room is not a table game (options.table)",
              what, {{"reason", table_mode() ? "no_table_game" : "not_table"}});
        return false;
    }
    if (paused_) {
        error(peer, ErrorCode::paused, "the game is paused: resume it first", what, {{"reason", "table"}});
        return false;
    }
    return true;
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Next&) {
    if (!table_host_step(peer, "next")) return;
    if (state_ == RoomState::seeding) return begin_table_game();  // the first "next" closes the seed window
    if (!table_ || table_->over())
        return error(peer, ErrorCode::wrong_state, "the game is over", "next", {{"reason", "game_over"}});
    if (table_->step_number() >= kMaxTableDice)
        return error(peer, ErrorCode::wrong_state,
                     "this game has had " + std::to_string(kMaxTableDice) + " dice, the most a table game has: end it",
                     "next", {{"reason", "dice_max"}, {"max", kMaxTableDice}});
    step_timer_.cancel();
    ++epoch_;  // a throw the pace had planned is this one
    advance();
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::SkipTurn&) {
    if (!table_host_step(peer, "skip_turn")) return;
    if (!table_)
        return error(peer, ErrorCode::wrong_state, "the game has not started: \"next\" starts it", "skip_turn",
                     {{"reason", "not_started"}});
    std::vector<std::string> out;
    try {
        table_->skip(out);
    } catch (const std::logic_error& e) {
        return error(peer, ErrorCode::wrong_state, e.what(), "skip_turn", {{"reason", "no_turns"}});
    }
    step_event("skip", out);
    for (auto& text : out) send_to_all(frame(std::move(text)));
    broadcast_snapshot();
    if (settings_.table_pace_ms > 0) arm(Clock::duration::zero(), Next::advance);  // a whole pace for the next player
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::DeclareWinners& m) {
    if (!host_only(peer, "declare_winners")) return;
    if (!table_mode() || !table_)
        return error(peer, ErrorCode::wrong_state,
                     !table_mode() ? "this room is not a table game (options.table): its rules name the winners"
                     : state_ == RoomState::seeding ? "the game has not started: \"next\" starts it"
                                                    : "no table game is on",
                     "declare_winners",
                     {{"reason", !table_mode() ? "not_table" : state_ == RoomState::seeding ? "not_started" : "no_table_game"}});
    const auto& names = game_options_->table_names;
    std::vector<int> winners;
    for (const auto& name : m.names) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end()) {
            std::string list;
            for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
            return error(peer, ErrorCode::bad_field,
                         "names: " + quote_client_text(name) + " is not a name at this table (" + list + ")",
                         "declare_winners", {{"field", "names"}, {"reason", "not_at_table"}, {"name", name}, {"names", list}});
        }
        const int index = static_cast<int>(it - names.begin());
        if (std::find(winners.begin(), winners.end(), index) != winners.end())
            return error(peer, ErrorCode::bad_field, "names: " + quote_client_text(name) + " is named twice",
                         "declare_winners", {{"field", "names"}, {"reason", "twice"}, {"name", name}});
        winners.push_back(index);
    }
    table_->declare(winners);
    event("declare", {{"winners", winners}});
    end_game(GameStatus::finished, "");
}

void RoomImpl::describe_table_seeding(protocol::RoomSnapshot& snapshot) const {
    TableView v;
    v.names = game_options_->table_names;
    v.next = "start";
    for (const auto& s : table_seeds_) v.seeds_by.push_back(s.first);
    snapshot.table = std::move(v);
}

}  // namespace spookludo::server
