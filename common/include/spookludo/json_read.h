#pragma once
// Strict readers for JSON objects from outside (records, protocol messages): each names the
// field path in its error, e.g. "draws[12].purpose: unknown value \"dance\"". Every reader
// throws std::invalid_argument.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "spookludo/text.h"

namespace spookludo::json_read {

[[noreturn]] void fail(const std::string& path, const std::string& what);

std::string join(const std::string& path, std::string_view key);

// A value from outside as an error message shows it: a number, true, false or null as it is, a
// string quoted (quote_client_text), an array or object by its kind.
std::string shown(const nlohmann::json& v);
std::string join(const std::string& path, std::size_t index);

// The value of `key` in object `j` (at `path`); fails when `j` is not an object or lacks `key`.
const nlohmann::json& field(const nlohmann::json& j, const std::string& path, const char* key);

long long integer(const nlohmann::json& j, const std::string& path, const char* key, long long lo, long long hi);
std::string string(const nlohmann::json& j, const std::string& path, const char* key, std::size_t max_bytes = 1 << 20);
bool boolean(const nlohmann::json& j, const std::string& path, const char* key);
const nlohmann::json& array(const nlohmann::json& j, const std::string& path, const char* key);

// Fails naming the first key of `j` that is not in `allowed`.
void only_keys(const nlohmann::json& j, const std::string& path, std::initializer_list<std::string_view> allowed);

// An enumerator by its name (`to_string(e)` for each of `values`).
template <class Enum, std::size_t N>
Enum enumerated(const nlohmann::json& j, const std::string& path, const char* key, const Enum (&values)[N]) {
    const std::string s = string(j, path, key, 64);
    for (Enum e : values)
        if (s == to_string(e)) return e;
    std::string names;
    for (Enum e : values) names += (names.empty() ? "" : ", ") + std::string(to_string(e));
    fail(join(path, key), "unknown value " + quote_client_text(s) + " (one of " + names + ")");
}

}  // namespace spookludo::json_read
