// SPDX-License-Identifier: GPL-2.0
/*
 * lnvm_crash - the crash-state explorer of the LightNVM tests
 * (Documentation/lightnvm/crashcheck.rst). It owns the workloads, their
 * self-checking sector format, the enumeration of the crash states of a
 * recording and the reference model each state is checked against.
 *
 *   lnvm_crash WORKLOAD --dev NAME [--op OP] [--luns B:E] [--luns2 B:E]
 *		[--bound K] [--max-states N] [--second N] [--rcut N] [--rcut-class]
 *		[--state I] [--inject lose] [--seed S] [--delay US]
 *		[--jitter US] [--reuse SECTORS[:FIRST]] [--wq] [--unplug-all]
 *		[--verbose]
 *
 * WORKLOAD: overwrite, trim, trimgc, gc, hotcold, ckpt, wipe, reuse (two
 * targets: --luns2), ext4. NAME is a powered-on configfs nvm_mem instance
 * (completion_mode 1) without a target, on a kernel with
 * CONFIG_NVM_MEM_RECORD. The program
 *   1. creates rrpc target NAMEt on LUNs B..E with -f (and NAMEu on the
 *	LUNs of --luns2), writes the workload's setup and flushes it (ext4:
 *	mkfs.ext4, mount -o discard);
 *   2. starts nvm_mem's recorder (debugfs "record": snapshot + log), runs
 *	the recorded part of the workload with a marker before and after
 *	each operation, and stops it; removes the target, powers off;
 *   3. reads the log and enumerates the crash states: for every cut point
 *	(between two events of the log), the commands completed before it,
 *	plus every subset of at most K (default 3) of the commands in flight
 *	at it, with at most one of them a torn program (each of its pages);
 *	identical media states are checked once against every cut they stand
 *	for;
 *   4. for each state (all, or N evenly spaced ones, or state I only):
 *	rebuilds the media ("replay"), powers on, creates the target without
 *	-f (recovery), checks the capacity and every sector against the
 *	reference model of the cut (ext4: journal replay, e2fsck -fn, the
 *	files the model is sure of); for every N-th state (--second) cuts
 *	the power, powers on again and recovers a second time: the contents
 *	must be the same; for every N-th state (--rcut) and (--rcut-class)
 *	the first of each class, rebuilds it again, cuts the power during the recovery,
 *	recovers again and checks that against the same model.
 *
 * Reference model of a cut: the operations whose end marker precedes it
 * completed, the one whose begin marker is the last one may be running.
 * A sector may read the version of its last durable operation (before the
 * last completed flush or clean removal, a completed FUA write, a
 * completed -f wipe), or of any later operation that had begun; discards,
 * write-zeroes and wipes are zeros. Anything else is a violation: "lost"
 * (an older version, or zeros), "foreign" (another LBA's sector),
 * "garbage".
 *
 * --reuse SECTORS[:FIRST] skips steps 1 and 2: the states of the
 * recording the instance already holds (a workload run earlier in this
 * boot on SECTORS sectors, FIRST of them the first target's), e.g. to
 * look at one state again with --state I.
 *
 * --inject lose builds every state without the last program completed
 * before its cut: a state that no cut can produce, to show that the
 * checker catches lost data (the test expects violations).
 *
 * Ends with "crashcheck WORKLOAD: N states checked, M violations" and the
 * bound's line. Exit status: 0 no violation, 1 violations, 2 usage,
 * 3 setup or I/O error.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/lightnvm.h>

#define SECT		4096u
#define MAGIC		0x31485352434e564cull	/* "LNVCRSH1" */
#define CFS		"/sys/kernel/config/nvm_mem"
#define DBG		"/sys/kernel/debug/nvm_mem"
#define MAX_SHOW	5

static const char *prog = "lnvm_crash";

#include "lnvm_prog.h"

/* ------------------------------------------------------------ workloads */

/*
 * OP_R: a clean removal of the target (a flush of everything, and rrpc
 * writes its checkpoint), the target created again without -f after it;
 * OP_X: the target removed and created again with -f (the wipe: every
 * LBA reads zeros once it returned, old data or zeros while it runs)
 */
enum { OP_W, OP_F, OP_D, OP_Z, OP_R, OP_X,
	/* ext4 (files /d/f0 ... in the mounted target): lba the file */
	FS_WRITE,	/* create or overwrite the file: FS_BLOCKS blocks */
	FS_FSYNC,	/* fsync the file */
	FS_DSYNC,	/* fsync the directory */
	FS_RENAME,	/* rename the file to file n */
	FS_UNLINK,	/* unlink the file */
};

#define FS_FILES	6
#define FS_BLOCKS	3

/* a flush: what completed before it is durable */
static int barrier(int type)
{
	return type == OP_F || type == OP_R;
}

struct op {
	int type;
	uint32_t lba, n;
	int fua;
};

struct wl {
	struct op *ops;
	int nr, cap, setup;	/* ops [0, setup) run before recording */
	int fs;			/* ext4 on the target: FS_* ops */
};

static void add(struct wl *w, int type, uint32_t lba, uint32_t n, int fua,
		uint64_t sectors)
{
	if (type >= FS_WRITE) {
		/* no LBAs */
	} else if (type == OP_X) {
		/* n: the first target's sectors */
		lba = 0;
	} else if (!barrier(type)) {
		if (lba >= sectors)
			return;
		if (lba + n > sectors)
			n = sectors - lba;
	}
	if (w->nr == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->ops = realloc(w->ops, w->cap * sizeof(*w->ops));
		if (!w->ops)
			die(3, "out of memory");
	}
	w->ops[w->nr++] = (struct op){ type, lba, n, fua };
}

/* write_all: every sector written, 8 at a time, then a flush */
static void write_all(struct wl *w, uint64_t m)
{
	uint32_t i;

	for (i = 0; i < m; i += 8)
		add(w, OP_W, i, 8, 0, m);
	add(w, OP_F, 0, 0, 0, m);
}

/*
 * The workloads. Each is a setup (made durable before the recording)
 * and a short recorded part, deterministic for (name, seed, sectors).
 */
static void gen(struct wl *w, const char *name, uint64_t seed, uint64_t m,
		uint64_t m1)
{
	uint64_t r = seed;
	uint32_t i, x;

	memset(w, 0, sizeof(*w));
	if (!strcmp(name, "overwrite")) {
		/* 48 sectors written twice, then overwrites, flushes, FUA */
		for (i = 0; i < 48; i += 4)
			add(w, OP_W, i, 4, 0, m);
		add(w, OP_F, 0, 0, 0, m);
		for (i = 0; i < 48; i += 8)
			add(w, OP_W, i, 8, 0, m);
		add(w, OP_F, 0, 0, 0, m);
		w->setup = w->nr;
		for (i = 0; i < 40; i++) {
			uint64_t v = splitmix64(&r);

			if (v % 4 == 0) {
				add(w, OP_F, 0, 0, 0, m);
				continue;
			}
			add(w, OP_W, (v >> 8) % 48, 1 + (v >> 16) % 8,
			    (v >> 24) % 8 == 0, m);
		}
		add(w, OP_F, 0, 0, 0, m);
	} else if (!strcmp(name, "trim")) {
		/*
		 * Discards and write-zeroes over flushed data: write A,
		 * flush, write B, flush, trim part of it, more writes next
		 * to it, flush or not.
		 */
		for (i = 0; i < 128; i += 8)
			add(w, OP_W, i, 8, 0, m);
		add(w, OP_F, 0, 0, 0, m);
		w->setup = w->nr;
		for (i = 0; i < 8; i++) {
			x = 16 * i;
			add(w, OP_W, x, 8, 0, m);
			add(w, OP_F, 0, 0, 0, m);
			add(w, OP_W, x, 8, 0, m);
			add(w, OP_F, 0, 0, 0, m);
			add(w, i % 2 ? OP_Z : OP_D, x + i % 3, 2 + i % 5, 0, m);
			add(w, OP_W, x + 9, 5, 0, m);
			if (i % 3 != 2)
				add(w, OP_F, 0, 0, 0, m);
		}
		add(w, OP_F, 0, 0, 0, m);
	} else if (!strcmp(name, "trimgc")) {
		/*
		 * Issue 22's first path: write A, flush, write B, flush,
		 * discard or zero it, then overwrites of its neighbours
		 * until GC collects the blocks of B; a flush every other
		 * round only.
		 */
		write_all(w, m);
		w->setup = w->nr;
		for (i = 0; i < 6; i++) {
			uint32_t base = (i * 29) % (m - 40);

			x = base + 3;
			add(w, OP_W, x, 1, 0, m);
			add(w, OP_F, 0, 0, 0, m);
			add(w, OP_W, x, 1, 0, m);
			add(w, OP_F, 0, 0, 0, m);
			add(w, i % 2 ? OP_Z : OP_D, x, 1, 0, m);
			for (uint32_t k = 0; k < 2; k++) {
				add(w, OP_W, base + 4, 8, 0, m);
				add(w, OP_W, base + 12, 8, 0, m);
				add(w, OP_W, base + 20, 8, 0, m);
			}
			if (i % 2)
				add(w, OP_F, 0, 0, 0, m);
		}
		add(w, OP_F, 0, 0, 0, m);
	} else if (!strcmp(name, "gc")) {
		/*
		 * The whole disk written, then random overwrites of about
		 * two thirds of it with discards and write-zeroes: GC moves
		 * and erases under flushes.
		 */
		write_all(w, m);
		w->setup = w->nr;
		for (x = 0; x < m;) {
			uint64_t v = splitmix64(&r);
			uint32_t n = 1 + (v >> 16) % 8;

			switch (v % 12) {
			case 0:
			case 1:
				add(w, OP_F, 0, 0, 0, m);
				break;
			case 2:
				add(w, OP_D, (v >> 24) % m, n, 0, m);
				break;
			case 3:
				add(w, OP_Z, (v >> 24) % m, n, 0, m);
				break;
			default:
				add(w, OP_W, (v >> 24) % m, n,
				    (v >> 40) % 10 == 0, m);
				x += n;
			}
		}
		add(w, OP_F, 0, 0, 0, m);
	} else if (!strcmp(name, "hotcold")) {
		/*
		 * rrpc's hot and cold streams (the target made with hot_cold
		 * 1): 16 LBAs written again and again become hot (4 writes
		 * within 3 capacities) while cold LBAs are written once more,
		 * with flushes, FUA writes and discards of hot LBAs; GC
		 * sends victims to the hot or the cold GC block.
		 */
		write_all(w, m);
		for (x = 0; x < 4; x++)
			for (i = 0; i < 16; i += 4)
				add(w, OP_W, 8 + i, 4, 0, m);
		add(w, OP_F, 0, 0, 0, m);
		w->setup = w->nr;
		for (i = 0; i < 48; i++) {
			uint64_t v = splitmix64(&r);

			if (v % 6 == 0) {
				add(w, OP_F, 0, 0, 0, m);
			} else if (v % 6 == 1) {
				add(w, OP_W, 32 + (v >> 8) % (m - 40), 4, 0, m);
			} else if (v % 16 == 2) {
				add(w, OP_D, 8 + (v >> 8) % 14, 2, 0, m);
			} else {
				add(w, OP_W, 8 + (v >> 8) % 13, 1 + (v >> 16) % 4,
				    (v >> 24) % 8 == 0, m);
			}
		}
		add(w, OP_F, 0, 0, 0, m);
	} else if (!strcmp(name, "ckpt")) {
		/*
		 * The checkpoint written at teardown: overwrites and
		 * trims, unflushed, then a clean removal (rrpc drains its
		 * buffer and writes the map to the media), then a few
		 * writes on the target created again from the checkpoint,
		 * and a second clean removal.
		 */
		write_all(w, m);
		w->setup = w->nr;
		for (x = 0; x < 2; x++) {
			for (i = 0; i < 10; i++) {
				uint64_t v = splitmix64(&r);

				if (v % 5 == 0)
					add(w, OP_D, (v >> 8) % m, 1 + (v >> 16) % 4,
					    0, m);
				else
					add(w, OP_W, (v >> 8) % m,
					    1 + (v >> 16) % 6, 0, m);
			}
			add(w, OP_R, 0, 0, 0, m);
		}
	} else if (!strcmp(name, "wipe")) {
		/*
		 * The -f wipe: a used target (every LBA written twice,
		 * flushed) removed and created again with -f, then new
		 * writes on half the disk, flushed in two steps.
		 */
		write_all(w, m);
		write_all(w, m);
		w->setup = w->nr;
		add(w, OP_X, 0, m1, 0, m);
		for (i = 0; i < m / 2; i += 8) {
			add(w, OP_W, i * 2 % m, 8, 0, m);
			if (i % 48 == 40)
				add(w, OP_F, 0, 0, 0, m);
		}
		add(w, OP_F, 0, 0, 0, m);
	} else if (!strcmp(name, "ext4")) {
		/*
		 * ext4 mounted with -o discard: files created, overwritten,
		 * fsynced, renamed and unlinked, the directory fsynced now
		 * and then; the checks are e2fsck and the files whose data
		 * and name were made durable.
		 */
		w->fs = 1;
		for (i = 0; i < 40; i++) {
			uint64_t v = splitmix64(&r);
			uint32_t f = (v >> 8) % FS_FILES;

			switch (v % 10) {
			case 0:
			case 1:
			case 2:
				add(w, FS_WRITE, f, 0, 0, m);
				break;
			case 3:
			case 4:
				add(w, FS_FSYNC, f, 0, 0, m);
				break;
			case 5:
			case 6:
				add(w, FS_DSYNC, 0, 0, 0, m);
				break;
			case 7:
			case 8:
				add(w, FS_RENAME, f, (f + 1 + (v >> 16) % 5) %
				    FS_FILES, 0, m);
				break;
			default:
				add(w, FS_UNLINK, f, 0, 0, m);
			}
		}
		add(w, FS_DSYNC, 0, 0, 0, m);
	} else if (!strcmp(name, "reuse")) {
		/*
		 * Two targets on disjoint LUNs of one device (--luns2): both
		 * written, then the first removed and a new one created with
		 * -f over its LUNs while the second keeps its data, and
		 * writes to both; each target's own LBAs must stay its own.
		 */
		for (i = 0; i < m; i += 8)
			add(w, OP_W, i, i + 8 > m1 && i < m1 ? m1 - i : 8, 0, m);
		add(w, OP_F, 0, 0, 0, m);
		w->setup = w->nr;
		for (i = 0; i < 16; i++) {
			uint64_t v = splitmix64(&r);

			add(w, OP_W, i % 2 ? m1 + (v >> 8) % (m - m1 - 8) :
			    (v >> 8) % (m1 - 8), 1 + (v >> 16) % 8, 0, m);
			if (i % 5 == 4)
				add(w, OP_F, 0, 0, 0, m);
		}
		add(w, OP_X, 0, m1, 0, m);
		for (i = 0; i < 24; i++) {
			uint64_t v = splitmix64(&r);

			if (v % 6 == 0)
				add(w, OP_F, 0, 0, 0, m);
			else
				add(w, OP_W, i % 2 ? m1 + (v >> 8) % (m - m1 - 8) :
				    (v >> 8) % (m1 - 8), 1 + (v >> 16) % 8,
				    (v >> 24) % 8 == 0, m);
		}
		add(w, OP_F, 0, 0, 0, m);
	} else {
		die(2, "unknown workload '%s' (overwrite, trim, trimgc, gc, hotcold, ckpt, wipe, reuse)",
		    name);
	}
}

/* ------------------------------------------------------- sector format */

static uint32_t crc_table[256];

static uint32_t crc32_buf(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	if (!crc_table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t k = i;

			for (int j = 0; j < 8; j++)
				k = k & 1 ? 0xedb88320u ^ (k >> 1) : k >> 1;
			crc_table[i] = k;
		}
	}
	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

/* header: magic, lba, op, seed, crc of the 24 bytes before it; pattern */
static void fill(unsigned char *b, uint32_t lba, uint32_t op, uint64_t seed)
{
	uint64_t s = seed ^ ((uint64_t)lba << 32 | op);
	uint32_t crc;

	memcpy(b, &(uint64_t){ MAGIC }, 8);
	memcpy(b + 8, &lba, 4);
	memcpy(b + 12, &op, 4);
	memcpy(b + 16, &seed, 8);
	crc = crc32_buf(b, 24);
	memcpy(b + 24, &crc, 4);
	for (unsigned int i = 32; i < SECT; i += 8) {
		uint64_t v = splitmix64(&s);

		memcpy(b + i, &v, 8);
	}
	memset(b + 28, 0, 4);
}

enum { K_ZERO = -1, K_FOREIGN = -2, K_GARBAGE = -3 };

/* What a sector read: K_* or the op index of its version. */
static int classify(const unsigned char *b, uint32_t lba, uint64_t seed,
		    uint32_t *other)
{
	static unsigned char ref[SECT];
	uint32_t l, op, crc;
	uint64_t mg, sd;
	unsigned int i;

	for (i = 0; i < SECT && !b[i]; i++)
		;
	if (i == SECT)
		return K_ZERO;
	memcpy(&mg, b, 8);
	memcpy(&l, b + 8, 4);
	memcpy(&op, b + 12, 4);
	memcpy(&sd, b + 16, 8);
	memcpy(&crc, b + 24, 4);
	if (mg != MAGIC || sd != seed || crc != crc32_buf(b, 24))
		return K_GARBAGE;
	fill(ref, l, op, seed);
	if (memcmp(ref, b, SECT))
		return K_GARBAGE;
	*other = l;
	return l == lba ? (int)op : K_FOREIGN;
}

/* -------------------------------------------------------- the device */

struct cfg {
	const char *wl, *dev;
	char tgt[DISK_NAME_LEN], tgt2[DISK_NAME_LEN];
	unsigned int lun2_b, lun2_e, two;	/* a second target (--luns2) */
	uint64_t m1;	/* sectors of the first target: LBAs from m1 on are the second's */
	unsigned int op, lun_b, lun_e, bound, second, delay, jitter, rcut;
	long max_states, state;
	uint64_t seed;
	int inject, verbose, wq_checks, unplug_all, rcut_class;
	uint64_t reuse;
};

static void put_file(const char *path, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(3, "open %s: %s", path, strerror(errno));
	if (write(fd, buf, n) != n)
		die(3, "write '%.60s' to %s: %s", buf, path, strerror(errno));
	close(fd);
}

static void dev_attr(const struct cfg *c, const char *attr, const char *v)
{
	char path[256];

	snprintf(path, sizeof(path), CFS "/%s/%s", c->dev, attr);
	put_file(path, "%s\n", v);
}

static void record(const struct cfg *c, const char *fmt, ...)
{
	char path[256], buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), DBG "/%s/record", c->dev);
	put_file(path, "%s\n", buf);
}

static int ctl(unsigned long req, void *arg)
{
	int fd = open(NVM_CTRL_FILE, O_RDWR), ret;

	if (fd < 0)
		die(3, "open %s: %s", NVM_CTRL_FILE, strerror(errno));
	ret = ioctl(fd, req, arg);
	ret = ret < 0 ? -errno : 0;
	close(fd);
	return ret;
}

static const char *tgt_name(const struct cfg *c, int t)
{
	return t ? c->tgt2 : c->tgt;
}

/* create target @t (0, or 1 the second one) */
static int tgt_create1(const struct cfg *c, int t, int factory)
{
	struct nvm_ioctl_create cr;

	memset(&cr, 0, sizeof(cr));
	snprintf(cr.dev, sizeof(cr.dev), "%s", c->dev);
	snprintf(cr.tgttype, sizeof(cr.tgttype), "rrpc");
	snprintf(cr.tgtname, sizeof(cr.tgtname), "%s", tgt_name(c, t));
	cr.flags = factory ? NVM_TARGET_FACTORY : 0;
	cr.conf.type = NVM_CONFIG_TYPE_EXTENDED;
	cr.conf.e.lun_begin = t ? c->lun2_b : c->lun_b;
	cr.conf.e.lun_end = t ? c->lun2_e : c->lun_e;
	cr.conf.e.over_prov = c->op;
	return ctl(NVM_DEV_CREATE, &cr);
}

static int tgt_remove1(const struct cfg *c, int t)
{
	struct nvm_ioctl_remove rm;

	memset(&rm, 0, sizeof(rm));
	snprintf(rm.tgtname, sizeof(rm.tgtname), "%s", tgt_name(c, t));
	return ctl(NVM_DEV_REMOVE, &rm);
}

/* the target, and the second one if any; on failure none is left */
static int tgt_create(const struct cfg *c, int factory)
{
	int ret = tgt_create1(c, 0, factory);

	if (ret || !c->two)
		return ret;
	ret = tgt_create1(c, 1, factory);
	if (ret)
		tgt_remove1(c, 0);
	return ret;
}

static void tgt_remove(const struct cfg *c)
{
	int t, ret;

	for (t = 0; t <= (int)c->two; t++) {
		ret = tgt_remove1(c, t);
		if (ret)
			die(3, "remove %s: %s", tgt_name(c, t), strerror(-ret));
	}
}

/* open /dev/TGT (devtmpfs makes it at once, but give it 5 s) */
static int tgt_open1(const struct cfg *c, int t, int flags)
{
	char path[64];
	int i, fd;

	snprintf(path, sizeof(path), "/dev/%s", tgt_name(c, t));
	for (i = 0; i < 500; i++) {
		fd = open(path, flags | O_DIRECT);
		if (fd >= 0)
			return fd;
		usleep(10000);
	}
	die(3, "open %s: %s", path, strerror(errno));
	return -1;
}

static uint64_t tgt_sectors(int fd)
{
	uint64_t bytes;

	if (ioctl(fd, BLKGETSIZE64, &bytes))
		die(3, "BLKGETSIZE64: %s", strerror(errno));
	return bytes / SECT;
}

/* --------------------------------------------------------- the workload */

static int tgt_fd[2] = { -1, -1 }, tgt_fua_fd[2] = { -1, -1 };

/* create target @t (-f or not) and open it for the workload */
static void tgt_up1(const struct cfg *c, int t, int factory)
{
	int ret = tgt_create1(c, t, factory);

	if (ret)
		die(3, "create %s%s: %s", tgt_name(c, t),
		    factory ? " with -f" : "", strerror(-ret));
	tgt_fd[t] = tgt_open1(c, t, O_RDWR);
	tgt_fua_fd[t] = tgt_open1(c, t, O_RDWR | O_DSYNC);
}

static void tgt_down1(const struct cfg *c, int t)
{
	int ret;

	close(tgt_fua_fd[t]);
	close(tgt_fd[t]);
	tgt_fd[t] = tgt_fua_fd[t] = -1;
	ret = tgt_remove1(c, t);
	if (ret)
		die(3, "remove %s: %s", tgt_name(c, t), strerror(-ret));
}

/* ------------------------------------------------------------- ext4 */

static void fs_path(char *p, size_t n, const struct cfg *c, int f)
{
	if (f < 0)
		snprintf(p, n, "/mnt/lc_%s/d", c->dev);
	else
		snprintf(p, n, "/mnt/lc_%s/d/f%d", c->dev, f);
}

/* the contents of file @f as operation @idx writes it */
static void fs_fill(unsigned char *buf, const struct cfg *c, uint32_t f,
		    uint32_t idx)
{
	for (int j = 0; j < FS_BLOCKS; j++)
		fill(buf + j * SECT, f * 16 + j, idx, c->seed);
}

static void sh(const char *what, const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ret = system(cmd);
	if (ret)
		die(3, "%s: '%s' exited %d", what, cmd, ret);
}

/* one file system operation (a missing file: nothing happens) */
static void run_fs_op(const struct cfg *c, const struct op *o, uint32_t idx,
		      unsigned char *buf)
{
	char p[128], q[128];
	int fd;

	fs_path(p, sizeof(p), c, o->type == FS_DSYNC ? -1 : (int)o->lba);
	switch (o->type) {
	case FS_WRITE:
		fs_fill(buf, c, o->lba, idx);
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, FS_BLOCKS * SECT) !=
		    FS_BLOCKS * SECT)
			die(3, "op %u: write %s: %s", idx, p, strerror(errno));
		close(fd);
		break;
	case FS_FSYNC:
	case FS_DSYNC:
		fd = open(p, O_RDONLY);
		if (fd < 0 && errno == ENOENT)
			break;
		if (fd < 0 || fsync(fd))
			die(3, "op %u: fsync %s: %s", idx, p, strerror(errno));
		close(fd);
		break;
	case FS_RENAME:
		fs_path(q, sizeof(q), c, o->n);
		if (rename(p, q) && errno != ENOENT)
			die(3, "op %u: rename %s: %s", idx, p, strerror(errno));
		break;
	case FS_UNLINK:
		if (unlink(p) && errno != ENOENT)
			die(3, "op %u: unlink %s: %s", idx, p, strerror(errno));
		break;
	}
}

/*
 * What a cut at marker @mark guarantees of each file: ver[f] the op that
 * wrote its current contents (-1: no such file), edur[f] its name as it
 * is (present or absent) durable (a directory fsync completed since it
 * changed), cdur[f] its contents durable (a fsync completed since they
 * were written). An operation that may be running makes what it touches
 * unknown.
 */
struct fs_model {
	int ver[FS_FILES];
	char edur[FS_FILES], cdur[FS_FILES];
};

static void fs_model(struct fs_model *fm, const struct wl *w, int mark)
{
	int done, i, f, b, run;

	done = mark < 0 ? w->setup : (mark + 1) / 2;
	run = mark >= 0 && mark % 2 == 0;	/* op mark / 2 had begun */
	for (f = 0; f < FS_FILES; f++) {
		fm->ver[f] = -1;
		fm->edur[f] = 1;	/* an empty directory at the start */
		fm->cdur[f] = 0;
	}
	for (i = 0; i < done + run && i < w->nr; i++) {
		const struct op *o = &w->ops[i];

		f = o->lba;
		b = o->n;
		switch (o->type) {
		case FS_WRITE:
			if (fm->ver[f] < 0)
				fm->edur[f] = 0;
			fm->ver[f] = i;
			fm->cdur[f] = 0;
			break;
		case FS_FSYNC:
			if (i < done && fm->ver[f] >= 0)
				fm->cdur[f] = 1;
			break;
		case FS_DSYNC:
			if (i < done)
				for (f = 0; f < FS_FILES; f++)
					fm->edur[f] = 1;
			break;
		case FS_RENAME:
			if (fm->ver[f] < 0)
				break;
			fm->ver[b] = fm->ver[f];
			fm->cdur[b] = fm->cdur[f];
			fm->ver[f] = -1;
			fm->cdur[f] = 0;
			fm->edur[f] = fm->edur[b] = 0;
			break;
		case FS_UNLINK:
			if (fm->ver[f] >= 0)
				fm->edur[f] = 0;
			fm->ver[f] = -1;
			fm->cdur[f] = 0;
			break;
		}
		if (i == done) {
			/* running: what it touches is unknown */
			if (o->type == FS_WRITE || o->type == FS_RENAME ||
			    o->type == FS_UNLINK)
				fm->edur[f] = fm->cdur[f] = 0;
			if (o->type == FS_RENAME)
				fm->edur[b] = fm->cdur[b] = 0;
		}
	}
}

static void run_op(const struct cfg *c, const struct op *o, uint32_t idx,
		   unsigned char *buf)
{
	int t = c->two && o->lba >= c->m1;
	int fd = tgt_fd[t], fua_fd = tgt_fua_fd[t];
	off_t base = t ? c->m1 : 0;
	uint64_t range[2];
	uint32_t i;

	if (o->type >= FS_WRITE) {
		run_fs_op(c, o, idx, buf);
		return;
	}
	switch (o->type) {
	case OP_R:
		/* both targets, cleanly */
		for (t = 0; t <= (int)c->two; t++) {
			tgt_down1(c, t);
			tgt_up1(c, t, 0);
		}
		break;
	case OP_X:
		/* the first target only: its LUNs wiped, the second's kept */
		tgt_down1(c, 0);
		tgt_up1(c, 0, 1);
		break;
	case OP_W:
		for (i = 0; i < o->n; i++)
			fill(buf + i * SECT, o->lba + i, idx, c->seed);
		if (pwrite(o->fua ? fua_fd : fd, buf, o->n * SECT,
			   (o->lba - base) * SECT) != (ssize_t)(o->n * SECT))
			die(3, "op %u: write: %s", idx, strerror(errno));
		break;
	case OP_F:
		for (t = 0; t <= (int)c->two; t++)
			if (fdatasync(tgt_fd[t]))
				die(3, "op %u: fdatasync: %s", idx,
				    strerror(errno));
		break;
	case OP_D:
	case OP_Z:
		range[0] = (uint64_t)(o->lba - base) * SECT;
		range[1] = (uint64_t)o->n * SECT;
		if (ioctl(fd, o->type == OP_D ? BLKDISCARD : BLKZEROOUT, range))
			die(3, "op %u: %s: %s", idx,
			    o->type == OP_D ? "discard" : "write-zeroes",
			    strerror(errno));
		break;
	}
}

static uint64_t run_workload(struct cfg *c, struct wl *w)
{
	unsigned char *buf;
	uint64_t m;
	char v[32];
	int i, t;

	for (t = 0; t <= (int)c->two; t++)
		tgt_up1(c, t, 1);
	m = tgt_sectors(tgt_fd[0]);
	c->m1 = m;
	if (c->two)
		m += tgt_sectors(tgt_fd[1]);
	gen(w, c->wl, c->seed, m, c->m1);
	if (posix_memalign((void **)&buf, SECT, 64 * SECT))
		die(3, "out of memory");
	for (i = 0; i < w->setup; i++)
		run_op(c, &w->ops[i], i, buf);
	for (t = 0; t <= (int)c->two; t++)
		if (fdatasync(tgt_fd[t]))
			die(3, "fdatasync: %s", strerror(errno));
	if (w->fs) {
		char d[128];

		fs_path(d, sizeof(d), c, -1);
		sh("mkfs", "mkfs.ext4 -q -F -b 4096 /dev/%s", c->tgt);
		sh("mount", "mkdir -p /mnt/lc_%s && mount -t ext4 -o discard /dev/%s /mnt/lc_%s",
		   c->dev, c->tgt, c->dev);
		if (mkdir(d, 0755))
			die(3, "mkdir %s: %s", d, strerror(errno));
		sync();
	}

	/* completions late and out of order: more commands in flight */
	snprintf(v, sizeof(v), "%u", c->delay);
	dev_attr(c, "completion_delay_us", v);
	snprintf(v, sizeof(v), "%u", c->jitter);
	dev_attr(c, "completion_jitter_us", v);
	record(c, "start");
	if (!strcmp(c->wl, "hotcold")) {
		char path[128], v1[8] = "";
		FILE *f;

		/* the streams must be on, and the setup made some LBAs hot */
		snprintf(path, sizeof(path), "/sys/block/%s/rrpc/hot_cold",
			 c->tgt);
		f = fopen(path, "r");
		if (!f || !fgets(v1, sizeof(v1), f) || v1[0] != '1')
			die(3, "%s: hot/cold separation is off (too little spare? use 20 blocks a LUN and --op 50)",
			    c->tgt);
		fclose(f);
	}
	for (i = w->setup; i < w->nr; i++) {
		record(c, "mark %d", 2 * i);
		run_op(c, &w->ops[i], i, buf);
		record(c, "mark %d", 2 * i + 1);
	}
	record(c, "stop");
	if (w->fs)
		sh("umount", "umount /mnt/lc_%s", c->dev);
	dev_attr(c, "completion_delay_us", "0");
	dev_attr(c, "completion_jitter_us", "0");
	for (t = 0; t <= (int)c->two; t++)
		tgt_down1(c, t);
	dev_attr(c, "power", "0");
	free(buf);
	return m;
}

/* --------------------------------------------------------------- the log */

struct ev {
	char type;
	uint32_t arg;
};

struct cmd {
	int s_ev, x_ev, c_ev;	/* -1: never */
	char op;
	uint32_t pages;
};

struct rlog {
	struct ev *evs;
	int nr_evs, end;
	struct cmd *cmds;
	int nr_cmds;
};

static void read_log(const struct cfg *c, struct rlog *l)
{
	char path[256], line[128];
	int cap = 0, ncmd = 0, ovf = 0, active = 1;
	FILE *f;

	snprintf(path, sizeof(path), DBG "/%s/record", c->dev);
	f = fopen(path, "r");
	if (!f)
		die(3, "open %s: %s", path, strerror(errno));
	memset(l, 0, sizeof(*l));
	l->end = -1;
	while (fgets(line, sizeof(line), f)) {
		struct ev e = { line[0], 0 };
		char op = 0;
		uint32_t a = 0, b = 0;

		if (line[0] == '#') {
			if (sscanf(line, "# cmds %d events %*d overflow %d active %d",
				   &ncmd, &ovf, &active) != 3)
				die(3, "record: %s", line);
			l->cmds = xcalloc(ncmd, sizeof(*l->cmds));
			for (int i = 0; i < ncmd; i++)
				l->cmds[i] = (struct cmd){ -1, -1, -1, 0, 0 };
			continue;
		}
		if (l->nr_evs == cap) {
			cap = cap ? 2 * cap : 1024;
			l->evs = realloc(l->evs, cap * sizeof(*l->evs));
			if (!l->evs)
				die(3, "out of memory");
		}
		switch (line[0]) {
		case 'S':
			if (sscanf(line, "S %u %c", &a, &op) != 2 ||
			    a >= (uint32_t)ncmd)
				die(3, "record: %s", line);
			l->cmds[a].s_ev = l->nr_evs;
			l->cmds[a].op = op;
			break;
		case 'X':
			if (sscanf(line, "X %u %u", &a, &b) != 2 ||
			    a >= (uint32_t)ncmd)
				die(3, "record: %s", line);
			l->cmds[a].x_ev = l->nr_evs;
			l->cmds[a].pages = b;
			break;
		case 'C':
			if (sscanf(line, "C %u", &a) != 1 || a >= (uint32_t)ncmd)
				die(3, "record: %s", line);
			l->cmds[a].c_ev = l->nr_evs;
			break;
		case 'M':
			if (sscanf(line, "M %u", &a) != 1)
				die(3, "record: %s", line);
			break;
		case 'E':
			l->end = l->nr_evs;
			break;
		case 'B':
			break;
		default:
			die(3, "record: %s", line);
		}
		e.arg = a;
		l->evs[l->nr_evs++] = e;
	}
	fclose(f);
	l->nr_cmds = ncmd;
	if (ovf)
		die(3, "the recording overflowed (too many commands)");
	if (active || l->end < 0)
		die(3, "the recording was not stopped");
}

/* ------------------------------------------------------------ the model */

static int touches(const struct op *o, uint64_t lba)
{
	return !barrier(o->type) && o->type < FS_WRITE && lba >= o->lba &&
	       lba < o->lba + o->n;
}

/*
 * The allowed versions of every sector at a cut whose last marker is
 * @mark (-1: none): a bitmap over op indexes per sector, plus zeros.
 */
struct model {
	int nr_ops;
	uint64_t m;
	unsigned char *allow;	/* m * (nr_ops + 1): [0] zeros, [1 + i] op i */
};

static int touches(const struct op *o, uint64_t lba);

static void model_build(struct model *md, const struct wl *w, uint64_t m,
			int mark)
{
	int done, last, flush = -1, i, d;
	uint64_t lba;

	if (mark < 0) {
		done = w->setup;
		last = done - 1;
	} else if (mark % 2) {
		done = mark / 2 + 1;
		last = done - 1;
	} else {
		done = mark / 2;
		last = done;	/* op mark / 2 had begun */
	}
	md->nr_ops = w->nr;
	md->m = m;
	md->allow = xcalloc(m * (w->nr + 1), 1);
	for (i = 0; i < done; i++)
		if (barrier(w->ops[i].type))
			flush = i;
	for (lba = 0; lba < m; lba++) {
		unsigned char *a = md->allow + lba * (w->nr + 1);

		/* the last durable version: before the flush, or FUA */
		d = -1;
		for (i = 0; i < done; i++)
			if (touches(&w->ops[i], lba) &&
			    (i < flush || w->ops[i].type == OP_X ||
			     (w->ops[i].type == OP_W && w->ops[i].fua)))
				d = i;
		/* it, and every later version that may have been written */
		for (i = d; i <= last; i++) {
			if (i < 0) {
				a[0] = 1;	/* never durably written: zeros */
				continue;
			}
			if (!touches(&w->ops[i], lba))
				continue;
			if (w->ops[i].type == OP_W)
				a[1 + i] = 1;
			else
				a[0] = 1;
		}
	}
}

/* The model of each marker value, built once. */
static struct model *model_get(struct model **cache, const struct wl *w,
			       uint64_t m, int mark)
{
	struct model **p = &cache[mark + 1];

	if (!*p) {
		*p = xcalloc(1, sizeof(**p));
		model_build(*p, w, m, mark);
	}
	return *p;
}

/* ------------------------------------------------------------ the states */

struct state {
	int cut, torn;
	uint32_t page;
	int *extra, nr_extra;
	int *marks, nr_marks;	/* the cuts' markers it must satisfy */
	uint64_t hash;
	unsigned char *applied;	/* nr_cmds bytes */
};

struct states {
	struct state *s;
	int nr, cap;
	long skipped_sets;
	int max_inflight;
	int *hash, hsize;	/* open addressing: state index + 1 */
};

static uint64_t fnv(const unsigned char *p, size_t n, uint64_t h)
{
	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

static void add_mark(struct state *s, int mark)
{
	for (int i = 0; i < s->nr_marks; i++)
		if (s->marks[i] == mark)
			return;
	s->marks = realloc(s->marks, (s->nr_marks + 1) * sizeof(int));
	if (!s->marks)
		die(3, "out of memory");
	s->marks[s->nr_marks++] = mark;
}

static void add_state(struct states *ss, const struct rlog *l, int cut,
		      const int *sub, int k, int torn, uint32_t page,
		      const int *marks, int nr_marks)
{
	unsigned char *ap = xcalloc(l->nr_cmds, 1);
	struct state *s;
	uint64_t h;
	int i;

	for (i = 0; i < l->nr_cmds; i++)
		ap[i] = l->cmds[i].c_ev >= 0 && l->cmds[i].c_ev < cut;
	for (i = 0; i < k; i++)
		ap[sub[i]] = 1;
	h = fnv(ap, l->nr_cmds, 0xcbf29ce484222325ull);
	h = fnv((unsigned char *)&torn, sizeof(torn), h);
	h = fnv((unsigned char *)&page, sizeof(page), h);
	for (i = h & (ss->hsize - 1); ss->hash[i];
	     i = (i + 1) & (ss->hsize - 1)) {
		s = &ss->s[ss->hash[i] - 1];
		if (s->hash == h && s->torn == torn && s->page == page &&
		    !memcmp(s->applied, ap, l->nr_cmds)) {
			for (int j = 0; j < nr_marks; j++)
				add_mark(s, marks[j]);
			free(ap);
			return;
		}
	}
	if (ss->nr >= ss->hsize / 2)
		die(3, "more than %d states", ss->hsize / 2);
	ss->hash[i] = ss->nr + 1;
	if (ss->nr == ss->cap) {
		ss->cap = ss->cap ? 2 * ss->cap : 256;
		ss->s = realloc(ss->s, ss->cap * sizeof(*ss->s));
		if (!ss->s)
			die(3, "out of memory");
	}
	s = &ss->s[ss->nr++];
	memset(s, 0, sizeof(*s));
	s->cut = cut;
	s->torn = torn;
	s->page = page;
	s->hash = h;
	s->applied = ap;
	s->extra = xcalloc(k, sizeof(int));
	memcpy(s->extra, sub, k * sizeof(int));
	s->nr_extra = k;
	for (i = 0; i < nr_marks; i++)
		add_mark(s, marks[i]);
}

static double choose(int n, int k)
{
	double r = 1;

	for (int i = 0; i < k; i++)
		r = r * (n - i) / (i + 1);
	return r;
}

/* every subset of at most @bound of @fl, each untorn or one program torn */
static void subsets(struct states *ss, const struct rlog *l, int cut,
		    const int *fl, int nf, int bound, const int *marks,
		    int nr_marks)
{
	int sub[8], idx[8], k, i, j;

	for (k = 0; k <= bound && k <= nf; k++) {
		for (i = 0; i < k; i++)
			idx[i] = i;
		for (;;) {
			for (i = 0; i < k; i++)
				sub[i] = fl[idx[i]];
			add_state(ss, l, cut, sub, k, -1, 0, marks, nr_marks);
			for (i = 0; i < k; i++) {
				const struct cmd *c = &l->cmds[sub[i]];

				if (c->op != 'w')
					continue;
				for (j = 0; j < (int)c->pages; j++)
					add_state(ss, l, cut, sub, k, sub[i], j,
						  marks, nr_marks);
			}
			/* next combination */
			for (i = k - 1; i >= 0 && idx[i] == nf - k + i; i--)
				;
			if (i < 0)
				break;
			idx[i]++;
			for (j = i + 1; j < k; j++)
				idx[j] = idx[j - 1] + 1;
		}
	}
	if (nf > bound) {
		double all = 1;

		for (i = 0; i < nf && i < 60; i++)
			all *= 2;
		for (k = 0; k <= bound; k++)
			all -= choose(nf, k);
		ss->skipped_sets += (long)all;
	}
}

static void enumerate(struct states *ss, const struct rlog *l, int bound)
{
	int *fl = xcalloc(l->nr_cmds, sizeof(int));
	int *mark_at = xcalloc(l->end + 1, sizeof(int));
	int *marks = xcalloc(l->end + 1, sizeof(int));
	int nr_marks, t, t0, i, nf;

	memset(ss, 0, sizeof(*ss));
	ss->hsize = 1 << 16;
	ss->hash = xcalloc(ss->hsize, sizeof(int));
	/* the last marker before cut t (events [0, t) happened) */
	mark_at[0] = -1;
	for (t = 1; t <= l->end; t++)
		mark_at[t] = l->evs[t - 1].type == 'M' ? (int)l->evs[t - 1].arg :
			     mark_at[t - 1];
	/* a segment: the cuts t0..t with no S or C event between them */
	for (t0 = 1; t0 <= l->end; t0 = t + 1) {
		nr_marks = 0;
		for (t = t0;; t++) {
			if (!nr_marks || marks[nr_marks - 1] != mark_at[t])
				marks[nr_marks++] = mark_at[t];
			if (t == l->end || l->evs[t].type == 'S' ||
			    l->evs[t].type == 'C')
				break;
		}
		/* in flight: submitted, not completed, executed (has data) */
		nf = 0;
		for (i = 0; i < l->nr_cmds; i++) {
			const struct cmd *c = &l->cmds[i];

			if (c->s_ev >= 0 && c->s_ev < t0 &&
			    !(c->c_ev >= 0 && c->c_ev < t0) && c->x_ev >= 0)
				fl[nf++] = i;
		}
		if (nf > ss->max_inflight)
			ss->max_inflight = nf;
		subsets(ss, l, t0, fl, nf, bound, marks, nr_marks);
	}
	free(marks);
	free(mark_at);
	free(fl);
}

/* ------------------------------------------------------------ checking */

/*
 * where the time of the states goes: replay, power-on, recovery, read and
 * check, power cut, removal, power-off, second recovery
 */
enum {
	T_REPLAY, T_POWER, T_CREATE, T_READ, T_UNPLUG, T_REMOVE, T_OFF,
	T_SECOND, T_RCUT, T_NR
};
static double t_step[T_NR];
static struct timespec t_last;

static void lap(int step)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (step >= 0)
		t_step[step] += (now.tv_sec - t_last.tv_sec) +
				(now.tv_nsec - t_last.tv_nsec) / 1e9;
	t_last = now;
}

struct result {
	long bad_sectors, violations, second_mismatch, create_failed;
	long lost, foreign, garbage, size;
};

static void describe(char *out, size_t n, int k, uint32_t other,
		     const struct wl *w)
{
	if (k == K_ZERO)
		snprintf(out, n, "zeros");
	else if (k == K_FOREIGN)
		snprintf(out, n, "LBA %u's data", other);
	else if (k == K_GARBAGE)
		snprintf(out, n, "garbage");
	else
		snprintf(out, n, "op %d (%s)", k,
			 k < w->setup ? "setup" : "recorded");
}

static void describe_allowed(char *out, size_t n, const struct model *md,
			     uint64_t lba)
{
	const unsigned char *a = md->allow + lba * (md->nr_ops + 1);
	size_t o = 0;

	out[0] = 0;
	if (a[0])
		o += snprintf(out + o, n - o, "zeros ");
	for (int i = 0; i < md->nr_ops && o < n - 12; i++)
		if (a[1 + i])
			o += snprintf(out + o, n - o, "op%d ", i);
}

static void replay(const struct cfg *c, const struct state *s,
		   const struct rlog *l)
{
	char buf[8192];
	int o, i, cut = s->cut;

	if (c->inject) {
		/* drop the last program completed before the cut */
		for (i = cut - 1; i > 0; i--)
			if (l->evs[i].type == 'C' &&
			    l->cmds[l->evs[i].arg].op == 'w')
				break;
		if (i > 0)
			cut = i;
	}
	o = snprintf(buf, sizeof(buf), "replay %d %d %u", cut, s->torn,
		     s->page);
	for (i = 0; i < s->nr_extra && o < (int)sizeof(buf) - 16; i++)
		o += snprintf(buf + o, sizeof(buf) - o, " %d", s->extra[i]);
	record(c, "%s", buf);
}

/* every sector of the target(s), in one read each: their hash */
static uint64_t read_all(const struct cfg *c, unsigned char *data,
			 uint64_t m, struct result *r)
{
	uint64_t got, want, off;
	int t, fd;

	for (t = 0; t <= (int)c->two; t++) {
		off = t ? c->m1 : 0;
		want = c->two ? (t ? m - c->m1 : c->m1) : m;
		fd = tgt_open1(c, t, O_RDONLY);
		got = tgt_sectors(fd);
		if (got != want) {
			r->size++;
			printf("  %s: capacity %llu sectors, was %llu\n",
			       tgt_name(c, t), (unsigned long long)got,
			       (unsigned long long)want);
			memset(data + off * SECT, 0xff, want * SECT);
			if (got < want)
				want = got;
		}
		if (pread(fd, data + off * SECT, want * SECT, 0) !=
		    (ssize_t)(want * SECT))
			die(3, "read /dev/%s: %s", tgt_name(c, t),
			    strerror(errno));
		close(fd);
	}
	return fnv(data, m * SECT, 0xcbf29ce484222325ull);
}

/* every sector of @data against the models of @s's cuts: the bad ones */
static long check_sectors(const struct cfg *c, const struct wl *w,
			  const struct state *s, int idx, uint64_t m,
			  struct model **cache, const unsigned char *data,
			  const char *when, struct result *r)
{
	long bad = 0, shown = 0;
	uint64_t lba;
	int j;

	for (j = 0; j < s->nr_marks; j++) {
		const struct model *md = model_get(cache, w, m, s->marks[j]);

		for (lba = 0; lba < m; lba++) {
			const unsigned char *a = md->allow + lba * (w->nr + 1);
			uint32_t other = 0;
			int k = classify(data + lba * SECT, lba, c->seed, &other);
			char got[64], allowed[512];

			if (k == K_ZERO ? a[0] : k >= 0 && a[1 + k])
				continue;
			bad++;
			if (k == K_FOREIGN)
				r->foreign++;
			else if (k == K_GARBAGE)
				r->garbage++;
			else
				r->lost++;
			if (shown++ >= MAX_SHOW)
				continue;
			describe(got, sizeof(got), k, other, w);
			describe_allowed(allowed, sizeof(allowed), md, lba);
			printf("VIOLATION %s state %d%s (cut %d mark %d torn %d:%u in-flight applied %d): LBA %llu read %s, allowed: %s\n",
			       c->wl, idx, when, s->cut, s->marks[j], s->torn,
			       s->page, s->nr_extra, (unsigned long long)lba,
			       got, allowed);
		}
	}
	return bad;
}

/*
 * ext4: the target's contents @data as an image, its journal replayed by
 * e2fsck (what a mount would do), then e2fsck -fn must find it clean,
 * and every file the model of one of @s's cuts is sure of must be there
 * (or not) with the contents it says.
 */
static long check_fs(const struct cfg *c, const struct wl *w,
		     const struct state *s, int idx, uint64_t m,
		     const unsigned char *data, const char *when,
		     struct result *r)
{
	static unsigned char want[FS_BLOCKS * SECT], got[FS_BLOCKS * SECT + 1];
	char img[64], cmd[512], out[96];
	struct fs_model fm;
	long bad = 0;
	int fd, ret, j, f;
	FILE *fp;

	snprintf(img, sizeof(img), "/tmp/lc_%s.img", c->dev);
	fd = open(img, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, m * SECT) != (ssize_t)(m * SECT))
		die(3, "write %s: %s", img, strerror(errno));
	close(fd);
	snprintf(cmd, sizeof(cmd), "e2fsck -E journal_only -y %s > /tmp/lc_%s.log 2>&1",
		 img, c->dev);
	ret = system(cmd);
	if (!WIFEXITED(ret) || WEXITSTATUS(ret) > 1) {
		printf("VIOLATION %s state %d%s (cut %d): the journal replay (e2fsck -E journal_only) exited %d\n",
		       c->wl, idx, when, s->cut, WEXITSTATUS(ret));
		r->garbage++;
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "e2fsck -fn %s > /tmp/lc_%s.log 2>&1",
		 img, c->dev);
	ret = system(cmd);
	if (!WIFEXITED(ret) || WEXITSTATUS(ret)) {
		printf("VIOLATION %s state %d%s (cut %d): e2fsck -fn exited %d (/tmp/lc_%s.log)\n",
		       c->wl, idx, when, s->cut, WEXITSTATUS(ret), c->dev);
		snprintf(cmd, sizeof(cmd), "head -8 /tmp/lc_%s.log", c->dev);
		fflush(stdout);
		ret = system(cmd);
		r->garbage++;
		bad++;
	}
	/* every file dumped by one debugfs */
	snprintf(cmd, sizeof(cmd), "/tmp/lc_%s.cmd", c->dev);
	fp = fopen(cmd, "w");
	if (!fp)
		die(3, "open %s: %s", cmd, strerror(errno));
	for (f = 0; f < FS_FILES; f++) {
		snprintf(out, sizeof(out), "/tmp/lc_%s.f%d", c->dev, f);
		unlink(out);
		fprintf(fp, "dump /d/f%d %s\n", f, out);
	}
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "debugfs -f /tmp/lc_%s.cmd %s > /dev/null 2>&1",
		 c->dev, img);
	/* a missing file is no error: the checks below see it missing */
	ret = system(cmd);
	(void)ret;
	for (f = 0; f < FS_FILES; f++) {
		ssize_t n = -1;

		snprintf(out, sizeof(out), "/tmp/lc_%s.f%d", c->dev, f);
		fd = open(out, O_RDONLY);
		if (fd >= 0) {
			n = read(fd, got, sizeof(got));
			close(fd);
		}
		for (j = 0; j < s->nr_marks; j++) {
			const char *why = NULL;

			fs_model(&fm, w, s->marks[j]);
			if (!fm.edur[f])
				continue;
			if (fm.ver[f] < 0 && fd >= 0)
				why = "exists, its unlink or rename was durable";
			else if (fm.ver[f] >= 0 && fd < 0)
				why = "is missing, its name was durable";
			if (!why && fm.ver[f] >= 0 && fm.cdur[f]) {
				/* as written: under its name then (renames) */
				fs_fill(want, c, w->ops[fm.ver[f]].lba,
					fm.ver[f]);
				if (n != FS_BLOCKS * SECT ||
				    memcmp(want, got, n))
					why = "has other contents than its fsynced ones";
			}
			if (!why)
				continue;
			printf("VIOLATION %s state %d%s (cut %d mark %d torn %d:%u in-flight applied %d): /d/f%d %s (op %d)\n",
			       c->wl, idx, when, s->cut, s->marks[j], s->torn,
			       s->page, s->nr_extra, f, why, fm.ver[f]);
			r->lost++;
			bad++;
			break;
		}
	}
	return bad;
}

/* the contents read against the model: sectors, or ext4 */
static long check_data(const struct cfg *c, const struct wl *w,
		       const struct state *s, int idx, uint64_t m,
		       struct model **cache, const unsigned char *data,
		       const char *when, struct result *r)
{
	if (w->fs)
		return check_fs(c, w, s, idx, m, data, when, r);
	return check_sectors(c, w, s, idx, m, cache, data, when, r);
}

/*
 * A cut during recovery: @s's media again, the power cut @delay_us after
 * the first recovery began (from another process: lnvm create blocks),
 * then a recovery from what that left, checked against @s's models.
 */
static long check_rcut(const struct cfg *c, const struct wl *w,
		       const struct rlog *l, const struct state *s, int idx,
		       uint64_t m, struct model **cache, unsigned char *data,
		       unsigned int delay_us, struct result *r)
{
	char when[48];
	pid_t pid;
	long bad;
	int ret, st;

	lap(-1);
	replay(c, s, l);
	dev_attr(c, "power", "1");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die(3, "fork: %s", strerror(errno));
	if (!pid) {
		usleep(delay_us);
		dev_attr(c, "unplugged", "1");
		_exit(0);
	}
	ret = tgt_create(c, 0);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die(3, "the power cut during recovery failed");
	/* whether recovery ended before the cut or failed under it */
	if (!ret)
		tgt_remove(c);
	dev_attr(c, "power", "0");
	dev_attr(c, "power", "1");
	snprintf(when, sizeof(when), " (recovery cut at %u us)", delay_us);
	ret = tgt_create(c, 0);
	if (ret) {
		printf("VIOLATION %s state %d%s: recovery failed: %s\n", c->wl,
		       idx, when, strerror(-ret));
		r->create_failed++;
		dev_attr(c, "power", "0");
		return 1;
	}
	read_all(c, data, m, r);
	bad = check_data(c, w, s, idx, m, cache, data, when, r);
	tgt_remove(c);
	dev_attr(c, "power", "0");
	lap(T_RCUT);
	return bad;
}

/* one state: 0 if it holds, else the number of problems */
static long check_state(const struct cfg *c, const struct wl *w,
			const struct rlog *l, const struct state *s, int idx,
			uint64_t m, struct model **cache, unsigned char *data,
			int second, struct result *r)
{
	uint64_t h1, h2;
	long bad;
	int ret;

	lap(-1);
	replay(c, s, l);
	lap(T_REPLAY);
	dev_attr(c, "power", "1");
	lap(T_POWER);
	ret = tgt_create(c, 0);
	lap(T_CREATE);
	if (ret) {
		printf("VIOLATION %s state %d: recovery failed: %s\n", c->wl,
		       idx, strerror(-ret));
		r->create_failed++;
		dev_attr(c, "power", "0");
		return 1;
	}
	h1 = read_all(c, data, m, r);
	bad = check_data(c, w, s, idx, m, cache, data, "", r);
	lap(T_READ);
	/*
	 * A state without a second recovery is thrown away: a clean
	 * removal (a checkpoint written) costs less than one on a device
	 * without power, where every failed command is retried after a
	 * pause until the target gives up. Before a second recovery the
	 * power is cut, so that it starts from what the first one left.
	 */
	if (second || c->unplug_all)
		dev_attr(c, "unplugged", "1");
	lap(T_UNPLUG);
	tgt_remove(c);
	lap(T_REMOVE);
	dev_attr(c, "power", "0");
	lap(T_OFF);
	if (!second)
		return bad;
	/* a second recovery from what the first one left */
	dev_attr(c, "power", "1");
	ret = tgt_create(c, 0);
	if (ret) {
		printf("VIOLATION %s state %d: second recovery failed: %s\n",
		       c->wl, idx, strerror(-ret));
		r->create_failed++;
		dev_attr(c, "power", "0");
		return bad + 1;
	}
	h2 = read_all(c, data, m, r);
	tgt_remove(c);
	dev_attr(c, "power", "0");
	lap(T_SECOND);
	if (h1 != h2) {
		printf("VIOLATION %s state %d: a second recovery read other contents\n",
		       c->wl, idx);
		r->second_mismatch++;
		bad++;
	}
	return bad;
}

/* ---------------------------------------------------------------- main */

static void hot_cold_default(void)
{
	put_file("/sys/module/rrpc/parameters/hot_cold", "-1\n");
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s WORKLOAD --dev NAME [--op OP] [--luns B:E] [--bound K]\n"
		"       [--max-states N] [--second N] [--state I] [--inject lose]\n"
		"       [--seed S] [--delay US] [--jitter US] [--reuse SECTORS] [--rcut N]\n"
		"       [--rcut-class] [--wq] [--unplug-all] [--verbose]\n"
		"WORKLOAD: overwrite, trim, trimgc, gc, hotcold, ckpt, wipe, reuse, ext4. See Documentation/lightnvm/crashcheck.rst.\n",
		prog);
}

int main(int argc, char **argv)
{
	struct cfg c = { .op = 25, .lun_b = 0, .lun_e = 1, .bound = 3,
			 .second = 1, .delay = 2000, .jitter = 4000,
			 .max_states = -1, .state = -1, .seed = 1 };
	struct result r = { 0 };
	struct states ss;
	struct model **cache;
	struct rlog l;
	struct wl w;
	unsigned char *data;
	long checked = 0, rcuts = 0, i, n, stride_num, last = -1;
	time_t t0 = time(NULL), t_note = t0;
	unsigned int classes = 0;
	char luns2[24] = "";
	uint64_t m;

	if (argc < 2 || argv[1][0] == '-') {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	c.wl = argv[1];
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--verbose")) {
			c.verbose = 1;
			continue;
		}
		if (!strcmp(a, "--rcut-class")) {
			c.rcut_class = 1;
			continue;
		}
		if (!strcmp(a, "--wq")) {
			c.wq_checks = 1;
			continue;
		}
		if (!strcmp(a, "--unplug-all")) {
			c.unplug_all = 1;
			continue;
		}
		if (!v) {
			usage(stderr);
			return 2;
		}
		i++;
		if (!strcmp(a, "--dev"))
			c.dev = v;
		else if (!strcmp(a, "--op"))
			c.op = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--luns"))
			sscanf(v, "%u:%u", &c.lun_b, &c.lun_e);
		else if (!strcmp(a, "--luns2")) {
			c.two = sscanf(v, "%u:%u", &c.lun2_b, &c.lun2_e) == 2;
			snprintf(luns2, sizeof(luns2), "%s", v);
		} else if (!strcmp(a, "--bound"))
			c.bound = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--max-states"))
			c.max_states = strtol(v, NULL, 0);
		else if (!strcmp(a, "--second"))
			c.second = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--rcut"))
			c.rcut = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--state"))
			c.state = strtol(v, NULL, 0);
		else if (!strcmp(a, "--seed"))
			c.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--delay"))
			c.delay = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--jitter"))
			c.jitter = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--reuse"))
			/* SECTORS, or SECTORS:FIRST with two targets */
			sscanf(v, "%" SCNu64 ":%" SCNu64, &c.reuse, &c.m1);
		else if (!strcmp(a, "--inject") && !strcmp(v, "lose"))
			c.inject = 1;
		else {
			usage(stderr);
			return 2;
		}
	}
	if (!c.dev || c.bound > 8) {
		usage(stderr);
		return 2;
	}
	snprintf(c.tgt, sizeof(c.tgt), "%st", c.dev);
	snprintf(c.tgt2, sizeof(c.tgt2), "%su", c.dev);
	if (!strcmp(c.wl, "reuse") && !c.two)
		die(2, "workload reuse needs a second target (--luns2 B:E)");
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* rrpc's hot and cold streams for the targets created from now on */
	if (!strcmp(c.wl, "hotcold")) {
		put_file("/sys/module/rrpc/parameters/hot_cold", "1\n");
		atexit(hot_cold_default);
	}

	if (c.reuse) {
		/* the recording of an earlier run (same boot, same device) */
		m = c.reuse;
		if (!c.two || !c.m1 || c.m1 >= m)
			c.m1 = m;
		gen(&w, c.wl, c.seed, m, c.m1);
	} else {
		m = run_workload(&c, &w);
	}
	read_log(&c, &l);
	/*
	 * The checks: commands complete in the submitter's context (a
	 * recovery takes about 40% less time under TCG), or with --wq from
	 * the device's workqueue as during the recording.
	 */
	dev_attr(&c, "completion_mode", c.wq_checks ? "1" : "0");
	enumerate(&ss, &l, c.bound);
	for (i = 0, n = 0; i < l.nr_cmds; i++)
		n += l.cmds[i].op == 'e';
	printf("crashcheck %s: %llu sectors, %d ops (%d recorded), %d commands (%ld erases), %d events, at most %d in flight\n",
	       c.wl, (unsigned long long)m, w.nr, w.nr - w.setup, l.nr_cmds,
	       n, l.end, ss.max_inflight);
	printf("crashcheck %s: %d states (subsets of at most %u in-flight commands, at most one torn program page); %ld in-flight subsets skipped by the bound\n",
	       c.wl, ss.nr, c.bound, ss.skipped_sets);

	cache = xcalloc(2 * w.nr + 2, sizeof(*cache));
	if (posix_memalign((void **)&data, SECT, m * SECT))
		die(3, "out of memory");
	n = c.max_states >= 0 && c.max_states < ss.nr ? c.max_states : ss.nr;
	for (stride_num = 0; stride_num < n; stride_num++) {
		long idx = n == ss.nr ? stride_num : stride_num * ss.nr / n;
		long bad;

		if (idx == last)
			continue;
		last = idx;
		if (c.state >= 0 && idx != c.state)
			continue;
		if (c.verbose)
			printf("state %ld: cut %d torn %d:%u extra %d marks %d\n",
			       idx, ss.s[idx].cut, ss.s[idx].torn,
			       ss.s[idx].page, ss.s[idx].nr_extra,
			       ss.s[idx].nr_marks);
		bad = check_state(&c, &w, &l, &ss.s[idx], idx, m, cache, data,
				  c.second && checked % c.second == 0, &r);
		/*
		 * A cut during recovery on every --rcut-th state and (with
		 * --rcut-class) on the first state of each class (number of
		 * in-flight commands applied, torn or not), at a point spread
		 * over the time a recovery takes.
		 */
		if ((c.rcut && checked % c.rcut == 0) ||
		    (c.rcut_class &&
		     !(classes & 1u << (2 * ss.s[idx].nr_extra +
					(ss.s[idx].torn >= 0))))) {
			double rec = checked ? t_step[T_CREATE] / checked : 0.3;

			classes |= 1u << (2 * ss.s[idx].nr_extra +
					  (ss.s[idx].torn >= 0));
			bad += check_rcut(&c, &w, &l, &ss.s[idx], idx, m, cache,
					  data, (unsigned int)(1e6 * rec *
					  ((rcuts * 37) % 100) / 100), &r);
			rcuts++;
		}
		checked++;
		if (bad) {
			r.violations++;
			r.bad_sectors += bad;
		}
		if (time(NULL) - t_note >= 50) {
			t_note = time(NULL);
			printf("crashcheck %s: progress: %ld of %ld states checked, %ld violations, %lds\n",
			       c.wl, checked, n, r.violations,
			       (long)(t_note - t0));
		}
	}
	printf("crashcheck %s: %ld states checked, %ld violations (%ld sectors: %ld lost, %ld foreign, %ld garbage; %ld capacity, %ld recovery failures, %ld second-recovery mismatches) in %lds\n",
	       c.wl, checked, r.violations, r.bad_sectors, r.lost, r.foreign,
	       r.garbage, r.size, r.create_failed, r.second_mismatch,
	       (long)(time(NULL) - t0));
	if (checked)
		printf("crashcheck %s: %ld of them also with a cut during recovery\n",
		       c.wl, rcuts);
	if (checked)
		printf("crashcheck %s: per state (ms): replay %.0f, power-on %.0f, recovery %.0f, read and check %.0f, power cut %.0f, removal %.0f, power-off %.0f, second recovery %.0f, recovery cut %.0f; total %.0f\n",
		       c.wl, 1e3 * t_step[T_REPLAY] / checked,
		       1e3 * t_step[T_POWER] / checked,
		       1e3 * t_step[T_CREATE] / checked,
		       1e3 * t_step[T_READ] / checked,
		       1e3 * t_step[T_UNPLUG] / checked,
		       1e3 * t_step[T_REMOVE] / checked,
		       1e3 * t_step[T_OFF] / checked,
		       1e3 * t_step[T_SECOND] / checked,
		       1e3 * t_step[T_RCUT] / checked,
		       1e3 * (t_step[T_REPLAY] + t_step[T_POWER] +
			      t_step[T_CREATE] + t_step[T_READ] +
			      t_step[T_UNPLUG] + t_step[T_REMOVE] +
			      t_step[T_OFF] + t_step[T_SECOND] +
			      t_step[T_RCUT]) / checked);
	/* how to look at one state again (always printed: make crashcheck) */
	printf("crashcheck %s: replay one state of this recording (same boot, device %s kept when violations were found): %s %s --dev %s%s%s --op %u --reuse %llu:%llu --state N --verbose\n",
	       c.wl, c.dev, prog, c.wl, c.dev, c.two ? " --luns2 " : "",
	       c.two ? luns2 : "", c.op, (unsigned long long)m,
	       (unsigned long long)c.m1);
	return r.violations ? 1 : 0;
}
