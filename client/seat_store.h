#pragma once
// The tokens of the seats this person holds, kept in a private file so that running the same
// `spookludo play URL --room R --name N` again takes the seat back after anything that lost the
// client (a kill -9, a crash, a reboot): $XDG_STATE_HOME/spookludo/seats.json (by default
// ~/.local/state/spookludo/seats.json), the folder 0700 and the file 0600, written whole to a
// temporary file and renamed over the old one, at most kMaxEntries entries (the newest kept).
// One entry per server, room and name; the entry of a room this person created also says which
// game it was created for, so that the same `spookludo play URL --create GAME --name N` takes the
// host's seat (and the room) back as long as the room is open. Nothing here throws: a store that cannot be read or
// written is an empty one (the game goes on; only the rejoin by the same command is lost).
#include <filesystem>
#include <optional>
#include <string>

namespace spookludo::client {

// The client's own folder for what it keeps between runs (the seats' tokens, the saved records):
// $XDG_STATE_HOME/spookludo, by default ~/.local/state/spookludo; empty when neither is set.
std::filesystem::path state_dir();

class SeatStore {
public:
    static constexpr std::size_t kMaxEntries = 64;

    // The default file (from XDG_STATE_HOME or HOME); empty when neither is set.
    static std::filesystem::path default_path();

    explicit SeatStore(std::filesystem::path file = default_path()) : file_(std::move(file)) {}

    // A room this person created, kept with its seat's token.
    struct Created {
        std::string room;
        std::string token;
    };

    const std::filesystem::path& path() const noexcept { return file_; }
    std::optional<std::string> token(const std::string& server, const std::string& room, const std::string& name) const;
    // The newest room created at this server under this name for this game ("spook", "ludo")
    // whose seat is still kept.
    std::optional<Created> created(const std::string& server, const std::string& name, const std::string& game) const;
    // Keeps (or refreshes) the entry; `created_game` marks a room this person created (the
    // game's name). False when the file could not be written.
    bool remember(const std::string& server, const std::string& room, const std::string& name, const std::string& token,
                  const std::string& created_game = {});
    void forget(const std::string& server, const std::string& room, const std::string& name);

private:
    std::filesystem::path file_;
};

}  // namespace spookludo::client
