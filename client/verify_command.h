#pragma once
// `spookludo verify RECORD.json` (or its http:// address on the server): checks a game record (seed, draws, choices, positions, result).
namespace CLI {
class App;
}

namespace spookludo::cli {

void add_verify_command(CLI::App& app, int& exit_code);

}  // namespace spookludo::cli
