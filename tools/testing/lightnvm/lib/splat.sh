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

# _splat_check FILE: prints the first matching lines; true if any matched.
_splat_check() {
	grep -E "$SPLAT_RE" "$1" | head -n 5 | grep .
}
