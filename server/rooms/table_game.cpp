#include "table_game.h"

#include <stdexcept>

#include "spookludo/in_person.h"
#include "spookludo/spook/board.h"

namespace spookludo::server {

using namespace protocol;

namespace {

class TableGame final : public Table {
public:
    TableGame(const GameOptions& options, const Publication& pub, std::vector<ClientSeed> client_seeds,
              const std::vector<std::string>& seed_by)
        : seed_(pub.seed), dice_(FairStream(pub.seed, client_seeds)), game_(options, options.table_names, dice_) {
        std::vector<RecordSeat> seats;
        for (std::size_t i = 0; i < options.table_names.size(); ++i)
            seats.push_back({static_cast<int>(i), options.table_names[i], false, std::nullopt, std::nullopt});
        record_ = start_record(options, std::move(seats), pub.seed, std::move(client_seeds));
        record_.client_seed_by = seed_by;
        record_.client_seed_by.resize(record_.client_seeds.size(), "a device at the table");
        record_.boards = pub.boards;
        record_.assignment = game_.assignment();
        sync();
    }

    std::vector<int> advance(std::vector<std::string>& out) override {
        if (game_.over()) return {};
        const auto& a = game_.next();
        if (a.kind == "movement") {
            out.push_back(encode_message(Roll{a.step, a.face, true, a.text}));
        } else if (a.kind == "activation") {
            const auto c = spook::character_for_face(a.face);
            out.push_back(encode_message(Activation{a.step, a.face, a.character, std::string(spook::name_of(c)),
                                                    std::string(spook::action_of(c)), {}, {}, true, a.text}));
        } else if (a.kind == "roll_off") {
            RollOff r{a.seat, {}, true, a.text, game_.names()};
            for (const auto& [who, face] : a.roll_off) {
                EventView e;
                e.kind = "roll_off_throw";
                e.text = game_.names()[static_cast<std::size_t>(who)] + " throws " + std::to_string(face);
                e.seat = who;
                e.face = face;
                r.events.push_back(e);
            }
            out.push_back(encode_message(r));
        } else {
            out.push_back(encode_message(
                Throw{a.step, a.seat, a.face, {}, true, a.text, game_.names()[static_cast<std::size_t>(a.seat)], a.next,
                      game_.names()[static_cast<std::size_t>(a.next)]}));
        }
        sync();
        return {};
    }

    void skip(std::vector<std::string>& out) override {
        const auto& a = game_.skip();
        out.push_back(encode_message(TurnSkipped{a.step, a.seat, a.next, a.text,
                                                 game_.names()[static_cast<std::size_t>(a.seat)],
                                                 game_.names()[static_cast<std::size_t>(a.next)]}));
        sync();
    }

    void declare(const std::vector<int>& winners) override {
        game_.declare(winners);
        record_.result.status = GameStatus::finished;
        record_.result.winners = game_.announcements().back().winners;
        for (int w : record_.result.winners) record_.result.places[static_cast<std::size_t>(w)] = 1;
        record_.server_seed = seed_.hex();
        sync();
    }

    void resolve(std::vector<std::string>&) override {}
    std::vector<DecisionOption> decision_options(int, bool) override { return {}; }
    Verdict choose(int, int, ChoiceMaker, bool) override {
        return Verdict::reject("nobody chooses on a screen in a table game: people move their own coins");
    }
    int server_choice(int) override { return 0; }
    int bot_choice(int, PolicyKind, Rng&) const override { return 0; }

    Face next_die() const override {
        return static_cast<Face>(FairStream(seed_, record_.client_seeds).draw(record_.draws.size(), 6)) + 1;
    }
    int step_number() const override { return game_.steps(); }
    bool over() const override { return game_.over(); }
    void abandon() override {
        if (record_.result.status != GameStatus::in_progress) return;
        record_.result.status = GameStatus::abandoned;
        record_.server_seed = seed_.hex();
    }
    const GameRecord& record() const override { return record_; }

    void describe(RoomSnapshot& snapshot) const override {
        TableView v;
        v.names = game_.names();
        v.next = game_.next_kind();
        v.dice = game_.steps();
        if (game_.spook()) v.round = game_.round();
        else if (game_.turn() >= 0) v.turn = game_.turn();
        v.assignment = game_.assignment();
        // The last die, and the last thing the table was told.
        for (auto it = game_.announcements().rbegin(); it != game_.announcements().rend(); ++it)
            if (it->face > 0) {
                v.face = it->face;
                break;
            }
        if (!game_.announcements().empty()) {
            v.last = game_.announcements().back().text;
            const auto& a = game_.announcements().back();
            v.last_kind = a.kind;
            v.last_step = a.step;
            if (a.seat >= 0) v.last_seat = a.seat;
            if (a.next >= 0) v.last_next = a.next;
            if (!a.character.empty()) v.last_character = a.character;
        }
        v.seeds_by = record_.client_seed_by;
        snapshot.table = std::move(v);
    }

private:
    // The record follows the game: its draws, what was said, its length.
    void sync() {
        record_.draws = dice_.draws();
        record_.announcements.clear();
        for (const auto& a : game_.announcements()) record_.announcements.push_back({a.step, a.kind, a.text});
        record_.result.length = game_.steps();
    }

    ServerSeed seed_;
    FairDice dice_;
    in_person::Game game_;
    GameRecord record_;
};

}  // namespace

std::unique_ptr<Table> make_table_game(const GameOptions& options, const Publication& publication,
                                       std::vector<ClientSeed> client_seeds, const std::vector<std::string>& seed_by) {
    return std::make_unique<TableGame>(options, publication, std::move(client_seeds), seed_by);
}

}  // namespace spookludo::server
