// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of rrpc's pure logic (rrpc_map.c): the logical-to-physical
 * map and its reverse, per-block valid counts under every ordering of
 * write completion, overwrite, discard and GC moves; GC victim selection
 * from the index of closed blocks by valid count, which the map updates
 * keep current, and static wear leveling (when, and which block); whose
 * turn it is to take a user unit;
 * the capacity formula; map recovery (rrpc_recover.c): the merge of
 * scanned sectors by sequence number, GC copies, trim records, records
 * GC keeps, unreadable sectors, the checks a checkpoint must pass; the
 * out-of-space state under LUNs that
 * fill and free up at the same time (rrpc_io.c).
 */

#include <kunit/test.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include "rrpc.h"

#define T_LBAS		16
#define T_BLKS		4
#define T_SPB		4
#define E		RRPC_ADDR_EMPTY

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A target without a device: just the maps and the blocks. */
static int rrpc_test_init(struct kunit *test)
{
	struct rrpc_lun *rlun;
	struct rrpc *rrpc;
	u32 i;

	rrpc = kunit_kzalloc(test, sizeof(*rrpc), GFP_KERNEL);
	rlun = kunit_kzalloc(test, sizeof(*rlun), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rrpc);
	KUNIT_ASSERT_NOT_NULL(test, rlun);
	rlun->rrpc = rrpc;
	/* no workqueues: a kick of the LUN's GC is a no-op */
	rrpc->exiting = true;
	spin_lock_init(&rrpc->kick_lock);
	rrpc->spb = T_SPB;
	rrpc->spp = 2;
	rrpc->nr_lbas = T_LBAS;
	rrpc_wb_prepare(rrpc);
	rrpc->nr_blocks = T_BLKS;
	rrpc->nr_paddrs = T_BLKS * T_SPB;
	rrpc->map = kunit_kcalloc(test, T_LBAS, sizeof(*rrpc->map), GFP_KERNEL);
	rrpc->p2l = kunit_kcalloc(test, T_BLKS * T_SPB, sizeof(u32), GFP_KERNEL);
	rrpc->blocks = kunit_kcalloc(test, T_BLKS, sizeof(*rrpc->blocks),
				     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rrpc->map);
	KUNIT_ASSERT_NOT_NULL(test, rrpc->p2l);
	KUNIT_ASSERT_NOT_NULL(test, rrpc->blocks);
	for (i = 0; i < T_LBAS; i++) {
		rrpc->map[i].ppa = E;
		rrpc->map[i].wb = E;
	}
	for (i = 0; i < T_BLKS * T_SPB; i++)
		rrpc->p2l[i] = E;
	for (i = 0; i < T_BLKS; i++) {
		rrpc->blocks[i].idx = i;
		rrpc->blocks[i].rlun = rlun;
		INIT_LIST_HEAD(&rrpc->blocks[i].list);
		INIT_LIST_HEAD(&rrpc->blocks[i].vlist);
	}
	spin_lock_init(&rrpc->map_lock);
	test->priv = rrpc;
	return 0;
}

/* What the write path does: buffer lba in slot, then program at paddr. */
static void t_buffer(struct rrpc *rrpc, u32 lba, u32 slot)
{
	rrpc->map[lba].wb = slot;
}

static bool t_program(struct rrpc *rrpc, u32 lba, u32 slot, u32 paddr)
{
	bool ret;

	spin_lock(&rrpc->map_lock);
	rrpc->p2l[paddr] = lba;
	ret = rrpc_map_commit(rrpc, lba, paddr, slot);
	spin_unlock(&rrpc->map_lock);
	return ret;
}

static bool t_valid(struct rrpc *rrpc, u32 paddr, u32 *lba)
{
	bool ret;

	spin_lock(&rrpc->map_lock);
	ret = rrpc_map_valid(rrpc, paddr, lba);
	spin_unlock(&rrpc->map_lock);
	return ret;
}

static void rrpc_test_commit(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u32 lba = E;

	t_buffer(rrpc, 3, 7);
	/* buffered, not on the media: the media map is untouched */
	KUNIT_EXPECT_EQ(test, rrpc->map[3].ppa, E);
	KUNIT_EXPECT_TRUE(test, t_program(rrpc, 3, 7, 5));
	KUNIT_EXPECT_EQ(test, rrpc->map[3].ppa, 5u);
	KUNIT_EXPECT_EQ(test, rrpc->map[3].wb, E);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[1].nr_valid, 1u);
	KUNIT_EXPECT_TRUE(test, t_valid(rrpc, 5, &lba));
	KUNIT_EXPECT_EQ(test, lba, 3u);
	KUNIT_EXPECT_FALSE(test, t_valid(rrpc, 4, &lba));
}

static void rrpc_test_overwrite(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u32 lba;

	t_buffer(rrpc, 2, 0);
	KUNIT_ASSERT_TRUE(test, t_program(rrpc, 2, 0, 0));
	t_buffer(rrpc, 2, 1);
	/* until the new version is programmed the old one stays valid */
	KUNIT_EXPECT_TRUE(test, t_valid(rrpc, 0, &lba));
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 1u);
	KUNIT_ASSERT_TRUE(test, t_program(rrpc, 2, 1, 9));
	KUNIT_EXPECT_FALSE(test, t_valid(rrpc, 0, &lba));
	KUNIT_EXPECT_TRUE(test, t_valid(rrpc, 9, &lba));
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 0u);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[2].nr_valid, 1u);
}

/* Two buffered versions of one lba complete in either order. */
static void rrpc_test_superseded(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u32 lba;

	/* older first */
	t_buffer(rrpc, 1, 10);
	t_buffer(rrpc, 1, 11);
	KUNIT_EXPECT_FALSE(test, t_program(rrpc, 1, 10, 0));
	KUNIT_EXPECT_EQ(test, rrpc->map[1].ppa, E);
	KUNIT_EXPECT_TRUE(test, t_program(rrpc, 1, 11, 1));
	KUNIT_EXPECT_EQ(test, rrpc->map[1].ppa, 1u);
	KUNIT_EXPECT_FALSE(test, t_valid(rrpc, 0, &lba));
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 1u);

	/* newer first: the late older one must not win */
	t_buffer(rrpc, 6, 20);
	t_buffer(rrpc, 6, 21);
	KUNIT_EXPECT_TRUE(test, t_program(rrpc, 6, 21, 4));
	KUNIT_EXPECT_FALSE(test, t_program(rrpc, 6, 20, 5));
	KUNIT_EXPECT_EQ(test, rrpc->map[6].ppa, 4u);
	KUNIT_EXPECT_FALSE(test, t_valid(rrpc, 5, &lba));
	KUNIT_EXPECT_EQ(test, rrpc->blocks[1].nr_valid, 1u);
}

static void rrpc_test_discard(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u32 lba;

	t_buffer(rrpc, 4, 3);
	KUNIT_ASSERT_TRUE(test, t_program(rrpc, 4, 3, 8));
	t_buffer(rrpc, 4, 5);
	spin_lock(&rrpc->map_lock);
	rrpc_map_discard(rrpc, 4);
	spin_unlock(&rrpc->map_lock);
	KUNIT_EXPECT_EQ(test, rrpc->map[4].ppa, E);
	KUNIT_EXPECT_EQ(test, rrpc->map[4].wb, E);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[2].nr_valid, 0u);
	KUNIT_EXPECT_FALSE(test, t_valid(rrpc, 8, &lba));
	/* the write buffered before the discard lands stale */
	KUNIT_EXPECT_FALSE(test, t_program(rrpc, 4, 5, 9));
	KUNIT_EXPECT_EQ(test, rrpc->map[4].ppa, E);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[2].nr_valid, 0u);
	/* discarding an unmapped lba is harmless */
	spin_lock(&rrpc->map_lock);
	rrpc_map_discard(rrpc, 0);
	spin_unlock(&rrpc->map_lock);
	KUNIT_EXPECT_EQ(test, rrpc->map[0].ppa, E);
}

static void rrpc_test_gc_move(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u32 lba;
	bool moved;

	t_buffer(rrpc, 5, 0);
	KUNIT_ASSERT_TRUE(test, t_program(rrpc, 5, 0, 1));
	spin_lock(&rrpc->map_lock);
	rrpc->p2l[12] = 5;
	moved = rrpc_map_move(rrpc, 5, 1, 12);
	spin_unlock(&rrpc->map_lock);
	KUNIT_EXPECT_TRUE(test, moved);
	KUNIT_EXPECT_EQ(test, rrpc->map[5].ppa, 12u);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 0u);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[3].nr_valid, 1u);
	KUNIT_EXPECT_TRUE(test, t_valid(rrpc, 12, &lba));

	/* a user write reaches the media while GC copies: GC's copy is stale */
	t_buffer(rrpc, 5, 2);
	KUNIT_ASSERT_TRUE(test, t_program(rrpc, 5, 2, 6));
	spin_lock(&rrpc->map_lock);
	rrpc->p2l[13] = 5;
	moved = rrpc_map_move(rrpc, 5, 12, 13);
	spin_unlock(&rrpc->map_lock);
	KUNIT_EXPECT_FALSE(test, moved);
	KUNIT_EXPECT_EQ(test, rrpc->map[5].ppa, 6u);
	KUNIT_EXPECT_FALSE(test, t_valid(rrpc, 13, &lba));
	KUNIT_EXPECT_EQ(test, rrpc->blocks[3].nr_valid, 0u);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[1].nr_valid, 1u);

	/* a discard while GC copies: GC does not resurrect the data */
	spin_lock(&rrpc->map_lock);
	rrpc_map_discard(rrpc, 5);
	moved = rrpc_map_move(rrpc, 5, 6, 14);
	spin_unlock(&rrpc->map_lock);
	KUNIT_EXPECT_FALSE(test, moved);
	KUNIT_EXPECT_EQ(test, rrpc->map[5].ppa, E);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[1].nr_valid, 0u);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[3].nr_valid, 0u);
}

static void rrpc_test_lose(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	bool lost;

	t_buffer(rrpc, 7, 0);
	KUNIT_ASSERT_TRUE(test, t_program(rrpc, 7, 0, 2));
	spin_lock(&rrpc->map_lock);
	lost = rrpc_map_lose(rrpc, 7, 2);
	spin_unlock(&rrpc->map_lock);
	KUNIT_EXPECT_TRUE(test, lost);
	KUNIT_EXPECT_EQ(test, rrpc->map[7].ppa, RRPC_ADDR_LOST);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 0u);
	/* a new write replaces the lost data */
	t_buffer(rrpc, 7, 1);
	KUNIT_EXPECT_TRUE(test, t_program(rrpc, 7, 1, 3));
	KUNIT_EXPECT_EQ(test, rrpc->map[7].ppa, 3u);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 1u);
	/* losing a sector that no longer holds the lba changes nothing */
	spin_lock(&rrpc->map_lock);
	lost = rrpc_map_lose(rrpc, 7, 2);
	spin_unlock(&rrpc->map_lock);
	KUNIT_EXPECT_FALSE(test, lost);
	KUNIT_EXPECT_EQ(test, rrpc->map[7].ppa, 3u);
}

/* A LUN for the victim choice tests: a closed list and an index. */
static struct rrpc_lun *t_lun(struct kunit *test, u32 spb)
{
	struct rrpc_lun *rlun;
	struct rrpc *rrpc;

	rrpc = kunit_kzalloc(test, sizeof(*rrpc), GFP_KERNEL);
	rlun = kunit_kzalloc(test, sizeof(*rlun), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rrpc);
	KUNIT_ASSERT_NOT_NULL(test, rlun);
	rlun->rrpc = rrpc;
	rrpc->spb = spb;
	spin_lock_init(&rrpc->map_lock);
	spin_lock_init(&rlun->lock);
	INIT_LIST_HEAD(&rlun->closed);
	KUNIT_ASSERT_EQ(test, rrpc_vidx_init(&rlun->vidx, spb), 0);
	return rlun;
}

/* Close @b with @v valid sectors at @seq, as rrpc_blk_close() does. */
static void t_close(struct rrpc_lun *rlun, struct rrpc_block *b, u32 v,
		    u64 seq)
{
	b->rlun = rlun;
	b->nr_valid = v;
	b->close_seq = seq;
	INIT_LIST_HEAD(&b->vlist);
	list_add_tail(&b->list, &rlun->closed);
	if (b->bad)
		rlun->nr_bad++;
	spin_lock(&rlun->rrpc->map_lock);
	rrpc_vidx_add(rlun->rrpc, b);
	spin_unlock(&rlun->rrpc->map_lock);
}

/* Take @b off the closed list, as rrpc_gc_take() does. */
static void t_take(struct rrpc_lun *rlun, struct rrpc_block *b)
{
	list_del_init(&b->list);
	if (b->bad)
		rlun->nr_bad--;
	spin_lock(&rlun->rrpc->map_lock);
	rrpc_vidx_del(rlun->rrpc, b);
	spin_unlock(&rlun->rrpc->map_lock);
}

/* Give a closed @b @v valid sectors (it goes last on its new list). */
static void t_setv(struct rrpc_lun *rlun, struct rrpc_block *b, u32 v)
{
	spin_lock(&rlun->rrpc->map_lock);
	rrpc_vidx_del(rlun->rrpc, b);
	b->nr_valid = v;
	rrpc_vidx_add(rlun->rrpc, b);
	spin_unlock(&rlun->rrpc->map_lock);
}

static struct rrpc_block *t_pick(struct rrpc_lun *rlun)
{
	struct rrpc_block *b;

	spin_lock(&rlun->lock);
	b = rrpc_gc_pick(rlun->rrpc, rlun);
	spin_unlock(&rlun->lock);
	return b;
}

static struct rrpc_block *t_pick_cb(struct rrpc_lun *rlun, u64 now)
{
	struct rrpc_block *b;

	spin_lock(&rlun->lock);
	b = rrpc_gc_pick_cb(rlun->rrpc, rlun, now);
	spin_unlock(&rlun->lock);
	return b;
}

static void rrpc_test_pick(struct kunit *test)
{
	struct rrpc_lun *rlun = t_lun(test, 8);
	struct rrpc_block b[5] = {};
	static const u32 valid[5] = { 5, 2, 2, 7, 3 };
	int i;

	KUNIT_EXPECT_NULL(test, t_pick(rlun));
	for (i = 0; i < 5; i++)
		t_close(rlun, &b[i], valid[i], i);
	/* fewest valid; of the two with 2, the one that had it first */
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), &b[1]);
	t_take(rlun, &b[1]);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), &b[2]);
	/* a bad block is evacuated first, whatever it holds */
	t_take(rlun, &b[3]);
	b[3].bad = true;
	t_close(rlun, &b[3], 7, 9);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), &b[3]);
	t_take(rlun, &b[3]);
	KUNIT_EXPECT_EQ(test, rlun->nr_bad, 0u);
	t_setv(rlun, &b[0], 0);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), &b[0]);
	/* counts 0, 2 and 3 are left; 5 and 7 went */
	KUNIT_EXPECT_TRUE(test, test_bit(0, rlun->vidx.nonempty));
	KUNIT_EXPECT_FALSE(test, test_bit(5, rlun->vidx.nonempty));
	KUNIT_EXPECT_FALSE(test, test_bit(7, rlun->vidx.nonempty));
	for (i = 0; i < 5; i++)
		t_take(rlun, &b[i]);
	KUNIT_EXPECT_EQ(test, find_first_bit(rlun->vidx.nonempty, 9), 9ul);
	KUNIT_EXPECT_NULL(test, t_pick(rlun));
	rrpc_vidx_free(&rlun->vidx);

	/*
	 * blocks of 1024 sectors: 65 lists of 16 counts each; 25 and 20
	 * valid share list 1 (first come first), 40 is on list 2
	 */
	rlun = t_lun(test, 1024);
	KUNIT_EXPECT_EQ(test, rlun->vidx.nr, 65u);
	memset(b, 0, sizeof(b));
	t_close(rlun, &b[0], 40, 0);
	t_close(rlun, &b[1], 25, 1);
	t_close(rlun, &b[2], 20, 2);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), &b[1]);
	/* a count that stays on its list does not move the block */
	t_setv(rlun, &b[0], 33);
	KUNIT_EXPECT_TRUE(test, test_bit(2, rlun->vidx.nonempty));
	t_setv(rlun, &b[0], 12);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), &b[0]);
	KUNIT_EXPECT_FALSE(test, test_bit(2, rlun->vidx.nonempty));
	for (i = 0; i < 3; i++)
		t_take(rlun, &b[i]);
	rrpc_vidx_free(&rlun->vidx);
}

/* The index follows the valid counts that map updates change. */
static void rrpc_test_vidx_moves(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	struct rrpc_block *b0 = &rrpc->blocks[0], *b1 = &rrpc->blocks[1];
	struct rrpc_lun *rlun = b0->rlun;
	u32 lba;

	KUNIT_ASSERT_EQ(test, rrpc_vidx_init(&rlun->vidx, T_SPB), 0);
	spin_lock_init(&rlun->lock);
	INIT_LIST_HEAD(&rlun->closed);
	/* lbas 0-3 in block 0, 4-7 in block 1, both closed, full */
	for (lba = 0; lba < 8; lba++) {
		t_buffer(rrpc, lba, lba);
		KUNIT_EXPECT_TRUE(test, t_program(rrpc, lba, lba, lba));
	}
	t_close(rlun, b1, b1->nr_valid, 1);
	t_close(rlun, b0, b0->nr_valid, 2);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), b1);
	/* two overwrites of block 0's data (into block 2): it drops to 2 */
	t_buffer(rrpc, 1, 8);
	KUNIT_EXPECT_TRUE(test, t_program(rrpc, 1, 8, 8));
	t_buffer(rrpc, 2, 9);
	KUNIT_EXPECT_TRUE(test, t_program(rrpc, 2, 9, 9));
	KUNIT_EXPECT_EQ(test, b0->nr_valid, 2u);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), b0);
	KUNIT_EXPECT_TRUE(test, test_bit(2, rlun->vidx.nonempty));
	KUNIT_EXPECT_TRUE(test, test_bit(4, rlun->vidx.nonempty));
	KUNIT_EXPECT_FALSE(test, test_bit(3, rlun->vidx.nonempty));
	/* a discard of all of block 1's data empties it: it comes first */
	spin_lock(&rrpc->map_lock);
	for (lba = 4; lba < 8; lba++)
		rrpc_map_discard(rrpc, lba);
	spin_unlock(&rrpc->map_lock);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), b1);
	KUNIT_EXPECT_FALSE(test, test_bit(4, rlun->vidx.nonempty));
	KUNIT_EXPECT_TRUE(test, test_bit(0, rlun->vidx.nonempty));
	/* a victim leaves the index; its count changes no list any more */
	t_take(rlun, b1);
	KUNIT_EXPECT_TRUE(test, list_empty(&b1->vlist));
	KUNIT_EXPECT_FALSE(test, test_bit(0, rlun->vidx.nonempty));
	t_take(rlun, b0);
	rrpc_vidx_free(&rlun->vidx);
}

static void rrpc_test_pick_cb(struct kunit *test)
{
	struct rrpc_lun *rlun = t_lun(test, 64), *big;
	struct rrpc_block b[5] = {};
	static const u32 valid[5] = { 10, 32, 64, 5, 20 };
	static const u64 seq[5] = { 99, 0, 1, 60, 60 };
	int i;

	KUNIT_EXPECT_NULL(test, t_pick_cb(rlun, 100));
	for (i = 0; i < 5; i++)
		t_close(rlun, &b[i], valid[i], seq[i]);
	/*
	 * scores (64 - v) * (age + 1)^0.75 / (64 + v): 0: 54 * 1.7 / 74 =
	 * 1.2, 1: 32 * 31.9 / 96 = 10.6, 2: 0 (full), 3: 59 * 16.2 / 69 =
	 * 13.9, 4: 44 * 16.2 / 84 = 8.5
	 */
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(rlun, 100), &b[3]);
	t_take(rlun, &b[3]);
	/* old and half valid beats young and nearly empty (greedy: 0) */
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(rlun, 100), &b[1]);
	KUNIT_EXPECT_PTR_EQ(test, t_pick(rlun), &b[0]);
	/* same age: the fewer valid sectors win, as with greedy */
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(rlun, 0), &b[0]);
	/*
	 * one candidate per count: of two blocks with 32 valid, the one that
	 * got there first (b1, closed with 32), not b4, which drops to 32
	 * later; ages past RRPC_CB_AGE_MAX count alike
	 */
	t_setv(rlun, &b[4], 32);
	b[4].close_seq = 10;
	t_setv(rlun, &b[0], 64);
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(rlun, 1ULL << 20), &b[1]);
	t_setv(rlun, &b[0], 10);
	/* an empty block wins outright, young as it is (no copy at all) */
	t_setv(rlun, &b[4], 0);
	b[4].close_seq = 99;
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(rlun, 100), &b[4]);
	/* but a bad block, even a full one, is evacuated first */
	t_take(rlun, &b[2]);
	b[2].bad = true;
	t_close(rlun, &b[2], 64, 1);
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(rlun, 100), &b[2]);
	for (i = 0; i < 5; i++)
		t_take(rlun, &b[i]);
	rrpc_vidx_free(&rlun->vidx);

	/* a huge age and large blocks do not overflow the comparison */
	big = t_lun(test, 1U << 16);
	memset(b, 0, sizeof(b));
	t_close(big, &b[0], 1000, 5);
	t_close(big, &b[1], 30000, 0);
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(big, U64_MAX), &b[0]);
	t_take(big, &b[0]);
	t_take(big, &b[1]);
	rrpc_vidx_free(&big->vidx);

	/*
	 * the age weighs less than linearly: a young block with 8 valid
	 * sectors (56 * 2^0.75 / 72 = 1.31) beats an old one with 60
	 * (4 * 101^0.75 / 124 = 1.03; linear: 1.56 vs 3.26)
	 */
	rlun = t_lun(test, 64);
	memset(b, 0, sizeof(b));
	t_close(rlun, &b[0], 60, 0);
	t_close(rlun, &b[1], 8, 99);
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(rlun, 100), &b[1]);
	/* with 52 valid, the old one wins: 12 * 31.9 / 116 = 3.3 */
	t_setv(rlun, &b[0], 52);
	KUNIT_EXPECT_PTR_EQ(test, t_pick_cb(rlun, 100), &b[0]);
	t_take(rlun, &b[0]);
	t_take(rlun, &b[1]);
	rrpc_vidx_free(&rlun->vidx);
}

static void rrpc_test_wl_needed(struct kunit *test)
{
	/* 10 blocks, mean 20: the limit is 20 * 17 / 16 + slack = 21.25 + 8 */
	KUNIT_EXPECT_FALSE(test, rrpc_wl_needed(21 + RRPC_WL_SLACK, 200, 10));
	KUNIT_EXPECT_TRUE(test, rrpc_wl_needed(22 + RRPC_WL_SLACK, 200, 10));
	/* a young LUN: the slack keeps small spreads alone */
	KUNIT_EXPECT_FALSE(test, rrpc_wl_needed(RRPC_WL_SLACK, 0, 10));
	KUNIT_EXPECT_TRUE(test, rrpc_wl_needed(RRPC_WL_SLACK + 1, 0, 10));
	/* worn evenly: never, however old */
	KUNIT_EXPECT_FALSE(test, rrpc_wl_needed(100000, 100000ULL * 4096, 4096));
	/* a fraction, not a fixed spread: mean 800 allows 850 + slack */
	KUNIT_EXPECT_FALSE(test, rrpc_wl_needed(850 + RRPC_WL_SLACK, 8000, 10));
	KUNIT_EXPECT_TRUE(test, rrpc_wl_needed(851 + RRPC_WL_SLACK, 8000, 10));
	KUNIT_EXPECT_FALSE(test, rrpc_wl_needed(10, 0, 0));
}

/* The write unit: ws_opt when a command holds it and it divides a block. */
static void rrpc_test_write_unit(struct kunit *test)
{
	/* 1.2: ws_min = ws_opt = a multi-plane page */
	struct nvm_geo geo = { .sec_per_pl = 8, .sec_per_blk = 512,
			       .ws_min = 8, .ws_opt = 8 };

	KUNIT_EXPECT_EQ(test, rrpc_write_unit(&geo, 64), 8U);
	/* 2.0 */
	geo.ws_min = 4;
	geo.ws_opt = 16;
	geo.sec_per_blk = 96;
	KUNIT_EXPECT_EQ(test, rrpc_write_unit(&geo, 64), 16U);
	KUNIT_EXPECT_EQ(test, rrpc_write_unit(&geo, 8), 4U);	/* > a command */
	geo.ws_opt = 64;
	KUNIT_EXPECT_EQ(test, rrpc_write_unit(&geo, 64), 4U);	/* 96 % 64 */
	geo.ws_opt = 6;
	KUNIT_EXPECT_EQ(test, rrpc_write_unit(&geo, 64), 4U);	/* not a unit */
	geo.ws_opt = 0;
	KUNIT_EXPECT_EQ(test, rrpc_write_unit(&geo, 64), 4U);
}

static void rrpc_test_wl_pick(struct kunit *test)
{
	struct rrpc_block b[4] = {};
	static const u32 erases[4] = { 9, 3, 3, 12 };
	static const u64 seq[4] = { 1, 4, 2, 3 };
	LIST_HEAD(closed);
	int i;

	KUNIT_EXPECT_NULL(test, rrpc_wl_pick(&closed, 12));
	for (i = 0; i < 4; i++) {
		b[i].erase_count = erases[i];
		b[i].close_seq = seq[i];
		b[i].nr_valid = T_SPB;	/* full: greedy GC never takes them */
		list_add_tail(&b[i].list, &closed);
	}
	/* the least erased, the older of the two with 3 */
	KUNIT_EXPECT_PTR_EQ(test, rrpc_wl_pick(&closed, 12), &b[2]);
	/* a bad block is GC's, not wear leveling's */
	b[2].bad = true;
	KUNIT_EXPECT_PTR_EQ(test, rrpc_wl_pick(&closed, 12), &b[1]);
	/* within RRPC_WL_SLACK of the most erased block: nothing to level */
	KUNIT_EXPECT_NULL(test, rrpc_wl_pick(&closed, 3 + RRPC_WL_SLACK));
	KUNIT_EXPECT_PTR_EQ(test, rrpc_wl_pick(&closed, 4 + RRPC_WL_SLACK), &b[1]);
}

static void rrpc_test_free_pick(struct kunit *test)
{
	static const u32 erases[5] = { 4, 9, 9, 12, 2 };
	struct nvm_block *nb;
	struct rrpc_block *b;
	int i;

	/* on the heap: five of each overflow a KASAN build's frame limit */
	nb = kunit_kcalloc(test, 5, sizeof(*nb), GFP_KERNEL);
	b = kunit_kcalloc(test, 5, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nb);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < 5; i++) {
		nb[i].state = NVM_BLK_ST_FREE;
		b[i].parent = &nb[i];
		b[i].state = RRPC_BLK_FREE;
		b[i].erase_count = erases[i];
	}
	/* 3 is the most erased, but rrpc has it open; 1 and 2 tie: lower */
	b[3].state = RRPC_BLK_OPEN;
	KUNIT_EXPECT_PTR_EQ(test, rrpc_free_pick(b, 5, true), &b[1]);
	/* user writes: the least erased */
	KUNIT_EXPECT_PTR_EQ(test, rrpc_free_pick(b, 5, false), &b[4]);
	/* the media manager's view counts too: 1 is bad, 2 and 4 handed out */
	nb[1].state = NVM_BLK_ST_BAD;
	nb[2].state = NVM_BLK_ST_OPEN;
	nb[4].state = NVM_BLK_ST_OPEN;
	KUNIT_EXPECT_PTR_EQ(test, rrpc_free_pick(b, 5, true), &b[0]);
	KUNIT_EXPECT_PTR_EQ(test, rrpc_free_pick(b, 5, false), &b[0]);
	/* least erased, tie: the lower index */
	b[2].erase_count = 4;
	nb[2].state = NVM_BLK_ST_FREE;
	KUNIT_EXPECT_PTR_EQ(test, rrpc_free_pick(b, 5, false), &b[0]);
	nb[0].state = NVM_BLK_ST_OPEN;
	nb[2].state = NVM_BLK_ST_OPEN;
	KUNIT_EXPECT_NULL(test, rrpc_free_pick(b, 5, true));
	KUNIT_EXPECT_NULL(test, rrpc_free_pick(b, 5, false));
}

static void rrpc_test_capacity(struct kunit *test)
{
	u64 u, t;

	/* 64 good blocks, 1 LUN: 60 usable blocks of 512 sectors, OP 10% */
	u = rrpc_capacity(64, 1, 512, 10);
	t = (64 - RRPC_RSV_BLKS) * 512;
	KUNIT_EXPECT_EQ(test, u, t * 100 / 110);
	/* op = (T - U) / U within rounding */
	KUNIT_EXPECT_LE(test, (t - u) * 100, 10 * u + 100);
	KUNIT_EXPECT_GE(test, (t - u) * 100, 10 * u);
	/* OP 25% on two LUNs */
	KUNIT_EXPECT_EQ(test, rrpc_capacity(128, 2, 128, 25),
			(u64)(128 - 2 * RRPC_RSV_BLKS) * 128 * 100 / 125);
	/* nothing left beyond the reserve */
	KUNIT_EXPECT_EQ(test, rrpc_capacity(RRPC_RSV_BLKS, 1, 512, 10), 0ull);
}

/* ------------------------------------------------------------ recovery */

/* A scanned sector: what the scan puts into p2l and the sequence table. */
static void t_scan(struct rrpc *rrpc, u64 *pseq, u32 paddr, u32 lba, u64 seq)
{
	rrpc->p2l[paddr] = lba;
	pseq[paddr] = seq;
}

/* The merge of rrpc_recover(): data in paddr order, then trims, counts. */
static void t_merge(struct rrpc *rrpc, u64 *pseq, u64 *lseq)
{
	u32 paddr;

	for (paddr = 0; paddr < rrpc->nr_paddrs; paddr++)
		if (rrpc->p2l[paddr] < rrpc->nr_lbas)
			rrpc_merge_data(rrpc, lseq, rrpc->p2l[paddr],
					pseq[paddr], paddr);
}

static u64 *t_seqs(struct kunit *test, u32 n)
{
	u64 *s = kunit_kcalloc(test, n, sizeof(u64), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	return s;
}

/* The newest sequence number of an lba wins, wherever it was found. */
static void rrpc_test_merge_newest(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u64 *pseq = t_seqs(test, T_BLKS * T_SPB), *lseq = t_seqs(test, T_LBAS);

	t_scan(rrpc, pseq, 0, 3, 5);
	t_scan(rrpc, pseq, 9, 3, 7);
	t_scan(rrpc, pseq, 4, 3, 6);
	t_scan(rrpc, pseq, 5, 1, 1);
	/* a sector of an lba beyond the capacity is never mapped */
	t_scan(rrpc, pseq, 6, T_LBAS + 3, 9);
	t_merge(rrpc, pseq, lseq);
	rrpc_merge_count(rrpc);

	KUNIT_EXPECT_EQ(test, rrpc->map[3].ppa, 9U);
	KUNIT_EXPECT_EQ(test, rrpc->map[1].ppa, 5U);
	KUNIT_EXPECT_EQ(test, rrpc->map[0].ppa, E);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 0U);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[1].nr_valid, 1U);	/* paddr 5 */
	KUNIT_EXPECT_EQ(test, rrpc->blocks[2].nr_valid, 1U);	/* paddr 9 */
	KUNIT_EXPECT_EQ(test, rrpc->blocks[3].nr_valid, 0U);
}

/*
 * GC copies keep the sequence number of what they copy: a victim not yet
 * erased and its copy tie, and exactly one of them is mapped; a newer
 * write beats both, whichever order the blocks are scanned in.
 */
static void rrpc_test_merge_gc_copy(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u64 *pseq = t_seqs(test, T_BLKS * T_SPB), *lseq = t_seqs(test, T_LBAS);
	u32 valid = 0, b;

	t_scan(rrpc, pseq, 13, 2, 10);	/* the GC copy, in a later block */
	t_scan(rrpc, pseq, 1, 2, 10);	/* the original */
	t_scan(rrpc, pseq, 14, 4, 12);	/* a copy of lba 4 ... */
	t_scan(rrpc, pseq, 2, 4, 12);
	t_scan(rrpc, pseq, 6, 4, 15);	/* ... which was overwritten later */
	t_merge(rrpc, pseq, lseq);
	rrpc_merge_count(rrpc);

	KUNIT_EXPECT_TRUE(test, rrpc->map[2].ppa == 1 || rrpc->map[2].ppa == 13);
	KUNIT_EXPECT_EQ(test, rrpc->map[4].ppa, 6U);
	for (b = 0; b < T_BLKS; b++)
		valid += rrpc->blocks[b].nr_valid;
	KUNIT_EXPECT_EQ(test, valid, 2U);
}

/*
 * A trim record unmaps older data and leaves newer data alone; ranges past
 * the capacity (or wrapping) are clipped.
 */
static void rrpc_test_merge_trim(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u64 *pseq = t_seqs(test, T_BLKS * T_SPB), *lseq = t_seqs(test, T_LBAS);

	t_scan(rrpc, pseq, 0, 5, 3);	/* before the trim */
	t_scan(rrpc, pseq, 1, 6, 8);	/* after it */
	t_scan(rrpc, pseq, 2, 7, 2);
	t_scan(rrpc, pseq, 3, RRPC_LBA_TRIM, 4);
	t_scan(rrpc, pseq, 4, 15, 1);
	t_merge(rrpc, pseq, lseq);
	rrpc_merge_trim(rrpc, lseq, 4, 4, 4);		/* lba 4..7 */
	rrpc_merge_trim(rrpc, lseq, 14, U32_MAX, 5);	/* wraps: clipped */
	/* an older trim changes nothing that a newer event decided */
	rrpc_merge_trim(rrpc, lseq, 6, 1, 1);
	rrpc_merge_count(rrpc);

	KUNIT_EXPECT_EQ(test, rrpc->map[5].ppa, E);
	KUNIT_EXPECT_EQ(test, rrpc->map[6].ppa, 1U);
	KUNIT_EXPECT_EQ(test, rrpc->map[7].ppa, E);
	KUNIT_EXPECT_EQ(test, rrpc->map[15].ppa, E);
	/* lba 6 and the trim record itself count in block 0 */
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 2U);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[1].nr_valid, 0U);
}

static struct rrpc_oob t_oob(u32 lba, u16 b, u16 e, u64 seq, u8 ver)
{
	struct rrpc_oob oob = {
		.lba = cpu_to_le32(lba),
		.lun_begin = cpu_to_le16(b),
		.lun_end = cpu_to_le16(e),
		.seq = cpu_to_le64(seq | (u64)ver << RRPC_SEQ_BITS),
	};

	return oob;
}

/*
 * What a scan read says of each sector: empty (ends the block), torn or
 * otherwise unreadable (never mapped: the older copy comes back), or
 * readable; a high-ECC warning is still data.
 */
static void rrpc_test_scan_classify(struct kunit *test)
{
	struct rrpc_oob ok = t_oob(3, 0, 1, 7, RRPC_FMT_VERSION);
	struct rrpc_oob ones;

	memset(&ones, 0xff, sizeof(ones));
	KUNIT_EXPECT_EQ(test, rrpc_scan_classify(0, 0, 0, &ok), RRPC_SCAN_OK);
	KUNIT_EXPECT_EQ(test, rrpc_scan_classify(0, 0, 0, &ones),
			RRPC_SCAN_EMPTY);
	/* no status bits: every sector of the read */
	KUNIT_EXPECT_EQ(test, rrpc_scan_classify(NVM_RSP_ERR_EMPTYPAGE, 0, 5, &ok),
			RRPC_SCAN_EMPTY);
	/* a torn page reads as a media error */
	KUNIT_EXPECT_EQ(test, rrpc_scan_classify(NVM_RSP_ERR_FAILECC, 0, 1, &ok),
			RRPC_SCAN_UNREADABLE);
	/* only the sectors whose bits are set */
	KUNIT_EXPECT_EQ(test, rrpc_scan_classify(NVM_RSP_ERR_FAILECC, 0x4, 1, &ok),
			RRPC_SCAN_OK);
	KUNIT_EXPECT_EQ(test, rrpc_scan_classify(NVM_RSP_ERR_FAILECC, 0x4, 2, &ok),
			RRPC_SCAN_UNREADABLE);
	KUNIT_EXPECT_EQ(test, rrpc_scan_classify(NVM_RSP_ERR_EMPTYPAGE, 0xc, 3, &ok),
			RRPC_SCAN_EMPTY);
	KUNIT_EXPECT_EQ(test, rrpc_scan_classify(NVM_RSP_WARN_HIGHECC, 0, 0, &ok),
			RRPC_SCAN_OK);
}

/* Ownership: this format version and this LUN range, nothing else. */
static void rrpc_test_oob_ours(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	struct rrpc_oob o;

	rrpc->lun_begin = 2;
	rrpc->lun_end = 5;
	o = t_oob(1, 2, 5, 9, RRPC_FMT_VERSION);
	KUNIT_EXPECT_TRUE(test, rrpc_oob_ours(rrpc, &o));
	KUNIT_EXPECT_EQ(test, rrpc_oob_seq(&o), 9ULL);
	o = t_oob(1, 2, 3, 9, RRPC_FMT_VERSION);	/* another range */
	KUNIT_EXPECT_FALSE(test, rrpc_oob_ours(rrpc, &o));
	o = t_oob(1, 0, 5, 9, RRPC_FMT_VERSION);
	KUNIT_EXPECT_FALSE(test, rrpc_oob_ours(rrpc, &o));
	o = t_oob(1, 2, 5, 9, 0);		/* the format before recovery */
	KUNIT_EXPECT_FALSE(test, rrpc_oob_ours(rrpc, &o));
	o = t_oob(1, 2, 5, 9, RRPC_FMT_VERSION + 1);
	KUNIT_EXPECT_FALSE(test, rrpc_oob_ours(rrpc, &o));
}

/* Superblock records: only the newest is live; GC keeps only that one. */
static void rrpc_test_sb_records(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u32 lba;

	rrpc->sb_paddr = E;
	spin_lock(&rrpc->map_lock);
	rrpc_rec_programmed(rrpc, RRPC_LBA_SB, 1);
	KUNIT_EXPECT_TRUE(test, rrpc_map_live(rrpc, 1, &lba));
	KUNIT_EXPECT_EQ(test, lba, RRPC_LBA_SB);
	rrpc_rec_programmed(rrpc, RRPC_LBA_SB, 5);
	KUNIT_EXPECT_FALSE(test, rrpc_map_live(rrpc, 1, &lba));
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 0U);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[1].nr_valid, 1U);
	/* a GC copy of the old one is dead, of the new one live */
	KUNIT_EXPECT_FALSE(test, rrpc_rec_move(rrpc, RRPC_LBA_SB, 1, 9));
	KUNIT_EXPECT_TRUE(test, rrpc_rec_move(rrpc, RRPC_LBA_SB, 5, 10));
	KUNIT_EXPECT_EQ(test, rrpc->sb_paddr, 10U);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[1].nr_valid, 0U);
	KUNIT_EXPECT_EQ(test, rrpc->blocks[2].nr_valid, 1U);
	KUNIT_EXPECT_EQ(test, rrpc->p2l[9], E);
	spin_unlock(&rrpc->map_lock);
}

/*
 * GC and trim records: a record shrinks to the lbas that have no newer
 * data on the media (a newer version only in the write buffer does not
 * count), is dropped when nothing is left, and is needed only while a
 * block in use may hold older data.
 */
static void rrpc_test_trim_gc(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	struct rrpc_trim_rec *tr, *tmp;
	u32 lba;

	tr = kunit_kzalloc(test, RRPC_SECTOR_SIZE, GFP_KERNEL);
	tmp = kunit_kzalloc(test, RRPC_SECTOR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tr);
	KUNIT_ASSERT_NOT_NULL(test, tmp);
	tr->magic = cpu_to_le32(RRPC_TRIM_MAGIC);
	tr->nr = cpu_to_le32(2);
	tr->r[0].lba = cpu_to_le32(2);
	tr->r[0].len = cpu_to_le32(4);		/* 2..5 */
	tr->r[1].lba = cpu_to_le32(12);
	tr->r[1].len = cpu_to_le32(100);	/* clipped to 12..15 */

	spin_lock(&rrpc->map_lock);
	rrpc_rec_programmed(rrpc, RRPC_LBA_TRIM, 3);
	KUNIT_EXPECT_TRUE(test, rrpc_map_live(rrpc, 3, &lba));
	KUNIT_EXPECT_EQ(test, lba, RRPC_LBA_TRIM);
	rrpc->map[3].ppa = 7;			/* lba 3 rewritten, on media */
	rrpc->map[4].wb = 2;			/* lba 4 rewritten, buffered */
	rrpc->map[13].ppa = 8;
	rrpc->map[14].ppa = RRPC_ADDR_LOST;
	spin_unlock(&rrpc->map_lock);
	/* takes map_lock itself, a batch of sectors at a time */
	KUNIT_EXPECT_EQ(test, rrpc_trim_filter(rrpc, tr, tmp), 4U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(tr->r[0].lba), 2U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(tr->r[0].len), 1U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(tr->r[1].lba), 4U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(tr->r[1].len), 2U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(tr->r[2].lba), 12U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(tr->r[2].len), 1U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(tr->r[3].lba), 14U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(tr->r[3].len), 2U);
	/* everything rewritten: nothing left to say */
	for (lba = 0; lba < T_LBAS; lba++)
		rrpc->map[lba].ppa = 0;
	KUNIT_EXPECT_EQ(test, rrpc_trim_filter(rrpc, tr, tmp), 0U);
	spin_lock(&rrpc->map_lock);
	rrpc_rec_drop(rrpc, 3);
	KUNIT_EXPECT_FALSE(test, rrpc_map_live(rrpc, 3, &lba));
	KUNIT_EXPECT_EQ(test, rrpc->blocks[0].nr_valid, 0U);
	spin_unlock(&rrpc->map_lock);
	/* not a trim record: never kept */
	tr->magic = 0;
	KUNIT_EXPECT_EQ(test, rrpc_trim_filter(rrpc, tr, tmp), 0U);

	for (lba = 0; lba < T_BLKS; lba++) {
		rrpc->blocks[lba].state = RRPC_BLK_FREE;
		rrpc->blocks[lba].min_seq = 1;
	}
	KUNIT_EXPECT_FALSE(test, rrpc_trim_needed(rrpc, 10));
	rrpc->blocks[2].state = RRPC_BLK_CLOSED;
	rrpc->blocks[2].min_seq = 10;
	KUNIT_EXPECT_FALSE(test, rrpc_trim_needed(rrpc, 10));
	KUNIT_EXPECT_TRUE(test, rrpc_trim_needed(rrpc, 11));
}

/*
 * Placement: a LUN writer takes user units in turn with the LUNs that take
 * writes, at most RRPC_WR_LEAD ahead; a LUN that waits for GC or is full
 * does not hold the others up, and one that comes back catches up by at
 * most a block's worth of units.
 */
static void rrpc_test_wr_turn(struct kunit *test)
{
	struct rrpc_lun *luns, *lag;
	struct rrpc *rrpc;
	int i, cap;

	rrpc = kunit_kzalloc(test, sizeof(*rrpc), GFP_KERNEL);
	luns = kunit_kcalloc(test, 3, sizeof(*luns), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rrpc);
	KUNIT_ASSERT_NOT_NULL(test, luns);
	rrpc_wb_prepare(rrpc);
	rrpc->luns = luns;
	rrpc->nr_luns = 3;
	rrpc->spb = 64;
	rrpc->spp = 4;
	cap = rrpc->spb / rrpc->spp;

	spin_lock(&rrpc->wb.lock);
	/* LUN 0 alone runs: it takes RRPC_WR_LEAD units, then waits its turn */
	for (i = 0; i < RRPC_WR_LEAD; i++) {
		KUNIT_EXPECT_FALSE(test, rrpc_wr_ahead(rrpc, &luns[0], &lag));
		rrpc_wr_took(rrpc, &luns[0]);
	}
	KUNIT_EXPECT_TRUE(test, rrpc_wr_ahead(rrpc, &luns[0], &lag));
	KUNIT_EXPECT_PTR_EQ(test, lag, &luns[1]);	/* the first of a tie */
	KUNIT_EXPECT_FALSE(test, rrpc_wr_ahead(rrpc, &luns[1], &lag));
	KUNIT_EXPECT_PTR_EQ(test, lag, &luns[2]);

	/* a long stretch in turn: no LUN is ever more than the lead ahead */
	for (i = 0; i < 300; i++) {
		struct rrpc_lun *r = &luns[(i * 7) % 3];

		if (rrpc_wr_ahead(rrpc, r, &lag))
			r = lag;
		KUNIT_EXPECT_FALSE(test, rrpc_wr_ahead(rrpc, r, &lag));
		rrpc_wr_took(rrpc, r);
	}
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_LE(test, luns[i].wr_units,
				luns[(i + 1) % 3].wr_units + RRPC_WR_LEAD);

	/* LUN 2 waits for GC: LUNs 0 and 1 go on between them */
	WRITE_ONCE(luns[2].wr_blocked, true);
	for (i = 0; i < 100; i++) {
		struct rrpc_lun *r = &luns[0];

		if (rrpc_wr_ahead(rrpc, r, &lag))
			r = lag;
		KUNIT_EXPECT_PTR_NE(test, r, &luns[2]);
		rrpc_wr_took(rrpc, r);
	}
	/* back: the others wait for it, but only a block's worth */
	WRITE_ONCE(luns[2].wr_blocked, false);
	KUNIT_EXPECT_TRUE(test, rrpc_wr_ahead(rrpc, &luns[0], &lag));
	KUNIT_EXPECT_PTR_EQ(test, lag, &luns[2]);
	rrpc_wr_took(rrpc, &luns[2]);
	KUNIT_EXPECT_EQ(test, luns[2].wr_units,
			max(luns[0].wr_units, luns[1].wr_units) - (u64)cap + 1);
	for (i = 0; i < 2 * cap && rrpc_wr_ahead(rrpc, &luns[0], &lag); i++)
		rrpc_wr_took(rrpc, lag);
	KUNIT_EXPECT_LE(test, i, cap);
	KUNIT_EXPECT_FALSE(test, rrpc_wr_ahead(rrpc, &luns[0], &lag));

	/* a full LUN does not count; with every other LUN out, no turn */
	WRITE_ONCE(luns[1].full, true);
	WRITE_ONCE(luns[2].wr_blocked, true);
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_FALSE(test, rrpc_wr_ahead(rrpc, &luns[0], &lag));
		KUNIT_EXPECT_NULL(test, lag);
		rrpc_wr_took(rrpc, &luns[0]);
	}
	spin_unlock(&rrpc->wb.lock);
}

/*
 * A checkpoint is trusted only if the probe agrees: a block it says holds
 * data starts with a sequence number below the checkpoint's and not below
 * the block's min_seq; a block it says is empty probes empty.
 */
static void rrpc_test_ckpt_matches(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	struct rrpc_ckpt_blk tbl[T_BLKS] = {};
	struct nvm_block *nblk;
	u8 probe[T_BLKS];
	u64 bseq[T_BLKS] = {};
	u32 b;

	nblk = kunit_kcalloc(test, T_BLKS, sizeof(*nblk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nblk);
	for (b = 0; b < T_BLKS; b++) {
		nblk[b].state = NVM_BLK_ST_FREE;
		rrpc->blocks[b].parent = &nblk[b];
		probe[b] = RRPC_PROBE_EMPTY;
	}
	/* block 0 data (first sector 5, min_seq 5), block 1 the checkpoint */
	tbl[0].flags = cpu_to_le32(RRPC_CKPT_F_USED);
	tbl[0].next_off = cpu_to_le32(T_SPB);
	tbl[0].min_seq = cpu_to_le64(5);
	probe[0] = RRPC_PROBE_DATA;
	bseq[0] = 5;
	tbl[1].flags = cpu_to_le32(RRPC_CKPT_F_CKPT);
	probe[1] = RRPC_PROBE_CKPT;
	for (b = 2; b < T_BLKS; b++)
		tbl[b].min_seq = cpu_to_le64(U64_MAX);
	KUNIT_EXPECT_TRUE(test, rrpc_ckpt_matches(rrpc, tbl, probe, bseq, 10));

	/* a used block's first sector written after the checkpoint */
	KUNIT_EXPECT_FALSE(test, rrpc_ckpt_matches(rrpc, tbl, probe, bseq, 5));
	/* a block the checkpoint says empty holds data */
	probe[2] = RRPC_PROBE_DATA;
	KUNIT_EXPECT_FALSE(test, rrpc_ckpt_matches(rrpc, tbl, probe, bseq, 10));
	probe[2] = RRPC_PROBE_EMPTY;
	/* a used block that probes empty */
	probe[0] = RRPC_PROBE_EMPTY;
	KUNIT_EXPECT_FALSE(test, rrpc_ckpt_matches(rrpc, tbl, probe, bseq, 10));
	probe[0] = RRPC_PROBE_DATA;
	/*
	 * a used block whose min_seq is above its first sector's (a program
	 * reported aborted reached the media, min_seq missed it)
	 */
	tbl[0].min_seq = cpu_to_le64(U64_MAX);
	KUNIT_EXPECT_FALSE(test, rrpc_ckpt_matches(rrpc, tbl, probe, bseq, 10));
	/* a first sector of padding carries no number: not checked */
	bseq[0] = 0;
	KUNIT_EXPECT_TRUE(test, rrpc_ckpt_matches(rrpc, tbl, probe, bseq, 10));
	/* a retired block (bad) in use is read too */
	bseq[0] = 5;
	tbl[0].min_seq = cpu_to_le64(5);
	nblk[0].state = NVM_BLK_ST_BAD;
	KUNIT_EXPECT_TRUE(test, rrpc_ckpt_matches(rrpc, tbl, probe, bseq, 10));
	/* a bad block the checkpoint says empty is not looked at */
	nblk[3].state = NVM_BLK_ST_BAD;
	probe[3] = RRPC_PROBE_DATA;
	KUNIT_EXPECT_TRUE(test, rrpc_ckpt_matches(rrpc, tbl, probe, bseq, 10));
}

/* A trim record lives while a block in use or the write buffer is older. */
static void rrpc_test_trim_needed(struct kunit *test)
{
	struct rrpc *rrpc = test->priv;
	u32 b;

	for (b = 0; b < T_BLKS; b++) {
		rrpc->blocks[b].state = RRPC_BLK_FREE;
		rrpc->blocks[b].min_seq = U64_MAX;
	}
	KUNIT_EXPECT_FALSE(test, rrpc_trim_needed(rrpc, 100));
	/* a closed block holds data older than the record */
	rrpc->blocks[1].state = RRPC_BLK_CLOSED;
	rrpc->blocks[1].min_seq = 40;
	KUNIT_EXPECT_TRUE(test, rrpc_trim_needed(rrpc, 100));
	KUNIT_EXPECT_FALSE(test, rrpc_trim_needed(rrpc, 40));
	/* a free block's old min_seq does not count */
	rrpc->blocks[1].state = RRPC_BLK_FREE;
	KUNIT_EXPECT_FALSE(test, rrpc_trim_needed(rrpc, 100));
	/* a buffered unit (the other temperature's) is older: keep it */
	rrpc->wb.oldest = 90;
	KUNIT_EXPECT_TRUE(test, rrpc_trim_needed(rrpc, 100));
	KUNIT_EXPECT_FALSE(test, rrpc_trim_needed(rrpc, 90));
	rrpc->wb.oldest = U64_MAX;
	KUNIT_EXPECT_FALSE(test, rrpc_trim_needed(rrpc, 100));
}

/* Write counts: halved per period, hot from RRPC_HEAT_HOT writes up. */
static void rrpc_test_heat(struct kunit *test)
{
	struct rrpc_heat h = {};
	u64 cap = 1000;
	int i, hot;

	/* periods of RRPC_HEAT_PERIOD capacities, counted modulo 256 */
	KUNIT_EXPECT_EQ(test, rrpc_heat_epoch(0, cap), 0);
	KUNIT_EXPECT_EQ(test, rrpc_heat_epoch(RRPC_HEAT_PERIOD * cap - 1, cap), 0);
	KUNIT_EXPECT_EQ(test, rrpc_heat_epoch(RRPC_HEAT_PERIOD * cap, cap), 1);
	KUNIT_EXPECT_EQ(test, rrpc_heat_epoch(256 * RRPC_HEAT_PERIOD * cap, cap), 0);
	KUNIT_EXPECT_EQ(test, rrpc_heat_epoch(5, 0), 5 / RRPC_HEAT_PERIOD);

	/* hot on the RRPC_HEAT_HOT-th write in one period */
	for (i = 1; i < RRPC_HEAT_HOT; i++)
		KUNIT_EXPECT_FALSE(test, rrpc_heat_bump(&h, 7));
	KUNIT_EXPECT_TRUE(test, rrpc_heat_bump(&h, 7));
	KUNIT_EXPECT_EQ(test, rrpc_heat_get(&h, 7), (unsigned int)RRPC_HEAT_HOT);
	/* halved per period, gone after 8 */
	KUNIT_EXPECT_EQ(test, rrpc_heat_get(&h, 8), (unsigned int)RRPC_HEAT_HOT / 2);
	KUNIT_EXPECT_EQ(test, rrpc_heat_get(&h, 15), 0U);
	/* the epoch wraps: 255 -> 0 is one period */
	h.count = 8;
	h.epoch = 255;
	KUNIT_EXPECT_EQ(test, rrpc_heat_get(&h, 0), 4U);
	/* saturates */
	for (i = 0; i < 300; i++)
		rrpc_heat_bump(&h, 0);
	KUNIT_EXPECT_EQ(test, rrpc_heat_get(&h, 0), (unsigned int)RRPC_HEAT_MAX);

	/* twice per period is cold for good: the count stays below 4 */
	h = (struct rrpc_heat){};
	for (i = 0; i < 2 * 50; i++)
		KUNIT_EXPECT_FALSE(test, rrpc_heat_bump(&h, i / 2));
	/* at twice the hot count per period, every write once it is warm */
	h = (struct rrpc_heat){};
	for (hot = 0, i = 0; i < 2 * RRPC_HEAT_HOT * 50; i++)
		hot += rrpc_heat_bump(&h, i / (2 * RRPC_HEAT_HOT));
	KUNIT_EXPECT_EQ(test, hot, 2 * RRPC_HEAT_HOT * 50 - (RRPC_HEAT_HOT - 1));
}

/*
 * Two LUNs' GC work items mark their LUNs full and not full at the same
 * time (rrpc_lun_set_full()): the target must be out of space exactly
 * when every LUN is full. Two threads toggle one LUN each, in rounds that
 * start together; after each round the invariant must hold. Most rounds
 * take one LUN up and the other down (nospc stays clear); in the first
 * ones, some take both up and then both down (nospc set and cleared,
 * logged).
 */
#define T_FULL_ROUNDS	5000
#define T_FULL_BOTH	16	/* every this many rounds, both up, then down */
#define T_FULL_BOTH_MAX	320	/* ... in the first rounds only */

struct t_full {
	struct rrpc		*rrpc;
	atomic_t		at[2];		/* the step each thread reached */
	struct completion	done[2];
	int			bad_round;	/* first round that broke it */
	bool			bad_nospc;
	bool			bad_full[2];
};

struct t_full_arg {
	struct t_full		*f;
	int			i;
};

/* LUN @i's state after round @r. */
static bool t_full_want(int i, int r)
{
	if (r < T_FULL_BOTH_MAX && r % T_FULL_BOTH < 2)
		return r % T_FULL_BOTH == 0;
	return (r + i) & 1;
}

/* Wait until both threads reached step @step. */
static void t_full_sync(struct t_full *f, int i, int step)
{
	unsigned long spins = 0;

	atomic_set_release(&f->at[i], step);
	while (atomic_read_acquire(&f->at[!i]) < step) {
		cpu_relax();
		if (!(++spins & 1023))
			cond_resched();
	}
}

static int t_full_thread(void *data)
{
	struct t_full_arg *arg = data;
	struct t_full *f = arg->f;
	struct rrpc *rrpc = f->rrpc;
	int i = arg->i, r;
	bool a, b, n;

	for (r = 0; r < T_FULL_ROUNDS; r++) {
		t_full_sync(f, i, 3 * r + 1);
		rrpc_lun_set_full(&rrpc->luns[i], t_full_want(i, r));
		t_full_sync(f, i, 3 * r + 2);
		if (i == 0 && f->bad_round < 0) {
			spin_lock(&rrpc->wb.lock);
			a = rrpc->luns[0].full;
			b = rrpc->luns[1].full;
			n = rrpc->nospc;
			spin_unlock(&rrpc->wb.lock);
			if (n != (a && b)) {
				f->bad_round = r;
				f->bad_nospc = n;
				f->bad_full[0] = a;
				f->bad_full[1] = b;
			}
		}
		t_full_sync(f, i, 3 * r + 3);
	}
	complete(&f->done[i]);
	return 0;
}

static void rrpc_test_lun_full_race(struct kunit *test)
{
	struct t_full_arg args[2];
	struct task_struct *tsk[2];
	struct gendisk *disk;
	struct nvm_lun *parents;
	struct rrpc *rrpc;
	struct t_full *f;
	int i;

	rrpc = kunit_kzalloc(test, sizeof(*rrpc), GFP_KERNEL);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	disk = kunit_kzalloc(test, sizeof(*disk), GFP_KERNEL);
	rrpc->luns = kunit_kcalloc(test, 2, sizeof(*rrpc->luns), GFP_KERNEL);
	parents = kunit_kcalloc(test, 2, sizeof(*parents), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rrpc);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, disk);
	KUNIT_ASSERT_NOT_NULL(test, rrpc->luns);
	KUNIT_ASSERT_NOT_NULL(test, parents);
	strscpy(disk->disk_name, "kunit_full", sizeof(disk->disk_name));
	rrpc->disk = disk;
	rrpc->nr_luns = 2;
	/* no workqueues: the writers' kicks are no-ops */
	rrpc->exiting = true;
	spin_lock_init(&rrpc->kick_lock);
	rrpc_wb_prepare(rrpc);
	for (i = 0; i < 2; i++) {
		parents[i].id = i;
		rrpc->luns[i].parent = &parents[i];
		rrpc->luns[i].rrpc = rrpc;
		rrpc->luns[i].idx = i;
		spin_lock_init(&rrpc->luns[i].lock);
	}
	f->rrpc = rrpc;
	f->bad_round = -1;
	for (i = 0; i < 2; i++) {
		init_completion(&f->done[i]);
		args[i].f = f;
		args[i].i = i;
	}
	for (i = 0; i < 2; i++)
		tsk[i] = kthread_create(t_full_thread, &args[i],
					"rrpc_kunit_full%d", i);
	if (IS_ERR(tsk[0]) || IS_ERR(tsk[1])) {
		/* a thread never woken never runs: nobody waits for it */
		for (i = 0; i < 2; i++)
			if (!IS_ERR(tsk[i]))
				kthread_stop(tsk[i]);
		KUNIT_FAIL(test, "cannot create the threads");
		return;
	}
	for (i = 0; i < 2; i++)
		wake_up_process(tsk[i]);
	/*
	 * Woken every second: under a loaded TCG host the rounds may take
	 * longer than the hung-task timeout, which is no hang.
	 */
	for (i = 0; i < 2; i++)
		while (!wait_for_completion_timeout(&f->done[i], HZ))
			;

	KUNIT_EXPECT_EQ_MSG(test, f->bad_round, -1,
			    "round %d: nospc %d with LUN 0 full %d, LUN 1 full %d",
			    f->bad_round, f->bad_nospc, f->bad_full[0],
			    f->bad_full[1]);
	KUNIT_EXPECT_EQ(test, rrpc->nospc,
			rrpc->luns[0].full && rrpc->luns[1].full);
}

static struct kunit_case rrpc_map_cases[] = {
	KUNIT_CASE(rrpc_test_commit),
	KUNIT_CASE(rrpc_test_overwrite),
	KUNIT_CASE(rrpc_test_superseded),
	KUNIT_CASE(rrpc_test_discard),
	KUNIT_CASE(rrpc_test_gc_move),
	KUNIT_CASE(rrpc_test_lose),
	KUNIT_CASE(rrpc_test_vidx_moves),
	KUNIT_CASE(rrpc_test_merge_newest),
	KUNIT_CASE(rrpc_test_merge_gc_copy),
	KUNIT_CASE(rrpc_test_merge_trim),
	KUNIT_CASE(rrpc_test_scan_classify),
	KUNIT_CASE(rrpc_test_oob_ours),
	KUNIT_CASE(rrpc_test_sb_records),
	KUNIT_CASE(rrpc_test_trim_gc),
	KUNIT_CASE(rrpc_test_trim_needed),
	KUNIT_CASE(rrpc_test_ckpt_matches),
	{}
};

static struct kunit_suite rrpc_map_suite = {
	.name = "rrpc_map",
	.init = rrpc_test_init,
	.test_cases = rrpc_map_cases,
};

static struct kunit_case rrpc_gc_cases[] = {
	KUNIT_CASE(rrpc_test_pick),
	KUNIT_CASE(rrpc_test_capacity),
	KUNIT_CASE(rrpc_test_pick_cb),
	KUNIT_CASE(rrpc_test_wl_needed),
	KUNIT_CASE(rrpc_test_write_unit),
	KUNIT_CASE(rrpc_test_wl_pick),
	KUNIT_CASE(rrpc_test_free_pick),
	KUNIT_CASE(rrpc_test_wr_turn),
	KUNIT_CASE(rrpc_test_heat),
	KUNIT_CASE(rrpc_test_lun_full_race),
	{}
};

static struct kunit_suite rrpc_gc_suite = {
	.name = "rrpc_gc",
	.test_cases = rrpc_gc_cases,
};

kunit_test_suites(&rrpc_map_suite, &rrpc_gc_suite);

MODULE_DESCRIPTION("KUnit tests of the rrpc target's map and GC logic");
MODULE_LICENSE("GPL");
