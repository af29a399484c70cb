// SPDX-License-Identifier: GPL-2.0
/*
 * lnvm_pcw - the power-cut writer and verifier of the LightNVM tests. It
 * owns the on-disk format of its self-validating sectors, the deterministic
 * operation stream of a (seed, epoch) and the rules deciding which contents
 * a sector may hold after a cut.
 *
 *   lnvm_pcw write DEV --seed S --epoch E [--ops N] [--sectors M]
 *		[--log FILE] [--stop-at OP]
 *	Runs the operation stream of (S, E) on the first M 4 KiB sectors of
 *	DEV (default: all) through O_DIRECT: writes of 1..16 sectors, many on
 *	a hot set, fdatasync() flushes at stream-defined points, FUA writes
 *	(a second descriptor with O_DSYNC), discards (BLKDISCARD) and
 *	write-zeroes (BLKZEROOUT). Every written sector carries a magic, its
 *	LBA, S, E, the op index, a pattern derived from them and a CRC32.
 *	Before the first op, after every completed flush and after every
 *	acknowledged FUA write it prints
 *		@@LNVM PCW <S> <E> flushed <N> fua <K>
 *	(ops 0..N-1 were acknowledged before a flush completed; K is the
 *	highest FUA op acknowledged, -1 if none) to stdout at once and
 *	appends it to FILE (fsync'd; an epoch FILE already has is refused:
 *	each epoch runs once). After N ops (default: until an error)
 *	it flushes and prints the line once more. --stop-at OP (for tests)
 *	stops at op OP, after only the first half of its sectors if it is a
 *	write, as if the power had been cut.
 *	A regular file works too (hole punching for discards; without
 *	O_DIRECT if its file system refuses it).
 *
 *   lnvm_pcw verify DEV --seed S --epochs "E0:N0:K0 E1:N1:K1 ..."
 *		[--sectors M] [--quiet]
 *   lnvm_pcw verify DEV --log FILE... [--seed S] [--sectors M] [--quiet]
 *	Replays the streams of the epochs in the order given (with --log:
 *	the order in which they appear; the largest N and K of each) and
 *	checks every sector: it must hold the state left by its last durable
 *	op (op < N of its epoch, or a FUA op <= K), or the state of a later op
 *	of that epoch that may have run (up to the second flush after the last
 *	acknowledged point), or, if no op of an epoch was durable for it, what
 *	was allowed before that epoch or any of its ops that may have run. A
 *	sector never durably written in any epoch may read zeros or any
 *	self-valid version of its own LBA. Ends with
 *		pcw: N sectors, X flushed sectors lost, Y foreign, Z garbage
 *	"lost": an older version (or zeros) of that sector; "foreign": a valid
 *	sector of another LBA; "garbage": anything else (torn, corrupt,
 *	unreadable, or a version never written there).
 *
 *   lnvm_pcw ops --seed S --epoch E --ops N --sectors M
 *	prints the stream (one "INDEX TYPE LBA COUNT" line per op).
 *
 * Exit status: 0 success, 1 verify found lost/foreign/garbage sectors,
 * 2 usage, 3 an I/O operation of the writer failed (the message names the
 * op), 4 stopped by --stop-at, 5 setup error (open, size, log file).
 */

#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#define PCW_SECT	4096u
#define PCW_MAGIC	0x31574350564e4c40ull	/* "@LNVPCW1" little endian */
#define PCW_HDR		40u
#define PCW_MAX_LEN	16u
#define PCW_CHUNK	256u	/* sectors per verify read */
#define PCW_SHOW	10u	/* problems of each kind printed */

enum {
	EXIT_PCW_OK = 0,
	EXIT_PCW_BAD = 1,
	EXIT_PCW_USAGE = 2,
	EXIT_PCW_IO = 3,
	EXIT_PCW_STOPPED = 4,
	EXIT_PCW_SETUP = 5,
};

enum op_type { OP_WRITE, OP_FUA, OP_DISCARD, OP_ZERO, OP_FLUSH };

static const char *const op_names[] = {
	[OP_WRITE] = "write", [OP_FUA] = "fua", [OP_DISCARD] = "discard",
	[OP_ZERO] = "zero", [OP_FLUSH] = "flush",
};

struct pcw_op {
	uint64_t lba;
	uint32_t len;
	uint8_t type;
};

/* The deterministic stream of one (seed, epoch). */
struct pcw_gen {
	uint64_t state;
	uint64_t nsect;
	uint64_t hot0;
	uint64_t hotn;
	uint32_t idx;
	uint32_t next_flush;
};

static const char *prog = "lnvm_pcw";

#include "lnvm_prog.h"

static uint64_t rnd(struct pcw_gen *g, uint64_t bound)
{
	return splitmix64(&g->state) % bound;
}

static void gen_init(struct pcw_gen *g, uint64_t seed, uint32_t epoch,
		     uint64_t nsect)
{
	uint64_t s = seed;

	g->state = splitmix64(&s) ^ ((uint64_t)epoch * 0xd6e8feb86659fd93ull);
	g->nsect = nsect;
	g->hotn = nsect / 16;
	if (g->hotn < 16)
		g->hotn = 16;
	if (g->hotn > nsect)
		g->hotn = nsect;
	g->hot0 = rnd(g, nsect - g->hotn + 1);
	g->idx = 0;
	g->next_flush = 3 + rnd(g, 10);
}

static void gen_next(struct pcw_gen *g, struct pcw_op *op)
{
	uint64_t r;

	if (g->idx++ == g->next_flush) {
		g->next_flush = g->idx + 2 + rnd(g, 10);
		op->type = OP_FLUSH;
		op->lba = 0;
		op->len = 0;
		return;
	}
	r = rnd(g, 100);
	if (r < 58)
		op->type = OP_WRITE;
	else if (r < 73)
		op->type = OP_FUA;
	else if (r < 86)
		op->type = OP_DISCARD;
	else
		op->type = OP_ZERO;
	op->len = 1 + rnd(g, PCW_MAX_LEN);
	if (op->len > g->nsect)
		op->len = g->nsect;
	if (op->type <= OP_FUA && rnd(g, 100) < 60) {
		op->lba = g->hot0 + rnd(g, g->hotn);
		if (op->lba + op->len > g->nsect)
			op->lba = g->nsect - op->len;
	} else {
		op->lba = rnd(g, g->nsect - op->len + 1);
	}
}

static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t c, i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc32_buf(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

/*
 * Sector layout (little endian): le64 magic, le64 lba, le64 seed,
 * le32 epoch, le32 op, le32 crc32 (of the sector with this field zero),
 * le32 zero, then pattern words derived from (lba, seed, epoch, op).
 */
struct pcw_ver {
	uint64_t lba;
	uint64_t seed;
	uint32_t epoch;
	uint32_t op;
};

static void put64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static void pattern(unsigned char *buf, const struct pcw_ver *v)
{
	uint64_t s = v->lba ^ (v->seed * 0x2545f4914f6cdd1dull) ^
		     ((uint64_t)v->epoch << 40) ^ ((uint64_t)v->op << 8);
	unsigned int off;

	for (off = PCW_HDR; off < PCW_SECT; off += 8)
		put64(buf + off, splitmix64(&s));
}

static void fill_sector(unsigned char *buf, const struct pcw_ver *v)
{
	put64(buf, PCW_MAGIC);
	put64(buf + 8, v->lba);
	put64(buf + 16, v->seed);
	put32(buf + 24, v->epoch);
	put32(buf + 28, v->op);
	put32(buf + 32, 0);
	put32(buf + 36, 0);
	pattern(buf, v);
	put32(buf + 32, crc32_buf(buf, PCW_SECT));
}

enum sect_kind { SECT_ZERO, SECT_VALID, SECT_GARBAGE };

static enum sect_kind parse_sector(const unsigned char *buf,
				   struct pcw_ver *v)
{
	static unsigned char tmp[PCW_SECT];
	unsigned int i;

	if (get64(buf) != PCW_MAGIC) {
		for (i = 0; i < PCW_SECT; i++)
			if (buf[i])
				return SECT_GARBAGE;
		return SECT_ZERO;
	}
	v->lba = get64(buf + 8);
	v->seed = get64(buf + 16);
	v->epoch = get32(buf + 24);
	v->op = get32(buf + 28);
	memcpy(tmp, buf, PCW_SECT);
	put32(tmp + 32, 0);
	if (crc32_buf(tmp, PCW_SECT) != get32(buf + 32) || get32(buf + 36))
		return SECT_GARBAGE;
	pattern(tmp, v);
	if (memcmp(tmp + PCW_HDR, buf + PCW_HDR, PCW_SECT - PCW_HDR))
		return SECT_GARBAGE;
	return SECT_VALID;
}

/* ------------------------------------------------------------- options */

struct pcw_opts {
	const char *dev;
	uint64_t seed;
	int have_seed;
	uint32_t epoch;
	int have_epoch;
	uint64_t ops;		/* 0: until an error */
	uint64_t sectors;	/* 0: the whole device */
	int64_t stop_at;	/* -1: never */
	const char *log;
	const char *epochs;
	const char **logs;
	int nlogs;
	int quiet;
};

static uint64_t parse_u64(const char *s, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		die(EXIT_PCW_USAGE, "bad %s '%s': expected an unsigned number",
		    what, s);
	return v;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: %s write DEV --seed S --epoch E [--ops N] [--sectors M] [--log FILE] [--stop-at OP]\n"
		"       %s verify DEV --seed S --epochs \"E:N:K ...\" [--sectors M] [--quiet]\n"
		"       %s verify DEV --log FILE... [--seed S] [--sectors M] [--quiet]\n"
		"       %s ops --seed S --epoch E --ops N --sectors M\n",
		prog, prog, prog, prog);
}

static void parse_opts(int argc, char **argv, struct pcw_opts *o, int need_dev)
{
	int i = 2;

	memset(o, 0, sizeof(*o));
	o->stop_at = -1;
	o->logs = calloc(argc, sizeof(*o->logs));
	if (!o->logs)
		die(EXIT_PCW_SETUP, "out of memory");
	if (need_dev) {
		if (argc < 3 || argv[2][0] == '-') {
			print_usage(stderr);
			exit(EXIT_PCW_USAGE);
		}
		o->dev = argv[2];
		i = 3;
	}
	for (; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--quiet")) {
			o->quiet = 1;
			continue;
		}
		if (!strcmp(a, "--log") && !strcmp(argv[1], "verify")) {
			while (i + 1 < argc && argv[i + 1][0] != '-')
				o->logs[o->nlogs++] = argv[++i];
			if (!o->nlogs)
				die(EXIT_PCW_USAGE, "--log needs a file");
			continue;
		}
		if (!val)
			die(EXIT_PCW_USAGE, "%s needs a value", a);
		i++;
		if (!strcmp(a, "--seed")) {
			o->seed = parse_u64(val, "seed");
			o->have_seed = 1;
		} else if (!strcmp(a, "--epoch")) {
			uint64_t e = parse_u64(val, "epoch");

			if (e > UINT32_MAX - 1)
				die(EXIT_PCW_USAGE, "epoch %s too large", val);
			o->epoch = e;
			o->have_epoch = 1;
		} else if (!strcmp(a, "--ops")) {
			o->ops = parse_u64(val, "op count");
			if (o->ops >= UINT32_MAX)
				die(EXIT_PCW_USAGE, "--ops %s too large", val);
		} else if (!strcmp(a, "--sectors")) {
			o->sectors = parse_u64(val, "sector count");
			if (!o->sectors)
				die(EXIT_PCW_USAGE, "--sectors must be at least 1");
		} else if (!strcmp(a, "--stop-at")) {
			o->stop_at = parse_u64(val, "stop-at op");
		} else if (!strcmp(a, "--log")) {
			o->log = val;
		} else if (!strcmp(a, "--epochs")) {
			o->epochs = val;
		} else {
			print_usage(stderr);
			die(EXIT_PCW_USAGE, "unknown option '%s'", a);
		}
	}
}

/* ------------------------------------------------------------- devices */

struct pcw_dev {
	int fd;
	int fua_fd;
	int is_blk;
	uint64_t nsect;		/* sectors of the device */
};

static void dev_open(struct pcw_dev *d, const char *path, int writable)
{
	int mode = writable ? O_RDWR : O_RDONLY;
	struct stat st;
	uint64_t bytes;

	d->fd = open(path, mode | O_DIRECT | O_CLOEXEC);
	if (d->fd < 0 && errno == EINVAL) {
		/* a file system without O_DIRECT (tmpfs before 6.6) */
		d->fd = open(path, mode | O_CLOEXEC);
		if (d->fd >= 0)
			fprintf(stderr, "%s: %s: no O_DIRECT here, using buffered I/O\n",
				prog, path);
	}
	if (d->fd < 0)
		die(EXIT_PCW_SETUP, "cannot open %s: %s", path, strerror(errno));
	if (fstat(d->fd, &st))
		die(EXIT_PCW_SETUP, "cannot stat %s: %s", path, strerror(errno));
	d->is_blk = S_ISBLK(st.st_mode);
	if (d->is_blk) {
		if (ioctl(d->fd, BLKGETSIZE64, &bytes))
			die(EXIT_PCW_SETUP, "BLKGETSIZE64 on %s: %s", path,
			    strerror(errno));
	} else if (S_ISREG(st.st_mode)) {
		bytes = st.st_size;
	} else {
		die(EXIT_PCW_SETUP, "%s is neither a block device nor a regular file",
		    path);
	}
	d->nsect = bytes / PCW_SECT;
	d->fua_fd = -1;
	if (!writable)
		return;
	d->fua_fd = open(path, O_RDWR | O_DIRECT | O_DSYNC | O_CLOEXEC);
	if (d->fua_fd < 0 && errno == EINVAL)
		d->fua_fd = open(path, O_RDWR | O_DSYNC | O_CLOEXEC);
	if (d->fua_fd < 0)
		die(EXIT_PCW_SETUP, "cannot open %s with O_DSYNC: %s", path,
		    strerror(errno));
}

static uint64_t dev_range(const struct pcw_dev *d, const struct pcw_opts *o)
{
	if (!d->nsect)
		die(EXIT_PCW_SETUP, "%s is smaller than one 4 KiB sector", o->dev);
	if (!o->sectors)
		return d->nsect;
	if (o->sectors > d->nsect)
		die(EXIT_PCW_SETUP, "--sectors %llu: %s has only %llu sectors",
		    (unsigned long long)o->sectors, o->dev,
		    (unsigned long long)d->nsect);
	return o->sectors;
}

/* ------------------------------------------------------------- writer */

static int log_fd = -1;

static void report(uint64_t seed, uint32_t epoch, uint64_t flushed,
		   int64_t fua)
{
	char line[128];
	int n;

	n = snprintf(line, sizeof(line), "@@LNVM PCW %llu %u flushed %llu fua %lld\n",
		     (unsigned long long)seed, epoch,
		     (unsigned long long)flushed, (long long)fua);
	fputs(line, stdout);
	fflush(stdout);
	if (log_fd < 0)
		return;
	if (write(log_fd, line, n) != n)
		die(EXIT_PCW_SETUP, "cannot append to the log: %s", strerror(errno));
	/* tmpfs and pipes have nothing to sync */
	if (fsync(log_fd) && errno != EINVAL && errno != EROFS)
		die(EXIT_PCW_SETUP, "cannot fsync the log: %s", strerror(errno));
}

/* An epoch runs once: a second run would make its log lines ambiguous. */
static void log_check_new(const char *path, uint64_t seed, uint32_t epoch)
{
	unsigned long long s;
	char line[512];
	unsigned int e;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "@@LNVM PCW ");

		if (p && sscanf(p, "@@LNVM PCW %llu %u ", &s, &e) == 2 &&
		    s == seed && e == epoch)
			die(EXIT_PCW_USAGE, "%s already has epoch %u of seed %llu (one run each)",
			    path, epoch, s);
	}
	fclose(f);
}

static int do_unmap(struct pcw_dev *d, const struct pcw_op *op)
{
	uint64_t range[2] = { op->lba * PCW_SECT, (uint64_t)op->len * PCW_SECT };
	int mode;

	if (d->is_blk)
		return ioctl(d->fd, op->type == OP_DISCARD ? BLKDISCARD : BLKZEROOUT,
			     range);
	mode = FALLOC_FL_KEEP_SIZE |
	       (op->type == OP_DISCARD ? FALLOC_FL_PUNCH_HOLE : FALLOC_FL_ZERO_RANGE);
	if (fallocate(d->fd, mode, range[0], range[1]) && errno == EOPNOTSUPP)
		return fallocate(d->fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE,
				 range[0], range[1]);
	return 0;
}

static int cmd_write(int argc, char **argv)
{
	struct pcw_opts o;
	struct pcw_dev d;
	struct pcw_gen g;
	struct pcw_op op;
	unsigned char *buf;
	int64_t fua = -1;
	uint64_t nsect, i, flushed = 0;
	uint32_t k, len;
	ssize_t n;

	parse_opts(argc, argv, &o, 1);
	if (!o.have_seed || !o.have_epoch)
		die(EXIT_PCW_USAGE, "write needs --seed and --epoch");
	if (o.epochs || o.nlogs)
		die(EXIT_PCW_USAGE, "--epochs is an option of verify");
	dev_open(&d, o.dev, 1);
	nsect = dev_range(&d, &o);
	if (o.log) {
		log_check_new(o.log, o.seed, o.epoch);
		log_fd = open(o.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (log_fd < 0)
			die(EXIT_PCW_SETUP, "cannot open log %s: %s", o.log,
			    strerror(errno));
	}
	if (posix_memalign((void **)&buf, PCW_SECT, PCW_MAX_LEN * PCW_SECT))
		die(EXIT_PCW_SETUP, "out of memory");

	gen_init(&g, o.seed, o.epoch, nsect);
	report(o.seed, o.epoch, 0, -1);
	for (i = 0; !o.ops || i < o.ops; i++) {
		int stop = o.stop_at >= 0 && i == (uint64_t)o.stop_at;
		int fd = d.fd, ret = 0;

		gen_next(&g, &op);
		if (stop && op.type > OP_FUA)
			break;
		switch (op.type) {
		case OP_FLUSH:
			ret = fdatasync(d.fd);
			break;
		case OP_DISCARD:
		case OP_ZERO:
			ret = do_unmap(&d, &op);
			break;
		case OP_WRITE:
		case OP_FUA:
			if (op.type == OP_FUA)
				fd = d.fua_fd;
			len = stop ? (op.len + 1) / 2 : op.len;
			for (k = 0; k < len; k++) {
				struct pcw_ver v = {
					.lba = op.lba + k, .seed = o.seed,
					.epoch = o.epoch, .op = i,
				};

				fill_sector(buf + (size_t)k * PCW_SECT, &v);
			}
			n = pwrite(fd, buf, (size_t)len * PCW_SECT,
				   op.lba * PCW_SECT);
			if (n != (ssize_t)len * PCW_SECT) {
				if (n >= 0)
					errno = EIO;
				ret = -1;
			}
			break;
		}
		if (stop)
			break;
		if (ret) {
			fprintf(stderr, "%s: op %llu (%s lba %llu count %u) failed: %s\n",
				prog, (unsigned long long)i, op_names[op.type],
				(unsigned long long)op.lba, op.len, strerror(errno));
			printf("@@LNVM PCW %llu %u failed %llu\n",
			       (unsigned long long)o.seed, o.epoch,
			       (unsigned long long)i);
			fflush(stdout);
			return EXIT_PCW_IO;
		}
		if (op.type == OP_FLUSH) {
			flushed = i + 1;
			report(o.seed, o.epoch, flushed, fua);
		} else if (op.type == OP_FUA) {
			fua = i;
			report(o.seed, o.epoch, flushed, fua);
		}
	}
	if (o.stop_at >= 0 && i == (uint64_t)o.stop_at) {
		fprintf(stderr, "%s: stopped at op %llu (simulated cut)\n", prog,
			(unsigned long long)i);
		return EXIT_PCW_STOPPED;
	}
	if (fdatasync(d.fd)) {
		fprintf(stderr, "%s: final flush after %llu ops failed: %s\n", prog,
			(unsigned long long)i, strerror(errno));
		return EXIT_PCW_IO;
	}
	report(o.seed, o.epoch, i, fua);
	return EXIT_PCW_OK;
}

/* ------------------------------------------------------------- verifier */

struct pcw_epoch {
	uint32_t epoch;
	uint64_t flushed;	/* N */
	int64_t fua;		/* K */
	uint32_t nops;		/* ops that may have run: 0..nops-1 */
	struct pcw_op *ops;
};

#define PCW_ZERO_EP	UINT32_MAX

/* A state a sector may hold: zeros, or the data of op @op of epochs[@ep]. */
struct pcw_state {
	uint32_t ep;
	uint32_t op;
};

struct pcw_allowed {
	uint32_t n;
	uint32_t cap;
	struct pcw_state *s;
};

struct pcw_verify {
	uint64_t seed;
	uint64_t nsect;
	struct pcw_epoch *ep;
	uint32_t nep;
	struct pcw_allowed *allowed;	/* one per sector */
	unsigned char *durable;		/* ever durably written, per sector */
};

static void add_epoch(struct pcw_verify *v, uint32_t epoch, uint64_t n,
		      int64_t k, int merge)
{
	struct pcw_epoch *e;
	uint32_t i;

	for (i = 0; i < v->nep; i++) {
		if (v->ep[i].epoch != epoch)
			continue;
		if (!merge)
			die(EXIT_PCW_USAGE, "epoch %u given twice", epoch);
		if (n > v->ep[i].flushed)
			v->ep[i].flushed = n;
		if (k > v->ep[i].fua)
			v->ep[i].fua = k;
		return;
	}
	e = realloc(v->ep, (v->nep + 1) * sizeof(*v->ep));
	if (!e)
		die(EXIT_PCW_SETUP, "out of memory");
	v->ep = e;
	e = &v->ep[v->nep++];
	memset(e, 0, sizeof(*e));
	e->epoch = epoch;
	e->flushed = n;
	e->fua = k;
}

static void parse_epochs(struct pcw_verify *v, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		die(EXIT_PCW_SETUP, "out of memory");
	for (tok = strtok_r(copy, " ,\t\n", &save); tok;
	     tok = strtok_r(NULL, " ,\t\n", &save)) {
		unsigned long long e, n;
		long long k;
		int end = 0;

		if (sscanf(tok, "%llu:%llu:%lld%n", &e, &n, &k, &end) != 3 ||
		    tok[end] || k < -1 || e >= UINT32_MAX || n >= UINT32_MAX ||
		    k >= UINT32_MAX)
			die(EXIT_PCW_USAGE, "bad epoch '%s' in --epochs: not E:N:K",
			    tok);
		add_epoch(v, e, n, k, 0);
	}
	free(copy);
}

static void parse_log(struct pcw_verify *v, struct pcw_opts *o, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int lineno = 0;

	if (!f)
		die(EXIT_PCW_SETUP, "cannot open log %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, n;
		unsigned int e;
		long long k;
		char *p = strstr(line, "@@LNVM PCW ");

		lineno++;
		if (!p)
			continue;
		if (sscanf(p, "@@LNVM PCW %llu %u flushed %llu fua %lld", &s, &e,
			   &n, &k) != 4) {
			if (strstr(p, " failed "))
				continue;
			die(EXIT_PCW_USAGE, "%s:%d: cannot parse '%s'", path, lineno, p);
		}
		if (!o->have_seed) {
			o->seed = s;
			o->have_seed = 1;
		} else if (s != o->seed) {
			die(EXIT_PCW_USAGE, "%s:%d: a line of seed %llu, expected seed %llu",
			    path, lineno, s, (unsigned long long)o->seed);
		}
		if (k < -1 || e >= UINT32_MAX || n >= UINT32_MAX || k >= UINT32_MAX)
			die(EXIT_PCW_USAGE, "%s:%d: field out of range", path, lineno);
		add_epoch(v, e, n, k, 1);
	}
	fclose(f);
}

static int durable_op(const struct pcw_epoch *e, uint32_t i)
{
	return i < e->flushed || (e->ops[i].type == OP_FUA && (int64_t)i <= e->fua);
}

/*
 * The ops of an epoch that may have run: everything up to the last point
 * the log acknowledges (max(N - 1, K)), then up to and including the second
 * flush after it (a flush whose line was lost, and the next one).
 */
static void replay_ops(struct pcw_verify *v, struct pcw_epoch *e)
{
	int64_t last = (int64_t)e->flushed - 1;
	uint32_t cap = 64, flushes = 0;
	struct pcw_gen g;

	if (e->fua > last)
		last = e->fua;
	gen_init(&g, v->seed, e->epoch, v->nsect);
	e->ops = malloc(cap * sizeof(*e->ops));
	if (!e->ops)
		die(EXIT_PCW_SETUP, "out of memory");
	for (e->nops = 0; flushes < 2; e->nops++) {
		if (e->nops == cap) {
			cap *= 2;
			e->ops = realloc(e->ops, cap * sizeof(*e->ops));
			if (!e->ops)
				die(EXIT_PCW_SETUP, "out of memory");
		}
		gen_next(&g, &e->ops[e->nops]);
		if ((int64_t)e->nops > last && e->ops[e->nops].type == OP_FLUSH)
			flushes++;
	}
}

static void allow(struct pcw_allowed *a, uint32_t ep, uint32_t op)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (a->s[i].ep == ep && a->s[i].op == op)
			return;
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 4;
		a->s = realloc(a->s, a->cap * sizeof(*a->s));
		if (!a->s)
			die(EXIT_PCW_SETUP, "out of memory");
	}
	a->s[a->n].ep = ep;
	a->s[a->n].op = op;
	a->n++;
}

/*
 * Apply the ops of epoch @ei in order: a durable op leaves exactly its
 * state allowed; any other op adds its state to what is allowed.
 */
static void apply_epoch(struct pcw_verify *v, uint32_t ei)
{
	struct pcw_epoch *e = &v->ep[ei];
	uint32_t i, k;

	for (i = 0; i < e->nops; i++) {
		const struct pcw_op *op = &e->ops[i];
		int durable = durable_op(e, i);
		uint32_t sep = op->type <= OP_FUA ? ei : PCW_ZERO_EP;
		uint32_t sop = op->type <= OP_FUA ? i : 0;

		if (op->type == OP_FLUSH)
			continue;
		for (k = 0; k < op->len; k++) {
			uint64_t lba = op->lba + k;
			struct pcw_allowed *a = &v->allowed[lba];

			if (durable) {
				a->n = 0;
				v->durable[lba] = 1;
			}
			allow(a, sep, sop);
		}
	}
}

static int state_matches(const struct pcw_verify *v, const struct pcw_state *s,
			 enum sect_kind kind, const struct pcw_ver *ver,
			 uint64_t lba)
{
	if (s->ep == PCW_ZERO_EP)
		return kind == SECT_ZERO;
	return kind == SECT_VALID && ver->lba == lba && ver->seed == v->seed &&
	       ver->epoch == v->ep[s->ep].epoch && ver->op == s->op;
}

/* Was this version of @lba written by an op that may have run? */
static int ever_written(const struct pcw_verify *v, const struct pcw_ver *ver,
			uint64_t lba)
{
	const struct pcw_op *op;
	uint32_t i;

	if (ver->seed != v->seed)
		return 0;
	for (i = 0; i < v->nep; i++) {
		if (v->ep[i].epoch != ver->epoch)
			continue;
		if (ver->op >= v->ep[i].nops)
			return 0;
		op = &v->ep[i].ops[ver->op];
		return op->type <= OP_FUA && lba >= op->lba &&
		       lba < op->lba + op->len;
	}
	return 0;
}

static void describe(char *out, size_t len, enum sect_kind kind,
		     const struct pcw_ver *ver)
{
	switch (kind) {
	case SECT_ZERO:
		snprintf(out, len, "zeros");
		break;
	case SECT_VALID:
		snprintf(out, len, "lba %llu seed %llu epoch %u op %u",
			 (unsigned long long)ver->lba,
			 (unsigned long long)ver->seed, ver->epoch, ver->op);
		break;
	default:
		snprintf(out, len, "garbage");
		break;
	}
}

static void describe_allowed(const struct pcw_verify *v,
			     const struct pcw_allowed *a, char *out, size_t len)
{
	size_t off = 0;
	uint32_t i;

	out[0] = 0;
	for (i = 0; i < a->n && i < 6 && off < len; i++) {
		const struct pcw_state *s = &a->s[i];

		if (s->ep == PCW_ZERO_EP)
			off += snprintf(out + off, len - off, "%szeros",
					i ? ", " : "");
		else
			off += snprintf(out + off, len - off, "%sepoch %u op %u",
					i ? ", " : "", v->ep[s->ep].epoch, s->op);
	}
	if (i < a->n && off < len)
		snprintf(out + off, len - off, ", ... (%u states)", a->n);
}

struct pcw_counts {
	uint64_t checked;
	uint64_t lost;
	uint64_t foreign;
	uint64_t garbage;
};

static void check_sector(const struct pcw_verify *v, uint64_t lba,
			 const unsigned char *buf, int read_error,
			 struct pcw_counts *c, int quiet)
{
	const struct pcw_allowed *a = &v->allowed[lba];
	enum sect_kind kind = SECT_GARBAGE;
	struct pcw_ver ver = { 0 };
	char got[96], want[256];
	const char *what;
	uint64_t *count;
	uint32_t i;

	c->checked++;
	if (!read_error) {
		kind = parse_sector(buf, &ver);
		if (!v->durable[lba] &&
		    (kind == SECT_ZERO || (kind == SECT_VALID && ver.lba == lba)))
			return;
		for (i = 0; i < a->n; i++)
			if (state_matches(v, &a->s[i], kind, &ver, lba))
				return;
	}
	if (read_error) {
		what = "garbage";
		count = &c->garbage;
		snprintf(got, sizeof(got), "a read error");
	} else if (kind == SECT_VALID && ver.lba != lba) {
		what = "foreign";
		count = &c->foreign;
		describe(got, sizeof(got), kind, &ver);
	} else if (kind == SECT_ZERO ||
		   (kind == SECT_VALID && ever_written(v, &ver, lba))) {
		what = "flushed sector lost";
		count = &c->lost;
		describe(got, sizeof(got), kind, &ver);
	} else {
		what = "garbage";
		count = &c->garbage;
		describe(got, sizeof(got), kind, &ver);
		if (kind == SECT_VALID)
			strncat(got, " (never written there)",
				sizeof(got) - strlen(got) - 1);
	}
	if (!quiet && *count < PCW_SHOW) {
		describe_allowed(v, a, want, sizeof(want));
		printf("lba %llu: %s: reads %s; allowed: %s\n",
		       (unsigned long long)lba, what, got,
		       v->durable[lba] ? want : "zeros or any version of this lba");
	}
	(*count)++;
}

static int cmd_verify(int argc, char **argv)
{
	struct pcw_counts c = { 0 };
	struct pcw_verify v;
	struct pcw_opts o;
	struct pcw_dev d;
	unsigned char *buf;
	uint64_t lba, nops = 0;
	uint32_t i, k, n;
	int j;

	parse_opts(argc, argv, &o, 1);
	if (o.have_epoch || o.log || o.ops || o.stop_at >= 0)
		die(EXIT_PCW_USAGE, "verify takes --seed, --epochs or --log, --sectors, --quiet");
	if (!o.epochs == !o.nlogs)
		die(EXIT_PCW_USAGE, "verify needs either --epochs or --log");
	memset(&v, 0, sizeof(v));
	if (o.epochs) {
		if (!o.have_seed)
			die(EXIT_PCW_USAGE, "--epochs needs --seed");
		parse_epochs(&v, o.epochs);
	}
	for (j = 0; j < o.nlogs; j++)
		parse_log(&v, &o, o.logs[j]);
	if (!v.nep)
		die(EXIT_PCW_USAGE, "no epochs to verify (no @@LNVM PCW lines in the log?)");
	v.seed = o.seed;

	dev_open(&d, o.dev, 0);
	v.nsect = dev_range(&d, &o);
	v.allowed = calloc(v.nsect, sizeof(*v.allowed));
	v.durable = calloc(v.nsect, 1);
	if (!v.allowed || !v.durable)
		die(EXIT_PCW_SETUP, "out of memory for %llu sectors",
		    (unsigned long long)v.nsect);
	for (i = 0; i < v.nep; i++) {
		replay_ops(&v, &v.ep[i]);
		apply_epoch(&v, i);
		nops += v.ep[i].nops;
	}
	if (!o.quiet) {
		printf("pcw: seed %llu, %u epochs, %llu ops replayed:",
		       (unsigned long long)v.seed, v.nep, (unsigned long long)nops);
		for (i = 0; i < v.nep; i++)
			printf(" %u:%llu:%lld", v.ep[i].epoch,
			       (unsigned long long)v.ep[i].flushed,
			       (long long)v.ep[i].fua);
		printf("\n");
	}

	if (posix_memalign((void **)&buf, PCW_SECT, PCW_CHUNK * PCW_SECT))
		die(EXIT_PCW_SETUP, "out of memory");
	for (lba = 0; lba < v.nsect; lba += n) {
		ssize_t r;

		n = v.nsect - lba < PCW_CHUNK ? v.nsect - lba : PCW_CHUNK;
		r = pread(d.fd, buf, (size_t)n * PCW_SECT, lba * PCW_SECT);
		if (r == (ssize_t)n * PCW_SECT) {
			for (k = 0; k < n; k++)
				check_sector(&v, lba + k, buf + (size_t)k * PCW_SECT,
					     0, &c, o.quiet);
			continue;
		}
		/* find the sectors that do not read, one by one */
		for (k = 0; k < n; k++) {
			r = pread(d.fd, buf, PCW_SECT, (lba + k) * PCW_SECT);
			if (r != PCW_SECT && !o.quiet && c.garbage < PCW_SHOW)
				fprintf(stderr, "%s: read of lba %llu: %s\n", prog,
					(unsigned long long)(lba + k),
					r < 0 ? strerror(errno) : "short read");
			check_sector(&v, lba + k, buf, r != PCW_SECT, &c, o.quiet);
		}
	}
	if (!o.quiet) {
		if (c.lost > PCW_SHOW || c.foreign > PCW_SHOW || c.garbage > PCW_SHOW)
			printf("(at most %u sectors of each kind listed)\n", PCW_SHOW);
	}
	printf("pcw: %llu sectors, %llu flushed sectors lost, %llu foreign, %llu garbage\n",
	       (unsigned long long)c.checked, (unsigned long long)c.lost,
	       (unsigned long long)c.foreign, (unsigned long long)c.garbage);
	return c.lost || c.foreign || c.garbage ? EXIT_PCW_BAD : EXIT_PCW_OK;
}

static int cmd_ops(int argc, char **argv)
{
	struct pcw_opts o;
	struct pcw_gen g;
	struct pcw_op op;
	uint64_t i;

	parse_opts(argc, argv, &o, 0);
	if (!o.have_seed || !o.have_epoch || !o.ops || !o.sectors)
		die(EXIT_PCW_USAGE, "ops needs --seed, --epoch, --ops and --sectors");
	gen_init(&g, o.seed, o.epoch, o.sectors);
	for (i = 0; i < o.ops; i++) {
		gen_next(&g, &op);
		printf("%llu %s %llu %u\n", (unsigned long long)i,
		       op_names[op.type], (unsigned long long)op.lba, op.len);
	}
	return EXIT_PCW_OK;
}

int main(int argc, char **argv)
{
	crc_init();
	if (argc < 2) {
		print_usage(stderr);
		return EXIT_PCW_USAGE;
	}
	if (!strcmp(argv[1], "write"))
		return cmd_write(argc, argv);
	if (!strcmp(argv[1], "verify"))
		return cmd_verify(argc, argv);
	if (!strcmp(argv[1], "ops"))
		return cmd_ops(argc, argv);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_usage(stdout);
		return EXIT_PCW_OK;
	}
	print_usage(stderr);
	return EXIT_PCW_USAGE;
}
