// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of gennvm's list logic: how a LUN's folded bad block table
 * becomes free and bad lists, the accounting of get/put/mark (free + used
 * + bad always equals the blocks of the LUN), the blocks kept for GC, and
 * what a factory reset does to each block state; for 2.0 devices, how
 * chunk descriptors become lists and per-block chunk states.
 */

#include <kunit/test.h>
#include <linux/lightnvm.h>

#include "gennvm.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NR_BLKS 16

static unsigned int list_len(struct list_head *head)
{
	struct list_head *p;
	unsigned int n = 0;

	list_for_each(p, head)
		n++;
	return n;
}

/* Counters match the lists, and every block is on exactly one list. */
static void check_accounting(struct kunit *test, struct gennvm_lun *lun)
{
	unsigned int nf = list_len(&lun->free_list);
	unsigned int nu = list_len(&lun->used_list);
	unsigned int nb = list_len(&lun->bad_list);

	KUNIT_EXPECT_EQ(test, nf, lun->vlun.nr_free_blocks);
	KUNIT_EXPECT_EQ(test, nu, lun->nr_used_blocks);
	KUNIT_EXPECT_EQ(test, nb, lun->vlun.nr_bad_blocks);
	KUNIT_EXPECT_EQ(test, nf + nu + nb, lun->nr_blocks);
}

static void gennvm_init_lun(struct kunit *test, struct gennvm_lun *lun,
			    const u8 *states)
{
	memset(lun, 0, sizeof(*lun));
	KUNIT_ASSERT_EQ(test, gennvm_lun_init(lun, 3, 1, 1, NR_BLKS, states), 0);
}

static void gennvm_init_from_table(struct kunit *test)
{
	u8 states[NR_BLKS] = { };
	struct gennvm_lun lun;
	struct nvm_block *blk;

	states[0] = NVM_BLK_T_BAD;
	states[5] = NVM_BLK_T_GRWN_BAD;
	states[6] = NVM_BLK_T_DEV;
	states[7] = NVM_BLK_T_HOST;
	gennvm_init_lun(test, &lun, states);

	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, NR_BLKS - 4);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_bad_blocks, 4U);
	KUNIT_EXPECT_EQ(test, lun.vlun.id, 3);
	check_accounting(test, &lun);
	list_for_each_entry(blk, &lun.bad_list, list) {
		KUNIT_EXPECT_NE(test, states[blk->id], NVM_BLK_T_FREE);
		KUNIT_EXPECT_EQ(test, blk->state, NVM_BLK_ST_BAD);
	}
	list_for_each_entry(blk, &lun.free_list, list) {
		KUNIT_EXPECT_EQ(test, states[blk->id], NVM_BLK_T_FREE);
		KUNIT_EXPECT_PTR_EQ(test, blk->lun, &lun.vlun);
	}
	gennvm_lun_free(&lun);
}

/* Draining a LUN never returns a bad block, and stops at the GC reserve. */
static void gennvm_get_never_bad(struct kunit *test)
{
	u8 states[NR_BLKS] = { };
	struct nvm_block *got[NR_BLKS];
	struct gennvm_lun lun;
	int n = 0, i;

	states[2] = NVM_BLK_T_BAD;
	states[9] = NVM_BLK_T_GRWN_BAD;
	gennvm_init_lun(test, &lun, states);

	while ((got[n] = gennvm_lun_get_blk(&lun, NVM_IOTYPE_NONE))) {
		KUNIT_EXPECT_EQ(test, states[got[n]->id], NVM_BLK_T_FREE);
		KUNIT_EXPECT_EQ(test, got[n]->state, NVM_BLK_ST_OPEN);
		n++;
		KUNIT_ASSERT_LT(test, n, NR_BLKS);
	}
	KUNIT_EXPECT_EQ(test, n, NR_BLKS - 2 - NVM_LUN_GC_RESERVE);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, NVM_LUN_GC_RESERVE);
	check_accounting(test, &lun);

	/* GC may take the reserve */
	while ((got[n] = gennvm_lun_get_blk(&lun, NVM_IOTYPE_GC))) {
		KUNIT_EXPECT_EQ(test, states[got[n]->id], NVM_BLK_T_FREE);
		n++;
		KUNIT_ASSERT_LT(test, n, NR_BLKS);
	}
	KUNIT_EXPECT_EQ(test, n, NR_BLKS - 2);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, 0U);
	KUNIT_EXPECT_EQ(test, lun.nr_used_blocks, NR_BLKS - 2);
	check_accounting(test, &lun);

	/* all distinct */
	for (i = 1; i < n; i++)
		KUNIT_EXPECT_PTR_NE(test, got[i], got[i - 1]);

	for (i = 0; i < n; i++)
		gennvm_lun_put_blk(&lun, got[i]);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, NR_BLKS - 2);
	KUNIT_EXPECT_EQ(test, lun.nr_used_blocks, 0U);
	check_accounting(test, &lun);
	gennvm_lun_free(&lun);
}

/* Claiming a given block: only a free one, and the reserve does not apply. */
static void gennvm_claim(struct kunit *test)
{
	u8 states[NR_BLKS] = { };
	struct nvm_block *a, *got[NR_BLKS];
	struct gennvm_lun lun;
	int n = 0, i;

	states[5] = NVM_BLK_T_GRWN_BAD;
	gennvm_init_lun(test, &lun, states);

	KUNIT_EXPECT_NULL(test, gennvm_lun_claim_blk(&lun, 5, false));
	KUNIT_EXPECT_NULL(test, gennvm_lun_claim_blk(&lun, NR_BLKS, false));
	a = gennvm_lun_claim_blk(&lun, 7, false);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, a->id, 7U);
	KUNIT_EXPECT_EQ(test, a->state, NVM_BLK_ST_OPEN);
	KUNIT_EXPECT_NULL(test, gennvm_lun_claim_blk(&lun, 7, false));
	check_accounting(test, &lun);

	/* get never hands the claimed (or the bad) block out */
	while ((got[n] = gennvm_lun_get_blk(&lun, NVM_IOTYPE_GC))) {
		KUNIT_EXPECT_NE(test, got[n]->id, 7U);
		KUNIT_EXPECT_NE(test, got[n]->id, 5U);
		n++;
		KUNIT_ASSERT_LT(test, n, NR_BLKS);
	}
	KUNIT_EXPECT_EQ(test, n, NR_BLKS - 2);

	/* the GC reserve does not apply: even the last free block */
	gennvm_lun_put_blk(&lun, a);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, 1U);
	KUNIT_EXPECT_PTR_EQ(test, gennvm_lun_claim_blk(&lun, 7, false), a);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, 0U);
	check_accounting(test, &lun);

	gennvm_lun_put_blk(&lun, a);
	for (i = 0; i < n; i++)
		gennvm_lun_put_blk(&lun, got[i]);
	KUNIT_EXPECT_EQ(test, lun.nr_used_blocks, 0U);
	check_accounting(test, &lun);
	gennvm_lun_free(&lun);
}

/* A block marked bad while handed out goes to the bad list when put. */
static void gennvm_mark_used_then_put(struct kunit *test)
{
	struct nvm_block *a, *b;
	struct gennvm_lun lun;

	gennvm_init_lun(test, &lun, NULL);
	a = gennvm_lun_get_blk(&lun, NVM_IOTYPE_NONE);
	b = gennvm_lun_get_blk(&lun, NVM_IOTYPE_NONE);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);

	KUNIT_EXPECT_TRUE(test, gennvm_lun_mark_bad(&lun, a->id));
	KUNIT_EXPECT_FALSE(test, gennvm_lun_mark_bad(&lun, a->id));
	/* still with its target until put back */
	KUNIT_EXPECT_EQ(test, lun.nr_used_blocks, 2U);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_bad_blocks, 0U);
	check_accounting(test, &lun);

	gennvm_lun_put_blk(&lun, a);
	gennvm_lun_put_blk(&lun, b);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_bad_blocks, 1U);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, NR_BLKS - 1);
	KUNIT_EXPECT_EQ(test, a->state, NVM_BLK_ST_BAD);
	KUNIT_EXPECT_EQ(test, b->state, NVM_BLK_ST_FREE);
	check_accounting(test, &lun);

	/* the bad block never comes back */
	while ((b = gennvm_lun_get_blk(&lun, NVM_IOTYPE_GC)))
		KUNIT_EXPECT_NE(test, b->id, a->id);
	check_accounting(test, &lun);
	KUNIT_EXPECT_EQ(test, lun.nr_used_blocks, NR_BLKS - 1);
	list_for_each_entry_safe(a, b, &lun.used_list, list)
		gennvm_lun_put_blk(&lun, a);
	gennvm_lun_free(&lun);
}

/* A free block marked bad leaves the free list at once. */
static void gennvm_mark_free(struct kunit *test)
{
	struct gennvm_lun lun;
	struct nvm_block *blk;

	gennvm_init_lun(test, &lun, NULL);
	KUNIT_EXPECT_TRUE(test, gennvm_lun_mark_bad(&lun, 0));
	KUNIT_EXPECT_TRUE(test, gennvm_lun_mark_bad(&lun, NR_BLKS - 1));
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, NR_BLKS - 2);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_bad_blocks, 2U);
	check_accounting(test, &lun);
	blk = gennvm_lun_get_blk(&lun, NVM_IOTYPE_NONE);
	KUNIT_ASSERT_NOT_NULL(test, blk);
	KUNIT_EXPECT_EQ(test, blk->id, 1U);	/* oldest free block */
	gennvm_lun_put_blk(&lun, blk);
	check_accounting(test, &lun);
	gennvm_lun_free(&lun);
}

/* Reload puts blocks back per the (new) table. */
static void gennvm_reload(struct kunit *test)
{
	u8 states[NR_BLKS] = { };
	struct gennvm_lun lun;

	states[1] = NVM_BLK_T_GRWN_BAD;
	gennvm_init_lun(test, &lun, states);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_bad_blocks, 1U);
	states[1] = NVM_BLK_T_FREE;
	states[4] = NVM_BLK_T_BAD;
	states[8] = NVM_BLK_T_BAD;
	KUNIT_EXPECT_EQ(test, gennvm_lun_reload(&lun, states), 0);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_bad_blocks, 2U);
	KUNIT_EXPECT_EQ(test, lun.vlun.blocks[1].state, NVM_BLK_ST_FREE);
	KUNIT_EXPECT_EQ(test, lun.vlun.blocks[4].state, NVM_BLK_ST_BAD);
	check_accounting(test, &lun);
	gennvm_lun_free(&lun);
}

static void gennvm_factory_actions(struct kunit *test)
{
	const int only = NVM_FACTORY_ERASE_ONLY_USER;
	const int host = NVM_FACTORY_RESET_HOST_BLKS;
	const int grwn = NVM_FACTORY_RESET_GRWN_BBLKS;
	bool reset;

	KUNIT_EXPECT_EQ(test, gennvm_factory_action(NVM_BLK_T_FREE, 0, &reset), 1);
	KUNIT_EXPECT_FALSE(test, reset);
	KUNIT_EXPECT_EQ(test, gennvm_factory_action(NVM_BLK_T_FREE, only, &reset), 0);

	KUNIT_EXPECT_EQ(test, gennvm_factory_action(NVM_BLK_T_HOST, only, &reset), 1);
	KUNIT_EXPECT_FALSE(test, reset);
	KUNIT_EXPECT_EQ(test, gennvm_factory_action(NVM_BLK_T_HOST, host, &reset), 1);
	KUNIT_EXPECT_TRUE(test, reset);

	KUNIT_EXPECT_EQ(test, gennvm_factory_action(NVM_BLK_T_GRWN_BAD, host, &reset), 0);
	KUNIT_EXPECT_FALSE(test, reset);
	KUNIT_EXPECT_EQ(test, gennvm_factory_action(NVM_BLK_T_GRWN_BAD, grwn | only, &reset), 1);
	KUNIT_EXPECT_TRUE(test, reset);

	/* factory bad and device-reserved blocks are never touched */
	KUNIT_EXPECT_EQ(test, gennvm_factory_action(NVM_BLK_T_BAD, 7, &reset), 0);
	KUNIT_EXPECT_FALSE(test, reset);
	KUNIT_EXPECT_EQ(test, gennvm_factory_action(NVM_BLK_T_DEV, 7, &reset), 0);
	KUNIT_EXPECT_FALSE(test, reset);
}

/*
 * A 2.0 LUN from its chunk descriptors: offline chunks are bad, free, open
 * and closed ones free to hand out (or claim), each block keeping its
 * chunk's state and write pointer; an open chunk claimed by a target shows
 * where its next write goes.
 */
static void gennvm_init_from_chunks(struct kunit *test)
{
	struct nvm_chk_meta meta[NR_BLKS];
	u8 states[NR_BLKS];
	struct gennvm_lun lun;
	struct nvm_block *blk;
	int i;

	memset(meta, 0, sizeof(meta));
	for (i = 0; i < NR_BLKS; i++) {
		meta[i].state = NVM_CHK_ST_FREE;
		meta[i].cnlb = 64;
	}
	meta[2].state = NVM_CHK_ST_OFFLINE;
	meta[3].state = NVM_CHK_ST_OPEN;
	meta[3].wp = 24;
	meta[4].state = NVM_CHK_ST_CLOSED;
	meta[4].wp = 64;
	meta[9].state = NVM_CHK_ST_OFFLINE;
	for (i = 0; i < NR_BLKS; i++)
		states[i] = gennvm_chk_to_bbt(&meta[i]);
	KUNIT_EXPECT_EQ(test, states[2], NVM_BLK_T_BAD);
	KUNIT_EXPECT_EQ(test, states[3], NVM_BLK_T_FREE);
	KUNIT_EXPECT_EQ(test, states[4], NVM_BLK_T_FREE);

	gennvm_init_lun(test, &lun, states);
	gennvm_lun_set_chunks(&lun, meta);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_bad_blocks, 2U);
	KUNIT_EXPECT_EQ(test, lun.vlun.nr_free_blocks, NR_BLKS - 2);
	check_accounting(test, &lun);
	for (i = 0; i < NR_BLKS; i++) {
		KUNIT_EXPECT_EQ(test, lun.vlun.blocks[i].chk_state,
				meta[i].state);
		KUNIT_EXPECT_EQ(test, (u64)lun.vlun.blocks[i].wp, meta[i].wp);
	}

	/* the open chunk is claimed with its write pointer */
	blk = gennvm_lun_claim_blk(&lun, 3, false);
	KUNIT_ASSERT_NOT_NULL(test, blk);
	KUNIT_EXPECT_EQ(test, blk->chk_state, NVM_CHK_ST_OPEN);
	KUNIT_EXPECT_EQ(test, blk->wp, 24U);
	/* an offline chunk only as a bad block */
	KUNIT_EXPECT_NULL(test, gennvm_lun_claim_blk(&lun, 2, false));
	gennvm_lun_put_blk(&lun, blk);
	check_accounting(test, &lun);
	gennvm_lun_free(&lun);
}

static void gennvm_factory_actions20(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gennvm_factory_action20(NVM_CHK_ST_OPEN), 1);
	KUNIT_EXPECT_EQ(test, gennvm_factory_action20(NVM_CHK_ST_CLOSED), 1);
	KUNIT_EXPECT_EQ(test, gennvm_factory_action20(NVM_CHK_ST_FREE), 0);
	KUNIT_EXPECT_EQ(test, gennvm_factory_action20(NVM_CHK_ST_OFFLINE), 0);
}

static struct kunit_case gennvm_cases[] = {
	KUNIT_CASE(gennvm_init_from_table),
	KUNIT_CASE(gennvm_get_never_bad),
	KUNIT_CASE(gennvm_claim),
	KUNIT_CASE(gennvm_mark_used_then_put),
	KUNIT_CASE(gennvm_mark_free),
	KUNIT_CASE(gennvm_reload),
	KUNIT_CASE(gennvm_factory_actions),
	KUNIT_CASE(gennvm_init_from_chunks),
	KUNIT_CASE(gennvm_factory_actions20),
	{}
};

static struct kunit_suite gennvm_suite = {
	.name = "gennvm_lists",
	.test_cases = gennvm_cases,
};

kunit_test_suite(gennvm_suite);

MODULE_DESCRIPTION("KUnit tests of the gennvm media manager");
MODULE_LICENSE("GPL");
