# Compresses IN into OUT with `gzip -9n` (no name, no time stamp: the same bytes every time), as
# Debian's packages ship changelogs and manual pages (run by cmake -P). Inputs (-D): GZIP, IN, OUT.
cmake_minimum_required(VERSION 3.25)
file(REMOVE "${OUT}")
execute_process(COMMAND "${GZIP}" -9n -c "${IN}" OUTPUT_FILE "${OUT}" COMMAND_ERROR_IS_FATAL ANY)
