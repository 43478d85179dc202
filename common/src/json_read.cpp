#include "spookludo/json_read.h"

#include <stdexcept>

#include "spookludo/text.h"

namespace spookludo::json_read {

using nlohmann::json;

void fail(const std::string& path, const std::string& what) { throw std::invalid_argument(path + ": " + what); }

std::string shown(const json& v) {
    if (v.is_string()) return quote_client_text(v.get_ref<const std::string&>());
    if (v.is_array()) return v.empty() ? "[]" : "an array";
    if (v.is_object()) return v.empty() ? "{}" : "an object";
    return v.dump(-1, ' ', false, json::error_handler_t::replace);  // a number, true, false or null
}

std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string join(const std::string& path, std::size_t index) { return path + "[" + std::to_string(index) + "]"; }

const json& field(const json& j, const std::string& path, const char* key) {
    if (!j.is_object()) fail(path.empty() ? "message" : path, "must be a JSON object");
    auto it = j.find(key);
    if (it == j.end()) fail(join(path, key), "is missing");
    return *it;
}

long long integer(const json& j, const std::string& path, const char* key, long long lo, long long hi) {
    const json& v = field(j, path, key);
    if (!v.is_number_integer()) fail(join(path, key), "must be a whole number (got " + shown(v) + ")");
    if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi))
        fail(join(path, key), "must be " + std::to_string(lo) + " to " + std::to_string(hi) + " (got " + shown(v) + ")");
    const auto x = v.get<long long>();
    if (x < lo || x > hi)
        fail(join(path, key), "must be " + std::to_string(lo) + " to " + std::to_string(hi) + " (got " + shown(v) + ")");
    return x;
}

std::string string(const json& j, const std::string& path, const char* key, std::size_t max_bytes) {
    const json& v = field(j, path, key);
    if (!v.is_string()) fail(join(path, key), "must be a string (got " + shown(v) + ")");
    const auto& s = v.get_ref<const std::string&>();
    if (s.size() > max_bytes) fail(join(path, key), "is longer than " + std::to_string(max_bytes) + " bytes");
    return s;
}

bool boolean(const json& j, const std::string& path, const char* key) {
    const json& v = field(j, path, key);
    if (!v.is_boolean()) fail(join(path, key), "must be true or false (got " + shown(v) + ")");
    return v.get<bool>();
}

const json& array(const json& j, const std::string& path, const char* key) {
    const json& v = field(j, path, key);
    if (!v.is_array()) fail(join(path, key), "must be an array");
    return v;
}

void only_keys(const json& j, const std::string& path, std::initializer_list<std::string_view> allowed) {
    if (!j.is_object()) fail(path.empty() ? "message" : path, "must be a JSON object");
    for (const auto& [key, value] : j.items()) {
        bool ok = false;
        for (auto a : allowed) ok |= key == a;
        if (!ok) fail(join(path, quote_client_text(key)), "is not a known field");
    }
}

}  // namespace spookludo::json_read
