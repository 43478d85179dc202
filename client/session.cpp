#include "session.h"

#include "server_words.h"

#include <algorithm>
#include <random>
#include <utility>

#include "i18n.h"

namespace spookludo::client {

namespace pr = protocol;
using nlohmann::json;

std::string random_client_seed() {
    std::random_device device;
    static constexpr char digits[] = "0123456789abcdef";
    std::string seed;
    for (int i = 0; i < 8; ++i) {
        const auto word = device();
        for (int k = 0; k < 4; ++k) {
            const auto byte = (word >> (8 * k)) & 0xFFu;
            seed += digits[byte >> 4];
            seed += digits[byte & 15u];
        }
    }
    return seed.substr(0, 32);
}

Session::Session(EventLoop& loop, SessionConfig config, Callbacks callbacks)
    : loop_(loop), config_(std::move(config)), callbacks_(std::move(callbacks)) {
    seed_ = config_.client_seed.value_or(random_client_seed());
}

Session::~Session() {
    *alive_ = false;
    if (connection_) connection_->close();
}

bool Session::connected() const {
    return connection_ && connection_->is_open();
}

void Session::start() {
    connect();
}

void Session::connect() {
    if (ended_) return;
    ++attempts_;
    // A cluster: after a failed attempt, the next ones go round its nodes (any node sends a
    // client on to the one that has its room now).
    if (attempts_ > 1 && !nodes_.empty())
        if (auto url = node_ws_url(nodes_[static_cast<std::size_t>(attempts_) % nodes_.size()], config_.url))
            config_.url = *url;
    if (callbacks_.on_status)
        callbacks_.on_status(entered_ ? tr("The server is not answering; trying again ({attempt}) ...", {{"attempt", std::to_string(attempts_)}})
                                      : tr("connecting to {address}...", {{"address", config_.url.text()}}));
    std::weak_ptr<bool> alive = alive_;
    Connection::Handlers h;
    h.on_open = [this, alive] {
        if (!alive.expired()) on_open();
    };
    h.on_message = [this, alive](std::string_view text) {
        if (!alive.expired()) on_text(text);
    };
    h.on_close = [this, alive](const std::string& reason) {
        if (!alive.expired()) on_closed(reason);
    };
    connection_ = Connection::open(loop_, config_.url, std::move(h));
}

void Session::send(const pr::ClientMessage& message) {
    if (connection_) connection_->send(pr::encode(message));
}

void Session::on_open() {
    // The story's verify command names the server this connection reached (a cluster's node too).
    view_.set_record_server(config_.url.http_base(), config_.url.ca_file.empty() ? "" : " --ca-file " + config_.url.ca_file);
    send(pr::Hello{pr::kProtocolVersion, config_.client});
    // After a dropped connection a player resumes with the token; a spectator watches again.
    if (entered_ && view_.token() && !view_.is_spectator()) {
        send(pr::Resume{view_.room(), *view_.token()});
        return;
    }
    switch (entered_ && view_.is_spectator() ? JoinMode::watch : config_.mode) {
        case JoinMode::create: send(pr::CreateRoom{config_.options, config_.name, config_.settings}); break;
        case JoinMode::join: send(pr::JoinRoom{config_.room, config_.name}); break;
        case JoinMode::resume: send(pr::Resume{config_.room, config_.token}); break;
        case JoinMode::watch: send(pr::Watch{entered_ ? view_.room() : config_.room}); break;
    }
}

void Session::on_text(std::string_view text) {
    json message = json::parse(text, nullptr, false);
    if (message.is_discarded() || !message.is_object()) return;
    view_.apply(message, steady_ms());
    dice_.observe(message);
    const std::string type = message.value("type", "");
    if (type == "welcome") {
        if (auto it = message.find("nodes"); it != message.end() && it->is_array()) {
            nodes_.clear();
            for (const auto& n : *it)
                if (n.is_string() && nodes_.size() < 64) nodes_.push_back(n.get<std::string>());
        }
    } else if (type == "redirect") {
        // A cluster's node: the room (or the new room) is on another node. Go there and send the
        // same message again; the person sees nothing of it.
        const auto url = node_ws_url(message.value("url", std::string()), config_.url);
        if (!url || ++redirects_ > kMaxRedirects) {
            end(SessionEnd{entered_ ? 1 : 2,
                           url ? tr("the cluster sent this client from node to node {n} times without a room",
                                    {{"n", std::to_string(kMaxRedirects)}})
                               : tr("the server sent this client to an address it cannot use: \"{address}\"",
                                    {{"address", message.value("url", std::string())}})});
            return;
        }
        config_.url = *url;
        redirected_ = true;
        if (connection_) connection_->close();
        return;
    } else if (type == "joined") {
        entered_ = true;
        rejoined_ = false;
        patient_ = false;
        redirects_ = 0;
        attempts_ = 0;
        lost_at_ms_ = 0;
        view_.set_disconnected(false, steady_ms());
        if (callbacks_.on_status) callbacks_.on_status("connected");
    } else if (type == "error") {
        const std::string code = message.value("code", "");
        const std::string text_of = message.value("message", "");
        // The error in the reader's language, from its code and args (server_words.h).
        const std::string worded = error_text(message);
        static constexpr std::string_view refusals[] = {"room_not_found", "room_full", "name_taken", "version_mismatch",
                                                        "bad_token", "server_full", "already_in_room",
                                                        "bad_name", "room_lost"};
        const bool refused = std::find(std::begin(refusals), std::end(refusals), code) != std::end(refusals);
        const std::string ref = message.value("ref", "");
        const bool entering = ref == "create_room" || ref == "join_room" || ref == "resume" || ref == "watch" || ref == "hello";
        // The room cannot save anything right now (the server's disk), or a cluster's room is
        // moving to another node: come back in a moment, as after a drop. (A new room refused
        // because the cluster's store is out of reach is the person's to try again.)
        if (code == "unavailable" && entering && (entered_ || (ref != "create_room" && config_.reconnect))) {
            patient_ = true;
            if (callbacks_.on_status) callbacks_.on_status(worded);
            if (connection_) connection_->close();
            return;
        }
        // Back after a drop while the room was in its lobby: the server freed the seat, so sit
        // down again by name.
        if (code == "bad_token" && ref == "resume" && entered_ && !view_.in_game() && !rejoined_) {
            rejoined_ = true;
            send(pr::JoinRoom{view_.room(), config_.name});
            return;
        }
        // A kept token the server no longer knows (the seat was freed, the game is over): sit
        // down by name as if no token had been kept.
        if (code == "bad_token" && ref == "resume" && !entered_ && config_.join_if_token_refused && !config_.name.empty()) {
            config_.join_if_token_refused = false;
            config_.mode = JoinMode::join;
            view_.note(tr("The seat kept for {name} in room {code} is gone; joining the room again.",
                          {{"name", config_.name}, {"code", config_.room}}));
            if (callbacks_.on_message) callbacks_.on_message(message);
            send(pr::JoinRoom{config_.room, config_.name});
            return;
        }
        // The room this host created is gone, or their seat in it is: a new room, said so.
        if ((code == "bad_token" || code == "room_not_found" || code == "room_lost") && ref == "resume" && !entered_ &&
            config_.create_if_token_refused) {
            config_.create_if_token_refused = false;
            // The program forgets the void token first (it reads the old room from the config).
            if (callbacks_.on_message) callbacks_.on_message(message);
            const std::string old_room = config_.room;
            config_.mode = JoinMode::create;
            config_.room.clear();
            view_.note(tr("Your room {code} is not open for you any more ({why}): creating a new room.",
                          {{"code", old_room}, {"why", code == "bad_token" ? tr("your seat there is gone") : worded}}));
            send(pr::CreateRoom{config_.options, config_.name, config_.settings});
            return;
        }
        // A spectator in the room who asked for a seat (join_room) and was refused watches on.
        const bool watching_on = entered_ && view_.is_spectator() && ref == "join_room" && !view_.room().empty();
        // A refusal ends the session only when it answers getting in (a host's add_bot into a
        // full room is just an error).
        if (!watching_on && ((refused && (entering || ref.empty())) || (entering && view_.room().empty()))) {
            std::string why = worded;
            if (code == "room_not_found")
                why = tr("no room {code} on this server (check the code): {message}",
                         {{"code", config_.room.empty() ? view_.room() : config_.room}, {"message", worded}});
            if (code == "version_mismatch")
                why = tr("this client speaks protocol {version} and the server does not: {message}",
                         {{"version", std::to_string(pr::kProtocolVersion)}, {"message", worded}});
            // The server says what became of a room it lost on a restart: that is the whole story.
            if (code == "room_lost") why = worded;
            SessionEnd e{entered_ ? 1 : 2, why + " [" + code + "]"};
            e.room_gone = code == "room_lost" || code == "room_not_found";
            end(e);
            return;
        }
    } else if (type == "kicked") {
        if (callbacks_.on_message) callbacks_.on_message(message);
        SessionEnd e{1, tr("You were removed from room {code} by the host.", {{"code", view_.room()}})};
        e.kicked = true;
        end(e);
        return;
    } else if (type == "closing") {
        if (callbacks_.on_message) callbacks_.on_message(message);
        // A restart keeps the room: the session reconnects with its token when the connection
        // closes, as after any drop, and finds the room where it was.
        if (message.value("code", std::string()) == "restart" && config_.reconnect && entered_) {
            if (callbacks_.on_status)
                callbacks_.on_status(tr("The server is restarting: the room is saved; reconnecting when it is back ..."));
            return;
        }
        // Going away for good (a server started with --abandon-on-exit, as the demo's): nothing to
        // reconnect to, no seat waits.
        if (message.value("code", std::string()) == "shutdown") {
            SessionEnd e{1, tr("the server has stopped for good: {reason}", {{"reason", message.value("reason", std::string("shutting down"))}})};
            e.server_shut_down = true;
            end(e);
            return;
        }
        end(SessionEnd{1, tr("the server is closing: {reason}", {{"reason", message.value("reason", std::string("shutting down"))}})});
        return;
    }
    if (view_.seed_requested()) {
        send(pr::SubmitClientSeed{seed_});
        dice_.seed_sent(seed_);
        view_.seed_sent();
        seed_ = random_client_seed();  // a rematch gets fresh entropy
    }
    if (callbacks_.on_message) callbacks_.on_message(message);
}

void Session::choose(int piece) {
    const auto& pending = view_.pending();
    if (!pending) return;
    send(pr::Choose{pending->decision.decision, piece});
    view_.mark_chosen(piece);
}

void Session::leave(const std::string& reason) {
    if (ended_) return;
    leaving_ = true;
    if (connected() && !view_.room().empty()) send(pr::Leave{});
    end(SessionEnd{0, reason});
}

void Session::end(SessionEnd outcome) {
    if (ended_) return;
    ended_ = true;
    if (connection_) connection_->close();
    if (callbacks_.on_end) {
        auto cb = callbacks_.on_end;
        cb(outcome);
    }
}

void Session::on_closed(const std::string& reason) {
    if (ended_) return;
    if (std::exchange(redirected_, false)) {
        attempts_ = 0;
        connect();
        return;
    }
    redirects_ = 0;  // the limit is for nodes that send a client round in a circle, not for a node that is down
    const bool can_resume = (entered_ && config_.reconnect && (view_.token() || view_.is_spectator())) || patient_;
    if (!entered_ && attempts_ <= 1 && !patient_) {
        end(SessionEnd{2, reason});
        return;
    }
    if (!can_resume) {
        end(SessionEnd{entered_ ? 1 : 2, reason});
        return;
    }
    const std::int64_t now = steady_ms();
    // Nobody can answer a decision now: its countdown stops (the server re-sends it on resume).
    view_.set_disconnected(true, now);
    if (attempts_ == 0 || lost_at_ms_ == 0) lost_at_ms_ = now;
    if (now - lost_at_ms_ > config_.reconnect_for.count()) {
        SessionEnd e{1, tr("the server at {address} could not be reached for {seconds} s ({reason})",
                           {{"address", config_.url.text()}, {"seconds", std::to_string(config_.reconnect_for.count() / 1000)}, {"reason", reason}})};
        e.server_gone = true;
        end(e);
        return;
    }
    if (callbacks_.on_status)
        callbacks_.on_status(tr("Connection lost ({reason}): the server is not answering; trying again ({attempt}) ...",
                                {{"reason", reason}, {"attempt", std::to_string(attempts_ + 1)}}));
    // A cluster's other nodes answer at once: a room that moves is found there within a second.
    const auto delay = std::chrono::milliseconds(std::min(nodes_.empty() ? 5000 : 1000, 250 * (1 << std::min(attempts_, 4))));
    std::weak_ptr<bool> alive = alive_;
    loop_.after(delay, [this, alive] {
        if (!alive.expired()) connect();
    });
}

}  // namespace spookludo::client
