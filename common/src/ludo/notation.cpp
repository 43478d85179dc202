// The position notation and the readable form of events (see game.h).
#include <charconv>
#include <stdexcept>

#include "spookludo/ludo/game.h"

namespace spookludo::ludo {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

[[noreturn]] void bad(std::string_view position, const std::string& why) {
    throw std::invalid_argument("bad ludo position \"" + std::string(position) + "\": " + why);
}

}  // namespace

Game Game::from_position(const GameOptions& options, std::string_view position) {
    Game game(options);
    const Geometry& g = game.geometry_;
    std::vector<std::string_view> groups;
    for (std::string_view rest = trim(position); !rest.empty(); rest = trim(rest)) {
        const auto space = rest.find(' ');
        groups.push_back(rest.substr(0, space));
        rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space);
    }
    if (static_cast<int>(groups.size()) != game.players_)
        bad(position, std::to_string(game.players_) + " seats expected, " + std::to_string(groups.size()) + " given");

    int to_move = -1;
    for (int s = 0; s < game.players_; ++s) {
        std::string_view group = groups[idx(s)];
        const auto colon = group.find(':');
        if (colon == std::string_view::npos) bad(position, "a seat needs \"colour:pieces\"");
        std::string_view name = group.substr(0, colon);
        if (!name.empty() && name.back() == '*') {
            if (to_move >= 0) bad(position, "two seats are marked to move");
            to_move = s;
            name.remove_suffix(1);
        }
        if (!name.empty() && name.back() == '+') {
            if (!options.ludo.capture_to_home)
                bad(position, "a '+' (has captured) is written only under capture_to_home");
            game.captured_[idx(s)] = true;
            name.remove_suffix(1);
        }
        if (name != to_string(game.colour(s)))
            bad(position, "seat " + std::to_string(s + 1) + " must be " + std::string(to_string(game.colour(s))) +
                              " (got \"" + std::string(name) + "\")");
        std::string_view pieces = group.substr(colon + 1);
        for (int i = 0; i < kPiecesPerPlayer; ++i) {
            const auto comma = pieces.find(',');
            const std::string_view item = pieces.substr(0, comma);
            if (i < kPiecesPerPlayer - 1 && comma == std::string_view::npos)
                bad(position, std::string(name) + " needs four pieces");
            if (i == kPiecesPerPlayer - 1 && comma != std::string_view::npos)
                bad(position, std::string(name) + " has more than four pieces");
            int p = 0;
            if (item == "Y") {
                p = kYard;
            } else if (item == "H") {
                p = g.home();
            } else if (item == "B" && options.ludo.capture_to_home) {
                p = g.behind_start();
            } else {
                const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), p);
                if (ec != std::errc{} || end != item.data() + item.size() || p < 0 || p > g.home()) {
                    std::string why(1, '"');
                    why.append(item).append("\" is not Y, H or a progress 0 to ").append(std::to_string(g.home()));
                    bad(position, why);
                }
            }
            game.progress_[idx(s)][idx(i)] = static_cast<std::int8_t>(p);
            if (p == g.home()) ++game.home_count_[idx(s)];
            const int sq = g.square_of(game.colour(s), p);
            if (g.in_home_column(p) && !game.may_enter_home(s))
                bad(position, std::string(name) + " has a piece in its home column but has not captured (write " +
                                  std::string(name) + "+ when it has)");
            if (sq >= 0) {
                // Two sides share a square only on a safe square (safe_squares).
                const bool safe = options.ludo.safe_squares && g.is_safe_square(sq);
                for (int other = 0; other < s && !safe; ++other)
                    if (game.count_on(sq, other) > 0 && game.side(other) != game.side(s))
                        bad(position, "circuit square " + std::to_string(sq) + " would hold " +
                                          std::string(to_string(game.colour(other))) + " and " + std::string(name));
                game.put(s, sq);
            }
            if (comma != std::string_view::npos) pieces = pieces.substr(comma + 1);
        }
        if (game.home_count_[idx(s)] == kPiecesPerPlayer) game.finished_at_[idx(s)] = 0;
    }
    const int unfinished = game.unfinished_players();
    bool over = unfinished == 0 || (unfinished < game.players_ && (!options.play_on || unfinished <= 1));
    if (options.ludo.teams) {
        over = false;
        for (int s = 0; s < game.players_; ++s) over = over || (game.has_finished(s) && game.has_finished(game.partner(s)));
    }
    if (over) bad(position, "the game would be over");
    game.start_with(to_move < 0 ? 0 : to_move);
    return game;
}

std::string Game::position() const {
    std::string out;
    const bool marked = phase_ == Phase::awaiting_throw || phase_ == Phase::awaiting_choice;
    for (int s = 0; s < players_; ++s) {
        if (s > 0) out += ' ';
        out += to_string(colour(s));
        if (options_.ludo.capture_to_home && captured_[idx(s)]) out += '+';
        if (marked && s == seat_) out += '*';
        out += ':';
        for (int i = 0; i < kPiecesPerPlayer; ++i) {
            if (i > 0) out += ',';
            const int p = progress(s, i);
            if (p == kYard)
                out += 'Y';
            else if (p == geometry_.home())
                out += 'H';
            else if (p == geometry_.behind_start())
                out += 'B';
            else
                out += std::to_string(p);
        }
    }
    return out;
}

std::string_view to_string(EventKind kind) noexcept {
    switch (kind) {
        case EventKind::roll_off_throw:
            return "roll_off_throw";
        case EventKind::starts:
            return "starts";
        case EventKind::throw_:
            return "throw";
        case EventKind::pass:
            return "pass";
        case EventKind::three_sixes:
            return "three_sixes";
        case EventKind::entered:
            return "entered";
        case EventKind::moved:
            return "moved";
        case EventKind::captured:
            return "captured";
        case EventKind::reached_home:
            return "reached_home";
        case EventKind::finished:
            return "finished";
        case EventKind::extra_throw:
            return "extra_throw";
        case EventKind::turn:
            return "turn";
        case EventKind::game_over:
            return "game_over";
        case EventKind::safe_square:
            return "safe_square";
        case EventKind::circles:
            return "circles";
        case EventKind::team_finished:
            return "team_finished";
    }
    return "unknown";
}

std::string describe(const Event& e, int players) {
    const std::string who = e.seat >= 0 ? std::string(to_string(colour_of_seat(players, e.seat))) : "";
    const std::string piece = "piece " + std::to_string(e.piece);
    switch (e.kind) {
        case EventKind::roll_off_throw:
            return who + " throws " + std::to_string(e.face) + " in the roll-off";
        case EventKind::starts:
            return who + " starts";
        case EventKind::throw_:
            return "turn " + std::to_string(e.turn) + ": " + who + " throws " + std::to_string(e.face);
        case EventKind::pass:
            return who + " cannot move; play passes on";
        case EventKind::three_sixes:
            return who + " threw a third 6 in a row; it is not played";
        case EventKind::entered:
            return who + " brings " + piece + " out to " + std::to_string(e.to);
        case EventKind::moved:
            return who + " moves " + piece + " from " + std::to_string(e.from) + " to " + std::to_string(e.to);
        case EventKind::captured:
            return who + " " + piece + " is captured on circuit square " + std::to_string(e.square) +
                   " and goes back to its yard";
        case EventKind::reached_home:
            return who + " " + piece + " reaches home";
        case EventKind::finished:
            return who + " has all four pieces home";
        case EventKind::extra_throw:
            if (e.detail == static_cast<std::int8_t>(ExtraThrow::capture)) return who + " throws again: a bonus throw for the capture";
            if (e.detail == static_cast<std::int8_t>(ExtraThrow::home)) return who + " throws again: a bonus throw for the piece home";
            return who + " throws again";
        case EventKind::safe_square:
            return who + " " + piece + " lands on safe square " + std::to_string(e.square) + " beside " +
                   std::string(to_string(colour_of_seat(players, e.detail))) + ": no capture";
        case EventKind::circles:
            return who + " " + piece + " has not captured yet, so it passes its home column and goes round again";
        case EventKind::team_finished:
            return who + " and " + std::string(to_string(colour_of_seat(players, e.detail))) +
                   " have all their pieces home and win as a team";
        case EventKind::turn:
            return who + " to throw";
        case EventKind::game_over:
            return "game over";
    }
    return "?";
}

}  // namespace spookludo::ludo
