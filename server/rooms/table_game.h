#pragma once
// The room's adapter of a table game (options.table; the engine is spookludo/in_person.h): the
// server's fair dice for people at one table with paper boards and coins. Each step ("next", or
// the table's own pace) throws one die (Ludo: the whole roll-off at once) and announces it; nobody
// is asked to choose; the host skips a turn (Ludo) and declares the winners.
#include "table.h"

namespace spookludo::server {

std::unique_ptr<Table> make_table_game(const GameOptions& options, const Publication& publication,
                                       std::vector<ClientSeed> client_seeds, const std::vector<std::string>& seed_by);

}  // namespace spookludo::server
