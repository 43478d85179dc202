#include "cluster.h"
#include "cluster_keys.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "cluster_journal.h"
#include "history.h"
#include "redis.h"
#include "room.h"
#include "services.h"
#include "spookludo/record.h"

namespace spookludo::server {

namespace net = boost::asio;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

bool valid_node_id(const std::string& id) {
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
               c == '-';
    });
}

namespace {

using namespace cluster_keys;


class ClusterImpl final : public Cluster, public std::enable_shared_from_this<ClusterImpl> {
public:
    ClusterImpl(net::io_context& io, Services& services, redis::Address address, std::string node_id, std::string url)
        : io_(io),
          strand_(net::make_strand(io)),
          timer_(strand_),
          services_(services),
          address_(std::move(address)),
          id_(std::move(node_id)),
          url_(std::move(url)),
          started_ms_(unix_ms()) {}

    void start() {
        services_.metrics.in_cluster = true;
        redis_ = redis::Client::make(io_, address_, {}, [weak = weak_from_this()](bool up) {
            auto self = weak.lock();
            if (!self) return;
            self->redis_up_ = up;
            if (up) self->connected_since_ = Clock::now();
            self->services_.metrics.cluster_redis_connected = up ? 1 : 0;
            // A lost connection ends the lease at once: Redis may have restarted and lost the
            // heartbeat key, and other nodes may see this one dead from now. A new connection
            // beats at once, so the lease comes back within a round trip.
            if (!up) self->set_lease(0);
            else net::post(self->strand_, [self] { self->beat(); });
        });
        // Lookups, placements and claims on a connection of their own: however many players ask
        // where their rooms are, the heartbeat (and with it the lease) never waits behind them.
        dir_ = redis::Client::make(io_, address_);
        net::post(strand_, [self = shared_from_this()] { self->beat(); });
    }

    // The owner lets go: the heartbeat stops (the key expires by itself unless leave() said
    // goodbye) and the connection closes.
    void shutdown() {
        left_ = true;
        net::post(strand_, [self = shared_from_this()] { self->timer_.cancel(); });
        redis_->close();
        dir_->close();
    }

    const std::string& node_id() const noexcept override { return id_; }

    std::vector<NodeInfo> nodes() const override {
        std::lock_guard lock(mutex_);
        return nodes_;
    }

    std::vector<std::string> live_urls() const override {
        std::lock_guard lock(mutex_);
        std::vector<std::string> urls;
        for (const auto& n : nodes_)
            if (n.alive && !n.url.empty()) urls.push_back(n.url);
        return urls;
    }

    bool lease_valid() const override { return lease_left() > std::chrono::milliseconds::zero(); }

    // The lease's end (0: none); never set again once the node left.
    void set_lease(Clock::rep until) {
        if (left_) until = 0;
        if (until) had_lease_ = true;
        else if (lease_valid() && had_lease_.exchange(false)) lease_lost("the connection to Redis was lost");
        lease_until_ = until;
        services_.metrics.cluster_lease_until_ns = until;
        if (left_) lease_until_ = services_.metrics.cluster_lease_until_ns = 0;  // left meanwhile
    }

    void lease_lost(const char* why) {
        ++services_.metrics.cluster_lease_losses;
        if (left_) return;
        spdlog::warn("cluster node {}: the lease ended ({}): its rooms pause until their journal takes writes again",
                     id_, why);
        // Without the lease another node may take the rooms over: they play no further step
        // until a write to Redis shows they are still this node's (or that they are not).
        for (const auto& room : services_.registry.all())
            room->pause_for_cluster("this node cannot reach the cluster's store (Redis)");
    }

    std::chrono::milliseconds lease_left() const override {
        const auto until = Clock::time_point(Clock::duration(lease_until_.load()));
        return std::max(std::chrono::milliseconds::zero(),
                        std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()));
    }

    bool redis_connected() const override { return redis_up_; }

    void leave() override {
        left_ = true;
        set_lease(0);
        // On the strand, after any heartbeat under way: its keys go after it wrote them.
        net::post(strand_, [self = shared_from_this()] {
            self->timer_.cancel();
            self->redis_->command({"EVAL", kLeaveScript, "4", key("node", self->id_), key("node-last", self->id_),
                                   key("nodes"), key("node-rooms", self->id_), self->id_, "0"},
                                  [](redis::Reply) {});
        });
    }

    void claim_code(std::function<void(NewRoom)> done) override {
        claim_attempt(std::make_shared<std::function<void(NewRoom)>>(std::move(done)), 0);
    }

    void locate(const std::string& code, std::function<void(RoomPlace)> done) override {
        dir_->command({"EVAL", kLocateScript, "1", key("room", code), key("node") + ":"},
                        [weak = weak_from_this(), done = std::move(done)](redis::Reply r) {
                            auto self = weak.lock();
                            RoomPlace place;
                            if (!self || r.lost || r.error()) {
                                place.kind = RoomPlace::Kind::unavailable;
                                place.why = r.lost ? "the cluster's store (Redis) cannot be reached" : r.text;
                            } else if (r.type != redis::Reply::Type::array || r.elements.size() < 1) {
                                place.kind = RoomPlace::Kind::none;
                            } else {
                                place.node = r.elements[0].text;
                                const auto* beat = r.elements.size() > 1 && r.elements[1].type == redis::Reply::Type::string
                                                       ? &r.elements[1]
                                                       : nullptr;
                                const auto info = beat ? parse_node(beat->text, true) : std::nullopt;
                                if (place.node == self->id_) place.kind = RoomPlace::Kind::here;
                                else if (!info) place.kind = RoomPlace::Kind::node_down;
                                else place.kind = RoomPlace::Kind::elsewhere, place.url = info->url;
                            }
                            done(std::move(place));
                        });
    }

    void take_back(const std::string& code) override {
        net::post(strand_, [self = shared_from_this(), code] { self->claim(code, self->id_, true, 0); });
    }

    void release_code(const std::string& code) override {
        dir_->command({"EVAL", kReleaseScript, "2", key("room", code), key("node-rooms", id_), id_, code},
                        [code](redis::Reply r) {
                            if (r.lost || r.error())
                                spdlog::warn("cluster: room {}'s directory entry could not be deleted ({}): its code "
                                             "stays taken",
                                             code, r.text);
                        });
    }

private:
    // After each read of the view: the rooms of the dead nodes are claimed (atomically: of the
    // nodes that try, one gets each room), and once at the start this node's own rooms (it
    // restarted under the same id, its old self is gone).
    void claim_rooms(const std::vector<NodeInfo>& view) {
        if (left_ || services_.shutting_down || services_.config.no_journal) return;
        // Its own rooms that it does not have: at the start those of its previous run, later any
        // whose take-up was lost or failed.
        ++own_pass_;
        claim_all_of(id_, true, own_pass_ == 1 ? own_last_heard_ms_.load() : 0);
        // Back from an outage of Redis (or of this node's link to it), every node's heartbeat
        // key may have expired meanwhile: the others are given a whole expiry to beat again
        // before their rooms are taken from them.
        if (Clock::now() - connected_since_.load() < kExpiry) return;
        for (const auto& n : view)
            if (!n.alive && n.id != id_) {
                claim_all_of(n.id, false, n.heartbeat_ms);
                // Listed dead for a minute (operators see it in /cluster), then forgotten once
                // it has no rooms left.
                if (n.heartbeat_ms && unix_ms() - n.heartbeat_ms > kForgetDeadAfter.count())
                    redis_->command({"EVAL", kLeaveScript, "4", key("node", n.id), key("node-last", n.id), key("nodes"),
                                     key("node-rooms", n.id), n.id, "1"},
                                    [](redis::Reply) {});
            }
    }

    void claim_all_of(const std::string& node, bool own, std::int64_t last_heard_ms) {
        dir_->command({"SMEMBERS", key("node-rooms", node)}, [weak = weak_from_this(), node, own,
                                                              last_heard_ms](redis::Reply r) {
            auto self = weak.lock();
            if (!self || r.type != redis::Reply::Type::array || r.elements.empty()) return;
            std::vector<std::string> codes;
            // Its own: those this node does not have (it restarted, or a take-up failed).
            for (auto& m : r.elements)
                if (!own || !self->services_.registry.find(m.text)) codes.push_back(std::move(m.text));
            // In another order on each node, so that the nodes share a dead node's rooms.
            std::shuffle(codes.begin(), codes.end(), std::mt19937_64{std::random_device{}()});
            net::post(self->strand_, [self, node, own, last_heard_ms, codes = std::move(codes)] {
                for (const auto& code : codes) self->claim(code, node, own, last_heard_ms);
            });
        });
    }

    // On the strand.
    void claim(const std::string& code, const std::string& from, bool own, std::int64_t last_heard_ms) {
        if (left_ || services_.shutting_down || !claiming_.insert(code).second) return;
        const auto t0 = Clock::now();
        // Its own rooms: at the first heartbeat those of its previous run; later, those made more
        // than a few seconds ago that it does not have (a room being made now is not one).
        const std::int64_t made_before = !own ? 0 : own_pass_ == 1 ? started_ms_ : unix_ms() - 5000;
        claim_room(*dir_, code, from, id_, own, made_before,
                   [weak = weak_from_this(), code, from, own, last_heard_ms, t0](std::optional<SavedRoom> room,
                                                                                std::string why) {
                       auto self = weak.lock();
                       if (!self) return;
                       net::post(self->strand_, [self, code, from, own, last_heard_ms, t0, room = std::move(room),
                                                 why = std::move(why)]() mutable {
                           self->claiming_.erase(code);
                           if (!room) {
                               if (!why.empty())
                                   spdlog::warn("cluster node {}: room {} of node {} not taken over: {}", self->id_, code,
                                                from, why);
                               return;
                           }
                           room->stopped_ms = last_heard_ms;
                           self->take_up(*room, from, own, t0);
                       });
                   });
    }

    void take_up(const SavedRoom& saved, const std::string& from, bool own, Clock::time_point t0) {
        // Stopping: the room stays in this node's set, and the others claim it once it left.
        if (services_.shutting_down || left_) return;
        try {
            services_.registry.adopt(saved.code, Room::restore(io_, services_, saved));
            ++services_.metrics.cluster_rooms_taken_over;
            spdlog::info("cluster node {}: room {} {} (epoch {}, {} events of its game) in {} ms", id_, saved.code,
                         own ? "taken up again" : "taken over from node " + from, saved.epoch, saved.events.size(),
                         std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
        } catch (const RoomLost& lost) {
            ++services_.metrics.internal_errors;
            spdlog::error("cluster node {}: room {} (from node {}) cannot be taken up from its journal", id_, saved.code,
                          from);
            room_lost(services_, saved.code, lost);
            if (!services_.journal_writer) return release_code(saved.code);
            // Its game's record (what could be checked) and its end go to the cluster's journal
            // under the room's epoch, by the writer's thread; then its code is free.
            const std::int64_t seq = saved.events.empty() ? 1 : saved.events.back().seq + 1;
            auto stream = std::make_shared<JournalWriter::Stream>(saved.code, saved.created_ms, std::max(seq, saved.next_seq));
            stream->epoch = saved.epoch;
            stream->ops = saved.ops;
            std::vector<JournalOp> ops;
            if (lost.finished) ops.push_back({JournalOp::Kind::game_over, {}, {}, lost.finished});
            ops.push_back({JournalOp::Kind::closed, {}, {}});
            services_.journal_writer->submit(
                stream, std::move(ops), false, [self = shared_from_this(), code = saved.code](JournalWriter::Answer a) {
                    net::post(self->strand_, [self, code, error = std::move(a.error)] {
                        if (error)
                            spdlog::error("cluster node {}: the end of lost room {} cannot be written ({})", self->id_,
                                          code, *error);
                        self->release_code(code);
                    });
                });
        }
    }

    // The cluster's finished games, copied into this node's history (GET /games lists the
    // cluster's): those that ended since the last copy, a batch at each heartbeat, written by a
    // thread of its own (the database is not the I/O threads' to wait for).
    void mirror_records() {
        if (!services_.history) return;
        {
            std::lock_guard lock(history_mutex_);
            if (!history_queue_.empty() || history_stop_) return;  // still copying the last batch
            if (!history_thread_.joinable()) history_thread_ = std::thread([this] { copy_records(); });
        }
        read_records(*dir_, mirrored_, 200, [weak = weak_from_this()](std::optional<std::vector<ClusterRecord>> got) {
            auto self = weak.lock();
            if (!self || !got || got->empty()) return;
            self->mirrored_ = std::max(self->mirrored_.load(), got->back().seq);
            std::lock_guard lock(self->history_mutex_);
            for (auto& r : *got) self->history_queue_.push_back(std::move(r));
            self->history_wake_.notify_one();
        });
    }

    void copy_records() {
        std::unique_lock lock(history_mutex_);
        for (;;) {
            history_wake_.wait(lock, [&] { return history_stop_ || !history_queue_.empty(); });
            if (history_stop_) return;
            ClusterRecord r = std::move(history_queue_.front());
            lock.unlock();
            if (!r.text.empty()) try {
                    services_.history->add(FinishedGame{parse_record(r.text), r.id, r.owner, r.text, r.ended_ms});
                } catch (const std::exception& e) {
                    spdlog::warn("cluster: game {} not copied into this node's history: {}", r.id, e.what());
                }
            lock.lock();
            history_queue_.pop_front();
        }
    }

public:
    ~ClusterImpl() override {
        {
            std::lock_guard lock(history_mutex_);
            history_stop_ = true;
        }
        history_wake_.notify_all();
        if (history_thread_.joinable()) history_thread_.join();
    }

private:
    using ClaimDone = std::shared_ptr<std::function<void(NewRoom)>>;
    // A random code, made this node's where no entry is; another code when it is taken (a few
    // tries: 6.4 million codes, so a clash is rare while the cluster is far from full).
    void claim_attempt(ClaimDone done, int attempt) {
        if (attempt == 8) return (*done)({{}, {}, "no free room code was found: the cluster is nearly full"});
        const std::string code = random_room_code();
        dir_->command({"EVAL", kClaimScript, "3", key("room", code), key("node-rooms", id_), key("nodes"), id_,
                         std::to_string(unix_ms()), code, std::string(kPrefix)},
                        [weak = weak_from_this(), done, attempt, code](redis::Reply r) {
                            auto self = weak.lock();
                            if (!self) return (*done)({{}, {}, "the server is stopping"});
                            if (r.lost || r.error())
                                return (*done)(
                                    {{}, {}, r.lost ? "the cluster's store (Redis) cannot be reached" : r.text});
                            if (r.type == redis::Reply::Type::array && !r.elements.empty()) {
                                auto node = parse_node(r.elements[0].text, true);
                                if (node && !node->url.empty()) return (*done)({{}, std::move(node), {}});
                                return (*done)({{}, {}, "a node without an address is the emptiest"});
                            }
                            if (r.integer == 1) return (*done)({code, {}, {}});
                            self->claim_attempt(done, attempt + 1);
                        });
    }

    std::string heartbeat_text() const {
        return json{{"id", id_},
                    {"url", url_},
                    {"rooms", services_.metrics.rooms.load()},
                    {"connections", services_.metrics.connections.load()},
                    {"started_ms", started_ms_},
                    {"heartbeat_ms", unix_ms()}}
            .dump();
    }

    // Every kHeartbeat: the node's keys, then the cluster as Redis has it.
    void beat() {
        if (left_) return;
        const auto sent = Clock::now();
        // A lease that ran out since (no heartbeat acknowledged in time) is counted and said.
        if (!lease_valid() && had_lease_.exchange(false)) lease_lost("no heartbeat acknowledged in time");
        // Without a successful read for as long as a heartbeat lives, the view says nothing true.
        if (Clock::now() - last_read_.load() > kExpiry) {
            std::lock_guard lock(mutex_);
            nodes_.clear();
            services_.metrics.cluster_nodes_alive = 0;
            services_.metrics.cluster_nodes_dead = 0;
        }
        const std::string text = heartbeat_text();
        // The answers hold the cluster weakly: a Redis that never answers does not keep it alive.
        std::weak_ptr<ClusterImpl> weak = weak_from_this();
        // Before the first heartbeat overwrites it: when this node's previous run was last heard of
        // (the decisions of its rooms taken up again get the time they had left then).
        if (!std::exchange(read_own_last_, true))
            redis_->command({"GET", key("node-last", id_)}, [weak](redis::Reply r) {
                auto self = weak.lock();
                if (!self || r.type != redis::Reply::Type::string) return;
                if (auto n = parse_node(r.text, false)) self->own_last_heard_ms_ = n->heartbeat_ms;
            });
        redis_->command({"SET", key("node", id_), text, "PX", std::to_string(kExpiry.count())},
                        [weak, sent](redis::Reply r) {
                            auto self = weak.lock();
                            if (!self || r.error()) return;
                            // Redis started the expiry when it took the command, after `sent`.
                            self->set_lease((sent + kExpiry - kLeaseMargin).time_since_epoch().count());
                        });
        redis_->command({"SET", key("node-last", id_), text}, [](redis::Reply) {});
        redis_->command({"SADD", key("nodes"), id_}, [](redis::Reply) {});
        redis_->command({"SMEMBERS", key("nodes")}, [weak](redis::Reply r) {
            if (auto self = weak.lock()) self->read_nodes(r);
        });
        mirror_records();
        timer_.expires_after(kHeartbeat);
        timer_.async_wait([weak](boost::system::error_code ec) {
            if (auto self = weak.lock(); self && !ec) self->beat();
        });
    }

    void read_nodes(const redis::Reply& members) {
        if (members.type != redis::Reply::Type::array) return;
        std::vector<std::string> ids;
        for (const auto& m : members.elements) ids.push_back(m.text);
        if (ids.empty()) return;
        std::vector<std::string> get{"MGET"};
        for (const auto& id : ids) get.push_back(key("node", id));
        for (const auto& id : ids) get.push_back(key("node-last", id));
        redis_->command(std::move(get), [weak = weak_from_this(), ids](redis::Reply r) {
            auto self = weak.lock();
            if (!self || r.type != redis::Reply::Type::array || r.elements.size() != 2 * ids.size()) return;
            self->last_read_ = Clock::now();
            std::vector<NodeInfo> view;
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const auto& live = r.elements[i];
                const auto& last = r.elements[ids.size() + i];
                std::optional<NodeInfo> n;
                if (live.type == redis::Reply::Type::string) n = parse_node(live.text, true);
                else if (last.type == redis::Reply::Type::string) n = parse_node(last.text, false);
                if (!n) {
                    n = NodeInfo{};
                    n->id = ids[i];
                }
                view.push_back(std::move(*n));
            }
            std::sort(view.begin(), view.end(), [](const NodeInfo& a, const NodeInfo& b) {
                return a.alive != b.alive ? a.alive : a.id < b.id;
            });
            long alive = 0;
            for (const auto& n : view) alive += n.alive;
            self->services_.metrics.cluster_nodes_alive = alive;
            self->services_.metrics.cluster_nodes_dead = static_cast<long>(view.size()) - alive;
            {
                std::lock_guard lock(self->mutex_);
                self->nodes_ = view;
            }
            net::post(self->strand_, [self, view = std::move(view)] { self->claim_rooms(view); });
        });
    }

    net::io_context& io_;
    net::strand<net::io_context::executor_type> strand_;
    net::steady_timer timer_;
    Services& services_;
    const redis::Address address_;
    const std::string id_, url_;
    const std::int64_t started_ms_;
    std::atomic<bool> redis_up_{false}, left_{false};
    std::atomic<bool> had_lease_{false};  // the lease was held since the last loss
    std::atomic<Clock::time_point> last_read_{Clock::now()};  // the view's last successful read
    std::atomic<Clock::time_point> connected_since_{Clock::now()};  // the Redis connection's last start
    std::atomic<Clock::rep> lease_until_{0};
    bool read_own_last_ = false;  // on the strand
    std::shared_ptr<redis::Client> redis_;  // heartbeats, the view
    std::shared_ptr<redis::Client> dir_;    // the directory, placements, claims, records
    mutable std::mutex mutex_;
    std::vector<NodeInfo> nodes_;
    // Claims (on the strand).
    int own_pass_ = 0;
    std::atomic<std::int64_t> own_last_heard_ms_{0};  // this node's previous run's last heartbeat
    std::set<std::string> claiming_;
    // The copy of the cluster's finished games.
    std::atomic<std::int64_t> mirrored_{0};  // the last record copied (records-seq)
    std::mutex history_mutex_;
    std::condition_variable history_wake_;
    std::deque<ClusterRecord> history_queue_;
    bool history_stop_ = false;
    std::thread history_thread_;
};

// The owner holds the implementation through a shared_ptr (its handlers do too) and gives it up
// with the last of them.
class ClusterHandle final : public Cluster {
public:
    explicit ClusterHandle(std::shared_ptr<ClusterImpl> impl) : impl_(std::move(impl)) {}
    ~ClusterHandle() override { impl_->shutdown(); }
    const std::string& node_id() const noexcept override { return impl_->node_id(); }
    std::vector<NodeInfo> nodes() const override { return impl_->nodes(); }
    std::vector<std::string> live_urls() const override { return impl_->live_urls(); }
    bool lease_valid() const override { return impl_->lease_valid(); }
    std::chrono::milliseconds lease_left() const override { return impl_->lease_left(); }
    bool redis_connected() const override { return impl_->redis_connected(); }
    void leave() override { impl_->leave(); }
    void claim_code(std::function<void(NewRoom)> done) override { impl_->claim_code(std::move(done)); }
    void locate(const std::string& code, std::function<void(RoomPlace)> done) override {
        impl_->locate(code, std::move(done));
    }
    void release_code(const std::string& code) override { impl_->release_code(code); }
    void take_back(const std::string& code) override { impl_->take_back(code); }

private:
    std::shared_ptr<ClusterImpl> impl_;
};

}  // namespace

std::unique_ptr<Cluster> Cluster::make(net::io_context& io, Services& services, const std::string& redis_url,
                                       std::string node_id, std::string url) {
    auto impl = std::make_shared<ClusterImpl>(io, services, redis::parse_url(redis_url), std::move(node_id), std::move(url));
    impl->start();
    return std::make_unique<ClusterHandle>(std::move(impl));
}

}  // namespace spookludo::server
