#!/usr/bin/env bash
# Runs each fuzz target for SECONDS on its corpus: the seeds built from
# tests/cases (make-corpus.sh) and what earlier runs found, kept in
# BUILD/corpus/<target>. SECONDS 0 only replays the seeds, the regression
# inputs of tests/fuzz/regressions/<target>/ among them, once each. A crash, leak, sanitizer report, broken invariant
# or input slower than FUZZ_TIMEOUT seconds (default 2) fails the run; the
# input is saved in BUILD/artifacts/<target>/. Ends with one line per target.
#
#   tests/fuzz/run.sh BUILD SECONDS TARGET...
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: run.sh BUILD SECONDS TARGET...}
seconds=${2:?usage: run.sh BUILD SECONDS TARGET...}
shift 2
timeout=${FUZZ_TIMEOUT:-2}
# FUZZ_SEED fixes libFuzzer's random seed, so that a run (CI's) explores the
# same inputs in the same order each time; unset, every run differs.
seed=()
[ -n "${FUZZ_SEED:-}" ] && seed=(-seed="$FUZZ_SEED")

tests/fuzz/make-corpus.sh "$build/seeds" || exit 1
failed=()
summary=()
for t in "$@"; do
	bin="$build/$t"
	[ -x "$bin" ] || { echo "no $bin (make fuzz builds it)" >&2; exit 1; }
	case $t in
	fuzz_route) dict=tests/fuzz/route.dict ;;
	fuzz_*_json) dict=tests/fuzz/json.dict ;;
	*) dict=tests/fuzz/text.dict ;;
	esac
	mkdir -p "$build/corpus/$t" "$build/artifacts/$t" "$build/seeds/$t"
	log="$build/$t.log"
	if [ "$seconds" = 0 ]; then
		echo "== $t: replay of $(ls "$build/seeds/$t" | wc -l) seeds"
		limit=(-runs=0)
		corpora=("$build/seeds/$t")
	else
		echo "== $t: ${seconds}s"
		limit=(-max_total_time="$seconds")
		corpora=("$build/corpus/$t" "$build/seeds/$t")
	fi
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
		"$bin" "${limit[@]}" "${seed[@]}" -timeout="$timeout" -rss_limit_mb=2048 \
		-max_len=8192 -dict="$dict" -print_final_stats=1 \
		-artifact_prefix="$build/artifacts/$t/" \
		"${corpora[@]}" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	if [ $rc -ne 0 ]; then
		failed+=("$t")
		summary+=("FAIL  $t (exit $rc, ${execs:-?} execs; log $log)")
		grep -E '^(==[0-9]+==|==fuzz==|SUMMARY|artifact_prefix|Test unit written|.*runtime error)' "$log" | head -n 20
	else
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
		if [ "$seconds" = 0 ]; then
			summary+=("ok    $t (${execs:-?} inputs replayed)")
		else
			summary+=("ok    $t (${execs:-?} execs in ${seconds}s, ${rate:-?}/s, corpus $(ls "$build/corpus/$t" | wc -l))")
		fi
	fi
done
echo
printf '%s\n' "${summary[@]}"
[ ${#failed[@]} -eq 0 ]
