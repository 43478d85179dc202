// `spookludo play` and `spookludo watch`: the subcommands and their options, and the keys: what
// each does in the lobby (the host's settings), in a game, and as the answer to the question on
// the status line. The rest of PlayUi is in play_ui.h.
#include "play_command.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "i18n.h"
#include "play_ui.h"

namespace spookludo::cli {

using client::tr;

namespace {

// The step after `now` in a cycle of choices (`after_last` past the last one).
template <std::size_t N>
int next_step(const int (&steps)[N], int now, int after_last) {
    for (const int s : steps)
        if (s > now) return s;
    return after_last;
}

// Ludo's house rules in the lobby: f the home rules preset (again: back to the text's rules),
// * safe squares, B bonus throws, C capture before home, 2 teams. Changes `options`, or says why
// not.
std::optional<std::string> toggle_house_rule(GameOptions& options, char key) {
    auto& l = options.ludo;
    switch (key) {
        case 'f': {
            // The preset as it is, teams and capture before home aside (they may be added to it).
            LudoOptions without = l;
            without.teams = without.capture_to_home = false;
            if (without == home_rules()) {
                l = LudoOptions{};
            } else {
                const bool teams = l.teams, capture = l.capture_to_home;
                l = home_rules();
                l.teams = teams;
                l.capture_to_home = capture;
            }
            break;
        }
        case '*': l.safe_squares = !l.safe_squares; break;
        case 'B': l.bonus_throws = !l.bonus_throws; break;
        case 'C': l.capture_to_home = !l.capture_to_home; break;
        case '2':
            l.teams = !l.teams;
            if (l.teams) {
                // Two against two: four seats, and no playing on (the game ends with a team home).
                options.players = 4;
                options.play_on = false;
            }
            break;
        default: break;
    }
    if (options.table && (l.safe_squares || l.bonus_throws || l.capture_to_home || l.teams))
        return tr("A game at a table keeps only the three 6s rule: the server cannot see captures, safe squares or teams on a paper board.");
    return std::nullopt;
}

// What a house rule's key does, said in a Spook lobby.
std::string spook_house_rule_message(char key) {
    switch (key) {
        case 'f': return tr("f sets Ludo's home rules (arms of 6, entry onto the start square, safe squares, bonus throws, three 6s); Spook has none.");
        case '*': return tr("* sets Ludo's safe squares (no capture on the start and star squares); Spook has none.");
        case 'B': return tr("B sets Ludo's bonus throws (a capture or a piece home throws again); Spook has none.");
        case 'C': return tr("C sets Ludo's capture before home (a piece enters its home column once its player has captured); Spook has none.");
        default: return tr("2 sets Ludo's teams (two against two, partners opposite); Spook has none.");
    }
}

// Enter, and a space: what a pipe's lines end with, nothing to do.
bool blank(char c) { return c == '\n' || c == '\r' || c == ' '; }

int run_ui(const PlayArgs& args, const char* command) {
    try {
        PlayUi ui(args);
        return ui.run();
    } catch (const std::invalid_argument& e) {
        std::cerr << "spookludo " << command << ": " << e.what() << "\n";
        return 2;
    }
}

}  // namespace

// ---- Keys ---------------------------------------------------------------------------------

void PlayUi::on_keys(std::string_view bytes) {
    for (const char key : bytes) {
        const std::string before = message_;
        on_key(key);
        // Without a terminal there is no status line: what a key has to say is printed once.
        if (!term_.interactive() && !message_.empty() && message_ != before) term_.write(message_ + "\n");
    }
    redraw();
}

// A question of the status line waits for its answer (the next key).
bool PlayUi::asking() const {
    return confirm_end_ || confirm_quit_ || pending_kick_ || pending_remove_ || pending_react_ || pending_hurry_;
}

namespace {
// "1 👍  2 😂 ... 8 well played": the reactions as ! N numbers them (protocol::kReactions' order).
std::string reaction_menu() {
    std::string out;
    int n = 0;
    for (const auto& r : protocol::kReactions) {
        if (n > 0) out += "  ";
        out += std::to_string(++n) + " " + client::reaction_label(r.id, r.label);
    }
    return out;
}
}  // namespace

void PlayUi::on_key(char key) {
    auto& view = session_->view();
    // The game-over screen stays until a key is pressed: that key only dismisses it (without
    // a terminal there is no such screen: the key counts).
    if (view.showing_result()) {
        view.dismiss_result();
        if (term_.interactive()) {
            message_.clear();
            return;
        }
    }
    if (blank(key)) return;  // Enter after a typed key (pipes)
    if (pending_remove_ || pending_kick_ || pending_hurry_) {
        const bool kick = pending_kick_, hurry = pending_hurry_;
        pending_remove_ = pending_kick_ = pending_hurry_ = false;
        message_.clear();
        // People's seat numbers (1-based), as the prompt listed them.
        if (key >= '1' && key <= '9') {
            const int number = key - '0';
            if (!view.has_seat_number(number)) message_ = client::tr("There is no seat {seat} in this room.", {{"seat", std::to_string(number)}});
            else if (hurry) session_->send(protocol::Hurry{number - 1});
            else if (kick) session_->send(protocol::Kick{number - 1});
            else session_->send(protocol::RemoveSeat{number - 1});
        }
        return;
    }
    if (pending_react_) {
        pending_react_ = false;
        message_.clear();
        static_assert(std::size(protocol::kReactions) == 8);
        if (key >= '1' && key <= '8') session_->send(protocol::React{std::string(protocol::kReactions[key - '1'].id)});
        else message_ = client::tr("No reaction sent.");
        return;
    }
    // The screen's question after E or q: y (or the same key again) says yes, n no; any other
    // key says no and does what it does.
    if (confirm_end_ || confirm_quit_) {
        const bool end = confirm_end_;
        confirm_end_ = confirm_quit_ = false;
        const bool yes = key == 'y' || (end ? key == 'E' : key == 'q' || key == 'Q');
        if (yes && end) {
            session_->send(protocol::EndGame{});
            message_ = client::tr("Ending the game.");
            return;
        }
        if (yes) {
            quit("left the room");
            return;
        }
        message_ = end ? client::tr("The game goes on.") : client::tr("You stay.");
        if (key == 'n') return;
    }
    if (key == 'q' || key == 'Q') {
        if (view.in_game() && !view.is_spectator()) {
            confirm_quit_ = true;
            message_ = client::tr("Leave the game? The server will play your seat to the end. y yes (or q again), n no");
            return;
        }
        quit("left the room");
        return;
    }
    if (key == '?') {
        show_hints_ = !show_hints_;
        message_ = show_hints_ ? client::tr("Hints shown (when the room has hints on).") : client::tr("Hints hidden.");
        return;
    }
    if (key == 'm') {
        reactions_muted_ = !reactions_muted_;
        message_ = reactions_muted_ ? client::tr("Reactions muted (m again shows them).") : client::tr("Reactions shown.");
        return;
    }
    if (key == '!') {
        const auto& snap = view.snapshot();
        if (view.is_spectator() && !(snap && snap->settings.spectator_reactions))
            message_ = client::tr("Spectators may not send reactions in this room (the host can allow it).");
        else if (!snap)
            message_ = client::tr("Not in a room yet.");
        else {
            pending_react_ = true;
            message_ = client::tr("React with? {menu}", {{"menu", reaction_menu()}});
        }
        return;
    }
    if (view.is_spectator()) {
        // Watching, in the lobby: j sits down at a free seat (the server takes the lowest).
        if (key == 'j' && view.snapshot() && view.state() == "lobby") {
            if (!view.has_free_seat()) {
                message_ = client::tr("Every seat is taken: the host can add one (+).");
            } else if (auto problem = protocol::name_problem(args_.name)) {
                message_ = client::tr("The name {name} {problem}: watch again with --name.",
                                      {{"name", protocol::quote_client_text(args_.name)}, {"problem", *problem}});
            } else {
                session_->send(protocol::JoinRoom{view.room(), args_.name});
                message_ = client::tr("Taking a seat as {name} ...", {{"name", args_.name}});
            }
        }
        return;
    }
    if (view.in_game() && view.paused() && key >= '1' && key <= '9') {
        // A choice during a pause is not sent: the server would refuse it (paused); the
        // decision stays open with its time kept until the game resumes.
        message_ = client::tr("The game is paused: choose when it resumes.");
        return;
    }
    if (const auto& p = view.pending(); p && key >= '1' && key <= '9') {
        const auto index = static_cast<std::size_t>(key - '1');
        if (index < p->decision.options.size()) {
            session_->choose(p->decision.options[index].piece);
            message_ = client::tr("Sent: piece {piece}.", {{"piece", std::to_string(p->decision.options[index].piece + 1)}});
        }
        return;
    }
    if (key == 'A' && view.snapshot() && !view.am_host()) {
        // Asks the host for more time (a notice to the host; at most once in 30 s).
        session_->send(protocol::AskTime{});
        message_ = tr("You asked the host for more time to choose.");
        return;
    }
    if (!view.snapshot()) {
        // Too early to know whether we host (the room's first snapshot is on its way): keep
        // the key for then.
        early_keys_.push_back(key);
        return;
    }
    if (!view.am_host()) return;
    const auto& snap = view.snapshot();
    if (!snap) return;
    if (key == 'T') {
        // The time to choose, for slower hands: normal, x2, x3, no limit, normal again.
        protocol::SettingsChange change;
        change.time_factor = (snap->settings.time_factor + 1) % (protocol::kMaxTimeFactor + 1);
        session_->send(protocol::SetSettings{change});
        return;
    }
    if (snap->state == "lobby") {
        GameOptions options = snap->options;
        auto settings = snap->settings;
        protocol::SettingsChange change;  // a setting's key fills its field, sent after the switch
        switch (key) {
            case 's': session_->send(protocol::Start{}); break;
            case 'b': session_->send(protocol::AddBot{PolicyKind::best}); break;
            case 'g': session_->send(protocol::AddBot{PolicyKind::greedy}); break;
            case 'r': session_->send(protocol::AddBot{PolicyKind::random}); break;
            case 'x':
                pending_remove_ = true;
                message_ = client::tr("Remove which seat? ({seats})", {{"seats", view.seat_numbers_text()}});
                break;
            case '+':
            case '-': {
                // The game's limits, checked here: the server would refuse the same.
                const bool ludo = options.game == GameKind::ludo;
                const int low = ludo ? 2 : 1, high = ludo ? 4 : 8;
                const int want = options.players + (key == '+' ? 1 : -1);
                if (want < low || want > high) {
                    message_ = ludo ? client::tr("Ludo takes 2 to 4 players.") : client::tr("Spook & Werewolf takes 1 to 8 players.");
                    break;
                }
                if (ludo && options.ludo.teams) {
                    message_ = client::tr("Teams are two against two: 4 seats (2 turns teams off).");
                    break;
                }
                options.players = want;
                session_->send(protocol::SetOptions{options});
                break;
            }
            case 'p':
                if (options.game == GameKind::spook) {
                    options.spook.pieces = options.spook.pieces % 3 + 1;
                    session_->send(protocol::SetOptions{options});
                } else {
                    message_ = client::tr("p sets the pieces of Spook & Werewolf; in Ludo everyone has four (a changes the arm).");
                }
                break;
            case 'a':
                if (options.game == GameKind::ludo) {
                    options.ludo.arm = options.ludo.arm == 8 ? 6 : 8;
                    session_->send(protocol::SetOptions{options});
                } else {
                    message_ = client::tr("a sets the arm of a Ludo board; Spook's board is always 40 squares (p changes the pieces).");
                }
                break;
            case 'h': change.hints = !settings.hints; break;
            case 'v': change.spectator_reactions = !settings.spectator_reactions; break;
            case 't': {
                static constexpr int steps[] = {10000, 20000, 30000, 60000, 120000};
                change.decision_ms = next_step(steps, settings.decision_ms, steps[0]);
                break;
            }
            case 'w': {
                // The pace: the same choices as the page's.
                static constexpr int steps[] = {0, 500, 1000, 1500, 2000, 3000};
                change.pace_ms = next_step(steps, settings.pace_ms, steps[0]);
                break;
            }
            case 'c': {
                // The automatic start: off, then 30 s, 1, 2, 5 min, then off again.
                static constexpr int steps[] = {30000, 60000, 120000, 300000};
                const int now = snap->auto_start_at_ms ? settings.auto_start_ms : 0;
                change.auto_start_ms = now == 0 ? steps[0] : next_step(steps, now, 0);
                break;
            }
            case 'o':
                if (options.game == GameKind::ludo && options.ludo.teams) {
                    message_ = client::tr("Play on has no meaning with teams: the game ends when a team has all its pieces home (2 turns teams off).");
                    break;
                }
                options.play_on = !options.play_on;
                session_->send(protocol::SetOptions{options});
                break;
            case 'd':
                if (options.game == GameKind::spook) {
                    options.spook.balanced_boards = !options.spook.balanced_boards;
                    session_->send(protocol::SetOptions{options});
                } else {
                    message_ = client::tr("d sets Spook's boards; a Ludo board is always the same (e sets the entry, 3 three 6s).");
                }
                break;
            case 'f':
            case '*':
            case 'B':
            case 'C':
            case '2':
                if (options.game == GameKind::ludo) {
                    if (auto refusal = toggle_house_rule(options, key)) message_ = *refusal;
                    else session_->send(protocol::SetOptions{options});
                } else {
                    message_ = spook_house_rule_message(key);
                }
                break;
            case 'e':
            case '3':
                if (options.game == GameKind::ludo) {
                    if (key == 'e')
                        options.ludo.entry = options.ludo.entry == LudoEntry::text ? LudoEntry::start_square : LudoEntry::text;
                    else
                        options.ludo.three_sixes = !options.ludo.three_sixes;
                    session_->send(protocol::SetOptions{options});
                } else {
                    message_ = key == 'e' ? client::tr("e sets how a 6 enters in Ludo; in Spook, p sets the pieces and d the boards.")
                                          : client::tr("3 sets the three 6s rule in Ludo; in Spook, p sets the pieces and d the boards.");
                }
                break;
            default: break;
        }
        if (change != protocol::SettingsChange{}) session_->send(protocol::SetSettings{change});
    } else {
        if (key == 'P') session_->send(view.paused() ? protocol::ClientMessage{protocol::Unpause{}} : protocol::ClientMessage{protocol::Pause{}});
        if (key == 'E') {
            // Like q: it asks first.
            confirm_end_ = true;
            message_ = client::tr("End the game for everyone? y yes (or E again), n no");
        }
        if (key == 'H') {
            pending_hurry_ = true;
            message_ = tr("Hurry which seat? ({seats}; its decision gets a short limit)", {{"seats", view.seat_numbers_text()}});
        }
        if (key == 'k') {
            pending_kick_ = true;
            message_ = client::tr("Kick which seat? ({seats}; a best bot takes it over)", {{"seats", view.seat_numbers_text()}});
        }
    }
}

// ---- The subcommands ----------------------------------------------------------------------

void add_play_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PlayArgs>();
    auto* cmd = app.add_subcommand("play", "Play at a SpookLudo server: create or join a room and play in this terminal");
    cmd->footer(
        "Examples:\n"
        "  spookludo play ws://192.168.1.20:7777 --create spook --players 4 --name Ann --hints\n"
        "  spookludo play ws://192.168.1.20:7777 --create ludo --home-rules --teams --name Ann   (house rules)\n"
        "  spookludo play ws://192.168.1.20:7777 --room KQZTM --name Ben\n"
        "  spookludo play ws://192.168.1.20:7777 --room KQZTM --token 4f1c...   (take your seat back)\n"
        "  spookludo play wss://party.example.org:443 --room KQZTM --name Ben   (a server with a certificate)\n"
        "A wss:// server's certificate must come from a CA this computer trusts and name the host; for a\n"
        "certificate the host made themselves, --ca-file FILE with the file they give you. A certificate\n"
        "that fails is refused with the reason (exit 2), never answered by going on unencrypted.\n"
        "Keys: 1-9 choose an option, ? show or hide hints, q leave (in a game it asks: y yes, n no; Ctrl-C too).\n"
        "Reactions (shown to the room for a moment, one every 2 s): ! then 1-8 sends 1 thumbs up, 2 laughing,\n"
        "3 scared, 4 ghost, 5 nooo!, 6 phew, 7 good luck, 8 well played; m mutes or unmutes the others'.\n"
        "The host, in the lobby: s start, b/g/r add a best/greedy/random bot, x N remove seat N, + - seats,\n"
        "p pieces (Spook), a arm 6/8 (Ludo), h hints on/off, t decision time, w pace, c automatic start,\n"
        "o play on, d balanced/random boards (Spook), e entry, 3 three 6s (Ludo), v spectators may react;\n"
        "Ludo's house rules: f the home rules preset (again: the text's rules), * safe squares, B bonus throws,\n"
        "C capture before home, 2 teams (two against two, partners opposite);\n"
        "in a game: P pause/resume, k N kick seat N (a best bot takes it), E end the game (asks: y yes, n no).\n"
        "Time to choose: T (the host) sets normal, x2, x3 or no limit; H N hurries seat N (no limit: a short\n"
        "limit for its open decision); A (a player) asks the host for more time.\n"
        "Enter closes the game-over screen.\n"
        "Leaving (q, Ctrl-C, SIGTERM) gives your seat to the server to the end of the game. While you hold a\n"
        "seat its token is kept in $XDG_STATE_HOME/spookludo/seats.json (~/.local/state/spookludo/, private\n"
        "to you): if the program is killed, the machine reboots or the network drops, running the same\n"
        "command again takes the seat back; the --token command it prints does the same from elsewhere.\n"
        "A kicked player, or one who left on purpose, has no seat to take back.\n"
        "At a game's end its record is saved in $XDG_STATE_HOME/spookludo/records/<game id>.json (the newest\n"
        "64): spookludo verify FILE checks it also once the server has gone. Every die this program was shown\n"
        "is recomputed from the seeds at the game's end: 'All 57 dice checked: fair.', or the die that is not\n"
        "the seeds' (joined late: how many it checked, the record fetched for the rest). A server that stops for good\n"
        "(closing 'shutdown') ends the program at once (exit 1), printing that command.\n"
        "Without a terminal (a pipe), the story is printed line by line and choices are read as numbers.\n"
        "NO_COLOR=1 turns colour off. The connection is re-made by itself with your token if it drops.");
    add_room_flags(*cmd, args->room, true);
    cmd->add_option("--name", args->name, "Your name in the room (at most 24 characters)");
    cmd->add_flag("--once", args->once, "Leave when the game ends (the result stays on screen for 3 s)");
    cmd->add_option("--reconnect-for", args->reconnect_for_s,
                    "After a lost connection, try again for this many seconds before giving up (default 120)")
        ->check(CLI::Range(1, 3600));
    cmd->callback([args, &exit_code] {
        if (args->name.empty() && args->room.token.empty()) {
            const char* user = std::getenv("USER");
            args->name = user && *user ? user : "player";
        }
        exit_code = run_ui(*args, "play");
    });
}

void add_watch_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PlayArgs>();
    args->watch = true;
    auto* cmd = app.add_subcommand("watch", "Watch a room as a spectator: the same board, no prompts");
    cmd->footer("Example:\n  spookludo watch ws://192.168.1.20:7777 --room KQZTM --name Sam\n"
                "Keys: q leave, ? hints; in the lobby (before a game, or after one for the rematch) j takes a free\n"
                "seat under --name, and you play from then on. m mutes or unmutes the room's reactions (story lines\n"
                "\"Ben: phew\"); ! then 1-8 sends one when the host lets spectators react.\n"
                "A finished game's record is saved as play saves it ($XDG_STATE_HOME/spookludo/records/), and\n"
                "every die shown is checked against the seeds as play checks them.");
    cmd->add_option("url", args->room.url, "The server, e.g. ws://192.168.1.20:7777 (wss:// with TLS)")->required();
    cmd->add_option("--room", args->room.room, "The room's 5-letter code")->required();
    cmd->add_option("--name", args->name, "Your name when you take a seat with j (default: your login name)");
    add_ca_file_flag(*cmd, args->room.ca_file);
    cmd->add_flag("--once", args->once, "Leave when the game ends");
    cmd->callback([args, &exit_code] {
        if (args->name.empty()) {
            const char* user = std::getenv("USER");
            args->name = user && *user ? user : "player";
        }
        exit_code = run_ui(*args, "watch");
    });
}

}  // namespace spookludo::cli
