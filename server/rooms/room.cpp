// A room: the dispatcher. What comes from outside (a peer's message, its disconnection, the
// server's stop, the cluster's pause) is posted to the room's strand and handed to the part that acts
// on it (room_impl.h lists the parts).
#include "room_impl.h"

namespace spookludo::server {

void RoomImpl::deliver(std::shared_ptr<Peer> peer, protocol::ClientMessage message, std::uint64_t entry) {
    net::post(strand_, [self = self(), peer = std::move(peer), message = std::move(message), entry]() mutable {
        // Only the messages that enter a room, or come from a peer the room already knows,
        // are remembered: a connection the room never took in leaves nothing behind.
        if (entering(message)) self->entries_[peer->id()] = entry;
        else if (auto it = self->entries_.find(peer->id()); it != self->entries_.end()) it->second = entry;
        self->on_message(peer, message);
        self->end_pass();
    });
}

void RoomImpl::disconnected(std::shared_ptr<Peer> peer) {
    net::post(strand_, [self = self(), peer = std::move(peer)] {
        self->entries_.erase(peer->id());
        self->guarded("a hang-up", [&] { self->on_disconnected(peer); });
    });
}

void RoomImpl::shutdown(std::function<void()> done) {
    net::post(strand_, [self = self(), done = std::move(done)]() mutable {
        const bool restart = !self->services_.config.abandon_on_exit;
        if (!restart) {
            // Going away for good: a game in progress ends (a game being seeded too: its
            // commitment is out, so its seed is revealed), and the room is not kept.
            self->guarded("the shutdown", [&] {
                if (self->table_ || self->state_ == RoomState::seeding)
                    self->end_game(GameStatus::abandoned, "the server is shutting down", "shutdown");
                self->journal_.closed(/*forget_code=*/false);  // the server is going: nothing to free
                self->closed_ = true;
                self->broadcast(Closing{"shutdown", "the server is shutting down"});
            });
        } else {
            // A restart: everything the room did is in the journal (or on its way: each pass
            // handed its part over before its messages could go out); the next start takes
            // it up again.
            self->end_pass();
        }
        self->closed_ = true;
        self->stop_timers();
        // Done once the journal has answered every pass (what it wrote goes out first).
        self->journal_.stop([self = self.get(), restart, done = std::move(done)] {
            if (restart)
                self->tell_now(Closing{"restart", "the server is restarting: the room is saved and goes on when it "
                                                  "is back (reconnect with your seat's token)"});
            done();
        });
    });
}

void RoomImpl::pause_for_cluster(std::string why) {
    net::post(strand_, [self = self(), why = std::move(why)] {
        if (!self->journal_.fault()) self->journal_.fail(why);
    });
}

bool RoomImpl::entering(const protocol::ClientMessage& m) {
    return std::holds_alternative<CreateRoom>(m) || std::holds_alternative<JoinRoom>(m) ||
           std::holds_alternative<Watch>(m) || std::holds_alternative<Resume>(m);
}

// ---- Messages ---------------------------------------------------------------------------
void RoomImpl::on_message(const std::shared_ptr<Peer>& peer, protocol::ClientMessage& message) {
    const bool ping = std::holds_alternative<Ping>(message);
    if (closed_) {
        error(peer, ErrorCode::room_not_found, "the room is closed", {}, {{"room", code_}, {"reason", "closed"}});
    } else if (journal_.fault() && !ping) {
        // Nothing changes while the journal cannot take it; said at once (not held).
        services_.metrics.count_error(protocol::to_string(ErrorCode::unavailable));
        peer->send(protocol::error_message(ErrorCode::unavailable,
                                           "the server cannot save this room right now (" + *journal_.fault() +
                                               "): it is paused and goes on by itself when it can; try again then",
                                           protocol::type_of(message), {{"reason", "journal"}, {"cause", *journal_.fault()}}));
    } else {
        // Every message but a ping or a choice may change the room's durable state: the room
        // writes it to the journal at the end of the pass (a choice writes its own event).
        // A reaction changes nothing durable: it is not journaled (nor in the game's record); nor
        // does a player's ask for more time.
        if (!ping && !std::holds_alternative<Choose>(message) && !std::holds_alternative<React>(message) &&
            !std::holds_alternative<AskTime>(message))
            journal_.changed();
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
    if (entering(message) && seat_of(peer) < 0 && !is_spectator(peer)) {
        let_go(peer);
        close_if_empty();
    }
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Ping& m) {
    // Straight out: it says nothing of the room, and keeps a connection alive while the room
    // waits for its journal.
    peer->send(frame(Pong{m.t, now_ms()}));
}

bool RoomImpl::host_only(const std::shared_ptr<Peer>& peer, std::string_view what) {
    if (seat_of(peer) == host_ && host_ >= 0) return true;
    error(peer, seat_of(peer) < 0 && !is_spectator(peer) ? ErrorCode::not_in_room : ErrorCode::not_host,
          "only the host may " + std::string(what), what, {{"action", what}});
    return false;
}

std::shared_ptr<Room> Room::make(net::io_context& io, Services& services, std::string code, GameOptions options,
                                 protocol::RoomSettings settings, std::string creator_address) {
    ++services.metrics.rooms;
    return std::make_shared<RoomImpl>(io, services, std::move(code), options, settings, std::move(creator_address));
}

}  // namespace spookludo::server
