#!/usr/bin/env bash
# Writes docs/images: the service's own pictures of both public examples
# (SVG, and PNG made from them with rsvg-convert) and screenshots of the
# viewer (the browser test with DOCS_IMAGES set), which are also its
# reference screenshots (tests/browser/ref). Needs a built binary,
# rsvg-convert (Debian librsvg2-bin) and Chromium.
#
#   scripts/docs-images.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=docs/images
mkdir -p "$out"
command -v rsvg-convert >/dev/null || { echo "needs rsvg-convert (apt-get install librsvg2-bin)" >&2; exit 1; }

log=$(mktemp)
"$build/dropjudge" serve --host 127.0.0.1 --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do
	port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$log")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { cat "$log" >&2; exit 1; }
base=http://127.0.0.1:$port

md=blocks=111,230,322,323,313,200,320,312
puyo=field=......,......,......,......,......,......,......,......,.Y....,.YG...,RRYG..,RRYGG.
get() { curl -sfS "$base/v1/$1/render.svg?$2" -o "$out/$3.svg"; rsvg-convert "$out/$3.svg" -o "$out/$3.png"; }
get monomino-domino "$md" md-example-7
get monomino-domino "$md&strip=true&cell=24" md-example-7-trace
get monomino-domino "$md&step=8" md-example-7-step-8
get puyo "$puyo" puyo-example
get puyo "$puyo&strip=true" puyo-example-trace
get puyo "$puyo&step=1&cell=40" puyo-example-step-1
# Plays in a browser (SMIL); the PNG of it is only the last frame, so none is kept.
curl -sfS "$base/v1/puyo/render.svg?$puyo&animate=true" -o "$out/puyo-example-animated.svg"
curl -sfS "$base/v1/monomino-domino/render.svg?$md&animate=true" -o "$out/md-example-7-animated.svg"

# The viewer's screenshots: the browser test's references (tests/browser/ref)
# and their copies here, from the same shots (the test checks they agree).
UPDATE_SCREENSHOTS=1 DROPJUDGE_BIN="$build/dropjudge" DOCS_IMAGES="$out" node --test tests/browser/ >/dev/null
ls -l "$out"
