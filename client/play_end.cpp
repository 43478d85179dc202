// The end of `play` and `watch`'s games and of the program: at game over the record fetched
// from the server and saved on this computer (off the loop's thread), the game's dice checked
// by this client, and the last words: the dice's verdict, the record's address and saved file
// with their verify commands, and how to come back to a seat.
#include <iostream>
#include <utility>

#include "play_ui.h"

namespace spookludo::cli {

void PlayUi::save_record(const nlohmann::json& m) {
    const std::string record = m.value("record", std::string());
    const std::string id = m.value("game_id", std::string());
    if (record.empty() || id.empty()) return;
    if (saver_.joinable()) saver_.join();
    auto copy = std::make_shared<RecordCopy>();
    copy->game_id = id;
    copy_ = copy;
    const auto& url = session_->config().url;
    saver_ = std::thread([this, copy, address = url.http_base() + record, ca = url.ca_file] {
        std::string text;
        auto saved = client::SavedRecords().fetch_and_keep(address, ca, copy->game_id, &text);
        {
            std::lock_guard lock(copy->mutex);
            copy->saved = std::move(saved);
            copy->text = std::move(text);
            copy->done = true;
        }
        loop_.post([this, copy] { record_saved(*copy); });
    });
}

void PlayUi::record_saved(RecordCopy& copy) {
    std::lock_guard lock(copy.mutex);
    // The dice check that waited for this record.
    if (dice_waiting_ && dice_game_ == copy.game_id) {
        const auto witness = std::exchange(dice_waiting_, std::nullopt);
        dice_checked(witness->check(copy.text.empty() ? nullptr : &copy.text, copy.saved.problem));
    }
    if (copy.saved.file.empty()) {
        session_->view().note(client::tr("The game's record could not be saved on this computer ({problem}); its address works while the server runs.",
                                         {{"problem", copy.saved.problem}}));
    } else {
        saved_game_ = copy.game_id;
        saved_file_ = copy.saved.file.string();
        session_->view().note(client::tr("The game's record is saved on this computer; it checks also once the server has gone: {command}",
                                         {{"command", "spookludo verify " + saved_file_}}));
    }
    if (!term_.interactive()) print_new_lines();
    redraw();
}

// Waits for a record being saved (a few seconds at most: the fetch's timeout), so that the last
// words can name its file.
void PlayUi::finish_saving() {
    if (saver_.joinable()) saver_.join();
    if (!copy_) return;
    std::lock_guard lock(copy_->mutex);
    if (copy_->done && !copy_->saved.file.empty()) {
        saved_game_ = copy_->game_id;
        saved_file_ = copy_->saved.file.string();
    }
    // The loop stopped before the record's arrival was handled: the dice check that waited for it.
    if (copy_->done && dice_waiting_ && dice_game_ == copy_->game_id) {
        const auto witness = std::exchange(dice_waiting_, std::nullopt);
        dice_checked(witness->check(copy_->text.empty() ? nullptr : &copy_->text, copy_->saved.problem));
    }
}

// At a game's end (its game_over, or the lobby's last_game after a drop): every die this client
// saw, recomputed from the seeds. When it missed some it checks them with the game's record, which
// save_record is fetching: the check waits for it (record_saved).
void PlayUi::check_dice() {
    const auto& dice = session_->dice();
    const std::string id = dice.ended_game();
    if (id.empty() || id == dice_game_) return;
    dice_game_ = id;
    dice_waiting_.reset();
    if (!dice.needs_record()) return dice_checked(dice.check());
    dice_waiting_ = dice;
    if (!copy_ || copy_->game_id != id) save_record({{"record", *dice.record_path()}, {"game_id", id}});
}

void PlayUi::dice_checked(client::DiceVerdict verdict) {
    session_->view().note(verdict.text);
    dice_verdict_ = std::move(verdict);
    if (!term_.interactive()) print_new_lines();
    redraw();
}

// After the loop: the last words (the record and how to check it, how to come back to a seat)
// and the exit status.
int PlayUi::summary() {
    finish_saving();
    const auto& view = session_->view();
    if (!term_.interactive()) print_new_lines();
    std::string out;
    const bool server_gone = end_ && (end_->server_shut_down || end_->server_gone);
    if (const auto& r = view.result()) {
        // The last lines of the story: the result and how to check it.
        // With what this client's own check of the dice found, one line more (it is among them,
        // or said after them).
        const auto& log = view.log();
        const bool verdict = dice_verdict_ && dice_verdict_->game_id == r->over.game_id;
        std::size_t shown = 3;
        bool verdict_said = false;
        for (std::size_t i = log.size() >= 4 ? log.size() - 4 : 0; i < log.size(); ++i)
            if (verdict && log[i].text == dice_verdict_->text) verdict_said = true;
        if (verdict_said) shown = 4;
        for (std::size_t i = log.size() >= shown ? log.size() - shown : 0; i < log.size(); ++i)
            if (term_.interactive()) out += log[i].text + "\n";
        if (term_.interactive() && verdict && !verdict_said) out += dice_verdict_->text + "\n";
        const auto& url = session_->config().url;
        const bool saved = r->over.game_id == saved_game_ && !saved_file_.empty();
        // The address answers only while the server runs: once it has gone, the copy saved here.
        if (r->over.record && !(saved && server_gone)) {
            const std::string address = url.http_base() + *r->over.record;
            out += client::tr("The game record: {address} (check it with: {command})",
                              {{"address", address},
                               {"command", "spookludo verify " + address + (url.ca_file.empty() ? "" : " --ca-file " + url.ca_file)}}) +
                   "\n";
        }
        if (saved)
            out += client::tr("The game record, saved on this computer (it works without the server): {file}", {{"file", saved_file_}}) +
                   "\n  " + client::tr("check it with: {command}", {{"command", "spookludo verify " + saved_file_}}) + "\n";
    }
    if (end_ && end_->code != 0) {
        std::cerr << "spookludo " << (args_.watch ? "watch" : "play") << ": " << end_->reason << "\n";
        if (end_->kicked || end_->room_gone) {
            // The token is void (kicked, or the room is gone): no resume command.
            forget_token();
        } else if (end_->server_shut_down) {
            // Gone for good: no seat waits, nothing to come back to.
            forget_token();
        } else if (end_->server_gone && view.token() && !view.is_spectator()) {
            // The server itself is gone: do not claim a seat waits. Say how to come back.
            out += client::tr("The server could not be reached. When it is back (with the room still open), the same command takes your seat back:") +
                   "\n  spookludo play " + server_ + " --room " + view.room() + " --name " +
                   (kept_name_.empty() ? session_->config().name : kept_name_) + "\n";
        } else if (view.token() && view.in_game()) {
            out += client::tr("Your seat waits for you (the server plays it meanwhile); the same command takes it back, or:") +
                   "\n  spookludo play " + server_ + " --room " + view.room() + " --token " + *view.token() + "\n";
        }
        if (!out.empty()) term_.write(out);
        return end_->code;
    }
    if (left_mid_game_) out += client::tr("You left the game: the server plays your seat to the end.") + "\n";
    if (!out.empty()) term_.write(out);
    return 0;
}

}  // namespace spookludo::cli
