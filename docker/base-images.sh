#!/usr/bin/env bash
# Makes the base images debian:bookworm and debian:bookworm-slim (docker.io/library/..., the names
# docker/Dockerfile's FROM lines use) from Debian's own packages with debootstrap, once: an image
# already there is kept. Used by docker/test-image.sh and tests/packaging/install_test.sh, as root,
# on machines without a Docker engine or a registry (buildah and podman, scripts/setup.sh image).
# Environment: SPOOKLUDO_REBUILD_BASE=1 makes them again.
set -euo pipefail
case "${1:-}" in
  -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

# One at a time: the image test and the packages' install test may ask at the same moment (CI).
exec 9>/tmp/spookludo-base-images.lock
flock 9
have_image() { buildah inspect --type image "$1" >/dev/null 2>&1; }
bases=(docker.io/library/debian:bookworm docker.io/library/debian:bookworm-slim)
need_base=0
for b in "${bases[@]}"; do
  if [ "${SPOOKLUDO_REBUILD_BASE:-0}" = 1 ] || ! have_image "$b"; then need_base=1; fi
done
if [ $need_base = 0 ]; then
  echo "ok:   present: ${bases[*]}"
  exit 0
fi

t0=$(date +%s)
work=$(mktemp -d /tmp/spookludo-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
echo "debootstrap --variant=minbase bookworm (about a minute) ..."
if ! nice -n 10 debootstrap --variant=minbase bookworm "$rootfs" >"$work/debootstrap.log" 2>&1; then
  tail -20 "$work/debootstrap.log" >&2
  echo "FAIL: debootstrap" >&2
  exit 1
fi
# As Debian's own images: no downloaded packages or package lists.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
import() {  # import TAG: the root file system as the image TAG
  if ! tar -C "$rootfs" -c . | podman import - "$1" >"$work/import.log" 2>&1; then
    cat "$work/import.log" >&2
    echo "FAIL: podman import $1" >&2
    exit 1
  fi
}
import docker.io/library/debian:bookworm
# The slim variant, like debian:bookworm-slim: no documentation, manuals or translations, and
# dpkg told to leave them out of packages installed later.
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
find "$rootfs/usr/share/doc" -mindepth 1 ! -name copyright ! -type d -delete
find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/lintian/*
find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
import docker.io/library/debian:bookworm-slim
echo "ok:   made ${bases[*]} in $(( $(date +%s) - t0 )) s"
