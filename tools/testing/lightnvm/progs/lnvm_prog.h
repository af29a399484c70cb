/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnvm_prog.h - helpers shared by the test programs under progs/
 * (lnvm_crash, lnvm_pcw, nvm_ioctl_abuse, nvm_vio_abuse): fatal errors
 * with an exit code, "ok"/"FAIL" check lines, allocation that cannot
 * fail, the splitmix64 generator. The including file defines
 * "static const char *prog" (its name, for messages) before including it.
 */
#ifndef LNVM_PROG_H
#define LNVM_PROG_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* print "PROG: message" on stderr and exit with @code */
static inline void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

/*
 * print one check's line, "ok MESSAGE" or "FAIL MESSAGE", on stdout (flushed:
 * a test may die right after it) and count a failure in *@failures
 */
static inline void __attribute__((format(printf, 3, 4)))
lnvm_report(int *failures, int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		(*failures)++;
}

/* calloc() of at least one byte, or die with exit code 3 */
static inline void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		die(3, "out of memory");
	return p;
}

/* the next value of the splitmix64 sequence of state @s */
static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif /* LNVM_PROG_H */
