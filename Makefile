# SPDX-License-Identifier: GPL-2.0
#
# LightNVM for Linux 6.1 -- top-level Makefile.
#
#   make [modules]     build the modules out of tree against KDIR
#                      (default: Debian's amd64 headers of KVER)
#   KVER=6.12          any target for the 6.12 series instead of 6.1
#   make modules_install   install them into /lib/modules/<KDIR's release>
#   make demo          boot a VM and run the main job end to end
#                      [DEVICE=mem: Debian's kernel and QEMU, nvm_mem (default);
#                       DEVICE=ocssd: our kernel and QEMU, its Open-Channel SSD]
#   make demo-fresh    make demo in a minimal Debian 12 root (debootstrap
#                      minbase + make, under chroot): the first run of a new user
#   make deb           Debian packages lightnvm-dkms and lnvm into build/deb
#   make check         build everything and run the tests [TESTS=pattern KERNEL=kcsan LONG=1 KVER=6.12]
#   make powercut      100 power cuts on nvm_mem, then killed QEMU boots
#                      [PC_CUTS=80 PC_EXT4=20 PC_QEMU=20]; not in check
#   make crashcheck    every crash state of the explorer's workloads, at
#                      least 10 000 [CRASH_SEEDS=5 CRASH_KERNEL=stock|debug]
#   make faults        the whole fault matrix: rrpc state x fault x
#                      operation (tests/faults; check runs a slice)
#   make bench         the benchmarks (P1-P7, recovery) in one boot of
#                      Debian's kernel: build/bench/results.csv, summary.txt,
#                      plots [QUICK=1: small version; BENCH_ONLY=P1,P4]
#   make kernel        the debug test kernel (Debian's 6.1 source + this tree;
#                      KVER=6.12: linux-source-6.12 into build/kernel-6.12)
#   make qemu          QEMU from Debian's source + patches/qemu
#   make tools         userspace tools (lnvm, test programs) into build/tools
#   make deps          install the Debian packages everything needs (root)
#   make clean | distclean
#
# All output goes to build/. Out-of-tree kbuild reads the file Kbuild.

TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
B	:= $(TOP)/build
# the kernel series: 6.1 (default) or 6.12 (Debian 12's security archive)
KVER	?= 6.1
ifeq ($(filter 6.1 6.12,$(KVER)),)
$(error KVER=$(KVER): the supported series are 6.1 and 6.12)
endif
# build/ paths of the 6.12 series carry this suffix (build/kernel-6.12, ...)
SFX	:= $(if $(filter 6.12,$(KVER)),-6.12)
KDIR	?= $(lastword $(sort $(wildcard /usr/src/linux-headers-$(KVER).*-amd64)))
KREL	 = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
JOBS	?= $(shell nproc)
TESTS	?=
# make crashcheck: recordings per workload (ext4: at most 2) and kernel
# (stock: Debian's with make modules-record; debug: ours, KASAN and lockdep)
CRASH_SEEDS  ?= 5
CRASH_KERNEL ?= stock
# the demo's device: the memory-backed nvm_mem0 or the QEMU Open-Channel SSD
DEVICE	?= mem
DEMO_GROUP_mem	 := demo
DEMO_GROUP_ocssd := ocssd-demo
# the default demo runs under Debian's packaged QEMU (qemu-system-x86)
DEMO_QEMU ?= /usr/bin/qemu-system-x86_64
CC	?= gcc

# Sources that make up the kernel modules (for the out-of-tree copies).
KSRC	:= Kbuild drivers/lightnvm include/trace include/linux/lightnvm.h \
	   include/uapi/linux/lightnvm.h

TOOL_CFLAGS := -O2 -g -Wall -Wextra -Werror -I$(TOP)/include/uapi
TOOLS_SRC   := $(wildcard tools/lightnvm/*.c) \
	       $(wildcard tools/testing/lightnvm/progs/*.c)
TOOLS_BIN   := $(patsubst %.c,$(B)/tools/%,$(notdir $(TOOLS_SRC)))

.PHONY: all modules modules-record modules-6.12 modules_install kernel qemu tools initramfs testmods \
	kernel-kcsan testmods-kcsan \
	deps check demo demo-fresh bench deb powercut crashcheck faults clean distclean help

all: modules

help:
	@sed -n '3,30p' $(TOP)/Makefile | sed 's/^# \{0,1\}//'

# Build in a tree of symlinks under build/ so that objects never land in
# the source tree.
define oot_tree
	@mkdir -p $(1)
	@for p in $(KSRC); do \
		if [ -d $(TOP)/$$p ]; then \
			mkdir -p $(1)/$$p; cp -rsf $(TOP)/$$p/. $(1)/$$p/; \
			find $(1)/$$p -xtype l -delete; \
		else \
			mkdir -p $(1)/$$(dirname $$p); ln -sf $(TOP)/$$p $(1)/$$p; \
		fi; \
	done
endef

# oot_modules FLAVOR [MAKE-ARGS]: the modules for Debian's kernel (KDIR)
# built in build/oot/FLAVOR and staged in build/kmods/FLAVOR, with the
# kernel release they are for in build/kmods/FLAVOR.release
define oot_modules
	@test -n "$(KDIR)" -a -d "$(KDIR)" || \
		{ echo "no kernel headers: install linux-headers-amd64 or set KDIR"; exit 1; }
	$(call oot_tree,$(B)/oot/$(1))
	$(MAKE) -C $(KDIR) M=$(B)/oot/$(1) W=1 $(2) modules
	@rm -rf $(B)/kmods/$(1)
	$(MAKE) -s -C $(KDIR) M=$(B)/oot/$(1) INSTALL_MOD_PATH=$(B)/kmods/$(1) \
		INSTALL_MOD_DIR=extra DEPMOD=/bin/true CONFIG_MODULE_SIG_ALL= $(2) modules_install
	@echo $(KREL) > $(B)/kmods/$(1).release
endef

modules:
	$(call oot_modules,stock$(SFX))

# the same with nvm_mem's recorder (make crashcheck's kernel flavor
# stock-record)
modules-record:
	$(call oot_modules,stock-record$(SFX),LNVM_RECORD=1)

# the modules for Debian's stock 6.12 kernel (the stock-6.12 VM group of
# make check), when its headers are installed
modules-6.12:
	@$(if $(wildcard /usr/src/linux-headers-6.12.*-amd64),$(MAKE) --no-print-directory KVER=6.12 modules,echo "no 6.12 headers: the stock-6.12 group will fail (make deps)")

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(B)/oot/stock$(SFX) INSTALL_MOD_DIR=extra modules_install

deps:
	@bash $(TOP)/scripts/install-deps.sh

kernel:
	@$(if $(SFX),bash $(TOP)/scripts/install-deps.sh kernel-6.12)
	@KVER=$(KVER) bash $(TOP)/scripts/build-kernel.sh

qemu:
	@bash $(TOP)/scripts/build-qemu.sh

tools: $(TOOLS_BIN)

$(B)/tools/%: tools/lightnvm/%.c include/uapi/linux/lightnvm.h
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -o $@ $<

$(B)/tools/%: tools/testing/lightnvm/progs/%.c tools/testing/lightnvm/progs/lnvm_prog.h include/uapi/linux/lightnvm.h
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -o $@ $<

initramfs:
	@bash $(TOP)/scripts/mkinitramfs.sh base

# Test-only modules (tools/testing/lightnvm/modules), built against the
# debug kernel and shipped in the "debug" VM group's initramfs.
testmods: kernel
	@mkdir -p $(B)/testmods$(SFX)/src $(B)/testmods$(SFX)/debug
	@cp -rsf $(TOP)/tools/testing/lightnvm/modules/. $(B)/testmods$(SFX)/src/
	$(MAKE) -s -C $(B)/kernel$(SFX) M=$(B)/testmods$(SFX)/src modules
	@cp $(B)/testmods$(SFX)/src/*.ko $(B)/testmods$(SFX)/debug/

# The KCSAN flavor of the test kernel (KCSAN instead of KASAN, in
# build/kernel-kcsan) and the test modules built against it. Not part of
# the default check: make check KERNEL=kcsan TESTS='debug/* rrpc/*'.
kernel-kcsan:
	@FLAVOR=kcsan bash $(TOP)/scripts/build-kernel.sh

testmods-kcsan: kernel-kcsan
	@mkdir -p $(B)/testmods-kcsan/src $(B)/testmods-kcsan/debug
	@cp -rsf $(TOP)/tools/testing/lightnvm/modules/. $(B)/testmods-kcsan/src/
	$(MAKE) -s -C $(B)/kernel-kcsan M=$(B)/testmods-kcsan/src modules
	@cp $(B)/testmods-kcsan/src/*.ko $(B)/testmods-kcsan/debug/

# A build failure still ends with the summary line, as one failed test.
# KERNEL=kcsan boots the groups of the debug kernel on its KCSAN flavor.
# LONG=1 also runs the long stress tests (LONG=1 in the script) that CI
# leaves out.
KERNEL	?= debug
check: deps
	@$(MAKE) --no-print-directory $(if $(filter kcsan,$(KERNEL)),kernel-kcsan testmods-kcsan,kernel testmods) \
		qemu tools initramfs modules $(if $(SFX),,modules-6.12) || \
		{ echo "  FAIL  build"; echo "0 passed, 1 failed"; exit 1; }
	@LNVM_KVER=$(KVER) LNVM_KERNEL=$(KERNEL) LNVM_LONG=$(LONG) bash $(TOP)/tools/testing/lightnvm/check $(TESTS)

# Power cuts beyond check: PC_CUTS under the lnvm_pcw verifying writer and
# PC_EXT4 with ext4 and fsync'd files (rrpc-durable/003-powercut with more
# cuts), then PC_QEMU killed QEMU boots if the runner offers them. Ends
# with "N cuts, X flushed sectors lost".
PC_CUTS	?= 80
PC_EXT4	?= 20
PC_QEMU	?= 20
powercut: deps
	@$(MAKE) --no-print-directory kernel qemu tools initramfs testmods || \
		{ echo "powercut: build failed"; exit 1; }
	@PCW_CUTS=$(PC_CUTS) PCW_EXT4=$(PC_EXT4) PCW_QEMU=$(PC_QEMU) \
		bash $(TOP)/tools/testing/lightnvm/lib/pcw.sh powercut $(TOP)

# make crashcheck: every crash state of the crash-state explorer's
# workloads (the VM group crash with LNVM_CRASH_FULL=1; make check runs a
# subset of them). Prints "N states checked, M violations" per workload;
# long. Not in check. See Documentation/lightnvm/crashcheck.rst.
crashcheck: deps
	@$(MAKE) --no-print-directory kernel testmods qemu tools initramfs modules-record || \
		{ echo "crashcheck: build failed"; exit 1; }
	@LNVM_CRASH_FULL=1 LNVM_CRASH_SEEDS=$(CRASH_SEEDS) LNVM_CRASH_KERNEL=$(CRASH_KERNEL) \
		LNVM_KERNEL=debug bash $(TOP)/tools/testing/lightnvm/check crash

# make faults: every cell of the fault matrix (the VM group faults with
# LNVM_FAULTS_FULL=1; make check runs a slice of it): one table line per
# cell, "state S: N cells run, M failed, K unreachable" per state. Long
# (see Documentation/lightnvm/testing.rst). Not in check. CELLS=S:F:O,...
# runs only those cells (e.g. the ones a full run failed).
faults: deps
	@$(MAKE) --no-print-directory kernel qemu tools initramfs || \
		{ echo "faults: build failed"; exit 1; }
	@$(if $(CELLS),LNVM_FAULTS_CELLS=$(CELLS) LNVM_KERNEL=debug bash $(TOP)/tools/testing/lightnvm/check faults/000-slice,LNVM_FAULTS_FULL=1 LNVM_LONG=1 LNVM_KERNEL=debug bash $(TOP)/tools/testing/lightnvm/check faults)

# make demo: DEVICE=mem boots Debian's stock kernel with the out-of-tree
# modules under Debian's QEMU (no kernel or QEMU build, only the demo's
# packages); DEVICE=ocssd builds the debug kernel and our QEMU (the
# Open-Channel SSD emulation) first.
demo:
	@$(if $(DEMO_GROUP_$(DEVICE)),:,echo "DEVICE=$(DEVICE): use DEVICE=mem or DEVICE=ocssd" >&2; exit 2)
ifeq ($(DEVICE),ocssd)
	@bash $(TOP)/scripts/install-deps.sh
	@$(if $(wildcard $(B)/kernel/arch/x86/boot/bzImage),,echo "demo: building the debug kernel with NVMe open-channel support (make kernel, about 10 minutes on 2 cores)")
	@$(if $(wildcard $(B)/qemu/qemu-system-x86_64),,echo "demo: building QEMU with the Open-Channel SSD emulation (make qemu, about 4 minutes on 2 cores)")
	@$(MAKE) --no-print-directory kernel qemu tools initramfs
	@LNVM_KVER=$(KVER) bash $(TOP)/tools/testing/lightnvm/check --demo $(DEMO_GROUP_$(DEVICE))
else
	@bash $(TOP)/scripts/install-deps.sh demo$(SFX)
	@$(MAKE) --no-print-directory -s modules tools initramfs
	@LNVM_KVER=$(KVER) QEMU=$(DEMO_QEMU) bash $(TOP)/tools/testing/lightnvm/check --demo $(DEMO_GROUP_$(DEVICE))
endif

# make demo-fresh: `make demo` as a new user meets it, in a minimal Debian 12
# root made by debootstrap (build/fresh/root) with only `make` added; not
# part of check (it downloads about 300 MB of packages)
demo-fresh:
	@bash $(TOP)/scripts/demo-fresh.sh

# make bench: the benchmarks on Debian's stock kernel with the out-of-tree
# modules under Debian's QEMU (as make demo), all in one boot; not part of
# check. Results: build/bench/ (results.csv, summary.txt, *.png).
QUICK	?= 0
BENCH_ONLY ?=
bench:
	@bash $(TOP)/scripts/install-deps.sh bench
	@$(MAKE) --no-print-directory -s modules tools initramfs
	@QEMU=$(DEMO_QEMU) QUICK=$(QUICK) BENCH_ONLY=$(BENCH_ONLY) \
		bash $(TOP)/tools/testing/lightnvm/bench/run

# Debian packages (debhelper, dh-dkms) into build/deb; version: dkms.conf
deb:
	@KSRC="$(KSRC)" bash $(TOP)/scripts/package/mkdeb.sh

clean:
	rm -rf $(B)/oot $(B)/tools $(B)/testmods $(B)/kmods $(B)/vm $(B)/logs \
		$(B)/deb $(B)/demo $(B)/bench

distclean:
	rm -rf $(B)
