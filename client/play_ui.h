#pragma once
// The inside of `play` and `watch` (internal to them): their arguments, and the PlayUi that runs
// the screen (or, without a terminal, a running story), the keys and the session underneath.
// Its parts are defined by concern: play_ui.cpp (the session's start, the screen, leaving),
// play_command.cpp (the keys, and the subcommands), play_messages.cpp (the server's messages and
// the seat's token), play_end.cpp (the record saved at game over, and the last words).
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "dice_check.h"
#include "game_words.h"
#include "i18n.h"
#include "net.h"
#include "render.h"
#include "room_flags.h"
#include "saved_records.h"
#include "seat_store.h"
#include "session.h"
#include "terminal.h"

namespace spookludo::cli {

struct PlayArgs {
    RoomFlags room;
    std::string name;
    bool once = false;
    bool watch = false;
    int reconnect_for_s = 120;
};

// `play` and `watch`: the screen (or, without a terminal, a running story), the keys, and the
// session underneath.
class PlayUi {
public:
    explicit PlayUi(const PlayArgs& args) : args_(args) {}
    ~PlayUi();

    // Starts the session, runs the loop until the program leaves, and says the last words: the
    // exit status.
    int run();

private:
    // ---- The screen (play_ui.cpp) ---------------------------------------------------------
    client::Style style() const;
    std::string status_line() const;
    void redraw();
    void print_new_lines();
    void tick();

    // ---- Messages (play_messages.cpp) -----------------------------------------------------
    void keep_token();
    void forget_token();
    void on_message(const nlohmann::json& m);

    // ---- The record, kept on this computer (play_end.cpp) ---------------------------------
    // At game over the record is fetched from the server and saved in the user's state folder
    // (saved_records.h), off the loop's thread: its verify command works after the server has gone.
    struct RecordCopy {
        std::mutex mutex;
        std::string game_id;
        client::SavedRecords::Saved saved;
        std::string text;  // the record as fetched (for the dice check), saved or not
        bool done = false;
    };
    void save_record(const nlohmann::json& m);
    void record_saved(RecordCopy& copy);
    void finish_saving();

    // ---- The dice checked by this client (play_end.cpp) -----------------------------------
    // At a game's end, every die it saw recomputed from the seeds (dice_check.h); when it missed
    // some, with the record being fetched by save_record. The verdict goes into the story, the
    // game-over screen and the last words.
    void check_dice();
    void dice_checked(client::DiceVerdict verdict);

    // ---- Keys (play_command.cpp) ----------------------------------------------------------
    void on_keys(std::string_view bytes);
    bool asking() const;
    void on_key(char key);

    // ---- Leaving (play_ui.cpp) and the end (play_end.cpp) ---------------------------------
    void quit(const std::string& why);
    void stop_when_flushed(int polls = 0);
    int summary();

    const PlayArgs& args_;
    client::EventLoop loop_;
    client::Terminal term_;
    std::unique_ptr<client::Session> session_;
    std::optional<client::SessionEnd> end_;
    std::string status_;
    std::string message_;
    std::size_t printed_ = 0;
    bool show_hints_ = true;
    bool confirm_quit_ = false;
    bool confirm_end_ = false;
    client::SeatStore store_;
    std::string created_game_;  // --create GAME: the room this client holds is one it created
    std::string taking_back_;   // the created room the same command asked to take back
    bool told_created_ = false; // said whether this is that room or a new one
    std::string server_;      // the server's URL as typed into the state file
    std::string kept_name_;   // the name and token last kept there
    std::string kept_token_;
    bool told_token_ = false;
    bool leaving_ = false;
    mutable std::string hint_room_;  // the join hint, made once per room
    mutable std::vector<std::string> join_hint_;
    mutable std::vector<std::string> join_qr_;
    mutable std::optional<std::string> hint_public_;
    mutable bool hint_color_ = false;
    bool pending_remove_ = false;
    bool pending_kick_ = false;
    bool pending_hurry_ = false;   // after H (the host), the seat to hurry
    bool pending_react_ = false;   // after !, the reaction's number
    bool reactions_muted_ = false; // m: the room's reactions make no story lines
    bool left_mid_game_ = false;
    std::string early_keys_;  // keys pressed before the room's first snapshot
    int games_ = 0;
    std::shared_ptr<RecordCopy> copy_;  // the record being saved (or saved) at the last game over
    std::thread saver_;
    std::string saved_game_;  // the game whose record is saved here, and its file
    std::string saved_file_;
    std::string dice_game_;   // the game whose dice check has begun
    std::optional<client::DiceWitness> dice_waiting_;  // what was seen of it, while its record comes
    std::optional<client::DiceVerdict> dice_verdict_;  // the last check's verdict
};

}  // namespace spookludo::cli
