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

std::uint32_t RecordedDice::draw(std::uint32_t n, DrawPurpose purpose) {
    if (next_ >= draws_.size())
        throw RecordEnded("draws: the game needs a " + std::string(to_string(purpose)) + " draw after the record's last");
    const Draw& d = draws_[next_];
    if (d.purpose != purpose || d.range != n)
        throw VerifyError("draws: draw " + std::to_string(d.counter) + " is recorded as a " +
                          std::string(to_string(d.purpose)) + " draw from " + std::to_string(d.range) +
                          " but the game needs a " + std::string(to_string(purpose)) + " draw from " + std::to_string(n));
    ++next_;
    return d.value;
}

bool verify_seed_and_draws(const GameRecord& r, VerifyReport& report) {
    if (!r.server_seed) {
        report.failure = "seed: the server seed is not revealed yet (the game is still in progress)";
        return false;
    }
    ServerSeed seed;
    try {
        seed = ServerSeed::from_hex(*r.server_seed);
    } catch (const std::invalid_argument& e) {
        report.failure = std::string("seed: ") + e.what();
        return false;
    }
    if (seed.commitment() != r.commitment) {
        report.failure = "seed: SHA-256 of the revealed server seed is " + seed.commitment() +
                         ", not the commitment published before the game (" + r.commitment + ")";
        return false;
    }
    report.pass(verify_line("seed: the revealed server seed matches the commitment {commitment}...",
                            {{"commitment", r.commitment.substr(0, 16)}}));
    for (const auto& c : r.client_seeds) {
        if (r.options.table) break;  // a table game's seeds are numbered by device (record.h)
        if (c.seat < 0 || c.seat >= static_cast<int>(r.seats.size()) || r.seats[static_cast<std::size_t>(c.seat)].bot) {
            report.failure = "client seeds: seat " + std::to_string(c.seat + 1) + " is a bot or no seat, and bots send none";
            return false;
        }
    }
    try {
        const FairStream stream(seed, r.client_seeds);
        for (std::size_t i = 0; i < r.draws.size(); ++i) {
            const Draw& d = r.draws[i];
            if (d.counter != i) {
                report.failure = "draws: draw " + std::to_string(i) + " has counter " + std::to_string(d.counter);
                return false;
            }
            const std::uint32_t value = stream.draw(d.counter, d.range);
            if (value != d.value) {
                report.failure = "draws: draw " + std::to_string(i) + " (" + std::string(to_string(d.purpose)) +
                                 ") is recorded as " + std::to_string(d.value) + " but the seeds give " +
                                 std::to_string(value);
                return false;
            }
        }
    } catch (const std::invalid_argument& e) {
        report.failure = std::string("client seeds: ") + e.what();
        return false;
    }
    report.pass(verify_line("draws: all {draws} draws recomputed from the seeds ({seeds} client seeds)",
                            {{"draws", std::to_string(r.draws.size())}, {"seeds", std::to_string(r.client_seeds.size())}}));
    return true;
}

}  // namespace spookludo
