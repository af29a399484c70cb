# SPDX-License-Identifier: GPL-2.0
#
# The one parser of a test script's metadata, sourced by the host runner
# (check, bash) and by the guest runner (vm/init, busybox sh): keep it
# POSIX sh. This file owns the list of metadata names and their syntax.
#
# Metadata are plain top-level assignments, one per line, read without
# running the script (the host cannot run a guest script):
#   DESCRIPTION="..."  what the test checks
#   TIMEOUT=N          seconds (default 300; times lnvm.slow in the guest)
#   BOOT=SPEC          the boots of a multi-boot group it runs in
#   LONG=1             a long stress run, left out unless LNVM_LONG=1
#   EXPECT_SPLAT=1     the test must make the kernel splat
#   KMEMLEAK=1         a kmemleak scan right after the test
# A value may be quoted and followed by a "# comment". One conditional
# form is understood, a constant chosen by the kernel command line, which
# the host knows before the boot (group.conf's APPEND) and the guest reads
# in /proc/cmdline:
#   [ "$(_lnvm_arg crash_full 0)" = 1 ] && TIMEOUT=14400
# (on a line after the plain assignment, which it overrides when the
# lnvm.NAME= value, or DEFAULT, equals the value). Any other computed
# value ("$(...)", "${...}", another assignment after "&&" or in a
# function) is refused with a message: the host and the guest could read
# different values. A group may also give every test more time in its
# group.conf: TIMEOUT_ADD=N adds N seconds, SLOW=N multiplies.
LNVM_META_NAMES="DESCRIPTION TIMEOUT BOOT LONG EXPECT_SPLAT KMEMLEAK"

# _meta FILE NAME [CMDLINE]: prints the value of NAME (nothing if
# unset) for a boot with the kernel command line CMDLINE; fails with a
# message on stderr if FILE sets NAME in a form this parser refuses
_meta() {
	_lm_v=$(awk -v k="$2" -v f="$1" -v cl="${3:-}" '
	function refuse(why) {
		if (!bad)
			printf "%s:%d: %s %s (refused: a metadata value is a constant, or one chosen by the kernel command line; see lib/meta.sh)\n", f, NR, k, why
		bad = 1
	}
	# the value of lnvm.NAME= on the command line (the last), else DEF
	function arg(name, def,   n, i, a, v) {
		v = def
		n = split(cl, a, " ")
		for (i = 1; i <= n; i++)
			if (index(a[i], "lnvm." name "=") == 1)
				v = substr(a[i], length(name) + 7)
		return v
	}
	# skip comment lines
	/^[ \t]*#/ { next }
	# [ "$(_lnvm_arg NAME [DEF])" = VAL ] && K=CONST
	index($0, "[ \"$(_lnvm_arg ") == 1 && index($0, " ] && " k "=") {
		s = $0
		sub(/[ \t]+#.*$/, "", s)
		s = substr(s, 16)
		p = index(s, ")\" = ")
		if (!p) { refuse("is set by code (computed)"); next }
		nd = substr(s, 1, p - 1)
		s = substr(s, p + 5)
		p = index(s, " ] && " k "=")
		want = substr(s, 1, p - 1)
		gsub(/"/, "", want)
		c = substr(s, p + 7 + length(k))
		split(nd, w, " ")
		if (nd ~ /[^a-z0-9_ .-]/ || want ~ /[^A-Za-z0-9_.-]/ || c !~ /^[A-Za-z0-9_.,!-]+$/) {
			refuse("is computed (only [ \"$(_lnvm_arg NAME [DEFAULT])\" = VALUE ] && " k "=CONSTANT is understood)")
			next
		}
		if (arg(w[1], w[2]) == want) { cval = c; cond = 1 }
		next
	}
	index($0, k "=") == 1 {
		v = substr($0, length(k) + 2)
		q = substr(v, 1, 1)
		if (q == "\"" || q == "\047") {
			e = index(substr(v, 2), q)
			if (!e) { refuse("has an unterminated quote"); next }
			rest = substr(v, e + 2)
			v = substr(v, 2, e - 1)
		} else {
			rest = v
			sub(/[ \t].*/, "", v)
			rest = substr(rest, length(v) + 1)
		}
		if (v ~ /[$`]/ && k != "DESCRIPTION") { refuse("is computed"); next }
		if (rest !~ /^[ \t]*(#.*)?$/) { refuse("is followed by more code"); next }
		if (n++) { refuse("is set twice"); next }
		val = v
		next
	}
	{
		# an assignment elsewhere on a line: after &&, ;, in a function
		line = $0
		sub(/#.*/, "", line)
		if (line ~ ("(^|[^A-Za-z0-9_])" k "=")) refuse("is set by code (computed)")
	}
	END {
		if (bad) exit 2
		if (cond) print cval
		else if (n) print val
	}' "$1")
	case $? in
	0) [ -z "$_lm_v" ] || printf '%s\n' "$_lm_v" ;;
	*) printf '%s\n' "${_lm_v:-$1: cannot read}" >&2; return 1 ;;
	esac
}

# _meta_check FILE: every metadata name of FILE parses (messages on
# stderr for those that do not)
_meta_check() {
	_mc_rc=0
	for _mc_n in $LNVM_META_NAMES; do
		_meta "$1" "$_mc_n" >/dev/null || _mc_rc=1
	done
	return $_mc_rc
}
