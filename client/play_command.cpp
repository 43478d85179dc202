#include "play_command.h"

#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include <CLI/CLI.hpp>

#include "join_hint.h"
#include "qr_text.h"
#include "net.h"
#include "render.h"
#include "room_flags.h"
#include "saved_records.h"
#include "seat_store.h"
#include "session.h"
#include "terminal.h"

namespace spookludo::cli {

namespace {

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

    int run() {
        client::SessionConfig config = session_config(args_.room, args_.name, 4);
        if (args_.watch) config.mode = client::JoinMode::watch;
        config.reconnect_for = std::chrono::seconds(args_.reconnect_for_s);
        server_ = config.url.text();
        // The same command again takes a kept seat back (after a kill -9, a crash, a reboot):
        // the token of this server, room and name is in the private state file.
        if (config.mode == client::JoinMode::join) {
            if (auto kept = store_.token(server_, config.room, config.name)) {
                config.mode = client::JoinMode::resume;
                config.token = *kept;
                config.join_if_token_refused = true;
            }
        }
        // A host's `--create` again takes the room they created back, host's seat and all, while
        // it is open and the seat is theirs; otherwise it creates a new one (the session says so).
        if (config.mode == client::JoinMode::create) {
            created_game_ = args_.room.create;
            if (auto kept = store_.created(server_, config.name, created_game_)) {
                config.mode = client::JoinMode::resume;
                config.room = kept->room;
                config.token = kept->token;
                config.create_if_token_refused = true;
                taking_back_ = kept->room;
            }
        }
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
            stop_when_flushed();
        };
        session_ = std::make_unique<client::Session>(loop_, std::move(config), std::move(cb));

        // Ctrl-C, SIGTERM and SIGHUP leave on purpose, like q twice: the seat shows "left".
        loop_.on_signal([this](int sig) { quit(sig == SIGINT ? "left the room (Ctrl-C)" : "left the room (signal)"); });
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
        // The window as it is: render_screen keeps the header in any size and says how big a
        // window the board needs (the terminal reports 80x24 when it cannot tell).
        s.width = term_.width();
        s.height = term_.height();
        s.color = term_.color();
        s.hints = show_hints_;
        if (session_) {
            s.server_url = session_->config().url.http_base();
            if (!session_->config().url.ca_file.empty()) s.verify_flags = " --ca-file " + session_->config().url.ca_file;
            if (const auto& r = session_->view().result(); r && r->over.game_id == saved_game_) s.saved_record = saved_file_;
        }
        if (session_ && !session_->view().room().empty()) {
            const auto& welcome = session_->view().welcome();
            const auto public_url = welcome ? welcome->public_url : std::nullopt;
            if (hint_room_ != session_->view().room() || hint_public_ != public_url || hint_color_ != s.color) {
                hint_room_ = session_->view().room();
                hint_public_ = public_url;
                hint_color_ = s.color;
                // The server's own network addresses when it said them (a server bound to
                // loopback has none); this machine's otherwise.
                std::vector<std::string> lan;
                if (welcome) {
                    std::string ignored;
                    for (const auto& u : welcome->lan_urls)
                        if (const auto parsed = client::parse_http_url(u, ignored)) lan.push_back(parsed->host);
                }
                const auto hint = welcome ? client::join_hint(session_->config().url, hint_room_, lan, public_url)
                                          : client::join_hint_here(session_->config().url, hint_room_, public_url);
                join_hint_ = hint.lines;
                join_qr_ = client::qr_lines(hint.link, s.color);
            }
            s.join_hint = join_hint_;
            s.join_qr = join_qr_;
        }
        return s;
    }

    std::string status_line() const {
        if (!status_.empty()) return status_;
        if (!message_.empty()) return message_;
        const auto& view = session_->view();
        // Who the host is shows in the lobby's seat list, and in a game here (the boards have no
        // room for it), here or away.
        const auto& snap = view.snapshot();
        const std::string host = snap && snap->host >= 0 ? view.seat_name(snap->host) : std::string();
        if (view.is_spectator())
            return "Watching room " + view.room() + (host.empty() || !view.in_game() ? "" : " (host: " + host + ")") + "." +
                   (view.state() == "lobby" && view.has_free_seat() ? " j takes a free seat," : "") + " q leaves.";
        if (view.paused() && view.in_game())
            return std::string("The game is paused") +
                   (view.am_host() ? ": P resumes." : ": wait for " + (host.empty() ? std::string("the host") : host + " (host)") + ".") +
                   " q leave";
        if (view.pending() && !view.pending()->chosen)
            return "Press 1-" + std::to_string(view.pending()->decision.options.size()) + " to choose. ? hints, q leave";
        if (view.in_game())
            return std::string(view.am_host() ? (view.paused() ? "P resume, k N kick, E end, " : "P pause, k N kick, E end, ")
                                              : host.empty() ? "" : host + " is the host. ") +
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
        // The countdowns: redraw a few times a second while one runs (a decision of ours, the
        // others' time to choose, the lobby's automatic start; the terminal draws only changes).
        const auto& view = session_->view();
        if (view.pending() || !view.choosing_seats().empty() || !view.auto_start_text(client::steady_ms()).empty()) redraw();
        loop_.after(std::chrono::milliseconds(250), [this] { tick(); });
    }

    // ---- Messages -----------------------------------------------------------------------
    // The seat's token: kept in the state file while this client holds the seat, forgotten
    // when it is void (kicked, left, refused); the resume command is told once.
    void keep_token() {
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
                session_->view().note("You are back in room " + view.room() + ", the room you created" +
                                      (view.am_host() ? ", as its host." : " (the host is now " + host_name(view) + ")."));
            else if (!taking_back_.empty())
                session_->view().note("Room " + view.room() + " is a new room: your room " + taking_back_ +
                                      " is not open for you any more.");
            else
                session_->view().note("Room " + view.room() + " is a new room: you created it and are its host.");
        }
        if (!told_token_) {
            told_token_ = true;
            session_->view().note(
                std::string(stored ? "If this program is lost, the same command takes the seat back; from elsewhere: "
                                   : "To take this seat back if the program is lost: ") +
                "spookludo play " + server_ + " --room " + view.room() + " --token " + *view.token());
        }
    }

    static std::string host_name(const client::GameView& view) {
        const auto& snap = view.snapshot();
        return snap && snap->host >= 0 ? view.seat_name(snap->host) : std::string("nobody");
    }

    void forget_token() {
        const auto& view = session_->view();
        const std::string name = !kept_name_.empty() ? kept_name_ : session_->config().name;
        const std::string room = !view.room().empty() ? view.room() : session_->config().room;
        if (!name.empty() && !room.empty()) store_.forget(server_, room, name);
        kept_name_.clear();
        kept_token_.clear();
    }

    void on_message(const nlohmann::json& m) {
        const std::string type = m.value("type", "");
        // A question about the game (E, q, k) has no answer once the game is over.
        if (type == "game_over" || session_->view().state() == "lobby") confirm_end_ = confirm_quit_ = pending_kick_ = false;
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
                term_.write(confirm_quit_ ? "Leave the game? y and Enter leaves; the number of your choice and Enter stays and chooses it.\n"
                            : confirm_end_ ? "End the game for everyone? y and Enter ends it; the number of your choice and Enter goes on and chooses it.\n"
                                           : "Type the number of your choice and Enter.\n");
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
        redraw();
    }

    // ---- The record, kept on this computer -----------------------------------------------
    // At game over the record is fetched from the server and saved in the user's state folder
    // (saved_records.h), off the loop's thread: its verify command works after the server has gone.
    struct RecordCopy {
        std::mutex mutex;
        std::string game_id;
        client::SavedRecords::Saved saved;
        bool done = false;
    };

    void save_record(const nlohmann::json& m) {
        const std::string record = m.value("record", std::string());
        const std::string id = m.value("game_id", std::string());
        if (record.empty() || id.empty()) return;
        if (saver_.joinable()) saver_.join();
        auto copy = std::make_shared<RecordCopy>();
        copy->game_id = id;
        copy_ = copy;
        const auto& url = session_->config().url;
        saver_ = std::thread([this, copy, address = url.http_base() + record, ca = url.ca_file] {
            auto saved = client::SavedRecords().fetch_and_keep(address, ca, copy->game_id);
            {
                std::lock_guard lock(copy->mutex);
                copy->saved = std::move(saved);
                copy->done = true;
            }
            loop_.post([this, copy] { record_saved(*copy); });
        });
    }

    void record_saved(RecordCopy& copy) {
        std::lock_guard lock(copy.mutex);
        if (copy.saved.file.empty()) {
            session_->view().note("The game's record could not be saved on this computer (" + copy.saved.problem +
                                  "); its address works while the server runs.");
        } else {
            saved_game_ = copy.game_id;
            saved_file_ = copy.saved.file.string();
            session_->view().note("The game's record is saved on this computer; it checks also once the server has "
                                  "gone: spookludo verify " + saved_file_);
        }
        if (!term_.interactive()) print_new_lines();
        redraw();
    }

    // Waits for a record being saved (a few seconds at most: the fetch's timeout), so that the last
    // words can name its file.
    void finish_saving() {
        if (saver_.joinable()) saver_.join();
        if (!copy_) return;
        std::lock_guard lock(copy_->mutex);
        if (copy_->done && !copy_->saved.file.empty()) {
            saved_game_ = copy_->game_id;
            saved_file_ = copy_->saved.file.string();
        }
    }

    // ---- Keys -----------------------------------------------------------------------------
    void on_keys(std::string_view bytes) {
        for (const char key : bytes) {
            const std::string before = message_;
            on_key(key);
            // Without a terminal there is no status line: what a key has to say is printed once.
            if (!term_.interactive() && !message_.empty() && message_ != before) term_.write(message_ + "\n");
        }
        redraw();
    }

    // The step after `now` in a cycle of choices (`after_last` past the last one).
    template <std::size_t N>
    static int next_step(const int (&steps)[N], int now, int after_last) {
        for (const int s : steps)
            if (s > now) return s;
        return after_last;
    }

    // A question of the status line waits for its answer (the next key).
    bool asking() const { return confirm_end_ || confirm_quit_ || pending_kick_ || pending_remove_; }

    // Enter, and a space: what a pipe's lines end with, nothing to do.
    static bool blank(char c) { return c == '\n' || c == '\r' || c == ' '; }

    void on_key(char key) {
        auto& view = session_->view();
        // The game-over screen stays until a key is pressed: that key only dismisses it (without
        // a terminal there is no such screen: the key counts).
        if (view.showing_result()) {
            view.dismiss_result();
            if (term_.interactive()) {
                message_.clear();
                return;
            }
        }
        if (blank(key)) return;  // Enter after a typed key (pipes)
        if (pending_remove_ || pending_kick_) {
            const bool kick = pending_kick_;
            pending_remove_ = pending_kick_ = false;
            message_.clear();
            // People's seat numbers (1-based), as the prompt listed them.
            if (key >= '1' && key <= '9') {
                const int number = key - '0';
                if (!view.has_seat_number(number)) message_ = "There is no seat " + std::to_string(number) + " in this room.";
                else if (kick) session_->send(protocol::Kick{number - 1});
                else session_->send(protocol::RemoveSeat{number - 1});
            }
            return;
        }
        // The screen's question after E or q: y (or the same key again) says yes, n no; any other
        // key says no and does what it does.
        if (confirm_end_ || confirm_quit_) {
            const bool end = confirm_end_;
            confirm_end_ = confirm_quit_ = false;
            const bool yes = key == 'y' || (end ? key == 'E' : key == 'q' || key == 'Q');
            if (yes && end) {
                session_->send(protocol::EndGame{});
                message_ = "Ending the game.";
                return;
            }
            if (yes) {
                quit("left the room");
                return;
            }
            message_ = end ? "The game goes on." : "You stay.";
            if (key == 'n') return;
        }
        if (key == 'q' || key == 'Q') {
            if (view.in_game() && !view.is_spectator()) {
                confirm_quit_ = true;
                message_ = "Leave the game? The server will play your seat to the end. y yes (or q again), n no";
                return;
            }
            quit("left the room");
            return;
        }
        if (key == '?') {
            show_hints_ = !show_hints_;
            message_ = show_hints_ ? "Hints shown (when the room has hints on)." : "Hints hidden.";
            return;
        }
        if (view.is_spectator()) {
            // Watching, in the lobby: j sits down at a free seat (the server takes the lowest).
            if (key == 'j' && view.snapshot() && view.state() == "lobby") {
                if (!view.has_free_seat()) {
                    message_ = "Every seat is taken: the host can add one (+).";
                } else if (auto problem = protocol::name_problem(args_.name)) {
                    message_ = "The name " + protocol::quote_client_text(args_.name) + " " + *problem + ": watch again with --name.";
                } else {
                    session_->send(protocol::JoinRoom{view.room(), args_.name});
                    message_ = "Taking a seat as " + args_.name + " ...";
                }
            }
            return;
        }
        if (view.in_game() && view.paused() && key >= '1' && key <= '9') {
            // A choice during a pause is not sent: the server would refuse it (paused); the
            // decision stays open with its time kept until the game resumes.
            message_ = "The game is paused: choose when it resumes.";
            return;
        }
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
                case 'x':
                    pending_remove_ = true;
                    message_ = "Remove which seat? (" + view.seat_numbers_text() + ")";
                    break;
                case '+':
                case '-': {
                    // The game's limits, checked here: the server would refuse the same.
                    const bool ludo = options.game == GameKind::ludo;
                    const int low = ludo ? 2 : 1, high = ludo ? 4 : 8;
                    const int want = options.players + (key == '+' ? 1 : -1);
                    if (want < low || want > high) {
                        message_ = ludo ? "Ludo takes 2 to 4 players." : "Spook & Werewolf takes 1 to 8 players.";
                        break;
                    }
                    options.players = want;
                    session_->send(protocol::SetOptions{options});
                    break;
                }
                case 'p':
                    if (options.game == GameKind::spook) {
                        options.spook.pieces = options.spook.pieces % 3 + 1;
                        session_->send(protocol::SetOptions{options});
                    } else {
                        message_ = "p sets the pieces of Spook & Werewolf; in Ludo everyone has four (a changes the arm).";
                    }
                    break;
                case 'a':
                    if (options.game == GameKind::ludo) {
                        options.ludo.arm = options.ludo.arm == 8 ? 6 : 8;
                        session_->send(protocol::SetOptions{options});
                    } else {
                        message_ = "a sets the arm of a Ludo board; Spook's board is always 40 squares (p changes the pieces).";
                    }
                    break;
                case 'h': session_->send(protocol::SetSettings{{std::nullopt, std::nullopt, !settings.hints, std::nullopt}}); break;
                case 't': {
                    static constexpr int steps[] = {10000, 20000, 30000, 60000, 120000};
                    session_->send(protocol::SetSettings{{next_step(steps, settings.decision_ms, steps[0]), std::nullopt,
                                                          std::nullopt, std::nullopt}});
                    break;
                }
                case 'w': {
                    // The pace: the same choices as the page's.
                    static constexpr int steps[] = {0, 500, 1000, 1500, 2000, 3000};
                    session_->send(protocol::SetSettings{{std::nullopt, next_step(steps, settings.pace_ms, steps[0]),
                                                          std::nullopt, std::nullopt}});
                    break;
                }
                case 'c': {
                    // The automatic start: off, then 30 s, 1, 2, 5 min, then off again.
                    static constexpr int steps[] = {30000, 60000, 120000, 300000};
                    const int now = snap->auto_start_at_ms ? settings.auto_start_ms : 0;
                    session_->send(protocol::SetSettings{{std::nullopt, std::nullopt, std::nullopt,
                                                          now == 0 ? steps[0] : next_step(steps, now, 0)}});
                    break;
                }
                case 'o':
                    options.play_on = !options.play_on;
                    session_->send(protocol::SetOptions{options});
                    break;
                case 'd':
                    if (options.game == GameKind::spook) {
                        options.spook.balanced_boards = !options.spook.balanced_boards;
                        session_->send(protocol::SetOptions{options});
                    } else {
                        message_ = "d sets Spook's boards; a Ludo board is always the same (e sets the entry, 3 three 6s).";
                    }
                    break;
                case 'e':
                case '3':
                    if (options.game == GameKind::ludo) {
                        if (key == 'e')
                            options.ludo.entry = options.ludo.entry == LudoEntry::text ? LudoEntry::start_square : LudoEntry::text;
                        else
                            options.ludo.three_sixes = !options.ludo.three_sixes;
                        session_->send(protocol::SetOptions{options});
                    } else {
                        message_ = std::string(key == 'e' ? "e sets how a 6 enters" : "3 sets the three 6s rule") +
                                   " in Ludo; in Spook, p sets the pieces and d the boards.";
                    }
                    break;
                default: break;
            }
        } else {
            if (key == 'P') session_->send(view.paused() ? protocol::ClientMessage{protocol::Unpause{}} : protocol::ClientMessage{protocol::Pause{}});
            if (key == 'E') {
                // Like q: it asks first.
                confirm_end_ = true;
                message_ = "End the game for everyone? y yes (or E again), n no";
            }
            if (key == 'k') {
                pending_kick_ = true;
                message_ = "Kick which seat? (" + view.seat_numbers_text() + "; a best bot takes it over)";
            }
        }
    }

    void quit(const std::string& why) {
        if (session_ && session_->view().in_game() && !session_->view().is_spectator()) left_mid_game_ = true;
        // Leaving on purpose voids the token: nothing to take back.
        leaving_ = true;
        if (session_ && !session_->view().is_spectator()) forget_token();
        if (session_) session_->leave(why);
        stop_when_flushed();
    }

    // Stops the loop once the connection has sent what was queued (a `leave`, the close) and
    // closed, or after a second: stopping at once would lose the `leave`, and the seat would
    // show "away" instead of "left".
    void stop_when_flushed(int polls = 0) {
        const auto c = session_ ? session_->connection() : nullptr;
        if (!c || c->is_closed() || polls >= 50) {
            loop_.stop();
            return;
        }
        loop_.after(std::chrono::milliseconds(20), [this, polls] { stop_when_flushed(polls + 1); });
    }

    // ---- The end ----------------------------------------------------------------------------
    int summary() {
        finish_saving();
        const auto& view = session_->view();
        if (!term_.interactive()) print_new_lines();
        std::string out;
        const bool server_gone = end_ && (end_->server_shut_down || end_->server_gone);
        if (const auto& r = view.result()) {
            // The last lines of the story: the result and how to check it.
            const auto& log = view.log();
            for (std::size_t i = log.size() >= 3 ? log.size() - 3 : 0; i < log.size(); ++i)
                if (term_.interactive()) out += log[i].text + "\n";
            const auto& url = session_->config().url;
            const bool saved = r->over.game_id == saved_game_ && !saved_file_.empty();
            // The address answers only while the server runs: once it has gone, the copy saved here.
            if (r->over.record && !(saved && server_gone))
                out += "The game record: " + url.http_base() + *r->over.record + " (check it with: spookludo verify " +
                       url.http_base() + *r->over.record + (url.ca_file.empty() ? "" : " --ca-file " + url.ca_file) + ")\n";
            if (saved)
                out += "The game record, saved on this computer (it works without the server): " + saved_file_ +
                       "\n  check it with: spookludo verify " + saved_file_ + "\n";
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
                out += "The server could not be reached. When it is back (with the room still open), the same command "
                       "takes your seat back:\n  spookludo play " + server_ + " --room " + view.room() + " --name " +
                       (kept_name_.empty() ? session_->config().name : kept_name_) + "\n";
            } else if (view.token() && view.in_game()) {
                out += "Your seat waits for you (the server plays it meanwhile); the same command takes it back, or:\n"
                       "  spookludo play " + server_ + " --room " + view.room() + " --token " + *view.token() + "\n";
            }
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
    bool left_mid_game_ = false;
    std::string early_keys_;  // keys pressed before the room's first snapshot
    int games_ = 0;
    std::shared_ptr<RecordCopy> copy_;  // the record being saved (or saved) at the last game over
    std::thread saver_;
    std::string saved_game_;  // the game whose record is saved here, and its file
    std::string saved_file_;

public:
    ~PlayUi() {
        if (saver_.joinable()) saver_.join();
    }
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
        "  spookludo play wss://party.example.org:443 --room KQZTM --name Ben   (a server with a certificate)\n"
        "A wss:// server's certificate must come from a CA this computer trusts and name the host; for a\n"
        "certificate the host made themselves, --ca-file FILE with the file they give you. A certificate\n"
        "that fails is refused with the reason (exit 2), never answered by going on unencrypted.\n"
        "Keys: 1-9 choose an option, ? show or hide hints, q leave (in a game it asks: y yes, n no; Ctrl-C too).\n"
        "The host, in the lobby: s start, b/g/r add a best/greedy/random bot, x N remove seat N, + - seats,\n"
        "p pieces (Spook), a arm 6/8 (Ludo), h hints on/off, t decision time, w pace, c automatic start,\n"
        "o play on, d balanced/random boards (Spook), e entry, 3 three 6s (Ludo); in a game: P pause/resume,\n"
        "k N kick seat N (a best bot takes it), E end the game (asks: y yes, n no). Enter closes the game-over screen.\n"
        "Leaving (q, Ctrl-C, SIGTERM) gives your seat to the server to the end of the game. While you hold a\n"
        "seat its token is kept in $XDG_STATE_HOME/spookludo/seats.json (~/.local/state/spookludo/, private\n"
        "to you): if the program is killed, the machine reboots or the network drops, running the same\n"
        "command again takes the seat back; the --token command it prints does the same from elsewhere.\n"
        "A kicked player, or one who left on purpose, has no seat to take back.\n"
        "At a game's end its record is saved in $XDG_STATE_HOME/spookludo/records/<game id>.json (the newest\n"
        "64): spookludo verify FILE checks it also once the server has gone. A server that stops for good\n"
        "(closing 'shutdown') ends the program at once (exit 1), printing that command.\n"
        "Without a terminal (a pipe), the story is printed line by line and choices are read as numbers.\n"
        "NO_COLOR=1 turns colour off. The connection is re-made by itself with your token if it drops.");
    add_room_flags(*cmd, args->room, true);
    cmd->add_option("--name", args->name, "Your name in the room (at most 24 characters)");
    cmd->add_flag("--once", args->once, "Leave when the game ends (the result stays on screen for 3 s)");
    cmd->add_option("--reconnect-for", args->reconnect_for_s,
                    "After a lost connection, try again for this many seconds before giving up (default 120)")
        ->check(CLI::Range(1, 3600));
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
    cmd->footer("Example:\n  spookludo watch ws://192.168.1.20:7777 --room KQZTM --name Sam\n"
                "Keys: q leave, ? hints; in the lobby (before a game, or after one for the rematch) j takes a free\n"
                "seat under --name, and you play from then on.\n"
                "A finished game's record is saved as play saves it ($XDG_STATE_HOME/spookludo/records/).");
    cmd->add_option("url", args->room.url, "The server, e.g. ws://192.168.1.20:7777 (wss:// with TLS)")->required();
    cmd->add_option("--room", args->room.room, "The room's 5-letter code")->required();
    cmd->add_option("--name", args->name, "Your name when you take a seat with j (default: your login name)");
    add_ca_file_flag(*cmd, args->room.ca_file);
    cmd->add_flag("--once", args->once, "Leave when the game ends");
    cmd->callback([args, &exit_code] {
        if (args->name.empty()) {
            const char* user = std::getenv("USER");
            args->name = user && *user ? user : "player";
        }
        exit_code = run_ui(*args, "watch");
    });
}

}  // namespace spookludo::cli
