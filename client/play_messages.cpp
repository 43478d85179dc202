// `play` and `watch`'s handling of the server's messages: the seat's token kept in the state
// file while this client holds the seat and forgotten when it is void, what the host's
// `--create` did said once, keys pressed before the room's first snapshot, the story and
// decisions printed without a terminal, and the game's end (its record saved, its dice checked).
#include <utility>

#include "play_ui.h"

namespace spookludo::cli {

namespace {

// Who hosts the room ("nobody" when no one does).
std::string host_name(const client::GameView& view) {
    const auto& snap = view.snapshot();
    return snap && snap->host >= 0 ? view.seat_name(snap->host) : client::tr("nobody");
}

}  // namespace

// The seat's token: kept in the state file while this client holds the seat, forgotten
// when it is void (kicked, left, refused); the resume command is told once.
void PlayUi::keep_token() {
    const auto& view = session_->view();
    if (view.is_spectator() || !view.token() || view.my_seat() < 0 || !view.snapshot()) return;
    // Once leaving on purpose, a room update still in flight must not keep the void token again.
    if (leaving_) return;
    const std::string name = view.seat_name(view.my_seat());
    if (kept_name_ == name && kept_token_ == *view.token()) return;
    kept_name_ = name;
    kept_token_ = *view.token();
    const bool stored = store_.remember(server_, view.room(), name, *view.token(), created_game_);
    // Which the same `--create` command did: took the room back, or made a new one.
    if (!created_game_.empty() && !told_created_) {
        told_created_ = true;
        if (taking_back_ == view.room())
            session_->view().note(view.am_host()
                                      ? client::tr("You are back in room {code}, the room you created, as its host.", {{"code", view.room()}})
                                      : client::tr("You are back in room {code}, the room you created (the host is now {name}).",
                                                   {{"code", view.room()}, {"name", host_name(view)}}));
        else if (!taking_back_.empty())
            session_->view().note(client::tr("Room {code} is a new room: your room {old} is not open for you any more.",
                                             {{"code", view.room()}, {"old", taking_back_}}));
        else
            session_->view().note(client::tr("Room {code} is a new room: you created it and are its host.", {{"code", view.room()}}));
    }
    if (!told_token_) {
        told_token_ = true;
        const std::string command = "spookludo play " + server_ + " --room " + view.room() + " --token " + *view.token();
        session_->view().note(stored ? client::tr("If this program is lost, the same command takes the seat back; from elsewhere: {command}",
                                                  {{"command", command}})
                                     : client::tr("To take this seat back if the program is lost: {command}", {{"command", command}}));
    }
}

void PlayUi::forget_token() {
    const auto& view = session_->view();
    const std::string name = !kept_name_.empty() ? kept_name_ : session_->config().name;
    const std::string room = !view.room().empty() ? view.room() : session_->config().room;
    if (!name.empty() && !room.empty()) store_.forget(server_, room, name);
    kept_name_.clear();
    kept_token_.clear();
}

void PlayUi::on_message(const nlohmann::json& m) {
    const std::string type = m.value("type", "");
    if (type == "reaction" && !reactions_muted_) {
        // A story line, "Ben: phew"; an id this client does not know (a newer server's) is left out.
        const auto r = m.get<protocol::Reaction>();
        if (const auto* kind = protocol::find_reaction(r.reaction))
            session_->view().note(client::tr("{name}: {reaction}", {{"name", r.name}, {"reaction", client::reaction_label(kind->id, kind->label)}}));
    }
    // A question about the game (E, q, k) has no answer once the game is over.
    if (type == "game_over" || session_->view().state() == "lobby") confirm_end_ = confirm_quit_ = pending_kick_ = pending_hurry_ = false;
    // A question stays on the status line until it is answered (a decision arriving meanwhile
    // shows above it, and y or n still answer it).
    if (type != "error" && !asking()) message_.clear();
    if (type == "room" || type == "joined") keep_token();
    if (type == "kicked") forget_token();
    if (type == "error" && m.value("ref", "") == "resume") {
        const std::string code = m.value("code", "");
        if (code == "bad_token" || code == "room_not_found" || code == "room_lost") forget_token();
    }
    if (type == "room" && !early_keys_.empty()) {
        const std::string keys = std::exchange(early_keys_, {});
        for (const char key : keys) on_key(key);
    }
    if (!term_.interactive()) {
        print_new_lines();
        if ((type == "activation" || type == "game_started") && session_->view().options().game == GameKind::spook) {
            // The boards after each round (plain text: a log or a pipe has no colour).
            client::Style plain = style();
            plain.color = false;
            for (const auto& line : client::render_spook_boards(session_->view(), plain)) term_.write(line + "\n");
        }
        if (type == "decision") {
            for (const auto& line : client::render_decision(session_->view(), style(), client::steady_ms()))
                term_.write(line + "\n");
            // The screen's question (after q or E) is still open: a number answers no to it.
            term_.write((confirm_quit_ ? client::tr("Leave the game? y and Enter leaves; the number of your choice and Enter stays and chooses it.")
                         : confirm_end_ ? client::tr("End the game for everyone? y and Enter ends it; the number of your choice and Enter goes on and chooses it.")
                                        : client::tr("Type the number of your choice and Enter.")) +
                        "\n");
        }
    }
    if (type == "game_over") {
        games_++;
        save_record(m);
        if (args_.once) {
            // Leave the result on screen for a moment, then go.
            loop_.after(std::chrono::milliseconds(term_.interactive() ? 3000 : 0), [this] { quit("game over"); });
        }
    }
    // A game that ended (here, or while this client was away): its dice checked by this client.
    check_dice();
    redraw();
}

}  // namespace spookludo::cli
