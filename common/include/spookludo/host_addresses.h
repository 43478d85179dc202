#pragma once
// This machine's addresses as others see them: the server's `welcome` (lan_urls) and the
// terminal client's join command both say where a party's guests reach a server that was
// opened on loopback, since 127.0.0.1 means nothing to anyone else.
#include <string>
#include <vector>

namespace spookludo {

// localhost, 127.0.0.0/8, ::1.
bool is_loopback_host(const std::string& host);
// The IPv4 addresses of this machine's interfaces that are up, loopback ones left out
// (getifaddrs), in the order the system lists them, without repeats.
std::vector<std::string> lan_ipv4_addresses();
// True inside a container (Docker's /.dockerenv, Podman's /run/.containerenv): the interfaces'
// addresses there are the container's own, which nobody outside can reach.
bool in_container();

}  // namespace spookludo
