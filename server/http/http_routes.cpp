#include "http_routes.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <variant>

#include <nlohmann/json.hpp>

#include "cluster.h"
#include "services.h"
#include "spookludo/text.h"
#include "http_text.h"
#include "web_dir.h"
#include "web_site.h"

namespace spookludo::server {

using namespace http_text;

namespace {

constexpr std::string_view kNotFound =
    "spookludo-server: the web client on / (a room's link: /r/<CODE>, its shared screen: /tv/<CODE>, a game's replay: "
    "/replay/<game id>, the history: /history, /history/player/<name>), the WebSocket on /ws; GET /healthz, /metrics, "
    "/records/<id>, /analysis/<id>, /games, /games/<id>, /players/<name>, /i18n/languages.json, /i18n/<lang>.po; the "
    "installable page: /manifest.webmanifest, /sw.js, /icons/<name>.png\n";

// The longest game id and percent-encoded name the page's addresses take (a record's id is far
// shorter; a name is at most 96 bytes, each at most 3 characters encoded).
constexpr std::size_t kMaxGameIdInPath = 100;
constexpr std::size_t kMaxNameInPath = 3 * 96;

// A room's join link, /r/ and a room code (5 letters, either case: the page reads it), or its
// shared screen for a television, /tv/ and the code.
bool is_room_path(std::string_view path) {
    for (const std::string_view prefix : {std::string_view("/r/"), std::string_view("/tv/")}) {
        if (path.size() != prefix.size() + kRoomCodeLength || path.substr(0, prefix.size()) != prefix) continue;
        const auto code = path.substr(prefix.size());
        if (std::all_of(code.begin(), code.end(), letter)) return true;
    }
    return false;
}

// The page's other addresses, whose script reads what to show from the path: a game's replay,
// /replay/<game id> (letters, digits and '-', as the records' ids), the history, /history, and a
// player's page, /history/player/<name> (the name percent-encoded, no '/').
bool is_history_path(std::string_view path) {
    constexpr std::string_view replay = "/replay/", player = "/history/player/";
    if (path.substr(0, replay.size()) == replay) {
        const auto id = path.substr(replay.size());
        return !id.empty() && id.size() <= kMaxGameIdInPath &&
               std::all_of(id.begin(), id.end(), [](char c) { return letter(c) || digit(c) || c == '-'; });
    }
    if (path == "/history" || path == "/history/") return true;
    if (path.substr(0, player.size()) == player) {
        const auto name = path.substr(player.size());
        return !name.empty() && name.size() <= kMaxNameInPath && name.find('/') == std::string_view::npos;
    }
    return false;
}

// A quality value (RFC 9110, 12.4.2) above 0; false for one that is not well formed.
bool positive_quality(std::string_view q) {
    if (q.empty() || q.size() > 5 || (q[0] != '0' && q[0] != '1')) return false;
    if (q.size() > 1 && (q[1] != '.' || !std::all_of(q.begin() + 2, q.end(), digit))) return false;
    if (q[0] == '1') return std::all_of(q.begin() + std::min<std::size_t>(2, q.size()), q.end(), [](char c) { return c == '0'; });
    return std::any_of(q.begin() + std::min<std::size_t>(2, q.size()), q.end(), [](char c) { return c != '0'; });
}

// ---- The history: /games, /games/<id>, /players/<name> -----------------------------------------

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// %XX and '+' decoded; nothing when the text has a bad escape.
std::optional<std::string> percent_decoded(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int hi = hex_value(text[i + 1]), lo = hex_value(text[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

// YYYY-MM-DD (UTC) as Unix milliseconds at its midnight.
std::optional<std::int64_t> day_ms(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
    int y = 0, m = 0, d = 0;
    if (std::from_chars(text.data(), text.data() + 4, y).ptr != text.data() + 4 ||
        std::from_chars(text.data() + 5, text.data() + 7, m).ptr != text.data() + 7 ||
        std::from_chars(text.data() + 8, text.data() + 10, d).ptr != text.data() + 10)
        return std::nullopt;
    static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12 || y < 1970 || y > 9999 || d < 1 || d > kDays[m - 1] || (m == 2 && d == 29 && !leap))
        return std::nullopt;
    // Days from the civil date (Howard Hinnant's algorithm).
    y -= m <= 2;
    const int era = y / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const std::int64_t days = static_cast<std::int64_t>(era) * 146097 + doe - 719468;
    return days * 86400000;
}

// The query of GET /games, or why it cannot be read.
std::variant<GamesQuery, std::string> games_query(std::string_view query) {
    GamesQuery q;
    while (!query.empty()) {
        const auto amp = query.find('&');
        const auto pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (pair.empty()) continue;
        const auto eq = pair.find('=');
        const auto key = pair.substr(0, eq);
        const auto value = percent_decoded(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
        if (!value) return "a bad %-escape in " + std::string(key);
        auto number = [&](int& into, int lo, int hi) -> std::optional<std::string> {
            int n = 0;
            const auto r = std::from_chars(value->data(), value->data() + value->size(), n);
            if (r.ec != std::errc() || r.ptr != value->data() + value->size() || n < lo || n > hi)
                return std::string(key) + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
            into = n;
            return std::nullopt;
        };
        if (key == "room") q.room = normalise_room_code(*value);
        else if (key == "player") q.player = *value;
        else if (key == "game") {
            if (*value != "spook" && *value != "ludo") return "game must be spook or ludo";
            q.game = *value;
        } else if (key == "page") {
            if (auto e = number(q.page, 1, 1000000)) return *e;
        } else if (key == "per_page") {
            if (auto e = number(q.per_page, 1, 100)) return *e;
        } else if (key == "date" || key == "since" || key == "until") {
            const auto ms = day_ms(*value);
            if (!ms) return std::string(key) + " must be a day such as 2026-12-02 (UTC)";
            if (key == "date") {
                q.since_ms = *ms;
                q.until_ms = *ms + 86400000;
            } else if (key == "since") {
                q.since_ms = *ms;
            } else {
                q.until_ms = *ms + 86400000;  // up to that day's end: since=D&until=D is the day D
            }
        } else {
            return "unknown parameter " + std::string(key) + " (room, player, game, date, since, until, page, per_page)";
        }
    }
    return q;
}

}  // namespace

std::string_view content_type_of(std::string_view path) {
    const auto dot = path.rfind('.');
    if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return "application/octet-stream";
    const std::string ext = lower(path.substr(dot + 1));
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 18> types{{
        {"html", "text/html; charset=utf-8"},
        {"js", "text/javascript; charset=utf-8"},
        {"mjs", "text/javascript; charset=utf-8"},
        {"css", "text/css; charset=utf-8"},
        {"svg", "image/svg+xml"},
        {"png", "image/png"},
        {"jpg", "image/jpeg"},
        {"jpeg", "image/jpeg"},
        {"webp", "image/webp"},
        {"ico", "image/x-icon"},
        {"json", "application/json"},
        {"map", "application/json"},
        {"webmanifest", "application/manifest+json"},
        {"txt", "text/plain; charset=utf-8"},
        {"po", "text/plain; charset=utf-8"},  // a language's catalogue (GNU gettext)
        {"woff2", "font/woff2"},
        {"woff", "font/woff"},
        {"wasm", "application/wasm"},
    }};
    for (const auto& [e, type] : types)
        if (e == ext) return type;
    return "application/octet-stream";
}

bool accepts_gzip(std::string_view accept_encoding) {
    std::optional<bool> gzip, x_gzip, any;
    while (!accept_encoding.empty()) {
        const auto comma = accept_encoding.find(',');
        std::string_view item = accept_encoding.substr(0, comma);
        accept_encoding = comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
        const auto semicolon = item.find(';');
        const std::string_view coding = trim(item.substr(0, semicolon));
        bool positive = true;  // no q: q=1
        std::string_view params = semicolon == std::string_view::npos ? std::string_view() : item.substr(semicolon + 1);
        while (!params.empty()) {
            const auto next = params.find(';');
            const std::string_view param = trim(params.substr(0, next));
            params = next == std::string_view::npos ? std::string_view() : params.substr(next + 1);
            const auto eq = param.find('=');
            if (eq != std::string_view::npos && iequals(trim(param.substr(0, eq)), "q"))
                positive = positive_quality(trim(param.substr(eq + 1)));
        }
        if (iequals(coding, "gzip")) gzip = positive;
        else if (iequals(coding, "x-gzip")) x_gzip = positive;
        else if (coding == "*") any = positive;
    }
    if (gzip) return *gzip;
    if (x_gzip) return *x_gzip;
    return any.value_or(false);
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
    if (trim(if_none_match) == "*") return true;
    if (etag.substr(0, 2) == "W/") etag.remove_prefix(2);
    std::string_view s = if_none_match;
    for (;;) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == ',')) s.remove_prefix(1);
        if (s.empty()) return false;
        if (s.substr(0, 2) == "W/") s.remove_prefix(2);
        if (s.empty() || s.front() != '"') return false;  // not a list of entity tags
        const auto close = s.find('"', 1);
        if (close == std::string_view::npos) return false;
        if (s.substr(0, close + 1) == etag) return true;
        s.remove_prefix(close + 1);
    }
}

namespace {
// host[:port] as CSP3 takes it in a host-source: dot-separated labels of letters, digits and
// '-', and a port.
bool host_source(std::string_view host) {
    const auto colon = host.find(':');
    const std::string_view name = host.substr(0, colon);
    bool well_formed = !name.empty() && name.front() != '.' && name.back() != '.' &&
                       name.find("..") == std::string_view::npos &&
                       std::all_of(name.begin(), name.end(), [](char c) { return letter(c) || digit(c) || c == '-' || c == '.'; });
    if (colon != std::string_view::npos && !port_of(host.substr(colon + 1))) well_formed = false;
    return well_formed;
}
}  // namespace

std::string content_security_policy(std::string_view host, bool tls, const std::vector<std::string>& connect_also) {
    // The host named beside 'self' must be a host-source (CSP3, 2.3.1): dot-separated labels of
    // letters, digits and '-', and a port. An IPv6 literal cannot be one: 'self' alone then.
    std::string connect = "'self'";
    if (host_source(host)) connect += (tls ? " wss://" : " ws://") + lower(host);
    for (const auto& source : connect_also) {
        const auto scheme_end = source.find("://");
        if (scheme_end == std::string::npos) continue;
        const std::string_view scheme = std::string_view(source).substr(0, scheme_end);
        if ((scheme == "ws" || scheme == "wss") && host_source(std::string_view(source).substr(scheme_end + 3))) {
            connect += ' ';
            connect += lower(source);
        }
    }
    return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src " + connect +
           "; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
}

namespace {

// The answer serving `file` (the site's or the catalogues'): revalidated (no-cache) or, when
// `immutable`, cached for good; its ETag, gzip when asked and worth it, 304 when If-None-Match
// names the ETag; a page gets the CSP.
HttpAnswer file_answer(const web::File& file, const HttpRequest& request, bool immutable,
                       const std::vector<std::string>& connect_also) {
    HttpAnswer answer;
    const bool gzip = !file.gzip.empty() && accepts_gzip(request.accept_encoding);
    std::string etag = "\"";
    etag.append(file.hash).append(gzip ? "-gz\"" : "\"");
    const std::string_view type = content_type_of(file.path);
    // The page and any file not under its hashed name are asked again each time (a 304 when
    // unchanged); a hashed name never changes its content.
    answer.headers.emplace_back("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    answer.headers.emplace_back("ETag", etag);
    if (!file.gzip.empty()) answer.headers.emplace_back("Vary", "Accept-Encoding");
    if (type.substr(0, 9) == "text/html") {
        answer.headers.emplace_back("Content-Security-Policy",
                                    content_security_policy(request.host, request.tls, connect_also));
        answer.headers.emplace_back("X-Frame-Options", "DENY");
    }
    if (etag_matches(request.if_none_match, etag)) {
        answer.status = 304;
        answer.content_type.clear();
        return answer;
    }
    if (gzip) answer.headers.emplace_back("Content-Encoding", "gzip");
    answer.content_type = std::string(type);
    answer.embedded = gzip ? file.gzip : file.body;
    return answer;
}

// The fields of a .po file's header (the msgstr of its msgid ""), "Name: value" a line.
std::vector<std::pair<std::string, std::string>> po_header(std::string_view po) {
    std::string text;  // the header's msgstr, its escapes read
    bool in_header = false, seen_msgid = false;
    while (!po.empty()) {
        const auto eol = po.find('\n');
        std::string_view line = trim(po.substr(0, eol));
        po = eol == std::string_view::npos ? std::string_view() : po.substr(eol + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.front() == '#') {
            if (in_header) break;
            continue;
        }
        if (!seen_msgid) {
            if (line != "msgid \"\"") return {};  // no header entry first
            seen_msgid = true;
            continue;
        }
        if (!in_header) {
            if (line.substr(0, 6) == "msgstr") {
                in_header = true;
                line = trim(line.substr(6));
            } else if (line.front() == '"') {
                return {};  // msgid "" continued: not the header
            } else {
                continue;
            }
        } else if (line.front() != '"') {
            break;
        }
        if (line.size() < 2 || line.front() != '"' || line.back() != '"') break;
        const std::string_view inside = line.substr(1, line.size() - 2);
        for (std::size_t i = 0; i < inside.size(); ++i) {
            if (inside[i] == '\\' && i + 1 < inside.size()) {
                const char c = inside[++i];
                text += c == 'n' ? '\n' : c == 't' ? '\t' : c;
            } else {
                text += inside[i];
            }
        }
    }
    std::vector<std::pair<std::string, std::string>> fields;
    std::string_view rest = text;
    while (!rest.empty()) {
        const auto eol = rest.find('\n');
        const std::string_view line = rest.substr(0, eol);
        rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
        const auto colon = line.find(':');
        if (colon != std::string_view::npos)
            fields.emplace_back(std::string(trim(line.substr(0, colon))), std::string(trim(line.substr(colon + 1))));
    }
    return fields;
}

// A language's tag as a catalogue's file is named: letters, then letters, digits, '_' or '-'.
bool language_tag(std::string_view tag) {
    return !tag.empty() && tag.size() <= 35 && letter(tag.front()) &&
           std::all_of(tag.begin(), tag.end(), [](char c) { return letter(c) || digit(c) || c == '_' || c == '-'; });
}

// 16 hex digits of FNV-1a (64 bits): the ETag of an answer made here rather than embedded.
std::string fnv_hex(std::string_view bytes) {
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = kHex[h & 15];
    return out;
}

}  // namespace

std::string languages_json(const web::Site& catalogues) {
    nlohmann::json list = nlohmann::json::array();
    list.push_back({{"lang", "en"}, {"name", "English"}});
    for (const auto& file : catalogues.files) {
        const std::string_view path = file.path;
        if (path.size() < 5 || path.substr(path.size() - 3) != ".po") continue;
        std::string lang, name;
        for (const auto& [field, value] : po_header(file.body)) {
            if (field == "Language") lang = value;
            else if (field == "X-Language-Name") name = value;
        }
        // Listed when the header names the language of the file's own name (so /i18n/<lang>.po
        // serves it); English is the message ids themselves.
        if (!language_tag(lang) || lang == "en" || path != "/" + lang + ".po") continue;
        list.push_back({{"lang", lang}, {"name", name.empty() ? lang : name}});
    }
    return list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<HttpAnswer> answer_catalogues(const web::Site& catalogues, const HttpRequest& request) {
    if (request.method != "GET" && request.method != "HEAD") return std::nullopt;
    const std::string_view path = request.target.substr(0, request.target.find('?'));
    constexpr std::string_view prefix = "/i18n/";
    if (path.substr(0, prefix.size()) != prefix) return std::nullopt;
    const std::string_view name = path.substr(prefix.size());
    if (name == "languages.json") {
        // Made once per site (the catalogues do not change while the program runs).
        struct Made {
            const web::Site* site;
            std::string body, hash;
        };
        static const Made built = [] {
            Made m{&web::catalogues(), languages_json(web::catalogues()), {}};
            m.hash = fnv_hex(m.body);
            return m;
        }();
        Made other;
        const Made* made = &built;
        if (&catalogues != built.site) {  // another site (the tests'): made for this request
            other = {&catalogues, languages_json(catalogues), {}};
            other.hash = fnv_hex(other.body);
            made = &other;
        }
        const web::File file{"/languages.json", made->body, {}, made->hash};
        HttpAnswer answer = file_answer(file, request, false, {});
        if (answer.embedded) {
            answer.body = std::string(*answer.embedded);  // `other` ends with this call
            answer.embedded.reset();
        }
        return answer;
    }
    if (name.size() < 4 || name.substr(name.size() - 3) != ".po" || !language_tag(name.substr(0, name.size() - 3)))
        return std::nullopt;
    const web::File* file = catalogues.find(path.substr(prefix.size() - 1));
    if (!file) return std::nullopt;
    return file_answer(*file, request, false, {});
}

std::optional<HttpAnswer> answer_web(const web::Site& site, const HttpRequest& request,
                                     const std::vector<std::string>& connect_also) {
    if (request.method != "GET" && request.method != "HEAD") return std::nullopt;
    const std::string_view path = request.target.substr(0, request.target.find('?'));
    const web::File* file = nullptr;
    bool immutable = false;
    const std::string versioned = "/v/" + std::string(site.bundle) + "/";
    if (path == "/" || is_room_path(path) || is_history_path(path)) {
        file = site.find("/index.html");
    } else if (path.substr(0, versioned.size()) == versioned) {
        // This build's name of a file; the page, the manifest and the service worker are not served there.
        file = site.find(path.substr(versioned.size() - 1));
        if (file && web::at_own_address_only(file->path)) file = nullptr;
        immutable = true;
    } else {
        file = site.find(path);
    }
    if (!file) return std::nullopt;
    return file_answer(*file, request, immutable, connect_also);
}

HttpAnswer answer_http(Services& services, const HttpRequest& request) {
    const auto text = [](int status, std::string_view type, std::string body) {
        HttpAnswer answer;
        answer.status = status;
        answer.content_type = std::string(type);
        answer.body = std::move(body);
        return answer;
    };
    const std::string_view method = request.method, target = request.target;
    if (method != "GET" && method != "HEAD") {
        auto answer = text(405, "text/plain", "GET only\n");
        answer.headers.emplace_back("Allow", "GET, HEAD");
        return answer;
    }
    if (target == "/healthz") {
        // Degraded while the journal cannot be written: the rooms it concerns are paused, and
        // new players are better sent elsewhere.
        if (auto problem = services.journal_problem())
            return text(503, "text/plain", "degraded: the journal cannot be written (" + *problem + "); " +
                                               std::to_string(services.metrics.journal_paused_rooms.load()) +
                                               " rooms paused until it can\n");
        // A cluster node without its lease may have been declared dead: its rooms wait.
        if (services.cluster && !services.cluster->lease_valid())
            return text(503, "text/plain",
                        std::string("degraded: no lease in the cluster (") +
                            (services.cluster->redis_connected() ? "Redis does not take the heartbeat"
                                                                 : "Redis cannot be reached") +
                            "): rooms wait until the node holds it again\n");
        return text(200, "text/plain", "ok\n");
    }
    if (target == "/metrics") return text(200, "text/plain; version=0.0.4", services.metrics.prometheus_text());
    const auto question = target.find('?');
    const std::string_view path = target.substr(0, question);
    const std::string_view query = question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
    const auto json_answer = [&](int status, const nlohmann::json& body) {
        // Whatever bytes a request carried, the answer is valid JSON (bad UTF-8 replaced).
        return text(status, "application/json", body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    };
    constexpr std::string_view records = "/records/", games = "/games/", players = "/players/";
    const bool record_path = path.substr(0, records.size()) == records;
    if (record_path || (path.substr(0, games.size()) == games && path.size() > games.size())) {
        // A record, from the database (records are not kept in memory).
        const std::string id(path.substr(record_path ? records.size() : games.size()));
        try {
            if (auto stored = services.history->record(id)) return text(200, "application/json", std::move(*stored));
        } catch (const std::exception& e) {
            return json_answer(503, {{"error", std::string("the history cannot be read now: ") + e.what()}});
        }
        return text(404, "text/plain", "no such record\n");
    }
    constexpr std::string_view analysis = "/analysis/";
    if (path.substr(0, analysis.size()) == analysis) return answer_analysis(services, request, path.substr(analysis.size()));
    if (path == "/cluster" || path == "/cluster/") {
        if (!services.cluster)
            return json_answer(404, {{"error", "this server is on its own, not a cluster node (--cluster)"}});
        nlohmann::json nodes = nlohmann::json::array();
        for (const auto& n : services.cluster->nodes())
            nodes.push_back({{"id", n.id},
                             {"url", n.url},
                             {"alive", n.alive},
                             {"rooms", n.rooms},
                             {"connections", n.connections},
                             {"started_ms", n.started_ms},
                             {"heartbeat_ms", n.heartbeat_ms}});
        return json_answer(200, {{"node", services.cluster->node_id()},
                                 {"redis_connected", services.cluster->redis_connected()},
                                 {"lease_ms", services.cluster->lease_left().count()},
                                 {"nodes", std::move(nodes)}});
    }
    if (path == "/games" || path == "/games/") {
        auto q = games_query(query);
        if (auto* why = std::get_if<std::string>(&q)) return json_answer(400, {{"error", *why}});
        try {
            return json_answer(200, services.history->games(std::get<GamesQuery>(q)));
        } catch (const std::exception& e) {
            return json_answer(503, {{"error", std::string("the history cannot be read now: ") + e.what()}});
        }
    }
    if (path.substr(0, players.size()) == players && path.size() > players.size()) {
        const auto name = percent_decoded(path.substr(players.size()));
        if (!name || name->empty() || name->size() > 96) return json_answer(400, {{"error", "not a player's name"}});
        try {
            if (auto p = services.history->player(*name)) {
                (*p)["games_url"] = "/games?player=" + std::string(path.substr(players.size()));
                return json_answer(200, *p);
            }
            return json_answer(404, {{"error", "no game of a player named " + *name + " is kept"}});
        } catch (const std::exception& e) {
            return json_answer(503, {{"error", std::string("the history cannot be read now: ") + e.what()}});
        }
    }
    // A cluster's page may open its WebSocket on any node (the one that has its room).
    std::vector<std::string> nodes;
    if (services.cluster)
        for (const auto& node : services.cluster->nodes())
            if (auto origin = normalise_origin(node.url)) {
                if (origin->starts_with("https://")) nodes.push_back("wss://" + origin->substr(8));
                else if (origin->starts_with("http://")) nodes.push_back("ws://" + origin->substr(7));
            }
    // The page's files: the built-in ones, or those read from --web-dir at the start.
    const web::Site& site = services.config.web_dir.empty() ? web::built_in() : web::site_from(services.config.web_dir);
    if (auto answer = answer_catalogues(web::catalogues(), request)) return std::move(*answer);
    if (auto answer = answer_service_worker(site, web::catalogues(), request)) return std::move(*answer);
    if (auto answer = answer_web(site, request, nodes)) return std::move(*answer);
    return text(404, "text/plain", std::string(kNotFound));
}

HttpAnswer answer_http(Services& services, std::string_view method, std::string_view target) {
    HttpRequest request;
    request.method = method;
    request.target = target;
    return answer_http(services, request);
}

}  // namespace spookludo::server
