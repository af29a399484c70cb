# SPDX-License-Identifier: GPL-2.0
#
# Helpers for test scripts, sourced in the guest before each test (dash).
# This file owns the test-side API of the harness. A test script defines
# DESCRIPTION, optionally TIMEOUT, EXPECT_SPLAT, KMEMLEAK and (in a group of
# several boots) BOOT, a requires() that returns non-zero (after printing
# the reason) when the test cannot run here, and a test() whose return
# status, and stdout when a golden NAME.out file sits next to the script,
# decide the result.

# _have_module NAME: the module exists for the running kernel.
_have_module() {
	modprobe -n "$1" 2>/dev/null && return 0
	echo "module $1 not available"
	return 1
}

# _have_program NAME: the program is in the initramfs.
_have_program() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "program $1 not available"
	return 1
}

# _fail MESSAGE: print a failure reason (to stderr, kept in the log).
_fail() {
	echo "FAIL: $*" >&2
	return 1
}

# _try MESSAGE COMMAND [ARGS...]: run a simple command; if it fails, fail
# the test with MESSAGE, the command's exit status and its arguments (its
# own stderr is in the log already). Instead of
# "CMD || { _fail MESSAGE; return 1; }"; a check is a command too, and its
# expanded operands show what was found:
#   _try "mount failed" mount /dev/rrpc0 /mnt || return 1
#   _try "rrpc0 still there" [ ! -e /sys/block/rrpc0 ] || return 1
_try() {
	local _try_msg=$1
	shift
	"$@" && return 0
	_fail "$_try_msg (exit status $?: $*)"
}

# _wait_for SECONDS TEST-ARGS...: poll "[ TEST-ARGS ]" (e.g. -b /dev/x)
# every 0.1 s until it holds; non-zero if it still fails after SECONDS.
# ("[", not "test": test scripts define a function named test.)
_wait_for() {
	local n=$(($1 * 10)) i=0
	shift
	while ! [ "$@" ]; do
		[ $i -ge $n ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# _modprobe NAME [ARGS]: load a module, failing the test if it can't.
_modprobe() {
	_try "modprobe $* failed" modprobe "$@"
}

# _unload NAME...: unload modules, failing the test if one stays loaded.
_unload() {
	local m
	for m in "$@"; do
		[ -d "/sys/module/$m" ] || continue
		_try "rmmod $m failed" rmmod "$m" || return 1
	done
}

# _lnvm_reset: start from a clean slate: remove every LightNVM target and
# unload every module that depends on the core (recursively), then the
# core itself. For tests that load modules with their own parameters, so
# that what an earlier test left loaded does not change their meaning.
_lnvm_reset() {
	local d t rest m i
	for d in /sys/class/lightnvm/*/targets; do
		[ -f "$d" ] || continue
		while read -r t rest; do
			[ -n "$t" ] && lnvm remove -n "$t" >/dev/null 2>&1
		done < "$d"
	done
	i=0
	while [ -d /sys/module/lightnvm ] && [ $i -lt 5 ]; do
		for m in /sys/module/lightnvm/holders/*; do
			[ -e "$m" ] || continue
			for d in "$m"/holders/*; do
				[ -e "$d" ] && rmmod "${d##*/}" 2>/dev/null
			done
			rmmod "${m##*/}" 2>/dev/null
		done
		rmmod lightnvm 2>/dev/null
		i=$((i + 1))
	done
	_try "cannot unload lightnvm" [ ! -d /sys/module/lightnvm ] || return 1
}

# ------------------------------------------------ groups of several boots

# _lnvm_arg NAME [DEFAULT]: the value of lnvm.NAME= on the kernel command
# line (the last one), else DEFAULT. The one parser of the command line:
# the runner (vm/init), the tests, their libraries and the demo use it.
_lnvm_arg() {
	_la_v=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^lnvm\.$1=//p" | tail -n 1)
	echo "${_la_v:-${2:-}}"
}

# _lnvm_seed: the run's seed (LNVM_SEED on the host, printed by check): the
# same for every boot of a group, so writers can derive theirs from it
_lnvm_seed() { _lnvm_arg seed; }

# _lnvm_boot, _lnvm_boots: this boot's number (from 1) and the group's count
_lnvm_boot() { _lnvm_arg boot; }
_lnvm_boots() { _lnvm_arg boots; }

# _note TEXT: a remark the host prints under the running test, as it comes
# (e.g. recovery figures); also kept in the console log
_note() {
	echo "@@LNVM NOTE $LNVM_TEST | $*" >/dev/console
}

# _figure KEY VALUE: a figure of the test (e.g. cuts, lost sectors), kept
# in its result file as "figure.KEY=VALUE" (build/results/GROUP/NAME), from
# which the host's counts are taken: never from printed lines
_figure() {
	echo "@@LNVM FIGURE $LNVM_TEST $1=$2" >/dev/console
}

# _to_console: copy stdin to the console as it comes (e.g. a writer's
# progress lines that the host carries to the next boot)
_to_console() {
	cat >/dev/console
}

# _carried: the console lines the host carried from the earlier boots of
# this group (those matching the group's CARRY_RE), oldest first
_carried() {
	cat /lnvm/carry.log 2>/dev/null
}

# _cut_arm: ask the host for this boot's power cut (the group's KILL
# window starts now). The test then keeps its writer running: the host
# kills QEMU with SIGKILL at the seeded moment, and the cut test passes
# unless the kernel splatted before it. A test that ends first fails.
_cut_arm() {
	echo "@@LNVM CUT-ARM $LNVM_TEST" >/dev/console
}

# _qmp JSON: have the host send one command to QEMU's monitor (QMP), in
# groups with QMP=1, and wait (60 s at most) for its answer on the second
# serial port; prints "ok RETURN" or "error DESCRIPTION", fails unless ok.
#   _qmp '{"execute": "qom-set", "arguments": {"path": "/machine/peripheral/nvme0", "property": "x-drop-cqes", "value": 4}}'
_qmp() {
	local id ans
	[ -c /dev/ttyS1 ] || { echo "error no /dev/ttyS1 (QMP=1 in group.conf?)"; return 1; }
	id=$$.$(cut -d' ' -f1 /proc/uptime)
	# open the port before asking: a port nobody has open drops its input
	exec 4</dev/ttyS1
	stty -F /dev/ttyS1 -echo -icrnl 2>/dev/null
	echo "@@LNVM QMP $id $*" >/dev/console
	# shellcheck disable=SC2016	# $1 is dash -c's argument
	ans=$(timeout 60 dash -c 'while read -r a i r; do
		[ "$a $i" = "ACK $1" ] && { echo "$r"; exit 0; }; done' _ "$id" <&4)
	exec 4<&-
	[ -n "$ans" ] || { echo "error no answer from the host"; return 1; }
	echo "$ans"
	[ "${ans%% *}" = ok ]
}

# _qom_set PROPERTY VALUE [DEVICE]: qom-set on a device (default: the
# QEMU device with id=nvme0)
_qom_set() {
	_qmp "{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"/machine/peripheral/${3:-nvme0}\", \"property\": \"$1\", \"value\": $2}}"
}
