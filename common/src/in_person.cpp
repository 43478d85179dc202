#include "spookludo/in_person.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "spookludo/spook/board.h"
#include "spookludo/spook/setup.h"
#include "spookludo/verify.h"

namespace spookludo::in_person {

std::string list_names(const std::vector<std::string>& names, const std::vector<int>& which) {
    std::string out;
    for (std::size_t i = 0; i < which.size(); ++i) {
        if (i > 0) out += i + 1 == which.size() ? " and " : ", ";
        const int n = which[i];
        out += n >= 0 && n < static_cast<int>(names.size()) ? names[static_cast<std::size_t>(n)] : "?";
    }
    return out;
}

Game::Game(const GameOptions& options, std::vector<std::string> names, Dice& dice)
    : options_(options), names_(std::move(names)), dice_(dice) {
    if (names_.empty() || static_cast<int>(names_.size()) != options_.players)
        throw std::invalid_argument("a table game needs one name per player");
    if (spook()) assignment_ = spook::draw_assignment(options_.players, dice_);
}

std::string Game::next_kind() const {
    if (over_) return "";
    if (spook()) return steps_ % 2 == 0 ? "movement" : "activation";
    return turn_ < 0 ? "roll_off" : "throw";
}

const Announcement& Game::say(Announcement a) {
    said_.push_back(std::move(a));
    return said_.back();
}

const Announcement& Game::next() {
    if (over_) throw std::logic_error("the game is over");
    Announcement a;
    a.kind = next_kind();
    const int players = static_cast<int>(names_.size());
    auto name = [&](int i) { return names_[static_cast<std::size_t>(i)]; };
    if (a.kind == "movement") {
        a.step = round();
        a.face = dice_.roll(DrawPurpose::movement);
        a.text = "Round " + std::to_string(a.step) + ": roll " + std::to_string(a.face) +
                 ". Everyone moves one piece " + std::to_string(a.face) + (a.face == 1 ? " square." : " squares.");
    } else if (a.kind == "activation") {
        a.step = round();
        a.face = dice_.roll(DrawPurpose::activation);
        const auto c = spook::character_for_face(a.face);
        a.character = std::string(spook::id_of(c));
        a.text = "Round " + std::to_string(a.step) + ": activation " + std::to_string(a.face) + ". The " +
                 std::string(spook::name_of(c)) + " wakes: every piece on its squares " +
                 std::string(spook::action_of(c)) + ".";
    } else if (a.kind == "roll_off") {
        // As the engine's roll-off (ludo::Game::roll_off): those tied for the highest throw again.
        std::vector<int> in;
        for (int s = 0; s < players; ++s) in.push_back(s);
        a.text = "Roll-off:";
        for (bool first = true;; first = false) {
            int best = 0;
            std::vector<int> top;
            std::string line;
            for (int s : in) {
                const Face f = dice_.roll(DrawPurpose::roll_off);
                a.roll_off.push_back({s, f});
                line += (line.empty() ? " " : ", ") + name(s) + " " + std::to_string(f);
                if (f > best) {
                    best = f;
                    top = {s};
                } else if (f == best) {
                    top.push_back(s);
                }
            }
            a.text += (first ? "" : "; again:") + line;
            if (top.size() == 1) {
                turn_ = top.front();
                break;
            }
            in = top;
        }
        a.seat = turn_;
        a.next = turn_;
        a.text += ". " + name(turn_) + " starts.";
    } else {
        a.step = ++throws_;
        a.seat = turn_;
        a.face = dice_.roll(DrawPurpose::throw_);
        a.text = "Throw " + std::to_string(a.step) + ": " + name(turn_) + " throws " + std::to_string(a.face) + ".";
        sixes_ = a.face == 6 ? sixes_ + 1 : 0;
        if (a.face == 6 && options_.ludo.three_sixes && sixes_ == 3) {
            a.text += " The third 6 in a row: it is not played and the turn ends.";
            sixes_ = 0;
            turn_ = (turn_ + 1) % players;
        } else if (a.face == 6) {
            a.text += " " + name(turn_) + " throws again.";
        } else {
            sixes_ = 0;
            turn_ = (turn_ + 1) % players;
        }
        a.next = turn_;
        if (a.next != a.seat) a.text += " Next: " + name(turn_) + ".";
    }
    ++steps_;
    return say(std::move(a));
}

const Announcement& Game::skip() {
    if (over_) throw std::logic_error("the game is over");
    if (spook()) throw std::logic_error("turns are skipped in Ludo only (in Spook everyone moves every round)");
    if (turn_ < 0) throw std::logic_error("nobody has a turn before the roll-off");
    Announcement a;
    a.kind = "skip";
    a.step = throws_;
    a.seat = turn_;
    sixes_ = 0;
    turn_ = (turn_ + 1) % static_cast<int>(names_.size());
    a.next = turn_;
    a.text = names_[static_cast<std::size_t>(a.seat)] + "'s turn is skipped. Next: " +
             names_[static_cast<std::size_t>(turn_)] + ".";
    return say(std::move(a));
}

const Announcement& Game::declare(std::vector<int> winners) {
    if (over_) throw std::logic_error("the winners are declared already");
    std::set<int> seen;
    for (int w : winners)
        if (w < 0 || w >= static_cast<int>(names_.size()) || !seen.insert(w).second)
            throw std::invalid_argument("the winners must be distinct names of the table");
    if (winners.empty()) throw std::invalid_argument("name at least one winner");
    std::sort(winners.begin(), winners.end());
    Announcement a;
    a.kind = "winners";
    a.step = spook() ? (steps_ + 1) / 2 : throws_;
    a.winners = winners;
    a.text = std::string(winners.size() == 1 ? "The winner: " : "The winners: ") + list_names(names_, winners) + ".";
    over_ = true;
    return say(std::move(a));
}

bool verify_table(const GameRecord& r, VerifyReport& report) {
    std::vector<std::string> names;
    for (const auto& s : r.seats) names.push_back(s.name);
    if (r.client_seed_by.size() != r.client_seeds.size()) {
        return report.fail(verify_line("client seeds: a table game's record names whose device sent each seed"));
    }
    RecordedDice dice(r.draws);
    try {
        Game game(r.options, names, dice);
        if (game.spook()) {
            if (game.assignment() != r.assignment) {
                return report.fail(verify_line("assignment: the draws give another assignment of boards to the table's names"));
            }
            report.pass(verify_line("assignment: boards to the table's names as the draws give them"));
        }
        for (std::size_t i = 0; i < r.announcements.size(); ++i) {
            const auto& said = r.announcements[i];
            const Announcement* a = nullptr;
            if (said.kind == "skip") a = &game.skip();
            else if (said.kind == "winners") a = &game.declare(r.result.winners);
            else a = &game.next();
            if (a->kind != said.kind || a->step != said.step || a->text != said.text) {
                return report.fail(verify_line("announcements[{i}]: the record says \"{recorded}\" but the dice give \"{given}\"",
                                               {{"i", std::to_string(i)}, {"recorded", said.text}, {"given", a->text}}));
            }
        }
        if (!dice.exhausted()) {
            return report.fail(verify_line("draws: {n} draw(s) were never announced",
                                           {{"n", std::to_string(r.draws.size() - dice.used())}}));
        }
        report.pass(verify_line("announcements: all {announcements} are what the dice give, in order ({dice} dice)",
                                {{"announcements", std::to_string(r.announcements.size())},
                                 {"dice", std::to_string(game.steps())}}));
        const bool finished = r.result.status == GameStatus::finished;
        if (finished != game.over()) {
            return report.fail(finished ? verify_line("result: a finished table game ends with the declared winners")
                                        : verify_line("result: an abandoned game declares no winners"));
        }
        std::vector<int> places(names.size(), 0);
        for (int w : r.result.winners) places[static_cast<std::size_t>(w)] = 1;
        if (r.result.places != places || r.result.length != game.steps()) {
            return report.fail(verify_line("result: the places and length are not the declared winners' and the dice's"));
        }
        report.pass(finished ? verify_line("result: the winners the host declared: {names}",
                                           {{"names", list_names(names, r.result.winners)}})
                             : verify_line("result: abandoned after {dice} dice", {{"dice", std::to_string(game.steps())}}));
    } catch (const VerifyError& e) {
        return report.fail(e.line);
    } catch (const std::exception& e) {
        return report.fail(std::string(e.what()));
    }
    report.note(verify_line("a table game: the dice and the announcements are checked; the coins' positions were "
                            "never seen by the server, so the moves, captures and the winners named by the host "
                            "cannot be"));
    return true;
}

}  // namespace spookludo::in_person
