// The terminal client in another language, against the real server: every screen of `play` in
// the pseudo-language qps (each translated text wrapped in ⟦…⟧) shows no text outside the
// brackets, and a game played with LANG=ms_MY.UTF-8 reads in Malay.
//
// The rule for "no text outside ⟦…⟧" (one line of one drawn frame at a time; the window is
// 200x60, so that nothing is cut or wrapped and every text keeps both its brackets on its line):
//   1. every ⟦…⟧ span is removed, nested ones with it;
//   2. then the names the test knows are removed: the players' (Ann, Ben, the bot Cid-1), the
//      room's code, and the program's own name and command (SpookLudo, spookludo verify: a
//      command to type is not translated), and addresses and file paths (a run of non-blanks
//      holding :// or starting with /: data, not words);
//   3. what is left may hold numbers, punctuation, the frame's and the board's drawing, and
//      single letters (Ludo's cells g1 G2, the option keys), but no word: no run of two or more
//      letters, unless it is made only of the Spook board's character letters H C S W X.
// The server's notices are worded by the terminal too (client/server_words.cpp): no line is left
// out of the check.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/e2e_server.h"
#include "process_util.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

const std::string kOpen = "\u27E6";
const std::string kClose = "\u27E7";

// A player's terminal: 200x60, no colour, its own state folder, and the language from `env`.
SpawnOptions wide_terminal(const std::string& state_home,
                           std::vector<std::pair<std::string, std::optional<std::string>>> env = {}) {
    SpawnOptions o;
    o.pty = true;
    o.cols = 200;
    o.rows = 60;
    o.env = {{"NO_COLOR", "1"}, {"TERM", "xterm-256color"}, {"XDG_STATE_HOME", state_home}, {"LANGUAGE", std::nullopt},
             {"LC_ALL", std::nullopt}, {"LC_MESSAGES", std::nullopt}, {"LANG", std::nullopt}};
    o.env.insert(o.env.end(), env.begin(), env.end());
    return o;
}

bool wait_screen(Process& p, const std::string& text, std::chrono::milliseconds timeout = patience(15s)) {
    return p.wait_for([&](const std::string& s) { return strip_escapes(s).find(text) != std::string::npos; }, timeout);
}

// Every frame the program drew (the terminal client redraws the whole screen from its top-left
// corner, ESC [ H), as its lines without escapes.
std::vector<std::vector<std::string>> frames(const std::string& raw) {
    std::vector<std::vector<std::string>> out;
    std::size_t at = 0;
    while (at < raw.size()) {
        const auto next = raw.find("\x1b[H", at + 1);
        const std::string text = strip_escapes(raw.substr(at, next == std::string::npos ? std::string::npos : next - at));
        std::vector<std::string> lines;
        std::size_t from = 0;
        while (from <= text.size()) {
            const auto end = text.find('\n', from);
            lines.push_back(text.substr(from, end == std::string::npos ? std::string::npos : end - from));
            if (end == std::string::npos) break;
            from = end + 1;
        }
        out.push_back(std::move(lines));
        if (next == std::string::npos) break;
        at = next;
    }
    return out;
}

void erase_all(std::string& text, const std::string& what) {
    if (what.empty()) return;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at)) text.erase(at, what.size());
}

// The line's text outside ⟦…⟧ with the known names taken out (steps 1 and 2 of the rule); an
// unbalanced bracket is reported as such.
std::string outside_brackets(const std::string& line, const std::vector<std::string>& names, bool& balanced) {
    std::string out;
    int depth = 0;
    balanced = true;
    for (std::size_t i = 0; i < line.size();) {
        if (line.compare(i, kOpen.size(), kOpen) == 0) {
            ++depth;
            i += kOpen.size();
        } else if (line.compare(i, kClose.size(), kClose) == 0) {
            if (depth == 0) balanced = false;
            else --depth;
            i += kClose.size();
        } else {
            if (depth == 0) out += line[i];
            ++i;
        }
    }
    if (depth != 0) balanced = false;
    for (const auto& n : names) erase_all(out, n);
    static const std::regex address(R"((\S*://\S*|(^|\s)/\S*))");
    return std::regex_replace(out, address, " ");
}

// Step 3: a word left outside the brackets, or "" when there is none.
std::string stray_word(const std::string& outside) {
    static const std::regex word("[A-Za-z]{2,}");
    for (std::sregex_iterator it(outside.begin(), outside.end(), word), end; it != end; ++it) {
        const std::string w = it->str();
        if (w.find_first_not_of("HCSWX") != std::string::npos) return w;
    }
    return {};
}

// The lines of every frame (and of `plain`, text a command printed) that break the rule.
std::vector<std::string> untranslated(const std::vector<std::vector<std::string>>& screens, const std::vector<std::string>& names,
                                      const std::vector<std::string>& server_texts) {
    std::vector<std::string> bad;
    for (const auto& screen : screens) {
        for (std::string line : screen) {
            for (const auto& t : server_texts) erase_all(line, t);
            bool balanced = true;
            const std::string outside = outside_brackets(line, names, balanced);
            const std::string w = stray_word(outside);
            if (!balanced || !w.empty()) {
                std::string entry = (balanced ? "'" + w + "' in: " : std::string("unbalanced: ")) + line;
                if (std::getenv("SPOOKLUDO_TEST_DEBUG")) for (const auto& l : screen) entry += "\n    | " + l;
                if (std::find(bad.begin(), bad.end(), entry) == bad.end()) bad.push_back(entry);
            }
        }
    }
    return bad;
}

std::vector<std::vector<std::string>> as_screen(const std::string& printed) { return frames(printed); }

std::string report(const std::vector<std::string>& bad) {
    std::string out;
    for (std::size_t i = 0; i < bad.size() && i < 30; ++i) out += "  " + bad[i] + "\n";
    return out;
}

// Presses `key` on every terminal, again and again, until each has shown `text` (a player who
// always takes the first option); false at the deadline. Reading each terminal in turn keeps
// every program drawing (a terminal nobody reads fills up and blocks its program).
bool press_until(const std::vector<Process*>& players, const std::string& key, const std::string& text,
                 std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::vector<bool> seen(players.size(), false);
    while (std::chrono::steady_clock::now() < deadline) {
        bool all = true;
        for (std::size_t i = 0; i < players.size(); ++i) {
            if (!seen[i]) {
                players[i]->write(key);
                seen[i] = wait_screen(*players[i], text, 25ms);
            }
            all = all && seen[i];
        }
        if (all) return true;
    }
    return false;
}

// "the record": /records/<id> of the game_over in a transcript.
std::string record_of(const std::string& transcript) {
    std::ifstream in(transcript);
    std::string record;
    for (std::string line; std::getline(in, line);) {
        const json m = json::parse(line, nullptr, false);
        if (m.is_object() && m.value("type", "") == "game_over") record = m.value("record", "");
    }
    return record;
}

}  // namespace

TEST_CASE("languages: with --lang qps every screen of play shows no text outside the catalogue's brackets: lobby as host and guest, a Spook game with its decisions and activations to its end, a Ludo game with a decision and a throw, game over, an error line, verify's verdict and its check lines, and history's listing [e2e][play][pty][i18n]") {
    Server server;
    TempDir state("spookludo-state");
    const std::string http = "http://127.0.0.1:" + std::to_string(server.port());

    // ---- Spook: Ann hosts, Ben and a bot join; every key press takes the first option ---------
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "3", "--pieces", "2",
                                     "--name", "Ann", "--decision-ms", "30000", "--pace-ms", "0", "--hints", "--lang", "qps"},
                             wide_terminal(state / "ann"));
    REQUIRE_MESSAGE(wait_screen(*ann, kOpen + "You are in room "), ann->describe());
    const std::string room = word_after(strip_escapes(ann->out()), kOpen + "You are in room ").substr(0, 5);
    REQUIRE(room.size() == 5);
    // The bot first: its transcript has every notice from then on.
    const std::string transcript = server.dir() / "cid.jsonl";
    auto cid = server.client("cid", {"bot", server.url(), "--room", room, "--count", "1", "--name", "Cid", "--transcript", transcript});
    REQUIRE_MESSAGE(cid->wait_for_text("Cid-1 token ", patience(10s)), cid->describe());
    auto ben = server.client("ben", {"play", server.url(), "--room", room, "--name", "Ben", "--lang", "qps"},
                             wide_terminal(state / "ben"));
    REQUIRE_MESSAGE(wait_screen(*ben, kOpen + "Waiting for Ann (host) to start. q leaves." + kClose), ben->describe());
    // An error line: a seat the room does not have.
    ann->write("x9");
    REQUIRE_MESSAGE(wait_screen(*ann, kOpen + "There is no seat 9 in this room." + kClose), ann->describe());
    ann->write("s");
    REQUIRE_MESSAGE(press_until({ann.get(), ben.get()}, "1", kOpen + "The die shows ", patience(30s)), ann->describe());
    REQUIRE_MESSAGE(press_until({ann.get(), ben.get()}, "1", kOpen + "Press any key to go back to the room." + kClose, patience(180s)),
                    ann->describe() << ben->describe());
    // Each was asked a decision on the way (a round where a seat's pieces share a square asks nothing).
    CHECK(strip_escapes(ann->out()).find(kOpen + "Choose 1-") != std::string::npos);
    CHECK(strip_escapes(ben->out()).find(kOpen + "Choose 1-") != std::string::npos);
    const std::string record = record_of(transcript);
    REQUIRE_MESSAGE(!record.empty(), read_file(transcript));

    // ---- verify's verdict and history's listing --------------------------------------------------
    auto verify = server.run("verify", {"verify", http + record, "-q", "--lang", "qps"});
    CHECK_MESSAGE(verify->status() == 0, verify->describe());
    const std::string verdict = read_file(server.dir() / "verify.out");
    CHECK(verdict.find(kOpen + "VERIFIED: ") == 0);
    // Without -q: every check's line (the verifier's report, worded by the catalogue).
    auto verify_long = server.run("verify-long", {"verify", http + record, "--lang", "qps"});
    CHECK_MESSAGE(verify_long->status() == 0, verify_long->describe());
    const std::string report_lines = read_file(server.dir() / "verify-long.out");
    CHECK(report_lines.find(kOpen + "ok" + kClose + "    " + kOpen + "seed: the revealed server seed matches the commitment ") !=
          std::string::npos);
    CHECK(report_lines.find(kOpen + "result: " + kOpen + "finished" + kClose + " after ") != std::string::npos);
    CHECK(report_lines.find(kOpen + "note" + kClose + "  " + kOpen + "boards: expected finish ") != std::string::npos);
    auto history = server.run("history", {"history", http, "--lang", "qps"});
    CHECK_MESSAGE(history->status() == 0, history->describe());
    const std::string listing = read_file(server.dir() / "history.out");
    CHECK(listing.find(kOpen + "Games on ") != std::string::npos);

    // The game-over screen closed, then leave: Ben first (the host leaving first would move the
    // host role, a notice after the bot left).
    ben->write(" q");
    CHECK(ben->wait(patience(10s)) == 0);
    ann->write(" q");
    CHECK(ann->wait(patience(10s)) == 0);
    CHECK(cid->wait(patience(10s)).has_value());

    // ---- Ludo: a decision and a throw, then the host ends it (the game-over screen again) -------
    auto dan = server.client("dan", {"play", server.url(), "--create", "ludo", "--players", "2", "--name", "Dan",
                                     "--decision-ms", "60000", "--pace-ms", "0", "--lang", "qps"},
                             wide_terminal(state / "dan"));
    REQUIRE_MESSAGE(wait_screen(*dan, kOpen + "You are in room "), dan->describe());
    const std::string ludo_room = word_after(strip_escapes(dan->out()), kOpen + "You are in room ").substr(0, 5);
    const std::string ludo_transcript = server.dir() / "eve.jsonl";
    auto eve = server.client("eve", {"bot", server.url(), "--room", ludo_room, "--count", "1", "--name", "Eve", "--transcript",
                                     ludo_transcript});
    REQUIRE_MESSAGE(eve->wait_for_text("Eve-1 token ", patience(10s)), eve->describe());
    dan->write("s");
    REQUIRE_MESSAGE(wait_screen(*dan, " throws a ", patience(30s)), dan->describe());
    REQUIRE_MESSAGE(wait_screen(*dan, kOpen + "Choose 1-", patience(60s)), dan->describe());
    dan->write("E");
    REQUIRE_MESSAGE(wait_screen(*dan, kOpen + "End the game for everyone?"), dan->describe());
    dan->write("y");
    REQUIRE_MESSAGE(wait_screen(*dan, kOpen + "Press any key to go back to the room." + kClose), dan->describe());
    dan->write(" q");
    CHECK(dan->wait(patience(10s)) == 0);
    CHECK(eve->wait(patience(10s)).has_value());

    // ---- The rule over everything shown -----------------------------------------------------------
    const std::vector<std::string> server_texts;  // none left out: the notices are worded here too
    const std::vector<std::string> names{"Cid-1", "Eve-1", "Ann", "Ben", "Dan", room, ludo_room, "SpookLudo", "spookludo verify",
                                         "spookludo"};
    for (auto* p : {ann.get(), ben.get(), dan.get()}) {
        const auto bad = untranslated(frames(p->out()), names, server_texts);
        CHECK_MESSAGE(bad.empty(), p->command() << ": text outside the brackets:\n" << report(bad));
    }
    for (const auto& printed : {verdict, report_lines, listing}) {
        const auto bad = untranslated(as_screen(printed), names, {});
        CHECK_MESSAGE(bad.empty(), "text outside the brackets:\n" << report(bad) << printed);
    }
    // What the check saw: the screens named in the test's title.
    const std::string seen = strip_escapes(ann->out()) + strip_escapes(ben->out()) + strip_escapes(dan->out());
    CHECK(seen.find(kOpen + "You are the host." + kClose) != std::string::npos);
    CHECK(seen.find(kOpen + "Spook round ") != std::string::npos);
    CHECK(seen.find(kOpen + "piece 1: ") != std::string::npos);
    CHECK(seen.find(kOpen + "Ludo turn ") != std::string::npos);
    CHECK(seen.find(kOpen + "game over" + kClose) != std::string::npos);
    server.stop();
}

TEST_CASE("languages: a terminal game with LANG=ms_MY.UTF-8 reads in Malay: the lobby, the round, the die, the decision and its keys, and no English sentence [e2e][play][pty][i18n]") {
    Server server;
    TempDir state("spookludo-state");
    auto ann = server.client("ann", {"play", server.url(), "--create", "spook", "--players", "2", "--name", "Ann",
                                     "--decision-ms", "60000", "--pace-ms", "0"},
                             wide_terminal(state / "ann", {{"LANG", "ms_MY.UTF-8"}}));
    REQUIRE_MESSAGE(wait_screen(*ann, "Anda ialah hos."), ann->describe());
    const std::string lobby = strip_escapes(ann->out());
    CHECK(lobby.find("Ludo Hantu & Serigala Jadian: 2 tempat duduk, 2 keping") != std::string::npos);
    CHECK(lobby.find("Tetapan: ") != std::string::npos);
    const std::string room = word_after(lobby, "Anda berada dalam bilik ").substr(0, 5);
    REQUIRE(room.size() == 5);
    const std::string transcript = server.dir() / "bot.jsonl";
    auto bot = server.client("bot", {"bot", server.url(), "--room", room, "--count", "1", "--name", "Cid", "--transcript", transcript});
    REQUIRE_MESSAGE(bot->wait_for_text("Cid-1 token ", patience(10s)), bot->describe());
    ann->write("s");
    REQUIRE_MESSAGE(wait_screen(*ann, "Pilih 1-2 dalam "), ann->describe());
    const auto all = frames(ann->out());
    REQUIRE(!all.empty());
    std::string screen;
    for (const auto& line : all.back()) screen += line + "\n";
    INFO(screen);
    // Malay words, the rule text's among them.
    CHECK(std::regex_search(screen, std::regex("Hantu pusingan [0-9]+, dadu [1-6]")));
    CHECK(screen.find("keping 1: ") != std::string::npos);
    CHECK(screen.find("Pusingan 1: dadu menunjukkan ") != std::string::npos);
    CHECK(screen.find("Ludo Hantu & Serigala Jadian bermula! Bawa dua keping masuk ke gereja di petak 40 untuk menang.") !=
          std::string::npos);
    CHECK(screen.find("Tekan 1-2 untuk memilih. ? petunjuk, q keluar") != std::string::npos);
    CHECK(screen.find("anda: Ann") != std::string::npos);
    // No English sentence: none of the English screen's words (the server's notices included).
    const std::string& rest = screen;
    for (const char* english : {"Choose", "round", "piece", "Press", "hints", "leave", "You ", "the die", "Everyone", "moves",
                                "Round", "waiting", "seat", "host", "Spook "})
        CHECK_MESSAGE(rest.find(english) == std::string::npos, "English on the Malay screen: " << std::string(english));
    ann->write("q");
    REQUIRE_MESSAGE(wait_screen(*ann, "Keluar dari permainan?"), ann->describe());
    ann->write("y");
    CHECK(ann->wait(patience(10s)) == 0);
    bot->signal(SIGTERM);
    bot->wait(patience(10s));
    server.stop();
}

TEST_CASE("languages: a refused connection reads in the chosen language: play, watch, bot, verify and history show no text outside the brackets with --lang qps, and say it in Malay with LANG=ms_MY.UTF-8 [e2e][i18n][errors]") {
    ClosedPort closed;
    TempDir dir("spookludo-languages-refused");
    const std::string port = std::to_string(closed.port());
    const std::string ws = "ws://127.0.0.1:" + port, http = "http://127.0.0.1:" + port;
    const std::vector<std::vector<std::string>> commands{{"play", ws, "--room", "ABCDE", "--name", "Ann"},
                                                         {"watch", ws, "--room", "ABCDE"},
                                                         {"bot", ws, "--create", "spook"},
                                                         {"verify", http + "/records/ABCDE-1"},
                                                         {"history", http},
                                                         {"play", "http://127.0.0.1:" + port, "--room", "ABCDE"}};
    // The program's name and command, the room's code, and the bot's default name (bot-1: a name).
    const std::vector<std::string> names{"spookludo play", "spookludo watch", "spookludo bot", "spookludo verify",
                                         "spookludo history", "spookludo", "ABCDE", "bot-1"};
    for (const auto& lang : {std::string("qps"), std::string("ms")}) {
        for (std::size_t i = 0; i < commands.size(); ++i) {
            const std::string label = lang + "-" + std::to_string(i);
            SpawnOptions o;
            o.stdout_file = dir / (label + ".out");
            o.stderr_file = dir / (label + ".err");
            o.env = {{"NO_COLOR", "1"}, {"XDG_STATE_HOME", dir / "state"}, {"LANGUAGE", std::nullopt},
                     {"LC_ALL", std::nullopt}, {"LC_MESSAGES", std::nullopt},
                     {"LANG", lang == "ms" ? std::optional<std::string>("ms_MY.UTF-8") : std::nullopt}};
            std::vector<std::string> argv{kClientBinary};
            argv.insert(argv.end(), commands[i].begin(), commands[i].end());
            if (lang == "qps") argv.insert(argv.end(), {"--lang", "qps"});
            Process p(argv, o);
            const auto status = p.wait(patience(10s));
            INFO(p.describe());
            CHECK(status == 2);
            const std::string err = p.err();
            if (lang == "qps") {
                CHECK(err.find(kOpen) != std::string::npos);
                const auto bad = untranslated(as_screen(p.out() + err), names, {});
                CHECK_MESSAGE(bad.empty(), "text outside the brackets:\n" << report(bad));
            } else if (i < 3) {
                CHECK(err.find("sambungan ditolak oleh 127.0.0.1:" + port +
                               " (adakah pelayan sedang berjalan, dan adakah port betul?)") != std::string::npos);
            } else if (i < 5) {
                CHECK(err.find("tidak dapat mengambil " + http) != std::string::npos);
                CHECK(err.find(": sambungan ditolak oleh 127.0.0.1:" + port + " (adakah pelayan masih berjalan?)") !=
                      std::string::npos);
            } else {
                CHECK(err.find("alamat mesti bermula dengan ws:// atau wss:// (diterima http://): cuba ws://127.0.0.1:" +
                               port) != std::string::npos);
            }
            if (lang == "ms") CHECK(err.find("refused") == std::string::npos);
        }
    }
}

TEST_CASE("languages: verify's check lines read in Malay with LANG=ms_MY.UTF-8: the seed, the draws, the replay and the result, the verdict, and a tampered die's failure (in the pseudo-language too) [e2e][i18n][verify]") {
    TempDir dir("spookludo-languages-verify");
    SpawnOptions o;
    o.stdout_file = dir / "sim.out";
    o.stderr_file = dir / "sim.err";
    Process sim({kClientBinary, "sim", "--game", "ludo", "--players", "2", "--games", "1", "--records", dir / "records"}, o);
    REQUIRE_MESSAGE(sim.wait(patience(30s)) == 0, sim.describe());
    SpawnOptions v;
    v.stdout_file = dir / "verify.out";
    v.stderr_file = dir / "verify.err";
    v.env = {{"LANGUAGE", std::nullopt}, {"LC_ALL", std::nullopt}, {"LC_MESSAGES", std::nullopt}, {"LANG", "ms_MY.UTF-8"}};
    const std::string file = dir / "records/game-000001.json";
    Process verify({kClientBinary, "verify", file}, v);
    CHECK_MESSAGE(verify.wait(patience(30s)) == 0, verify.describe());
    const std::string out = verify.out();
    INFO(out);
    CHECK(out.find("  ok    benih: benih pelayan yang didedahkan sepadan dengan komitmen ") != std::string::npos);
    CHECK(out.find("  ok    cabutan: kesemua ") != std::string::npos);
    CHECK(std::regex_search(out, std::regex("balingan permulaan: [0-9]+ balingan; (hijau|merah) \\(tempat [12]\\) bermula")));
    CHECK(out.find("  ok    keputusan: tamat selepas ") != std::string::npos);
    CHECK(out.find("DISAHKAN: " + file + " (ludo, 2 pemain, tamat)") != std::string::npos);
    for (const char* english : {"seed", "draws", "throws", "replayed", "result", "finished", "VERIFIED"})
        CHECK_MESSAGE(out.find(english) == std::string::npos, "English in Malay verify: " << std::string(english));

    // A tampered die: the failure is worded too, in Malay and in the pseudo-language.
    json record = json::parse(read_file(file));
    const int value = record["draws"][0]["value"].get<int>();
    record["draws"][0]["value"] = value % 6 + 1;
    const std::string tampered = dir / "tampered.json";
    {
        std::ofstream o(tampered);
        o << record.dump();
    }
    SpawnOptions t = v;
    t.stdout_file = dir / "tampered.out";
    t.stderr_file = dir / "tampered.err";
    Process failed({kClientBinary, "verify", tampered}, t);
    CHECK_MESSAGE(failed.wait(patience(30s)) == 1, failed.describe());
    CHECK(failed.out().find("GAGAL: cabutan: cabutan 0 (roll_off) direkodkan sebagai " + std::to_string(value % 6 + 1) +
                            " tetapi benih memberi " + std::to_string(value)) != std::string::npos);
    t.stdout_file = dir / "tampered-qps.out";
    t.stderr_file = dir / "tampered-qps.err";
    Process pseudo({kClientBinary, "verify", tampered, "--lang", "qps"}, t);
    CHECK_MESSAGE(pseudo.wait(patience(30s)) == 1, pseudo.describe());
    CHECK(pseudo.out().find(kOpen + "FAILED: " + kOpen + "draws: draw 0 (roll_off) is recorded as ") != std::string::npos);
    const auto bad = untranslated(as_screen(pseudo.out()), {"roll_off", "spookludo"}, {});
    CHECK_MESSAGE(bad.empty(), "text outside the brackets:\n" << report(bad) << pseudo.out());
}
