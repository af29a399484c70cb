# SPDX-License-Identifier: GPL-2.0
#
# The summary of `make powercut`'s QEMU scenario (check --powercut-qemu),
# sourced by check (bash): "N cuts, X flushed sectors lost", from the
# result files only: the cuts from the writers' results, the verifiers'
# figures (_figure) from theirs. It is itself recorded as a result,
# ocssd-powercut/summary, whose figures make powercut reads.

# powercut_cuts: how many boots of ocssd-powercut were cut as planned
powercut_cuts() {
	results_with PASS '^ocssd-powercut/' 'cut as planned' | grep -c .
}

# powercut_max KEY: the largest figure KEY of the verifiers' results
# (ocssd-powercut/001-recover, one per boot after a cut), "?" if none
powercut_max() {
	results_figures ocssd-powercut/001-recover "$1" |
		awk '{ if (!n++ || $1 > m) m = $1 } END { print n ? m : "?" }'
}

# powercut_summary BOOTS: the figures of the ocssd-powercut scenario. Each
# boot's verifier checks every epoch so far; a sector lost once stays lost
# (until a later epoch overwrites it), so the figures are the largest any
# boot reported. The summary fails unless BOOTS - 1 cuts were done and
# verified and nothing flushed was lost.
powercut_summary() {
	local cuts lost n st=PASS why=""
	cuts=$(powercut_cuts)
	lost=$(powercut_max lost)
	n=$(results_figures ocssd-powercut/001-recover lost | grep -c .)
	echo "powercut: $n verifications, $(powercut_max foreign) foreign, $(powercut_max garbage) garbage"
	if [ "$cuts" != $(($1 - 1)) ]; then
		st=FAIL why=": $(($1 - 1)) cuts asked for"
	elif [ "$n" != "$cuts" ]; then
		st=FAIL why=": $n verifications"
	elif [ "$lost" != 0 ]; then
		st=FAIL
	fi
	result ocssd-powercut/summary $st 0 "$cuts cuts, $lost flushed sectors lost$why" \
		"cuts=$cuts lost=$lost"
}
