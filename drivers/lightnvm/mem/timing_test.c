// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of nvm_mem's NAND timing model (timing.c, linked into the
 * nvm_mem_test module with media_test.c): LUNs and channels working in
 * parallel, a command queueing behind a busy LUN or a busy channel, reads
 * waiting for programs and erases, how a command's addresses become LUN
 * operations, the busy-time counters, and the knobs' ranges.
 */

#include <kunit/test.h>
#include <linux/slab.h>

#include "nvm_mem.h"

#define TR	(50 * NSEC_PER_USEC)
#define TPROG	(1300 * NSEC_PER_USEC)
#define TBERS	(3000 * NSEC_PER_USEC)
#define TX	10240ULL

/* 2 channels x 2 LUNs, the default (MLC) timings, the model on. */
static struct nvm_mem_timing *t_timing(struct kunit *test)
{
	struct nvm_mem_tparams p = nvm_mem_default_tparams;
	struct nvm_mem_timing *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	p.timing = 1;
	nvm_mem_timing_init(t, &p);
	KUNIT_ASSERT_EQ(test, nvm_mem_timing_alloc(t, 2, 2), 0);
	return t;
}

static u64 t_op(struct nvm_mem_timing *t, int op, u32 lun, u32 nr_sec,
		u32 nr_arr, u64 now)
{
	unsigned long flags;
	u64 end;

	spin_lock_irqsave(&t->lock, flags);
	end = nvm_mem_timing_lun_op(t, op, lun, nr_sec, nr_arr, now);
	spin_unlock_irqrestore(&t->lock, flags);
	return end;
}

/* LUNs 0 and 1 share channel 0, LUNs 2 and 3 channel 1. */
static void t_timing_parallel(struct kunit *test)
{
	struct nvm_mem_timing *t = t_timing(test);

	/* other channel: fully parallel */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 0, 1, 1, 0), TR + TX);
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 2, 1, 1, 0), TR + TX);
	/* same channel, other LUN: array reads overlap, transfers queue */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 1, 1, 1, 0), TR + 2 * TX);
	/* same LUN: waits for it */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 0, 1, 1, 0),
			2 * (TR + TX));
	/* arriving after everything is idle: no queueing */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 3, 2, 1, TBERS),
			TBERS + TR + 2 * TX);

	KUNIT_EXPECT_EQ(test, t->lun_busy[0], 2 * (TR + TX));
	KUNIT_EXPECT_EQ(test, t->lun_busy[1], TR + 2 * TX);
	KUNIT_EXPECT_EQ(test, t->lun_busy[2], TR + TX);
	KUNIT_EXPECT_EQ(test, t->lun_busy[3], TR + 2 * TX);
	KUNIT_EXPECT_EQ(test, t->ch_busy[0], 3 * TX);
	KUNIT_EXPECT_EQ(test, t->ch_busy[1], 3 * TX);
	nvm_mem_timing_free(t);
}

static void t_timing_program_erase(struct kunit *test)
{
	struct nvm_mem_timing *t = t_timing(test);

	/* a program transfers, then holds its LUN for tPROG */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PWRITE, 0, 4, 1, 0),
			4 * TX + TPROG);
	/* the next one on the channel waits for the bus, not for LUN 0 */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PWRITE, 1, 4, 1, 0),
			8 * TX + TPROG);
	/* an erase holds its LUN only */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_ERASE, 2, 0, 1, 0), TBERS);
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 3, 1, 1, 0), TR + TX);
	/* a read queues behind a program of its LUN ... */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 0, 1, 1, 0),
			4 * TX + TPROG + TR + TX);
	/* ... and behind an erase */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 2, 1, 1, 0),
			TBERS + TR + TX);
	/* two pages: two tPROG; the transfer fits the bus's gap before LUN 2's */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PWRITE, 3, 8, 2, 0),
			TR + TX + 8 * TX + 2 * TPROG);
	KUNIT_EXPECT_EQ(test, t->lun_busy[1], 4 * TX + TPROG);
	KUNIT_EXPECT_EQ(test, t->lun_busy[2], TBERS + TR + TX);
	KUNIT_EXPECT_EQ(test, t->ch_busy[0], 9 * TX);
	nvm_mem_timing_free(t);
}

/*
 * A LUN with a long queue of reads holds up neither the other LUN's
 * transfers on its channel nor its own beyond its array reads; a transfer
 * longer than a gap takes the gap and goes on after the next booking; and
 * with more bookings than a channel keeps, none overlaps another.
 */
static void t_timing_channel_gaps(struct kunit *test)
{
	struct nvm_mem_timing *t = t_timing(test);
	u64 end, prev = 0;
	int i;

	for (i = 1; i <= 8; i++)
		KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 0, 1, 1, 0),
				i * (TR + TX));
	/* LUN 1 reads while LUN 0's data is not on the bus */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 1, 1, 1, 0), TR + 2 * TX);
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 1, 1, 1, 0),
			2 * TR + 3 * TX);
	/*
	 * a program of LUN 1: its 4 sectors fill the gap before LUN 0's
	 * third transfer (TR - TX long) and go on after it
	 */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PWRITE, 1, 4, 1, 0),
			2 * TR + 8 * TX + TPROG);
	/* busy from its first piece on: LUN 1 never idled */
	KUNIT_EXPECT_EQ(test, t->lun_busy[1], 2 * TR + 8 * TX + TPROG);
	KUNIT_EXPECT_EQ(test, t->ch_busy[0], 14 * TX);
	KUNIT_EXPECT_LE(test, t->ch_nr_res[0], (u32)NVM_MEM_CH_RES);

	/* 100 one-sector reads of LUN 3 at once: back to back, no overlap */
	for (i = 0; i < 100; i++) {
		end = t_op(t, NVM_OP_PREAD, 3, 1, 1, 0);
		KUNIT_EXPECT_GE(test, end, prev + TX);
		prev = end;
	}
	KUNIT_EXPECT_LE(test, t->ch_nr_res[1], (u32)NVM_MEM_CH_RES);
	/* LUN 2 then finds the bus in one of the gaps */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 2, 1, 1, 0), TR + 2 * TX);
	/* everything ended: the bookings are dropped */
	KUNIT_EXPECT_EQ(test, t_op(t, NVM_OP_PREAD, 2, 1, 1, 1000 * TBERS),
			1000 * TBERS + TR + TX);
	KUNIT_EXPECT_EQ(test, t->ch_nr_res[1], 1U);
	nvm_mem_timing_free(t);
}

static const struct nvm_mem_cfg t_cfg = {
	.num_ch = 2, .num_lun = 2, .num_pln = 2, .num_blk = 8, .num_pg = 8,
	.sec_per_pg = 4, .oob_size = 16, .bb_seed = 1, .data = 1,
	.version = 1,
};

/* A command's addresses become one operation per run on a LUN. */
static void t_timing_cmd(struct kunit *test)
{
	struct nvm_mem_timing *t = t_timing(test);
	struct nvm_mem_media *m = nvm_mem_media_create(&t_cfg);
	struct ppa_addr ppas[16];
	struct nvm_rq rqd = { };
	int i, n = 0;

	KUNIT_ASSERT_NOT_NULL(test, m);
	/* a two-plane page of (ch 0, LUN 0): one tR, 8 transfers */
	for (i = 0; i < 8; i++)
		ppas[n++].ppa = nvm_mem_encode(&m->ppaf, 0, 0, 1, i / 4, 3,
					       i % 4);
	/* and 4 sectors of (ch 1, LUN 0), in parallel */
	for (i = 0; i < 4; i++)
		ppas[n++].ppa = nvm_mem_encode(&m->ppaf, 1, 0, 1, 0, 3, i);
	rqd.opcode = NVM_OP_PREAD;
	rqd.ppa_list = ppas;
	rqd.nr_ppas = n;
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_cmd(t, m, &rqd, 0), TR + 8 * TX);
	KUNIT_EXPECT_EQ(test, t->lun_busy[0], TR + 8 * TX);
	KUNIT_EXPECT_EQ(test, t->lun_busy[2], TR + 4 * TX);

	/* two pages of one LUN: two tR */
	n = 0;
	ppas[n++].ppa = nvm_mem_encode(&m->ppaf, 0, 1, 1, 0, 3, 0);
	ppas[n++].ppa = nvm_mem_encode(&m->ppaf, 0, 1, 1, 0, 4, 0);
	rqd.nr_ppas = n;
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_cmd(t, m, &rqd, TBERS),
			TBERS + 2 * TR + 2 * TX);

	/* an erase of both planes of a block: one tBERS, no transfer */
	n = 0;
	ppas[n++].ppa = nvm_mem_encode(&m->ppaf, 1, 1, 2, 0, 0, 0);
	ppas[n++].ppa = nvm_mem_encode(&m->ppaf, 1, 1, 2, 1, 0, 0);
	rqd.opcode = NVM_OP_ERASE;
	rqd.nr_ppas = n;
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_cmd(t, m, &rqd, 0), TBERS);
	KUNIT_EXPECT_EQ(test, t->ch_busy[1], 4 * TX);

	/* a single address, outside the device: costs nothing */
	rqd.opcode = NVM_OP_PREAD;
	rqd.nr_ppas = 1;
	rqd.ppa_addr.ppa = ~0ULL;
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_cmd(t, m, &rqd, 7), 7ULL);

	/* the model off: completion at once, nothing counted */
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_set(t, "timing", 0, "t"), 0);
	rqd.ppa_addr.ppa = nvm_mem_encode(&m->ppaf, 0, 0, 1, 0, 3, 0);
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_cmd(t, m, &rqd, 5), 5ULL);
	KUNIT_EXPECT_EQ(test, t->lun_busy[0], TR + 8 * TX);
	KUNIT_EXPECT_FALSE(test, nvm_mem_timing_deferred(t));
	nvm_mem_media_free(m);
	nvm_mem_timing_free(t);
}

static void t_timing_knobs(struct kunit *test)
{
	struct nvm_mem_tparams p = nvm_mem_default_tparams;
	struct nvm_mem_timing *t = t_timing(test);
	u32 jitter;

	KUNIT_EXPECT_EQ(test, nvm_mem_tparams_validate(&p, "t"), 0);
	p.timing = 2;
	KUNIT_EXPECT_EQ(test, nvm_mem_tparams_validate(&p, "t"), -EINVAL);
	p.timing = 1;
	p.t_prog_us = NVM_MEM_MAX_T_US + 1;
	KUNIT_EXPECT_EQ(test, nvm_mem_tparams_validate(&p, "t"), -EINVAL);

	KUNIT_EXPECT_EQ(test, nvm_mem_timing_get(t, "t_read_us"), 50U);
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_set(t, "completion_delay_us",
						 NVM_MEM_MAX_DELAY_US + 1, "t"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_set(t, "timing", 0, "t"), 0);
	KUNIT_EXPECT_FALSE(test, nvm_mem_timing_deferred(t));
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_set(t, "completion_jitter_us", 9,
						 "t"), 0);
	KUNIT_EXPECT_TRUE(test, nvm_mem_timing_deferred(t));
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_set(t, "completion_delay_us", 3,
						 "t"), 0);
	KUNIT_EXPECT_EQ(test, nvm_mem_timing_delay(t, &jitter), 3U);
	KUNIT_EXPECT_EQ(test, jitter, 9U);
	nvm_mem_timing_free(t);
}

static struct kunit_case nvm_mem_timing_cases[] = {
	KUNIT_CASE(t_timing_parallel),
	KUNIT_CASE(t_timing_program_erase),
	KUNIT_CASE(t_timing_channel_gaps),
	KUNIT_CASE(t_timing_cmd),
	KUNIT_CASE(t_timing_knobs),
	{}
};

static struct kunit_suite nvm_mem_timing_suite = {
	.name = "nvm_mem_timing",
	.test_cases = nvm_mem_timing_cases,
};

kunit_test_suite(nvm_mem_timing_suite);
