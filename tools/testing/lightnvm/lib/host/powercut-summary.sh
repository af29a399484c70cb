# SPDX-License-Identifier: GPL-2.0
#
# The summary of `make powercut`'s QEMU scenario (check --powercut-qemu),
# sourced by check (bash): "N cuts, X flushed sectors lost", from the
# result files (the cuts) and the boots' console logs (the verifier's
# figures).

# powercut_cuts: how many boots of ocssd-powercut were cut as planned
powercut_cuts() {
	results_with PASS '^ocssd-powercut/' 'cut as planned' | grep -c .
}

# powercut_summary BOOTS: the figures of the ocssd-powercut scenario of
# BOOTS boots. Each boot's verifier checks every epoch so far and notes
# "pcw: N sectors, X flushed sectors lost, Y foreign, Z garbage"; a sector
# lost once stays lost (until a later epoch overwrites it), so the figures
# are the largest any boot reported.
powercut_summary() {
	local k lost foreign garbage notes
	notes=$(for k in $(seq 1 "$1"); do
		grep -a '@@LNVM NOTE .*pcw: [0-9]* sectors' "$LOGS/ocssd-powercut.boot$k.console.log" 2>/dev/null
	done)
	read -r lost foreign garbage < <(printf '%s\n' "$notes" | sed -n \
		's/.*pcw: [0-9]* sectors, \([0-9]*\) flushed sectors lost, \([0-9]*\) foreign, \([0-9]*\) garbage.*/\1 \2 \3/p' |
		awk '{ for (i = 1; i <= 3; i++) if ($i > m[i]) m[i] = $i; n++ }
		     END { if (n) print m[1] + 0, m[2] + 0, m[3] + 0; else print "?", "?", "?" }')
	echo "powercut: $(printf '%s\n' "$notes" | grep -c 'pcw: [0-9]* sectors') verifications, $foreign foreign, $garbage garbage"
	echo "$(powercut_cuts) cuts, $lost flushed sectors lost"
}
