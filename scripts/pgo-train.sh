#!/usr/bin/env bash
# The training run of the profile-guided build (the Makefile's PGO=1): the
# instrumented program serves the requests that make bench's goal 1
# measures (GET /livez, the public Puyo example as JSON and as text, the
# 8-block Monomino-Domino example), and solves a Monomino-Domino case and a
# file of Puyo fields on the command line; the counts it writes at exit
# (one .gcda beside each object) are the profile the program is then
# compiled with. Only bash and the program itself are needed (the requests
# go over bash's /dev/tcp), so that the container's build stage can run it.
#
#   scripts/pgo-train.sh DROPJUDGE [REQUESTS]   (REQUESTS of each kind: 3000)
#
# Exits 1 when the program does not start or an answer is not 200.
set -euo pipefail
export LC_ALL=C
dj=$1
n=${2:-3000}
dir=$(mktemp -d)
pid=
cleanup() {
	[ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT

"$dj" serve --host 127.0.0.1 --port 0 --threads 2 --max-connections-per-ip 0 \
	>"$dir/out" 2>"$dir/err" &
pid=$!
port=
for _ in $(seq 200); do
	port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$dir/out")
	[ -z "$port" ] || break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
if [ -z "$port" ]; then
	echo "pgo-train: $dj did not start:" >&2
	cat "$dir/err" >&2
	exit 1
fi

# request VAR CLOSE METHOD PATH [TYPE BODY]: one HTTP/1.1 request into VAR,
# which asks to close the connection when CLOSE is 1.
request() {
	local head="$3 $4 HTTP/1.1\r\nHost: pgo\r\nUser-Agent: pgo-train\r\n" body=${6:-}
	[ -z "${5:-}" ] || head+="Content-Type: $5\r\nAccept: $5\r\nContent-Length: ${#body}\r\n"
	[ "$2" != 1 ] || head+="Connection: close\r\n"
	printf -v "$1" "$head\r\n%s" "$body"
}

# train NAME METHOD PATH [TYPE BODY]: n requests pipelined on one keep-alive
# connection (the last asks to close it), every answer read and checked.
train() {
	local name=$1 one last i
	shift
	request one 0 "$@"
	request last 1 "$@"
	exec 3<>"/dev/tcp/127.0.0.1/$port"
	cat <&3 >"$dir/$name.answers" &
	local reader=$!
	{
		for ((i = 1; i < n; i++)); do
			printf '%s' "$one"
		done
		printf '%s' "$last"
	} >&3
	wait "$reader"
	exec 3>&-
	local ok
	ok=$(grep -c '^HTTP/1.1 200 ' "$dir/$name.answers" || true)
	if [ "$ok" != "$n" ]; then
		# The server's own words: the first answer that was not 200.
		echo "pgo-train: $name: $ok of $n answers were 200; the first other answer:" >&2
		awk '/^HTTP\/1.1 / { show = ($2 != "200") } show { print; if (++k == 12) exit }' \
			"$dir/$name.answers" >&2
		exit 1
	fi
}

puyo_json='{"field": ["......", "......", "......", "......", "......", "......", "......", "......", ".Y....", ".YG...", "RRYG..", "RRYGG."]}'
puyo_text=$'......\n......\n......\n......\n......\n......\n......\n......\n.Y....\n.YG...\nRRYG..\nRRYGG.\n'
md_json='{"blocks": [[1,1,1],[2,3,0],[3,2,2],[3,2,3],[3,1,3],[2,0,0],[3,2,0],[3,1,2]]}'

train livez GET /livez
train puyo-json POST /v1/puyo application/json "$puyo_json"
train puyo-text POST /v1/puyo text/plain "$puyo_text"
train md-json POST /v1/monomino-domino application/json "$md_json"

kill -TERM "$pid"
wait "$pid" || {
	echo "pgo-train: $dj serve did not stop cleanly" >&2
	exit 1
}
pid=

# The command line: a Monomino-Domino case of 20,000 placements (the
# kinds and columns cycle) and 20,000 Puyo fields, one per line.
{
	echo 20000
	for ((i = 0; i < 20000; i++)); do
		t=$((i % 3 + 1))
		echo "$t $((i % (t == 3 ? 3 : 4))) $((i * 7 % (t == 2 ? 3 : 4)))"
	done
} >"$dir/md.txt"
"$dj" solve monomino-domino "$dir/md.txt" >/dev/null
line=$(printf '%s' "$puyo_text" | tr '\n' ' ')
for ((i = 0; i < 20000; i++)); do
	echo "${line% }"
done >"$dir/puyo.txt"
"$dj" solve puyo --lines "$dir/puyo.txt" >/dev/null
