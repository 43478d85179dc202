#pragma once
// One person's (or one bot's) place at the server: connects, says hello, creates / joins /
// resumes / watches a room, sends the fair-dice client seed when asked, keeps a GameView up to
// date, and after a dropped connection reconnects by itself with its token. Shared by `play`,
// `watch`, `bot` and the load generator; runs on an EventLoop (net.h).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dice_check.h"
#include "net.h"
#include "spookludo/options.h"
#include "spookludo/protocol/messages.h"
#include "view.h"

namespace spookludo::client {

enum class JoinMode { create, join, resume, watch };

struct SessionConfig {
    Url url;
    JoinMode mode = JoinMode::join;
    GameOptions options;                                 // create
    std::optional<protocol::SettingsChange> settings;    // create
    std::string room;                                    // join, resume, watch
    std::string name;                                    // create, join
    std::string token;                                   // resume
    // resume with a token the program kept (seat_store.h): when the server refuses it
    // (bad_token: the seat is gone), join the room by name instead.
    bool join_if_token_refused = false;
    // resume the room this person created (seat_store.h): when the room is closed or lost, or
    // the seat's token is void (the host left it, or stayed away past the reconnect window),
    // create a new room instead (with `options` and `settings`).
    bool create_if_token_refused = false;
    std::optional<std::string> client_seed;              // random when absent
    bool reconnect = true;                               // after a dropped connection
    std::chrono::milliseconds reconnect_for{std::chrono::minutes(2)};
    std::string client = "spookludo";
};

// Why a session ended, for the program's exit status: 0 the game or the session ended
// normally, 1 it ended badly after joining (abandoned, kicked, server gone), 2 it never got in
// (cannot connect, refused: unknown room, full, version).
struct SessionEnd {
    int code = 0;
    std::string reason;
    bool server_gone = false;  // the server could not be reached again (gave up reconnecting)
    bool kicked = false;       // the host removed this seat (its token is void)
    bool room_gone = false;    // the room is not on the server any more (lost on its restart, closed): no seat waits
    bool server_shut_down = false;  // the server said it is going away for good (`closing` code shutdown)
};

class Session {
public:
    struct Callbacks {
        // Every server message, after the view has applied it.
        std::function<void(const nlohmann::json&)> on_message;
        // Connection news for the person: "connecting...", "connection lost, reconnecting...".
        std::function<void(const std::string&)> on_status;
        // The session is over (no more callbacks).
        std::function<void(const SessionEnd&)> on_end;
    };

    Session(EventLoop& loop, SessionConfig config, Callbacks callbacks);
    ~Session();

    void start();
    void send(const protocol::ClientMessage& message);
    // Answers the pending decision with `piece` (the server's piece number).
    void choose(int piece);
    // Leaves the room (the server plays the seat to the end) and closes.
    void leave(const std::string& reason = "left");
    // Ends the session with this outcome (closes the connection).
    void end(SessionEnd outcome);

    GameView& view() noexcept { return view_; }
    const GameView& view() const noexcept { return view_; }
    // What this session saw of the games' dice, for its own check at each game's end (dice_check.h).
    const DiceWitness& dice() const noexcept { return dice_; }
    bool connected() const;
    const SessionConfig& config() const noexcept { return config_; }
    std::shared_ptr<Connection> connection() const { return connection_; }

private:
    void connect();
    void on_open();
    void on_text(std::string_view text);
    void on_closed(const std::string& reason);

    EventLoop& loop_;
    SessionConfig config_;
    Callbacks callbacks_;
    GameView view_;
    DiceWitness dice_;
    std::shared_ptr<Connection> connection_;
    bool entered_ = false;       // joined a room at least once
    bool ended_ = false;
    bool leaving_ = false;
    bool rejoined_ = false;      // after a drop in the lobby, joined again by name
    bool redirected_ = false;    // a cluster's node sent us to another: connect there at once
    bool patient_ = false;       // the server said to come back in a moment (unavailable): keep trying
    int redirects_ = 0;          // redirects since the last joined
    static constexpr int kMaxRedirects = 4;
    std::vector<std::string> nodes_;  // the cluster's live nodes, from the last welcome
    int attempts_ = 0;
    std::int64_t lost_at_ms_ = 0;
    std::string seed_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// A fresh random client seed (32 hex digits from the system's random source).
std::string random_client_seed();

}  // namespace spookludo::client
