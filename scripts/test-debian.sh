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
# What `make test` installs there (scripts/deps.sh test) can be installed
# ahead: --prepare makes a root with it (npm's cache filled too), cached
# beside the plain one and made again when scripts/deps.sh or
# package-lock.json change (CI makes it while other stages run).
# A run uses that root when it is there, the plain one otherwise.
#
#   scripts/test-debian.sh [SUITE] [MAKE TARGET...]   (default: trixie test)
#   scripts/test-debian.sh --prepare [SUITE]           only makes the cached root
set -euo pipefail
cd "$(dirname "$0")/.."
prepare_only=0
if [ "${1:-}" = --prepare ]; then
	prepare_only=1
	shift
fi
suite=${1:-trixie}
shift || true
[ $# -gt 0 ] || set -- test
[ "$(id -u)" -eq 0 ] || { echo "test-debian: needs root (chroot, mounts)" >&2; exit 1; }
scripts/deps.sh container >/dev/null
. scripts/debian-rootfs.sh
key=$(cat scripts/deps.sh package-lock.json | sha256sum | cut -c1-16)
prepared=$DROPJUDGE_CACHE/$suite-testdeps-$key.tar
if [ -f "$prepared" ]; then
	tarball=$prepared
	[ "$prepare_only" -eq 0 ] || exit 0
else
	tarball=$(debian_rootfs "$suite" test)
fi

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
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive NODE_EXTRA_CA_CERTS=/root/host-ca.crt CI="${CI:-}" "$@"
}
if [ "$prepare_only" -eq 1 ]; then
	mkdir -p "$root/root/prep/scripts"
	cp scripts/deps.sh "$root/root/prep/scripts/"
	cp package.json package-lock.json "$root/root/prep/"
	log=$DROPJUDGE_CACHE/$suite-testdeps.log
	in_root bash -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends make git >/dev/null &&
		cd /root/prep && scripts/deps.sh test && apt-get clean' >"$log" 2>&1 || { tail -n 20 "$log" >&2; exit 1; }
	rm -rf "$root/root/prep" "$root/root/.npmrc"
	for m in proc sys dev; do umount -l "$root/$m"; done
	mounted=()
	tar -C "$root" -cf "$prepared.tmp" . && mv "$prepared.tmp" "$prepared"
	exit 0
fi
git clone -q "$PWD" "$root/root/dropjudge"

echo "== make $* in a Debian $suite root ($(cat "$root/etc/debian_version"))"
in_root bash -c 'cd /root/dropjudge && apt-get update -qq && apt-get install -y -qq --no-install-recommends make git >/dev/null && make "$@"' make "$@"
