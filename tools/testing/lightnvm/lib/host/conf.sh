# SPDX-License-Identifier: GPL-2.0
#
# A VM group's settings, sourced by check (bash): its group.conf (or a
# demo VM's vm/NAME.conf) with the defaults, its number of boots, which
# tests a boot runs (BOOT=) and a test's time limit as the guest computes it.

# group_conf GROUP: the settings file of a group (or of a demo VM, vm/NAME.conf)
group_conf() {
	if [ "$DEMO" = 1 ] && [ -f "$here/vm/$1.conf" ]; then
		echo "$here/vm/$1.conf"
	else
		echo "$here/tests/$1/group.conf"
	fi
}

# load_conf GROUP BOOT: the group's settings for one boot, from defaults
# and its group.conf (sourced with $BOOT and $dir set). Sets the caller's
# KERNEL MEM SMP QEMU_EXTRA APPEND BOOT_TIMEOUT BOOTS KILL CARRY_RE QMP
# TESTMODS TIMEOUT_ADD SLOW. TIMEOUT_ADD (seconds) is added to every
# test's TIMEOUT and SLOW multiplies the sum, in the host's limit and in
# the guest alike (lnvm.timeout_add, lnvm.slow).
load_conf() {
	local conf
	conf=$(group_conf "$1")
	BOOT=$2
	KERNEL=debug MEM=2048 SMP=2 QEMU_EXTRA="" APPEND="" BOOT_TIMEOUT=180
	BOOTS=1 KILL="" CARRY_RE="" QMP="" TESTMODS="" TIMEOUT_ADD=0 SLOW=1
	unset -f group_setup
	# shellcheck disable=SC1090
	[ -f "$conf" ] && . "$conf"
	# the series of the run, for tests that check the kernel they got
	APPEND="$APPEND lnvm.kver=${LNVM_KVER:-6.1}"
	if [ "$KERNEL" = debug ] && [ "${LNVM_KERNEL:-debug}" = kcsan ]; then
		KERNEL=kcsan
		SLOW=$((SLOW * ${LNVM_KCSAN_SLOW:-3}))
		BOOT_TIMEOUT=$((BOOT_TIMEOUT * ${LNVM_KCSAN_SLOW:-3}))
	fi
	[ "$SLOW" != 1 ] && APPEND="$APPEND lnvm.slow=$SLOW"
	[ "$TIMEOUT_ADD" != 0 ] && APPEND="$APPEND lnvm.timeout_add=$TIMEOUT_ADD"
	return 0
}

# boots_of GROUP: how many boots the group's scenario has
boots_of() {
	(
		# shellcheck disable=SC2034	# group.conf reads $dir
		dir=$B/vm/$1
		load_conf "$1" 1 >/dev/null 2>&1
		echo "${BOOTS:-1}"
	)
}

# test_timeout TEST: a test's time limit in seconds, as the guest computes it
test_timeout() {
	local to
	to=$(_meta "$here/tests/${1%% *}" TIMEOUT "$APPEND" 2>/dev/null)
	echo $(((${to:-300} + TIMEOUT_ADD) * SLOW))
}

# in_boots SPEC K N: boot K of N is in SPEC, comma separated items "1",
# "2-4", "2-" (to the last), "last", and exclusions "!3", "!last"
# (default: 1)
in_boots() {
	local spec=${1:-1} k=$2 n=$3 item lo hi in=1
	for item in ${spec//,/ }; do
		case $item in
		!last) [ "$k" = "$n" ] && return 1; continue ;;
		!*) [ "$k" = "${item#!}" ] && return 1; continue ;;
		last) lo=$n hi=$n ;;
		*-*) lo=${item%-*} hi=${item#*-}; hi=${hi:-$n} ;;
		*) lo=$item hi=$item ;;
		esac
		[ "$k" -ge "$lo" ] && [ "$k" -le "$hi" ] && in=0
	done
	return $in
}
