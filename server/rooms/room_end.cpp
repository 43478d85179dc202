// The end: every way a game ends (a winner, the host's end, abandoned), its record, the lobby
// after it, and the room's close when nobody is left.
#include "room_impl.h"

namespace spookludo::server {

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::EndGame&) {
    if (!host_only(peer, "end_game")) return;
    if (!table_ && state_ != RoomState::seeding) return error(peer, ErrorCode::wrong_state, "no game to end", "end_game", {{"reason", "no_game"}});
    end_game(GameStatus::abandoned, "the host ended the game", "host");
}

void RoomImpl::close_if_empty() {
    if (any_human_connected() || !spectators_.empty() || closed_) return;
    if (table_ || state_ == RoomState::seeding) return;  // the game ends first (abandoned after the reconnect window)
    if (anyone_expected()) return;                        // a lobby seat waits for its player
    closed_ = true;
    journal_.closed();  // the code is free once that is written
    step_timer_.cancel();
    auto_start_timer_.cancel();
    --services_.metrics.rooms;
    spdlog::info("room {}: closed (nobody left)", code_);
}

void RoomImpl::abandon_if_nobody_left() {
    if (!table_ && state_ != RoomState::seeding) return close_if_empty();
    // A game is abandoned when no human is left after the reconnect window.
    for (const auto& s : seats_)
        if (s.human() && (s.connected || (s.presence == Presence::away && s.reconnect_timer))) return;
    end_game(GameStatus::abandoned, "no player is left", "nobody_left");
}

void RoomImpl::end_game(GameStatus status, const std::string& why, std::string_view cause) {
    step_timer_.cancel();
    ++epoch_;
    waiting_for_decisions_ = false;
    paused_ = false;
    pause_reason_.reset();
    fault_paused_ = false;
    if (restart_wait_) restart_wait_->cancel();
    restart_wait_.reset();
    GameOver over;
    over.game_id = game_id_;
    over.status = std::string(to_string(status));
    std::shared_ptr<const FinishedGame> finished;
    if (table_) {
        if (status == GameStatus::abandoned) table_->abandon();
        const GameRecord& record = table_->record();
        // The record goes into the history with the journal's transaction that forgets the
        // game (before game_over is sent): a crash before it replays the game to the same end.
        // Its file (--export-records) is written once that transaction is: a file never shows
        // the seed of a game a restart would take up again.
        try {
            finished = std::make_shared<const FinishedGame>(
                FinishedGame{record, game_id_, owner_, record_text(record), now_ms()});
        } catch (const std::exception& e) {
            spdlog::error("room {}: the record of game {} cannot be rendered: {}", code_, game_id_, e.what());
        }
        if (record.options.table) {
            // A table game: its players are the names entered for the table, not the room's seats.
            over.winners = record.result.winners;
            over.places = record.result.places;
            over.names = record.options.table_names;
        }
        // The record counts the game's players; the room's messages name its seats.
        else for (int w : record.result.winners)
            if (w >= 0 && w < static_cast<int>(players_.size())) over.winners.push_back(players_[static_cast<std::size_t>(w)]);
        if (!record.options.table) {
            over.places.assign(seat_span(), 0);
            for (std::size_t p = 0; p < record.result.places.size() && p < players_.size(); ++p)
                over.places[static_cast<std::size_t>(players_[p])] = record.result.places[p];
            // The players' names as they played (a seat may be free or taken by another later).
            over.names.assign(seat_span(), "");
            for (int n : players_) over.names[static_cast<std::size_t>(n)] = seat_ref(n).name;
        }
        over.length = record.result.length;
        over.server_seed = record.server_seed;
        if (finished) over.record = "/records/" + game_id_;
        if (status == GameStatus::finished) ++services_.metrics.games_finished;
        else ++services_.metrics.games_abandoned;
    } else if (publication_) {
        over.server_seed = publication_->seed.hex();  // abandoned before it started
    }
    if (!why.empty()) over.reason = why;
    if (!cause.empty()) over.cause = std::string(cause);
    for (auto& s : seats_) {
        cancel_grace(s);
        s.decision_id.clear();
    }
    journal_.game_over(std::move(finished));
    journal_.changed();
    broadcast(over);
    last_game_ = over;  // the lobby's snapshot keeps it for a page that comes back later
    spdlog::info("room {}: game {} {}{}", code_, game_id_, to_string(status), why.empty() ? "" : " (" + why + ")");
    table_.reset();
    publication_.reset();
    players_.clear();
    table_seeds_.clear();
    table_seed_peers_.clear();
    state_ = RoomState::lobby;
    // Back to the lobby: the seats of players who left, were kicked or are gone are free
    // (nobody stays on as a bot under their name); those who are here keep theirs.
    for (auto& s : seats_) {
        if (!s.taken) continue;
        const bool replaced = s.bot && s.kicked;
        // A player who dropped just now keeps the seat for the rest of the reconnect window.
        const bool gone = s.human() && (s.presence == Presence::left || s.presence == Presence::server ||
                                        (!s.connected && !s.reconnect_timer));
        if (replaced || gone) Seats::free(s);
    }
    if (host_ >= 0 && !seat_ref(host_).taken) host_ = -1;
    pass_host_if_needed();
    broadcast_snapshot();
    close_if_empty();
}

}  // namespace spookludo::server
