#pragma once
// A Spook & Werewolf game played with fair dice, keeping its record: what the server runs for a
// room, and what the simulator uses to write records. Also the replay that verifies a record.
#include <memory>
#include <vector>

#include "spookludo/fair_dice.h"
#include "spookludo/record.h"
#include "spookludo/spook/game.h"
#include "spookludo/spook/solver.h"
#include "spookludo/verify.h"

namespace spookludo::spook {

class Match {
public:
    // The set of boards and the commitment were published before the client seeds were sent.
    // Starting the match draws the assignment of boards to seats (the stream's first draws).
    Match(const GameOptions& options, std::vector<RecordSeat> seats, std::vector<Board> published,
          const ServerSeed& server_seed, std::vector<ClientSeed> client_seeds);
    Match(const GameOptions& options, std::vector<RecordSeat> seats, std::vector<SharedBoard> published,
          const ServerSeed& server_seed, std::vector<ClientSeed> client_seeds);

    const Game& game() const noexcept { return game_; }
    bool over() const noexcept { return game_.over(); }

    // The movement roll (drawn from the fair stream) and the activation, as the round needs them.
    Face roll_movement();
    Verdict choose(int seat, int piece, ChoiceMaker maker = ChoiceMaker::player);
    Verdict apply_moves();
    Face activate();

    // The server gives up on the game (shutdown, the host ended it, nobody left): the seed is
    // revealed and the record marked abandoned.
    void abandon();

    // The record so far; the server seed is in it once the game is over or abandoned.
    const GameRecord& record() const noexcept { return record_; }

private:
    void finish_record();

    ServerSeed server_seed_;
    FairDice dice_;
    GameRecord record_;
    Game game_;
};

// Each seat's squares, pieces separated by commas and seats by spaces: "5,1 40,12".
std::string position_text(const Game& game);

// Replays a Spook record (after the seed and draws were checked): boards, assignment, every
// round's rolls, choices and positions, and the result. Called by spookludo::verify.
bool verify_spook(const GameRecord& record, VerifyReport& report);

// How a recorded choice was made, as the game's rules take it (a record's maker: player, timeout, away).
ChoiceSource source_of(ChoiceMaker maker) noexcept;

}  // namespace spookludo::spook
