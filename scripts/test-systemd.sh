#!/usr/bin/env bash
# make test-systemd: the Debian package as an operator gets it. In the
# Debian 13 root that make test-debian13 uses (scripts/debian-rootfs.sh,
# cached), `make deb` builds the package (lintian without errors); the
# root, with systemd and the package installed, becomes a podman image run
# with systemd as PID 1 (--systemd=always). There: dropjudge.socket is
# enabled and listening from boot with the service not started; the public
# examples of both problems (tests/cases) are sent through the socket and
# start the service (socket activation) and are answered right; the units
# pass `systemd-analyze verify`, the service rates 2.0 or better in
# `systemd-analyze security`; `systemctl stop` drains and ends it cleanly
# (status 0, result success, the drain and stop lines in the journal).
# Prints the time of each step. As root.
#
#   scripts/test-systemd.sh DIR    (work files, logs and the podman store in
#                                   DIR; make gives BUILD/container/systemd,
#                                   which its search for dependency files skips)
#   scripts/test-systemd.sh --prepare DIR   only makes the cached root (CI
#                                   makes it ahead, while other stages run)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "test-systemd: needs root (chroot, podman)" >&2; exit 1; }
prepare_only=0
if [ "${1:-}" = --prepare ]; then
	prepare_only=1
	shift
fi
mkdir -p "$1"
dir=$(cd "$1" && pwd)
failures=0
t0=$(date +%s.%N)
step_start=$t0
calc() { awk "BEGIN { print $1 }"; }
step() {
	local now
	now=$(date +%s.%N)
	[ -z "${step_name:-}" ] || printf '   %-52s %6.1f s\n' "$step_name" "$(calc "$now - $step_start")"
	step_name=$1
	step_start=$now
}
fail() { echo "   FAIL  $*"; failures=$((failures + 1)); }
ok() { echo "   ok    $*"; }

step "Debian 13 root with systemd and build tools (cached)"
. scripts/container-lib.sh
# The root of make test-debian13 with what building the package and running
# systemd take, cached beside it: made again when debian/control or
# scripts/deps.sh (which install those) change.
key=$(cat debian/control scripts/deps.sh | sha256sum | cut -c1-16)
prepared=$DROPJUDGE_CACHE/trixie-systemd-$key.tar
root=$(mktemp -d /var/tmp/dropjudge-systemd.XXXXXX)
mounted=()
cid=
cleanup() {
	local i
	[ -z "$cid" ] || podman rm -f -t 0 "$cid" >/dev/null 2>&1 || true
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
	if ! grep -q " $root/" /proc/mounts; then rm -rf --one-file-system "$root"; else echo "test-systemd: $root still has mounts; left in place" >&2; fi
}
trap cleanup EXIT
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
mount_root() {
	for m in proc sys dev; do
		mount --bind "/$m" "$root/$m"
		mounted+=("$root/$m")
	done
	cp /etc/resolv.conf "$root/etc/resolv.conf"
}
if [ -f "$prepared" ]; then
	tar -C "$root" -xf "$prepared"
	mount_root
else
	tar -C "$root" -xf "$(debian_rootfs trixie test)"
	mount_root
	mkdir -p "$root/root/prep/scripts" "$root/root/prep/debian"
	cp scripts/deps.sh "$root/root/prep/scripts/"
	cp debian/control "$root/root/prep/debian/"
	in_root bash -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends make git curl systemd systemd-sysv dbus >/dev/null &&
		cd /root/prep && scripts/deps.sh deb >/dev/null && apt-get build-dep -y -qq --no-install-recommends ./ >/dev/null && apt-get clean' \
		>"$dir/apt.log" 2>&1 || { tail -n 20 "$dir/apt.log" >&2; exit 1; }
	rm -rf "$root/root/prep"
	tar -C "$root" --exclude=./proc/* --exclude=./sys/* --exclude=./dev/* -cf "$prepared.tmp" . && mv "$prepared.tmp" "$prepared"
fi
[ "$prepare_only" -eq 0 ] || exit 0
git clone -q "$PWD" "$root/root/dropjudge"
# The working tree as it is (changes and new files), so that what is tested
# is what is here.
git ls-files -z --cached --others --exclude-standard | grep -zv '^node_modules$' |
	xargs -0 tar -c --no-recursion -f - 2>/dev/null | tar -C "$root/root/dropjudge" -xf -

step "make deb (dpkg-buildpackage, lintian)"
if in_root bash -c 'cd /root/dropjudge && make deb' >"$dir/deb.log" 2>&1; then
	deb=/root/dropjudge/$(tail -n 1 "$dir/deb.log")
	ok "$(basename "$deb"); lintian: $(grep -c '^lintian: E:' "$dir/deb.log" || true) errors, $(grep -c '^lintian: W:' "$dir/deb.log" || true) warnings"
	grep -E '^lintian: [EW]:' "$dir/deb.log" | sed 's/^/         /' || true
else
	tail -n 30 "$dir/deb.log" >&2
	exit 1
fi

step "install the package"
# What the build needed goes; what an operator installs stays.
in_root bash -c "apt-get install -y -qq --no-install-recommends $deb >/dev/null" >"$dir/install.log" 2>&1 ||
	{ tail -n 20 "$dir/install.log" >&2; exit 1; }
in_root systemctl is-enabled dropjudge.socket >/dev/null && ok "dropjudge.socket enabled by the package" ||
	fail "dropjudge.socket is not enabled after install"
mkdir -p "$root/root/tests/cases"
cp -r tests/cases/monomino-domino tests/cases/puyo "$root/root/tests/cases/"
for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}"; done
mounted=()
rm -rf "$root/root/dropjudge"

step "image (podman import)"
image=localhost/dropjudge-systemd:test
tar -C "$root" -c . | podman import --change 'CMD ["/sbin/init"]' --change 'STOPSIGNAL SIGRTMIN+3' - "$image" >"$dir/import.log" 2>&1 ||
	{ cat "$dir/import.log" >&2; exit 1; }

step "boot systemd as PID 1 (podman --systemd=always)"
# systemd 257 runs on the cgroup v1 layout of a host that has it only when
# told to. --privileged: the service's sandbox (ProtectSystem=, PrivateTmp=
# ...) makes mount namespaces, which a container without CAP_SYS_ADMIN may
# not; the container stands for a whole machine here.
cid=$(podman run -d --privileged --systemd=always --network none "$image" /sbin/init \
	systemd.unified_cgroup_hierarchy=0 SYSTEMD_CGROUP_ENABLE_LEGACY_FORCE=1 2>"$dir/run.log") ||
	{ cat "$dir/run.log" >&2; exit 1; }
in_ct() { podman exec "$cid" "$@"; }
state=
for _ in $(seq 1 100); do
	state=$(in_ct systemctl is-system-running 2>/dev/null || true)
	case $state in running | degraded) break ;; esac
	sleep 0.2
done
case $state in
running) ok "systemd is running" ;;
degraded) ok "systemd is up (degraded: $(in_ct systemctl --failed --plain --no-legend | awk '{print $1}' | tr '\n' ' '))" ;;
*) fail "systemd did not come up: '$state'"; podman logs "$cid" 2>&1 | tail -n 20; exit 1 ;;
esac

step "socket listening, service not started"
[ "$(in_ct systemctl is-active dropjudge.socket || true)" = active ] && ok "dropjudge.socket active" || fail "dropjudge.socket not active"
[ "$(in_ct systemctl is-active dropjudge.service || true)" = inactive ] && ok "dropjudge.service not started before a connection" ||
	fail "dropjudge.service started before any connection"

step "public examples through socket activation"
answered=0
for d in tests/cases/monomino-domino/example-* tests/cases/puyo/example-*; do
	[ -f "$d/input.txt" ] || continue # the text examples; the JSON ones are the same cases
	p=$(basename "$(dirname "$d")")
	got=$(in_ct curl -s --max-time 10 -H 'Content-Type: text/plain' -H 'Accept: text/plain' \
		--data-binary "@/root/$d/input.txt" "http://127.0.0.1:8080/v1/$p" || true)
	if [ "$got" = "$(cat "$d/expected.txt")" ]; then answered=$((answered + 1)); else fail "$d: got '$got'"; fi
done
[ "$answered" -ge 10 ] && ok "$answered public examples answered right through the socket" || {
	fail "only $answered examples answered"
	in_ct journalctl -u dropjudge.service --no-pager | tail -n 20
}
[ "$(in_ct systemctl is-active dropjudge.service || true)" = active ] && ok "dropjudge.service started by the socket" || fail "dropjudge.service is not active"
v1=$(in_ct curl -s --max-time 10 http://127.0.0.1:8080/v1 || true)
case $v1 in *'"version":"2.0.0"'*) ok "GET /v1 says 2.0.0" ;; *) fail "GET /v1: $v1" ;; esac
in_ct journalctl -u dropjudge.service --no-pager -o cat | grep -q 'listening on http://' && ok "start line in the journal" || fail "no start line in the journal"

step "systemd-analyze verify and security"
if out=$(in_ct systemd-analyze verify /usr/lib/systemd/system/dropjudge.socket /usr/lib/systemd/system/dropjudge.service 2>&1) && [ -z "$out" ]; then
	ok "systemd-analyze verify: clean"
else
	fail "systemd-analyze verify: $out"
fi
exposure=$(in_ct systemd-analyze security --no-pager dropjudge.service 2>&1 | sed -n 's/.*Overall exposure level for dropjudge.service: \([0-9.]*\).*/\1/p')
if [ -n "$exposure" ] && awk "BEGIN { exit !($exposure <= 2.0) }"; then
	ok "systemd-analyze security: exposure $exposure (at most 2.0)"
else
	fail "systemd-analyze security: exposure '$exposure' (want at most 2.0)"
	in_ct systemd-analyze security --no-pager dropjudge.service | grep -v '^✓' | head -n 30
fi

step "systemctl stop: drain, exit 0"
in_ct systemctl stop dropjudge.service dropjudge.socket
result=$(in_ct systemctl show dropjudge.service -p Result --value)
status=$(in_ct systemctl show dropjudge.service -p ExecMainStatus --value)
journal=$(in_ct journalctl -u dropjudge.service --no-pager -o cat)
if [ "$result" = success ] && [ "$status" = 0 ] && grep -q draining <<<"$journal" && grep -q stopped <<<"$journal"; then
	ok "stopped cleanly (Result=$result, status $status, drained)"
else
	fail "stop: Result=$result status=$status; journal: $(tail -n 5 <<<"$journal")"
fi

step done
printf '   %-52s %6.1f s\n' "total" "$(calc "$(date +%s.%N) - $t0")"
podman rmi -f "$image" >/dev/null 2>&1 || true
[ "$failures" -eq 0 ] || { echo "test-systemd: $failures failed"; exit 1; }
echo "test-systemd: all checks passed"
