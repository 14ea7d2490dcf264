#!/usr/bin/env bash
# Shared by the scripts that need a Debian root of a given release (sourced,
# not run): the container base image and the test run in a Debian root.
# debootstrap makes it from the Debian mirror this machine's apt sources
# use; the tarball is cached under $DROPJUDGE_CACHE (default
# /var/cache/dropjudge), so only the first run pays for debootstrap. As
# root; debootstrap comes from scripts/deps.sh container.
#
#   debian_rootfs SUITE slim|test   prints the path of the cached tarball
#
# slim: trimmed like the official slim image (no docs, manuals, package
# lists), for the container base. test: minbase with ca-certificates and
# the usual apt sources, for building and testing inside.

DROPJUDGE_CACHE=${DROPJUDGE_CACHE:-/var/cache/dropjudge}

# The first http(s) URI of a non-security Debian source, deb822 or one-line.
debian_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN{RS=""; FS="\n"} {
			uri="";
			for (i = 1; i <= NF; i++)
				if ($i ~ /^URIs:/) { uri=$i; sub(/^URIs:[ \t]*/, "", uri); sub(/[ \t].*/, "", uri) }
			if (uri ~ /^https?:/ && uri !~ /security/) { print uri; exit }
		}' "$f"
	done
	[ -f /etc/apt/sources.list ] && awk '$1 == "deb" && $2 ~ /^https?:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list
	return 0
}

debian_rootfs() {
	local suite=$1 kind=$2 mirror security tarball rootfs
	tarball=$DROPJUDGE_CACHE/$suite-$kind-rootfs-1.tar
	if [ -f "$tarball" ]; then
		echo "$tarball"
		return 0
	fi
	command -v debootstrap >/dev/null || { echo "missing debootstrap: scripts/deps.sh container installs it" >&2; return 1; }
	mirror=$(debian_mirror | head -n1)
	[ -n "$mirror" ] || { echo "no Debian mirror in /etc/apt sources" >&2; return 1; }
	security=${mirror%/debian}/debian-security
	mkdir -p "$DROPJUDGE_CACHE"
	rootfs=$(mktemp -d "$DROPJUDGE_CACHE/rootfs.XXXXXX")
	echo "debootstrap $suite ($kind) from $mirror (slow, cached afterwards)" >&2
	local include=
	[ "$kind" = test ] && include=--include=ca-certificates
	if ! debootstrap --variant=minbase $include "$suite" "$rootfs" "$mirror" >"$rootfs.log" 2>&1; then
		tail -n 20 "$rootfs.log" >&2
		rm -rf --one-file-system "$rootfs"
		return 1
	fi
	if [ "$kind" = slim ]; then
		# Trim like the official slim image (docs, manuals, translations),
		# and keep dpkg from installing them again.
		find "$rootfs"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
		cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOT'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
EOT
		rm -rf "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
			"$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb
		# As the official image does: no package caches left behind by apt.
		cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOT
	fi
	rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log
	cat >"$rootfs/etc/apt/sources.list" <<EOT
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOT
	tar -C "$rootfs" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
	rm -rf --one-file-system "$rootfs" "$rootfs.log"
	echo "$tarball"
}
