#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a minimal qemu-system-x86_64 from Debian's QEMU source with the
# project's patches (patches/qemu/*.patch) applied on top of Debian's.
# Cached: nothing is rebuilt unless a patch or the configuration changed;
# a changed patch set re-extracts the source and syncs only the files that
# differ into the source tree, so ninja recompiles only what the patches
# touched. Only the devices the tests use are built (the pc machine and
# NVMe: configs/devices/x86_64-softmmu/lightnvm.mak, added by a patch).
#
# Output: build/qemu/qemu-system-x86_64
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build
SRC=$B/qemu-src
OBJ=$B/qemu-obj
OUT=$B/qemu
JOBS=${JOBS:-$(nproc)}

# One build at a time (several shells may share this tree).
mkdir -p "$B"
exec 9>"$B/.qemu.lock"
flock 9

log() { echo "qemu: $*"; }

CONFIGURE=(--target-list=x86_64-softmmu --without-default-features
	--without-default-devices --with-devices-x86_64=lightnvm
	--enable-tcg --enable-fdt=system --disable-install-blobs
	--disable-docs --disable-werror --disable-debug-info)

shopt -s nullglob
patches=("$top"/patches/qemu/*.patch)
sum=$({ cat /dev/null "${patches[@]}"; echo "${CONFIGURE[*]}"; } | sha256sum | cut -d' ' -f1)
psum=$(cat /dev/null "${patches[@]}" | sha256sum | cut -d' ' -f1)
if [ -x "$OUT/qemu-system-x86_64" ] && [ "$(cat "$OUT/.patches" 2>/dev/null)" = "$sum" ]; then
	exit 0
fi

if [ "$(cat "$SRC/.lightnvm-patches" 2>/dev/null)" != "$psum" ]; then
	log "fetching Debian's QEMU source"
	rm -rf "$B/qemu-dl"
	mkdir -p "$B/qemu-dl" "$SRC"
	(cd "$B/qemu-dl" && apt-get source -q qemu >/dev/null 2>&1)
	new=$(echo "$B"/qemu-dl/qemu-*/)
	for p in "${patches[@]}"; do
		log "applying $(basename "$p")"
		patch -d "$new" -p1 -s --no-backup-if-mismatch < "$p"
	done
	# Copy only what differs, so that unchanged files keep their mtime
	# and ninja recompiles only what the patches touched.
	rsync -rlc --delete --exclude=.lightnvm-patches "$new" "$SRC/"
	rm -rf "$B/qemu-dl"
	echo "$psum" > "$SRC/.lightnvm-patches"
fi

if [ ! -f "$OBJ/build.ninja" ] ||
   [ "$(cat "$OBJ/.lightnvm-configure" 2>/dev/null)" != "${CONFIGURE[*]}" ]; then
	log "configuring"
	rm -rf "$OBJ"
	mkdir -p "$OBJ"
	(cd "$OBJ" && "$SRC/configure" "${CONFIGURE[@]}" >configure.log 2>&1) ||
		{ tail -20 "$OBJ/configure.log"; exit 1; }
	echo "${CONFIGURE[*]}" > "$OBJ/.lightnvm-configure"
fi

log "building (a few minutes the first time)"
ninja -C "$OBJ" -j"$JOBS" qemu-system-x86_64 >"$OBJ/ninja.log" 2>&1 ||
	{ tail -40 "$OBJ/ninja.log"; exit 1; }
mkdir -p "$OUT"
# replace atomically: a running test may be executing the old binary
cp "$OBJ/qemu-system-x86_64" "$OUT/.qemu-system-x86_64.new"
mv -f "$OUT/.qemu-system-x86_64.new" "$OUT/qemu-system-x86_64"
echo "$sum" > "$OUT/.patches"
log "done"
