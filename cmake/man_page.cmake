# Makes a program's manual page from its --help and --version with Debian's help2man, compressed
# with `gzip -9n` (no name, no time stamp), as Debian's packages ship them (run by cmake -P from
# cmake/SpookludoPackage.cmake). help2man turns the help's sections ("Options:", "Subcommands:",
# "Exit status:") into the page's; INCLUDE adds the hand-written ones (FILES, SEE ALSO, ...).
# With SUBCOMMANDS, each subcommand's own --help follows, as printed, in a section of its own.
#
# Inputs (-D): HELP2MAN, GZIP, PROGRAM, NAME (the one-line description), INCLUDE (a help2man
# include file), OUT (the .1.gz file), SUBCOMMANDS (ON or OFF).
cmake_minimum_required(VERSION 3.25)

get_filename_component(out_dir "${OUT}" DIRECTORY)
get_filename_component(program_name "${PROGRAM}" NAME)
set(page "${out_dir}/${program_name}.1")
set(includes --include "${INCLUDE}")

if(SUBCOMMANDS)
  execute_process(COMMAND "${PROGRAM}" --help OUTPUT_VARIABLE help COMMAND_ERROR_IS_FATAL ANY)
  string(ASCII 31 semicolon)
  string(REPLACE ";" "${semicolon}" help "${help}")
  string(REPLACE "\n" ";" lines "${help}")
  set(in_list OFF)
  set(text "[COMMANDS IN DETAIL]\n")
  foreach(line IN LISTS lines)
    if(line STREQUAL "Subcommands:")
      set(in_list ON)
    elseif(in_list AND line MATCHES "^  ([a-z][a-z0-9-]*)  ")
      set(command "${CMAKE_MATCH_1}")
      execute_process(COMMAND "${PROGRAM}" ${command} --help OUTPUT_VARIABLE command_help COMMAND_ERROR_IS_FATAL ANY)
      # As printed, in roff: no filling, backslashes escaped, no line read as a request.
      string(REPLACE "\\" "\\e" command_help "${command_help}")
      string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" command_help "${command_help}")
      string(APPEND text ".SS \"${program_name} ${command}\"\n.nf\n${command_help}.fi\n")
    elseif(in_list AND NOT line MATCHES "^  ")
      set(in_list OFF)
    endif()
  endforeach()
  string(REPLACE "${semicolon}" ";" text "${text}")
  file(WRITE "${out_dir}/${program_name}.commands.h2m" "${text}")
  list(APPEND includes --include "${out_dir}/${program_name}.commands.h2m")
endif()

execute_process(
  COMMAND "${HELP2MAN}" --no-info --section=1 "--name=${NAME}" ${includes} "--output=${page}" "${PROGRAM}"
  RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "help2man ${PROGRAM} failed (${status}): ${errors}")
endif()
file(REMOVE "${OUT}")
execute_process(COMMAND "${GZIP}" -9n -c "${page}" OUTPUT_FILE "${OUT}" COMMAND_ERROR_IS_FATAL ANY)
