#include "journal.h"

#include "database.h"

namespace spookludo::server {

Journal::Journal(db::Database& db) : db_(db) {}
Journal::~Journal() = default;

void Journal::write(const std::string& code, std::int64_t created_ms, const std::vector<JournalOp>& ops,
                    std::int64_t& seq) {
    if (ops.empty()) return;
    std::lock_guard lock(db_.mutex());
    std::int64_t next = seq;
    db::Transaction t(db_);
    for (const auto& op : ops) {
        switch (op.op) {
            case JournalOp::Kind::room:
                db_.prepare("INSERT INTO rooms (code, created_ms, state) VALUES (?1, ?2, ?3) "
                            "ON CONFLICT (code) DO UPDATE SET state = excluded.state")
                    .bind(1, code)
                    .bind(2, created_ms)
                    .bind(3, op.text)
                    .run();
                break;
            case JournalOp::Kind::game:
                db_.prepare("INSERT OR REPLACE INTO room_games (code, game) VALUES (?1, ?2)").bind(1, code).bind(2, op.text).run();
                break;
            case JournalOp::Kind::event:
                db_.prepare("INSERT INTO room_events (code, seq, kind, data) VALUES (?1, ?2, ?3, ?4)")
                    .bind(1, code)
                    .bind(2, next++)
                    .bind(3, op.kind)
                    .bind(4, op.text)
                    .run();
                break;
            case JournalOp::Kind::game_over:
                db_.prepare("DELETE FROM room_events WHERE code = ?1").bind(1, code).run();
                db_.prepare("DELETE FROM room_games WHERE code = ?1").bind(1, code).run();
                break;
            case JournalOp::Kind::closed:
                db_.prepare("DELETE FROM room_events WHERE code = ?1").bind(1, code).run();
                db_.prepare("DELETE FROM room_games WHERE code = ?1").bind(1, code).run();
                db_.prepare("DELETE FROM rooms WHERE code = ?1").bind(1, code).run();
                break;
        }
    }
    t.commit();
    seq = next;
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
