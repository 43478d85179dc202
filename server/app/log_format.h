#pragma once
// The server's log lines: on a terminal or in a file, a timestamp and the level; under systemd
// (its standard output is the journal's stream), each line starts with its syslog priority
// (<3> error .. <7> debug) and no timestamp, so that journalctl shows and filters the levels
// (`journalctl -u spookludo-server -p warning`) and stamps the time itself.
namespace spookludo::server {

// True when standard output is the journal's stream: systemd sets JOURNAL_STREAM to its
// "device:inode", which must be what file descriptor 1 is (a child that inherited the variable
// but writes elsewhere is not).
bool stdout_is_journal();

// Sets spdlog's default logger's format as above.
void set_log_format();

}  // namespace spookludo::server
