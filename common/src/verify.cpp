#include "spookludo/verify.h"

#include "spookludo/in_person.h"
#include "spookludo/ludo/record.h"
#include "spookludo/spook/match.h"

namespace spookludo {

VerifyReport verify(const GameRecord& record) {
    VerifyReport report;
    if (!verify_seed_and_draws(record, report)) return report;
    if (record.options.table) {
        report.ok = in_person::verify_table(record, report);
        return report;
    }
    if (record.options.game == GameKind::spook) {
        report.ok = spook::verify_spook(record, report);
    } else {
        report.ok = ludo::verify_ludo(record, report);
    }
    return report;
}

}  // namespace spookludo
