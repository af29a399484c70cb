// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: block allocation and garbage collection. Blocks come from the
 * media manager and are erased before their first program. Each LUN has
 * a user and a GC open block per temperature stream: one cold stream, or
 * a cold and a hot one with hot/cold separation (rrpc->temps). GC runs
 * per LUN in a work item, moves the valid sectors of the best victim by
 * cost-benefit (rrpc_gc_pick_cb(), from the LUN's index of closed blocks
 * by valid count: struct rrpc_vidx) into the LUN's GC block of the
 * victim's majority temperature (rrpc_gc_temp()) and gives the victim
 * back; it fills its last unit from the next victims rather than pad it.
 * Wear: user streams take the least erased free block, GC streams the
 * most erased one (data GC moves has outlived a whole block, so even the
 * hot GC stream holds data colder than new user writes), and GC moves
 * the data of the least erased block when the erase counts spread.
 */

#include <linux/blkdev.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "rrpc.h"
#include "rrpc_trace.h"

/**
 * rrpc_gc_kick() - let a LUN's GC run (it decides itself if it has work)
 * @rlun: the LUN
 */
void rrpc_gc_kick(struct rrpc_lun *rlun)
{
	struct rrpc *rrpc = rlun->rrpc;
	unsigned long flags;

	spin_lock_irqsave(&rrpc->kick_lock, flags);
	if (!rrpc->exiting)
		queue_work(rrpc->gc_wq, &rlun->gc_work);
	spin_unlock_irqrestore(&rrpc->kick_lock, flags);
}

/**
 * rrpc_wr_kick() - let a LUN's writer run
 * @rlun: the LUN
 *
 * Like rrpc_gc_kick(), a no-op once the target is exiting, atomically with
 * respect to teardown, which then destroys the workqueues.
 */
void rrpc_wr_kick(struct rrpc_lun *rlun)
{
	struct rrpc *rrpc = rlun->rrpc;
	unsigned long flags;

	spin_lock_irqsave(&rrpc->kick_lock, flags);
	if (!rrpc->exiting)
		queue_work(rrpc->wr_wq, &rlun->wr_work);
	spin_unlock_irqrestore(&rrpc->kick_lock, flags);
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
	if (rblk->bad)	/* rrpc_gc_needed() reads it unlocked */
		WRITE_ONCE(rlun->nr_bad, rlun->nr_bad + 1);
	spin_lock(&rlun->rrpc->map_lock);
	rrpc_vidx_add(rlun->rrpc, rblk);
	spin_unlock(&rlun->rrpc->map_lock);
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

/*
 * Erase a block for a fresh start (@victim: after GC) and count it. A host
 * error is tried again (rrpc_host_retry()); a media failure (-EIO: the
 * media manager marked the block grown bad) is counted in grown_bad.
 * Return: 0, -EIO, or another errno once the target is dead.
 */
static int rrpc_erase(struct rrpc_lun *rlun, struct rrpc_block *rblk,
		      bool victim)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct nvm_block *blk = rblk->parent;
	u32 tries = 0;
	int ret;

	for (;;) {
		atomic64_inc(&rrpc->stats.erases);
		ret = nvm_erase_blk(rrpc->dev, blk);
		trace_rrpc_erase(rrpc->disk->disk_name, rlun->parent->id,
				 blk->id, victim, ret);
		if (!ret) {
			rrpc_host_ok(rrpc, RRPC_CMD_ERASE);
			spin_lock(&rlun->lock);
			rblk->erase_count++;
			rlun->erases++;
			if (rblk->erase_count > rlun->max_erase)
				rlun->max_erase = rblk->erase_count;
			spin_unlock(&rlun->lock);
			return 0;
		}
		if (ret == -EIO) {
			atomic64_inc(&rrpc->stats.grown_bad);
			return ret;
		}
		if (rrpc_submit_busy(rrpc, ret)) {
			/* not issued */
			atomic64_dec(&rrpc->stats.erases);
			continue;
		}
		if (!rrpc_host_retry(rrpc, RRPC_CMD_ERASE, "an erase", ret, 0,
				     ++tries))
			return ret;
	}
}

/*
 * A free block for a stream: GC's get the most erased free block (data
 * GC moves has outlived a block: it parks there and lets that block
 * rest), user writes the least erased one (new data: the block soon
 * comes back). The
 * media manager's oldest free block is the fallback. A user writer never
 * takes the last %RRPC_GC_RSV free blocks: checked here under the LUN's
 * lock, which the GC stream's claims take too.
 */
static struct nvm_block *rrpc_take_free(struct rrpc_lun *rlun, bool gc)
{
	struct rrpc *rrpc = rlun->rrpc;
	u32 bpl = rrpc->geo->blks_per_lun;
	struct rrpc_block *rblk;
	struct nvm_block *blk = NULL;

	spin_lock(&rlun->lock);
	if (gc || rrpc_lun_free(rlun) > RRPC_GC_RSV) {
		rblk = rrpc_free_pick(&rrpc->blocks[rlun->idx * bpl], bpl, gc);
		if (rblk)
			blk = nvm_claim_blk(rrpc->dev, rlun->parent,
					    rblk->parent->id, false);
	}
	spin_unlock(&rlun->lock);
	if (!blk)
		blk = nvm_get_blk(rrpc->dev, rlun->parent,
				  gc ? NVM_IOTYPE_GC : NVM_IOTYPE_NONE);
	return blk;
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
		blk = rrpc_take_free(rlun, gc);
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

		ret = rblk->erased ? 0 : rrpc_erase(rlun, rblk, false);
		if (ret == -EIO) {
			/* the media manager marked it grown bad: put retires it */
			rrpc_err_ratelimited(rrpc, "erase of block %u (LUN %d) failed (%d), retiring it\n",
					     blk->id,
					     rlun->parent->id, ret);
			nvm_put_blk(rrpc->dev, blk);
			continue;
		}
		if (ret) {
			/* the device is dead: the block goes back as it is */
			nvm_put_blk(rrpc->dev, blk);
			return NULL;
		}

		rblk->next_off = 0;
		rblk->erased = true;
		rblk->min_seq = U64_MAX;
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
	u64 trim_seq;
	bool kick;
	int ret = 0;

	/* reads that looked the victim up before GC moved the data */
	wait_event(rrpc->read_wait, !atomic_read(&rblk->nr_readers));

	spin_lock(&rrpc->map_lock);
	WARN_ON_ONCE(rblk->nr_valid);
	trim_seq = rblk->trim_seq;
	rblk->trim_seq = 0;
	spin_unlock(&rrpc->map_lock);

	/*
	 * A discard unmapped sectors of the victim: until its trim record is
	 * on the media, the victim's copies are what keeps a power cut from
	 * bringing back older ones. GC programs the record (a copy, with its
	 * sequence number) first. Only a LUN with no free block left at all
	 * cannot: then the record goes into the block this erase frees.
	 */
	if (trim_seq)
		ret = rrpc_gc_trims(rlun, trim_seq, false);

	/*
	 * Erased before it goes back: a free block holds nothing that a
	 * recovery scan could take for data (its trim records may be gone).
	 * A victim that cannot be erased stays bad (media) or, with the
	 * device gone, goes back as it is. A host error is tried again.
	 */
	rblk->erased = false;
	if (!rblk->bad && !READ_ONCE(rrpc->dead))
		rblk->erased = !rrpc_erase(rlun, rblk, true);
	else if (!READ_ONCE(rrpc->dead))
		/*
		 * Bad: never programmed again, but erased if the media lets
		 * it: a recovery scan reads bad blocks too, and the trim
		 * records that hide their stale copies may be dropped now.
		 */
		nvm_erase_blk(rrpc->dev, rblk->parent);
	WRITE_ONCE(rblk->min_seq, U64_MAX);

	spin_lock(&rlun->lock);
	rblk->state = RRPC_BLK_FREE;
	spin_unlock(&rlun->lock);
	nvm_put_blk(rrpc->dev, rblk->parent);
	atomic64_inc(&rrpc->stats.gc_victims);
	rrpc_lun_set_full(rlun, false);
	if (ret == -ENOSPC)
		rrpc_gc_trims(rlun, trim_seq, false);

	spin_lock(&rlun->lock);
	kick = rlun->wr_blocked && rrpc_lun_free(rlun) > RRPC_GC_RSV;
	if (kick)
		WRITE_ONCE(rlun->wr_blocked, false);
	spin_unlock(&rlun->lock);
	if (kick)
		rrpc_wr_kick(rlun);
}

static void rrpc_gc_release_pending(struct rrpc_lun *rlun)
{
	struct rrpc_block *rblk, *tmp;

	list_for_each_entry_safe(rblk, tmp, &rlun->gc.pending, list) {
		list_del_init(&rblk->list);
		rrpc_gc_release(rlun, rblk);
	}
}

/*
 * Victims whose data could not be moved go back to the closed list, as
 * they were: the map still points into them.
 */
static void rrpc_gc_unpend(struct rrpc_lun *rlun)
{
	struct rrpc_block *rblk, *tmp;

	list_for_each_entry_safe(rblk, tmp, &rlun->gc.pending, list) {
		list_del_init(&rblk->list);
		rrpc_blk_close(rlun, rblk);
	}
	rlun->gc.unit.nr = 0;
}

/*
 * Program the GC unit (padding what is not filled) into the GC stream.
 * Return: 0; -ENOSPC if the LUN has no block left; -ENODEV once the
 * device is dead.
 */
static int rrpc_gc_write(struct rrpc_lun *rlun)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_unit *u = &rlun->gc.unit;
	struct rrpc_block **cur;
	int ret, other;

	for (;;) {
		/*
		 * Short of free blocks, GC opens no second block: the unit
		 * goes to the other stream's, so that GC needs no more of
		 * the reserve than with one stream.
		 */
		other = RRPC_TEMPS - 1 - u->temp;
		if (!rlun->gc_cur[u->temp] && rlun->gc_cur[other] &&
		    rrpc_lun_free(rlun) < RRPC_GC_RSV)
			u->temp = other;
		cur = &rlun->gc_cur[u->temp];
		if (!*cur)
			*cur = rrpc_get_blk(rlun, true);
		if (!*cur) {
			/* only GC frees blocks: the LUN is worn out */
			if (!READ_ONCE(rrpc->dead))
				rrpc_lun_set_full(rlun, true);
			return -ENOSPC;
		}
		ret = rrpc_program(rlun, u, true);
		if (!ret)
			return 0;
		if (ret != -EIO && ret != -EAGAIN)
			return -ENODEV;
	}
}

/*
 * Program the GC unit (padding what is not filled), then free victims.
 * Return: false if GC cannot go on (no block left, or the device is dead).
 */
static bool rrpc_gc_program(struct rrpc_lun *rlun)
{
	if (rrpc_gc_write(rlun)) {
		rrpc_gc_unpend(rlun);
		return false;
	}
	rlun->gc.unit.nr = 0;
	rrpc_gc_release_pending(rlun);
	return true;
}

/**
 * rrpc_gc_trims() - program pending trim records into a LUN's GC stream
 * @rlun: the LUN, whose GC unit is empty (its GC work, or teardown after
 *	the workers stopped)
 * @max_seq: the records with a sequence number up to this one
 * @unbuf: only those the write buffer had no room for
 *
 * Each record goes as a copy with its own sequence number
 * (rrpc_wb_tpend_copy()). Then it is no longer pending
 * (rrpc_wb_tpend_written()): GC may erase blocks holding data it unmapped,
 * and flushes stop waiting for it.
 *
 * Return: 0 once no such record is pending; -ENOSPC if the LUN has no block
 * left; -ENODEV once the device is dead.
 */
int rrpc_gc_trims(struct rrpc_lun *rlun, u64 max_seq, bool unbuf)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_unit *u = &rlun->gc.unit;
	int ret;

	if (WARN_ON_ONCE(u->nr))
		return -EBUSY;
	for (;;) {
		if (!rrpc_wb_tpend_copy(rrpc, u, max_seq, unbuf))
			return 0;
		u->temp = RRPC_COLD;
		ret = rrpc_gc_write(rlun);
		if (!ret) {
			/* copies of records, not moved data */
			atomic64_sub(u->nr, &rrpc->stats.gc_moved);
			rrpc_wb_tpend_written(rrpc, u);
		}
		u->nr = 0;
		if (ret)
			return ret;
	}
}

/*
 * Read n valid sectors into the GC unit behind the ones it holds.
 * Return: 0, or -ENODEV if the device keeps failing the read for another
 * reason than the media (the sectors stay where they are, mapped).
 */
static int rrpc_gc_read(struct rrpc_lun *rlun, u32 n)
{
	struct rrpc_trim_rec *tr;
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_gc *gc = &rlun->gc;
	struct rrpc_unit *u = &gc->unit;
	struct nvm_rq *rqd = &gc->rqd;
	u32 oob_size = rrpc->geo->oob_size, i, tries = 0;
	u64 failed = 0;
	int ret;

retry:
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
	if (ret && ret != -EIO) {
		/* not the media: nothing is lost, the sectors stay mapped */
		if (rrpc_submit_busy(rrpc, ret))
			goto retry;
		if (!rrpc_host_retry(rrpc, RRPC_CMD_READ, "a GC read", ret,
				     rqd->error, ++tries))
			return -ENODEV;
		goto retry;
	}
	rrpc_host_ok(rrpc, RRPC_CMD_READ);
	/* a media error: the sectors it names (all, without a list) */
	if (ret && rqd->error != NVM_RSP_WARN_HIGHECC)
		failed = rqd->ppa_status ? rqd->ppa_status : ~0ULL;

	for (i = 0; i < n; i++) {
		u32 k = u->nr + i;
		struct rrpc_oob *oob = u->meta + k * oob_size;

		if ((failed & BIT_ULL(i)) && u->lba[k] == RRPC_LBA_SB) {
			/*
			 * The newest superblock record (the capacity) must
			 * stay on the media: GC writes it anew, with a fresh
			 * sequence number, where the copy would have gone.
			 */
			rrpc_err_ratelimited(rrpc, "GC could not read the superblock record at sector %u: writing it anew\n",
					     u->old[k]);
			rrpc_sb_fill(rrpc, page_address(u->pages[k]));
			oob->lba = cpu_to_le32(RRPC_LBA_SB);
			oob->lun_begin = cpu_to_le16(rrpc->lun_begin);
			oob->lun_end = cpu_to_le16(rrpc->lun_end);
			oob->seq = cpu_to_le64(rrpc_wb_next_seq(rrpc) |
					       (u64)RRPC_FMT_VERSION << RRPC_SEQ_BITS);
			continue;
		}
		if ((failed & BIT_ULL(i)) && u->lba[k] >= rrpc->nr_lbas) {
			/* an unreadable record: drop it, it cannot be moved */
			spin_lock(&rrpc->map_lock);
			if (u->lba[k] == RRPC_LBA_TRIM)
				rrpc_rec_drop(rrpc, u->old[k]);
			spin_unlock(&rrpc->map_lock);
			rrpc_err_ratelimited(rrpc, "GC could not read the record at sector %u\n",
					     u->old[k]);
			u->lba[k] = RRPC_LBA_PAD;
			continue;
		}
		if (failed & BIT_ULL(i)) {
			atomic64_inc(&rrpc->stats.read_errors);
			spin_lock(&rrpc->map_lock);
			if (rrpc_map_lose(rrpc, u->lba[k], u->old[k]))
				atomic64_inc(&rrpc->stats.lost);
			spin_unlock(&rrpc->map_lock);
			rrpc_err_ratelimited(rrpc, "GC could not read sector %u (lba %u): data lost\n",
					     u->old[k], u->lba[k]);
			u->lba[k] = RRPC_ADDR_EMPTY;
			continue;
		}
		if (le32_to_cpu(oob->lba) != u->lba[k]) {
			rrpc_warn_ratelimited(rrpc, "sector %u holds lba %u in its OOB, map says %u\n",
					      u->old[k],
					      le32_to_cpu(oob->lba), u->lba[k]);
			oob->lba = cpu_to_le32(u->lba[k]);
		}
		if (u->lba[k] != RRPC_LBA_TRIM)
			continue;
		/* a trim record: keep what it still has to say, if anything */
		tr = page_address(u->pages[k]);
		/* both walk what they check without holding map_lock long */
		if (!rrpc_trim_needed(rrpc, rrpc_oob_seq(oob)) ||
		    !rrpc_trim_filter(rrpc, tr, gc->scratch)) {
			spin_lock(&rrpc->map_lock);
			rrpc_rec_drop(rrpc, u->old[k]);
			spin_unlock(&rrpc->map_lock);
			u->lba[k] = RRPC_LBA_PAD;
			atomic64_inc(&rrpc->stats.trims_dropped);
		}
	}
	u->nr += n;
	return 0;
}

/*
 * A victim that GC only took some sectors of (rrpc_gc_topup()) goes back
 * to the closed list with its age: it stays a candidate like before.
 */
static void rrpc_gc_unpick(struct rrpc_lun *rlun, struct rrpc_block *rblk)
{
	spin_lock(&rlun->lock);
	rblk->state = RRPC_BLK_CLOSED;
	list_add_tail(&rblk->list, &rlun->closed);
	rlun->nr_closed++;
	spin_lock(&rlun->rrpc->map_lock);
	rrpc_vidx_add(rlun->rrpc, rblk);
	spin_unlock(&rlun->rrpc->map_lock);
	spin_unlock(&rlun->lock);
}

/*
 * The stream a victim's data moves to: hot if most of its valid sectors
 * are (their heat, as rrpc_heat_bump() counts it, without a new write).
 * GC victims mostly hold data that outlived the data around it: cold,
 * unless hot data was caught in a young block.
 */
static int rrpc_gc_temp(struct rrpc *rrpc, struct rrpc_block *victim)
{
	u32 off, lba, live = 0, hot = 0;
	u8 epoch;

	if (!rrpc->heat)
		return RRPC_COLD;
	epoch = rrpc_heat_epoch(READ_ONCE(rrpc->heat_writes), rrpc->nr_lbas);
	spin_lock(&rrpc->map_lock);
	for (off = 0; off < victim->next_off; off++) {
		struct rrpc_heat h;

		if (!rrpc_map_live(rrpc, rrpc_blk_paddr(rrpc, victim, off),
				   &lba) || lba >= rrpc->nr_lbas)
			continue;
		h = READ_ONCE(rrpc->heat[lba]);
		live++;
		hot += rrpc_heat_get(&h, epoch) >= RRPC_HEAT_HOT;
	}
	spin_unlock(&rrpc->map_lock);
	if (2 * hot <= live)
		return RRPC_COLD;
	atomic64_inc(&rrpc->stats.gc_hot);
	return RRPC_HOT;
}

/*
 * Move the valid sectors of a victim into the GC unit (and beyond). With
 * @topup, stop as soon as a unit is programmed: the victim keeps the rest
 * and goes back to the closed list.
 */
static bool rrpc_gc_block(struct rrpc_lun *rlun, struct rrpc_block *victim,
			  bool topup)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_unit *u = &rlun->gc.unit;
	u32 off = 0, end = victim->next_off, lba, n;
	int temp = rrpc_gc_temp(rrpc, victim);

	while (off < end) {
		n = 0;
		/* a unit goes to the stream of the victim it starts with */
		if (!u->nr)
			u->temp = temp;
		spin_lock(&rrpc->map_lock);
		for (; off < end && u->nr + n < rrpc->spp; off++) {
			u32 paddr = rrpc_blk_paddr(rrpc, victim, off);

			if (rrpc_map_live(rrpc, paddr, &lba)) {
				u->lba[u->nr + n] = lba;
				u->old[u->nr + n] = paddr;
				n++;
			}
		}
		spin_unlock(&rrpc->map_lock);
		if (n && rrpc_gc_read(rlun, n)) {
			/* the device is dead: the victim keeps its data */
			rrpc_blk_close(rlun, victim);
			return false;
		}
		if (u->nr == rrpc->spp) {
			if (!rrpc_gc_program(rlun)) {
				/* what is already on the media stays valid there */
				rrpc_blk_close(rlun, victim);
				return false;
			}
			if (topup && off < end) {
				rrpc_gc_unpick(rlun, victim);
				return true;
			}
		}
	}
	/* the victim is free once the sectors still in the unit are written */
	list_add_tail(&victim->list, &rlun->gc.pending);
	if (!u->nr)
		rrpc_gc_release_pending(rlun);
	return true;
}

/* How rrpc_gc_take() picks. */
enum {
	RRPC_TAKE_GC,		/* greedy: to free space */
	RRPC_TAKE_TOPUP,	/* greedy, to fill the last unit: no bad block */
	RRPC_TAKE_WL,		/* the least erased block, if wear is uneven */
};

/* Take a victim off the closed list (@how: RRPC_TAKE_*), or NULL. */
static struct rrpc_block *rrpc_gc_take(struct rrpc_lun *rlun, int how)
{
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_block *victim;

	spin_lock(&rlun->lock);
	if (how == RRPC_TAKE_WL) {
		victim = NULL;
		if (rrpc_wl_needed(rlun->max_erase, rlun->erases,
				   rrpc->geo->blks_per_lun))
			victim = rrpc_wl_pick(&rlun->closed, rlun->max_erase);
		if (victim)
			atomic64_inc(&rrpc->stats.wl_victims);
	} else {
		victim = rrpc_gc_pick_cb(rrpc, rlun,
					 atomic64_read(&rrpc->close_seq));
		/* a victim without invalid (or unwritten) sectors yields nothing */
		if (victim && !victim->bad &&
		    READ_ONCE(victim->nr_valid) >= rrpc->spb)
			victim = NULL;
		if (victim && how == RRPC_TAKE_TOPUP && victim->bad)
			victim = NULL;
	}
	if (victim) {
		list_del_init(&victim->list);
		spin_lock(&rrpc->map_lock);
		rrpc_vidx_del(rrpc, victim);
		spin_unlock(&rrpc->map_lock);
		rlun->nr_closed--;
		if (victim->bad)
			WRITE_ONCE(rlun->nr_bad, rlun->nr_bad - 1);
		victim->state = RRPC_BLK_GC;
		trace_rrpc_gc_victim(rrpc->disk->disk_name,
				     rlun->parent->id, victim->parent->id,
				     victim->nr_valid, victim->next_off,
				     victim->bad);
	}
	spin_unlock(&rlun->lock);
	return victim;
}

/*
 * GC stops with a partly filled unit. Rather than pad it, fill it with
 * valid sectors of the next victims: the sectors GC would move next
 * anyway, while padding is pure write amplification.
 * Return: false if GC cannot go on.
 */
static bool rrpc_gc_topup(struct rrpc_lun *rlun)
{
	struct rrpc_block *victim;
	int tries;

	for (tries = 0; tries < RRPC_GC_TOPUP_TRIES && rlun->gc.unit.nr; tries++) {
		victim = rrpc_gc_take(rlun, RRPC_TAKE_TOPUP);
		if (!victim)
			break;
		if (!rrpc_gc_block(rlun, victim, true))
			return false;
	}
	return true;
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
	bool wl = true;

	/* trim records the full write buffer had no room for (out of space) */
	if (rrpc_wb_nr_unbuf(rrpc) && !rlun->gc.unit.nr &&
	    !READ_ONCE(rrpc->exiting) && !READ_ONCE(rrpc->dead))
		rrpc_gc_trims(rlun, U64_MAX, true);

	while (!READ_ONCE(rrpc->exiting) && !READ_ONCE(rrpc->dead) &&
	       rrpc_gc_needed(rlun)) {
		/* at most one wear-leveling move per run, before the greedy ones */
		victim = wl ? rrpc_gc_take(rlun, RRPC_TAKE_WL) : NULL;
		wl = false;
		if (!victim)
			victim = rrpc_gc_take(rlun, RRPC_TAKE_GC);
		if (!victim) {
			/*
			 * Victims whose last sectors are in the unit free their
			 * blocks once it is programmed (and wake the writer):
			 * only a writer still waiting then sees a full LUN.
			 * Declared full before, the LUN flapped and writes got
			 * a spurious -ENOSPC when the other LUNs were full too.
			 */
			if (rlun->gc.unit.nr && !rrpc_gc_program(rlun))
				return;
			rrpc_gc_release_pending(rlun);
			if (READ_ONCE(rlun->wr_blocked))
				rrpc_lun_set_full(rlun, true);
			break;
		}
		if (!rrpc_gc_block(rlun, victim, false))
			return;
		cond_resched();
	}
	if (rlun->gc.unit.nr && !READ_ONCE(rrpc->exiting) &&
	    !READ_ONCE(rrpc->dead) && !rrpc_gc_topup(rlun))
		return;
	if (rlun->gc.unit.nr && !rrpc_gc_program(rlun))
		return;
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
	struct rrpc_block *rblk;
	int ret;

	INIT_LIST_HEAD(&gc->pending);
	ret = rrpc_vidx_init(&rlun->vidx, rrpc->spb);
	if (ret)
		return ret;
	/* the blocks creation closed, indexed with their final counts */
	spin_lock(&rrpc->map_lock);
	list_for_each_entry(rblk, &rlun->closed, list)
		rrpc_vidx_add(rrpc, rblk);
	spin_unlock(&rrpc->map_lock);
	ret = rrpc_unit_init(rrpc, &gc->unit, true);
	if (ret)
		return ret;
	gc->bvecs = kcalloc(rrpc->spp, sizeof(*gc->bvecs), GFP_KERNEL);
	gc->scratch = kmalloc(RRPC_SECTOR_SIZE, GFP_KERNEL);
	if (!gc->bvecs || !gc->scratch)
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
	kfree(gc->scratch);
	gc->scratch = NULL;
	kfree(gc->bvecs);
	gc->bvecs = NULL;
	rrpc_vidx_free(&rlun->vidx);
	rrpc_unit_free(rrpc, &gc->unit);
}
