# SPDX-License-Identifier: GPL-2.0
#
# The fault matrix (tests/faults, Documentation/lightnvm/testing.rst):
# every cell puts an rrpc target on a fresh nvm_mem device into a STATE,
# sets a FAULT, runs one OPERATION and checks that the operation ends
# within MX_BOUND seconds with a result the cell allows, and that the
# kernel logged no splat; then it tears everything down (each step
# bounded too). One table line per cell:
#   state     fault   op        result      time  verdict
# Sourced by the tests of the faults group (dash).
#
# States: idle (data flushed, buffer empty), partial (a partial write
# unit buffered), gc (a writer overwriting a full disk: GC running),
# ckpt (lnvm remove writing its checkpoint), recovery (lnvm create
# without -f recovering), nospc (program failures retired the spare),
# dead (a device that aborts every program).
# Faults: none, mprog/mread/merase (media errors: nvm_mem fail_write,
# fail_read, fail_erase at 100%), hread/hprog/herase/hall (host errors:
# fail_host on reads, programs, erases, all), delay (every completion
# 200 ms late), unplug (nvm_mem unplugged), nomem (the device's
# submissions fail with -ENOMEM: fail_nomem), slab (failslab: the first
# allocation of the operation's system call fails, fail-nth).
# Operations: flush (fsync), fua (O_DSYNC|O_DIRECT write), read, discard
# (progs/nvm_cellop.c), remove (lnvm remove), umount (ext4 on the
# target), unload (rmmod nvm_mem: a device of the module's parameters),
# poweroff (the configfs instance's power).

# The words this file expands unquoted (W, MX_DEV, MX_BOUND, the cell's
# names, pids) are fixed words without blanks or patterns.
# shellcheck disable=SC2086
. /lnvm/lib/rrpc.sh

MX_STATES="idle partial gc ckpt recovery nospc dead"
MX_FAULTS="none mprog mread merase hread hprog herase hall delay unplug nomem slab"
MX_OPS="flush fua read discard remove umount unload poweroff"
MX_BOUND=30		# seconds an operation may take (TCG, debug kernel)
MX_GEO="num_ch=1 num_lun=2 num_pln=1 num_blk=16 num_pg=16 sec_per_pg=4 oob_size=16"
MX_DELAY_US=200000
W=/tmp/mx

# _mx_full: 1 under `make faults` (every cell), else 0 (make check's slice)
_mx_full() {
	_v=$(_lnvm_arg faults_full)
	echo "${_v:-0}"
}
MX_FULL=$(_mx_full)

# _mx_unreach STATE FAULT OP: why the cell cannot be reached (nothing if
# it can)
_mx_unreach() {
	case "$1:$3" in
	ckpt:flush|ckpt:fua|ckpt:read|ckpt:discard|ckpt:umount)
		echo "exit writes the checkpoint after del_gendisk: no disk to do I/O on; an open or mounted target refuses removal"
		return ;;
	recovery:flush|recovery:fua|recovery:read|recovery:discard|recovery:umount)
		echo "the disk appears only once recovery ended"
		return ;;
	esac
	case "$2:$3" in
	unplug:unload)
		echo "unplugged is an attribute of configfs instances; rmmod removes only devices of the module's parameters"
		return ;;
	slab:remove|slab:umount|slab:unload|slab:poweroff)
		echo "fail-nth fails one task's allocations: debug/110-fail-nth sweeps create, remove and power-on"
		return ;;
	esac
}

# _mx_expect STATE FAULT OP: the results the cell allows, "|"-separated
_mx_expect() {
	local s=$1 f=$2 o=$3 w=""
	case $s:$o in
	recovery:remove)
		# the core's contract: -EBUSY while the target is being
		# created, -ENODEV once its creation failed
		echo "EBUSY|ENODEV|ok"
		return ;;
	*:remove|*:umount|*:poweroff|*:unload)
		echo ok
		return ;;
	esac
	# faults that make a write fail for good: the target goes out of
	# space (media program errors) or dead (host program errors, a
	# device gone)
	case $f in
	mprog|hprog|hall|unplug) w=fail ;;
	merase|herase) w=maybe ;;
	esac
	# GC reads its victims: in gc, host read errors of GC's reads in a
	# row make the target dead (rrpc.rst, "Device failure"), and erase
	# errors retire the victims until no LUN has a free block (nospc)
	[ $s = gc ] && [ $f = hread ] && w=maybe
	case $o in
	read)
		case $f in
		mread|hread|hall|unplug)
			# in gc the sector may still be in the write buffer
			[ $s = gc ] && echo "ok|EIO" || echo EIO ;;
		slab) echo "ok|ENOMEM" ;;
		*) echo ok ;;
		esac ;;
	flush)
		case $s in
		dead|nospc) echo EIO ;;
		idle) echo ok ;;	# nothing buffered: nothing to program
		*) case $w in
		   fail) echo EIO ;;
		   maybe) echo "ok|EIO" ;;
		   *) echo ok ;;
		   esac ;;
		esac ;;
	fua)
		case $s in
		dead) echo EIO ;;
		nospc) echo ENOSPC ;;
		*) case $w in
		   fail) [ $f = mprog ] && echo "EIO|ENOSPC" || echo EIO ;;
		   maybe) [ $s = gc ] && [ $f = merase ] && echo "ok|EIO|ENOSPC" ||
			  echo "ok|EIO" ;;
		   *) [ $f = slab ] && echo "ok|ENOMEM" || echo ok ;;
		   esac ;;
		esac ;;
	discard)
		case $s in
		dead) echo EIO ;;
		nospc) echo ok ;;	# its trim record waits outside the buffer
		gc) [ -n "$w" ] && echo "ok|EIO|ENOSPC" || echo ok ;;
		*) [ $f = slab ] && echo "ok|ENOMEM" || echo ok ;;
		esac ;;
	esac
}

# _mx_errname TEXT: the errno name of an error message (lnvm's "(errno N)",
# else strerror's text)
_mx_errname() {
	case "$1" in
	*"(errno 2)"*) echo ENOENT ;;
	*"(errno 5)"*) echo EIO ;;
	*"(errno 6)"*) echo ENXIO ;;
	*"(errno 12)"*) echo ENOMEM ;;
	*"(errno 16)"*) echo EBUSY ;;
	*"(errno 17)"*) echo EEXIST ;;
	*"(errno 19)"*) echo ENODEV ;;
	*"(errno 22)"*) echo EINVAL ;;
	*"(errno 28)"*) echo ENOSPC ;;
	*"(errno "*) echo "$1" | sed -n 's/.*(errno \([0-9]*\)).*/errno\1/p' ;;
	*"No such device or address"*) echo ENXIO ;;
	*"No such device"*) echo ENODEV ;;
	*"No such file"*) echo ENOENT ;;
	*"Input/output error"*) echo EIO ;;
	*"No space left"*) echo ENOSPC ;;
	*"busy"*|*"in use"*) echo EBUSY ;;
	*"Invalid argument"*) echo EINVAL ;;
	*"Cannot allocate memory"*|*"Out of memory"*) echo ENOMEM ;;
	*"Resource temporarily"*) echo EAGAIN ;;
	*"Read-only"*) echo EROFS ;;
	*"exists"*) echo EEXIST ;;
	*) echo "err($(echo "$1" | tr -s ' \n' '__' | cut -c1-24))" ;;
	esac
}

# _mx_bg NAME CMD...: run CMD in the background; when it ends, $W/NAME.res
# holds "RESULT SECONDS" (RESULT: ok or an errno name)
_mx_bg() {
	local n=$1
	shift
	rm -f $W/$n.res $W/$n.tmp
	(
		t0=$(cut -d' ' -f1 /proc/uptime)
		if "$@" > $W/$n.out 2>&1; then r=ok; else r=$(_mx_errname "$(cat $W/$n.out)"); fi
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "$r $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" > $W/$n.tmp
		mv $W/$n.tmp $W/$n.res
	) &
	echo $! > $W/$n.pid
}

# _mx_ended NAME: wait MX_BOUND seconds at most for NAME; prints its
# "RESULT SECONDS", or "HANG" (non-zero) if it is still running
_mx_ended() {
	_wait_for $MX_BOUND -f $W/$1.res || { echo "HANG $MX_BOUND+"; return 1; }
	cat $W/$1.res
}

# _mx_cellop OP: nvm_cellop on /dev/rrpc0 (its own result word)
_mx_cellop() {
	local r
	if [ "$MX_FAULT" = slab ]; then
		r=$(CELLOP_FAILNTH=1 nvm_cellop "$1" /dev/rrpc0 "${2:-0}")
	else
		r=$(nvm_cellop "$1" /dev/rrpc0 "${2:-0}")
	fi
	echo "$r" > $W/cellop.word
}

# ------------------------------------------------------------ the device

# _mx_dev_new: a fresh device in MX_DEV: a module-parameter device
# (nvm_mem0) when the operation is rmmod, else a configfs instance
_mx_dev_new() {
	if [ "$MX_OP" = unload ]; then
		_unload nvm_mem || return 1
		# shellcheck disable=SC2046	# the delay: one word or none
		_modprobe nvm_mem nr_devices=1 $MX_GEO completion_mode=1 \
			$([ "$MX_FAULT" = delay ] && echo completion_delay_us=$MX_DELAY_US) || return 1
		MX_DEV=nvm_mem0
		return 0
	fi
	[ -d /sys/module/nvm_mem ] || _modprobe nvm_mem nr_devices=0 || return 1
	# shellcheck disable=SC2086
	_rrpc_mkdev mx $MX_GEO completion_mode=1 || return 1
	MX_DEV=mx
}

# _mx_fault_set FAULT
_mx_fault_set() {
	local d=$RRPC_DBG/$MX_DEV
	case $1 in
	none|slab) ;;
	mprog) _rrpc_fault $MX_DEV write 100 -1 ;;
	mread) _rrpc_fault $MX_DEV read 100 -1 ;;
	merase) _rrpc_fault $MX_DEV erase 100 -1 ;;
	hread|hprog|herase|hall)
		case $1 in
		hread) echo 1 ;; hprog) echo 2 ;; herase) echo 4 ;; hall) echo 7 ;;
		esac > $d/fail_host_ops
		_rrpc_fault $MX_DEV host 100 -1 ;;
	delay)
		# a module-parameter device got it at load
		[ $MX_DEV = nvm_mem0 ] ||
			echo $MX_DELAY_US > $RRPC_CFS/$MX_DEV/completion_delay_us ;;
	unplug) echo 1 > $RRPC_CFS/$MX_DEV/unplugged ;;
	nomem)
		echo 7 > $d/fail_host_ops
		echo 200 > $d/fail_nomem ;;
	esac
	case $1 in
	slab)
		echo N > /sys/kernel/debug/failslab/ignore-gfp-wait
		echo 0 > /sys/kernel/debug/failslab/verbose ;;
	esac
}

# _mx_fault_clear: every fault off (the device may be gone already)
_mx_fault_clear() {
	local d=$RRPC_DBG/$MX_DEV k
	echo Y > /sys/kernel/debug/failslab/ignore-gfp-wait 2>/dev/null
	[ -d $d ] || return 0
	for k in read write erase host; do
		echo 0 > $d/fail_$k/probability 2>/dev/null
	done
	echo 7 > $d/fail_host_ops 2>/dev/null
	echo 0 > $d/fail_nomem 2>/dev/null
	[ -d $RRPC_CFS/$MX_DEV ] && echo 0 > $RRPC_CFS/$MX_DEV/completion_delay_us 2>/dev/null
	return 0
}

# _mx_run_bounded WHAT CMD...: CMD within MX_BOUND seconds, or fail naming WHAT
_mx_run_bounded() {
	local what=$1
	shift
	_mx_bg step "$@"
	_mx_ended step >/dev/null || { MX_WHY="$what did not end within $MX_BOUND s"; return 1; }
	return 0
}

# _mx_teardown: whatever the cell left: writers, mount, target, device.
# Each step bounded; non-zero (MX_WHY set) if one hangs.
_mx_teardown() {
	local p
	_mx_fault_clear
	for p in $MX_PIDS; do
		kill -9 "$p" 2>/dev/null
	done
	for p in $MX_PIDS; do
		_wait_for $MX_BOUND ! -d /proc/$p || { MX_WHY="writer $p still runs $MX_BOUND s after kill"; return 1; }
	done
	MX_PIDS=
	# the bounded background ops of the cell
	for p in op aux; do
		[ -f $W/$p.pid ] || continue
		_wait_for $MX_BOUND ! -d "/proc/$(cat $W/$p.pid)" ||
			{ MX_WHY="$p still runs"; return 1; }
		rm -f $W/$p.pid
	done
	if grep -q " /mnt " /proc/mounts; then
		_mx_run_bounded umount umount /mnt || return 1
	fi
	if [ -e /sys/block/rrpc0 ]; then
		_mx_run_bounded "lnvm remove" lnvm remove -n rrpc0 || return 1
	fi
	if [ -d $RRPC_CFS/mx ]; then
		_mx_run_bounded "power-off" sh -c "echo 0 > $RRPC_CFS/mx/power" || return 1
		rmdir $RRPC_CFS/mx || { MX_WHY="rmdir mx"; return 1; }
	fi
	if [ -d /sys/class/lightnvm/nvm_mem0 ]; then
		_mx_run_bounded rmmod rmmod nvm_mem || return 1
	fi
	return 0
}

# ------------------------------------------------------------ the states

# the data path of the state's I/O: the raw target, or a file on ext4
# when the operation is umount
_mx_path() {
	[ "$MX_OP" = umount ] && echo /mnt/data || echo /dev/rrpc0
}

# _mx_w LBA COUNT [fsync]: 4 KiB O_DIRECT writes of zeros
_mx_w() {
	if [ -n "${3:-}" ]; then
		dd if=/dev/zero of="$(_mx_path)" bs=4k seek="$1" count="$2" \
			oflag=direct conv=notrunc,fsync 2>/dev/null
	else
		dd if=/dev/zero of="$(_mx_path)" bs=4k seek="$1" count="$2" \
			oflag=direct conv=notrunc 2>/dev/null
	fi
}

_mx_base() {
	_rrpc_create $MX_DEV rrpc0 0 1 >/dev/null || return 1
	if [ "$MX_OP" = umount ]; then
		mkfs.ext4 -q -F /dev/rrpc0 || { MX_WHY="mkfs.ext4"; return 1; }
		mount /dev/rrpc0 /mnt || { MX_WHY="mount"; return 1; }
	fi
	_mx_w 0 64 fsync || { MX_WHY="first write"; return 1; }
}

__mx_st_idle() { _mx_base; }

__mx_st_partial() {
	_mx_base || return 1
	# one 4 KiB sector: a unit holds 4 pages (16 sectors) per plane
	_mx_w 100 1 || { MX_WHY="buffered write"; return 1; }
}

__mx_st_gc() {
	local n v0 i=0
	_mx_base || return 1
	if [ "$MX_OP" = umount ]; then
		n=$(stat -f -c '%a %S' /mnt | awk '{ print int($1 * $2 * 3 / 4 / 4096) }')
	else
		n=$(( $(_rrpc_bytes rrpc0) / 4096 ))
	fi
	_mx_w 0 "$n" fsync || { MX_WHY="fill"; return 1; }
	v0=$(_rrpc_stat rrpc0 gc_victims)
	# --thread: the job runs in this process, so that the kill of
	# _mx_cell (remove, umount) or of the teardown stops it; a forked
	# job would outlive its parent and keep the disk open (EBUSY)
	fio --name=gc --filename="$(_mx_path)" --rw=randwrite --bs=4k \
		--direct=1 --ioengine=psync --size=$((n * 4))k --time_based \
		--runtime=300 --thread --output=/dev/null >/dev/null 2>&1 &
	MX_PIDS="$MX_PIDS $!"
	while [ "$(_rrpc_stat rrpc0 gc_victims)" = "$v0" ]; do
		[ $i -ge 300 ] && { MX_WHY="GC did not start in 30 s"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# ckpt and recovery: the state begins with the fault set (_mx_cell)
__mx_st_ckpt() { _mx_base; }

__mx_st_recovery() {
	_mx_base || return 1
	_mx_w 64 400 fsync || { MX_WHY="write"; return 1; }
	lnvm remove -n rrpc0 >/dev/null || { MX_WHY="remove"; return 1; }
}

# __mx_st_wait STATE: rrpc0's state becomes STATE within 10 s. The
# flush that fails into it can complete first: the last LUN's GC work
# item sets nospc (or the last failed command dead) a moment later.
__mx_st_wait() {
	local i=0 st

	while st=$(_rrpc_stat rrpc0 state); [ "$st" != "$1" ]; do
		[ $i -ge 100 ] && { MX_WHY="state $st, not $1 after 10 s"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

__mx_st_nospc() {
	_mx_base || return 1
	_mx_w 64 400 fsync || { MX_WHY="write"; return 1; }
	_rrpc_fault $MX_DEV write 100 -1 || return 1
	# the writers retire block after block: the flush fails once no LUN
	# has a free block
	_mx_run_bounded "flush into nospc" _mx_w 464 8 fsync || return 1
	_rrpc_fault $MX_DEV write 0 0
	__mx_st_wait nospc
}

__mx_st_dead() {
	_mx_base || return 1
	echo 2 > $RRPC_DBG/$MX_DEV/fail_host_ops
	_rrpc_fault $MX_DEV host 100 -1 || return 1
	_mx_run_bounded "flush into dead" _mx_w 64 16 fsync || return 1
	_rrpc_fault $MX_DEV host 0 0
	echo 7 > $RRPC_DBG/$MX_DEV/fail_host_ops
	__mx_st_wait dead
}

# ------------------------------------------------------------ the cells

# _mx_op: start the cell's operation in the background (name "op")
_mx_op() {
	case $MX_OP in
	flush|fua|read|discard) _mx_bg op _mx_cellop $MX_OP ;;
	remove) _mx_bg op lnvm remove -n rrpc0 ;;
	umount) _mx_bg op umount /mnt ;;
	unload) _mx_bg op rmmod nvm_mem ;;
	poweroff) _mx_bg op sh -c "echo 0 > $RRPC_CFS/$MX_DEV/power" ;;
	esac
}

MX_CELLS=0
MX_BAD=0
MX_UNREACHED=0

# _mx_row STATE FAULT OP RESULT TIME VERDICT (under make faults also on
# the console as it comes: the run takes hours)
_mx_row() {
	printf '%-9s %-7s %-8s %-14s %6s  %s\n' "$@"
	[ "$MX_FULL" = 1 ] && _note "$(printf '%-9s %-7s %-8s %-14s %6s  %s' "$@")"
	return 0
}

_mx_header() {
	_mx_row state fault op result time verdict
}

# _mx_cell STATE FAULT OP: one cell; non-zero if it must stop the test
# (something hangs: what follows would hang too)
_mx_cell() {
	local why res t allowed verdict splat p aux=""
	MX_STATE=$1 MX_FAULT=$2 MX_OP=$3 MX_WHY='' MX_PIDS=''
	why=$(_mx_unreach "$@")
	if [ -n "$why" ]; then
		_mx_row "$1" "$2" "$3" - - "unreachable: $why"
		MX_UNREACHED=$((MX_UNREACHED + 1))
		return 0
	fi
	MX_CELLS=$((MX_CELLS + 1))
	rm -rf $W
	mkdir -p $W
	echo "faults: cell $1 $2 $3" > /dev/kmsg
	if ! _mx_dev_new || ! "__mx_st_$1"; then
		_mx_row "$1" "$2" "$3" - - "FAIL: state not reached: ${MX_WHY:-see the log}"
		MX_BAD=$((MX_BAD + 1))
		_mx_teardown || { echo "FAIL: teardown: $MX_WHY" >&2; return 1; }
		return 0
	fi
	_mx_fault_set "$2" || { MX_BAD=$((MX_BAD + 1)); _mx_teardown; return 0; }
	case $1 in
	ckpt)
		# the removal writes the checkpoint under the fault; a power-off
		# or an unload races with it
		if [ "$3" != remove ]; then
			_mx_bg aux lnvm remove -n rrpc0
			sleep 0.1
		fi ;;
	recovery)
		_mx_bg aux lnvm create -d $MX_DEV -n rrpc0 -t rrpc -b 0 -e 1
		sleep 0.3 ;;
	gc)
		# an open disk refuses removal (EBUSY) and a busy file system
		# umount: the writer stops just before, GC still runs
		case $3 in
		remove|umount)
			for p in $MX_PIDS; do kill -9 "$p"; done
			for p in $MX_PIDS; do _wait_for $MX_BOUND ! -d /proc/$p; done
			MX_PIDS= ;;
		esac ;;
	esac
	_mx_op
	res=$(_mx_ended op)
	t=${res#* }
	res=${res%% *}
	if [ "$res" = HANG ]; then
		verdict="FAIL: did not end within $MX_BOUND s"
	else
		case $MX_OP in
		flush|fua|read|discard) res=$(cut -d' ' -f1 $W/cellop.word 2>/dev/null || echo "$res") ;;
		esac
		allowed=$(_mx_expect "$@")
		case "|$allowed|" in
		*"|$res|"*) verdict="ok (allowed: $allowed)" ;;
		*) verdict="FAIL: allowed $allowed" ;;
		esac
	fi
	if [ -f $W/aux.pid ]; then
		aux=$(_mx_ended aux) || verdict="FAIL: the concurrent ${1} step did not end within $MX_BOUND s"
		verdict="$verdict; $([ $1 = ckpt ] && echo remove || echo create): ${aux% *}"
	fi
	splat=$(dmesg | sed -n "/faults: cell $1 $2 $3\$/,\$p" | grep -E "$SPLAT_RE" | head -n 1)
	[ -n "$splat" ] && verdict="FAIL: splat: $splat; $verdict"
	_mx_row "$1" "$2" "$3" "$res" "$t" "$verdict"
	case $verdict in FAIL*) MX_BAD=$((MX_BAD + 1)) ;; esac
	[ "$res" = HANG ] && { echo "FAIL: $1/$2/$3 hangs: stopping" >&2; return 1; }
	_mx_teardown || { echo "FAIL: teardown after $1/$2/$3: $MX_WHY" >&2; MX_BAD=$((MX_BAD + 1)); return 1; }
	return 0
}

# _mx_slice STATE:FAULT:OP...: the given cells (make check's slice);
# prints the table and the counts, non-zero on any failed cell
_mx_slice() {
	local c s
	. /lnvm/lib/splat.sh
	_rrpc_load >/dev/null || return 1
	_mx_header
	for c in "$@"; do
		s=${c%%:*}
		c=${c#*:}
		_mx_cell "$s" "${c%:*}" "${c#*:}" || break
	done
	echo "slice: $MX_CELLS cells run, $MX_BAD failed, $MX_UNREACHED unreachable"
	[ $MX_BAD = 0 ] || return 1
	_rrpc_unload
}

# _mx_state STATE [FAULT:OP...]: the cells of one state: every fault and
# operation under make faults, else the given ones; prints the table and
# the counts, non-zero on any failed cell
_mx_state() {
	local s=$1 f o c
	shift
	. /lnvm/lib/splat.sh
	_rrpc_load >/dev/null || return 1
	_mx_header
	if [ "$(_mx_full)" = 1 ]; then
		for f in $MX_FAULTS; do
			for o in $MX_OPS; do
				_mx_cell "$s" "$f" "$o" || break 2
			done
		done
	else
		for c in "$@"; do
			_mx_cell "$s" "${c%:*}" "${c#*:}" || break
		done
	fi
	echo "state $s: $MX_CELLS cells run, $MX_BAD failed, $MX_UNREACHED unreachable"
	[ $MX_BAD = 0 ] || return 1
	_rrpc_unload
}
