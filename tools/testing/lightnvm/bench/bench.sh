#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of `make bench` (run as /lnvm/demo by the test
# initramfs' /init, every output line shown on the console as
# "@@LNVM DEMO <line>"). It owns the benchmark workloads: it runs P1-P7
# and the recovery benchmark in one boot, one after the other, and prints
# two kinds of lines: progress for the person watching, and raw records
# ("@@B <bench> <key>=<value> ..." and "@@B <bench> FIO <tag> <fio terse
# v3 line>") that tools/testing/lightnvm/bench/report turns into the
# table, the CSV and the plots. Nothing is compared here: the models,
# ratios and goals live in the report.
#
# Kernel command line: lnvm.bench_quick=1 (the small version),
# lnvm.bench_only=P1,P4,... (a subset; default: all),
# lnvm.bench_perf=1 or a pattern of fio job tags (1: randread.*): those
# jobs run under perf record (bench/run packs perf), and the top of their
# profile goes to the console ("perf <tag>: ..." lines).


. /lnvm/lib/common.sh
. /lnvm/lib/rrpc.sh
. /lnvm/lib/splat.sh

QUICK=$(_lnvm_arg bench_quick 0)
ONLY=$(_lnvm_arg bench_only)
PERF=$(_lnvm_arg bench_perf)
[ "$PERF" = 1 ] && PERF='randread.*'
SEED=20161

now() { cut -d' ' -f1 /proc/uptime; }
say() { echo "[$(awk -v t="$(now)" -v s="$T0" 'BEGIN { printf "%5d", t - s }')s] $*"; }
rec() { echo "@@B $*"; }
die() { echo "BENCH FAILED: $*"; exit 1; }
T0=$(now)

# failed NAME: a benchmark stopped early (die in its subshell): record it,
# and clean up what it left so that the next one starts afresh
failed() {
	say "$1 FAILED; going on with the next benchmark"
	rec "$1 failed"
	_rrpc_reset
	rmmod null_blk 2>/dev/null
	return 0
}

want() {
	[ -z "$ONLY" ] && return 0
	case ",$ONLY," in *",$1,"*) return 0 ;; esac
	return 1
}

# fio_run BENCH TAG ARGS...: one fio job, its terse (v3) line recorded
fio_run() {
	local _b=$1 _tag=$2
	shift 2
	# shellcheck disable=SC2254
	case $_tag in
	$PERF) [ -n "$PERF" ] && { perf_fio "$_b" "$_tag" "$@"; return; } ;;
	esac
	fio --name="$_tag" --output-format=terse --terse-version=3 \
		--output=/tmp/fio.terse "$@" >/tmp/fio.err 2>&1 ||
		{ cat /tmp/fio.err /tmp/fio.terse; die "fio $_b $_tag failed"; }
	rec "$_b FIO $_tag $(grep '^3;' /tmp/fio.terse | tail -n 1)"
}

# perf_fio BENCH TAG ARGS...: fio_run's job under perf record (cpu-clock,
# call graphs, all CPUs), then the top symbols, self and with children
perf_fio() {
	local _b=$1 _tag=$2 _c
	shift 2
	perf record -q -e cpu-clock -g -a -o /tmp/perf.data -- \
		fio --name="$_tag" --output-format=terse --terse-version=3 \
		--output=/tmp/fio.terse "$@" >/tmp/fio.err 2>&1 ||
		{ cat /tmp/fio.err /tmp/fio.terse; die "fio $_b $_tag failed"; }
	rec "$_b FIO $_tag $(grep '^3;' /tmp/fio.terse | tail -n 1)"
	for _c in no-children children; do
		perf report -i /tmp/perf.data --stdio --$_c -g none \
			--percent-limit 0.7 --sort sym 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -n 40 |
			sed "s/^/perf $_tag $_c: /"
	done
	# the call chains of the hottest symbols, leaf last (tails kept)
	perf report -i /tmp/perf.data --stdio --no-children --sort sym \
		--percent-limit 1.5 -g folded,0.5,caller 2>/dev/null |
		grep -v -e '^#' -e '^$' -e '^ ' -e safe_halt | head -n 60 |
		awk -v t="perf $_tag chain: " '{
			if (length($0) > 230)
				$0 = substr($0, 1, 8) "..." substr($0, length($0) - 220)
			print t $0 }'
	rm -f /tmp/perf.data
}

# iops_of / kbs_of: from the last recorded terse line (reads 8, writes 49)
fio_last() { grep '^3;' /tmp/fio.terse | tail -n 1 | cut -d';' -f"$1"; }

# sample_free TGT FILE PID: the free blocks of all LUNs of TGT, twice a
# second while PID lives, one sum per line into FILE
sample_free() {
	: > "$2"
	while kill -0 "$3" 2>/dev/null; do
		tr ' ' '\n' < "/sys/block/$1/rrpc/free_blocks" |
			awk '{ s += $1 } END { print s }' >> "$2"
		sleep 0.5
	done
}

# counters BENCH TAG TGT DEV: rrpc's and nvm_mem's write counters
counters() {
	rec "$1 $2 user=$(_rrpc_stat "$3" user_sectors_written)" \
		"media=$(_rrpc_devstat "$4" media_write_sectors)" \
		"rrpc_media=$(_rrpc_stat "$3" media_sectors_written)" \
		"moved=$(_rrpc_stat "$3" gc_sectors_moved)" \
		"victims=$(_rrpc_stat "$3" gc_victims)" \
		"erases=$(_rrpc_devstat "$4" erases)"
}

# geometry BENCH TGT: the target's geometry as a record
geometry() {
	rec "$1 geometry $(tr -s ' ' < "/sys/block/$2/rrpc/geometry" |
		awk '{ for (i = 1; i < NF; i += 2) printf "%s=%s ", $i, $(i + 1) }')" \
		"lbas=$(( $(_rrpc_bytes "$2") / 4096 ))"
}

# timing_knobs: the names of nvm_mem's NAND timing attributes, if this
# nvm_mem has the timing model (configfs "features" lists them)
timing_knobs() {
	tr ' ,' '\n\n' < "$RRPC_CFS/features" 2>/dev/null | grep -E '^(timing|t_read|t_prog|t_erase|t_xfer|tr|tprog|tbers)' | tr '\n' ' '
}

# small device for the WAF benchmarks: 2 LUNs of NBLK blocks of 64 sectors
if [ "$QUICK" = 1 ]; then
	NBLK=64 MEAS=2 PREC=1 P4RT=3 P4REG=32 P4ROUNDS=1 RECLUN=1 P5RT=3
	P7CAPS=12 P7ROUND=4
else
	NBLK=256 MEAS=4 PREC=1 P4RT=6 P4REG=96 P4ROUNDS=2 RECLUN=4 P5RT=8
	P7CAPS=48 P7ROUND=8
fi
wafdev() {
	_rrpc_mkdev "$1" num_ch=1 num_lun=2 num_pln=1 num_blk=$NBLK num_pg=16 \
		sec_per_pg=4 oob_size=16 completion_mode=0
}

# waf_run BENCH TAG OP DIST: precondition and measure random 4 KiB
# overwrites (norandommap, fixed seed) with fio's random distribution
# DIST (random or zoned:...), recording counters and free-block samples
waf_run() {
	local _b=$1 _tag=$2 _op=$3 _dist=$4 _pid cap
	_rrpc_create wd rrpc0 0 1 "$_op" || die "create rrpc0 (OP $_op)"
	geometry "$_b.$_tag" rrpc0
	cap=$(_rrpc_bytes rrpc0)
	if [ "$_b" = P1 ] && [ "$_op" = 25 ]; then
		# P6's reference: random writes on the empty target (no GC)
		fio_run P6 nogc --filename=/dev/rrpc0 --ioengine=libaio --direct=1 \
			--bs=4k --iodepth=16 --rw=randwrite --norandommap \
			--randseed=$SEED --io_size=$((cap / 4))
		counters P6 nogc rrpc0 wd
	fi
	fio_run "$_b" "$_tag.fill" --filename=/dev/rrpc0 --ioengine=libaio \
		--direct=1 --bs=128k --iodepth=8 --rw=write
	fio_run "$_b" "$_tag.prec" --filename=/dev/rrpc0 --ioengine=libaio \
		--direct=1 --bs=4k --iodepth=16 --rw=randwrite --norandommap \
		--randrepeat=0 --randseed=$SEED --random_distribution="$_dist" \
		--io_size=$((PREC * cap))
	counters "$_b" "$_tag.start" rrpc0 wd
	fio --name="$_tag.meas" --output-format=terse --terse-version=3 \
		--output=/tmp/fio.terse --filename=/dev/rrpc0 --ioengine=libaio \
		--direct=1 --bs=4k --iodepth=16 --rw=randwrite --norandommap \
		--randrepeat=0 --randseed=$((SEED + 1)) --random_distribution="$_dist" \
		--io_size=$((MEAS * cap)) >/tmp/fio.err 2>&1 &
	_pid=$!
	sample_free rrpc0 /tmp/free.samples $_pid
	wait $_pid || { cat /tmp/fio.err; die "fio $_b $_tag.meas failed"; }
	rec "$_b FIO $_tag.meas $(grep '^3;' /tmp/fio.terse | tail -n 1)"
	counters "$_b" "$_tag.end" rrpc0 wd
	rec "$_b $_tag.free mean=$(awk '{ s += $1; n++ } END { printf "%.3f", n ? s / n : 0 }' /tmp/free.samples) samples=$(wc -l < /tmp/free.samples)"
}

echo "LightNVM benchmarks ($([ "$QUICK" = 1 ] && echo quick || echo full) run): $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB, QEMU/TCG"
rec "run info quick=$QUICK kernel=$(uname -r) cpus=$(nproc) mem_mib=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)"

# configfs is a module in Debian's kernel: /init could not mount it
modprobe configfs || die "modprobe configfs"
grep -q " /sys/kernel/config " /proc/mounts ||
	mount -t configfs configfs /sys/kernel/config || die "mount configfs"
_rrpc_load || die "loading lightnvm, gennvm, rrpc, nvm_mem"
modprobe ext4 2>/dev/null || true
[ -d "$RRPC_CFS" ] || die "no nvm_mem configfs at $RRPC_CFS"
KNOBS=$(timing_knobs)
rec "run timing knobs=${KNOBS:-none}"

# ------------------------------------------------------------------ P1, P6
if want P1 || want P6; then
(
	say "P1: WAF of uniform random 4 KiB overwrites vs the greedy model at OP 7, 12, 25, 50% (goal <= 1.05x model); P6 from the 25% run"
	for op in 7 12 25 50; do
		wafdev wd || die "nvm_mem device"
		waf_run P1 "op$op" $op random
		say "  OP $op%: user $(( $(_rrpc_stat rrpc0 user_sectors_written) )) sectors, WAF so far $(cat /sys/block/rrpc0/rrpc/waf)"
		_rrpc_remove rrpc0 || die "remove"
		_rrpc_rmdev wd || die "rmdev"
	done
) || failed P1
fi

# ---------------------------------------------------------------------- P2
if want P2; then
(
	say "P2: hot/cold 90/10 and 80/20 at OP 25% (goal <= 1.1x the separated-pool model)"
	for hc in 90/10 80/20; do
		h=${hc%/*} c=${hc#*/}
		wafdev wd || die "nvm_mem device"
		waf_run P2 "hc$h" 25 "zoned:$h/$c:$c/$h"
		say "  $hc: WAF so far $(cat /sys/block/rrpc0/rrpc/waf)"
		_rrpc_remove rrpc0 || die "remove"
		_rrpc_rmdev wd || die "rmdev"
	done
) || failed P2
fi

# ---------------------------------------------------------------------- P7
# wear after a long skewed run: a device of 2 LUNs x 64 blocks written
# P7CAPS times over with 90/10 hot/cold writes, in rounds of P7ROUND
# capacities (progress: the spread after each round)
if want P7; then
(
	say "P7: erase spread after $P7CAPS x capacity of 90/10 random writes at OP 25% on 2 LUNs x 64 blocks (goal max/mean <= 1.2)"
	_rrpc_mkdev wl num_ch=1 num_lun=2 num_pln=1 num_blk=64 num_pg=16 \
		sec_per_pg=4 oob_size=16 completion_mode=0 || die "nvm_mem wl"
	_rrpc_create wl rrpc0 0 1 25 || die "create rrpc0 on wl"
	geometry P7 rrpc0
	cap=$(_rrpc_bytes rrpc0)
	fio_run P7 fill --filename=/dev/rrpc0 --ioengine=libaio --direct=1 \
		--bs=128k --iodepth=8 --rw=write
	done_caps=0 r=0
	while [ $done_caps -lt $P7CAPS ]; do
		r=$((r + 1))
		fio_run P7 "skew.r$r" --filename=/dev/rrpc0 --ioengine=libaio \
			--direct=1 --bs=4k --iodepth=16 --rw=randwrite \
			--norandommap --randrepeat=0 --randseed=$((SEED + r)) \
			--random_distribution=zoned:90/10:10/90 \
			--io_size=$((P7ROUND * cap))
		done_caps=$((done_caps + P7ROUND))
		say "  $done_caps x capacity: erase counts $(awk '{ s += $1; n++; if ($1 > mx) mx = $1; if (mn == "" || $1 < mn) mn = $1 }
			END { printf "min %d max %d mean %.1f, max/mean %.3f", mn, mx, s / n, mx / (s / n) }' \
			"$RRPC_DBG/wl/erase_counts"), wear-leveling moves $(_rrpc_stat rrpc0 wl_victims), WAF $(cat /sys/block/rrpc0/rrpc/waf)"
	done
	counters P7 end rrpc0 wl
	rec "P7 wl caps=$P7CAPS wl_victims=$(_rrpc_stat rrpc0 wl_victims)"
	# erase counts of every block of the target's LUNs
	rec "P7 erase_counts $(tr '\n' ' ' < "$RRPC_DBG/wl/erase_counts")"
	_rrpc_remove rrpc0 || die "remove"
	_rrpc_rmdev wl || die "rmdev"
) || failed P7
fi

# ---------------------------------------------------------------------- P3
if want P3; then
(
	say "P3: sequential overwrites (goal WAF 1.00, 0 sectors moved)"
	wafdev wd || die "nvm_mem device"
	_rrpc_create wd rrpc0 0 1 25 || die "create"
	geometry P3 rrpc0
	fio_run P3 fill --filename=/dev/rrpc0 --ioengine=libaio --direct=1 \
		--bs=128k --iodepth=8 --rw=write
	counters P3 start rrpc0 wd
	fio_run P3 over --filename=/dev/rrpc0 --ioengine=libaio --direct=1 \
		--bs=128k --iodepth=8 --rw=write --loops=$((MEAS / 2 + 1))
	counters P3 end rrpc0 wd
	_rrpc_remove rrpc0 || die "remove"
	_rrpc_rmdev wd || die "rmdev"
) || failed P3
fi

# ---------------------------------------------------------------------- P4
if want P4; then
(
	say "P4: 4 KiB random IOPS, rrpc on nvm_mem (8 LUNs, inline completions) vs null_blk memory-backed, QD 1 and 32 (goal >= 0.85 reads, >= 0.75 writes)"
	_rrpc_mkdev p4 num_ch=2 num_lun=4 num_pln=2 num_blk=64 num_pg=64 \
		sec_per_pg=4 oob_size=16 completion_mode=0 || die "nvm_mem p4"
	_rrpc_create p4 rrpc0 0 7 25 || die "create rrpc0 on p4"
	modprobe null_blk nr_devices=1 memory_backed=1 irqmode=0 gb=1 bs=4096 \
		queue_mode=2 || die "modprobe null_blk"
	_wait_for 5 -b /dev/nullb0 || die "no /dev/nullb0"
	rec "P4 setup region_mib=$P4REG runtime_s=$P4RT rounds=$P4ROUNDS"
	for d in rrpc0 nullb0; do
		fio_run P4 "fill.$d" --filename=/dev/$d --ioengine=libaio --direct=1 \
			--bs=128k --iodepth=8 --rw=write --size=${P4REG}m
	done
	for r in $(seq 1 $P4ROUNDS); do
		for qd in 1 32; do
			for rw in randread randwrite; do
				for d in rrpc0 nullb0; do
					fio_run P4 "$rw.qd$qd.$d.r$r" --filename=/dev/$d \
						--ioengine=libaio --direct=1 --bs=4k \
						--iodepth=$qd --rw=$rw --size=${P4REG}m \
						--norandommap --randrepeat=0 --randseed=$SEED \
						--time_based --runtime=$P4RT
				done
				say "  round $r $rw QD $qd: rrpc0 vs nullb0 done"
			done
		done
	done
	counters P4 end rrpc0 p4
	_rrpc_remove rrpc0 || die "remove"
	_rrpc_rmdev p4 || die "rmdev"
	rmmod null_blk
) || failed P4
fi

# ---------------------------------------------------------------------- P5
# nvm_mem's NAND timing model, every time the default times P5SCALE, so
# that the emulated device and not TCG is the bottleneck (the ratios to
# one LUN do not depend on the scale; at 8 x, random reads stopped at
# about 7000 IOPS from 4 LUNs on, TCG's cost per completion timer);
# switched on after the factory create, so that its erases cost nothing
P5SCALE=32
p5_timing() {
	for k in t_read_us t_prog_us t_erase_us t_xfer_ns; do
		v=$(cat "$RRPC_CFS/$1/$k") || return 1
		echo $((v * P5SCALE)) > "$RRPC_CFS/$1/$k" || return 1
	done
	echo 1 > "$RRPC_CFS/$1/timing"
}

if want P5; then
(
	case " $KNOBS " in
	*" timing "*)
		say "P5: LUN scaling with nvm_mem's timing model (defaults x $P5SCALE): seq write and 4K random read, 1-8 LUNs on 1 and 2 channels (goal >= 0.9 N x one LUN until the channel saturates)"
		for cfg in 1x1 1x2 1x4 1x8 2x1 2x2 2x4; do
			ch=${cfg%x*} l=${cfg#*x}
			_rrpc_mkdev p5 num_ch=$ch num_lun=$l num_pln=1 num_blk=64 \
				num_pg=64 sec_per_pg=4 oob_size=16 completion_mode=1 ||
				die "nvm_mem p5 $cfg"
			_rrpc_create p5 rrpc0 0 $((ch * l - 1)) 25 || die "create p5 $cfg"
			p5_timing p5 || die "timing knobs of p5"
			[ "$cfg" = 1x1 ] && rec "P5 timing $(for k in t_read_us t_prog_us t_erase_us t_xfer_ns; do printf '%s=%s ' $k "$(cat "$RRPC_CFS/p5/$k")"; done)scale=$P5SCALE"
			tag=c${ch}l$((ch * l))
			# the first 2 s fill the write buffer at memory speed
			# (its size does not grow with the LUNs): not counted
			fio_run P5 "seq.$tag" --filename=/dev/rrpc0 --ioengine=libaio \
				--direct=1 --bs=128k --iodepth=16 --rw=write \
				--time_based --ramp_time=2 --runtime=$P5RT
			kb=$(fio_last 47)
			sbw=$(fio_last 48)
			cap=$(_rrpc_bytes rrpc0)
			reg=$((kb * 1024))
			[ $reg -gt $cap ] && reg=$cap
			reg=$((reg / 1048576))
			[ $reg -ge 1 ] || die "P5 $cfg wrote $kb KiB only"
			fio_run P5 "rread.$tag" --filename=/dev/rrpc0 --ioengine=libaio \
				--direct=1 --bs=4k --iodepth=32 --rw=randread --size=${reg}m \
				--norandommap --randrepeat=0 --randseed=$SEED \
				--time_based --runtime=$P5RT
			say "  $ch channel(s) x $l LUNs: seq write $(awk -v k="$sbw" 'BEGIN { printf "%.2f", k / 1024 }') MiB/s, random read $(fio_last 8 | cut -d. -f1) IOPS"
			echo 0 > "$RRPC_CFS/p5/timing"
			_rrpc_remove rrpc0 || die "remove"
			_rrpc_rmdev p5 || die "rmdev"
		done
		;;
	*)
		say "P5: LUN scaling: n/a (needs nvm_mem's NAND timing model)"
		rec "P5 na reason=needs_nvm_mem_timing_model"
		;;
	esac
) || failed P5
fi

# ---------------------------------------------------------------- recovery
if want REC; then
(
	say "Recovery: map rebuild time after a clean remove (checkpoint) and after a power cut (scan) vs reading the whole target"
	_rrpc_mkdev rd num_ch=1 num_lun=$RECLUN num_pln=1 num_blk=128 num_pg=64 \
		sec_per_pg=4 oob_size=16 completion_mode=0 || die "nvm_mem rd"
	_rrpc_create rd rrpc0 0 $((RECLUN - 1)) 25 || die "create"
	geometry REC rrpc0
	cap=$(_rrpc_bytes rrpc0)
	fio_run REC fill --filename=/dev/rrpc0 --ioengine=libaio --direct=1 \
		--bs=128k --iodepth=8 --rw=write
	fio_run REC rand --filename=/dev/rrpc0 --ioengine=libaio --direct=1 \
		--bs=4k --iodepth=16 --rw=randwrite --norandommap --randrepeat=0 \
		--randseed=$SEED --io_size=$((cap / 4))
	fio_run REC read --filename=/dev/rrpc0 --ioengine=libaio --direct=1 \
		--bs=256k --iodepth=8 --rw=read
	_rrpc_remove rrpc0 || die "remove"
	t=$(now)
	_rrpc_attach rd rrpc0 0 $((RECLUN - 1)) 25 || die "attach (clean)"
	rec "REC clean wall_s=$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') $(cat /sys/block/rrpc0/rrpc/recovery | tr -s ' ' | awk '{ for (i = 1; i < NF; i += 2) printf "%s=%s ", $i, $(i + 1) }')"
	fio_run REC rand2 --filename=/dev/rrpc0 --ioengine=libaio --direct=1 \
		--bs=4k --iodepth=16 --rw=randwrite --norandommap --randrepeat=0 \
		--randseed=$((SEED + 2)) --io_size=$((cap / 8))
	echo 1 > "$RRPC_CFS/rd/unplugged" || die "cut"
	echo 0 > "$RRPC_CFS/rd/power" || die "power off after the cut"
	echo 1 > "$RRPC_CFS/rd/power" || die "power on after the cut"
	t=$(now)
	_rrpc_attach rd rrpc0 0 $((RECLUN - 1)) 25 || die "attach (cut)"
	rec "REC cut wall_s=$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') $(cat /sys/block/rrpc0/rrpc/recovery | tr -s ' ' | awk '{ for (i = 1; i < NF; i += 2) printf "%s=%s ", $i, $(i + 1) }')"
	_rrpc_remove rrpc0 || die "remove"
	_rrpc_rmdev rd || die "rmdev"
) || failed REC
fi

dmesg > /tmp/dmesg
if splat=$(_splat_check /tmp/dmesg); then
	echo "$splat"
	die "kernel splat in the kernel log"
fi
rec "run end elapsed_s=$(awk -v t="$(now)" -v s="$T0" 'BEGIN { printf "%d", t - s }')"
say "done; no kernel splat"
