#pragma once
// What every fuzz target shares: the entry point libFuzzer calls, a check that stops the run
// loudly (libFuzzer and the replay driver both report the input that made it fire), and a reader
// of the fuzzer's bytes as choices.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace spookludo::fuzz {

[[noreturn]] inline void check_failed(const char* file, int line, const char* what, const std::string& detail) {
    std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
    if (!detail.empty()) std::fprintf(stderr, "  %s\n", detail.c_str());
    std::fflush(stderr);
    std::abort();
}

// The input's bytes as a sequence of choices; past the end every choice is 0.
class Bytes {
public:
    Bytes(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}

    bool empty() const noexcept { return pos_ >= size_; }
    std::size_t left() const noexcept { return size_ - pos_; }
    std::uint8_t byte() noexcept { return pos_ < size_ ? data_[pos_++] : 0; }
    bool flag() noexcept { return (byte() & 1) != 0; }
    // A value in [0, n) (n >= 1), from one byte, or two when n > 256.
    std::uint32_t below(std::uint32_t n) noexcept {
        std::uint32_t v = byte();
        if (n > 256) v = (v << 8) | byte();
        return v % n;
    }
    // A value in [lo, hi].
    int in(int lo, int hi) noexcept { return lo + static_cast<int>(below(static_cast<std::uint32_t>(hi - lo + 1))); }
    // Up to `n` next bytes (fewer at the end).
    std::string_view take(std::size_t n) noexcept {
        if (n > left()) n = left();
        std::string_view out(reinterpret_cast<const char*>(data_ + pos_), n);
        pos_ += n;
        return out;
    }
    std::string_view rest() noexcept { return take(left()); }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) noexcept {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace spookludo::fuzz

// Checks an invariant; `detail` (a std::string expression) says what was seen.
#define FUZZ_CHECK(cond, detail)                                                        \
    do {                                                                                \
        if (!(cond)) ::spookludo::fuzz::check_failed(__FILE__, __LINE__, #cond, detail); \
    } while (false)
