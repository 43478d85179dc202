#include "cluster_journal.h"

#include <openssl/sha.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <spdlog/spdlog.h>

#include "cluster_keys.h"
#include "history.h"
#include "redis.h"

namespace spookludo::server {

namespace {

using namespace cluster_keys;  // kPrefix, key(), unix_ms()

// A room's write. KEYS: room:<code>, events:<code>, records, node-rooms:<node>, records-seq. ARGV: node,
// epoch, the number of the first op, the first event's number, records kept, the records' key
// prefix, the code; then the ops: r STATE | g GAME | e KIND TEXT | o ID TEXT OWNER ENDED | c.
// Answers the number of ops the room has written, or an error: FENCED (another node's room now),
// GAP (the store has fewer ops than this write follows: it lost some).
constexpr const char* kWriteScript = R"lua(
local h = redis.call('HMGET', KEYS[1], 'node', 'epoch', 'ops')
if h[1] ~= ARGV[1] or h[2] ~= ARGV[2] then
  return redis.error_reply('FENCED room ' .. ARGV[7] .. ' is ' .. tostring(h[1]) .. "'s at epoch " .. tostring(h[2]) ..
                           ', not ' .. ARGV[1] .. "'s at epoch " .. ARGV[2])
end
local done = tonumber(h[3] or '0')
local op = tonumber(ARGV[3])
if done < op then
  return redis.error_reply('GAP the store has ' .. done .. ' ops of room ' .. ARGV[7] .. ', this write follows ' .. op)
end
local seq = tonumber(ARGV[4])
local closed = false
local i = 8
while i <= #ARGV do
  local kind = ARGV[i]
  local apply = op >= done
  if kind == 'r' then
    if apply then redis.call('HSET', KEYS[1], 'state', ARGV[i + 1]) end
    i = i + 2
  elseif kind == 'g' then
    if apply then redis.call('HSET', KEYS[1], 'game', ARGV[i + 1]) end
    i = i + 2
  elseif kind == 'e' then
    if apply then redis.call('RPUSH', KEYS[2], seq .. ' ' .. ARGV[i + 1] .. ' ' .. ARGV[i + 2]) end
    seq = seq + 1
    i = i + 3
  elseif kind == 'o' then
    if apply then
      redis.call('HDEL', KEYS[1], 'game')
      redis.call('DEL', KEYS[2])
      if ARGV[i + 1] ~= '' then
        redis.call('HSET', ARGV[6] .. ARGV[i + 1], 'text', ARGV[i + 2], 'owner', ARGV[i + 3], 'ended_ms', ARGV[i + 4])
        redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[5]), ARGV[i + 1])
        local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[5])
        if over > 0 then
          local gone = redis.call('ZPOPMIN', KEYS[3], over)
          for k = 1, #gone, 2 do redis.call('DEL', ARGV[6] .. gone[k]) end
        end
      end
    end
    i = i + 5
  elseif kind == 'c' then
    if apply then closed = true end
    i = i + 1
  else
    return redis.error_reply('BADOP ' .. kind)
  end
  op = op + 1
end
if closed then
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('SREM', KEYS[4], ARGV[7])
  return op
end
if op > done then redis.call('HSET', KEYS[1], 'ops', op, 'seq', seq) end
return op
)lua";

// A claim. KEYS: room:<code>, events:<code>, node-rooms:<from>, node-rooms:<to>, node:<from>.
// ARGV: from, to, code, own, made before (own rooms: only those made before that time, Unix ms:
// a room being made now is not a leftover). Answers {epoch, created_ms, state, game, seq, ops,
// events} or nil.
constexpr const char* kClaimRoomScript = R"lua(
if ARGV[4] ~= '1' and redis.call('EXISTS', KEYS[5]) == 1 then return false end
local h = redis.call('HMGET', KEYS[1], 'node', 'created_ms', 'state', 'game', 'seq', 'ops')
if h[1] ~= ARGV[1] then
  redis.call('SREM', KEYS[3], ARGV[3])
  return false
end
if ARGV[4] == '1' and tonumber(h[2] or '0') >= tonumber(ARGV[5]) then return false end
if not h[3] then
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[3])
  return false
end
local epoch = redis.call('HINCRBY', KEYS[1], 'epoch', 1)
redis.call('HSET', KEYS[1], 'node', ARGV[2])
redis.call('SREM', KEYS[3], ARGV[3])
redis.call('SADD', KEYS[4], ARGV[3])
return {epoch, h[2] or '0', h[3], h[4] or '', h[5] or '1', h[6] or '0', redis.call('LRANGE', KEYS[2], 0, -1)}
)lua";

std::string sha1_hex(std::string_view text) {
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char b : digest) {
        out += hex[b >> 4];
        out += hex[b & 15];
    }
    return out;
}

const std::string& write_sha() {
    static const std::string sha = sha1_hex(kWriteScript);
    return sha;
}

std::string lost_why(const redis::Reply& r) {
    return "the cluster's store (Redis) cannot be reached (" + r.text + ")";
}

}  // namespace

RedisJournal::RedisJournal(std::shared_ptr<redis::Client> client, std::string node_id, HistoryStore* history,
                           std::size_t records_kept)
    : client_(std::move(client)), node_id_(std::move(node_id)), history_(history),
      records_kept_(std::max<std::size_t>(records_kept, 1)) {}

RedisJournal::~RedisJournal() { client_->close(); }

std::vector<JournalStore::Result> RedisJournal::store(std::span<const RoomWrite> rooms, std::size_t& transactions) {
    ++transactions;
    std::vector<std::vector<std::string>> commands;
    commands.reserve(rooms.size());
    for (const auto& room : rooms) {
        std::vector<std::string> a{"EVALSHA",
                                   write_sha(),
                                   "5",
                                   key("room", room.code),
                                   key("events", room.code),
                                   std::string(kPrefix) + "records",
                                   key("node-rooms", node_id_),
                                   std::string(kPrefix) + "records-seq",
                                   node_id_,
                                   std::to_string(room.epoch),
                                   std::to_string(room.first_op ? *room.first_op : 0),
                                   std::to_string(room.seq),
                                   std::to_string(records_kept_),
                                   std::string(kPrefix) + "record:",
                                   room.code};
        for (const auto& op : room.ops) {
            switch (op.op) {
                case JournalOp::Kind::room: a.insert(a.end(), {"r", op.text}); break;
                case JournalOp::Kind::game: a.insert(a.end(), {"g", op.text}); break;
                case JournalOp::Kind::event: a.insert(a.end(), {"e", op.kind, op.text}); break;
                case JournalOp::Kind::game_over:
                    if (op.finished)
                        a.insert(a.end(), {"o", op.finished->id, op.finished->text, op.finished->owner,
                                           std::to_string(op.finished->ended_ms ? op.finished->ended_ms : unix_ms())});
                    else
                        a.insert(a.end(), {"o", "", "", "", "0"});
                    break;
                case JournalOp::Kind::closed: a.push_back("c"); break;
            }
        }
        commands.push_back(std::move(a));
    }

    // Pipelined: every room's script is sent, then the answers are waited for (each comes within
    // the client's command time, or as lost).
    struct Wait {
        std::mutex m;
        std::condition_variable cv;
        std::size_t left = 0;
        std::vector<redis::Reply> replies;
    };
    const auto run = [&](const std::vector<std::size_t>& which) {
        auto w = std::make_shared<Wait>();
        w->left = which.size();
        w->replies.resize(which.size());
        for (std::size_t k = 0; k < which.size(); ++k)
            client_->command(commands[which[k]], [w, k](redis::Reply r) {
                std::lock_guard lock(w->m);
                w->replies[k] = std::move(r);
                if (--w->left == 0) w->cv.notify_all();
            });
        // Every command is answered within the client's command time (or as lost); a client
        // whose loop no longer runs (the server stopping) does not hold the writer for ever.
        std::unique_lock lock(w->m);
        if (!w->cv.wait_for(lock, std::chrono::seconds(10), [&] { return w->left == 0; })) {
            std::vector<redis::Reply> lost(which.size());
            for (std::size_t k = 0; k < which.size(); ++k)
                if (w->replies[k].type == redis::Reply::Type::nil && !w->replies[k].lost) {
                    lost[k].type = redis::Reply::Type::error;
                    lost[k].lost = true;
                    lost[k].text = "no answer within 10 s";
                } else {
                    lost[k] = w->replies[k];
                }
            return lost;
        }
        return std::move(w->replies);
    };
    std::vector<std::size_t> all(rooms.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<redis::Reply> replies = run(all);
    // A Redis that does not know the script yet (restarted, or new) is sent its text once.
    std::vector<std::size_t> again;
    for (std::size_t i = 0; i < replies.size(); ++i)
        if (replies[i].error() && !replies[i].lost && replies[i].text.rfind("NOSCRIPT", 0) == 0) {
            commands[i][0] = "EVAL";
            commands[i][1] = kWriteScript;
            again.push_back(i);
        }
    if (!again.empty()) {
        auto second = run(again);
        for (std::size_t k = 0; k < again.size(); ++k) replies[again[k]] = std::move(second[k]);
    }

    std::vector<Result> results(rooms.size());
    for (std::size_t i = 0; i < rooms.size(); ++i) {
        const auto& r = replies[i];
        const auto& room = rooms[i];
        if (r.lost) {
            results[i].error = lost_why(r);
        } else if (r.error()) {
            results[i].error = r.text;
            results[i].fenced = r.text.rfind("FENCED", 0) == 0 || r.text.rfind("GAP", 0) == 0;
        } else {
            for (const auto& op : room.ops)
                if (op.op == JournalOp::Kind::event) ++room.seq;
            if (room.first_op) *room.first_op += static_cast<std::int64_t>(room.ops.size());
            // The node's own copy of the history has the record at once.
            if (history_)
                for (const auto& op : room.ops)
                    if (op.finished) try {
                            history_->add(*op.finished);
                        } catch (const std::exception& e) {
                            spdlog::warn("game {}: not copied into this node's history ({}); it is in Redis",
                                         op.finished->id, e.what());
                        }
        }
    }
    return results;
}

void claim_room(redis::Client& client, const std::string& code, const std::string& from, const std::string& to,
                bool own, std::int64_t made_before_ms, std::function<void(std::optional<SavedRoom>, std::string)> done) {
    client.command({"EVAL", kClaimRoomScript, "5", key("room", code), key("events", code), key("node-rooms", from),
                    key("node-rooms", to), key("node", from), from, to, code, own ? "1" : "0",
                    std::to_string(made_before_ms)},
                   [code, done = std::move(done)](redis::Reply r) {
                       if (r.lost || r.error()) return done(std::nullopt, r.lost ? lost_why(r) : r.text);
                       if (r.type != redis::Reply::Type::array) return done(std::nullopt, "");
                       const auto& e = r.elements;
                       if (e.size() != 7 || e[6].type != redis::Reply::Type::array)
                           return done(std::nullopt, "an unexpected answer to the claim");
                       try {
                           SavedRoom room;
                           room.code = code;
                           room.epoch = e[0].integer;
                           room.created_ms = std::stoll(e[1].text);
                           room.state = e[2].text;
                           if (!e[3].text.empty()) room.game = e[3].text;
                           room.next_seq = std::stoll(e[4].text);
                           room.ops = std::stoll(e[5].text);
                           for (const auto& ev : e[6].elements) {
                               const auto a = ev.text.find(' ');
                               const auto b = a == std::string::npos ? a : ev.text.find(' ', a + 1);
                               if (b == std::string::npos) throw std::runtime_error("an event without its kind");
                               room.events.push_back(
                                   {std::stoll(ev.text.substr(0, a)), ev.text.substr(a + 1, b - a - 1), ev.text.substr(b + 1)});
                           }
                           done(std::move(room), "");
                       } catch (const std::exception& x) {
                           done(std::nullopt, std::string("its journal cannot be read: ") + x.what());
                       }
                   });
}

void read_records(redis::Client& client, std::int64_t after, std::size_t limit,
                  std::function<void(std::optional<std::vector<ClusterRecord>>)> done) {
    auto shared = std::make_shared<decltype(done)>(std::move(done));
    auto* c = &client;
    client.command({"ZRANGEBYSCORE", std::string(kPrefix) + "records", "(" + std::to_string(after), "+inf", "WITHSCORES",
                    "LIMIT", "0", std::to_string(limit)},
                   [c, shared](redis::Reply r) {
                       if (r.lost || r.error() || r.type != redis::Reply::Type::array) return (*shared)(std::nullopt);
                       struct Batch {
                           std::vector<ClusterRecord> records;
                           std::size_t left = 0;
                           bool failed = false;
                       };
                       auto batch = std::make_shared<Batch>();
                       for (std::size_t i = 0; i + 1 < r.elements.size(); i += 2) {
                           ClusterRecord rec;
                           rec.id = r.elements[i].text;
                           rec.seq = std::atoll(r.elements[i + 1].text.c_str());
                           batch->records.push_back(std::move(rec));
                       }
                       if (batch->records.empty()) return (*shared)(std::vector<ClusterRecord>{});
                       batch->left = batch->records.size();
                       for (std::size_t i = 0; i < batch->records.size(); ++i)
                           c->command({"HMGET", std::string(kPrefix) + "record:" + batch->records[i].id, "text", "owner", "ended_ms"},
                                      [batch, i, shared](redis::Reply h) {
                                          if (h.lost || h.error() || h.elements.size() != 3) batch->failed = true;
                                          else {
                                              batch->records[i].text = h.elements[0].text;
                                              batch->records[i].owner = h.elements[1].text;
                                              batch->records[i].ended_ms = std::atoll(h.elements[2].text.c_str());
                                          }
                                          if (--batch->left) return;
                                          if (batch->failed) return (*shared)(std::nullopt);
                                          (*shared)(std::move(batch->records));
                                      });
                   });
}

}  // namespace spookludo::server
