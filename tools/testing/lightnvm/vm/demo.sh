#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run inside the VM by `make demo`: the main job end to end.
# Loads the stack, creates two rrpc targets on the default memory-backed
# device nvm_mem0, or on the device lnvm.demo_dev= names on the kernel
# command line (the QEMU Open-Channel SSD of vm/ocssd-demo.conf), on
# disjoint LUNs; puts ext4 on one (files copied and
# verified across umount, fsck and remount) and runs fio on the other
# (sequential fill, random overwrites with GC active, random reads), then
# prints a summary. Every step says what it does; any failure stops it,
# and so do e2fsck errors and any kernel splat in the kernel log. While the
# random overwrites run, rrpc1's write counters are sampled four times a
# second and printed on the console as "@@LNVM PLOT <uptime> <user sectors>
# <media sectors> <GC moved sectors>" lines, which the host turns into a
# plot of write throughput and write amplification.
set -e

. /lnvm/lib/common.sh
. /lnvm/lib/rrpc.sh
. /lnvm/lib/splat.sh

step() { echo; echo "== $*"; }
die() { echo "DEMO FAILED: $*"; exit 1; }
now() { cut -d' ' -f1 /proc/uptime; }
t0=$(now)
DEV=$(_lnvm_arg demo_dev nvm_mem0)

# media_written: sectors the device programmed (nvm_mem's own counter;
# rrpc1's count of what it sent to the media on other devices)
media_src="device counter"
[ "$DEV" = nvm_mem0 ] || media_src="rrpc's count"
media_written() {
	if [ "$DEV" = nvm_mem0 ]; then
		_rrpc_devstat nvm_mem0 media_write_sectors
	else
		_rrpc_stat rrpc1 media_sectors_written
	fi
}

# fio_bw FILE: the bandwidth fio reports for the job's group, e.g. 31.2MiB/s
fio_bw() {
	sed -En 's/.*(READ|WRITE): bw=([^ ]*) .*/\2/p' "$1" | head -n 1
}
# fio_iops FILE: IOPS as a plain number (fio prints e.g. 812 or 1.2k)
fio_iops() {
	sed -n 's/.*IOPS=\([^,]*\),.*/\1/p' "$1" | head -n 1 |
		awk '/k$/ { sub(/k$/, ""); $0 = $0 * 1000 } { printf "%d\n", $0 }'
}

# sampler TGT: every quarter second until /tmp/sampler.stop exists, one PLOT line
# of TGT's counters on the console (not in the demo's own output)
sampler() {
	while [ ! -e /tmp/sampler.stop ]; do
		echo "@@LNVM PLOT $(now) $(_rrpc_stat "$1" user_sectors_written) $(_rrpc_stat "$1" media_sectors_written) $(_rrpc_stat "$1" gc_sectors_moved)" >/dev/console
		sleep 0.25
	done
}

step "kernel"
if [ -e /sys/kernel/debug/kmemleak ]; then
	kind="the debug kernel: KASAN + lockdep + kmemleak on"
else
	kind="Debian's stock kernel with the out-of-tree modules"
fi
echo "$(uname -r) under QEMU/TCG, $(nproc) CPUs, $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB, $kind"

if [ "$DEV" = nvm_mem0 ]; then
	step "loading LightNVM: core, gennvm, rrpc, nvm_mem (one default device)"
	mods="lightnvm gennvm rrpc nvm_mem"
else
	step "loading LightNVM: core, gennvm, rrpc, and the NVMe driver for $DEV"
	mods="lightnvm gennvm rrpc nvme"
fi
for m in $mods; do
	modprobe "$m" || die "modprobe $m"
done
modprobe ext4 2>/dev/null || true	# a module in Debian's kernel
i=0
while [ ! -d "/sys/class/lightnvm/$DEV" ] && [ $i -lt 100 ]; do
	sleep 0.2
	i=$((i + 1))
done
[ -d "/sys/class/lightnvm/$DEV" ] || die "$DEV did not register with LightNVM"
ls -l /dev/lightnvm/control
echo "modules: $(lsmod | awk 'NR > 1 && /nvm|rrpc/ {print $1}' | tr '\n' ' ')"

step "devices"
lnvm devices || die "lnvm devices"
lnvm geometry -d "$DEV" || die "lnvm geometry"

step "creating rrpc0 on LUNs 0-3 (ext4) and rrpc1 on LUN 4 (fio, over-provisioning 25%)"
_rrpc_create "$DEV" rrpc0 0 3 || die "create rrpc0"
_rrpc_create "$DEV" rrpc1 4 4 25 || die "create rrpc1"
for t in rrpc0 rrpc1; do
	echo "/dev/$t: $(( $(_rrpc_bytes $t) >> 20 )) MiB, $(cat /sys/block/$t/rrpc/geometry)"
done
dmesg | grep "rrpc: rrpc[01]:" | sed 's/^\[[^]]*\] //'

step "ext4 on rrpc0"
mkfs.ext4 -q -F /dev/rrpc0 || die "mkfs.ext4"
mount /dev/rrpc0 /mnt || die "mount"
echo "making a tree of files (the initramfs' programs and libraries, plus random data)"
mkdir -p /mnt/tree
cp -a /usr/bin /usr/sbin /usr/lib /lib/modules /mnt/tree/ 2>/dev/null || true
dd if=/dev/urandom of=/mnt/tree/random.bin bs=1M count=16 2>/dev/null
(cd /mnt/tree && find . -type f | sort | xargs md5sum) > /tmp/sums
nfiles=$(wc -l < /tmp/sums)
echo "$nfiles files, $(du -sm /mnt/tree | cut -f1) MiB copied; checksums taken"
umount /mnt
echo "umount; e2fsck -fn:"
if ! e2fsck -fn /dev/rrpc0 >/tmp/fsck.out 2>&1; then
	cat /tmp/fsck.out
	die "e2fsck found errors on rrpc0"
fi
tail -n 1 /tmp/fsck.out
mount /dev/rrpc0 /mnt || die "remount"
(cd /mnt/tree && md5sum -c -s /tmp/sums) || die "checksums differ after remount"
echo "remounted: all $nfiles checksums match"
umount /mnt

step "fio on rrpc1"
cap=$(_rrpc_bytes rrpc1)
echo "random 4 KiB writes of $((cap >> 22)) MiB on the empty target (iodepth 16, no GC needed)"
fio --name=rw0 --filename=/dev/rrpc1 --ioengine=libaio --direct=1 --bs=4k \
	--iodepth=16 --rw=randwrite --io_size=$((cap / 4)) --randseed=3 \
	--output=/tmp/rw0.out || die "fio randwrite (empty)"
rw0_bw=$(fio_bw /tmp/rw0.out)
rw0_iops=$(fio_iops /tmp/rw0.out)
echo "  $rw0_bw ($rw0_iops IOPS)"
echo "sequential fill of $((cap >> 20)) MiB (128 KiB writes)"
DEV=/dev/rrpc1 LOOPS=1 fio --output=/tmp/seq.out /lnvm/fio/rrpc-seq.fio || die "fio seq"
seq_bw=$(fio_bw /tmp/seq.out)
echo "  $seq_bw"
u0=$(_rrpc_stat rrpc1 user_sectors_written)
d0=$(media_written)
m0=$(_rrpc_stat rrpc1 gc_sectors_moved)
v0=$(_rrpc_stat rrpc1 gc_victims)
echo "random 4 KiB overwrites of $((3 * cap >> 20)) MiB (three times the target) on the full target (iodepth 16): GC at work"
rm -f /tmp/sampler.stop
sampler rrpc1 &
spid=$!
DEV=/dev/rrpc1 BYTES=$((3 * cap)) fio --output=/tmp/rand.out /lnvm/fio/rrpc-rand.fio || die "fio randwrite"
touch /tmp/sampler.stop
wait $spid
rw_bw=$(fio_bw /tmp/rand.out)
rw_iops=$(fio_iops /tmp/rand.out)
echo "  $rw_bw ($rw_iops IOPS)"
u=$(( $(_rrpc_stat rrpc1 user_sectors_written) - u0 ))
d=$(( $(media_written) - d0 ))
m=$(( $(_rrpc_stat rrpc1 gc_sectors_moved) - m0 ))
v=$(( $(_rrpc_stat rrpc1 gc_victims) - v0 ))
echo "random 4 KiB reads of $((cap >> 22)) MiB"
fio --name=rr --filename=/dev/rrpc1 --ioengine=libaio --direct=1 --bs=4k \
	--iodepth=16 --rw=randread --io_size=$((cap / 4)) --randseed=5 \
	--output=/tmp/rr.out || die "fio randread"
rr_bw=$(fio_bw /tmp/rr.out)
rr_iops=$(fio_iops /tmp/rr.out)
echo "  $rr_bw ($rr_iops IOPS)"
ratio=$(_rrpc_ratio "$rw_iops" "$rw0_iops")
np=$(_rrpc_geo rrpc1 sectors_per_block)
# the nominal alpha as rrpc1 reports it: sectors it may fill / capacity
alpha=$(_rrpc_ratio "$(_rrpc_geo rrpc1 usable_sectors)" "$(_rrpc_geo rrpc1 capacity_sectors)")

step "removing the targets"
lnvm remove -n rrpc1 || die "remove rrpc1"
mount /dev/rrpc0 /mnt
if lnvm remove -n rrpc0 2>/dev/null; then
	die "removing a mounted target succeeded"
fi
echo "remove of the mounted rrpc0 refused (busy), as it should be"
umount /mnt
lnvm remove -n rrpc0 || die "remove rrpc0"
echo "both removed"

step "summary"
waf=$(_rrpc_ratio $d $u)
model=$(_rrpc_model "$alpha" "$np")
cat <<EOF
device       $(lnvm devices 2>/dev/null | awk -v d="$DEV" '$1 == d' | tr -s ' ')
targets      rrpc0: LUNs 0-3, ext4 with $nfiles files verified after remount
             rrpc1: LUN 4, $((cap >> 20)) MiB, over-provisioning 25%
fio          random write 4K, empty   $rw0_bw ($rw0_iops IOPS)
             sequential write 128K    $seq_bw
             random write 4K, full    $rw_bw ($rw_iops IOPS), GC active
             random read 4K           $rr_bw ($rr_iops IOPS)
             random write IOPS with GC / without: $ratio
GC           while overwriting: $u user sectors, $d programmed
             ($media_src), $v blocks reclaimed, $m sectors moved
             write amplification $waf; greedy model at alpha $alpha: $model
             (steady state; the first pass after a fill starts below it)
time         $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%d s\n", b - a }')
EOF

step "kernel log"
dmesg >/tmp/dmesg
if splat=$(_splat_check /tmp/dmesg); then
	echo "$splat"
	die "kernel splat in the kernel log"
fi
echo "no kernel splat (BUG, WARNING, KASAN, lockdep, hung task, ...)"
