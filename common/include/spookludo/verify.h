#pragma once
// Verifying a game record (spookludo verify): the commitment, every draw, every choice through
// the rules, the positions and the result. Stops at the first discrepancy and names its step.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "spookludo/record.h"

namespace spookludo {

// A line of the report for a person to read: its English text with {name} places (the text a
// client's catalogue translates: scripts/po-update.sh collects every verify_line("...") text), and
// the values of its places. Places named `status` (finished, abandoned) and `colour` (a Ludo
// colour) hold the protocol's word, for a client to word in its language.
struct VerifyLine {
    std::string text;
    std::vector<std::pair<std::string, std::string>> args;
};
// `text` with its places filled: the English line.
std::string english(const VerifyLine& line);

struct VerifyReport {
    bool ok = false;
    std::vector<std::string> passed;  // checks that held, in order, one line each (English)
    std::vector<std::string> notes;   // facts worth reporting that are not failures (e.g. balance)
    std::string failure;              // the first discrepancy, naming the step; empty when ok
    // The same lines as passed and notes, with their places, for a client to word in its language.
    std::vector<VerifyLine> passed_lines;
    std::vector<VerifyLine> note_lines;
    // The failure with its places; its text is empty when the failure has no fixed shape (then
    // `failure` is all there is to show).
    VerifyLine failure_line;

    // Adds a check that held (to passed and passed_lines) / a note (to notes and note_lines).
    void pass(VerifyLine line);
    void note(VerifyLine line);
    // Sets the failure (failure and failure_line); returns false, for `return report.fail(...)`.
    bool fail(VerifyLine line);
    bool fail(std::string text);
};

// A report line; the name marks its text for the catalogue template (scripts/po-update.sh).
inline VerifyLine verify_line(std::string text, std::vector<std::pair<std::string, std::string>> args = {}) {
    return VerifyLine{std::move(text), std::move(args)};
}

VerifyReport verify(const GameRecord& record);

// Shared by both games' replays: the seed against the commitment, and every draw against the
// stream. Adds lines to `report`; returns false (with report.failure set) on a discrepancy.
bool verify_seed_and_draws(const GameRecord& record, VerifyReport& report);

// Replays the recorded draws in order for an engine that asks for them: each request must match
// the next recorded draw's purpose and range. Throws VerifyError on a mismatch or when the record
// has no more draws.
class RecordedDice final : public Dice {
public:
    explicit RecordedDice(const std::vector<Draw>& draws) : draws_(draws) {}
    std::uint32_t draw(std::uint32_t n, DrawPurpose purpose) override;
    bool exhausted() const noexcept { return next_ == draws_.size(); }
    std::size_t used() const noexcept { return next_; }

private:
    const std::vector<Draw>& draws_;
    std::size_t next_ = 0;
};

// A discrepancy found while replaying; its message names the step (what() is the English line).
struct VerifyError : std::runtime_error {
    explicit VerifyError(VerifyLine l) : std::runtime_error(english(l)), line(std::move(l)) {}
    VerifyLine line;
};
// Thrown by RecordedDice when the record ends before the engine does (an abandoned game ends so).
struct RecordEnded : VerifyError {
    using VerifyError::VerifyError;
};

}  // namespace spookludo
