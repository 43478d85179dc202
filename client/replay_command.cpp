#include "replay_command.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "http_fetch.h"
#include "i18n.h"
#include "render.h"
#include "render_parts.h"
#include "replay_book.h"
#include "spookludo/analysis.h"
#include "terminal.h"

namespace spookludo::cli {

namespace {

using client::tr;

constexpr std::size_t kMaxRecordBytes = 64u * 1024 * 1024;

// The record's address for a server's game page or record: /games/<id>, /replay/<id> and
// /analysis/<id> name the game whose record is /records/<id>.
std::string record_address(const std::string& url) {
    for (const std::string prefix : {"/replay/", "/analysis/", "/games/"}) {
        const auto at = url.find(prefix, url.find("://") + 3);
        if (at != std::string::npos) return url.substr(0, at) + "/records/" + url.substr(at + prefix.size());
    }
    return url;
}

std::string record_text(const std::string& where, const std::string& ca_file) {
    if (where.starts_with("http://") || where.starts_with("https://"))
        return fetch_text(record_address(where), ca_file, kMaxRecordBytes,
                          tr("no record at {address} (HTTP 404: the server does not have it: check the game id "
                             "(spookludo history lists the server's games), or replay a file of the record if you have one)"));
    if (!ca_file.empty())
        throw FetchError(tr("--ca-file is for an https:// address ({address} is not one)", {{"address", where}}));
    std::ifstream in(where, std::ios::binary);
    if (!in) throw FetchError(tr("cannot read {file}", {{"file", where}}));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The boards after step i, drawn as the play screen draws them.
std::vector<std::string> board_lines(const client::ReplayBook& book, int i, const client::Style& style) {
    const client::GameView view = book.view_at(i);
    return book.spook() ? client::render_spook_boards(view, style) : client::render_ludo_board(view, style);
}

void print_replay(const client::ReplayBook& book, bool boards, std::ostream& out) {
    client::Style style;
    style.width = 100;
    style.height = 200;
    for (int i = 0; i < book.steps(); ++i) {
        out << "== " << book.heading(i) << " ==\n";
        if (boards || i + 1 == book.steps())
            for (const auto& line : board_lines(book, i, style)) out << line << "\n";
        for (const auto& line : book.story(i)) out << "  " << line << "\n";
        for (const auto& line : book.decision_lines(i)) out << "  >> " << line << "\n";
    }
    out << "== " << tr("Summary: choices against luck") << " ==\n";
    for (const auto& line : book.summary_lines()) out << line << "\n";
}

// ---- The interactive replay ---------------------------------------------------------------------

volatile std::sig_atomic_t interrupted = 0;

class Player {
public:
    Player(const client::ReplayBook& book, double speed) : book_(book), speed_(speed) {}

    void run() {
        client::Terminal terminal;
        terminal.enter();
        auto previous = std::signal(SIGINT, [](int) { interrupted = 1; });
        auto next_at = std::chrono::steady_clock::now();
        while (!quit_ && !interrupted) {
            terminal.refresh_size();
            terminal.draw(screen(terminal.width(), terminal.height(), terminal.color()));
            int wait_ms = -1;
            if (playing_) {
                const auto now = std::chrono::steady_clock::now();
                if (now >= next_at) {
                    if (at_ + 1 >= book_.steps()) playing_ = false;
                    else ++at_;
                    next_at = now + std::chrono::milliseconds(static_cast<int>(1000 / speed_));
                    continue;
                }
                wait_ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(next_at - now).count()) + 1;
            }
            pollfd in{STDIN_FILENO, POLLIN, 0};
            const int ready = ::poll(&in, 1, wait_ms);
            if (ready <= 0) continue;
            char buf[64];
            const auto n = ::read(STDIN_FILENO, buf, sizeof buf);
            if (n <= 0) break;
            keys(std::string(buf, static_cast<std::size_t>(n)));
            if (playing_) next_at = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int>(1000 / speed_));
        }
        std::signal(SIGINT, previous);
        terminal.leave();
    }

private:
    void keys(const std::string& bytes) {
        for (std::size_t k = 0; k < bytes.size(); ++k) {
            const char c = bytes[k];
            if (c == '\x1b' && k + 2 < bytes.size() && (bytes[k + 1] == '[' || bytes[k + 1] == 'O')) {
                const char code = bytes[k + 2];
                k += 2;
                if (k + 1 < bytes.size() && bytes[k + 1] == '~') ++k;  // Home "\x1b[1~", End "\x1b[4~"
                if (code == 'C') key('n');
                else if (code == 'D') key('p');
                else if (code == 'B') key(']');
                else if (code == 'A') key('[');
                else if (code == 'H' || code == '1') key('g');
                else if (code == 'F' || code == '4') key('G');
                continue;
            }
            key(c);
        }
    }

    void key(char c) {
        const int last = book_.steps() - 1;
        if (number_) {  // typing a round (Spook) or throw (Ludo) number
            if (c >= '0' && c <= '9' && number_->size() < 6) {
                *number_ += c;
            } else if (c == '\r' || c == '\n') {
                const int step = number_->empty() ? -1 : book_.step_of(std::stoi(*number_));
                if (step >= 0) at_ = step;
                else message_ = tr("There is no such round or throw in this game.");
                number_.reset();
            } else if (c == 127 || c == '\b') {
                if (!number_->empty()) number_->pop_back();
            } else {
                number_.reset();
            }
            return;
        }
        message_.clear();
        switch (c) {
            case 'n': case 'l': at_ = std::min(last, at_ + 1); break;
            case 'p': case 'h': case 127: at_ = std::max(0, at_ - 1); break;
            case ']': case 'j': at_ = book_.next_round(at_); break;
            case '[': case 'k': at_ = book_.previous_round(at_); break;
            case 'g': at_ = 0; break;
            case 'G': at_ = last; break;
            case 'd': {
                const int next = book_.next_decision(at_);
                if (next >= 0) at_ = next;
                else message_ = tr("No more choices after this step.");
                break;
            }
            case 'r': number_ = std::string(); break;
            case ' ': playing_ = !playing_ && at_ < last; break;
            case '+': speed_ = std::min(50.0, speed_ * 2); break;
            case '-': speed_ = std::max(0.125, speed_ / 2); break;
            case 'q': case 'Q': quit_ = true; break;
            default: break;
        }
    }

    std::vector<std::string> screen(int width, int height, bool color) const {
        client::Style style;
        style.width = width;
        style.height = height;
        style.color = color;
        std::vector<std::string> top, bottom;
        top.push_back(tr("Replay: step {step} of {steps}. {heading}",
                         {{"step", std::to_string(at_ + 1)}, {"steps", std::to_string(book_.steps())}, {"heading", book_.heading(at_)}}));
        for (auto& line : board_lines(book_, at_, style)) top.push_back(std::move(line));
        top.emplace_back();
        for (const auto& line : book_.story(at_)) bottom.push_back(line);
        for (const auto& line : book_.decision_lines(at_)) bottom.push_back(">> " + line);
        if (at_ + 1 == book_.steps()) {
            bottom.push_back(tr("Summary: choices against luck"));
            for (const auto& line : book_.summary_lines()) bottom.push_back(line);
        }
        std::string status;
        if (number_) status = (book_.spook() ? tr("Go to round: {number}", {{"number", *number_}})
                                             : tr("Go to throw: {number}", {{"number", *number_}}));
        else if (!message_.empty()) status = message_;
        else
            status = book_.spook() ? tr("Keys: n/p step, ]/[ round, g/G start/end, r round number, d next choice, Space "
                                        "play ({speed}/s, +/-), q quit",
                                        {{"speed", speed_text()}})
                                   : tr("Keys: n/p step, ]/[ turn, g/G start/end, r throw number, d next choice, Space "
                                        "play ({speed}/s, +/-), q quit",
                                        {{"speed", speed_text()}});
        // The board first; what does not fit of the story is cut, the status (wrapped) always shown.
        namespace rd = client::render_detail;
        const std::vector<std::string> status_lines = rd::wrap(status, width);
        std::vector<std::string> lines;
        const int room = std::max(0, height - static_cast<int>(status_lines.size()));
        for (const auto& line : top)
            if (static_cast<int>(lines.size()) < room) lines.push_back(rd::fit(line, width));
        for (const auto& line : bottom)
            for (const auto& part : rd::wrap(line, width))
                if (static_cast<int>(lines.size()) < room) lines.push_back(part);
        while (static_cast<int>(lines.size()) < room) lines.emplace_back();
        for (const auto& line : status_lines) lines.push_back(line);
        return lines;
    }

    std::string speed_text() const {
        std::ostringstream s;
        s << speed_;
        return s.str();
    }

    const client::ReplayBook& book_;
    double speed_;
    int at_ = 0;
    bool playing_ = false;
    bool quit_ = false;
    std::optional<std::string> number_;
    std::string message_;
};

}  // namespace

void add_replay_command(CLI::App& app, int& exit_code) {
    struct Flags {
        std::string where, ca_file;
        bool print = false, boards = false, json = false;
        double speed = 1;
    };
    auto flags = std::make_shared<Flags>();
    auto* cmd = app.add_subcommand("replay", "Replay a game from its record, with the analysis of every choice");
    cmd->footer(
        "Replays a finished or abandoned game step by step: the boards as they stood, what happened, and\n"
        "beside every choice the analysis (the best move and what the difference cost: Spook in expected\n"
        "rounds, Ludo in points of the chance to win or as the move's rank); at the end, per player, what\n"
        "was expected, what the choices cost and how the dice went (luck). docs/analysis.md explains it.\n"
        "The record is a file, or a server's address of the game (its /records/<id>, /games/<id> or\n"
        "/replay/<id>); the analysis is computed here.\n"
        "  spookludo replay ~/records/KQZTM-1.json\n"
        "  spookludo replay http://192.168.1.20:7777/games/KQZTM-1 --print\n"
        "Keys: n or Right the next step, p or Left the previous one; ] or Down the next round (Spook) or\n"
        "turn (Ludo), [ or Up the previous one; g or Home the start, G or End the end; r then a number and\n"
        "Enter: that round (Spook) or throw (Ludo); d the next step with a choice; Space plays and pauses\n"
        "(--speed steps a second, + and - double or halve it); q quits.\n"
        "With --print, or when the output is not a terminal, the whole replay is printed: every step's\n"
        "story and analysis, the final boards (--boards: every step's) and the summary; --json prints the\n"
        "analysis document itself (docs/analysis.md).\n"
        "Exit status: 0 done; 2 the record cannot be read, fetched or replayed, or a usage error.");
    cmd->add_option("record", flags->where, "The game record: a JSON file, or its http:// or https:// address on the server")
        ->required();
    cmd->add_flag("--print", flags->print, "Print the whole replay with the analysis and the summary, no keys");
    cmd->add_flag("--boards", flags->boards, "With --print: draw the boards after every step (else only the last)");
    cmd->add_flag("--json", flags->json,
                  "Print the analysis document itself (JSON, as a server's GET /analysis/<id> gives it)");
    cmd->add_option("--speed", flags->speed, "Steps a second when playing (Space)")
        ->capture_default_str()
        ->check(CLI::Range(0.125, 50.0));
    cmd->add_option("--ca-file", flags->ca_file,
                    "https://: trust the certificates in this PEM file instead of this computer's CA store");
    cmd->callback([flags, &exit_code] {
        GameRecord record;
        nlohmann::json analysis;
        try {
            const std::string text = record_text(flags->where, flags->ca_file);
            try {
                record = parse_record(text);
            } catch (const std::exception& e) {
                throw FetchError(tr("{file} is not a readable game record: {error}", {{"file", flags->where}, {"error", e.what()}}));
            }
            try {
                analysis = analyse(record);
            } catch (const std::exception& e) {
                throw FetchError(tr("{file} cannot be replayed: {error}", {{"file", flags->where}, {"error", e.what()}}));
            }
        } catch (const FetchError& e) {
            std::cerr << "spookludo replay: " << e.what() << "\n";
            exit_code = 2;
            return;
        }
        if (flags->json) {
            std::cout << analysis.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            exit_code = 0;
            return;
        }
        const client::ReplayBook book(std::move(record), std::move(analysis));
        if (flags->print || !::isatty(STDOUT_FILENO) || !::isatty(STDIN_FILENO)) {
            print_replay(book, flags->boards, std::cout);
        } else {
            Player(book, flags->speed).run();
        }
        exit_code = 0;
    });
}

}  // namespace spookludo::cli
