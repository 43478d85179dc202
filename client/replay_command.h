#pragma once
// `spookludo replay FILE|URL`: a finished (or abandoned) game replayed in the terminal from its
// record, step by step, with the analysis of every choice beside it and the players' summary
// (spookludo/analysis.h, computed here: no server needed for a file).
namespace CLI {
class App;
}

namespace spookludo::cli {

void add_replay_command(CLI::App& app, int& exit_code);

}  // namespace spookludo::cli
