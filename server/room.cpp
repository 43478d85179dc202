#include "room.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <unordered_map>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "spookludo/protocol/server_messages.h"
#include "table.h"

namespace spookludo::server {

namespace net = boost::asio;
using nlohmann::json;
using protocol::ErrorCode;
using namespace protocol;
using Clock = std::chrono::steady_clock;

namespace {

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string random_token() {
    const ServerSeed s = ServerSeed::generate();  // 32 secure random bytes
    return to_hex(s.bytes.data(), 16);
}

template <class M>
std::shared_ptr<const std::string> frame(const M& message) {
    return std::make_shared<const std::string>(encode_message(message));
}
// A message the table has already encoded (its steps).
std::shared_ptr<const std::string> frame(std::string encoded) { return std::make_shared<const std::string>(std::move(encoded)); }

enum class RoomState { lobby, seeding, playing };
const char* name_of(RoomState s) {
    switch (s) {
        case RoomState::lobby: return "lobby";
        case RoomState::seeding: return "seeding";
        case RoomState::playing: return "playing";
    }
    return "?";
}

struct Seat {
    std::string name;
    bool bot = false;
    PolicyKind policy = PolicyKind::best;
    std::string token;
    std::weak_ptr<Peer> peer;
    bool connected = false;
    bool server_played = false;  // after the reconnect window, or left during a game
    std::optional<std::string> client_seed;
    std::shared_ptr<net::steady_timer> reconnect_timer;
    // The decision this seat owes, if any.
    std::string decision_id;
    Clock::time_point decision_sent{};
};

class RoomImpl final : public Room {
public:
    RoomImpl(net::io_context& io, Services& services, std::string code, GameOptions options,
             protocol::RoomSettings settings)
        : strand_(net::make_strand(io)),
          step_timer_(strand_),
          services_(services),
          code_(std::move(code)),
          options_(options),
          settings_(settings),
          bot_rng_(std::random_device{}()) {}

    const std::string& code() const noexcept override { return code_; }

    void deliver(std::shared_ptr<Peer> peer, protocol::ClientMessage message, std::uint64_t entry) override {
        net::post(strand_, [self = self(), peer = std::move(peer), message = std::move(message), entry]() mutable {
            self->entries_[peer->id()] = entry;
            self->on_message(peer, message);
        });
    }

    void disconnected(std::shared_ptr<Peer> peer) override {
        net::post(strand_, [self = self(), peer = std::move(peer)] {
            self->entries_.erase(peer->id());
            self->on_disconnected(peer);
        });
    }

    void shutdown(std::function<void()> done) override {
        net::post(strand_, [self = self(), done = std::move(done)] {
            if (self->table_) self->end_game(GameStatus::abandoned, "the server is shutting down");
            self->broadcast(Closing{"the server is shutting down"});
            self->closed_ = true;
            self->step_timer_.cancel();
            done();
        });
    }

private:
    std::shared_ptr<RoomImpl> self() { return std::static_pointer_cast<RoomImpl>(shared_from_this()); }

    // ---- Sending ----------------------------------------------------------------------------
    template <class M>
    void send(const std::shared_ptr<Peer>& peer, const M& message) {
        if (peer) peer->send(frame(message));
    }
    void error(const std::shared_ptr<Peer>& peer, ErrorCode code, const std::string& message,
               std::string_view ref = {}) {
        services_.metrics.count_error(protocol::to_string(code));
        if (peer) peer->send(protocol::error_message(code, message, ref));
    }
    // Serialised once, the same buffer for every recipient.
    template <class M>
    void broadcast(const M& message) {
        send_to_all(frame(message));
    }
    void send_to_all(const std::shared_ptr<const std::string>& text) {
        for (auto& seat : seats_)
            if (auto p = seat.peer.lock(); p && seat.connected) p->send(text);
        for (auto it = spectators_.begin(); it != spectators_.end();)
            if (auto p = it->lock()) {
                p->send(text);
                ++it;
            } else {
                it = spectators_.erase(it);
            }
    }

    RoomSnapshot snapshot() const {
        RoomSnapshot r;
        r.room = code_;
        r.state = name_of(state_);
        r.paused = paused_;
        r.options = options_;
        r.settings = settings_;
        r.host = host_;
        for (std::size_t i = 0; i < seats_.size(); ++i) {
            const auto& seat = seats_[i];
            SeatView v{static_cast<int>(i), seat.name, seat.bot, std::nullopt, std::nullopt, std::nullopt};
            if (seat.bot) {
                v.policy = seat.policy;
            } else {
                v.connected = seat.connected;
                v.away = !seat.connected || seat.server_played;
            }
            r.seats.push_back(std::move(v));
        }
        r.spectators = static_cast<int>(spectators_.size());
        r.server_time_ms = now_ms();
        if (publication_) {
            r.game_id = game_id_;
            r.commitment = publication_->seed.commitment();
            r.boards = publication_->boards;
        }
        if (table_) table_->describe(r);
        return r;
    }
    void broadcast_snapshot() { broadcast(snapshot()); }

    // ---- Who is who -------------------------------------------------------------------------
    // The room lets a peer go (Peer::detach), with the last entry count it saw from it.
    void let_go(const std::shared_ptr<Peer>& peer) {
        const auto it = entries_.find(peer->id());
        if (it == entries_.end()) return;  // it never came in: nothing to let go
        peer->detach(*this, it->second);
        entries_.erase(it);
    }

    int seat_of(const std::shared_ptr<Peer>& peer) const {
        for (std::size_t s = 0; s < seats_.size(); ++s)
            if (!seats_[s].bot && seats_[s].peer.lock() == peer) return static_cast<int>(s);
        return -1;
    }
    bool is_spectator(const std::shared_ptr<Peer>& peer) const {
        return std::any_of(spectators_.begin(), spectators_.end(), [&](const auto& w) { return w.lock() == peer; });
    }
    bool name_taken(const std::string& name) const {
        return std::any_of(seats_.begin(), seats_.end(), [&](const Seat& s) { return s.name == name; });
    }
    // The room's options give its number of seats (Spook up to 8, Ludo 2 to 4).
    int capacity() const { return options_.players; }

    void welcome_seat(const std::shared_ptr<Peer>& peer, int seat) {
        send(peer, Joined{code_, seat, seats_[static_cast<std::size_t>(seat)].token, "player", host_ == seat});
    }

    // ---- Messages ---------------------------------------------------------------------------
    void on_message(const std::shared_ptr<Peer>& peer, protocol::ClientMessage& message) {
        const bool entering = std::holds_alternative<CreateRoom>(message) || std::holds_alternative<JoinRoom>(message) ||
                              std::holds_alternative<Watch>(message) || std::holds_alternative<Resume>(message);
        if (closed_) {
            error(peer, ErrorCode::room_not_found, "the room is closed");
        } else {
            // One message's failure is that connection's problem alone: the room goes on.
            try {
                std::visit([&](auto& m) { handle(peer, m); }, message);
            } catch (const std::exception& e) {
                ++services_.metrics.internal_errors;
                spdlog::error("room {}: a {} from connection {} failed: {}", code_, protocol::type_of(message),
                              peer->id(), e.what());
                error(peer, ErrorCode::internal_error, "the server could not handle that message",
                      protocol::type_of(message));
            }
        }
        // The Inbox sent this connection here when it asked to enter: when the room did not
        // take it in, it is let go (and a room its creator never entered closes).
        if (entering && seat_of(peer) < 0 && !is_spectator(peer)) {
            let_go(peer);
            close_if_empty();
        }
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::CreateRoom& m) {
        // The creator: the first seat, and the host.
        add_human(peer, m.name);
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::JoinRoom& m) {
        if (seat_of(peer) >= 0 || is_spectator(peer))
            return error(peer, ErrorCode::already_in_room, "you are already in this room", "join_room");
        if (state_ != RoomState::lobby) {
            // People who arrive after the start watch.
            add_spectator(peer);
            return;
        }
        if (static_cast<int>(seats_.size()) >= capacity())
            return error(peer, ErrorCode::room_full,
                         "room " + code_ + " is full (" + std::to_string(capacity()) + " players)", "join_room");
        if (name_taken(m.name))
            return error(peer, ErrorCode::name_taken, "the name " + quote_client_text(m.name) + " is taken in this room", "join_room");
        add_human(peer, m.name);
    }

    void add_human(const std::shared_ptr<Peer>& peer, const std::string& name) {
        Seat seat;
        seat.name = name;
        seat.token = random_token();
        seat.peer = peer;
        seat.connected = true;
        seats_.push_back(std::move(seat));
        const int index = static_cast<int>(seats_.size()) - 1;
        if (host_ < 0) host_ = index;
        spdlog::info("room {}: {} joined as seat {}", code_, quote_client_text(name), index);
        welcome_seat(peer, index);
        broadcast_snapshot();
    }

    void add_spectator(const std::shared_ptr<Peer>& peer) {
        if (static_cast<int>(spectators_.size()) >= services_.config.max_spectators)
            return error(peer, ErrorCode::room_full, "room " + code_ + " has its maximum of spectators", "watch");
        spectators_.push_back(peer);
        send(peer, Joined{code_, -1, std::nullopt, "spectator", false});
        send(peer, snapshot());
        spdlog::info("room {}: a spectator joined ({} watching)", code_, spectators_.size());
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Watch&) {
        if (seat_of(peer) >= 0 || is_spectator(peer))
            return error(peer, ErrorCode::already_in_room, "you are already in this room", "watch");
        add_spectator(peer);
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Resume& m) {
        for (std::size_t s = 0; s < seats_.size(); ++s) {
            auto& seat = seats_[s];
            if (seat.bot || seat.token.empty() || seat.token != m.token) continue;
            if (auto old = seat.peer.lock(); old && old != peer && seat.connected) let_go(old);
            seat.peer = peer;
            seat.connected = true;
            if (seat.reconnect_timer) seat.reconnect_timer->cancel();
            // Within the window the player takes the seat back; after it, the seat stays
            // server-played until the game ends.
            spdlog::info("room {}: {} reconnected to seat {}", code_, quote_client_text(seat.name), s);
            welcome_seat(peer, static_cast<int>(s));
            send(peer, snapshot());
            broadcast_snapshot();
            return;
        }
        error(peer, ErrorCode::bad_token, "no seat in room " + code_ + " has that token", "resume");
        peer->strike();  // guessing tokens is abuse, counted like any bad message
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::SubmitClientSeed& m) {
        const int seat = seat_of(peer);
        if (seat < 0) return error(peer, ErrorCode::not_a_player, "only seated players send client seeds", "client_seed");
        if (state_ != RoomState::seeding)
            return error(peer, ErrorCode::wrong_state, "client seeds are sent after the commitment, before the game",
                         "client_seed");
        auto& s = seats_[static_cast<std::size_t>(seat)];
        if (s.client_seed) return error(peer, ErrorCode::wrong_state, "your client seed is already in", "client_seed");
        if (auto err = check_client_seed(m.seed)) return error(peer, ErrorCode::bad_field, "seed: " + *err, "client_seed");
        s.client_seed = m.seed;
        send(peer, ClientSeedAccepted{});
        if (all_seeds_in()) begin_game();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Choose& m) {
        const int seat = seat_of(peer);
        if (seat < 0) return error(peer, ErrorCode::not_a_player, "spectators cannot choose", "choose");
        auto& s = seats_[static_cast<std::size_t>(seat)];
        if (!table_ || s.decision_id.empty() || s.decision_id != m.decision)
            return error(peer, ErrorCode::stale_decision,
                         "decision " + quote_client_text(m.decision) + " is not open for your seat (it is over or not yours)", "choose");
        if (auto v = table_->choose(seat, m.piece, ChoiceMaker::player); !v)
            return error(peer, ErrorCode::illegal_choice, v.reason, "choose");
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s.decision_sent).count();
        services_.metrics.observe_round_trip(ms);
        send(peer, ChoiceAccepted{s.decision_id, m.piece});
        s.decision_id.clear();
        if (pending_decisions() == 0) decisions_complete();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::SetOptions& m) {
        if (!host_only(peer, "set_options")) return;
        if (state_ != RoomState::lobby) return error(peer, ErrorCode::wrong_state, "options change in the lobby", "set_options");
        if (static_cast<int>(seats_.size()) > m.options.players)
            return error(peer, ErrorCode::bad_field,
                         std::to_string(seats_.size()) + " seats are taken: options.players must be at least that",
                         "set_options");
        options_ = m.options;
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::SetSettings& m) {
        if (!host_only(peer, "set_settings")) return;
        settings_ = m.settings.applied_to(settings_);
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::AddBot& m) {
        if (!host_only(peer, "add_bot")) return;
        if (state_ != RoomState::lobby) return error(peer, ErrorCode::wrong_state, "bots are added in the lobby", "add_bot");
        if (static_cast<int>(seats_.size()) >= capacity())
            return error(peer, ErrorCode::room_full,
                         "the room is full (" + std::to_string(capacity()) + " players): raise options.players", "add_bot");
        Seat seat;
        seat.bot = true;
        seat.policy = m.policy;
        int n = 1;
        do seat.name = std::string(to_string(m.policy)) + " bot " + std::to_string(n++);
        while (name_taken(seat.name));
        seats_.push_back(std::move(seat));
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::RemoveSeat& m) {
        if (!host_only(peer, "remove_seat")) return;
        if (state_ != RoomState::lobby)
            return error(peer, ErrorCode::wrong_state, "seats are removed in the lobby (kick a player in a game)",
                         "remove_seat");
        if (m.seat >= static_cast<int>(seats_.size()) || m.seat == host_)
            return error(peer, ErrorCode::bad_field, "seat " + std::to_string(m.seat) + " cannot be removed", "remove_seat");
        remove_seat(m.seat, "removed by the host");
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Kick& m) {
        if (!host_only(peer, "kick")) return;
        if (m.seat >= static_cast<int>(seats_.size()) || m.seat == host_ ||
            seats_[static_cast<std::size_t>(m.seat)].bot)
            return error(peer, ErrorCode::bad_field, "seat " + std::to_string(m.seat) + " is not a player you can kick",
                         "kick");
        if (state_ == RoomState::lobby) return remove_seat(m.seat, "kicked by the host");
        // In a game the seat goes to a server-side bot.
        auto& seat = seats_[static_cast<std::size_t>(m.seat)];
        if (auto p = seat.peer.lock()) {
            send(p, Kicked{code_});
            let_go(p);
        }
        seat.peer.reset();
        seat.connected = false;
        seat.bot = true;
        seat.policy = PolicyKind::best;
        seat.token.clear();
        spdlog::info("room {}: seat {} kicked; a bot plays it", code_, m.seat);
        answer_for_absent(m.seat, ChoiceMaker::away);
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Start&) {
        if (!host_only(peer, "start")) return;
        if (state_ != RoomState::lobby) return error(peer, ErrorCode::wrong_state, "a game is already on", "start");
        GameOptions options = options_;
        options.players = static_cast<int>(seats_.size());
        if (auto err = options.validate()) return error(peer, ErrorCode::wrong_state, "cannot start: " + *err, "start");
        publish_game(options);
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Pause&) {
        if (!host_only(peer, "pause")) return;
        if (state_ != RoomState::playing || paused_) return error(peer, ErrorCode::wrong_state, "nothing to pause", "pause");
        paused_ = true;
        // The clock stops: remember what was left of the deadline or the pause between steps.
        paused_left_ = std::max<Clock::duration>(Clock::duration::zero(), step_timer_.expiry() - Clock::now());
        step_timer_.cancel();
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Unpause&) {
        if (!host_only(peer, "resume_game")) return;
        if (!paused_) return error(peer, ErrorCode::wrong_state, "the game is not paused", "resume_game");
        paused_ = false;
        const auto left = paused_left_;
        // Decisions that were open get their remaining time again.
        for (auto& seat : seats_)
            if (!seat.decision_id.empty()) {
                if (auto p = seat.peer.lock()) {
                    p->grant_answer();
                    send(p, decision_message(static_cast<int>(&seat - seats_.data()), seat.decision_id, left));
                }
            }
        arm(left, waiting_for_decisions_ ? Next::deadline : Next::advance);
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::EndGame&) {
        if (!host_only(peer, "end_game")) return;
        if (!table_ && state_ != RoomState::seeding) return error(peer, ErrorCode::wrong_state, "no game to end", "end_game");
        end_game(GameStatus::abandoned, "the host ended the game");
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Leave&) {
        const int seat = seat_of(peer);
        if (seat < 0) {
            spectators_.erase(std::remove_if(spectators_.begin(), spectators_.end(),
                                             [&](const auto& w) { return w.lock() == peer || w.expired(); }),
                              spectators_.end());
            let_go(peer);
            return;
        }
        let_go(peer);
        if (state_ == RoomState::lobby) return remove_seat(seat, "left");
        auto& s = seats_[static_cast<std::size_t>(seat)];
        s.connected = false;
        s.server_played = true;
        s.peer.reset();
        s.token.clear();
        spdlog::info("room {}: {} left the game; the server plays seat {}", code_, quote_client_text(s.name), seat);
        answer_for_absent(seat, ChoiceMaker::away);
        pass_host_if_needed();
        broadcast_snapshot();
        abandon_if_nobody_left();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Ping& m) {
        send(peer, Pong{m.t, now_ms()});
    }

    template <class M>
    void handle(const std::shared_ptr<Peer>& peer, M&) {
        error(peer, ErrorCode::wrong_state, "that message is not for a room");
    }

    bool host_only(const std::shared_ptr<Peer>& peer, std::string_view what) {
        if (seat_of(peer) == host_ && host_ >= 0) return true;
        error(peer, seat_of(peer) < 0 && !is_spectator(peer) ? ErrorCode::not_in_room : ErrorCode::not_host,
              "only the host may " + std::string(what), what);
        return false;
    }

    void remove_seat(int seat, const char* why) {
        auto& s = seats_[static_cast<std::size_t>(seat)];
        if (auto p = s.peer.lock()) {
            if (std::string_view(why) != "left") send(p, Kicked{code_});
            let_go(p);
        }
        spdlog::info("room {}: seat {} ({}) {}", code_, seat, quote_client_text(s.name), why);
        seats_.erase(seats_.begin() + seat);
        if (host_ == seat) host_ = -1;
        else if (host_ > seat) --host_;
        pass_host_if_needed();
        broadcast_snapshot();
        close_if_empty();
    }

    void pass_host_if_needed() {
        if (host_ >= 0 && seats_[static_cast<std::size_t>(host_)].connected && !seats_[static_cast<std::size_t>(host_)].bot)
            return;
        const int old = host_;
        host_ = -1;
        for (std::size_t s = 0; s < seats_.size(); ++s)
            if (!seats_[s].bot && seats_[s].connected) {
                host_ = static_cast<int>(s);
                break;
            }
        if (host_ != old && host_ >= 0) spdlog::info("room {}: seat {} is the host now", code_, host_);
    }

    bool any_human_connected() const {
        return std::any_of(seats_.begin(), seats_.end(), [](const Seat& s) { return !s.bot && s.connected; });
    }

    void close_if_empty() {
        if (any_human_connected() || !spectators_.empty() || closed_) return;
        if (table_) return;  // the game ends first (abandoned after the reconnect window)
        closed_ = true;
        step_timer_.cancel();
        services_.registry.remove(code_);
        --services_.metrics.rooms;
        spdlog::info("room {}: closed (nobody left)", code_);
    }

    void abandon_if_nobody_left() {
        if (!table_ && state_ != RoomState::seeding) return close_if_empty();
        // A game is abandoned when no human is left after the reconnect window.
        for (const auto& s : seats_)
            if (!s.bot && (s.connected || (!s.server_played && s.reconnect_timer))) return;
        end_game(GameStatus::abandoned, "no player is left");
        close_if_empty();
    }

    void on_disconnected(const std::shared_ptr<Peer>& peer) {
        spectators_.erase(std::remove_if(spectators_.begin(), spectators_.end(),
                                         [&](const auto& w) { return w.lock() == peer || w.expired(); }),
                          spectators_.end());
        const int seat = seat_of(peer);
        if (seat < 0) return close_if_empty();
        auto& s = seats_[static_cast<std::size_t>(seat)];
        s.connected = false;
        if (state_ == RoomState::lobby) return remove_seat(seat, "disconnected");
        spdlog::info("room {}: {} (seat {}) is away", code_, quote_client_text(s.name), seat);
        // Away: played at once with the best move, the seat kept for the reconnect window.
        answer_for_absent(seat, ChoiceMaker::away);
        s.reconnect_timer = std::make_shared<net::steady_timer>(strand_);
        s.reconnect_timer->expires_after(std::chrono::milliseconds(services_.config.reconnect_ms));
        s.reconnect_timer->async_wait([self = self(), seat, timer = s.reconnect_timer](boost::system::error_code ec) {
            if (ec) return;
            if (seat >= static_cast<int>(self->seats_.size())) return;
            auto& st = self->seats_[static_cast<std::size_t>(seat)];
            if (st.reconnect_timer != timer || st.connected) return;
            st.server_played = true;
            st.reconnect_timer.reset();
            spdlog::info("room {}: seat {} did not come back; the server plays it", self->code_, seat);
            self->broadcast_snapshot();
            self->abandon_if_nobody_left();
        });
        pass_host_if_needed();
        broadcast_snapshot();
    }

    // ---- A game -----------------------------------------------------------------------------
    void publish_game(const GameOptions& options) {
        game_options_ = options;
        publication_ = publish(options);
        game_id_ = code_ + "-" + std::to_string(now_ms()) + "-" + publication_->seed.commitment().substr(0, 8);
        state_ = RoomState::seeding;
        for (auto& s : seats_) {
            s.client_seed.reset();
            // The room asks every player for a seed: that answer is not rate limited either
            // (games played back to back would otherwise run into the limit).
            if (auto p = s.peer.lock(); p && !s.bot && s.connected) p->grant_answer();
        }
        broadcast(Commitment{game_id_, publication_->seed.commitment(), services_.config.seed_wait_ms,
                             publication_->boards});
        spdlog::info("room {}: game {} published, waiting for client seeds", code_, game_id_);
        if (all_seeds_in()) return begin_game();
        arm(std::chrono::milliseconds(services_.config.seed_wait_ms), Next::seeds_timeout);
    }

    bool all_seeds_in() const {
        return std::all_of(seats_.begin(), seats_.end(),
                           [](const Seat& s) { return s.bot || !s.connected || s.client_seed.has_value(); });
    }

    void begin_game() {
        step_timer_.cancel();
        std::vector<TableSeat> seats;
        std::vector<ClientSeed> client_seeds;
        for (std::size_t s = 0; s < seats_.size(); ++s) {
            seats.push_back({seats_[s].name, seats_[s].bot, seats_[s].policy});
            if (!seats_[s].bot && seats_[s].client_seed) client_seeds.push_back({static_cast<int>(s), *seats_[s].client_seed});
        }
        try {
            table_ = make_table(*game_options_, seats, *publication_, client_seeds, services_);
        } catch (const std::exception& e) {
            spdlog::error("room {}: cannot start the game: {}", code_, e.what());
            state_ = RoomState::lobby;
            publication_.reset();
            broadcast(ErrorReply{std::string(to_string(ErrorCode::wrong_state)), std::string("cannot start: ") + e.what(),
                                 "start"});
            return;
        }
        state_ = RoomState::playing;
        ++services_.metrics.games_started;
        GameStarted started{game_id_, *game_options_, {}, table_->record().assignment};
        for (const auto& c : client_seeds) started.client_seeds.push_back({c.seat, c.seed});
        broadcast(started);
        broadcast_snapshot();
        spdlog::info("room {}: game {} started with {} players", code_, game_id_, seats_.size());
        arm(std::chrono::milliseconds(settings_.pace_ms), Next::advance);
    }

    enum class Next { advance, deadline, seeds_timeout };

    void arm(Clock::duration after, Next next) {
        if (paused_ || closed_) return;
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
        step_timer_.expires_after(after);
        step_timer_.async_wait([self = self(), next, epoch](boost::system::error_code ec) {
            if (!ec) self->fire(next, epoch);
        });
    }

    struct Immediate {
        Next next;
        std::uint64_t epoch;
    };
    static constexpr int kInlineSteps = 16;

    void run_immediate() {
        pumping_ = true;
        for (int steps = 0; immediate_ && steps < kInlineSteps; ++steps) {
            const Immediate now = *std::exchange(immediate_, std::nullopt);
            fire(now.next, now.epoch);
        }
        pumping_ = false;
        // The rest after what else waits for this thread.
        if (immediate_) net::post(strand_, [self = self()] { self->run_immediate(); });
    }

    void fire(Next next, std::uint64_t epoch) {
        if (epoch != epoch_ || paused_ || closed_) return;  // superseded, paused or closed since
        switch (next) {
            case Next::advance: advance(); break;
            case Next::deadline: deadline(); break;
            case Next::seeds_timeout:
                if (state_ == RoomState::seeding) begin_game();
                break;
        }
    }

    void advance() {
        if (!table_ || table_->over()) return;
        std::vector<std::string> out;  // the table's messages, encoded
        std::vector<int> needs;
        try {
            needs = table_->advance(out);
        } catch (const std::exception& e) {
            spdlog::error("room {}: the game failed: {}", code_, e.what());
            return end_game(GameStatus::abandoned, "an internal error");
        }
        for (auto& m : out) send_to_all(frame(std::move(m)));
        const auto deadline = std::chrono::milliseconds(settings_.decision_ms);
        for (int seat : needs) {
            auto& s = seats_[static_cast<std::size_t>(seat)];
            if (s.bot) {
                (void)table_->choose(seat, table_->bot_choice(seat, s.policy, bot_rng_), ChoiceMaker::player);
            } else if (!s.connected || s.server_played) {
                auto_move(seat, ChoiceMaker::away);
            } else {
                s.decision_id = std::to_string(++decision_counter_);
                s.decision_sent = Clock::now();
                ++services_.metrics.decisions;
                if (auto p = s.peer.lock()) {
                    p->grant_answer();
                    send(p, decision_message(seat, s.decision_id, deadline));
                }
            }
        }
        if (pending_decisions() > 0) {
            waiting_for_decisions_ = true;
            arm(deadline, Next::deadline);
            return;
        }
        after_decisions(out.empty());
    }

    Decision decision_message(int seat, const std::string& id, Clock::duration left) {
        return Decision{id,
                        seat,
                        table_->step_number(),
                        table_->decision_options(seat, settings_.hints),
                        std::chrono::duration_cast<std::chrono::milliseconds>(left).count(),
                        now_ms()};
    }

    int pending_decisions() const {
        return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return !s.decision_id.empty(); }));
    }

    void auto_move(int seat, ChoiceMaker maker) {
        ++services_.metrics.auto_moves;
        (void)table_->choose(seat, table_->server_choice(seat), maker);
    }

    // A seat that owes a decision and cannot answer (gone, kicked): the server answers now.
    void answer_for_absent(int seat, ChoiceMaker maker) {
        auto& s = seats_[static_cast<std::size_t>(seat)];
        if (!table_ || s.decision_id.empty()) return;
        s.decision_id.clear();
        if (s.bot) (void)table_->choose(seat, table_->bot_choice(seat, s.policy, bot_rng_), ChoiceMaker::player);
        else auto_move(seat, maker);
        if (pending_decisions() == 0) decisions_complete();
    }

    void deadline() {
        for (std::size_t s = 0; s < seats_.size(); ++s) {
            auto& seat = seats_[s];
            if (seat.decision_id.empty()) continue;
            if (auto p = seat.peer.lock())
                send(p, DecisionTimeout{seat.decision_id});
            seat.decision_id.clear();
            auto_move(static_cast<int>(s), ChoiceMaker::timeout);
        }
        decisions_complete();
    }

    void decisions_complete() {
        waiting_for_decisions_ = false;
        ++epoch_;  // the deadline timer no longer applies
        after_decisions(false);
    }

    void after_decisions(bool nothing_shown) {
        std::vector<std::string> out;
        table_->resolve(out);
        for (auto& m : out) send_to_all(frame(std::move(m)));
        if (table_->over()) return end_game(GameStatus::finished, "");
        const auto pace = nothing_shown && out.empty() ? Clock::duration::zero() : std::chrono::milliseconds(settings_.pace_ms);
        arm(pace, Next::advance);
    }

    void end_game(GameStatus status, const std::string& why) {
        step_timer_.cancel();
        ++epoch_;
        waiting_for_decisions_ = false;
        paused_ = false;
        GameOver over;
        over.game_id = game_id_;
        over.status = std::string(to_string(status));
        if (table_) {
            if (status == GameStatus::abandoned) table_->abandon();
            const GameRecord& record = table_->record();
            const std::string saved = services_.records.save(record, game_id_);
            over.winners = record.result.winners;
            over.places = record.result.places;
            over.length = record.result.length;
            over.server_seed = record.server_seed;
            if (!saved.empty()) over.record = "/records/" + saved;
            if (status == GameStatus::finished) ++services_.metrics.games_finished;
            else ++services_.metrics.games_abandoned;
        } else if (publication_) {
            over.server_seed = publication_->seed.hex();  // abandoned before it started
        }
        if (!why.empty()) over.reason = why;
        for (auto& s : seats_) s.decision_id.clear();
        broadcast(over);
        spdlog::info("room {}: game {} {}{}", code_, game_id_, to_string(status), why.empty() ? "" : " (" + why + ")");
        table_.reset();
        publication_.reset();
        state_ = RoomState::lobby;
        // Back to the lobby: players who are gone leave their seats.
        for (int s = static_cast<int>(seats_.size()) - 1; s >= 0; --s) {
            const auto& seat = seats_[static_cast<std::size_t>(s)];
            if (!seat.bot && !seat.connected) {
                seats_.erase(seats_.begin() + s);
                if (host_ == s) host_ = -1;
                else if (host_ > s) --host_;
            }
        }
        for (auto& s : seats_) s.server_played = false;
        pass_host_if_needed();
        broadcast_snapshot();
    }

    net::strand<net::io_context::executor_type> strand_;
    net::steady_timer step_timer_;
    Services& services_;
    std::string code_;
    GameOptions options_;
    protocol::RoomSettings settings_;
    std::vector<Seat> seats_;
    // By peer id: the entry count of the last message the room took from that peer (let_go).
    std::unordered_map<std::uint64_t, std::uint64_t> entries_;
    std::vector<std::weak_ptr<Peer>> spectators_;
    int host_ = -1;
    RoomState state_ = RoomState::lobby;
    bool paused_ = false;
    bool closed_ = false;
    bool waiting_for_decisions_ = false;
    bool pumping_ = false;                // running zero-pace steps (arm)
    std::optional<Immediate> immediate_;  // the zero-pace step to run next
    Clock::duration paused_left_{};
    std::uint64_t epoch_ = 0;
    std::uint64_t decision_counter_ = 0;
    std::optional<GameOptions> game_options_;
    std::optional<Publication> publication_;
    std::string game_id_;
    std::unique_ptr<Table> table_;
    Rng bot_rng_;
};

}  // namespace

std::shared_ptr<Room> Room::make(net::io_context& io, Services& services, std::string code, GameOptions options,
                                 protocol::RoomSettings settings) {
    ++services.metrics.rooms;
    return std::make_shared<RoomImpl>(io, services, std::move(code), options, settings);
}

}  // namespace spookludo::server
