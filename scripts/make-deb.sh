#!/usr/bin/env bash
# make deb: the Debian package of this tree. The files git tracks (and new
# ones not ignored) are copied to OUT/dropjudge-VERSION, dpkg-buildpackage
# builds the binary package there (debian/, debhelper), and lintian checks
# it: any error fails. debian/changelog must name the version of
# include/dropjudge/version.h. Prints the path of the .deb last.
#
#   scripts/make-deb.sh OUT
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
version=$(sed -n 's/^#define DROPJUDGE_VERSION "\(.*\)"/\1/p' include/dropjudge/version.h)
deb_version=$(sed -n '1s/^dropjudge (\([^)]*\)).*/\1/p' debian/changelog)
if [ "$version" != "$deb_version" ]; then
	echo "make-deb: debian/changelog says $deb_version, version.h $version" >&2
	exit 1
fi
rm -rf "$out"
src=$out/dropjudge-$version
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard | grep -zv '^node_modules$' |
	xargs -0 tar -c --no-recursion -f - | tar -C "$src" -xf -
(cd "$src" && dpkg-buildpackage -us -uc -b -j"${DEB_JOBS:-2}") >"$out/build.log" 2>&1 ||
	{ tail -n 40 "$out/build.log" >&2; exit 1; }
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb=$out/dropjudge_${version}_$arch.deb
changes=$out/dropjudge_${version}_$arch.changes
lintian --fail-on error --info "$changes" >"$out/lintian.log" 2>&1 || {
	cat "$out/lintian.log" >&2
	exit 1
}
sed 's/^/lintian: /' "$out/lintian.log"
echo "$deb"
