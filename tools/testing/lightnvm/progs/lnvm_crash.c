// SPDX-License-Identifier: GPL-2.0
/*
 * lnvm_crash - the crash-state explorer of the LightNVM tests
 * (Documentation/lightnvm/crashcheck.rst). It owns the workloads, their
 * self-checking sector format, the enumeration of the crash states of a
 * recording and the reference model each state is checked against.
 *
 *   lnvm_crash WORKLOAD --dev NAME [--op OP] [--luns B:E] [--bound K]
 *		[--max-states N] [--second N] [--state I] [--inject lose]
 *		[--seed S] [--delay US] [--jitter US] [--reuse SECTORS]
 *		[--verbose]
 *
 * NAME is a powered-on configfs nvm_mem instance (completion_mode 1)
 * without a target, on a kernel with CONFIG_NVM_MEM_RECORD. The program
 *   1. creates rrpc target NAMEt on LUNs B..E with -f, writes the
 *	workload's setup and flushes it;
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
 *	reference model of the cut, and for every N-th state (--second) cuts
 *	the power, powers on again and recovers a second time: the contents
 *	must be the same.
 *
 * Reference model of a cut: the operations whose end marker precedes it
 * completed, the one whose begin marker is the last one may be running.
 * A sector may read the version of its last durable operation (before the
 * last completed flush, or a completed FUA write), or of any later
 * operation that had begun; discards and write-zeroes are zeros. Anything
 * else is a violation: "lost" (an older version, or zeros), "foreign"
 * (another LBA's sector), "garbage".
 *
 * --reuse SECTORS skips steps 1 and 2: the states of the recording the
 * instance already holds (a workload run earlier in this boot on a target
 * of SECTORS sectors), e.g. to look at one state again with --state I.
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
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
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

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		die(3, "out of memory");
	return p;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ------------------------------------------------------------ workloads */

enum { OP_W, OP_F, OP_D, OP_Z };

struct op {
	int type;
	uint32_t lba, n;
	int fua;
};

struct wl {
	struct op *ops;
	int nr, cap, setup;	/* ops [0, setup) run before recording */
};

static void add(struct wl *w, int type, uint32_t lba, uint32_t n, int fua,
		uint64_t sectors)
{
	if (type != OP_F) {
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

/*
 * The workloads. Each is a setup (made durable before the recording)
 * and a short recorded part, deterministic for (name, seed, sectors).
 */
static void gen(struct wl *w, const char *name, uint64_t seed, uint64_t m)
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
		for (i = 0; i < m; i += 8)
			add(w, OP_W, i, 8, 0, m);
		add(w, OP_F, 0, 0, 0, m);
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
		for (i = 0; i < m; i += 8)
			add(w, OP_W, i, 8, 0, m);
		add(w, OP_F, 0, 0, 0, m);
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
	} else {
		die(2, "unknown workload '%s' (overwrite, trim, trimgc, gc)",
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
	char tgt[DISK_NAME_LEN];
	unsigned int op, lun_b, lun_e, bound, second, delay, jitter;
	long max_states, state;
	uint64_t seed;
	int inject, verbose;
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

static int tgt_create(const struct cfg *c, int factory)
{
	struct nvm_ioctl_create cr;

	memset(&cr, 0, sizeof(cr));
	snprintf(cr.dev, sizeof(cr.dev), "%s", c->dev);
	snprintf(cr.tgttype, sizeof(cr.tgttype), "rrpc");
	snprintf(cr.tgtname, sizeof(cr.tgtname), "%s", c->tgt);
	cr.flags = factory ? NVM_TARGET_FACTORY : 0;
	cr.conf.type = NVM_CONFIG_TYPE_EXTENDED;
	cr.conf.e.lun_begin = c->lun_b;
	cr.conf.e.lun_end = c->lun_e;
	cr.conf.e.over_prov = c->op;
	return ctl(NVM_DEV_CREATE, &cr);
}

static void tgt_remove(const struct cfg *c)
{
	struct nvm_ioctl_remove rm;
	int ret;

	memset(&rm, 0, sizeof(rm));
	snprintf(rm.tgtname, sizeof(rm.tgtname), "%s", c->tgt);
	ret = ctl(NVM_DEV_REMOVE, &rm);
	if (ret)
		die(3, "remove %s: %s", c->tgt, strerror(-ret));
}

/* open /dev/TGT (devtmpfs makes it at once, but give it 5 s) */
static int tgt_open(const struct cfg *c, int flags)
{
	char path[64];
	int i, fd;

	snprintf(path, sizeof(path), "/dev/%s", c->tgt);
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

static void run_op(const struct cfg *c, int fd, int fua_fd,
		   const struct op *o, uint32_t idx, unsigned char *buf)
{
	uint64_t range[2];
	uint32_t i;

	switch (o->type) {
	case OP_W:
		for (i = 0; i < o->n; i++)
			fill(buf + i * SECT, o->lba + i, idx, c->seed);
		if (pwrite(o->fua ? fua_fd : fd, buf, o->n * SECT,
			   (off_t)o->lba * SECT) != (ssize_t)(o->n * SECT))
			die(3, "op %u: write: %s", idx, strerror(errno));
		break;
	case OP_F:
		if (fdatasync(fd))
			die(3, "op %u: fdatasync: %s", idx, strerror(errno));
		break;
	case OP_D:
	case OP_Z:
		range[0] = (uint64_t)o->lba * SECT;
		range[1] = (uint64_t)o->n * SECT;
		if (ioctl(fd, o->type == OP_D ? BLKDISCARD : BLKZEROOUT, range))
			die(3, "op %u: %s: %s", idx,
			    o->type == OP_D ? "discard" : "write-zeroes",
			    strerror(errno));
		break;
	}
}

static uint64_t run_workload(const struct cfg *c, struct wl *w)
{
	unsigned char *buf;
	uint64_t m;
	char v[32];
	int fd, fua_fd, ret;
	int i;

	ret = tgt_create(c, 1);
	if (ret)
		die(3, "create %s with -f: %s", c->tgt, strerror(-ret));
	fd = tgt_open(c, O_RDWR);
	fua_fd = tgt_open(c, O_RDWR | O_DSYNC);
	m = tgt_sectors(fd);
	gen(w, c->wl, c->seed, m);
	if (posix_memalign((void **)&buf, SECT, 64 * SECT))
		die(3, "out of memory");
	for (i = 0; i < w->setup; i++)
		run_op(c, fd, fua_fd, &w->ops[i], i, buf);
	if (fdatasync(fd))
		die(3, "fdatasync: %s", strerror(errno));

	/* completions late and out of order: more commands in flight */
	snprintf(v, sizeof(v), "%u", c->delay);
	dev_attr(c, "completion_delay_us", v);
	snprintf(v, sizeof(v), "%u", c->jitter);
	dev_attr(c, "completion_jitter_us", v);
	record(c, "start");
	for (i = w->setup; i < w->nr; i++) {
		record(c, "mark %d", 2 * i);
		run_op(c, fd, fua_fd, &w->ops[i], i, buf);
		record(c, "mark %d", 2 * i + 1);
	}
	record(c, "stop");
	dev_attr(c, "completion_delay_us", "0");
	dev_attr(c, "completion_jitter_us", "0");
	close(fua_fd);
	close(fd);
	tgt_remove(c);
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
	return o->type != OP_F && lba >= o->lba && lba < o->lba + o->n;
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
		if (w->ops[i].type == OP_F)
			flush = i;
	for (lba = 0; lba < m; lba++) {
		unsigned char *a = md->allow + lba * (w->nr + 1);

		/* the last durable version: before the flush, or FUA */
		d = -1;
		for (i = 0; i < done; i++)
			if (touches(&w->ops[i], lba) &&
			    (i < flush || (w->ops[i].type == OP_W &&
					   w->ops[i].fua)))
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

/* where the time of the states goes: replay, power-on, create, read, rest */
static double t_step[5];
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

static uint64_t read_all(const struct cfg *c, int fd, unsigned char *data,
			 uint64_t m, struct result *r)
{
	uint64_t got;

	got = tgt_sectors(fd);
	if (got != m) {
		r->size++;
		printf("  capacity %llu sectors, was %llu\n",
		       (unsigned long long)got, (unsigned long long)m);
		if (got < m)
			m = got;
	}
	if (pread(fd, data, m * SECT, 0) != (ssize_t)(m * SECT))
		die(3, "read /dev/%s: %s", c->tgt, strerror(errno));
	return fnv(data, m * SECT, 0xcbf29ce484222325ull);
}

/* one state: 0 if it holds, else the number of problems */
static long check_state(const struct cfg *c, const struct wl *w,
			const struct rlog *l, const struct state *s, int idx,
			uint64_t m, struct model **cache, unsigned char *data,
			int second, struct result *r)
{
	long bad = 0, shown = 0;
	uint64_t h1, h2, lba;
	int fd, ret, j;

	lap(-1);
	replay(c, s, l);
	lap(0);
	dev_attr(c, "power", "1");
	lap(1);
	ret = tgt_create(c, 0);
	lap(2);
	if (ret) {
		printf("VIOLATION %s state %d: recovery failed: %s\n", c->wl,
		       idx, strerror(-ret));
		r->create_failed++;
		dev_attr(c, "power", "0");
		return 1;
	}
	fd = tgt_open(c, O_RDONLY);
	h1 = read_all(c, fd, data, m, r);
	lap(3);
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
			printf("VIOLATION %s state %d (cut %d mark %d torn %d:%u in-flight applied %d): LBA %llu read %s, allowed: %s\n",
			       c->wl, idx, s->cut, s->marks[j], s->torn,
			       s->page, s->nr_extra, (unsigned long long)lba,
			       got, allowed);
		}
	}
	if (!second) {
		close(fd);
		dev_attr(c, "unplugged", "1");
		tgt_remove(c);
		dev_attr(c, "power", "0");
		lap(4);
		return bad;
	}
	/* a second recovery from what the first one left */
	close(fd);
	dev_attr(c, "unplugged", "1");
	tgt_remove(c);
	dev_attr(c, "power", "0");
	dev_attr(c, "power", "1");
	ret = tgt_create(c, 0);
	if (ret) {
		printf("VIOLATION %s state %d: second recovery failed: %s\n",
		       c->wl, idx, strerror(-ret));
		r->create_failed++;
		dev_attr(c, "power", "0");
		return bad + 1;
	}
	fd = tgt_open(c, O_RDONLY);
	h2 = read_all(c, fd, data, m, r);
	close(fd);
	dev_attr(c, "unplugged", "1");
	tgt_remove(c);
	dev_attr(c, "power", "0");
	lap(4);
	if (h1 != h2) {
		printf("VIOLATION %s state %d: a second recovery read other contents\n",
		       c->wl, idx);
		r->second_mismatch++;
		bad++;
	}
	return bad;
}

/* ---------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s WORKLOAD --dev NAME [--op OP] [--luns B:E] [--bound K]\n"
		"       [--max-states N] [--second N] [--state I] [--inject lose]\n"
		"       [--seed S] [--delay US] [--jitter US] [--reuse SECTORS] [--verbose]\n"
		"WORKLOAD: overwrite, trim, trimgc, gc. See Documentation/lightnvm/crashcheck.rst.\n",
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
	long checked = 0, i, n, stride_num, last = -1;
	time_t t0 = time(NULL);
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
		else if (!strcmp(a, "--bound"))
			c.bound = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--max-states"))
			c.max_states = strtol(v, NULL, 0);
		else if (!strcmp(a, "--second"))
			c.second = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--state"))
			c.state = strtol(v, NULL, 0);
		else if (!strcmp(a, "--seed"))
			c.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--delay"))
			c.delay = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--jitter"))
			c.jitter = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--reuse"))
			c.reuse = strtoull(v, NULL, 0);
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
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (c.reuse) {
		/* the recording of an earlier run (same boot, same device) */
		m = c.reuse;
		gen(&w, c.wl, c.seed, m);
	} else {
		m = run_workload(&c, &w);
	}
	read_log(&c, &l);
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
		checked++;
		if (bad) {
			r.violations++;
			r.bad_sectors += bad;
		}
	}
	printf("crashcheck %s: %ld states checked, %ld violations (%ld sectors: %ld lost, %ld foreign, %ld garbage; %ld capacity, %ld recovery failures, %ld second-recovery mismatches) in %lds\n",
	       c.wl, checked, r.violations, r.bad_sectors, r.lost, r.foreign,
	       r.garbage, r.size, r.create_failed, r.second_mismatch,
	       (long)(time(NULL) - t0));
	if (checked)
		printf("crashcheck %s: per state: replay %.0f ms, power-on %.0f ms, recovery %.0f ms, read and check %.0f ms, teardown and second recovery %.0f ms\n",
		       c.wl, 1e3 * t_step[0] / checked, 1e3 * t_step[1] / checked,
		       1e3 * t_step[2] / checked, 1e3 * t_step[3] / checked,
		       1e3 * t_step[4] / checked);
	if (r.violations)
		printf("crashcheck %s: replay one state of this recording (same boot, device %s kept): %s %s --dev %s --reuse %llu --state N --verbose\n",
		       c.wl, c.dev, prog, c.wl, c.dev, (unsigned long long)m);
	return r.violations ? 1 : 0;
}
