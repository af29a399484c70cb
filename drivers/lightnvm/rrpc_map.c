// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: the logical-to-physical map, the reverse map and the per-block
 * valid-sector accounting, and GC victim selection. Pure logic on
 * struct rrpc, without I/O, so that KUnit (rrpc_test.c) can check it.
 */

#include <linux/lockdep.h>
#include <linux/math64.h>
#include <kunit/visibility.h>
#include "rrpc.h"

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
	rblk->nr_valid--;
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
	rrpc_paddr_to_blk(rrpc, paddr)->nr_valid++;
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
	rrpc_paddr_to_blk(rrpc, new)->nr_valid++;
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
 * rrpc_gc_pick() - choose the next GC victim of a LUN
 * @closed: the LUN's closed blocks
 *
 * A block marked bad comes first (it must be evacuated); otherwise the
 * block with the fewest valid sectors (greedy: least to copy per block
 * reclaimed), the oldest on a tie (its remaining data is the coldest).
 *
 * Context: the LUN's lock held.
 * Return: the victim, still on the list, or %NULL if the list is empty.
 */
struct rrpc_block *rrpc_gc_pick(struct list_head *closed)
{
	struct rrpc_block *rblk, *best = NULL;
	u32 best_valid = U32_MAX, v;

	list_for_each_entry(rblk, closed, list) {
		if (rblk->bad)
			return rblk;
		v = READ_ONCE(rblk->nr_valid);
		if (!best || v < best_valid ||
		    (v == best_valid && rblk->close_seq < best->close_seq)) {
			best = rblk;
			best_valid = v;
		}
	}
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_gc_pick);

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
