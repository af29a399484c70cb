// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_cellop - one block-device operation of the fault matrix
 * (tests/faults): does it and prints its result as one word, "ok" or the
 * errno's name (EIO, ENOSPC, ENXIO, ...), then the seconds it took:
 *
 *   nvm_cellop flush DEV     open for writing, fsync(): a REQ_PREFLUSH
 *   nvm_cellop fua DEV [LBA] one 4 KiB O_DIRECT|O_DSYNC write: REQ_FUA
 *   nvm_cellop read DEV [LBA] one 4 KiB O_DIRECT read
 *   nvm_cellop discard DEV [LBA] BLKDISCARD of 64 KiB
 *   nvm_cellop write DEV [LBA] one 4 KiB O_DIRECT write, no flush
 *
 * LBA counts 4 KiB sectors (default 0). With CELLOP_FAILNTH=N in the
 * environment, the N-th fault-injection point (failslab) the operation's
 * system call reaches after the open() fails (/proc/thread-self/fail-nth).
 * The exit status is 0 whatever the operation returned (the matrix
 * compares the word with what the cell allows); 2 on a usage error.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define CELLOP_SEC	4096

static const char *cellop_errname(int e)
{
	switch (e) {
	case 0:		return "ok";
	case EIO:	return "EIO";
	case ENOSPC:	return "ENOSPC";
	case ENXIO:	return "ENXIO";
	case ENODEV:	return "ENODEV";
	case ENOENT:	return "ENOENT";
	case EBUSY:	return "EBUSY";
	case ENOMEM:	return "ENOMEM";
	case EROFS:	return "EROFS";
	case EPERM:	return "EPERM";
	case EINVAL:	return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ETIMEDOUT:	return "ETIMEDOUT";
	case ENOLINK:	return "ENOLINK";
	case EAGAIN:	return "EAGAIN";
	default:	return NULL;
	}
}

static double cellop_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CELLOP_FAILNTH: arm fail-nth for the next system calls of this thread. */
static void cellop_failnth(void)
{
	const char *n = getenv("CELLOP_FAILNTH");
	int fd;

	if (!n || !*n)
		return;
	fd = open("/proc/thread-self/fail-nth", O_WRONLY);
	if (fd < 0 || write(fd, n, strlen(n)) < 0) {
		perror("nvm_cellop: /proc/thread-self/fail-nth");
		exit(2);
	}
	close(fd);
}

/* Returns 0 or an errno. */
static int cellop_run(const char *op, const char *dev, uint64_t lba)
{
	uint64_t range[2] = { lba * CELLOP_SEC, 16 * CELLOP_SEC };
	void *buf = NULL;
	int fd, flags, e = 0;
	ssize_t n;

	if (!strcmp(op, "read"))
		flags = O_RDONLY | O_DIRECT;
	else if (!strcmp(op, "fua"))
		flags = O_WRONLY | O_DIRECT | O_DSYNC;
	else if (!strcmp(op, "write"))
		flags = O_WRONLY | O_DIRECT;
	else if (!strcmp(op, "flush") || !strcmp(op, "discard"))
		flags = O_WRONLY;
	else
		return -1;
	if (posix_memalign(&buf, CELLOP_SEC, CELLOP_SEC))
		return ENOMEM;
	memset(buf, 0x5a, CELLOP_SEC);
	fd = open(dev, flags);
	if (fd < 0) {
		e = errno;
		goto out;
	}
	cellop_failnth();
	if (!strcmp(op, "flush")) {
		if (fsync(fd))
			e = errno;
	} else if (!strcmp(op, "discard")) {
		if (ioctl(fd, BLKDISCARD, range))
			e = errno;
	} else if (!strcmp(op, "read")) {
		n = pread(fd, buf, CELLOP_SEC, lba * CELLOP_SEC);
		if (n < 0)
			e = errno;
		else if (n != CELLOP_SEC)
			e = EIO;
	} else {
		n = pwrite(fd, buf, CELLOP_SEC, lba * CELLOP_SEC);
		if (n < 0)
			e = errno;
		else if (n != CELLOP_SEC)
			e = EIO;
	}
	/* close() of a block device flushes nothing more: no error of its own */
	close(fd);
out:
	free(buf);
	return e;
}

int main(int argc, char **argv)
{
	uint64_t lba = 0;
	const char *name;
	double t0;
	int e;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: nvm_cellop flush|fua|read|discard|write DEV [LBA]\n");
		return 2;
	}
	if (argc == 4)
		lba = strtoull(argv[3], NULL, 0);
	t0 = cellop_now();
	e = cellop_run(argv[1], argv[2], lba);
	if (e < 0) {
		fprintf(stderr, "nvm_cellop: unknown operation %s\n", argv[1]);
		return 2;
	}
	name = cellop_errname(e);
	if (name)
		printf("%s %.1f\n", name, cellop_now() - t0);
	else
		printf("E%d %.1f\n", e, cellop_now() - t0);
	return 0;
}
