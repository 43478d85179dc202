#pragma once
// A game at one table (options.table, README, "A game at one table"): paper boards and coins, the
// server's fair dice. Nobody chooses on a screen and no position is ever seen: the game is the
// dice and what the table is told. The server's room and `spookludo verify` run the same code,
// so a record's announcements are checked against the dice word for word.
//   Spook: the movement roll and the activation roll of each round, in turn (the rule sheet's
//          "the host's two rolls a round"); the boards' assignment is drawn at the start.
//   Ludo:  the roll-off (each name throws, the highest starts, ties throw again), then one throw
//          for the player whose turn it is, clockwise (the order of the names); a 6 throws again
//          (the third 6 in a row ends the turn when options.ludo.three_sixes); the host may skip
//          a turn (a pass with no legal move, a capture's consequences: the table's business).
#include <string>
#include <vector>

#include "spookludo/dice.h"
#include "spookludo/options.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

namespace spookludo::in_person {

struct Announcement {
    int step = 0;          // Spook: the round; Ludo: the throw (0: the roll-off)
    std::string kind;      // movement, activation, roll_off, throw, skip, winners
    std::string text;      // what the shared screen says
    int seat = -1;         // Ludo: whose throw or skip; the roll-off's winner (an index of the names)
    int next = -1;         // Ludo: whose throw is next
    Face face = 0;         // the die (movement, activation, throw)
    std::string character; // activation: hat, cat, spook, werewolf, witch
    std::vector<std::pair<int, Face>> roll_off;  // the roll-off's throws, in order: name index, face
    std::vector<int> winners;                    // winners: name indices
};

class Game {
public:
    // Spook draws the boards' assignment (one board per name) from `dice` at once.
    Game(const GameOptions& options, std::vector<std::string> names, Dice& dice);

    // The next die: throws std::logic_error once the winners are declared.
    const Announcement& next();
    // Ludo: the player whose turn it is passes; std::logic_error in Spook or before the roll-off.
    const Announcement& skip();
    // The end: `winners` are distinct name indices, at least one; std::invalid_argument otherwise.
    const Announcement& declare(std::vector<int> winners);

    bool over() const noexcept { return over_; }
    bool spook() const noexcept { return options_.game == GameKind::spook; }
    // The dice announced so far (the roll-off counts one): the game's length.
    int steps() const noexcept { return steps_; }
    int round() const noexcept { return steps_ / 2 + 1; }  // Spook: the round of the next roll
    int turn() const noexcept { return turn_; }            // Ludo: whose throw is next, -1 before the roll-off
    int throws() const noexcept { return throws_; }        // Ludo: throws after the roll-off
    // What `next` throws: movement, activation, roll_off or throw; "" when over.
    std::string next_kind() const;
    const std::vector<int>& assignment() const noexcept { return assignment_; }
    const std::vector<std::string>& names() const noexcept { return names_; }
    const std::vector<Announcement>& announcements() const noexcept { return said_; }

private:
    const Announcement& say(Announcement a);

    GameOptions options_;
    std::vector<std::string> names_;
    Dice& dice_;
    std::vector<int> assignment_;
    std::vector<Announcement> said_;
    int steps_ = 0;
    int turn_ = -1;
    int throws_ = 0;
    int sixes_ = 0;
    bool over_ = false;
};

// "Ann", "Ann and Ben", "Ann, Ben and Cid".
std::string list_names(const std::vector<std::string>& names, const std::vector<int>& which);

// Verifies a table game's record after its seed and draws (verify_seed_and_draws): replays the
// announcements through Game with the recorded draws (each text must be the one the dice give),
// the assignment (Spook), every draw used, and the declared result. Adds to `report`.
bool verify_table(const GameRecord& record, VerifyReport& report);

}  // namespace spookludo::in_person
