#!/usr/bin/env bash
# Builds the Debian packages from the release build (CPack's DEB generator, cmake/SpookludoPackage.cmake;
# docs/packaging.md):
#
#   scripts/package.sh
#
#   build/release/packages/spookludo-server_<version>-<release>_<arch>.deb   the server, as a systemd service
#   build/release/packages/spookludo_<version>-<release>_<arch>.deb          the terminal client
#
# Install them with `apt install ./build/release/packages/*.deb` (as root). It first installs what
# packaging needs (scripts/setup.sh package: help2man, lintian, dpkg-dev, file) and builds the two
# programs, their manual pages and /etc/default/spookludo in build/release.
# Environment: SPOOKLUDO_NO_BUILD=1 packs build/release as it is, building nothing (CI, once the
# release build is done), SOURCE_DATE_EPOCH (the files' time; default: the last commit's).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "package.sh: no arguments ('$1'); see --help" >&2; exit 2 ;;
esac

scripts/setup.sh package
if [ "${SPOOKLUDO_NO_BUILD:-0}" != 1 ]; then
  scripts/build.sh release spookludo-server spookludo spookludo_package_files
fi
[ -f build/release/CPackConfig.cmake ] || { echo "package.sh: no release build (scripts/build.sh release)" >&2; exit 1; }

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH
rm -rf build/release/packages
log=build/release/cpack.log
if ! (cd build/release && cpack -G DEB) >"$log" 2>&1; then
  tail -30 "$log" >&2
  echo "package.sh: cpack failed (its log: $log)" >&2
  exit 1
fi
for deb in build/release/packages/*.deb; do
  printf '%s  %s KB\n' "$deb" "$(( $(stat -c %s "$deb") / 1024 ))"
done
