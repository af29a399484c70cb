#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo-fresh: the README's first command as a new user meets it. A
# minimal Debian 12 root (debootstrap --variant=minbase, the same Debian
# sources as a fresh machine) gets `make` and a copy of this tree (its
# tracked and new files), then runs `make demo` in it under chroot: the
# demo installs its own packages, builds, boots and runs to its summary.
# Prints the time each phase took. Needs root and Debian's registry; the
# root lives in build/fresh/root and is made anew on every run.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/fresh
root=$out/root
suite=bookworm
mirror=http://deb.debian.org/debian

[ "$(id -u)" = 0 ] || { echo "demo-fresh: run as root (debootstrap, chroot)" >&2; exit 1; }
if ! command -v debootstrap >/dev/null; then
	echo "demo-fresh: installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap
fi

mounts=(proc sys dev dev/pts)
umount_all() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		mountpoint -q "$root/${mounts[i]}" && umount -l "$root/${mounts[i]}"
	done
	return 0
}
trap umount_all EXIT

umount_all
rm -rf "$root"
mkdir -p "$root"
t0=$SECONDS
echo "demo-fresh: debootstrap --variant=minbase $suite (log: build/fresh/debootstrap.log)"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$out/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$out/debootstrap.log"; echo "demo-fresh: debootstrap failed" >&2; exit 1; }
echo "demo-fresh: minimal root ready after $((SECONDS - t0))s"

# the sources of a fresh Debian 12 machine
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
for m in "${mounts[@]}"; do
	mkdir -p "$root/$m"
	mount --bind "/$m" "$root/$m"
done

t1=$SECONDS
echo "demo-fresh: apt-get install make (the README's only prerequisite)"
chroot "$root" env DEBIAN_FRONTEND=noninteractive sh -c \
	'apt-get update -q && apt-get install -y -q --no-install-recommends make' \
	>"$out/make.log" 2>&1 ||
	{ tail -n 20 "$out/make.log"; echo "demo-fresh: installing make failed" >&2; exit 1; }

mkdir -p "$root/root/lightnvm"
(cd "$top" && git ls-files -z -co --exclude-standard | cpio -0 -pdm --quiet "$root/root/lightnvm")

echo "demo-fresh: make demo in the minimal root (log: build/fresh/demo.log)"
t2=$SECONDS
rc=0
chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
	sh -c 'cd /root/lightnvm && make demo' 2>&1 | tee "$out/demo.log" || rc=$?
echo "demo-fresh: make demo took $((SECONDS - t2))s (packages, build, boot, demo); $((SECONDS - t0))s in all"
if [ $rc != 0 ] || ! grep -q 'DEMO-EXIT 0' "$out/demo.log"; then
	echo "demo-fresh: make demo FAILED on a minimal Debian 12 root" >&2
	exit 1
fi
echo "demo-fresh: make demo passed on a minimal Debian 12 root ($((t2 - t1))s to install make)"
