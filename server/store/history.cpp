#include "history.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include <sqlite3.h>

#include "database.h"
#include "metrics.h"
#include "spookludo/text.h"

namespace spookludo::server {

using nlohmann::json;

namespace {

int people_in(const GameRecord& r) {
    return static_cast<int>(std::count_if(r.seats.begin(), r.seats.end(), [](const RecordSeat& s) { return !s.bot; }));
}

}  // namespace

std::optional<std::string> read_record_from(const std::filesystem::path& file, const std::string& id) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw std::runtime_error(file.string() + " does not exist (is --data-dir the server's data directory?)");
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
    const std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
    auto fail = [&](const std::string& doing) {
        return std::runtime_error("cannot read " + file.string() + ": " + doing + ": " +
                                  (raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
    };
    if (rc != SQLITE_OK) throw fail("open");
    sqlite3_busy_timeout(raw, 5000);  // a running server's commit is over in milliseconds
    sqlite3_stmt* raw_statement = nullptr;
    if (sqlite3_prepare_v2(raw, "SELECT record FROM games WHERE id = ?1", -1, &raw_statement, nullptr) != SQLITE_OK)
        throw fail("no finished games in it");
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> statement(raw_statement, sqlite3_finalize);
    sqlite3_bind_text(raw_statement, 1, id.data(), static_cast<int>(id.size()), SQLITE_TRANSIENT);
    const int step = sqlite3_step(raw_statement);
    if (step == SQLITE_DONE) return std::nullopt;
    if (step != SQLITE_ROW) throw fail("reading game " + id);
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(raw_statement, 0));
    return std::string(text ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(raw_statement, 0)));
}

// The statements of a game's end, prepared once (preparing one costs about what running it does).
struct HistoryStore::Statements {
    db::Statement existing, insert_game, insert_seat, erase, oldest_of_owner, oldest_in_class;
    explicit Statements(db::Database& d)
        : existing(d, "SELECT people > 0, coalesce(nullif(owner, ''), '?' || id) FROM games WHERE id = ?1"),
          insert_game(d, "INSERT OR REPLACE INTO games (id, room, game, status, ended_ms, length, people, owner, record) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"),
          insert_seat(d, "INSERT INTO game_players (game_id, seat, name, bot, place, winner, folded_name) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
          erase(d, "DELETE FROM games WHERE id = ?1"),
          // An address's oldest game of a class (the index games_by_owner).
          oldest_of_owner(d, "SELECT ended_ms, id FROM games WHERE owner = ?1 AND (people > 0) = ?2 "
                             "ORDER BY ended_ms ASC, id ASC LIMIT 1"),
          // A class's oldest game (the index games_by_end, backwards).
          oldest_in_class(d, "SELECT id, coalesce(nullif(owner, ''), '?' || id) FROM games WHERE (people > 0) = ?1 "
                             "ORDER BY ended_ms ASC, id ASC LIMIT 1") {}
};

HistoryStore::HistoryStore(db::Database& db, HistoryLimits limits, Metrics* metrics)
    : db_(db), limits_(limits), metrics_(metrics) {
    {
        std::lock_guard lock(db_.mutex());
        statements_ = std::make_unique<Statements>(db_);
        auto kept = db_.prepare("SELECT people > 0, coalesce(nullif(owner, ''), '?' || id), count(*) FROM games GROUP BY 1, 2");
        while (kept.step()) {
            Kept& k = kept_[kept.int64(0) ? 0 : 1];
            k.total += kept.int64(2);
            k.by_owner[kept.text(1)] += kept.int64(2);
        }
    }
    if (metrics_) {
        metrics_->records_kept[0] = static_cast<long>(kept_[0].total);
        metrics_->records_kept[1] = static_cast<long>(kept_[1].total);
    }
}
HistoryStore::~HistoryStore() = default;

void HistoryStore::add(const FinishedGame& game) {
    std::lock_guard lock(db_.mutex());
    Added added;
    try {
        db::Transaction t(db_);
        added = insert(game);
        t.commit();
    } catch (...) {
        rolled_back();
        throw;
    }
    committed();
    counted(added);
}

void HistoryStore::counted(const Added& added) {
    if (!metrics_) return;
    metrics_->records_kept[added.cls] = static_cast<long>(added.kept);
    metrics_->records_evicted[added.cls] += added.evicted;
}

void HistoryStore::committed() { uncommitted_.clear(); }

void HistoryStore::rolled_back() {
    for (auto it = uncommitted_.rbegin(); it != uncommitted_.rend(); ++it) {
        Kept& k = kept_[it->cls];
        k.total -= it->delta;
        if ((k.by_owner[it->owner_key] -= it->delta) <= 0) k.by_owner.erase(it->owner_key);
    }
    uncommitted_.clear();
}

void HistoryStore::count(int cls, const std::string& owner_key, int delta) {
    Kept& k = kept_[cls];
    k.total += delta;
    if ((k.by_owner[owner_key] += delta) <= 0) k.by_owner.erase(owner_key);
    uncommitted_.push_back({cls, owner_key, delta});
}

// The game to give up in a class over its bound: of the addresses holding the most games, the
// one whose oldest game is oldest gives up that game (a game of no known owner is a group of
// its own).
std::optional<HistoryStore::Victim> HistoryStore::victim(int cls) {
    Statements& st = *statements_;
    const Kept& k = kept_[cls];
    std::int64_t most = 0;
    for (const auto& [owner, n] : k.by_owner) most = std::max(most, n);
    if (most == 0) return std::nullopt;
    const std::int64_t people = cls == 0 ? 1 : 0;
    if (most == 1) {  // every group holds one game: the class's oldest
        st.oldest_in_class.reset();
        st.oldest_in_class.bind(1, people);
        std::optional<Victim> v;
        if (st.oldest_in_class.step()) v = Victim{st.oldest_in_class.text(0), st.oldest_in_class.text(1)};
        st.oldest_in_class.reset();
        return v;
    }
    std::optional<Victim> best;
    std::int64_t best_ended = 0;
    for (const auto& [owner, n] : k.by_owner) {
        if (n != most || owner.starts_with('?')) continue;
        st.oldest_of_owner.reset();
        st.oldest_of_owner.bind(1, owner).bind(2, people);
        if (st.oldest_of_owner.step()) {
            const std::int64_t ended = st.oldest_of_owner.int64(0);
            std::string id = st.oldest_of_owner.text(1);
            if (!best || ended < best_ended || (ended == best_ended && id < best->id)) {
                best = Victim{std::move(id), owner};
                best_ended = ended;
            }
        }
        st.oldest_of_owner.reset();
    }
    return best;
}

HistoryStore::Added HistoryStore::insert(const FinishedGame& game) {
    Statements& st = *statements_;
    const GameRecord& record = game.record;
    const std::string& id = game.id;
    const bool people = people_in(record) > 0;
    const int cls = people ? 0 : 1;
    // A game kept already (the same record again) is replaced: it counts once.
    st.existing.reset();
    st.existing.bind(1, id);
    if (st.existing.step()) count(st.existing.int64(0) ? 0 : 1, st.existing.text(1), -1);
    st.existing.reset();
    st.insert_game.reset();
    st.insert_game.bind(1, id)
        .bind(2, id.substr(0, id.find('-')))
        .bind(3, std::string(to_string(record.options.game)))
        .bind(4, std::string(to_string(record.result.status)))
        .bind(5, game.ended_ms != 0 ? game.ended_ms
                                    : static_cast<std::int64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                                    std::chrono::system_clock::now().time_since_epoch())
                                                                    .count()))
        .bind(6, static_cast<std::int64_t>(record.result.length))
        .bind(7, static_cast<std::int64_t>(people_in(record)))
        .bind(8, game.owner)
        .bind(9, game.text)
        .run();
    for (std::size_t p = 0; p < record.seats.size(); ++p) {
        const auto& s = record.seats[p];
        const int place = p < record.result.places.size() ? record.result.places[p] : 0;
        const bool won = std::find(record.result.winners.begin(), record.result.winners.end(), s.seat) != record.result.winners.end();
        st.insert_seat.reset();
        st.insert_seat.bind(1, id)
            .bind(2, static_cast<std::int64_t>(s.room_seat.value_or(s.seat)))
            .bind(3, s.name)
            .bind(4, std::int64_t{s.bot})
            .bind(5, static_cast<std::int64_t>(place))
            .bind(6, std::int64_t{won})
            .bind(7, fold_case(s.name))
            .run();
    }
    count(cls, game.owner.empty() ? "?" + id : game.owner, +1);
    // Over the bound: the owner holding the most (of those, the one with the oldest game) gives
    // up its oldest. A game of no known owner is a group of its own.
    Added added{cls, 0, 0};
    const int bound = people ? limits_.people_kept : limits_.bots_kept;
    while (kept_[cls].total > bound) {
        const auto v = victim(cls);
        if (!v) break;
        st.erase.reset();
        st.erase.bind(1, v->id).run();
        count(cls, v->owner_key, -1);
        ++added.evicted;
    }
    added.kept = kept_[cls].total;
    return added;
}

std::optional<std::string> HistoryStore::record(const std::string& id) {
    std::lock_guard lock(db_.mutex());
    auto s = db_.prepare("SELECT record FROM games WHERE id = ?1");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return s.text(0);
}

json HistoryStore::games(const GamesQuery& q) {
    std::lock_guard lock(db_.mutex());
    std::string where = " WHERE 1";
    if (!q.room.empty()) where += " AND g.room = ?1";
    if (!q.player.empty())
        where += " AND EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id AND p.folded_name = ?2)";
    if (!q.game.empty()) where += " AND g.game = ?3";
    if (q.since_ms) where += " AND g.ended_ms >= ?4";
    if (q.until_ms) where += " AND g.ended_ms < ?5";
    auto bind = [&](db::Statement& s) {
        if (!q.room.empty()) s.bind(1, q.room);
        if (!q.player.empty()) s.bind(2, fold_case(q.player));
        if (!q.game.empty()) s.bind(3, q.game);
        if (q.since_ms) s.bind(4, *q.since_ms);
        if (q.until_ms) s.bind(5, *q.until_ms);
    };
    auto total = db_.prepare("SELECT count(*) FROM games g" + where);
    bind(total);
    total.step();
    const std::int64_t count = total.int64(0);
    const int per_page = std::clamp(q.per_page, 1, 100);
    const int page = std::max(q.page, 1);
    auto rows = db_.prepare("SELECT g.id, g.room, g.game, g.status, g.ended_ms, g.length FROM games g" + where +
                            " ORDER BY g.ended_ms DESC, g.id DESC LIMIT ?6 OFFSET ?7");
    bind(rows);
    rows.bind(6, std::int64_t{per_page}).bind(7, static_cast<std::int64_t>(page - 1) * per_page);
    json list = json::array();
    auto players = db_.prepare("SELECT seat, name, bot, place, winner FROM game_players WHERE game_id = ?1 ORDER BY seat");
    while (rows.step()) {
        json g = {{"id", rows.text(0)},       {"room", rows.text(1)},        {"game", rows.text(2)},
                  {"status", rows.text(3)},   {"ended_ms", rows.int64(4)},   {"length", rows.int64(5)},
                  {"record", "/games/" + rows.text(0)}, {"players", json::array()}};
        players.reset();
        players.bind(1, rows.text(0));
        while (players.step())
            g["players"].push_back({{"seat", players.int64(0)},
                                    {"name", players.text(1)},
                                    {"bot", players.int64(2) != 0},
                                    {"place", players.int64(3)},
                                    {"winner", players.int64(4) != 0}});
        list.push_back(std::move(g));
    }
    return {{"games", std::move(list)}, {"page", page}, {"per_page", per_page}, {"total", count},
            {"pages", (count + per_page - 1) / per_page}};
}

std::optional<json> HistoryStore::player(const std::string& name) {
    std::lock_guard lock(db_.mutex());
    auto s = db_.prepare(
        "SELECT g.game, count(*), sum(p.winner), sum(CASE WHEN g.status = 'finished' THEN 1 ELSE 0 END), "
        "sum(CASE WHEN p.place = 1 THEN 1 ELSE 0 END), sum(CASE WHEN p.place = 2 THEN 1 ELSE 0 END), "
        "sum(CASE WHEN p.place = 3 THEN 1 ELSE 0 END), max(g.ended_ms) "
        "FROM game_players p JOIN games g ON g.id = p.game_id WHERE p.folded_name = ?1 GROUP BY g.game ORDER BY g.game");
    s.bind(1, fold_case(name));
    json by_game = json::object();
    std::int64_t games = 0, wins = 0;
    while (s.step()) {
        by_game[s.text(0)] = {{"games", s.int64(1)},  {"wins", s.int64(2)},   {"finished", s.int64(3)},
                              {"places", {{"1", s.int64(4)}, {"2", s.int64(5)}, {"3", s.int64(6)}}},
                              {"last_ms", s.int64(7)}};
        games += s.int64(1);
        wins += s.int64(2);
    }
    if (games == 0) return std::nullopt;
    return json{{"name", name}, {"games", games}, {"wins", wins}, {"by_game", std::move(by_game)}};
}

std::int64_t HistoryStore::count(bool people) {
    std::lock_guard lock(db_.mutex());
    auto n = db_.prepare(std::string("SELECT count(*) FROM games WHERE ") + (people ? "people > 0" : "people = 0"));
    n.step();
    return n.int64(0);
}

}  // namespace spookludo::server
