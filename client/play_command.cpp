#include "play_command.h"

#include <unistd.h>

#include <iostream>
#include <memory>
#include <utility>

#include <CLI/CLI.hpp>

#include "net.h"
#include "render.h"
#include "room_flags.h"
#include "session.h"
#include "terminal.h"

namespace spookludo::cli {

namespace {

struct PlayArgs {
    RoomFlags room;
    std::string name;
    bool once = false;
    bool watch = false;
};

// `play` and `watch`: the screen (or, without a terminal, a running story), the keys, and the
// session underneath.
class PlayUi {
public:
    explicit PlayUi(const PlayArgs& args) : args_(args) {}

    int run() {
        client::SessionConfig config = session_config(args_.room, args_.name, 4);
        if (args_.watch) config.mode = client::JoinMode::watch;
        // The server's rule for names, checked before connecting (the server checks it too).
        if (config.mode == client::JoinMode::create || config.mode == client::JoinMode::join)
            if (auto problem = protocol::name_problem(config.name))
                throw std::invalid_argument("--name " + protocol::quote_client_text(config.name) + " " + *problem +
                                            " [bad_name]");
        client::Session::Callbacks cb;
        cb.on_message = [this](const nlohmann::json& m) { on_message(m); };
        cb.on_status = [this](const std::string& s) {
            status_ = s == "connected" ? std::string() : s;
            if (!term_.interactive() && s != "connected") term_.write(s + "\n");
            redraw();
        };
        cb.on_end = [this](const client::SessionEnd& e) {
            end_ = e;
            loop_.stop();
        };
        session_ = std::make_unique<client::Session>(loop_, std::move(config), std::move(cb));

        loop_.on_signal([this](int) { quit("left the room (Ctrl-C)"); });
        loop_.on_resize([this] {
            term_.refresh_size();
            redraw();
        });
        loop_.watch_input(STDIN_FILENO, [this](std::string_view bytes) { on_keys(bytes); },
                          [this] {
                              // Without a terminal, the end of the input is not a reason to leave.
                              if (term_.interactive()) quit("input closed");
                          });
        term_.enter();
        session_->start();
        tick();
        loop_.run();
        term_.leave();
        return summary();
    }

private:
    // ---- Drawing --------------------------------------------------------------------------
    client::Style style() const {
        client::Style s;
        s.width = std::max(40, term_.width());
        s.height = std::max(16, term_.height());
        s.color = term_.color();
        s.hints = show_hints_;
        return s;
    }

    std::string status_line() const {
        if (!status_.empty()) return status_;
        if (!message_.empty()) return message_;
        const auto& view = session_->view();
        if (view.is_spectator()) return "Watching room " + view.room() + ". q leaves.";
        if (view.pending() && !view.pending()->chosen)
            return "Press 1-" + std::to_string(view.pending()->decision.options.size()) + " to choose. ? hints, q leave";
        if (view.in_game())
            return std::string(view.am_host() ? (view.paused() ? "P resume, k N kick, E end, " : "P pause, k N kick, E end, ")
                                              : "") +
                   "? hints, q leave";
        return {};
    }

    void redraw() {
        if (!session_) return;
        if (!term_.interactive()) return;
        term_.draw(client::render_screen(session_->view(), style(), client::steady_ms(), status_line()));
    }

    // Without a terminal: the story line by line, and the choices as a numbered list.
    void print_new_lines() {
        const auto& view = session_->view();
        std::string out;
        for (const auto& line : view.lines_since(printed_)) out += line + "\n";
        if (!out.empty()) term_.write(out);
    }

    void tick() {
        // The countdown: redraw a few times a second while a decision is open.
        if (session_->view().pending()) redraw();
        loop_.after(std::chrono::milliseconds(250), [this] { tick(); });
    }

    // ---- Messages -----------------------------------------------------------------------
    void on_message(const nlohmann::json& m) {
        const std::string type = m.value("type", "");
        if (type != "error") message_.clear();
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
                term_.write("Type the number of your choice and Enter.\n");
            }
        }
        if (type == "game_over") {
            games_++;
            if (args_.once) {
                // Leave the result on screen for a moment, then go.
                loop_.after(std::chrono::milliseconds(term_.interactive() ? 3000 : 0), [this] { quit("game over"); });
            }
        }
        redraw();
    }

    // ---- Keys -----------------------------------------------------------------------------
    void on_keys(std::string_view bytes) {
        for (const char key : bytes) on_key(key);
        redraw();
    }

    void on_key(char key) {
        auto& view = session_->view();
        if (pending_remove_ || pending_kick_) {
            const bool kick = pending_kick_;
            pending_remove_ = pending_kick_ = false;
            message_.clear();
            if (key >= '1' && key <= '8') {
                if (kick) session_->send(protocol::Kick{key - '1'});
                else session_->send(protocol::RemoveSeat{key - '1'});
            }
            return;
        }
        if (key == 'q' || key == 'Q') {
            if (view.in_game() && !view.is_spectator() && !confirm_quit_) {
                confirm_quit_ = true;
                message_ = "Press q again to leave: the server will play your seat to the end.";
                return;
            }
            quit("left the room");
            return;
        }
        confirm_quit_ = false;
        if (key == '?') {
            show_hints_ = !show_hints_;
            message_ = show_hints_ ? "Hints shown (when the room has hints on)." : "Hints hidden.";
            return;
        }
        if (view.is_spectator()) return;
        if (const auto& p = view.pending(); p && key >= '1' && key <= '9') {
            const auto index = static_cast<std::size_t>(key - '1');
            if (index < p->decision.options.size()) {
                session_->choose(p->decision.options[index].piece);
                message_ = "Sent: piece " + std::to_string(p->decision.options[index].piece + 1) + ".";
            }
            return;
        }
        if (!view.snapshot()) {
            // Too early to know whether we host (the room's first snapshot is on its way): keep
            // the key for then.
            early_keys_.push_back(key);
            return;
        }
        if (!view.am_host()) return;
        const auto& snap = view.snapshot();
        if (!snap) return;
        if (snap->state == "lobby") {
            GameOptions options = snap->options;
            auto settings = snap->settings;
            switch (key) {
                case 's': session_->send(protocol::Start{}); break;
                case 'b': session_->send(protocol::AddBot{PolicyKind::best}); break;
                case 'g': session_->send(protocol::AddBot{PolicyKind::greedy}); break;
                case 'r': session_->send(protocol::AddBot{PolicyKind::random}); break;
                case 'x': pending_remove_ = true; message_ = "Remove which seat? (1-8)"; break;
                case '+': options.players += 1; session_->send(protocol::SetOptions{options}); break;
                case '-': options.players = std::max(1, options.players - 1); session_->send(protocol::SetOptions{options}); break;
                case 'p':
                    if (options.game == GameKind::spook) {
                        options.spook.pieces = options.spook.pieces % 3 + 1;
                        session_->send(protocol::SetOptions{options});
                    }
                    break;
                case 'a':
                    if (options.game == GameKind::ludo) {
                        options.ludo.arm = options.ludo.arm == 8 ? 6 : 8;
                        session_->send(protocol::SetOptions{options});
                    }
                    break;
                case 'h': session_->send(protocol::SetSettings{{std::nullopt, std::nullopt, !settings.hints}}); break;
                case 't': {
                    static constexpr int steps[] = {10000, 20000, 30000, 60000};
                    int next = steps[0];
                    for (const int s : steps)
                        if (s > settings.decision_ms) { next = s; break; }
                    session_->send(protocol::SetSettings{{next, std::nullopt, std::nullopt}});
                    break;
                }
                default: break;
            }
        } else {
            if (key == 'P') session_->send(view.paused() ? protocol::ClientMessage{protocol::Unpause{}} : protocol::ClientMessage{protocol::Pause{}});
            if (key == 'E') session_->send(protocol::EndGame{});
            if (key == 'k') {
                pending_kick_ = true;
                message_ = "Kick which seat? (1-8; a best bot takes it over)";
            }
        }
    }

    void quit(const std::string& why) {
        if (session_ && session_->view().in_game() && !session_->view().is_spectator()) left_mid_game_ = true;
        if (session_) session_->leave(why);
        loop_.stop();
    }

    // ---- The end ----------------------------------------------------------------------------
    int summary() {
        const auto& view = session_->view();
        if (!term_.interactive()) print_new_lines();
        std::string out;
        if (const auto& r = view.result()) {
            // The last lines of the story: the result and how to check it.
            const auto& log = view.log();
            for (std::size_t i = log.size() >= 3 ? log.size() - 3 : 0; i < log.size(); ++i)
                if (term_.interactive()) out += log[i].text + "\n";
            const auto& url = session_->config().url;
            if (r->over.record)
                out += "The game record: http://" + url.host + ":" + url.port + *r->over.record +
                       " (check it with: spookludo verify FILE)\n";
        }
        if (end_ && end_->code != 0) {
            std::cerr << "spookludo " << (args_.watch ? "watch" : "play") << ": " << end_->reason << "\n";
            if (view.token() && view.in_game())
                out += "Your seat waits for you (for the server's reconnect window, 2 minutes by default):\n  spookludo play " +
                       session_->config().url.text() + " --room " + view.room() + " --token " + *view.token() + "\n";
            if (!out.empty()) term_.write(out);
            return end_->code;
        }
        if (left_mid_game_) out += "You left the game: the server plays your seat to the end.\n";
        if (!out.empty()) term_.write(out);
        return 0;
    }

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
    bool pending_remove_ = false;
    bool pending_kick_ = false;
    bool left_mid_game_ = false;
    std::string early_keys_;  // keys pressed before the room's first snapshot
    int games_ = 0;
};

int run_ui(const PlayArgs& args, const char* command) {
    try {
        PlayUi ui(args);
        return ui.run();
    } catch (const std::invalid_argument& e) {
        std::cerr << "spookludo " << command << ": " << e.what() << "\n";
        return 2;
    }
}

}  // namespace

void add_play_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PlayArgs>();
    auto* cmd = app.add_subcommand("play", "Play at a SpookLudo server: create or join a room and play in this terminal");
    cmd->footer(
        "Examples:\n"
        "  spookludo play ws://192.168.1.20:7777 --create spook --players 4 --name Ann --hints\n"
        "  spookludo play ws://192.168.1.20:7777 --room KQZTM --name Ben\n"
        "  spookludo play ws://192.168.1.20:7777 --room KQZTM --token 4f1c...   (take your seat back)\n"
        "Keys: 1-9 choose an option, ? show or hide hints, q leave (Ctrl-C too).\n"
        "The host, in the lobby: s start, b/g/r add a best/greedy/random bot, x N remove seat N, + - seats,\n"
        "p pieces (Spook), a arm 6/8 (Ludo), h hints on/off, t decision time; in a game: P pause/resume,\n"
        "k N kick seat N (a best bot takes it), E end the game.\n"
        "Leaving (q, Ctrl-C) gives your seat to the server. If the program is killed or the network drops,\n"
        "it prints a --token command that takes the seat back.\n"
        "Without a terminal (a pipe), the story is printed line by line and choices are read as numbers.\n"
        "NO_COLOR=1 turns colour off. The connection is re-made by itself with your token if it drops.");
    add_room_flags(*cmd, args->room, true);
    cmd->add_option("--name", args->name, "Your name in the room (at most 24 characters)");
    cmd->add_flag("--once", args->once, "Leave when the game ends (the result stays on screen for 3 s)");
    cmd->callback([args, &exit_code] {
        if (args->name.empty() && args->room.token.empty()) {
            const char* user = std::getenv("USER");
            args->name = user && *user ? user : "player";
        }
        exit_code = run_ui(*args, "play");
    });
}

void add_watch_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PlayArgs>();
    args->watch = true;
    auto* cmd = app.add_subcommand("watch", "Watch a room as a spectator: the same board, no prompts");
    cmd->footer("Example:\n  spookludo watch ws://192.168.1.20:7777 --room KQZTM\nKeys: q leave, ? hints.");
    cmd->add_option("url", args->room.url, "The server, e.g. ws://192.168.1.20:7777")->required();
    cmd->add_option("--room", args->room.room, "The room's 5-letter code")->required();
    cmd->add_flag("--once", args->once, "Leave when the game ends");
    cmd->callback([args, &exit_code] { exit_code = run_ui(*args, "watch"); });
}

}  // namespace spookludo::cli
