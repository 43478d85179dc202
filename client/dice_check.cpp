#include "dice_check.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "game_words.h"
#include "i18n.h"
#include "spookludo/record.h"
#include "spookludo/spook/setup.h"
#include "spookludo/verify.h"

namespace spookludo::client {

using nlohmann::json;

namespace {

std::string text_of(const json& m, const char* key) {
    const auto it = m.find(key);
    return it != m.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<int> int_of(const json& m, const char* key) {
    const auto it = m.find(key);
    if (it == m.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int>();
}

// "This game's dice cannot be trusted": what a die that is not the stream's means.
std::string not_the_stream_meaning() {
    return tr(
        "The server (or something between it and this screen) showed a die that the seeds committed to before "
        "the game did not draw, so this game's dice cannot be trusted.");
}

// The sentence naming a die that does not match.
std::string mismatch_sentence(const SeenDie& d, int given) {
    const std::string face = std::to_string(d.face), seeds = std::to_string(given), step = std::to_string(d.step);
    switch (d.purpose) {
        case DrawPurpose::movement:
            return tr(
                "Round {round}'s movement die was {face}, the seeds give {given}: this game's dice are not the fair "
                "stream.",
                {{"round", step}, {"face", face}, {"given", seeds}});
        case DrawPurpose::activation:
            return tr(
                "Round {round}'s activation die was {face}, the seeds give {given}: this game's dice are not the fair "
                "stream.",
                {{"round", step}, {"face", face}, {"given", seeds}});
        case DrawPurpose::roll_off:
            return tr(
                "The roll-off's throw {n} was {face}, the seeds give {given}: this game's dice are not the fair "
                "stream.",
                {{"n", step}, {"face", face}, {"given", seeds}});
        default:
            return tr("Throw {turn} was {face}, the seeds give {given}: this game's dice are not the fair stream.",
                      {{"turn", step}, {"face", face}, {"given", seeds}});
    }
}

DiceVerdict verdict(DiceVerdict v, DiceVerdict::Kind kind, std::string headline, std::string more = {}) {
    v.kind = kind;
    v.headline = std::move(headline);
    v.text = more.empty() ? v.headline : v.headline + " " + more;
    return v;
}

}  // namespace

std::string_view DiceVerdict::word() const noexcept {
    switch (kind) {
        case Kind::fair:
            return "fair";
        case Kind::unfair:
            return "unfair";
        case Kind::commitment_mismatch:
            return "commitment_mismatch";
        case Kind::unchecked:
            return "unchecked";
    }
    return "unchecked";
}

std::string DiceVerdict::machine_line() const {
    return "dice_check " + game_id + " " + std::string(word()) + " " + std::to_string(checked) + " " +
           std::to_string(total);
}

// ---- What was seen ------------------------------------------------------------------------------

// A new game: nothing of the last one counts (this client's seed for it is sent after its commitment).
void DiceWitness::new_game(const std::string& id) {
    *this = DiceWitness{};
    game_id_ = id;
}

void DiceWitness::seed_sent(std::string seed) {
    own_seed_ = std::move(seed);
    own_seed_accepted_ = false;
}

void DiceWitness::add(DrawPurpose purpose, int step, int face, std::optional<std::uint64_t> counter) {
    if (ended_ || step < 1) return;
    if (dice_.size() >= kMaxDice) {
        ++missed_;
        return;
    }
    if (!told_.insert({static_cast<int>(purpose), step, face}).second) return;  // the same die told again
    dice_.push_back(SeenDie{purpose, step, face, counter});
}

void DiceWitness::observe(const json& m) {
    if (!m.is_object()) return;
    try {
        const std::string type = text_of(m, "type");
        // Spook's draw for round r's movement die: after the boards' deal, two a round.
        auto spook_counter = [this](int round, int which) -> std::optional<std::uint64_t> {
            if (!spook() || players_ < 1 || round < 1) return std::nullopt;
            return static_cast<std::uint64_t>(assignment_draws()) + 2 * static_cast<std::uint64_t>(round - 1) +
                   static_cast<std::uint64_t>(which);
        };
        if (type == "commitment") {
            new_game(text_of(m, "game_id"));
            commitment_ = text_of(m, "commitment");
        } else if (type == "room") {
            const std::string state = text_of(m, "state");
            const std::string id = text_of(m, "game_id");
            if (state != "lobby" && !id.empty()) {
                // Joining (or coming back) during a game: the snapshot says which game and its commitment.
                if (id != game_id_) new_game(id);
                if (commitment_.empty()) commitment_ = text_of(m, "commitment");
                if (game_.empty())
                    if (const auto o = m.find("options"); o != m.end() && o->is_object()) {
                        game_ = text_of(*o, "game");
                        table_ = o->value("table", false);
                        if (table_) players_ = int_of(*o, "players").value_or(0);
                    }
                if (const auto g = m.find("game"); g != m.end() && g->is_object()) {
                    if (!table_ && players_ == 0)
                        if (const auto p = g->find("players"); p != g->end() && p->is_array())
                            players_ = static_cast<int>(p->size());
                    // A Spook round whose movement die was thrown before this screen came.
                    const auto round = int_of(*g, "round"), roll = int_of(*g, "roll");
                    if (spook() && round && roll) add(DrawPurpose::movement, *round, *roll, spook_counter(*round, 0));
                }
            }
            // The game ended while this screen was away: the lobby says how.
            if (state == "lobby" && !ended_ && !game_id_.empty())
                if (const auto last = m.find("last_game");
                    last != m.end() && last->is_object() && text_of(*last, "game_id") == game_id_)
                    on_game_over(*last);
        } else if (type == "client_seed_accepted") {
            own_seed_accepted_ = !own_seed_.empty();
        } else if (type == "game_started") {
            const std::string id = text_of(m, "game_id");
            if (id != game_id_) {
                const std::string commitment = commitment_;
                new_game(id);
                commitment_ = game_id_.empty() ? std::string() : commitment;
            }
            const json& options = m.at("options");
            game_ = text_of(options, "game");
            table_ = options.value("table", false);
            play_seats_ = m.value("players", std::vector<int>{});
            if (play_seats_.empty() && !table_)  // a server before `players`: the seats 0 .. players - 1
                for (int seat = 0; seat < int_of(options, "players").value_or(0) && seat < 64; ++seat)
                    play_seats_.push_back(seat);
            players_ = table_ ? int_of(options, "players").value_or(0) : static_cast<int>(play_seats_.size());
            // The stream numbers a seed by its player's place in the play order (a table game's
            // by device, as the message gives it).
            seeds_.clear();
            for (const auto& s : m.value("client_seeds", json::array())) {
                const int seat = s.at("seat").get<int>();
                int in_stream = seat;
                if (!table_) {
                    const auto at = std::find(play_seats_.begin(), play_seats_.end(), seat);
                    in_stream = at == play_seats_.end() ? -1 - seat : static_cast<int>(at - play_seats_.begin());
                }
                seeds_.push_back(ClientSeed{in_stream, s.at("seed").get<std::string>()});
            }
            std::sort(seeds_.begin(), seeds_.end(),
                      [](const ClientSeed& a, const ClientSeed& b) { return a.seat < b.seat; });
            // The boards' deal, by player in play order (a table game's is by name already).
            const auto by_seat = m.value("assignment", std::vector<int>{});
            assignment_.clear();
            if (table_) {
                assignment_ = by_seat;
            } else if (!by_seat.empty()) {
                for (const int seat : play_seats_)
                    assignment_.push_back(seat >= 0 && static_cast<std::size_t>(seat) < by_seat.size()
                                              ? by_seat[static_cast<std::size_t>(seat)]
                                              : -1);
            }
            saw_start_ = true;
        } else if (type == "roll") {
            const int round = m.at("round").get<int>();
            add(DrawPurpose::movement, round, m.at("face").get<int>(), spook_counter(round, 0));
        } else if (type == "activation") {
            const int round = m.at("round").get<int>();
            add(DrawPurpose::activation, round, m.at("face").get<int>(), spook_counter(round, 1));
        } else if (type == "roll_off") {
            // Every throw of the roll-off, in order: the game's first draws.
            std::uint64_t n = 0;
            for (const auto& e : m.value("events", json::array())) {
                if (text_of(e, "kind") != "roll_off_throw") continue;
                const auto face = int_of(e, "face");
                if (!face) continue;
                add(DrawPurpose::roll_off, static_cast<int>(n + 1), *face, n);
                ++n;
            }
            roll_off_draws_ = n;
        } else if (type == "throw") {
            const int turn = m.at("turn").get<int>();
            std::optional<std::uint64_t> counter;
            if (roll_off_draws_ && turn >= 1) counter = *roll_off_draws_ + static_cast<std::uint64_t>(turn - 1);
            add(DrawPurpose::throw_, turn, m.at("face").get<int>(), counter);
        } else if (type == "game_over") {
            const std::string id = text_of(m, "game_id");
            if (id != game_id_) new_game(id);  // nothing of it was seen
            on_game_over(m);
        }
    } catch (const std::exception&) {
        // A message this check cannot read changes nothing of what was seen (the view says why).
    }
}

void DiceWitness::on_game_over(const json& over) {
    ended_ = true;
    length_ = std::clamp(int_of(over, "length").value_or(0), 0, 1'000'000);  // a game is a few hundred steps
    if (const std::string seed = text_of(over, "server_seed"); !seed.empty()) server_seed_ = seed;
    if (const std::string record = text_of(over, "record"); !record.empty()) record_ = record;
}

// Every die of the game seen, with its place in the stream: the seeds, the roll-off (Ludo), and
// each step from the first to the last with both its dice (Spook) or its throw (Ludo).
bool DiceWitness::complete() const {
    if (!saw_start_ || missed_ > 0) return false;
    int last = length_;
    for (const auto& d : dice_) {
        if (!d.counter) return false;
        if (d.purpose != DrawPurpose::roll_off) last = std::max(last, d.step);
    }
    if (!spook() && last > 0 && !roll_off_draws_) return false;
    if (last > static_cast<int>(dice_.size())) return false;  // a step without its die (and no long count)
    auto seen = [&](DrawPurpose p, int step) {
        return told_.lower_bound({static_cast<int>(p), step, 0}) != told_.upper_bound({static_cast<int>(p), step, 6});
    };
    for (int step = 1; step <= last; ++step) {
        if (!spook()) {
            if (!seen(DrawPurpose::throw_, step)) return false;
            continue;
        }
        // An abandoned game's round after its last whole one may have its movement die only.
        const bool trailing = step == last && step > length_;
        if (!seen(DrawPurpose::movement, step) || (!trailing && !seen(DrawPurpose::activation, step))) return false;
    }
    return true;
}

bool DiceWitness::needs_record() const {
    return ended_ && record_.has_value() && server_seed_.has_value() && !complete();
}

// Why this screen did not see every die: it came late, or lost its connection for a while.
std::string DiceWitness::missed_reason() const {
    int first = 0;
    for (const auto& d : dice_)
        if (d.purpose != DrawPurpose::roll_off && (first == 0 || d.step < first)) first = d.step;
    const bool roll_off_missed = !spook() && !roll_off_draws_;
    if (!saw_start_ || first > 1 || roll_off_missed) {
        if (first == 0) return tr("this screen came when the game was over");
        return spook() ? tr("this screen joined at round {round}", {{"round", std::to_string(first)}})
                       : tr("this screen joined at throw {turn}", {{"turn", std::to_string(first)}});
    }
    return tr("this screen missed some while its connection was down");
}

// ---- The check ----------------------------------------------------------------------------------

DiceVerdict DiceWitness::check(const std::string* record_text, const std::string& fetch_problem) const {
    using Kind = DiceVerdict::Kind;
    DiceVerdict v;
    v.game_id = game_id_;
    if (!ended_) return verdict(v, Kind::unchecked, tr("The game is not over: its server seed is not revealed yet."));
    if (!server_seed_)
        return verdict(v, Kind::unchecked,
                       tr("The server revealed no seed for this game, so its dice cannot be checked."));
    if (commitment_.empty())
        return verdict(v, Kind::unchecked,
                       tr("This screen did not see the commitment published before the game, so it cannot check the "
                          "revealed seed."));
    ServerSeed seed;
    try {
        seed = ServerSeed::from_hex(*server_seed_);
    } catch (const std::invalid_argument&) {
        return verdict(v, Kind::commitment_mismatch,
                       tr("The revealed server seed is not 64 hex digits: this game's dice cannot be proven fair."));
    }
    if (seed.commitment() != commitment_)
        return verdict(
            v, Kind::commitment_mismatch,
            tr("The revealed server seed does not match the commitment published before the game: the server could "
               "have picked its seed after seeing the players' seeds, so this game's dice are not proven fair."));
    if (saw_start_ && own_seed_accepted_ &&
        std::none_of(seeds_.begin(), seeds_.end(), [&](const ClientSeed& c) { return c.seed == own_seed_; }))
        return verdict(
            v, Kind::unfair,
            tr("Your client seed, which the server accepted, is not among the game's seeds: the server could have "
               "chosen the dice, so they are not proven fair."));

    // The record, when this screen missed something: checked against what it saw first.
    std::optional<GameRecord> record;
    std::string problem = fetch_problem;
    if (record_text && !complete()) {
        try {
            record = parse_record(*record_text);
        } catch (const std::exception& e) {
            problem = e.what();
        }
    }
    auto record_disagrees = [&](const std::string& detail) {
        return verdict(
            v, Kind::unfair,
            tr("The game's record does not agree with what this screen saw ({detail}): this game's dice are not "
               "proven fair.",
               {{"detail", detail}}));
    };
    std::vector<std::uint64_t> record_throws;
    if (record) {
        v.used_record = true;
        if (record->commitment != commitment_)
            return record_disagrees(tr("its commitment is not the one published before the game"));
        VerifyReport report;
        if (!verify_seed_and_draws(*record, report))
            return record_disagrees(report.failure_line.text.empty() ? report.failure
                                                                     : verify_words(report.failure_line));
        if (saw_start_ && record->client_seeds != seeds_)
            return record_disagrees(tr("its client seeds are not those published at the start"));
        if (saw_start_ && spook() && !assignment_.empty() && record->assignment != assignment_)
            return record_disagrees(tr("its boards' deal is not the one published at the start"));
        for (std::size_t i = 0; i < record->draws.size(); ++i)
            if (record->draws[i].purpose == DrawPurpose::throw_) record_throws.push_back(i);
    }
    const std::vector<ClientSeed>* seeds = saw_start_ ? &seeds_ : record ? &record->client_seeds : nullptr;
    if (!seeds) {
        return verdict(
            v, Kind::unchecked,
            problem.empty()
                ? tr("This screen did not see the game's client seeds ({reason}), and the game has no record to "
                     "fetch: its dice are not checked.",
                     {{"reason", missed_reason()}})
                : tr("This screen did not see the game's client seeds ({reason}), and the game's record could not "
                     "be fetched ({problem}): its dice are not checked.",
                     {{"reason", missed_reason()}, {"problem", problem}}));
    }
    std::optional<FairStream> stream;
    try {
        stream.emplace(seed, *seeds);
    } catch (const std::invalid_argument& e) {
        return verdict(v, Kind::unfair,
                       tr("The game's client seeds cannot make the dice's stream ({detail}): this game's dice are not "
                          "proven fair.",
                          {{"detail", e.what()}}));
    }
    // The boards' deal (Spook): the stream's first draws.
    if (saw_start_ && spook() && !assignment_.empty()) {
        FairDice dealer(*stream);
        const auto dealt = spook::draw_assignment(players_, dealer);
        for (std::size_t p = 0; p < dealt.size(); ++p) {
            const int got = p < assignment_.size() ? assignment_[p] : -1;
            if (got == dealt[p]) continue;
            const int seat = table_ || p >= play_seats_.size() ? static_cast<int>(p) : play_seats_[p];
            return verdict(
                v, Kind::unfair,
                tr("Seat {seat} was dealt board {got}, the seeds give board {given}: this game's draw is not the "
                   "fair stream.",
                   {{"seat", std::to_string(seat + 1)},
                    {"got", std::to_string(got + 1)},
                    {"given", std::to_string(dealt[p] + 1)}}),
                not_the_stream_meaning());
        }
    }
    // Every die seen, in the order of the stream.
    std::vector<SeenDie> dice = dice_;
    for (auto& d : dice)
        if (!d.counter && d.purpose == DrawPurpose::throw_ && record) {
            if (d.step < 1 || static_cast<std::size_t>(d.step) > record_throws.size())
                return record_disagrees(tr("throw {turn} is not in it", {{"turn", std::to_string(d.step)}}));
            d.counter = record_throws[static_cast<std::size_t>(d.step - 1)];
        }
    std::stable_sort(dice.begin(), dice.end(), [](const SeenDie& a, const SeenDie& b) {
        return a.counter.value_or(UINT64_MAX) < b.counter.value_or(UINT64_MAX);
    });
    for (const auto& d : dice) {
        if (!d.counter) continue;
        const int given = static_cast<int>(stream->draw(*d.counter, 6)) + 1;
        if (d.face != given) return verdict(v, Kind::unfair, mismatch_sentence(d, given), not_the_stream_meaning());
        ++v.checked;
    }

    // How many dice the game had.
    if (record) {
        v.total = static_cast<int>(std::count_if(record->draws.begin(), record->draws.end(),
                                                 [](const Draw& d) { return d.purpose != DrawPurpose::assignment; }));
    } else {
        int expected = spook() ? 2 * length_ : static_cast<int>(roll_off_draws_.value_or(0)) + length_;
        for (const auto& d : dice_)
            if (d.step == length_ + 1 && d.purpose != DrawPurpose::roll_off && d.purpose != DrawPurpose::activation)
                ++expected;
        v.total = std::max(expected, v.checked);
    }
    v.total = std::max(v.total, v.checked);
    if (complete() && v.checked == v.total) {
        if (v.total == 0)
            return verdict(v, Kind::fair,
                           tr("No dice were thrown in this game; its revealed server seed matches the commitment."));
        return verdict(
            v, Kind::fair, trn("All {n} die checked: fair.", "All {n} dice checked: fair.", v.total),
            (spook() && saw_start_ && !assignment_.empty()
                 ? tr("This client recomputed every die and the boards' deal from the seeds: nobody, not even "
                      "the server, chose them.")
                 : tr("This client recomputed every die from the seeds: nobody, not even the server, chose them.")));
    }
    std::string more;
    if (record)
        more = saw_start_
                   ? tr("The other dice come from the game's record, which matches the commitment, the seeds and every "
                        "die "
                        "seen here.")
                   : tr("The client seeds and the other dice come from the game's record, which matches the commitment "
                        "and every die seen here.");
    else if (!problem.empty())
        more = tr("The game's record could not be fetched to check the others ({problem}).", {{"problem", problem}});
    return verdict(
        v, Kind::fair,
        trn("{checked} of {n} die checked: {reason}; all fair.", "{checked} of {n} dice checked: {reason}; all fair.",
            v.total, {{"checked", std::to_string(v.checked)}, {"reason", missed_reason()}}),
        std::move(more));
}

}  // namespace spookludo::client
