#pragma once
// Every die of a game checked by this client itself, from what the server told it during the game
// (docs/fair-dice.md, "Your own client checks"): the commitment seen before the seeds, the client
// seeds and the Spook boards' deal of `game_started`, every die shown (Spook `roll` and
// `activation`, Ludo `roll_off` and `throw`) and the server seed `game_over` reveals. Nothing here
// takes the server's word for a die: each one is recomputed from the seeds (fair_dice.h).
//
// A client that joined late or lost its connection for a while did not see every die nor, maybe,
// the seeds: it checks what it saw and says so, and for the rest it may be given the game's
// record (fetched from the server by the program), which is checked against the commitment and
// against every die seen here before anything of it is used.
//
// Fed every server message in order (observe); no network, no clock.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "spookludo/dice.h"
#include "spookludo/fair_dice.h"

namespace spookludo::client {

// One die this client was shown.
struct SeenDie {
    DrawPurpose purpose = DrawPurpose::movement;  // movement, activation, roll_off or throw_
    int step = 0;  // Spook: the round; Ludo: the throw's number (from 1); roll-off: its throw from 1
    int face = 0;
    // Its draw in the stream (docs/fair-dice.md), when what was seen says it: Spook always; the
    // roll-off's throws and a Ludo throw once the roll-off was seen.
    std::optional<std::uint64_t> counter;
};

// What the check found, for the story, the game-over screen and a program's line.
struct DiceVerdict {
    enum class Kind : unsigned char {
        fair,                 // every die checked agrees with the stream (or no die was thrown)
        unfair,               // a die, the boards' deal or the seeds do not agree
        commitment_mismatch,  // the revealed seed is not the one committed to
        unchecked,            // nothing to check with (no seed revealed, the seeds missed, no record)
    };
    Kind kind = Kind::unchecked;
    std::string game_id;
    int checked = 0;  // dice this client saw and recomputed
    int total = 0;    // the game's dice (from the record when it was needed; else as counted here)
    bool used_record = false;
    std::string text;      // one or two sentences in the reader's language
    std::string headline;  // its first sentence alone, for a screen short of room

    bool fair() const noexcept { return kind == Kind::fair; }
    // "fair", "unfair", "commitment_mismatch", "unchecked".
    std::string_view word() const noexcept;
    // The line for programs, the same in every language: "dice_check <game id> <word> <checked> <total>".
    std::string machine_line() const;
};

class DiceWitness {
public:
    // A game's dice beyond this many are not kept (a game has a few hundred): they count as not
    // seen.
    static constexpr std::size_t kMaxDice = 100000;

    // Every server message, in the order received.
    void observe(const nlohmann::json& message);
    // This client sent `seed` as its client seed for the game being seeded.
    void seed_sent(std::string seed);

    // The game whose end (game_over, or a lobby's last_game) came last; empty before one.
    const std::string& ended_game() const noexcept { return ended_ ? game_id_ : none_; }
    // The record's address on the server ("/records/<id>") of the ended game, when it has one.
    const std::optional<std::string>& record_path() const noexcept { return record_; }
    // Whether the check of the ended game needs its record: this client missed the seeds or some
    // dice (joined late, reconnected) and the game has a record.
    bool needs_record() const;

    // The check of the ended game. `record_text`: the game's record as fetched (nullptr when not
    // fetched); `fetch_problem`: why it could not be, in words.
    DiceVerdict check(const std::string* record_text = nullptr, const std::string& fetch_problem = {}) const;

    // ---- What was seen, for tests ---------------------------------------------------------------
    const std::vector<SeenDie>& dice() const noexcept { return dice_; }
    bool saw_seeds() const noexcept { return saw_start_; }

private:
    void new_game(const std::string& id);
    void add(DrawPurpose purpose, int step, int face, std::optional<std::uint64_t> counter);
    void on_game_over(const nlohmann::json& over);
    bool spook() const noexcept { return game_ == "spook"; }
    int assignment_draws() const noexcept { return spook() && players_ > 1 ? players_ - 1 : 0; }
    bool complete() const;
    std::string missed_reason() const;

    std::string none_;
    std::string game_id_;
    std::string commitment_;
    std::string game_;  // "spook" or "ludo", once known
    bool table_ = false;
    int players_ = 0;  // the game's players (Spook: its boards)
    bool saw_start_ = false;
    std::vector<ClientSeed> seeds_;                // by their seat in the stream (the play order)
    std::vector<int> assignment_;                  // Spook: board of each player in play order, as game_started said
    std::vector<int> play_seats_;                  // room seat of each player, in play order
    std::optional<std::uint64_t> roll_off_draws_;  // Ludo: the roll-off's throws, once seen
    std::vector<SeenDie> dice_;
    std::set<std::tuple<int, int, int>> told_;  // purpose, step and face of every die in dice_
    int missed_ = 0;  // dice beyond kMaxDice
    std::string own_seed_;
    bool own_seed_accepted_ = false;
    bool ended_ = false;
    int length_ = 0;
    std::optional<std::string> server_seed_;
    std::optional<std::string> record_;
};

}  // namespace spookludo::client
