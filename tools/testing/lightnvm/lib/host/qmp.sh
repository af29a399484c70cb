# SPDX-License-Identifier: GPL-2.0
#
# The QMP relay of a boot, sourced by check (bash), for groups with QMP=1.
# QEMU's QMP socket is on the host; a guest test prints "@@LNVM QMP ID
# JSON" on the console (_qmp), the runner sends JSON to the socket
# (lib/qmp.py) and answers "ACK ID ok|error ..." on the guest's second
# serial port (ttyS1, the pipe DIR/qmpack.in).

# qmp_setup DIR: fresh pipes and socket path; sets the caller's qmp_args
# (QEMU's arguments for them)
qmp_setup() {
	rm -f "$1/qmp.sock" "$1/qmpack.in" "$1/qmpack.out"
	mkfifo "$1/qmpack.in" "$1/qmpack.out"
	qmp_args=(-qmp "unix:$1/qmp.sock,server=on,wait=off"
		-serial "pipe:$1/qmpack")
}

# qmp_relay DIR TEST REQUEST: one request ("ID JSON") of TEST
qmp_relay() {
	local dir=$1 t=$2 qid qcmd qout
	read -r qid qcmd <<< "$3"
	qout=$(python3 "$here/lib/qmp.py" "$dir/qmp.sock" "$qcmd" 2>&1 | head -n 1)
	printf '        %s: QMP %s: %s\n' "$t" "$qcmd" "$qout" | cut -c1-300
	# QEMU holds the pipe open; a QEMU that is gone cannot block this
	# shellcheck disable=SC2016	# the positional parameters of bash -c
	timeout 10 bash -c 'echo "$1" >"$2"' _ "ACK $qid $qout" "$dir/qmpack.in"
}
