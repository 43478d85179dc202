# The Debian packages (docs/packaging.md), made by CPack's DEB generator from this build:
#
#   spookludo-server   the server, its systemd unit (enabled and started by the package, under the
#                      system user spookludo, games in /var/lib/spookludo), /etc/default/spookludo
#   spookludo          the terminal client
#
# scripts/package.sh builds them (build/release/packages/<name>_<version>-<release>_<arch>.deb);
# tests/packaging/install_test.sh installs, upgrades, removes and purges them in a clean Debian 12
# container. Versions come from project(VERSION) and SPOOKLUDO_DEB_RELEASE; the dependencies from
# the binaries (dpkg-shlibdeps), besides what the maintainer scripts and the unit run (adduser,
# procps's kill). The files made here at build time, from the programs themselves:
#   packaging/spookludo.default    /etc/default/spookludo: every SPOOKLUDO_* variable of
#                                  `spookludo-server --help`, commented, with its default
#   packaging/man/*.1.gz           the manual pages, by help2man from --help (when it is installed:
#                                  scripts/setup.sh package)
#   packaging/changelog.Debian.gz  packaging/debian/changelog, gzip -9n
set(SPOOKLUDO_DEB_RELEASE 1 CACHE STRING "The Debian revision of the packages (the -1 of 0.1.0-1)")
set(SPOOKLUDO_PACKAGE_MAINTAINER "SpookLudo maintainers <maintainers@users.noreply.a-seed-3f6a4bda.example>"
    CACHE STRING "The packages' Maintainer field (also the changelog's)")
find_program(SPOOKLUDO_HELP2MAN help2man)

set(debian_dir "${PROJECT_SOURCE_DIR}/packaging/debian")
set(made_dir "${PROJECT_BINARY_DIR}/packaging")
set(unit "${debian_dir}/spookludo-server.service")

add_custom_command(
  OUTPUT "${made_dir}/spookludo.default"
  COMMAND "${CMAKE_COMMAND}" -DSERVER=$<TARGET_FILE:spookludo-server> -DTEMPLATE=${debian_dir}/spookludo.default.in
          -DUNIT=${unit} -DOUT=${made_dir}/spookludo.default -P "${PROJECT_SOURCE_DIR}/cmake/defaults_file.cmake"
  DEPENDS spookludo-server "${debian_dir}/spookludo.default.in" "${unit}" "${PROJECT_SOURCE_DIR}/cmake/defaults_file.cmake"
  COMMENT "Writing /etc/default/spookludo from spookludo-server --help"
  VERBATIM)
add_custom_command(
  OUTPUT "${made_dir}/changelog.Debian.gz"
  COMMAND "${CMAKE_COMMAND}" -DGZIP=${SPOOKLUDO_GZIP} -DIN=${debian_dir}/changelog -DOUT=${made_dir}/changelog.Debian.gz
          -P "${PROJECT_SOURCE_DIR}/cmake/gzip_file.cmake"
  DEPENDS "${debian_dir}/changelog" "${PROJECT_SOURCE_DIR}/cmake/gzip_file.cmake"
  VERBATIM)
set(made_files "${made_dir}/spookludo.default" "${made_dir}/changelog.Debian.gz")

# man_page(TARGET NAME [SUBCOMMANDS]): packaging/man/<program>.1.gz
function(spookludo_man_page target name)
  set(out "${made_dir}/man/${target}.1.gz")
  set(subcommands OFF)
  if("SUBCOMMANDS" IN_LIST ARGN)
    set(subcommands ON)
  endif()
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -DHELP2MAN=${SPOOKLUDO_HELP2MAN} -DGZIP=${SPOOKLUDO_GZIP} -DPROGRAM=$<TARGET_FILE:${target}>
            "-DNAME=${name}" -DINCLUDE=${debian_dir}/${target}.h2m -DOUT=${out} -DSUBCOMMANDS=${subcommands}
            -P "${PROJECT_SOURCE_DIR}/cmake/man_page.cmake"
    DEPENDS ${target} "${debian_dir}/${target}.h2m" "${PROJECT_SOURCE_DIR}/cmake/man_page.cmake"
    COMMENT "Writing the manual page ${target}(1) with help2man"
    VERBATIM)
  set(made_files ${made_files} "${out}" PARENT_SCOPE)
endfunction()
if(SPOOKLUDO_HELP2MAN)
  file(MAKE_DIRECTORY "${made_dir}/man")
  spookludo_man_page(spookludo-server "the SpookLudo game server (Spook & Werewolf Ludo, Classic Ludo)")
  spookludo_man_page(spookludo "SpookLudo's terminal client: play, watch, bots, verify a game's record" SUBCOMMANDS)
else()
  message(STATUS "help2man not found: no manual pages, and no packages (scripts/setup.sh package installs it)")
endif()
add_custom_target(spookludo_package_files ALL DEPENDS ${made_files})

# ---- what each package holds -------------------------------------------------------------------
# Nothing is built by the installation (cpack): scripts/package.sh builds what it needs first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
if(NOT SPOOKLUDO_HELP2MAN)
  install(CODE [[message(FATAL_ERROR "no manual pages: help2man is missing (scripts/setup.sh package)")]])
endif()
# The changelog's latest entry is this version.
file(STRINGS "${debian_dir}/changelog" changelog_head LIMIT_COUNT 1)
set(deb_version "${PROJECT_VERSION}-${SPOOKLUDO_DEB_RELEASE}")
if(NOT changelog_head MATCHES "^spookludo \\(${deb_version}\\) ")
  install(CODE "message(FATAL_ERROR \"packaging/debian/changelog: its latest entry is not ${deb_version}: add one\")")
endif()

install(TARGETS spookludo-server RUNTIME DESTINATION bin COMPONENT server)
install(FILES "${unit}" DESTINATION lib/systemd/system COMPONENT server)
install(FILES "${made_dir}/spookludo.default" DESTINATION /etc/default RENAME spookludo COMPONENT server)
install(FILES "${debian_dir}/copyright" "${made_dir}/changelog.Debian.gz" "${debian_dir}/README.Debian"
        DESTINATION share/doc/spookludo-server COMPONENT server)
install(TARGETS spookludo RUNTIME DESTINATION bin COMPONENT client)
install(FILES "${debian_dir}/copyright" "${made_dir}/changelog.Debian.gz" DESTINATION share/doc/spookludo
        COMPONENT client)
if(SPOOKLUDO_HELP2MAN)
  install(FILES "${made_dir}/man/spookludo-server.1.gz" DESTINATION share/man/man1 COMPONENT server)
  install(FILES "${made_dir}/man/spookludo.1.gz" DESTINATION share/man/man1 COMPONENT client)
endif()

# ---- CPack: the DEB generator ------------------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR "")
set(CPACK_PACKAGE_NAME spookludo)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${SPOOKLUDO_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DIRECTORY "${PROJECT_BINARY_DIR}/packages")
set(CPACK_SET_DESTDIR ON)  # /etc/default/spookludo goes into the package, never this machine's /etc
set(CPACK_INSTALL_PREFIX /usr)  # with CPACK_SET_DESTDIR, the prefix the files are installed under
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL server client)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE "${SPOOKLUDO_DEB_RELEASE}")
set(CPACK_DEBIAN_PACKAGE_SOURCE spookludo)
set(CPACK_DEBIAN_PACKAGE_SECTION net)  # "games" is for programs in /usr/games, off root's PATH
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)

set(CPACK_DEBIAN_SERVER_PACKAGE_NAME spookludo-server)
# By hand, as debhelper's misc:Depends would: the maintainer scripts' adduser, the unit's kill.
set(CPACK_DEBIAN_SERVER_PACKAGE_DEPENDS "adduser, procps")
set(CPACK_DEBIAN_SERVER_PACKAGE_SUGGESTS spookludo)
set(CPACK_DEBIAN_SERVER_PACKAGE_CONTROL_EXTRA
    "${debian_dir}/conffiles;${debian_dir}/postinst;${debian_dir}/prerm;${debian_dir}/postrm")
set(CPACK_DEBIAN_SERVER_DESCRIPTION "game server for Spook & Werewolf Ludo and Classic Ludo
SpookLudo is a game night for players at their own computers or phones,
in one house or across the internet: Spook & Werewolf Ludo, a Halloween
race for 1 to 8 players, and Classic Ludo for 2 to 4. The server keeps
the rooms, rolls provably fair dice, checks every move, runs the clock
and plays bots; players join with a web browser (the page is built in)
or the terminal client, package spookludo.
.
This package runs the server as the systemd service spookludo-server,
under the system user spookludo: its games in /var/lib/spookludo, its
settings in /etc/default/spookludo, its log in the journal.")

set(CPACK_DEBIAN_CLIENT_PACKAGE_NAME spookludo)
set(CPACK_DEBIAN_CLIENT_DESCRIPTION "terminal client for Spook & Werewolf Ludo and Classic Ludo
The player's program of SpookLudo: it plays and watches games at a
SpookLudo server in the terminal, runs bot players, checks a finished
game's record (fair dice, every move, the result), lists a server's
history and replays its games, plays many games offline with bots, and
makes boards to print.")

include(CPack)
