#include "seat_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace spookludo::client {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// An entry whose fields are all text (a file edited by hand may hold anything).
bool well_formed(const json& e) {
    if (!e.is_object()) return false;
    for (const char* key : {"server", "room", "name", "token", "created"})
        if (auto it = e.find(key); it != e.end() && !it->is_string()) return false;
    return true;
}

json read_entries(const fs::path& file) {
    std::ifstream in(file);
    if (!in) return json::array();
    std::stringstream text;
    text << in.rdbuf();
    json j = json::parse(text.str(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("seats") || !j["seats"].is_array()) return json::array();
    json out = json::array();
    for (const auto& e : j["seats"])
        if (well_formed(e) && e.value("server", "") != "" && e.value("token", "") != "") out.push_back(e);
    return out;
}

bool same(const json& e, const std::string& server, const std::string& room, const std::string& name) {
    return e.value("server", "") == server && e.value("room", "") == room && e.value("name", "") == name;
}

bool write_entries(const fs::path& file, json entries) {
    if (file.empty()) return false;
    std::error_code ec;
    const fs::path dir = file.parent_path();
    fs::create_directories(dir, ec);
    if (::chmod(dir.c_str(), 0700) != 0) return false;
    // The newest entries first, at most kMaxEntries.
    std::stable_sort(entries.begin(), entries.end(), [](const json& a, const json& b) {
        return a.value("saved_ms", std::int64_t{0}) > b.value("saved_ms", std::int64_t{0});
    });
    while (entries.size() > SeatStore::kMaxEntries) entries.erase(entries.size() - 1);
    const std::string text = json{{"version", 1}, {"seats", entries}}.dump(2) + "\n";
    const fs::path temp = dir / (file.filename().string() + ".tmp" + std::to_string(::getpid()));
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    bool ok = ::fchmod(fd, 0600) == 0;
    for (std::size_t done = 0; ok && done < text.size();) {
        const auto n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) ok = false;
        else done += static_cast<std::size_t>(n);
    }
    ok = ::fsync(fd) == 0 && ok;
    ok = ::close(fd) == 0 && ok;
    if (ok) ok = ::rename(temp.c_str(), file.c_str()) == 0;
    if (!ok) ::unlink(temp.c_str());
    return ok;
}

}  // namespace

fs::path state_dir() {
    const char* state = std::getenv("XDG_STATE_HOME");
    if (state && *state == '/') return fs::path(state) / "spookludo";
    const char* home = std::getenv("HOME");
    if (home && *home) return fs::path(home) / ".local" / "state" / "spookludo";
    return {};
}

fs::path SeatStore::default_path() {
    const fs::path dir = state_dir();
    return dir.empty() ? dir : dir / "seats.json";
}

std::optional<std::string> SeatStore::token(const std::string& server, const std::string& room,
                                            const std::string& name) const {
    if (file_.empty()) return std::nullopt;
    for (const auto& e : read_entries(file_))
        if (same(e, server, room, name)) return e.value("token", "");
    return std::nullopt;
}

std::optional<SeatStore::Created> SeatStore::created(const std::string& server, const std::string& name,
                                                     const std::string& game) const {
    if (file_.empty() || game.empty()) return std::nullopt;
    // The file keeps the newest first.
    for (const auto& e : read_entries(file_))
        if (e.value("server", "") == server && e.value("name", "") == name && e.value("created", "") == game &&
            !e.value("room", "").empty())
            return Created{e.value("room", ""), e.value("token", "")};
    return std::nullopt;
}

bool SeatStore::remember(const std::string& server, const std::string& room, const std::string& name,
                         const std::string& token, const std::string& created_game) {
    if (file_.empty()) return false;
    json entries = read_entries(file_);
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    // The newest first (the file keeps that order; ties keep it too).
    json kept = json::array();
    json entry = {{"server", server}, {"room", room}, {"name", name}, {"token", token}, {"saved_ms", now}};
    if (!created_game.empty()) entry["created"] = created_game;
    kept.push_back(std::move(entry));
    for (auto& e : entries)
        if (!same(e, server, room, name)) kept.push_back(std::move(e));
    return write_entries(file_, std::move(kept));
}

void SeatStore::forget(const std::string& server, const std::string& room, const std::string& name) {
    if (file_.empty()) return;
    json entries = read_entries(file_);
    json kept = json::array();
    bool found = false;
    for (auto& e : entries) {
        if (same(e, server, room, name)) found = true;
        else kept.push_back(std::move(e));
    }
    if (found) write_entries(file_, std::move(kept));
}

}  // namespace spookludo::client
