#pragma once
// Lenient JSON field access for documents this project writes itself and reads back (snapshots,
// the game view): an absent or null field leaves the value as it is (an optional: empty), a
// present one is read as its type; optional fields are written only when present. Strict reading
// of what comes from outside is json_read.h's.
#include <optional>

#include <nlohmann/json.hpp>

namespace spookludo::json_lenient {

template <class T>
void put(nlohmann::json& j, const char* key, const std::optional<T>& v) {
    if (v) j[key] = *v;
}
template <class T>
void get(const nlohmann::json& j, const char* key, T& v) {
    if (auto it = j.find(key); it != j.end() && !it->is_null()) it->get_to(v);
}
template <class T>
void get(const nlohmann::json& j, const char* key, std::optional<T>& v) {
    if (auto it = j.find(key); it != j.end() && !it->is_null())
        v = it->get<T>();
    else
        v.reset();
}

}  // namespace spookludo::json_lenient
