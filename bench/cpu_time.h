#pragma once
// The CPU time this process has used (user + system), in seconds: what the benchmarks divide.
#include <sys/resource.h>

namespace spookludo::bench {

inline double process_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace spookludo::bench
