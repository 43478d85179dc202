#include "journal.h"

#include "database.h"
#include "history.h"

namespace spookludo::server {

// A room's pass is a few rows: the statements are prepared once (preparing costs as much as
// running them), and the transaction's BEGIN, COMMIT and ROLLBACK are statements too.
struct Journal::Statements {
    db::Statement begin, commit, rollback, room, game, event, forget_events, forget_game, forget_room;
    explicit Statements(db::Database& d)
        : begin(d, "BEGIN IMMEDIATE"),
          commit(d, "COMMIT"),
          rollback(d, "ROLLBACK"),
          room(d, "INSERT INTO rooms (code, created_ms, state) VALUES (?1, ?2, ?3) "
                  "ON CONFLICT (code) DO UPDATE SET state = excluded.state"),
          game(d, "INSERT OR REPLACE INTO room_games (code, game) VALUES (?1, ?2)"),
          event(d, "INSERT INTO room_events (code, seq, kind, data) VALUES (?1, ?2, ?3, ?4)"),
          forget_events(d, "DELETE FROM room_events WHERE code = ?1"),
          forget_game(d, "DELETE FROM room_games WHERE code = ?1"),
          forget_room(d, "DELETE FROM rooms WHERE code = ?1") {}
};

namespace {

void run(db::Statement& s) {
    s.reset();
    s.run();
}

}  // namespace

Journal::Journal(db::Database& db, HistoryStore* history)
    : db_(db), history_(history), statements_(std::make_unique<Statements>(db)) {}
Journal::~Journal() = default;

void Journal::write(const std::string& code, std::int64_t created_ms, const std::vector<JournalOp>& ops,
                    std::int64_t& seq) {
    if (ops.empty()) return;
    const RoomWrite one{code, created_ms, ops, seq};
    write(std::span<const RoomWrite>(&one, 1));
}

void Journal::write(std::span<const RoomWrite> rooms) {
    std::lock_guard lock(db_.mutex());
    Statements& st = *statements_;
    std::vector<std::int64_t> next;
    next.reserve(rooms.size());
    std::vector<HistoryStore::Added> added;
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
                    case JournalOp::Kind::game:
                        st.game.reset();
                        st.game.bind(1, code).bind(2, op.text).run();
                        break;
                    case JournalOp::Kind::event:
                        st.event.reset();
                        st.event.bind(1, code).bind(2, n++).bind(3, op.kind).bind(4, op.text).run();
                        break;
                    case JournalOp::Kind::game_over:
                        if (op.finished && history_) added.push_back(history_->insert(*op.finished));
                        [[fallthrough]];
                    case JournalOp::Kind::closed:
                        for (db::Statement* s : {&st.forget_events, &st.forget_game}) {
                            s->reset();
                            s->bind(1, code).run();
                        }
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
        for (const auto& a : added) history_->counted(a);
    } catch (...) {
        try {
            run(st.rollback);
        } catch (...) {
            // SQLite rolls back by itself when a statement failed badly enough
        }
        throw;
    }
    for (std::size_t i = 0; i < rooms.size(); ++i) rooms[i].seq = next[i];
}

std::vector<SavedRoom> Journal::load() {
    std::lock_guard lock(db_.mutex());
    std::vector<SavedRoom> rooms;
    auto r = db_.prepare("SELECT code, created_ms, state FROM rooms ORDER BY created_ms, code");
    while (r.step()) rooms.push_back(SavedRoom{r.text(0), r.int64(1), r.text(2), std::nullopt, {}});
    for (auto& room : rooms) {
        auto g = db_.prepare("SELECT game FROM room_games WHERE code = ?1");
        g.bind(1, room.code);
        if (g.step()) room.game = g.text(0);
        auto e = db_.prepare("SELECT seq, kind, data FROM room_events WHERE code = ?1 ORDER BY seq");
        e.bind(1, room.code);
        while (e.step()) room.events.push_back({e.int64(0), e.text(1), e.text(2)});
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
