// What the room writes to its journal (room_journal.h): the decisions asked, the game, and the
// room's own state to have again after a restart; and what the room does when the journal fails,
// comes back, or is another node's.
#include "room_impl.h"

#include "spookludo/json_text.h"
#include "spookludo/ludo/record.h"

namespace spookludo::server {

// The decisions open now and their deadline (after `left`): asked at a step, or again after a pause.
// {"deadline_ms":..,"decisions":[[seat,id],..],"hurried":[[seat,deadline],..]}: written at every
// step that asks, without a JSON tree.
void RoomImpl::journal_asked(Clock::duration left) {
    const auto at = [](Clock::duration d) { return now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
    std::string text = "{";
    if (left != kNoLimit) {  // none: no limit (settings.time_factor 0)
        text += "\"deadline_ms\":";
        json_text::number(text, at(left));
        text += ',';
    }
    text += "\"decisions\":[";
    bool any = false, hurried = false;
    for (const auto& s : seats_) {
        if (s.decision_id.empty()) continue;
        if (any) text += ',';
        any = true;
        hurried = hurried || s.hurried;
        text += '[';
        json_text::number(text, s.number);
        text += ',';
        json_text::string(text, s.decision_id);
        text += ']';
    }
    if (!any) return;
    text += ']';
    if (hurried) {  // [seat, its own deadline]: the host's hurries
        text += ",\"hurried\":[";
        bool first = true;
        for (const auto& s : seats_) {
            if (s.decision_id.empty() || !s.hurried) continue;
            if (!first) text += ',';
            first = false;
            text += '[';
            json_text::number(text, s.number);
            text += ',';
            json_text::number(text, at(seat_left(s)));
            text += ']';
        }
        text += ']';
    }
    text += '}';
    journal_.event_text("ask", std::move(text));
}

// The game as published (`started` false: its seeds are being collected) or started.
void RoomImpl::journal_game(bool started, const std::vector<ClientSeed>& client_seeds) {
    json seats = json::array();
    for (int n : players_) {
        const auto& s = seat_ref(n);
        seats.push_back({{"name", s.name}, {"bot", s.bot}, {"policy", to_string(s.policy)}, {"number", s.number}});
    }
    json seeds = json::array();
    for (const auto& c : client_seeds) seeds.push_back({{"seat", c.seat}, {"seed", c.seed}});
    json g = {{"id", game_id_},   {"options", *game_options_}, {"players", players_},
              {"seats", seats},   {"seed", publication_->seed.hex()}, {"boards", publication_->boards},
              {"owner", owner_},  {"started", started},         {"client_seeds", seeds}};
    // The server's moves of a Ludo game: the version it started with stays its version when the
    // game is taken up by a newer server.
    if (game_options_->game == GameKind::ludo && !game_options_->table) g["server_move_version"] = table_ ? table_->server_move_version() : ludo::kServerMoveVersion;
    if (game_options_->table) {
        json by = json::array();
        for (const auto& s : table_seeds_) by.push_back(s.first);
        g["seed_by"] = by;
    }
    journal_.game(g);
}

// What the room must have again after a restart, besides its game: a JSON object. Without the
// decision counter: it changes at every step, and a restart finds it in the game's `ask`
// events (the state written at the game's end has it).
json RoomImpl::durable_state() const {
    json seats = json::array();
    for (const auto& s : seats_) {
        json v = {{"number", s.number}, {"taken", s.taken}};
        if (s.taken)
            v.update({{"name", s.name},
                      {"bot", s.bot},
                      {"policy", to_string(s.policy)},
                      {"kicked", s.kicked},
                      {"token_hash", s.token_hash},
                      {"presence", name_of(s.presence)}});
        seats.push_back(std::move(v));
    }
    json j = {{"options", options_},   {"settings", settings_},          {"host", host_},
              {"seats", seats},        {"state", name_of(state_)},       {"owner", owner_},
              {"paused", paused_},     {"creator_address", creator_address_}};
    if (paused_) {
        // -1: open decisions without a limit
        j["paused_left_ms"] = paused_left_ == kNoLimit ? std::int64_t{-1}
                                                       : std::chrono::duration_cast<std::chrono::milliseconds>(paused_left_).count();
        if (pause_reason_) j["pause_reason"] = name_of(*pause_reason_);
    }
    if (auto_start_at_) j["auto_start_at_ms"] = *auto_start_at_;
    if (last_game_) j["last_game"] = *last_game_;
    return j;
}

std::uint64_t RoomImpl::decision_counter() const { return decision_counter_; }

// What a step showed, for the journal: the first 16 hex digits of the SHA-256 of its messages,
// each followed by a newline. The messages themselves made the journal's biggest rows (a step's
// moves and activation, a few hundred bytes, encoded as JSON strings once more); a restart needs
// only to know that the engine shows the same again.
std::string shown_digest(const std::vector<std::string>& out) {
    std::size_t size = 0;
    for (const auto& m : out) size += m.size() + 1;
    std::string all;
    all.reserve(size);
    for (const auto& m : out) {
        all += m;
        all += '\n';
    }
    return sha256_hex(all).substr(0, 16);
}

// The journal cannot take the room's writes: nothing moves until it can (the game's clock, the
// seed deadline, the automatic start: timers that fire meanwhile find the fault and wait), and
// everyone is told at once (the notice shows nothing of the game).
void RoomImpl::journal_failing(const std::string& why) {
    if (state_ == RoomState::playing && !paused_ && !closed_) {
        stop_clock(PauseReason::journal);
        fault_paused_ = true;
    }
    step_timer_.cancel();
    auto_start_timer_.cancel();
    Notice n;
    n.kind = "journal";
    n.text = "The server cannot save this room right now (" + why +
             "): the game is paused and goes on by itself when saving works again. Nothing is lost.";
    n.fields = {{"state", "failing"}, {"cause", why}};
    tell_now(n);
}

void RoomImpl::journal_back() {
    if (closed_) return;
    auto go_on = [&] {
        notice("journal", nullptr, std::string("The server can save this room again") + (paused_ ? "." : ": it goes on."),
               {{"state", "ok"}, {"paused", paused_}});
        // What waited for the journal goes on: the game's clock (a pause for the journal, a
        // restart's wait that ended meanwhile), the seeds, the automatic start.
        if (paused_ && (fault_paused_ || (pause_reason_ == PauseReason::restart && !restart_wait_))) {
            notice("resumed", nullptr, "the game goes on", {{"reason", "journal"}});
            return start_clock();
        }
        if (state_ == RoomState::seeding) return begin_game();
        if (state_ == RoomState::lobby) rearm_auto_start();
        broadcast_snapshot();
    };
    run_guarded("the journal's recovery", go_on);
}

// Another node of the cluster has this room now (its journal refused our write: fencing), or
// the cluster's store lost writes of it: it stops here at once. What waited for the journal is
// never sent (the journal does not have it); everyone is told to reconnect, which sends them
// to the node that has the room (taken up there from the journal, at its last written step).
void RoomImpl::journal_fenced(const std::string& why) {
    spdlog::warn("room {}: {}: it stops on this node; its players are sent on", code_, why);
    if (!closed_) --services_.metrics.rooms;
    closed_ = true;
    stop_timers();
    const auto text = frame(Closing{"restart", "this room moved to another node of the cluster: reconnect with "
                                               "your seat's token and you are sent there"});
    for_each_recipient([&](const std::shared_ptr<Peer>& p) {
        p->send(text);
        p->close();
    });
    services_.registry.remove_if(code_, this);
    // The store lost writes of a room that is still this node's: it is taken up again from
    // what the store has, as after a crash.
    if (why.rfind("GAP", 0) == 0 && services_.cluster) services_.cluster->take_back(code_);
}

// A room playing at zero pace that waited for the journal goes on.
void RoomImpl::journal_answered() {
    if (immediate_ && !pumping_ && !immediate_posted_ && !journal_.stopped()) continue_immediate();
}

void RoomImpl::on_room_strand(std::function<void()> work) {
    net::dispatch(strand_, [self = self(), work = std::move(work)] { self->guarded("the journal's answer", work); });
}

}  // namespace spookludo::server
