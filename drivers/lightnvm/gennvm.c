// SPDX-License-Identifier: GPL-2.0
/*
 * gennvm, the general media manager of LightNVM. For each device bound to
 * it, keeps per-LUN lists of free, used and bad blocks built from the
 * device's bad block table (planes folded: a block is bad if any of its
 * planes is) on 1.2 devices, or from the chunk descriptors of a 2.0
 * device (an offline chunk is a bad block; the state and write pointer of
 * the others are kept in their blocks), hands blocks to targets and takes
 * them back, erases (1.2) or resets (2.0) them, records grown bad blocks
 * in the device's table (1.2; in memory only on 2.0, which has no table),
 * reserves LUN ranges for targets, and brings a device back to a factory
 * state on request.
 */

#define pr_fmt(fmt) "gennvm: " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <kunit/visibility.h>

#include "gennvm.h"
#include <trace/events/lightnvm.h>

/* A pending update of the device's bad block table. */
struct gennvm_mark {
	struct list_head	list;
	struct ppa_addr		ppa;	/* generic, ch/lun/blk */
	int			type;
};

static inline struct gennvm_lun *to_gennvm_lun(struct nvm_lun *vlun)
{
	return container_of(vlun, struct gennvm_lun, vlun);
}

/* ---------------------------------------------------- per-LUN list logic */

/* Put every block on the list its folded table state asks for. */
static void gennvm_lun_build(struct gennvm_lun *lun, const u8 *states)
{
	unsigned int i;

	lockdep_assert_held(&lun->vlun.lock);
	INIT_LIST_HEAD(&lun->free_list);
	INIT_LIST_HEAD(&lun->used_list);
	INIT_LIST_HEAD(&lun->bad_list);
	lun->vlun.nr_free_blocks = 0;
	lun->vlun.nr_bad_blocks = 0;
	lun->nr_used_blocks = 0;
	lun->nr_factory_bad = 0;
	lun->nr_grown_bad = 0;

	for (i = 0; i < lun->nr_blocks; i++) {
		struct nvm_block *blk = &lun->vlun.blocks[i];

		blk->lun = &lun->vlun;
		blk->id = i;
		blk->priv = NULL;
		if (states && states[i] != NVM_BLK_T_FREE) {
			blk->state = NVM_BLK_ST_BAD;
			list_add_tail(&blk->list, &lun->bad_list);
			lun->vlun.nr_bad_blocks++;
			if (states[i] == NVM_BLK_T_BAD)
				lun->nr_factory_bad++;
			else if (states[i] == NVM_BLK_T_GRWN_BAD)
				lun->nr_grown_bad++;
		} else {
			blk->state = NVM_BLK_ST_FREE;
			list_add_tail(&blk->list, &lun->free_list);
			lun->vlun.nr_free_blocks++;
		}
	}
}

/**
 * gennvm_lun_init() - set up a LUN and its block lists
 * @lun: the LUN, zeroed
 * @id: device LUN index
 * @chnl_id: channel
 * @lun_id: LUN within the channel
 * @nr_blks: blocks in the LUN
 * @states: folded %NVM_BLK_T_* state of each block; %NULL: all free
 *
 * Only %NVM_BLK_T_FREE blocks become free; every other state (factory or
 * grown bad, device-reserved, host-marked) puts the block on the bad list.
 *
 * Context: process.
 * Return: 0 or -ENOMEM.
 */
VISIBLE_IF_KUNIT int gennvm_lun_init(struct gennvm_lun *lun, int id, int chnl_id,
				     int lun_id, int nr_blks, const u8 *states)
{
	unsigned long flags;

	lun->vlun.blocks = kvcalloc(nr_blks, sizeof(*lun->vlun.blocks),
				    GFP_KERNEL);
	if (!lun->vlun.blocks)
		return -ENOMEM;
	lun->vlun.id = id;
	lun->vlun.chnl_id = chnl_id;
	lun->vlun.lun_id = lun_id;
	lun->nr_blocks = nr_blks;
	spin_lock_init(&lun->vlun.lock);

	spin_lock_irqsave(&lun->vlun.lock, flags);
	gennvm_lun_build(lun, states);
	spin_unlock_irqrestore(&lun->vlun.lock, flags);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_init);

/**
 * gennvm_lun_free() - free what gennvm_lun_init() allocated
 * @lun: the LUN
 *
 * Context: process.
 */
VISIBLE_IF_KUNIT void gennvm_lun_free(struct gennvm_lun *lun)
{
	WARN_ON_ONCE(lun->nr_used_blocks);
	kvfree(lun->vlun.blocks);
	lun->vlun.blocks = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_free);

/**
 * gennvm_lun_reload() - rebuild the lists of a LUN from new table states
 * @lun: the LUN, without used blocks
 * @states: folded state of each block
 *
 * Context: any.
 * Return: 0, or -EBUSY if blocks are handed out.
 */
VISIBLE_IF_KUNIT int gennvm_lun_reload(struct gennvm_lun *lun, const u8 *states)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&lun->vlun.lock, flags);
	if (WARN_ON_ONCE(lun->nr_used_blocks))
		ret = -EBUSY;
	else
		gennvm_lun_build(lun, states);
	spin_unlock_irqrestore(&lun->vlun.lock, flags);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_reload);

/**
 * gennvm_chk_to_bbt() - the bad block table state of a 2.0 chunk
 * @m: the chunk's descriptor
 *
 * An offline chunk is out of service for good: it counts as a factory bad
 * block (a 2.0 device does not say why a chunk is offline). Free, open and
 * closed chunks are all good blocks: a target claims the ones holding its
 * data, and resets the others before it writes them.
 *
 * Context: any.
 * Return: %NVM_BLK_T_BAD or %NVM_BLK_T_FREE.
 */
VISIBLE_IF_KUNIT u8 gennvm_chk_to_bbt(const struct nvm_chk_meta *m)
{
	return m->state & NVM_CHK_ST_OFFLINE ? NVM_BLK_T_BAD : NVM_BLK_T_FREE;
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_chk_to_bbt);

/**
 * gennvm_lun_set_chunks() - record the chunk states of a 2.0 LUN
 * @lun: the LUN, its lists built from the same descriptors
 * @meta: one descriptor per block of the LUN
 *
 * Keeps each chunk's state and write pointer in its block
 * (&nvm_block.chk_state, &nvm_block.wp): an open chunk's next write goes
 * to its write pointer.
 *
 * Context: any.
 */
VISIBLE_IF_KUNIT void gennvm_lun_set_chunks(struct gennvm_lun *lun,
					    const struct nvm_chk_meta *meta)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&lun->vlun.lock, flags);
	for (i = 0; i < lun->nr_blocks; i++) {
		lun->vlun.blocks[i].chk_state = meta[i].state;
		lun->vlun.blocks[i].wp = meta[i].wp;
	}
	spin_unlock_irqrestore(&lun->vlun.lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_set_chunks);

/**
 * gennvm_factory_action20() - what NVM_DEV_FACTORY does to a 2.0 chunk
 * @state: the chunk's %NVM_CHK_ST_* state
 *
 * Open and closed chunks (written by the host) are reset, whatever the
 * flags: a 2.0 device has no host marks and no grown-bad marks to reset.
 * Free chunks need no reset; offline chunks cannot come back.
 *
 * Context: any.
 * Return: 1 if the chunk is to be reset, 0 if not.
 */
VISIBLE_IF_KUNIT int gennvm_factory_action20(u8 state)
{
	return state == NVM_CHK_ST_OPEN || state == NVM_CHK_ST_CLOSED;
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_factory_action20);

/* A free block goes to a target. Context: the LUN's lock held. */
static void gennvm_lun_hand_out(struct gennvm_lun *lun, struct nvm_block *blk)
{
	lockdep_assert_held(&lun->vlun.lock);
	list_move_tail(&blk->list, &lun->used_list);
	blk->state = NVM_BLK_ST_OPEN;
	/* targets read it without the lock (rrpc_lun_free()) */
	WRITE_ONCE(lun->vlun.nr_free_blocks, lun->vlun.nr_free_blocks - 1);
	lun->nr_used_blocks++;
}

/**
 * gennvm_lun_get_blk() - take the oldest free block of a LUN
 * @lun: the LUN
 * @flags: %NVM_IOTYPE_GC allows taking the last %NVM_LUN_GC_RESERVE blocks
 *
 * Context: any.
 * Return: the block, now on the used list, or %NULL.
 */
VISIBLE_IF_KUNIT struct nvm_block *gennvm_lun_get_blk(struct gennvm_lun *lun,
						      unsigned long flags)
{
	struct nvm_block *blk = NULL;
	unsigned long irqflags;

	spin_lock_irqsave(&lun->vlun.lock, irqflags);
	if (list_empty(&lun->free_list))
		goto out;
	if (!(flags & NVM_IOTYPE_GC) &&
	    lun->vlun.nr_free_blocks <= NVM_LUN_GC_RESERVE)
		goto out;
	blk = list_first_entry(&lun->free_list, struct nvm_block, list);
	gennvm_lun_hand_out(lun, blk);
out:
	spin_unlock_irqrestore(&lun->vlun.lock, irqflags);
	return blk;
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_get_blk);

/**
 * gennvm_lun_claim_blk() - take a given free (or bad) block of a LUN
 * @lun: the LUN
 * @blkid: block index
 * @bad: take a bad block instead of a free one, read-only: its target
 *	adopts the data a program failure left in it (before it could move
 *	the data out). It stays marked bad and goes back to the bad list
 *	when put back.
 *
 * Unlike gennvm_lun_get_blk() the GC reserve does not apply: the block holds
 * data of the target that claims it.
 *
 * Context: any.
 * Return: the block, now on the used list, or %NULL if it is not free (not
 * bad, with @bad) or handed out already.
 */
VISIBLE_IF_KUNIT struct nvm_block *gennvm_lun_claim_blk(struct gennvm_lun *lun,
							unsigned int blkid,
							bool bad)
{
	struct nvm_block *blk;
	unsigned long irqflags;

	if (blkid >= lun->nr_blocks)
		return NULL;
	blk = &lun->vlun.blocks[blkid];
	spin_lock_irqsave(&lun->vlun.lock, irqflags);
	if (!bad && blk->state == NVM_BLK_ST_FREE) {
		gennvm_lun_hand_out(lun, blk);
	} else if (bad && blk->state == NVM_BLK_ST_BAD) {
		list_move_tail(&blk->list, &lun->used_list);
		blk->state = NVM_BLK_ST_BAD | NVM_BLK_ST_OPEN;
		lun->vlun.nr_bad_blocks--;
		if (lun->nr_grown_bad)
			lun->nr_grown_bad--;
		lun->nr_used_blocks++;
	} else {
		blk = NULL;
	}
	spin_unlock_irqrestore(&lun->vlun.lock, irqflags);
	return blk;
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_claim_blk);

/**
 * gennvm_lun_put_blk() - take back a block handed out by gennvm_lun_get_blk()
 * @lun: its LUN
 * @blk: the block
 *
 * A block marked bad while it was out goes to the bad list.
 *
 * Context: any.
 */
VISIBLE_IF_KUNIT void gennvm_lun_put_blk(struct gennvm_lun *lun,
					 struct nvm_block *blk)
{
	unsigned long flags;

	spin_lock_irqsave(&lun->vlun.lock, flags);
	if (WARN_ON_ONCE(!(blk->state & NVM_BLK_ST_OPEN))) {
		pr_err("block %u of LUN %d put back but not handed out (state 0x%x)\n",
		       blk->id, lun->vlun.id, blk->state);
		goto out;
	}
	lun->nr_used_blocks--;
	blk->priv = NULL;
	if (blk->state & NVM_BLK_ST_BAD) {
		blk->state = NVM_BLK_ST_BAD;
		list_move_tail(&blk->list, &lun->bad_list);
		lun->vlun.nr_bad_blocks++;
		lun->nr_grown_bad++;
	} else {
		blk->state = NVM_BLK_ST_FREE;
		list_move_tail(&blk->list, &lun->free_list);
		WRITE_ONCE(lun->vlun.nr_free_blocks,
			   lun->vlun.nr_free_blocks + 1);
	}
out:
	spin_unlock_irqrestore(&lun->vlun.lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_put_blk);

/**
 * gennvm_lun_mark_bad() - take a block out of service
 * @lun: its LUN
 * @blkid: block index
 *
 * A free block moves to the bad list at once; a used one stays with its
 * target and goes to the bad list when put back.
 *
 * Context: any.
 * Return: true if the block was not known bad before.
 */
VISIBLE_IF_KUNIT bool gennvm_lun_mark_bad(struct gennvm_lun *lun, unsigned int blkid)
{
	struct nvm_block *blk;
	unsigned long flags;
	bool changed = true;

	if (WARN_ON_ONCE(blkid >= lun->nr_blocks))
		return false;
	blk = &lun->vlun.blocks[blkid];

	spin_lock_irqsave(&lun->vlun.lock, flags);
	if (blk->state & NVM_BLK_ST_BAD) {
		changed = false;
	} else if (blk->state & NVM_BLK_ST_OPEN) {
		blk->state |= NVM_BLK_ST_BAD;
	} else {
		blk->state = NVM_BLK_ST_BAD;
		list_move_tail(&blk->list, &lun->bad_list);
		WRITE_ONCE(lun->vlun.nr_free_blocks,
			   lun->vlun.nr_free_blocks - 1);
		lun->vlun.nr_bad_blocks++;
		lun->nr_grown_bad++;
	}
	spin_unlock_irqrestore(&lun->vlun.lock, flags);
	return changed;
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_mark_bad);

/**
 * gennvm_lun_stats() - read the block counts of a LUN
 * @lun: the LUN
 * @st: filled in, consistent under the LUN's lock
 *
 * A block marked bad while a target holds it stays used until it is put
 * back; then it counts as grown bad.
 *
 * Context: any.
 */
VISIBLE_IF_KUNIT void gennvm_lun_stats(struct gennvm_lun *lun,
				       struct nvm_lun_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&lun->vlun.lock, flags);
	st->nr_free = lun->vlun.nr_free_blocks;
	st->nr_used = lun->nr_used_blocks;
	st->nr_bad = lun->vlun.nr_bad_blocks;
	st->nr_factory_bad = lun->nr_factory_bad;
	st->nr_grown_bad = lun->nr_grown_bad;
	spin_unlock_irqrestore(&lun->vlun.lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_lun_stats);

/**
 * gennvm_factory_action() - what NVM_DEV_FACTORY does to a block
 * @state: folded %NVM_BLK_T_* state of the block
 * @flags: %NVM_FACTORY_* flags
 * @reset: set to true if the block's mark goes back to free once erased
 *
 * Free blocks are erased unless %NVM_FACTORY_ERASE_ONLY_USER. Host-marked
 * blocks are always erased, and unmarked with %NVM_FACTORY_RESET_HOST_BLKS.
 * Grown bad blocks are erased and unmarked only with
 * %NVM_FACTORY_RESET_GRWN_BBLKS. Factory bad and device-reserved blocks
 * are never touched.
 *
 * Context: any.
 * Return: 1 if the block is to be erased, 0 if not.
 */
VISIBLE_IF_KUNIT int gennvm_factory_action(u8 state, int flags, bool *reset)
{
	*reset = false;
	switch (state) {
	case NVM_BLK_T_FREE:
		return !(flags & NVM_FACTORY_ERASE_ONLY_USER);
	case NVM_BLK_T_HOST:
		*reset = !!(flags & NVM_FACTORY_RESET_HOST_BLKS);
		return 1;
	case NVM_BLK_T_GRWN_BAD:
		*reset = !!(flags & NVM_FACTORY_RESET_GRWN_BBLKS);
		return *reset;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(gennvm_factory_action);

/* ------------------------------------------------- bad block table updates */

/* Write the states of all planes of the block at @ppa. Process context. */
static int gennvm_set_blk_state(struct nvm_dev *dev, struct ppa_addr ppa,
				int type)
{
	struct ppa_addr ppas[NVM_PLANE_QUAD];
	int pl, ret;

	for (pl = 0; pl < dev->geo.nr_planes; pl++) {
		ppas[pl] = ppa;
		ppas[pl].g.pl = pl;
	}
	ret = nvm_set_bb_tbl(dev, ppas, dev->geo.nr_planes, type);
	if (ret && ret != -EOPNOTSUPP)
		pr_err("%s: could not mark block %u of channel %u LUN %u as 0x%x: %d\n",
		       dev->name, (unsigned int)ppa.g.blk, (unsigned int)ppa.g.ch,
		       (unsigned int)ppa.g.lun, type, ret);
	return ret == -EOPNOTSUPP ? 0 : ret;
}

static void gennvm_mark_work(struct work_struct *work)
{
	struct gennvm_dev *gn = container_of(work, struct gennvm_dev, mark_work);
	struct gennvm_mark *m, *tmp;
	unsigned long flags;
	LIST_HEAD(todo);

	spin_lock_irqsave(&gn->lock, flags);
	list_splice_init(&gn->marks, &todo);
	spin_unlock_irqrestore(&gn->lock, flags);

	list_for_each_entry_safe(m, tmp, &todo, list) {
		gennvm_set_blk_state(gn->dev, m->ppa, m->type);
		list_del(&m->list);
		kfree(m);
	}
}

static void gennvm_mark_blk(struct nvm_dev *dev, struct ppa_addr ppa, int type)
{
	struct gennvm_dev *gn = dev->mmp;
	const struct nvm_geo *geo = &dev->geo;
	struct gennvm_lun *lun;
	struct gennvm_mark *m;
	unsigned long flags;
	bool changed = false;

	if (WARN_ON_ONCE(ppa.g.ch >= geo->nr_chnls ||
			 ppa.g.lun >= geo->luns_per_chnl ||
			 ppa.g.blk >= geo->blks_per_lun))
		return;
	lun = &gn->luns[ppa.g.ch * geo->luns_per_chnl + ppa.g.lun];
	if (type == NVM_BLK_T_GRWN_BAD || type == NVM_BLK_T_BAD) {
		changed = gennvm_lun_mark_bad(lun, ppa.g.blk);
		if (changed)
			pr_warn("%s: block %u of channel %u LUN %u is now bad (0x%x)\n",
				dev->name, (unsigned int)ppa.g.blk,
				(unsigned int)ppa.g.ch, (unsigned int)ppa.g.lun,
				type);
	}
	trace_gennvm_mark_blk(dev, ppa, type, changed);

	ppa.g.pg = 0;
	ppa.g.sec = 0;
	ppa.g.pl = 0;
	m = kmalloc(sizeof(*m), GFP_ATOMIC);
	if (!m) {
		pr_err_ratelimited("%s: no memory to record block %u as 0x%x in the device's table\n",
				   dev->name, (unsigned int)ppa.g.blk, type);
		return;
	}
	m->ppa = ppa;
	m->type = type;
	spin_lock_irqsave(&gn->lock, flags);
	list_add_tail(&m->list, &gn->marks);
	spin_unlock_irqrestore(&gn->lock, flags);
	schedule_work(&gn->mark_work);
}

/* ---------------------------------------------------- media manager ops */

static struct nvm_block *gennvm_get_blk(struct nvm_dev *dev, struct nvm_lun *vlun,
					unsigned long flags)
{
	struct nvm_block *blk = gennvm_lun_get_blk(to_gennvm_lun(vlun), flags);

	if (blk)
		trace_gennvm_get_blk(dev, blk);
	return blk;
}

static struct nvm_block *gennvm_claim_blk(struct nvm_dev *dev,
					  struct nvm_lun *vlun, unsigned int blkid,
					  bool bad)
{
	struct nvm_block *blk;

	blk = gennvm_lun_claim_blk(to_gennvm_lun(vlun), blkid, bad);
	if (blk)
		trace_gennvm_claim_blk(dev, blk);
	return blk;
}

static void gennvm_put_blk(struct nvm_dev *dev, struct nvm_block *blk)
{
	trace_gennvm_put_blk(dev, blk);
	gennvm_lun_put_blk(to_gennvm_lun(blk->lun), blk);
}

static int gennvm_erase_blk(struct nvm_dev *dev, struct nvm_block *blk,
			    unsigned long flags)
{
	struct ppa_addr ppa = nvm_blk_to_ppa(dev, blk);
	unsigned long irqflags;
	int ret;

	ret = nvm_erase_ppa(dev, ppa);
	if (ret == -EIO)
		gennvm_mark_blk(dev, ppa, NVM_BLK_T_GRWN_BAD);
	if (!ret && dev->geo.version == NVM_OCSSD_SPEC_20) {
		spin_lock_irqsave(&blk->lun->lock, irqflags);
		blk->chk_state = NVM_CHK_ST_FREE;
		blk->wp = 0;
		spin_unlock_irqrestore(&blk->lun->lock, irqflags);
	}
	return ret;
}

static struct nvm_lun *gennvm_get_lun(struct nvm_dev *dev, int lunid)
{
	struct gennvm_dev *gn = dev->mmp;

	if (WARN_ON_ONCE(lunid < 0 || lunid >= gn->nr_luns))
		return NULL;
	return &gn->luns[lunid].vlun;
}

static int gennvm_reserve_lun(struct nvm_dev *dev, int begin, int end)
{
	struct gennvm_dev *gn = dev->mmp;
	unsigned long flags;
	int ret = 0;

	if (WARN_ON_ONCE(begin < 0 || end < begin || end >= gn->nr_luns))
		return -EINVAL;
	spin_lock_irqsave(&gn->lock, flags);
	if (find_next_bit(gn->reserved, end + 1, begin) <= end)
		ret = -EBUSY;
	else
		bitmap_set(gn->reserved, begin, end - begin + 1);
	spin_unlock_irqrestore(&gn->lock, flags);
	return ret;
}

static void gennvm_release_lun(struct nvm_dev *dev, int begin, int end)
{
	struct gennvm_dev *gn = dev->mmp;
	unsigned long flags;

	if (WARN_ON_ONCE(begin < 0 || end < begin || end >= gn->nr_luns))
		return;
	spin_lock_irqsave(&gn->lock, flags);
	WARN_ON_ONCE(find_next_zero_bit(gn->reserved, end + 1, begin) <= end);
	bitmap_clear(gn->reserved, begin, end - begin + 1);
	spin_unlock_irqrestore(&gn->lock, flags);
}

static void gennvm_free_blocks(struct nvm_dev *dev, u64 *nr_free, u64 *nr_bad)
{
	struct gennvm_dev *gn = dev->mmp;
	unsigned long flags;
	int i;

	*nr_free = 0;
	*nr_bad = 0;
	for (i = 0; i < gn->nr_luns; i++) {
		struct nvm_lun *vlun = &gn->luns[i].vlun;

		spin_lock_irqsave(&vlun->lock, flags);
		*nr_free += vlun->nr_free_blocks;
		*nr_bad += vlun->nr_bad_blocks;
		spin_unlock_irqrestore(&vlun->lock, flags);
	}
}

static int gennvm_lun_stats_op(struct nvm_dev *dev, int lunid,
			       struct nvm_lun_stats *st)
{
	struct gennvm_dev *gn = dev->mmp;

	if (lunid < 0 || lunid >= gn->nr_luns) {
		pr_err("%s: LUN %d out of range (0..%d)\n", dev->name, lunid,
		       gn->nr_luns - 1);
		return -EINVAL;
	}
	gennvm_lun_stats(&gn->luns[lunid], st);
	return 0;
}

/* Read and fold the table of LUN @i into @blks. */
static int gennvm_read_bbt(struct nvm_dev *dev, int i, u8 *blks)
{
	const struct nvm_geo *geo = &dev->geo;
	int ch = i / geo->luns_per_chnl, lun = i % geo->luns_per_chnl;
	int ret;

	ret = nvm_get_bb_tbl(dev, ch, lun, blks);
	if (ret) {
		pr_err("%s: could not read the bad block table of channel %d LUN %d: %d\n",
		       dev->name, ch, lun, ret);
		return ret;
	}
	ret = nvm_bb_tbl_fold(blks, geo->blks_per_lun, geo->nr_planes);
	return ret < 0 ? ret : 0;
}

/*
 * Read the descriptors of the chunks of LUN @i (2.0) into @meta and their
 * bad block table states into @blks.
 */
static int gennvm_read_chunks(struct nvm_dev *dev, int i, u8 *blks,
			      struct nvm_chk_meta *meta)
{
	const struct nvm_geo *geo = &dev->geo;
	struct ppa_addr ppa = { .ppa = 0 };
	int blk, ret;

	ppa.g.ch = i / geo->luns_per_chnl;
	ppa.g.lun = i % geo->luns_per_chnl;
	ret = nvm_get_chunk_meta(dev, ppa, geo->blks_per_lun, meta);
	if (ret) {
		pr_err("%s: could not read the chunks of group %d PU %d: %d\n",
		       dev->name, i / geo->luns_per_chnl,
		       i % geo->luns_per_chnl, ret);
		return ret;
	}
	for (blk = 0; blk < geo->blks_per_lun; blk++)
		blks[blk] = gennvm_chk_to_bbt(&meta[blk]);
	return 0;
}

/* The states of LUN @i's blocks, from its table (1.2) or chunks (2.0). */
static int gennvm_read_states(struct nvm_dev *dev, int i, u8 *blks,
			      struct nvm_chk_meta *meta)
{
	if (meta)
		return gennvm_read_chunks(dev, i, blks, meta);
	return gennvm_read_bbt(dev, i, blks);
}

/* Reset the written chunks of 2.0 LUN @i, then reload its lists. */
static int gennvm_factory_lun20(struct gennvm_dev *gn, int i, u8 *blks,
				struct nvm_chk_meta *meta)
{
	struct nvm_dev *dev = gn->dev;
	struct gennvm_lun *lun = &gn->luns[i];
	unsigned int blk;
	int ret;

	ret = gennvm_read_chunks(dev, i, blks, meta);
	if (ret)
		return ret;
	for (blk = 0; blk < lun->nr_blocks; blk++) {
		struct ppa_addr ppa = { .ppa = 0 };

		if (!gennvm_factory_action20(meta[blk].state))
			continue;
		ppa.g.ch = lun->vlun.chnl_id;
		ppa.g.lun = lun->vlun.lun_id;
		ppa.g.blk = blk;
		ret = nvm_erase_ppa(dev, ppa);
		if (ret == -EIO) {
			/* the device takes a chunk it cannot reset offline */
			pr_warn("%s: reset of chunk %u of group %d PU %d failed\n",
				dev->name, blk, lun->vlun.chnl_id,
				lun->vlun.lun_id);
			ret = 0;
		}
		if (ret)
			return ret;
	}
	ret = gennvm_read_chunks(dev, i, blks, meta);
	if (ret)
		return ret;
	ret = gennvm_lun_reload(lun, blks);
	if (ret)
		return ret;
	gennvm_lun_set_chunks(lun, meta);
	return 0;
}

/* Erase and unmark the blocks of LUN @i per @flags, then reload its lists. */
static int gennvm_factory_lun(struct gennvm_dev *gn, int i, u8 *blks, int flags)
{
	struct nvm_dev *dev = gn->dev;
	struct gennvm_lun *lun = &gn->luns[i];
	unsigned int blk;
	int ret;

	ret = gennvm_read_bbt(dev, i, blks);
	if (ret)
		return ret;
	for (blk = 0; blk < lun->nr_blocks; blk++) {
		struct ppa_addr ppa = { .ppa = 0 };
		bool reset;

		if (!gennvm_factory_action(blks[blk], flags, &reset))
			continue;
		ppa.g.ch = lun->vlun.chnl_id;
		ppa.g.lun = lun->vlun.lun_id;
		ppa.g.blk = blk;
		/* unmark first: a device may refuse to erase a bad block */
		if (reset) {
			ret = gennvm_set_blk_state(dev, ppa, NVM_BLK_T_FREE);
			if (ret)
				return ret;
			trace_gennvm_mark_blk(dev, ppa, NVM_BLK_T_FREE, true);
		}
		ret = nvm_erase_ppa(dev, ppa);
		if (ret == -EIO) {
			pr_warn("%s: erase of block %u of channel %d LUN %d failed; marking it grown bad\n",
				dev->name, blk, lun->vlun.chnl_id,
				lun->vlun.lun_id);
			ret = gennvm_set_blk_state(dev, ppa, NVM_BLK_T_GRWN_BAD);
			trace_gennvm_mark_blk(dev, ppa, NVM_BLK_T_GRWN_BAD,
					      true);
		}
		if (ret)
			return ret;
	}
	ret = gennvm_read_bbt(dev, i, blks);
	if (ret)
		return ret;
	return gennvm_lun_reload(lun, blks);
}

static int gennvm_factory(struct nvm_dev *dev, int flags)
{
	struct gennvm_dev *gn = dev->mmp;
	const struct nvm_geo *geo = &dev->geo;
	struct nvm_chk_meta *meta = NULL;
	unsigned long irqflags;
	bool busy;
	u8 *blks;
	int i, ret = 0;

	spin_lock_irqsave(&gn->lock, irqflags);
	busy = !bitmap_empty(gn->reserved, gn->nr_luns);
	spin_unlock_irqrestore(&gn->lock, irqflags);
	if (busy) {
		pr_err("%s: factory reset while LUNs are reserved by targets\n",
		       dev->name);
		return -EBUSY;
	}
	flush_work(&gn->mark_work);

	blks = kvmalloc(geo->blks_per_lun * geo->nr_planes, GFP_KERNEL);
	if (!blks)
		return -ENOMEM;
	if (geo->version == NVM_OCSSD_SPEC_20) {
		meta = kvmalloc_array(geo->blks_per_lun, sizeof(*meta),
				      GFP_KERNEL);
		if (!meta) {
			ret = -ENOMEM;
			goto out_free_blks;
		}
	}
	for (i = 0; i < gn->nr_luns && !ret; i++) {
		if (meta)
			ret = gennvm_factory_lun20(gn, i, blks, meta);
		else
			ret = gennvm_factory_lun(gn, i, blks, flags);
	}
	kvfree(meta);
out_free_blks:
	kvfree(blks);
	if (!ret)
		pr_info("%s: factory reset done (flags 0x%x)\n", dev->name, flags);
	return ret;
}

static void gennvm_free_luns(struct gennvm_dev *gn, int nr)
{
	while (nr--)
		gennvm_lun_free(&gn->luns[nr]);
}

static int gennvm_register(struct nvm_dev *dev)
{
	const struct nvm_geo *geo = &dev->geo;
	struct nvm_chk_meta *meta = NULL;
	struct gennvm_dev *gn;
	u64 nr_free = 0, nr_bad = 0;
	u8 *blks;
	int i, ret;

	if ((u64)geo->nr_luns * geo->blks_per_lun * sizeof(struct nvm_block) >
	    GENNVM_MAX_DESC_BYTES) {
		pr_err("%s: %d LUNs of %d blocks need %llu MiB of block descriptors, more than gennvm allocates (%u MiB)\n",
		       dev->name, geo->nr_luns, geo->blks_per_lun,
		       (u64)geo->nr_luns * geo->blks_per_lun *
		       sizeof(struct nvm_block) >> 20,
		       GENNVM_MAX_DESC_BYTES >> 20);
		return -EINVAL;
	}

	gn = kzalloc_node(sizeof(*gn), GFP_KERNEL, dev->node);
	if (!gn)
		return -ENOMEM;
	gn->dev = dev;
	gn->nr_luns = geo->nr_luns;
	spin_lock_init(&gn->lock);
	INIT_LIST_HEAD(&gn->marks);
	INIT_WORK(&gn->mark_work, gennvm_mark_work);

	/* 128 x 255 LUNs exceed kmalloc()'s 4 MiB with lock debugging */
	gn->luns = kvcalloc(gn->nr_luns, sizeof(*gn->luns), GFP_KERNEL);
	if (!gn->luns) {
		ret = -ENOMEM;
		goto err_free_gn;
	}
	gn->reserved = bitmap_zalloc(gn->nr_luns, GFP_KERNEL);
	if (!gn->reserved) {
		ret = -ENOMEM;
		goto err_free_luns_array;
	}
	blks = kvmalloc(geo->blks_per_lun * geo->nr_planes, GFP_KERNEL);
	if (!blks) {
		ret = -ENOMEM;
		goto err_free_bitmap;
	}
	if (geo->version == NVM_OCSSD_SPEC_20) {
		meta = kvmalloc_array(geo->blks_per_lun, sizeof(*meta),
				      GFP_KERNEL);
		if (!meta) {
			ret = -ENOMEM;
			goto err_free_blks;
		}
	}

	for (i = 0; i < gn->nr_luns; i++) {
		ret = gennvm_read_states(dev, i, blks, meta);
		if (ret)
			goto err_free_luns;
		ret = gennvm_lun_init(&gn->luns[i], i, i / geo->luns_per_chnl,
				      i % geo->luns_per_chnl,
				      geo->blks_per_lun, blks);
		if (ret)
			goto err_free_luns;
		if (meta)
			gennvm_lun_set_chunks(&gn->luns[i], meta);
		nr_free += gn->luns[i].vlun.nr_free_blocks;
		nr_bad += gn->luns[i].vlun.nr_bad_blocks;
	}
	kvfree(meta);
	kvfree(blks);

	dev->mmp = gn;
	pr_info("%s: %d LUNs, %llu free and %llu bad blocks\n",
		dev->name, gn->nr_luns, nr_free, nr_bad);
	return 0;

err_free_luns:
	gennvm_free_luns(gn, i);
	kvfree(meta);
err_free_blks:
	kvfree(blks);
err_free_bitmap:
	bitmap_free(gn->reserved);
err_free_luns_array:
	kvfree(gn->luns);
err_free_gn:
	kfree(gn);
	return ret;
}

static void gennvm_unregister(struct nvm_dev *dev)
{
	struct gennvm_dev *gn = dev->mmp;

	if (WARN_ON_ONCE(!gn))
		return;
	WARN_ON_ONCE(!bitmap_empty(gn->reserved, gn->nr_luns));
	flush_work(&gn->mark_work);
	gennvm_free_luns(gn, gn->nr_luns);
	bitmap_free(gn->reserved);
	kvfree(gn->luns);
	kfree(gn);
	dev->mmp = NULL;
}

static struct nvm_mm_type gennvm_mm = {
	.name		= "gennvm",
	.version	= { 1, 0, 0 },
	.register_mgr	= gennvm_register,
	.unregister_mgr	= gennvm_unregister,
	.get_blk	= gennvm_get_blk,
	.claim_blk	= gennvm_claim_blk,
	.put_blk	= gennvm_put_blk,
	.erase_blk	= gennvm_erase_blk,
	.mark_blk	= gennvm_mark_blk,
	.get_lun	= gennvm_get_lun,
	.reserve_lun	= gennvm_reserve_lun,
	.release_lun	= gennvm_release_lun,
	.factory	= gennvm_factory,
	.free_blocks	= gennvm_free_blocks,
	.lun_stats	= gennvm_lun_stats_op,
	.owner		= THIS_MODULE,
};

static int __init gennvm_module_init(void)
{
	return nvm_register_mm(&gennvm_mm);
}

static void __exit gennvm_module_exit(void)
{
	nvm_unregister_mm(&gennvm_mm);
}

module_init(gennvm_module_init);
module_exit(gennvm_module_exit);

MODULE_DESCRIPTION("General media manager for Open-Channel SSDs (LightNVM)");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0.0");
MODULE_ALIAS("nvm-mm-gennvm");
