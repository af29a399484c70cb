// SPDX-License-Identifier: GPL-2.0
/*
 * lnvm - manage Open-Channel SSDs (LightNVM) through /dev/lightnvm/control.
 *
 * Speaks the historical LightNVM control ABI (include/uapi/linux/lightnvm.h),
 * with the subcommands of the original lnvm tool and of nvme-cli 1.x's
 * "nvme lnvm" plugin, plus "geometry", which reads the device's attributes
 * from /sys/class/lightnvm/<dev>/, and "status", which shows each target's
 * LUNs, space, write amplification, GC counters and errors from sysfs,
 * and vio-geometry, vio-erase, vio-write and vio-read, which use the
 * vector I/O ioctls of an open-channel namespace's block device.
 * Documented in lnvm(8) (tools/lightnvm/lnvm.8): keep the two in step.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/lightnvm.h>

#define SYSFS_CLASS "/sys/class/lightnvm"

static const char *prog = "lnvm";

static int open_ctl(void)
{
	int fd = open(NVM_CTRL_FILE, O_RDWR);

	if (fd < 0) {
		if (errno == ENOENT)
			fprintf(stderr, "%s: %s does not exist: load the core with 'modprobe lightnvm'\n",
				prog, NVM_CTRL_FILE);
		else if (errno == EACCES || errno == EPERM)
			fprintf(stderr, "%s: cannot open %s: %s (run as root)\n",
				prog, NVM_CTRL_FILE, strerror(errno));
		else
			fprintf(stderr, "%s: cannot open %s: %s (check that the lightnvm module is loaded and the file is its control device)\n",
				prog, NVM_CTRL_FILE, strerror(errno));
	}
	return fd;
}

/* Copy @src into the fixed-size, NUL-terminated field @dst of @len bytes. */
static int set_name(char *dst, size_t len, const char *src, const char *what)
{
	if (!src || !*src) {
		fprintf(stderr, "%s: missing %s (the usage below lists the options)\n",
			prog, what);
		return -1;
	}
	if (strlen(src) >= len) {
		fprintf(stderr, "%s: %s '%s' is too long (at most %zu characters)\n",
			prog, what, src, len - 1);
		return -1;
	}
	memset(dst, 0, len);
	memcpy(dst, src, strlen(src));
	return 0;
}

static int parse_uint(const char *s, unsigned long max, const char *what,
		      unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || *val > max) {
		fprintf(stderr, "%s: invalid %s '%s': give a number from 0 to %lu\n",
			prog, what, s, max);
		return -1;
	}
	return 0;
}

/*
 * Explain a failed control ioctl in the words of the operation: @hint, when
 * not NULL, is what this errno means for this operation.
 */
static void ioctl_error_hint(const char *op, const char *subject,
			     const char *hint)
{
	int err = errno;
	char other[160];
	const char *why;

	switch (hint ? -1 : err) {
	case -1:
		why = hint;
		break;
	case EPERM:
	case EACCES:
		why = "permission denied (CAP_SYS_ADMIN is required)";
		break;
	case ENODEV:
	case ENOENT:
	case ENXIO:
		why = "no such device, target or type (see 'lnvm devices', 'lnvm status' and 'lnvm info')";
		break;
	case EEXIST:
		why = "already exists (or the device is already initialised); see 'lnvm devices' and 'lnvm status'";
		break;
	case EBUSY:
		why = "busy (target open or mounted, or LUNs in use by another target); see 'lnvm status'";
		break;
	case EINVAL:
		why = "invalid argument (the kernel log names the field: dmesg | tail)";
		break;
	case ENOTTY:
		why = "not supported by this kernel's LightNVM core (load a current lightnvm module)";
		break;
	case ENOMEM:
		why = "out of memory (free some memory and retry)";
		break;
	default:
		snprintf(other, sizeof(other),
			 "%s; the kernel log (dmesg) may say more", strerror(err));
		why = other;
		break;
	}
	fprintf(stderr, "%s: %s%s%s failed: %s (errno %d)\n", prog, op,
		subject ? " " : "", subject ? subject : "", why, err);
}

static void ioctl_error(const char *op, const char *subject)
{
	ioctl_error_hint(op, subject, NULL);
}

/* What an errno means for one operation; a list ends with err == 0. */
struct errno_hint {
	int err;
	const char *hint;
};

/*
 * Send one control ioctl. On failure, explain it in the words of @op on
 * @subject, with the entry of @hints for its errno if there is one.
 * Returns 0 on success, 1 on failure (the exit status of a command).
 */
static int ctl_ioctl(unsigned long req, void *arg, const char *op,
		     const char *subject, const struct errno_hint *hints)
{
	int fd, ret, err;

	fd = open_ctl();
	if (fd < 0)
		return 1;
	ret = ioctl(fd, req, arg);
	err = errno;
	close(fd);
	if (!ret)
		return 0;
	while (hints && hints->err && hints->err != err)
		hints++;
	errno = err;
	ioctl_error_hint(op, subject, hints && hints->err ? hints->hint : NULL);
	return 1;
}

/* ------------------------------------------------------------------ info */

static int cmd_info(int argc, char **argv)
{
	struct nvm_ioctl_info *c;
	int fd, i, ret = 1;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s info\n\n"
		       "Show the LightNVM core version and the registered target types.\n",
		       prog);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "%s info: unexpected argument '%s' (usage: %s info)\n",
			prog, argv[1], prog);
		return 2;
	}

	fd = open_ctl();
	if (fd < 0)
		return 1;
	c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "%s: out of memory (free some memory and retry)\n",
			prog);
		goto out_close;
	}
	c->version[0] = NVM_VERSION_MAJOR;
	c->version[1] = NVM_VERSION_MINOR;
	c->version[2] = NVM_VERSION_PATCHLEVEL;
	if (ioctl(fd, NVM_INFO, c)) {
		ioctl_error("info", NULL);
		goto out_free;
	}
	printf("LightNVM version %u.%u.%u, %u target type%s\n",
	       c->version[0], c->version[1], c->version[2], c->tgtsize,
	       c->tgtsize == 1 ? "" : "s");
	for (i = 0; i < c->tgtsize && i < NVM_TTYPE_MAX; i++)
		printf("  %-20.*s %u.%u.%u\n", NVM_TTYPE_NAME_MAX,
		       c->tgts[i].tgtname, c->tgts[i].version[0],
		       c->tgts[i].version[1], c->tgts[i].version[2]);
	ret = 0;
out_free:
	free(c);
out_close:
	close(fd);
	return ret;
}

/* --------------------------------------------------------------- devices */

/* Read the sysfs file @path into @buf, trailing blanks dropped; 0 on success. */
static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

/* Read /sys/class/lightnvm/<dev>/<attr> into @buf; 0 on success. */
static int read_attr(const char *dev, const char *attr, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), SYSFS_CLASS "/%s/%s", dev, attr);
	return read_file(path, buf, len);
}

/* Read a number from the sysfs file printf(@fmt, ...); 0 on success. */
static int read_num(unsigned long long *val, const char *fmt, ...)
{
	char path[512], buf[64], *end;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	return errno || end == buf || *end ? -1 : 0;
}

/* Number of LUNs of @dev from sysfs, or -1. */
static long dev_nr_luns(const char *dev)
{
	char ch[32], lun[32];

	if (read_attr(dev, "num_channels", ch, sizeof(ch)) ||
	    read_attr(dev, "num_luns", lun, sizeof(lun)))
		return -1;
	return strtol(ch, NULL, 0) * strtol(lun, NULL, 0);
}

/* Block counts of one LUN, from SYSFS_CLASS/<dev>/luns/<n>/. */
struct lun_counts {
	unsigned long long free, used, bad, factory, grown;
};

static int read_lun(const char *dev, long lun, struct lun_counts *c)
{
	static const char *d = SYSFS_CLASS "/%s/luns/%ld/%s";

	return read_num(&c->free, d, dev, lun, "free_blocks") ||
	       read_num(&c->used, d, dev, lun, "used_blocks") ||
	       read_num(&c->bad, d, dev, lun, "bad_blocks") ||
	       read_num(&c->factory, d, dev, lun, "factory_bad_blocks") ||
	       read_num(&c->grown, d, dev, lun, "grown_bad_blocks") ? -1 : 0;
}

/* The "blocks:" line under a device in 'lnvm devices'. */
static void print_dev_blocks(const char *name)
{
	struct lun_counts sum = { 0 }, c;
	char fr[32], bad[32];
	long i, n = dev_nr_luns(name);

	if (read_attr(name, "free_blocks", fr, sizeof(fr)) ||
	    read_attr(name, "bad_blocks", bad, sizeof(bad))) {
		printf("%-12s blocks: unknown, not bound to a media manager (bind it: '%s init -d %s')\n",
		       "", prog, name);
		return;
	}
	for (i = 0; i < n; i++) {
		if (read_lun(name, i, &c))
			break;
		sum.used += c.used;
		sum.factory += c.factory;
		sum.grown += c.grown;
	}
	if (n <= 0 || i < n)
		printf("%-12s blocks: %s free, %s bad\n", "", fr, bad);
	else
		printf("%-12s blocks: %s free, %llu used, %s bad (%llu factory, %llu grown)\n",
		       "", fr, sum.used, bad, sum.factory, sum.grown);
}

static int cmd_devices(int argc, char **argv)
{
	struct nvm_ioctl_get_devices *c;
	unsigned int i;
	int fd, ret = 1;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s devices\n\n"
		       "List the registered open-channel devices, their media manager,\n"
		       "geometry and free, used and bad blocks (at most 31 are reported\n"
		       "by the kernel).\n", prog);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "%s devices: unexpected argument '%s' (usage: %s devices)\n",
			prog, argv[1], prog);
		return 2;
	}

	fd = open_ctl();
	if (fd < 0)
		return 1;
	c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "%s: out of memory (free some memory and retry)\n",
			prog);
		goto out_close;
	}
	if (ioctl(fd, NVM_GET_DEVICES, c)) {
		ioctl_error("get devices", NULL);
		goto out_free;
	}
	printf("Number of devices: %u\n", c->nr_devices);
	printf("%-12s %-10s %-10s %-8s %s\n", "Device", "Manager", "Version",
	       "Active", "Geometry");
	for (i = 0; i < c->nr_devices && i < 31; i++) {
		struct nvm_ioctl_device_info *d = &c->info[i];
		char name[DISK_NAME_LEN + 1], geo[256], ch[32], lun[32],
		     blk[32], pg[32], pl[32];
		char ver[40];

		snprintf(name, sizeof(name), "%.*s", DISK_NAME_LEN, d->devname);
		geo[0] = '\0';
		if (!read_attr(name, "num_channels", ch, sizeof(ch)) &&
		    !read_attr(name, "num_luns", lun, sizeof(lun)) &&
		    !read_attr(name, "num_planes", pl, sizeof(pl)) &&
		    !read_attr(name, "num_blocks", blk, sizeof(blk)) &&
		    !read_attr(name, "num_pages", pg, sizeof(pg)))
			snprintf(geo, sizeof(geo), "%sch x %slun x %spl x %sblk x %spg",
				 ch, lun, pl, blk, pg);
		if (d->flags & NVM_DEVICE_ACTIVE)
			snprintf(ver, sizeof(ver), "%u.%u.%u", d->bmversion[0],
				 d->bmversion[1], d->bmversion[2]);
		else
			snprintf(ver, sizeof(ver), "-");
		printf("%-12s %-10.*s %-10s %-8s %s\n", name, NVM_TTYPE_NAME_MAX,
		       d->bmname[0] ? d->bmname : "none", ver,
		       d->flags & NVM_DEVICE_ACTIVE ? "yes" : "no", geo);
		print_dev_blocks(name);
	}
	ret = 0;
out_free:
	free(c);
out_close:
	close(fd);
	return ret;
}

/* ---------------------------------------------------------------- create */

static void create_usage(FILE *f)
{
	fprintf(f,
		"usage: %s create -d DEV -n NAME -t TYPE [-b BEGIN -e END] [-o OP] [-f]\n\n"
		"Create target NAME of type TYPE (e.g. rrpc) on the LUNs BEGIN..END\n"
		"(inclusive) of device DEV; the target appears as /dev/NAME.\n\n"
		"  -d, --device DEV        open-channel device (see '%s devices')\n"
		"  -n, --name NAME         name of the new target and its block device\n"
		"  -t, --type TYPE         target type (see '%s info')\n"
		"  -b, --lun-begin BEGIN   first LUN (default 0)\n"
		"  -e, --lun-end END       last LUN, inclusive (default: the last LUN)\n"
		"  -o, --over-prov PERCENT over-provisioning in percent (default: the\n"
		"                          target's own)\n"
		"  -f, --factory           start empty: erase the LUNs first (without -f,\n"
		"                          rrpc takes over the data a target on the same\n"
		"                          LUNs left: after a remove, a reboot or a power\n"
		"                          cut)\n",
		prog, prog, prog);
}

/* What a target found on the media at creation, if its type says. */
static void print_recovery(const char *name)
{
	char path[128], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/rrpc/recovery", name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f))
		printf("  recovery: %s", line);
	fclose(f);
}

static int cmd_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ "type", required_argument, NULL, 't' },
		{ "lun-begin", required_argument, NULL, 'b' },
		{ "lun-end", required_argument, NULL, 'e' },
		{ "over-prov", required_argument, NULL, 'o' },
		{ "factory", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dev = NULL, *name = NULL, *type = NULL;
	unsigned long begin = 0, end = 0, op = 0;
	int have_begin = 0, have_end = 0, have_op = 0, factory = 0;
	char what[160], h_nodev[128], h_nxio[192], h_exist[384], h_busy[192];
	char h_inval[320];
	const struct errno_hint hints[] = {
		{ ENODEV, h_nodev }, { ENXIO, h_nxio }, { EEXIST, h_exist },
		{ EBUSY, h_busy }, { EINVAL, h_inval }, { 0, NULL }
	};
	struct nvm_ioctl_create c;
	int opt;

	while ((opt = getopt_long(argc, argv, "d:n:t:b:e:o:fh", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 't':
			type = optarg;
			break;
		case 'b':
			if (parse_uint(optarg, 0xffff, "begin LUN", &begin))
				return 2;
			have_begin = 1;
			break;
		case 'e':
			if (parse_uint(optarg, 0xffff, "end LUN", &end))
				return 2;
			have_end = 1;
			break;
		case 'o':
			if (parse_uint(optarg, 99, "over-provisioning percent", &op))
				return 2;
			have_op = 1;
			break;
		case 'f':
			factory = 1;
			break;
		case 'h':
			create_usage(stdout);
			return 0;
		default:
			create_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s create: unexpected argument '%s' (see '%s create --help')\n",
			prog, argv[optind], prog);
		return 2;
	}

	memset(&c, 0, sizeof(c));
	if (set_name(c.dev, sizeof(c.dev), dev, "device (-d)") ||
	    set_name(c.tgtname, sizeof(c.tgtname), name, "target name (-n)") ||
	    set_name(c.tgttype, sizeof(c.tgttype), type, "target type (-t)")) {
		create_usage(stderr);
		return 2;
	}
	if (!have_end) {
		long n = dev_nr_luns(dev);

		if (n <= 0) {
			fprintf(stderr, "%s create: cannot read the LUN count of '%s' from "
				SYSFS_CLASS "; give -e END\n", prog, dev);
			return 2;
		}
		end = n - 1;
	}
	if (!have_begin)
		begin = 0;
	if (begin > end) {
		fprintf(stderr, "%s create: begin LUN %lu is after end LUN %lu: swap -b and -e\n",
			prog, begin, end);
		return 2;
	}
	if (factory)
		c.flags |= NVM_TARGET_FACTORY;
	if (have_op) {
		c.conf.type = NVM_CONFIG_TYPE_EXTENDED;
		c.conf.e.lun_begin = begin;
		c.conf.e.lun_end = end;
		c.conf.e.over_prov = op;
	} else {
		c.conf.type = NVM_CONFIG_TYPE_SIMPLE;
		c.conf.s.lun_begin = begin;
		c.conf.s.lun_end = end;
	}

	snprintf(what, sizeof(what), "'%s' (type %s, LUNs %lu-%lu on %s)",
		 name, type, begin, end, dev);
	snprintf(h_nodev, sizeof(h_nodev),
		 "no device '%s' (see '%s devices')", dev, prog);
	snprintf(h_nxio, sizeof(h_nxio),
		 "device '%s' is not bound to a media manager; run '%s init -d %s' first",
		 dev, prog, dev);
	snprintf(h_exist, sizeof(h_exist),
		 "a target or block device named '%s' already exists, or LUNs %lu-%lu hold data of another target (the kernel log names its LUNs): re-create that target, or add -f to erase the LUNs and start empty",
		 name, begin, end);
	snprintf(h_busy, sizeof(h_busy),
		 "some of LUNs %lu-%lu already belong to another target ("
		 SYSFS_CLASS "/%s/targets lists them)", begin, end, dev);
	snprintf(h_inval, sizeof(h_inval),
		 "invalid argument: unknown target type '%s' (see '%s info'), LUNs outside the device (see '%s geometry -d %s'), or a bad name; the kernel log names the field",
		 type, prog, prog, dev);
	if (ctl_ioctl(NVM_DEV_CREATE, &c, "create target", what, hints))
		return 1;
	printf("Created target %s (type %s) on %s, LUNs %lu-%lu: /dev/%s\n",
	       name, type, dev, begin, end, name);
	print_recovery(name);
	return 0;
}

/* ---------------------------------------------------------------- remove */

/* How long a remove waits for a target's disk that is open (3 s in all). */
#define REMOVE_BUSY_WAIT_MS	100
#define REMOVE_BUSY_TRIES	30

static void remove_usage(FILE *f)
{
	fprintf(f,
		"usage: %s remove -n NAME\n\n"
		"Remove the target NAME (the name given to 'create -n', which is also\n"
		"the name of its block device). Fails with 'busy' while the target's\n"
		"block device is open or mounted; a device open only for a moment\n"
		"(udev probing a new disk) is waited for, up to 3 seconds.\n\n"
		"  -n, --name NAME   target name\n", prog);
}

static int cmd_remove(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct errno_hint hints[] = {
		{ ENODEV, "no target of that name (remove takes the target name given to 'create -n', not a device name; 'lnvm status' lists the targets)" },
		{ EBUSY, "the target's block device is open or mounted; unmount or close it first" },
		{ 0, NULL }
	};
	struct nvm_ioctl_remove c;
	const struct errno_hint *h = hints;
	const char *name = NULL;
	int opt, fd, ret, err, tries;

	while ((opt = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			name = optarg;
			break;
		case 'h':
			remove_usage(stdout);
			return 0;
		default:
			remove_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		/* "lnvm remove NAME" is accepted as well */
		if (!name && optind == argc - 1) {
			name = argv[optind];
		} else {
			fprintf(stderr, "%s remove: unexpected argument '%s' (usage: %s remove -n NAME)\n",
				prog, argv[optind], prog);
			return 2;
		}
	}
	memset(&c, 0, sizeof(c));
	if (set_name(c.tgtname, sizeof(c.tgtname), name, "target name (-n)")) {
		remove_usage(stderr);
		return 2;
	}

	/*
	 * udev opens a new disk for a moment to probe it (blkid), so a remove
	 * right after a create may find it busy: try again, every
	 * REMOVE_BUSY_WAIT_MS, up to REMOVE_BUSY_TRIES times. A disk that
	 * stays open or mounted still fails, after that bound.
	 */
	fd = open_ctl();
	if (fd < 0)
		return 1;
	for (tries = 0;; tries++) {
		ret = ioctl(fd, NVM_DEV_REMOVE, &c);
		err = errno;
		if (!ret || err != EBUSY || tries == REMOVE_BUSY_TRIES)
			break;
		usleep(REMOVE_BUSY_WAIT_MS * 1000);
	}
	close(fd);
	if (ret) {
		while (h->err && h->err != err)
			h++;
		errno = err;
		ioctl_error_hint("remove target", name, h->err ? h->hint : NULL);
		return 1;
	}
	printf("Removed target %s\n", name);
	return 0;
}

/* ------------------------------------------------------------------ init */

static void init_usage(FILE *f)
{
	fprintf(f,
		"usage: %s init -d DEV [-m MANAGER]\n\n"
		"Bind device DEV to a media manager (default gennvm). Devices are\n"
		"bound automatically when the manager is loaded; this is for the\n"
		"others.\n\n"
		"  -d, --device DEV        open-channel device\n"
		"  -m, --mmtype MANAGER    media manager name (default gennvm)\n",
		prog);
}

static int cmd_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "mmtype", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct errno_hint hints[] = {
		{ ENODEV, "no such device (see 'lnvm devices')" },
		{ EEXIST, "the device is already bound to a media manager ('lnvm devices' shows which); nothing to do" },
		{ EINVAL, "unknown media manager (load it first: 'modprobe gennvm'), or bad argument (the kernel log names the field)" },
		{ 0, NULL }
	};
	const char *dev = NULL, *mm = "gennvm";
	struct nvm_ioctl_dev_init c;
	int opt;

	while ((opt = getopt_long(argc, argv, "d:m:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'm':
			mm = optarg;
			break;
		case 'h':
			init_usage(stdout);
			return 0;
		default:
			init_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s init: unexpected argument '%s' (see '%s init --help')\n",
			prog, argv[optind], prog);
		return 2;
	}
	memset(&c, 0, sizeof(c));
	if (set_name(c.dev, sizeof(c.dev), dev, "device (-d)") ||
	    set_name(c.mmtype, sizeof(c.mmtype), mm, "media manager (-m)")) {
		init_usage(stderr);
		return 2;
	}

	if (ctl_ioctl(NVM_DEV_INIT, &c, "init device", dev, hints))
		return 1;
	printf("Initialised %s with media manager %s\n", dev, mm);
	return 0;
}

/* --------------------------------------------------------------- factory */

static void factory_usage(FILE *f)
{
	fprintf(f,
		"usage: %s factory -d DEV [-u] [-H] [-g]\n\n"
		"Bring device DEV back to a factory state: erase its blocks and\n"
		"reset block marks. No target may exist on the device.\n\n"
		"  -d, --device DEV          open-channel device\n"
		"  -u, --erase-only-user     erase only host-used and grown-bad blocks\n"
		"  -H, --reset-host-blocks   clear the host-used marks\n"
		"  -g, --reset-grown-bad     clear the grown-bad marks\n",
		prog);
}

static int cmd_factory(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "erase-only-user", no_argument, NULL, 'u' },
		{ "reset-host-blocks", no_argument, NULL, 'H' },
		{ "reset-grown-bad", no_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct errno_hint hints[] = {
		{ ENODEV, "no such device (see 'lnvm devices')" },
		{ ENXIO, "the device is not bound to a media manager; run 'lnvm init -d DEV' first" },
		{ EBUSY, "the device has targets ('lnvm status' lists them); remove them with 'lnvm remove -n NAME' first" },
		{ 0, NULL }
	};
	struct nvm_ioctl_dev_factory c;
	const char *dev = NULL;
	int opt;

	memset(&c, 0, sizeof(c));
	while ((opt = getopt_long(argc, argv, "d:uHgh", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'u':
			c.flags |= NVM_FACTORY_ERASE_ONLY_USER;
			break;
		case 'H':
			c.flags |= NVM_FACTORY_RESET_HOST_BLKS;
			break;
		case 'g':
			c.flags |= NVM_FACTORY_RESET_GRWN_BBLKS;
			break;
		case 'h':
			factory_usage(stdout);
			return 0;
		default:
			factory_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s factory: unexpected argument '%s' (see '%s factory --help')\n",
			prog, argv[optind], prog);
		return 2;
	}
	if (set_name(c.dev, sizeof(c.dev), dev, "device (-d)")) {
		factory_usage(stderr);
		return 2;
	}

	if (ctl_ioctl(NVM_DEV_FACTORY, &c, "factory reset of", dev, hints))
		return 1;
	printf("Factory reset of %s done (flags 0x%x)\n", dev, c.flags);
	return 0;
}

/* -------------------------------------------------------------- geometry */

static int cmd_geometry(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dev = NULL;
	struct dirent **ents;
	char path[512], val[256];
	int opt, n, i, shown = 0;

	while ((opt = getopt_long(argc, argv, "d:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'h':
			printf("usage: %s geometry -d DEV\n\n"
			       "Show the geometry of device DEV, as the kernel derived it\n"
			       "from the device's identity (" SYSFS_CLASS "/DEV/).\n\n"
			       "  -d, --device DEV   open-channel device\n", prog);
			return 0;
		default:
			fprintf(stderr, "usage: %s geometry -d DEV ('lnvm devices' lists the devices)\n",
				prog);
			return 2;
		}
	}
	if (!dev || !*dev || strchr(dev, '/') || optind < argc) {
		fprintf(stderr, "usage: %s geometry -d DEV ('lnvm devices' lists the devices)\n",
			prog);
		return 2;
	}
	snprintf(path, sizeof(path), SYSFS_CLASS "/%s", dev);
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "%s: no device '%s' (%s: %s); 'lnvm devices' lists the devices\n",
			prog, dev, path, strerror(errno));
		return 1;
	}
	printf("%s:\n", dev);
	for (i = 0; i < n; i++) {
		const char *a = ents[i]->d_name;

		if (a[0] != '.' && strcmp(a, "uevent") && strcmp(a, "dev") &&
		    !read_attr(dev, a, val, sizeof(val)) && !strchr(val, '\n')) {
			printf("  %-24s %s\n", a, val);
			shown++;
		}
		free(ents[i]);
	}
	free(ents);
	if (!shown) {
		fprintf(stderr, "%s: '%s' exports no geometry attributes; is the loaded lightnvm module this tree's?\n",
			prog, dev);
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- status */

#define SYS_BLOCK "/sys/block"

/* A target as SYSFS_CLASS/<dev>/targets lists it. */
struct target {
	char name[DISK_NAME_LEN + 1];
	char type[NVM_TTYPE_NAME_MAX + 1];
	char dev[DISK_NAME_LEN + 1];
	long begin, end;
};

/*
 * Every target of every device, in device order. Returns the number of
 * targets, or -1 if the LightNVM core is not loaded (no SYSFS_CLASS).
 */
static int list_targets(struct target **out)
{
	struct target *t = NULL, *tmp;
	struct dirent **ents;
	int n, i, nr = 0;

	*out = NULL;
	n = scandir(SYSFS_CLASS, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		char path[512], line[256];
		struct target cur;
		FILE *f;

		snprintf(path, sizeof(path), SYSFS_CLASS "/%s/targets",
			 ents[i]->d_name);
		f = ents[i]->d_name[0] == '.' ? NULL : fopen(path, "r");
		while (f && fgets(line, sizeof(line), f)) {
			memset(&cur, 0, sizeof(cur));
			if (sscanf(line, "%32s %48s %ld %ld", cur.name, cur.type,
				   &cur.begin, &cur.end) != 4)
				continue;
			snprintf(cur.dev, sizeof(cur.dev), "%.*s", DISK_NAME_LEN,
				 ents[i]->d_name);
			tmp = realloc(t, (nr + 1) * sizeof(*t));
			if (!tmp)
				break;
			t = tmp;
			t[nr++] = cur;
		}
		if (f)
			fclose(f);
		free(ents[i]);
	}
	free(ents);
	*out = t;
	return nr;
}

/* Read the target type's attribute /sys/block/<name>/<type>/<attr>, or "-". */
static const char *tattr(const struct target *t, const char *attr, char *buf,
			 size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s/%s", t->name, t->type,
		 attr);
	if (read_file(path, buf, len))
		snprintf(buf, len, "-");
	return buf;
}

static void print_target(const struct target *t)
{
	struct lun_counts c, sum = { 0 };
	unsigned long long size;
	char v[8][64], fb[1024];
	int have_stats;
	long i;

	printf("%s: %s target on %s, LUNs %ld-%ld\n", t->name, t->type, t->dev,
	       t->begin, t->end);
	have_stats = strcmp(tattr(t, "waf", v[0], sizeof(v[0])), "-") != 0;
	printf("  %-21s %s\n", "state:",
	       tattr(t, "state", v[0], sizeof(v[0])));
	if (!read_num(&size, SYS_BLOCK "/%s/size", t->name))
		printf("  %-21s %.1f MiB (%llu sectors of 4096 bytes)\n",
		       "capacity:", size / 2048.0, size / 8);
	else
		printf("  %-21s - (%s/%s/size is not readable)\n", "capacity:",
		       SYS_BLOCK, t->name);
	for (i = t->begin; i <= t->end; i++) {
		if (read_lun(t->dev, i, &c))
			break;
		sum.free += c.free;
		sum.used += c.used;
		sum.bad += c.bad;
	}
	if (i > t->end)
		printf("  %-21s %llu of %llu good blocks (%.1f%%)\n", "used:",
		       sum.used, sum.free + sum.used,
		       sum.free + sum.used ?
		       100.0 * sum.used / (sum.free + sum.used) : 0.0);
	else
		printf("  %-21s - (no per-LUN counts in " SYSFS_CLASS "/%s/luns: the lightnvm module is older than this lnvm)\n",
		       "used:", t->dev);
	if (!have_stats) {
		printf("  %-21s - (type %s keeps no statistics in " SYS_BLOCK "/%s/%s)\n",
		       "statistics:", t->type, t->name, t->type);
	} else {
		printf("  %-21s %s (media %s / user %s sectors written)\n",
		       "write amplification:", tattr(t, "waf", v[0], 64),
		       tattr(t, "media_sectors_written", v[1], 64),
		       tattr(t, "user_sectors_written", v[2], 64));
		printf("  %-21s %s victims, %s sectors moved, %s erases, %s padding sectors\n",
		       "GC:", tattr(t, "gc_victims", v[0], 64),
		       tattr(t, "gc_sectors_moved", v[1], 64),
		       tattr(t, "erases", v[2], 64),
		       tattr(t, "padded_sectors", v[3], 64));
		printf("  %-21s %s write, %s read, %s lost sectors, %s dropped sectors, %s grown bad blocks\n",
		       "errors:", tattr(t, "write_errors", v[0], 64),
		       tattr(t, "read_errors", v[1], 64),
		       tattr(t, "lost_sectors", v[2], 64),
		       tattr(t, "dropped_sectors", v[3], 64),
		       tattr(t, "grown_bad_blocks", v[4], 64));
	}
	printf("  %5s %8s %8s %8s %8s %8s\n", "LUN", "free", "used", "bad",
	       "factory", "grown");
	for (i = t->begin; i <= t->end; i++) {
		if (read_lun(t->dev, i, &c)) {
			/* an older core: the target's own list of free blocks */
			printf("  free blocks per LUN: %s\n",
			       tattr(t, "free_blocks", fb, sizeof(fb)));
			break;
		}
		printf("  %5ld %8llu %8llu %8llu %8llu %8llu\n", i, c.free,
		       c.used, c.bad, c.factory, c.grown);
	}
}

static void status_usage(FILE *f)
{
	fprintf(f,
		"usage: %s status [TARGET]\n\n"
		"Show every target (or only TARGET): its device and LUNs, state,\n"
		"capacity, used blocks, write amplification, GC counters, errors and\n"
		"the free, used and bad blocks of each of its LUNs, from sysfs.\n",
		prog);
}

static int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *name = NULL;
	struct target *t;
	int opt, n, i, shown = 0;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			status_usage(stdout);
			return 0;
		default:
			status_usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		name = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "%s status: unexpected argument '%s' (usage: %s status [TARGET])\n",
			prog, argv[optind], prog);
		return 2;
	}

	n = list_targets(&t);
	if (n < 0) {
		if (name) {
			fprintf(stderr, "%s status: no target '%s': the LightNVM core is not loaded (load it with 'modprobe lightnvm')\n",
				prog, name);
			return 1;
		}
		printf("No targets: the LightNVM core is not loaded (load it with 'modprobe lightnvm').\n");
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (name && strcmp(name, t[i].name))
			continue;
		if (shown++)
			printf("\n");
		print_target(&t[i]);
	}
	free(t);
	if (shown)
		return 0;
	if (name) {
		fprintf(stderr, "%s status: no target '%s' ('%s status' lists the targets; a target being created or removed is not listed yet or any more)\n",
			prog, name, prog);
		return 1;
	}
	printf("No targets. Create one with '%s create -d DEVICE -n NAME -t rrpc' ('%s devices' lists the devices).\n",
	       prog, prog);
	return 0;
}

/* ---------------------------------------------------------- vector I/O */

/*
 * The vector I/O ioctls of an open-channel namespace's block device
 * (Linux 4.11 ABI): vio-geometry reads the identity with
 * NVME_NVM_IOCTL_ADMIN_VIO; vio-erase, vio-write and vio-read send one
 * vector command with NVME_NVM_IOCTL_SUBMIT_VIO (or, with --passthru,
 * NVME_NVM_IOCTL_IO_VIO) on physical addresses given as
 * ch/lun/pl/blk[/pg/sec], converted with the identity's address format.
 */

#define VIO_ID_SIZE	4096
#define VIO_GRP		256	/* the first configuration group */
#define VIO_MAX_PPAS	64

struct vio_id {
	unsigned char raw[VIO_ID_SIZE];
	unsigned int nch, nlun, npln, nblk, npg, csecs, sos, nsec;
};

static unsigned int vio_u8(const struct vio_id *id, int off)
{
	return id->raw[off];
}

static unsigned int vio_u16(const struct vio_id *id, int off)
{
	return id->raw[off] | id->raw[off + 1] << 8;
}

static unsigned int vio_u32(const struct vio_id *id, int off)
{
	return vio_u16(id, off) | (unsigned int)vio_u16(id, off + 2) << 16;
}

static void vio_errno(const char *op, const char *ioc, const char *dev)
{
	int err = errno;
	const char *why;

	switch (err) {
	case EPERM:
	case EACCES:
		why = "permission denied (CAP_SYS_ADMIN is required)";
		break;
	case EBUSY:
		why = "busy: a target owns the LUN (user space may only read it; see 'lnvm status')";
		break;
	case EINVAL:
		why = "invalid argument (the kernel log names the field: dmesg | tail)";
		break;
	case ENOTTY:
		why = "not an open-channel namespace registered with LightNVM, or a kernel without the vector ioctls";
		break;
	default:
		why = strerror(err);
		break;
	}
	fprintf(stderr, "%s: %s on %s: %s failed: %s (errno %d)\n", prog, op,
		dev, ioc, why, err);
}

/* Open the namespace and read its identity (admin 0xe2). */
static int vio_open(const char *dev, struct vio_id *id)
{
	struct nvm_passthru_vio c;
	int fd, ret;

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", prog, dev,
			strerror(errno));
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.opcode = NVM_VIO_OP_IDENTITY;
	c.addr = (uintptr_t)id->raw;
	c.data_len = sizeof(id->raw);
	ret = ioctl(fd, NVME_NVM_IOCTL_ADMIN_VIO, &c);
	if (ret) {
		if (ret < 0)
			vio_errno("identity", "NVME_NVM_IOCTL_ADMIN_VIO", dev);
		else
			fprintf(stderr, "%s: identity on %s: NVMe status 0x%x\n",
				prog, dev, c.result);
		close(fd);
		return -1;
	}
	id->nch = vio_u8(id, VIO_GRP + 4);
	id->nlun = vio_u8(id, VIO_GRP + 5);
	id->npln = vio_u8(id, VIO_GRP + 6);
	id->nblk = vio_u16(id, VIO_GRP + 8);
	id->npg = vio_u16(id, VIO_GRP + 10);
	id->csecs = vio_u16(id, VIO_GRP + 14);
	id->sos = vio_u16(id, VIO_GRP + 16);
	id->nsec = id->csecs ? vio_u16(id, VIO_GRP + 12) / id->csecs : 0;
	if (vio_u8(id, 0) != 1 || !id->nch || !id->nlun || !id->npln ||
	    !id->nblk || !id->npg || !id->nsec) {
		fprintf(stderr, "%s: %s: not an Open-Channel SSD 1.2 identity (version %u)\n",
			prog, dev, vio_u8(id, 0));
		close(fd);
		return -1;
	}
	return fd;
}

static int cmd_vio_geometry(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct {
		const char *name;
		int off, size;
	} f[] = {
		{ "version", 0, 1 }, { "vendor_opcode", 1, 1 },
		{ "capabilities", 4, 4 }, { "device_mode", 8, 4 },
		{ "media_type", VIO_GRP + 0, 1 },
		{ "flash_media_type", VIO_GRP + 1, 1 },
		{ "num_channels", VIO_GRP + 4, 1 },
		{ "num_luns", VIO_GRP + 5, 1 },
		{ "num_planes", VIO_GRP + 6, 1 },
		{ "num_blocks", VIO_GRP + 8, 2 },
		{ "num_pages", VIO_GRP + 10, 2 },
		{ "page_size", VIO_GRP + 12, 2 },
		{ "hw_sector_size", VIO_GRP + 14, 2 },
		{ "oob_sector_size", VIO_GRP + 16, 2 },
		{ "read_typ", VIO_GRP + 20, 4 }, { "read_max", VIO_GRP + 24, 4 },
		{ "prog_typ", VIO_GRP + 28, 4 }, { "prog_max", VIO_GRP + 32, 4 },
		{ "erase_typ", VIO_GRP + 36, 4 },
		{ "erase_max", VIO_GRP + 40, 4 },
	};
	const char *dev = NULL;
	struct vio_id id;
	unsigned int v;
	size_t i;
	int opt, fd;

	while ((opt = getopt_long(argc, argv, "d:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'h':
			printf("usage: %s vio-geometry -d /dev/NVMEnN\n\n"
			       "Read the identity of an open-channel namespace with the\n"
			       "NVME_NVM_IOCTL_ADMIN_VIO ioctl and print its geometry, one\n"
			       "'name value' line each, named as the namespace's lightnvm/\n"
			       "sysfs attributes.\n\n"
			       "  -d, --device DEV   the open-channel namespace, e.g. /dev/nvme0n1\n",
			       prog);
			return 0;
		default:
			fprintf(stderr, "usage: %s vio-geometry -d /dev/NVMEnN\n", prog);
			return 2;
		}
	}
	if (!dev || optind < argc) {
		fprintf(stderr, "usage: %s vio-geometry -d /dev/NVMEnN\n", prog);
		return 2;
	}
	fd = vio_open(dev, &id);
	if (fd < 0)
		return 1;
	close(fd);
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		v = f[i].size == 1 ? vio_u8(&id, f[i].off) :
		    f[i].size == 2 ? vio_u16(&id, f[i].off) :
		    vio_u32(&id, f[i].off);
		printf("%s %u\n", f[i].name, v);
	}
	printf("ppa_format 0x");
	for (i = 12; i < 24; i++)
		printf("%02x", vio_u8(&id, (int)i));
	printf("\nmultiplane_modes 0x%08x\nmedia_capabilities 0x%08x\n",
	       vio_u32(&id, VIO_GRP + 44), vio_u32(&id, VIO_GRP + 48));
	return 0;
}

/* A physical address: ch/lun/pl/blk[/pg/sec]. */
struct vio_addr {
	unsigned long ch, lun, pl, blk, pg, sec;
};

static int vio_parse_addr(const char *s, const struct vio_id *id, bool page,
			  struct vio_addr *a)
{
	unsigned long *v[] = { &a->ch, &a->lun, &a->pl, &a->blk, &a->pg, &a->sec };
	unsigned long max[] = { id->nch - 1, id->nlun - 1, id->npln - 1,
				id->nblk - 1, id->npg - 1, id->nsec - 1 };
	const char *names[] = { "channel", "LUN", "plane", "block", "page", "sector" };
	int i, n = page ? 6 : 4;
	char buf[128], *tok, *save = NULL;

	memset(a, 0, sizeof(*a));
	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	for (i = 0, tok = strtok_r(buf, "/", &save); tok && i < n;
	     i++, tok = strtok_r(NULL, "/", &save))
		if (parse_uint(tok, max[i], names[i], v[i]))
			return -1;
	if (i == n && !tok)
		return 0;
bad:
	fprintf(stderr, "%s: invalid address '%s': give %s\n", prog, s,
		page ? "ch/lun/pl/blk/pg/sec" : "ch/lun/pl/blk");
	return -1;
}

/* The device address of sector @k after @a (sectors, then pages). */
static uint64_t vio_ppa(const struct vio_id *id, const struct vio_addr *a,
			unsigned int k)
{
	unsigned long s = a->pg * id->nsec + a->sec + k;

	return (uint64_t)a->ch << vio_u8(id, 12) |
	       (uint64_t)a->lun << vio_u8(id, 14) |
	       (uint64_t)a->pl << vio_u8(id, 16) |
	       (uint64_t)a->blk << vio_u8(id, 18) |
	       (uint64_t)(s / id->nsec) << vio_u8(id, 20) |
	       (uint64_t)(s % id->nsec) << vio_u8(id, 22);
}

static int read_whole(const char *path, void *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		fprintf(stderr, "%s: cannot open %s: %s\n", prog, path,
			strerror(errno));
		return -1;
	}
	n = fread(buf, 1, len, f);
	fclose(f);
	if (n != len) {
		fprintf(stderr, "%s: %s holds %zu bytes, %zu needed\n", prog,
			path, n, len);
		return -1;
	}
	return 0;
}

static int write_whole(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, path,
			strerror(errno));
		return -1;
	}
	return 0;
}

static void vio_usage(FILE *f, const char *cmd)
{
	bool erase = !strcmp(cmd, "vio-erase"), wr = !strcmp(cmd, "vio-write");

	fprintf(f, "usage: %s %s -d /dev/NVMEnN -a %s%s [-p]\n\n", prog, cmd,
		erase ? "CH/LUN/PL/BLK" : "CH/LUN/PL/BLK/PG/SEC",
		erase ? "" : wr ? " -i DATA [-m OOB] [-n N]" :
		" -o DATA [-m OOB] [-n N]");
	fprintf(f, "%s with one vector command on the namespace's block device\n"
		"(NVME_NVM_IOCTL_SUBMIT_VIO; -p: NVME_NVM_IOCTL_IO_VIO).\n\n"
		"  -d, --device DEV     the open-channel namespace, e.g. /dev/nvme0n1\n"
		"  -a, --addr ADDR      physical address\n",
		erase ? "Erase a block (one plane)" :
		wr ? "Program sectors and their OOB" : "Read sectors and their OOB");
	if (!erase)
		fprintf(f, "  -n, --sectors N      N consecutive sectors (1..64, default 1)\n"
			"%s"
			"  -m, --oob FILE       out-of-band bytes: N times the OOB size\n",
			wr ? "  -i, --input FILE     data to write: N sectors\n" :
			"  -o, --output FILE    where to put the data read\n");
	fprintf(f, "  -p, --passthru       use NVME_NVM_IOCTL_IO_VIO\n\n"
		"Prints the NVMe status and the completion bitmap; exits 0 only\n"
		"if the status is 0. A LUN a target owns may only be read.\n");
}

/* vio-erase, vio-write and vio-read */
static int cmd_vio_io(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "addr", required_argument, NULL, 'a' },
		{ "sectors", required_argument, NULL, 'n' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "oob", required_argument, NULL, 'm' },
		{ "passthru", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *cmd = argv[0], *dev = NULL, *addr = NULL, *in = NULL;
	const char *out = NULL, *oob = NULL;
	bool erase = !strcmp(cmd, "vio-erase"), wr = !strcmp(cmd, "vio-write");
	uint64_t ppas[VIO_MAX_PPAS];
	unsigned long n = 1;
	unsigned char *data = NULL, *meta = NULL;
	size_t dlen = 0, mlen = 0;
	struct vio_addr a;
	struct vio_id id;
	bool passthru = false;
	unsigned int k;
	int opt, fd = -1, ret, rc = 1;
	uint64_t status;
	uint32_t result;

	while ((opt = getopt_long(argc, argv, "d:a:n:i:o:m:ph", opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'a':
			addr = optarg;
			break;
		case 'n':
			if (parse_uint(optarg, VIO_MAX_PPAS, "sector count", &n) ||
			    !n)
				return 2;
			break;
		case 'i':
			in = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'm':
			oob = optarg;
			break;
		case 'p':
			passthru = true;
			break;
		case 'h':
			vio_usage(stdout, cmd);
			return 0;
		default:
			vio_usage(stderr, cmd);
			return 2;
		}
	}
	if (!dev || !addr || optind < argc || (erase && (in || out || oob || n != 1)) ||
	    (wr && (!in || out)) || (!erase && !wr && (!out || in))) {
		vio_usage(stderr, cmd);
		return 2;
	}
	fd = vio_open(dev, &id);
	if (fd < 0)
		return 1;
	if (vio_parse_addr(addr, &id, !erase, &a))
		goto out;
	if (a.pg * id.nsec + a.sec + n > (unsigned long)id.npg * id.nsec) {
		fprintf(stderr, "%s: %lu sectors from page %lu sector %lu run past the block's %u pages\n",
			prog, n, a.pg, a.sec, id.npg);
		goto out;
	}
	for (k = 0; k < n; k++)
		ppas[k] = vio_ppa(&id, &a, k);

	if (!erase) {
		dlen = n * id.csecs;
		data = calloc(1, dlen);
		if (oob) {
			mlen = n * id.sos;
			meta = calloc(1, mlen ? mlen : 1);
		}
		if (!data || (oob && !meta)) {
			fprintf(stderr, "%s: out of memory\n", prog);
			goto out;
		}
		if (wr && (read_whole(in, data, dlen) ||
			   (mlen && read_whole(oob, meta, mlen))))
			goto out;
	}

	if (passthru) {
		struct nvm_passthru_vio c;

		memset(&c, 0, sizeof(c));
		c.opcode = erase ? NVM_VIO_OP_ERASE : wr ? NVM_VIO_OP_WRITE :
			   NVM_VIO_OP_READ;
		c.nppas = n - 1;
		c.ppa_list = n == 1 ? ppas[0] : (uintptr_t)ppas;
		c.addr = (uintptr_t)data;
		c.data_len = dlen;
		c.metadata = (uintptr_t)meta;
		c.metadata_len = mlen;
		ret = ioctl(fd, NVME_NVM_IOCTL_IO_VIO, &c);
		status = c.status;
		result = c.result;
	} else {
		struct nvm_user_vio c;

		memset(&c, 0, sizeof(c));
		c.opcode = erase ? NVM_VIO_OP_ERASE : wr ? NVM_VIO_OP_WRITE :
			   NVM_VIO_OP_READ;
		c.nppas = n - 1;
		c.ppa_list = n == 1 ? ppas[0] : (uintptr_t)ppas;
		c.addr = (uintptr_t)data;
		c.data_len = dlen;
		c.metadata = (uintptr_t)meta;
		c.metadata_len = mlen;
		ret = ioctl(fd, NVME_NVM_IOCTL_SUBMIT_VIO, &c);
		status = c.status;
		result = c.result;
	}
	if (ret < 0) {
		vio_errno(cmd + 4, passthru ? "NVME_NVM_IOCTL_IO_VIO" :
			  "NVME_NVM_IOCTL_SUBMIT_VIO", dev);
		goto out;
	}
	printf("status 0x%x bitmap 0x%llx\n", result,
	       (unsigned long long)status);
	if (!erase && !wr && (write_whole(out, data, dlen) ||
			      (mlen && write_whole(oob, meta, mlen))))
		goto out;
	rc = result ? 1 : 0;
out:
	free(data);
	free(meta);
	close(fd);
	return rc;
}

/* ------------------------------------------------------------------ main */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "devices",  cmd_devices,  "list registered open-channel devices" },
	{ "info",     cmd_info,     "show the core version and target types" },
	{ "create",   cmd_create,   "create a target on a device's LUNs" },
	{ "remove",   cmd_remove,   "remove a target, by target name (-n NAME)" },
	{ "init",     cmd_init,     "bind a device to a media manager" },
	{ "factory",  cmd_factory,  "erase a device and reset block marks" },
	{ "geometry", cmd_geometry, "show a device's geometry" },
	{ "status",   cmd_status,   "show targets: LUNs, space, WAF, GC, errors" },
	{ "vio-geometry", cmd_vio_geometry, "a namespace's identity, by NVME_NVM_IOCTL_ADMIN_VIO" },
	{ "vio-erase", cmd_vio_io,  "erase a block by physical address (vector ioctl)" },
	{ "vio-write", cmd_vio_io,  "program sectors and OOB by physical address" },
	{ "vio-read", cmd_vio_io,   "read sectors and OOB by physical address" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s <command> [options]\n\ncommands:\n", prog);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-12s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'%s <command> --help' describes a command's options.\n", prog);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'; the commands are:\n", prog, argv[1]);
	usage(stderr);
	return 2;
}
