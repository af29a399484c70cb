# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the tests of the QEMU Open-Channel SSD 2.0 device (lver=2,
# tests/ocssd2-raw), sourced by the test scripts in the guest after
# lib/ocssd.sh (whose status, number and data helpers they use). They drive
# the device raw with Debian's nvme-cli: the geometry (admin 0xe2) and the
# chunk information log page (0xca) on the controller, vector reset, write
# and read (0x90/0x91/0x92, one address each) and the scalar Write and Read
# (0x01/0x02, several consecutive addresses, so that a write can fill a
# unit of ws_min from user space) on the namespace. An I/O helper prints
# the command's NVMe status (0x0, or e.g. 0x42f2 for an out-of-order write).
# Chunk descriptors are word lists split on purpose; "A && B || C" is used
# where C is the failure of A or B.
# shellcheck disable=SC2015,SC2046,SC2086

# _ocssd2_geometry: read the geometry into $OCSSD_TMP/geo and set the OC2_*
# variables from it.
_ocssd2_geometry() {
	local g=$OCSSD_TMP/geo
	mkdir -p "$OCSSD_TMP"
	nvme admin-passthru "$OCSSD_CTRL" --opcode=0xe2 --namespace-id="$OCSSD_NSID" \
		--data-len=4096 --read --raw-binary >"$g" 2>"$OCSSD_TMP/err" ||
		{ _fail "geometry: $(cat "$OCSSD_TMP/err")"; return 1; }
	OC2_MJR=$(_ocssd_u8 "$g" 0)
	OC2_MNR=$(_ocssd_u8 "$g" 1)
	OC2_GRP_LEN=$(_ocssd_u8 "$g" 8)
	OC2_PU_LEN=$(_ocssd_u8 "$g" 9)
	OC2_CHK_LEN=$(_ocssd_u8 "$g" 10)
	OC2_LBK_LEN=$(_ocssd_u8 "$g" 11)
	OC2_MCCAP=$(_ocssd_u32 "$g" 16)
	OC2_WIT=$(_ocssd_u8 "$g" 32)
	OC2_NGRP=$(_ocssd_u16 "$g" 64)
	OC2_NPU=$(_ocssd_u16 "$g" 66)
	OC2_NCHK=$(_ocssd_u32 "$g" 68)
	OC2_CLBA=$(_ocssd_u32 "$g" 72)
	OC2_WS_MIN=$(_ocssd_u32 "$g" 128)
	OC2_WS_OPT=$(_ocssd_u32 "$g" 132)
	OC2_MW_CUNITS=$(_ocssd_u32 "$g" 136)
	OC2_MAXOC=$(_ocssd_u32 "$g" 140)
	OC2_MAXOCPU=$(_ocssd_u32 "$g" 144)
	OC2_TRDT=$(_ocssd_u32 "$g" 192)
	OC2_TRDM=$(_ocssd_u32 "$g" 196)
	OC2_TPRT=$(_ocssd_u32 "$g" 200)
	OC2_TPRM=$(_ocssd_u32 "$g" 204)
	OC2_TBET=$(_ocssd_u32 "$g" 208)
	OC2_TBEM=$(_ocssd_u32 "$g" 212)
	OC2_NCHUNKS=$((OC2_NGRP * OC2_NPU * OC2_NCHK))
	# the sector and OOB sizes of the namespace (its LBA format)
	OC_CSECS=4096
	OC_SOS=16
}

# _ocssd2_lba GRP PU CHK LBK: the address in the LBA format (decimal).
_ocssd2_lba() {
	echo $(( ($1 << (OC2_LBK_LEN + OC2_CHK_LEN + OC2_PU_LEN)) |
		 ($2 << (OC2_LBK_LEN + OC2_CHK_LEN)) | ($3 << OC2_LBK_LEN) | $4 ))
}

# _ocssd2_chunk_log FILE [OFFSET LEN]: the chunk information log page (the
# whole of it, or LEN bytes from byte OFFSET); prints the status.
_ocssd2_chunk_log() {
	local off=${2:-0} len=${3:-$((OC2_NCHUNKS * 32))}
	# nvme-cli says nothing on success here: its exit status decides
	if nvme get-log "$OCSSD_CTRL" --log-id=0xca --namespace-id="$OCSSD_NSID" \
		--log-len="$len" --lpo="$off" --raw-binary >"$1" 2>"$OCSSD_TMP/err"; then
		echo 0x0
	else
		__ocssd_status "$OCSSD_TMP/err"
	fi
}

# _ocssd2_desc FILE I: descriptor I of a chunk log in FILE, as
# "STATE TYPE WLI SLBA CNLB WP" (state: free, closed, open, offline or
# the number)
_ocssd2_desc() {
	local o=$(($2 * 32)) cs st
	cs=$(_ocssd_u8 "$1" $o)
	case $cs in
	1) st=free ;; 2) st=closed ;; 4) st=open ;; 8) st=offline ;; *) st=$cs ;;
	esac
	echo "$st $(_ocssd_u8 "$1" $((o + 1))) $(_ocssd_u8 "$1" $((o + 2)))" \
		"$(od -An -tu8 -j $((o + 8)) -N8 "$1" | tr -d ' ')" \
		"$(od -An -tu8 -j $((o + 16)) -N8 "$1" | tr -d ' ')" \
		"$(od -An -tu8 -j $((o + 24)) -N8 "$1" | tr -d ' ')"
}

# _ocssd2_chunk GRP PU CHK: that chunk's descriptor, read from the device
_ocssd2_chunk() {
	local i=$(((($1 * OC2_NPU) + $2) * OC2_NCHK + $3)) st
	st=$(_ocssd2_chunk_log "$OCSSD_TMP/chk" $((i * 32)) 32)
	[ "$st" = 0x0 ] || { echo "log page: $st"; return 1; }
	_ocssd2_desc "$OCSSD_TMP/chk" 0
}

# 2.0's vector commands are 1.2's (opcodes 0x90-0x92 with one address in
# cdw10-11), the address an LBA instead of a PPA: lib/ocssd.sh sends them.
# _ocssd2_reset LBA: vector chunk reset of the chunk of LBA.
_ocssd2_reset() { _ocssd_erase "$1"; }

# _ocssd2_vwrite LBA DATA OOB: vector write of one logical block.
_ocssd2_vwrite() { _ocssd_write "$1" "$2" "$3"; }

# _ocssd2_vread LBA DATA OOB: vector read of one logical block.
_ocssd2_vread() { _ocssd_read "$1" "$2" "$3"; }

# _ocssd2_write LBA N DATA OOB: scalar Write of N logical blocks from LBA.
_ocssd2_write() {
	__ocssd_io 0x01 "$1" $(($2 - 1)) 0 --write --data-len=$(($2 * OC_CSECS)) \
		--metadata-len=$(($2 * OC_SOS)) --input-file="$3" --metadata="$4"
}

# _ocssd2_read LBA N DATA OOB: scalar Read of N logical blocks from LBA.
_ocssd2_read() {
	rm -f "$3" "$4"
	__ocssd_io 0x02 "$1" $(($2 - 1)) 0 --read --data-len=$(($2 * OC_CSECS)) \
		--metadata-len=$(($2 * OC_SOS)) --input-file="$3" --metadata="$4"
}

# _ocssd2_data|oob SEED GEN LBA N FILE: what generation GEN of a test run
# SEED writes to the N logical blocks from LBA
_ocssd2_data() {
	local i
	for i in $(seq "$3" $(($3 + $4 - 1))); do
		yes "ocssd2 seed=$1 gen=$2 lba=$i" | head -c "$OC_CSECS"
	done >"$5"
}
_ocssd2_oob() {
	local i
	for i in $(seq "$3" $(($3 + $4 - 1))); do
		{ printf 'G%05dL%09d' "$2" "$i"; head -c "$OC_SOS" /dev/zero; } |
			head -c "$OC_SOS"
	done >"$5"
}

# ------------------------------------------- the device model's power cuts
#
# A raw writer for the crash-consistency test of the 2.0 device: it resets
# and writes whole chunks, a unit of ws_min per command, generation after
# generation (generation 1 starts on free chunks, so without a reset), and
# prints every acknowledged command on the console as
#	@@LNVM RAW2 SEED CHUNK reset|write GEN UNIT
# for the host to carry to the next boot. After the cut, _ocssd2_raw_verify
# checks the chunks' state, write pointer and data against the last
# acknowledged command and the one that was in flight.

# the chunks (grp pu chk) the raw writer cycles through
OCSSD2_RAW_CHKS="1 0 2,1 0 3"

__ocssd2_raw_nchks() {
	echo "$OCSSD2_RAW_CHKS" | tr ',' '\n' | grep -c .
}

# __ocssd2_raw_lba B LBK: the address of block LBK of raw chunk B
__ocssd2_raw_lba() {
	# shellcheck disable=SC2046
	set -- $(echo "$OCSSD2_RAW_CHKS" | cut -d, -f$(($1 + 1))) "$2"
	_ocssd2_lba "$1" "$2" "$3" "$4"
}

# _ocssd2_raw_writer SEED: until the power is cut (or a command fails)
_ocssd2_raw_writer() {
	local seed=$1 n b g=1 u l st
	n=$(__ocssd2_raw_nchks)
	while :; do
		for b in $(seq 0 $((n - 1))); do
			if [ $g -gt 1 ]; then
				st=$(_ocssd2_reset "$(__ocssd2_raw_lba "$b" 0)")
				_try "raw reset of chunk $b gen $g: $st" [ "$st" = 0x0 ] || return 1
				echo "@@LNVM RAW2 $seed $b reset $g 0" >/dev/console
			fi
			for u in $(seq 0 $((OC2_CLBA / OC2_WS_MIN - 1))); do
				l=$(__ocssd2_raw_lba "$b" $((u * OC2_WS_MIN)))
				_ocssd2_data "$seed" "$g" "$l" "$OC2_WS_MIN" /tmp/rw
				_ocssd2_oob "$seed" "$g" "$l" "$OC2_WS_MIN" /tmp/ro
				st=$(_ocssd2_write "$l" "$OC2_WS_MIN" /tmp/rw /tmp/ro)
				_try "raw write of chunk $b unit $u gen $g: $st" [ "$st" = 0x0 ] || return 1
				echo "@@LNVM RAW2 $seed $b write $g $u" >/dev/console
			done
		done
		g=$((g + 1))
	done
}

# _ocssd2_raw_verify SEED: check the raw chunks after a cut against the
# carried lines; non-zero on a violation
_ocssd2_raw_verify() {
	local seed=$1 n b last fb fop fg fu nu wp ok gen lbk l st bad=0 d
	n=$(__ocssd2_raw_nchks)
	nu=$((OC2_CLBA / OC2_WS_MIN))
	_carried | grep "^@@LNVM RAW2 $seed " >/tmp/raw2.lines
	echo "$(wc -l </tmp/raw2.lines) acknowledged raw commands before the cut" >&2
	# the command in flight at the cut: the one after the last acknowledged
	last=$(tail -n 1 /tmp/raw2.lines | cut -d' ' -f4-)
	if [ -z "$last" ]; then
		fb=0 fop=write fg=1 fu=0
	else
		# shellcheck disable=SC2086
		set -- $last
		fb=$1 fop=$2 fg=$3 fu=$4
		if [ "$fop" = reset ]; then
			fop=write fu=0
		elif [ "$fu" -lt $((nu - 1)) ]; then
			fu=$((fu + 1))
		else
			fb=$((fb + 1)) fu=0
			[ "$fb" = "$n" ] && fb=0 fg=$((fg + 1))
			fop="write"
			[ "$fg" -gt 1 ] && fop=reset
		fi
	fi
	echo "in flight at the cut: chunk $fb $fop gen $fg unit $fu" >&2
	for b in $(seq 0 $((n - 1))); do
		last=$(grep "^@@LNVM RAW2 $seed $b " /tmp/raw2.lines | tail -n 1 | cut -d' ' -f5-)
		# shellcheck disable=SC2086
		set -- ${last:-reset 0 0}
		gen=$2
		wp=0
		[ "$1" = write ] && wp=$((($3 + 1) * OC2_WS_MIN))
		ok=$wp
		if [ "$b" = "$fb" ] && [ "$fop" = write ]; then
			ok="$wp $(((fu + 1) * OC2_WS_MIN))"
		elif [ "$b" = "$fb" ]; then
			ok="$wp 0"
		fi
		# shellcheck disable=SC2046
		set -- $(echo "$OCSSD2_RAW_CHKS" | cut -d, -f$((b + 1)))
		d=$(_ocssd2_chunk "$1" "$2" "$3")
		# shellcheck disable=SC2086
		set -- $d
		echo " $ok " | grep -q " $6 " ||
			{ echo "chunk $b: write pointer $6, expected one of $ok" >&2; bad=$((bad + 1)); continue; }
		case $1:$6 in
		free:0|closed:"$OC2_CLBA") ;;
		open:*) [ "$6" -gt 0 ] && [ "$6" -lt "$OC2_CLBA" ] || { echo "chunk $b: $d" >&2; bad=$((bad + 1)); } ;;
		*) echo "chunk $b: state and write pointer disagree: $d" >&2; bad=$((bad + 1)) ;;
		esac
		for lbk in $(seq 0 $((OC2_CLBA - 1))); do
			l=$(__ocssd2_raw_lba "$b" "$lbk")
			st=$(_ocssd2_vread "$l" /tmp/vd /tmp/vo)
			if [ "$lbk" -ge "$6" ]; then
				[ "$st" = 0x42ff ] || { echo "chunk $b block $lbk above the write pointer: $st" >&2; bad=$((bad + 1)); }
				continue
			fi
			g=$gen
			if [ "$b" = "$fb" ] && [ "$fop" = write ] && [ $((lbk / OC2_WS_MIN)) = "$fu" ]; then
				# the unit in flight: torn (media error) or written
				[ "$st" = 0x4281 ] && { echo "chunk $b block $lbk: torn (its write was in flight)" >&2; continue; }
				g=$fg
			fi
			[ "$st" = 0x0 ] || { echo "chunk $b block $lbk: read status $st" >&2; bad=$((bad + 1)); continue; }
			_ocssd2_data "$seed" "$g" "$l" 1 /tmp/ed
			_ocssd2_oob "$seed" "$g" "$l" 1 /tmp/eo
			cmp -s /tmp/vd /tmp/ed && cmp -s /tmp/vo /tmp/eo ||
				{ echo "chunk $b block $lbk: not the data and OOB of gen $g" >&2; bad=$((bad + 1)); }
		done
		echo "raw chunk $b: $1 wp $6 wli $3 (last acknowledged: ${last:-none})" >&2
	done
	_try "$bad violations of the crash consistency of the device" [ "$bad" = 0 ] || return 1
	echo "every raw chunk as acknowledged, or as the command in flight may leave it"
}
