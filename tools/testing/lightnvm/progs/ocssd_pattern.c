// SPDX-License-Identifier: GPL-2.0
/*
 * ocssd_pattern - known data for the Open-Channel SSD tests, and a check of
 * the raw media of an NVMe open-channel namespace against it.
 *
 *   ocssd_pattern gen SEED FIRST COUNT
 *	write to stdout COUNT 4 KiB sectors: the data of LBAs FIRST.. for
 *	the test run SEED (never all zero)
 *   ocssd_pattern check SEED FIRST COUNT
 *	compare stdin with what gen writes; exit 1 on the first difference
 *   ocssd_pattern scan CTRL NSID SECTORS OOB SEED COUNT
 *	read all SECTORS sectors of namespace NSID of the NVMe controller
 *	CTRL (e.g. /dev/nvme0) through the device's linear view (ordinary
 *	NVMe Read, OOB bytes as metadata, OOB bytes per sector), read each
 *	programmed sector's OOB as rrpc writes it (format 1: le32 lba, the
 *	LUN range, le64 sequence number and format version), and check
 *	that every LBA 0..COUNT-1 has a copy on the media
 *	whose newest version holds the data gen writes for it. Prints a
 *	summary; exit 1 if an LBA is missing or its data is wrong.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <endian.h>
#include <linux/nvme_ioctl.h>

#define SECTOR		4096
#define CHUNK		64	/* sectors per read command */

static void fill(unsigned long seed, unsigned long lba, unsigned char *buf)
{
	char line[80];
	int len, off = 0;

	len = snprintf(line, sizeof(line), "lightnvm ocssd seed=%lu lba=%lu\n",
		       seed, lba);
	while (off < SECTOR) {
		int n = SECTOR - off < len ? SECTOR - off : len;

		memcpy(buf + off, line, n);
		off += n;
	}
}

static int parse(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "ocssd_pattern: bad number '%s'\n", s);
		return -1;
	}
	return 0;
}

static int cmd_gen(unsigned long seed, unsigned long first, unsigned long count)
{
	unsigned char buf[SECTOR];
	unsigned long i;

	for (i = 0; i < count; i++) {
		fill(seed, first + i, buf);
		if (fwrite(buf, SECTOR, 1, stdout) != 1) {
			perror("ocssd_pattern: write");
			return 1;
		}
	}
	return fflush(stdout) ? 1 : 0;
}

static int cmd_check(unsigned long seed, unsigned long first,
		     unsigned long count)
{
	unsigned char want[SECTOR], got[SECTOR];
	unsigned long i;

	for (i = 0; i < count; i++) {
		if (fread(got, SECTOR, 1, stdin) != 1) {
			fprintf(stderr, "ocssd_pattern: short input at lba %lu\n",
				first + i);
			return 1;
		}
		fill(seed, first + i, want);
		if (memcmp(want, got, SECTOR)) {
			fprintf(stderr, "ocssd_pattern: lba %lu differs\n",
				first + i);
			return 1;
		}
	}
	return 0;
}

struct copy {
	int		found;
	uint64_t	seq;
	unsigned char	data[SECTOR];
};

static int all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static int cmd_scan(const char *ctrl, unsigned long nsid, unsigned long secs,
		    unsigned long oob, unsigned long seed, unsigned long count)
{
	unsigned char *data, *meta, want[SECTOR];
	unsigned long s, i, programmed = 0, copies = 0, missing = 0, bad = 0;
	struct copy *c;
	int fd, ret = 1;

	if (oob < 16) {
		fprintf(stderr, "ocssd_pattern: %lu OOB bytes cannot hold rrpc's lba and sequence\n",
			oob);
		return 1;
	}
	fd = open(ctrl, O_RDONLY);
	if (fd < 0) {
		perror(ctrl);
		return 1;
	}
	data = malloc(CHUNK * SECTOR);
	meta = malloc(CHUNK * oob);
	c = calloc(count, sizeof(*c));
	if (!data || !meta || !c) {
		fprintf(stderr, "ocssd_pattern: out of memory\n");
		goto out;
	}

	for (s = 0; s < secs; s += CHUNK) {
		unsigned long n = secs - s < CHUNK ? secs - s : CHUNK;
		struct nvme_passthru_cmd cmd = {
			.opcode = 0x02,
			.nsid = nsid,
			.addr = (uintptr_t)data,
			.data_len = n * SECTOR,
			.metadata = (uintptr_t)meta,
			.metadata_len = n * oob,
			.cdw10 = s & 0xffffffff,
			.cdw11 = s >> 32,
			.cdw12 = n - 1,
		};
		int st = ioctl(fd, NVME_IOCTL_IO_CMD, &cmd);

		if (st) {
			fprintf(stderr, "ocssd_pattern: read of sectors %lu+%lu: %s\n",
				s, n, st < 0 ? strerror(errno) : "NVMe error");
			goto out;
		}
		for (i = 0; i < n; i++) {
			const unsigned char *d = data + i * SECTOR;
			uint64_t lba, seq;
			uint32_t lba32;

			if (all_zero(d, SECTOR))
				continue;
			programmed++;
			/* rrpc's OOB format 1: le32 lba, le16 x2 LUN range,
			 * le64 sequence (bits 0-55) and version (56-63)
			 */
			memcpy(&lba32, meta + i * oob, 4);
			memcpy(&seq, meta + i * oob + 8, 8);
			lba = le32toh(lba32);
			seq = le64toh(seq) & ((1ULL << 56) - 1);
			if (lba >= count)
				continue;
			copies++;
			if (c[lba].found && c[lba].seq > seq)
				continue;
			c[lba].found = 1;
			c[lba].seq = seq;
			memcpy(c[lba].data, d, SECTOR);
		}
	}

	for (i = 0; i < count; i++) {
		if (!c[i].found) {
			if (missing++ < 5)
				fprintf(stderr, "ocssd_pattern: lba %lu not on the media\n", i);
			continue;
		}
		fill(seed, i, want);
		if (memcmp(want, c[i].data, SECTOR) && bad++ < 5)
			fprintf(stderr, "ocssd_pattern: newest copy of lba %lu (seq %llu) has other data\n",
				i, (unsigned long long)c[i].seq);
	}
	printf("scanned %lu sectors: %lu programmed, %lu copies of LBAs 0-%lu\n",
	       secs, programmed, copies, count - 1);
	printf("%lu of %lu LBAs found with their data and OOB\n",
	       count - missing - bad, count);
	ret = missing || bad;
out:
	free(c);
	free(meta);
	free(data);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long v[6];
	int i;

	if (argc == 5 && (!strcmp(argv[1], "gen") || !strcmp(argv[1], "check"))) {
		for (i = 0; i < 3; i++)
			if (parse(argv[i + 2], &v[i]))
				return 2;
		if (!strcmp(argv[1], "gen"))
			return cmd_gen(v[0], v[1], v[2]);
		return cmd_check(v[0], v[1], v[2]);
	}
	if (argc == 8 && !strcmp(argv[1], "scan")) {
		for (i = 0; i < 5; i++)
			if (parse(argv[i + 3], &v[i]))
				return 2;
		if (!v[4] || !v[1])
			return 2;
		return cmd_scan(argv[2], v[0], v[1], v[2], v[3], v[4]);
	}
	fprintf(stderr,
		"usage: ocssd_pattern gen|check SEED FIRST COUNT\n"
		"       ocssd_pattern scan CTRL NSID SECTORS OOB SEED COUNT\n");
	return 2;
}
