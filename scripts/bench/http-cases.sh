# The requests that goal 1 of the performance issue measures, sourced by
# scripts/bench-http.sh (requests/s) and scripts/callgrind-http.sh
# (instructions): a label, a path, a body file ("-": a plain GET) and its
# Content-Type and Accept. The bodies are the README's examples: the
# public Puyo example (the data-driven test case) and the 8-block
# Monomino-Domino example as JSON.
# shellcheck shell=bash disable=SC2034
labels=("GET /livez" "POST /v1/puyo (JSON)" "POST /v1/puyo (text)"
	"POST /v1/monomino-domino (JSON)")
paths=(/livez /v1/puyo /v1/puyo /v1/monomino-domino)
bodies=(- tests/cases/puyo/example-json/input.json tests/cases/puyo/example-text/input.txt
	scripts/bench/md-8-blocks.json)
types=(- application/json text/plain application/json)
accepts=(- application/json text/plain application/json)
# The goal of each: its requests/s at least this many times the fixed-answer
# server's (2.0: one response per answer, a simple access log, no profile).
targets=(0.85 0.85 0.85 0.85)
