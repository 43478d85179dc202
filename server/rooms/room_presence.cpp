// Presence: leaving on purpose, dropping, the reconnect window, the host's hand-over, and
// whether anyone is still expected.
#include "room_impl.h"

namespace spookludo::server {

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Leave&) {
    const int number = seat_of(peer);
    if (number < 0) {
        const bool watched = drop_spectator(peer);
        let_go(peer);
        close_if_empty();
        if (watched && !closed_) broadcast_snapshot();  // one watcher fewer
        return;
    }
    let_go(peer);
    auto& s = seat_ref(number);
    if (state_ == RoomState::lobby) return remove_from_seat(s, "left");
    s.connected = false;
    s.presence = Presence::left;
    s.peer.reset();
    s.token_hash.clear();
    if (s.reconnect_timer) s.reconnect_timer->cancel();
    s.reconnect_timer.reset();
    notice("left", &s, who(s) + " left: the server plays " + seat_label(s.number), {{"then", "server"}});
    answer_for_absent(s, ChoiceMaker::away);
    pass_host_if_needed(who(s) + " left", "left", who(s));
    broadcast_snapshot();
    abandon_if_nobody_left();
    // The seeds being collected may all be in now (a player who left sends none).
    if (state_ == RoomState::seeding && all_seeds_in()) begin_game();
}

// A lobby seat emptied: the player left, was kicked or removed, or did not come back.
void RoomImpl::remove_from_seat(Seat& s, std::string_view why) {
    if (auto p = s.peer.lock(); p && s.connected) {
        if (why == "kicked" || why == "removed") send(p, Kicked{code_, "the host removed you from the room"});
        let_go(p);
    }
    const std::string name = who(s);
    const int number = s.number;
    const Seat copy = s;
    Seats::free(s);
    if (why == "left") notice("left", &copy, name + " left " + seat_label(number) + ": it is free", {{"then", "free"}});
    else if (why == "kicked")
        notice("kicked", &copy, name + " was kicked by the host: " + seat_label(number) + " is free", {{"then", "free"}});
    else if (why == "removed")
        notice("removed", &copy, "the host emptied " + seat_label(number) + " (" + name + ")", {{"reason", "host"}});
    else notice("removed", &copy, name + " did not come back: " + seat_label(number) + " is free", {{"reason", "not_back"}});
    if (host_ == number) host_ = -1;
    pass_host_if_needed(why == "left" ? name + " left" : why == "gone" ? name + " did not come back" : std::string(),
                        why == "left" ? "left" : why == "gone" ? "not_back" : "", name);
    broadcast_snapshot();
    close_if_empty();
}

// The host's role belongs to the host's seat: a dropped connection, a refreshed page or a
// server restart leaves it where it is (the seat waits for its player, host keys and all).
// It moves, once and with a notice saying why, when the seat is given up: its player left on
// purpose, was removed, or stayed away past the reconnect window. It goes to the first player
// who is here, else to the first player who still holds a seat (away for now).
bool RoomImpl::holds_host_seat(const Seat& s) {
    return s.human() && (s.presence == Presence::here || s.presence == Presence::away);
}

void RoomImpl::pass_host_if_needed(const std::string& because, std::string_view reason, const std::string& former) {
    if (host_ >= 0)
        if (const Seat* h = seats_.at(host_); h && holds_host_seat(*h)) return;
    const int old = host_;
    int next = -1;
    for (const auto& s : seats_)
        if (holds_host_seat(s) && s.connected && s.presence == Presence::here && !s.peer.expired()) {
            next = s.number;
            break;
        }
    if (next < 0)
        for (const auto& s : seats_)
            if (holds_host_seat(s)) {
                next = s.number;
                break;
            }
    host_ = next;
    if (host_ >= 0 && host_ != old) {
        auto& h = seat_ref(host_);
        nlohmann::json fields = nlohmann::json::object();
        if (!reason.empty()) fields = {{"reason", reason}, {"former", former}};
        notice("host", &h, who(h) + " is the host now" + (because.empty() ? "" : " (" + because + ")"), std::move(fields));
    }
}

bool RoomImpl::any_human_connected() const {
    return std::any_of(seats_.begin(), seats_.end(),
                       [](const Seat& s) { return s.human() && s.connected && !s.peer.expired(); });
}

// A dropped player's seat waiting for its reconnect window.
bool RoomImpl::anyone_expected() const {
    return std::any_of(seats_.begin(), seats_.end(), [](const Seat& s) {
        return s.human() && !s.connected && s.presence == Presence::away && s.reconnect_timer;
    });
}

// Takes a spectator (and any that is gone) off the list; true when `peer` was one.
bool RoomImpl::drop_spectator(const std::shared_ptr<Peer>& peer) {
    const auto before = spectators_.size();
    const bool was = is_spectator(peer);
    spectators_.erase(std::remove_if(spectators_.begin(), spectators_.end(),
                                     [&](const auto& w) { return w.lock() == peer || w.expired(); }),
                      spectators_.end());
    return was || spectators_.size() != before;
}

void RoomImpl::on_disconnected(const std::shared_ptr<Peer>& peer) {
    if (journal_.stopped()) return;
    const bool watched = drop_spectator(peer);
    const int number = seat_of(peer);
    if (number < 0) {
        close_if_empty();
        if (watched && !closed_) broadcast_snapshot();  // one watcher fewer
        return;
    }
    auto& s = seat_ref(number);
    if (!s.connected) return;
    journal_.changed();
    s.connected = false;
    if (s.presence == Presence::here) s.presence = Presence::away;
    const bool lobby = state_ == RoomState::lobby;
    notice("away", &s, who(s) + " lost the connection: " + seat_label(s.number) + " waits for them" +
                           (lobby ? "" : " (the server moves for them meanwhile)"),
           {{"in_game", !lobby}});
    // Away: the seat is kept for the reconnect window; an open decision waits the drop grace (a
    // refreshed page or a phone that woke up answers it), then the server plays the best move.
    s.dropped_at = Clock::now();
    if (table_ && !s.decision_id.empty() && !paused_) {
        if (const auto grace = grace_left(s)) arm_grace(s, *grace, seat_left(s));
        else answer_for_absent(s, ChoiceMaker::away);  // no grace (--drop-grace-ms 0)
    }
    arm_reconnect_window(s, std::chrono::milliseconds(services_.config.reconnect_ms));
    broadcast_snapshot();
    if (state_ == RoomState::seeding && all_seeds_in()) begin_game();
}

// A dropped player's seat waits this long for them.
void RoomImpl::arm_reconnect_window(Seat& s, Clock::duration after) {
    s.reconnect_timer = std::make_shared<RoomTimer>(strand_);
    s.reconnect_timer->expires_after(after);
    s.reconnect_timer->async_wait([self = self(), number = s.number, timer = s.reconnect_timer](boost::system::error_code ec) {
        if (ec || self->closed_) return;
        self->guarded("the reconnect window", [&] { self->window_over(number, timer); });
    });
}

// The reconnect window of a dropped player ran out.
void RoomImpl::window_over(int number, const std::shared_ptr<RoomTimer>& timer) {
    Seat* s = seats_.at(number);
    if (!s || !s->human() || s->reconnect_timer != timer || s->connected) return;
    if (journal_.fault()) return arm_reconnect_window(*s, std::chrono::seconds(1));  // not while nothing can be saved
    journal_.changed();
    s->reconnect_timer.reset();
    if (state_ == RoomState::lobby) return remove_from_seat(*s, "gone");
    s->presence = Presence::server;
    answer_for_absent(*s, ChoiceMaker::away);
    notice("server_plays", s,
           who(*s) + " did not come back: the server plays " + seat_label(number) + " (their token still takes it back)");
    pass_host_if_needed(who(*s) + " did not come back", "not_back", who(*s));
    broadcast_snapshot();
    abandon_if_nobody_left();
}

// After a restart: human seats whose player has not come back yet.
bool RoomImpl::nobody_expected() const {
    return std::none_of(seats_.begin(), seats_.end(),
                        [](const Seat& s) { return s.human() && !s.connected && s.presence == Presence::away; });
}

}  // namespace spookludo::server
