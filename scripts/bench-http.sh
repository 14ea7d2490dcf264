#!/usr/bin/env bash
# Requests/s of dropjudge against a bare libmicrohttpd server
# (tests/bench/bare_server.c: same daemon flags, thread pool and request
# lifecycle, a fixed answer of the same size), measured with wrk on
# loopback, side by side. The goal of each path is in scripts/bench/http-cases.sh
# (targets: 0.85 x bare for each).
#
#   scripts/bench-http.sh [BUILD_DIR]      (make bench-http builds and runs it)
#
# The machine may be small, shared and noisy, so the two servers run
# alternately (A B, then B A, ...) for ROUNDS rounds of DURATION each, and
# the table shows the median of the rounds for each server, the ratio of
# the medians, and the median of the per-round ratios. Beside requests/s it
# shows the CPU time (user + system, from /proc) each server spent per
# request, which other load on the machine disturbs less. Both servers run
# the whole time; only the one being measured gets requests. Nothing is
# pinned. Each server's stdout (dropjudge's access log, on as by default) is
# read through a pipe and dropped (scripts/listen-lib.sh: start_piped), as
# a container runtime reads it, so that no log file is written to disk
# during the runs. Environment (defaults):
#
#   ROUNDS=5  DURATION=5s  WARMUP=1s  CONNECTIONS=64  WRK_THREADS=2
#   SERVER_THREADS=<CPUs>  TARGET=<each case's>  STRICT=0 (1: exit 1 below a target)
#   CASES="0 ..." (all): only those cases of scripts/bench/http-cases.sh,
#     numbered from 0 (0 is GET /livez)
#   HTTP_CASES=FILE (scripts/bench/http-cases.sh): another set of cases in
#     the same form, e.g. scripts/bench/baekjoon-cases.sh (a 10,000-placement
#     case, JSON and text, and one Puyo field), with AGAINST=BUILD_DIR
#   NULL=1 (0: no noise floor): after the table, the same rounds with a
#     second copy of the fixed-answer server against the first: identical
#     servers, so the spread of their ratios is the noise of the run
#   PINNED=1 (0: no second table)  PINNED_RUNS=3  PINNED_SECONDS=6: the
#     second table, each server and its log reader on the last CPU and the
#     load (tests/bench/ab_load.c, the same connections and threads) on the
#     others, the two servers in turns of 100 ms: the ratio of their own
#     costs a request, steady to a percent or two (see the end of the script)
#   AGAINST=BUILD_DIR: in place of the fixed-answer server, the dropjudge of
#     another build (an older commit, say): the ratios are then this build's
#     requests/s over that one's, to see what a change gained or lost
#   BARE_ARGS="...": options for the fixed-answer server, e.g. "--headers":
#     it sends dropjudge's other four header fields too, so that the table
#     shows what is left of the difference without their cost
#   ARGS="...": more options for this build's dropjudge serve only (a
#     --connection-memory among them is given to the fixed-answer server
#     too); with AGAINST=BUILD_DIR of the same build it compares two
#     settings, e.g.
#     AGAINST=build ARGS="--connection-memory 8192" scripts/bench-http.sh build
#
# Exits 1 when a server does not start or answers anything but 2xx.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/listen-lib.sh
build=${1:-build}
rounds=${ROUNDS:-5}
duration=${DURATION:-5s}
warmup=${WARMUP:-1s}
connections=${CONNECTIONS:-64}
wrk_threads=${WRK_THREADS:-2}
server_threads=${SERVER_THREADS:-$(nproc)}
target_all=${TARGET:-}
strict=${STRICT:-0}

dropjudge=$build/dropjudge
bare=$build/bench/bare_server
if [ -n "${AGAINST:-}" ]; then
	bare=$AGAINST/dropjudge
fi
for bin in "$dropjudge" "$bare"; do
	if [ ! -x "$bin" ]; then
		echo "bench-http: $bin is missing; run: make bench-http" >&2
		exit 1
	fi
done

if ! command -v wrk >/dev/null 2>&1; then
	line="apt-get install -y --no-install-recommends wrk"
	if [ "$(id -u)" -ne 0 ]; then
		echo "bench-http needs wrk; run as root:  apt-get update && $line" >&2
		exit 1
	fi
	echo "installing: wrk"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends wrk
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM "$p" 2>/dev/null || true
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME CMD...: runs a server on 127.0.0.1 port 0, sets port_NAME from
# its "listening on http://HOST:PORT" line.
start() {
	local name=$1 port=
	shift
	start_piped "$tmp/$name.out" "$tmp/$name.err" \
		"$@" --host 127.0.0.1 --port 0 --threads "$server_threads"
	pids+=("$started_pid")
	printf -v "pid_$name" '%s' "$started_pid"
	port=$(listen_port "$name" "$tmp/$name.out" "$tmp/$name.err" "${pids[-1]}" 100) || exit 1
	printf -v "port_$name" '%s' "$port"
}

# No per-address limit: every wrk connection comes from 127.0.0.1, and the
# bare server has none either.
# shellcheck disable=SC2086 # ARGS is split into options on purpose
start dropjudge "$dropjudge" serve --max-connections-per-ip 0 ${ARGS:-}
if [ -n "${AGAINST:-}" ]; then
	start bare "$bare" serve --max-connections-per-ip 0
	echo "bench-http: \"bare\" below is $bare (AGAINST), not the fixed-answer server"
else
	# The fixed-answer server takes the connection memory given to dropjudge,
	# so that both run with the same libmicrohttpd settings.
	memory=$(printf '%s\n' "${ARGS:-}" |
		sed -n 's/.*--connection-memory[= ]\([0-9][0-9]*\).*/\1/p')
	# shellcheck disable=SC2086 # BARE_ARGS is split into options on purpose
	start bare "$bare" ${memory:+--connection-memory "$memory"} ${BARE_ARGS:-}
fi

# The cases: label, path, body file, Content-Type, Accept.
# shellcheck source=scripts/bench/http-cases.sh
. "${HTTP_CASES:-scripts/bench/http-cases.sh}"
ncases=${#labels[@]}
# CASES="0 3": only those cases (numbered from 0 in the order above).
cases=${CASES:-$(seq 0 $((ncases - 1)))}
for c in $cases; do
	if ! [[ $c =~ ^[0-9]+$ ]] || [ "$c" -ge "$ncases" ]; then
		echo "bench-http: CASES: no case $c (0 to $((ncases - 1)))" >&2
		exit 1
	fi
done

# CPU clock ticks (user + system) a process has used so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

# wrk_run SERVER CASE DURATION: prints requests/s and the server's CPU
# microseconds a request; fails on errors.
wrk_run() {
	local server=$1 c=$2 d=$3 port out pid t0 t1
	port=port_$server
	pid=pid_$server
	local args=(-t "$wrk_threads" -c "$connections" -d "$d")
	[ "${bodies[$c]}" = - ] || args+=(-s scripts/bench/post.lua)
	out=$tmp/wrk.$server.$c
	t0=$(cpu_ticks "${!pid}")
	if ! BENCH_BODY=${bodies[$c]} BENCH_CONTENT_TYPE=${types[$c]} BENCH_ACCEPT=${accepts[$c]} \
		wrk "${args[@]}" "http://127.0.0.1:${!port}${paths[$c]}" >"$out" 2>&1; then
		echo "bench-http: wrk failed against $server ${labels[$c]}:" >&2
		cat "$out" >&2
		return 1
	fi
	t1=$(cpu_ticks "${!pid}")
	if grep -q 'Non-2xx or 3xx responses' "$out"; then
		echo "bench-http: $server answered non-2xx on ${labels[$c]}:" >&2
		cat "$out" >&2
		return 1
	fi
	if grep -q 'Socket errors' "$out"; then
		echo "bench-http: note: $server ${labels[$c]}: $(grep 'Socket errors' "$out")" >&2
	fi
	awk -v ticks=$((t1 - t0)) -v hz="$hz" '
		/requests in/ {n = $1}
		/^Requests\/sec:/ {rps = $2}
		END {printf "%s %.2f\n", rps, n ? ticks / hz / n * 1e6 : 0}' "$out"
}

echo "bench-http: dropjudge on port $port_dropjudge, bare_server on port $port_bare;" \
	"$server_threads server threads; wrk -t$wrk_threads -c$connections -d$duration;" \
	"$rounds alternating rounds"

# What each server answers on each case, once: both must say 200, and the
# bare answers have dropjudge's sizes, so that the table compares like with like.
if command -v curl >/dev/null 2>&1; then
	for c in $cases; do
		for server in dropjudge bare; do
			port=port_$server
			args=(-s -o /dev/null -w '%{http_code}, %{size_download} bytes')
			[ "${bodies[$c]}" = - ] || args+=(--data-binary "@${bodies[$c]}" \
				-H "Content-Type: ${types[$c]}" -H "Accept: ${accepts[$c]}")
			printf '  %-34s %-10s %s\n' "${labels[$c]}" "$server" \
				"$(curl "${args[@]}" "http://127.0.0.1:${!port}${paths[$c]}")"
		done
	done
fi

# Warm-up, discarded: page in both servers and every path.
for c in $cases; do
	wrk_run dropjudge "$c" "$warmup" >/dev/null
	wrk_run bare "$c" "$warmup" >/dev/null
done

# results: CASE SERVER ROUND RPS CPU_US_PER_REQUEST
: >"$tmp/results"
for r in $(seq "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then order=(dropjudge bare); else order=(bare dropjudge); fi
	line="round $r:"
	for c in $cases; do
		for server in "${order[@]}"; do
			m=$(wrk_run "$server" "$c" "$duration")
			echo "$c $server $r $m" >>"$tmp/results"
		done
		line+=" [${paths[$c]} $(awk -v c="$c" -v r="$r" \
			'$1==c && $3==r {v[$2]=$4} END {printf "%.0f/%.0f", v["dropjudge"], v["bare"]}' \
			"$tmp/results")]"
	done
	echo "  $line"
done

median() { sort -g | awk '{v[NR]=$1} END {print NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo
echo "requests/s and server CPU us a request, medians of $rounds runs of $duration;"
echo "ratio: dropjudge/bare requests/s of the medians; paired: median of each round's ratio"
printf '%-32s %10s %10s %7s %7s %10s %10s  %s\n' "case" "dj r/s" "bare r/s" "ratio" \
	"paired" "cpu dj" "cpu bare" "goal"
below=0
for c in $cases; do
	dj=$(awk -v c="$c" '$1==c && $2=="dropjudge" {print $4}' "$tmp/results" | median)
	bb=$(awk -v c="$c" '$1==c && $2=="bare" {print $4}' "$tmp/results" | median)
	paired=$(awk -v c="$c" '$1==c {v[$3,$2]=$4; if ($3>n) n=$3}
		END {for (r=1;r<=n;r++) print v[r,"dropjudge"]/v[r,"bare"]}' "$tmp/results" | median)
	ratio=$(awk -v a="$dj" -v b="$bb" 'BEGIN {printf "%.3f", a/b}')
	cdj=$(awk -v c="$c" '$1==c && $2=="dropjudge" {print $5}' "$tmp/results" | median)
	cbb=$(awk -v c="$c" '$1==c && $2=="bare" {print $5}' "$tmp/results" | median)
	target=${target_all:-${targets[$c]}}
	verdict=">= $target ok"
	if [ -n "${AGAINST:-}" ]; then
		verdict="(x $AGAINST)" # a comparison of two builds: no goal
	elif awk -v x="$ratio" -v t="$target" 'BEGIN {exit !(x < t)}'; then
		verdict="BELOW $target"
		below=1
	fi
	printf '%-32s %10.0f %10.0f %7s %7.3f %10.2f %10.2f  %s\n' "${labels[$c]}" "$dj" "$bb" \
		"$ratio" "$paired" "$cdj" "$cbb" "$verdict"
done

# The noise floor of the table above: a second copy of the fixed-answer
# server measured against the first in the same alternating rounds, on
# every case. Identical servers, so any ratio but 1.000 is the machine's
# noise on that run: a goal's ratio that differs from its target by less
# than this spread is not told apart from it by the rounds. Not in AGAINST
# mode (the two builds are measured as they are).
null=${NULL:-1}
if [ "$null" = 1 ] && [ -z "${AGAINST:-}" ]; then
	start bare2 "$bare" ${memory:+--connection-memory "$memory"}
	for c in $cases; do
		wrk_run bare2 "$c" "$warmup" >/dev/null
	done
	: >"$tmp/null"
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) -eq 1 ]; then order=(bare2 bare); else order=(bare bare2); fi
		for c in $cases; do
			for server in "${order[@]}"; do
				echo "$c $server $r $(wrk_run "$server" "$c" "$duration")" >>"$tmp/null"
			done
		done
	done
	echo
	echo "noise floor: a second fixed-answer server against the first, the same rounds"
	echo "(identical servers: the spread of these ratios around 1.000 is this run's noise)"
	printf '%-32s %7s %7s  %s\n' "case" "ratio" "paired" "rounds"
	for c in $cases; do
		a=$(awk -v c="$c" '$1==c && $2=="bare2" {print $4}' "$tmp/null" | median)
		b=$(awk -v c="$c" '$1==c && $2=="bare" {print $4}' "$tmp/null" | median)
		each=$(awk -v c="$c" '$1==c {v[$3,$2]=$4; if ($3>n) n=$3}
			END {for (r=1;r<=n;r++) printf "%.3f\n", v[r,"bare2"]/v[r,"bare"]}' "$tmp/null")
		paired=$(printf '%s\n' "$each" | median)
		printf '%-32s %7.3f %7.3f  %s\n' "${labels[$c]}" \
			"$(awk -v a="$a" -v b="$b" 'BEGIN {print a/b}')" "$paired" "$(echo $each)"
	done
	kill -TERM "$pid_bare2" 2>/dev/null || true
	wait "$pid_bare2" 2>/dev/null || true
fi

# The servers' own cost, side by side in time (tests/bench/ab_load.c): for
# each case, PINNED_RUNS times a fresh pair of servers, both kept (with the
# readers of their logs) to the last CPU and the load to the others, in
# turns of 100 ms (A B B A ...) for PINNED_SECONDS. With the load off the
# servers' CPU, requests/s is that CPU over the cost of a request, and
# each turn of one has a turn of the other next to it, so the ratio holds
# to a percent or two where the rounds above swing by ten or more (a
# fixed-answer server against itself this way: 0.99 to 1.01). Not the
# goal's measure: a figure to see what a change costs.
pinned=${PINNED:-1}
pinned_runs=${PINNED_RUNS:-3}
pinned_seconds=${PINNED_SECONDS:-6}
ab_load=$build/bench/ab_load
ncpu=$(nproc)
if [ "$pinned" = 1 ] && [ "$ncpu" -ge 2 ] && [ -x "$ab_load" ] &&
	command -v taskset >/dev/null 2>&1; then
	server_cpu=$((ncpu - 1))
	load_cpus=0-$((ncpu - 2))
	echo
	echo "servers on CPU $server_cpu, the load on CPU $load_cpus, turns of 100 ms:" \
		"requests/s ratio of $pinned_runs runs of ${pinned_seconds}s (median first)"
	printf '%-32s %8s  %s\n' "case" "pinned" "runs"
	for c in $cases; do
		runs=()
		for r in $(seq "$pinned_runs"); do
			# shellcheck disable=SC2086 # ARGS is split into options on purpose
			start_piped_on "$server_cpu" "$tmp/pa.out" "$tmp/pa.err" "$dropjudge" serve \
				--max-connections-per-ip 0 ${ARGS:-} --host 127.0.0.1 --port 0 \
				--threads "$server_threads"
			pa=$started_pid
			pids+=("$pa")
			if [ -n "${AGAINST:-}" ]; then
				start_piped_on "$server_cpu" "$tmp/pb.out" "$tmp/pb.err" "$bare" serve \
					--max-connections-per-ip 0 --host 127.0.0.1 --port 0 \
					--threads "$server_threads"
			else
				start_piped_on "$server_cpu" "$tmp/pb.out" "$tmp/pb.err" "$bare" \
					${memory:+--connection-memory "$memory"} --host 127.0.0.1 --port 0 \
					--threads "$server_threads"
			fi
			pb=$started_pid
			pids+=("$pb")
			qa=$(listen_port dropjudge "$tmp/pa.out" "$tmp/pa.err" "$pa" 100) || exit 1
			qb=$(listen_port bare "$tmp/pb.out" "$tmp/pb.err" "$pb" 100) || exit 1
			args=(--a "$qa" --b "$qb" --path "${paths[$c]}" --seconds "$pinned_seconds"
				--connections "$connections" --threads "$wrk_threads")
			[ "${bodies[$c]}" = - ] ||
				args+=(--body "${bodies[$c]}" --type "${types[$c]}" --accept "${accepts[$c]}")
			if ! line=$(taskset -c "$load_cpus" "$ab_load" "${args[@]}"); then
				echo "bench-http: ab_load failed on ${labels[$c]}: $line" >&2
				exit 1
			fi
			runs+=("$(echo "$line" | awk '{print $5}')")
			kill -TERM "$pa" "$pb" 2>/dev/null || true
			wait "$pa" "$pb" 2>/dev/null || true
		done
		med=$(printf '%s\n' "${runs[@]}" | median)
		printf '%-32s %8.3f  %s\n' "${labels[$c]}" "$med" "${runs[*]}"
	done
fi

if [ "$below" -eq 1 ] && [ "$strict" = 1 ]; then
	exit 1
fi
exit 0
