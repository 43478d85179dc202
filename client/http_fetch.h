#pragma once
// Fetching a document from a server's HTTP side (a record for `verify`, the game list for
// `history`), over http:// or https:// (checked against --ca-file or the system's CA store),
// with every way it can fail said in words.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace spookludo::cli {

// Why the document could not be had (the commands' exit status 2).
struct FetchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The body of a 200 answer to GET `url` (http:// or https://), at most `max_bytes`.
// A 404 says `not_found` (worded by the caller; its {address} place is filled with `url`).
// Throws FetchError: a bad address, a --ca-file that cannot be used, no connection, a
// certificate that fails the check, a redirect to https://, any other status.
std::string fetch_text(const std::string& url, const std::string& ca_file, std::size_t max_bytes,
                       const std::string& not_found);

}  // namespace spookludo::cli
