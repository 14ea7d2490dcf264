#!/usr/bin/env bash
# Installs what dropjudge needs to build (with "test", to test; with "fuzz",
# to build the libFuzzer targets; "valgrind" and "hardening" for those
# checks; with "container", to build and run the image with podman; with
# "scale", to run replicas behind nginx; "deb" to build the Debian package;
# "monitoring" to check the Prometheus rules; "docs" to write docs/images;
# "bench" for make bench and make bench-http)
# when a check shows it missing. As root it runs apt-get; otherwise it
# prints the exact apt-get line and fails, so nothing is half-done silently.
#
#   scripts/deps.sh build|test|fuzz|valgrind|hardening|container|scale|deb|monitoring|docs|bench [FUZZ_CC]
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-build}

missing=()
optional=()
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
need_pkg() { pkg-config --exists "$1" 2>/dev/null || missing+=("$2"); }

need_cmd cc gcc
need_cmd make make
need_cmd pkg-config pkg-config
# The man page (make docs, make install): scdoc writes its roff.
need_cmd scdoc scdoc
if command -v pkg-config >/dev/null 2>&1; then
	need_pkg libmicrohttpd libmicrohttpd-dev
	need_pkg jansson libjansson-dev
	need_pkg gnutls libgnutls28-dev
	need_pkg libarchive libarchive-dev
	need_pkg zlib zlib1g-dev
else
	missing+=(libmicrohttpd-dev libjansson-dev libgnutls28-dev libarchive-dev zlib1g-dev)
fi
# libharu (the CMS statement's PDF) has no pkg-config file in Debian: its header says.
[ -r /usr/include/hpdf.h ] || missing+=(libhpdf-dev)
if [ "$what" = test ]; then
	if command -v pkg-config >/dev/null 2>&1; then need_pkg cmocka libcmocka-dev; else missing+=(libcmocka-dev); fi
	need_cmd curl curl
	need_cmd unzip unzip
	need_cmd node nodejs
	need_cmd npm npm
	need_cmd openssl openssl
	# The pictures' tests validate SVG with xmllint against the W3C SVG 1.1 DTD.
	need_cmd xmllint libxml2-utils
	[ -r /usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd ] || missing+=(w3c-sgml-lib)
	# The viewer's browser test: Debian's Chromium. Where it cannot be
	# installed the test is skipped and says so; nothing else needs it.
	command -v chromium >/dev/null 2>&1 || optional+=(chromium)
	need_cmd promtool prometheus # checks GET /metrics
	# The CMS package's statement.pdf is checked by qpdf and read back by pdftotext.
	need_cmd qpdf qpdf
	need_cmd pdftotext poppler-utils
	# The man page is rendered by groff in its test; the client examples
	# of docs/ include Python's.
	need_cmd groff groff
	need_cmd python3 python3
	need_cmd jq jq
fi

if [ "$what" = deb ]; then
	need_cmd dpkg-buildpackage dpkg-dev
	dpkg -s build-essential >/dev/null 2>&1 || missing+=(build-essential)
	need_cmd dh debhelper
	need_cmd lintian lintian
	need_cmd git git
fi
if [ "$what" = monitoring ]; then
	missing=()
	need_cmd promtool prometheus
fi

if [ "$what" = container ]; then
	missing=()
	need_cmd podman podman
	need_cmd buildah buildah
	need_cmd runc runc
	need_cmd debootstrap debootstrap
	need_cmd newuidmap uidmap
	need_cmd curl curl
	need_cmd podman-compose podman-compose
	need_cmd python3 python3
	need_cmd catatonit catatonit # the pause process of podman kube play's pods
	# DNS between the containers of a compose network (CNI).
	[ -x /usr/lib/cni/dnsname ] || missing+=(golang-github-containernetworking-plugin-dnsname)
fi

if [ "$what" = scale ]; then
	missing=()
	need_cmd nginx nginx
	need_cmd curl curl
	need_cmd node nodejs
fi
# make docs-images: the pictures as PNG (rsvg-convert) and the viewer's
# screenshots (Chromium).
if [ "$what" = docs ]; then
	need_cmd rsvg-convert librsvg2-bin
	need_cmd chromium chromium
	need_cmd curl curl
	need_cmd node nodejs
fi
# make bench and make bench-http: wrk drives the HTTP goals; curl posts the stream of goal 6.
if [ "$what" = bench ]; then
	need_cmd wrk wrk
	need_cmd curl curl
fi
if [ "$what" = valgrind ]; then need_cmd valgrind valgrind; fi
if [ "$what" = hardening ]; then need_cmd hardening-check devscripts; fi

# Whether the fuzz compiler links a libFuzzer target with ASan and UBSan.
fuzz_cc=${2:-clang}
can_link_fuzzer() {
	local dir rc
	dir=$(mktemp -d)
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$dir/t.c"
	"$fuzz_cc" -fsanitize=fuzzer,address,undefined "$dir/t.c" -o "$dir/t" >/dev/null 2>&1
	rc=$?
	rm -rf "$dir"
	return $rc
}
if [ "$what" = fuzz ] && ! { command -v "$fuzz_cc" >/dev/null 2>&1 && can_link_fuzzer; }; then
	# Debian 12: clang is clang-14; libFuzzer and the sanitizer runtimes are
	# in libclang-rt-<major>-dev.
	if command -v "$fuzz_cc" >/dev/null 2>&1; then
		major=$("$fuzz_cc" -dumpversion 2>/dev/null | cut -d. -f1)
		missing+=("libclang-rt-${major:-14}-dev")
	else
		missing+=(clang libclang-rt-14-dev)
	fi
fi

if [ ${#missing[@]} -gt 0 ]; then
	line="apt-get install -y --no-install-recommends ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "dropjudge needs: ${missing[*]}" >&2
		echo "run as root:  apt-get update && $line" >&2
		exit 1
	fi
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ${#optional[@]} -gt 0 ]; then
	if [ "$(id -u)" -eq 0 ]; then
		echo "installing: ${optional[*]}"
		export DEBIAN_FRONTEND=noninteractive
		{ apt-get update -qq && apt-get install -y -qq --no-install-recommends "${optional[@]}"; } ||
			echo "could not install ${optional[*]}: the browser test will be skipped" >&2
	else
		echo "not installed: ${optional[*]} (as root: apt-get install -y --no-install-recommends ${optional[*]}); the browser test will be skipped" >&2
	fi
fi

if [ "$what" = fuzz ] && ! can_link_fuzzer; then
	echo "$fuzz_cc still cannot build a libFuzzer target" >&2
	exit 1
fi

# Test tooling from npm (OpenAPI linter, JSON Schema validator), pinned by the
# lock file: installed again when the lock file's content changes (a stamp
# of its hash, not its time, which a fresh checkout renews).
if [ "$what" = test ]; then
	lock=$(sha256sum package-lock.json | cut -d' ' -f1)
	if [ "$(cat node_modules/.dropjudge-lock 2>/dev/null)" != "$lock" ]; then
		echo "installing test tooling from npm (npm ci)"
		npm ci --no-audit --no-fund --loglevel=error
		echo "$lock" >node_modules/.dropjudge-lock
	fi
fi
exit 0
