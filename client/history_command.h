#pragma once
// `spookludo history URL`: the server's finished games (GET /games), newest first, in the
// terminal, with the record's address and the verify command for each.
namespace CLI {
class App;
}

namespace spookludo::cli {

void add_history_command(CLI::App& app, int& exit_code);

}  // namespace spookludo::cli
