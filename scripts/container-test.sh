#!/usr/bin/env bash
# make test-container: builds the Dockerfile with buildah and runs the image
# for real with podman and runc (no Docker, no registry; see
# scripts/container-lib.sh), locked down as in production: a non-root user,
# a read-only root filesystem, every capability dropped, no new privileges.
# Through the published loopback port it checks every endpoint (every case
# of tests/cases against its expected answer or error, judge, validate,
# generate, the meta routes, the errors of the router), then that
# HEALTHCHECK reports healthy, that the process has uid != 0, no
# capabilities and cannot write its root filesystem, that the runtime image
# is Debian 13 and holds no compiler and no -dev package, and that `podman stop` ends it
# with exit 0 within the drain timeout while a request is in flight (which
# is answered). Then deploy/compose.yaml runs as written with podman-compose
# (three replicas behind nginx: answers right, spread over the replicas,
# health checks, one replica stopped), and deploy/k8s/deployment.yaml under
# podman kube play (probes answered, pod running, locked down). Prints the
# image size and the time of each step. Any failed check fails the run.
#
#   scripts/container-test.sh [BUILD_DIR]      (as root; default build)
#
# Podman's configuration, storage and the cached base rootfs live in
# BUILD_DIR/container, so a rerun skips debootstrap and reuses the layers.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mkdir -p "$build/container"
dir=$(cd "$build/container" && pwd)
image=localhost/dropjudge:test
drain_timeout=8 # the image's default --drain-timeout
failures=0
t0=$(date +%s.%N)
step_start=$t0
step() { # prints the time the previous step took, then names the next
	local now
	now=$(date +%s.%N)
	[ -z "${step_name:-}" ] || printf '   %-44s %6.1f s\n' "$step_name" "$(calc "$now - $step_start")"
	step_name=$1
	step_start=$now
}
calc() { awk "BEGIN { print $1 }"; }
fail() { echo "   FAIL  $*"; failures=$((failures + 1)); }
ok() { echo "   ok    $*"; }

step "base image (debootstrap, cached)"
. scripts/container-lib.sh
step "image build (buildah)"
container_build "$image"

step "runtime image contents"
size=$(podman image inspect "$image" --format '{{.Size}}')
# No compiler and no -dev package in the runtime stage.
leftovers=$(podman run --rm --read-only --cap-drop=ALL --entrypoint /bin/sh "$image" 2>>"$dir/podman.log" -c \
	"dpkg-query -W -f '\${Package}\n' | grep -E -e '-dev\$' -e '^(gcc|g\+\+|cpp|clang|binutils|make)(-[0-9.]+)?\$'; command -v cc gcc c99 ld as make || true")
if [ -z "$leftovers" ]; then ok "no compiler, no -dev package in the image"; else fail "build tools left in the image: $leftovers"; fi
# Debian 13, and the program links libmicrohttpd 1.0 from it.
release=$(podman run --rm --read-only --cap-drop=ALL --entrypoint /bin/cat "$image" /etc/debian_version 2>>"$dir/podman.log")
versions=$(podman run --rm --read-only --cap-drop=ALL "$image" --version 2>>"$dir/podman.log" | tail -n 1)
case "$release:$versions" in
13*:"libmicrohttpd 1."*) ok "Debian $release, $versions" ;;
*) fail "expected Debian 13 with libmicrohttpd 1.x, got Debian '$release', '$versions'" ;;
esac

step "start (read-only, no capabilities)"
cid=$(podman run -d --read-only --cap-drop=ALL --security-opt=no-new-privileges \
	-p 127.0.0.1::8080 "$image" 2>>"$dir/podman.log")
work=$(mktemp -d)
cleanup() {
	podman rm -f "$cid" >/dev/null 2>&1 || true
	[ -z "${project:-}" ] || podman-compose -p "$project" -f deploy/compose.yaml down >/dev/null 2>&1 || true
	[ ! -f "$work/deployment.yaml" ] || podman kube down "$work/deployment.yaml" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
base=http://$(podman port "$cid" 8080/tcp | head -n1)
up=
for _ in $(seq 100); do
	if curl -fsS -o /dev/null "$base/livez" 2>/dev/null; then up=1; break; fi
	sleep 0.1
done
[ -n "$up" ] || { podman logs "$cid" >&2; echo "the container never answered /livez" >&2; exit 1; }
ok "listening at $base"

step "endpoints through the published port"
# check WHAT STATUS PATTERN CURL_ARGS...: the answer has STATUS and its body
# matches the extended regular expression PATTERN.
check() {
	local what=$1 want=$2 pattern=$3 got body
	shift 3
	got=$(curl -sS -o "$work/body" -w '%{http_code}' "$@" 2>&1) || got="curl error: $got"
	body=$(cat "$work/body" 2>/dev/null || true)
	if [ "$got" = "$want" ] && grep -Eq -- "$pattern" <<<"$body"; then
		ok "$what: $got"
	else
		fail "$what: got $got, want $want matching /$pattern/; body: ${body:0:300}"
	fi
}
check "GET /livez" 200 'ok|live' "$base/livez"
check "GET /healthz" 200 'ok|live' "$base/healthz"
check "GET /readyz" 200 'ready' "$base/readyz"
check "GET /v1" 200 '"monomino-domino"' "$base/v1"
check "GET /openapi.yaml" 200 '^openapi: 3\.1' "$base/openapi.yaml"
check "HEAD /livez" 200 '' -I "$base/livez"
md_example='{"blocks":[[1,1,1],[2,3,0],[3,2,2],[3,2,3],[3,1,3],[2,0,0],[3,2,0],[3,1,2]]}'
puyo_example='{"field":["......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG."]}'
check "POST /v1/monomino-domino/judge (right answer)" 200 '"verdict":"accepted"' \
	-H 'Content-Type: application/json' --data-binary "{\"input\":$md_example,\"output\":\"2\n15\n\"}" "$base/v1/monomino-domino/judge"
check "POST /v1/monomino-domino/judge (wrong answer)" 200 '"verdict":"wrong_answer"' \
	-H 'Content-Type: application/json' --data-binary "{\"input\":$md_example,\"output\":\"2\n16\n\"}" "$base/v1/monomino-domino/judge"
check "POST /v1/puyo/judge" 200 '"verdict":"accepted"' \
	-H 'Content-Type: application/json' --data-binary "{\"input\":$puyo_example,\"output\":\"3\"}" "$base/v1/puyo/judge"
check "POST /v1/monomino-domino/validate" 200 '"valid":false' \
	-H 'Content-Type: text/plain' --data-binary $'2\n1 1 1\n4 0 0\n' "$base/v1/monomino-domino/validate"
check "POST /v1/puyo/validate" 200 '"valid":true' \
	-H 'Content-Type: application/json' --data-binary "$puyo_example" "$base/v1/puyo/validate"
check "GET /v1/monomino-domino/generate" 200 '"blocks"' "$base/v1/monomino-domino/generate?seed=42&n=3"
check "GET /v1/puyo/generate" 200 '"field"' "$base/v1/puyo/generate?seed=1&colors=3&min_chains=2"
check "batch of two cases" 200 '"results"' \
	-H 'Content-Type: application/json' --data-binary '{"cases":[{"blocks":[[1,1,1]]},{"blocks":[[3,3,0]]}]}' "$base/v1/monomino-domino"
check "unknown path" 404 '"status":404' "$base/v2"
check "wrong method" 405 '"status":405' "$base/v1/puyo"
check "wrong media type" 415 '"status":415' -H 'Content-Type: application/xml' --data-binary '<x/>' "$base/v1/puyo"
head -c 1200000 /dev/zero | tr '\0' ' ' >"$work/big.json"
check "body over --max-body" 413 '"status":413' -H 'Content-Type: application/json' --data-binary "@$work/big.json" "$base/v1/monomino-domino"
check "GET /metrics" 200 '^dropjudge_build_info\{version="' "$base/metrics"
if command -v promtool >/dev/null; then
	if out=$(curl -fsS "$base/metrics" | promtool check metrics 2>&1) && [ -z "$out" ]; then
		ok "promtool check metrics: clean"
	else
		fail "promtool check metrics: $out"
	fi
fi
check "X-Request-Id echoed in a problem" 404 '"request_id":"ct-1"' -H 'X-Request-Id: ct-1' "$base/nowhere"
# Every data-driven case: the expected Baekjoon answer, or the expected status.
cases_ok=0
for c in tests/cases/*/*/; do
	problem=$(basename "$(dirname "$c")")
	input=$(ls "$c"input.* | head -n1)
	case $input in *.json) ctype=application/json ;; *) ctype=text/plain ;; esac
	if [ -f "$c/expected.txt" ] && grep -q '"trace"' "$input"; then
		# A traced case is answered in JSON only: its result must hold the answer.
		read -r -d '' -a exp <"$c/expected.txt" || true
		case $problem in
		puyo) want="\"chains\":${exp[0]}," ;;
		*) want="\"score\":${exp[0]},\"tiles\":${exp[1]}," ;;
		esac
		got=$(curl -sS -H "Content-Type: $ctype" --data-binary "@$input" "$base/v1/$problem") || got=
		if grep -qF "$want" <<<"$got"; then
			cases_ok=$((cases_ok + 1))
		else
			fail "case $c: ${got:0:200}"
		fi
	elif [ -f "$c/expected.txt" ]; then
		got=$(curl -sS -w '\n%{http_code}' -H "Content-Type: $ctype" -H 'Accept: text/plain' \
			--data-binary "@$input" "$base/v1/$problem") || got=
		if [ "$(tail -n1 <<<"$got")" = 200 ] && [ "$(sed '$d' <<<"$got")" = "$(cat "$c/expected.txt")" ]; then
			cases_ok=$((cases_ok + 1))
		else
			fail "case $c: ${got:0:200}"
		fi
	else
		want=$(sed -n 's/.*"status": *\([0-9]*\).*/\1/p' "$c/expected-error.json")
		got=$(curl -sS -o /dev/null -w '%{http_code}' -H "Content-Type: $ctype" --data-binary "@$input" "$base/v1/$problem") || got=
		if [ "$got" = "$want" ]; then cases_ok=$((cases_ok + 1)); else fail "case $c: got $got, want $want"; fi
	fi
done
ok "$cases_ok cases of tests/cases answered as expected"

step "HEALTHCHECK"
if podman healthcheck run "$cid" >/dev/null 2>&1; then ok "podman healthcheck run: exit 0"; else fail "podman healthcheck run failed"; fi
health=$(podman inspect "$cid" --format '{{.State.Health.Status}}' 2>/dev/null || podman inspect "$cid" --format '{{.State.Healthcheck.Status}}')
if [ "$health" = healthy ]; then ok "health status: $health"; else fail "health status: $health"; fi

step "user, capabilities, read-only root"
status=$(podman exec "$cid" cat /proc/1/status)
uid=$(awk '/^Uid:/ {print $2}' <<<"$status")
if [ -n "$uid" ] && [ "$uid" != 0 ]; then ok "runs as uid $uid ($(podman exec "$cid" id -un 2>/dev/null || echo '?'))"; else fail "runs as uid '$uid'"; fi
for cap in CapInh CapPrm CapEff CapBnd CapAmb; do
	v=$(awk -v k="$cap:" '$1 == k {print $2}' <<<"$status")
	if [ "$v" = 0000000000000000 ]; then ok "$cap $v"; else fail "$cap is '$v'"; fi
done
nnp=$(awk '/^NoNewPrivs:/ {print $2}' <<<"$status")
[ "$nnp" = 1 ] && ok "NoNewPrivs 1" || fail "NoNewPrivs '$nnp'"
ro=$(podman inspect "$cid" --format '{{.HostConfig.ReadonlyRootfs}}')
if [ "$ro" = true ] && ! podman exec "$cid" sh -c 'echo x >/usr/local/bin/x || echo x >/x' 2>/dev/null; then
	ok "root filesystem read-only (ReadonlyRootfs=$ro, writes refused)"
else
	fail "root filesystem writable (ReadonlyRootfs=$ro)"
fi

step "podman stop with a request in flight"
{ sleep 1; printf '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n'; } |
	curl -sS -H 'Expect:' -H 'Content-Type: text/plain' -H 'Accept: text/plain' -T - -X POST \
		-o "$work/inflight" -w '%{http_code}' "$base/v1/monomino-domino" >"$work/inflight.code" 2>&1 &
curl_pid=$!
sleep 0.3
s0=$(date +%s.%N)
podman stop -t $((drain_timeout + 2)) "$cid" >/dev/null 2>&1 || true
stop_s=$(calc "$(date +%s.%N) - $s0")
wait "$curl_pid" || true
code=$(podman inspect "$cid" --format '{{.State.ExitCode}}')
if [ "$code" = 0 ] && [ "$(calc "$stop_s < $drain_timeout")" = 1 ]; then
	ok "podman stop: exit code $code after $(printf '%.1f' "$stop_s") s (drain timeout $drain_timeout s)"
else
	fail "podman stop: exit code $code after $stop_s s"
fi
if [ "$(cat "$work/inflight.code")" = 200 ] && [ "$(cat "$work/inflight")" = $'2\n15' ]; then
	ok "the request in flight was answered: $(tr '\n' ' ' <"$work/inflight")"
else
	fail "the request in flight got $(cat "$work/inflight.code"): $(cat "$work/inflight")"
fi
podman rm -f "$cid" >/dev/null 2>&1 || true

# A free loopback TCP port: bound with port 0, read back, released.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
# wait_ok URL: up to 20 s for a 200.
wait_ok() {
	for _ in $(seq 200); do
		curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
md_text=$'8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n'

step "nginx image (deploy/nginx.Dockerfile)"
podman tag "$image" localhost/dropjudge:latest
container_build localhost/dropjudge-nginx:latest -f deploy/nginx.Dockerfile

step "compose: replicas behind nginx"
project=djtest$$
compose() { podman-compose -p "$project" -f deploy/compose.yaml "$@" >>"$dir/compose.log" 2>&1; }
lb_port=$(free_port)
: >"$dir/compose.log"
DROPJUDGE_PORT=$lb_port compose up -d --no-build || { tail -n 20 "$dir/compose.log" >&2; fail "podman-compose up"; }
lb=http://127.0.0.1:$lb_port
if wait_ok "$lb/readyz"; then ok "nginx answers on $lb"; else fail "nginx never ready on $lb"; fi
answered=0
for i in $(seq 30); do
	got=$(curl -sS -H "X-Request-Id: $project-$i" -H 'Content-Type: text/plain' -H 'Accept: text/plain' \
		--data-binary "$md_text" "$lb/v1/monomino-domino" 2>/dev/null) || got=
	[ "$got" = $'2\n15' ] && answered=$((answered + 1))
done
if [ "$answered" = 30 ]; then ok "30 of 30 answers right through nginx"; else fail "$answered of 30 answers right through nginx"; fi
spread=
for n in 1 2 3; do
	c=${project}_dropjudge_$n
	lines=$(podman logs "$c" 2>/dev/null | grep -c "\"request_id\":\"$project-" || true)
	spread="$spread $lines"
	[ "$lines" -gt 0 ] || fail "replica $n logged none of the requests"
	if podman healthcheck run "$c" >/dev/null 2>&1; then :; else fail "replica $n unhealthy"; fi
done
ok "requests per replica (from their JSON access logs):$spread; replicas healthy"
if podman healthcheck run "${project}_lb_1" >/dev/null 2>&1; then ok "nginx healthy"; else fail "nginx unhealthy"; fi
podman stop -t 10 "${project}_dropjudge_1" >/dev/null 2>&1
answered=0
for i in $(seq 20); do
	got=$(curl -sS -H 'Content-Type: text/plain' -H 'Accept: text/plain' --data-binary "$md_text" "$lb/v1/monomino-domino" 2>/dev/null) || got=
	[ "$got" = $'2\n15' ] && answered=$((answered + 1))
done
if [ "$answered" = 20 ]; then ok "replica 1 stopped: 20 of 20 answers right"; else fail "replica 1 stopped: $answered of 20 answers right"; fi
compose down || true
podman network rm -f "${project}_default" >/dev/null 2>&1 || true

step "podman kube play deploy/k8s/deployment.yaml"
# The Deployment as written, with one replica and its port published on
# loopback (hostPort, hostIP): podman plays every replica as a pod.
kube_port=$(free_port)
awk -v hp="$kube_port" '/^  replicas:/ { print "  replicas: 1"; next } { print }
	/containerPort: 8080/ { ind = $0; sub(/[^ ].*/, "", ind); print ind "hostPort: " hp; print ind "hostIP: 127.0.0.1" }' \
	deploy/k8s/deployment.yaml >"$work/deployment.yaml"
kube_ok=
if podman kube play "$work/deployment.yaml" >"$dir/kube.log" 2>&1; then kube_ok=1; else tail -n 20 "$dir/kube.log" >&2; fail "podman kube play"; fi
kube=http://127.0.0.1:$kube_port
if [ -n "$kube_ok" ]; then
	# The kubelet's probes, made here: startup and liveness /livez, readiness /readyz.
	if wait_ok "$kube/livez"; then ok "startup probe: GET /livez 200"; else fail "startup probe: /livez never answered"; fi
	if wait_ok "$kube/readyz"; then ok "readiness probe: GET /readyz 200"; else fail "readiness probe: /readyz never 200"; fi
	kc=dropjudge-pod-0-dropjudge
	if podman healthcheck run "$kc" >/dev/null 2>&1; then ok "liveness probe (exec dropjudge healthcheck): healthy"; else fail "liveness probe failed"; fi
	state=$(podman pod inspect dropjudge-pod-0 --format '{{.State}}' 2>/dev/null)
	[ "$state" = Running ] && ok "pod dropjudge-pod-0 $state" || fail "pod state '$state'"
	kstatus=$(podman exec "$kc" cat /proc/1/status)
	kuid=$(awk '/^Uid:/ {print $2}' <<<"$kstatus")
	keff=$(awk '/^CapEff:/ {print $2}' <<<"$kstatus")
	kro=$(podman inspect "$kc" --format '{{.HostConfig.ReadonlyRootfs}}')
	if [ "$kuid" != 0 ] && [ "$keff" = 0000000000000000 ] && [ "$kro" = true ]; then
		ok "pod runs as uid $kuid, CapEff $keff, read-only root"
	else
		fail "pod: uid $kuid CapEff $keff ReadonlyRootfs $kro"
	fi
	got=$(curl -sS -H 'Content-Type: text/plain' -H 'Accept: text/plain' --data-binary "$md_text" "$kube/v1/monomino-domino" 2>/dev/null) || got=
	[ "$got" = $'2\n15' ] && ok "the pod answers right" || fail "the pod answered '$got'"
	podman kube down "$work/deployment.yaml" >>"$dir/kube.log" 2>&1 || true
fi
step done
unset step_name

printf '   image %s: %.1f MB; total %.1f s\n' "$image" "$(calc "$size / 1000000")" \
	"$(calc "$(date +%s.%N) - $t0")"
echo "container: $failures failed"
[ "$failures" -eq 0 ]
