#pragma once
// The games' words in the reader's language (i18n.h), shared by the story (view.cpp) and the
// drawing (render*.cpp): Spook's characters and what they do, Ludo's colours.
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "spookludo/ludo/geometry.h"
#include "spookludo/spook/board.h"

namespace spookludo {
struct VerifyLine;
}

namespace spookludo::client {

// "Werewolf" (the character's name).
std::string character_name(spook::Character c);
// The character named by its protocol id ("werewolf"); the id itself when it is none.
std::string character_name(std::string_view id);
// What the character does to a piece on it: "moves forward 3 squares".
std::string character_action(spook::Character c);
// "green".
std::string colour_name(ludo::Colour c);

}  // namespace spookludo::client

namespace spookludo::client {

// "Ann", "Ann and Ben", "Ann and Ben and Cid" (each " and " worded by the language).
std::string names_text(const std::vector<std::string>& names);
// "Game over! Ann wins after 12 rounds." (Spook: rounds, Ludo: turns; several winners win
// together; nobody: "Nobody wins").
// `team`: Ludo's teams, the winners two partners ("Ann and Cid win as a team after 80 turns.").
std::string game_over_sentence(const std::vector<std::string>& winners, long length, bool spook, bool team = false);
// "The game was abandoned: <the server's reason>." or without a reason.
std::string abandoned_sentence(const std::optional<std::string>& reason);
// A room's state ("lobby", "playing", ...) in words; an unknown state as it is.
std::string state_name(const std::string& state);

}  // namespace spookludo::client

namespace spookludo::client {

// A quick reaction as people see it ("phew", "👍"), by its id (protocol::kReactions); `label`
// when the id is unknown.
std::string reaction_label(std::string_view id, std::string_view label);

}  // namespace spookludo::client

namespace spookludo::client {

// "Haunted Orchard" (a region of a Spook board).
std::string region_name(spook::Region r);

}  // namespace spookludo::client

namespace spookludo::client {

// A line of the verifier's report (verify.h) in the reader's language: its text through the
// catalogue, its places filled, a result's status and a Ludo colour worded too.
std::string verify_words(const VerifyLine& line);

}  // namespace spookludo::client
