#!/usr/bin/env bash
# Shared by the container scripts (sourced, not run): a private podman
# configuration and storage under $dir, the base image debian:bookworm-slim
# made with debootstrap from the Debian mirror this machine's apt sources
# use (the rootfs tarball is cached in $dir, so only the first run pays for
# debootstrap), and container_build, which builds the Dockerfile without
# ever pulling. No registry is reached. The caller sets `dir` and runs as
# root; podman, buildah, runc and debootstrap come from scripts/deps.sh
# container.

for tool in podman buildah runc debootstrap curl; do
	command -v "$tool" >/dev/null || { echo "missing $tool: scripts/deps.sh container installs it" >&2; exit 1; }
done
mkdir -p "$dir"

# --- 1. private configuration --------------------------------------------------
nofile=$(ulimit -Hn)
[ "$nofile" = unlimited ] && nofile=1048576
cat >"$dir/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=32768:32768"]
[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "runc"
EOF
cat >"$dir/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$dir/storage"
runroot = "$dir/run"
EOF
export CONTAINERS_CONF=$dir/containers.conf CONTAINERS_STORAGE_CONF=$dir/storage.conf

# --- 2. base image from this machine's Debian mirror ------------------------------
# The first http(s) URI of a bookworm (non-security) source, deb822 or one-line.
apt_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN{RS=""; FS="\n"} {
			uri=""; suites="";
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^URIs:/) { uri=$i; sub(/^URIs:[ \t]*/, "", uri); sub(/[ \t].*/, "", uri) }
				if ($i ~ /^Suites:/) suites=$i
			}
			if (uri != "" && suites ~ /bookworm( |$)/ && uri !~ /security/) { print uri; exit }
		}' "$f"
	done
	[ -f /etc/apt/sources.list ] && awk '$1 == "deb" && $3 == "bookworm" && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list
	return 0
}
mirror=$(apt_mirror | head -n1)
[ -n "$mirror" ] || { echo "no bookworm mirror in /etc/apt sources" >&2; exit 1; }
security=${mirror%/debian}/debian-security

if ! podman image exists localhost/debian:bookworm-slim; then
	tarball=$dir/bookworm-slim-rootfs-2.tar
	if [ ! -f "$tarball" ]; then
		rootfs=$dir/rootfs
		rm -rf "$rootfs"
		echo "debootstrap bookworm from $mirror (slow, cached afterwards)"
		debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$dir/debootstrap.log" 2>&1
		# Trim like the official slim image (docs, manuals, translations),
		# and keep dpkg from installing them again; give it the usual apt
		# sources.
		find "$rootfs"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
		cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
EOF
		rm -rf "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
			"$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
			"$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log
		# As the official image does: no package caches left behind by apt.
		cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
		cat >"$rootfs/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
		tar -C "$rootfs" -cf "$tarball" .
		rm -rf "$rootfs"
	fi
	podman import --change 'CMD ["/bin/bash"]' "$tarball" localhost/debian:bookworm-slim >"$dir/import.log" 2>&1 ||
		{ cat "$dir/import.log" >&2; exit 1; }
fi
podman tag localhost/debian:bookworm-slim docker.io/library/debian:bookworm-slim


# container_build IMAGE [BUILDAH ARGS]: builds the Dockerfile of the
# current folder (or the one given with -f) into IMAGE; the log is
# $dir/build.log, its tail shown on failure.
container_build() {
	local image=$1
	shift
	buildah bud --format docker --network host --pull=never "$@" -t "$image" . >"$dir/build.log" 2>&1 ||
		{ tail -n 40 "$dir/build.log" >&2; return 1; }
}
