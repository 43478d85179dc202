#include "server_words.h"

#include <nlohmann/json.hpp>

#include "i18n.h"

namespace spookludo::client {
namespace {

using nlohmann::json;

std::string str(const json& j, const char* key, const std::string& otherwise = {}) {
    if (!j.is_object()) return otherwise;
    const auto it = j.find(key);
    if (it == j.end()) return otherwise;
    if (it->is_string()) return it->get<std::string>();
    if (it->is_number_integer()) return std::to_string(it->get<long long>());
    return otherwise;
}

long num(const json& j, const char* key, long otherwise = 0) {
    if (!j.is_object()) return otherwise;
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? static_cast<long>(it->get<long long>()) : otherwise;
}

bool has(const json& j, const char* key) { return j.is_object() && j.contains(key) && !j.at(key).is_null(); }

bool flag(const json& j, const char* key) {
    if (!j.is_object()) return false;
    const auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

// A wire seat (from 0) as people count it (from 1).
std::string seat_no(const json& j, const char* key = "seat") {
    return has(j, key) && j.at(key).is_number_integer() ? std::to_string(num(j, key) + 1) : std::string("?");
}

std::string fallback(const std::string& english) { return tr("The server said: {message}", {{"message", english}}); }

std::string policy_text(const std::string& policy) {
    if (policy == "random") return trc("bot policy", "random");
    if (policy == "greedy") return trc("bot policy", "greedy");
    if (policy == "best") return trc("bot policy", "best");
    return policy;
}

struct CharacterWords {
    std::string name, action;
};
CharacterWords character_text(const std::string& c) {
    if (c == "hat") return {tr("Wizard's Hat"), tr("moves forward 3 squares")};
    if (c == "cat") return {tr("Black Cat"), tr("moves back 6 squares")};
    if (c == "spook") return {tr("Spook"), tr("goes back to the entrance of its region")};
    if (c == "werewolf") return {tr("Werewolf"), tr("goes back to the entrance of its region")};
    if (c == "witch") return {tr("Witch"), tr("goes back to square 1")};
    return {c, ""};
}

std::string seed_by_text(const std::string& by) {
    if (by == "host's page") return tr("host's page");
    if (by == "a phone at the table") return tr("a phone at the table");
    return by;
}

std::string roll_text(long round, long face) {
    return trn("Round {round}: roll {n}. Everyone moves one piece {n} square.",
               "Round {round}: roll {n}. Everyone moves one piece {n} squares.", face, {{"round", std::to_string(round)}});
}

std::string activation_text(long round, long face, const std::string& character) {
    const auto c = character_text(character);
    return tr("Round {round}: activation {face}. The {character} wakes: every piece on its squares {action}.",
              {{"round", std::to_string(round)}, {"face", std::to_string(face)}, {"character", c.name}, {"action", c.action}});
}

std::string throw_text(long turn, const std::string& name, long face, const std::string& next, bool again) {
    const std::string t = std::to_string(turn), f = std::to_string(face);
    if (face == 6 && again)
        return tr("Throw {turn}: {name} throws {face}. {name} throws again.", {{"turn", t}, {"name", name}, {"face", f}});
    if (face == 6)
        return tr("Throw {turn}: {name} throws {face}. The third 6 in a row: it is not played and the turn ends. Next: {next}.",
                  {{"turn", t}, {"name", name}, {"face", f}, {"next", next}});
    return tr("Throw {turn}: {name} throws {face}. Next: {next}.", {{"turn", t}, {"name", name}, {"face", f}, {"next", next}});
}

std::string name_problem_text(const json& a) {
    const std::string reason = str(a, "reason"), c = str(a, "char");
    if (reason == "not_utf8") return tr("That name is not valid text.");
    if (reason == "empty") return tr("Enter a name.");
    if (reason == "only_spaces") return tr("A name needs more than spaces.");
    if (reason == "control") return tr("That name contains a control character ({char}).", {{"char", c}});
    if (reason == "invisible")
        return tr("That name contains an invisible character ({char}) that could make it look like another name.", {{"char", c}});
    if (reason == "blank") return tr("That name contains a character that shows as nothing ({char}).", {{"char", c}});
    if (reason == "other_space") return tr("That name contains a space other than the plain space ({char}).", {{"char", c}});
    if (reason == "edge_space") return tr("A name cannot start or end with a space.");
    if (reason == "double_space") return tr("A name cannot have two spaces in a row.");
    if (reason == "too_long")
        return trn("That name is {length} characters long: at most {n} character.",
                   "That name is {length} characters long: at most {n} characters.", num(a, "max", 24),
                   {{"length", str(a, "length")}});
    if (reason == "bot_form") return tr("That name has the form of the names the server gives its bots (\"<policy> bot <n>\").");
    return tr("That name cannot be used.");
}

std::string wrong_state_text(const json& a) {
    const std::string r = str(a, "reason");
    if (r == "lobby_only") return tr("That can be done in the lobby only, before a game.");
    if (r == "game_on") return tr("A game is already on.");
    if (r == "nothing_to_pause") return tr("There is nothing to pause.");
    if (r == "not_paused") return tr("The game is not paused.");
    if (r == "no_game") return tr("There is no game to end.");
    if (r == "seed_window_closed") return tr("The seed window closed with the host's first \"next\".");
    if (r == "not_seeding") return tr("Client seeds are sent after the commitment, before the game.");
    if (r == "seed_in") return tr("Your client seed is already in.");
    if (r == "seeds_full") return tr("The table has {max} client seeds already: that is the most.", {{"max", str(a, "max")}});
    if (r == "table_game") return tr("This is a table game: the players sit at the table; watch it instead.");
    if (r == "not_table") return tr("This room is not a table game.");
    if (r == "no_table_game") return tr("No table game is on: start one first.");
    if (r == "not_started") return tr("The game has not started: \"next\" starts it.");
    if (r == "game_over") return tr("The game is over.");
    if (r == "dice_max") return tr("This game has had {max} dice, the most a table game has: end it.", {{"max", str(a, "max")}});
    if (r == "no_turns") return tr("Turns are skipped in Ludo only.");
    if (r == "table_seats_taken")
        return trn("A table game's players sit at the table: {n} other seat is taken in the room (remove it first).",
                   "A table game's players sit at the table: {n} other seats are taken in the room (remove them first).",
                   num(a, "taken"));
    if (r == "no_table_names") return tr("Enter the table's names first.");
    if (r == "cannot_start") return tr("The game cannot start: {detail}", {{"detail", str(a, "detail")}});
    if (r == "waiting") return tr("Wait for the answer to your last message.");
    if (r == "not_for_room") return tr("That message is not for a room.");
    return tr("That is not possible now.");
}

}  // namespace

std::string colour_text(const std::string& colour) {
    if (colour == "green") return trc("colour", "green");
    if (colour == "yellow") return trc("colour", "yellow");
    if (colour == "red") return trc("colour", "red");
    if (colour == "blue") return trc("colour", "blue");
    return colour.empty() ? std::string("?") : colour;
}

std::string notice_text(const json& m) {
    const std::string kind = str(m, "kind"), name = str(m, "name"), seat = seat_no(m), reason = str(m, "reason");
    if (kind == "joined")
        return flag(m, "host") ? tr("{name} sits at seat {seat} (the host)", {{"name", name}, {"seat", seat}})
                               : tr("{name} sits at seat {seat}", {{"name", name}, {"seat", seat}});
    if (kind == "left")
        return str(m, "then") == "free" ? tr("{name} left seat {seat}: it is free", {{"name", name}, {"seat", seat}})
                                        : tr("{name} left: the server plays seat {seat}", {{"name", name}, {"seat", seat}});
    if (kind == "away")
        return flag(m, "in_game")
                   ? tr("{name} lost the connection: seat {seat} waits for them (the server moves for them meanwhile)",
                        {{"name", name}, {"seat", seat}})
                   : tr("{name} lost the connection: seat {seat} waits for them", {{"name", name}, {"seat", seat}});
    if (kind == "back") return tr("{name} is back at seat {seat}", {{"name", name}, {"seat", seat}});
    if (kind == "server_plays")
        return tr("{name} did not come back: the server plays seat {seat} (their token still takes it back)",
                  {{"name", name}, {"seat", seat}});
    if (kind == "kicked")
        return str(m, "then") == "free"
                   ? tr("{name} was kicked by the host: seat {seat} is free", {{"name", name}, {"seat", seat}})
                   : tr("{name} (seat {seat}) was kicked: a {policy} bot plays it",
                        {{"name", name}, {"seat", seat}, {"policy", policy_text(str(m, "policy", "best"))}});
    if (kind == "removed")
        return reason == "not_back" ? tr("{name} did not come back: seat {seat} is free", {{"name", name}, {"seat", seat}})
                                    : tr("the host emptied seat {seat} ({name})", {{"name", name}, {"seat", seat}});
    if (kind == "host") {
        if (reason == "left") return tr("{name} is the host now ({former} left)", {{"name", name}, {"former", str(m, "former")}});
        if (reason == "not_back")
            return tr("{name} is the host now ({former} did not come back)", {{"name", name}, {"former", str(m, "former")}});
        return tr("{name} is the host now", {{"name", name}});
    }
    if (kind == "paused") {
        if (reason == "restart")
            return trn("the server restarted: the game waits for its players to come back (at most {n} second; the host may resume it)",
                       "the server restarted: the game waits for its players to come back (at most {n} s; the host may resume it)",
                       num(m, "wait_s"));
        return tr("{name} paused the game", {{"name", name}});
    }
    if (kind == "resumed") {
        if (reason == "everyone_back") return tr("everyone is back: the game goes on");
        if (reason == "restart") return tr("the server restarted: the game goes on");
        if (reason == "restart_seeds") return tr("the server restarted: the seeds that were in are kept");
        if (reason == "wait_over") return tr("the wait for the players is over: the game goes on");
        if (reason == "journal" || name.empty()) return tr("the game goes on");
        return tr("{name} resumed the game", {{"name", name}});
    }
    if (kind == "bot_added") return tr("a {policy} bot takes seat {seat}", {{"policy", policy_text(str(m, "policy"))}, {"seat", seat}});
    if (kind == "seat_added") return tr("{by} added seat {seat}", {{"by", str(m, "by")}, {"seat", seat}});
    if (kind == "seat_removed") return tr("{by} removed seat {seat}", {{"by", str(m, "by")}, {"seat", seat}});
    if (kind == "auto_start") {
        if (flag(m, "failed")) {
            json e{{"code", str(m, "code")}, {"args", m.value("args", json::object())}};
            return tr("the game could not start: {why}", {{"why", error_text(e)}});
        }
        const long bots = num(m, "bots");
        if (bots == 0) return tr("time is up: the game starts");
        return trn("time is up: {n} bot takes the free seats, and the game starts",
                   "time is up: {n} bots take the free seats, and the game starts", bots);
    }
    if (kind == "journal") {
        if (str(m, "state") == "failing")
            return tr("The server cannot save this room right now ({cause}): the game is paused and goes on by itself when saving works again. Nothing is lost.",
                      {{"cause", str(m, "cause")}});
        return flag(m, "paused") ? tr("The server can save this room again.") : tr("The server can save this room again: it goes on.");
    }
    if (kind == "seed") return tr("a client seed from {by} is in", {{"by", seed_by_text(str(m, "by"))}});
    if (kind == "table")
        return str(m, "pace") == "auto"
                   ? trn("the seeds are in ({n}): the dice come by themselves", "the seeds are in ({n}): the dice come by themselves",
                         num(m, "seeds"))
                   : trn("the seeds are in ({n}): the host throws with \"next\"", "the seeds are in ({n}): the host throws with \"next\"",
                         num(m, "seeds"));
    if (kind == "time_factor") {  // "More time" (PROTOCOL.md)
        const long factor = num(m, "factor");
        if (factor == 0) return tr("{name} lifted the time limit: take your time", {{"name", name}});
        if (factor == 1) return tr("{name} set the normal time to choose", {{"name", name}});
        return tr("{name} gave everyone more time to choose: x{factor}", {{"name", name}, {"factor", std::to_string(factor)}});
    }
    if (kind == "hurry")
        return tr("the host hurries {name}: {seconds} s left to choose",
                  {{"name", name}, {"seconds", std::to_string((num(m, "time_ms") + 999) / 1000)}});
    if (kind == "ask_time") return tr("{name} asks for more time to choose", {{"name", name}});
    return fallback(str(m, "text", kind));
}

std::string abandoned_text(const json& over) {
    const std::string cause = str(over, "cause");
    if (cause == "host") return tr("The game was abandoned: the host ended the game.");
    if (cause == "nobody_left") return tr("The game was abandoned: no player is left.");
    if (cause == "shutdown") return tr("The game was abandoned: the server is shutting down.");
    if (cause == "could_not_start") return tr("The game was abandoned: the game could not start.");
    if (cause == "internal_error") return tr("The game was abandoned: an internal error.");
    const std::string reason = str(over, "reason");
    return reason.empty() ? tr("The game was abandoned.") : tr("The game was abandoned: {reason}.", {{"reason", reason}});
}

std::string event_text(const json& e, const std::function<std::string(int)>& name) {
    const auto named = [&](const json& j, const char* seat_key = "seat", const std::string& colour = {}) {
        const std::string c = colour.empty() ? std::string() : colour_text(colour);
        std::string n;
        if (name && has(j, seat_key) && num(j, seat_key, -1) >= 0) n = name(static_cast<int>(num(j, seat_key)));
        if (!n.empty() && !c.empty()) return tr("{name} ({colour})", {{"name", n}, {"colour", c}});
        if (!n.empty()) return n;
        if (!c.empty()) return c;
        return tr("seat {seat}", {{"seat", seat_no(j, seat_key)}});
    };
    const std::string type = str(e, "type");
    if (type == "roll") return roll_text(num(e, "round"), num(e, "face"));
    if (type == "activation") return activation_text(num(e, "round"), num(e, "face"), str(e, "character"));
    if (type == "roll_off") {
        if (flag(e, "table")) {
            const json names = e.value("names", json::array());
            const auto who = [&](long i) {
                if (names.is_array() && i >= 0 && static_cast<std::size_t>(i) < names.size() && names[static_cast<std::size_t>(i)].is_string())
                    return names[static_cast<std::size_t>(i)].get<std::string>();
                return tr("seat {seat}", {{"seat", std::to_string(i + 1)}});
            };
            std::string throws;
            for (const auto& x : e.value("events", json::array()))
                if (str(x, "kind") == "roll_off_throw")
                    throws += (throws.empty() ? "" : ", ") +
                              tr("{name} {face}", {{"name", who(num(x, "seat"))}, {"face", str(x, "face")}});
            return tr("Roll-off: {throws}. {name} starts.", {{"throws", throws}, {"name", who(num(e, "starts"))}});
        }
        return tr("{name} starts.", {{"name", named(e, "starts")}});
    }
    if (type == "throw") {
        if (flag(e, "table"))
            return throw_text(num(e, "turn"), str(e, "name"), num(e, "face"), str(e, "next_name"), num(e, "next", -1) == num(e, "seat"));
        return tr("{name} throws {face}", {{"name", named(e)}, {"face", str(e, "face")}});
    }
    if (type == "turn_skipped")
        return tr("{name}'s turn is skipped. Next: {next}.", {{"name", str(e, "name")}, {"next", str(e, "next_name")}});
    if (type == "moves") {
        std::string out;
        for (const auto& x : e.value("moves", json::array())) {
            const std::string line = flag(x, "stays") || !has(x, "piece")
                                         ? tr("{name} cannot move and stays put.", {{"name", named(x)}})
                                         : tr("{name} moves piece {piece} from square {from} to {to}.",
                                              {{"name", named(x)}, {"piece", str(x, "piece")}, {"from", str(x, "from")}, {"to", str(x, "to")}});
            out += (out.empty() ? "" : " ") + line;
        }
        return out;
    }
    if (type == "decision_timeout") return tr("Time's up! The server makes the best move for you.");
    if (type == "game_over") return str(e, "status") == "finished" ? tr("Game over!") : abandoned_text(e);

    const std::string kind = str(e, "kind"), who = named(e, "seat", str(e, "colour"));
    const std::string piece = str(e, "piece"), face = str(e, "face");
    if (kind == "roll_off_throw") return tr("{name} throws {face} in the roll-off", {{"name", who}, {"face", face}});
    if (kind == "starts") return tr("{name} starts", {{"name", who}});
    if (kind == "throw") return tr("turn {turn}: {name} throws {face}", {{"turn", str(e, "turn", "?")}, {"name", who}, {"face", face}});
    if (kind == "pass") return tr("{name} cannot move; play passes on", {{"name", who}});
    if (kind == "three_sixes") return tr("{name} threw a third 6 in a row; it is not played", {{"name", who}});
    if (kind == "entered") return tr("{name} brings piece {piece} out to {to}", {{"name", who}, {"piece", piece}, {"to", str(e, "to")}});
    if (kind == "moved")
        return tr("{name} moves piece {piece} from {from} to {to}",
                  {{"name", who}, {"piece", piece}, {"from", str(e, "from")}, {"to", str(e, "to")}});
    if (kind == "captured")
        return tr("{name} piece {piece} is captured on circuit square {square} and goes back to its yard",
                  {{"name", who}, {"piece", piece}, {"square", str(e, "square")}});
    if (kind == "reached_home") return tr("{name} piece {piece} reaches home", {{"name", who}, {"piece", piece}});
    if (kind == "finished") return tr("{name} has all four pieces home", {{"name", who}});
    if (kind == "extra_throw" && str(e, "reason") == "capture")
        return tr("{name} throws again: a bonus throw for the capture", {{"name", who}});
    if (kind == "extra_throw" && str(e, "reason") == "home")
        return tr("{name} throws again: a bonus throw for the piece home", {{"name", who}});
    if (kind == "extra_throw") return tr("{name} throws again", {{"name", who}});
    if (kind == "safe_square")
        return tr("{name} piece {piece} lands beside {other} on safe square {square}: no capture",
                  {{"name", who}, {"piece", piece}, {"other", named(e, "with")}, {"square", str(e, "square")}});
    if (kind == "circles")
        return tr("{name} piece {piece} has not captured yet: it goes round again", {{"name", who}, {"piece", piece}});
    if (kind == "team_finished")
        return tr("{name} and {other} win as a team", {{"name", who}, {"other", named(e, "with")}});
    if (kind == "turn") return tr("{name} to throw", {{"name", who}});
    if (kind == "game_over") return tr("game over");
    return fallback(str(e, "text", kind));
}

std::string error_text(const json& e, const ErrorContext& ctx) {
    const std::string code = str(e, "code");
    const json a = e.is_object() && e.contains("args") && e.at("args").is_object() ? e.at("args") : json::object();
    const std::string reason = str(a, "reason");
    const auto seat = [&] { return seat_no(a); };
    if (code == "bad_json") return tr("The server could not read that message.");
    if (code == "unknown_type") return tr("The server does not know that message ({type}).", {{"type", str(a, "type")}});
    if (code == "bad_field") {
        if (reason == "seats_taken")
            return trn("{n} seat is taken: the room needs at least that many.", "{n} seats are taken: the room needs at least that many.",
                       num(a, "taken"));
        // A server before the args said the field in its message only.
        const bool players = str(a, "field") == "options.players" ||
                             (!has(a, "field") && str(e, "ref") == "set_options" && str(e, "message").find("players") != std::string::npos);
        if (players && !ctx.game.empty())
            return ctx.game == "ludo" ? tr("Ludo takes 2 to 4 players.") : tr("Spook & Werewolf takes 1 to 8 players.");
        if (reason == "not_at_table")
            return tr("{name} is not a name at this table ({names}).", {{"name", str(a, "name")}, {"names", str(a, "names")}});
        if (reason == "twice") return tr("{name} is named twice.", {{"name", str(a, "name")}});
        if (reason == "free") return tr("Seat {seat} is free already.", {{"seat", seat()}});
        if (reason == "host") return tr("Seat {seat} is the host's own seat.", {{"seat", seat()}});
        if (reason == "no_seat") return tr("Seat {seat} is not a seat of this room.", {{"seat", seat()}});
        if (reason == "bot") return tr("Seat {seat} is a bot: remove it in the lobby.", {{"seat", seat()}});
        if (reason == "no_player") return tr("Seat {seat} is not a player you can kick.", {{"seat", seat()}});
        if (has(a, "field")) return tr("The server refused the value of {field}.", {{"field", str(a, "field")}});
        return tr("The server refused a value in that message.");
    }
    if (code == "version_mismatch" && !(has(a, "client") && has(a, "server")))
        return str(e, "message");  // a server of another version, whose args may differ: its own words
    if (code == "version_mismatch")
        return tr("This client speaks protocol {client} and the server {server}: update the client.",
                  {{"client", str(a, "client")}, {"server", str(a, "server")}});
    if (code == "hello_first") return tr("The connection was not set up: try again.");
    if (code == "too_large") return tr("That message is too long for the server.");
    if (code == "binary_frame") return tr("The server takes text messages only.");
    if (code == "bad_reaction") return tr("That reaction is not one of the set.");
    if (code == "rate_limited") {
        const std::string limit = str(a, "limit");
        if (limit == "reaction_sender") return tr("One reaction every 2 seconds: try again in a moment.");
        if (limit == "reaction_room") return tr("This room has had its reactions for now: try again in a moment.");
        if (limit == "board_solves")
            return trn("Games with random boards are limited for now: try again in {n} second, or play on balanced boards.",
                       "Games with random boards are limited for now: try again in {n} seconds, or play on balanced boards.",
                       num(a, "retry_after_s"));
        return tr("Too many messages: slow down a little.");
    }
    if (code == "room_not_found") {
        if (reason == "closed") return tr("The room is closed.");
        return tr("There is no room {room} on this server (check the code; a room closes when everyone has left).",
                  {{"room", str(a, "room")}});
    }
    if (code == "room_lost")
        return has(a, "record")
                   ? tr("Room {room} was lost when the server restarted; its game's record up to its last checked step is kept at {record}. Sorry: a new room is needed to play on.",
                        {{"room", str(a, "room")}, {"record", str(a, "record")}})
                   : tr("Room {room} was lost when the server restarted. Sorry: a new room is needed to play on.", {{"room", str(a, "room")}});
    if (code == "room_full") {
        if (reason == "spectators") return tr("The room has its maximum of spectators.");
        return ctx.host ? tr("The room is full: press + for another seat.") : tr("The room is full.");
    }
    if (code == "server_full") {
        const std::string limit = str(a, "limit");
        if (limit == "rooms_per_address")
            return tr("Your address holds {holds} open rooms on this server, and one address may hold at most {max}: a room stays open until everyone has left it.",
                      {{"holds", str(a, "holds")}, {"max", str(a, "max")}});
        if (limit == "shutting_down") return tr("The server is shutting down.");
        return tr("The server is full: try again later.");
    }
    if (code == "name_taken") return tr("The name {name} is taken in this room.", {{"name", str(a, "name")}});
    if (code == "bad_name")
        return has(a, "name") ? tr("The name {name} is refused: {why}", {{"name", str(a, "name")}, {"why", name_problem_text(a)}})
                              : name_problem_text(a);
    if (code == "bad_token") return tr("That seat cannot be taken back (its player left or was removed, or the game is over).");
    if (code == "not_in_room") return tr("Create or join a room first.");
    if (code == "not_host") return tr("Only the host can do that.");
    if (code == "not_a_player") {
        if (reason == "react") return tr("Spectators may not send reactions in this room: the host can allow it.");
        if (reason == "choose") return tr("Spectators cannot choose.");
        return tr("Only seated players can do that.");
    }
    if (code == "wrong_state") return wrong_state_text(a);
    if (code == "stale_decision") return tr("That decision is over.");
    if (code == "paused")
        return reason == "choose" || str(e, "ref") == "choose" ? tr("The game is paused: choose when it resumes (your time is kept).")
                                                                : tr("The game is paused: resume it first.");
    if (code == "unavailable") {
        if (reason == "cluster_store") return tr("The server cannot do that right now: try again in a moment.");
        if (reason == "room_moving") return tr("The room is moving to another server: try again in a few seconds.");
        return tr("The server cannot save the game right now: it is paused and goes on by itself when it can ({cause}).",
                  {{"cause", str(a, "cause")}});
    }
    if (code == "illegal_choice") {
        const std::string piece = str(a, "piece"), face = str(a, "face"), needed = str(a, "needed"), square = str(a, "square");
        if (reason == "exact_throw")
            return has(a, "square")
                       ? tr("Piece {piece} on square {square} cannot move {face}: the church needs an exact throw of {needed}.",
                            {{"piece", piece}, {"square", square}, {"face", face}, {"needed", needed}})
                       : tr("Piece {piece} needs exactly {needed} to reach home (the throw is {face}).",
                            {{"piece", piece}, {"face", face}, {"needed", needed}});
        if (reason == "needs_six")
            return tr("Piece {piece} is in the yard: only a 6 brings it out (the throw is {face}).", {{"piece", piece}, {"face", face}});
        if (reason == "home_already") return tr("Piece {piece} is home already.", {{"piece", piece}});
        if (reason == "entry_blocked")
            return tr("Piece {piece} cannot come out: a block stands on square {square}.", {{"piece", piece}, {"square", square}});
        if (reason == "path_blocked")
            return tr("Piece {piece} cannot pass or land on the block on square {square}.", {{"piece", piece}, {"square", square}});
        if (reason == "no_piece") return tr("There is no piece {piece}.", {{"piece", piece}});
        return tr("The rules do not allow that move.");
    }
    if (code == "already_in_room") {
        if (reason == "watching") return tr("You are watching this room: a seat can be taken in the lobby, when the game is over.");
        if (reason == "other_room") return tr("You are in room {room}: leave it first.", {{"room", str(a, "room")}});
        return tr("You are already in this room.");
    }
    if (code == "internal_error") return tr("The server could not handle that message.");
    return fallback(str(e, "message", code.empty() ? std::string("?") : code));
}

}  // namespace spookludo::client
