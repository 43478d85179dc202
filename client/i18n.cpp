// The catalogues read and the texts translated (i18n.h). The .po files are embedded in the
// program (the library spookludo_catalogues, made from po/ as the web files are) and parsed here:
// not libintl, which needs compiled .mo files in a locale directory and the locale installed on
// the machine (under the C locale it ignores LANGUAGE), which fails in Docker and on minimal
// machines.
#include "i18n.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>

#include "web_site.h"

namespace spookludo::server::web {
// po/ embedded (CMakeLists.txt: spookludo_embed_web(spookludo_catalogues ... catalogues)).
const Site& catalogues();
}  // namespace spookludo::server::web

namespace spookludo::client {

namespace i18n_detail {

// ---- Filling places ----------------------------------------------------------------------------

std::string fill(std::string_view text, const std::vector<std::pair<std::string, std::string>>& args) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{') {
            const auto close = text.find('}', i);
            if (close != std::string_view::npos) {
                const auto key = text.substr(i + 1, close - i - 1);
                bool done = false;
                for (const auto& [k, v] : args) {
                    if (k == key) {
                        out += v;
                        done = true;
                        break;
                    }
                }
                if (done) {
                    i = close;
                    continue;
                }
            }
        }
        out += text[i];
    }
    return out;
}

// ---- The plural expression ---------------------------------------------------------------------

namespace {

// A recursive-descent evaluator of C's expression subset that Plural-Forms uses. Bounded: the
// nesting depth is limited, division by zero and any syntax error give nullopt.
class PluralParser {
public:
    PluralParser(std::string_view text, long n) : text_(text), n_(n) {}

    std::optional<long> run() {
        auto v = ternary();
        skip();
        if (!v || failed_ || pos_ != text_.size()) return std::nullopt;
        return v;
    }

private:
    std::string_view text_;
    long n_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    bool failed_ = false;

    void skip() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool eat(std::string_view op) {
        skip();
        if (text_.substr(pos_, op.size()) != op) return false;
        // "<" is not "<=", "|" alone is not an operator, "=" is not "==".
        pos_ += op.size();
        return true;
    }
    bool peek(std::string_view op) {
        skip();
        return text_.substr(pos_, op.size()) == op;
    }
    std::optional<long> fail() {
        failed_ = true;
        return std::nullopt;
    }

    std::optional<long> ternary() {
        if (++depth_ > 64) return fail();
        auto c = logical_or();
        if (c && eat("?")) {
            auto a = ternary();
            if (!eat(":")) return fail();
            auto b = ternary();
            --depth_;
            if (!a || !b) return fail();
            return *c ? a : b;
        }
        --depth_;
        return c;
    }
    std::optional<long> logical_or() {
        auto v = logical_and();
        while (v && eat("||")) {
            auto r = logical_and();
            if (!r) return fail();
            v = (*v || *r) ? 1 : 0;
        }
        return v;
    }
    std::optional<long> logical_and() {
        auto v = equality();
        while (v && eat("&&")) {
            auto r = equality();
            if (!r) return fail();
            v = (*v && *r) ? 1 : 0;
        }
        return v;
    }
    std::optional<long> equality() {
        auto v = relation();
        while (v) {
            if (eat("==")) {
                auto r = relation();
                if (!r) return fail();
                v = *v == *r;
            } else if (eat("!=")) {
                auto r = relation();
                if (!r) return fail();
                v = *v != *r;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<long> relation() {
        auto v = additive();
        while (v) {
            std::optional<long> r;
            if (eat("<=")) {
                if (!(r = additive())) return fail();
                v = *v <= *r;
            } else if (eat(">=")) {
                if (!(r = additive())) return fail();
                v = *v >= *r;
            } else if (eat("<")) {
                if (!(r = additive())) return fail();
                v = *v < *r;
            } else if (eat(">")) {
                if (!(r = additive())) return fail();
                v = *v > *r;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<long> additive() {
        auto v = multiplicative();
        while (v) {
            std::optional<long> r;
            if (eat("+")) {
                if (!(r = multiplicative())) return fail();
                v = *v + *r;
            } else if (eat("-")) {
                if (!(r = multiplicative())) return fail();
                v = *v - *r;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<long> multiplicative() {
        auto v = unary();
        while (v) {
            std::optional<long> r;
            if (eat("*")) {
                if (!(r = unary())) return fail();
                v = *v * *r;
            } else if (eat("/")) {
                if (!(r = unary()) || *r == 0) return fail();
                v = *v / *r;
            } else if (eat("%")) {
                if (!(r = unary()) || *r == 0) return fail();
                v = *v % *r;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<long> unary() {
        if (peek("!") && !peek("!=")) {
            eat("!");
            if (++depth_ > 64) return fail();
            auto v = unary();
            --depth_;
            if (!v) return fail();
            return *v ? 0 : 1;
        }
        return primary();
    }
    std::optional<long> primary() {
        skip();
        if (pos_ >= text_.size()) return fail();
        const char c = text_[pos_];
        if (c == '(') {
            ++pos_;
            auto v = ternary();
            if (!v || !eat(")")) return fail();
            return v;
        }
        if (c == 'n') {
            ++pos_;
            return n_;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            long v = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                if (v > 100'000'000) return fail();
                v = v * 10 + (text_[pos_++] - '0');
            }
            return v;
        }
        return fail();
    }
};

}  // namespace

std::optional<long> eval_plural(std::string_view expression, long n) { return PluralParser(expression, n).run(); }

// ---- The .po file ------------------------------------------------------------------------------

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// A quoted C string ("...", with \n \t \" \\ \a \b \f \r \v \ooo \xHH) unquoted; nullopt when
// it is not one.
std::optional<std::string> unquote(std::string_view s) {
    s = trim(s);
    if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::nullopt;
    s = s.substr(1, s.size() - 2);
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"') return std::nullopt;  // an unescaped quote inside
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i >= s.size()) return std::nullopt;
        const char e = s[i];
        switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'a': out += '\a'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'v': out += '\v'; break;
            case '\\': out += '\\'; break;
            case '"': out += '"'; break;
            case '\'': out += '\''; break;
            case '?': out += '?'; break;
            case 'x': {
                int v = 0, digits = 0;
                while (i + 1 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) && digits < 2) {
                    const char h = s[++i];
                    v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
                    ++digits;
                }
                if (digits == 0) return std::nullopt;
                out += static_cast<char>(v);
                break;
            }
            default:
                if (e >= '0' && e <= '7') {
                    int v = e - '0', digits = 1;
                    while (i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7' && digits < 3) {
                        v = v * 8 + (s[++i] - '0');
                        ++digits;
                    }
                    out += static_cast<char>(v & 0xff);
                } else {
                    return std::nullopt;
                }
        }
    }
    return out;
}

struct Entry {
    std::optional<std::string> context;
    std::optional<std::string> id;
    std::optional<std::string> plural_id;
    std::map<int, std::string> forms;  // msgstr is form 0
    bool fuzzy = false;
    bool started = false;  // a keyword line seen
};

// The header's "Plural-Forms: nplurals=2; plural=(n != 1);".
void read_header(const std::string& header, Catalogue& cat) {
    std::string_view rest = header;
    while (!rest.empty()) {
        const auto end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        constexpr std::string_view key = "Plural-Forms:";
        if (line.substr(0, key.size()) != key) continue;
        const std::string_view value = line.substr(key.size());
        const auto np = value.find("nplurals=");
        const auto pl = value.find("plural=", np == std::string_view::npos ? 0 : np + 9);
        if (np == std::string_view::npos || pl == std::string_view::npos) continue;
        const int count = std::atoi(std::string(value.substr(np + 9)).c_str());
        std::string_view expr = value.substr(pl + 7);
        if (const auto semi = expr.find(';'); semi != std::string_view::npos) expr = expr.substr(0, semi);
        if (count < 1 || count > 16 || !eval_plural(expr, 1)) continue;
        cat.nplurals = count;
        cat.plural = std::string(trim(expr));
    }
}

void finish(Entry& e, Catalogue& cat) {
    if (e.id && !e.fuzzy) {
        if (e.id->empty() && !e.context) {
            if (const auto it = e.forms.find(0); it != e.forms.end()) read_header(it->second, cat);
        } else {
            // Forms 0..k in order, none empty: else the entry counts as untranslated.
            std::vector<std::string> forms;
            for (int i = 0;; ++i) {
                const auto it = e.forms.find(i);
                if (it == e.forms.end()) break;
                forms.push_back(it->second);
            }
            const bool complete = !forms.empty() && forms.size() == e.forms.size() &&
                                  std::none_of(forms.begin(), forms.end(), [](const std::string& f) { return f.empty(); });
            if (complete) {
                std::string key = e.context ? *e.context + '\x04' + *e.id : *e.id;
                cat.entries[std::move(key)] = std::move(forms);
            }
        }
    }
    e = Entry{};
}

}  // namespace

Catalogue parse_po(std::string_view text) {
    Catalogue cat;
    Entry e;
    // Where a continuation line ("...") goes: the last keyword's string.
    std::string* target = nullptr;
    bool skipping = false;  // after a malformed line, up to the next keyword
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view line = trim(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (line.empty()) {
            continue;
        }
        if (line.front() == '#') {
            // A comment starts the next entry when the current one has its strings.
            if (e.started && !e.forms.empty()) {
                finish(e, cat);
                target = nullptr;
            }
            if (line.substr(0, 2) == "#,") {
                const auto flags = line.substr(2);
                if (flags.find("fuzzy") != std::string_view::npos) e.fuzzy = true;
            }
            continue;  // #~ obsolete entries and every other comment are left out
        }
        if (line.front() == '"') {
            if (skipping || !target) continue;
            if (auto s = unquote(line)) *target += *s;
            else {
                skipping = true;
                target = nullptr;
            }
            continue;
        }
        const auto space = line.find_first_of(" \t");
        const std::string_view keyword = line.substr(0, space);
        const std::string_view rest = space == std::string_view::npos ? std::string_view{} : line.substr(space);
        auto value = unquote(rest);
        skipping = false;
        target = nullptr;
        if (!value) {
            skipping = true;
            continue;
        }
        // msgctxt or msgid after the strings of an entry start the next one.
        if ((keyword == "msgctxt" || keyword == "msgid") && !e.forms.empty()) finish(e, cat);
        e.started = true;
        if (keyword == "msgctxt") {
            e.context = std::move(*value);
            target = &*e.context;
        } else if (keyword == "msgid") {
            e.id = std::move(*value);
            target = &*e.id;
        } else if (keyword == "msgid_plural") {
            e.plural_id = std::move(*value);
            target = &*e.plural_id;
        } else if (keyword == "msgstr") {
            target = &(e.forms[0] = std::move(*value));
        } else if (keyword.substr(0, 7) == "msgstr[" && keyword.back() == ']') {
            const auto digits = keyword.substr(7, keyword.size() - 8);
            if (digits.empty() || digits.size() > 2 ||
                !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                skipping = true;
                continue;
            }
            const int index = std::atoi(std::string(digits).c_str());
            target = &(e.forms[index] = std::move(*value));
        } else {
            skipping = true;  // an unknown keyword
        }
    }
    finish(e, cat);
    return cat;
}

// ---- The language ------------------------------------------------------------------------------

namespace {

// "ms_MY.UTF-8@euro" -> "ms_MY"; "" when it names no language (C, POSIX, anything odd).
std::string locale_language(std::string_view value) {
    value = value.substr(0, value.find_first_of(".@"));
    if (value.empty() || value.size() > 16 || value == "C" || value == "POSIX") return {};
    for (const char c : value)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return {};
    std::string out(value);
    for (auto& c : out)
        if (c == '-') c = '_';
    return out;
}

// The language among `available` that `value` names ("ms_MY" -> "ms"), "en" for English, or "".
std::string match(std::string_view value, const std::vector<std::string>& available) {
    std::string lang = locale_language(value);
    if (lang.empty()) return {};
    std::string base = lang.substr(0, lang.find('_'));
    for (auto& c : base) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string& candidate : {lang, base}) {
        if (candidate == "en" || candidate == "qps") return candidate;
        for (const auto& a : available)
            if (a == candidate) return a;
    }
    return {};
}

}  // namespace

std::string pick_language(std::string_view wanted, const std::function<const char*(const char*)>& env,
                          const std::vector<std::string>& available) {
    if (!wanted.empty()) {
        const auto m = match(wanted, available);
        return m.empty() ? "en" : m;
    }
    const auto get = [&](const char* name) -> std::string_view {
        const char* v = env(name);
        return v ? std::string_view(v) : std::string_view{};
    };
    // LANGUAGE: a colon list of preferences, the first with a catalogue wins.
    std::string_view list = get("LANGUAGE");
    while (!list.empty()) {
        const auto colon = list.find(':');
        const auto m = match(list.substr(0, colon), available);
        if (!m.empty()) return m;
        list = colon == std::string_view::npos ? std::string_view{} : list.substr(colon + 1);
    }
    // The first of LC_ALL, LC_MESSAGES, LANG that is set decides (as the C library reads them).
    for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const auto v = get(name);
        if (v.empty()) continue;
        const auto m = match(v, available);
        return m.empty() ? "en" : m;
    }
    return "en";
}

}  // namespace i18n_detail

// ---- The chosen language -----------------------------------------------------------------------

namespace {

using i18n_detail::Catalogue;

struct Chosen {
    std::string language = "en";
    std::unique_ptr<Catalogue> catalogue;  // null: English or qps
};

Chosen& chosen() {
    static Chosen c;
    return c;
}

std::vector<std::pair<std::string, std::string>> to_vector(TrArgs args) {
    std::vector<std::pair<std::string, std::string>> out;
    out.reserve(args.size());
    for (const auto& [k, v] : args) out.emplace_back(std::string(k), v);
    return out;
}

// The languages with a catalogue: po/<lang>.po.
std::vector<std::string> available_languages() {
    std::vector<std::string> out;
    for (const auto& f : server::web::catalogues().files) {
        const std::string_view p = f.path;
        if (p.size() > 4 && p.front() == '/' && p.substr(p.size() - 3) == ".po" && p.find('/', 1) == std::string_view::npos)
            out.emplace_back(p.substr(1, p.size() - 4));
    }
    return out;
}

// The text to show: the translation (or English), its places filled; ⟦…⟧ around it in qps.
std::string finish_text(std::string_view text, const std::vector<std::pair<std::string, std::string>>& args) {
    std::string out = i18n_detail::fill(text, args);
    if (chosen().language == "qps") return "\u27E6" + out + "\u27E7";
    return out;
}

const std::vector<std::string>* lookup(const std::string& key) {
    const auto& cat = chosen().catalogue;
    if (!cat) return nullptr;
    const auto it = cat->entries.find(key);
    return it == cat->entries.end() ? nullptr : &it->second;
}

}  // namespace

std::string choose_language(std::string_view wanted) {
    const auto available = available_languages();
    auto lang = i18n_detail::pick_language(wanted, [](const char* name) { return std::getenv(name); }, available);
    Chosen& c = chosen();
    c.catalogue.reset();
    c.language = lang;
    if (lang != "en" && lang != "qps") {
        if (const auto* file = server::web::catalogues().find("/" + lang + ".po"))
            c.catalogue = std::make_unique<Catalogue>(i18n_detail::parse_po(file->body));
        else
            c.language = "en";
    }
    return c.language;
}

std::string current_language() { return chosen().language; }

std::string tr(std::string_view msgid, TrArgs args) {
    const auto* forms = lookup(std::string(msgid));
    return finish_text(forms ? std::string_view((*forms)[0]) : msgid, to_vector(args));
}

std::string tr_text(std::string_view msgid, const std::vector<std::pair<std::string, std::string>>& args) {
    const auto* forms = lookup(std::string(msgid));
    return finish_text(forms ? std::string_view((*forms)[0]) : msgid, args);
}

std::string trc(std::string_view context, std::string_view msgid, TrArgs args) {
    std::string key(context);
    key += '\x04';
    key += msgid;
    const auto* forms = lookup(key);
    return finish_text(forms ? std::string_view((*forms)[0]) : msgid, to_vector(args));
}

std::string trn(std::string_view one, std::string_view other, long n, TrArgs args) {
    auto filled = to_vector(args);
    filled.emplace_back("n", std::to_string(n));
    const auto* forms = lookup(std::string(one));
    if (!forms) return finish_text(n == 1 ? one : other, filled);
    const auto& cat = *chosen().catalogue;
    long index = i18n_detail::eval_plural(cat.plural, n).value_or(n != 1 ? 1 : 0);
    if (index < 0 || index >= static_cast<long>(forms->size())) index = static_cast<long>(forms->size()) - 1;
    return finish_text((*forms)[static_cast<std::size_t>(index)], filled);
}

}  // namespace spookludo::client
