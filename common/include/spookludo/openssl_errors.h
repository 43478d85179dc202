#pragma once
// OpenSSL's error queue in words, for the messages of the TLS code (server and clients).
#include <string>

namespace spookludo {

// Every error on this thread's OpenSSL error queue, "; "-separated (and the queue emptied), or
// "unknown OpenSSL error" when it is empty.
std::string openssl_errors();

}  // namespace spookludo
