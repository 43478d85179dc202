#pragma once
// The client's picture of a room and its game, built only from the server's messages
// (PROTOCOL.md). The server decides everything; the view remembers what it was told so that a
// terminal can draw it, a bot can choose, and a test can replay a recorded message sequence.
//
// Feed every server message to apply(), in order. A `room` snapshot replaces what the view knew
// (that is how a reconnection redraws); the messages between snapshots update it step by step.
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spookludo/options.h"
#include "spookludo/protocol/server_messages.h"

namespace spookludo::client {

// One line of the game's story, the way a party host would say it.
struct LogLine {
    enum class Kind : unsigned char { info, roll, move, monster, capture, finish, error, mine };
    Kind kind = Kind::info;
    std::string text;
};

// A decision the server asked of this client, with its local deadline.
struct PendingDecision {
    protocol::Decision decision;
    std::int64_t deadline_ms = 0;  // local clock (steady, ms) when the server will move for us
    std::optional<int> chosen;     // the piece we sent (waiting for choice_accepted)
};

class GameView;

struct GameResult {
    protocol::GameOver over;
    // The view as it stood when game_over arrived (boards, pieces, names): the game-over screen
    // draws from it, so a `room` snapshot of the rematch lobby does not wipe what it shows.
    std::shared_ptr<const GameView> final_view;
};

class GameView {
public:
    static constexpr std::size_t kMaxLog = 200;

    // Applies one server message; `now_ms` is the local steady clock, used for deadlines.
    // Unknown message types are ignored (a newer server may send more). Throws nothing: a
    // message it cannot read becomes an error line in the log.
    void apply(const nlohmann::json& message, std::int64_t now_ms = 0);
    void apply_text(std::string_view text, std::int64_t now_ms = 0);

    // Where the server serves its records (http(s)://HOST:PORT) and the flags `spookludo verify`
    // needs for it (" --ca-file FILE"): the story's last line is then a command one can run
    // ("Check the game: spookludo verify http://HOST:PORT/records/ID").
    void set_record_server(std::string http_base, std::string verify_flags = {}) {
        record_base_ = std::move(http_base);
        verify_flags_ = std::move(verify_flags);
    }

    // ---- The room -------------------------------------------------------------------------
    const std::string& room() const noexcept { return room_; }
    // The server's `welcome` (its --public-url and network addresses), once it came.
    const std::optional<protocol::Welcome>& welcome() const noexcept { return welcome_; }
    int my_seat() const noexcept { return seat_; }  // -1: spectator or not seated
    const std::optional<std::string>& token() const noexcept { return token_; }
    bool am_host() const noexcept { return seat_ >= 0 && snapshot_ && snapshot_->host == seat_; }
    bool is_spectator() const noexcept { return role_ == "spectator"; }
    const std::optional<protocol::RoomSnapshot>& snapshot() const noexcept { return snapshot_; }
    std::string state() const { return snapshot_ ? snapshot_->state : std::string("connecting"); }
    bool paused() const noexcept { return snapshot_ && snapshot_->paused; }
    // The name shown for a seat ("seat 3" when unknown or free).
    std::string seat_name(int seat) const;
    // The room's seat numbers in order, free ones included (seat numbers need not be contiguous:
    // never assume the i-th seat is seat i). Without a snapshot: 0 .. options.players - 1.
    std::vector<int> room_seats() const;
    // A seat the snapshot lists as free (`"free":true`), or does not list at all. snapshot()->seats
    // holds the free seats too (SeatView::free): skip them where only people count.
    bool seat_free(int seat) const;
    // Does the room have a free seat (one a newcomer, or a spectator in the lobby, would take)?
    bool has_free_seat() const;
    // The snapshot's `status` of a taken player's seat: "here", "away", "server", "left" ("" when
    // the server did not say).
    std::string seat_status(int seat) const;
    // The room's seats as people count them: "1-4" for seats 0..3, "1, 3" for a room that kept
    // seats 0 and 2 (prompts: "Remove which seat? (1-4)").
    std::string seat_numbers_text() const;
    // Is `number` (people's number, 1-based) one of the room's seats?
    bool has_seat_number(int number) const;
    // The lobby's automatic start (server clock ms), when the server holds one.
    std::optional<std::int64_t> auto_start_at_ms() const { return snapshot_ ? snapshot_->auto_start_at_ms : std::nullopt; }
    // The server's clock minus the local steady clock, from the last snapshot.
    std::int64_t server_clock_offset_ms() const noexcept { return server_offset_ms_; }
    // "Starts in 0:42 (free seats get bots)" while an automatic start is armed; else empty.
    std::string auto_start_text(std::int64_t now_ms) const;

    // ---- The game --------------------------------------------------------------------------
    bool in_game() const noexcept { return in_game_; }
    const GameOptions& options() const noexcept { return options_; }
    const std::string& game_id() const noexcept { return game_id_; }
    const std::string& commitment() const noexcept { return commitment_; }
    bool seed_requested() const noexcept { return seed_requested_; }  // commitment seen, no seed sent
    void seed_sent() noexcept { seed_requested_ = false; }
    // The room seats in the game, in play order (game_started / the snapshot's `players`; before a
    // server says, 0 .. players - 1). Every seat number in the game's messages is a room seat.
    const std::vector<int>& play_seats() const noexcept { return play_seats_; }
    // A seat's place in the play order (-1: not in the game). For Ludo this is the engine's seat:
    // the position notation lists the players in this order, and the colours go in this order.
    int play_index(int seat) const noexcept;
    // Ludo: the colour of a room seat in the game (ludo::Colour as int; -1: not in the game).
    int ludo_colour(int seat) const noexcept;

    // Spook: every seat's board (notation) and pieces' squares, indexed by room seat (a seat not
    // in the game has "" and no pieces); the round and its rolls.
    const std::vector<std::string>& spook_boards() const noexcept { return spook_boards_; }
    const std::vector<std::vector<int>>& spook_positions() const noexcept { return spook_positions_; }
    const std::vector<std::optional<int>>& spook_finished() const noexcept { return spook_finished_; }
    int round() const noexcept { return round_; }
    std::optional<int> movement_roll() const noexcept { return roll_; }
    std::optional<std::string> last_character() const noexcept { return last_character_; }

    // Ludo: every seat's pieces by progress (-1 yard, 9n+2 home, 9n+3 the square behind its start
    // under capture_to_home), indexed by room seat (a seat not in the game stays in the yard: look
    // at play_seats()), whose turn, the last throw.
    const std::vector<std::array<int, 4>>& ludo_progress() const noexcept { return ludo_progress_; }
    // Whether a seat has captured (house rule capture_to_home: only then may it enter its home
    // column), by room seat.
    bool ludo_has_captured(int seat) const noexcept {
        return seat >= 0 && static_cast<std::size_t>(seat) < ludo_captured_.size() && ludo_captured_[static_cast<std::size_t>(seat)];
    }
    int current_seat() const noexcept { return current_seat_; }
    int turn() const noexcept { return turn_; }
    std::optional<int> last_face() const noexcept { return face_; }
    // The seat that threw last_face() (the `throw` message's seat: not the seat to play next,
    // which a pass or a turn event in the same message moves on); nullopt when not known.
    std::optional<int> last_thrower() const noexcept { return thrower_; }
    // The position in the engine's notation (ludo/game.h), with `marked` as the seat to play.
    std::string ludo_position(int marked) const;

    // The last move of each seat (for highlighting): piece and target, Spook or Ludo.
    struct LastMove { int seat = 0; int piece = 0; int from = 0; int to = 0; };
    const std::vector<LastMove>& last_moves() const noexcept { return last_moves_; }

    // ---- Decisions -------------------------------------------------------------------------
    const std::optional<PendingDecision>& pending() const noexcept { return pending_; }
    void mark_chosen(int piece) { if (pending_) pending_->chosen = piece; }
    // Milliseconds left to answer (0 when none is pending or the time is up). While the game is
    // paused the countdown stands still (the server keeps the time and sends the decision again
    // on resuming).
    std::int64_t time_left_ms(std::int64_t now_ms) const noexcept;
    // Our open decision waits without a limit (the room's settings.time_factor 0).
    bool no_time_limit() const noexcept { return pending_ && !pending_->decision.time_left_ms; }
    // The connection to the server is lost (true) or back (false): the countdown stops, since
    // nobody can answer, and the server re-sends the open decision on resume.
    void set_disconnected(bool lost, std::int64_t now_ms);
    bool disconnected() const noexcept { return disconnected_; }
    // The seats the game's step waits for (the snapshot's `choosing`), until the step moves on
    // (its moves, the next throw, the end), and their time left (0 when the server did not say:
    // paused, or an older server).
    const std::vector<int>& choosing_seats() const noexcept { return choosing_; }
    std::int64_t choosing_left_ms(std::int64_t now_ms) const noexcept;
    // "Still choosing (12 s left): Ben and Cid" while the step waits for others than this client
    // (with no choice of its own to make); else empty.
    std::string choosing_text(std::int64_t now_ms) const;
    // A line of the story from the program itself (e.g. how to take the seat back).
    void note(std::string text) { say(LogLine::Kind::info, std::move(text)); }

    // ---- Outcome and story -------------------------------------------------------------------
    const std::optional<GameResult>& result() const noexcept { return result_; }
    // The game-over screen: shown from game_over until the player dismisses it (a key press) or a
    // new game starts (commitment, game_started). result() stays after dismissing.
    bool showing_result() const noexcept { return result_.has_value() && !result_dismissed_; }
    void dismiss_result() noexcept { result_dismissed_ = true; }
    const std::deque<LogLine>& log() const noexcept { return log_; }
    std::size_t log_count() const noexcept { return log_total_; }  // lines ever added
    // The lines added since `cursor` (a count of lines already taken; 0 at first), and moves the
    // cursor on. Lines that fell off the end of the log (over kMaxLog) are skipped.
    std::vector<std::string> lines_since(std::size_t& cursor) const;
    const std::optional<protocol::ErrorReply>& last_error() const noexcept { return last_error_; }
    bool kicked() const noexcept { return kicked_; }
    std::optional<std::string> closing() const { return closing_; }
    std::int64_t messages() const noexcept { return messages_; }

private:
    void say(LogLine::Kind kind, std::string text);
    void on_snapshot(const protocol::RoomSnapshot& s);
    void start_game(const GameOptions& options, std::vector<int> players);
    void size_per_seat_arrays();
    std::string error_words(const protocol::ErrorReply& e) const;
    void apply_ludo_events(const std::vector<protocol::EventView>& events);
    void set_spook_piece(int seat, int piece, int to);

    std::string room_;
    std::optional<protocol::Welcome> welcome_;
    int seat_ = -1;
    std::string role_;
    std::optional<std::string> token_;
    std::optional<protocol::RoomSnapshot> snapshot_;
    bool notices_ = false;  // the server tells arrivals and departures itself (`notice`)
    std::int64_t paused_at_ms_ = 0;  // local clock when the snapshot said "paused"

    bool in_game_ = false;
    GameOptions options_;
    std::string game_id_;
    std::string commitment_;
    std::vector<std::string> published_boards_;
    bool seed_requested_ = false;
    std::vector<int> play_seats_;

    std::vector<std::string> spook_boards_;
    std::vector<std::vector<int>> spook_positions_;
    std::vector<std::optional<int>> spook_finished_;
    int round_ = 0;
    std::optional<int> roll_;
    std::optional<std::string> last_character_;

    std::vector<std::array<int, 4>> ludo_progress_;
    std::vector<bool> ludo_captured_;
    int current_seat_ = -1;
    int turn_ = 0;
    std::optional<int> face_;
    std::optional<int> thrower_;

    std::vector<LastMove> last_moves_;
    std::optional<PendingDecision> pending_;
    std::optional<std::int64_t> frozen_left_ms_;  // the countdown, stopped while disconnected
    bool disconnected_ = false;
    std::int64_t server_offset_ms_ = 0;
    std::vector<int> choosing_;                    // the seats the step waits for
    std::optional<std::int64_t> choosing_until_;   // their deadline, local clock
    std::optional<GameResult> result_;
    bool result_dismissed_ = false;
    std::deque<LogLine> log_;
    std::size_t log_total_ = 0;
    std::optional<protocol::ErrorReply> last_error_;
    bool kicked_ = false;
    std::optional<std::string> closing_;
    std::string record_base_;
    std::string verify_flags_;
    std::int64_t messages_ = 0;
};

}  // namespace spookludo::client
