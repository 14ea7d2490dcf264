#!/usr/bin/env bash
# Builds the seed corpus of each fuzz target from the data-driven cases in
# tests/cases, in the input layout each target reads (see the head comment
# of tests/fuzz/fuzz_*.c), plus a few requests the cases do not cover and
# the inputs that found bugs (tests/fuzz/regressions/<target>/).
#
#   tests/fuzz/make-corpus.sh OUT_DIR     writes OUT_DIR/<target>/<seed>
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: make-corpus.sh OUT_DIR}
rm -rf "$out"
mkdir -p "$out"/{fuzz_md_text,fuzz_md_json,fuzz_puyo_text,fuzz_puyo_json,fuzz_route,fuzz_render,fuzz_json_fast,fuzz_text_stream}

# The text of a file as a JSON string (every line ended by \n).
json_string() {
	printf '"'
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\r/\\r/g' -e 's/\t/\\t/g' "$1" |
		awk '{ printf "%s\\n", $0 }'
	printf '"'
}

# A fuzz_route input: flags byte, method, path, Content-Type, Accept, query, body file.
route_seed() { # name flags method path content_type accept query [body_file]
	local f="$out/fuzz_route/$1"
	{
		printf "\\x$2"
		printf '%s\n%s\n%s\n%s\n%s\n' "$3" "$4" "$5" "$6" "$7"
		if [ $# -ge 8 ]; then cat "$8"; fi
	} >"$f"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for dir in tests/cases/*/*/; do
	dir=${dir%/}
	problem=$(basename "$(dirname "$dir")")
	name=$(basename "$dir")
	short=md
	[ "$problem" = puyo ] && short=puyo
	if [ -f "$dir/input.txt" ]; then
		if [ "$short" = md ]; then
			# Options byte, chunk seed, text: no limit; and max_blocks 3, stop after 2.
			{ printf '\x00\x00'; cat "$dir/input.txt"; } >"$out/fuzz_md_text/$name"
			{ printf '\x23\x07'; cat "$dir/input.txt"; } >"$out/fuzz_md_text/$name-limited"
			# Flags (Accept, limit), chunk seed, text: as JSON; as text, cut otherwise.
			{ printf '\x00\x00'; cat "$dir/input.txt"; } >"$out/fuzz_text_stream/$name"
			{ printf '\x05\x2a'; cat "$dir/input.txt"; } >"$out/fuzz_text_stream/$name-text"
		else
			cp "$dir/input.txt" "$out/fuzz_puyo_text/$name"
			# the same field as one line of `solve puyo --lines`
			tr '\n' ' ' <"$dir/input.txt" | sed 's/ $//' >"$out/fuzz_puyo_text/$name-line"
		fi
		route_seed "$short-$name" 00 POST "/v1/$problem" text/plain '' '' "$dir/input.txt"
		route_seed "$short-$name-as-text" 02 POST "/v1/$problem" 'text/plain; charset=utf-8' \
			'text/plain' '' "$dir/input.txt"
		route_seed "$short-$name-validate" 00 POST "/v1/$problem/validate" text/plain '' '' \
			"$dir/input.txt"
		if [ -f "$dir/expected.txt" ]; then
			{
				printf '{"input": '
				json_string "$dir/input.txt"
				printf ', "output": '
				json_string "$dir/expected.txt"
				printf '}'
			} >"$tmp/judge"
			route_seed "$short-$name-judge" 00 POST "/v1/$problem/judge" application/json '' '' \
				"$tmp/judge"
		fi
	fi
	if [ -f "$dir/input.json" ]; then
		cp "$dir/input.json" "$out/fuzz_${short}_json/$name"
		route_seed "$short-$name" 00 POST "/v1/$problem" application/json '' 'trace=true' \
			"$dir/input.json"
		route_seed "$short-$name-validate" 00 POST "/v1/$problem/validate" application/json '' '' \
			"$dir/input.json"
		{ printf '{"cases": ['; cat "$dir/input.json"; printf ', {}]}'; } >"$tmp/batch"
		route_seed "$short-$name-batch" 02 POST "/v1/$problem" application/json '' '' "$tmp/batch"
		{ tr -d '\n' <"$dir/input.json"; printf '\n{}\nnot json\n'; } >"$tmp/stream"
		route_seed "$short-$name-ndjson" 00 POST "/v1/$problem" application/x-ndjson '' '' "$tmp/stream"
	fi
done

# What the cases do not reach.
printf '{"blocks": [{"t": 3, "x": 2, "y": 0}, [2, 0, 2]], "trace": true}' \
	>"$out/fuzz_md_json/object-blocks-trace"
printf '{"blocks": [[1, 0, 0], [1, 0, 1], [1, 0, 2], [1, 0, 3]], "x~/y": 1}' \
	>"$out/fuzz_md_json/full-row-and-escaped-member"
printf '{"field": ["......","......","......","......","......","......","......","......","......","......","......","......","RRRR.."], "trace": false}' \
	>"$out/fuzz_puyo_json/thirteen-rows"
printf '{"cases": [{"input": "1\\n1 1 1\\n", "output": "0\\n2\\n"}, {"input": {"blocks": []}, "output": "0 0"}]}' \
	>"$tmp/judge-batch"
route_seed meta-livez 00 GET /livez '' '' ''
route_seed meta-healthz 00 HEAD /healthz '' 'application/json' ''
route_seed meta-readyz-draining 01 GET /readyz '' '' ''
route_seed meta-info 02 GET /v1 '' '*/*' ''
route_seed meta-openapi 00 GET /openapi.yaml '' 'application/yaml' ''
route_seed not-found 00 GET /v2 '' '' ''
route_seed wrong-method 00 PUT /v1/puyo application/json '' '' "$tmp/judge-batch"
route_seed unsupported-media 00 POST /v1/puyo/judge text/plain '' '' "$tmp/judge-batch"
route_seed not-acceptable 00 POST /v1/monomino-domino/judge application/json 'text/html' '' \
	"$tmp/judge-batch"
route_seed md-judge-batch 00 POST /v1/monomino-domino/judge 'application/json; charset="UTF-8"' \
	'application/*;q=0.5, text/plain;q=0.1' '' "$tmp/judge-batch"
route_seed md-generate 00 GET /v1/monomino-domino/generate '' 'text/plain' 'seed=42&n=5'
route_seed md-generate-json 00 GET /v1/monomino-domino/generate '' '' 'seed=18446744073709551615&n=1'
route_seed puyo-generate 00 GET /v1/puyo/generate '' '' 'seed=7&colors=4&min_chains=3'
# The pictures, the viewer and fields given as links.
route_seed viewer 00 GET / '' 'text/html' ''
route_seed viewer-script 00 GET /viewer.js '' '' ''
route_seed md-render 00 GET /v1/monomino-domino/render.svg '' '' 'blocks=111,230,322,323&step=4&cell=8'
route_seed md-render-strip 00 GET /v1/monomino-domino/render.svg '' '' 'blocks=111,230&strip=true&cell=8'
route_seed puyo-render 00 GET /v1/puyo/render.svg '' '' \
	'field=......,......,......,......,......,......,......,......,.Y....,.YG...,RRYG..,RRYGG.&animate=true&cell=8'
route_seed puyo-render-link 00 GET /v1/puyo/render.svg '' '' 'puyop=4004g09y09yg&step=2&cell=8'
printf '{"puyop": "http://www.puyop.com/s/4004g09y09yg", "trace": true}' >"$tmp/puyop"
route_seed puyo-puyop 00 POST /v1/puyo application/json '' '' "$tmp/puyop"
route_seed puyo-generate-text 00 GET /v1/puyo/generate '' 'text/*' 'seed=1&colors=1&min_chains=1'
route_seed bad-parameter 00 GET /v1/puyo/generate '' '' 'seed=7&seed=8&x'
# Credentials (bits 2-3 of the flags): missing, wrong, malformed.
route_seed auth-missing 04 GET /v1 '' '' ''
route_seed auth-wrong 08 POST /v1/puyo/judge application/json '' '' "$tmp/judge-batch"
route_seed auth-malformed 0c GET /v1/monomino-domino/generate '' '' 'n=3'
route_seed auth-open 04 GET /readyz '' '' ''

# fuzz_json_fast: flags byte (bit 0 Puyo, bit 1 Accept text/plain, bit 2 a
# limit of 3 blocks), then a body in the canonical shapes and near them.
fast_seed() { # name flags body
	{ printf "\\x$2"; printf '%s' "$3"; } >"$out/fuzz_json_fast/$1"
}
fast_seed md-compact 00 '{"blocks":[[1,1,1],[2,3,0],[3,2,2],[3,2,3],[3,1,3],[2,0,0],[3,2,0],[3,1,2]]}'
fast_seed md-spaced 02 ' { "blocks" : [ [ 1 , 1 , 1 ] ,[2, 3, 0]]
} '
fast_seed md-limit 04 '{"blocks":[[1,1,1],[1,1,1],[1,1,1],[1,1,1]]}'
fast_seed md-trace 00 '{"blocks":[[1,1,1]],"trace":true}'
fast_seed md-object 00 '{"blocks":[{"t":1,"x":1,"y":1}]}'
fast_seed md-big 00 '{"blocks":[[3,3,0],[2,0,3],[1,0,12],[1.0,0,0]]}'
fast_seed puyo-example 01 '{"field":["......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG."]}'
fast_seed puyo-13 03 '{ "field" : [ "OOOOOO","......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG." ] }'
# batches (bit 3), read case by case and as one tree: solve, judge (bits
# 4-5), ?trace (bit 6), a limit of 3 cases and 20 trace steps (bit 7)
fast_seed batch-md 08 '{"cases":[{"blocks":[[1,1,1],[2,3,0]]},{"blocks":[[9,0,0]],"id":"x"},{"blocks":[[3,2,2]],"trace":true}]}'
fast_seed batch-md-trace c8 '{ "cases" : [ {"blocks":[[1,1,1],[2,3,0],[3,2,2],[3,2,3],[3,1,3],[2,0,0],[3,2,0],[3,1,2]]},
 {"blocks":[[1,1,1],[2,3,0],[3,2,2],[3,2,3],[3,1,3],[2,0,0],[3,2,0],[3,1,2]]}, {"blocks":[[1,1,1],[2,3,0],[3,2,2]]} ] }'
fast_seed batch-md-judge 18 '{"cases":[{"input":"2\n1 1 1\n2 3 0\n","output":"0\n6\n"},{"input":"1\n1 1 1\n","output":"0\n3\n","id":1}]}'
fast_seed batch-puyo 09 '{"cases":[{"field":["......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG."]},{"field":["......"]},[],{"field":["......","......","......","......","......","......","......","......","......","......","......","RRRR.."],"id":"r"}]}'
fast_seed batch-puyo-validate 29 '{"cases":[{"field":["......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG."]},{"field":"x"}]}'
# batches of canonical cases only, read by the problems' fast readers; one over
# --max-batch (bit 7)
fast_seed batch-md-canonical 08 '{"cases":[{"blocks":[[1,1,1],[2,3,0],[3,2,2]]},{"blocks":[[3,1,3],[2,0,0]]}]}'
fast_seed batch-puyo-canonical 09 '{"cases": [{"field":["......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG."]}, {"field":["OOOOOO","......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG."]}]}'
fast_seed batch-puyo-canonical-over 89 '{"cases":[{"field":["......","......","......","......","......","......","......","......","......","......","......","RRRR.."]},{"field":["......","......","......","......","......","......","......","......","......","......","......","RRRR.."]},{"field":["......","......","......","......","......","......","......","......","......","......","......","RRRR.."]},{"field":["......","......","......","......","......","......","......","......","......","......","......","RRRR.."]}]}'
fast_seed batch-broken 08 '{"cases":[{"blocks":[[1,1,1]]},
{"blocks":[[1,1,1]]}}]}'
# traces written as text from a parsed case (the problem's trace()), against the tree
fast_seed tree-trace-case 08 '{"id":"a","blocks":[[1,1,1],[2,3,0],{"t":3,"x":2,"y":2}],"trace":true}'
fast_seed tree-trace-batch 48 '{"cases":[{"blocks":[[1,1,1],[2,3,0]],"id":7},{"trace":true,"blocks":[[3,2,2],[1,0,0]],"id":"\u00e9"}]}'
fast_seed tree-trace-judge 58 '{"input":{"blocks":[[1,1,1],[2,3,0]]},"output":"0\n6\n"}'
fast_seed tree-trace-judge-batch 58 '{"cases":[{"input":"2\n1 1 1\n2 3 0\n","output":"0\n6\n","id":2},{"input":{"blocks":[[1,1,1]],"trace":false},"output":"0\n3\n"}]}'
# single cases with members in other orders and shapes, faults, cut bodies
fast_seed lean-case 08 '{"id":"a","blocks":[[1,1,1],{"y":0,"t":2,"x":1},[3, 2 ,2]],"trace":false}'
fast_seed lean-faults 08 '{"blocks":[[1,1,1],[1.0,0,0],{"t":1,"t":1,"x":0,"y":0},[1,2],[1,0,99999999999999999999]]}'
fast_seed lean-junk 08 '{"more":{"a":[1,{"b":[true,null]}],"a2":"x"},"blocks":[[1,1,1]],"id":[1,2,3]}'
fast_seed lean-cut 08 '{"id":"x","blocks":[[1,1,1],[2,0,1],[3,1'
fast_seed lean-judge 18 '{"output":"0\n3\n","input":{"blocks":[{"t":1,"x":1,"y":1}],"id":"j"}}'
fast_seed lean-validate 28 '{"blocks":[[1,1,1],{"\u0074":1,"x":0,"y":0}]}'
fast_seed lean-trace 48 '{"blocks":[[1,1,1],[2,3,0],{"t":3,"x":2,"y":2}],"id":7}'
fast_seed puyo-escape 01 '{"field":["\u002e.....","......","......","......","......","......","......","......","......","......","......","......"]}'

# The inputs that found bugs (see the regression tests named in their
# commits), replayed by every run.
# fuzz_render: a mode byte (0 puyop.com, 1 Puyo Nexus, 2 Monomino-Domino bytes), then the data.
printf '\x00%s' 4004g09y09yg >"$out/fuzz_render/puyop-example"
printf '\x00%s' http://www.puyop.com/s/4004g09y09yg_ >"$out/fuzz_render/puyop-link"
printf '\x01%s' 60000067000446700446770 >"$out/fuzz_render/nexus-example"
printf '\x01%s' 'https://puyonexus.com/chainsim/?w=6&h=12&chain=500000180000' >"$out/fuzz_render/nexus-link"
printf '\x02\x00\x01\x02\x15\x26\x37\x3b\x1c\x2d\x3e\x0f' >"$out/fuzz_render/md-blocks"

for dir in tests/fuzz/regressions/*/; do
	t=$(basename "$dir")
	for f in "$dir"*; do
		cp "$f" "$out/$t/regression-$(basename "$f")"
	done
done
