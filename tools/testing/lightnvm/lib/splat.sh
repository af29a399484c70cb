# SPDX-License-Identifier: GPL-2.0
#
# What counts as a kernel splat. Sourced by the guest runner (busybox sh)
# and by the host-side self test of the harness; keep it POSIX sh.
#
# A test fails when the kernel log written during it matches this extended
# regular expression: BUG/WARNING/KASAN/UBSAN reports, oopses and panics,
# lockdep reports (they start with "WARNING: possible ..." or "BUG: ..."),
# hung tasks, soft lockups, RCU stalls and kmemleak reports.
SPLAT_RE='(BUG:|WARNING:|KASAN:|UBSAN:|kernel BUG at|Oops|general protection fault|Kernel panic|INFO: task .* blocked for more than|INFO: possible|INFO: trying to register non-static key|soft lockup|rcu_.* detected stalls|RCU Stall|suspected memory leak|unreferenced object 0x)'

# _splat_known FILE: FILE without the reports of the kernel's own code
# that are known not to be ours, each with the kernel that shows it:
# - 6.12 (Debian 6.12.118): lockdep takes a queue freeze for a lock that
#   the freezing task holds until the unfreeze (blk_freeze_acquire_lock()).
#   When an NVMe controller is gone, NVMe's timeout handler freezes the
#   namespaces' queues from blk-mq's timeout work (nvme_timeout() ->
#   nvme_dev_disable() -> nvme_start_freeze()) and the reset work unfreezes
#   them later, so the workqueue code reports the freeze as leaked: "BUG:
#   workqueue leaked atomic, lock or RCU: kworker/...", with "preempt=0x0
#   lock=0->N RCU=0->0 workfn=blk_mq_timeout_work" on the next line and
#   only q_usage_counter locks taken in nvme_start_freeze() among the held
#   locks listed after it. Any NVMe device shows it on a surprise removal
#   (ocssd-faults/004). The same report of another work function, or with
#   another lock held, is a splat.
_splat_known() {
	awk '
	{ l[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			if (l[i] ~ /BUG: workqueue leaked atomic, lock or RCU: kworker\// &&
			    l[i + 1] ~ /preempt=0x00000000 lock=0->[1-9][0-9]* RCU=0->0 workfn=blk_mq_timeout_work$/) {
				ok = 1
				n = 0
				for (j = i + 2; j <= i + 14 && j <= NR; j++) {
					# a "#k:" line cut short by another
					# message (its rest follows it)
					if (l[j] !~ /\] +#[0-9]+: / ||
					    l[j] ~ /\] +#[0-9]+: *$/)
						continue
					n++
					if (l[j] !~ /q_usage_counter.* at: nvme_start_freeze/)
						ok = 0
				}
				if (ok && n > 0)
					continue
			}
			print l[i]
		}
	}' "$1"
}

# _splat_check FILE: prints the first matching lines; true if any matched.
_splat_check() {
	_splat_known "$1" | grep -E "$SPLAT_RE" | head -n 5 | grep .
}
