#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package the build, the tests and the demo need.
# Idempotent: exits at once when everything is already installed.
# Also enables deb-src so that `apt-get source qemu` works.
set -euo pipefail

PKGS="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
kmod rsync python3 perl sparse git
linux-source-6.1 linux-headers-amd64 linux-image-amd64
dpkg-dev meson ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev
pkg-config qemu-system-data seabios
busybox-static fio e2fsprogs nvme-cli util-linux"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done

need_src=1
for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
	[ -f "$f" ] && grep -Eq '^(Types:.*deb-src|deb-src )' "$f" && need_src=0
done

if [ -z "$missing" ] && [ $need_src = 0 ]; then
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing; run as root" >&2
	exit 1
fi

if [ $need_src = 1 ]; then
	echo "install-deps: enabling deb-src"
	src=/etc/apt/sources.list.d/debian.sources
	if [ -f $src ]; then
		sed -i 's/^Types: deb$/Types: deb deb-src/' $src
	else
		sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > \
			/etc/apt/sources.list.d/lightnvm-src.list
	fi
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $PKGS
