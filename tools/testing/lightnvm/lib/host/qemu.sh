# SPDX-License-Identifier: GPL-2.0
#
# The QEMU invocation of the test harness, sourced by check and bench/run
# (bash): the one place that says how a guest of ours boots under TCG.

# lnvm_qemu LIMIT SMP MEM KERNEL INITRD APPEND [QEMU-ARGS...]: boot KERNEL
# with INITRD under TCG, its first serial port on stdout (with QEMU's own
# messages), for at most LIMIT seconds (then SIGTERM, SIGKILL 10 s later).
# Returns timeout's status: 124 when the limit hit, 137 when killed.
# $QEMU is the binary.
lnvm_qemu() {
	local limit=$1 smp=$2 mem=$3 kimg=$4 initrd=$5 append=$6
	shift 6
	# la57=off: with 5-level paging, 6.1's identify_cpu() clears the LA57
	# capability for a moment and KASAN then takes an interrupt handler's
	# direct-map access for a wild one (a boot-time splat that TCG's slow
	# early boot makes likely under load); 4-level paging avoids it
	# (the outer 2>/dev/null takes only bash's own "Killed" line when a
	# power cut kills the boot: QEMU's messages go to stdout)
	{
		timeout -k 10 "$limit" "$QEMU" -accel tcg -M pc \
			-cpu max,la57=off -smp "$smp" -m "$mem" -nodefaults \
			-no-user-config -display none \
			-L /usr/share/seabios -L /usr/share/qemu \
			-serial stdio -no-reboot \
			-kernel "$kimg" -initrd "$initrd" -append "$append" \
			"$@" </dev/null 2>&1
	} 2>/dev/null
}

# lnvm_cpio DIR OUT: DIR's tree as a newc archive (owner root, sorted)
lnvm_cpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --owner 0:0 --quiet) >"$2"
}

# ocssd_image FILE PROPS: a new, zeroed backing image for QEMU's
# Open-Channel SSD whose -device nvme properties are PROPS
# ("lnum_ch=2,lnum_lun=2,..." for 1.2, "lver=2,lnum_grp=2,lnum_pu=2,
# lnum_chk=8,lclba=16,..." for 2.0, where a chunk is a block of lclba
# one-sector pages; others in PROPS are ignored), of exactly
# the size that geometry needs (ocssd-qemu.rst, "The image": a 4 KiB
# header, 16 bytes per block and plane, the OOB bytes, the data, each part
# 4 KiB aligned). For group_setup in group.conf, instead of a
# hand-computed truncate size.
ocssd_image() {
	local file=$1 p ch=1 lun=1 pln=1 blk=0 pgs=256 secs=4 ssz=4096 meta=16 n
	for p in ${2//,/ }; do
		case $p in
		lnum_ch=*) ch=${p#*=} ;;
		lnum_lun=*) lun=${p#*=} ;;
		lnum_pln=*) pln=${p#*=} ;;
		lnum_blk=*) blk=${p#*=} ;;
		lpgs_per_blk=*) pgs=${p#*=} ;;
		lsecs_per_pg=*) secs=${p#*=} ;;
		lsec_size=*) ssz=${p#*=} ;;
		lmetasize=*) meta=${p#*=} ;;
		lnum_grp=*) ch=${p#*=} ;;
		lnum_pu=*) lun=${p#*=} ;;
		lnum_chk=*) blk=${p#*=} ;;
		lclba=*) pgs=${p#*=} secs=1 ;;
		esac
	done
	if [ "$blk" = 0 ]; then
		echo "ocssd_image: lnum_blk=0 (lnum_chk=0) sizes the device by its image; give it" >&2
		return 1
	fi
	n=$((ch * lun * pln * blk * pgs * secs))
	rm -f "$file"
	truncate -s $((4096 + $(_al4k $((ch * lun * blk * pln * 16))) +
		$(_al4k $((n * meta))) + $(_al4k $((n * ssz))))) "$file"
}

# _al4k N: N rounded up to 4 KiB
_al4k() {
	echo $((($1 + 4095) / 4096 * 4096))
}
