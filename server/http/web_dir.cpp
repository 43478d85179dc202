#include "web_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <stdexcept>
#include <vector>

#include "spookludo/fair_dice.h"
#include "web_site.h"

namespace spookludo::server::web {

namespace {

namespace fs = std::filesystem;

// A site that owns its files' bytes (the built-in one points into the program).
struct OwnedSite : Site {
    std::vector<std::string> paths, bodies, hashes;
    std::vector<File> list;
    std::string bundle_text;
};

// The paths the server's own routes take (cmake/SpookludoWeb.cmake refuses the same).
const std::regex& reserved() {
    static const std::regex re(
        "^(healthz|metrics|ws|records/.*|analysis/.*|r/.*|tv/.*|replay/.*|history|history/.*|v/.*|i18n/.*)$");
    return re;
}

bool allowed_path(const std::string& rel) {
    if (rel.empty() || !std::all_of(rel.begin(), rel.end(), [](char c) {
            return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                   c == '/' || c == '-';
        }))
        return false;
    return rel.find("//") == std::string::npos && rel.find("/./") == std::string::npos &&
           rel.find("/../") == std::string::npos;
}

bool rewritten(std::string_view rel) {
    for (const std::string_view ext : {".html", ".css", ".js", ".mjs", ".webmanifest"})
        if (rel.ends_with(ext)) return true;
    return false;
}

// Every absolute URL of `text` that names one of `versioned` exactly, right after a quote or '('
// and followed by a quote, ')', '?' or '#', as its /v/<bundle>/ name (embed_web.cmake's rule).
std::string rewrite(std::string_view text, const std::set<std::string, std::less<>>& versioned,
                    std::string_view bundle) {
    const auto before = [](char c) { return c == '"' || c == '\'' || c == '('; };
    const auto after = [](char c) { return c == '"' || c == '\'' || c == ')' || c == '?' || c == '#'; };
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        out += text[i];
        if (before(text[i]) && i + 1 < text.size() && text[i + 1] == '/') {
            std::size_t end = i + 2;
            while (end < text.size() && !after(text[end]) && end - i < 1100) ++end;
            const std::string_view name = text.substr(i + 2, end - i - 2);
            if (end < text.size() && after(text[end]) && versioned.count(name)) {
                out.append("/v/").append(bundle).append("/").append(name);
                i = end;  // the closing character may open the next URL
                continue;
            }
        }
        ++i;
    }
    return out;
}

}  // namespace

std::shared_ptr<const Site> read_site(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir + " is not a directory");
    std::map<std::string, std::string> files;  // its path under dir -> its content, sorted as cmake sorts
    std::size_t bytes = 0;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && name.front() == '.') {  // hidden files and folders
            if (it->is_directory(ec)) it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file(ec)) continue;
        const std::string rel = fs::relative(it->path(), dir, ec).generic_string();
        if (!allowed_path(rel))
            throw std::runtime_error(it->path().string() +
                                     ": a web file's path may hold only letters, digits, '_', '-', '.' and '/'");
        if (std::regex_match(rel, reserved()))
            throw std::runtime_error(it->path().string() +
                                     ": the server's own routes use this path (/healthz, /metrics, "
                                     "/ws, /records/, /analysis/, /r/, /tv/, /replay/, /history, "
                                     "/v/, /i18n/)");
        if (files.size() >= kMaxSiteFiles)
            throw std::runtime_error(dir + " holds more than " + std::to_string(kMaxSiteFiles) + " files");
        const auto size = it->file_size(ec);
        if (ec || size > kMaxSiteBytes - bytes)
            throw std::runtime_error(dir + " holds more than " + std::to_string(kMaxSiteBytes >> 20) + " MB");
        std::ifstream in(it->path(), std::ios::binary);
        std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) throw std::runtime_error(it->path().string() + " cannot be read");
        bytes += body.size();
        files.emplace(rel, std::move(body));
    }
    if (ec) throw std::runtime_error(dir + " cannot be read: " + ec.message());
    if (files.empty()) throw std::runtime_error(dir + " holds no file");

    auto site = std::make_shared<OwnedSite>();
    std::string manifest;  // the bundle's input: each versioned file's path and SHA-256, a line each
    std::set<std::string, std::less<>> versioned;
    for (const auto& [rel, body] : files)
        if (!at_own_address_only("/" + rel)) {
            manifest += rel + "\n" + sha256_hex(body) + "\n";
            versioned.insert(rel);
        }
    site->bundle_text = sha256_hex(manifest).substr(0, 12);
    for (const auto& [rel, body] : files) {
        site->paths.push_back("/" + rel);
        site->bodies.push_back(rewritten(rel) ? rewrite(body, versioned, site->bundle_text) : body);
        site->hashes.push_back(sha256_hex(site->bodies.back()).substr(0, 16));
    }
    for (std::size_t i = 0; i < site->paths.size(); ++i)
        site->list.push_back(File{site->paths[i], site->bodies[i], {}, site->hashes[i]});
    site->files = site->list;
    site->bundle = site->bundle_text;
    return site;
}

const Site& site_from(const std::string& dir) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const Site>> read;  // one entry per directory named
    std::lock_guard lock(mutex);
    auto& site = read[dir];
    if (!site) {
        try {
            site = read_site(dir);
        } catch (...) {
            read.erase(dir);
            throw;
        }
    }
    return *site;
}

}  // namespace spookludo::server::web
