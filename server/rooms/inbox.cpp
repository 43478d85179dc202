#include "inbox.h"

#include <spdlog/spdlog.h>

#include "cluster.h"
#include "room.h"
#include "spookludo/protocol/server_messages.h"
#include "spookludo/text.h"

namespace spookludo::server {

using protocol::ErrorCode;

namespace {
std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}
}  // namespace

Inbox::Inbox(boost::asio::io_context& io, Services& services, const Peer& peer)
    : io_(io), services_(services), peer_(peer), tokens_(burst()) {}

double Inbox::burst() const { return 2.0 * services_.config.max_messages_per_second; }

void Inbox::grant_answer() {
    int g = granted_.load();
    while (g < kMaxGrants && !granted_.compare_exchange_weak(g, g + 1)) {
    }
}

// Token bucket: max_messages_per_second, bursts of twice that.
bool Inbox::rate_ok(bool answers_count) {
    int g = answers_count ? granted_.load() : 0;
    while (g > 0)  // an answer the room asked for
        if (granted_.compare_exchange_weak(g, g - 1)) return true;
    const auto now = std::chrono::steady_clock::now();
    const double rate = services_.config.max_messages_per_second;
    tokens_ = std::min(burst(), tokens_ + rate * std::chrono::duration<double>(now - last_refill_).count());
    last_refill_ = now;
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
}

Inbox::Outcome Inbox::reject(const std::shared_ptr<Peer>& self, ErrorCode code, const std::string& message,
                             std::string_view ref, const nlohmann::json& args) {
    services_.metrics.count_error(protocol::to_string(code));
    self->send(protocol::error_message(code, message, ref, args));
    return strike();  // repeated abuse closes this connection only
}

std::optional<Inbox::Outcome> Inbox::if_lost(const std::shared_ptr<Peer>& self, const std::string& code,
                                             std::string_view ref) {
    auto told = services_.lost_rooms.find(code);
    if (!told) return std::nullopt;
    nlohmann::json args{{"room", code}};
    if (!told->record.empty()) args["record"] = told->record;
    return reject(self, ErrorCode::room_lost, told->text, ref, args);
}

Inbox::Outcome Inbox::on_binary(const std::shared_ptr<Peer>& self) {
    ++services_.metrics.messages_in;
    if (!rate_ok())
        return reject(self, ErrorCode::rate_limited,
                      "too many messages: at most " + std::to_string(services_.config.max_messages_per_second) +
                          " a second",
                      {}, {{"limit", "messages"}, {"per_second", services_.config.max_messages_per_second}});
    return reject(self, ErrorCode::binary_frame, "binary frames are not part of the protocol: send JSON text");
}

Inbox::Outcome Inbox::on_text(const std::shared_ptr<Peer>& self, std::string_view text) {
    ++services_.metrics.messages_in;
    if (!rate_ok())
        return reject(self, ErrorCode::rate_limited,
                      "too many messages: at most " + std::to_string(services_.config.max_messages_per_second) +
                          " a second",
                      {}, {{"limit", "messages"}, {"per_second", services_.config.max_messages_per_second}});
    if (waiting_) {  // behind a message that waits for the cluster: in order, after it
        if (held_.size() >= kMaxHeld)
            return reject(self, ErrorCode::wrong_state,
                          "wait for the answer to your last message (the server is asking the cluster)", {},
                          {{"reason", "waiting"}});
        held_.emplace_back(text);
        return Outcome::go_on;
    }
    return guarded(self, text);
}

Inbox::Outcome Inbox::guarded(const std::shared_ptr<Peer>& self, std::string_view text) {
    try {
        return handle(self, text);
    } catch (const std::exception& e) {
        ++services_.metrics.internal_errors;
        spdlog::error("connection {} from {}: a message failed: {}", peer_.id(), peer_.address(), e.what());
        return reject(self, ErrorCode::internal_error, "the server could not handle that message");
    }
}

bool Inbox::answered(const std::shared_ptr<Peer>& self, const std::function<Outcome()>& then) {
    waiting_ = false;
    if (gone_) {
        held_.clear();
        then();  // it lets go of what it holds
        return false;
    }
    Outcome out;
    try {
        out = then();
    } catch (const std::exception& e) {
        ++services_.metrics.internal_errors;
        spdlog::error("connection {} from {}: a message failed: {}", peer_.id(), peer_.address(), e.what());
        out = reject(self, ErrorCode::internal_error, "the server could not handle that message");
    }
    while (out == Outcome::go_on && !waiting_ && !held_.empty()) {
        const std::string text = std::move(held_.front());
        held_.erase(held_.begin());
        out = guarded(self, text);
    }
    return out == Outcome::close;
}

namespace {
bool well_formed_code(const std::string& code) {
    return code.size() == kRoomCodeLength &&
           code.find_first_not_of(kRoomCodeAlphabet) == std::string::npos;
}
}  // namespace

Inbox::Outcome Inbox::open_room(const std::shared_ptr<Peer>& self, const std::string* code,
                                protocol::ClientMessage&& message) {
    auto& services = services_;
    if (services.shutting_down) {
        if (code) services.cluster->release_code(*code);
        return reject(self, ErrorCode::server_full, "the server is shutting down", "create_room",
                      {{"limit", "shutting_down"}});
    }
    auto& create = std::get<protocol::CreateRoom>(message);
    const protocol::RoomSettings settings =
        create.settings.value_or(protocol::SettingsChange{})
            .applied_to(protocol::RoomSettings{services.config.decision_ms, services.config.pace_ms, false});
    const std::string& address = peer_.address();
    const auto make = [&](const std::string& c) {
        return Room::make(io_, services, c, create.options, settings, address);
    };
    auto created = code ? services.registry.create_with(*code, address, make) : services.registry.create(address, make);
    if (!created) {
        if (code) services.cluster->release_code(*code);
        if (created.address_holds > 0) return address_full(self, created.address_holds);
        return reject(self, ErrorCode::server_full,
                      "the server has its maximum of " + std::to_string(services.config.max_rooms) + " rooms",
                      "create_room", {{"limit", "rooms"}, {"max", services.config.max_rooms}});
    }
    auto& room = created.room;
    spdlog::info("room {} created ({} for {})", room->code(), to_string(create.options.game), create.options.players);
    return enter(self, std::move(room), std::move(message));
}

Inbox::Outcome Inbox::address_full(const std::shared_ptr<Peer>& self, int holds) {
    ++services_.metrics.rooms_refused_per_address;
    const int bound = services_.registry.max_rooms_per_address();
    spdlog::debug("connection {} from {}: create_room refused: the address holds {} rooms (--max-rooms-per-address {})",
                  peer_.id(), peer_.address(), holds, bound);
    return reject(self, ErrorCode::server_full,
                  "your address holds " + std::to_string(holds) + " open rooms on this server, and one address may "
                      "hold at most " + std::to_string(bound) +
                      ": a room stays open until everyone has left it (a dropped player's seat keeps it open up to " +
                      std::to_string(services_.config.reconnect_ms / 1000) + " s)",
                  "create_room",
                  {{"limit", "rooms_per_address"}, {"holds", holds}, {"max", bound},
                   {"reconnect_s", services_.config.reconnect_ms / 1000}});
}

Inbox::Outcome Inbox::create_in_cluster(const std::shared_ptr<Peer>& self, protocol::ClientMessage&& message) {
    auto& cluster = *services_.cluster;
    // Without its lease this node cannot tell whether Redis has its rooms: it makes none.
    if (!cluster.lease_valid())
        return reject(self, ErrorCode::unavailable,
                      "new rooms cannot be made now: this node cannot reach the cluster's store (Redis); try again "
                      "in a moment",
                      "create_room", {{"reason", "cluster_store"}});
    if (static_cast<int>(services_.registry.size()) >= services_.config.max_rooms)
        return reject(self, ErrorCode::server_full,
                      "the server has its maximum of " + std::to_string(services_.config.max_rooms) + " rooms",
                      "create_room", {{"limit", "rooms"}, {"max", services_.config.max_rooms}});
    // The bound on rooms per address is this node's: checked here before a code is claimed, and
    // again when the room is made (open_room). A create_room sent on to another node counts there.
    if (services_.registry.address_full(peer_.address()))
        return address_full(self, services_.registry.held_by(peer_.address()));
    waiting_ = true;
    auto held = std::make_shared<protocol::ClientMessage>(std::move(message));
    cluster.claim_code([this, self, held](Cluster::NewRoom placed) {
        self->post([this, self, held, placed = std::move(placed)] {
            return answered(self, [&]() -> Outcome {
                const std::string& code = placed.code;
                if (gone_) {
                    if (!code.empty()) services_.cluster->release_code(code);
                    return Outcome::go_on;
                }
                if (placed.elsewhere) {  // the node with the fewest rooms
                    self->send(protocol::encode_message(
                        protocol::Redirect{placed.elsewhere->url, placed.elsewhere->id, "create_room", std::nullopt}));
                    return Outcome::go_on;
                }
                if (code.empty())
                    return reject(self, ErrorCode::unavailable,
                                  "new rooms cannot be made now: " + placed.why + "; try again in a moment",
                                  "create_room", {{"reason", "cluster_store"}});
                return open_room(self, &code, std::move(*held));
            });
        });
    });
    return Outcome::go_on;
}

Inbox::Outcome Inbox::locate_in_cluster(const std::shared_ptr<Peer>& self, const std::string& asked,
                                        protocol::ClientMessage&& message) {
    const std::string ref(protocol::type_of(message));
    const std::string code = normalise_room_code(asked);
    if (!well_formed_code(code))
        return reject(self, ErrorCode::room_not_found, "there is no room " + quote_client_text(asked), ref,
                      {{"room", quote_client_text(asked)}});
    waiting_ = true;
    auto held = std::make_shared<protocol::ClientMessage>(std::move(message));
    services_.cluster->locate(code, [this, self, held, code, ref](RoomPlace place) {
        self->post([this, self, held, code, ref, place = std::move(place)] {
            return answered(self, [&]() -> Outcome {
                if (gone_) return Outcome::go_on;
                switch (place.kind) {
                    case RoomPlace::Kind::here:
                        if (auto room = services_.registry.find(code)) return into_room(self, room, std::move(*held));
                        // The directory names this node, which does not have it (yet): being taken
                        // over or taken up again here. The clients try again.
                        return reject(self, ErrorCode::unavailable,
                                      "room " + code + " is being taken up on this node; try again in a moment", ref,
                                      {{"reason", "room_moving"}, {"room", code}});
                    case RoomPlace::Kind::none:
                        if (auto lost = if_lost(self, code, ref)) return *lost;
                        return reject(self, ErrorCode::room_not_found, "there is no room " + code, ref,
                                      {{"room", code}});
                    case RoomPlace::Kind::elsewhere:
                        self->send(protocol::encode_message(protocol::Redirect{place.url, place.node, ref, code}));
                        return Outcome::go_on;
                    case RoomPlace::Kind::node_down:
                        return reject(self, ErrorCode::unavailable,
                                      "room " + code + "'s node (" + place.node +
                                          ") stopped answering: its rooms are moving to another node; try again in a "
                                          "few seconds",
                                      ref, {{"reason", "room_moving"}, {"room", code}, {"node", place.node}});
                    case RoomPlace::Kind::unavailable: break;
                }
                return reject(self, ErrorCode::unavailable,
                              "room " + code + " cannot be looked up now (" + place.why + "); try again in a moment", ref,
                              {{"reason", "cluster_store"}, {"room", code}});
            });
        });
    });
    return Outcome::go_on;
}

Inbox::Outcome Inbox::into_room(const std::shared_ptr<Peer>& self, std::shared_ptr<Room> room,
                                protocol::ClientMessage&& message) {
    if (room_ && room_ != room)
        return reject(self, ErrorCode::already_in_room,
                      "you are in room " + room_->code() + " (or asked to enter it): leave it first",
                      protocol::type_of(message), {{"reason", "other_room"}, {"room", room_->code()}});
    if (room_) {  // the same room: it answers (already in this room, a resume of another seat)
        ++entries_;
        room_->deliver(self, std::move(message), entries_);
        return Outcome::go_on;
    }
    return enter(self, std::move(room), std::move(message));
}

// Control frames share the message rate: a client that floods pings gets no pongs beyond it,
// and counts a bad message for each one over (so a flood closes the connection).
Inbox::Control Inbox::on_control() {
    if (rate_ok(false)) return Control::answer;
    return strike() == Outcome::close ? Control::close : Control::ignore;
}

Inbox::Outcome Inbox::strike() {
    if (strikes_ >= kMaxStrikes) return Outcome::close;  // closing already: said once
    if (++strikes_ < kMaxStrikes) return Outcome::go_on;
    spdlog::info("connection {} from {}: too many bad messages; closed", peer_.id(), peer_.address());
    return Outcome::close;
}

void Inbox::detach(const Room* room, std::uint64_t entry) {
    if (room_.get() == room && entry == entries_) room_.reset();
}

void Inbox::on_gone(const std::shared_ptr<Peer>& self) {
    gone_ = true;
    held_.clear();
    if (room_) {
        room_->disconnected(self);
        room_.reset();
    }
}

Inbox::Outcome Inbox::enter(const std::shared_ptr<Peer>& self, std::shared_ptr<Room> room,
                            protocol::ClientMessage&& message) {
    room_ = std::move(room);
    ++entries_;
    room_->deliver(self, std::move(message), entries_);
    return Outcome::go_on;
}

Inbox::Outcome Inbox::handle(const std::shared_ptr<Peer>& self, std::string_view text) {
    auto parsed = protocol::parse_client_message(text);
    if (auto* err = std::get_if<protocol::ProtocolError>(&parsed))
        return reject(self, err->code, err->message, err->ref, err->args);
    auto& message = std::get<protocol::ClientMessage>(parsed);
    auto& services = services_;

    if (auto* hello = std::get_if<protocol::Hello>(&message)) {
        if (hello->protocol != protocol::kProtocolVersion)
            return reject(self, ErrorCode::version_mismatch,
                          "this server speaks protocol " + std::to_string(protocol::kProtocolVersion) + ", the client " +
                              std::to_string(hello->protocol) + ": update the client",
                          "hello", {{"server", protocol::kProtocolVersion}, {"client", hello->protocol}});
        hello_ = true;
        protocol::Welcome welcome;
        welcome.server = "spookludo-server";
        welcome.server_time_ms = now_ms();
        if (!services.config.public_url.empty()) welcome.public_url = services.config.public_url;
        welcome.lan_urls = services.lan_urls;
        if (services.cluster) welcome.nodes = services.cluster->live_urls();
        self->send(protocol::encode_message(welcome));
        return Outcome::go_on;
    }
    if (!hello_) return reject(self, ErrorCode::hello_first, "say hello first (with the protocol version)");

    if (std::holds_alternative<protocol::CreateRoom>(message)) {
        if (room_)
            return reject(self, ErrorCode::already_in_room, "leave your room first", "create_room",
                          {{"reason", "other_room"}, {"room", room_->code()}});
        if (services.shutting_down)
            return reject(self, ErrorCode::server_full, "the server is shutting down", "create_room",
                          {{"limit", "shutting_down"}});
        if (services.cluster) return create_in_cluster(self, std::move(message));
        return open_room(self, nullptr, std::move(message));
    }
    std::string code;
    if (auto* m = std::get_if<protocol::JoinRoom>(&message)) code = m->room;
    if (auto* m = std::get_if<protocol::Watch>(&message)) code = m->room;
    if (auto* m = std::get_if<protocol::Resume>(&message)) code = m->room;
    if (!code.empty() || std::holds_alternative<protocol::JoinRoom>(message) ||
        std::holds_alternative<protocol::Watch>(message) || std::holds_alternative<protocol::Resume>(message)) {
        auto room = services.registry.find(code);
        if (!room && services.cluster) {
            // Elsewhere in the cluster, maybe: asked only when this connection is in no other room.
            if (room_ && room_->code() != normalise_room_code(code))
                return reject(self, ErrorCode::already_in_room,
                              "you are in room " + room_->code() + " (or asked to enter it): leave it first",
                              protocol::type_of(message), {{"reason", "other_room"}, {"room", room_->code()}});
            return locate_in_cluster(self, code, std::move(message));
        }
        if (!room) {
            if (auto lost = if_lost(self, normalise_room_code(code), protocol::type_of(message))) return *lost;
        }
        if (!room)
            return reject(self, ErrorCode::room_not_found, "there is no room " + quote_client_text(code),
                          protocol::type_of(message), {{"room", quote_client_text(code)}});
        return into_room(self, std::move(room), std::move(message));
    }
    if (std::holds_alternative<protocol::Ping>(message) && !room_) {
        self->send(protocol::encode_message(protocol::Pong{std::get<protocol::Ping>(message).t, now_ms()}));
        return Outcome::go_on;
    }
    if (!room_) return reject(self, ErrorCode::not_in_room, "create or join a room first", protocol::type_of(message));
    const bool leaving = std::holds_alternative<protocol::Leave>(message);
    room_->deliver(self, std::move(message), entries_);
    if (leaving) room_.reset();  // out from now on: the room's detach that follows changes nothing
    return Outcome::go_on;
}

}  // namespace spookludo::server
