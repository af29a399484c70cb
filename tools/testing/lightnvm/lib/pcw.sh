# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the durability and power-cut tests (tests/rrpc-durable),
# sourced in the guest (dash) after common.sh and rrpc.sh: this file owns
# the power-cut cycle on nvm_mem (pull the plug, bounded teardown, power
# cycle), the recovery figures of rrpc, the seeded choices of a run, and
# the lnvm_pcw writer/verifier driving. Run as a script on the host
# (`sh pcw.sh powercut`) it is `make powercut`.

# _pcw_seed: the run's seed: lnvm.seed= (LNVM_SEED on the host) when the
# runner passes one, else a fresh one; tests print it for a replay
_pcw_seed() {
	local _s
	_s=$(_lnvm_arg seed)
	[ -n "$_s" ] || _s=$(od -An -N3 -tu4 /dev/urandom | tr -d ' ')
	echo "$_s"
}

# _pcw_rand SEED I N: a number in 0..N-1, the I-th choice of run SEED
_pcw_rand() {
	# element I of a Park-Miller stream seeded by SEED: exact in any awk
	# (products below 2^53), the same numbers in busybox's awk and gawk
	awk -v s="$1" -v i="$2" -v n="$3" 'BEGIN {
		m = 2147483647
		x = (s % m) * 16807 % m
		if (x == 0) x = 1
		for (k = 0; k < i + 8; k++) x = (x * 48271) % m
		print x % n }'
}

# _pcw_note TEXT: a remark kept in the test's log (stderr) and shown by the
# host as it comes when the harness offers it (_note)
_pcw_note() {
	echo "$*" >&2
	if command -v _note >/dev/null 2>&1; then
		_note "$*"
	fi
	return 0
}

# _pcw_bounded SECS WHAT CMD...: run CMD, but give up after SECS seconds:
# a hang fails the test (the stuck command is left behind; its stack is in
# the hang report). Returns CMD's status, 124 after a timeout.
_pcw_bounded() {
	local _secs=$1 _what=$2 _pid _n _f
	shift 2
	"$@" &
	_pid=$!
	_n=0
	while kill -0 $_pid 2>/dev/null; do
		if [ $_n -ge $((_secs * 10)) ]; then
			_fail "$_what did not finish within ${_secs}s"
			for _f in /proc/$_pid/task/*/stack; do
				cat "$_f" 2>/dev/null
			done >&2
			return 124
		fi
		sleep 0.1
		_n=$((_n + 1))
	done
	wait $_pid
}

# _pcw_recovery TGT: rrpc's recovery figures of the last create
# ("mode M scanned N ... ms T"), "unavailable" without the attribute
_pcw_recovery() {
	cat "/sys/block/$1/rrpc/recovery" 2>/dev/null || echo "unavailable"
}

# _pcw_rec TGT KEY: one figure of _pcw_recovery (the word after KEY)
_pcw_rec() {
	_pcw_recovery "$1" | tr ' ' '\n' | sed -n "/^$2\$/{n;p;q;}"
}

# _pcw_mark TAG: a marker line in the kernel log; _pcw_klog_since TAG: the
# kernel log after it (the log is not cleared: the harness reads it for
# splats after the test)
_pcw_mark() {
	echo "lnvm-test: mark $1" > /dev/kmsg
}

_pcw_klog_since() {
	dmesg | awk -v m="lnvm-test: mark $1" 'on { print } index($0, m) { on = 1 }'
}

# _pcw_create DEV TGT BEGIN END [lnvm create options]: create a target,
# bounded (recovery reads the media), and wait for its disk
_pcw_create() {
	local _d=$1 _t=$2 _b=$3 _e=$4
	shift 4
	_pcw_bounded 120 "lnvm create $_t" lnvm create -d "$_d" -n "$_t" -t rrpc \
		-b "$_b" -e "$_e" "$@" > /dev/null || { _fail "lnvm create $* $_t on $_d failed"; return 1; }
	_try "no /dev/$_t after create" _wait_for 5 -b "/dev/$_t" || return 1
}

# _pcw_remove TGT: remove a target; bounded, also on a dead device
_pcw_remove() {
	_pcw_bounded 60 "lnvm remove -n $1" lnvm remove -n "$1" > /dev/null ||
		{ _fail "lnvm remove -n $1 failed"; return 1; }
	[ ! -e "/sys/block/$1" ] || { _fail "$1 still exists after remove"; return 1; }
}

# _pcw_power DEV 0|1: power an nvm_mem instance off or on, bounded
_pcw_power() {
	_pcw_bounded 60 "power $2 of $1" sh -c "echo $2 > $RRPC_CFS/$1/power" ||
		{ _fail "power $2 of $1 failed"; return 1; }
}

# _pcw_cut DEV: the power cut: in-flight commands applied, dropped or torn
_pcw_cut() {
	echo 1 > "$RRPC_CFS/$1/unplugged" || { _fail "cannot unplug $1"; return 1; }
}

# _pcw_wait_exit PID SECS: wait for a background process to end, bounded;
# its status in PCW_RC (124 if it is still running after SECS)
_pcw_wait_exit() {
	local _n=0
	while kill -0 "$1" 2>/dev/null; do
		if [ $_n -ge $(($2 * 10)) ]; then
			PCW_RC=124
			return 1
		fi
		sleep 0.1
		_n=$((_n + 1))
	done
	wait "$1"
	PCW_RC=$?
	return 0
}

# _pcw_lines LOG SEED EPOCH: progress lines the writer of EPOCH printed
_pcw_lines() {
	grep -c "^@@LNVM PCW $2 $3 " "$1" 2>/dev/null
}

# _pcw_last LOG SEED EPOCH: "N K" of the writer's last progress line
_pcw_last() {
	awk -v s="$2" -v e="$3" '$3 == s && $4 == e && $5 == "flushed" { n = $6; k = $8 }
		END { print n + 0, (k == "" ? -1 : k) }' "$1"
}

# _pcw_verify_summary FILE: "LOST FOREIGN GARBAGE" from a verify output
_pcw_verify_summary() {
	sed -n 's/^pcw: [0-9]* sectors, \([0-9]*\) flushed sectors lost, \([0-9]*\) foreign, \([0-9]*\) garbage$/\1 \2 \3/p' "$1" |
		tail -n 1
}

# ------------------------------------------------------------ host side

# _pcw_powercut_host TOP: `make powercut`: the nvm_mem power cuts of
# rrpc-durable/003-powercut with more cuts (PCW_CUTS under lnvm_pcw,
# PCW_EXT4 with ext4 and fsync'd files), then the QEMU killed boots when
# the runner offers them (check --powercut-qemu PCW_QEMU). Ends with
# "N cuts, X flushed sectors lost".
_pcw_powercut_host() {
	local _top=$1 _check _log _res _cuts=0 _lost=0 _rc=0 _c _l
	_check=$_top/tools/testing/lightnvm/check
	_log=$_top/build/logs/powercut.log
	# the runner's reader of result files (results_figures; bash)
	B=$_top/build
	. "$_top/tools/testing/lightnvm/lib/host/results.sh"
	_res=$RESULTS
	mkdir -p "$_top/build/logs"
	echo "powercut: $PCW_CUTS + $PCW_EXT4 (ext4) power cuts on nvm_mem"
	LNVM_VERBOSE=1 LNVM_PCW_CUTS=$PCW_CUTS LNVM_PCW_EXT4=$PCW_EXT4 \
		bash "$_check" rrpc-durable/003-powercut 2>&1 | tee "$_log.mem"
	# the figures and the verdict of the run's result file, not its
	# printed lines (each run of check empties build/results first)
	_c=$(results_figures rrpc-durable/003-powercut cuts | tail -n 1)
	_l=$(results_figures rrpc-durable/003-powercut lost | tail -n 1)
	if [ -z "$_c" ] || [ -z "$_l" ]; then
		echo "powercut: the nvm_mem run recorded no figures (log: ${_log#"$_top"/}.mem)"
		_rc=1
	else
		echo "nvm_mem: $_c cuts, $_l flushed sectors lost"
		_cuts=$((_cuts + _c))
		_lost=$((_lost + _l))
	fi
	grep -qx 'status=PASS' "$_res/rrpc-durable/003-powercut" 2>/dev/null || _rc=1

	echo "powercut: $PCW_QEMU killed boots of QEMU"
	bash "$_check" --powercut-qemu "$PCW_QEMU" 2>&1 | tee "$_log.qemu"
	_c=$(results_figures ocssd-powercut/summary cuts | tail -n 1)
	_l=$(results_figures ocssd-powercut/summary lost | tail -n 1)
	if [ -z "$_c" ] || [ -z "$_l" ]; then
		echo "powercut: the QEMU run recorded no summary (log: ${_log#"$_top"/}.qemu)"
		_rc=1
	else
		echo "QEMU: $_c cuts, $_l flushed sectors lost"
		_cuts=$((_cuts + _c))
		# "?": no boot verified anything (the summary failed)
		case $_l in *[!0-9]*) _rc=1 ;; *) _lost=$((_lost + _l)) ;; esac
	fi
	# any failed result of that run, the summary's included
	! grep -rqx 'status=FAIL' "$_res" 2>/dev/null || _rc=1
	[ "$_lost" = 0 ] || _rc=1
	echo "$_cuts cuts, $_lost flushed sectors lost"
	return $_rc
}

if [ "${1:-}" = powercut ]; then
	PCW_CUTS=${PCW_CUTS:-80}
	PCW_EXT4=${PCW_EXT4:-20}
	PCW_QEMU=${PCW_QEMU:-20}
	_pcw_powercut_host "$2"
	exit $?
fi
