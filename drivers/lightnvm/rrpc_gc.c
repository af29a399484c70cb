// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: block allocation and garbage collection. Blocks come from the
 * media manager and are erased before their first program; each LUN has
 * one open block for user writes and one for GC writes. GC runs per LUN
 * in a work item, moves the valid sectors of the cheapest victim (fewest
 * valid sectors) into the LUN's GC block and gives the victim back.
 */

#define pr_fmt(fmt) "rrpc: " fmt

#include <linux/blkdev.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "rrpc.h"

/**
 * rrpc_gc_kick() - let a LUN's GC run (it decides itself if it has work)
 * @rlun: the LUN
 */
void rrpc_gc_kick(struct rrpc_lun *rlun)
{
	if (!READ_ONCE(rlun->rrpc->exiting))
		queue_work(rlun->rrpc->gc_wq, &rlun->gc_work);
}

/**
 * rrpc_blk_close() - a block takes no more writes: make it a GC candidate
 * @rlun: its LUN
 * @rblk: the block (full, or retired after a failed program)
 */
void rrpc_blk_close(struct rrpc_lun *rlun, struct rrpc_block *rblk)
{
	spin_lock(&rlun->lock);
	rblk->state = RRPC_BLK_CLOSED;
	rblk->close_seq = atomic64_inc_return(&rlun->rrpc->close_seq);
	list_add_tail(&rblk->list, &rlun->closed);
	rlun->nr_closed++;
	if (rblk->bad)
		rlun->nr_bad++;
	spin_unlock(&rlun->lock);
}

/* The user writer of the LUN must wait for GC; false if it need not. */
static bool rrpc_wr_block(struct rrpc_lun *rlun)
{
	bool blocked;

	spin_lock(&rlun->lock);
	blocked = rrpc_lun_free(rlun) <= RRPC_GC_RSV;
	if (blocked)
		WRITE_ONCE(rlun->wr_blocked, true);
	spin_unlock(&rlun->lock);
	if (blocked)
		rrpc_gc_kick(rlun);
	return blocked;
}

/**
 * rrpc_get_blk() - take a free block of a LUN and erase it
 * @rlun: the LUN
 * @gc: for GC, which may take the last free blocks
 *
 * A user writer never takes the last %RRPC_GC_RSV free blocks: it is
 * marked as waiting (rlun->wr_blocked) and GC wakes it when it has freed
 * a block. A block whose erase fails is retired and the next one tried.
 *
 * Context: process, sleeps (erase).
 * Return: the erased block, state %RRPC_BLK_OPEN, or %NULL.
 */
struct rrpc_block *rrpc_get_blk(struct rrpc_lun *rlun, bool gc)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_block *rblk;
	struct nvm_block *blk;
	int ret;

	for (;;) {
		if (!gc && rrpc_wr_block(rlun))
			return NULL;
		blk = nvm_get_blk(rrpc->dev, rlun->parent,
				  gc ? NVM_IOTYPE_GC : NVM_IOTYPE_NONE);
		if (!blk) {
			if (!gc) {
				spin_lock(&rlun->lock);
				WRITE_ONCE(rlun->wr_blocked, true);
				spin_unlock(&rlun->lock);
				rrpc_gc_kick(rlun);
			}
			return NULL;
		}
		rblk = &rrpc->blocks[rlun->idx * rrpc->geo->blks_per_lun + blk->id];
		if (WARN_ON_ONCE(rblk->parent != blk || rblk->state != RRPC_BLK_FREE)) {
			nvm_put_blk(rrpc->dev, blk);
			return NULL;
		}

		atomic64_inc(&rrpc->stats.erases);
		ret = nvm_erase_blk(rrpc->dev, blk);
		if (ret) {
			/* the media manager marked it grown bad: put retires it */
			pr_err_ratelimited("%s: erase of block %u (LUN %d) failed (%d), retiring it\n",
					   rrpc->disk->disk_name, blk->id,
					   rlun->parent->id, ret);
			nvm_put_blk(rrpc->dev, blk);
			atomic64_inc(&rrpc->stats.grown_bad);
			continue;
		}

		rblk->next_off = 0;
		rblk->bad = false;
		WARN_ON_ONCE(READ_ONCE(rblk->nr_valid));
		spin_lock(&rlun->lock);
		rblk->state = RRPC_BLK_OPEN;
		spin_unlock(&rlun->lock);
		if (rrpc_lun_free(rlun) <= RRPC_GC_LOW)
			rrpc_gc_kick(rlun);
		return rblk;
	}
}

/* GC runs while free blocks are short, a block is bad, or a writer waits. */
static bool rrpc_gc_needed(struct rrpc_lun *rlun)
{
	return rrpc_lun_free(rlun) < RRPC_GC_HIGH || READ_ONCE(rlun->nr_bad) ||
	       READ_ONCE(rlun->wr_blocked);
}

/* Give a fully evacuated victim back and wake the writer if it waits. */
static void rrpc_gc_release(struct rrpc_lun *rlun, struct rrpc_block *rblk)
{
	struct rrpc *rrpc = rlun->rrpc;
	bool kick;

	/* reads that looked the victim up before GC moved the data */
	wait_event(rrpc->read_wait, !atomic_read(&rblk->nr_readers));

	spin_lock(&rrpc->map_lock);
	WARN_ON_ONCE(rblk->nr_valid);
	spin_unlock(&rrpc->map_lock);

	spin_lock(&rlun->lock);
	rblk->state = RRPC_BLK_FREE;
	spin_unlock(&rlun->lock);
	nvm_put_blk(rrpc->dev, rblk->parent);
	atomic64_inc(&rrpc->stats.gc_victims);

	spin_lock(&rlun->lock);
	kick = rlun->wr_blocked && rrpc_lun_free(rlun) > RRPC_GC_RSV;
	if (kick)
		WRITE_ONCE(rlun->wr_blocked, false);
	spin_unlock(&rlun->lock);
	if (kick)
		queue_work(rrpc->wr_wq, &rlun->wr_work);
}

static void rrpc_gc_release_pending(struct rrpc_lun *rlun)
{
	struct rrpc_block *rblk, *tmp;

	list_for_each_entry_safe(rblk, tmp, &rlun->gc.pending, list) {
		list_del_init(&rblk->list);
		rrpc_gc_release(rlun, rblk);
	}
}

/* Program the GC unit (padding what is not filled), then free victims. */
static void rrpc_gc_program(struct rrpc_lun *rlun)
{
	struct rrpc_unit *u = &rlun->gc.unit;
	bool warned = false;

	for (;;) {
		if (!rlun->gc_cur)
			rlun->gc_cur = rrpc_get_blk(rlun, true);
		if (!rlun->gc_cur) {
			/* only GC frees blocks: this means the LUN is worn out */
			if (!warned)
				pr_err("%s: LUN %d has no free block left for GC\n",
				       rlun->rrpc->disk->disk_name,
				       rlun->parent->id);
			warned = true;
			schedule_timeout_uninterruptible(HZ / 10);
			continue;
		}
		if (!rrpc_program(rlun, u, true))
			break;
	}
	u->nr = 0;
	rrpc_gc_release_pending(rlun);
}

/* Read n valid sectors into the GC unit behind the ones it holds. */
static void rrpc_gc_read(struct rrpc_lun *rlun, u32 n)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_gc *gc = &rlun->gc;
	struct rrpc_unit *u = &gc->unit;
	struct nvm_rq *rqd = &gc->rqd;
	u32 oob_size = rrpc->geo->oob_size, i;
	u64 failed = 0;
	int ret;

	memset(rqd, 0, sizeof(*rqd));
	bio_init(&gc->bio, NULL, gc->bvecs, rrpc->spp, REQ_OP_READ);
	for (i = 0; i < n; i++) {
		struct ppa_addr ppa = rrpc_paddr_to_ppa(rrpc, u->old[u->nr + i]);

		if (n > 1)
			gc->ppa_list[i] = ppa;
		else
			rqd->ppa_addr = ppa;
		__bio_add_page(&gc->bio, u->pages[u->nr + i], RRPC_SECTOR_SIZE, 0);
	}
	rqd->dev = rrpc->dev;
	rqd->opcode = NVM_OP_PREAD;
	rqd->nr_ppas = n;
	rqd->bio = &gc->bio;
	rqd->meta_list = u->meta + u->nr * oob_size;
	rqd->dma_meta_list = u->meta_dma + u->nr * oob_size;
	if (n > 1) {
		rqd->ppa_list = gc->ppa_list;
		rqd->dma_ppa_list = gc->ppa_dma;
	}

	ret = nvm_submit_io_sync(rrpc->dev, rqd);
	bio_uninit(&gc->bio);
	if (ret)
		failed = ~0ULL;
	else if (rqd->error && rqd->error != NVM_RSP_WARN_HIGHECC)
		failed = rqd->ppa_status ? rqd->ppa_status : ~0ULL;

	for (i = 0; i < n; i++) {
		u32 k = u->nr + i;
		struct rrpc_oob *oob = u->meta + k * oob_size;

		if (failed & BIT_ULL(i)) {
			atomic64_inc(&rrpc->stats.read_errors);
			spin_lock(&rrpc->map_lock);
			if (rrpc_map_lose(rrpc, u->lba[k], u->old[k]))
				atomic64_inc(&rrpc->stats.lost);
			spin_unlock(&rrpc->map_lock);
			pr_err_ratelimited("%s: GC could not read sector %u (lba %u): data lost\n",
					   rrpc->disk->disk_name, u->old[k], u->lba[k]);
			u->lba[k] = RRPC_ADDR_EMPTY;
			continue;
		}
		if (le64_to_cpu(oob->lba) != u->lba[k]) {
			pr_warn_ratelimited("%s: sector %u holds lba %llu in its OOB, map says %u\n",
					    rrpc->disk->disk_name, u->old[k],
					    le64_to_cpu(oob->lba), u->lba[k]);
			oob->lba = cpu_to_le64(u->lba[k]);
		}
	}
	u->nr += n;
}

/* Move the valid sectors of a victim into the GC unit (and beyond). */
static void rrpc_gc_block(struct rrpc_lun *rlun, struct rrpc_block *victim)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_unit *u = &rlun->gc.unit;
	u32 off = 0, end = victim->next_off, lba, n;

	while (off < end) {
		n = 0;
		spin_lock(&rrpc->map_lock);
		for (; off < end && u->nr + n < rrpc->spp; off++) {
			u32 paddr = rrpc_blk_paddr(rrpc, victim, off);

			if (rrpc_map_valid(rrpc, paddr, &lba)) {
				u->lba[u->nr + n] = lba;
				u->old[u->nr + n] = paddr;
				n++;
			}
		}
		spin_unlock(&rrpc->map_lock);
		if (n)
			rrpc_gc_read(rlun, n);
		if (u->nr == rrpc->spp)
			rrpc_gc_program(rlun);
	}
	/* the victim is free once the sectors still in the unit are written */
	list_add_tail(&victim->list, &rlun->gc.pending);
	if (!u->nr)
		rrpc_gc_release_pending(rlun);
}

/**
 * rrpc_gc_work() - garbage collect a LUN
 * @work: the LUN's gc_work
 *
 * Runs while the LUN has fewer than %RRPC_GC_HIGH free blocks (it is
 * kicked at %RRPC_GC_LOW), has bad blocks to evacuate, or its writer
 * waits, and as long as a victim would yield space. Sectors of several
 * victims share GC units; the last unit is padded when GC stops.
 */
void rrpc_gc_work(struct work_struct *work)
{
	struct rrpc_lun *rlun = container_of(work, struct rrpc_lun, gc_work);
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_block *victim;

	while (!READ_ONCE(rrpc->exiting) && rrpc_gc_needed(rlun)) {
		spin_lock(&rlun->lock);
		victim = rrpc_gc_pick(&rlun->closed);
		/* a victim without invalid sectors yields nothing */
		if (victim && !victim->bad &&
		    READ_ONCE(victim->nr_valid) >= victim->next_off)
			victim = NULL;
		if (victim) {
			list_del_init(&victim->list);
			rlun->nr_closed--;
			if (victim->bad)
				rlun->nr_bad--;
			victim->state = RRPC_BLK_GC;
		}
		spin_unlock(&rlun->lock);
		if (!victim)
			break;
		rrpc_gc_block(rlun, victim);
		cond_resched();
	}
	if (rlun->gc.unit.nr)
		rrpc_gc_program(rlun);
	rrpc_gc_release_pending(rlun);
}

/**
 * rrpc_gc_init() - allocate a LUN's GC state
 * @rlun: the LUN
 *
 * Return: 0 or -ENOMEM; rrpc_gc_free() undoes a partial init.
 */
int rrpc_gc_init(struct rrpc_lun *rlun)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_gc *gc = &rlun->gc;
	int ret;

	INIT_LIST_HEAD(&gc->pending);
	ret = rrpc_unit_init(rrpc, &gc->unit, true);
	if (ret)
		return ret;
	gc->bvecs = kcalloc(rrpc->spp, sizeof(*gc->bvecs), GFP_KERNEL);
	if (!gc->bvecs)
		return -ENOMEM;
	if (rrpc->spp > 1) {
		gc->rqd.dev = rrpc->dev;
		gc->rqd.nr_ppas = rrpc->spp;
		if (nvm_alloc_ppalist(rrpc->dev, &gc->rqd, GFP_KERNEL))
			return -ENOMEM;
		gc->ppa_list = gc->rqd.ppa_list;
		gc->ppa_dma = gc->rqd.dma_ppa_list;
	}
	return 0;
}

/**
 * rrpc_gc_free() - free a LUN's GC state
 * @rlun: the LUN
 */
void rrpc_gc_free(struct rrpc_lun *rlun)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_gc *gc = &rlun->gc;

	if (gc->ppa_list) {
		memset(&gc->rqd, 0, sizeof(gc->rqd));
		gc->rqd.dev = rrpc->dev;
		gc->rqd.nr_ppas = rrpc->spp;
		gc->rqd.ppa_list = gc->ppa_list;
		gc->rqd.dma_ppa_list = gc->ppa_dma;
		nvm_free_ppalist(rrpc->dev, &gc->rqd);
		gc->ppa_list = NULL;
	}
	kfree(gc->bvecs);
	gc->bvecs = NULL;
	rrpc_unit_free(rrpc, &gc->unit);
}
