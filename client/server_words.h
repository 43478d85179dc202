#pragma once
// The words for what the server reports by code (PROTOCOL.md, "Words and languages"): a
// notice's `kind`, a game event's `kind` (and a table game's announcements), an error's `code`,
// each with its parameters, in the reader's language (i18n.h). The server's English
// `text`/`message` is shown only for a code this client does not know.
#include <functional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace spookludo::client {

// A notice (`{"type":"notice","kind":...}`): one line of the room's story.
std::string notice_text(const nlohmann::json& notice);

// A whole game message (`type` roll, activation, roll_off, throw, turn_skipped, moves,
// decision_timeout, game_over) or one of a Ludo message's `events` (`kind`). `name` names a
// room seat (without it, the colour says who).
std::string event_text(const nlohmann::json& event, const std::function<std::string(int)>& name = {});

// What the reader's view adds to an error's words.
struct ErrorContext {
    bool host = false;      // the reader is the room's host
    std::string game = {};  // "spook", "ludo" or "" (not known)
};
// An error (`{"type":"error","code":...,"args":{...}}`).
std::string error_text(const nlohmann::json& error, const ErrorContext& context = {});

// An abandoned game's line, from its game_over's `cause` (else its English `reason`).
std::string abandoned_text(const nlohmann::json& game_over);

// A Ludo colour (green, yellow, red, blue) in the reader's language.
std::string colour_text(const std::string& colour);

}  // namespace spookludo::client
