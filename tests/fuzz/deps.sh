#!/usr/bin/env bash
# Checks that CC (clang) can build a libFuzzer target with AddressSanitizer
# and UndefinedBehaviorSanitizer; when it cannot, installs what is missing
# the way scripts/deps.sh does: as root with apt-get, otherwise it prints the
# exact apt-get line and fails.
#
#   tests/fuzz/deps.sh [CC]     (default clang)
set -euo pipefail
cc=${1:-clang}

can_link() {
	local dir rc
	dir=$(mktemp -d)
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$dir/t.c"
	"$cc" -fsanitize=fuzzer,address,undefined "$dir/t.c" -o "$dir/t" >/dev/null 2>&1
	rc=$?
	rm -rf "$dir"
	return $rc
}

command -v "$cc" >/dev/null 2>&1 && can_link && exit 0

# Debian 12: clang is clang-14; libFuzzer and the sanitizer runtimes are in
# libclang-rt-<major>-dev.
missing=()
if command -v "$cc" >/dev/null 2>&1; then
	major=$("$cc" -dumpversion 2>/dev/null | cut -d. -f1)
	missing+=("libclang-rt-${major:-14}-dev")
else
	missing+=(clang libclang-rt-14-dev)
fi
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "make fuzz needs libFuzzer: ${missing[*]}" >&2
	echo "run as root:  apt-get update && $line" >&2
	exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
can_link || { echo "$cc still cannot build a libFuzzer target" >&2; exit 1; }
