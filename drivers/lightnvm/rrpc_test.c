// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of rrpc's pure logic (rrpc_map.c): the logical-to-physical
 * map and its reverse, per-block valid counts under every ordering of
 * write completion, overwrite, discard and GC moves; GC victim selection;
 * the capacity formula.
 */

#include <kunit/test.h>
#include "rrpc.h"

#define T_LBAS		16
#define T_BLKS		4
#define T_SPB		4
#define E		RRPC_ADDR_EMPTY

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A target without a device: just the maps and the blocks. */
static int rrpc_test_init(struct kunit *test)
{
	struct rrpc *rrpc;
	u32 i;

	rrpc = kunit_kzalloc(test, sizeof(*rrpc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rrpc);
	rrpc->spb = T_SPB;
	rrpc->spp = 2;
	rrpc->nr_lbas = T_LBAS;
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
		INIT_LIST_HEAD(&rrpc->blocks[i].list);
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

static void rrpc_test_pick(struct kunit *test)
{
	struct rrpc_block b[5] = {};
	static const u32 valid[5] = { 5, 2, 2, 7, 3 };
	static const u64 seq[5] = { 1, 4, 3, 2, 5 };
	LIST_HEAD(closed);
	int i;

	KUNIT_EXPECT_NULL(test, rrpc_gc_pick(&closed));
	for (i = 0; i < 5; i++) {
		b[i].nr_valid = valid[i];
		b[i].close_seq = seq[i];
		list_add_tail(&b[i].list, &closed);
	}
	/* fewest valid; of the two with 2, the older */
	KUNIT_EXPECT_PTR_EQ(test, rrpc_gc_pick(&closed), &b[2]);
	list_del(&b[2].list);
	KUNIT_EXPECT_PTR_EQ(test, rrpc_gc_pick(&closed), &b[1]);
	/* a bad block is evacuated first, whatever it holds */
	b[3].bad = true;
	KUNIT_EXPECT_PTR_EQ(test, rrpc_gc_pick(&closed), &b[3]);
	list_del(&b[3].list);
	b[0].nr_valid = 0;
	KUNIT_EXPECT_PTR_EQ(test, rrpc_gc_pick(&closed), &b[0]);
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

static struct kunit_case rrpc_map_cases[] = {
	KUNIT_CASE(rrpc_test_commit),
	KUNIT_CASE(rrpc_test_overwrite),
	KUNIT_CASE(rrpc_test_superseded),
	KUNIT_CASE(rrpc_test_discard),
	KUNIT_CASE(rrpc_test_gc_move),
	KUNIT_CASE(rrpc_test_lose),
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
	{}
};

static struct kunit_suite rrpc_gc_suite = {
	.name = "rrpc_gc",
	.test_cases = rrpc_gc_cases,
};

kunit_test_suites(&rrpc_map_suite, &rrpc_gc_suite);

MODULE_DESCRIPTION("KUnit tests of the rrpc target's map and GC logic");
MODULE_LICENSE("GPL");
