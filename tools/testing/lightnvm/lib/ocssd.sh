# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the tests of the QEMU Open-Channel SSD 1.2 device (tests/ocssd*),
# sourced by the test scripts in the guest. They drive the device with
# Debian's nvme-cli: admin commands on the controller (/dev/nvme0), I/O
# commands on the namespace block device (/dev/nvme0n1), which exists when
# the kernel sees the namespace as an ordinary one (the stock kernel) and,
# with capacity 0, when LightNVM has it (the debug kernel).
#
# Addresses are device addresses built from the address format (ppaf) the
# identity reports; an I/O helper prints the command's NVMe status as a hex
# number (0x0 on success, e.g. 0x42ff for an empty page).

OCSSD_CTRL=${OCSSD_CTRL:-/dev/nvme0}
OCSSD_NS=${OCSSD_NS:-/dev/nvme0n1}
OCSSD_NSID=${OCSSD_NSID:-1}
OCSSD_TMP=${OCSSD_TMP:-/tmp/ocssd}
mkdir -p "$OCSSD_TMP" 2>/dev/null

# _ocssd_load_nvme: load the NVMe driver and wait for the controller.
_ocssd_load_nvme() {
	_try "modprobe nvme failed" modprobe nvme || return 1
	_try "no $OCSSD_CTRL after modprobe nvme" _wait_for 10 -e "$OCSSD_CTRL" || return 1
}

# _ocssd_wait_ns: wait for the namespace block device.
_ocssd_wait_ns() {
	_try "no $OCSSD_NS" _wait_for 10 -b "$OCSSD_NS" || return 1
}

# __ocssd_status FILE: the NVMe status in nvme-cli's stderr FILE ("0x0" if none).
__ocssd_status() {
	local st
	st=$(sed -n 's/^NVMe status:.*(\(0x[0-9a-fA-F]*\))$/\1/p' "$1" | tail -n 1)
	if [ -n "$st" ]; then
		echo "$st"
	elif grep -q "is Success" "$1"; then
		echo 0x0
	else
		echo "error: $(head -n 1 "$1")"
	fi
}

# _ocssd_u8|u16|u32 FILE OFFSET: an unsigned little-endian number in FILE.
_ocssd_u8() { od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '; }
_ocssd_u16() { od -An -tu2 -j "$2" -N2 "$1" | tr -d ' '; }
_ocssd_u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }

# _ocssd_identity: read the identity (admin 0xe2) into $OCSSD_TMP/id and set
# the geometry and address format variables (OC_*) from it.
_ocssd_identity() {
	local id=$OCSSD_TMP/id g=256
	mkdir -p "$OCSSD_TMP"
	nvme admin-passthru "$OCSSD_CTRL" --opcode=0xe2 --namespace-id="$OCSSD_NSID" \
		--data-len=4096 --read --raw-binary >"$id" 2>"$OCSSD_TMP/err" ||
		{ _fail "identity: $(cat "$OCSSD_TMP/err")"; return 1; }
	OC_VER=$(_ocssd_u8 "$id" 0)
	OC_CGRPS=$(_ocssd_u8 "$id" 2)
	OC_CAP=$(_ocssd_u32 "$id" 4)
	OC_DOM=$(_ocssd_u32 "$id" 8)
	OC_CH_OFF=$(_ocssd_u8 "$id" 12)
	OC_CH_LEN=$(_ocssd_u8 "$id" 13)
	OC_LUN_OFF=$(_ocssd_u8 "$id" 14)
	OC_LUN_LEN=$(_ocssd_u8 "$id" 15)
	OC_PLN_OFF=$(_ocssd_u8 "$id" 16)
	OC_PLN_LEN=$(_ocssd_u8 "$id" 17)
	OC_BLK_OFF=$(_ocssd_u8 "$id" 18)
	OC_BLK_LEN=$(_ocssd_u8 "$id" 19)
	OC_PG_OFF=$(_ocssd_u8 "$id" 20)
	OC_PG_LEN=$(_ocssd_u8 "$id" 21)
	OC_SEC_OFF=$(_ocssd_u8 "$id" 22)
	OC_SEC_LEN=$(_ocssd_u8 "$id" 23)
	OC_MTYPE=$(_ocssd_u8 "$id" $((g + 0)))
	OC_FMTYPE=$(_ocssd_u8 "$id" $((g + 1)))
	OC_NCH=$(_ocssd_u8 "$id" $((g + 4)))
	OC_NLUN=$(_ocssd_u8 "$id" $((g + 5)))
	OC_NPLN=$(_ocssd_u8 "$id" $((g + 6)))
	OC_NBLK=$(_ocssd_u16 "$id" $((g + 8)))
	OC_NPG=$(_ocssd_u16 "$id" $((g + 10)))
	OC_FPG_SZ=$(_ocssd_u16 "$id" $((g + 12)))
	OC_CSECS=$(_ocssd_u16 "$id" $((g + 14)))
	OC_SOS=$(_ocssd_u16 "$id" $((g + 16)))
	OC_TRDT=$(_ocssd_u32 "$id" $((g + 20)))
	OC_TPRT=$(_ocssd_u32 "$id" $((g + 28)))
	OC_TBET=$(_ocssd_u32 "$id" $((g + 36)))
	OC_MPOS=$(_ocssd_u32 "$id" $((g + 44)))
	OC_NSEC=$((OC_FPG_SZ / OC_CSECS))
}

# _ocssd_ppa CH LUN PLN BLK PG SEC: the device address (decimal).
_ocssd_ppa() {
	echo $(( ($1 << OC_CH_OFF) | ($2 << OC_LUN_OFF) | ($3 << OC_PLN_OFF) |
		 ($4 << OC_BLK_OFF) | ($5 << OC_PG_OFF) | ($6 << OC_SEC_OFF) ))
}

# ocssd_io OPCODE PPA [NLB CONTROL] [nvme-cli options...]: run a vector
# command on one address (or NLB+1 with a list pointer in PPA); prints the
# status.
__ocssd_io() {
	local opc=$1 ppa=$2 nlb=$3 ctl=$4
	shift 4
	nvme io-passthru "$OCSSD_NS" --opcode="$opc" --namespace-id="$OCSSD_NSID" \
		--cdw10=$((ppa & 0xffffffff)) --cdw11=$(((ppa >> 32) & 0xffffffff)) \
		--cdw12=$(((ctl << 16) | nlb)) "$@" >/dev/null 2>"$OCSSD_TMP/err"
	__ocssd_status "$OCSSD_TMP/err"
}

# _ocssd_erase PPA: erase the block (one plane) at PPA.
_ocssd_erase() { __ocssd_io 0x90 "$1" 0 0; }

# _ocssd_write PPA DATA OOB: program one sector from files DATA and OOB.
_ocssd_write() {
	__ocssd_io 0x91 "$1" 0 0 --write --data-len="$OC_CSECS" \
		--metadata-len="$OC_SOS" --input-file="$2" --metadata="$3"
}

# _ocssd_read PPA DATA OOB: read one sector into files DATA and OOB.
_ocssd_read() {
	rm -f "$2" "$3"
	__ocssd_io 0x92 "$1" 0 0 --read --data-len="$OC_CSECS" \
		--metadata-len="$OC_SOS" --input-file="$2" --metadata="$3"
}

# _ocssd_get_bbt CH LUN FILE: the bad block table of a LUN (header + entries).
_ocssd_get_bbt() {
	local ppa
	ppa=$(_ocssd_ppa "$1" "$2" 0 0 0 0)
	nvme admin-passthru "$OCSSD_CTRL" --opcode=0xf2 --namespace-id="$OCSSD_NSID" \
		--cdw10=$((ppa & 0xffffffff)) --cdw11=$(((ppa >> 32) & 0xffffffff)) \
		--data-len=$((64 + OC_NBLK * OC_NPLN)) --read --raw-binary \
		>"$3" 2>"$OCSSD_TMP/err"
	__ocssd_status "$OCSSD_TMP/err"
}

# _ocssd_set_bbt PPA TYPE: set the bad block table entry of one block/plane.
_ocssd_set_bbt() {
	nvme admin-passthru "$OCSSD_CTRL" --opcode=0xf1 --namespace-id="$OCSSD_NSID" \
		--cdw10=$(($1 & 0xffffffff)) --cdw11=$((($1 >> 32) & 0xffffffff)) \
		--cdw12=$(($2 << 16)) >/dev/null 2>"$OCSSD_TMP/err"
	__ocssd_status "$OCSSD_TMP/err"
}

# _ocssd_data SEED SEC FILE: the data of sector SEC for a test run SEED.
_ocssd_data() {
	yes "lightnvm ocssd seed=$1 sector=$2" | head -c "$OC_CSECS" >"$3"
}

# _ocssd_oob SEED SEC FILE: the out-of-band bytes of sector SEC.
_ocssd_oob() {
	{ printf 'S%07dO%08d' "$(($1 % 10000000))" "$2"; head -c "$OC_SOS" /dev/zero; } |
		head -c "$OC_SOS" >"$3"
}

# _ocssd_wait_lnvm DEV: wait for DEV to be registered with LightNVM.
_ocssd_wait_lnvm() {
	_wait_for 10 -d "/sys/class/lightnvm/$1" ||
		{ _fail "$1 not registered with LightNVM"; return 1; }
}

# _ocssd_ctrl_by_serial SERIAL: the controller (nvmeN) with that serial.
_ocssd_ctrl_by_serial() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/serial" 2>/dev/null | tr -d ' ')" = "$1" ] && { basename "$c"; return 0; }
	done
	return 1
}

# ------------------------------------------- the device model's power cuts
#
# A raw writer for the crash-consistency tests of the QEMU device: it
# erases and programs whole blocks sector by sector, generation after
# generation, and prints every acknowledged command on the console as
#	@@LNVM RAW SEED BLOCK erase|prog GEN SECTOR
# for the host to carry to the next boot (CARRY_RE of the group). After
# the cut, _ocssd_raw_verify checks each sector of those blocks against the
# last acknowledged command and the one that was in flight.

# the blocks (ch lun pln blk) the raw writer cycles through
OCSSD_RAW_BLKS="0 0 0 12,1 1 1 13"

# __ocssd_raw_blk B: "ch lun pln blk" of raw block B
__ocssd_raw_blk() {
	echo "$OCSSD_RAW_BLKS" | cut -d, -f$(($1 + 1))
}

__ocssd_raw_nblks() {
	echo "$OCSSD_RAW_BLKS" | tr ',' '\n' | grep -c .
}

# _ocssd_raw_data|oob SEED GEN B SEC FILE: what generation GEN writes there
_ocssd_raw_data() {
	yes "raw seed=$1 gen=$2 blk=$3 sector=$4" | head -c "$OC_CSECS" >"$5"
}
_ocssd_raw_oob() {
	{ printf 'G%07dB%dS%06d' "$2" "$3" "$4"; head -c "$OC_SOS" /dev/zero; } |
		head -c "$OC_SOS" >"$5"
}

# __ocssd_raw_ppa B SEC: the device address of sector SEC of raw block B
__ocssd_raw_ppa() {
	# shellcheck disable=SC2046
	set -- $(__ocssd_raw_blk "$1") "$2"
	_ocssd_ppa "$1" "$2" "$3" "$4" $(($5 / OC_NSEC)) $(($5 % OC_NSEC))
}

# _ocssd_raw_writer SEED: erase and program the raw blocks until the power
# is cut (or a command fails: non-zero)
_ocssd_raw_writer() {
	local seed=$1 n b g=1 sec st nsec=$((OC_NPG * OC_NSEC))
	n=$(__ocssd_raw_nblks)
	while :; do
		for b in $(seq 0 $((n - 1))); do
			st=$(_ocssd_erase "$(__ocssd_raw_ppa "$b" 0)")
			_try "raw erase of block $b gen $g: $st" [ "$st" = 0x0 ] || return 1
			echo "@@LNVM RAW $seed $b erase $g 0" >/dev/console
			for sec in $(seq 0 $((nsec - 1))); do
				_ocssd_raw_data "$seed" "$g" "$b" "$sec" /tmp/rw
				_ocssd_raw_oob "$seed" "$g" "$b" "$sec" /tmp/ro
				st=$(_ocssd_write "$(__ocssd_raw_ppa "$b" "$sec")" /tmp/rw /tmp/ro)
				_try "raw program of block $b sector $sec gen $g: $st" [ "$st" = 0x0 ] || return 1
				echo "@@LNVM RAW $seed $b prog $g $sec" >/dev/console
			done
		done
		g=$((g + 1))
	done
}

# __ocssd_raw_sector B SEC: "empty", "torn", "gen G" or "bad: why"
__ocssd_raw_sector() {
	local st got
	st=$(_ocssd_read "$(__ocssd_raw_ppa "$1" "$2")" /tmp/vd /tmp/vo)
	case $st in
	0x42ff) echo empty; return ;;
	0x4281) echo torn; return ;;
	0x0) ;;
	*) echo "bad: read status $st"; return ;;
	esac
	got=$(head -n 1 /tmp/vd | sed -n 's/^raw seed=[0-9]* gen=\([0-9]*\) blk=\([0-9]*\) sector=\([0-9]*\)$/\1 \2 \3/p')
	# shellcheck disable=SC2086
	set -- "$1" "$2" $got
	[ $# = 5 ] || { echo "bad: data of no raw generation"; return; }
	[ "$4" = "$1" ] && [ "$5" = "$2" ] || { echo "bad: data of block $4 sector $5"; return; }
	_ocssd_raw_data "$RAW_SEED" "$3" "$1" "$2" /tmp/ed
	_ocssd_raw_oob "$RAW_SEED" "$3" "$1" "$2" /tmp/eo
	cmp -s /tmp/vd /tmp/ed || { echo "bad: data of gen $3 damaged"; return; }
	cmp -s /tmp/vo /tmp/eo || { echo "bad: OOB differs from the data's (gen $3)"; return; }
	echo "gen $3"
}

# _ocssd_raw_verify SEED: check the raw blocks after a cut against the
# carried lines; prints one line per block, non-zero on a violation
_ocssd_raw_verify() {
	local seed=$1 n b last op g s fop="" fb fg fs base i got want bad=0 nsec=$((OC_NPG * OC_NSEC))
	RAW_SEED=$seed
	n=$(__ocssd_raw_nblks)
	_carried | grep "^@@LNVM RAW $seed " >/tmp/raw.lines
	echo "$(wc -l </tmp/raw.lines) acknowledged raw commands before the cut" >&2
	# the command in flight at the cut: the one after the last acknowledged
	last=$(tail -n 1 /tmp/raw.lines | cut -d' ' -f4-)
	if [ -z "$last" ]; then
		fb=0 fop=erase fg=1 fs=0
	else
		# shellcheck disable=SC2086
		set -- $last
		fb=$1 fop=$2 fg=$3 fs=$4
		if [ "$fop" = erase ]; then
			fop=prog fs=0
		elif [ "$fs" -lt $((nsec - 1)) ]; then
			fs=$((fs + 1))
		else
			fop=erase fs=0 fb=$((fb + 1))
			[ "$fb" = "$n" ] && fb=0 fg=$((fg + 1))
		fi
	fi
	echo "in flight at the cut: block $fb $fop gen $fg sector $fs" >&2
	for b in $(seq 0 $((n - 1))); do
		last=$(grep "^@@LNVM RAW $seed $b " /tmp/raw.lines | tail -n 1 | cut -d' ' -f5-)
		: >/tmp/raw.got
		for i in $(seq 0 $((nsec - 1))); do
			echo "$(__ocssd_raw_sector "$b" "$i")" >>/tmp/raw.got
		done
		# what the last acknowledged command of the block left
		: >/tmp/raw.want
		for i in $(seq 0 $((nsec - 1))); do
			# shellcheck disable=SC2086
			set -- ${last:-erase 0 0}
			if [ "$1" = prog ] && [ "$i" -le "$3" ]; then
				echo "gen $2"
			else
				echo empty
			fi >>/tmp/raw.want
		done
		i=0
		while read -r got; do
			want=$(sed -n "$((i + 1))p" /tmp/raw.want)
			if [ "$got" != "$want" ]; then
				if [ "$b" = "$fb" ] && [ "$fop" = prog ] && [ "$i" = "$fs" ] &&
					{ [ "$got" = empty ] || [ "$got" = torn ] || [ "$got" = "gen $fg" ]; }; then
					echo "block $b sector $i: $got (its program was in flight)" >&2
				elif [ "$b" = "$fb" ] && [ "$fop" = erase ] && ! grep -qv '^empty$' /tmp/raw.got; then
					: # the erase in flight took effect: all empty
				else
					echo "block $b sector $i: $got, expected $want" >&2
					bad=$((bad + 1))
				fi
			fi
			i=$((i + 1))
		done </tmp/raw.got
		echo "raw block $b: $(sort /tmp/raw.got | uniq -c | awk '{ $1 = $1; printf "%s%s", s, $0; s = ", " }')" >&2
	done
	_try "$bad sectors violate the crash consistency of the device" [ "$bad" = 0 ] || return 1
	echo "every sector as acknowledged, or as the command in flight may leave it"
}
