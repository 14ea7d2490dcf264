#!/usr/bin/env bash
# Runs dropjudge's tests and ends with one summary line "N passed, M failed".
#
#   scripts/run-tests.sh BUILD_DIR [unit|http|judges|browser|lint|all|hardening]
#
# unit: every build/tests/test_* (cmocka); http: the integration suite in
# tests/http and tests/render against the real binary (node's test runner,
# curl as the client); judges: tests/judges, the checker and validator
# protocols and the problem packages run as contest systems run them (node's
# test runner); browser: the viewer in headless Chromium
# (tests/browser, playwright-core), skipped with a message when Chromium is
# not installed; lint: the OpenAPI description with Redocly's linter;
# hardening (not part of all): the attack tests in tests/hardening, one
# file at a time (they measure latency and memory).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
what=${2:-all}
passed=0
failed=0
failures=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# The names of the node tests that failed (TAP "not ok" lines, subtests
# included), so that the last lines of a run say which ones.
not_ok() { # file
	grep -E '^ *not ok ' "$1" | sed 's/^ */   not ok: /; s/^   not ok: not ok [0-9]* - /   not ok: /'
}

count_cmocka() { # file name
	local p f
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$1" | tail -n1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$1" | tail -n1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
}

if [ "$what" = unit ] || [ "$what" = all ]; then
	echo "== unit tests"
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		if CMOCKA_MESSAGE_OUTPUT=stdout "$t" >"$log/$name" 2>&1; then
			count_cmocka "$log/$name"
			echo "   ok    $name"
		else
			count_cmocka "$log/$name"
			grep -q '^\[  FAILED  \]' "$log/$name" || failed=$((failed + 1))
			failures+=("$name")
			echo "   FAIL  $name"
			sed 's/^/         /' "$log/$name"
		fi
	done
fi

if [ "$what" = http ] || [ "$what" = all ]; then
	echo "== HTTP integration tests (real binary, curl)"
	# Three files at a time: their time is mostly servers and clients waiting,
	# not CPU (node's default is one fewer than the cores: one on two).
	DROPJUDGE_BIN="$build/dropjudge" node --test --test-concurrency=3 --test-reporter=tap \
		tests/http/ tests/render/ >"$log/http" 2>&1
	rc=$?
	p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$log/http" | tail -n1)
	f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$log/http" | tail -n1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	if [ $rc -ne 0 ]; then
		[ "${f:-0}" -gt 0 ] || failed=$((failed + 1))
		failures+=("http")
		grep -v '^ *\(# Subtest\|ok \)' "$log/http" | sed 's/^/   /' | tail -n 150
		not_ok "$log/http"
	fi
	echo "   http: ${p:-0} passed, ${f:-0} failed"
fi

if [ "$what" = judges ] || [ "$what" = all ]; then
	echo "== judge protocols and packages (real binary, wrappers, cc, unzip, tar)"
	DROPJUDGE_BIN="$build/dropjudge" node --test --test-reporter=tap tests/judges/ >"$log/judges" 2>&1
	rc=$?
	p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$log/judges" | tail -n1)
	f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$log/judges" | tail -n1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	if [ $rc -ne 0 ]; then
		[ "${f:-0}" -gt 0 ] || failed=$((failed + 1))
		failures+=("judges")
		grep -v '^ *\(# Subtest\|ok \)' "$log/judges" | sed 's/^/   /' | tail -n 150
		not_ok "$log/judges"
	fi
	echo "   judges: ${p:-0} passed, ${f:-0} failed"
fi

if [ "$what" = browser ] || [ "$what" = all ]; then
	echo "== browser tests (the viewer in headless Chromium)"
	DROPJUDGE_BIN="$build/dropjudge" node --test --test-reporter=tap tests/browser/ >"$log/browser" 2>&1
	rc=$?
	p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$log/browser" | tail -n1)
	f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$log/browser" | tail -n1)
	sk=$(sed -n 's/^# skipped \([0-9]*\)/\1/p' "$log/browser" | tail -n1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	if [ $rc -ne 0 ]; then
		[ "${f:-0}" -gt 0 ] || failed=$((failed + 1))
		failures+=("browser")
		grep -v '^ *\(# Subtest\|ok \)' "$log/browser" | sed 's/^/   /' | tail -n 150
		not_ok "$log/browser"
	fi
	if [ "${sk:-0}" -gt 0 ]; then
		echo "   SKIPPED ${sk} browser tests: $(sed -n 's/.*# SKIP \(.*\)/\1/p' "$log/browser" | head -n1)"
	fi
	echo "   browser: ${p:-0} passed, ${f:-0} failed, ${sk:-0} skipped"
fi

if [ "$what" = hardening ]; then
	echo "== hardening tests (lock-out, framing, memory, head-of-line, signals, heavy work, pictures, packages)"
	# 1,030 + 1,030 slow connections and their server need descriptors.
	ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
	DROPJUDGE_BIN="$build/dropjudge" node --test --test-concurrency=1 --test-reporter=tap tests/hardening/ >"$log/hardening" 2>&1
	rc=$?
	p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$log/hardening" | tail -n1)
	f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$log/hardening" | tail -n1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	# The figures each test printed (latencies, RSS, counts).
	grep -E '^# (puyo|livez|\/livez|heavy|slow|stderr|RSS|a |an |the |two |HEAD |[0-9]+ [a-z])' "$log/hardening" | sed 's/^# /   /'
	if [ $rc -ne 0 ]; then
		[ "${f:-0}" -gt 0 ] || failed=$((failed + 1))
		failures+=("hardening")
		grep -v '^ *\(# Subtest\|ok \)' "$log/hardening" | sed 's/^/   /' | tail -n 150
		not_ok "$log/hardening"
	fi
	echo "   hardening: ${p:-0} passed, ${f:-0} failed"
fi

if [ "$what" = lint ] || [ "$what" = all ]; then
	echo "== OpenAPI lint (@redocly/cli)"
	if npx --no-install redocly lint openapi.yaml >"$log/lint" 2>&1; then
		passed=$((passed + 1))
		echo "   ok    openapi.yaml"
	else
		failed=$((failed + 1))
		failures+=("openapi lint")
		sed 's/^/   /' "$log/lint"
	fi
fi

echo
[ ${#failures[@]} -gt 0 ] && echo "failing: ${failures[*]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failures[@]} -eq 0 ]
