# SPDX-License-Identifier: GPL-2.0
#
# Results of a test run, sourced by check (bash). This file owns the
# result files: one per result under build/results/ (GROUP/NAME, as
# blktests' results/), written once by result(), and every count and list
# of the summary, derived from those files only. A result file holds
# "status=PASS|FAIL|SKIP", "secs=N" and "reason=TEXT" lines, and a
# "figure.KEY=VALUE" line per figure the test gave (_figure).

RESULTS=$B/results

# results_init: an empty results directory for this run (under the lock)
results_init() {
	rm -rf "$RESULTS"
	mkdir -p "$RESULTS"
}

# result NAME STATUS SECS [REASON [FIGURES]]: record a result and print its
# line; FIGURES: "KEY=VALUE ..." (no blanks in a value). A name reported
# twice keeps both (NAME~2).
result() {
	local name=$1 status=$2 secs=$3 reason=${4:-} f i=1 kv
	local -a figures=()
	read -ra figures <<< "${5:-}"
	f=$RESULTS/$name
	while [ -e "$f" ]; do
		i=$((i + 1))
		f=$RESULTS/$name~$i
	done
	mkdir -p "${f%/*}"
	{
		printf 'status=%s\nsecs=%s\nreason=%s\n' "$status" "$secs" "$reason"
		for kv in "${figures[@]}"; do
			printf 'figure.%s\n' "$kv"
		done
	} >"$f.tmp"
	mv "$f.tmp" "$f"
	case $status in
	PASS) printf '  PASS  %-40s (%ss) %s\n' "$name" "$secs" "$reason" ;;
	SKIP) printf '  SKIP  %-40s %s\n' "$name" "$reason" ;;
	*)    printf '  FAIL  %-40s (%ss) %s\n' "$name" "$secs" "$reason" ;;
	esac
}

# results_list STATUS: the names of the results with STATUS, sorted
results_list() {
	(cd "$RESULTS" && grep -rlx "status=$1" . 2>/dev/null) |
		sed 's|^\./||; s|~[0-9]*$||' | LC_ALL=C sort
}

# results_figures NAME KEY: the figure KEY of every result of NAME (NAME,
# NAME~2, ...), one per line, in the order they were recorded
results_figures() {
	local f i=1
	f=$RESULTS/$1
	while [ -e "$f" ]; do
		sed -n "s/^figure\.$2=//p" "$f"
		i=$((i + 1))
		f=$RESULTS/$1~$i
	done
}

# results_count STATUS: how many results have STATUS
results_count() {
	results_list "$1" | grep -c .
}

# results_with STATUS NAME-RE REASON-RE: the names of the results with
# STATUS whose name matches NAME-RE and whose reason matches REASON-RE
# (extended regular expressions)
results_with() {
	local st=$1 nre=$2 rre=$3 f
	(cd "$RESULTS" && find . -type f ! -name '*.tmp') | sed 's|^\./||' |
		LC_ALL=C sort | while read -r f; do
		grep -qx "status=$st" "$RESULTS/$f" || continue
		grep -qE "^reason=.*$rre" "$RESULTS/$f" || continue
		[[ ${f%~*} =~ $nre ]] && echo "${f%~*}"
	done
}

# results_summary: the failed list and "N passed, N failed[, N skipped]";
# with LNVM_STRICT=1 a skipped test counts as failed. True if nothing
# failed and something passed (a run of skips only, or of nothing, fails).
results_summary() {
	local npass nfail nskip failed
	npass=$(results_count PASS)
	nfail=$(results_count FAIL)
	nskip=$(results_count SKIP)
	failed=$(results_list FAIL | tr '\n' ' ')
	# strict (LNVM_STRICT=1, set by .ci/run): everything the build should
	# have produced is there in CI, so a test that skips is a failure
	if [ "${LNVM_STRICT:-0}" = 1 ] && [ "$nskip" != 0 ]; then
		echo "strict: $nskip skipped tests count as failed (LNVM_STRICT=1)"
		failed="$failed$(results_list SKIP | tr '\n' ' ')"
		nfail=$((nfail + nskip))
		nskip=0
	fi
	[ "$nfail" != 0 ] && echo "failed: ${failed% }"
	if [ "$nskip" != 0 ]; then
		echo "$npass passed, $nfail failed, $nskip skipped"
	else
		echo "$npass passed, $nfail failed"
	fi
	[ "$nfail" = 0 ] && [ "$npass" -gt 0 ]
}
