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
    paused_left_ = std::max<Clock::duration>(Clock::duration::zero(), step_timer_.expiry() - Clock::now());
    step_timer_.cancel();
    paused_at_ = Clock::now();
    for (auto& seat : seats_) cancel_grace(seat);  // a pause does not count against the drop grace
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
    if (waiting_for_decisions_) decision_deadline_at_ = now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
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
        if (auto p = seat.peer.lock(); p && seat.connected) {
            p->grant_answer();
            send(p, decision_message(seat.number, seat.decision_id, left));
        } else if (const auto grace = grace_left(seat)) {
            arm_grace(seat, *grace, left);
        } else {
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
    journal_.cancel_timers();
    for (auto& s : seats_) {
        if (s.reconnect_timer) s.reconnect_timer->cancel();
        cancel_grace(s);
    }
}

}  // namespace spookludo::server
