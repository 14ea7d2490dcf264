# The requests at Baekjoon's sizes, for scripts/bench-http.sh with
# HTTP_CASES=scripts/bench/baekjoon-cases.sh: a 10,000-placement
# Monomino-Domino case as JSON and as Baekjoon text (written into the
# script's temporary directory by the build's bench_input, as make bench's
# goal 2 writes them), and the public Puyo example as JSON and as text.
# With AGAINST=BUILD_DIR of another build (an older commit) it shows what
# a change buys a request at those sizes (docs/PERFORMANCE.md).
# shellcheck shell=bash disable=SC2034,SC2154
"$build/bench/bench_input" md-json 10000 2 >"$tmp/md10k.json"
"$build/bench/bench_input" md 10000 2 >"$tmp/md10k.txt"
labels=("POST /v1/m-d 10^4 (JSON)" "POST /v1/m-d 10^4 (text)"
	"POST /v1/puyo (JSON)" "POST /v1/puyo (text)")
paths=(/v1/monomino-domino /v1/monomino-domino /v1/puyo /v1/puyo)
bodies=("$tmp/md10k.json" "$tmp/md10k.txt" tests/cases/puyo/example-json/input.json
	tests/cases/puyo/example-text/input.txt)
types=(application/json text/plain application/json text/plain)
accepts=(application/json text/plain application/json text/plain)
# No goal of their own: the figure is the ratio against AGAINST's build.
targets=(1.0 1.0 1.0 1.0)
