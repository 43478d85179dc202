#include "verify_command.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "spookludo/verify.h"

namespace spookludo::cli {

void add_verify_command(CLI::App& app, int& exit_code) {
    auto path = std::make_shared<std::string>();
    auto quiet = std::make_shared<bool>(false);
    auto* cmd = app.add_subcommand("verify", "Check a game record: fair dice, every choice, every position, the result");
    cmd->footer(
        "Checks that the revealed server seed matches the commitment published before the game,\n"
        "recomputes every draw from the seeds, replays every choice through the rules (a move the\n"
        "server made for an absent player must be a best move), and checks each position and the\n"
        "result. Exit status: 0 verified, 1 a discrepancy (named), 2 the file cannot be read.");
    cmd->add_option("record", *path, "The game record (JSON)")->required();
    cmd->add_flag("-q,--quiet", *quiet, "Print only the verdict");
    cmd->callback([path, quiet, &exit_code] {
        std::ifstream in(*path, std::ios::binary);
        if (!in) {
            std::cerr << "spookludo verify: cannot read " << *path << "\n";
            exit_code = 2;
            return;
        }
        std::stringstream text;
        text << in.rdbuf();
        GameRecord record;
        try {
            record = parse_record(text.str());
        } catch (const std::exception& e) {
            std::cerr << "spookludo verify: " << *path << " is not a readable game record: " << e.what() << "\n";
            exit_code = 2;
            return;
        }
        const VerifyReport report = verify(record);
        if (!*quiet) {
            for (const auto& line : report.passed) std::cout << "  ok    " << line << "\n";
            for (const auto& line : report.notes) std::cout << "  note  " << line << "\n";
        }
        if (report.ok) {
            std::cout << "VERIFIED: " << *path << " (" << to_string(record.options.game) << ", "
                      << record.options.players << " players, " << to_string(record.result.status) << ")\n";
            exit_code = 0;
        } else {
            std::cout << "FAILED: " << report.failure << "\n";
            exit_code = 1;
        }
    });
}

}  // namespace spookludo::cli
