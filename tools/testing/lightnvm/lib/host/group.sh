# SPDX-License-Identifier: GPL-2.0
#
# One VM group's scenario, sourced by check (bash): its boots one after
# the other on the same backing files (settings: conf.sh), and the
# results of one boot, from the console (console.sh), the power cut
# (powercut.sh) and how the boot ended.

# run_group GROUP TESTS...: one scenario, the group's boots one after the
# other on the same backing files; a group of several boots runs all its
# tests (they depend on each other), whatever was selected.
run_group() {
	local group=$1; shift
	local list=("$@") dir=$B/vm/$group nboots t k i spec seed
	local KERNEL MEM SMP QEMU_EXTRA APPEND BOOT_TIMEOUT BOOTS KILL CARRY_RE QMP TESTMODS BOOT TIMEOUT_ADD SLOW

	mkdir -p "$dir"
	nboots=$(boots_of "$group")
	if [ "$nboots" -gt 1 ]; then
		mapfile -t list < <(tests_of "$group")
	fi
	seed=${LNVM_SEED:-$(od -An -N3 -tu4 /dev/urandom | tr -d ' ')}
	carry_reset "$dir"

	load_conf "$group" 1
	if [ "$nboots" -gt 1 ]; then
		echo "  ---   $group: $nboots boots of one device, seed $seed" \
			"(replay: LNVM_SEED=$seed make check TESTS=$group)"
	fi
	if declare -F group_setup >/dev/null && ! group_setup "$dir" >"$dir/setup.log" 2>&1; then
		for t in "${list[@]}"; do
			result "$t" FAIL 0 "group setup failed: $(tail -n 1 "$dir/setup.log")"
		done
		return
	fi

	for k in $(seq 1 "$nboots"); do
		load_conf "$group" "$k"
		: >"$dir/run-list"
		for t in "${list[@]}"; do
			spec=$(_meta "$here/tests/$t" BOOT "$APPEND" 2>/dev/null)
			in_boots "$spec" "$k" "$nboots" || continue
			# a test that runs in several boots reports NAME@BOOT
			if [ "$nboots" -gt 1 ] && [ "$(for i in $(seq 1 "$nboots"); do
				in_boots "$spec" "$i" "$nboots" && echo; done | wc -l)" -gt 1 ]; then
				echo "$t $t@$k"
			else
				echo "$t $t"
			fi >>"$dir/run-list"
		done
		run_boot "$group" "$k" "$nboots" "$seed"
	done
}

# boot_fail_all REASON: every test of the boot fails (it could not start)
boot_fail_all() {
	local t
	for t in "${names[@]}"; do result "$t" FAIL 0 "$1"; done
}

# run_boot GROUP BOOT NBOOTS SEED: one boot of a group, with the settings
# load_conf left and the tests of $dir/run-list
run_boot() {
	local group=$1 k=$2 nboots=$3 seed=$4
	local dir=$B/vm/$group log kimg mods t total=0 start name script tag=$group
	local -a names=() qmp_args=()
	local -A seen=() figs=()
	local verbose="" qrc current="" booted=0 killed=0 why
	local cut what armed="" armed_at=0 killer="" held=""

	[ "$nboots" -gt 1 ] && tag="$group boot $k/$nboots"
	while read -r script name; do
		names+=("$name")
		total=$((total + $(test_timeout "$script") + 15))
	done <"$dir/run-list"
	total=$((total + BOOT_TIMEOUT))
	[ "$DEMO" = 1 ] && total=$((total + 1800))
	log=$LOGS/$group.console.log
	[ "$nboots" -gt 1 ] && log=$LOGS/$group.boot$k.console.log

	if ! read -r kimg mods < <(kernel_of "$KERNEL") || [ ! -f "$kimg" ]; then
		if [ "$KERNEL" = stock-dkms ]; then
			# the two groups that depend on another test's effect
			boot_fail_all "no lightnvm modules from DKMS for Debian's 6.1 kernel: run host/deb-dkms first (TESTS='host/deb-dkms $group')"
		elif [ "$KERNEL" = stock-dkms-6.12 ]; then
			boot_fail_all "no lightnvm modules from DKMS for Debian's 6.12 kernel: run host/deb-dkms-kernels first (TESTS='host/deb-dkms-kernels $group')"
		elif [[ ${kimg:-} == /boot/vmlinuz-* ]]; then
			# Debian's kernel of the modules we built is not installed
			boot_fail_all "no $kimg: Debian's linux-image-${kimg#/boot/vmlinuz-} is not installed (make deps installs it)"
		elif [ "${KERNEL#stock}" != "$KERNEL" ]; then
			why="make modules${SFX:+ KVER=6.12}"
			[ "$KERNEL" = stock-6.12 ] && why="make modules-6.12"
			boot_fail_all "no modules for Debian's $KERNEL kernel: $why (part of make check) needs the kernel's headers, which make deps installs"
		else
			boot_fail_all "no $KERNEL kernel (run make kernel / make modules)"
		fi
		return
	fi
	if [ ! -x "$QEMU" ]; then
		boot_fail_all "no QEMU at $QEMU (run make qemu)"
		return
	fi
	if [ -z "${packed[$KERNEL]:-}" ]; then
		bash "$top/scripts/mkinitramfs.sh" mods "$KERNEL" "$mods" || {
			boot_fail_all "could not pack modules"; return; }
	fi
	make_run_cpio "$group" "$dir/run.cpio" "$dir/run-list"
	cat "$B/initramfs/base.cpio.gz" "$B/initramfs/mods-$KERNEL.cpio" \
		"$dir/run.cpio" > "$dir/initrd"

	cut_plan "$KILL" "$seed" "$k"
	echo "  ---   $tag: booting $(basename "$kimg") under TCG (${#names[@]} tests, limit ${total}s$what)"
	[ -n "${LNVM_VERBOSE:-}" ] && verbose=lnvm.verbose=1
	rm -f "$dir/qemu.pid" "$dir/killed"
	[ -n "$QMP" ] && qmp_setup "$dir"
	start=$SECONDS
	# shellcheck disable=SC2086	# QEMU_EXTRA: words of group.conf
	lnvm_qemu "$total" "$SMP" "$MEM" "$kimg" "$dir/initrd" \
		"console=ttyS0 loglevel=5 panic=-1 $verbose lnvm.seed=$seed lnvm.boot=$k lnvm.boots=$nboots $APPEND" \
		-pidfile "$dir/qemu.pid" $QEMU_EXTRA "${qmp_args[@]}" |
		stdbuf -oL tr -d '\r' | tee "$log" | console_parse "$dir"
	qrc=${PIPESTATUS[0]}
	cut_stop

	cut_killed "$dir" "$qrc" && killed=1
	if [ $killed = 1 ]; then
		echo "  ---   $tag: booted in ${booted}s; power cut $((SECONDS - armed_at))s after $armed armed it, $((SECONDS - start))s after the start"
	else
		echo "  ---   $tag: booted in ${booted}s; $((SECONDS - start))s from boot to power-off"
	fi
	cut_verdict "$group" "$k" "$log" "$dir" "$killed" "$seed"

	why="VM died before the test ran"
	[ "$qrc" = 124 ] && why="VM timed out after ${total}s"
	[ $killed = 1 ] && why="not run: the power was cut during $armed"
	[ $killed = 1 ] || grep -q "@@LNVM DONE" "$log" || why="$why; no clean shutdown"
	if grep -q "Kernel panic" "$log"; then
		why="kernel panic: $(grep -m1 'Kernel panic' "$log" | cut -c1-120)"
	fi
	for t in "${names[@]}"; do
		[ -n "${seen[$t]:-}" ] || result "$t" FAIL $((SECONDS - start)) "$why (log: ${log#"$top"/})"
	done
	if [ $killed = 0 ] && ! grep -q "@@LNVM DONE" "$log"; then
		echo "        last console lines:"
		tail -n 20 "$log" | sed 's/^/        | /'
	fi
	if [ -n "$CARRY_RE" ] && [ "$k" -lt "$nboots" ]; then
		carry_over "$log" "$dir" "$k" "$CARRY_RE"
	fi
}
