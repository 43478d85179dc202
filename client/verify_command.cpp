#include "verify_command.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "http_fetch.h"
#include "game_words.h"
#include "i18n.h"
#include "spookludo/ludo/geometry.h"
#include "spookludo/verify.h"

namespace spookludo::cli {

namespace {

// The server's records are a few MB at most; anything much larger is not one.
constexpr std::size_t kMaxRecordBytes = 64u * 1024 * 1024;

// The record's text from a file, or over HTTP(S) from a server's /records/<id> or /games/<id>.
std::string record_text(const std::string& where, const std::string& ca_file) {
    const bool address = where.starts_with("http://") || where.starts_with("https://");
    if (!ca_file.empty() && !where.starts_with("https://"))
        throw FetchError(client::tr("--ca-file is for an https:// address ({address} is not one)", {{"address", where}}));
    if (address)
        return fetch_text(where, ca_file, kMaxRecordBytes,
                          client::tr("no record at {address} (HTTP 404: the server does not have it: check the game id "
                                     "(spookludo history lists the server's games), or verify a file of the record if "
                                     "you have one)"));
    std::ifstream in(where, std::ios::binary);
    if (!in) throw FetchError(client::tr("cannot read {file}", {{"file", where}}));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

void add_verify_command(CLI::App& app, int& exit_code) {
    auto path = std::make_shared<std::string>();
    auto quiet = std::make_shared<bool>(false);
    auto ca_file = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("verify", "Check a game record: fair dice, every choice, every position, the result");
    cmd->footer(
        "Checks that the revealed server seed matches the commitment published before the game,\n"
        "recomputes every draw from the seeds, replays every choice through the rules (a move the\n"
        "server made for an absent player must be a best move), and checks each position and the\n"
        "result. The record is a file, or the address a game ends with, fetched from the server:\n"
        "  spookludo verify ~/records/KQZTM-1.json\n"
        "  spookludo verify http://192.168.1.20:7777/records/KQZTM-1\n"
        "  spookludo verify https://party.example.org:7777/records/KQZTM-1 --ca-file host-ca.pem\n"
        "Once the server has stopped, verify a file: the one `spookludo play` saved at the game's end\n"
        "($XDG_STATE_HOME/spookludo/records/<id>.json), the web page's download, or one the server's host\n"
        "exports from its database (spookludo-server --export-record <id> --data-dir DIR > game.json).\n"
        "An https:// address's certificate is checked against this computer's CA store (or --ca-file) and\n"
        "its host name, as play does for wss://.\n"
        "Exit status: 0 verified; 1 a discrepancy (named); 2 the record cannot be read or fetched (no such\n"
        "file, connection refused, HTTP 404, a certificate that fails the check, not a record, over 64 MB)\n"
        "or a usage error.");
    cmd->add_option("record", *path, "The game record: a JSON file, or its http:// or https:// address on the server")
        ->required();
    cmd->add_option("--ca-file", *ca_file,
                    "https://: trust the certificates in this PEM file (the host's own CA, or their self-signed "
                    "certificate) instead of this computer's CA store");
    cmd->add_flag("-q,--quiet", *quiet, "Print only the verdict");
    cmd->callback([path, quiet, ca_file, &exit_code] {
        std::string text;
        try {
            text = record_text(*path, *ca_file);
        } catch (const FetchError& e) {
            std::cerr << "spookludo verify: " << e.what() << "\n";
            exit_code = 2;
            return;
        }
        GameRecord record;
        try {
            record = parse_record(text);
        } catch (const std::exception& e) {
            std::cerr << "spookludo verify: "
                      << client::tr("{file} is not a readable game record: {error}", {{"file", *path}, {"error", e.what()}}) << "\n";
            exit_code = 2;
            return;
        }
        const VerifyReport report = verify(record);
        if (!*quiet) {
            // The checks' own lines, worded by the catalogue (their texts are the verifier's).
            for (const auto& line : report.passed_lines)
                std::cout << "  " << client::trc("verify", "ok") << "    " << client::verify_words(line) << "\n";
            for (const auto& line : report.note_lines)
                std::cout << "  " << client::trc("verify", "note") << "  " << client::verify_words(line) << "\n";
        }
        const std::string game = record.options.game == GameKind::spook ? client::trc("game", "spook") : client::trc("game", "ludo");
        const std::string status = record.result.status == GameStatus::finished    ? client::trc("game status", "finished")
                                   : record.result.status == GameStatus::abandoned ? client::trc("game status", "abandoned")
                                                                                   : client::trc("game status", "in_progress");
        if (report.ok) {
            std::cout << client::trn("VERIFIED: {file} ({game}, {n} player, {status})", "VERIFIED: {file} ({game}, {n} players, {status})",
                                     record.options.players, {{"file", *path}, {"game", game}, {"status", status}})
                      << "\n";
            exit_code = 0;
        } else {
            // The failure worded by the catalogue when it has a fixed shape (the rules' own reasons
            // and the record's texts inside it stay as the verifier gives them).
            const std::string failure = report.failure_line.text.empty() ? report.failure : client::verify_words(report.failure_line);
            std::cout << client::tr("FAILED: {failure}", {{"failure", failure}}) << "\n";
            exit_code = 1;
        }
    });
}

}  // namespace spookludo::cli
