# SPDX-License-Identifier: GPL-2.0
#
# The power-cut killer of a boot, sourced by check (bash). A group's
# KILL="LO HI" has the host cut the power (SIGKILL to QEMU) at a seeded
# moment LO to HI seconds after a guest test armed it ("@@LNVM CUT-ARM",
# _cut_arm); KILL=self has QEMU cut its own power (a device property such
# as x-cut-at) after the arming. The armed test passes when the cut comes
# and the kernel did not splat before it; it fails if it ends first.
# State (the caller's locals): cut what armed armed_at killer held.

# cut_delay SEED BOOT LO HI: the seeded moment (seconds, 3 decimals) of the
# cut of a boot, between LO and HI seconds after the guest armed it
cut_delay() {
	local span ms
	RANDOM=$(($1 * 31 + $2))
	span=$((($4 - $3) * 1000 + 1))
	ms=$(((RANDOM * 32768 + RANDOM) % span + $3 * 1000))
	printf '%d.%03d\n' $((ms / 1000)) $((ms % 1000))
}

# cut_plan KILL SEED BOOT: sets cut ("", "self" or the delay) and what
# (the words for the boot line)
cut_plan() {
	local lo hi
	cut="" what=""
	case $1 in
	"") ;;
	self) cut=self what=", QEMU cuts its own power after the guest arms it" ;;
	*)
		read -r lo hi <<< "$1"
		cut=$(cut_delay "$2" "$3" "$lo" "${hi:-$lo}")
		what=", power cut ${cut}s after the guest arms it" ;;
	esac
}

# cut_arm TEST DIR: TEST armed the cut; start the killer of the QEMU whose
# pid is in DIR/qemu.pid (DIR/killed says it struck)
cut_arm() {
	[ -n "$cut" ] && [ -z "$armed" ] || return 0
	armed=$1
	armed_at=$SECONDS
	if [ "$cut" = self ]; then
		printf '        %s armed the power cut (QEMU cuts it)\n' "$armed"
		return 0
	fi
	printf '        %s armed the power cut: SIGKILL to QEMU in %ss\n' "$armed" "$cut"
	(
		sleep "$cut"
		p=$(cat "$2/qemu.pid" 2>/dev/null) || exit 0
		# only the QEMU this boot started, if it still runs
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = qemu-system-x86 ] || exit 0
		kill -KILL "$p" && echo "$p" >"$2/killed"
	) &
	killer=$!
}

# cut_stop: the killer is no longer needed (QEMU is gone)
cut_stop() {
	[ -n "$killer" ] || return 0
	kill "$killer" 2>/dev/null
	wait "$killer" 2>/dev/null
}

# cut_killed DIR QEMU-STATUS: true if the power was cut during this boot
cut_killed() {
	[ -f "$1/killed" ] && return 0
	# QEMU killed itself: timeout reports 128 + SIGKILL
	[ "$cut" = self ] && [ -n "$armed" ] && [ "$2" = 137 ]
}

# cut_verdict GROUP BOOT LOG DIR KILLED SEED: the result of the armed
# test (or of a boot whose cut nobody armed); marks it seen
cut_verdict() {
	local group=$1 k=$2 log=$3 dir=$4 killed=$5 seed=$6 splat
	if [ -z "$armed" ]; then
		[ -n "$cut" ] && grep -q "@@LNVM DONE" "$log" &&
			result "$group/cut@$k" FAIL 0 "boot $k ended without the planned power cut: no test armed it (_cut_arm)"
		return 0
	fi
	seen["$armed"]=1
	if [ "$killed" = 1 ]; then
		console_part "$log" "$armed" >"$dir/cut.part"
		splat=$(_splat_check "$dir/cut.part")
		if [ -n "$splat" ]; then
			result "$armed" FAIL $((SECONDS - armed_at)) "kernel splat before the cut: $(echo "$splat" | head -n 1)" "${figs[$armed]:-}"
		elif [ "$cut" = self ]; then
			result "$armed" PASS $((SECONDS - armed_at)) "cut as planned by QEMU" "${figs[$armed]:-}"
		else
			result "$armed" PASS $((SECONDS - armed_at)) "cut as planned after ${cut}s (seed $seed)" "${figs[$armed]:-}"
		fi
	elif [ -n "$held" ]; then
		# shellcheck disable=SC2086
		set -- $held
		result "$armed" FAIL "$2" "it ended (${1}) before the planned power cut at ${cut}s: the writer must outlast the KILL window" "${figs[$armed]:-}"
	fi
}

# console_part LOG NAME: the console lines of test NAME (from its BEGIN)
console_part() {
	awk -v b="@@LNVM BEGIN $2" 'index($0, b) { on = 1 } on' "$1"
}
