#include "spookludo/spook/game.h"

#include <algorithm>
#include <stdexcept>

namespace spookludo::spook {

std::string_view to_string(RoundPhase phase) noexcept {
    switch (phase) {
        case RoundPhase::movement_roll: return "movement_roll";
        case RoundPhase::choosing: return "choosing";
        case RoundPhase::activation_roll: return "activation_roll";
        case RoundPhase::finished: return "finished";
    }
    return "?";
}

std::string_view to_string(ChoiceSource source) noexcept {
    switch (source) {
        case ChoiceSource::player: return "player";
        case ChoiceSource::only_move: return "only_move";
        case ChoiceSource::timeout: return "timeout";
        case ChoiceSource::away: return "away";
    }
    return "?";
}

int PlayerState::in_church() const noexcept {
    int n = 0;
    for (int i = 0; i < piece_count; ++i) n += pieces[static_cast<std::size_t>(i)] == kChurch;
    return n;
}

Game::Game(const GameOptions& options, std::vector<Board> boards) : Game(options, share(std::move(boards))) {}

Game::Game(const GameOptions& options, std::vector<SharedBoard> boards) : options_(options), boards_(std::move(boards)) {
    if (options_.game != GameKind::spook) throw std::invalid_argument("these options are not for a spook game");
    if (auto err = options_.validate()) throw std::invalid_argument(*err);
    if (static_cast<int>(boards_.size()) != options_.players)
        throw std::invalid_argument("a game needs one board per player: " + std::to_string(options_.players) +
                                    " players, " + std::to_string(boards_.size()) + " boards");
    for (std::size_t i = 0; i < boards_.size(); ++i) {
        if (!boards_[i]) throw std::invalid_argument("board " + std::to_string(i + 1) + ": missing");
        if (auto empty = boards_[i]->first_empty_square())
            throw std::invalid_argument("board " + std::to_string(i + 1) + ", square " + std::to_string(*empty) +
                                        ": carries no character");
        for (std::size_t j = 0; j < i; ++j)
            if (*boards_[i] == *boards_[j])
                throw std::invalid_argument("board " + std::to_string(i + 1) + " is the same as board " +
                                            std::to_string(j + 1) + ": the boards of a game must all differ");
    }
    players_.resize(boards_.size());
    for (auto& p : players_) p.piece_count = options_.spook.pieces;
    last_moves_.reserve(boards_.size());
}

const MoveList& Game::legal_moves(int seat) const noexcept {
    static const MoveList none;
    if (phase_ != RoundPhase::choosing || seat < 0 || seat >= players()) return none;
    return moves_[static_cast<std::size_t>(seat)];
}

MoveList Game::compute_moves(int seat) const noexcept {
    MoveList list;
    const auto& p = players_[static_cast<std::size_t>(seat)];
    if (p.finished_round) return list;
    for (int i = 0; i < p.piece_count; ++i) {
        const Square from = p.pieces[static_cast<std::size_t>(i)];
        if (from == kChurch || from + *roll_ > kChurch) continue;
        bool duplicate = false;
        for (const Move& m : list) duplicate |= m.from == from;
        if (duplicate) continue;
        list.moves[static_cast<std::size_t>(list.size++)] = {i, from, from + *roll_};
    }
    return list;
}

bool Game::needs_decision(int seat) const {
    return phase_ == RoundPhase::choosing && seat >= 0 && seat < players() &&
           !choice_[static_cast<std::size_t>(seat)] && legal_moves(seat).size >= 2;
}

std::vector<int> Game::awaiting() const {
    std::vector<int> seats;
    for (int s = 0; s < players(); ++s)
        if (needs_decision(s)) seats.push_back(s);
    return seats;
}

Verdict Game::roll_movement(Face face) {
    if (phase_ != RoundPhase::movement_roll)
        return Verdict::reject("the movement roll comes at the start of a round (now: " +
                               std::string(to_string(phase_)) + ")");
    if (face < 1 || face > 6) return Verdict::reject("a die shows 1 to 6 (got " + std::to_string(face) + ")");
    roll_ = face;
    choice_.fill(std::nullopt);
    for (int s = 0; s < players(); ++s) moves_[static_cast<std::size_t>(s)] = compute_moves(s);
    phase_ = RoundPhase::choosing;
    return Verdict::accept();
}

Verdict Game::choose(int seat, int piece, ChoiceSource source) {
    if (phase_ != RoundPhase::choosing)
        return Verdict::reject("no move is being chosen now (the round is at " + std::string(to_string(phase_)) + ")");
    if (seat < 0 || seat >= players()) return Verdict::reject("there is no seat " + std::to_string(seat + 1));
    if (!in_play(seat)) return Verdict::reject("seat " + std::to_string(seat + 1) + " has finished and moves no more");
    const auto& p = player(seat);
    if (piece < 0 || piece >= p.piece_count)
        return Verdict::reject("there is no piece " + std::to_string(piece) + " (pieces are 0 to " +
                                   std::to_string(p.piece_count - 1) + ")",
                               "no_piece", {{"piece", piece}, {"max", p.piece_count - 1}});
    if (choice_[static_cast<std::size_t>(seat)])
        return Verdict::reject("seat " + std::to_string(seat + 1) + " has already chosen this round");
    const Square from = p.pieces[static_cast<std::size_t>(piece)];
    if (from == kChurch)
        return Verdict::reject("piece " + std::to_string(piece) + " is in the church and moves no more", "home_already",
                               {{"piece", piece}});
    if (from + *roll_ > kChurch)
        return Verdict::reject("piece " + std::to_string(piece) + " on square " + std::to_string(from) +
                                   " cannot move " + std::to_string(*roll_) + ": the church needs an exact throw of " +
                                   std::to_string(kChurch - from),
                               "exact_throw",
                               {{"piece", piece}, {"square", from}, {"face", *roll_}, {"needed", kChurch - from}});
    choice_[static_cast<std::size_t>(seat)] = piece;
    choice_source_[static_cast<std::size_t>(seat)] = source;
    return Verdict::accept();
}

std::optional<Move> Game::chosen(int seat) const {
    if (seat < 0 || seat >= players() || phase_ != RoundPhase::choosing) return std::nullopt;
    const auto& c = choice_[static_cast<std::size_t>(seat)];
    if (!c) return std::nullopt;
    const Square from = player(seat).pieces[static_cast<std::size_t>(*c)];
    return Move{*c, from, from + *roll_};
}

Verdict Game::apply_moves() {
    if (phase_ != RoundPhase::choosing)
        return Verdict::reject("moves are applied after the movement roll (now: " + std::string(to_string(phase_)) +
                               ")");
    for (int s = 0; s < players(); ++s)
        if (needs_decision(s)) return Verdict::reject("seat " + std::to_string(s + 1) + " has not chosen yet");
    last_moves_.clear();
    for (int s = 0; s < players(); ++s) {
        const auto idx = static_cast<std::size_t>(s);
        auto& p = players_[idx];
        if (p.finished_round) continue;
        MoveRecord rec{s, std::nullopt, ChoiceSource::only_move};
        if (const auto& piece = choice_[idx]) {
            const Square from = p.pieces[static_cast<std::size_t>(*piece)];
            rec.move = Move{*piece, from, from + *roll_};
            rec.source = choice_source_[idx];
        } else if (!moves_[idx].empty()) {
            rec.move = moves_[idx][0];  // the only distinct outcome
        }
        // Moves are independent (every player has their own board), so applying them one
        // after another is applying them together.
        if (rec.move) p.pieces[static_cast<std::size_t>(rec.move->piece)] = rec.move->to;
        last_moves_.push_back(rec);
    }
    phase_ = RoundPhase::activation_roll;
    return Verdict::accept();
}

Verdict Game::activate(Face face) {
    if (phase_ != RoundPhase::activation_roll)
        return Verdict::reject("the activation roll comes after the moves (now: " + std::string(to_string(phase_)) +
                               ")");
    if (face < 1 || face > 6) return Verdict::reject("a die shows 1 to 6 (got " + std::to_string(face) + ")");
    auto& act = last_activation_;
    act.face = face;
    act.character = character_for_face(face);
    act.moved.clear();
    act.finished.clear();
    // Every piece on a square carrying the woken character takes the action once; a piece it
    // carries onto another character does nothing more this round. A player who has finished
    // (play on) takes no more part. Then every player with enough pieces in the church has
    // finished in this round.
    const int need = options_.spook.pieces_to_finish();
    for (int s = 0; s < players(); ++s) {
        auto& p = players_[static_cast<std::size_t>(s)];
        if (p.finished_round) continue;
        const Board& b = *boards_[static_cast<std::size_t>(s)];
        for (int i = 0; i < p.piece_count; ++i) {
            Square& sq = p.pieces[static_cast<std::size_t>(i)];
            const Square to = b.after_activation(face, sq);
            if (to != sq) {
                act.moved.push_back({s, i, sq, to});
                sq = to;
            }
        }
        if (p.in_church() >= need) {
            p.finished_round = round_;
            act.finished.push_back(s);
        }
    }
    roll_.reset();
    if (game_should_end()) {
        phase_ = RoundPhase::finished;
    } else {
        phase_ = RoundPhase::movement_roll;
        ++round_;
    }
    return Verdict::accept();
}

bool Game::game_should_end() const {
    int finished = 0;
    for (const auto& p : players_) finished += p.finished_round.has_value();
    if (finished == 0) return false;
    if (!options_.play_on) return true;
    // Playing on: until every player is ranked; the last one left is ranked last without playing.
    const int unfinished = players() - finished;
    return unfinished == 0 || (unfinished == 1 && players() > 1);
}

std::vector<Standing> Game::standings() const {
    std::vector<std::optional<int>> at;
    for (const auto& p : players_) at.push_back(p.finished_round);
    return rank_by_finish(at);
}

std::vector<int> Game::winners() const { return winners_of(standings()); }

}  // namespace spookludo::spook
