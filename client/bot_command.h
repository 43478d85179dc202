#pragma once
namespace CLI {
class App;
}
namespace spookludo::cli {
// `spookludo bot`: headless bot players for demos, Docker, tests and load.
void add_bot_command(CLI::App& app, int& exit_code);
}  // namespace spookludo::cli
