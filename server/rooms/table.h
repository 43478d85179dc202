#pragma once
// One game in a room, either game, seen as the room drives it: visible steps, the decisions each
// step asks for, and the record. The room adds timing, connections and broadcasting.
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "services.h"
#include "spookludo/protocol/server_messages.h"
#include "spookludo/fair_dice.h"
#include "spookludo/record.h"
#include "spookludo/rng.h"
#include "spookludo/verdict.h"

namespace spookludo::server {

class Table {
public:
    virtual ~Table() = default;
    // The next visible step (Spook: the movement roll, the moves, the activation; Ludo: a throw).
    // Appends the messages to broadcast to `out` (encoded); returns the seats that must now choose.
    virtual std::vector<int> advance(std::vector<std::string>& out) = 0;
    // Every asked seat has chosen: apply the choices (Spook: the moves of the round; Ludo: the
    // chosen move) and append what happened to `out`.
    virtual void resolve(std::vector<std::string>& out) = 0;
    // The options of a seat's decision, with their values when `hints`.
    virtual std::vector<protocol::DecisionOption> decision_options(int seat, bool hints) = 0;
    // `server_bot`: a server-side bot made the choice (its move shows "by": "bot"). The journal
    // keeps it with the choice, so that a replay shows the same.
    virtual Verdict choose(int seat, int piece, ChoiceMaker maker, bool server_bot) = 0;
    // The server's move for a seat (timeout, away): the best move.
    virtual int server_choice(int seat) = 0;
    // Ludo: the version of the server's moves this game plays (ludo/record.h); 0 elsewhere.
    virtual int server_move_version() const { return 0; }
    // A server-side bot's move. Reads the table only: asking again gives the same answer.
    virtual int bot_choice(int seat, PolicyKind policy, Rng& rng) const = 0;
    // The die the next throw or roll will show (a function of the seeds and the draws so far):
    // what a restart must take up again exactly. Tests compare it; it is never sent.
    virtual Face next_die() const = 0;
    virtual int step_number() const = 0;  // round or throw number, for decisions
    virtual bool over() const = 0;
    virtual void abandon() = 0;
    virtual const GameRecord& record() const = 0;
    // The game's part of the room snapshot (arrays by room seat).
    virtual void describe(protocol::RoomSnapshot& snapshot) const = 0;
    // A table game (options.table, table_game.h): the turn passes (Ludo), the host's declared
    // winners end it. Other games have neither: std::logic_error.
    virtual void skip(std::vector<std::string>& out);
    virtual void declare(const std::vector<int>& winners);
};

// One player of the game. The table numbers players 0..n-1 in play order (the engines' and the
// record's numbering); every message it writes names the room's seat, `number`.
struct TableSeat {
    std::string name;
    bool bot = false;
    PolicyKind policy = PolicyKind::best;
    int number = 0;  // the room's seat
};

// The set of boards (Spook) is chosen by the server before the client seeds arrive; it is part
// of what the commitment message publishes.
struct Publication {
    ServerSeed seed;
    std::vector<std::string> boards;  // Spook: board notation
};
Publication publish(const GameOptions& options);

// A table game (options.table) is made from the options' names: `seats` are not read, and
// `seed_by` names whose device sent each client seed. A Ludo game plays the server's moves of
// `ludo_server_move_version` (ludo/record.h; 0: this server's, kServerMoveVersion), the one its
// journal names when it is taken up again.
std::unique_ptr<Table> make_table(const GameOptions& options, const std::vector<TableSeat>& seats,
                                  const Publication& publication, std::vector<ClientSeed> client_seeds,
                                  Services& services, const std::vector<std::string>& seed_by = {},
                                  int ludo_server_move_version = 0);

}  // namespace spookludo::server
