#pragma once
// The records of the games `spookludo play` and `watch` saw end, kept on this computer so that
// `spookludo verify FILE` works after the server has gone (a demo's server, a party's laptop
// closed): at game over the client fetches /records/<game id> from the server it plays on and
// writes it to $XDG_STATE_HOME/spookludo/records/<game id>.json (by default
// ~/.local/state/spookludo/records/), the folder private to the user; the newest kMaxRecords are
// kept, the older removed. Nothing here throws: a record that cannot be fetched or written is
// said in words (the game's address still works while the server runs).
#include <cstddef>
#include <filesystem>
#include <string>

namespace spookludo::client {

class SavedRecords {
public:
    static constexpr std::size_t kMaxRecords = 64;
    static constexpr std::size_t kMaxBytes = 64u * 1024 * 1024;  // as verify reads at most

    // The default folder (from XDG_STATE_HOME or HOME); empty when neither is set.
    static std::filesystem::path default_dir();

    explicit SavedRecords(std::filesystem::path dir = default_dir()) : dir_(std::move(dir)) {}
    const std::filesystem::path& dir() const noexcept { return dir_; }

    struct Saved {
        std::filesystem::path file;  // empty when not saved
        std::string problem;         // why not, in words
    };
    // Fetches `address` (http(s)://HOST:PORT/records/<id>, trusting `ca_file` for https) and keeps
    // it as <dir>/<game_id>.json (written whole, then renamed), then removes the oldest beyond
    // kMaxRecords. Blocks for up to the fetch's timeout: call it off the event loop's thread.
    // `text`, when given, gets the record as fetched (saved or not; empty when not fetched).
    Saved fetch_and_keep(const std::string& address, const std::string& ca_file, const std::string& game_id,
                         std::string* text = nullptr) const;
    // The same for a record's text already in hand.
    Saved keep(const std::string& game_id, const std::string& text) const;

private:
    std::filesystem::path dir_;
};

}  // namespace spookludo::client
