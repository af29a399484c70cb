# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the ocssd-faults group (faults of the QEMU Open-Channel SSD
# under ext4 on rrpc: lost and stalled completions, controller resets,
# surprise removal), sourced by its tests in the guest: the setup (rrpc0
# on nvme0n1, ext4 on /mnt with files written and synced before the
# fault), a fio writer with crc32c verify on a file of that ext4, and the
# checks after a fault the target must survive.

. /lnvm/lib/ocssd.sh
. /lnvm/lib/rrpc.sh

# _faults_setup: rrpc0 on both LUNs of nvme0n1, ext4 on /mnt, /mnt/keep
# written and synced (its checksums in /tmp/sums), the device's bad block
# count in FAULTS_BB
_faults_setup() {
	local i
	# whatever an earlier test of the group left behind
	umount /mnt 2>/dev/null
	[ -e /sys/block/rrpc0 ] && lnvm remove -n rrpc0 >/dev/null 2>&1
	_modprobe gennvm || return 1
	_modprobe rrpc || return 1
	_ocssd_load_nvme || return 1
	_ocssd_wait_lnvm nvme0n1 || return 1
	FAULTS_BB=$(cat /sys/class/lightnvm/nvme0n1/bad_blocks)
	_rrpc_create nvme0n1 rrpc0 0 1 >&2 || return 1
	_try "mkfs.ext4" mkfs.ext4 -q -F /dev/rrpc0 || return 1
	_try "mount" mount /dev/rrpc0 /mnt || return 1
	mkdir /mnt/keep
	for i in 1 2 3 4 5 6; do
		dd if=/dev/urandom of=/mnt/keep/f$i bs=64k count=$((i * 3)) 2>/dev/null ||
			{ _fail "writing /mnt/keep/f$i"; return 1; }
	done
	sync
	(cd /mnt/keep && md5sum f*) >/tmp/sums
}

# _faults_fio_start LOOPS: fio in the background (FAULTS_FIO: its pid):
# random 4 KiB writes with crc32c verify over an 8 MiB file on /mnt,
# LOOPS passes, fsync every 32 writes; its output in /tmp/fio.out
_faults_fio_start() {
	fio --output=/tmp/fio.out --name=faults --filename=/mnt/fio.dat \
		--size=8m --bs=4k --rw=randwrite --ioengine=psync --fsync=32 \
		--loops="$1" --verify=crc32c --verify_fatal=1 --randseed=4242 \
		--verify_state_save=0 &
	FAULTS_FIO=$!
}

# _faults_wait_written N: wait (60 s at most) until rrpc0 has programmed N
# more sectors than when called, so that the fault hits I/O in flight
_faults_wait_written() {
	local base i=0
	base=$(_rrpc_stat rrpc0 media_sectors_written)
	while [ "$(_rrpc_stat rrpc0 media_sectors_written)" -lt $((base + $1)) ]; do
		[ $i -ge 600 ] && { _fail "rrpc0 wrote fewer than $1 sectors in 60 s"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# _faults_until SECONDS COMMAND...: run COMMAND every 0.2 s until it
# succeeds, for SECONDS of uptime at most (a count of rounds would not
# bound the time: a round is slow on a loaded TCG guest)
_faults_until() {
	local end
	end=$(($(cut -d. -f1 /proc/uptime) + $1))
	shift
	until "$@"; do
		[ "$(cut -d. -f1 /proc/uptime)" -lt $end ] || return 1
		sleep 0.2
	done
}

# _faults_count PATTERN: kernel log lines matching PATTERN (grep -c)
_faults_count() {
	dmesg | grep -c "$1"
}

# _faults_wait_live: the controller is live again (60 s at most)
_faults_wait_live() {
	local i=0
	while [ "$(cat /sys/class/nvme/nvme0/state 2>/dev/null)" != live ]; do
		[ $i -ge 600 ] && { _fail "nvme0 not live: $(cat /sys/class/nvme/nvme0/state)"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# _faults_check_intact: after a fault the target survived: fio finished
# and verified, rrpc0 counted no media error, retired no block and lost no
# sector, the device's bad block table is unchanged, ext4 is clean and
# the files synced before the fault are intact; then clean up
_faults_check_intact() {
	local rc s v
	wait "$FAULTS_FIO"
	rc=$?
	[ $rc = 0 ] || { cat /tmp/fio.out >&2; _fail "fio failed ($rc)"; return 1; }
	grep -q "verify: bad" /tmp/fio.out && { cat /tmp/fio.out >&2; _fail "fio verify errors"; return 1; }
	echo "rrpc0: host_errors $(_rrpc_stat rrpc0 host_errors)" >&2
	for s in write_errors read_errors grown_bad_blocks lost_sectors; do
		v=$(_rrpc_stat rrpc0 $s)
		_try "rrpc0 $s: $v" [ "$v" = 0 ] || return 1
	done
	v=$(cat /sys/class/lightnvm/nvme0n1/bad_blocks)
	_try "bad blocks $FAULTS_BB -> $v" [ "$v" = "$FAULTS_BB" ] || return 1
	_try "umount" umount /mnt || return 1
	e2fsck -fn /dev/rrpc0 >/tmp/fsck 2>&1 || { cat /tmp/fsck >&2; _fail "e2fsck -fn"; return 1; }
	_try "remount" mount /dev/rrpc0 /mnt || return 1
	(cd /mnt/keep && md5sum -c /tmp/sums >/dev/null) || { _fail "files synced before the fault differ"; return 1; }
	_try "umount" umount /mnt || return 1
	_rrpc_remove rrpc0 >&2 || return 1
	_unload nvme nvme_core || return 1
	echo "fio verified, no media error, no block retired, e2fsck clean, synced files intact"
}
