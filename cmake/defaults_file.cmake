# Writes the service's settings file, /etc/default/spookludo, from `spookludo-server --help` (run by
# cmake -P from cmake/SpookludoPackage.cmake): every option the help shows with an environment
# variable, `(Env:SPOOKLUDO_...)`, becomes a commented block
#
#   # --port: TCP port for HTTP and WebSocket (0: any free port)
#   # Default: 7777
#   #SPOOKLUDO_PORT=7777
#
# after the header of TEMPLATE (its @SETTINGS@ line replaced by the blocks). Nothing is set: the
# program's own defaults apply until an operator uncomments a line. A variable the systemd unit
# UNIT sets itself (Environment=NAME=VALUE) shows the unit's value as its default.
#
# Inputs (-D): SERVER (the spookludo-server program), TEMPLATE, OUT, UNIT (the .service file).
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND "${SERVER}" --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${SERVER} --help failed (${status})")
endif()

set(service_names "")
file(STRINGS "${UNIT}" unit_settings REGEX "^Environment=[A-Z0-9_]+=")
foreach(setting IN LISTS unit_settings)
  string(REGEX MATCH "^Environment=([A-Z0-9_]+)=(.*)$" _ "${setting}")
  list(APPEND service_names "${CMAKE_MATCH_1}")
  set(service_value_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
endforeach()

# "# " and TEXT wrapped at 99 columns, into the variable OUT_VAR.
function(comment_wrapped text out_var)
  string(REGEX MATCHALL "[^ ]+" words "${text}")
  set(result "")
  set(line "#")
  foreach(word IN LISTS words)
    string(LENGTH "${line} ${word}" length)
    if(length GREATER 99 AND NOT line STREQUAL "#")
      string(APPEND result "${line}\n")
      set(line "#")
    endif()
    string(APPEND line " ${word}")
  endforeach()
  set(${out_var} "${result}${line}\n" PARENT_SCOPE)
endfunction()

# The options: a line "  --name SPEC (Env:NAME)" (its description after it on the same line when
# short enough), then the description's lines, indented.
# Semicolons, list separators to CMake, are kept aside as the unit separator (0x1F) meanwhile.
string(ASCII 31 semicolon)
string(REPLACE ";" "${semicolon}" help "${help}")
string(REPLACE "\n" ";" lines "${help}")
set(names "")
set(current "")
foreach(line IN LISTS lines)
  if(line MATCHES "^  (-[^ ]+)(.*)$")
    set(current "")
    set(flag "${CMAKE_MATCH_1}")
    set(rest "${CMAKE_MATCH_2}")
    if(NOT rest MATCHES "^(.*) \\(Env:([A-Z0-9_]+)\\)(.*)$")
      continue()
    endif()
    set(spec "${CMAKE_MATCH_1}")
    set(current "${CMAKE_MATCH_2}")
    string(STRIP "${CMAKE_MATCH_3}" description)
    string(REGEX REPLACE "^.*,(--)" "\\1" flag "${flag}")  # "-p,--port": the long name
    string(STRIP "${spec}" spec)
    list(APPEND names "${current}")
    set(flag_${current} "${flag}")
    set(spec_${current} "${spec}")
    set(description_${current} "${description}")
  elseif(current AND line MATCHES "^    +([^ ].*)$")
    string(APPEND description_${current} " ${CMAKE_MATCH_1}")
  else()
    set(current "")
  endif()
endforeach()
if(NOT names)
  message(FATAL_ERROR "no (Env:...) option in `${SERVER} --help`: has its format changed?")
endif()

set(settings "")
foreach(name IN LISTS names)
  set(spec "${spec_${name}}")
  comment_wrapped("${flag_${name}}: ${description_${name}}" block)
  if(spec STREQUAL "")  # a flag: on when set to 1 (or true)
    set(default "off (1 turns it on)")
    set(value "1")
  elseif(spec MATCHES "=([^=]*)$")
    set(value "${CMAKE_MATCH_1}")
    set(default "${value}")
  else()
    set(value "")
    set(default "none")
  endif()
  if(spec MATCHES "in \\[([^] ]+) - ([^] ]+)\\]")
    string(APPEND default " (from ${CMAKE_MATCH_1} to ${CMAKE_MATCH_2})")
  elseif(spec MATCHES ":\\{([^}]*)\\}")
    string(REPLACE "," ", " choices "${CMAKE_MATCH_1}")
    string(APPEND default " (one of ${choices})")
  endif()
  set(default_line "Default: ${default}")
  if(name IN_LIST service_names)
    set(value "${service_value_${name}}")
    set(default_line "Default for the service: ${value}, which its unit sets (the program's own default: ${default})")
  endif()
  comment_wrapped("${default_line}" default_block)
  string(APPEND settings "\n${block}${default_block}#${name}=${value}\n")
endforeach()

file(READ "${TEMPLATE}" text)
string(REPLACE "@SETTINGS@\n" "${settings}" text "${text}")
string(REPLACE "${semicolon}" ";" text "${text}")
file(WRITE "${OUT}" "${text}")
