// The game driven: the published commitment and the seeds, the steps, the decisions asked and
// answered, and the moves made for players who are away or out of time.
#include "room_impl.h"

#include "spookludo/json_text.h"

namespace spookludo::server {

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::SubmitClientSeed& m) {
    if (state_ == RoomState::seeding && table_mode()) return table_seed(peer, m);
    if (state_ == RoomState::playing && table_mode())
        return error(peer, ErrorCode::wrong_state, "the seed window closed with the host's first \"next\"", "client_seed",
                     {{"reason", "seed_window_closed"}});
    const int number = seat_of(peer);
    if (number < 0)
        return error(peer, ErrorCode::not_a_player, "only seated players send client seeds", "client_seed",
                     {{"reason", "seed"}});
    if (state_ != RoomState::seeding)
        return error(peer, ErrorCode::wrong_state, "client seeds are sent after the commitment, before the game",
                     "client_seed", {{"reason", "not_seeding"}});
    auto& s = seat_ref(number);
    if (s.client_seed)
        return error(peer, ErrorCode::wrong_state, "your client seed is already in", "client_seed", {{"reason", "seed_in"}});
    if (auto err = check_client_seed(m.seed))
        return error(peer, ErrorCode::bad_field, "seed: " + *err, "client_seed", {{"field", "seed"}});
    s.client_seed = m.seed;
    event("seed", {{"seat", number}, {"seed", m.seed}});
    send(peer, ClientSeedAccepted{});
    if (all_seeds_in()) begin_game();
}

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::Choose& m) {
    const int number = seat_of(peer);
    if (number < 0)
        return error(peer, ErrorCode::not_a_player, "spectators cannot choose", "choose", {{"reason", "choose"}});
    auto& s = seat_ref(number);
    if (!table_ || s.decision_id.empty() || s.decision_id != m.decision)
        return error(peer, ErrorCode::stale_decision,
                     "decision " + quote_client_text(m.decision) + " is not open for your seat (it is over or not yours)", "choose",
                     {{"decision", quote_client_text(m.decision)}});
    if (paused_)
        return error(peer, ErrorCode::paused,
                     "the game is paused: choose when it resumes (your decision stays open, its time is kept)",
                     "choose", {{"reason", "choose"}});
    if (auto v = choose_on_table(player_of(number), m.piece, ChoiceMaker::player); !v) {
        nlohmann::json args{{"reason", v.code.empty() ? "rules" : v.code}};
        for (const auto& [k, n] : v.params) args[k] = n;
        return error(peer, ErrorCode::illegal_choice, v.reason, "choose", args);
    }
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s.decision_sent).count();
    services_.metrics.observe_round_trip(ms);
    send(peer, ChoiceAccepted{s.decision_id, m.piece});
    clear_hurry(s);
    s.decision_id.clear();
    if (pending_decisions() == 0) decisions_complete();
    else snapshot_soon();  // one fewer to wait for: everyone sees who is still choosing
}

void RoomImpl::snapshot_soon() {
    snapshot_owed_ = true;
    if (snapshot_timer_armed_) return;
    if (!snapshot_timer_) snapshot_timer_ = std::make_shared<RoomTimer>(strand_);
    snapshot_timer_armed_ = true;
    snapshot_timer_->expires_after(kSnapshotSoon);
    snapshot_timer_->async_wait([self = self()](boost::system::error_code ec) {
        self->snapshot_timer_armed_ = false;
        if (ec || self->closed_ || !self->snapshot_owed_) return;
        self->guarded("a snapshot", [&] { self->broadcast_snapshot(); });
    });
}

// ---- A game -----------------------------------------------------------------------------
void RoomImpl::publish_game(const GameOptions& options) {
    game_options_ = options;
    last_game_.reset();
    publication_ = publish(options);
    game_id_ = code_ + "-" + std::to_string(now_ms()) + "-" + publication_->seed.commitment().substr(0, 8);
    state_ = RoomState::seeding;
    table_seeds_.clear();
    table_seed_peers_.clear();
    journal_.changed();
    journal_game(false, {});
    for (auto& s : seats_) {
        s.client_seed.reset();
        // The room asks every player for a seed: that answer is not rate limited either
        // (games played back to back would otherwise run into the limit).
        if (auto p = s.peer.lock(); p && s.human() && s.connected) p->grant_answer();
    }
    broadcast(Commitment{game_id_, publication_->seed.commitment(), services_.config.seed_wait_ms,
                         publication_->boards});
    spdlog::info("room {}: game {} published, waiting for client seeds", code_, game_id_);
    if (options.table) {
        // The seed window stays open for the phones at the table: until the host's first "next",
        // or as long as a normal game's when the table keeps its own pace.
        broadcast_snapshot();
        if (settings_.table_pace_ms > 0) arm(std::chrono::milliseconds(services_.config.seed_wait_ms), Next::seeds_timeout);
        return;
    }
    if (all_seeds_in()) return begin_game();
    arm(std::chrono::milliseconds(services_.config.seed_wait_ms), Next::seeds_timeout);
}

bool RoomImpl::all_seeds_in() const {
    return std::all_of(seats_.begin(), seats_.end(), [](const Seat& s) {
        return !s.taken || s.bot || !s.connected || s.client_seed.has_value();
    });
}

void RoomImpl::begin_game() {
    if (table_mode()) return begin_table_game();
    step_timer_.cancel();
    std::vector<TableSeat> seats;
    std::vector<ClientSeed> client_seeds;
    for (std::size_t p = 0; p < players_.size(); ++p) {
        const auto& s = seat_ref(players_[p]);
        seats.push_back({s.name, s.bot, s.policy, s.number});
        if (!s.bot && s.client_seed) client_seeds.push_back({static_cast<int>(p), *s.client_seed});
    }
    try {
        table_ = make_table(*game_options_, seats, *publication_, client_seeds, services_);
    } catch (const std::exception& e) {
        spdlog::error("room {}: cannot start the game: {}", code_, e.what());
        state_ = RoomState::lobby;
        publication_.reset();
        paused_ = false;
        pause_reason_.reset();
        journal_.changed();
        journal_.game_over();
        broadcast(ErrorReply{std::string(to_string(ErrorCode::wrong_state)), std::string("cannot start: ") + e.what(),
                             "start", std::nullopt, nlohmann::json{{"reason", "cannot_start"}, {"detail", e.what()}}});
        return;
    }
    state_ = RoomState::playing;
    journal_.changed();
    journal_game(true, client_seeds);
    ++services_.metrics.games_started;
    GameStarted started{game_id_, *game_options_, {}, {}, players_};
    for (const auto& c : client_seeds) started.client_seeds.push_back({players_[static_cast<std::size_t>(c.seat)], c.seed});
    const auto& assignment = table_->record().assignment;
    if (!assignment.empty()) {
        started.assignment.assign(seat_span(), -1);
        for (std::size_t p = 0; p < assignment.size() && p < players_.size(); ++p)
            started.assignment[static_cast<std::size_t>(players_[p])] = assignment[p];
    }
    broadcast(started);
    broadcast_snapshot();
    spdlog::info("room {}: game {} started with {} players", code_, game_id_, players_.size());
    arm(std::chrono::milliseconds(settings_.pace_ms), Next::advance);
}

void RoomImpl::advance() {
    if (!table_ || table_->over()) return;
    std::vector<std::string> out;  // the table's messages, encoded
    std::vector<int> needs;
    try {
        needs = table_->advance(out);
    } catch (const std::exception& e) {
        spdlog::error("room {}: the game failed: {}", code_, e.what());
        return end_game(GameStatus::abandoned, "an internal error", "internal_error");
    }
    step_event("advance", out);
    for (auto& m : out) send_to_all(frame(std::move(m)));
    const auto deadline = decision_time();  // kNoLimit: the decisions wait for their players
    unlimited_ = deadline == kNoLimit;
    for (int player : needs) {
        auto& s = seat_ref(players_[static_cast<std::size_t>(player)]);
        if (s.bot) {
            (void)choose_on_table(player, bot_choice(player, s.policy), ChoiceMaker::player, true);
            continue;
        }
        const auto grace = grace_left(s);  // once: a dropped player's decision waits for them
        if (s.server_played() && !grace) {
            auto_move(player, ChoiceMaker::away);
            continue;
        }
        clear_hurry(s);
        s.decision_id = std::to_string(++decision_counter_);
        s.decision_sent = Clock::now();
        ++services_.metrics.decisions;
        if (auto p = s.peer.lock(); p && s.connected) {
            p->grant_answer();
            send(p, decision_message(s.number, s.decision_id, deadline));
        } else if (grace) {
            arm_grace(s, *grace, deadline);  // dropped a moment ago: the rest of the grace
        }
    }
    journal_asked(deadline);
    if (pending_decisions() > 0) {
        waiting_for_decisions_ = true;
        if (!unlimited_)
            decision_deadline_at_ = now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(deadline).count();
        arm(deadline, Next::deadline);
        // Whom the step waits for, and until when: those asked have their decision; the others
        // see it a moment later, unless every answer is in by then (then the moves say it).
        snapshot_soon();
        return;
    }
    after_decisions(out.empty());
}

Decision RoomImpl::decision_message(int number, const std::string& id, Clock::duration left) {
    left = std::max<Clock::duration>(left, Clock::duration::zero());
    std::optional<std::int64_t> left_ms;  // none: no limit
    if (left != kNoLimit) left_ms = std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
    return Decision{id,
                    number,
                    table_->step_number(),
                    table_->decision_options(player_of(number), settings_.hints),
                    left_ms,
                    now_ms()};
}

int RoomImpl::pending_decisions() const {
    return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return !s.decision_id.empty(); }));
}

void RoomImpl::auto_move(int player, ChoiceMaker maker) {
    ++services_.metrics.auto_moves;
    (void)choose_on_table(player, table_->server_choice(player), maker);
}

// A seat that owes a decision and cannot answer (gone, kicked, left): the server answers now.
void RoomImpl::answer_for_absent(Seat& s, ChoiceMaker maker) {
    cancel_grace(s);
    clear_hurry(s);
    if (!table_ || s.decision_id.empty()) return;
    s.decision_id.clear();
    const int player = player_of(s.number);
    if (s.bot) (void)choose_on_table(player, bot_choice(player, s.policy), ChoiceMaker::player, true);
    else auto_move(player, maker);
    // During a pause the step completes when play resumes.
    if (pending_decisions() == 0 && !paused_) decisions_complete();
}

void RoomImpl::decisions_complete() {
    waiting_for_decisions_ = false;
    snapshot_owed_ = false;  // the step's moves say that nobody is choosing now
    ++epoch_;  // the deadline timer no longer applies
    for (auto& seat : seats_) clear_hurry(seat);
    after_decisions(false);
}

void RoomImpl::after_decisions(bool nothing_shown) {
    std::vector<std::string> out;
    table_->resolve(out);
    step_event("resolve", out);
    for (auto& m : out) send_to_all(frame(std::move(m)));
    if (table_->over()) return end_game(GameStatus::finished, "");
    if (table_mode()) broadcast_snapshot();  // the shared screen shows the die and its announcement (snapshot.table)
    const auto pace = nothing_shown && out.empty() ? Clock::duration::zero() : std::chrono::milliseconds(settings_.pace_ms);
    arm(pace, Next::advance);
}

// `server_bot`: the seat's server-side bot chose (the journal keeps it: a replay shows the
// same "by").
Verdict RoomImpl::choose_on_table(int player, int piece, ChoiceMaker maker, bool server_bot) {
    Verdict v = table_->choose(player, piece, maker, server_bot);
    if (v) {  // {"bot":..,"maker":..,"piece":..,"player":..}, written for every choice without a JSON tree
        std::string text = "{\"bot\":";
        json_text::boolean(text, server_bot);
        text += ",\"maker\":";
        json_text::string(text, to_string(maker));
        text += ",\"piece\":";
        json_text::number(text, piece);
        text += ",\"player\":";
        json_text::number(text, player);
        text += '}';
        journal_.event_text("choice", std::move(text));
    }
    return v;
}

// A server-side bot's move. Its randomness (the random policy's draw, any policy's ties) is a
// function of the game's secret seed, the step and the player, not of a generator's history:
// a room taken up again after a restart makes the same moves the room before it would have.
int RoomImpl::bot_choice(int player, PolicyKind policy) const {
    Rng rng = bot_rng(player);
    return table_->bot_choice(player, policy, rng);
}

Rng RoomImpl::bot_rng(int player) const {
    const std::string digest = sha256_hex("spookludo/bot/v1:" + publication_->seed.hex() + ":" +
                                          std::to_string(table_->step_number()) + ":" + std::to_string(player));
    return Rng(std::stoull(digest.substr(0, 16), nullptr, 16));
}

}  // namespace spookludo::server
