#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages a job needs. Idempotent: exits at once when
# everything is already installed.
#
#   install-deps.sh [all]   everything: the build of the debug kernel and
#                           QEMU, the tests, the packages (make check);
#                           also enables deb-src for `apt-get source qemu`
#   install-deps.sh demo    only what the default demo needs: Debian's
#                           stock 6.1 kernel and headers (the out-of-tree
#                           modules), Debian's QEMU, the initramfs tools
#                           and gnuplot; no kernel source, no QEMU build
#   install-deps.sh demo-6.12
#                           the same for make demo KVER=6.12: Debian's
#                           6.12 kernel and headers instead of 6.1's,
#                           and xz-utils
#   install-deps.sh kernel-6.12
#                           everything, and linux-source-6.12 for make
#                           kernel KVER=6.12 (not needed by make check of
#                           the 6.1 series, so not in all)
#   install-deps.sh bench   make bench: the demo's packages and python3
#                           (the report)
#   install-deps.sh --list MODE
#                           print the packages of MODE, one a line, and
#                           install nothing (tests/host/dep-closure checks
#                           that they cover every program a mode runs)
set -euo pipefail

list=0
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
mode=${1:-all}

# the default demo (make demo, DEVICE=mem)
DEMO_PKGS="gcc make libc6-dev kmod cpio
linux-headers-amd64 linux-image-amd64
qemu-system-x86 busybox-static fio e2fsprogs nvme-cli util-linux
gnuplot-nox perl"

# everything else: kernel and QEMU builds, host tests, Debian packaging
ALL_PKGS="$DEMO_PKGS
build-essential bc bison flex libelf-dev libssl-dev xz-utils
rsync python3 perl sparse git
linux-source-6.1
linux-headers-6.12-amd64 linux-image-6.12-amd64
dpkg-dev meson ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev
pkg-config qemu-system-data seabios
debhelper dh-dkms dkms groff-base man-db
stress-ng strace shellcheck"

case $mode in
demo) PKGS=$DEMO_PKGS ;;
# 6.12's kbuild compresses the modules it installs with xz
# (Debian's 6.12 sets CONFIG_MODULE_COMPRESS_XZ; 6.1 compresses none)
demo-6.12) PKGS="$(printf '%s\n' $DEMO_PKGS | sed 's/^linux-\(headers\|image\)-amd64$/linux-\1-6.12-amd64/') xz-utils" ;;
bench) PKGS="$DEMO_PKGS python3" ;;
kernel-6.12) PKGS="$ALL_PKGS linux-source-6.12" ;;
all) PKGS=$ALL_PKGS ;;
*) echo "usage: $0 [--list] [all|demo|demo-6.12|kernel-6.12|bench]" >&2; exit 2 ;;
esac

if [ $list = 1 ]; then
	printf '%s\n' $PKGS
	exit 0
fi

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done

# deb-src: only the QEMU build needs it
need_src=0
if [ "$mode" = all ] || [ "$mode" = kernel-6.12 ]; then
	need_src=1
	for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
		[ -f "$f" ] && grep -Eq '^(Types:.*deb-src|deb-src )' "$f" && need_src=0
	done
fi

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

echo "install-deps ($mode): installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $PKGS
