// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_failnth - systematic allocation-failure sweeps over the LightNVM
 * control paths with /proc/thread-self/fail-nth: for n = 1, 2, ... (or
 * every STEP-th n, from FIRST on with STEP@FIRST) the n-th fault-injection
 * point the operation reaches in this thread fails (failslab; the caller
 * sets failslab's ignore-gfp-wait to N), until an operation completes without consuming the counter. Each
 * injected failure must end in an errno (or in success: a path that
 * retries or does without), and the state after it must be clean: no
 * half-created device or target, the device still usable. Prints one line
 * per sweep and "FAIL ..." lines; exits non-zero on any failure.
 *
 *   nvm_failnth poweron CFSDIR STEP ATTR=VAL...
 *	mkdir CFSDIR (an nvm_mem configfs instance), set ATTRs, power on
 *	under injection; power off and rmdir; every iteration starts from a
 *	new instance. CFSDIR must not exist; gennvm loaded. The first
 *	power-on that succeeds with the device unbound (the injected failure
 *	hit gennvm's bind) runs the init sweep on it.
 *   nvm_failnth init DEV STEP
 *	NVM_DEV_INIT DEV gennvm under injection; DEV registered, unbound,
 *	gennvm loaded. DEV is bound at the end.
 *   nvm_failnth create DEV TGT B E STEP
 *	NVM_DEV_CREATE of rrpc TGT on LUNs B..E under injection (the first
 *	iteration with the factory flag, the others recovering what the
 *	earlier ones left), removed again after each success.
 *   nvm_failnth remove DEV TGT B E STEP
 *	NVM_DEV_REMOVE of TGT under injection; a failed remove must leave the
 *	target working; created again after each successful remove.
 *   nvm_failnth io DEV TGT B E STEP
 *	a fresh target per iteration; its first 4 KiB O_DIRECT write, then a
 *	read of it, under injection; data written must read back.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/lightnvm.h>

#define MAX_ITER	20000

static int ctl = -1;
static int failures;
static int fnth = -1;
/* the first n of a sweep: 1, or FIRST of a STEP@FIRST argument */
static unsigned int first_n = 1;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failures++;
}

static void die(const char *what)
{
	printf("FAIL %s: %s\n", what, strerror(errno));
	exit(2);
}

/* arm fail-nth for this thread: the n-th injection point from now fails */
static void arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fnth, buf, len, 0) != len)
		die("write fail-nth");
}

/* disarm; returns 1 if the armed failure was injected, 0 if unconsumed */
static int disarm(void)
{
	char buf[16] = "";
	ssize_t r = pread(fnth, buf, sizeof(buf) - 1, 0);
	int left;

	if (r <= 0)
		die("read fail-nth");
	left = atoi(buf);
	if (pwrite(fnth, "0", 1, 0) != 1)
		die("write fail-nth");
	return left == 0;
}

struct tally {
	const char *name;
	struct timespec start;
	unsigned int iters, injected, errors, ok_anyway;
	int errnos[8];
	int nr_errnos;
	unsigned int last_n;
};

static void tally_err(struct tally *t, int err)
{
	int i;

	t->errors++;
	for (i = 0; i < t->nr_errnos; i++)
		if (t->errnos[i] == err)
			return;
	if (t->nr_errnos < 8)
		t->errnos[t->nr_errnos++] = err;
}

static void tally_print(const struct tally *t)
{
	struct timespec now;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("%s: %u iterations (last n %u) in %ld s, %u failures injected: %u errors, %u succeeded anyway; errnos",
	       t->name, t->iters, t->last_n, (long)(now.tv_sec - t->start.tv_sec),
	       t->injected, t->errors, t->ok_anyway);
	if (!t->nr_errnos)
		printf(" none");
	for (i = 0; i < t->nr_errnos; i++)
		printf(" %s", strerrorname_np(t->errnos[i]) ?: "?");
	putchar('\n');
	fflush(stdout);
}

static int exists(const char *fmt, const char *arg)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), fmt, arg);
	return stat(path, &st) == 0;
}

static int write_file(const char *dir, const char *name, const char *val)
{
	char path[512];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int do_create(const char *dev, const char *tgt, unsigned int b,
		     unsigned int e, unsigned int flags)
{
	struct nvm_ioctl_create c;

	memset(&c, 0, sizeof(c));
	strncpy(c.dev, dev, sizeof(c.dev) - 1);
	strncpy(c.tgttype, "rrpc", sizeof(c.tgttype) - 1);
	strncpy(c.tgtname, tgt, sizeof(c.tgtname) - 1);
	c.flags = flags;
	c.conf.type = NVM_CONFIG_TYPE_SIMPLE;
	c.conf.s.lun_begin = b;
	c.conf.s.lun_end = e;
	return ioctl(ctl, NVM_DEV_CREATE, &c) ? -errno : 0;
}

static int do_remove(const char *tgt)
{
	struct nvm_ioctl_remove r;

	memset(&r, 0, sizeof(r));
	strncpy(r.tgtname, tgt, sizeof(r.tgtname) - 1);
	return ioctl(ctl, NVM_DEV_REMOVE, &r) ? -errno : 0;
}

/* the target's disk can be written and read back */
static int tgt_usable(const char *tgt, unsigned int seed)
{
	char path[64];
	void *w, *r;
	int fd, ok = 0;

	snprintf(path, sizeof(path), "/dev/%s", tgt);
	if (posix_memalign(&w, 4096, 4096) || posix_memalign(&r, 4096, 4096))
		die("posix_memalign");
	memset(w, seed & 0xff, 4096);
	memcpy(w, &seed, sizeof(seed));
	/* udev-less initramfs: the node may appear a moment later */
	for (int i = 0; i < 50 && access(path, F_OK); i++)
		usleep(100000);
	fd = open(path, O_RDWR | O_DIRECT);
	if (fd >= 0 && pwrite(fd, w, 4096, 8192) == 4096 &&
	    pread(fd, r, 4096, 8192) == 4096 && !memcmp(w, r, 4096))
		ok = 1;
	if (fd >= 0)
		close(fd);
	free(w);
	free(r);
	return ok;
}

static void sweep_init(const char *dev, unsigned int step);

/* what @dev is bound to: 1 if a media manager, 0 if "none" */
static int bound(const char *dev)
{
	char path[256], buf[32] = "";
	int fd, r;

	snprintf(path, sizeof(path), "/sys/class/lightnvm/%s/media_manager", dev);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return r > 0 && strncmp(buf, "none", 4);
}

static void sweep_poweron(const char *dir, unsigned int step, int argc,
			  char **argv)
{
	struct tally t = { .name = "power-on" };
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	unsigned int n;
	int i, ret, hit, init_done = 0;

	clock_gettime(CLOCK_MONOTONIC, &t.start);
	for (n = first_n; n < MAX_ITER; n += step) {
		if (mkdir(dir, 0755))
			die("mkdir instance");
		for (i = 0; i < argc; i++) {
			char *eq = strchr(argv[i], '=');

			if (!eq)
				die("ATTR=VAL");
			*eq = '\0';
			ret = write_file(dir, argv[i], eq + 1);
			*eq = '=';
			if (ret) {
				errno = -ret;
				die(argv[i]);
			}
		}
		arm(n);
		ret = write_file(dir, "power", "1");
		hit = disarm();
		t.iters++;
		t.last_n = n;
		t.injected += hit;
		if (ret) {
			if (!hit)
				fail("power-on n=%u failed (%s) with no failure injected",
				     n, strerror(-ret));
			tally_err(&t, -ret);
			if (exists("/sys/class/lightnvm/%s", name))
				fail("power-on n=%u failed but %s is registered",
				     n, name);
		} else {
			t.ok_anyway += hit;
			if (!exists("/sys/class/lightnvm/%s", name))
				fail("power-on n=%u succeeded but %s is not registered",
				     n, name);
			/* gennvm refused it: the device lnvm init is for */
			if (!bound(name) && !init_done) {
				sweep_init(name, step);
				init_done = 1;
				if (bound(name) != 1)
					fail("%s not bound after the init sweep",
					     name);
			}
			ret = write_file(dir, "power", "0");
			if (ret)
				fail("power-off after n=%u: %s", n,
				     strerror(-ret));
		}
		if (rmdir(dir))
			die("rmdir instance");
		if (!hit)
			break;
	}
	tally_print(&t);
}

static void sweep_init(const char *dev, unsigned int step)
{
	struct tally t = { .name = "init" };
	struct nvm_ioctl_dev_init in;
	unsigned int n;
	int ret, hit;

	memset(&in, 0, sizeof(in));
	strncpy(in.dev, dev, sizeof(in.dev) - 1);
	strncpy(in.mmtype, "gennvm", sizeof(in.mmtype) - 1);
	clock_gettime(CLOCK_MONOTONIC, &t.start);
	for (n = first_n; n < MAX_ITER; n += step) {
		arm(n);
		ret = ioctl(ctl, NVM_DEV_INIT, &in) ? -errno : 0;
		hit = disarm();
		t.iters++;
		t.last_n = n;
		t.injected += hit;
		if (ret) {
			if (!hit)
				fail("init n=%u failed (%s) with no failure injected",
				     n, strerror(-ret));
			tally_err(&t, -ret);
			continue;
		}
		t.ok_anyway += hit;
		break;
	}
	tally_print(&t);
}

static void sweep_create(const char *dev, const char *tgt, unsigned int b,
			 unsigned int e, unsigned int step)
{
	struct tally t = { .name = "create" };
	unsigned int n, flags = NVM_TARGET_FACTORY;
	int ret, hit;

	clock_gettime(CLOCK_MONOTONIC, &t.start);
	for (n = first_n; n < MAX_ITER; n += step) {
		arm(n);
		ret = do_create(dev, tgt, b, e, flags);
		hit = disarm();
		t.iters++;
		t.last_n = n;
		t.injected += hit;
		if (ret) {
			if (!hit)
				fail("create n=%u failed (%s) with no failure injected",
				     n, strerror(-ret));
			tally_err(&t, -ret);
			if (exists("/sys/block/%s", tgt))
				fail("create n=%u failed but /sys/block/%s exists",
				     n, tgt);
			continue;
		}
		t.ok_anyway += hit;
		flags = 0;
		if (!tgt_usable(tgt, n))
			fail("create n=%u: target not usable", n);
		ret = do_remove(tgt);
		if (ret) {
			fail("remove after create n=%u: %s", n, strerror(-ret));
			break;
		}
		if (!hit)
			break;
	}
	tally_print(&t);
}

static void sweep_remove(const char *dev, const char *tgt, unsigned int b,
			 unsigned int e, unsigned int step)
{
	struct tally t = { .name = "remove" };
	unsigned int n;
	int ret, hit, present = 0;

	clock_gettime(CLOCK_MONOTONIC, &t.start);
	for (n = first_n; n < MAX_ITER; n += step) {
		if (!present) {
			ret = do_create(dev, tgt, b, e, 0);
			if (ret) {
				fail("create before remove n=%u: %s", n,
				     strerror(-ret));
				break;
			}
			present = 1;
		}
		arm(n);
		ret = do_remove(tgt);
		hit = disarm();
		t.iters++;
		t.last_n = n;
		t.injected += hit;
		if (ret) {
			if (!hit)
				fail("remove n=%u failed (%s) with no failure injected",
				     n, strerror(-ret));
			tally_err(&t, -ret);
			if (!tgt_usable(tgt, n))
				fail("remove n=%u failed and left the target unusable",
				     n);
			continue;
		}
		t.ok_anyway += hit;
		present = 0;
		if (exists("/sys/block/%s", tgt))
			fail("remove n=%u succeeded but /sys/block/%s exists",
			     n, tgt);
		if (!hit)
			break;
	}
	if (present && do_remove(tgt))
		fail("final remove failed");
	tally_print(&t);
}

/*
 * One 4 KiB write (@expect NULL) or read of @fd at offset 0 with the n-th
 * allocation failing: an error must come from an injected failure, a
 * success is full and reads back @expect. *@done is set once a call runs
 * with nothing injected (the sweep has passed every allocation).
 */
static ssize_t inject_rw(struct tally *t, int fd, void *buf,
			 const void *expect, unsigned int n, int *done)
{
	const char *what = expect ? "read" : "write";
	ssize_t got;
	int ret, hit;

	arm(n);
	got = expect ? pread(fd, buf, 4096, 0) : pwrite(fd, buf, 4096, 0);
	ret = got < 0 ? -errno : 0;
	hit = disarm();
	t->iters++;
	t->last_n = n;
	t->injected += hit;
	if (ret) {
		tally_err(t, -ret);
		if (!hit)
			fail("%s n=%u failed (%s), nothing injected", what, n,
			     strerror(-ret));
		return got;
	}
	t->ok_anyway += hit;
	*done = !hit;
	if (got != 4096)
		fail("%s n=%u: short %s %zd", what, n, what, got);
	else if (expect && memcmp(expect, buf, 4096))
		fail("read n=%u: data differs", n);
	return got;
}

static void sweep_io(const char *dev, const char *tgt, unsigned int b,
		     unsigned int e, unsigned int step)
{
	struct tally tw = { .name = "first write" }, tr = { .name = "read" };
	char path[64];
	unsigned int n, seed;
	void *w, *r;
	int fd, ret, wdone = 0, rdone = 0;
	ssize_t got;

	if (posix_memalign(&w, 4096, 4096) || posix_memalign(&r, 4096, 4096))
		die("posix_memalign");
	snprintf(path, sizeof(path), "/dev/%s", tgt);
	clock_gettime(CLOCK_MONOTONIC, &tw.start);
	tr.start = tw.start;
	for (n = first_n; n < MAX_ITER && !(wdone && rdone); n += step) {
		ret = do_create(dev, tgt, b, e, NVM_TARGET_FACTORY);
		if (ret) {
			fail("create before I/O n=%u: %s", n, strerror(-ret));
			break;
		}
		for (int i = 0; i < 50 && access(path, F_OK); i++)
			usleep(100000);
		fd = open(path, O_RDWR | O_DIRECT);
		if (fd < 0)
			die("open target");
		seed = 0x5eed0000 + n;
		memset(w, n & 0xff, 4096);
		memcpy(w, &seed, sizeof(seed));

		got = 4096;
		if (!wdone)
			got = inject_rw(&tw, fd, w, NULL, n, &wdone);
		if (got != 4096 && pwrite(fd, w, 4096, 0) != 4096)
			fail("write n=%u after the injection: %s", n,
			     strerror(errno));
		if (!rdone)
			inject_rw(&tr, fd, r, w, n, &rdone);
		if (pread(fd, r, 4096, 0) != 4096 || memcmp(w, r, 4096))
			fail("read back n=%u after the injection", n);
		close(fd);
		ret = do_remove(tgt);
		if (ret) {
			fail("remove after I/O n=%u: %s", n, strerror(-ret));
			break;
		}
	}
	tally_print(&tw);
	tally_print(&tr);
	free(w);
	free(r);
}

/* STEP or STEP@FIRST: every STEP-th n from FIRST (default 1) on */
static unsigned int parse_step(const char *arg)
{
	char *end;
	unsigned int step = strtoul(arg, &end, 0);

	if (*end == '@')
		first_n = strtoul(end + 1, NULL, 0) ?: 1;
	return step ?: 1;
}

int main(int argc, char **argv)
{
	unsigned int step;

	setvbuf(stdout, NULL, _IOLBF, 0);
	fnth = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fnth < 0)
		die("open /proc/thread-self/fail-nth");
	ctl = open("/dev/lightnvm/control", O_RDWR);
	if (ctl < 0)
		die("open /dev/lightnvm/control");

	if (argc >= 4 && !strcmp(argv[1], "poweron")) {
		step = parse_step(argv[3]);
		sweep_poweron(argv[2], step, argc - 4, argv + 4);
	} else if (argc == 4 && !strcmp(argv[1], "init")) {
		step = parse_step(argv[3]);
		sweep_init(argv[2], step);
	} else if (argc == 7) {
		unsigned int b = strtoul(argv[4], NULL, 0);
		unsigned int e = strtoul(argv[5], NULL, 0);

		step = parse_step(argv[6]);
		if (!strcmp(argv[1], "create"))
			sweep_create(argv[2], argv[3], b, e, step);
		else if (!strcmp(argv[1], "remove"))
			sweep_remove(argv[2], argv[3], b, e, step);
		else if (!strcmp(argv[1], "io"))
			sweep_io(argv[2], argv[3], b, e, step);
		else
			goto usage;
	} else {
		goto usage;
	}
	return failures ? 1 : 0;
usage:
	fprintf(stderr, "usage: see the comment at the top of nvm_failnth.c\n");
	return 2;
}
