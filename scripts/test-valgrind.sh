#!/usr/bin/env bash
# The HTTP integration suite against the server running under valgrind
# memcheck (every server the suite starts is wrapped, through
# DROPJUDGE_WRAP in tests/http/helper.mjs), then the chaos test (allocation
# failures on the request path) under memcheck too. Passes when the suite
# passes and every valgrind log reports 0 errors and 0 bytes definitely or
# indirectly lost. Ends with the suite's "tests: N passed, M failed" line
# and one line summing up the logs.
#
#   scripts/test-valgrind.sh BUILD_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
logs="$build/valgrind"
rm -rf "$logs"
mkdir -p "$logs"

memcheck="valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
--errors-for-leak-kinds=definite,indirect --error-exitcode=99 --num-callers=30"
export DROPJUDGE_WRAP="$memcheck --log-file=$logs/server.%p.log"
# Start-up, polls and stop deadlines in the suite scale by this much.
export DROPJUDGE_TIME_SCALE=${DROPJUDGE_TIME_SCALE:-10}
scripts/run-tests.sh "$build" http
rc=$?
if [ -x "$build/tests/test_chaos" ]; then
	echo "== test_chaos under memcheck"
	$memcheck --log-file="$logs/chaos.%p.log" "$build/tests/test_chaos" >"$logs/chaos.out" 2>&1 ||
		{ rc=1; sed 's/^/   /' "$logs/chaos.out" | tail -n 20; }
fi

servers=0
bad=0
allocs=0
for f in "$logs"/*.log; do
	[ -e "$f" ] || continue
	servers=$((servers + 1))
	errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$f" | tail -n1)
	definite=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$f" | tail -n1 | tr -d ,)
	indirect=$(sed -n 's/.*indirectly lost: \([0-9,]*\) bytes.*/\1/p' "$f" | tail -n1 | tr -d ,)
	n=$(sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$f" | tail -n1 | tr -d ,)
	allocs=$((allocs + ${n:-0}))
	if [ -z "$errors" ]; then
		echo "valgrind: $f has no summary (the server did not exit normally)"
		bad=$((bad + 1))
	elif [ "$errors" != 0 ] || [ "${definite:-0}" != 0 ] || [ "${indirect:-0}" != 0 ]; then
		echo "valgrind: $f: $errors errors, ${definite:-0} bytes definitely and ${indirect:-0} indirectly lost"
		sed 's/^/   /' "$f" | head -n 80
		bad=$((bad + 1))
	fi
done
echo "valgrind: $servers processes ($allocs allocations), $bad with errors or leaks"
[ "$servers" -gt 0 ] && [ $bad -eq 0 ] && [ $rc -eq 0 ]
