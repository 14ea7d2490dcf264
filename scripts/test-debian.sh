#!/usr/bin/env bash
# `make test` of this checkout in a pristine Debian root of another release
# (default trixie, Debian 13), as a new user would run it there: the root
# comes from scripts/debian-rootfs.sh (cached), the committed tree is
# cloned into it, and `make test` installs what it needs with apt-get and
# npm inside. /proc, /sys and /dev are bound for Chromium and npm; the
# machine's CA bundle is given to npm (NODE_EXTRA_CA_CERTS). On exit the
# binds are undone before the root is removed, and it is removed without
# crossing into another file system, so the machine's /dev is never
# touched. As root.
#
#   scripts/test-debian.sh [SUITE] [MAKE TARGET...]   (default: trixie test)
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${1:-trixie}
shift || true
[ $# -gt 0 ] || set -- test
[ "$(id -u)" -eq 0 ] || { echo "test-debian: needs root (chroot, mounts)" >&2; exit 1; }
scripts/deps.sh container >/dev/null
. scripts/debian-rootfs.sh
tarball=$(debian_rootfs "$suite" test)

root=$(mktemp -d /var/tmp/dropjudge-$suite.XXXXXX)
mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[i]}" 2>/dev/null || true
	done
	# Nothing may still be mounted below the root when it is removed.
	if ! grep -q " $root/" /proc/mounts; then
		rm -rf --one-file-system "$root"
	else
		echo "test-debian: $root still has mounts; left in place" >&2
	fi
}
trap cleanup EXIT
tar -C "$root" -xf "$tarball"
for m in proc sys dev; do
	mount --bind "/$m" "$root/$m"
	mounted+=("$root/$m")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$root/root/host-ca.crt"
[ -f "$HOME/.npmrc" ] && cp "$HOME/.npmrc" "$root/root/.npmrc"
git clone -q "$PWD" "$root/root/dropjudge"

echo "== make $* in a Debian $suite root ($(cat "$root/etc/debian_version"))"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	LANG=C.UTF-8 NODE_EXTRA_CA_CERTS=/root/host-ca.crt CI="${CI:-}" \
	bash -c 'cd /root/dropjudge && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends make git >/dev/null && make "$@"' make "$@"
