// What leaves the room: messages to one peer or to everyone, errors, notices, the snapshot
// everyone sees, and the inspection of the room for tests. Messages are held until the pass that
// made them is in the journal (room_journal.cpp).
#include "room_impl.h"

namespace spookludo::server {

// ---- Sending ----------------------------------------------------------------------------
// Every message goes through out(): it is held until the end of the pass (every handler on
// the strand ends with end_pass), and goes out, in order, once the pass's journal writes are
// written: nothing leaves the room that the journal does not have.
void RoomImpl::out(const std::shared_ptr<Peer>& peer, std::shared_ptr<const std::string> text) {
    journal_.send(peer, std::move(text));
}

void RoomImpl::error(const std::shared_ptr<Peer>& peer, ErrorCode code, const std::string& message,
               std::string_view ref, const nlohmann::json& args) {
    services_.metrics.count_error(protocol::to_string(code));
    out(peer, std::make_shared<const std::string>(protocol::error_message(code, message, ref, args)));
}

void RoomImpl::send_to_all(const std::shared_ptr<const std::string>& text) {
    for_each_recipient([&](const std::shared_ptr<Peer>& p) { out(p, text); });
}

// A line of the room's story for everyone, and the server log.
void RoomImpl::notice(std::string kind, const Seat* seat, std::string text, nlohmann::json fields) {
    Notice n;
    n.kind = std::move(kind);
    n.fields = std::move(fields);
    if (seat) {
        n.seat = seat->number;
        if (!seat->name.empty()) n.name = seat->name;
    }
    n.text = std::move(text);
    spdlog::info("room {}: {}", code_, n.text);
    broadcast(n);
}

RoomSnapshot RoomImpl::snapshot() const {
    RoomSnapshot r;
    r.room = code_;
    r.state = name_of(state_);
    r.paused = paused_;
    if (paused_ && pause_reason_) r.pause_reason = name_of(*pause_reason_);
    r.options = options_;
    r.settings = settings_;
    r.host = host_;
    for (const auto& seat : seats_) {
        SeatView v;
        v.seat = seat.number;
        if (!seat.taken) {
            v.free = true;
        } else {
            v.name = seat.name;
            v.bot = seat.bot;
            if (seat.bot) {
                v.policy = seat.policy;
                v.kicked = seat.kicked;
            } else {
                v.connected = seat.connected;
                v.away = seat.server_played();
                v.status = name_of(seat.presence);
            }
            // Whom the step waits for (its deadline below): the others see the list shrink.
            v.choosing = table_ && !seat.decision_id.empty();
            if (v.choosing && seat.hurried && !paused_)
                v.deadline_ms = now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(seat_left(seat)).count();
        }
        r.seats.push_back(std::move(v));
    }
    r.spectators = static_cast<int>(spectators_.size());
    r.server_time_ms = now_ms();
    r.auto_start_at_ms = auto_start_at_;
    if (table_ && waiting_for_decisions_ && !paused_ && !unlimited_) r.decision_deadline_ms = decision_deadline_at_;
    if (publication_) {
        r.game_id = game_id_;
        r.commitment = publication_->seed.commitment();
        r.boards = publication_->boards;
    }
    if (table_) table_->describe(r);
    else if (state_ == RoomState::seeding && table_mode()) describe_table_seeding(r);
    if (r.table) r.table->pace_ms = settings_.table_pace_ms;
    if (state_ == RoomState::lobby) r.last_game = last_game_;
    // Arrays by seat have one entry per room seat, like game_started.assignment and
    // game_over.places (the table knows the seats that play, not free ones above them).
    if (r.spook) {
        r.spook->boards.resize(seat_span());
        r.spook->positions.resize(seat_span());
        r.spook->finished_round.resize(seat_span());
    }
    return r;
}

std::string RoomImpl::inspect() const {
    json snap = snapshot();
    for (const char* k : {"paused", "pause_reason", "server_time_ms", "spectators", "auto_start_at_ms", "decision_deadline_ms"}) snap.erase(k);
    for (auto& v : snap["seats"])
        for (const char* k : {"connected", "away", "status"}) v.erase(k);
    json seats = json::array();
    for (const auto& s : seats_) {
        json v = {{"number", s.number},         {"taken", s.taken},   {"bot", s.bot},
                  {"policy", to_string(s.policy)}, {"kicked", s.kicked}, {"token_hash", s.token_hash},
                  {"decision", s.decision_id}};
        // A client seed counts while the seeds are collected (a started game has them in its record).
        if (s.client_seed && state_ == RoomState::seeding) v["client_seed"] = *s.client_seed;
        if (table_ && !s.decision_id.empty()) {
            const int player = player_of(s.number);
            json options = json::array();
            for (const auto& o : table_->decision_options(player, settings_.hints)) options.push_back(o);
            v["options"] = options;
            // What each policy would choose here (a bot's randomness is the game's, not a generator's).
            for (PolicyKind k : {PolicyKind::random, PolicyKind::greedy, PolicyKind::best})
                v["would_choose"][std::string(to_string(k))] = bot_choice(player, k);
        }
        seats.push_back(std::move(v));
    }
    json j = {{"room", snap}, {"seats", seats}, {"players", players_}, {"owner", owner_},
              {"written", journal_.all_written()}};
    if (table_) {
        j["record"] = table_->record();
        j["next_die"] = table_->next_die();
        j["waiting_for_decisions"] = waiting_for_decisions_;
    }
    return j.dump();
}

}  // namespace spookludo::server
