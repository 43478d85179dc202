#include "view.h"

#include <algorithm>
#include <cstdio>

#include "game_words.h"
#include "i18n.h"
#include "server_words.h"
#include "spookludo/ludo/game.h"
#include "spookludo/ludo/geometry.h"

namespace spookludo::client {

using nlohmann::json;
namespace pr = protocol;

namespace {


// Why the server moved for a seat, in brackets ("" when the player chose).
std::string by_text(const std::optional<std::string>& by) {
    if (!by) return {};
    if (*by == "timeout") return tr("(time ran out: the server chose the best move)");
    if (*by == "away") return tr("(away: the server played it)");
    return {};
}

// A Spook square a piece goes to: its number, or the church.
std::string spook_square(int to) { return to >= 40 ? tr("the church") : std::to_string(to); }

}  // namespace

void GameView::say(LogLine::Kind kind, std::string text) {
    log_.push_back(LogLine{kind, std::move(text)});
    ++log_total_;
    while (log_.size() > kMaxLog) log_.pop_front();
}

std::string GameView::seat_name(int seat) const {
    if (snapshot_)
        for (const auto& s : snapshot_->seats)
            if (s.seat == seat && !s.free && !s.name.empty()) return s.name;
    return tr("seat {seat}", {{"seat", std::to_string(seat + 1)}});
}

std::vector<int> GameView::room_seats() const {
    std::vector<int> seats;
    const int count = snapshot_ ? snapshot_->options.players : options_.players;
    if (snapshot_)
        for (const auto& s : snapshot_->seats)
            if (s.seat >= 0 && std::find(seats.begin(), seats.end(), s.seat) == seats.end()) seats.push_back(s.seat);
    // A server that lists only the taken seats: the free ones are the lowest numbers missing.
    for (int seat = 0; static_cast<int>(seats.size()) < count && seat < 64; ++seat)
        if (std::find(seats.begin(), seats.end(), seat) == seats.end()) seats.push_back(seat);
    std::sort(seats.begin(), seats.end());
    return seats;
}

bool GameView::seat_free(int seat) const {
    if (!snapshot_) return true;
    return std::none_of(snapshot_->seats.begin(), snapshot_->seats.end(),
                        [&](const pr::SeatView& s) { return s.seat == seat && !s.free; });
}

bool GameView::has_free_seat() const {
    const auto seats = room_seats();
    return std::any_of(seats.begin(), seats.end(), [&](int seat) { return seat_free(seat); });
}

std::string GameView::seat_status(int seat) const {
    if (snapshot_)
        for (const auto& s : snapshot_->seats)
            if (s.seat == seat && !s.free && s.status) return *s.status;
    return {};
}

int GameView::play_index(int seat) const noexcept {
    for (std::size_t i = 0; i < play_seats_.size(); ++i)
        if (play_seats_[i] == seat) return static_cast<int>(i);
    return -1;
}

int GameView::ludo_colour(int seat) const noexcept {
    const int index = play_index(seat);
    if (index < 0) return -1;
    return static_cast<int>(ludo::colour_of_seat(static_cast<int>(play_seats_.size()), index));
}

std::vector<std::string> GameView::lines_since(std::size_t& cursor) const {
    const std::size_t fresh = std::min<std::size_t>(log_total_ - cursor, log_.size());
    std::vector<std::string> lines;
    for (std::size_t i = log_.size() - fresh; i < log_.size(); ++i) lines.push_back(log_[i].text);
    cursor = log_total_;
    return lines;
}

std::int64_t GameView::time_left_ms(std::int64_t now_ms) const noexcept {
    if (!pending_) return 0;
    if (frozen_left_ms_) return *frozen_left_ms_;
    if (!pending_->decision.time_left_ms) return 0;  // no limit (no_time_limit)
    if (paused()) now_ms = std::min(now_ms, std::max(paused_at_ms_, pending_->deadline_ms - *pending_->decision.time_left_ms));
    return std::max<std::int64_t>(0, pending_->deadline_ms - now_ms);
}

void GameView::set_disconnected(bool lost, std::int64_t now_ms) {
    disconnected_ = lost;
    if (lost && pending_ && !frozen_left_ms_) frozen_left_ms_ = time_left_ms(now_ms);
    if (!lost && frozen_left_ms_) {
        if (pending_) pending_->deadline_ms = now_ms + *frozen_left_ms_;
        frozen_left_ms_.reset();
    }
}

std::int64_t GameView::choosing_left_ms(std::int64_t now_ms) const noexcept {
    if (!choosing_until_) return 0;
    return std::max<std::int64_t>(0, *choosing_until_ - now_ms);
}

std::string GameView::choosing_text(std::int64_t now_ms) const {
    if (!in_game_ || disconnected_ || (pending_ && !pending_->chosen)) return {};
    std::vector<std::string> names;
    for (const int seat : choosing_)
        if (seat != seat_ || is_spectator()) names.push_back(seat_name(seat));
    if (names.empty()) return {};
    std::string who;
    for (std::size_t i = 0; i + 1 < names.size(); ++i) who += (i == 0 ? "" : ", ") + names[i];
    who = who.empty() ? names.back() : tr("{a} and {b}", {{"a", who}, {"b", names.back()}});
    if (paused()) return tr("Still choosing (paused): {names}", {{"names", who}});
    if (choosing_until_)
        return tr("Still choosing ({seconds} s left): {names}",
                  {{"seconds", std::to_string((choosing_left_ms(now_ms) + 999) / 1000)}, {"names", who}});
    return tr("Still choosing: {names}", {{"names", who}});
}

std::string GameView::seat_numbers_text() const {
    const auto seats = room_seats();
    if (seats.empty()) return "1";
    bool contiguous = true;
    for (std::size_t i = 1; i < seats.size(); ++i) contiguous = contiguous && seats[i] == seats[i - 1] + 1;
    if (seats.size() == 1) return std::to_string(seats[0] + 1);
    if (contiguous) return std::to_string(seats.front() + 1) + "-" + std::to_string(seats.back() + 1);
    std::string out;
    for (const int s : seats) out += (out.empty() ? "" : ", ") + std::to_string(s + 1);
    return out;
}

bool GameView::has_seat_number(int number) const {
    const auto seats = room_seats();
    return std::find(seats.begin(), seats.end(), number - 1) != seats.end();
}

std::string GameView::auto_start_text(std::int64_t now_ms) const {
    const auto at = auto_start_at_ms();
    if (!at || state() != "lobby") return {};
    const std::int64_t left = std::max<std::int64_t>(0, *at - (now_ms + server_offset_ms_));
    const std::int64_t seconds = (left + 999) / 1000;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld", static_cast<long long>(seconds / 60),
                  static_cast<long long>(seconds % 60));
    return tr("Starts in {time} (free seats get bots)", {{"time", buffer}});
}

// An error in a player's words: what to do about it, not the server's field names.
std::string GameView::error_words(const pr::ErrorReply& e) const {
    const GameKind game = snapshot_ ? snapshot_->options.game : options_.game;
    return error_text(pr::to_message(e), ErrorContext{am_host(), game == GameKind::ludo ? "ludo" : "spook"});
}

void GameView::apply_text(std::string_view text, std::int64_t now_ms) {
    json message = json::parse(text, nullptr, false);
    if (message.is_discarded() || !message.is_object()) {
        say(LogLine::Kind::error, tr("the server sent something that is not JSON"));
        return;
    }
    apply(message, now_ms);
}

// `players`: the room seats in play order (empty: 0 .. options.players - 1).
void GameView::start_game(const GameOptions& options, std::vector<int> players) {
    in_game_ = true;
    options_ = options;
    result_.reset();
    pending_.reset();
    last_moves_.clear();
    round_ = 0;
    roll_.reset();
    last_character_.reset();
    turn_ = 0;
    face_.reset();
    thrower_.reset();
    if (players.empty())
        for (int seat = 0; seat < options.players; ++seat) players.push_back(seat);
    play_seats_ = std::move(players);
    // Per-seat arrays are indexed by room seat: as long as the highest seat in play + 1.
    int length = 0;
    for (const int seat : play_seats_) length = std::max(length, seat + 1);
    const auto size = static_cast<std::size_t>(length);
    if (options.game == GameKind::spook) {
        spook_positions_.assign(size, {});
        for (const int seat : play_seats_)
            spook_positions_[static_cast<std::size_t>(seat)].assign(static_cast<std::size_t>(options.spook.pieces), 1);
        spook_finished_.assign(size, std::nullopt);
        ludo_progress_.clear();
    } else {
        ludo_progress_.assign(size, {ludo::kYard, ludo::kYard, ludo::kYard, ludo::kYard});
        ludo_captured_.assign(size, false);
        spook_positions_.clear();
        spook_finished_.clear();
        spook_boards_.clear();
        current_seat_ = -1;
    }
}

namespace {

// The seats a snapshot's game view plays, from `players`, or else the seats whose per-seat entry
// is not a hole ("" board / no pieces).
std::vector<int> snapshot_players(const pr::RoomSnapshot& s) {
    std::vector<int> players = s.spook ? s.spook->players : s.ludo ? s.ludo->players : std::vector<int>{};
    if (!players.empty()) return players;
    if (s.spook) {
        const auto& g = *s.spook;
        const std::size_t n = std::max(g.boards.size(), g.positions.size());
        for (std::size_t seat = 0; seat < n; ++seat) {
            const bool board = seat < g.boards.size() && !g.boards[seat].empty();
            const bool pieces = seat < g.positions.size() && !g.positions[seat].empty();
            if (board || pieces) players.push_back(static_cast<int>(seat));
        }
    }
    return players;  // Ludo without `players`: the seats 0 .. players - 1
}

}  // namespace

void GameView::on_snapshot(const pr::RoomSnapshot& s) {
    // Announce who arrived and left, so a lobby reads like a party; a server that sends `notice`
    // lines says so itself.
    if (snapshot_ && snapshot_->room == s.room && !notices_) {
        for (const auto& seat : s.seats) {
            if (seat.free) continue;
            const bool known = std::any_of(snapshot_->seats.begin(), snapshot_->seats.end(),
                                           [&](const pr::SeatView& o) { return !o.free && o.name == seat.name; });
            if (!known) say(LogLine::Kind::info, tr("{name} took seat {seat}", {{"name", seat.name}, {"seat", std::to_string(seat.seat + 1)}}));
        }
        for (const auto& seat : snapshot_->seats) {
            if (seat.free) continue;
            const bool still = std::any_of(s.seats.begin(), s.seats.end(),
                                           [&](const pr::SeatView& o) { return !o.free && o.name == seat.name; });
            if (!still) say(LogLine::Kind::info, tr("{name} left seat {seat}", {{"name", seat.name}, {"seat", std::to_string(seat.seat + 1)}}));
        }
    }
    snapshot_ = s;
    room_ = s.room;
    choosing_.clear();
    for (const auto& seat : s.seats)
        if (seat.choosing && !seat.free) choosing_.push_back(seat.seat);
    choosing_until_.reset();
    if (s.decision_deadline_ms && !choosing_.empty()) choosing_until_ = *s.decision_deadline_ms - server_offset_ms_;
    if (s.state == "lobby") {
        in_game_ = false;
        pending_.reset();
        seed_requested_ = false;
        return;
    }
    if (s.game_id) game_id_ = *s.game_id;
    if (s.commitment) commitment_ = *s.commitment;
    if (!s.boards.empty()) published_boards_ = s.boards;
    if (s.spook) {
        auto players = snapshot_players(s);
        if (!in_game_ || options_.game != GameKind::spook || (!players.empty() && players != play_seats_))
            start_game(s.options, players);
        const auto& g = *s.spook;
        round_ = g.round;
        roll_ = g.roll;
        spook_boards_ = g.boards;
        spook_positions_ = g.positions;
        spook_finished_ = g.finished_round;
    } else if (s.ludo) {
        auto players = snapshot_players(s);
        if (!in_game_ || options_.game != GameKind::ludo || (!players.empty() && players != play_seats_))
            start_game(s.options, players);
        const auto& g = *s.ludo;
        current_seat_ = g.current_seat;
        turn_ = g.turn;
        face_ = g.face;
        // Who threw the face on the table: the seat to play, while it chooses; else not known.
        thrower_.reset();
        if (g.face && g.phase == "awaiting_choice") thrower_ = g.current_seat;
        // The engine reads its own position notation (and says what is wrong with a bad one): the
        // players in play order, engine seat i being room seat play_seats_[i].
        GameOptions engine = s.options;
        engine.players = static_cast<int>(play_seats_.size());
        const auto game = ludo::Game::from_position(engine, g.position);
        for (int i = 0; i < game.players() && static_cast<std::size_t>(i) < play_seats_.size(); ++i) {
            const auto seat = static_cast<std::size_t>(play_seats_[static_cast<std::size_t>(i)]);
            if (seat >= ludo_progress_.size()) continue;
            for (int piece = 0; piece < ludo::kPiecesPerPlayer; ++piece)
                ludo_progress_[seat][static_cast<std::size_t>(piece)] = game.progress(i, piece);
            if (seat < ludo_captured_.size()) ludo_captured_[seat] = game.has_captured(i);
        }
    } else if (!in_game_) {
        options_ = s.options;
    }
}

std::string GameView::ludo_position(int marked) const {
    const ludo::Geometry geo(options_.ludo.arm);
    std::string out;
    const int players = static_cast<int>(play_seats_.size());
    for (int i = 0; i < players; ++i) {
        const int seat = play_seats_[static_cast<std::size_t>(i)];
        if (static_cast<std::size_t>(seat) >= ludo_progress_.size()) continue;
        if (!out.empty()) out += ' ';
        out += ludo::to_string(ludo::colour_of_seat(players, i));
        if (options_.ludo.capture_to_home && ludo_has_captured(seat)) out += '+';
        if (seat == marked) out += '*';
        out += ':';
        for (int piece = 0; piece < 4; ++piece) {
            if (piece > 0) out += ',';
            const int p = ludo_progress_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(piece)];
            if (p == ludo::kYard) out += 'Y';
            else if (p == geo.behind_start()) out += 'B';
            else if (p >= geo.home()) out += 'H';
            else out += std::to_string(p);
        }
    }
    return out;
}

void GameView::set_spook_piece(int seat, int piece, int to) {
    if (seat < 0 || piece < 0 || static_cast<std::size_t>(seat) >= spook_positions_.size()) return;
    auto& pieces = spook_positions_[static_cast<std::size_t>(seat)];
    if (static_cast<std::size_t>(piece) < pieces.size()) pieces[static_cast<std::size_t>(piece)] = to;
}

void GameView::apply(const json& m, std::int64_t now_ms) {
    ++messages_;
    try {
        const std::string type = m.value("type", "");
        // The step the seats were choosing in is over.
        if (type == "moves" || type == "throw" || type == "move" || type == "roll_off" || type == "game_over") {
            choosing_.clear();
            choosing_until_.reset();
        }
        if (type == "welcome") {
            welcome_ = m.get<pr::Welcome>();
        } else if (type == "joined") {
            const auto j = m.get<pr::Joined>();
            room_ = j.room;
            seat_ = j.seat;
            role_ = j.role;
            if (j.token) token_ = j.token;
            kicked_ = false;
            if (j.role == "spectator")
                say(LogLine::Kind::info, tr("You are watching room {code}.", {{"code", j.room}}));
            else if (j.host)
                say(LogLine::Kind::info, tr("You are in room {code}, seat {seat} (host).", {{"code", j.room}, {"seat", std::to_string(j.seat + 1)}}));
            else
                say(LogLine::Kind::info, tr("You are in room {code}, seat {seat}.", {{"code", j.room}, {"seat", std::to_string(j.seat + 1)}}));
        } else if (type == "room") {
            const bool was_paused = paused();
            const bool was_host = am_host();
            const bool same_room = snapshot_.has_value();
            const auto s = m.get<pr::RoomSnapshot>();
            if (s.server_time_ms > 0) server_offset_ms_ = s.server_time_ms - now_ms;
            on_snapshot(s);
            if (paused() && !was_paused) paused_at_ms_ = now_ms;
            if (state() == "lobby") frozen_left_ms_.reset();
            // This client has just become the host (it finds itself by its seat number).
            if (same_room && seat_ >= 0 && !is_spectator() && !was_host && am_host())
                say(LogLine::Kind::info, tr("You are now the host."));
            // The role moved on while this client was away (past the reconnect window).
            if (same_room && seat_ >= 0 && !is_spectator() && was_host && !am_host() && snapshot_->host >= 0)
                say(LogLine::Kind::info, tr("You are not the host any more: {name} is.", {{"name", seat_name(snapshot_->host)}}));
        } else if (type == "notice") {
            // One story line the server words for people (PROTOCOL.md `notice`).
            notices_ = true;
            const auto n = m.get<pr::Notice>();
            if (!n.kind.empty() || !n.text.empty()) say(LogLine::Kind::info, notice_text(m));
        } else if (type == "commitment") {
            const auto c = m.get<pr::Commitment>();
            game_id_ = c.game_id;
            commitment_ = c.commitment;
            published_boards_ = c.boards;
            result_.reset();  // a new game: the game-over screen goes
            seed_requested_ = seat_ >= 0 && !is_spectator();
            say(LogLine::Kind::info, tr("A game is starting. The server has locked in its dice seed (SHA-256 {hash}...).",
                                        {{"hash", c.commitment.substr(0, 12)}}));
        } else if (type == "client_seed_accepted") {
            seed_requested_ = false;
        } else if (type == "game_started") {
            const auto g = m.get<pr::GameStarted>();
            game_id_ = g.game_id;
            start_game(g.options, g.players);
            seed_requested_ = false;
            if (g.options.game == GameKind::spook) {
                // assignment[seat]: the published board of room seat `seat` (-1: a free seat).
                spook_boards_.assign(spook_positions_.size(), std::string());
                for (std::size_t seat = 0; seat < g.assignment.size() && seat < spook_boards_.size(); ++seat) {
                    const int index = g.assignment[seat];
                    if (index >= 0 && static_cast<std::size_t>(index) < published_boards_.size())
                        spook_boards_[seat] = published_boards_[static_cast<std::size_t>(index)];
                }
                say(LogLine::Kind::info, g.options.spook.pieces == 1
                                             ? tr("Spook & Werewolf Ludo begins! Bring your piece into the church on square 40 to win.")
                                             : tr("Spook & Werewolf Ludo begins! Bring two pieces into the church on square 40 to win."));
            } else {
                say(LogLine::Kind::info, tr("Classic Ludo begins! Bring all four pieces home to win."));
            }
        } else if (m.value("table", false) && (type == "roll" || type == "activation" || type == "roll_off" || type == "throw")) {
            // A table game's announcement (the shared screen's words): no piece moves here.
            say(type == "activation" ? LogLine::Kind::monster : LogLine::Kind::roll, event_text(m));
        } else if (type == "turn_skipped") {
            say(LogLine::Kind::info, event_text(m));
        } else if (type == "roll") {
            const auto r = m.get<pr::Roll>();
            round_ = r.round;
            roll_ = r.face;
            last_character_.reset();
            say(LogLine::Kind::roll, trn("Round {round}: the die shows {n}. Everyone moves one piece {n} square.",
                                         "Round {round}: the die shows {n}. Everyone moves one piece {n} squares.", r.face,
                                         {{"round", std::to_string(r.round)}}));
        } else if (type == "decision") {
            PendingDecision p;
            p.decision = m.get<pr::Decision>();
            p.deadline_ms = now_ms + p.decision.time_left_ms.value_or(0);
            pending_ = std::move(p);
            frozen_left_ms_.reset();
            if (disconnected_ && pending_->decision.time_left_ms) frozen_left_ms_ = *pending_->decision.time_left_ms;
        } else if (type == "choice_accepted") {
            if (pending_ && pending_->decision.decision == m.value("decision", "")) pending_.reset();
        } else if (type == "decision_timeout") {
            if (pending_ && pending_->decision.decision == m.value("decision", "")) pending_.reset();
            say(LogLine::Kind::error, tr("Time's up! The server makes the best move for you."));
        } else if (type == "moves") {
            const auto mv = m.get<pr::Moves>();
            last_moves_.clear();
            for (const auto& x : mv.moves) {
                const std::string who = seat_name(x.seat);
                const auto kind = x.seat == seat_ ? LogLine::Kind::mine : LogLine::Kind::move;
                if (x.stays.value_or(false) || !x.piece) {
                    say(kind, tr("{name} cannot move and stays put.", {{"name", who}}));
                    continue;
                }
                set_spook_piece(x.seat, *x.piece, x.to.value_or(0));
                last_moves_.push_back(LastMove{x.seat, *x.piece, x.from.value_or(0), x.to.value_or(0)});
                const std::string by = by_text(x.by);
                const std::string number = std::to_string(*x.piece + 1), from = std::to_string(x.from.value_or(0)),
                                  to = spook_square(x.to.value_or(0));
                say(kind, by.empty() ? tr("{name} moves piece {piece} from square {from} to {to}.",
                                          {{"name", who}, {"piece", number}, {"from", from}, {"to", to}})
                                     : tr("{name} moves piece {piece} from square {from} to {to} {why}.",
                                          {{"name", who}, {"piece", number}, {"from", from}, {"to", to}, {"why", by}}));
            }
        } else if (type == "activation") {
            const auto a = m.get<pr::Activation>();
            last_character_ = a.character;
            // The character's name and action in the reader's language (the server's English
            // `name` and `action` when the client does not know the character).
            const auto character = spook::parse_character_id(a.character);
            const std::string name = character ? character_name(*character) : a.name;
            const std::string action = character ? character_action(*character) : a.action;
            say(LogLine::Kind::monster, tr("The die shows {face}: it's the {character}! Any piece on the {character} {action}.",
                                           {{"face", std::to_string(a.face)}, {"character", name}, {"action", action}}));
            // The Wizard's Hat moves a piece forward: nobody on it is no relief.
            if (a.moved.empty())
                say(LogLine::Kind::monster, a.character == "hat" ? tr("Nobody stands on the {character}.", {{"character", name}})
                                                                 : tr("Nobody stands on the {character}. Phew!", {{"character", name}}));
            for (const auto& x : a.moved) {
                if (!x.piece) continue;
                set_spook_piece(x.seat, *x.piece, x.to.value_or(0));
                say(x.seat == seat_ ? LogLine::Kind::mine : LogLine::Kind::monster,
                    "  " + tr("{name}'s piece {piece}: {from} -> {to}",
                              {{"name", seat_name(x.seat)}, {"piece", std::to_string(*x.piece + 1)},
                               {"from", std::to_string(x.from.value_or(0))}, {"to", spook_square(x.to.value_or(0))}}));
            }
            for (const int seat : a.finished) {
                if (static_cast<std::size_t>(seat) < spook_finished_.size()) spook_finished_[static_cast<std::size_t>(seat)] = a.round;
                say(LogLine::Kind::finish, tr("{name} has reached the church!", {{"name", seat_name(seat)}}));
            }
        } else if (type == "roll_off") {
            const auto r = m.get<pr::RollOff>();
            current_seat_ = r.starts;
            apply_ludo_events(r.events);
        } else if (type == "throw") {
            const auto t = m.get<pr::Throw>();
            turn_ = t.turn;
            current_seat_ = t.seat;
            face_ = t.face;
            apply_ludo_events(t.events);
            thrower_ = t.seat;  // a pass or turn event among the events moves current_seat_ on
        } else if (type == "move") {
            const auto mv = m.get<pr::LudoMove>();
            turn_ = mv.turn;
            apply_ludo_events(mv.events);
            if (mv.by == "timeout" || mv.by == "away") say(LogLine::Kind::info, by_text(mv.by));
        } else if (type == "game_over") {
            const auto g = m.get<pr::GameOver>();
            pending_.reset();
            in_game_ = false;
            // The game-over screen keeps the final boards: a copy of the view as it stands now.
            result_.reset();
            auto final_view = std::make_shared<GameView>(*this);
            final_view->log_.clear();
            result_ = GameResult{g, std::move(final_view)};
            result_dismissed_ = false;
            if (g.status == "finished") {
                std::vector<std::string> names;
                for (const int w : g.winners) names.push_back(seat_name(w));
                say(LogLine::Kind::finish, game_over_sentence(names, g.length, options_.game == GameKind::spook,
                                                              options_.game == GameKind::ludo && options_.ludo.teams));
            } else {
                say(LogLine::Kind::error, abandoned_text(m));
            }
            if (g.server_seed) {
                const std::string seed = g.server_seed->substr(0, 16);
                // A command one can run: the record's address on the server the client talks to.
                if (g.record && !record_base_.empty())
                    say(LogLine::Kind::info, tr("Server seed revealed: {seed}... Check the game: {command}",
                                                {{"seed", seed}, {"command", "spookludo verify " + record_base_ + *g.record + verify_flags_}}));
                else if (g.record)
                    say(LogLine::Kind::info, tr("Server seed revealed: {seed}... Check the game with spookludo verify and its record, {path} on the server",
                                                {{"seed", seed}, {"path", *g.record}}));
                else
                    say(LogLine::Kind::info, tr("Server seed revealed: {seed}...", {{"seed", seed}}));
            }
        } else if (type == "error") {
            last_error_ = m.get<pr::ErrorReply>();
            // A choice refused during a pause stays to be made: the decision is still open.
            if (last_error_->code == "paused" && pending_) pending_->chosen.reset();
            say(LogLine::Kind::error, error_words(*last_error_));
        } else if (type == "kicked") {
            kicked_ = true;
            const auto k = m.get<pr::Kicked>();
            token_.reset();  // void: a kicked seat cannot be taken back
            say(LogLine::Kind::error, tr("You were removed from room {code} by the host.", {{"code", k.room.empty() ? room_ : k.room}}));
        } else if (type == "closing") {
            closing_ = m.value("reason", std::string("closing"));
            say(LogLine::Kind::error, tr("The server is closing: {reason}.", {{"reason", *closing_}}));
        }
    } catch (const std::exception& e) {
        say(LogLine::Kind::error, tr("could not read a server message: {error}", {{"error", e.what()}}));
    }
}

}  // namespace spookludo::client
