// The write-ahead journal: a pass's writes (its events and the room's state) go to the
// writer, and its messages leave only once it has written them; failures pause the room and retry.
#include "room_impl.h"

namespace spookludo::server {

// The decisions open now and their deadline (after `left`): asked at a step, or again after a pause.
void RoomImpl::journal_asked(Clock::duration left) {
    json asked = json::array();
    for (const auto& s : seats_)
        if (!s.decision_id.empty()) asked.push_back({s.number, s.decision_id});
    if (asked.empty()) return;
    event("ask", {{"decisions", asked},
                  {"deadline_ms", now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(left).count()}});
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
    ops_.push_back({JournalOp::Kind::game, {}, g.dump()});
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
        j["paused_left_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(paused_left_).count();
        if (pause_reason_) j["pause_reason"] = name_of(*pause_reason_);
    }
    if (auto_start_at_) j["auto_start_at_ms"] = *auto_start_at_;
    if (last_game_) j["last_game"] = *last_game_;
    return j;
}

// The end of a pass (a message, a timer, a hang-up): what it changed goes to the journal's
// writer (group commit: the passes of many rooms in one transaction), and what it sent waits
// until the writer says it is written (written()). A pass that changed nothing sends at once,
// unless earlier passes' messages still wait: then after them. While the journal cannot take
// the room's writes (journal_fault), everything is held until a retry writes it.
void RoomImpl::end_pass(bool retry) {
    if (stopped_) {
        ops_.clear();
        dirty_ = false;
        held_.clear();
        return;
    }
    // The room's state is written when it changed (a refused message changes nothing).
    if (dirty_ && !closed_) {
        json state = durable_state();
        if (std::string text = state.dump(); text != journaled_state_) {
            journaled_state_ = std::move(text);
            state["decisions"] = decision_counter_;
            ops_.push_back({JournalOp::Kind::room, {}, state.dump()});
        }
    }
    dirty_ = false;
    if (services_.config.no_journal) {
        for (const auto& op : ops_)
            if (op.finished) try {
                    services_.history->add(*op.finished);
                    services_.export_record(*op.finished);
                } catch (const std::exception& e) {
                    spdlog::error("room {}: the history cannot take game {}: {}", code_, op.finished->id, e.what());
                }
        ops_.clear();
        if (std::exchange(forget_code_, false)) services_.forget_room(code_);
        return release(held_);
    }
    if (journal_fault_) {
        if (!retry) return;  // held until the retry
        // Everything given back goes first, in order, once no earlier pass is unanswered.
        if (settled_ != tickets_) return retry_later();
        auto finished = finished_in(ops_);  // the given-back passes' records wait with their messages already
        returned_.insert(returned_.end(), std::make_move_iterator(ops_.begin()), std::make_move_iterator(ops_.end()));
        ops_ = std::exchange(returned_, {});
        retry_ticket_ = submit(true, std::move(finished));
        return;
    }
    if (!ops_.empty()) submit(false, finished_in(ops_));
    else if (!held_.empty() && waiting_.empty()) release(held_);
    else if (!held_.empty()) {
        auto& last = waiting_.back().messages;  // after the passes before it
        last.insert(last.end(), std::make_move_iterator(held_.begin()), std::make_move_iterator(held_.end()));
        held_.clear();
    }
}

// Hands this pass's ops to the journal's writer; its messages (and records to export) wait
// for the answer under a new ticket.
std::vector<std::shared_ptr<const FinishedGame>> RoomImpl::finished_in(const std::vector<JournalOp>& ops) {
    std::vector<std::shared_ptr<const FinishedGame>> finished;
    for (const auto& op : ops)
        if (op.finished) finished.push_back(op.finished);
    return finished;
}

std::uint64_t RoomImpl::submit(bool retry, std::vector<std::shared_ptr<const FinishedGame>> finished) {
    const std::uint64_t ticket = ++tickets_;
    if (std::exchange(forget_code_, false)) forget_code_ticket_ = ticket;
    waiting_.push_back({ticket, std::exchange(held_, {}), std::move(finished)});
    // The answer holds the room until it is on the room's strand (the room is never let go
    // on the writer's thread). It comes on an I/O thread (the writer's batch of answers, one
    // task): it runs there at once when the room's strand is free.
    services_.journal_writer->submit(
        stream_, std::exchange(ops_, {}), retry, [self = self(), ticket](JournalWriter::Answer answer) mutable {
            auto* strand = &self->strand_;
            net::dispatch(*strand, [self = std::move(self), ticket, answer = std::move(answer)]() mutable {
                self->guarded("the journal's answer", [&] { self->written(ticket, std::move(answer)); });
            });
        });
    return ticket;
}

// The writer's answer to a ticket: written (its messages, and those of the passes before it,
// go out), or failed (its ops come back, to be written first by the retry).
void RoomImpl::written(std::uint64_t ticket, JournalWriter::Answer answer) {
    ++settled_;
    if (answer.fenced) give_up(*answer.error);
    if (!answer.error) {
        while (!waiting_.empty() && waiting_.front().ticket <= ticket) {
            Waiting w = std::move(waiting_.front());
            waiting_.erase(waiting_.begin());
            for (const auto& f : w.finished) services_.export_record(*f);
            release(w.messages);
        }
        if (forget_code_ticket_ && ticket >= forget_code_ticket_) {
            forget_code_ticket_ = 0;
            services_.forget_room(code_);
        }
        if (!stopped_ && journal_fault_ && ticket == retry_ticket_) {
            journal_back();
            end_pass();
        }
    } else {
        returned_.insert(returned_.end(), std::make_move_iterator(answer.ops.begin()),
                         std::make_move_iterator(answer.ops.end()));
        if (!stopped_) {
            journal_fault(*answer.error);
            end_pass();
        }
    }
    settle();
    // A room playing at zero pace that waited for the journal goes on.
    if (immediate_ && !pumping_ && !immediate_posted_ && !stopped_) continue_immediate();
}

// Another node of the cluster has this room now (its journal refused our write: fencing), or
// the cluster's store lost writes of it: it stops here at once. What waited for the journal is
// never sent (the journal does not have it); everyone is told to reconnect, which sends them
// to the node that has the room (taken up there from the journal, at its last written step).
void RoomImpl::give_up(const std::string& why) {
    if (stopped_) return settle();
    spdlog::warn("room {}: {}: it stops on this node; its players are sent on", code_, why);
    if (!closed_) --services_.metrics.rooms;
    if (journal_fault_) {
        journal_fault_.reset();
        --services_.metrics.journal_paused_rooms;
    }
    stopped_ = true;
    closed_ = true;
    stop_timers();
    waiting_.clear();
    held_.clear();
    returned_.clear();
    ops_.clear();
    forget_code_ = false;
    forget_code_ticket_ = 0;
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
    settle();
}

// The shutdown's end, once every pass has its answer.
void RoomImpl::settle() {
    if (stopped_ && settled_ == tickets_ && when_settled_) std::exchange(when_settled_, {})();
}

void RoomImpl::release(std::vector<Held>& messages) {
    auto held = std::exchange(messages, {});
    for (auto& [peer, text] : held) {
        if (text) peer->send(std::move(text));
        else peer->close();
    }
}

void RoomImpl::journal_fault(const std::string& why) {
    if (journal_fault_) services_.journal_failed(why);
    if (!journal_fault_) {
        ++services_.metrics.journal_paused_rooms;  // before /healthz hears of it
        services_.journal_failed(why);
        journal_fault_ = why;
        spdlog::error("room {}: the journal cannot be written ({}): the room is paused until it can", code_, why);
        // Nothing moves until it can be written: the game's clock, the seed deadline, the
        // automatic start (timers that fire meanwhile find journal_fault_ and wait).
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
        tell_now(n);
    }
    retry_later();
}

// Tried again in a second (each try is a pass of its own).
void RoomImpl::retry_later() {
    journal_retry_ = std::make_shared<RoomTimer>(strand_);
    journal_retry_->expires_after(std::chrono::seconds(1));
    journal_retry_->async_wait([self = self(), timer = journal_retry_](boost::system::error_code ec) {
        if (ec || self->stopped_ || self->journal_retry_ != timer) return;
        self->end_pass(true);
    });
}

void RoomImpl::journal_back() {
    journal_fault_.reset();
    journal_retry_.reset();
    --services_.metrics.journal_paused_rooms;
    services_.journal_recovered();
    spdlog::info("room {}: the journal takes writes again", code_);
    if (closed_) return;
    auto go_on = [&] {
        notice("journal", nullptr, std::string("The server can save this room again") + (paused_ ? "." : ": it goes on."));
        // What waited for the journal goes on: the game's clock (a pause for the journal, a
        // restart's wait that ended meanwhile), the seeds, the automatic start.
        if (paused_ && (fault_paused_ || (pause_reason_ == PauseReason::restart && !restart_wait_))) {
            notice("resumed", nullptr, "the game goes on");
            return start_clock();
        }
        if (state_ == RoomState::seeding) return begin_game();
        if (state_ == RoomState::lobby) rearm_auto_start();
        broadcast_snapshot();
    };
    run_guarded("the journal's recovery", go_on);
}

}  // namespace spookludo::server
