// The clock: the pause, the step timer and zero-pace steps, the decisions' deadline, a dropped
// player's grace.
#include "room_impl.h"

namespace spookludo::server {

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Pause&) {
    if (!host_only(peer, "pause")) return;
    if (state_ != RoomState::playing || paused_)
        return error(peer, ErrorCode::wrong_state, "nothing to pause", "pause", {{"reason", "nothing_to_pause"}});
    stop_clock(PauseReason::host);
    notice("paused", seats_.at(host_), who(seat_ref(host_)) + " paused the game", {{"reason", "host"}});
    broadcast_snapshot();
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Unpause&) {
    if (!host_only(peer, "resume_game")) return;
    if (!paused_)
        return error(peer, ErrorCode::wrong_state, "the game is not paused", "resume_game", {{"reason", "not_paused"}});
    notice("resumed", seats_.at(host_), who(seat_ref(host_)) + " resumed the game", {{"reason", "host"}});
    start_clock();
}

// The game's clock stops: what was left of the deadline or of the pause between steps is kept.
void RoomImpl::stop_clock(PauseReason why) {
    paused_ = true;
    pause_reason_ = why;
    paused_left_ = waiting_for_decisions_ && unlimited_
                       ? kNoLimit
                       : std::max<Clock::duration>(Clock::duration::zero(), step_timer_.expiry() - Clock::now());
    step_timer_.cancel();
    paused_at_ = Clock::now();
    for (auto& seat : seats_) {
        cancel_grace(seat);  // a pause does not count against the drop grace
        if (seat.hurried) {  // nor against a hurried decision's time
            seat.hurry_left = std::max<Clock::duration>(Clock::duration::zero(), seat.hurry_at - Clock::now());
            if (seat.hurry_timer) seat.hurry_timer->cancel();
            seat.hurry_timer.reset();
        }
    }
}

// The clock goes on from where it stopped (the host resumed, everyone is back after a
// restart, the journal takes writes again).
void RoomImpl::start_clock() {
    if (journal_.fault()) return;  // journal_back starts it
    paused_ = false;
    pause_reason_.reset();
    fault_paused_ = false;
    if (restart_wait_) restart_wait_->cancel();
    restart_wait_.reset();
    const auto left = paused_left_;
    journal_.changed();
    if (waiting_for_decisions_ && left != kNoLimit)
        decision_deadline_at_ = now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
    broadcast_snapshot();
    // The pause does not count against a dropped player's drop grace.
    const auto paused_for = Clock::now() - paused_at_;
    for (auto& seat : seats_)
        if (seat.human() && !seat.connected && seat.presence == Presence::away) seat.dropped_at += paused_for;
    // Decisions that were open get their remaining time again; a dropped player's waits for
    // the rest of their grace, or is played now (without completing the step yet).
    bool played = false;  // a seat the snapshot above still shows choosing
    for (auto& seat : seats_) {
        if (seat.decision_id.empty()) continue;
        // The step's time (the step timer is armed below), or what was left of the host's hurry.
        auto mine = left;
        if (seat.hurried) {
            mine = std::min(mine, seat.hurry_left);
            hurry_seat(seat, seat.hurry_left);
        }
        if (auto p = seat.peer.lock(); p && seat.connected) {
            p->grant_answer();
            send(p, decision_message(seat.number, seat.decision_id, mine));
        } else if (const auto grace = grace_left(seat)) {
            arm_grace(seat, *grace, mine);
        } else {
            clear_hurry(seat);
            seat.decision_id.clear();
            auto_move(player_of(seat.number), ChoiceMaker::away);
            played = true;
        }
    }
    if (!table_) return;
    // Answers that came in for absent seats, during the pause or just now, complete the step.
    if (waiting_for_decisions_ && pending_decisions() == 0) return decisions_complete();
    if (played && waiting_for_decisions_) broadcast_snapshot();  // whom the step still waits for
    if (waiting_for_decisions_) journal_asked(left);  // the open decisions' new deadline
    arm(left, waiting_for_decisions_ ? Next::deadline : Next::advance);
}

void RoomImpl::arm(Clock::duration after, Next next) {
    if (paused_ || closed_) return;
    if (table_mode() && table_ && next == Next::advance) {
        // A table game throws when the host says "next", or at the table's own pace.
        if (settings_.table_pace_ms <= 0 || table_->step_number() >= kMaxTableDice) return;
        after = std::chrono::milliseconds(settings_.table_pace_ms);
    }
    if (after == kNoLimit) {  // decisions without a limit: no deadline, and none that was armed fires
        ++epoch_;
        step_timer_.cancel();
        return;
    }
    const auto epoch = ++epoch_;
    if (after <= Clock::duration::zero()) {
        // At zero pace the next step runs now, not on a timer: what a round sends (the last
        // answer's acceptance, the moves, the activation, the next roll and decisions) leaves
        // in one write per connection. A few steps at a time, so that a room of bots does not
        // hold the thread for a whole game.
        immediate_ = Immediate{next, epoch};
        if (!pumping_) run_immediate();
        return;
    }
    // The pause between steps is on the grid (rooms stepping together share a wake-up and a
    // transaction); a decision's deadline is what the players were told, to the millisecond.
    step_timer_.expires_at(next == Next::advance ? step_deadline(after) : Clock::now() + after);
    step_timer_.async_wait([self = self(), next, epoch](boost::system::error_code ec) {
        if (!ec) self->guarded("a game step", [&] { self->fire(next, epoch); });
    });
}

void RoomImpl::run_immediate() {
    pumping_ = true;
    for (int steps = 0; immediate_ && steps < kInlineSteps; ++steps) {
        const Immediate now = *std::exchange(immediate_, std::nullopt);
        fire(now.next, now.epoch);
    }
    pumping_ = false;
    if (immediate_ && !immediate_posted_) continue_immediate();
}

void RoomImpl::continue_immediate() {
    if (journal_.unanswered() >= kPassesAhead) return;
    immediate_posted_ = true;
    net::post(strand_, [self = self()] {
        self->immediate_posted_ = false;
        self->guarded("a game step", [&] { self->run_immediate(); });
    });
}

void RoomImpl::fire(Next next, std::uint64_t epoch) {
    if (epoch != epoch_ || paused_ || closed_ || journal_.fault()) return;  // superseded, paused or closed since
    switch (next) {
        case Next::advance: advance(); break;
        case Next::deadline: deadline(); break;
        case Next::seeds_timeout:
            if (state_ == RoomState::seeding) begin_game();
            break;
    }
}

// What is left of the drop grace of a player who lost the connection (a refresh, a phone
// waking up), counted from the drop, pauses left out; nothing when it is over or the seat is
// not away.
std::optional<Clock::duration> RoomImpl::grace_left(const Seat& s) const {
    if (!s.human() || s.connected || s.presence != Presence::away) return std::nullopt;
    const auto left = s.dropped_at + drop_grace() - Clock::now();
    if (left <= Clock::duration::zero()) return std::nullopt;
    return left;
}

void RoomImpl::cancel_grace(Seat& s) {
    if (s.grace_timer) s.grace_timer->cancel();
    s.grace_timer.reset();
}

// The decision `s` owes waits `grace` more for its player, unless its own time (`left`) ends
// first (it then times out as usual); when the grace ends the server plays it as away. Never
// answers anything itself: the caller decides what to do when there is no grace left.
void RoomImpl::arm_grace(Seat& s, Clock::duration grace, Clock::duration left) {
    cancel_grace(s);
    if (left <= grace) return;
    s.grace_timer = std::make_shared<RoomTimer>(strand_);
    s.grace_timer->expires_after(grace);
    s.grace_timer->async_wait(
        [self = self(), number = s.number, id = s.decision_id, timer = s.grace_timer](boost::system::error_code ec) {
            if (ec || self->closed_) return;
            self->guarded("the drop grace", [&] {
                Seat* seat = self->seats_.at(number);
                if (!seat || seat->grace_timer != timer || seat->decision_id != id || seat->connected || self->paused_) return;
                seat->grace_timer.reset();
                self->answer_for_absent(*seat, ChoiceMaker::away);
                if (self->pending_decisions() > 0) self->broadcast_snapshot();  // one fewer to wait for
            });
        });
}

void RoomImpl::deadline() {
    for (auto& seat : seats_) {
        if (seat.decision_id.empty()) continue;
        cancel_grace(seat);
        clear_hurry(seat);
        if (auto p = seat.peer.lock(); p && seat.connected) send(p, DecisionTimeout{seat.decision_id});
        seat.decision_id.clear();
        auto_move(player_of(seat.number), ChoiceMaker::timeout);
    }
    decisions_complete();
}

void RoomImpl::stop_timers() {
    step_timer_.cancel();
    auto_start_timer_.cancel();
    if (restart_wait_) restart_wait_->cancel();
    if (snapshot_timer_) snapshot_timer_->cancel();
    journal_.cancel_timers();
    for (auto& s : seats_) {
        if (s.reconnect_timer) s.reconnect_timer->cancel();
        cancel_grace(s);
        if (s.hurry_timer) s.hurry_timer->cancel();
    }
}

// ---- More time (settings.time_factor), hurry, ask_time --------------------------------------
// What is left of the open decisions' time (kNoLimit: they wait without a limit).
Clock::duration RoomImpl::step_left() const {
    if (paused_) return paused_left_;
    if (waiting_for_decisions_ && unlimited_) return kNoLimit;
    return std::max<Clock::duration>(Clock::duration::zero(), step_timer_.expiry() - Clock::now());
}

// What is left of one seat's open decision: the step's time, or less when the host hurried it.
Clock::duration RoomImpl::seat_left(const Seat& s) const {
    auto left = step_left();
    if (s.hurried)
        left = std::min(left, paused_ ? s.hurry_left
                                      : std::max<Clock::duration>(Clock::duration::zero(), s.hurry_at - Clock::now()));
    return left;
}

void RoomImpl::clear_hurry(Seat& s) {
    if (s.hurry_timer) s.hurry_timer->cancel();
    s.hurry_timer.reset();
    s.hurried = false;
}

// The seat's open decision ends `left` from now (the host's hurry): then it times out as at the
// step's deadline, the others' decisions still open.
void RoomImpl::hurry_seat(Seat& s, Clock::duration left) {
    clear_hurry(s);
    s.hurried = true;
    s.hurry_at = Clock::now() + left;
    s.hurry_left = left;
    s.hurry_timer = std::make_shared<RoomTimer>(strand_);
    s.hurry_timer->expires_after(left);
    s.hurry_timer->async_wait(
        [self = self(), number = s.number, id = s.decision_id, timer = s.hurry_timer](boost::system::error_code ec) {
            if (ec || self->closed_) return;
            self->guarded("a hurried decision", [&] {
                Seat* seat = self->seats_.at(number);
                if (!seat || seat->hurry_timer != timer || seat->decision_id != id || self->paused_ || !self->table_ ||
                    self->journal_.fault())
                    return;
                self->clear_hurry(*seat);
                self->cancel_grace(*seat);
                if (auto p = seat->peer.lock(); p && seat->connected) self->send(p, DecisionTimeout{seat->decision_id});
                seat->decision_id.clear();
                self->auto_move(self->player_of(number), ChoiceMaker::timeout);
                if (self->pending_decisions() == 0) self->decisions_complete();
                else self->broadcast_snapshot();  // one fewer to wait for
            });
        });
}

// The host changed settings.time_factor (from `before`): everyone is told, and the decisions
// open now get their time at once: rescaled (x2 to x3: what was left, times 3/2), a whole
// decision time with the new factor when there was no limit, or no limit. A limit that comes
// back replaces the host's hurries.
void RoomImpl::change_time_factor(int before) {
    const int after = settings_.time_factor;
    const Seat* host = host_ >= 0 ? seats_.at(host_) : nullptr;
    const std::string by = host ? who(*host) : std::string("the host");
    Notice n;
    n.kind = "time_factor";
    if (host) {
        n.seat = host->number;
        n.name = host->name;
    }
    n.factor = after;
    n.text = after == 0   ? by + " lifted the time limit: take your time"
             : after == 1 ? by + " set the normal time to choose"
                          : by + " gave everyone more time to choose: x" + std::to_string(after);
    spdlog::info("room {}: {}", code_, n.text);
    broadcast(n);
    if (!table_ || !waiting_for_decisions_) return;
    const auto was = step_left();
    Clock::duration left = kNoLimit;
    if (after > 0) left = was == kNoLimit || before <= 0 ? decision_time() : was * after / before;
    unlimited_ = left == kNoLimit;
    if (after > 0)
        for (auto& seat : seats_) clear_hurry(seat);
    if (paused_) {  // the decisions are sent again, with this time, when the game goes on
        paused_left_ = left;
        journal_asked(left);
        return;
    }
    if (left != kNoLimit)
        decision_deadline_at_ = now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
    arm(left, Next::deadline);
    journal_asked(left);
    for (auto& seat : seats_) {
        if (seat.decision_id.empty()) continue;
        if (auto p = seat.peer.lock(); p && seat.connected) {
            p->grant_answer();
            send(p, decision_message(seat.number, seat.decision_id, seat_left(seat)));
        } else if (const auto grace = grace_left(seat)) {
            arm_grace(seat, *grace, seat_left(seat));  // the drop grace as before; no longer than the new time
        }
    }
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Hurry& m) {
    if (!host_only(peer, "hurry")) return;
    if (!table_ || table_mode() || state_ != RoomState::playing)
        return error(peer, ErrorCode::wrong_state, "nobody is choosing: hurry a player whose decision is open", "hurry");
    if (paused_) return error(peer, ErrorCode::paused, "the game is paused: hurry a player when it goes on", "hurry");
    Seat* seat = seats_.at(m.seat);
    if (!seat || !seat->taken || seat->decision_id.empty())
        return error(peer, ErrorCode::wrong_state, seat_label(m.seat) + " has no open decision to hurry", "hurry");
    const Clock::duration limit = std::chrono::milliseconds(std::min(settings_.decision_ms, kHurryMs));
    if (seat_left(*seat) <= limit)
        return error(peer, ErrorCode::wrong_state,
                     seat_label(m.seat) + " has " +
                         std::to_string(std::chrono::duration_cast<std::chrono::seconds>(seat_left(*seat)).count()) +
                         " s or less left already",
                     "hurry");
    hurry_seat(*seat, limit);
    journal_asked(step_left());
    const auto limit_ms = std::chrono::duration_cast<std::chrono::milliseconds>(limit).count();
    Notice n;
    n.kind = "hurry";
    n.seat = seat->number;
    n.name = seat->name;
    n.time_ms = limit_ms;
    n.text = "the host hurries " + who(*seat) + ": " + std::to_string((limit_ms + 999) / 1000) + " s left to choose";
    spdlog::info("room {}: {}", code_, n.text);
    broadcast(n);
    if (auto p = seat->peer.lock(); p && seat->connected) {
        p->grant_answer();
        send(p, decision_message(seat->number, seat->decision_id, limit));
    } else if (const auto grace = grace_left(*seat)) {
        arm_grace(*seat, *grace, limit);
    }
    broadcast_snapshot();  // the seat's own deadline
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::AskTime&) {
    const int number = seat_of(peer);
    if (number < 0) return error(peer, ErrorCode::not_a_player, "only players ask for more time", "ask_time");
    if (number == host_)
        return error(peer, ErrorCode::wrong_state, "you are the host: set the time to choose yourself (settings.time_factor)",
                     "ask_time");
    Seat& seat = seat_ref(number);
    const auto now = Clock::now();
    const auto interval = std::chrono::milliseconds(kAskTimeIntervalMs);
    if (seat.asked_time_at && now - *seat.asked_time_at < interval) {
        const auto wait =
            std::chrono::ceil<std::chrono::milliseconds>(*seat.asked_time_at + interval - now).count();
        services_.metrics.count_error(protocol::to_string(ErrorCode::rate_limited));
        ErrorReply reply{std::string(to_string(ErrorCode::rate_limited)),
                         "you asked for more time a moment ago: ask again in " + std::to_string((wait + 999) / 1000) + " s",
                         std::string("ask_time"), wait};
        return send(peer, reply);
    }
    seat.asked_time_at = now;
    Notice n;
    n.kind = "ask_time";
    n.seat = number;
    n.name = seat.name;
    n.factor = settings_.time_factor;
    n.text = who(seat) + " asks for more time to choose";
    spdlog::info("room {}: {}", code_, n.text);
    // To the host only: the host decides (a player need not tell the whole room).
    if (const Seat* host = host_ >= 0 ? seats_.at(host_) : nullptr)
        if (auto p = host->peer.lock(); p && host->connected) send(p, n);
}

}  // namespace spookludo::server
