#include <spdlog/spdlog.h>

#include "journal.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>

#include "database.h"
#include "history.h"

#include <sqlite3.h>

namespace spookludo::server {

// A room's pass is a few rows: the statements are prepared once (preparing costs as much as
// running them), and the transaction's BEGIN, COMMIT and ROLLBACK are statements too.
struct Journal::Statements {
    db::Statement begin, commit, rollback, room, game, event, forget_game, forget_room, forget_below, sweep;
    explicit Statements(db::Database& d)
        : begin(d, "BEGIN IMMEDIATE"),
          commit(d, "COMMIT"),
          rollback(d, "ROLLBACK"),
          room(d, "INSERT INTO rooms (code, created_ms, state) VALUES (?1, ?2, ?3) "
                  "ON CONFLICT (code) DO UPDATE SET state = excluded.state"),
          game(d, "INSERT INTO room_games (code, game, first_event) VALUES (?1, ?2, ?3) "
                  "ON CONFLICT (code) DO UPDATE SET game = excluded.game"),
          event(d, "INSERT INTO journal_events (id, code, seq, kind, data) VALUES (?1, ?2, ?3, ?4, ?5)"),
          forget_game(d, "DELETE FROM room_games WHERE code = ?1"),
          forget_room(d, "DELETE FROM rooms WHERE code = ?1"),
          forget_below(d, "DELETE FROM journal_events WHERE id < ?1"),
          sweep(d, "DELETE FROM journal_events WHERE id >= ?1 AND id < ?2 AND NOT EXISTS (SELECT 1 FROM room_games g "
                   "WHERE g.code = journal_events.code AND journal_events.id >= g.first_event)") {}
};

// What a transaction did to the events table, applied to the journal's picture of it once the
// transaction is committed.
struct Journal::Change {
    enum class Kind : unsigned char { game, event, over } kind;
    const std::string* code;
    std::int64_t first_event = 0;  // game: a game begun here
};

namespace {

void run(db::Statement& s) {
    s.reset();
    s.run();
}

// Dead events are deleted once this many are below the oldest game's first; a sweep past a long
// game (one paused for hours holds every later game's events back) starts when the table has
// more than kSweepFactor times the live events and kSweepSlack besides, and deletes kSweepChunk
// ids a transaction.
// Both go further in one transaction when the transaction wrote more events than a chunk (they
// keep ahead of the writing), and the prefix deletes at most kForgetMost at a time (the lock is
// held meanwhile).
constexpr std::int64_t kForgetChunk = 2048;
constexpr std::int64_t kForgetMost = 16384;
constexpr std::int64_t kSweepFactor = 4;
constexpr std::int64_t kSweepSlack = 50000;
constexpr std::int64_t kSweepChunk = 2048;

}  // namespace

Journal::Journal(db::Database& db, HistoryStore* history)
    : db_(db), history_(history), statements_(std::make_unique<Statements>(db)) {
    std::lock_guard lock(db_.mutex());
    auto g = db_.prepare("SELECT code, first_event FROM room_games");
    while (g.step()) {
        games_[g.text(0)] = {g.int64(1), 0};
        firsts_.insert(g.int64(1));
        next_event_ = std::max(next_event_, g.int64(1));  // a game without events yet starts there
    }
    auto e = db_.prepare("SELECT id, code FROM journal_events ORDER BY id");
    while (e.step()) {
        ++rows_;
        next_event_ = std::max(next_event_, e.int64(0) + 1);
        if (deleted_below_ == 0) deleted_below_ = e.int64(0);
        if (auto it = games_.find(e.text(1)); it != games_.end() && e.int64(0) >= it->second.first_event) {
            ++it->second.events;
            ++live_rows_;
        }
    }
    if (deleted_below_ == 0) deleted_below_ = next_event_;
}
Journal::~Journal() = default;

void Journal::write(const std::string& code, std::int64_t created_ms, const std::vector<JournalOp>& ops,
                    std::int64_t& seq) {
    if (ops.empty()) return;
    const RoomWrite one{code, created_ms, ops, seq};
    write(std::span<const RoomWrite>(&one, 1));
}

std::vector<JournalStore::Result> Journal::store(std::span<const RoomWrite> rooms, std::size_t& transactions) {
    std::vector<Result> results(rooms.size());
    ++transactions;
    try {
        write(rooms);
        return results;
    } catch (const std::exception& e) {
        if (rooms.size() == 1) {
            results.front().error = e.what();
            return results;
        }
    }
    // Room by room: a room whose own write fails (a bad row) does not hold up the others.
    for (std::size_t i = 0; i < rooms.size(); ++i) {
        ++transactions;
        try {
            write(rooms.subspan(i, 1));
        } catch (const std::exception& e) {
            results[i].error = e.what();
        }
    }
    return results;
}

void Journal::write(std::span<const RoomWrite> rooms) {
    std::lock_guard lock(db_.mutex());
    Statements& st = *statements_;
    std::vector<std::int64_t> next;
    next.reserve(rooms.size());
    std::vector<HistoryStore::Added> added;
    std::vector<Change> changes;
    std::int64_t id = next_event_;
    std::unordered_map<std::string_view, bool> playing;  // rooms whose game began or ended in this transaction
    run(st.begin);
    try {
        for (const auto& room : rooms) {
            const std::string& code = room.code;
            std::int64_t n = room.seq;
            for (const auto& op : room.ops) {
                switch (op.op) {
                    case JournalOp::Kind::room:
                        st.room.reset();
                        st.room.bind(1, code).bind(2, room.created_ms).bind(3, op.text).run();
                        break;
                    case JournalOp::Kind::game: {
                        // A game begun here starts at the next event; a game already there keeps its first.
                        auto p = playing.find(code);
                        const bool begun = p != playing.end() ? !p->second : !games_.contains(code);
                        st.game.reset();
                        st.game.bind(1, code).bind(2, op.text).bind(3, id).run();
                        if (begun) {
                            changes.push_back({Change::Kind::game, &code, id});
                            playing[code] = true;
                        }
                        break;
                    }
                    case JournalOp::Kind::event:
                        st.event.reset();
                        st.event.bind(1, id++).bind(2, code).bind(3, n++).bind(4, op.kind).bind(5, op.text).run();
                        changes.push_back({Change::Kind::event, &code});
                        break;
                    case JournalOp::Kind::game_over:
                        if (op.finished && history_) added.push_back(history_->insert(*op.finished));
                        [[fallthrough]];
                    case JournalOp::Kind::closed:
                        // The game's events are dead from here (deleted later, in ranges).
                        st.forget_game.reset();
                        st.forget_game.bind(1, code).run();
                        changes.push_back({Change::Kind::over, &code});
                        playing[code] = false;
                        if (op.op == JournalOp::Kind::closed) {
                            st.forget_room.reset();
                            st.forget_room.bind(1, code).run();
                        }
                        break;
                }
            }
            next.push_back(n);
        }
        run(st.commit);
        if (history_) history_->committed();
        for (const auto& a : added) history_->counted(a);
    } catch (const db::Error& e) {
        try {
            run(st.rollback);
        } catch (...) {
            // SQLite rolls back by itself when a statement failed badly enough
        }
        if (history_) history_->rolled_back();
        // An event id already taken (the picture and the file disagree: never seen, but it would
        // stop every room for good): the next id is read again from the file.
        if ((e.code() & 0xff) == SQLITE_CONSTRAINT) try {
                auto m = db_.prepare("SELECT coalesce(max(id), 0) + 1 FROM journal_events");
                if (m.step()) next_event_ = std::max(next_event_, m.int64(0));
            } catch (...) {
            }
        throw;
    } catch (...) {
        try {
            run(st.rollback);
        } catch (...) {
        }
        if (history_) history_->rolled_back();
        throw;
    }
    for (std::size_t i = 0; i < rooms.size(); ++i) rooms[i].seq = next[i];
    const std::int64_t written = id - next_event_;
    next_event_ = id;
    apply(changes);
    tidy(written);
}

void Journal::apply(const std::vector<Change>& changes) {
    for (const auto& c : changes) {
        switch (c.kind) {
            case Change::Kind::game:
                if (games_.try_emplace(*c.code, LiveGame{c.first_event, 0}).second) firsts_.insert(c.first_event);
                break;
            case Change::Kind::event:
                ++rows_;
                if (auto it = games_.find(*c.code); it != games_.end()) {
                    ++it->second.events;
                    ++live_rows_;
                }
                break;
            case Change::Kind::over:
                if (auto it = games_.find(*c.code); it != games_.end()) {
                    live_rows_ -= it->second.events;
                    firsts_.erase(firsts_.find(it->second.first_event));
                    games_.erase(it);
                }
                break;
        }
    }
}

// Deletes dead events, a range at a time, each in a transaction of its own after the rooms'
// (a failure only leaves them for later).
void Journal::tidy(std::int64_t written) {
    Statements& st = *statements_;
    try {
        const std::int64_t oldest = firsts_.empty() ? next_event_ : *firsts_.begin();
        if (oldest - deleted_below_ >= kForgetChunk) {
            const std::int64_t below = std::min(oldest, deleted_below_ + std::max(kForgetMost, 2 * written));
            st.forget_below.reset();
            st.forget_below.bind(1, below).run();
            rows_ -= db_.changes();
            deleted_below_ = below;
            if (sweep_at_ && sweep_at_ < below) sweep_at_ = below;
        }
        if (!sweep_at_ && rows_ > kSweepFactor * live_rows_ + kSweepSlack) sweep_at_ = deleted_below_;
        if (sweep_at_) {
            const std::int64_t to = std::min(sweep_at_ + kSweepChunk + 2 * written, next_event_);
            st.sweep.reset();
            st.sweep.bind(1, sweep_at_).bind(2, to).run();
            rows_ -= db_.changes();
            sweep_at_ = to >= next_event_ ? 0 : to;
        }
    } catch (const std::exception&) {
        // the rows stay until a later write deletes them
    }
}

std::vector<SavedRoom> Journal::load() {
    std::lock_guard lock(db_.mutex());
    std::vector<SavedRoom> rooms;
    auto r = db_.prepare("SELECT code, created_ms, state FROM rooms ORDER BY created_ms, code");
    while (r.step()) {
        SavedRoom room;
        room.code = r.text(0);
        room.created_ms = r.int64(1);
        room.state = r.text(2);
        rooms.push_back(std::move(room));
    }
    std::unordered_map<std::string_view, SavedRoom*> by_code;
    for (auto& room : rooms) {
        by_code[room.code] = &room;
        auto g = db_.prepare("SELECT game FROM room_games WHERE code = ?1");
        g.bind(1, room.code);
        if (g.step()) room.game = g.text(0);
    }
    // The live events: a game's, from its first on (in the order written, which is each room's).
    const std::int64_t oldest = firsts_.empty() ? next_event_ : *firsts_.begin();
    auto e = db_.prepare("SELECT id, code, seq, kind, data FROM journal_events WHERE id >= ?1 ORDER BY id");
    e.bind(1, oldest);
    while (e.step()) {
        const std::string code = e.text(1);
        auto g = games_.find(code);
        auto room = by_code.find(code);
        if (g == games_.end() || e.int64(0) < g->second.first_event || room == by_code.end() || !room->second->game)
            continue;
        room->second->events.push_back({e.int64(2), e.text(3), e.text(4)});
    }
    return rooms;
}

void Journal::mark(const std::string& name, std::int64_t value) {
    std::lock_guard lock(db_.mutex());
    db_.prepare("INSERT OR REPLACE INTO server_marks (name, value) VALUES (?1, ?2)").bind(1, name).bind(2, value).run();
}

std::optional<std::int64_t> Journal::read_mark(const std::string& name) {
    std::lock_guard lock(db_.mutex());
    auto s = db_.prepare("SELECT value FROM server_marks WHERE name = ?1");
    s.bind(1, name);
    if (s.step()) return s.int64(0);
    return std::nullopt;
}

void Journal::forget_mark(const std::string& name) {
    std::lock_guard lock(db_.mutex());
    db_.prepare("DELETE FROM server_marks WHERE name = ?1").bind(1, name).run();
}

}  // namespace spookludo::server

namespace spookludo::server {

namespace {

void answer(const JournalWriter::Done& done, JournalWriter::Answer a) {
    try {
        done(std::move(a));
    } catch (const std::exception& e) {
        spdlog::error("a room could not take the journal's answer: {}", e.what());
    } catch (...) {
        // the room is gone (its strand cannot take the answer): nothing waits for it
    }
}

}  // namespace

JournalWriter::JournalWriter(JournalStore& journal, std::chrono::microseconds window, std::size_t max_passes,
                             Counters counters)
    : journal_(journal), window_(window), max_passes_(std::max<std::size_t>(max_passes, 1)),
      counters_(std::move(counters)), thread_([this] { run(); }) {}

JournalWriter::~JournalWriter() { stop(); }

void JournalWriter::submit(std::shared_ptr<Stream> stream, std::vector<JournalOp> ops, bool retry, Done done) {
    bool post_flush = false;
    {
        std::unique_lock lock(mutex_);
        if (stopping_) {
            lock.unlock();
            return done({"the server is stopping", std::move(ops)});
        }
        const bool new_room = !std::exchange(stream->queued, true);
        queued_rooms_ += new_room;
        queue_.push_back({std::move(stream), std::move(ops), retry, std::move(done), std::chrono::steady_clock::now()});
        if (burst_) {
            // The burst's end writes it (flush), behind what the event loop has ready now.
            post_flush = !std::exchange(flush_posted_, true);
        } else if (queue_.size() == 1 || queue_.size() == max_passes_ ||
                   (new_room && queued_rooms_ == enough_rooms_)) {
            // The writer sleeps until a first submission, then until its window ends, enough
            // rooms are there, or the transaction is full.
            wake_.notify_one();
        }
    }
    if (post_flush) try {
            post_([this] { flush(); });
        } catch (...) {
            std::lock_guard lock(mutex_);
            flush_posted_ = false;  // the next submission tries again
            throw;
        }
}

void JournalWriter::run_on(Post post, bool at_burst_end, bool on_io_thread) {
    std::lock_guard lock(mutex_);
    post_ = std::move(post);
    burst_ = post_ && at_burst_end;
    inline_ = burst_ && on_io_thread;
}

void JournalWriter::flush() {
    std::vector<Submission> batch;
    {
        std::lock_guard lock(mutex_);
        flush_posted_ = false;
        if (queue_.empty()) return;
        if (writing_ || !inline_ || queue_.size() > kInlinePasses) {
            // Being written (another batch, in order before this one), a big one (rooms playing
            // flat out), or a store the I/O thread must not wait for: the writer's thread takes
            // it, and the I/O thread goes on.
            flush_asked_ = true;
            if (!writing_) wake_.notify_one();
            return;
        }
        batch.swap(spare_);  // empty: its storage becomes the queue's
        take(batch);
    }
    std::vector<std::pair<Done, Answer>> answers;
    try {
        write(batch, answers);
    } catch (...) {
        finish(answers, true);  // the writer is not left wedged (writing_)
        throw;
    }
    finish(answers, true);
    batch.clear();
    std::lock_guard lock(mutex_);
    if (batch.capacity() > spare_.capacity()) spare_.swap(batch);
}

void JournalWriter::finish(std::vector<std::pair<Done, Answer>>& answers, bool on_io_thread) {
    bool drain_here = false, post_drain = false;
    {
        std::lock_guard lock(mutex_);
        // Queued in the order written, before the next batch can be taken: a room's answers come
        // in the order of its submissions whoever wrote them (a flush or the writer's thread).
        answers_.insert(answers_.end(), std::make_move_iterator(answers.begin()), std::make_move_iterator(answers.end()));
        answers.clear();
        done_writing();
        if (!answers_.empty() && !draining_) {
            if (on_io_thread || !post_) drain_here = draining_ = true;
            else if (!drain_posted_) post_drain = drain_posted_ = true;
        }
    }
    if (drain_here) drain();
    if (post_drain) try {
            post_([this] {
                {
                    std::lock_guard lock(mutex_);
                    drain_posted_ = false;
                    if (draining_ || answers_.empty()) return;  // the one draining takes them
                    draining_ = true;
                }
                drain();
            });
        } catch (...) {
            std::lock_guard lock(mutex_);
            drain_posted_ = false;
            throw;
        }
}

void JournalWriter::drain() {
    std::vector<std::pair<Done, Answer>> batch;
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (answers_.empty()) {
                draining_ = false;
                return;
            }
            batch.swap(answers_);
        }
        for (auto& [done, a] : batch) answer(done, std::move(a));
        batch.clear();
    }
}

void JournalWriter::take(std::vector<Submission>& batch) {
    flush_asked_ = false;
    writing_ = true;
    if (queue_.size() <= max_passes_) {
        batch.swap(queue_);
        for (auto& s : batch) s.stream->queued = false;
        queued_rooms_ = 0;
    } else {
        // A transaction of max_passes_; the rest waits for the next (in order).
        const auto cut = queue_.begin() + static_cast<std::ptrdiff_t>(max_passes_);
        batch.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(cut));
        queue_.erase(queue_.begin(), cut);
        for (auto& s : batch) s.stream->queued = false;
        queued_rooms_ = 0;
        for (auto& s : queue_) queued_rooms_ += !std::exchange(s.stream->queued, true);
        flush_asked_ = burst_;  // the rest at once
    }
}

void JournalWriter::done_writing() {
    writing_ = false;
    enough_rooms_ = std::max<std::size_t>(1, std::max(rooms_last_second_, rooms_this_second_) / 2);
    // What a flush left to the writer's thread meanwhile (or a stop) is its now.
    if (stopping_ || (!queue_.empty() && (flush_asked_ || !burst_))) wake_.notify_one();
}

void JournalWriter::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && !thread_.joinable()) return;
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
}

void JournalWriter::run() {
    std::vector<Submission> batch;
    std::unique_lock lock(mutex_);
    for (;;) {
        // Writing at the bursts' ends, the thread writes only what a flush hands it (a big batch,
        // or one that came while another was being written) and, at the stop, what is left.
        wake_.wait(lock, [&] {
            return (!queue_.empty() && !writing_ && (!burst_ || flush_asked_ || stopping_)) ||
                   (stopping_ && queue_.empty() && !writing_);
        });
        if (queue_.empty()) return;  // stopping, and everything is answered
        if (!burst_) {
            const auto until = queue_.front().at + window_;
            while (!stopping_ && queue_.size() < max_passes_ && queued_rooms_ < enough_rooms_ &&
                   std::chrono::steady_clock::now() < until)
                wake_.wait_until(lock, until);
        }
        take(batch);
        lock.unlock();
        std::vector<std::pair<Done, Answer>> answers;
        try {
            write(batch, answers);
        } catch (...) {
            finish(answers, false);
            throw;
        }
        finish(answers, false);
        batch.clear();
        lock.lock();
    }
}


void JournalWriter::write(std::vector<Submission>& batch, std::vector<std::pair<Done, Answer>>& answers) {
    // The rooms active lately (each counted once a second).
    const auto now = std::chrono::steady_clock::now();
    if (now - second_began_ >= std::chrono::seconds(1)) {
        rooms_last_second_ = now - second_began_ < std::chrono::seconds(2) ? rooms_this_second_ : 0;
        rooms_this_second_ = 0;
        ++second_;
        second_began_ = now;
    }
    for (auto& s : batch) rooms_this_second_ += std::exchange(s.stream->seen, second_) != second_;
    // One group per room, its passes' ops in order.
    struct Group {
        Stream* stream;
        std::vector<JournalOp> ops;
        std::vector<Submission*> passes;
    };
    std::vector<Group> groups;
    std::unordered_map<Stream*, std::size_t> group_of;
    std::vector<Submission*> refused;  // rooms whose earlier write failed, untried
    // The answers, in order, answered once the batch is done (finish).
    auto give = [&](Submission& s, Answer a) { answers.emplace_back(std::move(s.done), std::move(a)); };
    for (auto& s : batch) {
        if (s.retry) s.stream->failed = false;
        if (s.stream->failed) {
            refused.push_back(&s);
            continue;
        }
        if (auto [it, fresh] = group_of.try_emplace(s.stream.get(), groups.size()); fresh) {
            groups.push_back({s.stream.get(), std::move(s.ops), {&s}});
        } else {
            Group& g = groups[it->second];
            g.ops.insert(g.ops.end(), std::make_move_iterator(s.ops.begin()), std::make_move_iterator(s.ops.end()));
            g.passes.push_back(&s);
        }
    }
    for (Submission* s : refused) give(*s, {s->stream->failed_why, std::move(s->ops)});

    auto failed = [&](Group& g, const std::string& why, bool fenced) {
        g.stream->failed = true;
        g.stream->failed_why = why;
        bool first = true;
        for (Submission* s : g.passes) {
            give(*s, {why, first ? std::move(g.ops) : std::vector<JournalOp>{}, fenced});
            first = false;
        }
    };
    if (groups.empty()) return;
    std::vector<RoomWrite> writes;
    writes.reserve(groups.size());
    for (auto& g : groups)
        writes.push_back({g.stream->code, g.stream->created_ms, g.ops, g.stream->seq, g.stream->epoch, &g.stream->ops});
    std::size_t transactions = 0, passes = 0, failures = 0;
    std::vector<JournalStore::Result> results;
    try {
        results = journal_.store(writes, transactions);
    } catch (const std::exception& e) {  // a store that failed as a whole
        results.assign(groups.size(), JournalStore::Result{e.what(), false});
    }
    for (std::size_t i = 0; i < groups.size(); ++i) {
        Group& g = groups[i];
        const auto r = i < results.size() ? results[i] : JournalStore::Result{"no answer", false};
        if (r.error) {
            ++failures;
            failed(g, *r.error, r.fenced);
        } else {
            passes += g.passes.size();
            for (Submission* s : g.passes) give(*s, {});
        }
    }
    if (passes && counters_.written) counters_.written(transactions, passes);
    if (failures && counters_.failed) counters_.failed(failures);
}

}  // namespace spookludo::server
