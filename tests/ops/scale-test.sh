#!/usr/bin/env bash
# make test-scale: three dropjudge processes behind a real nginx, all on
# loopback, nginx configured from deploy/nginx.conf itself (only its
# upstream line `server dropjudge:8080 ...` is replaced by one line per
# replica, and its `listen` line by a free loopback port). A bounded load of correct-answer checks goes through
# nginx (tests/ops/scale-load.mjs); midway one replica gets SIGTERM and
# another SIGKILL. Passes when every request was answered 200 with the
# right answer; prints the figures. Needs no container.
#
#   tests/ops/scale-test.sh [BUILD_DIR] [REQUESTS] [CLIENTS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
requests=${2:-4000}
clients=${3:-8}
work=$(mktemp -d)
pids=()
nginx_pid=
cleanup() {
	[ -z "$nginx_pid" ] || kill "$nginx_pid" 2>/dev/null || true
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# A free loopback TCP port: bound with port 0, read back, released.
free_port() {
	node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# Three replicas, each on a port of its own choosing (--port 0).
ports=()
for i in 1 2 3; do
	"$build/dropjudge" serve --host 127.0.0.1 --port 0 --threads 2 --log-format off \
		--max-connections-per-ip 0 \
		>"$work/replica$i.out" 2>"$work/replica$i.err" &
	pids+=($!)
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/replica$i.out")
		[ -n "$port" ] && break
		sleep 0.05
	done
	[ -n "$port" ] || { cat "$work/replica$i.err" >&2; echo "replica $i did not start" >&2; exit 1; }
	ports+=("$port")
done

# deploy/nginx.conf with the replicas' addresses and a free port.
listen=$(free_port)
mkdir -p "$work/nginx"
awk -v ports="${ports[*]}" -v listen="$listen" '
	/^[ \t]*server dropjudge:8080 / {
		n = split(ports, p, " ")
		for (i = 1; i <= n; i++) { line = $0; sub(/dropjudge:8080/, "127.0.0.1:" p[i], line); print line }
		next
	}
	/^[ \t]*listen 8080;/ { sub(/listen 8080;/, "listen 127.0.0.1:" listen ";") }
	{ print }' deploy/nginx.conf >"$work/nginx/nginx.conf"
[ "$(grep -c "server 127.0.0.1:" "$work/nginx/nginx.conf")" = 3 ] || { echo "deploy/nginx.conf: no upstream line 'server dropjudge:8080 ...'" >&2; exit 1; }
grep -q "listen 127.0.0.1:$listen;" "$work/nginx/nginx.conf" || { echo "deploy/nginx.conf: no 'listen 8080;' line" >&2; exit 1; }
nginx -p "$work/nginx/" -c "$work/nginx/nginx.conf" -g 'daemon off;' 2>"$work/nginx.err" &
nginx_pid=$!
for _ in $(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$listen/livez" 2>/dev/null && break; sleep 0.05; done
curl -fsS -o /dev/null "http://127.0.0.1:$listen/livez" || { cat "$work/nginx.err" >&2; echo "nginx did not start" >&2; exit 1; }
echo "   replicas on 127.0.0.1:${ports[*]} (pids ${pids[*]}), nginx on 127.0.0.1:$listen"

# The killed one is reaped by nobody but the end of this script (no "Killed" notice).
disown "${pids[1]}"
rc=0
node tests/ops/scale-load.mjs "http://127.0.0.1:$listen" "$requests" "$clients" "${pids[0]}" "${pids[1]}" || rc=1

# The SIGTERM'd replica drained and exited 0; the last one still answers.
term_rc=0
wait "${pids[0]}" || term_rc=$?
if [ "$term_rc" != 0 ]; then echo "   FAIL  the replica sent SIGTERM exited $term_rc"; rc=1; fi
if ! curl -fsS -o /dev/null "http://127.0.0.1:${ports[2]}/readyz"; then echo "   FAIL  the remaining replica is not ready"; rc=1; fi
echo "   nginx: $(grep -c 'upstream' "$work/nginx.err" || true) upstream errors logged (retried on the next replica)"
exit $rc
