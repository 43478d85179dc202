// A room's write-ahead journal behind one face (room_journal.h): a pass's writes (its events, the
// game, the room's state) go to the writer, and its messages leave only once they are written;
// failures hold everything and retry.
#include "room_journal.h"

#include <iterator>
#include <utility>

#include <boost/asio/basic_waitable_timer.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "spookludo/fair_dice.h"

namespace spookludo::server {

RoomJournal::RoomJournal(Owner& owner, Services& services, const std::string& code, std::int64_t created_ms,
                         boost::asio::any_io_executor strand)
    : owner_(owner),
      services_(services),
      code_(code),
      strand_(std::move(strand)),
      stream_(std::make_shared<JournalWriter::Stream>(code, created_ms)) {}

void RoomJournal::event(const char* kind, const nlohmann::json& data) {
    ops_.push_back({JournalOp::Kind::event, kind, data.dump()});
}

void RoomJournal::event_text(const char* kind, std::string text) {
    ops_.push_back({JournalOp::Kind::event, kind, std::move(text)});
}

void RoomJournal::game(const nlohmann::json& game) { ops_.push_back({JournalOp::Kind::game, {}, game.dump()}); }

void RoomJournal::game_over(std::shared_ptr<const FinishedGame> finished) {
    ops_.push_back({JournalOp::Kind::game_over, {}, {}, std::move(finished)});
}

void RoomJournal::closed(bool forget_code) {
    if (closed_) return;
    closed_ = true;
    dirty_ = false;
    ops_.push_back({JournalOp::Kind::closed, {}, {}});
    // The code is free once the journal has forgotten the room (written()): a new room under it
    // must not be forgotten with this one.
    if (forget_code) forget_code_ = true;
}

// The end of a pass (a message, a timer, a hang-up): what it changed goes to the journal's
// writer (group commit: the passes of many rooms in one transaction), and what it sent waits
// until the writer says it is written (written()). A pass that changed nothing sends at once,
// unless earlier passes' messages still wait: then after them. While the journal cannot take
// the room's writes (fail), everything is held until a retry writes it.
void RoomJournal::end_pass(bool retry) {
    if (stopped_) {
        ops_.clear();
        dirty_ = false;
        held_.clear();
        return;
    }
    // The room's state is written when it changed (a refused message changes nothing).
    if (dirty_ && !closed_) {
        nlohmann::json state = owner_.durable_state();
        // Compared by digest: the text itself (a room's options, settings and seats, about 2 KB)
        // was the biggest thing a room kept for a party-pace game's first minutes.
        if (const auto digest = sha256(state.dump()); digest != journaled_state_) {
            journaled_state_ = digest;
            state["decisions"] = owner_.decision_counter();
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
    if (fault_) {
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

std::vector<std::shared_ptr<const FinishedGame>> RoomJournal::finished_in(const std::vector<JournalOp>& ops) {
    std::vector<std::shared_ptr<const FinishedGame>> finished;
    for (const auto& op : ops)
        if (op.finished) finished.push_back(op.finished);
    return finished;
}

// A pass's events in a row: one op, "pass", whose text is their list, [["choice",{...}],
// ["resolve",{...}],["advance",{...}],["ask",{...}]] (each event's text as it was made: nothing is
// encoded again). The answer that completes a step writes one row instead of four; a restart
// reads it back as the events it holds (events_of, room_restore.cpp). An op that is already a
// "pass" (a failed pass given back) stays as it is.
void RoomJournal::merge_events(std::vector<JournalOp>& ops) {
    auto mergeable = [](const JournalOp& op) { return op.op == JournalOp::Kind::event && op.kind != kPassKind; };
    bool any = false;
    for (std::size_t i = 1; i < ops.size() && !any; ++i) any = mergeable(ops[i - 1]) && mergeable(ops[i]);
    if (!any) return;
    std::vector<JournalOp> merged;
    merged.reserve(ops.size());
    for (std::size_t i = 0; i < ops.size();) {
        std::size_t end = i;
        while (end < ops.size() && mergeable(ops[end])) ++end;
        if (end - i < 2) {
            merged.push_back(std::move(ops[i]));
            ++i;
            continue;
        }
        std::size_t size = 2;
        for (std::size_t k = i; k < end; ++k) size += ops[k].kind.size() + ops[k].text.size() + 6;
        std::string text;
        text.reserve(size);
        text += '[';
        for (std::size_t k = i; k < end; ++k) {
            if (k > i) text += ',';
            text += "[\"";
            text += ops[k].kind;  // a name of ours: nothing to escape
            text += "\",";
            text += ops[k].text;
            text += ']';
        }
        text += ']';
        merged.push_back({JournalOp::Kind::event, std::string(kPassKind), std::move(text)});
        i = end;
    }
    ops = std::move(merged);
}

// Hands this pass's ops to the journal's writer; its messages (and records to export) wait
// for the answer under a new ticket.
std::uint64_t RoomJournal::submit(bool retry, std::vector<std::shared_ptr<const FinishedGame>> finished) {
    merge_events(ops_);
    const std::uint64_t ticket = ++tickets_;
    if (std::exchange(forget_code_, false)) forget_code_ticket_ = ticket;
    waiting_.push_back({ticket, std::exchange(held_, {}), std::move(finished)});
    // The answer holds the room until it is on the room's strand (the room is never let go on
    // the writer's thread). It comes on an I/O thread (the writer's batch of answers, one task):
    // it runs there at once when the room's strand is free.
    services_.journal_writer->submit(
        stream_, std::exchange(ops_, {}), retry,
        [this, keep = owner_.keep_alive(), ticket](JournalWriter::Answer answer) mutable {
            owner_.on_room_strand([this, keep = std::move(keep), ticket, answer = std::move(answer)]() mutable {
                written(ticket, std::move(answer));
            });
        });
    return ticket;
}

// The writer's answer to a ticket: written (its messages, and those of the passes before it,
// go out), or failed (its ops come back, to be written first by the retry).
void RoomJournal::written(std::uint64_t ticket, JournalWriter::Answer answer) {
    ++settled_;
    if (answer.fenced) fenced(*answer.error);
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
        if (!stopped_ && fault_ && ticket == retry_ticket_) back();
    } else {
        returned_.insert(returned_.end(), std::make_move_iterator(answer.ops.begin()),
                         std::make_move_iterator(answer.ops.end()));
        if (!stopped_) fail(*answer.error);
    }
    settle();
    owner_.journal_answered();
}

// Nothing held is ever sent (the journal does not have it), and nothing more is written.
void RoomJournal::fenced(const std::string& why) {
    if (stopped_) return;
    if (fault_) {
        fault_.reset();
        --services_.metrics.journal_paused_rooms;
    }
    stopped_ = true;
    closed_ = true;
    cancel_timers();
    waiting_.clear();
    held_.clear();
    returned_.clear();
    ops_.clear();
    forget_code_ = false;
    forget_code_ticket_ = 0;
    owner_.journal_fenced(why);
}

void RoomJournal::fail(const std::string& why) {
    if (stopped_ || services_.config.no_journal) return;
    services_.journal_failed(why);
    if (!fault_) {
        ++services_.metrics.journal_paused_rooms;  // before /healthz hears of it
        fault_ = why;
        spdlog::error("room {}: the journal cannot be written ({}): the room is paused until it can", code_, why);
        owner_.journal_failing(why);
    }
    retry_later();
}

// Tried again in a second (each try is a pass of its own).
void RoomJournal::retry_later() {
    retry_ = std::make_shared<RoomTimer>(strand_);
    retry_->expires_after(std::chrono::seconds(1));
    retry_->async_wait([this, keep = owner_.keep_alive(), timer = retry_](boost::system::error_code ec) {
        if (ec || stopped_ || retry_ != timer) return;
        end_pass(true);
    });
}

void RoomJournal::back() {
    fault_.reset();
    retry_.reset();
    --services_.metrics.journal_paused_rooms;
    services_.journal_recovered();
    spdlog::info("room {}: the journal takes writes again", code_);
    owner_.journal_back();
    end_pass();
}

void RoomJournal::stop(std::function<void()> done) {
    stopped_ = true;
    closed_ = true;
    cancel_timers();
    when_settled_ = std::move(done);
    settle();
}

void RoomJournal::cancel_timers() {
    if (retry_) retry_->cancel();
}

// The shutdown's end, once every pass has its answer.
void RoomJournal::settle() {
    if (stopped_ && settled_ == tickets_ && when_settled_) std::exchange(when_settled_, {})();
}

void RoomJournal::release(std::vector<Outgoing>& messages) {
    auto held = std::exchange(messages, {});
    for (auto& [peer, text] : held) {
        if (text) peer->send(std::move(text));
        else peer->close();
    }
}

}  // namespace spookludo::server
