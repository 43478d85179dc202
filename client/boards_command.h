#pragma once
// `spookludo boards`: a set of Spook boards for a game (to print, or to load into a room), and
// the check of a board file a host made.
namespace CLI {
class App;
}

namespace spookludo::cli {

void add_boards_command(CLI::App& app, int& exit_code);

}  // namespace spookludo::cli
