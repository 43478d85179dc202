#include "saved_records.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "http_fetch.h"
#include "i18n.h"
#include "seat_store.h"

namespace spookludo::client {

namespace fs = std::filesystem;

fs::path SavedRecords::default_dir() {
    const fs::path dir = state_dir();
    return dir.empty() ? dir : dir / "records";
}

SavedRecords::Saved SavedRecords::fetch_and_keep(const std::string& address, const std::string& ca_file,
                                                 const std::string& game_id, std::string* text) const {
    std::string fetched;
    try {
        fetched = cli::fetch_text(address, ca_file, kMaxBytes, tr("no record at {address} (HTTP 404: the server does not have it)"));
    } catch (const std::exception& e) {
        return {{}, e.what()};
    }
    Saved saved = keep(game_id, fetched);
    if (text) *text = std::move(fetched);
    return saved;
}

SavedRecords::Saved SavedRecords::keep(const std::string& game_id, const std::string& text) const {
    if (dir_.empty()) return {{}, tr("no folder for it (neither XDG_STATE_HOME nor HOME is set)")};
    // A game id is letters, digits and '-' (the server's); anything else is no file name.
    if (game_id.empty() || game_id.size() > 128 ||
        !std::all_of(game_id.begin(), game_id.end(), [](char c) {
            return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        }))
        return {{}, tr("the game id \"{id}\" is not one to name a file after", {{"id", game_id}})};
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) return {{}, tr("cannot create {folder}: {detail}", {{"folder", dir_.string()}, {"detail", ec.message()}})};
    ::chmod(dir_.parent_path().c_str(), 0700);  // the state folder holds the seats' tokens too
    ::chmod(dir_.c_str(), 0700);
    const fs::path file = dir_ / (game_id + ".json");
    const fs::path temp = dir_ / (game_id + ".json.tmp" + std::to_string(::getpid()));
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return {{}, tr("cannot write {file}", {{"file", temp.string()}})};
    bool ok = true;
    for (std::size_t done = 0; ok && done < text.size();) {
        const auto n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) ok = false;
        else done += static_cast<std::size_t>(n);
    }
    ok = ::close(fd) == 0 && ok;
    if (ok) ok = ::rename(temp.c_str(), file.c_str()) == 0;
    if (!ok) {
        ::unlink(temp.c_str());
        return {{}, tr("cannot write {file}", {{"file", file.string()}})};
    }
    // The newest kMaxRecords stay.
    std::vector<std::pair<fs::file_time_type, fs::path>> records;
    for (const auto& entry : fs::directory_iterator(dir_, ec))
        if (entry.path().extension() == ".json" && entry.is_regular_file(ec))
            records.emplace_back(entry.last_write_time(ec), entry.path());
    if (records.size() > kMaxRecords) {
        std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (std::size_t i = kMaxRecords; i < records.size(); ++i)
            if (records[i].second != file) fs::remove(records[i].second, ec);
    }
    return {file, {}};
}

}  // namespace spookludo::client
