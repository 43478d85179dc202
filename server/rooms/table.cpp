#include "table.h"
#include "table_game.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "spookludo/game_view.h"
#include "spookludo/ludo/policy.h"
#include "spookludo/ludo/record.h"
#include "spookludo/spook/match.h"
#include "spookludo/spook/policy.h"
#include "spookludo/spook/setup.h"

namespace spookludo::server {

using nlohmann::json;
using namespace protocol;

namespace {

// A board by its notation, shared: the balanced pools' boards (a fixed set, 96 for the three
// piece counts, made once) are each one object for every room that plays them; any other board
// (a game of random boards) is a room's own.
spook::SharedBoard pooled_board(const std::string& notation) {
    static const auto pools = [] {
        std::unordered_map<std::string_view, spook::SharedBoard> m;
        for (int pieces = 1; pieces <= spook::kMaxPieces; ++pieces)
            for (const auto& b : spook::balanced_pool(pieces))
                m.emplace(b.notation, std::make_shared<const spook::Board>(spook::Board::from_notation(b.notation)));
        return m;
    }();
    if (const auto it = pools.find(notation); it != pools.end()) return it->second;
    return std::make_shared<const spook::Board>(spook::Board::from_notation(notation));
}

std::vector<RecordSeat> record_seats(const std::vector<TableSeat>& seats) {
    std::vector<RecordSeat> out;
    for (std::size_t s = 0; s < seats.size(); ++s) {
        RecordSeat r{static_cast<int>(s), seats[s].name, seats[s].bot, std::nullopt, seats[s].number};
        if (seats[s].bot) r.policy = seats[s].policy;
        out.push_back(r);
    }
    return out;
}

// From the game's players (0..n-1) to the room's seats, for every message the table writes.
class SeatNumbers {
public:
    explicit SeatNumbers(const std::vector<TableSeat>& seats) {
        for (const auto& s : seats) numbers_.push_back(s.number);
    }
    int room(int player) const {
        return player >= 0 && player < static_cast<int>(numbers_.size()) ? numbers_[static_cast<std::size_t>(player)]
                                                                         : player;
    }
    const std::vector<int>& all() const { return numbers_; }

private:
    std::vector<int> numbers_;
};

// The die the stream's next draw shows: the draws so far are the record's.
Face next_die_of(const ServerSeed& seed, const GameRecord& record) {
    return static_cast<Face>(FairStream(seed, record.client_seeds).draw(record.draws.size(), 6)) + 1;
}

std::vector<PieceMoveView> moves_view(const std::vector<spook::PieceMove>& moved, const SeatNumbers& numbers) {
    std::vector<PieceMoveView> list;
    for (const auto& m : moved)
        list.push_back({numbers.room(m.seat), m.piece, m.from, m.to, std::nullopt, std::nullopt});
    return list;
}

std::string square_label(const spook::Board& board, spook::Square s) {
    if (s == spook::kChurch) return "church";
    if (spook::is_entrance(s)) return "entrance";
    return std::string(spook::id_of(board.at(s)));
}

class SpookTable final : public Table {
public:
    SpookTable(const GameOptions& options, const std::vector<TableSeat>& seats, const Publication& pub,
               std::vector<ClientSeed> client_seeds, Services& services)
        : numbers_(seats), services_(services), seed_(pub.seed),
          match_(options, record_seats(seats), boards_of(pub), pub.seed, std::move(client_seeds)),
          bot_chose_(seats.size(), false) {
        // Solve every seat's board now (the pool's boards come from the shared cache), so that
        // hints, timeouts and bots never wait for a solve mid-game.
        for (int s = 0; s < game().players(); ++s)
            solutions_.push_back(services_.solutions.get(game().board(s), game().pieces(),
                                                         options.spook.pieces_to_finish()));
    }

    std::vector<int> advance(std::vector<std::string>& out) override {
        std::vector<int> needs;
        switch (game().phase()) {
            case spook::RoundPhase::movement_roll: {
                const Face face = match_.roll_movement();
                out.push_back(encode_message(Roll{game().round(), face}));
                for (int s = 0; s < game().players(); ++s)
                    if (game().needs_decision(s)) needs.push_back(s);
                break;
            }
            case spook::RoundPhase::choosing: resolve(out); break;
            case spook::RoundPhase::activation_roll: {
                const int round = game().round();
                const Face face = match_.activate();
                const auto& act = game().last_activation();
                std::vector<int> finished;
                for (int p : act.finished) finished.push_back(numbers_.room(p));
                out.push_back(encode_message(Activation{round, face, std::string(spook::id_of(act.character)),
                                                    std::string(spook::name_of(act.character)),
                                                    std::string(spook::action_of(act.character)),
                                                    moves_view(act.moved, numbers_), finished}));
                break;
            }
            case spook::RoundPhase::finished: break;
        }
        return needs;
    }

    void resolve(std::vector<std::string>& out) override {
        if (game().phase() != spook::RoundPhase::choosing) return;
        if (auto v = match_.apply_moves(); !v) throw std::logic_error("apply_moves: " + v.reason);
        Moves moves{game().round(), {}};
        for (const auto& rec : game().last_moves()) {
            PieceMoveView m;
            m.seat = numbers_.room(rec.seat);
            if (rec.move) {
                m.piece = rec.move->piece;
                m.from = rec.move->from;
                m.to = rec.move->to;
            } else {
                m.stays = true;  // no piece could move
            }
            std::string by(spook::to_string(rec.source));
            if (rec.source == spook::ChoiceSource::player && bot_chose_[static_cast<std::size_t>(rec.seat)]) by = "bot";
            m.by = by;
            moves.moves.push_back(m);
        }
        out.push_back(encode_message(moves));
    }

    std::vector<DecisionOption> decision_options(int seat, bool hints) override {
        std::vector<DecisionOption> list;
        const auto& board = game().board(seat);
        const auto pos = game().player(seat).positions();
        for (const auto& m : game().legal_moves(seat)) {
            DecisionOption o;
            o.piece = m.piece;
            o.from = m.from;
            o.to = m.to;
            o.square = square_label(board, m.to);
            if (hints) {
                std::array<spook::Square, spook::kMaxPieces> after{};
                std::copy(pos.begin(), pos.end(), after.begin());
                after[static_cast<std::size_t>(m.piece)] = m.to;
                o.expected_rounds =
                    solutions_[static_cast<std::size_t>(seat)]->expected_after_move({after.data(), pos.size()});
            }
            list.push_back(o);
        }
        return list;
    }

    Verdict choose(int seat, int piece, ChoiceMaker maker, bool server_bot) override {
        Verdict v = match_.choose(seat, piece, maker);
        if (v) bot_chose_[static_cast<std::size_t>(seat)] = server_bot;
        return v;
    }

    int server_choice(int seat) override {
        return solutions_[static_cast<std::size_t>(seat)]->best_piece(game().player(seat).positions(),
                                                                        *game().movement_roll());
    }

    int bot_choice(int seat, PolicyKind policy, Rng& rng) const override {
        return spook::choose_piece(policy, game(), seat, rng, solutions_[static_cast<std::size_t>(seat)].get());
    }

    Face next_die() const override { return next_die_of(seed_, match_.record()); }

    int step_number() const override { return game().round(); }
    bool over() const override { return game().over(); }
    void abandon() override { match_.abandon(); }
    const GameRecord& record() const override { return match_.record(); }

    void describe(RoomSnapshot& snapshot) const override { snapshot.spook = spook_view(game(), numbers_.all()); }

private:
    static std::vector<spook::SharedBoard> boards_of(const Publication& pub) {
        std::vector<spook::SharedBoard> boards;
        for (const auto& b : pub.boards) boards.push_back(pooled_board(b));
        return boards;
    }
    const spook::Game& game() const { return match_.game(); }

    SeatNumbers numbers_;
    Services& services_;
    ServerSeed seed_;
    spook::Match match_;
    std::vector<bool> bot_chose_;  // by seat: this round's choice was a server-side bot's
    std::vector<std::shared_ptr<const spook::Solution>> solutions_;
};


std::vector<EventView> events_view(const ludo::EventLog& events, int players, const SeatNumbers& numbers) {
    std::vector<EventView> list;
    for (const auto& e : events) {
        EventView v;
        v.kind = std::string(ludo::to_string(e.kind));
        v.text = ludo::describe(e, players);
        if (e.seat >= 0) {
            v.seat = numbers.room(e.seat);
            v.colour = std::string(ludo::to_string(ludo::colour_of_seat(players, e.seat)));
        }
        if (e.kind == ludo::EventKind::throw_) v.turn = e.turn;
        if (e.piece >= 0) v.piece = e.piece;
        if (e.face > 0) v.face = e.face;
        if (e.kind == ludo::EventKind::entered || e.kind == ludo::EventKind::moved || e.kind == ludo::EventKind::captured ||
            e.kind == ludo::EventKind::circles || e.kind == ludo::EventKind::safe_square) {
            v.from = e.from;
            v.to = e.to;
            if (e.square >= 0) v.square = e.square;
        }
        if (e.kind == ludo::EventKind::extra_throw) {
            static constexpr const char* reasons[] = {"six", "capture", "home"};
            v.reason = reasons[e.detail >= 0 && e.detail <= 2 ? e.detail : 0];
        }
        if ((e.kind == ludo::EventKind::safe_square || e.kind == ludo::EventKind::team_finished) && e.detail >= 0)
            v.with = numbers.room(e.detail);
        list.push_back(v);
    }
    return list;
}

class LudoTable final : public Table {
public:
    LudoTable(const GameOptions& options, const std::vector<TableSeat>& seats, const Publication& pub,
              std::vector<ClientSeed> client_seeds, int server_move_version)
        : numbers_(seats),
          seed_(pub.seed),
          match_(options, record_seats(seats), pub.seed, std::move(client_seeds), server_move_version) {}

    std::vector<int> advance(std::vector<std::string>& out) override {
        if (!roll_off_shown_) {
            roll_off_shown_ = true;
            out.push_back(encode_message(RollOff{numbers_.room(game().current_seat()), events()}));
            return {};
        }
        if (match_.over() || match_.abandoned() || match_.awaiting_choice()) return {};
        const int seat = game().current_seat();
        const Face face = match_.throw_die();
        out.push_back(encode_message(Throw{game().turns(), numbers_.room(seat), face, events()}));
        if (match_.awaiting_choice()) return {game().current_seat()};
        return {};
    }

    void resolve(std::vector<std::string>& out) override {
        if (!chosen_) return;
        chosen_ = false;
        out.push_back(encode_message(LudoMove{game().turns(), by_, events()}));
    }

    std::vector<DecisionOption> decision_options(int seat, bool hints) override {
        std::vector<DecisionOption> list;
        if (seat != game().current_seat() || !match_.awaiting_choice()) return list;
        const int best = hints ? match_.server_choice() : -1;
        for (const auto& m : game().legal_moves()) {
            DecisionOption o;
            o.piece = m.piece;
            o.from = m.from;
            o.to = m.to;
            o.captures = m.captures();
            if (hints) o.best = m.piece == best;
            list.push_back(o);
        }
        return list;
    }

    Verdict choose(int seat, int piece, ChoiceMaker maker, bool server_bot) override {
        Verdict v = match_.choose(seat, piece, maker);
        if (v) {
            chosen_ = true;
            by_ = maker == ChoiceMaker::player && server_bot ? "bot" : std::string(to_string(maker));
        }
        return v;
    }

    int server_choice(int) override { return match_.server_choice(); }
    int server_move_version() const override { return match_.server_move_version(); }

    int bot_choice(int, PolicyKind policy, Rng& rng) const override { return ludo::choose_piece(policy, game(), rng); }

    Face next_die() const override { return next_die_of(seed_, match_.record()); }

    int step_number() const override { return game().turns(); }
    bool over() const override { return match_.over(); }
    void abandon() override { match_.abandon(); }
    const GameRecord& record() const override { return match_.record(); }

    void describe(RoomSnapshot& snapshot) const override { snapshot.ludo = ludo_view(game(), numbers_.all()); }

private:
    const ludo::Game& game() const { return match_.game(); }
    std::vector<EventView> events() const { return events_view(match_.events(), game().players(), numbers_); }

    SeatNumbers numbers_;
    ServerSeed seed_;
    ludo::Match match_;
    bool roll_off_shown_ = false;
    bool chosen_ = false;
    std::string by_;
};

}  // namespace

void Table::skip(std::vector<std::string>&) { throw std::logic_error("turns are skipped in a table game only"); }
void Table::declare(const std::vector<int>&) { throw std::logic_error("winners are declared in a table game only"); }

Publication publish(const GameOptions& options) {
    Publication pub;
    pub.seed = ServerSeed::generate();
    if (options.game == GameKind::spook) {
        // The set of boards is the server's own choice (from secure randomness, not the game's
        // stream); which seat gets which board is drawn from the stream later.
        const ServerSeed pick = ServerSeed::generate();
        std::uint64_t seed = 0;
        for (int i = 0; i < 8; ++i) seed = (seed << 8) | pick.bytes[static_cast<std::size_t>(i)];
        Rng rng(seed);
        for (const auto& b : spook::choose_board_set(options, rng)) pub.boards.push_back(b.notation());
    }
    return pub;
}

std::unique_ptr<Table> make_table(const GameOptions& options, const std::vector<TableSeat>& seats,
                                  const Publication& publication, std::vector<ClientSeed> client_seeds,
                                  Services& services, const std::vector<std::string>& seed_by,
                                  int ludo_server_move_version) {
    if (options.table) return make_table_game(options, publication, std::move(client_seeds), seed_by);
    if (options.game == GameKind::spook)
        return std::make_unique<SpookTable>(options, seats, publication, std::move(client_seeds), services);
    return std::make_unique<LudoTable>(options, seats, publication, std::move(client_seeds),
                                       ludo_server_move_version > 0 ? ludo_server_move_version : ludo::kServerMoveVersion);
}

}  // namespace spookludo::server
