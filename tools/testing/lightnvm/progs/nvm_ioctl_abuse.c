// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_ioctl_abuse - feed /dev/lightnvm/control every kind of bad input and
 * check that each is refused with its specific errno (and that valid
 * requests still work in between). Prints one "ok"/"FAIL" line per case
 * and exits non-zero if any case failed.
 *
 *   nvm_ioctl_abuse full DEV TYPE NR_LUNS
 *	DEV registered and bound, TYPE a registered target type whose disk
 *	can be opened, NR_LUNS the LUNs of DEV, no target on DEV
 *   nvm_ioctl_abuse nodev
 *	no device registered at all
 *   nvm_ioctl_abuse getdevs N
 *	N devices registered: GET_DEVICES reports min(N, 31) and never
 *	writes past its structure
 */

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/lightnvm.h>

static const char *prog = "nvm_ioctl_abuse";

#include "lnvm_prog.h"

static int ctl = -1;
static int failures;
static long page;

/* a check's line on stdout, counted in failures when !ok */
#define report(ok, ...) lnvm_report(&failures, ok, __VA_ARGS__)

/* Run one ioctl and compare its errno (0: success) with @want. */
static int expect(const char *what, unsigned long cmd, void *arg, int want)
{
	int ret = ioctl(ctl, cmd, arg);
	int got = ret ? errno : 0;

	if (ret && ret != -1)
		got = -1000;
	if (got == want)
		report(1, "%s: %s", what, want ? strerror(want) : "success");
	else
		report(0, "%s: got %d (%s), want %d (%s)", what, got,
		       got ? strerror(got) : "success", want,
		       want ? strerror(want) : "success");
	return got;
}

static const unsigned long cmds[] = {
	NVM_INFO, NVM_GET_DEVICES, NVM_DEV_CREATE, NVM_DEV_REMOVE,
	NVM_DEV_INIT, NVM_DEV_FACTORY,
};
static const char *const cmd_names[] = {
	"INFO", "GET_DEVICES", "DEV_CREATE", "DEV_REMOVE", "DEV_INIT",
	"DEV_FACTORY",
};
#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static void fill_create(struct nvm_ioctl_create *c, const char *dev,
			const char *type, const char *name, unsigned int b,
			unsigned int e)
{
	memset(c, 0, sizeof(*c));
	strncpy(c->dev, dev, sizeof(c->dev) - 1);
	strncpy(c->tgttype, type, sizeof(c->tgttype) - 1);
	strncpy(c->tgtname, name, sizeof(c->tgtname) - 1);
	c->conf.type = NVM_CONFIG_TYPE_SIMPLE;
	c->conf.s.lun_begin = b;
	c->conf.s.lun_end = e;
}

static void fill_remove(struct nvm_ioctl_remove *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	strncpy(r->tgtname, name, sizeof(r->tgtname) - 1);
}

/* A page that is mapped, then unmapped: a valid-looking bad pointer. */
static void *unmapped_page(void)
{
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	munmap(p, page);
	return p;
}

/* Bad pointers, unknown commands: the same for every mode. */
static void bad_pointers(void)
{
	void *gone = unmapped_page();
	char *ro, *edge;
	unsigned int i;

	for (i = 0; i < NR_CMDS; i++) {
		char what[64];

		snprintf(what, sizeof(what), "%s with NULL", cmd_names[i]);
		expect(what, cmds[i], NULL, EFAULT);
		snprintf(what, sizeof(what), "%s with unmapped pointer",
			 cmd_names[i]);
		expect(what, cmds[i], gone, EFAULT);
	}

	/* output into a read-only page: copy_to_user fails, nothing leaks */
	ro = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	memset(ro, 0, 2 * page);
	mprotect(ro, 2 * page, PROT_READ);
	expect("INFO into a read-only buffer", NVM_INFO, ro, EFAULT);
	expect("GET_DEVICES into a read-only buffer", NVM_GET_DEVICES, ro,
	       EFAULT);
	munmap(ro, 2 * page);

	/* a structure running off the end of the mapping */
	edge = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	munmap(edge + page, page);
	memset(edge, 0, page);
	expect("DEV_CREATE straddling an unmapped page", NVM_DEV_CREATE,
	       edge + page - sizeof(struct nvm_ioctl_create) / 2, EFAULT);
	expect("INFO straddling an unmapped page", NVM_INFO,
	       edge + page - 64, EFAULT);
	munmap(edge, page);

	expect("unknown command 'L' 0x30", _IO(NVM_IOCTL, 0x30), NULL, ENOTTY);
	expect("unknown command 'L' 0x1f", _IOW(NVM_IOCTL, 0x1f, int), NULL,
	       ENOTTY);
	expect("INFO number with a wrong size", _IOWR(NVM_IOCTL, NVM_INFO_CMD,
						      int), NULL, ENOTTY);
	expect("foreign ioctl type 'X' 0x20", _IO('X', 0x20), NULL, ENOTTY);
}

/* Every command as uid/gid 65534 on an fd opened as root: -EPERM. */
static void not_root(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!pid) {
		struct nvm_ioctl_info info;
		unsigned int i;

		if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
			perror("dropping privileges");
			_exit(2);
		}
		memset(&info, 0, sizeof(info));
		failures = 0;
		for (i = 0; i < NR_CMDS; i++) {
			char what[64];

			snprintf(what, sizeof(what), "%s as uid 65534",
				 cmd_names[i]);
			expect(what, cmds[i], &info, EPERM);
		}
		expect("unknown command as uid 65534", _IO(NVM_IOCTL, 0x30),
		       NULL, ENOTTY);
		_exit(failures ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		report(0, "non-root child failed (status 0x%x)", status);
	else
		report(1, "non-root child: every command refused");
}

static void info_cases(const char *type)
{
	struct nvm_ioctl_info *info = calloc(1, sizeof(*info));
	int i, found = 0;

	if (!info)
		exit(2);
	info->reserved16 = 1;
	expect("INFO with reserved16 set", NVM_INFO, info, EINVAL);
	info->reserved16 = 0;
	info->reserved[11] = 0xdead;
	expect("INFO with reserved[11] set", NVM_INFO, info, EINVAL);
	info->reserved[11] = 0;
	if (!expect("INFO valid", NVM_INFO, info, 0)) {
		report(info->version[0] == 1 && info->version[1] == 0 &&
		       info->version[2] == 0, "INFO version %u.%u.%u",
		       info->version[0], info->version[1], info->version[2]);
		report(info->tgtsize <= NVM_TTYPE_MAX, "INFO tgtsize %u <= %d",
		       info->tgtsize, NVM_TTYPE_MAX);
		for (i = 0; type && i < info->tgtsize && i < NVM_TTYPE_MAX; i++)
			if (!strncmp(info->tgts[i].tgtname, type,
				     NVM_TTYPE_NAME_MAX))
				found = 1;
		if (type)
			report(found, "INFO lists target type %s", type);
	}
	free(info);
}

static int disk_open(const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/%s", name);
	return open(path, O_RDONLY);
}

static void full(const char *dev, const char *type, unsigned int nr_luns)
{
	struct nvm_ioctl_create c;
	struct nvm_ioctl_remove r;
	struct nvm_ioctl_dev_init in;
	struct nvm_ioctl_dev_factory f;
	struct nvm_ioctl_get_devices *gd;
	unsigned int i;
	int fd, found = 0;

	if (nr_luns < 3) {
		fprintf(stderr, "need a device with at least 3 LUNs\n");
		exit(2);
	}
	info_cases(type);

	gd = calloc(1, sizeof(*gd));
	if (!gd)
		exit(2);
	memset(gd, 0xa5, sizeof(*gd));	/* output only: garbage in is fine */
	if (!expect("GET_DEVICES valid", NVM_GET_DEVICES, gd, 0)) {
		for (i = 0; i < gd->nr_devices && i < 31; i++)
			if (!strcmp(gd->info[i].devname, dev))
				found = i + 1;
		report(found, "GET_DEVICES lists %s", dev);
		if (found)
			report(gd->info[found - 1].flags == NVM_DEVICE_ACTIVE &&
			       !strcmp(gd->info[found - 1].bmname, "gennvm"),
			       "GET_DEVICES: %s active with gennvm", dev);
	}
	free(gd);

	/* create: names */
	fill_create(&c, dev, type, "t_a", 0, 1);
	memset(c.dev, 'a', sizeof(c.dev));
	expect("CREATE dev not NUL-terminated", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", 0, 1);
	memset(c.tgttype, 'a', sizeof(c.tgttype));
	expect("CREATE tgttype not NUL-terminated", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", 0, 1);
	memset(c.tgtname, 'a', sizeof(c.tgtname));
	expect("CREATE tgtname not NUL-terminated", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, "", type, "t_a", 0, 1);
	expect("CREATE empty dev", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, "", "t_a", 0, 1);
	expect("CREATE empty tgttype", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "", 0, 1);
	expect("CREATE empty tgtname", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "a/b", 0, 1);
	expect("CREATE tgtname with '/'", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "..", 0, 1);
	expect("CREATE tgtname '..'", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, "nosuchtype", "t_a", 0, 1);
	expect("CREATE unknown target type", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, "nosuchdev", type, "t_a", 0, 1);
	expect("CREATE unknown device", NVM_DEV_CREATE, &c, ENODEV);

	/* create: flags and configuration */
	fill_create(&c, dev, type, "t_a", 0, 1);
	c.flags = 0x2;
	expect("CREATE unknown flag 0x2", NVM_DEV_CREATE, &c, EINVAL);
	c.flags = 0x80000000;
	expect("CREATE unknown flag 0x80000000", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", 0, 1);
	c.conf.type = 2;
	expect("CREATE unknown conf.type 2", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", 0, 0);
	c.conf.type = NVM_CONFIG_TYPE_EXTENDED;
	c.conf.e.lun_end = 1;
	c.conf.e.rsv = 1;
	expect("CREATE extended with rsv set", NVM_DEV_CREATE, &c, EINVAL);
	c.conf.e.rsv = 0;
	c.conf.e.over_prov = 100;
	expect("CREATE extended with over_prov 100", NVM_DEV_CREATE, &c, EINVAL);

	/* create: LUN ranges */
	fill_create(&c, dev, type, "t_a", 2, 1);
	expect("CREATE lun_begin > lun_end", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", 0, nr_luns);
	expect("CREATE lun_end == nr_luns", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", nr_luns, nr_luns);
	expect("CREATE lun_begin == nr_luns", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", 0xffffffffu, 0xffffffffu);
	expect("CREATE lun_begin 0xffffffff", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", 0, 0x80000000u);
	expect("CREATE lun_end 0x80000000", NVM_DEV_CREATE, &c, EINVAL);
	fill_create(&c, dev, type, "t_a", 0, 0);
	c.conf.type = NVM_CONFIG_TYPE_EXTENDED;
	c.conf.e.lun_begin = 0;
	c.conf.e.lun_end = nr_luns;
	expect("CREATE extended lun_end == nr_luns", NVM_DEV_CREATE, &c, EINVAL);

	/* valid, then duplicates and overlaps */
	fill_create(&c, dev, type, "t_a", 0, 1);
	expect("CREATE t_a LUNs 0-1", NVM_DEV_CREATE, &c, 0);
	fill_create(&c, dev, type, "t_a", 2, 2);
	expect("CREATE duplicate name t_a", NVM_DEV_CREATE, &c, EEXIST);
	fill_create(&c, dev, type, "t_b", 1, 2);
	expect("CREATE t_b overlapping LUN 1", NVM_DEV_CREATE, &c, EBUSY);
	fill_create(&c, dev, type, "t_b", 0, 0);
	expect("CREATE t_b inside t_a", NVM_DEV_CREATE, &c, EBUSY);
	fill_create(&c, dev, type, "t_b", 0, nr_luns - 1);
	expect("CREATE t_b around t_a", NVM_DEV_CREATE, &c, EBUSY);
	fill_create(&c, dev, type, "t_b", 0, 0);
	c.conf.type = NVM_CONFIG_TYPE_EXTENDED;
	c.conf.e.lun_begin = 2;
	c.conf.e.lun_end = nr_luns - 1;
	c.conf.e.over_prov = 10;
	c.flags = NVM_TARGET_FACTORY;
	expect("CREATE t_b extended, factory, LUNs 2-last", NVM_DEV_CREATE, &c, 0);

	/* factory and init while targets exist */
	memset(&f, 0, sizeof(f));
	strncpy(f.dev, dev, sizeof(f.dev) - 1);
	expect("FACTORY with targets", NVM_DEV_FACTORY, &f, EBUSY);

	/* remove */
	fill_remove(&r, "t_a");
	memset(r.tgtname, 'x', sizeof(r.tgtname));
	expect("REMOVE name not NUL-terminated", NVM_DEV_REMOVE, &r, EINVAL);
	fill_remove(&r, "");
	expect("REMOVE empty name", NVM_DEV_REMOVE, &r, EINVAL);
	fill_remove(&r, "t_a");
	r.flags = 1;
	expect("REMOVE unknown flags", NVM_DEV_REMOVE, &r, EINVAL);
	fill_remove(&r, "nosuchtarget");
	expect("REMOVE unknown name", NVM_DEV_REMOVE, &r, ENODEV);
	fill_remove(&r, dev);
	expect("REMOVE given the device name", NVM_DEV_REMOVE, &r, ENODEV);
	fd = disk_open("t_a");
	if (fd < 0) {
		report(0, "open /dev/t_a: %s", strerror(errno));
	} else {
		fill_remove(&r, "t_a");
		expect("REMOVE t_a while open", NVM_DEV_REMOVE, &r, EBUSY);
		close(fd);
	}
	fill_remove(&r, "t_a");
	expect("REMOVE t_a", NVM_DEV_REMOVE, &r, 0);
	expect("REMOVE t_a again", NVM_DEV_REMOVE, &r, ENODEV);
	fd = disk_open("t_a");
	report(fd < 0, "/dev/t_a gone after remove");
	if (fd >= 0)
		close(fd);
	fill_remove(&r, "t_b");
	expect("REMOVE t_b", NVM_DEV_REMOVE, &r, 0);

	/* init */
	memset(&in, 0, sizeof(in));
	memset(in.dev, 'd', sizeof(in.dev));
	strcpy(in.mmtype, "gennvm");
	expect("INIT dev not NUL-terminated", NVM_DEV_INIT, &in, EINVAL);
	memset(&in, 0, sizeof(in));
	strncpy(in.dev, dev, sizeof(in.dev) - 1);
	memcpy(in.mmtype, "gennvmXY", sizeof(in.mmtype));
	expect("INIT mmtype not NUL-terminated", NVM_DEV_INIT, &in, EINVAL);
	memset(in.mmtype, 0, sizeof(in.mmtype));
	expect("INIT empty mmtype", NVM_DEV_INIT, &in, EINVAL);
	strcpy(in.mmtype, "gennvm");
	in.flags = 1;
	expect("INIT unknown flags", NVM_DEV_INIT, &in, EINVAL);
	in.flags = 0;
	strcpy(in.mmtype, "nosuch");
	expect("INIT unknown media manager", NVM_DEV_INIT, &in, EINVAL);
	strcpy(in.mmtype, "gennvm");
	memset(in.dev, 0, sizeof(in.dev));
	strcpy(in.dev, "nosuchdev");
	expect("INIT unknown device", NVM_DEV_INIT, &in, ENODEV);
	memset(in.dev, 0, sizeof(in.dev));
	strncpy(in.dev, dev, sizeof(in.dev) - 1);
	expect("INIT already bound", NVM_DEV_INIT, &in, EEXIST);

	/* factory */
	memset(&f, 0, sizeof(f));
	memset(f.dev, 'f', sizeof(f.dev));
	expect("FACTORY dev not NUL-terminated", NVM_DEV_FACTORY, &f, EINVAL);
	memset(&f, 0, sizeof(f));
	strcpy(f.dev, "nosuchdev");
	expect("FACTORY unknown device", NVM_DEV_FACTORY, &f, ENODEV);
	memset(&f, 0, sizeof(f));
	strncpy(f.dev, dev, sizeof(f.dev) - 1);
	f.flags = NVM_FACTORY_NR_BITS;
	expect("FACTORY unknown flag 0x8", NVM_DEV_FACTORY, &f, EINVAL);
	f.flags = NVM_FACTORY_ERASE_ONLY_USER;
	expect("FACTORY erase only user blocks", NVM_DEV_FACTORY, &f, 0);
}

static void nodev(void)
{
	struct nvm_ioctl_get_devices *gd = calloc(1, sizeof(*gd));
	struct nvm_ioctl_create c;
	struct nvm_ioctl_remove r;
	struct nvm_ioctl_dev_init in;
	struct nvm_ioctl_dev_factory f;

	if (!gd)
		exit(2);
	if (!expect("GET_DEVICES without devices", NVM_GET_DEVICES, gd, 0))
		report(gd->nr_devices == 0, "GET_DEVICES reports %u devices",
		       gd->nr_devices);
	free(gd);
	fill_remove(&r, "t_a");
	expect("REMOVE without devices", NVM_DEV_REMOVE, &r, ENODEV);
	fill_create(&c, "nvm_mem0", "nvm_tgt_test", "t_a", 0, 0);
	expect("CREATE without devices", NVM_DEV_CREATE, &c, ENODEV);
	memset(&in, 0, sizeof(in));
	strcpy(in.dev, "nvm_mem0");
	strcpy(in.mmtype, "gennvm");
	expect("INIT without devices", NVM_DEV_INIT, &in, ENODEV);
	memset(&f, 0, sizeof(f));
	strcpy(f.dev, "nvm_mem0");
	expect("FACTORY without devices", NVM_DEV_FACTORY, &f, ENODEV);
	info_cases(NULL);
}

/* The structure fills exactly one page: the next one is inaccessible. */
static void getdevs(unsigned int n)
{
	struct nvm_ioctl_get_devices *gd;
	unsigned int want = n < 31 ? n : 31, i;
	char *p;
	int distinct = 1;

	if (sizeof(*gd) > (size_t)page) {
		report(0, "nvm_ioctl_get_devices is %zu bytes", sizeof(*gd));
		return;
	}
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	mprotect(p + page, page, PROT_NONE);
	gd = (void *)(p + page - sizeof(*gd));
	memset(gd, 0, sizeof(*gd));
	if (expect("GET_DEVICES at the end of a page", NVM_GET_DEVICES, gd, 0))
		return;
	report(gd->nr_devices == want, "GET_DEVICES reports %u devices, want %u",
	       gd->nr_devices, want);
	for (i = 1; i < gd->nr_devices && i < 31; i++)
		if (!strcmp(gd->info[i].devname, gd->info[i - 1].devname) ||
		    !gd->info[i].devname[0])
			distinct = 0;
	report(distinct, "GET_DEVICES entries are named and distinct");
	munmap(p, 2 * page);
}

int main(int argc, char **argv)
{
	page = sysconf(_SC_PAGESIZE);
	if (argc < 2) {
		fprintf(stderr, "usage: %s full DEV TYPE NR_LUNS | nodev | getdevs N\n",
			argv[0]);
		return 2;
	}
	ctl = open(NVM_CTRL_FILE, O_RDWR);
	if (ctl < 0) {
		perror(NVM_CTRL_FILE);
		return 2;
	}

	if (!strcmp(argv[1], "full") && argc == 5) {
		bad_pointers();
		not_root();
		full(argv[2], argv[3], strtoul(argv[4], NULL, 0));
	} else if (!strcmp(argv[1], "nodev") && argc == 2) {
		bad_pointers();
		not_root();
		nodev();
	} else if (!strcmp(argv[1], "getdevs") && argc == 3) {
		getdevs(strtoul(argv[2], NULL, 0));
	} else {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	close(ctl);
	printf("%d failure%s\n", failures, failures == 1 ? "" : "s");
	return failures ? 1 : 0;
}
