#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Host side of the guest's QMP requests (the `check` runner, groups with
# QMP=1): send one command to QEMU's QMP socket and print one line,
# "ok <return value as JSON>" or "error <description>".
#
#   qmp.py SOCKET '{"execute": "qom-set", "arguments": {...}}'
import json
import socket
import sys


def main():
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(30)
    try:
        s.connect(sys.argv[1])
        f = s.makefile('rw')

        def reply():
            while True:
                line = f.readline()
                if not line:
                    raise OSError("QMP closed the connection")
                msg = json.loads(line)
                if 'event' not in msg:
                    return msg

        reply()  # the greeting
        for cmd in ({"execute": "qmp_capabilities"}, json.loads(sys.argv[2])):
            f.write(json.dumps(cmd) + "\n")
            f.flush()
            r = reply()
            if 'error' in r:
                print("error", r['error'].get('desc', 'unknown'))
                return 1
    except (OSError, ValueError) as e:
        print("error", e)
        return 1
    print("ok", json.dumps(r.get('return')))
    return 0


sys.exit(main())
