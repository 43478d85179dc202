#pragma once
// The keys the terminal client (`spookludo play`, `spookludo watch`) binds: the one table of
// them, for the README's key tables (a test checks that the two agree) and the help texts.
#include <array>
#include <string_view>

namespace spookludo::client {

enum class KeyWho {
    everyone,  // players and spectators
    player,    // anyone with a seat
    spectator, // someone watching (spookludo watch, or a newcomer after the start)
    host,      // the room's host
};

enum class KeyWhere {
    any,        // whenever the screen is up
    lobby,      // the room's lobby (before a game, and between games)
    game,       // while a game is on
    decision,   // while your choice is asked for
    confirm,    // after E or q, while the screen asks "sure?"
    game_over,  // the game-over screen
};

struct KeyBinding {
    // As the README writes it: one key ("s"), a range ("1-9"), a key and a seat number ("k N"),
    // or a named key ("Enter", "Ctrl-C").
    std::string_view key;
    KeyWho who;
    KeyWhere where;
    std::string_view what;
    // The same binding under another key ("Q" for "q"), or empty.
    std::string_view also = {};
};

inline constexpr std::array kKeyBindings{
    KeyBinding{"1-9", KeyWho::player, KeyWhere::decision, "choose that option (final once the server accepts it)"},
    KeyBinding{"?", KeyWho::everyone, KeyWhere::any, "show or hide hints"},
    KeyBinding{"q", KeyWho::everyone, KeyWhere::any,
               "leave the room (a player in a game is asked first: the server then plays the seat to the end)", "Q"},
    KeyBinding{"Ctrl-C", KeyWho::everyone, KeyWhere::any, "leave at once"},
    KeyBinding{"! N", KeyWho::everyone, KeyWhere::any,
               "send reaction N: 1 thumbs up, 2 laughing, 3 scared, 4 ghost, 5 nooo!, 6 phew, 7 good luck, 8 well "
               "played (one every 2 s; a spectator when the host allows it)"},
    KeyBinding{"m", KeyWho::everyone, KeyWhere::any, "mute or unmute the room's reactions (their story lines)"},
    KeyBinding{"A", KeyWho::player, KeyWhere::any,
               "ask the host for more time to choose (the host sees it; once in 30 s)"},
    KeyBinding{"j", KeyWho::spectator, KeyWhere::lobby,
               "take a free seat, under watch's --name (your login name by default)"},
    KeyBinding{"s", KeyWho::host, KeyWhere::lobby, "start the game with the seats taken"},
    KeyBinding{"b", KeyWho::host, KeyWhere::lobby, "add a server bot (best) to a free seat"},
    KeyBinding{"g", KeyWho::host, KeyWhere::lobby, "add a server bot (greedy) to a free seat"},
    KeyBinding{"r", KeyWho::host, KeyWhere::lobby, "add a server bot (random) to a free seat"},
    KeyBinding{"x N", KeyWho::host, KeyWhere::lobby, "remove seat N (a player removed this way is told so)"},
    KeyBinding{"+", KeyWho::host, KeyWhere::lobby, "one seat more"},
    KeyBinding{"-", KeyWho::host, KeyWhere::lobby, "one seat less (the highest free one)"},
    KeyBinding{"p", KeyWho::host, KeyWhere::lobby, "Spook: pieces 1, 2, 3 in turn"},
    KeyBinding{"a", KeyWho::host, KeyWhere::lobby, "Ludo: arm 8 or 6"},
    KeyBinding{"h", KeyWho::host, KeyWhere::lobby, "hints on or off"},
    KeyBinding{"v", KeyWho::host, KeyWhere::lobby, "spectators may send reactions, on or off"},
    KeyBinding{"t", KeyWho::host, KeyWhere::lobby, "decision time: 10, 20, 30, 60, 120 s in turn"},
    KeyBinding{"w", KeyWho::host, KeyWhere::lobby, "pace, the wait between steps: 0, 0.5, 1, 1.5, 2, 3 s in turn"},
    KeyBinding{"c", KeyWho::host, KeyWhere::lobby,
               "automatic start (bots take the free seats): in 30 s, 1, 2, 5 min, off in turn"},
    KeyBinding{"o", KeyWho::host, KeyWhere::lobby, "play on after the first finisher, on or off"},
    KeyBinding{"d", KeyWho::host, KeyWhere::lobby, "Spook: balanced or random boards"},
    KeyBinding{"e", KeyWho::host, KeyWhere::lobby, "Ludo: a 6 enters 6 squares out (the text) or onto the start square"},
    KeyBinding{"3", KeyWho::host, KeyWhere::lobby, "Ludo: three 6s in a row end the turn, on or off"},
    KeyBinding{"f", KeyWho::host, KeyWhere::lobby,
               "Ludo: the home rules preset (arms of 6, entry onto the start square, safe squares, bonus throws, three "
               "6s end the turn); again: back to the text's rules"},
    KeyBinding{"*", KeyWho::host, KeyWhere::lobby,
               "Ludo house rule: safe squares (no capture on the start squares and the star squares), on or off"},
    KeyBinding{"B", KeyWho::host, KeyWhere::lobby,
               "Ludo house rule: bonus throws (a capture or a piece brought home throws again), on or off"},
    KeyBinding{"C", KeyWho::host, KeyWhere::lobby,
               "Ludo house rule: capture before home (a piece enters its home column once its player has "
               "captured), on or off"},
    KeyBinding{"2", KeyWho::host, KeyWhere::lobby,
               "Ludo house rule: teams, two against two with partners opposite (seats 1+3 and 2+4; sets 4 seats), "
               "on or off"},
    KeyBinding{"T", KeyWho::host, KeyWhere::any,
               "more time to choose: normal, x2, x3, no limit in turn (in a game too: the open decisions at once)"},
    KeyBinding{"P", KeyWho::host, KeyWhere::game, "pause or resume the game (the clock stops)"},
    KeyBinding{"H N", KeyWho::host, KeyWhere::game,
               "hurry seat N: its open decision gets a short limit (the room's decision time, at most 15 s)"},
    KeyBinding{"k N", KeyWho::host, KeyWhere::game, "kick seat N: a best bot plays it from then on"},
    KeyBinding{"E", KeyWho::host, KeyWhere::game,
               "end the game (asks first): it is abandoned, its seed revealed and its record written"},
    KeyBinding{"y", KeyWho::everyone, KeyWhere::confirm, "yes: end the game (after E) or leave (after q)"},
    KeyBinding{"n", KeyWho::everyone, KeyWhere::confirm, "no: carry on"},
    KeyBinding{"Enter", KeyWho::everyone, KeyWhere::game_over, "close the game-over screen (any other key too)"},
};

constexpr std::string_view to_string(KeyWho who) noexcept {
    switch (who) {
        case KeyWho::everyone: return "everyone";
        case KeyWho::player: return "player";
        case KeyWho::spectator: return "spectator";
        case KeyWho::host: return "host";
    }
    return "?";
}

constexpr std::string_view to_string(KeyWhere where) noexcept {
    switch (where) {
        case KeyWhere::any: return "any";
        case KeyWhere::lobby: return "lobby";
        case KeyWhere::game: return "game";
        case KeyWhere::decision: return "decision";
        case KeyWhere::confirm: return "confirm";
        case KeyWhere::game_over: return "game over";
    }
    return "?";
}

}  // namespace spookludo::client
