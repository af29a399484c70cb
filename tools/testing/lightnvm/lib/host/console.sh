# SPDX-License-Identifier: GPL-2.0
#
# The host's parser of the guest's console protocol, sourced by check
# (bash). vm/init (and lib/common.sh's helpers) print "@@LNVM KIND ..."
# lines on the first serial port:
#   BOOTED INFO          the guest runner started
#   BEGIN NAME           test NAME starts
#   RESULT NAME ST S ... NAME's result: PASS|FAIL|SKIP, seconds, reason
#   OUT|ERR|DMESG ...    a failed (or verbose) test's output and kernel log
#   NOTE NAME | TEXT     a test's remark, shown as it comes (_note)
#   FIGURE NAME K=V      a figure of NAME for its result file (_figure)
#   CUT-ARM NAME         NAME asks for the group's power cut (_cut_arm)
#   QMP ID JSON          a monitor request for the host (_qmp)
#   DEMO TEXT            a line of the demo, shown as is
#   DONE                 the runner finished; the guest powers off
# Every other line is the kernel's or QEMU's and only goes to the log.

# console_parse DIR: read the console from stdin. Uses and sets the
# caller's state: start booted current seen[] figs[] QMP, and the power-cut
# state of powercut.sh (armed held ...).
console_parse() {
	local dir=$1 line n st s
	while IFS= read -r line; do
		case $line in
		*"@@LNVM BOOTED "*)
			booted=$((SECONDS - start)) ;;
		*"@@LNVM BEGIN "*)
			current=${line##*@@LNVM BEGIN } ;;
		*"@@LNVM CUT-ARM"*)
			cut_arm "$current" "$dir" ;;
		*"@@LNVM QMP "*)
			[ -n "$QMP" ] && qmp_relay "$dir" "$current" "${line#*@@LNVM QMP }" ;;
		*"@@LNVM RESULT "*)
			read -r n st s line <<< "${line#*@@LNVM RESULT }"
			seen["$n"]=1
			# the armed test's result waits: it must not finish first
			if [ -n "$armed" ] && [ "$n" = "$armed" ]; then
				held="$st $s $line"
				continue
			fi
			result "$n" "$st" "$s" "$line" "${figs[$n]:-}"
			unset 'figs[$n]' ;;
		*"@@LNVM FIGURE "*)
			read -r n line <<< "${line#*@@LNVM FIGURE }"
			figs["$n"]="${figs[$n]:-}$line " ;;
		*"@@LNVM OUT "*|*"@@LNVM ERR "*|*"@@LNVM DMESG "*)
			printf '        %s\n' "${line#*@@LNVM }" | cut -c1-200 ;;
		*"@@LNVM NOTE "*)
			printf '        %s\n' "${line#*@@LNVM }" | cut -c1-400 ;;
		*"@@LNVM DEMO "*)
			printf '%s\n' "${line#*@@LNVM DEMO }" ;;
		esac
	done
}
