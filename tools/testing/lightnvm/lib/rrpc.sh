# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the rrpc tests and the demo (sourced in the guest, dash):
# memory-backed devices through configfs, rrpc targets through lnvm,
# counters from sysfs and debugfs, and the analytic GC model.

RRPC_CFS=/sys/kernel/config/nvm_mem
RRPC_DBG=/sys/kernel/debug/nvm_mem

# _rrpc_reset: undo what an earlier (failed) test of the boot left: mounts,
# rrpc targets, configfs devices, rrpc's module parameters. Tests of a
# group share one boot.
_rrpc_reset() {
	grep -q " /mnt " /proc/mounts && umount /mnt
	for _t in /sys/block/rrpc*; do
		[ -e "$_t" ] && lnvm remove -n "${_t##*/}" 2>/dev/null
	done
	for _d in "$RRPC_CFS"/*; do
		[ -d "$_d" ] || continue
		echo 0 > "$_d/power" 2>/dev/null
		rmdir "$_d" 2>/dev/null
	done
	# module parameters a test may change: back to their defaults, so
	# that a test that failed half-way does not change the next one
	if [ -w /sys/module/rrpc/parameters/hot_cold ]; then
		echo -1 > /sys/module/rrpc/parameters/hot_cold
	fi
	return 0
}

# _rrpc_load: the LightNVM stack, without nvm_mem's default device.
_rrpc_load() {
	_rrpc_reset
	_modprobe lightnvm || return 1
	_modprobe gennvm || return 1
	_modprobe rrpc || return 1
	if [ ! -d /sys/module/nvm_mem ]; then
		_modprobe nvm_mem nr_devices=0 || return 1
	fi
	# Debian's kernel has configfs as a module, which nvm_mem just
	# loaded: /init could not mount it
	grep -q " /sys/kernel/config " /proc/mounts ||
		_try "cannot mount configfs" mount -t configfs configfs /sys/kernel/config
}

# _rrpc_unload: unload the stack (every target and device must be gone).
_rrpc_unload() {
	_unload nvme nvme_core nvm_mem rrpc gennvm lightnvm
}

# _rrpc_mkdev NAME [ATTR=VALUE...]: a configfs nvm_mem instance, powered on.
# Attributes: num_ch num_lun num_pln num_blk num_pg sec_per_pg oob_size ...
# With lnvm.mem_version=2 on the kernel command line (the rrpc-ocssd2
# group), every instance is an Open-Channel SSD 2.0 device of the same
# media (version=2, set first: the ATTRs may still override it).
_rrpc_mkdev() {
	local _n _kv _v
	_n=$1
	shift
	_try "cannot create nvm_mem instance $_n" mkdir "$RRPC_CFS/$_n" || return 1
	_v=$(_lnvm_arg mem_version)
	if [ -n "$_v" ]; then
		echo "$_v" > "$RRPC_CFS/$_n/version" ||
			{ _fail "nvm_mem $_n: cannot set version=$_v"; return 1; }
	fi
	for _kv in "$@"; do
		echo "${_kv#*=}" > "$RRPC_CFS/$_n/${_kv%%=*}" ||
			{ _fail "nvm_mem $_n: cannot set $_kv"; return 1; }
	done
	echo 1 > "$RRPC_CFS/$_n/power" || { _fail "nvm_mem $_n: power on failed"; return 1; }
}

# _rrpc_rmdev NAME: power off and remove a configfs instance.
_rrpc_rmdev() {
	echo 0 > "$RRPC_CFS/$1/power" || { _fail "nvm_mem $1: power off failed"; return 1; }
	_try "cannot remove nvm_mem instance $1" rmdir "$RRPC_CFS/$1" || return 1
}

# _rrpc_testdev NAME [ATTR=VALUE...]: the device a data-integrity test runs
# on, in RRPC_DEV. Normally a configfs nvm_mem instance NAME with the given
# geometry; when the kernel command line names a device instead
# (lnvm.rrpc_dev=nvme0n1: the group's QEMU Open-Channel SSD, whose geometry
# the group chose to match), the NVMe driver is loaded and that device used.
_rrpc_testdev() {
	RRPC_DEV=$(_lnvm_arg rrpc_dev)
	if [ -z "$RRPC_DEV" ]; then
		_rrpc_mkdev "$@" || return 1
		RRPC_DEV=$1
		return 0
	fi
	. /lnvm/lib/ocssd.sh
	_ocssd_load_nvme || return 1
	_ocssd_wait_lnvm "$RRPC_DEV" || return 1
	echo "on $RRPC_DEV (QEMU Open-Channel SSD)" >&2
}

# _rrpc_put_testdev: release what _rrpc_testdev set up (the NVMe driver
# stays loaded until _rrpc_unload).
_rrpc_put_testdev() {
	[ -d "$RRPC_CFS/$RRPC_DEV" ] || return 0
	_rrpc_rmdev "$RRPC_DEV"
}

# _rrpc_create DEV TGT BEGIN END [OP]: a new, empty rrpc target on LUNs
# BEGIN..END (lnvm create -f: whatever the LUNs held is erased).
_rrpc_create() {
	_rrpc_mk "$@" -f
}

# _rrpc_attach DEV TGT BEGIN END [OP]: create an rrpc target without -f:
# it takes over what a target on the same LUNs left on the media (map
# recovery); on blank LUNs it starts empty.
_rrpc_attach() {
	_rrpc_mk "$@"
}

# _rrpc_mk DEV TGT BEGIN END [OP] [-f]
_rrpc_mk() {
	local _d=$1 _t=$2 _b=$3 _e=$4 _o=${5:-} _f=${6:-}
	[ "$_o" = -f ] && { _f=-f; _o=; }
	if [ -n "$_o" ]; then
		# shellcheck disable=SC2086
		lnvm create -d "$_d" -n "$_t" -t rrpc -b "$_b" -e "$_e" -o "$_o" $_f ||
			{ _fail "lnvm create $_t on $_d failed"; return 1; }
	else
		# shellcheck disable=SC2086
		lnvm create -d "$_d" -n "$_t" -t rrpc -b "$_b" -e "$_e" $_f ||
			{ _fail "lnvm create $_t on $_d failed"; return 1; }
	fi
	_try "no /dev/$_t after create" _wait_for 5 -b "/dev/$_t" || return 1
}

# _rrpc_recovery TGT: how the target got its state (sysfs "recovery")
_rrpc_recovery() {
	cat "/sys/block/$1/rrpc/recovery"
}

# _rrpc_remove TGT
_rrpc_remove() {
	_try "lnvm remove $1 failed" lnvm remove -n "$1" || return 1
}

# _rrpc_stat TGT NAME: a counter of /sys/block/TGT/rrpc/.
_rrpc_stat() {
	cat "/sys/block/$1/rrpc/$2"
}

# _rrpc_geo TGT KEY: a field of /sys/block/TGT/rrpc/geometry.
_rrpc_geo() {
	tr ' ' '\n' < "/sys/block/$1/rrpc/geometry" | sed -n "/^$2\$/{n;p;}"
}

# _rrpc_devstat DEV KEY: a counter of nvm_mem's debugfs stats.
_rrpc_devstat() {
	awk -v k="$2" '$1 == k || $1 == k ":" { print $2 }' "$RRPC_DBG/$1/stats"
}

# _rrpc_bytes TGT: capacity in bytes.
_rrpc_bytes() {
	echo $(( $(cat "/sys/block/$1/size") * 512 ))
}

# _rrpc_fault DEV read|write|erase PROBABILITY TIMES [SKIP]: nvm_mem fault
# injection (probability in percent, TIMES failures at most, -1 = no limit),
# after SKIP commands of the kind (default 0) that go through.
_rrpc_fault() {
	_d=$RRPC_DBG/$1/fail_$2
	_try "no fault injection knob $_d" [ -d "$_d" ] || return 1
	echo 0 > "$_d/interval" 2>/dev/null
	echo 1 > "$_d/interval"
	# nvm_mem asks should_fail() for 4096 bytes a command: a space of
	# SKIP * 4096 + 1 lets SKIP commands through, 0 none
	if [ "${5:-0}" -gt 0 ]; then
		echo $(($5 * 4096 + 1)) > "$_d/space"
	else
		echo 0 > "$_d/space"
	fi
	echo "$4" > "$_d/times"
	echo "$3" > "$_d/probability"
}

# _rrpc_model ALPHA NP: WAF of greedy cleaning under uniform random writes
# (Documentation/lightnvm/performance.rst): WAF_LRU(k*alpha)/k, k = 1 + 1/(2*NP),
# WAF_LRU(a) = a / (a + W0(-a*e^-a)). Busybox awk has no libm: exp and
# sqrt are computed here, W0 by Newton iteration.
_rrpc_model() {
	awk -v a="$1" -v np="$2" '
	function xexp(x,   n, t, s, i) {
		n = 0
		while (x > 0.5 || x < -0.5) { x = x / 2; n++ }
		s = 1; t = 1
		for (i = 1; i < 20; i++) { t = t * x / i; s = s + t }
		while (n-- > 0) s = s * s
		return s
	}
	function xsqrt(x,   r, i) {
		if (x <= 0) return 0
		r = x > 1 ? x : 1
		for (i = 0; i < 60; i++) r = (r + x / r) / 2
		return r
	}
	function w0(x,   w, i, e) {
		w = (x < -0.3) ? -1 + xsqrt(2 * (1 + 2.718281828459045 * x)) : x
		for (i = 0; i < 100; i++) {
			e = xexp(w)
			w = w - (w * e - x) / (e * (w + 1))
		}
		return w
	}
	function lru(x) { return x / (x + w0(-x * xexp(-x))) }
	BEGIN { k = 1 + 1 / (2 * np); printf "%.3f\n", lru(k * a) / k }'
}

# _rrpc_fcmp A OP B: floating point comparison (OP one of < <= > >=).
_rrpc_fcmp() {
	awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
		r = (op == "<") ? a < b : (op == "<=") ? a <= b : (op == ">") ? a > b : a >= b
		exit !r }'
}

# _rrpc_ratio NUM DEN: NUM / DEN with three decimals.
_rrpc_ratio() {
	awk -v n="$1" -v d="$2" 'BEGIN { if (d == 0) print "0.000"; else printf "%.3f\n", n / d }'
}
