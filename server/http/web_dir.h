#pragma once
// A web site read from a directory when the server starts (--web-dir), rather than the one built
// into the program: the same files at the same addresses, with the same hashes, bundle and
// rewritten URLs as cmake/embed_web.cmake makes for the built-in one (no gzip copies: served
// plain). For a host who serves a changed copy of the page, and for the tests of an upgrade.
#include <memory>
#include <string>

namespace spookludo::server::web {

struct Site;

// The most a directory may hold: files, and bytes in all.
inline constexpr std::size_t kMaxSiteFiles = 2000;
inline constexpr std::size_t kMaxSiteBytes = 64u << 20;

// Every file under `dir` but hidden ones (a name starting with '.', or in such a folder), as
// embed_web.cmake reads web/. Throws std::runtime_error saying why when the directory cannot be
// read, holds nothing, holds more than the bounds above, or holds a file whose path has other
// characters than letters, digits, '_', '-', '.' and '/', or takes one of the server's own routes.
std::shared_ptr<const Site> read_site(const std::string& dir);

// The site read from `dir`, read once (read_site) and kept for the process's life: the same
// object for every call with the same `dir`. Throws as read_site does.
const Site& site_from(const std::string& dir);

}  // namespace spookludo::server::web
