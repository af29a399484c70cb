#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run inside the VM by `make demo`: the main job end to end, with
# progress. Stages that later work will fill in say so instead of faking.
set -e

step() { echo; echo "== $*"; }

step "kernel"
echo "$(uname -r) under QEMU/TCG, $(nproc) CPUs, $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB"

step "loading the LightNVM core"
modprobe lightnvm
ls -l /dev/lightnvm/control
echo "modules: $(lsmod | awk 'NR > 1 && /nvm|rrpc/ {print $1}' | tr '\n' ' ')"

if ! command -v lnvm >/dev/null 2>&1; then
	step "stopping here"
	echo "The media manager, the memory-backed device, the lnvm tool and the"
	echo "rrpc target are not in this tree yet (issues 3 and 4): the demo"
	echo "ends after booting the debug kernel and loading the core module."
	exit 0
fi

step "devices"
lnvm devices
