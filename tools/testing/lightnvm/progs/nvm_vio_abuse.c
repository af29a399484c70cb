// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_vio_abuse - the vector I/O ioctls of an open-channel namespace's
 * block device (NVME_NVM_IOCTL_ADMIN_VIO, _SUBMIT_VIO, _IO_VIO) under bad
 * input. Prints one "ok"/"FAIL" line per case (a summary for fuzz) and
 * exits non-zero if any case failed.
 *
 *   nvm_vio_abuse checks DEV
 *	every field the kernel checks, one bad value at a time: each gets
 *	its errno (EINVAL, EFAULT, ENOTTY), and a valid identity read works
 *	in between
 *   nvm_vio_abuse noperm DEV
 *	the three ioctls from a process without capabilities (uid 65534,
 *	the device opened before) get EPERM
 *   nvm_vio_abuse fuzz DEV N SEED [OWNED_BEGIN OWNED_END]
 *	N random calls: random ioctl numbers of type 'L', opcodes, counts,
 *	lengths, flags, reserved fields and pointers (valid, NULL, unmapped,
 *	read-only, kernel addresses), addresses mostly inside the geometry.
 *	Never sends Set Bad Block Table with a valid shape. With an owned
 *	LUN range (LUN index = ch * num_luns + lun, inclusive), a write or
 *	erase that touches it must never succeed. The caller checks the
 *	kernel log for splats.
 */

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/lightnvm.h>

static const char *prog = "nvm_vio_abuse";

#include "lnvm_prog.h"

#define ID_SIZE		4096
#define GRP		256
#define MAX_PPAS	64

static int fd = -1;
static int failures;
static long page;

/* geometry from the identity */
static unsigned int nch, nlun, npln, nblk, npg, nsec, csecs, sos;
static unsigned char ppaf[12];
static unsigned char id[ID_SIZE];

/* a check's line on stdout, counted in failures when !ok */
#define report(ok, ...) lnvm_report(&failures, ok, __VA_ARGS__)

/* errno of one ioctl: 0 for success (any NVMe status), -1000 for odd returns */
static int call(unsigned long cmd, void *arg)
{
	int ret = ioctl(fd, cmd, arg);

	if (ret >= 0)
		return 0;
	return ret == -1 ? errno : -1000;
}

static void expect(const char *what, unsigned long cmd, void *arg, int want)
{
	int got = call(cmd, arg);

	report(got == want, "%s: %s%s%s", what,
	       want ? strerror(want) : "success", got == want ? "" : ", got ",
	       got == want ? "" : got ? strerror(got) : "success");
}

static unsigned int u8at(int off)
{
	return id[off];
}

static unsigned int u16at(int off)
{
	return id[off] | id[off + 1] << 8;
}

static void identity(void)
{
	struct nvm_passthru_vio c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.opcode = NVM_VIO_OP_IDENTITY;
	c.addr = (uintptr_t)id;
	c.data_len = ID_SIZE;
	ret = ioctl(fd, NVME_NVM_IOCTL_ADMIN_VIO, &c);
	if (ret)
		die(1, "identity: ret %d, %s, NVMe status 0x%x", ret,
		    ret < 0 ? strerror(errno) : "-", c.result);
	memcpy(ppaf, id + 12, sizeof(ppaf));
	nch = u8at(GRP + 4);
	nlun = u8at(GRP + 5);
	npln = u8at(GRP + 6);
	nblk = u16at(GRP + 8);
	npg = u16at(GRP + 10);
	csecs = u16at(GRP + 14);
	sos = u16at(GRP + 16);
	nsec = csecs ? u16at(GRP + 12) / csecs : 0;
	if (u8at(0) != 1 || !nch || !nlun || !npln || !nblk || !npg || !nsec)
		die(1, "not an Open-Channel SSD 1.2 identity");
}

static uint64_t ppa(unsigned int ch, unsigned int lun, unsigned int pl,
		    unsigned int blk, unsigned int pg, unsigned int sec)
{
	return (uint64_t)ch << ppaf[0] | (uint64_t)lun << ppaf[2] |
	       (uint64_t)pl << ppaf[4] | (uint64_t)blk << ppaf[6] |
	       (uint64_t)pg << ppaf[8] | (uint64_t)sec << ppaf[10];
}

static unsigned int field(uint64_t v, int i)
{
	unsigned int len = ppaf[2 * i + 1];

	return len ? (v >> ppaf[2 * i]) & ((1u << len) - 1) : 0;
}

/* a page no access may touch, and a read-only mapping */
static void *unmapped, *rdonly;

static void setup_pointers(void)
{
	page = sysconf(_SC_PAGESIZE);
	/* kept reserved (PROT_NONE), so that no later mapping lands there */
	unmapped = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (unmapped == MAP_FAILED)
		die(3, "mmap");
	rdonly = mmap(NULL, MAX_PPAS * 4096 + page, PROT_READ,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rdonly == MAP_FAILED)
		die(3, "mmap");
}

/* ------------------------------------------------------------ checks */

static void checks(void)
{
	static unsigned char data[MAX_PPAS * 4096], meta[MAX_PPAS * 64];
	static uint64_t list[MAX_PPAS + 1];
	struct nvm_passthru_vio p, p0;
	struct nvm_user_vio u, u0;
	int i;

	/* a valid read of one sector (an erased or written page: any status) */
	memset(&u0, 0, sizeof(u0));
	u0.opcode = NVM_VIO_OP_READ;
	u0.ppa_list = ppa(nch - 1, nlun - 1, 0, nblk - 1, 0, 0);
	u0.addr = (uintptr_t)data;
	u0.data_len = csecs;
	u0.metadata = (uintptr_t)meta;
	u0.metadata_len = sos;
	memset(&p0, 0, sizeof(p0));
	p0.opcode = NVM_VIO_OP_IDENTITY;
	p0.addr = (uintptr_t)data;
	p0.data_len = ID_SIZE;

	u = u0;
	expect("submit: valid one-sector read", NVME_NVM_IOCTL_SUBMIT_VIO, &u, 0);
	p = p0;
	expect("admin: valid identity", NVME_NVM_IOCTL_ADMIN_VIO, &p, 0);

	u = u0; u.flags = 1;
	expect("submit: flags 1", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.rsvd = 1;
	expect("submit: rsvd", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	for (i = 0; i < 3; i++) {
		u = u0; u.rsvd3[i] = 1;
		expect("submit: rsvd3", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	}
	u = u0; u.opcode = 0x02;
	expect("submit: opcode 0x02", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.opcode = 0xe2;
	expect("submit: admin opcode", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.control = 0x400;
	expect("submit: control 0x400", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.nppas = MAX_PPAS;
	expect("submit: nppas 64 (65 addresses)", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.nppas = 0xffff;
	expect("submit: nppas 0xffff", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.data_len = csecs - 1;
	expect("submit: data_len short", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.data_len = 2 * csecs;
	expect("submit: data_len for 2 sectors, nppas 0", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.data_len = 0xffffffff;
	expect("submit: data_len 0xffffffff", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.addr = 0;
	expect("submit: addr NULL", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.metadata_len = sos + 1;
	expect("submit: metadata_len", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.metadata = 0;
	expect("submit: metadata NULL with a length", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.metadata_len = 0;
	expect("submit: metadata without a length", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	u = u0; u.opcode = NVM_VIO_OP_ERASE;
	expect("submit: erase with data", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	if (ppaf[1] < 7 && (1u << ppaf[1]) > nch) {
		u = u0; u.ppa_list = ppa(nch, 0, 0, 0, 0, 0);
		expect("submit: channel num_channels", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	}
	if ((1u << ppaf[3]) > nlun) {
		u = u0; u.ppa_list = ppa(0, nlun, 0, 0, 0, 0);
		expect("submit: LUN num_luns", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EINVAL);
	}
	/* pointers */
	u = u0; u.nppas = 1; u.ppa_list = 0; u.data_len = 2 * csecs;
	u.metadata_len = 2 * sos;
	expect("submit: ppa_list NULL with 2 addresses", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EFAULT);
	u.ppa_list = (uintptr_t)unmapped;
	expect("submit: ppa_list unmapped", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EFAULT);
	u.ppa_list = 0xffff888000000000ull;
	expect("submit: ppa_list kernel address", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EFAULT);
	list[0] = list[1] = ppa(0, 0, 0, nblk - 1, 0, 0);
	u.ppa_list = (uintptr_t)list;
	expect("submit: 2-address read", NVME_NVM_IOCTL_SUBMIT_VIO, &u, 0);
	u.addr = (uintptr_t)unmapped;
	expect("submit: data unmapped", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EFAULT);
	u.addr = (uintptr_t)rdonly;
	expect("submit: read into read-only data", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EFAULT);
	u.addr = (uintptr_t)data; u.metadata = (uintptr_t)rdonly;
	expect("submit: read into read-only OOB", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EFAULT);
	u.metadata = (uintptr_t)unmapped;
	expect("submit: OOB unmapped", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EFAULT);
	expect("submit: structure unmapped", NVME_NVM_IOCTL_SUBMIT_VIO, unmapped, EFAULT);
	expect("submit: structure NULL", NVME_NVM_IOCTL_SUBMIT_VIO, NULL, EFAULT);

	/* the passthrough structure */
	p = p0; p.flags = 1;
	expect("admin: flags", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.rsvd[1] = 1;
	expect("admin: rsvd", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.nsid = 77;
	expect("admin: nsid of another namespace", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.nsid = 1;
	expect("admin: nsid 1", NVME_NVM_IOCTL_ADMIN_VIO, &p, 0);
	p = p0; p.opcode = 0x06;
	expect("admin: identify (0x06) is not taken", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.opcode = 0xea;
	expect("admin: get L2P (0xea) is not taken", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.data_len = 512;
	expect("admin: identity data_len 512", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.nppas = 1;
	expect("admin: identity with nppas", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.control = 1;
	expect("admin: identity with control", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.metadata = (uintptr_t)meta; p.metadata_len = 16;
	expect("admin: identity with metadata", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.addr = (uintptr_t)rdonly;
	expect("admin: identity into read-only memory", NVME_NVM_IOCTL_ADMIN_VIO, &p, EFAULT);
	p = p0; p.opcode = NVM_VIO_OP_GET_BB_TBL; p.data_len = 64 + nblk * npln;
	p.ppa_list = ppa(0, 0, 0, 0, 0, 0);
	expect("admin: get bad block table", NVME_NVM_IOCTL_ADMIN_VIO, &p, 0);
	report(!memcmp(data, "BBLT", 4), "admin: bad block table starts with BBLT");
	p.nppas = 1;
	expect("admin: get bad block table, 2 addresses", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p.nppas = 0; p.data_len = 64;
	expect("admin: get bad block table, short", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.opcode = NVM_VIO_OP_SET_BB_TBL; p.data_len = 0; p.addr = 0;
	p.control = 0x100;
	expect("admin: set bad block table, state 0x100", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0; p.opcode = NVM_VIO_OP_READ;
	expect("admin: an I/O opcode", NVME_NVM_IOCTL_ADMIN_VIO, &p, EINVAL);
	p = p0;
	expect("io: the identity opcode", NVME_NVM_IOCTL_IO_VIO, &p, EINVAL);
	memset(&p, 0, sizeof(p));
	p.opcode = NVM_VIO_OP_READ; p.ppa_list = u0.ppa_list;
	p.addr = (uintptr_t)data; p.data_len = csecs; p.timeout_ms = 5000;
	expect("io: one-sector read without OOB", NVME_NVM_IOCTL_IO_VIO, &p, 0);
	p.nsid = 2;
	expect("io: nsid 2", NVME_NVM_IOCTL_IO_VIO, &p, EINVAL);

	/* other numbers of type 'L' and the wrong sizes */
	expect("_IOWR('L', 0x44)", _IOWR('L', 0x44, struct nvm_user_vio), &u0, ENOTTY);
	expect("_IOWR('L', 0x42) of 80 bytes",
	       _IOWR('L', 0x42, struct nvm_passthru_vio), &p0, ENOTTY);
	expect("NVM_INFO on the namespace", NVM_INFO, data, ENOTTY);
	p = p0;
	expect("admin: valid identity after all that", NVME_NVM_IOCTL_ADMIN_VIO, &p, 0);
}

/* ----------------------------------------------------------- noperm */

static void noperm(void)
{
	static unsigned char data[ID_SIZE];
	struct nvm_passthru_vio p;
	struct nvm_user_vio u;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		die(3, "fork: %s", strerror(errno));
	if (!pid) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
			perror("drop privileges");
			_exit(3);
		}
		memset(&p, 0, sizeof(p));
		p.opcode = NVM_VIO_OP_IDENTITY;
		p.addr = (uintptr_t)data;
		p.data_len = ID_SIZE;
		expect("uid 65534: admin identity", NVME_NVM_IOCTL_ADMIN_VIO, &p, EPERM);
		memset(&u, 0, sizeof(u));
		u.opcode = NVM_VIO_OP_ERASE;
		expect("uid 65534: submit erase", NVME_NVM_IOCTL_SUBMIT_VIO, &u, EPERM);
		memset(&p, 0, sizeof(p));
		p.opcode = NVM_VIO_OP_ERASE;
		expect("uid 65534: io erase", NVME_NVM_IOCTL_IO_VIO, &p, EPERM);
		_exit(failures ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		failures++;
}

/* ------------------------------------------------------------- fuzz */

static uint64_t rng;

static uint64_t rnd(uint64_t n)
{
	return n ? splitmix64(&rng) % n : 0;
}

/* an address: mostly valid, sometimes anything */
static uint64_t rnd_ppa(void)
{
	if (!rnd(10))
		return splitmix64(&rng);
	return ppa(rnd(nch), rnd(nlun), rnd(npln), rnd(nblk), rnd(npg),
		   rnd(nsec));
}

static unsigned char *fdata, *fmeta;
static uint64_t flist[MAX_PPAS + 8];

/* a user pointer for @len bytes: mostly the right buffer */
static uint64_t rnd_ptr(void *good)
{
	switch (rnd(12)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)unmapped;
	case 2:
		return (uintptr_t)rdonly;
	case 3:
		return 0xffff888000000000ull + rnd(1 << 20);
	case 4:
		return splitmix64(&rng);
	case 5:
		return (uintptr_t)good + rnd(4096);
	default:
		return (uintptr_t)good;
	}
}

/* a length: mostly right for @n addresses of @unit bytes */
static uint32_t rnd_len(uint32_t n, uint32_t unit)
{
	switch (rnd(10)) {
	case 0:
		return 0;
	case 1:
		return (uint32_t)splitmix64(&rng);
	case 2:
		return n * unit + rnd(3) - 1;
	case 3:
		return rnd(MAX_PPAS + 2) * unit;
	default:
		return n * unit;
	}
}

static uint8_t rnd_opcode(bool admin)
{
	static const uint8_t io[] = { NVM_VIO_OP_ERASE, NVM_VIO_OP_WRITE,
				      NVM_VIO_OP_READ };
	static const uint8_t adm[] = { NVM_VIO_OP_IDENTITY,
				       NVM_VIO_OP_GET_BB_TBL,
				       NVM_VIO_OP_SET_BB_TBL };

	if (!rnd(8))
		return rnd(256);
	return admin ? adm[rnd(3)] : io[rnd(3)];
}

static bool owned(uint64_t p, int lo, int hi)
{
	int lun = field(p, 0) * nlun + field(p, 1);

	return lo >= 0 && field(p, 0) < nch && field(p, 1) < nlun &&
	       lun >= lo && lun <= hi;
}

static void fuzz(long n, int lo, int hi)
{
	long i, ok = 0, err = 0, nvme = 0, busy = 0, modify_ok = 0;
	long by_errno[256] = { 0 };
	int e;

	fdata = xcalloc(MAX_PPAS + 2, 4096);
	fmeta = xcalloc(MAX_PPAS + 2, 64);
	for (i = 0; i < n; i++) {
		union {
			struct nvm_user_vio u;
			struct nvm_passthru_vio p;
			unsigned char raw[96];
		} a;
		unsigned int nr, k;
		unsigned long cmd;
		bool admin = false, modifies, hit = false;
		uint8_t op;
		int which = rnd(16), ret;

		memset(&a, 0, sizeof(a));
		nr = rnd(4) ? 1 + rnd(rnd(2) ? 4 : MAX_PPAS) : 1 + rnd(0x10000);
		for (k = 0; k < MAX_PPAS + 8; k++)
			flist[k] = rnd_ppa();
		if (which < 7) {
			cmd = NVME_NVM_IOCTL_SUBMIT_VIO;
			op = rnd_opcode(false);
			a.u.opcode = op;
			a.u.flags = rnd(20) ? 0 : rnd(256);
			a.u.control = rnd(4) ? 0 : rnd(8) ? rnd(4) : rnd(0x10000);
			a.u.nppas = nr - 1;
			a.u.rsvd = rnd(30) ? 0 : 1;
			a.u.rsvd3[rnd(3)] = rnd(30) ? 0 : 1;
			a.u.ppa_list = nr == 1 ? flist[0] : rnd_ptr(flist);
			a.u.addr = rnd_ptr(fdata);
			a.u.data_len = op == NVM_VIO_OP_ERASE && rnd(4) ? 0 :
				       rnd_len(nr, csecs);
			if (!a.u.data_len && rnd(4))
				a.u.addr = 0;
			a.u.metadata = rnd_ptr(fmeta);
			a.u.metadata_len = rnd(3) ? rnd_len(nr, sos) : 0;
			if (!a.u.metadata_len && rnd(4))
				a.u.metadata = 0;
		} else if (which < 15) {
			admin = which < 10;
			cmd = admin ? NVME_NVM_IOCTL_ADMIN_VIO : NVME_NVM_IOCTL_IO_VIO;
			op = rnd_opcode(admin);
			/* never a Set Bad Block Table that could be carried out */
			if (op == NVM_VIO_OP_SET_BB_TBL)
				nr = MAX_PPAS + 1 + rnd(100);
			a.p.opcode = op;
			a.p.flags = rnd(20) ? 0 : rnd(256);
			a.p.rsvd[0] = rnd(30) ? 0 : 1;
			a.p.nsid = rnd(4) ? 0 : rnd(3);
			a.p.cdw2 = rnd(2) ? 0 : (uint32_t)splitmix64(&rng);
			a.p.cdw13 = rnd(2) ? 0 : (uint32_t)splitmix64(&rng);
			a.p.nppas = nr - 1;
			a.p.control = rnd(4) ? 0 : rnd(0x10000);
			a.p.ppa_list = nr == 1 ? flist[0] : rnd_ptr(flist);
			a.p.addr = rnd_ptr(fdata);
			a.p.data_len = op == NVM_VIO_OP_IDENTITY && rnd(2) ? ID_SIZE :
				       op == NVM_VIO_OP_GET_BB_TBL && rnd(2) ?
				       64 + nblk * npln : rnd_len(nr, csecs);
			a.p.metadata = rnd(2) ? 0 : rnd_ptr(fmeta);
			a.p.metadata_len = a.p.metadata ? rnd_len(nr, sos) : 0;
			a.p.timeout_ms = rnd(4) ? 0 : 10000 + rnd(10000);	/* no timeouts: no resets */
		} else {
			/* another number of type 'L', or the right one with a bad size */
			cmd = _IOC(rnd(4), 'L', 0x40 + rnd(8), rnd(128));
			if (cmd == NVME_NVM_IOCTL_ADMIN_VIO ||
			    cmd == NVME_NVM_IOCTL_IO_VIO ||
			    cmd == NVME_NVM_IOCTL_SUBMIT_VIO)
				cmd = _IOC(0, 'L', 0x47, 0);
			op = 0;
			for (k = 0; k < sizeof(a); k++)
				a.raw[k] = rnd(256);
		}

		modifies = op == NVM_VIO_OP_ERASE || op == NVM_VIO_OP_WRITE ||
			   (admin && op == NVM_VIO_OP_SET_BB_TBL);
		if (cmd == NVME_NVM_IOCTL_IO_VIO || cmd == NVME_NVM_IOCTL_ADMIN_VIO)
			modifies = modifies && (cmd == NVME_NVM_IOCTL_IO_VIO) == !admin;
		if (modifies && nr <= MAX_PPAS)
			for (k = 0; k < nr; k++)
				hit |= owned(nr == 1 ? flist[0] : flist[k], lo, hi);

		ret = ioctl(fd, cmd, rnd(200) ? (void *)&a : rnd(2) ? NULL : unmapped);
		e = ret < 0 ? errno : 0;
		if (ret < 0) {
			err++;
			by_errno[e & 255]++;
			busy += e == EBUSY;
		} else if (ret > 0) {
			nvme++;
		} else {
			ok++;
		}
		/* a list read from user memory may differ from flist: only judge single addresses */
		if (ret >= 0 && modifies && hit && nr == 1 &&
		    (cmd == NVME_NVM_IOCTL_SUBMIT_VIO || !admin)) {
			modify_ok++;
			report(0, "call %ld: opcode 0x%02x on owned LUN of 0x%llx was carried out",
			       i, op, (unsigned long long)flist[0]);
		}
		if (ret < 0 && e != EINVAL && e != EFAULT && e != ENOTTY &&
		    e != EBUSY && e != EINTR && e != ENOMEM) {
			report(0, "call %ld: cmd 0x%lx opcode 0x%02x: unexpected %s",
			       i, cmd, op, strerror(e));
		}
	}
	report(!modify_ok, "fuzz: %ld calls: %ld success, %ld NVMe errors, %ld refused (%ld EINVAL, %ld EFAULT, %ld ENOTTY, %ld EBUSY)",
	       n, ok, nvme, err, by_errno[EINVAL], by_errno[EFAULT],
	       by_errno[ENOTTY], busy);
	report(ok > 0 && err > 0, "fuzz: both accepted and refused calls");
	free(fdata);
	free(fmeta);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s checks DEV | noperm DEV | fuzz DEV N SEED [OWNED_BEGIN OWNED_END]\n",
			prog);
		return 2;
	}
	fd = open(argv[2], O_RDWR);
	if (fd < 0)
		die(1, "open %s: %s", argv[2], strerror(errno));
	setup_pointers();
	if (!strcmp(argv[1], "noperm")) {
		noperm();
	} else if (!strcmp(argv[1], "checks")) {
		identity();
		checks();
	} else if (!strcmp(argv[1], "fuzz") && (argc == 5 || argc == 7)) {
		identity();
		rng = strtoull(argv[4], NULL, 0);
		fuzz(strtol(argv[3], NULL, 0), argc == 7 ? atoi(argv[5]) : -1,
		     argc == 7 ? atoi(argv[6]) : -1);
	} else {
		fprintf(stderr, "%s: unknown mode '%s'\n", prog, argv[1]);
		return 2;
	}
	printf("%s %s: %d failures\n", prog, argv[1], failures);
	return failures ? 1 : 0;
}
