// The game-record reader (parse_record) and `spookludo verify` (verify) over any text: records
// come from servers the player need not trust. Invariants: nothing but std::invalid_argument
// leaves the reader; verify never throws and a record it refuses names what failed; a record
// that reads writes back (record_text) to text that reads as the same record.
#include <stdexcept>
#include <string>

#include "fuzz.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    spookludo::GameRecord record;
    try {
        record = spookludo::parse_record(std::string(spookludo::fuzz::as_text(data, size)));
    } catch (const std::invalid_argument& e) {
        FUZZ_CHECK(e.what()[0] != '\0', "an empty reason");
        return 0;
    }
    const std::string text = spookludo::record_text(record);
    spookludo::GameRecord again;
    try {
        again = spookludo::parse_record(text);
    } catch (const std::invalid_argument& e) {
        FUZZ_CHECK(false, std::string("the record written back does not read: ") + e.what());
    }
    FUZZ_CHECK(again == record, text);
    const spookludo::VerifyReport report = spookludo::verify(record);
    FUZZ_CHECK(report.ok == report.failure.empty(), report.failure);
    return 0;
}
