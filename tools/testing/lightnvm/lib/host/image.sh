# SPDX-License-Identifier: GPL-2.0
#
# What a VM group boots, sourced by check (bash): the kernel of a flavor
# and its modules, and the initrd of one boot (base image, the flavor's
# modules, and this boot's harness, tests, tools and run list).

# stage_dkms: build/kmods/stock-dkms/lib/modules/<release>/updates/dkms,
# a copy of the modules DKMS installed on the host for Debian's 6.1 kernel
# (the lightnvm-dkms package; tests/host/deb-dkms installs it); prints the
# release, fails when there are none
stage_dkms() {
	local kdir rel
	kdir=$(find /usr/src -maxdepth 1 -name 'linux-headers-6.1.*-amd64' 2>/dev/null | sort -V | tail -n 1)
	[ -n "$kdir" ] || return 1
	rel=${kdir#/usr/src/linux-headers-}
	ls /lib/modules/"$rel"/updates/dkms/*.ko* >/dev/null 2>&1 || return 1
	rm -rf "$B/kmods/stock-dkms"
	mkdir -p "$B/kmods/stock-dkms/lib/modules/$rel/updates"
	cp -r "/lib/modules/$rel/updates/dkms" "$B/kmods/stock-dkms/lib/modules/$rel/updates/"
	echo "$rel"
}

# LNVM_KVER=6.12 (make check KVER=6.12): the debug, kcsan and stock
# flavors are those of the 6.12 series (build/kernel-6.12, ...)
SFX=""
[ "${LNVM_KVER:-6.1}" = 6.12 ] && SFX=-6.12

# kernel_of FLAVOR: prints "bzImage mods-dir"
kernel_of() {
	local v
	case $1 in
	debug)
		echo "$B/kernel$SFX/arch/x86/boot/bzImage $B/kmods/debug$SFX" ;;
	kcsan)
		echo "$B/kernel-kcsan$SFX/arch/x86/boot/bzImage $B/kmods/kcsan$SFX" ;;
	stock)
		v=$(cat "$B/kmods/stock$SFX.release" 2>/dev/null) || return 1
		echo "/boot/vmlinuz-$v $B/kmods/stock$SFX" ;;
	stock-record)
		# the same with nvm_mem's recorder (make modules-record)
		v=$(cat "$B/kmods/stock-record$SFX.release" 2>/dev/null) || return 1
		echo "/boot/vmlinuz-$v $B/kmods/stock-record$SFX" ;;
	stock-6.12)
		# Debian's stock 6.12 kernel whatever the series of the run
		# (make modules-6.12 built the modules against its headers)
		v=$(cat "$B/kmods/stock-6.12.release" 2>/dev/null) || return 1
		echo "/boot/vmlinuz-$v $B/kmods/stock-6.12" ;;
	stock-dkms)
		# Debian's kernel with the modules of the lightnvm-dkms package
		v=$(stage_dkms) || return 1
		echo "/boot/vmlinuz-$v $B/kmods/stock-dkms" ;;
	stock-dkms-6.12)
		# Debian's 6.12 with the modules DKMS built for it when
		# tests/host/deb-dkms-kernels installed the kernel (a copy: that
		# test purges the package)
		v=$(cat "$B/kmods/stock-dkms-6.12.release" 2>/dev/null) || return 1
		echo "/boot/vmlinuz-$v $B/kmods/stock-dkms-6.12" ;;
	*) return 1 ;;
	esac
}

# Modules are packed once per kernel flavor and run (groups booted in
# parallel would race on the staging directory).
declare -A packed=()
pack_modules() {
	local flavor kimg mods
	for flavor in "$@"; do
		[ -n "${packed[$flavor]:-}" ] && continue
		read -r kimg mods < <(kernel_of "$flavor") || continue
		[ -f "$kimg" ] || continue
		bash "$top/scripts/mkinitramfs.sh" mods "$flavor" "$mods" &&
			packed[$flavor]=1
	done
}

# make_run_cpio GROUP OUT RUNLIST: /init, harness, tests, tools, the list
# of this boot's tests ("script name" lines) and the lines carried over
# from the group's earlier boots. Uses the caller's KERNEL and TESTMODS.
make_run_cpio() {
	local group=$1 out=$2 runlist=$3 stage=$B/vm/$1/stage tm=$B/testmods$SFX
	rm -rf "$stage"
	mkdir -p "$stage/lnvm/tests" "$stage/usr/bin"
	cp "$here/vm/init" "$stage/init"
	cp -r "$here/lib" "$stage/lnvm/lib"
	rm -rf "$stage/lnvm/lib/host"
	[ -d "$here/tests/$group" ] && cp -rL "$here/tests/$group" "$stage/lnvm/tests/"
	[ -d "$here/fio" ] && cp -r "$here/fio" "$stage/lnvm/fio"
	if [ -d "$B/tools" ]; then
		find "$B/tools" -maxdepth 1 -type f -perm -u+x -exec cp {} "$stage/usr/bin/" \;
	fi
	[ "$KERNEL" = kcsan ] && tm=$B/testmods-kcsan$SFX
	if [ -d "$tm/$group" ]; then
		cp -r "$tm/$group" "$stage/lnvm/modules"
	elif [ -n "$TESTMODS" ] && [ -d "$tm/debug" ]; then
		# TESTMODS=1: another group of the debug kernel wants them too
		cp -r "$tm/debug" "$stage/lnvm/modules"
	fi
	cp "$runlist" "$stage/lnvm/run-list"
	if [ -f "$B/vm/$group/carry.log" ]; then
		cp "$B/vm/$group/carry.log" "$stage/lnvm/carry.log"
	fi
	[ "$DEMO" = 1 ] && cp "$here/vm/demo.sh" "$stage/lnvm/demo"
	lnvm_cpio "$stage" "$out"
}
