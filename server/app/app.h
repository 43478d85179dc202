#pragma once
namespace spookludo::server {
// Parses flags (and SPOOKLUDO_* variables), runs the server until SIGINT/SIGTERM; exit status.
int run_app(int argc, char** argv);
}  // namespace spookludo::server
