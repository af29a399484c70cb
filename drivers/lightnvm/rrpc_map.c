// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: the logical-to-physical map, the reverse map and the per-block
 * valid-sector accounting, GC victim selection (greedy, cost-benefit),
 * wear leveling's trigger and victim, the GC stream's free block, whose
 * turn it is to take a user unit (placement over the LUNs). Pure
 * logic on struct rrpc, without I/O (it only kicks the GC of a full LUN
 * that an invalidation gives space), so that KUnit (rrpc_test.c) can
 * check it.
 */

#include <linux/bitmap.h>
#include <linux/lockdep.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include "rrpc.h"

/**
 * rrpc_vidx_init() - an empty index of closed blocks by valid count
 * @vx: the index
 * @spb: sectors per block: counts 0 .. @spb
 *
 * One list per count up to %RRPC_VIDX_LISTS lists; larger blocks share a
 * list between 2^shift neighbouring counts.
 *
 * Return: 0 or -ENOMEM; rrpc_vidx_free() undoes a partial init.
 */
int rrpc_vidx_init(struct rrpc_vidx *vx, u32 spb)
{
	u32 i;

	vx->shift = 0;
	while ((spb >> vx->shift) + 1 > RRPC_VIDX_LISTS)
		vx->shift++;
	vx->nr = (spb >> vx->shift) + 1;
	vx->lists = kcalloc(vx->nr, sizeof(*vx->lists), GFP_KERNEL);
	vx->nonempty = bitmap_zalloc(vx->nr, GFP_KERNEL);
	if (!vx->lists || !vx->nonempty)
		return -ENOMEM;
	for (i = 0; i < vx->nr; i++)
		INIT_LIST_HEAD(&vx->lists[i]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_vidx_init);

/**
 * rrpc_vidx_free() - free an index; its blocks leave it
 * @vx: the index
 */
void rrpc_vidx_free(struct rrpc_vidx *vx)
{
	struct rrpc_block *rblk, *tmp;
	u32 i;

	for (i = 0; vx->lists && i < vx->nr; i++)
		list_for_each_entry_safe(rblk, tmp, &vx->lists[i], vlist)
			list_del_init(&rblk->vlist);
	kfree(vx->lists);
	vx->lists = NULL;
	bitmap_free(vx->nonempty);
	vx->nonempty = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_vidx_free);

/* The list of a block with @v valid sectors */
static u32 rrpc_vidx_list(const struct rrpc_vidx *vx, u32 v)
{
	return min(v >> vx->shift, vx->nr - 1);
}

/* Put @rblk at the end of list @l; @from: the list it was on, or -1. */
static void rrpc_vidx_put(struct rrpc_vidx *vx, struct rrpc_block *rblk,
			  u32 l, int from)
{
	list_move_tail(&rblk->vlist, &vx->lists[l]);
	__set_bit(l, vx->nonempty);
	if (from >= 0 && list_empty(&vx->lists[from]))
		__clear_bit(from, vx->nonempty);
}

/**
 * rrpc_vidx_add() - a block was closed: index it by its valid count
 * @rrpc: the target
 * @rblk: the block, on its LUN's closed list, not in the index
 *
 * Context: rrpc->map_lock held.
 */
void rrpc_vidx_add(struct rrpc *rrpc, struct rrpc_block *rblk)
{
	struct rrpc_vidx *vx = &rblk->rlun->vidx;

	lockdep_assert_held(&rrpc->map_lock);
	if (WARN_ON_ONCE(!list_empty(&rblk->vlist)))
		return;
	rrpc_vidx_put(vx, rblk, rrpc_vidx_list(vx, rblk->nr_valid), -1);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_vidx_add);

/**
 * rrpc_vidx_del() - a block left the closed list: out of the index
 * @rrpc: the target
 * @rblk: the block (a no-op if it is not in the index)
 *
 * Context: rrpc->map_lock held.
 */
void rrpc_vidx_del(struct rrpc *rrpc, struct rrpc_block *rblk)
{
	struct rrpc_vidx *vx = &rblk->rlun->vidx;
	u32 l = rrpc_vidx_list(vx, rblk->nr_valid);

	lockdep_assert_held(&rrpc->map_lock);
	if (list_empty(&rblk->vlist))
		return;
	list_del_init(&rblk->vlist);
	if (list_empty(&vx->lists[l]))
		__clear_bit(l, vx->nonempty);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_vidx_del);

/*
 * A block's count of valid sectors changes under map_lock; victim
 * selection reads it without (READ_ONCE()), so it is written whole. A
 * closed block in the index moves to the end of the list of its new
 * count when that is another list.
 */
static void rrpc_valid_add(struct rrpc_block *rblk, int d)
{
	u32 v = rblk->nr_valid, from, to;
	struct rrpc_vidx *vx;

	WRITE_ONCE(rblk->nr_valid, v + d);
	if (list_empty(&rblk->vlist))
		return;
	vx = &rblk->rlun->vidx;
	from = rrpc_vidx_list(vx, v);
	to = rrpc_vidx_list(vx, v + d);
	if (from != to)
		rrpc_vidx_put(vx, rblk, to, from);
}

/**
 * rrpc_map_invalidate() - a physical sector no longer holds current data
 * @rrpc: the target
 * @paddr: the sector, or %RRPC_ADDR_EMPTY / %RRPC_ADDR_LOST (no-op)
 *
 * Context: rrpc->map_lock held.
 */
void rrpc_map_invalidate(struct rrpc *rrpc, u32 paddr)
{
	struct rrpc_block *rblk;

	lockdep_assert_held(&rrpc->map_lock);
	if (paddr == RRPC_ADDR_EMPTY || paddr == RRPC_ADDR_LOST)
		return;
	rblk = rrpc_paddr_to_blk(rrpc, paddr);
	if (WARN_ON_ONCE(!rblk->nr_valid))
		return;
	rrpc_valid_add(rblk, -1);
	/*
	 * A full LUN's GC found nothing to reclaim; only it clears the mark.
	 * Overwrites that land on the other LUNs free space here: without a
	 * kick the LUN stayed full while they filled up, until all were full
	 * and writes failed with -ENOSPC although a quarter of the first
	 * LUN was stale (bench P1 at 7% over-provisioning).
	 */
	if (unlikely(READ_ONCE(rblk->rlun->full)))
		rrpc_gc_kick(rblk->rlun);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_map_invalidate);

/**
 * rrpc_map_commit() - a buffered user write reached the media
 * @rrpc: the target
 * @lba: its logical sector
 * @paddr: where it was programmed
 * @slot: the write buffer slot it was written from
 *
 * The map moves to @paddr only if @slot still holds the newest version of
 * @lba; otherwise a later write or a discard superseded it and the
 * programmed sector is stale from the start.
 *
 * Context: rrpc->map_lock held.
 * Return: true if the map now points to @paddr.
 */
bool rrpc_map_commit(struct rrpc *rrpc, u32 lba, u32 paddr, u32 slot)
{
	struct rrpc_addr *a = &rrpc->map[lba];

	lockdep_assert_held(&rrpc->map_lock);
	if (a->wb != slot)
		return false;
	rrpc_map_invalidate(rrpc, a->ppa);
	a->ppa = paddr;
	a->wb = RRPC_ADDR_EMPTY;
	rrpc_valid_add(rrpc_paddr_to_blk(rrpc, paddr), 1);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_map_commit);

/**
 * rrpc_map_move() - GC copied a sector to a new place
 * @rrpc: the target
 * @lba: its logical sector
 * @old: where GC read it
 * @new: where GC programmed it
 *
 * The map follows only if @lba still lives at @old: a write that reached
 * the media meanwhile, or a discard, wins and the copy is stale.
 *
 * Context: rrpc->map_lock held.
 * Return: true if the map now points to @new.
 */
bool rrpc_map_move(struct rrpc *rrpc, u32 lba, u32 old, u32 new)
{
	struct rrpc_addr *a = &rrpc->map[lba];

	lockdep_assert_held(&rrpc->map_lock);
	if (a->ppa != old)
		return false;
	rrpc_map_invalidate(rrpc, old);
	a->ppa = new;
	rrpc_valid_add(rrpc_paddr_to_blk(rrpc, new), 1);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_map_move);

/**
 * rrpc_map_discard() - unmap a logical sector
 * @rrpc: the target
 * @lba: the sector
 *
 * Its media copy becomes invalid (GC will not move it) and a version still
 * in the write buffer is disowned (invalid as soon as it is programmed).
 *
 * Context: rrpc->map_lock held.
 */
void rrpc_map_discard(struct rrpc *rrpc, u32 lba)
{
	struct rrpc_addr *a = &rrpc->map[lba];

	lockdep_assert_held(&rrpc->map_lock);
	rrpc_map_invalidate(rrpc, a->ppa);
	a->ppa = RRPC_ADDR_EMPTY;
	a->wb = RRPC_ADDR_EMPTY;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_map_discard);

/**
 * rrpc_map_lose() - GC could not read a valid sector: its data is lost
 * @rrpc: the target
 * @lba: its logical sector
 * @old: where it lived
 *
 * Reads of @lba fail from now on (instead of returning zeros or stale
 * data) until it is written or discarded again.
 *
 * Context: rrpc->map_lock held.
 * Return: true if @lba still lived at @old and is now marked lost.
 */
bool rrpc_map_lose(struct rrpc *rrpc, u32 lba, u32 old)
{
	struct rrpc_addr *a = &rrpc->map[lba];

	lockdep_assert_held(&rrpc->map_lock);
	if (a->ppa != old)
		return false;
	rrpc_map_invalidate(rrpc, old);
	a->ppa = RRPC_ADDR_LOST;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_map_lose);

/**
 * rrpc_map_valid() - does a physical sector hold current data?
 * @rrpc: the target
 * @paddr: the sector
 * @lba: set to its logical sector when it does
 *
 * Context: rrpc->map_lock held.
 * Return: true if the map of the sector's logical address points to it.
 */
bool rrpc_map_valid(struct rrpc *rrpc, u32 paddr, u32 *lba)
{
	u32 l;

	lockdep_assert_held(&rrpc->map_lock);
	l = rrpc->p2l[paddr];
	if (l >= rrpc->nr_lbas || rrpc->map[l].ppa != paddr)
		return false;
	*lba = l;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_map_valid);

/**
 * rrpc_map_live() - does a physical sector hold something GC must keep?
 * @rrpc: the target
 * @paddr: the sector
 * @lba: set to its logical sector, or to %RRPC_LBA_TRIM / %RRPC_LBA_SB for
 *	a live record
 *
 * Current user data, any trim record not dropped yet (GC decides once it
 * has read it), and the newest superblock record.
 *
 * Context: rrpc->map_lock held.
 * Return: true if the sector must be moved before its block is erased.
 */
bool rrpc_map_live(struct rrpc *rrpc, u32 paddr, u32 *lba)
{
	u32 l;

	lockdep_assert_held(&rrpc->map_lock);
	if (rrpc_map_valid(rrpc, paddr, lba))
		return true;
	l = rrpc->p2l[paddr];
	if (l == RRPC_LBA_TRIM ||
	    (l == RRPC_LBA_SB && paddr == rrpc->sb_paddr)) {
		*lba = l;
		return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_map_live);

/**
 * rrpc_rec_programmed() - a record of the user stream reached the media
 * @rrpc: the target
 * @lba: %RRPC_LBA_TRIM or %RRPC_LBA_SB
 * @paddr: where
 *
 * A trim record counts as valid in its block until GC drops it; a new
 * superblock record supersedes the previous one.
 *
 * Context: rrpc->map_lock held.
 */
void rrpc_rec_programmed(struct rrpc *rrpc, u32 lba, u32 paddr)
{
	lockdep_assert_held(&rrpc->map_lock);
	if (lba == RRPC_LBA_SB) {
		if (rrpc->sb_paddr != RRPC_ADDR_EMPTY) {
			rrpc->p2l[rrpc->sb_paddr] = RRPC_ADDR_EMPTY;
			rrpc_map_invalidate(rrpc, rrpc->sb_paddr);
		}
		rrpc->sb_paddr = paddr;
	}
	rrpc->p2l[paddr] = lba;
	rrpc_valid_add(rrpc_paddr_to_blk(rrpc, paddr), 1);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_rec_programmed);

/**
 * rrpc_rec_move() - GC copied a live record
 * @rrpc: the target
 * @lba: %RRPC_LBA_TRIM or %RRPC_LBA_SB
 * @old: where GC read it
 * @new: where GC programmed it
 *
 * A superblock record superseded meanwhile stays behind, dead.
 *
 * Context: rrpc->map_lock held.
 * Return: true if the copy is live.
 */
bool rrpc_rec_move(struct rrpc *rrpc, u32 lba, u32 old, u32 new)
{
	lockdep_assert_held(&rrpc->map_lock);
	if (rrpc->p2l[old] != lba || (lba == RRPC_LBA_SB && rrpc->sb_paddr != old)) {
		rrpc->p2l[new] = RRPC_ADDR_EMPTY;
		return false;
	}
	rrpc->p2l[old] = RRPC_ADDR_EMPTY;
	rrpc_map_invalidate(rrpc, old);
	if (lba == RRPC_LBA_SB)
		rrpc->sb_paddr = new;
	rrpc->p2l[new] = lba;
	rrpc_valid_add(rrpc_paddr_to_blk(rrpc, new), 1);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_rec_move);

/**
 * rrpc_rec_drop() - GC found a trim record obsolete
 * @rrpc: the target
 * @old: where it is
 *
 * Context: rrpc->map_lock held.
 */
void rrpc_rec_drop(struct rrpc *rrpc, u32 old)
{
	lockdep_assert_held(&rrpc->map_lock);
	if (rrpc->p2l[old] != RRPC_LBA_TRIM)
		return;
	rrpc->p2l[old] = RRPC_ADDR_EMPTY;
	rrpc_map_invalidate(rrpc, old);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_rec_drop);

/*
 * No newer data of @lba is on the media (a newer version still in the
 * write buffer does not count: it may never get there).
 */
static bool rrpc_unmapped(struct rrpc *rrpc, u32 lba)
{
	u32 ppa = rrpc->map[lba].ppa;

	return ppa == RRPC_ADDR_EMPTY || ppa == RRPC_ADDR_LOST;
}

/**
 * rrpc_trim_filter() - keep only what a trim record still has to say
 * @rrpc: the target
 * @tr: the record, rewritten in place
 * @tmp: scratch space of %RRPC_SECTOR_SIZE bytes
 *
 * A logical sector written after the trim, and on the media, no longer
 * needs it: its newer data wins on the media by sequence number. Ranges
 * shrink to the sectors that are still unmapped; when that would take
 * more entries than a record holds, the record stays as it was. A range
 * is walked RRPC_MAP_BATCH sectors at a time under map_lock (a record
 * on the media may cover the whole disk): a sector mapped while the lock
 * was dropped holds data newer than the record, which wins on the media
 * whether the record still names it or not.
 *
 * Context: process; takes rrpc->map_lock.
 * Return: the number of ranges left (0: the record can be dropped).
 */
u32 rrpc_trim_filter(struct rrpc *rrpc, struct rrpc_trim_rec *tr,
		     struct rrpc_trim_rec *tmp)
{
	u32 nr = le32_to_cpu(tr->nr), i, out = 0, lba, end, stop, start = 0;
	bool in;

	if (le32_to_cpu(tr->magic) != RRPC_TRIM_MAGIC || nr > RRPC_TRIM_MAX)
		return 0;
	for (i = 0; i < nr; i++) {
		lba = le32_to_cpu(tr->r[i].lba);
		end = lba + le32_to_cpu(tr->r[i].len);
		if (end > rrpc->nr_lbas || end < lba)
			end = rrpc->nr_lbas;
		in = false;
		/* runs of unmapped sectors, one batch under the lock at a time */
		while (lba < end) {
			stop = lba + min(end - lba, (u32)RRPC_MAP_BATCH);
			spin_lock(&rrpc->map_lock);
			for (; lba < stop; lba++) {
				if (rrpc_unmapped(rrpc, lba) == in)
					continue;
				in = !in;
				if (in) {
					start = lba;
					continue;
				}
				if (out == RRPC_TRIM_MAX) {
					/* too fragmented: keep it whole */
					spin_unlock(&rrpc->map_lock);
					return nr;
				}
				tmp->r[out].lba = cpu_to_le32(start);
				tmp->r[out].len = cpu_to_le32(lba - start);
				out++;
			}
			spin_unlock(&rrpc->map_lock);
		}
		if (in) {
			if (out == RRPC_TRIM_MAX)
				return nr;
			tmp->r[out].lba = cpu_to_le32(start);
			tmp->r[out].len = cpu_to_le32(end - start);
			out++;
		}
	}
	memcpy(tr->r, tmp->r, out * sizeof(tr->r[0]));
	memset(&tr->r[out], 0, (nr > out ? nr - out : 0) * sizeof(tr->r[0]));
	tr->nr = cpu_to_le32(out);
	return out;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_trim_filter);

/* A block marked bad on the closed list: it must be evacuated first. */
static struct rrpc_block *rrpc_gc_pick_bad(struct rrpc_lun *rlun)
{
	struct rrpc_block *rblk;

	if (!rlun->nr_bad)
		return NULL;
	/* rare (a program failed): the only walk of the closed list */
	list_for_each_entry(rblk, &rlun->closed, list)
		if (rblk->bad)
			return rblk;
	return NULL;
}

/**
 * rrpc_gc_pick() - choose the next GC victim of a LUN (greedy)
 * @rrpc: the target
 * @rlun: the LUN
 *
 * A block marked bad comes first (it must be evacuated); otherwise the
 * block with the fewest valid sectors (least to copy per block
 * reclaimed): the first block of the first non-empty list of the LUN's
 * index (&struct rrpc_vidx), a bitmap search, whatever the number of
 * blocks. Of the blocks of that list (one count, or with large blocks
 * 2^shift neighbouring counts) the one that has been on it the longest.
 *
 * Context: the LUN's lock held; takes map_lock.
 * Return: the victim, still on the closed list, or %NULL if it is empty.
 */
struct rrpc_block *rrpc_gc_pick(struct rrpc *rrpc, struct rrpc_lun *rlun)
{
	struct rrpc_vidx *vx = &rlun->vidx;
	struct rrpc_block *rblk;
	unsigned long l;

	lockdep_assert_held(&rlun->lock);
	rblk = rrpc_gc_pick_bad(rlun);
	if (rblk)
		return rblk;
	spin_lock(&rrpc->map_lock);
	l = find_first_bit(vx->nonempty, vx->nr);
	rblk = l < vx->nr ? list_first_entry(&vx->lists[l], struct rrpc_block,
					     vlist) : NULL;
	spin_unlock(&rrpc->map_lock);
	return rblk;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_gc_pick);

/**
 * rrpc_gc_pick_cb() - choose the next GC victim of a LUN by cost-benefit
 * @rrpc: the target
 * @rlun: the LUN
 * @now: the current block close counter (rrpc->close_seq)
 *
 * A block marked bad comes first; otherwise the block with the highest
 * (1 - u) * age^0.75 / (1 + u), u being its fraction of valid sectors and
 * age the blocks closed since it was: space won per sector copied (read
 * and written), weighted by how long the block's data has stayed valid.
 * Old blocks hold cold data, which stays valid: collecting them a little
 * fuller than the greedy choice stops them from being mixed again and
 * again with hot data (Rosenblum and Ousterhout's LFS cleaner). The
 * exponent below 1 tempers that: with hot and cold data in blocks of
 * their own, a linear age keeps the young hot blocks out of GC until
 * they are nearly empty, holding more spare in the hot pool than it
 * needs and starving the cold one (90/10 writes amplify about 4% more).
 * Under uniform writes it is within a few percent of greedy. A block
 * without a valid sector costs nothing to reclaim and wins outright, as
 * with greedy: sequential overwrites then move nothing, however old a
 * block holding one record is. Blocks without an invalid sector score 0.
 *
 * Each list of the LUN's index (&struct rrpc_vidx) has one candidate, its
 * first block: the one that has been on it the longest, mostly also the
 * oldest of them. The cost of a pick is one score per non-empty list (at
 * most %RRPC_VIDX_LISTS), whatever the number of blocks. On a tie the
 * older block.
 *
 * Context: the LUN's lock held; takes map_lock.
 * Return: the victim, still on the closed list, or %NULL if it is empty.
 */
struct rrpc_block *rrpc_gc_pick_cb(struct rrpc *rrpc, struct rrpc_lun *rlun,
				   u64 now)
{
	struct rrpc_vidx *vx = &rlun->vidx;
	struct rrpc_block *rblk, *best = NULL;
	u64 bgain = 0, bcost = 1, gain, cost;
	u32 spb = rrpc->spb;
	unsigned long l;

	lockdep_assert_held(&rlun->lock);
	rblk = rrpc_gc_pick_bad(rlun);
	if (rblk)
		return rblk;
	spin_lock(&rrpc->map_lock);
	for_each_set_bit(l, vx->nonempty, vx->nr) {
		u32 v;
		u64 age;

		rblk = list_first_entry(&vx->lists[l], struct rrpc_block, vlist);
		v = min(rblk->nr_valid, spb);
		if (!v) {
			best = rblk;
			break;
		}
		age = now > rblk->close_seq ? now - rblk->close_seq : 0;
		/*
		 * gain / cost compared by cross products, without overflow:
		 * spb < 2^22 (64 sectors x 2^16 pages), age capped at 2^18,
		 * so its cube fits 2^62 scaled by 2^8: the weight
		 * 4 * (age + 1)^0.75 < 2^16
		 */
		age = min_t(u64, age, RRPC_CB_AGE_MAX) + 1;
		gain = (u64)(spb - v) *
		       int_sqrt64(int_sqrt64((age * age * age) << 8));
		cost = (u64)spb + v;
		if (!best || gain * bcost > bgain * cost ||
		    (gain * bcost == bgain * cost &&
		     rblk->close_seq < best->close_seq)) {
			best = rblk;
			bgain = gain;
			bcost = cost;
		}
	}
	spin_unlock(&rrpc->map_lock);
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_gc_pick_cb);

/**
 * rrpc_wl_needed() - is the erase count spread of a LUN too wide?
 * @max_erase: the highest erase count of its blocks
 * @erases: the sum of their erase counts
 * @nr_blocks: the LUN's blocks
 *
 * Wear is uneven when the most erased block is past the mean by more than
 * a fraction (1 / %RRPC_WL_FRAC) of it plus %RRPC_WL_SLACK erases: blocks
 * holding cold data are not erased while hot data wears the others. The
 * slack keeps a young device (a few erases per block) from moving cold
 * data for a spread of one or two erases.
 *
 * Return: true if GC should move the data of the least erased block.
 */
bool rrpc_wl_needed(u32 max_erase, u64 erases, u32 nr_blocks)
{
	u64 lim;

	if (!nr_blocks)
		return false;
	/* max > mean * (1 + 1 / FRAC) + SLACK, in integers */
	lim = erases * (RRPC_WL_FRAC + 1) +
	      (u64)RRPC_WL_SLACK * RRPC_WL_FRAC * nr_blocks;
	return (u64)max_erase * RRPC_WL_FRAC * nr_blocks > lim;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_wl_needed);

/**
 * rrpc_wl_pick() - choose a wear-leveling victim
 * @closed: the LUN's closed blocks
 * @max_erase: the highest erase count of the LUN's blocks
 *
 * The least erased closed block, if it lags the most erased one by more
 * than %RRPC_WL_SLACK erases: its data has been cold the longest, and
 * moving it lets its block take new (hot) writes. Bad blocks are left to
 * rrpc_gc_pick(); on a tie the oldest closed block.
 *
 * Context: the LUN's lock held.
 * Return: the victim, still on the list, or %NULL.
 */
struct rrpc_block *rrpc_wl_pick(struct list_head *closed, u32 max_erase)
{
	struct rrpc_block *rblk, *best = NULL;

	list_for_each_entry(rblk, closed, list) {
		if (rblk->bad)
			continue;
		if (!best || rblk->erase_count < best->erase_count ||
		    (rblk->erase_count == best->erase_count &&
		     rblk->close_seq < best->close_seq))
			best = rblk;
	}
	if (best && best->erase_count + RRPC_WL_SLACK >= max_erase)
		return NULL;
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_wl_pick);

/**
 * rrpc_free_pick() - the most or the least erased free block of a LUN
 * @blks: the LUN's blocks
 * @n: their number
 * @most: the most erased (the GC stream), else the least erased (user
 *	writes)
 *
 * The data GC moves is cold: the worn block it parks in rests. User
 * writes are hot: they take the least worn block, which they will soon
 * give back to be erased again. Free means free both for rrpc and for the
 * media manager (not bad, not handed out); the lowest index on a tie.
 *
 * Context: the LUN's lock held.
 * Return: the block, or %NULL if none is free.
 */
struct rrpc_block *rrpc_free_pick(struct rrpc_block *blks, u32 n, bool most)
{
	struct rrpc_block *best = NULL;
	u32 i;

	for (i = 0; i < n; i++) {
		struct rrpc_block *rblk = &blks[i];

		if (rblk->state != RRPC_BLK_FREE ||
		    READ_ONCE(rblk->parent->state) != NVM_BLK_ST_FREE)
			continue;
		if (!best ||
		    (most && rblk->erase_count > best->erase_count) ||
		    (!most && rblk->erase_count < best->erase_count))
			best = rblk;
	}
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_free_pick);

/**
 * rrpc_wr_ahead() - is it another LUN's turn to take a user unit?
 * @rrpc: the target
 * @rlun: the LUN whose writer would take the next unit
 * @lag: set to the LUN that took the fewest units of those that take
 *	writes (not waiting for GC, not full), other than @rlun, or %NULL
 *
 * Has @rlun's writer taken %RRPC_WR_LEAD units more than @lag? Units
 * taken in turn spread every stretch of the write stream evenly over the
 * LUNs: a sequential
 * overwrite then finds, in each LUN, the blocks of the previous pass
 * fully stale by the time GC needs them. Whichever writer happened to run
 * took the units before, and a LUN that got more than its share of a pass
 * ran out of free blocks while its oldest blocks still held the sectors
 * just ahead of the writes: GC copied them.
 *
 * Context: rrpc->wb.lock held.
 * Return: true if @rlun's writer must leave the unit to @lag.
 */
bool rrpc_wr_ahead(struct rrpc *rrpc, struct rrpc_lun *rlun,
		   struct rrpc_lun **lag)
{
	struct rrpc_lun *o;
	int i;

	lockdep_assert_held(&rrpc->wb.lock);
	*lag = NULL;
	for (i = 0; i < rrpc->nr_luns; i++) {
		o = &rrpc->luns[i];
		if (o == rlun || READ_ONCE(o->wr_blocked) || READ_ONCE(o->full))
			continue;
		if (!*lag || o->wr_units < (*lag)->wr_units)
			*lag = o;
	}
	return *lag && rlun->wr_units >= (*lag)->wr_units + RRPC_WR_LEAD;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_wr_ahead);

/**
 * rrpc_wr_took() - count a user unit a LUN's writer takes
 * @rrpc: the target
 * @rlun: the LUN
 *
 * A LUN that fell behind (it waited for GC, or was full) catches up by at
 * most a block's worth of units: the other LUNs do not stop for longer.
 *
 * Context: rrpc->wb.lock held.
 */
void rrpc_wr_took(struct rrpc *rrpc, struct rrpc_lun *rlun)
{
	u64 max = 0, cap = rrpc->spb / rrpc->spp;
	int i;

	lockdep_assert_held(&rrpc->wb.lock);
	for (i = 0; i < rrpc->nr_luns; i++)
		max = max(max, rrpc->luns[i].wr_units);
	if (rlun->wr_units + cap < max)
		rlun->wr_units = max - cap;
	rlun->wr_units++;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_wr_took);

/**
 * rrpc_capacity() - logical sectors of a target
 * @good_blocks: good blocks of its LUNs
 * @nr_luns: number of LUNs
 * @spb: sectors per block
 * @op: over-provisioning in percent of the logical capacity
 *
 * The blocks GC keeps in reserve (%RRPC_RSV_BLKS per LUN) hold no user
 * data; of the rest, T sectors, the user gets U = T / (1 + op / 100), so
 * that op = (T - U) / U as in the performance model.
 *
 * Return: the capacity in sectors, 0 if the LUNs are too small.
 */
u64 rrpc_capacity(u32 good_blocks, int nr_luns, u32 spb, u32 op)
{
	u64 rsv = (u64)nr_luns * RRPC_RSV_BLKS;

	if (good_blocks <= rsv)
		return 0;
	return div_u64((good_blocks - rsv) * spb * 100, 100 + op);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_capacity);

/**
 * rrpc_heat_epoch() - the heat period that user writes are in
 * @writes: sectors written by users so far
 * @nr_lbas: the target's capacity
 *
 * Return: the period (%RRPC_HEAT_PERIOD capacities each), modulo 256.
 */
u8 rrpc_heat_epoch(u64 writes, u64 nr_lbas)
{
	return div64_u64(writes, max_t(u64, nr_lbas, 1) * RRPC_HEAT_PERIOD);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_heat_epoch);

/**
 * rrpc_heat_get() - the write count of a logical sector now
 * @h: its heat
 * @epoch: the current period (rrpc_heat_epoch())
 *
 * The count halves for every period since the last write. Epochs count
 * modulo 256: a sector not written for 256 periods may look written
 * recently, once; its next write sets it right.
 *
 * Return: the decayed count.
 */
unsigned int rrpc_heat_get(const struct rrpc_heat *h, u8 epoch)
{
	u8 age = epoch - h->epoch;

	return age >= 8 ? 0 : h->count >> age;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_heat_get);

/**
 * rrpc_heat_bump() - count a user write of a logical sector
 * @h: its heat
 * @epoch: the current period (rrpc_heat_epoch())
 *
 * Return: true if the write is hot: the sector was written at least
 * %RRPC_HEAT_HOT times (this one included) in the last periods, halving
 * per period.
 */
bool rrpc_heat_bump(struct rrpc_heat *h, u8 epoch)
{
	unsigned int c = rrpc_heat_get(h, epoch) + 1;

	h->count = min_t(unsigned int, c, RRPC_HEAT_MAX);
	h->epoch = epoch;
	return c >= RRPC_HEAT_HOT;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_heat_bump);
