#pragma once
// The command line of every SpookLudo program (spookludo and its subcommands, spookludo-server,
// spookludo-load and the benchmarks): CLI11 parsing with one rule for the exit status.
//   - a usage error (a missing argument, an unknown option, a bad value, a subcommand missing)
//     prints what is wrong, names the command, hints at its --help, and exits 2;
//   - --help and --version print and exit 0.
// Header-only, for the programs that link CLI11 (the engine itself does not use it).
#include <iostream>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace spookludo {

// The exit status of a usage error, in every program.
inline constexpr int kUsageError = 2;

// "spookludo play" for the play subcommand of spookludo.
inline std::string command_name(const CLI::App& app) {
    std::string name = app.get_name();
    for (const CLI::App* up = app.get_parent(); up; up = up->get_parent())
        if (!up->get_name().empty()) name = up->get_name() + (name.empty() ? "" : " " + name);
    return name;
}

// What a program returns for an error CLI11 threw while parsing (or from a subcommand's
// callback): 0 after printing --help or --version, 2 after printing the problem and the hint.
inline int usage_exit(CLI::App& app, const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);                 // --help, --help-all, --version
    if (e.get_name() == "RuntimeError") return e.get_exit_code();  // a program's own exit, already told
    // The problem belongs to the deepest subcommand given ("spookludo play: url is required").
    const CLI::App* where = &app;
    while (!where->get_subcommands().empty()) where = where->get_subcommands().front();
    const std::string name = command_name(*where);
    std::string what = e.what();
    if (const auto extra = where->remaining(); !extra.empty() && !where->get_subcommands({}).empty() &&
                                               where->get_subcommands().empty()) {
        // A word where the command was expected ("spookludo dance").
        std::string commands;
        for (const CLI::App* sub : where->get_subcommands({})) commands += (commands.empty() ? "" : ", ") + sub->get_name();
        what = "'" + extra.front() + "' is not a command (the commands: " + commands + ")";
    }
    std::cerr << name << ": " << what << "\n"
              << "Run '" << name << " --help' for the usage and the exit statuses.\n";
    return kUsageError;
}

// Checks for a number that read as a value above 0 (positive_number) or of 0 or more
// (non_negative_number), with a message people read: "--games: must be a number above 0 (got
// "abc")" (CLI11's own PositiveNumber prints its range to the last of 300 digits).
inline CLI::Validator number_at_least_zero(bool zero_allowed) {
    return CLI::Validator(
        [zero_allowed](std::string& text) -> std::string {
            double value = 0;
            const std::string wanted = zero_allowed ? "a number of 0 or more" : "a number above 0";
            if (!CLI::detail::lexical_cast(text, value) || value != value)
                return "must be " + wanted + " (got \"" + text + "\")";
            if (value < 0 || (!zero_allowed && value == 0)) return "must be " + wanted + " (got " + text + ")";
            return {};
        },
        zero_allowed ? "NONNEGATIVE" : "POSITIVE");
}
inline CLI::Validator positive_number() { return number_at_least_zero(false); }
inline CLI::Validator non_negative_number() { return number_at_least_zero(true); }

// Parses the command line (running the subcommands' callbacks). Nothing when the program is to
// go on; otherwise the exit status to return at once (see usage_exit).
inline std::optional<int> parse_command_line(CLI::App& app, int argc, const char* const* argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return usage_exit(app, e);
    }
    return std::nullopt;
}

}  // namespace spookludo
