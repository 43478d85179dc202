// spookludo: the player's program. Thin: every subcommand lives in its own file.
#include <CLI/CLI.hpp>

#include "boards_command.h"
#include "bot_command.h"
#include "play_command.h"
#include "sim_command.h"
#include "verify_command.h"

int main(int argc, char** argv) {
    CLI::App app{"SpookLudo: Spook & Werewolf Ludo and Classic Ludo, with provably fair dice", "spookludo"};
    app.set_version_flag("--version", std::string("spookludo ") + SPOOKLUDO_VERSION);
    app.require_subcommand(1);
    int exit_code = 0;
    spookludo::cli::add_sim_command(app, exit_code);
    spookludo::cli::add_boards_command(app, exit_code);
    spookludo::cli::add_verify_command(app, exit_code);
    spookludo::cli::add_play_command(app, exit_code);
    spookludo::cli::add_watch_command(app, exit_code);
    spookludo::cli::add_bot_command(app, exit_code);
    CLI11_PARSE(app, argc, argv);
    return exit_code;
}
