#pragma once
// The web client's files, embedded into the program at build time from web/ (cmake/embed_web.cmake):
// each with its URL path, its bytes, a gzip copy when that is worth it, and a hash of its content.
#include <algorithm>
#include <span>
#include <string_view>

namespace spookludo::server::web {

struct File {
    std::string_view path;  // the URL path: "/" + the file's path under web/, e.g. "/js/app.js"
    std::string_view body;
    std::string_view gzip;  // `gzip -9 -n` of body, empty when it saves less than 5%
    std::string_view hash;  // 16 hex digits of the body's SHA-256 (the ETag)
};

struct Site {
    std::span<const File> files;  // sorted by path
    // 12 hex digits of a hash of every file but those at their own address only (below): those
    // files are also served under /v/<bundle>/ (cached for good), and the absolute URLs naming
    // them in the site's .html, .css, .js, .mjs and .webmanifest files were rewritten to those names.
    std::string_view bundle;

    const File* find(std::string_view path) const {
        const auto it = std::lower_bound(files.begin(), files.end(), path,
                                         [](const File& f, std::string_view p) { return f.path < p; });
        return it != files.end() && it->path == path ? &*it : nullptr;
    }
};

// Whether the file at `path` ("/index.html") is served at its own address only, never under
// /v/<bundle>/, and left out of the bundle's hash: the pages (.html), the web app manifest
// (.webmanifest: an installed app knows it by its address) and the service worker (/sw.js: its
// address is its identity and its scope). cmake/embed_web.cmake keeps the same list.
inline bool at_own_address_only(std::string_view path) {
    return path.ends_with(".html") || path.ends_with(".webmanifest") || path == "/sw.js";
}

// The site built from the repository's web/.
const Site& built_in();
// The language catalogues built from the repository's po/ (GNU gettext): "/<lang>.po" for each
// language, "/spookludo.pot" the template (CMake library spookludo_catalogues).
const Site& catalogues();

}  // namespace spookludo::server::web
