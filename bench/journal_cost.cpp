// journal_cost: what the journal costs a room's step, measured on the journal itself (the same
// Journal::write a room calls at the end of each pass), in a database in --dir.
//
// A party-pace round of a 4-player Spook room writes: one pass for the step the table takes (its
// `advance` event with the messages it shows, and the `ask` of the decisions), one pass per
// player's choice (a `choice` event), one pass for the resolution (`resolve`). Each pass is one
// transaction. The figures: CPU time (user + system) and wall time per pass, medians of --runs
// runs of --passes passes each, for the three kinds of pass.
//
// --rooms N spreads the passes over N rooms in turn (a busy server's rooms each have their own
// rows, so their own pages); --batch B writes B rooms' passes in one transaction (group commit).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cpu_time.h"

#include "database.h"
#include "journal.h"
#include "spookludo/command_line.h"

using namespace spookludo::server;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int run(int argc, char** argv) {
    std::string dir = (std::filesystem::temp_directory_path() / "spookludo-journal-cost").string();
    int passes = 4000;
    int runs = 7;
    int rooms = 1;
    int batch = 1;
    CLI::App app{"journal_cost: CPU and wall time per journal pass (one room's step), medians of several runs",
                 "journal_cost"};
    app.set_version_flag("--version", std::string("journal_cost ") + SPOOKLUDO_VERSION);
    app.footer("Exit status: 0 measured; 1 the database cannot be opened or written (the message says why); 2 a\n"
               "usage error (an unknown option, a bad value: the message names it).");
    app.add_option("--dir", dir, "Directory for the database (created; its spookludo.db is removed first)")->capture_default_str();
    app.add_option("--passes", passes, "Transactions per run")->capture_default_str();
    app.add_option("--runs", runs, "Runs (the median is reported)")->capture_default_str();
    app.add_option("--rooms", rooms, "Rooms the passes go to, in turn")->capture_default_str()->check(CLI::Range(1, 100000));
    app.add_option("--batch", batch, "Passes (of as many rooms) in one transaction")->capture_default_str()->check(CLI::Range(1, 10000));
    if (const auto usage = spookludo::parse_command_line(app, argc, argv)) return *usage;

    std::filesystem::create_directories(dir);
    const auto file = std::filesystem::path(dir) / "spookludo.db";
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(file.string() + suffix);
    db::Database database(file);
    Journal journal(database, nullptr);

    // What a room writes (sizes as in a Spook game: the table's messages are a few hundred bytes).
    const std::string step_out =
        R"({"out":["{\"face\":4,\"round\":7,\"type\":\"roll\"}"]})";
    const std::string ask = R"({"deadline_ms":1796230021212,"decisions":[[0,"41"],[1,"42"],[2,"43"],[3,"44"]]})";
    const std::string choice = R"({"maker":"player","piece":1,"player":2})";
    const std::string resolve =
        R"({"out":["{\"moves\":[{\"by\":\"player\",\"from\":11,\"piece\":0,\"seat\":0,\"to\":15},{\"by\":\"player\",\"from\":3,\"piece\":1,\"seat\":1,\"to\":7},{\"by\":\"player\",\"from\":9,\"piece\":0,\"seat\":2,\"to\":13},{\"by\":\"player\",\"from\":1,\"piece\":1,\"seat\":3,\"to\":5}],\"round\":7,\"type\":\"moves\"}","{\"action\":\"moves forward 3 squares\",\"character\":\"hat\",\"face\":1,\"finished\":[],\"moved\":[],\"name\":\"Wizard's Hat\",\"round\":7,\"type\":\"activation\"}"]})";
    std::vector<std::string> codes;
    std::vector<std::int64_t> seqs(static_cast<std::size_t>(rooms), 1);
    for (int r = 0; r < rooms; ++r) {
        codes.push_back("R" + std::to_string(10000 + r));
        journal.write(codes.back(), 0,
                      {{JournalOp::Kind::room, {}, std::string(600, ' ')}, {JournalOp::Kind::game, {}, std::string(400, ' ')}},
                      seqs.back());
    }
    std::size_t turn = 0;  // the next room
    // `passes` passes of `ops`, `batch` rooms' to a transaction.
    auto write_passes = [&](const std::vector<JournalOp>& ops) {
        std::vector<Journal::RoomWrite> group;
        for (int i = 0; i < passes;) {
            group.clear();
            for (int b = 0; b < batch && i < passes; ++b, ++i) {
                group.push_back({codes[turn], 0, ops, seqs[turn]});
                turn = (turn + 1) % codes.size();
            }
            journal.write(group);
        }
    };
    const std::vector<JournalOp> game_over{{JournalOp::Kind::game_over, {}, {}},
                                           {JournalOp::Kind::game, {}, std::string(400, ' ')}};

    struct Kind {
        const char* name;
        std::vector<JournalOp> ops;
        std::vector<double> cpu_us, wall_us;
    };
    std::vector<Kind> kinds{
        {"a choice (one event)", {{JournalOp::Kind::event, "choice", choice}}, {}, {}},
        {"a step (advance + ask)", {{JournalOp::Kind::event, "advance", step_out}, {JournalOp::Kind::event, "ask", ask}}, {}, {}},
        {"a resolution (moves + activation)", {{JournalOp::Kind::event, "resolve", resolve}}, {}, {}},
    };
    for (int r = 0; r < runs; ++r)
        for (auto& k : kinds) {
            const double c0 = spookludo::bench::process_cpu_seconds();
            const auto w0 = std::chrono::steady_clock::now();
            write_passes(k.ops);
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
            k.cpu_us.push_back((spookludo::bench::process_cpu_seconds() - c0) * 1e6 / passes);
            k.wall_us.push_back(wall * 1e6 / passes);
            // A game's end forgets its events (keeping the table the size a game makes), and the
            // next game begins: the events are live, as a game's are.
            for (std::size_t i = 0; i < codes.size(); ++i) journal.write(codes[i], 0, game_over, seqs[i]);
        }
    std::printf("journal passes in %s (%d runs of %d; %d room(s), %d pass(es) a transaction)\n", file.c_str(), runs,
                passes, rooms, batch);
    std::printf("%-36s %14s %14s\n", "pass", "CPU us (med)", "wall us (med)");
    for (const auto& k : kinds) std::printf("%-36s %14.1f %14.1f\n", k.name, median(k.cpu_us), median(k.wall_us));
    return 0;
}

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "journal_cost: %s\n", e.what());
        return 1;
    }
}
