#!/usr/bin/env bash
# Installs what SpookLudo needs from Debian 12's own packages. Idempotent: packages that are
# already installed are left alone and apt is not touched at all when nothing is missing.
#
#   scripts/setup.sh build     compilers, CMake, Ninja, ccache and the -dev libraries
#   scripts/setup.sh runtime   only the shared libraries the programs load (the Docker image)
#   scripts/setup.sh test      build + what the test suites use (python3-wsproto: the
#                              WebSocket conformance suite, tests/conformance; openssl: the
#                              TLS tests make their certificates and probe versions;
#                              python3-websockets: a third-party wss:// client; chromium, node
#                              and npm, zbar-tools: the web client's browser tests, tests/web,
#                              whose npm packages it installs with `npm ci` when missing or
#                              older than the lock file; poppler-utils: pdftotext and pdfinfo
#                              read the printed boards' PDFs; redis-server: the cluster's tests start
#                              their own, tests/cluster; gettext: xgettext, msgmerge and msgfmt check
#                              the language catalogues, po/ and scripts/po-update.sh), and fuzz
#   scripts/setup.sh fuzz      clang, its libFuzzer runtime and llvm-symbolizer (scripts/fuzz.sh)
#   scripts/setup.sh all       everything above
#   scripts/setup.sh image     podman, buildah, debootstrap, uidmap, python3 and openssl: building and
#                              testing the Docker image without a Docker engine (docker/test-image.sh),
#                              and the Debian packages' install test (tests/packaging/install_test.sh)
#   scripts/setup.sh package   help2man (the manual pages), dpkg-dev (dpkg-shlibdeps: the packages'
#                              dependencies), file, lintian: the Debian packages (scripts/package.sh)
set -euo pipefail

mode=${1:-all}

build_pkgs=(g++ cmake ninja-build ccache pkg-config
            libboost1.81-dev nlohmann-json3-dev doctest-dev libcli11-dev libspdlog-dev libssl-dev libqrencode-dev libsqlite3-dev libhiredis-dev)
runtime_pkgs=(libssl3 libspdlog1.10 libfmt9 libqrencode4 libsqlite3-0 libhiredis0.14 ca-certificates)
test_pkgs=(python3 python3-wsproto python3-websockets openssl coreutils chromium zbar-tools poppler-utils e2fsprogs mount util-linux
           redis-server gettext)
fuzz_pkgs=(clang libclang-rt-14-dev llvm)
image_pkgs=(podman buildah debootstrap uidmap python3 openssl)
package_pkgs=(help2man dpkg-dev file lintian)

case "$mode" in
  build)   want=("${build_pkgs[@]}") ;;
  runtime) want=("${runtime_pkgs[@]}") ;;
  test)    want=("${build_pkgs[@]}" "${test_pkgs[@]}" "${fuzz_pkgs[@]}") ;;
  fuzz)    want=("${fuzz_pkgs[@]}") ;;
  all)     want=("${build_pkgs[@]}" "${runtime_pkgs[@]}" "${test_pkgs[@]}" "${fuzz_pkgs[@]}") ;;
  image)   want=("${image_pkgs[@]}") ;;
  package) want=("${package_pkgs[@]}") ;;
  -h|--help)
    sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  *) echo "setup.sh: unknown mode '$mode' (use build, runtime, test, fuzz, all, image or package)" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
# The browser tests run on node (any node on the PATH will do: it may come from elsewhere than
# Debian) and install their packages with npm.
if [ "$mode" = test ] || [ "$mode" = all ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi

# tests/web's npm packages (playwright-core, pinned by its package-lock.json): `npm ci` when they
# are missing or older than the lock file.
web_packages() {
  case "$mode" in test|all) ;; *) return 0 ;; esac
  local dir
  dir="$(cd "$(dirname "$0")/.." && pwd)/tests/web"
  [ -f "$dir/package-lock.json" ] || return 0
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules" ]; then
    echo "setup.sh ($mode): npm ci in tests/web"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error && touch node_modules)
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh ($mode): everything is installed"
  web_packages
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: these packages are missing and installing them needs root: ${missing[*]}" >&2
  exit 1
fi

echo "setup.sh ($mode): installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
web_packages
