#include "spookludo/ludo/game.h"

#include <algorithm>
#include <stdexcept>

namespace spookludo::ludo {

std::string_view to_string(Phase phase) noexcept {
    switch (phase) {
        case Phase::awaiting_roll_off:
            return "awaiting_roll_off";
        case Phase::awaiting_throw:
            return "awaiting_throw";
        case Phase::awaiting_choice:
            return "awaiting_choice";
        case Phase::finished:
            return "finished";
    }
    return "unknown";
}

Game::Game(const GameOptions& options) : options_(options), geometry_(options.ludo.arm) {
    if (options.game != GameKind::ludo) throw std::invalid_argument("these options are not for ludo");
    if (auto err = options.validate()) throw std::invalid_argument(*err);
    players_ = options.players;
    for (int s = 0; s < players_; ++s) {
        colours_[idx(s)] = colour_of_seat(players_, s);
        progress_[idx(s)].fill(static_cast<std::int8_t>(kYard));
    }
}

std::optional<int> Game::finished_at(int seat) const noexcept {
    const int t = finished_at_[idx(seat)];
    if (t < 0) return std::nullopt;
    return t;
}

int Game::unfinished_players() const noexcept {
    int n = 0;
    for (int s = 0; s < players_; ++s) n += finished_at_[idx(s)] < 0 ? 1 : 0;
    return n;
}

std::vector<Standing> Game::standings() const {
    std::vector<std::optional<int>> at;
    for (int s = 0; s < players_; ++s) at.push_back(finished_at(s));
    if (!options_.ludo.teams) return rank_by_finish(at);
    // Teams: a team finishes when its second partner does; the teams are ranked, and both partners
    // take their team's place (the winners 1, the other team 2).
    std::vector<std::optional<int>> team_at(2);
    for (int t = 0; t < 2; ++t)
        if (at[idx(t)] && at[idx(t + 2)]) team_at[idx(t)] = std::max(*at[idx(t)], *at[idx(t + 2)]);
    const std::vector<Standing> teams = rank_by_finish(team_at);
    std::vector<Standing> out;
    for (const Standing& team : teams)
        for (const int s : {team.seat, team.seat + 2}) out.push_back({s, team.place, team.finished_at});
    return out;
}

std::vector<int> Game::winners() const {
    return winners_of(standings());
}

// ---------------------------------------------------------------------------------------------
// The legal-move generator: every rule about where a piece may go lives here.

int Game::occupant(int square) const noexcept {
    const std::uint16_t v = squares_[idx(square)];
    for (int s = 0; s < kMaxPlayers; ++s)
        if ((v >> (4 * s)) & 15) return s;
    return -1;
}

int Game::occupant_count(int square) const noexcept {
    const std::uint16_t v = squares_[idx(square)];
    return (v & 15) + ((v >> 4) & 15) + ((v >> 8) & 15) + ((v >> 12) & 15);
}

// A square's word holds a nibble a seat, its count of pieces there (at most four): a nibble with
// any bit but its lowest set means two or more.
bool Game::is_block(int square) const noexcept {
    const unsigned v = squares_[idx(square)];
    if (!options_.ludo.teams) return (v & 0xEEEEu) != 0;
    return (v & 15u) + ((v >> 8) & 15u) >= 2 || ((v >> 4) & 15u) + ((v >> 12) & 15u) >= 2;
}

bool Game::blocks(int seat, int square) const noexcept {
    const unsigned v = squares_[idx(square)];
    if (v == 0) return false;
    if (!options_.ludo.teams) return ((v & ~(15u << (4 * seat))) & 0xEEEEu) != 0;
    const int o = (seat + 1) % 2;  // a seat of the other team; its partner is o + 2
    return ((v >> (4 * o)) & 15u) + ((v >> (4 * (o + 2))) & 15u) >= 2;
}

Game::MoveCheck Game::check_piece(int seat, int piece, Face f, Move& move, int& blocked_square) const noexcept {
    const int from = progress_[idx(seat)][idx(piece)];
    const Geometry& g = geometry_;
    const Colour c = colours_[idx(seat)];
    if (from == g.home()) return MoveCheck::home_already;

    // The move as steps along the track: the circuit squares it walks are those from `first` to
    // `last` steps from the start square (round the circuit again when a piece circles).
    int to = 0;
    int first = 0;
    int last = -1;
    if (from == kYard) {
        if (f != 6) return MoveCheck::needs_six;
        to = options_.ludo.entry == LudoEntry::text ? 5 : 0;  // the text: six squares round, the start square the first
        first = 0;
        last = to;
    } else {
        const int at = g.steps(from);
        const int ahead = at + f;
        if (at <= g.last_circuit_progress() && ahead > g.last_circuit_progress() && !may_enter_home(seat)) {
            // capture_to_home: no capture yet, so past the home column and round again.
            first = at + 1;
            last = ahead;
            to = ahead - g.circuit_squares();
            if (to == -1) to = g.behind_start();
        } else {
            to = ahead;
            if (to > g.home()) return MoveCheck::overshoots;
            first = at + 1;
            last = to < g.last_circuit_progress() ? to : g.last_circuit_progress();
        }
    }
    // Blocks exist on the circuit only: check the circuit part of the path.
    if (first <= last) {
        int sq = g.square_ahead(c, first);
        for (int p = first; p <= last; ++p) {
            if (blocks(seat, sq)) {
                blocked_square = sq;
                return from == kYard ? MoveCheck::entry_blocked : MoveCheck::path_blocked;
            }
            if (++sq == g.circuit_squares()) sq = 0;
        }
    }
    move.piece = static_cast<std::int8_t>(piece);
    move.from = static_cast<std::int8_t>(from);
    move.to = static_cast<std::int8_t>(to);
    move.captured_seat = -1;
    move.captured_piece = -1;
    if (g.on_circuit(to)) {
        const int sq = g.square_of(c, to);
        if (squares_[idx(sq)] != 0 && !(options_.ludo.safe_squares && g.is_safe_square(sq))) {
            // Not a block of another side (checked above): at most one single piece of another
            // side stands here (two sides share a square only on a safe square). Find it.
            for (int o = 0; o < players_ && move.captured_seat < 0; ++o) {
                if (side(o) == side(seat) || count_on(sq, o) == 0) continue;
                const Colour oc = colours_[idx(o)];
                for (int j = 0; j < kPiecesPerPlayer; ++j)
                    if (g.square_of(oc, progress_[idx(o)][idx(j)]) == sq) {
                        move.captured_seat = static_cast<std::int8_t>(o);
                        move.captured_piece = static_cast<std::int8_t>(j);
                        break;
                    }
            }
        }
    }
    return MoveCheck::ok;
}

MoveList Game::legal_moves_for(int seat, Face f) const noexcept {
    MoveList list;
    const auto& mine = progress_[idx(seat)];
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        bool seen = false;  // a piece standing with a lower-numbered one gives the same choice
        for (int j = 0; j < i; ++j) seen = seen || mine[idx(j)] == mine[idx(i)];
        if (seen) continue;
        Move m;
        int blocked = -1;
        if (check_piece(seat, i, f, m, blocked) == MoveCheck::ok) list.push_back(m);
    }
    return list;
}

MoveList Game::legal_moves() const noexcept {
    if (phase_ != Phase::awaiting_choice) return {};
    return legal_moves_for(seat_, face_);
}

// ---------------------------------------------------------------------------------------------
// Steps.

void Game::roll_off(Dice& dice, EventLog* log) {
    if (phase_ != Phase::awaiting_roll_off) throw std::logic_error("the roll-off is over");
    std::array<bool, kMaxPlayers> in{};
    for (int s = 0; s < players_; ++s) in[idx(s)] = true;
    for (;;) {
        int best = 0;
        int count = 0;
        int winner = -1;
        std::array<int, kMaxPlayers> faces{};
        for (int s = 0; s < players_; ++s) {
            if (!in[idx(s)]) continue;
            const Face f = dice.roll(DrawPurpose::roll_off);
            faces[idx(s)] = f;
            if (log)
                log->push_back({EventKind::roll_off_throw, static_cast<std::int8_t>(s), -1, static_cast<std::int8_t>(f),
                                0, 0, -1, 0});
            if (f > best) {
                best = f;
                count = 1;
                winner = s;
            } else if (f == best) {
                ++count;
            }
        }
        if (count == 1) {
            start_with(winner);
            if (log) log->push_back({EventKind::starts, static_cast<std::int8_t>(winner), -1, 0, 0, 0, -1, 0});
            return;
        }
        for (int s = 0; s < players_; ++s) in[idx(s)] = in[idx(s)] && faces[idx(s)] == best;
    }
}

void Game::start_with(int seat) {
    if (seat < 0 || seat >= players_) throw std::invalid_argument("no such seat: " + std::to_string(seat + 1));
    if (has_finished(seat)) throw std::invalid_argument("seat " + std::to_string(seat + 1) + " has finished");
    seat_ = static_cast<std::int8_t>(seat);
    face_ = 0;
    sixes_ = 0;
    phase_ = Phase::awaiting_throw;
}

Verdict Game::can_throw(int seat) const {
    switch (phase_) {
        case Phase::awaiting_roll_off:
            return Verdict::reject("the roll-off has not been thrown yet");
        case Phase::finished:
            return Verdict::reject("the game is over");
        case Phase::awaiting_choice:
            return Verdict::reject("the " + std::to_string(face_) + " thrown must be played first");
        case Phase::awaiting_throw:
            break;
    }
    if (seat != seat_) return Verdict::reject("it is " + std::string(to_string(colour(seat_))) + "'s turn to throw");
    return Verdict::accept();
}

void Game::throw_die(Dice& dice, EventLog* log) {
    if (phase_ != Phase::awaiting_throw)
        throw std::logic_error("no throw is due (the game is " + std::string(to_string(phase_)) + ")");
    apply_throw(dice.roll(DrawPurpose::throw_), log);
}

void Game::end_turn(EventLog* log) {
    sixes_ = 0;
    face_ = 0;
    int s = seat_;
    do {
        s = s + 1 == players_ ? 0 : s + 1;
    } while (finished_at_[idx(s)] >= 0);
    seat_ = static_cast<std::int8_t>(s);
    phase_ = Phase::awaiting_throw;
    if (log) log->push_back({EventKind::turn, seat_, -1, 0, 0, 0, -1, turns_});
}

void Game::apply_throw(Face f, EventLog* log) {
    if (phase_ != Phase::awaiting_throw)
        throw std::logic_error("no throw is due (the game is " + std::string(to_string(phase_)) + ")");
    if (f < 1 || f > 6) throw std::logic_error("a die face must be 1 to 6 (got " + std::to_string(f) + ")");
    ++turns_;
    face_ = static_cast<std::int8_t>(f);
    if (log) log->push_back({EventKind::throw_, seat_, -1, face_, 0, 0, -1, turns_});
    sixes_ = f == 6 ? static_cast<std::int8_t>(sixes_ + 1) : std::int8_t{0};
    if (options_.ludo.three_sixes && sixes_ >= 3) {
        if (log) log->push_back({EventKind::three_sixes, seat_, -1, face_, 0, 0, -1, turns_});
        end_turn(log);
        return;
    }
    // Is any move legal? (Cheaper than building the list.)
    Move m;
    int blocked = -1;
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        if (check_piece(seat_, i, f, m, blocked) == MoveCheck::ok) {
            phase_ = Phase::awaiting_choice;
            return;
        }
    }
    if (log) log->push_back({EventKind::pass, seat_, -1, face_, 0, 0, -1, turns_});
    end_turn(log);
}

Verdict Game::check(int seat, int piece) const {
    switch (phase_) {
        case Phase::awaiting_roll_off:
            return Verdict::reject("the roll-off has not been thrown yet");
        case Phase::finished:
            return Verdict::reject("the game is over");
        case Phase::awaiting_throw:
            return Verdict::reject("there is no throw to play: " + std::string(to_string(colour(seat_))) +
                                   " must throw first");
        case Phase::awaiting_choice:
            break;
    }
    if (seat < 0 || seat >= players_) return Verdict::reject("there is no seat " + std::to_string(seat + 1));
    if (seat != seat_)
        return Verdict::reject("it is " + std::string(to_string(colour(seat_))) + "'s turn, not " +
                               std::string(to_string(colour(seat))) + "'s");
    if (piece < 0 || piece >= kPiecesPerPlayer)
        return Verdict::reject("there is no piece " + std::to_string(piece) + " (pieces are 0 to 3)", "no_piece",
                               {{"piece", piece}, {"max", kPiecesPerPlayer - 1}});
    Move m;
    int blocked = -1;
    const std::string which = "piece " + std::to_string(piece);
    switch (check_piece(seat, piece, face_, m, blocked)) {
        case MoveCheck::ok:
            return Verdict::accept();
        case MoveCheck::home_already:
            return Verdict::reject(which + " is already home", "home_already", {{"piece", piece}});
        case MoveCheck::needs_six:
            return Verdict::reject(which + " is in the yard: only a 6 brings it out (the throw is " +
                                       std::to_string(face_) + ")",
                                   "needs_six", {{"piece", piece}, {"face", face_}});
        case MoveCheck::overshoots: {
            const int need = geometry_.home() - progress(seat, piece);
            return Verdict::reject(which + " needs exactly " + std::to_string(need) + " to reach home (the throw is " +
                                       std::to_string(face_) + ")",
                                   "exact_throw", {{"piece", piece}, {"face", face_}, {"needed", need}});
        }
        case MoveCheck::entry_blocked:
            return Verdict::reject(which + " cannot enter: " + std::string(to_string(colour(occupant(blocked)))) +
                                       "'s block stands on circuit square " + std::to_string(blocked) + " of its way in",
                                   "entry_blocked", {{"piece", piece}, {"seat", occupant(blocked)}, {"square", blocked}});
        case MoveCheck::path_blocked:
            return Verdict::reject(which + " cannot pass or land on " +
                                       std::string(to_string(colour(occupant(blocked)))) + "'s block on circuit square " +
                                       std::to_string(blocked),
                                   "path_blocked", {{"piece", piece}, {"seat", occupant(blocked)}, {"square", blocked}});
    }
    return Verdict::reject("illegal move");
}

Verdict Game::choose(int seat, int piece, EventLog* log) {
    Verdict v = check(seat, piece);
    if (!v) return v;
    Move m;
    int blocked = -1;
    check_piece(seat, piece, face_, m, blocked);
    play(m, log);
    return v;
}

void Game::put(int seat, int square) noexcept {
    squares_[idx(square)] = static_cast<std::uint16_t>(squares_[idx(square)] + (1u << (4 * seat)));
}

void Game::lift(int seat, int square) noexcept {
    squares_[idx(square)] = static_cast<std::uint16_t>(squares_[idx(square)] - (1u << (4 * seat)));
}

void Game::play(const Move& m, EventLog* log) {
    const int seat = seat_;
    const Colour c = colours_[idx(seat)];
    const Geometry& g = geometry_;
    if (g.on_circuit(m.from)) lift(seat, g.square_of(c, m.from));
    const int to_square = g.square_of(c, m.to);
    int victim_from = 0;
    if (m.captures()) {
        victim_from = progress_[idx(m.captured_seat)][idx(m.captured_piece)];
        lift(m.captured_seat, to_square);
        progress_[idx(m.captured_seat)][idx(m.captured_piece)] = static_cast<std::int8_t>(kYard);
        captured_[idx(seat)] = true;
    }
    // Landed beside another side's piece without capturing it: only on a safe square.
    int beside = -1;
    if (to_square >= 0 && !m.captures() && squares_[idx(to_square)] != 0)
        for (int o = 0; o < players_ && beside < 0; ++o)
            if (side(o) != side(seat) && count_on(to_square, o) > 0) beside = o;
    progress_[idx(seat)][idx(m.piece)] = m.to;
    if (to_square >= 0) put(seat, to_square);
    if (log) {
        log->push_back({m.enters() ? EventKind::entered : EventKind::moved, seat_, m.piece, face_, m.from, m.to,
                        static_cast<std::int8_t>(to_square), turns_});
        if (m.captures())
            log->push_back({EventKind::captured, m.captured_seat, m.captured_piece, face_,
                            static_cast<std::int8_t>(victim_from), static_cast<std::int8_t>(kYard),
                            static_cast<std::int8_t>(to_square), turns_});
        if (beside >= 0)
            log->push_back({EventKind::safe_square, seat_, m.piece, face_, m.from, m.to,
                            static_cast<std::int8_t>(to_square), turns_, static_cast<std::int8_t>(beside)});
        if (!m.enters() && g.on_circuit(m.from) && g.on_circuit(m.to) && g.steps(m.to) < g.steps(m.from))
            log->push_back({EventKind::circles, seat_, m.piece, face_, m.from, m.to, static_cast<std::int8_t>(to_square),
                            turns_});
    }
    bool finished_now = false;
    bool over = false;
    if (m.to == g.home()) {
        if (log) log->push_back({EventKind::reached_home, seat_, m.piece, face_, m.from, m.to, -1, turns_});
        if (++home_count_[idx(seat)] == kPiecesPerPlayer) {
            finished_at_[idx(seat)] = turns_;
            finished_now = true;
            if (log) log->push_back({EventKind::finished, seat_, -1, 0, 0, 0, -1, turns_});
            if (options_.ludo.teams) {
                // The game ends when a team is home: both partners (play_on is refused with teams).
                const int p = partner(seat);
                over = finished_at_[idx(p)] >= 0;
                if (over && log)
                    log->push_back({EventKind::team_finished, seat_, -1, 0, 0, 0, -1, turns_, static_cast<std::int8_t>(p)});
            } else {
                over = !options_.play_on || unfinished_players() <= 1;
            }
        }
    }
    if (over) {
        phase_ = Phase::finished;
        face_ = 0;
        if (log) log->push_back({EventKind::game_over, -1, -1, 0, 0, 0, -1, turns_});
        return;
    }
    // One more throw for a played 6, or (bonus_throws) for a capture or a piece brought home: one
    // a move, however many of them it made. None for a player who has just finished.
    std::optional<ExtraThrow> again;
    if (face_ == 6)
        again = ExtraThrow::six;
    else if (options_.ludo.bonus_throws && m.captures())
        again = ExtraThrow::capture;
    else if (options_.ludo.bonus_throws && m.to == g.home())
        again = ExtraThrow::home;
    if (again && !finished_now) {
        if (log)
            log->push_back({EventKind::extra_throw, seat_, -1, face_, 0, 0, -1, turns_, static_cast<std::int8_t>(*again)});
        phase_ = Phase::awaiting_throw;
        face_ = 0;
        return;
    }
    end_turn(log);
}

// ---------------------------------------------------------------------------------------------

std::optional<std::string> Game::broken_invariant() const {
    const Geometry& g = geometry_;
    std::array<std::uint16_t, kMaxSquares> expect{};
    for (int s = 0; s < players_; ++s) {
        int home = 0;
        for (int i = 0; i < kPiecesPerPlayer; ++i) {
            const int p = progress(s, i);
            if (!g.valid_progress(p) || (p == g.behind_start() && !options_.ludo.capture_to_home))
                return "seat " + std::to_string(s + 1) + " piece " + std::to_string(i) + " is nowhere (progress " +
                       std::to_string(p) + ")";
            if (p == g.home()) ++home;
            if (g.in_home_column(p) && !may_enter_home(s))
                return "seat " + std::to_string(s + 1) + " piece " + std::to_string(i) +
                       " is in its home column before its player captured";
            const int sq = g.square_of(colour(s), p);
            if (sq < 0) continue;
            expect[idx(sq)] = static_cast<std::uint16_t>(expect[idx(sq)] + (1u << (4 * s)));
        }
        if (home != home_count_[idx(s)]) return "seat " + std::to_string(s + 1) + " home count is wrong";
        if ((home == kPiecesPerPlayer) != (finished_at_[idx(s)] >= 0))
            return "seat " + std::to_string(s + 1) + " finished flag is wrong";
    }
    for (int sq = 0; sq < g.circuit_squares(); ++sq) {
        if (expect[idx(sq)] != squares_[idx(sq)])
            return "the board of circuit square " + std::to_string(sq) + " disagrees with the pieces";
        if (options_.ludo.safe_squares && g.is_safe_square(sq)) continue;
        int sides = 0;
        for (int s = 0; s < players_; ++s)
            if (count_on(sq, s) > 0 && (partner(s) < 0 || partner(s) > s || count_on(sq, partner(s)) == 0)) ++sides;
        if (sides > 1) return "circuit square " + std::to_string(sq) + " holds two sides";
    }
    if (phase_ != Phase::finished && phase_ != Phase::awaiting_roll_off && has_finished(seat_))
        return "a finished seat is to move";
    return std::nullopt;
}

}  // namespace spookludo::ludo
