// `spookludo verify` of a table game's record (options.table, issue 36 part 3): the dice and the
// announcements are recomputed from the revealed seeds; a tampered die is refused, and the report
// says what such a record cannot show (the coins' positions). The real client binary.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "process_util.h"
#include "spookludo/fair_dice.h"
#include "spookludo/in_person.h"
#include "spookludo/record.h"

using namespace spookludo;
using namespace spookludo::testing;
using namespace std::chrono_literals;

namespace {

// A finished Ludo table game of 3 names, made as the server makes it: seeds in, the roll-off,
// throws, a skipped turn, a declared winner.
GameRecord table_record() {
    GameOptions options = GameOptions::ludo_game(3);
    options.table = true;
    options.table_names = {"Ann", "Ben", "Cid"};
    const ServerSeed seed = ServerSeed::from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    std::vector<ClientSeed> seeds{{0, "the host's page"}, {1, "Ann's lucky phone"}};
    FairDice dice{FairStream(seed, seeds)};
    in_person::Game game(options, options.table_names, dice);
    for (int i = 0; i < 8; ++i) game.next();
    game.skip();
    game.next();
    game.declare({1});
    std::vector<RecordSeat> names;
    for (int i = 0; i < 3; ++i) names.push_back({i, options.table_names[static_cast<std::size_t>(i)], false, std::nullopt, std::nullopt});
    GameRecord r = start_record(options, names, seed, seeds);
    r.client_seed_by = {"host's page", "Ann's phone"};
    r.draws = dice.draws();
    for (const auto& a : game.announcements()) r.announcements.push_back({a.step, a.kind, a.text});
    r.server_seed = seed.hex();
    r.result = {GameStatus::finished, {1}, {0, 1, 0}, game.steps()};
    return r;
}

Finished verify_file(const TempDir& dir, const std::string& label, const GameRecord& record) {
    const std::string file = dir / (label + ".json");
    std::ofstream(file) << record_text(record);
    return run_to_end({SPOOKLUDO_CLIENT_BINARY, "verify", file}, dir, label, 30s);
}

}  // namespace

TEST_CASE("verify table record: spookludo verify accepts a table game's record, says what it cannot check, and rejects a tampered die [cli][table]") {
    TempDir dir("spookludo-verify-table");
    const GameRecord record = table_record();
    const Finished ok = verify_file(dir, "table", record);
    INFO(ok.described);
    CHECK(ok.status == 0);
    CHECK(ok.out.find("announcements: all 11 are what the dice give") != std::string::npos);
    CHECK(ok.out.find("positions were never seen") != std::string::npos);

    GameRecord tampered = record;
    tampered.draws[4].value = (tampered.draws[4].value + 1) % 6;  // a die of the game
    const Finished bad = verify_file(dir, "tampered", tampered);
    CHECK(bad.status == 1);
    CHECK(bad.out.find("FAILED: draws: draw 4") != std::string::npos);

    // The die left alone but the announcement changed: refused as well.
    GameRecord told = record;
    told.announcements[2].text = "Throw 2: Ben throws 6. Ben throws again.";
    const Finished lie = verify_file(dir, "told", told);
    CHECK(lie.status == 1);
    CHECK(lie.out.find("FAILED: announcements[2]") != std::string::npos);
}
