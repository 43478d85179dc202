// The lobby: who is who (seats, spectators), joining, watching, taking a seat back by token,
// the options and settings, server bots, removing and kicking, the start and the automatic start.
#include "room_impl.h"

namespace spookludo::server {

// ---- Who is who -------------------------------------------------------------------------
// The room lets a peer go (Peer::detach), with the last entry count it saw from it.
void RoomImpl::let_go(const std::shared_ptr<Peer>& peer) {
    const auto it = entries_.find(peer->id());
    if (it == entries_.end()) return;  // it never came in: nothing to let go
    peer->detach(*this, it->second);
    entries_.erase(it);
}

bool RoomImpl::is_spectator(const std::shared_ptr<Peer>& peer) const {
    return std::any_of(spectators_.begin(), spectators_.end(), [&](const auto& w) { return w.lock() == peer; });
}

// The seat's index among the players of the game (the table's numbering), or -1.
int RoomImpl::player_of(int number) const {
    const auto it = std::find(players_.begin(), players_.end(), number);
    return it == players_.end() ? -1 : static_cast<int>(it - players_.begin());
}

void RoomImpl::welcome_seat(const std::shared_ptr<Peer>& peer, const Seat& seat, const std::string& token) {
    send(peer, Joined{code_, seat.number, token, "player", host_ == seat.number});
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::CreateRoom& m) {
    // The creator: the first seat, and the host.
    if (seats_.taken() > 0 || is_spectator(peer))
        return error(peer, ErrorCode::already_in_room, "this room has its creator", "create_room",
                     {{"reason", "this_room"}, {"room", code_}});
    // Armed first, so that the creator's first snapshot already carries auto_start_at_ms.
    if (settings_.auto_start_ms > 0) arm_auto_start();
    add_human(peer, *seats_.begin(), m.name);
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::JoinRoom& m) {
    if (seat_of(peer) >= 0)
        return error(peer, ErrorCode::already_in_room, "you are already in this room", "join_room",
                     {{"reason", "this_room"}, {"room", code_}});
    const bool watching = is_spectator(peer);
    if (state_ != RoomState::lobby) {
        // A spectator sits down in the lobby (before a game, or for the rematch after one);
        // people who arrive after the start watch.
        if (watching)
            return error(peer, ErrorCode::already_in_room,
                         "you are watching this room: a seat can be taken in the lobby, when the game is over",
                         "join_room", {{"reason", "watching"}, {"room", code_}});
        add_spectator(peer);
        return;
    }
    if (options_.table)
        return error(peer, ErrorCode::wrong_state,
                     "room " + code_ + " is a table game: the players sit at the table, not in the room; watch it "
                     "instead (a phone at the table may add a client seed before the game starts)",
                     "join_room", {{"reason", "table_game"}, {"room", code_}});
    // The lowest free seat, under a name; a spectator refused keeps watching.
    Seat* seat = seats_.lowest_free();
    if (!seat)
        return error(peer, ErrorCode::room_full,
                     "room " + code_ + " is full: all " + std::to_string(seats_.size()) + " seats are taken",
                     "join_room", {{"reason", "seats"}, {"room", code_}, {"seats", seats_.size()}});
    if (seats_.name_taken(m.name))
        return error(peer, ErrorCode::name_taken, "the name " + quote_client_text(m.name) + " is taken in this room",
                     "join_room", {{"name", m.name}});
    if (watching) drop_spectator(peer);
    add_human(peer, *seat, m.name);
}

void RoomImpl::add_human(const std::shared_ptr<Peer>& peer, Seat& seat, const std::string& name) {
    seat = empty_seat(seat.number);
    seat.taken = true;
    seat.name = name;
    const std::string token = random_token();
    seat.token_hash = sha256_hex(token);
    seat.peer = peer;
    seat.connected = true;
    if (host_ < 0) host_ = seat.number;
    welcome_seat(peer, seat, token);
    notice("joined", &seat, who(seat) + " sits at " + seat_label(seat.number) + (host_ == seat.number ? " (the host)" : ""),
           {{"host", host_ == seat.number}});
    broadcast_snapshot();
}

void RoomImpl::add_spectator(const std::shared_ptr<Peer>& peer) {
    if (static_cast<int>(spectators_.size()) >= services_.config.max_spectators)
        return error(peer, ErrorCode::room_full, "room " + code_ + " has its maximum of spectators", "watch",
                     {{"reason", "spectators"}, {"room", code_}, {"max", services_.config.max_spectators}});
    spectators_.push_back(peer);
    send(peer, Joined{code_, -1, std::nullopt, "spectator", false});
    spdlog::info("room {}: a spectator joined ({} watching)", code_, spectators_.size());
    broadcast_snapshot();  // the newcomer's first picture, and everyone's count of watchers
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Watch&) {
    if (seat_of(peer) >= 0 || is_spectator(peer))
        return error(peer, ErrorCode::already_in_room, "you are already in this room", "watch",
                     {{"reason", "this_room"}, {"room", code_}});
    add_spectator(peer);
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Resume& m) {
    // A connection already in the room does not take a second seat.
    if (seat_of(peer) >= 0 || is_spectator(peer))
        return error(peer, ErrorCode::already_in_room, "you are already in this room: leave it first", "resume",
                     {{"reason", "this_room"}, {"room", code_}});
    const std::string hash = sha256_hex(m.token);
    for (auto& seat : seats_) {
        if (!seat.human() || seat.token_hash.empty() || seat.token_hash != hash) continue;
        if (auto old = seat.peer.lock(); old && old != peer && seat.connected) {
            send(old, Closing{"replaced", "your seat was taken back from another connection (another tab or device)"});
            let_go(old);
            close_peer(old);
        }
        const bool was_away = !seat.connected || seat.presence != Presence::here;
        seat.peer = peer;
        seat.connected = true;
        seat.presence = Presence::here;  // also after the window: the player plays again
        if (seat.reconnect_timer) seat.reconnect_timer->cancel();
        seat.reconnect_timer.reset();
        cancel_grace(seat);
        pass_host_if_needed();
        welcome_seat(peer, seat, m.token);
        send(peer, snapshot());
        if (was_away) notice("back", &seat, who(seat) + " is back at " + seat_label(seat.number));
        broadcast_snapshot();
        // After a restart the game waits for its players: when the last is back it goes on
        // (and asks the decisions that were open).
        if (paused_ && pause_reason_ == PauseReason::restart && nobody_expected()) {
            notice("resumed", nullptr, "everyone is back: the game goes on", {{"reason", "everyone_back"}});
            return start_clock();
        }
        // A decision still open for the seat (within the drop grace, or during a pause) is
        // asked again; the answer's time counts from now (the metrics' decision time).
        if (!seat.decision_id.empty() && table_) {
            seat.decision_sent = Clock::now();
            peer->grant_answer();
            send(peer, decision_message(seat.number, seat.decision_id, seat_left(seat)));
        }
        return;
    }
    error(peer, ErrorCode::bad_token, "no seat in room " + code_ + " has that token", "resume", {{"room", code_}});
    peer->strike();  // guessing tokens is abuse, counted like any bad message
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::SetOptions& m) {
    if (!host_only(peer, "set_options")) return;
    if (state_ != RoomState::lobby)
        return error(peer, ErrorCode::wrong_state, "options change in the lobby", "set_options", {{"reason", "lobby_only"}});
    // A table game: the room holds the host's seat only (the players are the table's names).
    if (m.options.table && seats_.taken() > 1)
        return error(peer, ErrorCode::wrong_state,
                     "a table game's players sit at the table: " + std::to_string(seats_.taken() - 1) +
                         " other seat(s) are taken in the room (remove them first; they may watch)",
                     "set_options", {{"reason", "table_seats_taken"}, {"taken", seats_.taken() - 1}});
    // Seats come and go at the top; nobody's seat changes its number (Seats::resize).
    const auto change = seats_.resize(m.options.table ? std::max(1, host_ + 1) : m.options.players);
    if (!change)
        return error(peer, ErrorCode::bad_field,
                     std::to_string(seats_.taken()) + " seats are taken: options.players must be at least that",
                     "set_options", {{"field", "options.players"}, {"reason", "seats_taken"}, {"taken", seats_.taken()}});
    for (const Seat& added : change->added)
        notice("seat_added", &added, who(seat_ref(host_)) + " added " + seat_label(added.number),
               {{"by", who(seat_ref(host_))}});
    for (const Seat& removed : change->removed)
        notice("seat_removed", &removed, who(seat_ref(host_)) + " removed " + seat_label(removed.number),
               {{"by", who(seat_ref(host_))}});
    options_ = m.options;
    broadcast_snapshot();
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::SetSettings& m) {
    if (!host_only(peer, "set_settings")) return;
    const int factor_before = settings_.time_factor;
    settings_ = m.settings.applied_to(settings_);
    if (m.settings.auto_start_ms) arm_auto_start();
    if (settings_.time_factor != factor_before) change_time_factor(factor_before);
    broadcast_snapshot();
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::AddBot& m) {
    if (!host_only(peer, "add_bot")) return;
    if (state_ != RoomState::lobby)
        return error(peer, ErrorCode::wrong_state, "bots are added in the lobby", "add_bot", {{"reason", "lobby_only"}});
    if (options_.table)
        return error(peer, ErrorCode::wrong_state, "a table game has no bots: its players are the names at the table",
                     "add_bot", {{"reason", "table_game"}});
    Seat* seat = seats_.lowest_free();
    if (!seat)
        return error(peer, ErrorCode::room_full,
                     "the room is full: all " + std::to_string(seats_.size()) +
                         " seats are taken (set options.players to add a seat)",
                     "add_bot", {{"reason", "seats"}, {"room", code_}, {"seats", seats_.size()}});
    seat_bot(*seat, m.policy);
    broadcast_snapshot();
}

void RoomImpl::seat_bot(Seat& seat, PolicyKind policy) {
    seat = empty_seat(seat.number);
    seat.taken = true;
    seat.bot = true;
    seat.policy = policy;
    seat.name = seats_.bot_name(policy, seat);
    notice("bot_added", &seat, "a " + std::string(to_string(policy)) + " bot takes " + seat_label(seat.number),
           {{"policy", to_string(policy)}});
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::RemoveSeat& m) {
    if (!host_only(peer, "remove_seat")) return;
    if (state_ != RoomState::lobby)
        return error(peer, ErrorCode::wrong_state, "seats are emptied in the lobby (kick a player in a game)",
                     "remove_seat", {{"reason", "lobby_only"}});
    Seat* seat = seats_.at(m.seat);
    if (!seat || !seat->taken || m.seat == host_)
        return error(peer, ErrorCode::bad_field,
                     seat_label(m.seat) + (seat && !seat->taken ? " is free already"
                                           : m.seat == host_ ? " is the host's own seat"
                                                             : " is not a seat of this room"),
                     "remove_seat",
                     {{"field", "seat"},
                      {"reason", seat && !seat->taken ? "free" : m.seat == host_ ? "host" : "no_seat"},
                      {"seat", m.seat}});
    remove_from_seat(*seat, "removed");
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Kick& m) {
    if (!host_only(peer, "kick")) return;
    Seat* seat = seats_.at(m.seat);
    if (!seat || !seat->human() || m.seat == host_)
        return error(peer, ErrorCode::bad_field,
                     seat_label(m.seat) + " is not a player you can kick" +
                         (seat && seat->bot ? " (it is a bot: remove it with remove_seat in the lobby)" : ""),
                     "kick",
                     {{"field", "seat"},
                      {"reason", seat && seat->bot ? "bot" : m.seat == host_ ? "host" : "no_player"},
                      {"seat", m.seat}});
    if (state_ == RoomState::lobby) return remove_from_seat(*seat, "kicked");
    // In a game the seat goes to a server-side bot, to the end of the game.
    if (auto p = seat->peer.lock()) {
        send(p, Kicked{code_, "the host removed you from the room"});
        let_go(p);
    }
    if (seat->reconnect_timer) seat->reconnect_timer->cancel();
    seat->reconnect_timer.reset();
    seat->peer.reset();
    seat->connected = false;
    seat->bot = true;
    seat->kicked = true;
    seat->policy = PolicyKind::best;
    seat->token_hash.clear();
    notice("kicked", seat, who(*seat) + " (" + seat_label(seat->number) + ") was kicked: a best bot plays it",
           {{"then", "bot"}, {"policy", "best"}});
    answer_for_absent(*seat, ChoiceMaker::away);
    broadcast_snapshot();
    // The seeds being collected may all be in now (a bot sends none).
    if (state_ == RoomState::seeding && all_seeds_in()) begin_game();
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Start&) {
    if (!host_only(peer, "start")) return;
    if (state_ != RoomState::lobby)
        return error(peer, ErrorCode::wrong_state, "a game is already on", "start", {{"reason", "game_on"}});
    if (auto err = start_game(peer->address())) error(peer, err->code, err->message, "start", err->args);
}

// Starts a game with the taken seats (the host, or the automatic start). Returns what
// stopped it.
std::optional<RoomImpl::StartRefusal> RoomImpl::start_game(const std::string& address) {
    GameOptions options = options_;
    options.players = options.table ? static_cast<int>(options.table_names.size()) : seats_.taken();
    if (options.table && options.table_names.empty())
        return StartRefusal{ErrorCode::wrong_state, "cannot start: enter the table's names first (options.table_names)",
                            {{"reason", "no_table_names"}}};
    if (auto err = options.validate())
        return StartRefusal{ErrorCode::wrong_state, "cannot start: " + *err, {{"reason", "cannot_start"}, {"detail", *err}}};
    // Random boards are solved for the game (tens of milliseconds and 740 KB each with 3
    // pieces): one address gets so many a minute. The balanced pools' boards are solved once.
    if (options.game == GameKind::spook && !options.spook.balanced_boards)
        if (const auto wait = services_.solutions.allow_solves(address, options.players)) {
            spdlog::info("room {}: a game with random boards refused: {} asked for its {} board solves a minute",
                         code_, address, services_.config.solves_per_minute);
            return StartRefusal{ErrorCode::rate_limited,
                                "games with random boards (balanced_boards false) are limited to " +
                                    std::to_string(services_.config.solves_per_minute) +
                                    " boards a minute from one address: try again in " +
                                    std::to_string(wait->count()) + " s, or play on balanced boards now",
                                {{"limit", "board_solves"},
                                 {"per_minute", services_.config.solves_per_minute},
                                 {"retry_after_s", wait->count()}}};
        }
    cancel_auto_start();
    // The game's record counts against the address of the host who started it (retention).
    owner_ = address;
    players_.clear();
    for (const auto& s : seats_)
        if (s.taken) players_.push_back(s.number);
    publish_game(options);
    return std::nullopt;
}

// ---- The automatic start (settings.auto_start_ms) -------------------------------------------
void RoomImpl::arm_auto_start() {
    const int after = settings_.auto_start_ms;
    cancel_auto_start();
    if (after <= 0 || state_ != RoomState::lobby) return;
    settings_.auto_start_ms = after;
    auto_start_at_ = now_ms() + after;
    auto_start_timer_.expires_after(std::chrono::milliseconds(after));
    auto_start_timer_.async_wait([self = self()](boost::system::error_code ec) {
        if (ec || self->closed_) return;
        self->guarded("the automatic start", [&] { self->auto_start(); });
    });
}

// An automatic start that could not fire when it was due (a restart, the journal failing)
// fires when it was due, or in 5 s at the earliest.
void RoomImpl::rearm_auto_start() {
    if (!auto_start_at_) return;
    settings_.auto_start_ms = static_cast<int>(std::max<std::int64_t>(*auto_start_at_ - now_ms(), 5000));
    arm_auto_start();
}

void RoomImpl::cancel_auto_start() {
    auto_start_timer_.cancel();
    auto_start_at_.reset();
    settings_.auto_start_ms = 0;  // it fires once
}

void RoomImpl::auto_start() {
    if (state_ != RoomState::lobby || !auto_start_at_ || journal_.fault()) return;
    journal_.changed();
    auto_start_at_.reset();
    settings_.auto_start_ms = 0;
    int filled = 0;
    std::vector<int> bots;
    for (auto& s : seats_)
        if (!s.taken && !options_.table) {
            seat_bot(s, PolicyKind::best);
            bots.push_back(s.number);
            ++filled;
        }
    notice("auto_start", nullptr,
           filled > 0 ? "time is up: " + std::to_string(filled) + (filled == 1 ? " bot takes" : " bots take") +
                            " the free seats, and the game starts"
                      : "time is up: the game starts",
           {{"bots", filled}});
    const Seat* host = host_ >= 0 ? seats_.at(host_) : nullptr;
    std::string address = "auto-start";
    if (host)
        if (auto p = host->peer.lock()) address = p->address();
    if (auto err = start_game(address)) {
        // The seats it filled are free again: the lobby is as it was.
        for (int n : bots) Seats::free(seat_ref(n));
        notice("auto_start", nullptr, "the game could not start: " + err->message,
               {{"failed", true}, {"code", to_string(err->code)}, {"args", err->args}});
        broadcast_snapshot();
    }
}

}  // namespace spookludo::server
