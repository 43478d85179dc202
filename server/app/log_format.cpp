#include "log_format.h"

#include <sys/stat.h>

#include <cstdlib>
#include <memory>
#include <string>

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

namespace spookludo::server {
namespace {

// %* : the line's syslog priority as sd-daemon(3) reads it, "<N>".
class SyslogPriority final : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
        const char* text = "<6>";
        switch (msg.level) {
            case spdlog::level::trace:
            case spdlog::level::debug: text = "<7>"; break;
            case spdlog::level::info: text = "<6>"; break;
            case spdlog::level::warn: text = "<4>"; break;
            case spdlog::level::err: text = "<3>"; break;
            case spdlog::level::critical: text = "<2>"; break;
            default: break;
        }
        dest.append(text, text + 3);
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SyslogPriority>(); }
};

}  // namespace

bool stdout_is_journal() {
    const char* stream = std::getenv("JOURNAL_STREAM");
    if (!stream || !*stream) return false;
    struct stat st{};
    if (::fstat(1, &st) != 0) return false;
    return std::string(stream) == std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

void set_log_format() {
    if (!stdout_is_journal()) {
        spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
        return;
    }
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<SyslogPriority>('*').set_pattern("%*%l %v");
    spdlog::set_formatter(std::move(formatter));
}

}  // namespace spookludo::server
