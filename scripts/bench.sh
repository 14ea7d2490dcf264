#!/usr/bin/env bash
# `make bench`: the goals of the performance issue, each as a ratio against
# a baseline that `make bench` builds from tests/bench, measured side by
# side in this run (absolute times vary; a shared machine makes them vary
# more: read the medians and the CPU columns).
#
#   goal 1  requests/s of GET /livez, POST /v1/puyo, POST /v1/monomino-domino
#           against the fixed-answer server (scripts/bench-http.sh), and the
#           noise floor of those rounds: the fixed-answer server against a
#           copy of itself
#   goal 2  a 10,000-placement case end to end over HTTP, JSON and text:
#           against jansson's bare parse of the body and against posting the
#           same body to the fixed-answer server
#   goal 3  dropjudge solve monomino-domino, 10^7 placements, against the
#           straightforward solver (tests/bench/md_naive.c); peak RSS at
#           10^5 and 10^7 placements
#   goal 4  dropjudge solve puyo --lines, 10^6 fields, against the
#           straightforward BFS counter (tests/bench/puyo_naive.c)
#   goal 5  a 1000-case Puyo batch end to end over HTTP against jansson's
#           bare parse of the body, for scale (the batch is that parse, then
#           solved: no floor)
#   goal 6  a 100 MB stream of Puyo fields (application/x-ndjson) end to end
#           over HTTP (curl -T, which sends the file as it reads it; the
#           answer taken as it is) against jansson parsing the same lines
#           one by one (json_parse --lines); the server's peak extra RSS
#           against 0.25x the body + 8 MiB; for scale, the answer taken gzip
#           and gunzip of that answer alone (the client's share of it)
#
# Every timing is the median of ROUNDS runs, the two sides alternating
# (A B, B A, ...). Over HTTP a "time" is 1 / requests/s of wrk with one
# connection and one thread for DURATION. Environment (defaults):
#
#   ROUNDS=3  DURATION=3s  GOALS="1 2 3 4 5 6"  HTTP_ROUNDS=5 HTTP_DURATION=3s (goal 1:
#   five rounds, as scripts/bench-http.sh has by default: its figures swing
#   most, and a median of five moves less with one bad round than of three)
#   SHORT_ROUNDS=9 (goal 3: dropjudge's side is some tens of milliseconds,
#   partly the start and exit of a process, which a busy neighbour on the
#   machine stretches; nine pairs cost some fifteen seconds and their median
#   moves less with one stretched run than that of three)
#
#   scripts/bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/listen-lib.sh
build=${1:-build}
rounds=${ROUNDS:-3}
short_rounds=${SHORT_ROUNDS:-9}
duration=${DURATION:-3s}
goals=${GOALS:-1 2 3 4 5 6}
bench=$build/bench
dropjudge=$build/dropjudge
for bin in "$dropjudge" "$bench/bare_server" "$bench/md_naive" "$bench/puyo_naive" \
	"$bench/bench_input" "$bench/json_parse" "$bench/bench_time"; do
	if [ ! -x "$bin" ]; then
		echo "bench: $bin is missing; run: make bench" >&2
		exit 1
	fi
done

# Inputs and answers in memory (/dev/shm) where there is one: files a goal wrote to disk are
# written back by the kernel while the next goals run, and that work would count there.
tmp=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

median() { sort -g | awk '{v[NR]=$1} END {print NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
# ratio A B: A / B to three places
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b ? a / b : 0}'; }
# verdict VALUE OP TARGET: "met" or "NOT met"
verdict() { awk -v x="$1" -v t="$3" -v op="$2" \
	'BEGIN {ok = op == ">=" ? x >= t : x <= t; print ok ? "met" : "NOT met"}'; }
summary=()
say() { summary+=("$(printf '%-6s %-58s %8s  %s %-5s %s' "$@")"); }

# wall_run OUT CMD...: runs CMD with stdin from $input, stdout to OUT;
# prints "wall_seconds user_seconds" (tests/bench/bench_time.c: from the
# spawn to the exit of CMD, without the fork of a subshell around it).
wall_run() {
	local out=$1
	shift
	"$bench/bench_time" "$input" "$out" "$@"
}

# cli_goal NAME NAIVE_CMD -- DROPJUDGE_CMD: a warm-up run of each, then interleaved runs on $input,
# checks both print the same, sets cli_ratio (naive / dropjudge wall time,
# medians) and cli_cpu (the same for user CPU).
cli_goal() {
	local name=$1 r first=1 a b
	shift
	local naive=() dj=()
	while [ "$1" != -- ]; do naive+=("$1"); shift; done
	shift
	dj=("$@")
	: >"$tmp/$name.naive"
	: >"$tmp/$name.dj"
	# a warm-up run of each, not counted: the binaries and the input in the
	# page cache, as for every later run
	wall_run "$tmp/out.naive" "${naive[@]}" >/dev/null
	wall_run "$tmp/out.dj" "${dj[@]}" >/dev/null
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) -eq 1 ]; then
			wall_run "$tmp/out.naive" "${naive[@]}" >>"$tmp/$name.naive"
			wall_run "$tmp/out.dj" "${dj[@]}" >>"$tmp/$name.dj"
		else
			wall_run "$tmp/out.dj" "${dj[@]}" >>"$tmp/$name.dj"
			wall_run "$tmp/out.naive" "${naive[@]}" >>"$tmp/$name.naive"
		fi
		if [ "$first" = 1 ] && ! cmp -s "$tmp/out.naive" "$tmp/out.dj"; then
			echo "bench: $name: dropjudge and the baseline disagree" >&2
			exit 1
		fi
		first=0
	done
	a=$(awk '{print $1}' "$tmp/$name.naive" | median)
	b=$(awk '{print $1}' "$tmp/$name.dj" | median)
	cli_ratio=$(ratio "$a" "$b")
	cli_wall="$a s / $b s"
	a=$(awk '{print $2}' "$tmp/$name.naive" | median)
	b=$(awk '{print $2}' "$tmp/$name.dj" | median)
	# user CPU is counted in clock ticks: a run shorter than a few of them shows none
	if awk -v b="$b" 'BEGIN {exit !(b > 0)}'; then
		cli_cpu=$(ratio "$a" "$b")
	else
		cli_cpu="n/a (under a clock tick)"
	fi
}

# peak_rss CMD...: the peak resident set of CMD on $input, in KiB.
peak_rss() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M "$@" <"$input" 2>&1 >/dev/null | tail -n1
	else
		echo "?"
	fi
}

want() { case " $goals " in *" $1 "*) return 0 ;; esac; return 1; }

echo "bench: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); medians of $rounds" \
	"interleaved runs ($short_rounds for goal 3)"

if want 3; then
	"$bench/bench_input" md 10000000 3 >"$tmp/md10m.txt"
	"$bench/bench_input" md 100000 3 >"$tmp/md100k.txt"
	input=$tmp/md10m.txt
	rounds=$short_rounds cli_goal md "$bench/md_naive" -- "$dropjudge" solve monomino-domino
	echo "goal 3: solve monomino-domino, 10^7 placements: naive/dropjudge wall $cli_ratio" \
		"($cli_wall), user CPU $cli_cpu"
	say "3" "solve monomino-domino 10^7 placements (x the naive solver)" "$cli_ratio" ">=" 8 \
		"$(verdict "$cli_ratio" ">=" 8)"
	# What starting and ending a process costs here (one placement), paid by
	# both commands: on a small virtual machine it is milliseconds, a share
	# of the ratio above. Shown, not counted: the goal is the whole command.
	md_wall=$cli_wall
	"$bench/bench_input" md 1 3 >"$tmp/md1.txt"
	input=$tmp/md1.txt
	rounds=$short_rounds cli_goal md1 "$bench/md_naive" -- "$dropjudge" solve monomino-domino
	read -r n1 _ _ d1 _ <<<"$cli_wall"
	read -r nb _ _ db _ <<<"$md_wall"
	echo "goal 3: one placement (the start and exit of each): $cli_wall; 10^7 net of them:" \
		"$(awk -v a="$nb" -v b="$n1" -v c="$db" -v d="$d1" \
			'BEGIN {if (c > d) printf "%.1f", (a - b) / (c - d); else printf "n/a"}')" \
		"(not the goal's figure)"
	input=$tmp/md10m.txt
	rss_big=$(peak_rss "$dropjudge" solve monomino-domino)
	input=$tmp/md100k.txt
	rss_small=$(peak_rss "$dropjudge" solve monomino-domino)
	echo "goal 3: peak RSS $rss_small KiB at 10^5 placements, $rss_big KiB at 10^7"
	say "3" "peak RSS KiB, 10^7 placements minus 10^5 (flat in N)" \
		"$(( ${rss_big/\?/0} - ${rss_small/\?/0} ))" "<=" 512 \
		"$(verdict "$(( ${rss_big/\?/0} - ${rss_small/\?/0} ))" "<=" 512)"
	rm -f "$tmp"/md10m.txt "$tmp"/md100k.txt "$tmp"/md1.txt "$tmp"/out.*
fi

if want 4; then
	"$bench/bench_input" puyo-lines 1000000 4 >"$tmp/puyo1m.txt"
	input=$tmp/puyo1m.txt
	cli_goal puyo "$bench/puyo_naive" -- "$dropjudge" solve puyo --lines
	echo "goal 4: solve puyo --lines, 10^6 fields: naive/dropjudge wall $cli_ratio" \
		"($cli_wall), user CPU $cli_cpu"
	say "4" "solve puyo --lines 10^6 fields (x the BFS counter)" "$cli_ratio" ">=" 20 \
		"$(verdict "$cli_ratio" ">=" 20)"
	rm -f "$tmp"/puyo1m.txt "$tmp"/out.*
fi

if want 6; then
	"$bench/bench_input" puyo-ndjson 750000 6 >"$tmp/puyo.ndjson"
	body=$(wc -c <"$tmp/puyo.ndjson")
	parse=$("$bench/json_parse" --lines "$tmp/puyo.ndjson")
	start_piped "$tmp/nd.out" "$tmp/nd.err" "$dropjudge" serve --host 127.0.0.1 --port 0
	pids+=("$started_pid")
	nd_pid=$started_pid
	nd_port=$(listen_port ndjson "$tmp/nd.out" "$tmp/nd.err" "$nd_pid" 100) || exit 1
	base_rss=$(awk '/^VmRSS/ {print $2}' "/proc/$nd_pid/status")
	: >"$tmp/nd.times"
	: >"$tmp/nd.plain.times"
	: >"$tmp/nd.gunzip.times"
	# nd_post OUT TIMES [CURL_ARGS...]: one request, its microseconds into TIMES
	nd_post() {
		local out=$1 times=$2 t0 t1
		shift 2
		t0=$(date +%s%N)
		curl -s "$@" -o "$out" -H 'Content-Type: application/x-ndjson' \
			-X POST -T "$tmp/puyo.ndjson" "http://127.0.0.1:$nd_port/v1/puyo"
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000)) >>"$times"
	}
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) = 1 ]; then
			nd_post "$tmp/nd.answer" "$tmp/nd.times" --compressed
			nd_post "$tmp/nd.plain" "$tmp/nd.plain.times"
		else
			nd_post "$tmp/nd.plain" "$tmp/nd.plain.times"
			nd_post "$tmp/nd.answer" "$tmp/nd.times" --compressed
		fi
	done
	for f in "$tmp/nd.answer" "$tmp/nd.plain"; do
		if ! tail -n1 "$f" | grep -q '"failed":0}}$'; then
			echo "bench: the stream was not answered whole" >&2
			exit 1
		fi
	done
	if ! cmp -s "$tmp/nd.answer" "$tmp/nd.plain"; then
		echo "bench: the gzip and the plain answers differ" >&2
		exit 1
	fi
	curl -s -H 'Accept-Encoding: gzip' -o "$tmp/nd.gz" -H 'Content-Type: application/x-ndjson' \
		-X POST -T "$tmp/puyo.ndjson" "http://127.0.0.1:$nd_port/v1/puyo"
	for r in $(seq "$rounds"); do
		t0=$(date +%s%N)
		gzip -dc <"$tmp/nd.gz" >"$tmp/nd.gunzip"
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000)) >>"$tmp/nd.gunzip.times"
	done
	rm -f "$tmp/nd.gz" "$tmp/nd.gunzip" "$tmp/nd.plain" "$tmp/nd.answer" "$tmp/puyo.ndjson"
	nd_us=$(median <"$tmp/nd.times")
	nd_plain_us=$(median <"$tmp/nd.plain.times")
	gunzip_us=$(median <"$tmp/nd.gunzip.times")
	peak_rss=$(awk '/^VmHWM/ {print $2}' "/proc/$nd_pid/status")
	nd_ratio=$(ratio "$nd_us" "$parse")
	nd_plain_ratio=$(ratio "$nd_plain_us" "$parse")
	rss_ratio=$(awk -v p="$peak_rss" -v b="$base_rss" -v n="$body" \
		'BEGIN {printf "%.3f", ((p - b) * 1024 - 8 * 1048576) / n}')
	echo "goal 6: a stream of 750,000 Puyo fields ($body bytes): dropjudge $nd_us us end to end" \
		"taken gzip, $nd_plain_us us taken as it is; jansson parsing the lines one by one $parse us;" \
		"gunzip of the gzip answer alone $gunzip_us us ($(ratio "$gunzip_us" "$parse") x jansson);" \
		"peak extra RSS $(((peak_rss - base_rss) / 1024)) MiB"
	say "6" "100 MB NDJSON Puyo stream over HTTP (x jansson, line by line)" "$nd_plain_ratio" "<=" 0.5 \
		"$(verdict "$nd_plain_ratio" "<=" 0.5)"
	say "6" "the same, the answer taken gzip (for scale)" "$nd_ratio" "" "" \
		"(gunzip alone $(ratio "$gunzip_us" "$parse"))"
	say "6" "its peak extra RSS less 8 MiB (x the body)" "$rss_ratio" "<=" 0.25 \
		"$(verdict "$rss_ratio" "<=" 0.25)"
fi

if want 2 || want 5; then
	if ! command -v wrk >/dev/null 2>&1; then
		echo "bench: goals 2 and 5 need wrk (apt-get install wrk)" >&2
		exit 1
	fi
	# start NAME CMD...: a server on 127.0.0.1 port 0; sets port_NAME.
	start() {
		local name=$1 port=
		shift
		start_piped "$tmp/$name.out" "$tmp/$name.err" "$@" --host 127.0.0.1 --port 0
		pids+=("$started_pid")
		port=$(listen_port "$name" "$tmp/$name.out" "$tmp/$name.err" "${pids[-1]}" 100) || exit 1
		printf -v "port_$name" '%s' "$port"
	}
	start dropjudge "$dropjudge" serve --max-connections-per-ip 0
	start bare "$bench/bare_server"
	# http_us SERVER PATH BODY TYPE: microseconds a request, wrk -t1 -c1.
	http_us() {
		local port=port_$1 out=$tmp/wrk.out
		BENCH_BODY=$3 BENCH_CONTENT_TYPE=$4 BENCH_ACCEPT=$4 wrk -t1 -c1 -d "$duration" \
			-s scripts/bench/post.lua "http://127.0.0.1:${!port}$2" >"$out" 2>&1
		if grep -q 'Non-2xx' "$out"; then
			echo "bench: $1 $2 answered non-2xx" >&2
			exit 1
		fi
		awk '/^Requests\/sec:/ {printf "%.2f\n", 1e6 / $2}' "$out"
	}
	# http_goal NAME PATH BODY TYPE: medians of dropjudge and bare, interleaved
	# (A B, then B A, ...).
	http_goal() {
		local r
		: >"$tmp/$1.dj"
		: >"$tmp/$1.bare"
		for r in $(seq "$rounds"); do
			if [ $((r % 2)) -eq 1 ]; then
				http_us dropjudge "$2" "$3" "$4" >>"$tmp/$1.dj"
				http_us bare "$2" "$3" "$4" >>"$tmp/$1.bare"
			else
				http_us bare "$2" "$3" "$4" >>"$tmp/$1.bare"
				http_us dropjudge "$2" "$3" "$4" >>"$tmp/$1.dj"
			fi
		done
		http_dj=$(median <"$tmp/$1.dj")
		http_bare=$(median <"$tmp/$1.bare")
	}
fi

if want 2; then
	"$bench/bench_input" md-json 10000 2 >"$tmp/md10k.json"
	"$bench/bench_input" md 10000 2 >"$tmp/md10k.txt"
	parse=$("$bench/json_parse" "$tmp/md10k.json" 100)
	http_goal md-json /v1/monomino-domino "$tmp/md10k.json" application/json
	j_parse=$(ratio "$http_dj" "$parse")
	j_floor=$(ratio "$http_dj" "$http_bare")
	echo "goal 2: 10,000 placements JSON ($(wc -c <"$tmp/md10k.json") bytes): dropjudge" \
		"$http_dj us, fixed-answer server $http_bare us, bare jansson parse $parse us"
	http_goal md-text /v1/monomino-domino "$tmp/md10k.txt" text/plain
	t_floor=$(ratio "$http_dj" "$http_bare")
	echo "goal 2: 10,000 placements text ($(wc -c <"$tmp/md10k.txt") bytes): dropjudge" \
		"$http_dj us, fixed-answer server $http_bare us"
	say "2" "10^4 placements JSON over HTTP (x jansson's bare parse)" "$j_parse" "<=" 0.10 \
		"$(verdict "$j_parse" "<=" 0.10)"
	say "2" "10^4 placements JSON over HTTP (x posting to fixed server)" "$j_floor" "<=" 2.0 \
		"$(verdict "$j_floor" "<=" 2.0)"
	say "2" "10^4 placements text over HTTP (x posting to fixed server)" "$t_floor" "<=" 2.0 \
		"$(verdict "$t_floor" "<=" 2.0)"
fi

if want 5; then
	"$bench/bench_input" puyo-batch 1000 5 >"$tmp/puyo-batch.json"
	parse=$("$bench/json_parse" "$tmp/puyo-batch.json" 100)
	http_goal puyo-batch /v1/puyo "$tmp/puyo-batch.json" application/json
	b_parse=$(ratio "$http_dj" "$parse")
	echo "goal 5: 1000-case Puyo batch ($(wc -c <"$tmp/puyo-batch.json") bytes): dropjudge" \
		"$http_dj us, fixed-answer server $http_bare us, bare jansson parse $parse us"
	# For scale, no floor: a JSON batch is read as one jansson tree and then
	# solved, so it costs more than the parse; larger work goes as a stream.
	say "5" "1000-case Puyo batch over HTTP (x jansson's bare parse)" "$b_parse" "" "" \
		"(for scale: one jansson tree)"
fi

if want 1; then
	echo "goal 1: scripts/bench-http.sh (requests/s against the fixed-answer server)"
	ROUNDS=${HTTP_ROUNDS:-5} DURATION=${HTTP_DURATION:-3s} scripts/bench-http.sh "$build" |
		tee "$tmp/http.txt"
	. scripts/bench/http-cases.sh
	for c in "${!labels[@]}"; do
		label=${labels[$c]}
		t=${targets[$c]}
		# the row of the wrk table (it ends with the goal's verdict): the
		# label in 32 columns, then r/s, r/s, ratio, ...
		v=$(grep -F "$label" "$tmp/http.txt" | grep -E '(ok|BELOW [0-9.]+)$' | tail -n1 |
			cut -c33- | awk '{print $3}')
		say "1" "$label (x fixed-answer server requests/s)" "$v" ">=" "$t" \
			"$(verdict "$v" ">=" "$t")"
	done
	# the noise floor: the fixed-answer server against a copy of itself,
	# the lowest and highest ratio of the four cases (1.000 on a quiet machine)
	floor=$(sed -n '/^noise floor:/,/^$/p' "$tmp/http.txt" | grep -F -e "${labels[0]}" \
		-e "${labels[1]}" -e "${labels[2]}" -e "${labels[3]}" | cut -c33- |
		awk 'NR == 1 {lo = hi = $1} {if ($1 < lo) lo = $1; if ($1 > hi) hi = $1}
			END {if (NR) printf "%.3f-%.3f", lo, hi}')
	if [ -n "$floor" ]; then
		summary+=("$(printf '%-6s %-58s %13s  %s' 1 \
			"noise: fixed-answer server x itself (lowest-highest)" "$floor" "(not a goal)")")
	fi
fi

echo
printf '%-6s %-58s %8s  %s\n' "goal" "figure" "ratio" "target"
for line in "${summary[@]}"; do echo "$line"; done
