#pragma once
// `spookludo sim`: plays games offline and reports win rates, lengths and speed.
namespace CLI {
class App;
}

namespace spookludo::cli {

// Adds the `sim` subcommand to `app`; its callback runs the simulation and sets `exit_code`.
void add_sim_command(CLI::App& app, int& exit_code);

}  // namespace spookludo::cli
