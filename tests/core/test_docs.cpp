// The documentation stands on its own and tells the truth about the programs (issue #15, items
// 16 and 21): every relative link in the project's docs resolves to a file inside the
// repository (and an anchor to a heading of it), no doc points outside; the README's key tables
// list exactly the keys the client binds (client/keys.h, and every key play_command.cpp
// dispatches is in that table); the README's exit-status table names every program built.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "keys.h"
#include "spookludo/ludo/game.h"
#include "spookludo/options.h"

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = fs::weakly_canonical(SPOOKLUDO_SOURCE_DIR);
// The folder beside the checkout that the project's docs must never point to (spelt in two parts
// so that this file does not name it either).
const std::string kOutside = std::string("../") + "shared";

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in, "cannot read " << path.string());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream s(text);
    for (std::string line; std::getline(s, line);) out.push_back(line);
    return out;
}

bool is_fence(const std::string& line) {
    const auto start = line.find_first_not_of(' ');
    return start != std::string::npos && (line.compare(start, 3, "```") == 0 || line.compare(start, 3, "~~~") == 0);
}

// The docs the project publishes.
std::vector<fs::path> docs() {
    std::vector<fs::path> out;
    for (const char* name : {"README.md", "CONTRIBUTING.md", "BENCHMARKS.md", "protocol/PROTOCOL.md"})
        out.push_back(kRoot / name);
    for (const auto& e : fs::directory_iterator(kRoot / "docs"))
        if (e.path().extension() == ".md") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// GitHub's anchor of a heading: lower case, punctuation dropped (but - and _), spaces to -.
std::string slug(const std::string& heading) {
    std::string out;
    for (const char ch : heading) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c == '-' || c == '_' || c >= 0x80) out += static_cast<char>(std::tolower(c));
        else if (c == ' ') out += '-';
    }
    return out;
}

// The anchors of a markdown file's headings (with GitHub's -1, -2 for repeats).
std::set<std::string> anchors(const fs::path& file) {
    std::set<std::string> out;
    std::map<std::string, int> seen;
    bool fenced = false;
    for (const auto& line : lines_of(read(file))) {
        if (is_fence(line)) fenced = !fenced;
        if (fenced || line.empty() || line[0] != '#') continue;
        const auto text_at = line.find_first_not_of('#');
        if (text_at == std::string::npos || line[text_at] != ' ') continue;
        std::string s = slug(line.substr(text_at + 1));
        while (!s.empty() && s.front() == '-') s.erase(s.begin());
        const int n = seen[s]++;
        out.insert(n == 0 ? s : s + "-" + std::to_string(n));
    }
    return out;
}

// The markdown link targets of a file outside code (fenced blocks and `code` spans), with the
// line each is on: [text](target) and [label]: target.
std::vector<std::pair<int, std::string>> links(const fs::path& file) {
    std::vector<std::pair<int, std::string>> out;
    static const std::regex inline_link(R"(\]\(([^()\s]+)(\s+"[^"]*")?\))");
    static const std::regex reference(R"(^\s*\[[^\]]+\]:\s*(\S+))");
    bool fenced = false;
    int number = 0;
    for (auto line : lines_of(read(file))) {
        ++number;
        if (is_fence(line)) {
            fenced = !fenced;
            continue;
        }
        if (fenced) continue;
        line = std::regex_replace(line, std::regex("`[^`]*`"), "``");
        for (auto it = std::sregex_iterator(line.begin(), line.end(), inline_link); it != std::sregex_iterator(); ++it)
            out.emplace_back(number, (*it)[1]);
        if (std::smatch m; std::regex_search(line, m, reference)) out.emplace_back(number, m[1]);
    }
    return out;
}

bool inside_repository(const fs::path& path) {
    const auto rel = fs::weakly_canonical(path).lexically_relative(kRoot);
    return !rel.empty() && *rel.begin() != "..";
}

// ---- Key tables ---------------------------------------------------------------------------

// The keys of the README's key tables (those whose first column is headed "key"), as
// client/keys.h writes them: "`b` / `g` / `r`" is b, g and r; "`x` then `N`" is "x N";
// "`1`-`9`" is "1-9". A first cell without a `key` is returned as it is (unknown).
std::vector<std::string> readme_keys() {
    std::vector<std::string> out;
    const auto lines = lines_of(read(kRoot / "README.md"));
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        if (lines[i].rfind("| key |", 0) != 0) continue;
        for (std::size_t j = i + 2; j < lines.size() && lines[j].rfind("|", 0) == 0; ++j) {
            const std::string row = lines[j];
            const auto end = row.find(" |", 1);
            REQUIRE(end != std::string::npos);
            std::string cell = row.substr(2, end - 2);
            std::size_t at = 0;
            while (true) {
                const auto slash = cell.find(" / ", at);
                std::string alt = cell.substr(at, slash == std::string::npos ? std::string::npos : slash - at);
                if (alt.find('`') != std::string::npos) {
                    alt = std::regex_replace(alt, std::regex("` then `"), " ");
                    alt.erase(std::remove(alt.begin(), alt.end(), '`'), alt.end());
                }
                out.push_back(alt);
                if (slash == std::string::npos) break;
                at = slash + 3;
            }
        }
    }
    return out;
}

// The keys client/play_command.cpp dispatches on: the characters of `key == 'c'` and
// `case 'c':`, and `key >= 'a' && key <= 'b'` ranges.
std::set<std::string> dispatched_keys() {
    std::set<std::string> out;
    const std::string code = read(kRoot / "client" / "play_command.cpp");
    static const std::regex single(R"((?:key\s*==\s*|case\s+)'(\\?.)')");
    static const std::regex range(R"(key\s*>=\s*'(.)'\s*&&\s*key\s*<=\s*'(.)')");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), single); it != std::sregex_iterator(); ++it) {
        const std::string c = (*it)[1];
        out.insert(c == "\\r" || c == "\\n" ? "Enter" : c);
    }
    for (auto it = std::sregex_iterator(code.begin(), code.end(), range); it != std::sregex_iterator(); ++it)
        out.insert(std::string((*it)[1]) + "-" + std::string((*it)[2]));
    return out;
}

bool in_table(const std::string& key) {
    using spookludo::client::kKeyBindings;
    return std::any_of(kKeyBindings.begin(), kKeyBindings.end(), [&](const auto& b) {
        if (b.key == key || (!b.also.empty() && b.also == key)) return true;
        // A seat number after x or k ("1-8"), and a choice ("1-9"), are within "1-9" / "x N".
        if (key.size() == 3 && key[1] == '-' && b.key.size() == 3 && b.key[1] == '-')
            return b.key[0] <= key[0] && key[2] <= b.key[2];
        return false;
    });
}

}  // namespace

TEST_CASE("docs: every relative link resolves inside the repository (anchors to a heading), and no doc points outside it [docs]") {
    int checked = 0;
    for (const auto& doc : docs()) {
        const std::string name = doc.lexically_relative(kRoot).string();
        CAPTURE(name);
        CHECK_MESSAGE(read(doc).find(kOutside) == std::string::npos, name << " mentions " << kOutside);
        for (const auto& [line, target] : links(doc)) {
            CAPTURE(line);
            CAPTURE(target);
            if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
            ++checked;
            const auto hash = target.find('#');
            const std::string file_part = target.substr(0, hash);
            const fs::path file = file_part.empty() ? doc : doc.parent_path() / file_part;
            CHECK_MESSAGE(inside_repository(file), name << ":" << line << ": " << target << " leaves the repository");
            CHECK_MESSAGE(fs::exists(file), name << ":" << line << ": " << target << " does not exist");
            if (hash != std::string::npos && fs::exists(file) && file.extension() == ".md") {
                const std::string anchor = target.substr(hash + 1);
                CHECK_MESSAGE(anchors(file).count(anchor) == 1,
                              name << ":" << line << ": no heading #" << anchor << " in " << file.filename().string());
            }
        }
    }
    CHECK(checked > 10);
    // Nothing else in the repository's markdown points outside it either.
    for (const auto& e : fs::recursive_directory_iterator(kRoot)) {
        const auto rel = e.path().lexically_relative(kRoot).string();
        if (rel.rfind("build", 0) == 0 || rel.rfind(".git", 0) == 0) continue;
        if (e.path().extension() == ".md") CHECK_MESSAGE(read(e.path()).find(kOutside) == std::string::npos, rel);
    }
}

TEST_CASE("docs: the link check finds a link that leaves the repository, a missing file and a missing anchor [docs]") {
    // The checker itself, on a file of its own in the build's temporary directory.
    const fs::path dir = fs::temp_directory_path() / "spookludo-docs-check";
    fs::create_directories(dir);
    {
        std::ofstream(dir / "a.md") << "# Title here\n\nSee [x](../elsewhere/y.md), [b](b.md#part-two) and [c](#title-here).\n"
                                       "```\n[not](a-link.md)\n```\n`[nor](this.md)`\n[ref]: b.md\n";
        std::ofstream(dir / "b.md") << "# Part one\n## Part `two`!\n";
    }
    const auto found = links(dir / "a.md");
    std::vector<std::string> targets;
    for (const auto& l : found) targets.push_back(l.second);
    CHECK(targets == std::vector<std::string>{"../elsewhere/y.md", "b.md#part-two", "#title-here", "b.md"});
    CHECK(anchors(dir / "b.md") == std::set<std::string>{"part-one", "part-two"});
    CHECK_FALSE(inside_repository(kRoot / ".." / "shared" / "y.md"));
    CHECK(inside_repository(kRoot / "docs" / "rules.md"));
    fs::remove_all(dir);
}

TEST_CASE("README: the key tables list every key the client binds (client/keys.h), and no key the client does not [docs][keys]") {
    using spookludo::client::kKeyBindings;
    const auto listed = readme_keys();
    REQUIRE(listed.size() > 10);
    const std::set<std::string> in_readme(listed.begin(), listed.end());
    for (const auto& b : kKeyBindings) {
        CAPTURE(b.key);
        CHECK_MESSAGE(in_readme.count(std::string(b.key)) == 1,
                      "the README's key tables miss `" << b.key << "` (" << b.what << ")");
    }
    for (const auto& key : listed) CHECK_MESSAGE(in_table(key), "the README lists `" << key << "`, which client/keys.h does not");
    // The kick key is there with its seat number.
    CHECK(in_readme.count("k N") == 1);
}

TEST_CASE("client/keys.h: every key play_command.cpp dispatches on is in the table [docs][keys]") {
    const auto bound = dispatched_keys();
    REQUIRE(bound.count("q") == 1);  // the scan works
    REQUIRE(bound.count("k") == 1);
    for (const auto& key : bound) {
        CAPTURE(key);
        // "k", "x" and "H" are bound as "k N", "x N" and "H N" (the seat number follows), "!" as "! N"
        // (a reaction's).
        const bool with_seat = key == "k" || key == "x" || key == "H" || key == "!";
        CHECK_MESSAGE(in_table(with_seat ? key + " N" : key), "play_command.cpp binds '" << key << "', not in client/keys.h");
    }
}

TEST_CASE("README: the exit-status table names every program the build makes, and every spookludo subcommand [docs][cli]") {
    const std::string readme = read(kRoot / "README.md");
    const auto at = readme.find("### Exit statuses");
    REQUIRE(at != std::string::npos);
    const std::string section = readme.substr(at, readme.find("\n## ", at) - at);
    std::set<std::string> programs;
    static const std::regex executable(R"(add_executable\(([A-Za-z0-9_-]+))");
    for (const char* dir : {"server", "client", "bench"})
        for (const auto& entry : fs::recursive_directory_iterator(kRoot / dir)) {
            if (entry.path().filename() != "CMakeLists.txt") continue;
            const std::string cmake = read(entry.path());
            for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), executable); it != std::sregex_iterator(); ++it)
                programs.insert((*it)[1]);
        }
    REQUIRE(programs.count("spookludo-server") == 1);
    REQUIRE(programs.count("spookludo") == 1);
    programs.erase("spookludo");
    for (const char* sub : {"sim", "boards", "verify", "replay", "play", "watch", "bot"})
        programs.insert(std::string("spookludo ") + sub);
    for (const auto& p : programs) {
        CAPTURE(p);
        const bool named = section.find("| `" + p + "`") != std::string::npos || section.find("`" + p + "`, ") != std::string::npos ||
                           section.find(", `" + p + "` |") != std::string::npos ||
                           (p.rfind("spookludo ", 0) == 0 && section.find(", `" + p.substr(10) + "` |") != std::string::npos);
        CHECK_MESSAGE(named, "the README's exit-status table does not name " << p);
    }
}

TEST_CASE("tests: no test case's name holds a semicolon (CTest would cut the name there and run a test of another name) [docs]") {
    std::vector<std::string> bad;
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / "tests")) {
        if (!entry.is_regular_file() || entry.path().extension() != ".cpp") continue;
        std::ifstream in(entry.path());
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            const auto at = line.find("TEST_CASE(\"");
            if (at == std::string::npos) continue;
            // A name may go on over the next lines as adjacent string literals: all of it counts.
            // The name ends at its closing quote: `")`, or a decorator after it (`" *`).
            const auto name_end = [](const std::string& t) { return std::min(t.find("\")"), t.find("\" *")); };
            std::string text = line.substr(at);
            for (std::string more; name_end(text) == std::string::npos && std::getline(in, more);) {
                ++number;
                text += more;
            }
            const std::string name = text.substr(0, name_end(text));
            if (name.find(';') != std::string::npos)
                bad.push_back(fs::relative(entry.path(), kRoot).string() + ":" + std::to_string(number));
        }
    }
    for (const auto& b : bad) MESSAGE(b);
    CHECK(bad.empty());
}

// Ludo's house rules (docs/rules.md, "House rules"): the docs name every option and event the code
// has, and the positions the rule book shows are positions the engine reads.
TEST_CASE("docs: every Ludo option key and the preset are in the rule book (both languages) and PROTOCOL.md [docs][house]") {
    spookludo::GameOptions all = spookludo::GameOptions::ludo_game(4, 6);
    all.ludo = spookludo::home_rules();
    all.ludo.capture_to_home = true;
    all.ludo.teams = true;
    std::vector<std::string> keys;
    const nlohmann::json written = all;
    for (const auto& [key, value] : written.items()) keys.push_back(key);
    keys.push_back("preset");
    keys.push_back(std::string(spookludo::kHomeRulesPreset));
    CHECK(keys.size() == 12);
    for (const char* doc : {"docs/rules.md", "docs/rules.ms.md", "protocol/PROTOCOL.md"}) {
        const std::string text = read(kRoot / doc);
        for (const auto& key : keys)
            CHECK_MESSAGE(
                (text.find("`" + key) != std::string::npos || text.find("\"" + key + "\"") != std::string::npos),
                std::string(doc) << " does not name " << key);
    }
}

TEST_CASE("docs: PROTOCOL.md names every Ludo event kind and every reason of an extra throw [docs][house]") {
    using spookludo::ludo::EventKind;
    const std::string text = read(kRoot / "protocol/PROTOCOL.md");
    for (int k = 0; k <= static_cast<int>(EventKind::team_finished); ++k) {
        const std::string name(to_string(static_cast<EventKind>(k)));
        CHECK_MESSAGE(text.find("`" + name + "`") != std::string::npos, "PROTOCOL.md does not name the event " << name);
        CHECK_MESSAGE(text.find("\"kind\":\"" + name + "\"") != std::string::npos,
                      "PROTOCOL.md has no example of " << name);
    }
    for (const char* reason : {"six", "capture", "home"})
        CHECK_MESSAGE(text.find(std::string("\"reason\":\"") + reason + "\"") != std::string::npos,
                      "no extra_throw with reason " << reason);
}

TEST_CASE("docs: every Ludo position in the rule book (both languages) is one the engine reads [docs][house]") {
    const std::regex position("`((?:green|yellow|red|blue)\\+?\\*?:[^`]*)`");
    int seen = 0;
    for (const char* doc : {"docs/rules.md", "docs/rules.ms.md"}) {
        const std::string text = read(kRoot / doc);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), position); it != std::sregex_iterator(); ++it) {
            const std::string p = (*it)[1].str();
            int players = 1;
            for (char c : p) players += c == ' ' ? 1 : 0;
            bool reads = false;
            for (int arm : {6, 8})
                for (int rules = 0; rules < 3 && !reads; ++rules) {
                    auto o = spookludo::GameOptions::ludo_game(players, arm);
                    o.ludo.capture_to_home = rules > 0;
                    o.ludo.teams = rules == 2 && players == 4;
                    try {
                        (void)spookludo::ludo::Game::from_position(o, p);
                        reads = true;
                    } catch (const std::invalid_argument&) {
                    }
                }
            CHECK_MESSAGE(reads, std::string(doc) << ": " << p);
            ++seen;
        }
    }
    CHECK(seen >= 10);
}
