#include "bot_command.h"

#include <algorithm>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "bot_brain.h"
#include "http_fetch.h"
#include "i18n.h"
#include "saved_records.h"
#include "server_words.h"
#include "net.h"
#include "room_flags.h"
#include "session.h"

namespace spookludo::cli {

namespace {

struct BotArgs {
    RoomFlags room;
    std::string policy = "best";
    int count = 1;
    int think_ms = 0;
    bool start = false;
    int fill_after = -1;  // seconds; -1: never fill with server bots
    std::string name = "bot";
    bool quiet = false;
    std::string transcript;
};

// N bot players in one process, on one event loop.
class BotFleet {
public:
    explicit BotFleet(const BotArgs& args) : args_(args), policy_(*parse_policy(args.policy)) {}

    int run() {
        base_ = session_config(args_.room, name_of(0), args_.count);
        if (!args_.transcript.empty()) {
            transcript_ = std::make_unique<std::ofstream>(args_.transcript);
            if (!*transcript_) throw std::invalid_argument(client::tr("cannot write the transcript {file}", {{"file", args_.transcript}}));
        }
        loop_.on_signal([this](int) {
            say(client::tr("interrupted: the bots leave the room"));
            exit_code_ = 130;
            for (auto& b : bots_)
                if (b->session) b->session->leave("interrupted");
            stop_when_flushed();
        });
        add_bot(0, base_);
        // Joining an existing room: everyone goes at once.
        if (base_.mode != client::JoinMode::create)
            for (int i = 1; i < args_.count; ++i) add_bot(i, join_config(base_.room, i));
        loop_.run();
        return exit_code_;
    }

private:
    struct Bot {
        int index = 0;
        std::unique_ptr<client::Session> session;
        std::unique_ptr<client::BotBrain> brain;
        std::optional<client::EventLoop::TimerId> think;
        std::string answered;  // the decision id answered
        bool done = false;
    };

    std::string name_of(int i) const { return args_.name + "-" + std::to_string(i + 1); }

    client::SessionConfig join_config(const std::string& room, int i) const {
        client::SessionConfig c = base_;
        c.mode = client::JoinMode::join;
        c.room = room;
        c.name = name_of(i);
        c.token.clear();
        return c;
    }

    void say(const std::string& line) {
        std::cout << line << std::endl;
    }

    void add_bot(int index, client::SessionConfig config) {
        auto bot = std::make_unique<Bot>();
        bot->index = index;
        bot->brain = std::make_unique<client::BotBrain>(policy_, std::uint64_t{0x5eed0000} + static_cast<std::uint64_t>(index));
        Bot* b = bot.get();
        client::Session::Callbacks cb;
        cb.on_message = [this, b](const nlohmann::json& m) { on_message(*b, m); };
        cb.on_status = [this, b](const std::string& s) {
            if (!args_.quiet && s != "connected" && (b->index == 0 || s.find("lost") != std::string::npos))
                say(name_of(b->index) + ": " + s);
        };
        cb.on_end = [this, b](const client::SessionEnd& e) { on_end(*b, e); };
        bot->session = std::make_unique<client::Session>(loop_, std::move(config), std::move(cb));
        bots_.push_back(std::move(bot));
        b->session->start();
    }

    void on_message(Bot& b, const nlohmann::json& m) {
        auto& view = b.session->view();
        const std::string type = m.value("type", "");
        if (b.index == 0) report(view);
        if (b.index == 0 && transcript_) *transcript_ << m.dump() << std::endl;  // read by others while it plays
        if (type == "joined") {
            // Back after a drop or a server restart: a decision still open is asked again, and
            // answered again (an answer sent just before the drop may never have arrived).
            b.answered.clear();
            // A start sent just before a server died may never have been saved: back in a lobby
            // without having seen a game, the host starts it again (a game that did start shows
            // in the room's state, and maybe_start leaves it).
            if (b.index == 0 && view.game_id().empty()) started_ = false;
            if (b.index == 0 && !announced_) {
                announced_ = true;
                // "room CODE", "NAME token T", "game_over ID STATUS ...": lines for programs, in
                // every language the same; the sentences around them are the reader's language.
                say("room " + view.room());
                if (base_.mode == client::JoinMode::create)
                    say(client::tr("join with: {command}", {{"command", "spookludo play " + base_.url.text() + " --room " + view.room() +
                                                                           " --name " + client::tr("YOUR_NAME")}}));
                if (view.token()) say(name_of(0) + " token " + *view.token());
                if (base_.mode == client::JoinMode::create)
                    for (int i = 1; i < args_.count; ++i) add_bot(i, join_config(view.room(), i));
            }
        } else if (type == "room") {
            // Back in a lobby whose last game is the one this bot played: its game_over was lost
            // with the connection (the server had written the end, then stopped before sending it).
            const auto& snap = view.snapshot();
            if (!b.done && snap && snap->state == "lobby" && snap->last_game && !view.game_id().empty() &&
                snap->last_game->game_id == view.game_id())
                return game_ended(b, *snap->last_game);
            maybe_start(b);
        } else if (type == "decision") {
            schedule_choice(b);
        } else if (type == "error") {
            const std::string code = m.value("code", "");
            if (code == "illegal_choice" || code == "stale_decision") b.answered.clear();
            if (!args_.quiet && b.index != 0)
                say(name_of(b.index) + ": " + client::error_text(m) + " [" + code + "]");
        } else if (type == "game_over") {
            if (const auto& result = view.result()) return game_ended(b, result->over);
            b.done = true;
            finish_if_all_done();
        }
    }

    void game_ended(Bot& b, const protocol::GameOver& g) {
        if (b.index == 0) {
            say("game_over " + g.game_id + " " + g.status + (g.record ? " record " + *g.record : std::string()));
            check_dice(b);
        }
        b.done = true;
        if (g.status != "finished") exit_code_ = 1;
        finish_if_all_done();
    }

    // The game's dice, checked by the first bot from what it saw (dice_check.h): a line of the
    // story, and one for programs, "dice_check ID VERDICT CHECKED TOTAL". A bot that missed some
    // (it came back with its token) fetches the record for them: at the game's end, so waiting
    // for it here (a few seconds at most) holds up nothing.
    void check_dice(Bot& b) {
        const auto& dice = b.session->dice();
        if (dice.ended_game().empty()) return;
        client::DiceVerdict verdict;
        if (dice.needs_record()) {
            std::string text, problem;
            const auto& url = b.session->config().url;
            try {
                text = fetch_text(url.http_base() + *dice.record_path(), url.ca_file, client::SavedRecords::kMaxBytes,
                                  client::tr("no record at {address} (HTTP 404: the server does not have it)"));
            } catch (const std::exception& e) {
                problem = e.what();
            }
            verdict = dice.check(text.empty() ? nullptr : &text, problem);
        } else {
            verdict = dice.check();
        }
        b.session->view().note(verdict.text);
        report(b.session->view());
        say(verdict.machine_line());
    }

    // Prints the story as the first bot sees it: one line per game event.
    void report(const client::GameView& view) {
        for (const auto& line : view.lines_since(reported_))
            if (!args_.quiet) say("[" + view.room() + "] " + line);
    }

    void maybe_start(Bot& b) {
        if (!args_.start || started_ || b.index != 0) return;
        const auto& view = b.session->view();
        const auto& snap = view.snapshot();
        if (!snap || snap->state != "lobby" || !view.am_host()) return;
        const int seated = static_cast<int>(
            std::count_if(snap->seats.begin(), snap->seats.end(), [](const protocol::SeatView& s) { return !s.free; }));
        if (args_.fill_after >= 0) {
            // A party's lobby: wait for people, then server bots take the free seats. The wait
            // is a room setting the server holds (auto_start_ms), so every screen in the room
            // shows its countdown; a start by this host (when the seats are full) cancels it.
            if (!fill_timer_armed_) {
                fill_timer_armed_ = true;
                if (args_.fill_after > 0) {
                    if (!args_.quiet)
                        say(client::tr("waiting {seconds} s for players; then best bots of the server fill the free seats and the game starts",
                                       {{"seconds", std::to_string(args_.fill_after)}}));
                    protocol::SettingsChange change;
                    change.auto_start_ms = args_.fill_after * 1000;
                    b.session->send(protocol::SetSettings{change});
                } else {
                    filling_ = true;
                }
            }
            if (seated >= snap->options.players) {
                started_ = true;
                b.session->send(protocol::Start{});
            } else if (filling_ && !fill_sent_) {
                fill_sent_ = true;
                for (int i = seated; i < snap->options.players; ++i) b.session->send(protocol::AddBot{policy_});
            }
            return;
        }
        if (seated < args_.count) return;
        started_ = true;
        b.session->send(protocol::Start{});
    }

    void schedule_choice(Bot& b) {
        const auto& pending = b.session->view().pending();
        if (!pending || pending->decision.decision == b.answered) return;
        if (b.think) loop_.cancel(*b.think);
        auto answer = [this, &b] {
            b.think.reset();
            const auto& p = b.session->view().pending();
            if (!p || p->decision.decision == b.answered) return;
            const int piece = b.brain->choose(b.session->view());
            if (piece < 0) return;
            b.answered = p->decision.decision;
            if (!args_.quiet) {
                for (const auto& o : p->decision.options)
                    if (o.piece == piece)
                        say(client::tr("{name} (seat {seat}) chooses piece {piece}: {from} -> {to}",
                                       {{"name", name_of(b.index)}, {"seat", std::to_string(p->decision.seat + 1)},
                                        {"piece", std::to_string(piece + 1)}, {"from", std::to_string(o.from)},
                                        {"to", std::to_string(o.to)}}));
            }
            b.session->choose(piece);
        };
        if (args_.think_ms > 0)
            b.think = loop_.after(std::chrono::milliseconds(args_.think_ms), answer);
        else
            answer();
    }

    void on_end(Bot& b, const client::SessionEnd& e) {
        if (e.code != 0) {
            std::cerr << "spookludo bot: " << name_of(b.index) << ": " << e.reason << "\n";
            if (exit_code_ == 0) exit_code_ = e.code;
            // Without the first bot the others have no room to join; stop everything.
            if (!b.done) {
                for (auto& other : bots_)
                    if (other.get() != &b && other->session) other->session->leave("stopping");
                stop_when_flushed();
            }
        }
        b.done = true;
        finish_if_all_done();
    }

    void finish_if_all_done() {
        for (const auto& b : bots_)
            if (!b->done) return;
        if (static_cast<int>(bots_.size()) < args_.count) return;
        for (auto& b : bots_) b->session->leave("game over");
        stop_when_flushed();
    }

    // Stops the loop once every connection has sent its `leave` and closed (at most a second):
    // stopping at once would lose the `leave`.
    void stop_when_flushed(int polls = 0) {
        bool closed = true;
        for (const auto& b : bots_)
            if (b->session && b->session->connection() && !b->session->connection()->is_closed()) closed = false;
        if (closed || polls >= 50) {
            loop_.stop();
            return;
        }
        loop_.after(std::chrono::milliseconds(20), [this, polls] { stop_when_flushed(polls + 1); });
    }

    const BotArgs& args_;
    PolicyKind policy_;
    client::EventLoop loop_;
    client::SessionConfig base_;
    std::vector<std::unique_ptr<Bot>> bots_;
    bool announced_ = false;
    bool started_ = false;
    bool fill_timer_armed_ = false;
    bool filling_ = false;
    bool fill_sent_ = false;
    std::size_t reported_ = 0;
    std::unique_ptr<std::ofstream> transcript_;
    int exit_code_ = 0;
};

}  // namespace

void add_bot_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<BotArgs>();
    auto* cmd = app.add_subcommand("bot", "Headless bot players: N connections in one process, each answering with a policy");
    cmd->footer(
        "Examples:\n"
        "  spookludo bot ws://127.0.0.1:7777 --create spook --players 4 --count 4 --policy best --start\n"
        "  spookludo bot ws://127.0.0.1:7777 --create ludo --home-rules --teams --count 4 --start   (Ludo's house rules)\n"
        "  spookludo bot ws://127.0.0.1:7777 --room KQZTM --count 2 --policy greedy --think 500\n"
        "  spookludo bot ws://127.0.0.1:7777 --room KQZTM --token 4f1c... --policy best   (resume a seat)\n"
        "Prints 'room CODE' when it has a room, one line per game event, 'game_over ID STATUS record PATH', and\n"
        "'dice_check ID VERDICT CHECKED TOTAL': every die the first bot saw recomputed from the seeds (VERDICT\n"
        "fair, unfair, commitment_mismatch or unchecked; CHECKED of the game's TOTAL dice, the record fetched\n"
        "for the ones it missed).\n"
        "Exit status: 0 the game ended normally; 1 abandoned, kicked or the server went away; 2 could not\n"
        "connect or was refused (unknown room, room full, protocol version), or a usage error (a missing\n"
        "argument, an unknown option, a bad value); 130 interrupted.");
    add_room_flags(*cmd, args->room, true);
    cmd->add_option("--policy", args->policy, "random, greedy or best")->check(CLI::IsMember({"random", "greedy", "best"}));
    cmd->add_option("--count", args->count, "How many bot players (connections)")->check(CLI::Range(1, 8));
    cmd->add_option("--think", args->think_ms, "Wait this many ms before answering")->check(CLI::Range(0, 600000));
    cmd->add_flag("--start", args->start, "Start the game once all the bots are seated (with --create)");
    cmd->add_option("--fill-after", args->fill_after,
                    "With --start: the room starts by itself this many seconds later (the server's "
                    "auto_start_ms: every screen shows the countdown), best bots of the server taking the "
                    "free seats; 0 fills them with bots of --policy at once (a party's lobby)")
        ->check(CLI::Range(0, 600));
    cmd->add_option("--name", args->name, "Name prefix: bots are PREFIX-1, PREFIX-2, ...");
    cmd->add_flag("--quiet", args->quiet, "Print only the room, the token and the result");
    cmd->add_option("--transcript", args->transcript,
                    "Write every message the first bot receives to FILE, one JSON object a line (tests, debugging)");
    cmd->callback([args, &exit_code] {
        if (!args->room.token.empty() && args->count != 1)
            throw CLI::ValidationError("--token", "resumes one seat: use --count 1");
        if (args->fill_after >= 0 && !args->start)
            throw CLI::ValidationError("--fill-after", "needs --start");
        if (args->start && args->room.create.empty())
            throw CLI::ValidationError("--start", "only the room's creator (--create) can start it");
        try {
            BotFleet fleet(*args);
            exit_code = fleet.run();
        } catch (const std::invalid_argument& e) {
            std::cerr << "spookludo bot: " << e.what() << "\n";
            exit_code = 2;
        }
    });
}

}  // namespace spookludo::cli
