#!/usr/bin/env bash
# Shared by the container scripts (sourced, not run): a private podman
# configuration and storage under $dir, the base image debian:trixie-slim
# made with debootstrap from the Debian mirror this machine's apt sources
# use (scripts/debian-rootfs.sh: the rootfs tarball is cached, so only the
# first run pays for debootstrap), and container_build, which builds the
# Dockerfile without
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
# debian:trixie-slim (Debian 13), made by scripts/debian-rootfs.sh and cached.
. "$(dirname "${BASH_SOURCE[0]}")/debian-rootfs.sh"
if ! podman image exists localhost/debian:trixie-slim; then
	tarball=$(debian_rootfs trixie slim)
	podman import --change 'CMD ["/bin/bash"]' "$tarball" localhost/debian:trixie-slim >"$dir/import.log" 2>&1 ||
		{ cat "$dir/import.log" >&2; exit 1; }
fi
podman tag localhost/debian:trixie-slim docker.io/library/debian:trixie-slim


# container_build IMAGE [BUILDAH ARGS]: builds the Dockerfile of the
# current folder (or the one given with -f) into IMAGE; the log is
# $dir/build.log, its tail shown on failure.
container_build() {
	local image=$1
	shift
	buildah bud --format docker --network host --pull=never "$@" -t "$image" . >"$dir/build.log" 2>&1 ||
		{ tail -n 40 "$dir/build.log" >&2; return 1; }
}
