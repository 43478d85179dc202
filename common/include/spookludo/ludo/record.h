#pragma once
// A Classic Ludo game played with fair dice, keeping its record (docs/game-record.md): what the
// server runs for a room and what the simulator uses to write records. Also the replay that
// verifies a Ludo record, and the server's move for a player who timed out or is away.
//
// Steps of a Match: construction draws the roll-off; then throw_die() for the seat to throw,
// and choose() when the throw left a real choice (game().phase() == Phase::awaiting_choice).
// A throw with no legal move passes; a throw with exactly one distinct legal move is played by
// the Match itself ("moves with only one possible outcome are not choices"), so a Match only
// ever waits in awaiting_choice with two or more distinct moves to choose from.
#include <vector>

#include "spookludo/fair_dice.h"
#include "spookludo/ludo/game.h"
#include "spookludo/policy.h"
#include "spookludo/record.h"
#include "spookludo/rng.h"
#include "spookludo/verdict.h"
#include "spookludo/verify.h"

namespace spookludo::ludo {

// The move the server makes for a player who did not choose in time or is away: the piece of
// choose_move(PolicyKind::best, game, rng) with a fresh Rng rng(0) for each such decision, so
// that anyone can recompute it. Records name the version of this definition they were played
// with (GameRecord::server_move_version), so that a record stays verifiable when `best` changes:
//   1  BestConfig with learned = false (the heuristic search; servers before the learned value)
//   2  BestConfig with learned_home = false (the learned value of the rule text's game at 4
//      players, n = 6; version 1 elsewhere)
//   3  the default BestConfig (also the home_rules preset's learned value at 4 players; version 2
//      elsewhere)
// Precondition: awaiting_choice. Throws std::invalid_argument for an unknown version.
inline constexpr int kServerMoveVersion = 3;
int server_choice(const Game& game, int version = kServerMoveVersion);

class Match {
public:
    // The commitment was published before the client seeds were sent. Starting the match draws
    // the roll-off (the stream's first draws). The server's moves for its players are
    // server_choice's of `server_move_version` all game long (a game taken up from an older
    // server's journal keeps the version it started with), and the record names it. Throws
    // std::invalid_argument for options that are not Ludo options, a seat list that does not have
    // one entry per player, or an unknown version.
    Match(const GameOptions& options, std::vector<RecordSeat> seats, const ServerSeed& server_seed,
          std::vector<ClientSeed> client_seeds, int server_move_version = kServerMoveVersion);

    const Game& game() const noexcept { return game_; }
    int server_move_version() const noexcept { return version_; }
    // The server's move for the current seat, with this game's version.
    int server_choice() const { return ludo::server_choice(game_, version_); }
    bool over() const noexcept { return game_.phase() == Phase::finished; }
    bool abandoned() const noexcept { return record_.result.status == GameStatus::abandoned; }
    // A real choice is awaited from game().current_seat().
    bool awaiting_choice() const noexcept { return !abandoned() && game_.phase() == Phase::awaiting_choice; }

    // The current seat throws (drawn from the fair stream). A throw without a legal move passes;
    // one with a single distinct move is played at once. Throws std::logic_error when no throw
    // is due (a choice is awaited, the game is over or abandoned).
    Face throw_die();

    // Plays `piece` of `seat` with the current throw and records the choice (step = the throw
    // number). A choice the server makes for the player (timeout, away) must be server_choice's
    // move, otherwise it is rejected. A rejected choice changes nothing.
    Verdict choose(int seat, int piece, ChoiceMaker maker = ChoiceMaker::player);
    // The server chooses for the current seat (timeout or away): choose(seat, server_choice()).
    Verdict choose_for_player(ChoiceMaker maker);

    // The server gives up on the game (shutdown, the host ended it, nobody left): the seed is
    // revealed and the record marked abandoned. No more throws or choices are accepted.
    void abandon();

    // The record so far; the server seed is in it once the game is over or abandoned.
    const GameRecord& record() const noexcept { return record_; }
    // What happened in the last step: the roll-off (after construction), a throw with its pass
    // or forced move, or a chosen move (for broadcasts).
    const EventLog& events() const noexcept { return events_; }

private:
    void throw_played();  // records the position after a throw is played out, and the result
    void finish_record();

    ServerSeed server_seed_;
    FairDice dice_;
    GameRecord record_;
    int version_ = kServerMoveVersion;
    Game game_;
    EventLog events_;
};

// Plays a match to its end, a policy per seat (the simulator's records). A safety net abandons
// it after a million throws.
void play_out(Match& match, const std::vector<PolicyKind>& seats, Rng& policy_rng);

// Replays a Ludo record (after the seed and draws were checked): the roll-off, every throw, every
// choice and position, and the result. Called by spookludo::verify.
bool verify_ludo(const GameRecord& record, VerifyReport& report);

}  // namespace spookludo::ludo
