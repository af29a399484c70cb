#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the LightNVM test kernel: Debian's linux-source-6.1 (or, KVER=6.12,
# linux-source-6.12), our integration
# patches, our tree overlaid as symlinks (so an edit here is picked up by the
# next incremental build), configured from tinyconfig plus our fragment.
#
# Output: build/kernel/arch/x86/boot/bzImage and modules installed under
# build/kmods/debug. Re-running only rebuilds what changed.
#
# FLAVOR=kcsan (make kernel-kcsan) builds the same tree with
# kernel-kcsan.config merged last (KCSAN instead of KASAN) into
# build/kernel-kcsan, modules under build/kmods/kcsan.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build
FLAVOR=${FLAVOR:-debug}
FRAG=$top/tools/testing/lightnvm/kernel.config
# KVER=6.12 (make kernel KVER=6.12): Debian's linux-source-6.12 with
# patches/linux-6.12, in build/linux-src-6.12 and build/kernel-6.12,
# modules under build/kmods/debug-6.12; 6.1 (the default) keeps its paths
KVER=${KVER:-6.1}
case $KVER in
6.1)	SRC=$B/linux-src PATCHES=$top/patches/linux SFX="" ;;
6.12)	SRC=$B/linux-src-6.12 PATCHES=$top/patches/linux-6.12 SFX=-6.12 ;;
*)	echo "kernel: KVER must be 6.1 or 6.12, not $KVER" >&2; exit 2 ;;
esac
case $FLAVOR in
debug)	OBJ=$B/kernel$SFX FRAGS=("$FRAG") ;;
kcsan)	OBJ=$B/kernel-kcsan$SFX
	FRAGS=("$FRAG" "$top/tools/testing/lightnvm/kernel-kcsan.config") ;;
*)	echo "kernel: unknown FLAVOR $FLAVOR" >&2; exit 2 ;;
esac
# 6.12's additions to the shared fragment
[ "$KVER" = 6.1 ] || FRAGS+=("$top/tools/testing/lightnvm/kernel-$KVER.config")
TARBALL=/usr/src/linux-source-$KVER.tar.xz
JOBS=${JOBS:-$(nproc)}

# One build at a time (several shells may share this tree).
mkdir -p "$B"
exec 9>"$B/.kernel$SFX.lock"
flock 9

log() { echo "kernel: $*"; }

# 1. Unpack the pristine source once.
if [ ! -f "$SRC/.lightnvm-extracted" ]; then
	log "unpacking $TARBALL (once, about a minute)"
	rm -rf "$SRC" "$B/linux-source-$KVER"
	mkdir -p "$B"
	tar -C "$B" -xJf "$TARBALL"
	mv "$B/linux-source-$KVER" "$SRC"
	touch "$SRC/.lightnvm-extracted"
fi

# 2. Integration patches: when the set changed, revert the old set and apply
#    the new one, so that no re-extraction (and no full rebuild) is needed.
applied=$SRC/.lightnvm-patches
mkdir -p "$applied"
if ! diff -rq "$applied" "$PATCHES" >/dev/null 2>&1; then
	for p in $(ls -r "$applied"/*.patch 2>/dev/null); do
		log "reverting $(basename "$p")"
		patch -d "$SRC" -p1 -R -s < "$p"
		rm -f "$p"
	done
	for p in "$PATCHES"/*.patch; do
		[ -e "$p" ] || continue
		log "applying $(basename "$p")"
		patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$p"
		cp "$p" "$applied/"
	done
fi

# 3. Overlay our sources as symlinks; drop links whose target went away.
overlay() {
	local path=$1
	[ -e "$top/$path" ] || return 0
	if [ -d "$top/$path" ]; then
		mkdir -p "$SRC/$path"
		cp -rsf "$top/$path/." "$SRC/$path/"
		find "$SRC/$path" -xtype l -delete
	else
		mkdir -p "$(dirname "$SRC/$path")"
		ln -sf "$top/$path" "$SRC/$path"
	fi
}
overlay drivers/lightnvm
overlay include/linux/lightnvm.h
overlay include/uapi/linux/lightnvm.h
overlay include/trace/events/lightnvm.h
overlay include/trace/events/rrpc.h
overlay drivers/nvme/host/lightnvm.c
overlay Documentation/lightnvm

# The source tree is ready: other flavors may build from it now, this one
# waits only for an earlier build of the same flavor.
flock -u 9
exec 9>"$B/.kernel-$FLAVOR$SFX.lock"
flock 9

# 4. Configure when a fragment (or a Kconfig of ours) is newer than .config.
mkdir -p "$OBJ"
newer=""
for f in "${FRAGS[@]}"; do
	[ "$f" -nt "$OBJ/.config" ] && newer=1
done
if [ ! -f "$OBJ/.config" ] || [ -n "$newer" ] ||
   [ -n "$(find "$top/drivers" -name Kconfig -newer "$OBJ/.config")" ] ||
   [ -n "$(find "$PATCHES" -newer "$OBJ/.config")" ]; then
	log "configuring (tinyconfig + $(cd "$(dirname "$FRAG")" && basename -a "${FRAGS[@]}" | paste -sd+))"
	make -s -C "$SRC" O="$OBJ" tinyconfig >/dev/null
	KCONFIG_CONFIG="$OBJ/.config" "$SRC/scripts/kconfig/merge_config.sh" \
		-m -O "$OBJ" "$OBJ/.config" "${FRAGS[@]}" >/dev/null
	make -s -C "$SRC" O="$OBJ" olddefconfig >/dev/null
	# Every option we ask for must have survived olddefconfig (a later
	# fragment's setting of an option wins over an earlier one's; the
	# options KASAN selects go with it).
	bad=0
	while read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qx "$line" "$OBJ/.config" ||
				{ echo "kernel: config: $line did not stick" >&2; bad=1; }
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			grep -q "^$opt=" "$OBJ/.config" &&
				{ echo "kernel: config: $opt should be unset" >&2; bad=1; }
			;;
		esac
	done < <(awk '
		# the last fragment that names an option decides it; the
		# sub-options of an unset one (KASAN_*) are not checked
		match($0, /^(# )?CONFIG_[A-Z0-9_]+/) {
			o = substr($0, RSTART, RLENGTH); sub(/^# /, "", o)
			if (!(o in line)) order[n++] = o
			line[o] = $0
		}
		END {
			for (i = 0; i < n; i++) {
				o = order[i]; skip = 0
				for (p in line)
					if (index(o, p "_") == 1 && line[p] ~ /is not set/)
						skip = 1
				if (!skip) print line[o]
			}
		}' "${FRAGS[@]}")
	[ $bad = 0 ] || exit 1
	touch "$OBJ/.config"
fi

# 5. Build.
log "building bzImage and modules (-j$JOBS)"
make -s -C "$SRC" O="$OBJ" -j"$JOBS" bzImage modules

# 6. Install modules where the initramfs builder picks them up.
rm -rf "$B/kmods/$FLAVOR$SFX"
make -s -C "$SRC" O="$OBJ" INSTALL_MOD_PATH="$B/kmods/$FLAVOR$SFX" \
	INSTALL_MOD_STRIP=1 DEPMOD=/bin/true modules_install
log "done: $(cat "$OBJ/include/config/kernel.release")"
