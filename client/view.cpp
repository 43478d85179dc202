#include "view.h"

#include <algorithm>

#include "spookludo/ludo/game.h"
#include "spookludo/ludo/geometry.h"

namespace spookludo::client {

using nlohmann::json;
namespace pr = protocol;

namespace {

std::string piece_label(int piece) { return "piece " + std::to_string(piece + 1); }

std::string by_text(const std::optional<std::string>& by) {
    if (!by) return {};
    if (*by == "timeout") return " (time ran out: the server chose the best move)";
    if (*by == "away") return " (away: the server played it)";
    return {};
}

}  // namespace

void GameView::say(LogLine::Kind kind, std::string text) {
    log_.push_back(LogLine{kind, std::move(text)});
    ++log_total_;
    while (log_.size() > kMaxLog) log_.pop_front();
}

std::string GameView::seat_name(int seat) const {
    if (snapshot_)
        for (const auto& s : snapshot_->seats)
            if (s.seat == seat && !s.free) return s.name;
    return "seat " + std::to_string(seat + 1);
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
    return std::max<std::int64_t>(0, pending_->deadline_ms - now_ms);
}

void GameView::apply_text(std::string_view text, std::int64_t now_ms) {
    json message = json::parse(text, nullptr, false);
    if (message.is_discarded() || !message.is_object()) {
        say(LogLine::Kind::error, "the server sent something that is not JSON");
        return;
    }
    apply(message, now_ms);
}

void GameView::start_game(const GameOptions& options) {
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
    const auto players = static_cast<std::size_t>(options.players);
    if (options.game == GameKind::spook) {
        spook_positions_.assign(players, std::vector<int>(static_cast<std::size_t>(options.spook.pieces), 1));
        spook_finished_.assign(players, std::nullopt);
        ludo_progress_.clear();
    } else {
        ludo_progress_.assign(players, {ludo::kYard, ludo::kYard, ludo::kYard, ludo::kYard});
        spook_positions_.clear();
        spook_finished_.clear();
        spook_boards_.clear();
        current_seat_ = -1;
    }
}

void GameView::on_snapshot(const pr::RoomSnapshot& s) {
    // Announce who arrived and left, so a lobby reads like a party.
    if (snapshot_ && snapshot_->room == s.room) {
        for (const auto& seat : s.seats) {
            if (seat.free) continue;
            const bool known = std::any_of(snapshot_->seats.begin(), snapshot_->seats.end(),
                                           [&](const pr::SeatView& o) { return o.name == seat.name; });
            if (!known) say(LogLine::Kind::info, seat.name + " took seat " + std::to_string(seat.seat + 1));
        }
        for (const auto& seat : snapshot_->seats) {
            if (seat.free) continue;
            const bool still = std::any_of(s.seats.begin(), s.seats.end(),
                                           [&](const pr::SeatView& o) { return o.name == seat.name; });
            if (!still) say(LogLine::Kind::info, seat.name + " left seat " + std::to_string(seat.seat + 1));
        }
    }
    snapshot_ = s;
    room_ = s.room;
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
        if (!in_game_ || options_.game != GameKind::spook) start_game(s.options);
        const auto& g = *s.spook;
        round_ = g.round;
        roll_ = g.roll;
        spook_boards_ = g.boards;
        spook_positions_ = g.positions;
        spook_finished_ = g.finished_round;
    } else if (s.ludo) {
        if (!in_game_ || options_.game != GameKind::ludo) start_game(s.options);
        const auto& g = *s.ludo;
        current_seat_ = g.current_seat;
        turn_ = g.turn;
        face_ = g.face;
        // The engine reads its own position notation (and says what is wrong with a bad one).
        const auto game = ludo::Game::from_position(s.options, g.position);
        for (int seat = 0; seat < game.players() && static_cast<std::size_t>(seat) < ludo_progress_.size(); ++seat)
            for (int piece = 0; piece < ludo::kPiecesPerPlayer; ++piece)
                ludo_progress_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(piece)] = game.progress(seat, piece);
    } else if (!in_game_) {
        options_ = s.options;
    }
}

std::string GameView::ludo_position(int marked) const {
    const ludo::Geometry geo(options_.ludo.arm);
    std::string out;
    const int players = static_cast<int>(ludo_progress_.size());
    for (int seat = 0; seat < players; ++seat) {
        if (seat > 0) out += ' ';
        out += ludo::to_string(ludo::colour_of_seat(players, seat));
        if (seat == marked) out += '*';
        out += ':';
        for (int piece = 0; piece < 4; ++piece) {
            if (piece > 0) out += ',';
            const int p = ludo_progress_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(piece)];
            if (p == ludo::kYard) out += 'Y';
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

void GameView::apply_ludo_events(const std::vector<pr::EventView>& events) {
    const ludo::Geometry geo(options_.ludo.arm);
    auto set = [&](int seat, int piece, int value) {
        if (seat < 0 || piece < 0 || piece > 3 || static_cast<std::size_t>(seat) >= ludo_progress_.size()) return;
        ludo_progress_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(piece)] = value;
    };
    for (const auto& e : events) {
        const int seat = e.seat.value_or(-1);
        const int piece = e.piece.value_or(-1);
        LogLine::Kind kind = LogLine::Kind::move;
        if (e.kind == "entered" || e.kind == "moved") {
            set(seat, piece, e.to.value_or(ludo::kYard));
            last_moves_.assign(1, LastMove{seat, piece, e.from.value_or(0), e.to.value_or(0)});
        } else if (e.kind == "captured") {
            set(seat, piece, ludo::kYard);
            kind = LogLine::Kind::capture;
        } else if (e.kind == "reached_home") {
            set(seat, piece, geo.home());
            kind = LogLine::Kind::finish;
        } else if (e.kind == "finished") {
            kind = LogLine::Kind::finish;
        } else if (e.kind == "starts" || e.kind == "turn" || e.kind == "extra_throw") {
            current_seat_ = seat;
            kind = LogLine::Kind::info;
        } else if (e.kind == "throw" || e.kind == "roll_off_throw") {
            if (e.face) face_ = e.face;
            kind = LogLine::Kind::roll;
        } else {
            kind = LogLine::Kind::info;
        }
        if (e.kind == "turn" || e.kind == "game_over") continue;  // shown by the board, and by game_over
        const std::string who =
            seat >= 0 ? seat_name(seat) + " (" + std::string(ludo::to_string(ludo::colour_of_seat(options_.players, seat))) + ")"
                      : std::string("?");
        const std::string face = std::to_string(e.face.value_or(0));
        std::string text;
        if (e.kind == "roll_off_throw") text = who + " throws " + face + " in the roll-off.";
        else if (e.kind == "starts") text = who + " starts.";
        else if (e.kind == "throw") text = who + " throws a " + face + ".";
        else if (e.kind == "pass") text = who + " cannot move; play passes on.";
        else if (e.kind == "three_sixes") text = who + " threw a third 6 in a row: it is not played.";
        else if (e.kind == "entered") text = who + " brings " + piece_label(piece) + " out.";
        else if (e.kind == "moved")
            text = who + " moves " + piece_label(piece) + " from " + std::to_string(e.from.value_or(0)) + " to " +
                   (e.to.value_or(0) >= geo.home() ? std::string("home") : std::to_string(e.to.value_or(0))) + ".";
        else if (e.kind == "captured") text = "Captured! " + who + "'s " + piece_label(piece) + " goes back to the yard.";
        else if (e.kind == "reached_home") text = who + "'s " + piece_label(piece) + " is home.";
        else if (e.kind == "finished") text = who + " has all four pieces home!";
        else if (e.kind == "extra_throw") text = who + " played a 6 and throws again.";
        else text = e.text;
        const bool mine = seat == seat_ && seat_ >= 0 && kind == LogLine::Kind::move;
        say(mine ? LogLine::Kind::mine : kind, text);
    }
}

void GameView::apply(const json& m, std::int64_t now_ms) {
    ++messages_;
    try {
        const std::string type = m.value("type", "");
        if (type == "welcome") {
            // nothing to show
        } else if (type == "joined") {
            const auto j = m.get<pr::Joined>();
            room_ = j.room;
            seat_ = j.seat;
            role_ = j.role;
            if (j.token) token_ = j.token;
            kicked_ = false;
            if (j.role == "spectator")
                say(LogLine::Kind::info, "You are watching room " + j.room + ".");
            else
                say(LogLine::Kind::info, "You are in room " + j.room + ", seat " + std::to_string(j.seat + 1) +
                                             (j.host ? " (host)." : "."));
        } else if (type == "room") {
            on_snapshot(m.get<pr::RoomSnapshot>());
        } else if (type == "commitment") {
            const auto c = m.get<pr::Commitment>();
            game_id_ = c.game_id;
            commitment_ = c.commitment;
            published_boards_ = c.boards;
            result_.reset();
            seed_requested_ = seat_ >= 0 && !is_spectator();
            say(LogLine::Kind::info, "A game is starting. The server has locked in its dice seed (SHA-256 " +
                                         c.commitment.substr(0, 12) + "...).");
        } else if (type == "client_seed_accepted") {
            seed_requested_ = false;
        } else if (type == "game_started") {
            const auto g = m.get<pr::GameStarted>();
            game_id_ = g.game_id;
            start_game(g.options);
            seed_requested_ = false;
            if (g.options.game == GameKind::spook) {
                spook_boards_.clear();
                for (const int index : g.assignment)
                    if (index >= 0 && static_cast<std::size_t>(index) < published_boards_.size())
                        spook_boards_.push_back(published_boards_[static_cast<std::size_t>(index)]);
                say(LogLine::Kind::info, "Spook & Werewolf Ludo begins! Bring " +
                                             std::string(g.options.spook.pieces == 1 ? "your piece" : "two pieces") +
                                             " into the church on square 40 to win.");
            } else {
                say(LogLine::Kind::info, "Classic Ludo begins! Bring all four pieces home to win.");
            }
        } else if (type == "roll") {
            const auto r = m.get<pr::Roll>();
            round_ = r.round;
            roll_ = r.face;
            last_character_.reset();
            say(LogLine::Kind::roll, "Round " + std::to_string(r.round) + ": the die shows " + std::to_string(r.face) +
                                         ". Everyone moves one piece " + std::to_string(r.face) +
                                         (r.face == 1 ? " square." : " squares."));
        } else if (type == "decision") {
            PendingDecision p;
            p.decision = m.get<pr::Decision>();
            p.deadline_ms = now_ms + p.decision.time_left_ms;
            pending_ = std::move(p);
        } else if (type == "choice_accepted") {
            if (pending_ && pending_->decision.decision == m.value("decision", "")) pending_.reset();
        } else if (type == "decision_timeout") {
            if (pending_ && pending_->decision.decision == m.value("decision", "")) pending_.reset();
            say(LogLine::Kind::error, "Time's up! The server makes the best move for you.");
        } else if (type == "moves") {
            const auto mv = m.get<pr::Moves>();
            last_moves_.clear();
            for (const auto& x : mv.moves) {
                const std::string who = seat_name(x.seat);
                const auto kind = x.seat == seat_ ? LogLine::Kind::mine : LogLine::Kind::move;
                if (x.stays.value_or(false) || !x.piece) {
                    say(kind, who + " cannot move and stays put.");
                    continue;
                }
                set_spook_piece(x.seat, *x.piece, x.to.value_or(0));
                last_moves_.push_back(LastMove{x.seat, *x.piece, x.from.value_or(0), x.to.value_or(0)});
                say(kind, who + " moves " + piece_label(*x.piece) + " from square " + std::to_string(x.from.value_or(0)) +
                              " to " + (x.to.value_or(0) >= 40 ? std::string("the church") : std::to_string(x.to.value_or(0))) +
                              by_text(x.by) + ".");
            }
        } else if (type == "activation") {
            const auto a = m.get<pr::Activation>();
            last_character_ = a.character;
            std::string line = "The die shows " + std::to_string(a.face) + ": it's the " + a.name + "! Any piece on the " +
                               a.name + " " + a.action + ".";
            say(LogLine::Kind::monster, line);
            if (a.moved.empty()) say(LogLine::Kind::monster, "Nobody stands on the " + a.name + ". Phew!");
            for (const auto& x : a.moved) {
                if (!x.piece) continue;
                set_spook_piece(x.seat, *x.piece, x.to.value_or(0));
                say(x.seat == seat_ ? LogLine::Kind::mine : LogLine::Kind::monster,
                    "  " + seat_name(x.seat) + "'s " + piece_label(*x.piece) + ": " + std::to_string(x.from.value_or(0)) +
                        " -> " + (x.to.value_or(0) >= 40 ? std::string("the church") : std::to_string(x.to.value_or(0))));
            }
            for (const int seat : a.finished) {
                if (static_cast<std::size_t>(seat) < spook_finished_.size()) spook_finished_[static_cast<std::size_t>(seat)] = a.round;
                say(LogLine::Kind::finish, seat_name(seat) + " has reached the church!");
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
        } else if (type == "move") {
            const auto mv = m.get<pr::LudoMove>();
            turn_ = mv.turn;
            apply_ludo_events(mv.events);
            if (mv.by == "timeout" || mv.by == "away") say(LogLine::Kind::info, by_text(mv.by).substr(1));
        } else if (type == "game_over") {
            const auto g = m.get<pr::GameOver>();
            result_ = GameResult{g};
            pending_.reset();
            in_game_ = false;
            if (g.status == "finished") {
                std::string names;
                for (const int w : g.winners) names += (names.empty() ? "" : " and ") + seat_name(w);
                say(LogLine::Kind::finish, "Game over! " + (names.empty() ? std::string("Nobody") : names) +
                                               (g.winners.size() > 1 ? " win together" : " wins") + " after " +
                                               std::to_string(g.length) + (options_.game == GameKind::spook ? " rounds." : " turns."));
            } else {
                say(LogLine::Kind::error, "The game was abandoned" + (g.reason ? ": " + *g.reason : std::string()) + ".");
            }
            if (g.server_seed)
                say(LogLine::Kind::info, "Server seed revealed: " + g.server_seed->substr(0, 16) +
                                             "... Check the game: spookludo verify" + (g.record ? " (record " + *g.record + ")" : std::string()));
        } else if (type == "error") {
            last_error_ = m.get<pr::ErrorReply>();
            say(LogLine::Kind::error, "Server: " + last_error_->message + " (" + last_error_->code + ")");
        } else if (type == "kicked") {
            kicked_ = true;
            say(LogLine::Kind::error, "The host removed you from the room.");
        } else if (type == "closing") {
            closing_ = m.value("reason", std::string("closing"));
            say(LogLine::Kind::error, "The server is closing: " + *closing_ + ".");
        }
    } catch (const std::exception& e) {
        say(LogLine::Kind::error, std::string("could not read a server message: ") + e.what());
    }
}

}  // namespace spookludo::client
