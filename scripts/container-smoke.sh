#!/usr/bin/env bash
# Builds the Dockerfile and runs the image for real with Debian's podman,
# buildah and runc, without Docker or a registry, then curls every endpoint
# of the running container, runs its HEALTHCHECK and stops it with SIGTERM
# (see ../shared/CONTAINERS.md for why each step is as it is).
#
#   scripts/container-smoke.sh [TRANSCRIPT]     (as root)
#
# Everything lives in a private folder (DJ_PODMAN_DIR, default
# /tmp/dropjudge-podman): the podman configuration, its storage and a cached
# debootstrap rootfs tarball. The base image debian:trixie-slim is built
# with debootstrap from the Debian mirror this machine's apt sources use and
# imported locally, so `FROM debian:trixie-slim` is never pulled. The curl
# transcript goes to TRANSCRIPT (default container-transcript.txt in the
# private folder). Not called by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${DJ_PODMAN_DIR:-/tmp/dropjudge-podman}
transcript=${1:-$dir/container-transcript.txt}
image=dropjudge:smoke
. scripts/container-lib.sh
container_build "$image"
cid=$(podman run -d --read-only --cap-drop=ALL --security-opt=no-new-privileges -p 127.0.0.1::8080 "$image")
cleanup() { podman rm -f "$cid" >/dev/null 2>&1 || true; }
trap cleanup EXIT
hostport=$(podman port "$cid" 8080/tcp | head -n1)
base=http://$hostport
for _ in $(seq 100); do curl -fsS "$base/livez" >/dev/null 2>&1 && break; sleep 0.1; done

# --- 4. the transcript ------------------------------------------------------------
work=$(mktemp -d)
big=$work/big.json
head -c 1200000 /dev/zero | tr '\0' ' ' >"$big"
batch=$work/batch.json
{ printf '{"cases":['; for i in $(seq 1000); do printf '{"blocks":[[1,1,1]]},'; done; printf '{"blocks":[]}]}'; } >"$batch"

exec 3>"$transcript"
say() { printf '%s\n' "$*" >&3; }
t() { # runs a command, recording it (shell-quoted) and its output
	local rc=0
	say "\$ $(printf '%q ' "$@")"
	"$@" >&3 2>&1 || rc=$?
	[ $rc -eq 0 ] || say "(exit $rc)"
	say ""
}
say "# dropjudge in a container: image $image ($(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.1f MB", $1/1e6}')), published at $base"
say "# $(date -u +%Y-%m-%dT%H:%M:%SZ); podman $(podman --version | awk '{print $3}')"
say ""
t podman image inspect "$image" --format 'User={{.Config.User}} ExposedPorts={{.Config.ExposedPorts}} StopSignal={{.Config.StopSignal}} Healthcheck={{.HealthCheck}} Entrypoint={{.Config.Entrypoint}} Cmd={{.Config.Cmd}}'
t podman logs "$cid"
t curl -sS -i "$base/livez"
t curl -sS -i "$base/healthz"
t curl -sS -i "$base/readyz"
t curl -sS -i "$base/v1"
t curl -sS -o /dev/null -w '%{http_code} %{content_type} %{size_download} bytes\n' "$base/openapi.yaml"
t curl -sS -i -H 'Content-Type: application/json' --data-binary '{"blocks":[[1,1,1],[2,3,0],[3,2,2],[3,2,3],[3,1,3],[2,0,0],[3,2,0],[3,1,2]]}' "$base/v1/monomino-domino"
t curl -sS -i -H 'Content-Type: text/plain' -H 'Accept: text/plain' --data-binary $'8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n' "$base/v1/monomino-domino"
t curl -sS -H 'Content-Type: application/json' --data-binary '{"blocks":[[1,1,1],[2,3,0]],"trace":true}' "$base/v1/monomino-domino"
t curl -sS -i -H 'Content-Type: application/json' --data-binary '{"field":["......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG."]}' "$base/v1/puyo"
t curl -sS -i -H 'Content-Type: text/plain' -H 'Accept: text/plain' --data-binary $'......\n......\n......\n......\n......\n......\n......\n......\n.Y....\n.YG...\nRRYG..\nRRYGG.\n' "$base/v1/puyo"
t curl -sS "$base/v1/puyo?trace=true" -H 'Content-Type: application/json' --data-binary '{"field":["R.....","......","......","......","......","......","......","......","......","......","O.....","RO....","RRR..."]}'
t curl -sS -H 'Content-Type: application/json' --data-binary '{"cases":[{"blocks":[[1,1,1]]},{"blocks":[[3,3,0]]}]}' "$base/v1/monomino-domino"
t curl -sS -H 'Content-Type: application/json' --data-binary '{"input":{"blocks":[[1,1,1]]},"output":"0\n2\n"}' "$base/v1/monomino-domino/judge"
t curl -sS -H 'Content-Type: application/json' --data-binary '{"input":"1\n1 1 1\n","output":"0\n3\n"}' "$base/v1/monomino-domino/judge"
t curl -sS -H 'Content-Type: application/json' --data-binary '{"input":{"field":["......","......","......","......","......","......","......","......",".Y....",".YG...","RRYG..","RRYGG."]},"output":"3"}' "$base/v1/puyo/judge"
t curl -sS -H 'Content-Type: text/plain' --data-binary $'2\n1  1 1\n4 0 0' "$base/v1/monomino-domino/validate"
t curl -sS -H 'Content-Type: application/json' --data-binary '{"field":["......","......","......","......","......","......","......","......","......","..R...","......","RGBPY."]}' "$base/v1/puyo/validate"
t curl -sS -i "$base/v1/monomino-domino/generate?seed=42&n=3"
t curl -sS -i -H 'Accept: text/plain' "$base/v1/puyo/generate?seed=1&colors=3&min_chains=2"
t curl -sS -i "$base/v2"
t curl -sS -i "$base/v1/puyo"
t curl -sS -i -H 'Content-Type: application/xml' --data-binary '<x/>' "$base/v1/puyo"
t curl -sS -i -H 'Accept: application/xml' -H 'Content-Type: application/json' --data-binary '{}' "$base/v1/puyo"
t curl -sS -i -H 'Content-Type: text/plain' --data-binary $'3\n1 1 1\n1 1\n' "$base/v1/monomino-domino"
t curl -sS -i -H 'Content-Type: application/json' --data-binary '{"blocks":[[4,0,0]]}' "$base/v1/monomino-domino"
t curl -sS -i -H 'Content-Type: application/json' --data-binary "@$big" "$base/v1/monomino-domino"
t curl -sS -i -H 'Content-Type: application/json' -H 'Transfer-Encoding: chunked' --data-binary "@$big" "$base/v1/monomino-domino"
t curl -sS -H 'Content-Type: application/json' --data-binary "@$batch" "$base/v1/monomino-domino"
t sh -c "curl -sS -v '$base/livez' '$base/readyz' 2>&1 | grep -E 'Re-using|^< HTTP|^\\{'"
t sh -c "podman healthcheck run $cid 2>/dev/null; echo \"healthcheck exit \$?\""
t podman inspect "$cid" --format 'health={{.State.Health.Status}} running={{.State.Running}}'
# SIGTERM with a request in flight: its body is still being sent when the
# container is stopped; it is answered, then the process exits 0.
inflight=$work/inflight.txt
{ sleep 1; printf '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n'; } |
	curl -sS -i -H 'Expect:' -H 'Content-Type: text/plain' -H 'Accept: text/plain' -T - -X POST "$base/v1/monomino-domino" >"$inflight" 2>&1 &
curl_pid=$!
sleep 0.3
say "# in flight meanwhile (body sent 1 s later, after the stop began):"
say "#   { sleep 1; printf '8\\n1 1 1\\n...'; } | curl -sS -i -H 'Expect:' -H 'Content-Type: text/plain' -H 'Accept: text/plain' -T - -X POST $base/v1/monomino-domino &"
t sh -c "podman stop -t 10 $cid 2>/dev/null"
wait "$curl_pid" || true
say "# the in-flight request got:"
cat "$inflight" >&3
say ""
t podman inspect "$cid" --format 'exit code {{.State.ExitCode}}, running={{.State.Running}}'
t podman logs "$cid"
t podman image ls "$image" --format '{{.Repository}}:{{.Tag}} {{.Size}}'
exec 3>&-
rm -rf "$work"
echo "transcript: $transcript"
