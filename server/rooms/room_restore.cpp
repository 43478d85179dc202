// A room taken up again from the journal (after a restart, or a cluster's take-over): its
// seats and game replayed step by step and checked, then paused until its players are back.
#include "room_impl.h"

namespace spookludo::server {

namespace {

// The version of the server's moves a Ludo game's journal names; journals from before the field
// were written by servers of version 2 (ludo/record.h).
int journal_move_version(const SavedRoom& saved) {
    if (!saved.game) return 0;
    return json::parse(*saved.game).value("server_move_version", 2);
}

// A table game's journal names whose device sent each client seed.
std::vector<std::string> table_seed_by(const SavedRoom& saved) {
    if (!saved.game) return {};
    const json g = json::parse(*saved.game);
    return g.value("seed_by", std::vector<std::string>{});
}

// One event of a game's journal run again on its table: a step (advance, resolve) must show
// what the journal says was sent (false when it shows something else; not checked unless
// `check`), a choice is made again. Other events (asks, seeds) are the room's.
bool replay_step(Table& table, const SavedRoom::Event& e, const json& d, const std::vector<TableSeat>& seats, bool check) {
    if (e.kind == "advance" || e.kind == "resolve" || e.kind == "skip") {
        std::vector<std::string> out;
        if (e.kind == "advance") table.advance(out);
        else if (e.kind == "skip") table.skip(out);
        else table.resolve(out);
        if (!check) return true;
        // Journals from before the digest keep the messages.
        if (const auto kept = d.find("out"); kept != d.end()) return out == kept->get<std::vector<std::string>>();
        return shown_digest(out) == d.at("shown").get<std::string>();
    }
    if (e.kind == "choice") {
        const int player = d.at("player").get<int>();
        ChoiceMaker maker = ChoiceMaker::player;
        const auto m = d.at("maker").get<std::string>();
        if (m == "timeout") maker = ChoiceMaker::timeout;
        else if (m == "away") maker = ChoiceMaker::away;
        // Journals before the field: a seat that was a bot when the game started.
        const bool server_bot = d.value("bot", player >= 0 && player < static_cast<int>(seats.size()) &&
                                                   seats[static_cast<std::size_t>(player)].bot);
        if (auto v = table.choose(player, d.at("piece").get<int>(), maker, server_bot); !v)
            throw std::runtime_error("event " + std::to_string(e.seq) + ": a choice the game refuses: " + v.reason);
    }
    return true;
}

// The journal's rows as the events they hold: a "pass" row (RoomJournal::merge_events) holds a
// pass's events, each read back under the row's number; journals from before it have a row an
// event. `saved` is returned as it is when it has no such row.
const SavedRoom& with_events_apart(const SavedRoom& saved, std::optional<SavedRoom>& copy) {
    const bool merged = std::any_of(saved.events.begin(), saved.events.end(),
                                    [](const SavedRoom::Event& e) { return e.kind == RoomJournal::kPassKind; });
    if (!merged) return saved;
    copy = saved;
    copy->events.clear();
    for (const auto& e : saved.events) {
        if (e.kind != RoomJournal::kPassKind) {
            copy->events.push_back(e);
            continue;
        }
        const json held = json::parse(e.text);
        if (!held.is_array()) throw std::runtime_error("event " + std::to_string(e.seq) + ": a pass that is not a list");
        for (const auto& one : held) {
            if (!one.is_array() || one.size() != 2 || !one[0].is_string())
                throw std::runtime_error("event " + std::to_string(e.seq) + ": a pass's event is not [kind, data]");
            copy->events.push_back({e.seq, one[0].get<std::string>(), one[1].dump()});
        }
    }
    return *copy;
}

}  // namespace

// The first pass after a restart (on the strand, the server serving).
void RoomImpl::after_restore(bool seeding) {
    journal_.changed();
    for (auto& s : seats_)
        if (s.human() && !s.connected && s.presence == Presence::away)
            arm_reconnect_window(s, std::chrono::milliseconds(services_.config.reconnect_ms));
    if (seeding && table_mode()) {
        // A table game's seed window stays open: the host's "next" closes it.
        paused_ = false;
        pause_reason_.reset();
        notice("resumed", nullptr, "the server restarted: the seeds that were in are kept", {{"reason", "restart_seeds"}});
        broadcast_snapshot();
        if (settings_.table_pace_ms > 0) arm(std::chrono::milliseconds(services_.config.seed_wait_ms), Next::seeds_timeout);
        return;
    }
    if (seeding) begin_game();  // the seeds that were in; the others are left out, as at the seed deadline
    if (state_ == RoomState::lobby) {
        rearm_auto_start();
        return close_if_empty();
    }
    if (!table_ || !paused_ || pause_reason_ != PauseReason::restart) return;
    if (nobody_expected()) {
        notice("resumed", nullptr, "the server restarted: the game goes on", {{"reason", "restart"}});
        return start_clock();
    }
    notice("paused", nullptr, "the server restarted: the game waits for its players to come back (at most " +
                                  std::to_string(services_.config.reconnect_ms / 1000) + " s; the host may resume it)",
           {{"reason", "restart"}, {"wait_s", services_.config.reconnect_ms / 1000}});
    restart_wait_ = std::make_shared<RoomTimer>(strand_);
    restart_wait_->expires_after(std::chrono::milliseconds(services_.config.reconnect_ms));
    restart_wait_->async_wait([self = self(), timer = restart_wait_](boost::system::error_code ec) {
        if (ec || self->closed_ || self->restart_wait_ != timer) return;
        self->guarded("the restart's wait", [&] {
            self->restart_wait_.reset();
            if (!self->paused_ || self->pause_reason_ != PauseReason::restart || self->journal_.fault()) return;
            self->notice("resumed", nullptr, "the wait for the players is over: the game goes on", {{"reason", "wait_over"}});
            self->start_clock();
        });
    });
}

void RoomImpl::lost(const SavedRoom& saved, const std::vector<TableSeat>& table_seats,
                    const std::vector<ClientSeed>& client_seeds, std::size_t agreed, const std::string& why) {
    // The game as far as the engine and the journal agree (every step anyone saw up to there),
    // abandoned there: its record keeps those steps and reveals the seed, so it can be verified.
    std::shared_ptr<const FinishedGame> finished;
    std::string kept = "nothing of its game could be kept";
    try {
        auto table = make_table(*game_options_, table_seats, *publication_, client_seeds, services_, table_seed_by(saved),
                                journal_move_version(saved));
        for (std::size_t i = 0; i < agreed; ++i) {
            const auto& e = saved.events[i];
            (void)replay_step(*table, e, json::parse(e.text), table_seats, false);
        }
        if (!table->over()) table->abandon();
        const GameRecord& record = table->record();
        finished = std::make_shared<const FinishedGame>(
            FinishedGame{record, game_id_, owner_, record_text(record), now_ms()});
        kept = "its game's record up to its last step before the restart that could be checked (" +
               std::to_string(record.draws.size()) + " dice) is kept, ended as abandoned there: /records/" + game_id_;
    } catch (const std::exception& e) {
        spdlog::error("room {}: the record of game {} up to its last step cannot be made: {}", code_, game_id_, e.what());
    }
    throw RoomLost(why, "Room " + code_ + " was lost when the server restarted: it could not be taken up again (" +
                            why + "); " + kept + ". Sorry: a new room is needed to play on.",
                   std::move(finished));
}

void RoomImpl::take_up(const SavedRoom& saved) {
    const json st = json::parse(saved.state);
    auto& stream = journal_.stream();
    stream.created_ms = saved.created_ms;
    stream.seq = saved.events.empty() ? 1 : saved.events.back().seq + 1;
    if (saved.epoch > 0) {  // a cluster's room, taken over: its place in the cluster's journal
        stream.epoch = saved.epoch;
        stream.ops = saved.ops;
        stream.seq = std::max(stream.seq, saved.next_seq);
    }
    options_ = st.at("options").get<GameOptions>();
    settings_ = st.at("settings").get<protocol::RoomSettings>();
    host_ = st.at("host").get<int>();
    decision_counter_ = st.at("decisions").get<std::uint64_t>();
    owner_ = st.value("owner", std::string());
    // A journal from before the creator's address was kept: the owner of its last game stands in
    // for it (mostly the same address); a lobby that never had a game counts against no address.
    creator_address_ = st.value("creator_address", owner_);
    if (auto it = st.find("auto_start_at_ms"); it != st.end()) auto_start_at_ = it->get<std::int64_t>();
    if (auto it = st.find("last_game"); it != st.end()) last_game_ = it->get<GameOver>();
    const auto now = Clock::now();
    std::vector<Seat> seats;
    for (const auto& v : st.at("seats")) {
        Seat seat = empty_seat(v.at("number").get<int>());
        if (v.at("taken").get<bool>()) {
            seat.taken = true;
            seat.name = v.at("name").get<std::string>();
            seat.bot = v.at("bot").get<bool>();
            seat.policy = parse_policy(v.at("policy").get<std::string>()).value_or(PolicyKind::best);
            seat.kicked = v.at("kicked").get<bool>();
            seat.token_hash = v.at("token_hash").get<std::string>();
            seat.presence = presence_named(v.at("presence").get<std::string>());
        }
        seats.push_back(std::move(seat));
    }
    seats_.assign(std::move(seats));
    // Nobody is connected yet: the players who were here are away (their reconnect windows start
    // with the first pass, after_restore); their tokens take their seats back.
    for (auto& s : seats_) {
        if (!s.human()) continue;
        s.connected = false;
        if (s.presence != Presence::here && s.presence != Presence::away) continue;
        s.presence = Presence::away;
        s.dropped_at = now;
    }
    bool seeding = false;
    std::optional<json> game;
    if (saved.game) game = json::parse(*saved.game);
    // A game whose record is kept already ended: the crash came between its record and the
    // journal's note of its end. It stays ended (its seed is public).
    if (game) {
        const std::string id = game->at("id").get<std::string>();
        bool recorded = false;
        try {
            recorded = services_.history->record(id).has_value();
        } catch (const std::exception& e) {
            spdlog::warn("room {}: cannot look up game {} in the history ({}): it is taken up again", code_, id, e.what());
        }
        if (recorded) {
            spdlog::info("room {}: game {} ended before the server stopped (its record is kept)", code_, id);
            game.reset();
            state_ = RoomState::lobby;
            journal_.game_over();
        }
    }
    if (game) {
        const json& g = *game;
        game_id_ = g.at("id").get<std::string>();
        game_options_ = g.at("options").get<GameOptions>();
        players_ = g.at("players").get<std::vector<int>>();
        owner_ = g.value("owner", owner_);
        if (!st.contains("creator_address")) creator_address_ = owner_;
        publication_ = Publication{ServerSeed::from_hex(g.at("seed").get<std::string>()),
                                   g.at("boards").get<std::vector<std::string>>()};
        for (int n : players_)
            if (!seats_.at(n)) throw std::runtime_error("the game's seat " + std::to_string(n) + " is not a seat of the room");
        if (!g.at("started").get<bool>()) {
            // Its seeds were being collected: the ones that were in are used.
            state_ = RoomState::seeding;
            seeding = true;
            for (const auto& e : saved.events)
                if (e.kind == "seed") {
                    const json d = json::parse(e.text);
                    if (Seat* s = seats_.at(d.at("seat").get<int>())) s->client_seed = d.at("seed").get<std::string>();
                } else if (e.kind == "table_seed") {  // a table game's (room_table_mode.cpp)
                    const json d = json::parse(e.text);
                    table_seeds_.emplace_back(d.at("by").get<std::string>(), d.at("seed").get<std::string>());
                }
        } else {
            std::vector<TableSeat> table_seats;
            for (const auto& v : g.at("seats"))
                table_seats.push_back({v.at("name").get<std::string>(), v.at("bot").get<bool>(),
                                       parse_policy(v.at("policy").get<std::string>()).value_or(PolicyKind::best),
                                       v.at("number").get<int>()});
            std::vector<ClientSeed> client_seeds;
            for (const auto& c : g.at("client_seeds")) client_seeds.push_back({c.at("seat").get<int>(), c.at("seed").get<std::string>()});
            table_ = make_table(*game_options_, table_seats, *publication_, client_seeds, services_, table_seed_by(saved),
                                journal_move_version(saved));
            for (std::size_t i = 0; i < client_seeds.size(); ++i)
                table_seeds_.emplace_back(i < table_->record().client_seed_by.size() ? table_->record().client_seed_by[i] : "",
                                          client_seeds[i].seed);
            state_ = RoomState::playing;
            // The game again, step by step, with the same choices: the dice come from the seeds, so
            // every step must show exactly what it showed before.
            std::int64_t deadline_ms = 0;
            std::vector<std::pair<int, std::int64_t>> hurried;  // the host's hurries of the open decisions
            std::size_t agreed = 0;  // the events up to the last step the engine shows as the journal has
            for (std::size_t i = 0; i < saved.events.size(); ++i) {
                const auto& e = saved.events[i];
                try {
                    const json d = json::parse(e.text);
                    if (!replay_step(*table_, e, d, table_seats, true)) {
                        throw std::runtime_error("event " + std::to_string(e.seq) + " (" + e.kind +
                                                 "): the game engine shows another step than the journal has");
                    }
                    if (e.kind == "advance" || e.kind == "resolve" || e.kind == "skip") {
                        waiting_for_decisions_ = false;
                        agreed = i + 1;
                    } else if (e.kind == "choice") {
                        const int player = d.at("player").get<int>();
                        if (player >= 0 && player < static_cast<int>(players_.size()))
                            seat_ref(players_[static_cast<std::size_t>(player)]).decision_id.clear();
                    } else if (e.kind == "ask") {
                        for (const auto& a : d.at("decisions")) {
                            const auto id = a.at(1).get<std::string>();
                            Seat* seat = seats_.at(a.at(0).get<int>());
                            if (!seat) throw std::runtime_error("event " + std::to_string(e.seq) + ": no such seat");
                            seat->decision_id = id;
                            decision_counter_ = std::max<std::uint64_t>(decision_counter_, std::stoull(id));
                        }
                        // No deadline: no limit (settings.time_factor 0).
                        unlimited_ = !d.contains("deadline_ms");
                        deadline_ms = d.value("deadline_ms", std::int64_t{0});
                        hurried.clear();
                        for (const auto& h : d.value("hurried", json::array()))
                            hurried.emplace_back(h.at(0).get<int>(), h.at(1).get<std::int64_t>());
                        waiting_for_decisions_ = true;
                    }
                } catch (const std::exception& ex) {
                    lost(saved, table_seats, client_seeds, agreed, ex.what());
                }
            }
            if (table_->over()) lost(saved, table_seats, client_seeds, saved.events.size(), "the game is over but its end is not in the journal");
            // The clock: a host's pause keeps what it had left; otherwise an open decision gets
            // what it had left when the server stopped, the time between steps a whole pace.
            paused_left_ = std::chrono::milliseconds(settings_.pace_ms);
            const std::int64_t stop = saved.stopped_ms > 0            ? saved.stopped_ms
                                      : services_.previous_stop_ms > 0 ? services_.previous_stop_ms
                                                                       : now_ms();
            if (st.value("paused", false)) {
                const auto left_ms = st.value("paused_left_ms", std::int64_t{0});
                paused_left_ = left_ms < 0 ? kNoLimit : std::chrono::milliseconds(left_ms);
                if (waiting_for_decisions_) unlimited_ = left_ms < 0;
            } else if (waiting_for_decisions_) {
                paused_left_ = unlimited_ ? kNoLimit
                                          : std::max<Clock::duration>(std::chrono::milliseconds(deadline_ms - stop), kLeastTimeLeft);
            }
            if (waiting_for_decisions_)
                for (const auto& [number, at] : hurried)
                    if (Seat* seat = seats_.at(number); seat && !seat->decision_id.empty()) {
                        seat->hurried = true;
                        seat->hurry_left = std::max<Clock::duration>(std::chrono::milliseconds(at - stop), kLeastTimeLeft);
                    }
            ++services_.metrics.games_resumed;
        }
        paused_ = true;
        // A game the host had paused stays paused for the host; any other waits for its players.
        pause_reason_ = st.value("paused", false) && st.value("pause_reason", std::string()) == "host" ? PauseReason::host
                                                                                                      : PauseReason::restart;
        paused_at_ = now;
        if (seeding) paused_left_ = std::chrono::milliseconds(settings_.pace_ms);
    }
    ++services_.metrics.rooms_resumed;
    net::post(strand_, [self = self(), seeding] { self->guarded("the restart", [&] { self->after_restore(seeding); }); });
}

std::shared_ptr<Room> Room::restore(net::io_context& io, Services& services, const SavedRoom& journaled) {
    const json st = json::parse(journaled.state);
    auto room = std::make_shared<RoomImpl>(io, services, journaled.code, st.at("options").get<GameOptions>(),
                                           st.at("settings").get<protocol::RoomSettings>());
    std::optional<SavedRoom> copy;
    try {
        room->take_up(with_events_apart(journaled, copy));
    } catch (const RoomLost&) {
        throw;
    } catch (const std::exception& e) {
        throw RoomLost(e.what(),
                       "Room " + journaled.code + " was lost when the server restarted: it could not be taken up again (" +
                           e.what() + "). Sorry: a new room is needed to play on.",
                       nullptr);
    }
    ++services.metrics.rooms;
    return room;
}

void room_lost(Services& services, const std::string& code, const RoomLost& lost) {
    ++services.metrics.rooms_lost;
    services.lost_rooms.add(code, lost.told, lost.finished ? "/records/" + lost.finished->id : std::string());
    spdlog::error("room {}: cannot be taken up again from the journal ({}): it is dropped; {}", code, lost.what(),
                  lost.finished ? "its game's record up to its last agreed step is kept, abandoned there: /records/" +
                                      lost.finished->id
                                : std::string("no game record is kept"));
}

std::size_t resume_rooms(net::io_context& io, Services& services) {
    Journal& journal = *services.journal;
    std::optional<std::int64_t> stopped;
    std::vector<SavedRoom> saved;
    try {
        stopped = journal.read_mark("stopped_ms");
        services.previous_stop_ms = stopped ? *stopped : journal.read_mark("alive_ms").value_or(0);
        saved = journal.load();
    } catch (const std::exception& e) {
        // The server serves anyway (degraded): a start must not fail on a disk that is failing.
        spdlog::error("the journal cannot be read ({}): no room is taken up again", e.what());
        services.journal_failed(e.what());
        return 0;
    }
    try {
        if (stopped) journal.forget_mark("stopped_ms");
    } catch (const std::exception& e) {
        services.journal_failed(e.what());
    }
    std::size_t rooms = 0, games = 0;
    for (const auto& r : saved) {
        try {
            services.registry.adopt(r.code, Room::restore(io, services, r));
            ++rooms;
            if (r.game) ++games;
        } catch (const RoomLost& lost) {
            ++services.metrics.internal_errors;
            room_lost(services, r.code, lost);
            // The record of what could be checked goes into the history, and the room goes, in
            // one transaction.
            std::int64_t seq = r.events.empty() ? 1 : r.events.back().seq + 1;
            std::vector<JournalOp> ops;
            if (lost.finished) ops.push_back({JournalOp::Kind::game_over, {}, {}, lost.finished});
            ops.push_back({JournalOp::Kind::closed, {}, {}});
            try {
                journal.write(r.code, r.created_ms, ops, seq);
                if (lost.finished) services.export_record(*lost.finished);
            } catch (const std::exception& e) {
                // it stays in the journal; the next start tries again
                spdlog::error("room {}: its end cannot be written to the journal ({}): the next start tries again", r.code,
                              e.what());
            }
        }
    }
    if (!saved.empty())
        spdlog::info("resumed {} rooms ({} with a game in progress) from the journal; the server stopped {}", rooms, games,
                     stopped ? "cleanly" : "without warning (a crash or kill -9)");
    return rooms;
}

}  // namespace spookludo::server
