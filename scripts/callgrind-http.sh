#!/usr/bin/env bash
# Instructions a request costs in dropjudge and in the fixed-answer server
# (tests/bench/bare_server.c), counted by valgrind's callgrind: repeatable
# where requests/s on a shared machine are not. Each server runs under
# callgrind with one thread and instrumentation off; after WARMUP requests on one
# keep-alive connection (curl), the counters are zeroed, N more requests are
# sent, and the counters are dumped. The figure is the server's instructions
# (every thread, libmicrohttpd and the kernel-call wrappers included) over N.
#
#   scripts/callgrind-http.sh [BUILD_DIR]
#
# Environment (defaults): N=2000  WARMUP=200  TOP=0 (>0: also print the TOP
# functions of dropjudge by inclusive cost, for each case); CASE_BODY=FILE
# with CASE_TYPE (application/json) and CASE_PATH (/v1/monomino-domino):
# that one POST instead of the four cases of scripts/bench-http.sh; KEEP=1
# keeps the profiles; BARE_ARGS="--headers": the fixed-answer server sends
# dropjudge's other four header fields too (tests/bench/bare_server.c).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/listen-lib.sh
build=${1:-build}
n=${N:-2000}
warmup=${WARMUP:-200}
top=${TOP:-0}
for bin in "$build/dropjudge" "$build/bench/bare_server"; do
	if [ ! -x "$bin" ]; then
		echo "callgrind-http: $bin is missing; run: make all $build/bench/bare_server" >&2
		exit 1
	fi
done
for tool in valgrind callgrind_control callgrind_annotate curl; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "callgrind-http: $tool is missing (apt-get install valgrind curl)" >&2
		exit 1
	fi
done

tmp=$(mktemp -d)
[ -z "${KEEP:-}" ] || echo "callgrind-http: files in $tmp" >&2
pid=
cleanup() {
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The cases of scripts/bench-http.sh: label, path, body ("-": GET), type.
. scripts/bench/http-cases.sh
# CASE_BODY=FILE CASE_TYPE=TYPE CASE_PATH=PATH: that one POST instead.
if [ -n "${CASE_BODY:-}" ]; then
	labels=("POST ${CASE_PATH:-/v1/monomino-domino} ($(basename "$CASE_BODY"))")
	paths=("${CASE_PATH:-/v1/monomino-domino}")
	bodies=("$CASE_BODY")
	types=("${CASE_TYPE:-application/json}")
	accepts=("${types[0]}")
fi

# send PORT CASE COUNT: COUNT requests of the case on one connection.
send() {
	local port=$1 c=$2 count=$3 cfg=$tmp/curl.cfg i
	: >"$cfg"
	for i in $(seq "$count"); do
		echo "url = \"http://127.0.0.1:$port${paths[$c]}\"" >>"$cfg"
		echo "output = \"/dev/null\"" >>"$cfg"
	done
	local args=(-s -f -K "$cfg")
	[ "${bodies[$c]}" = - ] || args+=(--data-binary "@${bodies[$c]}" \
		-H "Content-Type: ${types[$c]}" -H "Accept: ${accepts[$c]}")
	curl "${args[@]}"
}

# measure NAME CASE CMD...: prints instructions a request.
measure() {
	local name=$1 c=$2 port=
	shift 2
	local out=$tmp/$name.$c
	valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out.%p" \
		"$@" --host 127.0.0.1 --port 0 --threads 1 >"$out.log" 2>"$out.err" &
	pid=$!
	port=$(listen_port "$name" "$out.log" "$out.err" "$pid" 400) || exit 1
	send "$port" "$c" "$warmup"
	callgrind_control -i on "$pid" >/dev/null 2>&1
	callgrind_control -z "$pid" >/dev/null 2>&1
	send "$port" "$c" "$n"
	callgrind_control -d "$pid" >/dev/null 2>&1
	kill -TERM "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	# The dump made by -d (the one with the most events past the zeroing).
	local total=0 f ir
	for f in "$out".*[0-9]; do
		[ -f "$f" ] || continue
		ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$f" | head -n 1)
		[ -n "$ir" ] && [ "$ir" -gt "$total" ] && total=$ir && cp "$f" "$out.best"
	done
	awk -v t="$total" -v n="$n" 'BEGIN {printf "%.0f\n", t / n}'
}

printf '%-32s %12s %12s %8s\n' "case" "dj Ir/req" "bare Ir/req" "ratio"
for c in $(seq 0 $((${#labels[@]} - 1))); do
	dj=$(measure dropjudge "$c" "$build/dropjudge" serve --max-connections-per-ip 0)
	if [ "$top" -gt 0 ]; then
		cp "$tmp/dropjudge.$c.best" "$tmp/top.$c"
	fi
	# shellcheck disable=SC2086 # BARE_ARGS is split into options on purpose
	bb=$(measure bare "$c" "$build/bench/bare_server" ${BARE_ARGS:-})
	printf '%-32s %12s %12s %8s\n' "${labels[$c]}" "$dj" "$bb" \
		"$(awk -v a="$dj" -v b="$bb" 'BEGIN {printf "%.2f", a / b}')"
	if [ "$top" -gt 0 ]; then
		callgrind_annotate --inclusive=yes "$tmp/top.$c" 2>/dev/null |
			sed -n '/^-\{5,\}/,$p' | grep -v '^-' | head -n $((top + 4)) | sed 's/^/    /' || true
	fi
done
