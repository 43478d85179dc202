// `play` and `watch`'s screen: the session started (a kept seat or a created room taken back),
// the signals, the input and the resize wired to the loop; the screen drawn from the view (the
// window's style, the join hint and QR code, the status line), and the countdowns' redraws;
// leaving on purpose, once the `leave` has gone out.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

#include "i18n.h"
#include "join_hint.h"
#include "play_ui.h"
#include "qr_text.h"
#include "server_words.h"

namespace spookludo::cli {

using client::tr;

int PlayUi::run() {
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
        if (auto problem = protocol::name_problem_of(config.name)) {
            // Worded as the server's bad_name error would be (its code and parameters).
            nlohmann::json args = problem->args;
            args["name"] = protocol::quote_client_text(config.name);
            throw std::invalid_argument(
                client::tr("--name: {why} [bad_name]",
                           {{"why", client::error_text({{"type", "error"}, {"code", "bad_name"}, {"args", args}})}}));
        }
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

PlayUi::~PlayUi() {
    if (saver_.joinable()) saver_.join();
}

// ---- The screen ---------------------------------------------------------------------------

client::Style PlayUi::style() const {
    client::Style s;
    // The window as it is: render_screen keeps the header in any size and says how big a
    // window the board needs (the terminal reports 80x24 when it cannot tell).
    s.width = term_.width();
    s.height = term_.height();
    s.color = term_.color();
    s.unicode = term_.unicode();
    s.hints = show_hints_;
    if (session_) {
        s.server_url = session_->config().url.http_base();
        if (!session_->config().url.ca_file.empty()) s.verify_flags = " --ca-file " + session_->config().url.ca_file;
        if (const auto& r = session_->view().result(); r && r->over.game_id == saved_game_) s.saved_record = saved_file_;
        if (const auto& r = session_->view().result(); r && dice_verdict_ && r->over.game_id == dice_verdict_->game_id) {
            // Fair: its first sentence is enough on a screen; anything else with what it means.
            s.dice_check = dice_verdict_->fair() ? dice_verdict_->headline : dice_verdict_->text;
            s.dice_fair = dice_verdict_->fair();
        }
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

std::string PlayUi::status_line() const {
    if (!status_.empty()) return status_;
    if (!message_.empty()) return message_;
    const auto& view = session_->view();
    // Who the host is shows in the lobby's seat list, and in a game here (the boards have no
    // room for it), here or away.
    const auto& snap = view.snapshot();
    const std::string host = snap && snap->host >= 0 ? view.seat_name(snap->host) : std::string();
    if (view.is_spectator())
    {
        const std::string watching = host.empty() || !view.in_game()
                                         ? client::tr("Watching room {code}.", {{"code", view.room()}})
                                         : client::tr("Watching room {code} (host: {name}).", {{"code", view.room()}, {"name", host}});
        return watching + " " +
               (view.state() == "lobby" && view.has_free_seat() ? client::tr("j takes a free seat, q leaves.") : client::tr("q leaves."));
    }
    if (view.paused() && view.in_game())
        return view.am_host()   ? client::tr("The game is paused: P resumes. q leave")
               : host.empty() ? client::tr("The game is paused: wait for the host. q leave")
                              : client::tr("The game is paused: wait for {name} (host). q leave", {{"name", host}});
    if (view.pending() && !view.pending()->chosen)
        return client::tr("Press 1-{count} to choose. ? hints, q leave",
                          {{"count", std::to_string(view.pending()->decision.options.size())}});
    if (view.in_game())
        return view.am_host()   ? (view.paused() ? client::tr("P resume, k N kick, E end, T time, H N hurry, ? hints, ! react, m mute, q leave")
                                                 : client::tr("P pause, k N kick, E end, T time, H N hurry, ? hints, ! react, m mute, q leave"))
               : host.empty() ? client::tr("A asks for more time, ? hints, ! react, m mute, q leave")
                              : client::tr("{name} is the host. A asks for more time, ? hints, ! react, m mute, q leave", {{"name", host}});
    return {};
}

void PlayUi::redraw() {
    if (!session_) return;
    if (!term_.interactive()) return;
    term_.draw(client::render_screen(session_->view(), style(), client::steady_ms(), status_line()));
}

// Without a terminal: the story line by line, and the choices as a numbered list.
void PlayUi::print_new_lines() {
    const auto& view = session_->view();
    std::string out;
    for (const auto& line : view.lines_since(printed_)) out += line + "\n";
    if (!out.empty()) term_.write(out);
}

void PlayUi::tick() {
    // The countdowns: redraw a few times a second while one runs (a decision of ours, the
    // others' time to choose, the lobby's automatic start; the terminal draws only changes).
    const auto& view = session_->view();
    if (view.pending() || !view.choosing_seats().empty() || !view.auto_start_text(client::steady_ms()).empty()) redraw();
    loop_.after(std::chrono::milliseconds(250), [this] { tick(); });
}

// ---- Leaving ------------------------------------------------------------------------------

void PlayUi::quit(const std::string& why) {
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
void PlayUi::stop_when_flushed(int polls) {
    const auto c = session_ ? session_->connection() : nullptr;
    if (!c || c->is_closed() || polls >= 50) {
        loop_.stop();
        return;
    }
    loop_.after(std::chrono::milliseconds(20), [this, polls] { stop_when_flushed(polls + 1); });
}

}  // namespace spookludo::cli
