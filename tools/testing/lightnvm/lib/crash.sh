# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the crash-state explorer's tests (tests/crash, `make
# crashcheck`; Documentation/lightnvm/crashcheck.rst), sourced in the
# guest (dash). This file owns the explorer's device (a small configfs
# nvm_mem instance) and the full/subset switch; lnvm_crash does the rest.

. /lnvm/lib/rrpc.sh

# 1 channel x 2 LUNs x 12 blocks of 4 pages of 4 sectors (16 sectors a
# block): rrpc keeps 5 blocks per LUN, so 224 sectors of user space less
# the over-provisioning; GC starts after a few dozen overwrites.
CRASH_GEO="num_ch=1 num_lun=2 num_pln=1 num_blk=12 num_pg=4 sec_per_pg=4 oob_size=16 completion_mode=1"

# _crash_full: 1 under `make crashcheck` (every state), else 0 (a subset)
_crash_full() {
	_lnvm_arg crash_full 0
}

# _crash_run NAME WORKLOAD [lnvm_crash options]: record WORKLOAD on a new
# instance NAME (CRASH_GEO, then the attributes of CRASH_GEO_MORE)
# and check its crash states; prints lnvm_crash's summary
# (and violations); the instance is removed afterwards unless it found
# violations (its recording stays for a replay, see the message).
_crash_run() {
	local _n=$1 _rc
	shift
	_rrpc_load || return 1
	# shellcheck disable=SC2086
	_rrpc_mkdev "$_n" $CRASH_GEO $CRASH_GEO_MORE || return 1
	# the summary, progress and the first violations go to the host as
	# they come (make crashcheck: a progress line at least every minute)
	{ lnvm_crash "$@" --dev "$_n" 2>&1; echo $? > /tmp/crash.$_n.rc; } |
		tee /tmp/crash.$_n.out | {
		_v=0
		while read -r _l; do
			case $_l in
			crashcheck*|lnvm_crash:*) _note "$_l" ;;
			VIOLATION*)
				_v=$((_v + 1))
				[ $_v -le 5 ] && _note "$_l" ;;
			esac
		done
	}
	_rc=$(cat /tmp/crash.$_n.rc)
	cat /tmp/crash.$_n.out
	if [ $_rc = 0 ] || [ $_rc = 1 ]; then
		[ -d "$RRPC_CFS/$_n" ] && [ $_rc = 0 ] && {
			echo 0 > "$RRPC_CFS/$_n/power" 2>/dev/null
			rmdir "$RRPC_CFS/$_n"
		}
	fi
	return $_rc
}

# _crash_summary FILE: the "N states checked, M violations" line, for the
# golden output: the counts vary with the recording, the shape does not
_crash_summary() {
	sed -n 's/^\(crashcheck [a-z]*\): \([0-9]*\) states checked, \([0-9]*\) violations.*/\1 \3 violations/p' "$1"
}

# _crash_requires: what every test of the group needs
_crash_requires() {
	_have_module rrpc && _have_module nvm_mem && _have_program lnvm_crash ||
		return 1
	_rrpc_load >/dev/null 2>&1
	[ -d "$RRPC_CFS" ] || { echo "no nvm_mem in configfs"; return 1; }
	[ -e "$/sys/kernel/debug/nvm_mem" ] || [ -n "$(ls /sys/kernel/debug 2>/dev/null)" ] ||
		{ echo "no debugfs"; return 1; }
}

# _crash_seeds: the number of recordings per workload under `make
# crashcheck` (lnvm.crash_seeds, make's CRASH_SEEDS), at most
# CRASH_SEEDS_MAX when the caller sets it (ext4's states cost ten times
# as much)
_crash_seeds() {
	local _k
	_k=$(_lnvm_arg crash_seeds 1)
	[ -n "${CRASH_SEEDS_MAX:-}" ] && [ "$_k" -gt "$CRASH_SEEDS_MAX" ] &&
		_k=$CRASH_SEEDS_MAX
	echo "$_k"
}

# _crash_test NAME WORKLOAD SUBSET [lnvm_crash options]: the test of one
# workload. Under `make crashcheck` every state of _crash_seeds recordings
# (seeds 1..N: another workload for the random ones, other timings for
# all), a second recovery on every second state, a cut during recovery
# on every 25th and on the first of each class; in make check SUBSET
# evenly spaced states of one recording, a second recovery on every
# fourth, a cut during recovery on the first.
_crash_test() {
	local _n=$1 _wl=$2 _sub=$3 _s
	shift 3
	if [ "$(_crash_full)" = 1 ]; then
		for _s in $(seq 1 "$(_crash_seeds)"); do
			_crash_run "$_n" "$_wl" --seed "$_s" --second 2 --rcut 25 \
				--rcut-class "$@" || return 1
		done
	else
		_crash_run "$_n" "$_wl" --max-states "$_sub" --second 4 \
			--rcut "$_sub" "$@"
	fi
}
