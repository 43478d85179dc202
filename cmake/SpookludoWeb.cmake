# spookludo_embed_web(TARGET DIR FUNCTION): a static library holding every file under DIR (hidden
# files left out), made by cmake/embed_web.cmake at build time, reached through
# `const spookludo::server::web::Site& spookludo::server::web::FUNCTION()` (server/http/web_site.h).
# No Node and nothing downloaded: CMake and Debian's gzip. A file added, changed or removed under
# DIR rebuilds it (the glob is checked at every build).
find_program(SPOOKLUDO_GZIP gzip REQUIRED)

function(spookludo_embed_web target dir function)
  file(GLOB_RECURSE found CONFIGURE_DEPENDS LIST_DIRECTORIES false RELATIVE "${dir}" "${dir}/*")
  set(files "")
  set(list_text "")
  foreach(rel IN LISTS found)
    if(rel MATCHES "(^|/)\\.")  # hidden files and folders
      continue()
    endif()
    if(NOT rel MATCHES "^[A-Za-z0-9_./-]+$" OR rel MATCHES "(^|/)\\.\\.?(/|$)")
      message(FATAL_ERROR "${dir}/${rel}: a web file's path may hold only letters, digits, '_', '-', '.' and '/'")
    endif()
    if(rel MATCHES "^(healthz|metrics|ws|records/.*|analysis/.*|r/.*|tv/.*|replay/.*|history|history/.*|v/.*|i18n/.*)$")
      message(FATAL_ERROR "${dir}/${rel}: the server's own routes use this path (/healthz, /metrics, /ws, /records/, /analysis/, /r/, /tv/, /replay/, /history, /v/, /i18n/)")
    endif()
    list(APPEND files "${dir}/${rel}")
    string(APPEND list_text "${rel}\n")
  endforeach()
  set(work "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  # The list of files, rewritten only when it changes: a file removed rebuilds the site too.
  file(CONFIGURE OUTPUT "${work}.files" CONTENT "${list_text}")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -DWEB_DIR=${dir} -DLIST_FILE=${work}.files -DOUT=${out} -DWORK_DIR=${work}
            -DGZIP=${SPOOKLUDO_GZIP} -DFUNCTION=${function} -P "${PROJECT_SOURCE_DIR}/cmake/embed_web.cmake"
    DEPENDS ${files} "${work}.files" "${PROJECT_SOURCE_DIR}/cmake/embed_web.cmake"
    COMMENT "Embedding the web files of ${dir}"
    VERBATIM)
  add_library(${target} STATIC "${out}")
  target_include_directories(${target} PUBLIC "${PROJECT_SOURCE_DIR}/server/http")
  target_compile_features(${target} PUBLIC cxx_std_20)
endfunction()
