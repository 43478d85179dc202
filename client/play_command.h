#pragma once
namespace CLI {
class App;
}
namespace spookludo::cli {
// `spookludo play`: a person's seat at a server, in the terminal.
void add_play_command(CLI::App& app, int& exit_code);
// `spookludo watch`: a spectator's view.
void add_watch_command(CLI::App& app, int& exit_code);
}  // namespace spookludo::cli
