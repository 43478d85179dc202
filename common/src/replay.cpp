// The parts of verifying a record that both games share: the seed, the draws, recorded dice.
#include "spookludo/verify.h"

namespace spookludo {

std::string english(const VerifyLine& line) {
    std::string out;
    const std::string& t = line.text;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '{') {
            const auto close = t.find('}', i);
            if (close != std::string::npos) {
                const std::string key = t.substr(i + 1, close - i - 1);
                bool found = false;
                for (const auto& [k, v] : line.args)
                    if (k == key) {
                        out += v;
                        found = true;
                        break;
                    }
                if (found) {
                    i = close;
                    continue;
                }
            }
        }
        out += t[i];
    }
    return out;
}

void VerifyReport::pass(VerifyLine line) {
    passed.push_back(english(line));
    passed_lines.push_back(std::move(line));
}

void VerifyReport::note(VerifyLine line) {
    notes.push_back(english(line));
    note_lines.push_back(std::move(line));
}

bool VerifyReport::fail(VerifyLine line) {
    failure = english(line);
    failure_line = std::move(line);
    return false;
}

bool VerifyReport::fail(std::string text) {
    failure = std::move(text);
    failure_line = {};
    return false;
}

std::uint32_t RecordedDice::draw(std::uint32_t n, DrawPurpose purpose) {
    if (next_ >= draws_.size())
        throw RecordEnded(verify_line("draws: the game needs a {purpose} draw after the record's last",
                                      {{"purpose", std::string(to_string(purpose))}}));
    const Draw& d = draws_[next_];
    if (d.purpose != purpose || d.range != n)
        throw VerifyError(verify_line("draws: draw {draw} is recorded as a {recorded} draw from {range} but the game needs "
                                      "a {purpose} draw from {n}",
                                      {{"draw", std::to_string(d.counter)},
                                       {"recorded", std::string(to_string(d.purpose))},
                                       {"range", std::to_string(d.range)},
                                       {"purpose", std::string(to_string(purpose))},
                                       {"n", std::to_string(n)}}));
    ++next_;
    return d.value;
}

bool verify_seed_and_draws(const GameRecord& r, VerifyReport& report) {
    if (!r.server_seed) {
        return report.fail(verify_line("seed: the server seed is not revealed yet (the game is still in progress)"));
    }
    ServerSeed seed;
    try {
        seed = ServerSeed::from_hex(*r.server_seed);
    } catch (const std::invalid_argument& e) {
        return report.fail(verify_line("seed: {detail}", {{"detail", e.what()}}));
    }
    if (seed.commitment() != r.commitment) {
        return report.fail(verify_line("seed: SHA-256 of the revealed server seed is {sha}, not the commitment published "
                                       "before the game ({commitment})",
                                       {{"sha", seed.commitment()}, {"commitment", r.commitment}}));
    }
    report.pass(verify_line("seed: the revealed server seed matches the commitment {commitment}...",
                            {{"commitment", r.commitment.substr(0, 16)}}));
    for (const auto& c : r.client_seeds) {
        if (r.options.table) break;  // a table game's seeds are numbered by device (record.h)
        if (c.seat < 0 || c.seat >= static_cast<int>(r.seats.size()) || r.seats[static_cast<std::size_t>(c.seat)].bot) {
            return report.fail(verify_line("client seeds: seat {seat} is a bot or no seat, and bots send none",
                                           {{"seat", std::to_string(c.seat + 1)}}));
        }
    }
    try {
        const FairStream stream(seed, r.client_seeds);
        for (std::size_t i = 0; i < r.draws.size(); ++i) {
            const Draw& d = r.draws[i];
            if (d.counter != i) {
                return report.fail(verify_line("draws: draw {draw} has counter {counter}",
                                               {{"draw", std::to_string(i)}, {"counter", std::to_string(d.counter)}}));
            }
            const std::uint32_t value = stream.draw(d.counter, d.range);
            if (value != d.value) {
                return report.fail(verify_line("draws: draw {draw} ({purpose}) is recorded as {value} but the seeds give {given}",
                                               {{"draw", std::to_string(i)},
                                                {"purpose", std::string(to_string(d.purpose))},
                                                {"value", std::to_string(d.value)},
                                                {"given", std::to_string(value)}}));
            }
        }
    } catch (const std::invalid_argument& e) {
        return report.fail(verify_line("client seeds: {detail}", {{"detail", e.what()}}));
    }
    report.pass(verify_line("draws: all {draws} draws recomputed from the seeds ({seeds} client seeds)",
                            {{"draws", std::to_string(r.draws.size())}, {"seeds", std::to_string(r.client_seeds.size())}}));
    return true;
}

}  // namespace spookludo
