#pragma once
// The command others type to join a room, for the host's lobby (and a spectator's, as the demo's
// screen): "join with: spookludo play ws://HOST:PORT --room CODE --name YOUR_NAME", built from
// the address this client connected with. Only when that is a loopback address (the host plays
// on the server's machine) does it list the machine's LAN IPv4 addresses instead, since
// 127.0.0.1 means nothing to anyone else; the loopback command stays for this machine.
#include <string>
#include <vector>

#include "net.h"

namespace spookludo::client {

bool is_loopback_host(const std::string& host);
// The machine's IPv4 addresses of interfaces that are up, loopback ones left out (getifaddrs).
std::vector<std::string> lan_ipv4_addresses();
// The hint's lines (at most four); `lan` is lan_ipv4_addresses() unless a test gives its own.
std::vector<std::string> join_hint_lines(const Url& url, const std::string& room, const std::vector<std::string>& lan);
std::vector<std::string> join_hint_lines(const Url& url, const std::string& room);

}  // namespace spookludo::client
