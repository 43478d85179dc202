// spookludo: the player's program. Thin: every subcommand lives in its own file.
#include <CLI/CLI.hpp>

#include "boards_command.h"
#include "bot_command.h"
#include "history_command.h"
#include "i18n.h"
#include "play_command.h"
#include "replay_command.h"
#include "sim_command.h"
#include "spookludo/command_line.h"
#include "verify_command.h"

namespace {

constexpr const char* kPlayExitStatus =
    "Exit status: 0 you left, or the game ended (--once); 1 it ended badly after you joined (abandoned,\n"
    "kicked, the server went away); 2 could not get in (cannot connect, unknown room, room full, protocol\n"
    "version, a name the server refuses) or a usage error (a missing argument, an unknown option, a bad value).";

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"SpookLudo: Spook & Werewolf Ludo and Classic Ludo, with provably fair dice", "spookludo"};
    app.set_version_flag("--version", std::string("spookludo ") + SPOOKLUDO_VERSION);
    app.require_subcommand(1);
    app.footer(
        "Run 'spookludo COMMAND --help' for a command's flags.\n"
        "Exit status:\n"
        "  0    done: sim and boards finished, verify verified, history listed, replay done, play/watch/bot ended\n"
        "       normally;\n"
        "       --help, --version\n"
        "  1    verify: a discrepancy (named); play, watch, bot: the game ended badly after joining\n"
        "       (abandoned, kicked, the server went away)\n"
        "  2    a usage error (a missing argument, an unknown option, a bad value: the message names it),\n"
        "       bad input (a file that cannot be read, options the game refuses), history or replay could not fetch\n"
        "       the list, or play/watch/bot could\n"
        "       not get in (cannot connect, unknown room, room full, protocol version)\n"
        "  130  bot: interrupted (Ctrl-C)");
    int exit_code = 0;
    spookludo::cli::add_sim_command(app, exit_code);
    spookludo::cli::add_boards_command(app, exit_code);
    spookludo::cli::add_verify_command(app, exit_code);
    spookludo::cli::add_history_command(app, exit_code);
    spookludo::cli::add_replay_command(app, exit_code);
    spookludo::cli::add_play_command(app, exit_code);
    spookludo::cli::add_watch_command(app, exit_code);
    spookludo::cli::add_bot_command(app, exit_code);
    // `spookludo COMMAND --version` says the version too (rather than asking for the command's arguments).
    for (CLI::App* cmd : app.get_subcommands({}))
        cmd->set_version_flag("--version", std::string("spookludo ") + SPOOKLUDO_VERSION);
    // The language of what every command prints: LANGUAGE, LC_ALL, LC_MESSAGES, LANG, or the
    // command's --lang (read as it is parsed, before the command runs). --help stays English.
    spookludo::client::choose_language();
    for (CLI::App* cmd : app.get_subcommands({}))
        cmd->add_option_function<std::string>(
               "--lang", [](const std::string& lang) { spookludo::client::choose_language(lang); },
               "The language of the screens and messages: en, ms (Bahasa Melayu); default from LANGUAGE, LC_ALL, "
               "LC_MESSAGES or LANG")
            ->type_name("LANG");
    // play and watch: their exit statuses after their own help (play_command.cpp keeps its texts).
    for (const char* name : {"play", "watch"}) {
        CLI::App* cmd = app.get_subcommand(name);
        cmd->footer(cmd->get_footer() + "\n" + kPlayExitStatus);
    }
    if (const auto usage = spookludo::parse_command_line(app, argc, argv)) return *usage;
    return exit_code;
}
