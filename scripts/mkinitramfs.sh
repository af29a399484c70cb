#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the parts of the test initramfs. The kernel unpacks concatenated
# cpio archives, so a boot image is assembled from:
#
#   base            busybox, kmod, e2fsprogs, fio, nvme-cli, util-linux
#                   tools and their shared libraries (from Debian's
#                   packages), plus the optional tools of OPTIONAL_TOOLS
#                   that are installed (stress-ng: only `install-deps.sh
#                   all` installs it; tests that need it say `requires`);
#                   rebuilt when this script or that set changes
#   mods-FLAVOR     /lib/modules/<release> of the kernel being booted
#   run             /init, the test harness, the tests and our tools
#                   (made per boot by the test runner: cheap)
#
# Usage: mkinitramfs.sh base | mods FLAVOR MODDIR | run OUT.cpio FILES...
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build/initramfs
mkdir -p "$B"
exec 9>"$B/.lock"
flock 9

# cpio_dir DIR OUT: pack DIR as a newc archive padded to 4 bytes.
cpio_dir() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --owner 0:0 --quiet) > "$2"
}

copy_with_libs() {
	local root=$1; shift
	local f lib
	for f in "$@"; do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
		for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*' || true); do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
}

# Tools every image has: the packages of `install-deps.sh demo` (the
# smallest mode) install them, so a missing one is an error.
REQUIRED_TOOLS="/bin/dash /bin/kmod /usr/bin/fio /sbin/mke2fs /sbin/e2fsck
/sbin/debugfs /sbin/dumpe2fs /sbin/tune2fs /sbin/blkdiscard /sbin/fstrim
/usr/sbin/nvme /sbin/blockdev /usr/bin/timeout"
# Tools an image has when their package is installed (`install-deps.sh
# all`); a test that needs one checks for it and skips without it.
OPTIONAL_TOOLS="/usr/bin/stress-ng"

base() {
	local sum stage t present="" out=$B/base.cpio.gz
	for t in $OPTIONAL_TOOLS; do
		[ -x "$t" ] && present="$present $t"
	done
	sum=$( (sha256sum "$0"; echo "$present") | sha256sum | cut -d' ' -f1)
	if [ -f "$out" ] && [ "$(cat "$B/base.sum" 2>/dev/null)" = "$sum" ]; then
		return 0
	fi
	echo "initramfs: building the base image (busybox, fio, e2fsprogs, ...)"
	stage=$B/base
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,mnt,root,lib/modules}
	cp /bin/busybox "$stage/bin/busybox"
	for t in $REQUIRED_TOOLS; do
		[ -x "$t" ] || {
			echo "initramfs: $t is missing: run scripts/install-deps.sh demo" >&2
			return 1
		}
	done
	# shellcheck disable=SC2086
	copy_with_libs "$stage" $REQUIRED_TOOLS $present
	for t in modprobe insmod rmmod lsmod depmod modinfo; do
		ln -sf ../bin/kmod "$stage/sbin/$t"
	done
	for t in mkfs.ext4 mkfs.ext2; do
		ln -sf mke2fs "$stage/sbin/$t"
	done
	ln -sf e2fsck "$stage/sbin/fsck.ext4"
	cp /etc/mke2fs.conf "$stage/etc/"
	echo "root:x:0:0:root:/root:/bin/sh" > "$stage/etc/passwd"
	echo "nobody:x:65534:65534:nobody:/:/bin/false" >> "$stage/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' > "$stage/etc/group"
	cpio_dir "$stage" "$B/base.cpio"
	gzip -1 -f "$B/base.cpio"
	# pad so that the next archive starts 4-byte aligned
	truncate -s %4 "$out"
	echo "$sum" > "$B/base.sum"
	rm -rf "$stage"
}

# mods FLAVOR MODDIR: MODDIR holds lib/modules/<release>/...
mods() {
	local flavor=$1 moddir=$2 stage rel
	stage=$B/mods-$flavor
	rm -rf "$stage"
	mkdir -p "$stage"
	cp -a "$moddir/lib" "$stage/"
	# Debian's kernel has NVMe as a module: add it and what it needs, so
	# that tests on the stock kernel (flavors stock and stock-dkms) can
	# drive the QEMU NVMe/OCSSD device.
	if [ "${flavor#stock}" != "$flavor" ]; then
		for rel in "$stage"/lib/modules/*; do
			# configfs: nvm_mem's instances, ext4: the demo and
			# the tests' file systems, null_blk: make bench's
			# raw-device reference (modules in Debian)
			for m in nvme configfs ext4 null_blk; do
				modprobe -S "$(basename "$rel")" --show-depends $m 2>/dev/null
			done |
				awk '$1 == "insmod" { print $2 }' | sort -u |
				while read -r ko; do
					mkdir -p "$stage$(dirname "$ko")"
					cp "$ko" "$stage$ko"
				done
		done
	fi
	for rel in "$stage"/lib/modules/*; do
		# out-of-tree module sets lack these; depmod only warns
		touch "$rel/modules.order" "$rel/modules.builtin" \
			"$rel/modules.builtin.modinfo"
		depmod -b "$stage" "$(basename "$rel")" 2>"$B/depmod-$flavor.log" ||
			{ cat "$B/depmod-$flavor.log"; return 1; }
	done
	cpio_dir "$stage" "$B/mods-$flavor.cpio"
	rm -rf "$stage"
}

case "${1:-}" in
base) base ;;
mods) mods "$2" "$3" ;;
*) echo "usage: $0 base | mods FLAVOR MODDIR" >&2; exit 2 ;;
esac
