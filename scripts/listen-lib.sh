# Sourced by the benchmark scripts (bench.sh, bench-http.sh, callgrind-http.sh).
#
# listen_port NAME OUT ERR PID TRIES: waits up to TRIES x 50 ms for the
# server PID to print its "listening on http://127.0.0.1:PORT" line (text or
# JSON start line) into OUT and prints PORT. If the server ends first or
# never says it, prints what it wrote (OUT, ERR) to stderr, says that NAME
# did not start, and exits the script with 1.
listen_port() {
	local name=$1 out=$2 err=$3 pid=$4 tries=$5 i port=
	for i in $(seq "$tries"); do
		port=$(sed -n 's|.* listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$out" | head -n 1)
		[ -n "$port" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if [ -z "$port" ]; then
		echo "$(basename "$0" .sh): $name did not start:" >&2
		cat "$out" "$err" >&2
		exit 1
	fi
	echo "$port"
}

# start_piped OUT ERR CMD...: runs CMD in the background with its stdout
# through a pipe, as a container runtime or a log collector reads a
# service's stdout: the lines up to the "listening on" line go to OUT (for
# listen_port), the rest (the access log) is read and dropped, so that
# the log costs the server what writing it to a reader costs, and no disk
# is written meanwhile. Sets started_pid to CMD's pid.
start_piped() {
	start_piped_on "" "$@"
}

# start_piped_on CPUS OUT ERR CMD...: start_piped with CMD and the reader
# of its stdout kept to CPUS (taskset -c; "" for anywhere).
start_piped_on() {
	local cpus=$1 out=$2 err=$3 fifo
	shift 3
	local pin=()
	[ -z "$cpus" ] || pin=(taskset -c "$cpus")
	fifo=$(mktemp -u "$out.fifo.XXXXXX")
	mkfifo "$fifo"
	{
		: >"$out"
		while IFS= read -r line <&3; do
			printf '%s\n' "$line" >>"$out"
			case $line in *" listening on "*) break ;; esac
		done
		exec "${pin[@]}" cat <&3 >/dev/null
	} 3<"$fifo" &
	"${pin[@]}" "$@" >"$fifo" 2>"$err" &
	started_pid=$!
}
