// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: the I/O path of the target's disk. blk-mq requests (reads,
 * buffered writes, flush and FUA, discard and write-zeroes), host error
 * handling, and the per-LUN writers that program full write units
 * round-robin into the LUNs' open blocks. The write buffer itself (units,
 * queue, flush list, pending trim records) is rrpc_wb.c's.
 *
 * A write is copied into write buffer units (one multi-plane page,
 * geo.sec_per_pl sectors, each) and acknowledged; the map's @wb field
 * points reads at the buffer until the unit is programmed, and only then
 * does the media map change (rrpc_map_commit()). Flush and FUA wait until
 * every unit filled before them is on the media, padding the unit being
 * filled. Nothing here sleeps in ->queue_rq: when the buffer is full the
 * request is retried once a unit frees up (user writes are throttled by
 * the writers, which wait for GC to free blocks).
 */

#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/blk-mq.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include "rrpc.h"
#include "rrpc_trace.h"

/**
 * rrpc_kick_writer() - get a LUN writer to program the queued units
 * @rrpc: the target
 * @from: the writer passing the work on because it has no space, or %NULL
 *	to start at the round-robin cursor
 *
 * Wakes the next LUN writer (round-robin) that is not waiting for GC.
 * When every LUN waits, GC wakes them as it frees blocks. Once the target
 * is dead or out of space, a call without @from wakes one even if it
 * waits: dead, it fails the flushes waiting (rrpc_wr_work()); at teardown
 * it drops what cannot be written. No GC would wake it for either.
 */
void rrpc_kick_writer(struct rrpc *rrpc, struct rrpc_lun *from)
{
	bool any = !from && (READ_ONCE(rrpc->dead) || READ_ONCE(rrpc->nospc));
	unsigned int start, k;
	struct rrpc_lun *rlun;

	if (from)
		start = from->idx + 1;
	else
		start = READ_ONCE(rrpc->kick_next);
	for (k = 0; k < rrpc->nr_luns; k++) {
		rlun = &rrpc->luns[(start + k) % rrpc->nr_luns];
		if (rlun == from || (!any && READ_ONCE(rlun->wr_blocked)))
			continue;
		if (!from)
			WRITE_ONCE(rrpc->kick_next, (rlun->idx + 1) % rrpc->nr_luns);
		rrpc_wr_kick(rlun);
		return;
	}
}

/**
 * rrpc_set_dead() - the device stopped taking programs: go read-only
 * @rrpc: the target
 * @why: for the log
 *
 * Writes, discards and flushes fail from now on; the writers fail the
 * flushes waiting and drop what is buffered, so that neither a flush nor
 * teardown waits for a device that does not answer.
 *
 * Context: any.
 */
void rrpc_set_dead(struct rrpc *rrpc, const char *why)
{
	int i;

	if (xchg(&rrpc->dead, true))
		return;
	rrpc_err(rrpc, "%s: the disk is read-only from now on; data not yet flushed is lost\n",
		 why);
	for (i = 0; i < rrpc->nr_luns; i++)
		rrpc_wr_kick(&rrpc->luns[i]);
}

static const char * const rrpc_cmd_names[RRPC_CMD_KINDS] = {
	[RRPC_CMD_READ]		= "reads",
	[RRPC_CMD_PROGRAM]	= "programs",
	[RRPC_CMD_ERASE]	= "erases",
};

static const char * const rrpc_cmd_dead[RRPC_CMD_KINDS] = {
	[RRPC_CMD_READ]		= "the device keeps failing reads",
	[RRPC_CMD_PROGRAM]	= "the device keeps failing programs",
	[RRPC_CMD_ERASE]	= "the device keeps failing erases",
};

/*
 * Count a host error of a command of @kind that has failed so @tries
 * times: the number of failures in a row that counts (its own, or its
 * kind's since a command of the kind last succeeded), or 0 (give up)
 * once the target is dead or is taken for dead now: past
 * %RRPC_HOST_RETRIES, or %RRPC_HOST_DEAD_MS after the kind's first one.
 * Only a success of the same kind ends a kind's streak: a device whose
 * programs fail while its erases work must not be retried forever.
 * At creation (%RRPC_CMD_CREATE) only the command's own failures count,
 * and giving up fails the creation: nothing becomes dead.
 */
static int rrpc_host_err(struct rrpc *rrpc, enum rrpc_cmd kind,
			 const char *what, int ret, u16 error, u32 tries)
{
	struct rrpc_streak *s;
	unsigned long since;
	u32 ms = 0;
	int n;

	atomic64_inc(&rrpc->stats.host_errors);
	if (kind == RRPC_CMD_CREATE) {
		n = tries;
		if (n > RRPC_HOST_RETRIES) {
			rrpc_err(rrpc, "%s failed (%d/0x%x), %d host errors in a row\n",
				 what, ret, error, n);
			return 0;
		}
		goto retry;
	}
	s = &rrpc->host_streak[kind];
	n = atomic_inc_return(&s->n);
	if (n == 1)
		WRITE_ONCE(s->since, jiffies ?: 1);
	if (READ_ONCE(rrpc->dead))
		return 0;
	since = READ_ONCE(s->since);
	if (since && n > 1)
		ms = jiffies_to_msecs(jiffies - since);
	n = max_t(int, n, tries);
	if (n > RRPC_HOST_RETRIES || ms >= RRPC_HOST_DEAD_MS) {
		rrpc_err(rrpc, "%s failed (%d/0x%x), not by the media: %d failures in a row over %u ms, no %s succeeding\n",
			 what, ret, error, n, ms,
			 rrpc_cmd_names[kind]);
		rrpc_set_dead(rrpc, rrpc_cmd_dead[kind]);
		return 0;
	}
retry:
	rrpc_warn_ratelimited(rrpc, "%s failed (%d/0x%x), not a media error: retry %d of %d\n",
			      what, ret, error, n,
			      RRPC_HOST_RETRIES);
	return n;
}

/**
 * rrpc_host_retry() - a command failed, and not because of the media
 * @rrpc: the target
 * @kind: the kind of command (its streak of host errors), or
 *	%RRPC_CMD_CREATE for any command while the target is created
 * @what: the command, for the log
 * @ret: what submitting it returned
 * @error: its completion status (&nvm_rq.error), not a media status
 * @tries: how many times this command has failed so, this one included
 *
 * Such a failure (nvm_rsp_is_media() false, or a command that could not
 * be submitted) says nothing about the blocks: none is marked bad and no
 * data is given up. The caller tries again after a pause. The device is
 * taken for dead after more than %RRPC_HOST_RETRIES failures of the
 * command, or of its kind with none of the kind succeeding in between,
 * or once its kind has failed so for %RRPC_HOST_DEAD_MS.
 *
 * At creation, only the command's own failures count, and giving up
 * (logged) fails the creation: nothing is marked bad or dead.
 *
 * Context: process (sleeps).
 * Return: true to try again, false once the target is dead (at creation:
 * once the command failed more than %RRPC_HOST_RETRIES times).
 */
bool rrpc_host_retry(struct rrpc *rrpc, enum rrpc_cmd kind, const char *what,
		     int ret, u16 error, u32 tries)
{
	int n = rrpc_host_err(rrpc, kind, what, ret, error, tries);

	if (n)
		msleep(RRPC_HOST_RETRY_MS * n);
	return n;
}

/**
 * rrpc_submit_busy() - a command could not be submitted for the moment
 * @rrpc: the target
 * @ret: what submitting it returned
 *
 * No memory or no free tag to submit it with (-ENOMEM, -EAGAIN): nothing
 * reached the device, which this says nothing about. Not a host error:
 * the caller submits the same command again after a pause, as long as
 * the target is not dead.
 *
 * Context: process (sleeps).
 * Return: true if the caller should submit again.
 */
bool rrpc_submit_busy(struct rrpc *rrpc, int ret)
{
	if ((ret != -ENOMEM && ret != -EAGAIN) || READ_ONCE(rrpc->dead))
		return false;
	rrpc_warn_ratelimited(rrpc, "no memory to submit a command (%d): trying again\n",
			      ret);
	msleep(RRPC_SUBMIT_RETRY_MS);
	return true;
}

/**
 * rrpc_host_ok() - a command succeeded: host errors of its kind no longer
 *	in a row
 * @rrpc: the target
 * @kind: the kind of command
 *
 * Context: any.
 */
void rrpc_host_ok(struct rrpc *rrpc, enum rrpc_cmd kind)
{
	struct rrpc_streak *s = &rrpc->host_streak[kind];

	if (atomic_read(&s->n)) {
		WRITE_ONCE(s->since, 0);
		atomic_set(&s->n, 0);
	}
}

/**
 * rrpc_lun_set_full() - a LUN has nothing left that GC can reclaim, or has
 * @rlun: the LUN
 * @full: its writer waits and no block would yield space (grown bad blocks
 *	ate the spare), or GC freed a block again
 *
 * Writes go to the other LUNs meanwhile. Once every LUN is full the disk
 * is out of space: writes and flushes fail (-ENOSPC, -EIO), reads work, and
 * a discard, which gives GC something to reclaim, lets writes resume.
 * Each time GC finds a LUN full while every LUN is, the flushes and FUA
 * writes waiting fail with -EIO: their data cannot be written (it stays
 * buffered in case space comes back). The GC work items of several LUNs
 * call this at once: the flags and @nospc change together under wb.lock,
 * so that @nospc is set exactly when every LUN is full.
 *
 * Context: process; takes rrpc->wb.lock.
 */
void rrpc_lun_set_full(struct rrpc_lun *rlun, bool full)
{
	struct rrpc *rrpc = rlun->rrpc;
	bool all = true, was;
	LIST_HEAD(failed);
	int i;

	spin_lock(&rrpc->wb.lock);
	WRITE_ONCE(rlun->full, full);
	for (i = 0; i < rrpc->nr_luns; i++)
		if (!rrpc->luns[i].full)
			all = false;
	was = rrpc->nospc;
	WRITE_ONCE(rrpc->nospc, all);
	/* no space, and GC just found none: what flushes wait for stays */
	if (full && all)
		rrpc_wb_flush_detach(rrpc, &failed);
	spin_unlock(&rrpc->wb.lock);
	/*
	 * Logged outside the lock (a serial console takes milliseconds a
	 * line); two LUNs changing at once may log in either order, the
	 * flags above are what counts.
	 */
	if (all && !was)
		rrpc_err(rrpc, "no LUN has a free block left or anything to garbage collect (grown bad blocks ate the spare): writes fail with -ENOSPC, flushes with -EIO, reads work; discarding data lets GC resume\n");
	else if (!all && was)
		rrpc_info(rrpc, "LUN %d has free blocks again: writes resume\n",
			  rlun->parent->id);
	rrpc_wb_flush_fail(rrpc, &failed, "out of space");
	if (all == was)
		return;
	for (i = 0; i < rrpc->nr_luns; i++)
		rrpc_wr_kick(&rrpc->luns[i]);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_lun_set_full);

/* The open block of a stream takes no more programs (full, or failed). */
static void rrpc_stream_close(struct rrpc_lun *rlun, struct rrpc_block *rblk,
			      bool gc, int temp)
{
	if (gc)
		rlun->gc_cur[temp] = NULL;
	else
		rlun->cur[temp] = NULL;
	rrpc_blk_close(rlun, rblk);
}

/**
 * rrpc_program() - program a unit at the next page of an open block
 * @rlun: the LUN
 * @u: the unit; its sectors past @u->nr, and those whose lba is
 *	%RRPC_ADDR_EMPTY, are written as padding
 * @gc: GC stream (@rlun->gc_cur, map follows with rrpc_map_move()) or
 *	user stream (@rlun->cur, rrpc_map_commit()); the open block of
 *	@u->temp
 *
 * The open block must have room for one unit. On success the map points
 * to the new sectors where the unit still holds the newest data. A failed
 * program retires the block (GC evacuates what it already holds) and
 * leaves the stream without an open block; the caller retries elsewhere.
 *
 * Context: the LUN's writer (user) or GC work; sleeps.
 * Return: 0; -EIO if the media failed the program (block retired);
 * -EAGAIN after a host error (block closed, not retired; see
 * rrpc_host_retry()) or when it could not be submitted (no memory: the
 * block stays open, the same page is programmed next; see
 * rrpc_submit_busy()); -ENODEV once the target is dead. After -EIO and
 * -EAGAIN the caller programs the unit again, in the stream's open block
 * or a fresh one.
 */
int rrpc_program(struct rrpc_lun *rlun, struct rrpc_unit *u, bool gc)
{
	struct rrpc *rrpc = rlun->rrpc;
	const struct nvm_geo *geo = rrpc->geo;
	int temp = u->temp;
	struct rrpc_block *rblk = gc ? rlun->gc_cur[temp] : rlun->cur[temp];
	struct nvm_rq *rqd = &u->rqd;
	u32 spp = rrpc->spp, off, base, i, nr_data = 0;
	u64 min_seq = U64_MAX;
	bool erased = rblk->erased;
	int ret;

	if (READ_ONCE(rrpc->dead))
		return -ENODEV;
	off = rblk->next_off;
	base = rrpc_blk_paddr(rrpc, rblk, off);
	rblk->next_off += spp;
	rblk->erased = false;

	spin_lock(&rrpc->map_lock);
	for (i = 0; i < spp; i++)
		rrpc->p2l[base + i] = RRPC_ADDR_EMPTY;
	spin_unlock(&rrpc->map_lock);

	memset(rqd, 0, sizeof(*rqd));
	bio_init(&u->bio, NULL, u->bvecs, spp, REQ_OP_WRITE);
	for (i = 0; i < spp; i++) {
		struct rrpc_oob *oob = u->meta + i * geo->oob_size;
		struct ppa_addr ppa = nvm_blk_off_to_ppa(geo, rblk->ppa, off + i);
		bool data = i < u->nr && u->lba[i] != RRPC_LBA_PAD;
		u64 seq;

		if (spp > 1)
			u->ppa_list[i] = ppa;
		else
			rqd->ppa_addr = ppa;
		__bio_add_page(&u->bio, data ? u->pages[i] : ZERO_PAGE(0),
			       RRPC_SECTOR_SIZE, 0);
		/*
		 * GC keeps the OOB it read: the LBA and sequence number; a
		 * user sector's number is in it since it was buffered
		 */
		if (!gc || !data) {
			seq = data ? rrpc_oob_seq(oob) : 0;
			oob->lba = cpu_to_le32(data ? u->lba[i] : RRPC_LBA_PAD);
			oob->lun_begin = cpu_to_le16(rrpc->lun_begin);
			oob->lun_end = cpu_to_le16(rrpc->lun_end);
			oob->seq = cpu_to_le64(seq |
					       (u64)RRPC_FMT_VERSION << RRPC_SEQ_BITS);
		}
		if (data) {
			nr_data++;
			min_seq = min(min_seq, rrpc_oob_seq(oob));
		}
	}
	rqd->dev = rrpc->dev;
	rqd->opcode = NVM_OP_PWRITE;
	rqd->nr_ppas = spp;
	rqd->bio = &u->bio;
	rqd->meta_list = u->meta;
	rqd->dma_meta_list = u->meta_dma;
	if (spp > 1) {
		rqd->ppa_list = u->ppa_list;
		rqd->dma_ppa_list = u->ppa_dma;
	}
	rqd->private = u;

	ret = nvm_submit_io_sync(rrpc->dev, rqd);
	bio_uninit(&u->bio);
	trace_rrpc_program(rrpc->disk->disk_name, rlun->parent->id,
			   spp > 1 ? u->ppa_list[0] : rqd->ppa_addr, base, spp,
			   nr_data, gc, rqd->error ? rqd->error : ret);
	if (rrpc_submit_busy(rrpc, ret)) {
		/* nothing reached the device: the same page again */
		rblk->next_off = off;
		rblk->erased = erased;
		return -EAGAIN;
	}
	/*
	 * Whatever the status, the program may have reached the media (an
	 * aborted command too, or some sectors of a failed one): the block
	 * holds copies with these sequence numbers until it is erased, so
	 * trim records newer than them must stay (rrpc_trim_needed()).
	 */
	if (min_seq < READ_ONCE(rblk->min_seq))
		WRITE_ONCE(rblk->min_seq, min_seq);
	if (ret && ret != -EIO) {
		/*
		 * Not the media's doing (an aborted command, a path error):
		 * nothing is retired. Whether the aborted
		 * program reached the media is unknown, so the block takes no
		 * more programs; the unit goes to a fresh one. What did reach
		 * the media is never mapped: the unit's sequence numbers stay,
		 * and the copy written next is the one the map points to.
		 */
		rrpc_stream_close(rlun, rblk, gc, temp);
		if (!rrpc_host_retry(rrpc, RRPC_CMD_PROGRAM, "a program", ret,
				     rqd->error, ++u->host_tries))
			return -ENODEV;
		return -EAGAIN;
	}
	if (ret || rqd->error) {
		atomic64_inc(&rrpc->stats.write_errors);
		rrpc_err_ratelimited(rrpc, "program of block %u (LUN %d) failed (%d/0x%x), retiring it\n",
				     rblk->parent->id,
				     rlun->parent->id, ret, rqd->error);
		rblk->bad = true;
		/* the core marks the blocks of a reported program failure */
		atomic64_inc(&rrpc->stats.grown_bad);
		rrpc_stream_close(rlun, rblk, gc, temp);
		rrpc_gc_kick(rlun);
		return -EIO;
	}

	rrpc_host_ok(rrpc, RRPC_CMD_PROGRAM);
	u->host_tries = 0;
	atomic64_add(spp, &rrpc->stats.media_written);
	atomic64_add(spp - nr_data, &rrpc->stats.padded);
	if (gc)
		atomic64_add(nr_data, &rrpc->stats.gc_moved);

	spin_lock(&rrpc->map_lock);
	for (i = 0; i < u->nr; i++) {
		u32 lba = u->lba[i];

		if (lba == RRPC_LBA_PAD)
			continue;
		if (lba >= rrpc->nr_lbas) {
			/* GC's copy of a pending trim record has no old place */
			if (gc && u->old[i] != RRPC_ADDR_EMPTY)
				rrpc_rec_move(rrpc, lba, u->old[i], base + i);
			else
				rrpc_rec_programmed(rrpc, lba, base + i);
			continue;
		}
		rrpc->p2l[base + i] = lba;
		if (gc)
			rrpc_map_move(rrpc, lba, u->old[i], base + i);
		else
			rrpc_map_commit(rrpc, lba, base + i, u->idx * spp + i);
	}
	spin_unlock(&rrpc->map_lock);

	if (rblk->next_off >= rrpc->spb)
		rrpc_stream_close(rlun, rblk, gc, temp);
	return 0;
}

/*
 * The LUN's user stream of @temp has room for a unit, or the LUN waits for
 * GC.
 */
static bool rrpc_wr_space(struct rrpc_lun *rlun, int temp)
{
	if (rlun->cur[temp])
		return true;
	rlun->cur[temp] = rrpc_get_blk(rlun, false);
	return rlun->cur[temp];
}

/**
 * rrpc_wr_work() - the writer of a LUN: programs queued units
 * @work: the LUN's wr_work
 *
 * Takes full units from the target's queue, oldest first, as long as the
 * LUN has space and it is its turn (rrpc_wr_ahead()); a LUN ahead of the
 * others wakes the one whose turn it is, a LUN without space passes the
 * queue on to the next LUN and is woken again by its GC. Once the target
 * is dead, it first fails the flushes waiting.
 */
void rrpc_wr_work(struct work_struct *work)
{
	struct rrpc_lun *rlun = container_of(work, struct rrpc_lun, wr_work);
	struct rrpc *rrpc = rlun->rrpc;
	struct rrpc_lun *lag;
	struct rrpc_unit *u;
	bool drop;
	int ret, temp;

	if (READ_ONCE(rrpc->dead))
		rrpc_wb_flush_fail_dead(rrpc);
	for (;;) {
		/* a dead device, or no space left while tearing down: drop */
		drop = READ_ONCE(rrpc->dead) ||
		       (READ_ONCE(rrpc->nospc) && READ_ONCE(rrpc->draining));
		temp = rrpc_wb_next_temp(rrpc);
		if (!drop && !rrpc_wr_space(rlun, temp)) {
			rrpc_kick_writer(rrpc, rlun);
			return;
		}
		ret = rrpc_wb_take(rrpc, rlun, temp, drop, &u, &lag);
		/* another writer took the unit looked at: again */
		if (ret == -EAGAIN)
			continue;
		if (ret == -EBUSY) {
			rrpc_wr_kick(lag);
			return;
		}
		if (!u)
			return;

		if (drop) {
			rrpc_wb_unit_drop(rrpc, u);
			continue;
		}
		ret = rrpc_program(rlun, u, false);
		if (ret == -EIO || ret == -EAGAIN) {
			/* the block is retired or closed: try a fresh one */
			rrpc_wb_requeue(rrpc, u);
			continue;
		}
		if (ret) {
			rrpc_wb_unit_drop(rrpc, u);
			continue;
		}
		rrpc_wb_unit_done(rrpc, u);
		cond_resched();
	}
}

/* ------------------------------------------------------------- reads */

/* Drop what the lookup took: of media sectors (@media) or buffer ones. */
static void rrpc_read_put(struct rrpc *rrpc, struct rrpc_rq *rrq,
			  unsigned int nr, bool media)
{
	struct rrpc_block *rblk;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (media && rrq->kind[i] == RRPC_SRC_MEDIA) {
			rblk = rrpc_paddr_to_blk(rrpc, rrq->src[i]);
			if (atomic_dec_and_test(&rblk->nr_readers) &&
			    wq_has_sleeper(&rrpc->read_wait))
				wake_up_all(&rrpc->read_wait);
		} else if (!media && rrq->kind[i] == RRPC_SRC_WB) {
			rrpc_wb_unit_put(rrpc, rrpc_slot_unit(rrpc, rrq->src[i]));
		}
	}
}

/*
 * A user read that failed on a host error (aborted by a controller reset
 * or a timeout) goes back to blk-mq's requeue list and is looked up again
 * (GC may have moved its sectors meanwhile) after the pause a program
 * would take, at most %RRPC_HOST_RETRIES times. Completion context: the
 * pause is the requeue list's delay, not a sleep.
 */
static bool rrpc_read_requeue(struct rrpc *rrpc, struct request *rq,
			      struct rrpc_rq *rrq, u16 error)
{
	int n;

	if (rrq->retries >= RRPC_HOST_RETRIES)
		return false;
	n = rrpc_host_err(rrpc, RRPC_CMD_READ, "a read", 0, error,
			  rrq->retries + 1);
	if (!n)
		return false;
	rrq->retries++;
	blk_mq_requeue_request(rq, false);
	blk_mq_delay_kick_requeue_list(rq->q, RRPC_HOST_RETRY_MS * n);
	return true;
}

static void rrpc_read_end_io(struct nvm_rq *rqd)
{
	struct request *rq = rqd->private;
	struct rrpc_rq *rrq = blk_mq_rq_to_pdu(rq);
	struct rrpc *rrpc = rq->q->queuedata;
	u16 error = rqd->error;
	blk_status_t st = BLK_STS_OK;

	if (rqd->nr_ppas > 1)
		nvm_free_ppalist(rrpc->dev, rqd);
	bio_uninit(&rrq->bio);
	rrpc_read_put(rrpc, rrq, blk_rq_bytes(rq) >> RRPC_SECTOR_SHIFT, true);

	if (!error || error == NVM_RSP_WARN_HIGHECC) {
		rrpc_host_ok(rrpc, RRPC_CMD_READ);
	} else {
		if (!nvm_rsp_is_media(error) &&
		    rrpc_read_requeue(rrpc, rq, rrq, error))
			return;
		atomic64_inc(&rrpc->stats.read_errors);
		rrpc_err_ratelimited(rrpc, "read of sectors %llu+%u failed (0x%x)\n",
				     blk_rq_pos(rq) >> RRPC_SECT512_SHIFT,
				     blk_rq_bytes(rq) >> RRPC_SECTOR_SHIFT, error);
		st = BLK_STS_IOERR;
	}
	blk_mq_end_request(rq, st);
}

/*
 * Gather the request's bytes: sectors on the media go into rrq->bio (the
 * request's own pages, no copy), the others are copied from the write
 * buffer or zeroed here.
 */
static bool rrpc_read_gather(struct rrpc *rrpc, struct request *rq,
			     struct rrpc_rq *rrq)
{
	struct req_iterator iter;
	struct bio_vec bv;
	u32 off = 0;

	rq_for_each_segment(bv, rq, iter) {
		u32 done = 0;

		while (done < bv.bv_len) {
			u32 i = off / RRPC_SECTOR_SIZE, so = off % RRPC_SECTOR_SIZE;
			u32 len = min(bv.bv_len - done, RRPC_SECTOR_SIZE - so);
			u32 at = bv.bv_offset + done;
			struct rrpc_unit *u;

			switch (rrq->kind[i]) {
			case RRPC_SRC_MEDIA:
				if (bio_add_page(&rrq->bio, bv.bv_page, len, at) != len)
					return false;
				break;
			case RRPC_SRC_WB:
				u = rrpc_slot_unit(rrpc, rrq->src[i]);
				memcpy_to_page(bv.bv_page, at,
					       page_address(u->pages[rrq->src[i] % rrpc->spp]) + so,
					       len);
				break;
			default:
				memzero_page(bv.bv_page, at, len);
				break;
			}
			done += len;
			off += len;
		}
	}
	return true;
}

static blk_status_t rrpc_read_rq(struct rrpc *rrpc, struct request *rq,
				 u32 lba, u32 nr)
{
	struct rrpc_rq *rrq = blk_mq_rq_to_pdu(rq);
	struct nvm_rq *rqd = &rrq->rqd;
	u32 i, n = 0, nr_media = 0;
	bool lost = false, gathered;
	int ret;

	/* a fresh request, not one rrpc_read_requeue() sent back */
	if (!(rq->rq_flags & RQF_DONTPREP)) {
		rq->rq_flags |= RQF_DONTPREP;
		rrq->retries = 0;
	}
	blk_mq_start_request(rq);

	spin_lock(&rrpc->map_lock);
	for (i = 0; i < nr; i++) {
		struct rrpc_addr *a = &rrpc->map[lba + i];

		if (a->wb != RRPC_ADDR_EMPTY) {
			rrq->kind[i] = RRPC_SRC_WB;
			rrq->src[i] = a->wb;
			refcount_inc(&rrpc_slot_unit(rrpc, a->wb)->ref);
		} else if (a->ppa == RRPC_ADDR_EMPTY) {
			rrq->kind[i] = RRPC_SRC_ZERO;
		} else if (a->ppa == RRPC_ADDR_LOST) {
			rrq->kind[i] = RRPC_SRC_ZERO;
			lost = true;
		} else {
			rrq->kind[i] = RRPC_SRC_MEDIA;
			rrq->src[i] = a->ppa;
			atomic_inc(&rrpc_paddr_to_blk(rrpc, a->ppa)->nr_readers);
			nr_media++;
		}
	}
	spin_unlock(&rrpc->map_lock);

	if (unlikely(lost)) {
		rrpc_err_ratelimited(rrpc, "read of sectors %u+%u hits data lost to a media error\n",
				     lba, nr);
		rrpc_read_put(rrpc, rrq, nr, false);
		goto fail;
	}

	bio_init(&rrq->bio, NULL, rrq->bvecs, RRPC_MAX_BVECS, REQ_OP_READ);
	gathered = rrpc_read_gather(rrpc, rq, rrq);
	/* the completion may run in IRQ context: no buffer refs past here */
	rrpc_read_put(rrpc, rrq, nr, false);
	if (WARN_ON_ONCE(!gathered))
		goto fail_bio;
	atomic64_add(nr, &rrpc->stats.user_read);

	if (!nr_media) {
		bio_uninit(&rrq->bio);
		blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	}

	memset(rqd, 0, sizeof(*rqd));
	rqd->dev = rrpc->dev;
	rqd->opcode = NVM_OP_PREAD;
	rqd->nr_ppas = nr_media;
	rqd->bio = &rrq->bio;
	rqd->end_io = rrpc_read_end_io;
	rqd->private = rq;
	if (nr_media > 1) {
		if (nvm_alloc_ppalist(rrpc->dev, rqd, GFP_ATOMIC)) {
			bio_uninit(&rrq->bio);
			rrpc_read_put(rrpc, rrq, nr, true);
			return BLK_STS_RESOURCE;
		}
		for (i = 0; i < nr; i++)
			if (rrq->kind[i] == RRPC_SRC_MEDIA)
				rqd->ppa_list[n++] = rrpc_paddr_to_ppa(rrpc, rrq->src[i]);
	} else {
		for (i = 0; i < nr; i++)
			if (rrq->kind[i] == RRPC_SRC_MEDIA)
				rqd->ppa_addr = rrpc_paddr_to_ppa(rrpc, rrq->src[i]);
	}

	/* from here on rrpc_read_end_io() owns the request */
	ret = nvm_submit_io(rrpc->dev, rqd);
	if (ret) {
		if (nr_media > 1)
			nvm_free_ppalist(rrpc->dev, rqd);
		if (ret == -ENOMEM || ret == -EAGAIN) {
			/* no memory or tag to submit: blk-mq runs it again */
			bio_uninit(&rrq->bio);
			rrpc_read_put(rrpc, rrq, nr, true);
			atomic64_sub(nr, &rrpc->stats.user_read);
			return BLK_STS_RESOURCE;
		}
		rrpc_err_ratelimited(rrpc, "read submission failed: %d\n",
				     ret);
		goto fail_bio;
	}
	return BLK_STS_OK;

fail_bio:
	bio_uninit(&rrq->bio);
fail:
	rrpc_read_put(rrpc, rrq, nr, true);
	blk_mq_end_request(rq, BLK_STS_IOERR);
	return BLK_STS_OK;
}

/* ------------------------------------------------------------ writes */

/*
 * The temperature of a user write of @nr sectors from @lba: hot if most of
 * its sectors are (rrpc_heat_bump()). A request stays together, so that a
 * sequential stream is not torn across two open blocks. With @commit the
 * write is counted in their heat, else it is only looked at.
 */
static int rrpc_write_temp(struct rrpc *rrpc, u32 lba, u32 nr, bool commit)
{
	u32 i, hot = 0;
	u8 epoch;

	lockdep_assert_held(&rrpc->wb.lock);
	if (!rrpc->heat)
		return RRPC_COLD;
	epoch = rrpc_heat_epoch(rrpc->heat_writes, rrpc->nr_lbas);
	for (i = 0; i < nr; i++) {
		struct rrpc_heat h = READ_ONCE(rrpc->heat[lba + i]);

		hot += rrpc_heat_bump(&h, epoch);
		if (commit)
			WRITE_ONCE(rrpc->heat[lba + i], h);
	}
	if (commit)
		WRITE_ONCE(rrpc->heat_writes, rrpc->heat_writes + nr);
	return 2 * hot > nr ? RRPC_HOT : RRPC_COLD;
}

/* Copy the request into the write buffer; the map's wb points at it. */
static void rrpc_write_fill(struct rrpc *rrpc, struct request *rq, u32 lba,
			    int temp)
{
	struct req_iterator iter;
	struct bio_vec bv;
	u32 off = 0;

	lockdep_assert_held(&rrpc->wb.lock);
	rq_for_each_segment(bv, rq, iter) {
		u32 done = 0;

		while (done < bv.bv_len) {
			u32 so = off % RRPC_SECTOR_SIZE;
			u32 len = min(bv.bv_len - done, RRPC_SECTOR_SIZE - so);
			struct rrpc_unit *u = rrpc_wb_cur(rrpc, temp);

			memcpy_from_page(page_address(u->pages[u->nr]) + so,
					 bv.bv_page, bv.bv_offset + done, len);
			done += len;
			off += len;
			if (off % RRPC_SECTOR_SIZE)
				continue;

			u->lba[u->nr] = lba;
			rrpc_wb_take_seq(rrpc, u);
			spin_lock(&rrpc->map_lock);
			rrpc->map[lba].wb = u->idx * rrpc->spp + u->nr;
			spin_unlock(&rrpc->map_lock);
			lba++;
			if (++u->nr == rrpc->spp)
				rrpc_wb_queue_cur(rrpc, temp);
		}
	}
}

static blk_status_t rrpc_write_rq(struct rrpc *rrpc, struct request *rq,
				  u32 lba, u32 nr)
{
	struct rrpc_rq *rrq = blk_mq_rq_to_pdu(rq);
	bool wait = false;
	int temp;

	if (READ_ONCE(rrpc->dead))
		return BLK_STS_IOERR;
	if (READ_ONCE(rrpc->nospc))
		return BLK_STS_NOSPC;
	spin_lock(&rrpc->wb.lock);
	/* again under the lock: a FUA write must not wait out of space */
	if (unlikely(rrpc->nospc)) {
		spin_unlock(&rrpc->wb.lock);
		return BLK_STS_NOSPC;
	}
	temp = rrpc_write_temp(rrpc, lba, nr, false);
	if (rrpc_wb_room(rrpc, temp) < nr) {
		/*
		 * rrpc_wb_unit_put() reruns the queue when a unit comes back.
		 * Not BLK_STS_DEV_RESOURCE: that rerun can come before blk-mq
		 * has put this request back on the dispatch list, and with
		 * SCHED_RESTART set blk-mq would then never look at it again
		 * (rrpc completes no other request to restart the queue);
		 * with BLK_STS_RESOURCE blk-mq also reruns it after a delay.
		 */
		rrpc_wb_starved(rrpc);
		spin_unlock(&rrpc->wb.lock);
		return BLK_STS_RESOURCE;
	}
	blk_mq_start_request(rq);
	rrpc_write_temp(rrpc, lba, nr, true);
	rrpc_write_fill(rrpc, rq, lba, temp);
	trace_rrpc_write(rrpc->disk->disk_name, lba, nr,
			 rq->cmd_flags & (REQ_FUA | REQ_PREFLUSH));
	if (rq->cmd_flags & (REQ_FUA | REQ_PREFLUSH))
		wait = rrpc_wb_flush_locked(rrpc, rrq);
	spin_unlock(&rrpc->wb.lock);

	atomic64_add(nr, &rrpc->stats.user_written);
	if (temp == RRPC_HOT)
		atomic64_add(nr, &rrpc->stats.hot_written);
	if (!wait)
		blk_mq_end_request(rq, BLK_STS_OK);
	return BLK_STS_OK;
}

static blk_status_t rrpc_flush_rq(struct rrpc *rrpc, struct request *rq)
{
	bool wait;

	if (READ_ONCE(rrpc->dead) || READ_ONCE(rrpc->nospc))
		return BLK_STS_IOERR;
	spin_lock(&rrpc->wb.lock);
	/*
	 * Again under the lock: out of space, the flushes waiting fail when
	 * GC finds no space (rrpc_lun_set_full()); one queued after that
	 * would wait for GC to look again.
	 */
	if (unlikely(rrpc->nospc)) {
		spin_unlock(&rrpc->wb.lock);
		return BLK_STS_IOERR;
	}
	blk_mq_start_request(rq);
	wait = rrpc_wb_flush_locked(rrpc, blk_mq_rq_to_pdu(rq));
	spin_unlock(&rrpc->wb.lock);
	if (!wait)
		blk_mq_end_request(rq, BLK_STS_OK);
	return BLK_STS_OK;
}

/*
 * Unmap @nr sectors from @lba for the trim record @seq; each block that
 * loses a sector remembers the record (rrpc_block.trim_seq), so that GC
 * does not erase it before the record is on the media.
 * Context: wb.lock held (orders with writes).
 */
static void rrpc_unmap_range(struct rrpc *rrpc, u32 lba, u32 nr, u64 seq)
{
	u32 i, end = lba + nr;

	while (lba < end) {
		u32 n = min(end - lba, (u32)RRPC_MAP_BATCH);

		spin_lock(&rrpc->map_lock);
		for (i = 0; i < n; i++) {
			u32 ppa = rrpc->map[lba + i].ppa;

			if (ppa < rrpc->nr_paddrs) {
				struct rrpc_block *rblk = rrpc_paddr_to_blk(rrpc, ppa);

				rblk->trim_seq = max(rblk->trim_seq, seq);
			}
			rrpc_map_discard(rrpc, lba + i);
		}
		spin_unlock(&rrpc->map_lock);
		lba += n;
	}
}

/*
 * Discard and write-zeroes unmap the range and put a trim record into the
 * write stream: after a flush, a power cut does not bring the old data
 * back (recovery applies the record over every older copy). Out of space
 * with the buffer full, the record waits outside the buffer for GC, which
 * the discard lets resume, to program it; flushes wait for that.
 */
static blk_status_t rrpc_discard_rq(struct rrpc *rrpc, struct request *rq,
				    u32 lba, u32 nr)
{
	struct rrpc_rq *rrq = blk_mq_rq_to_pdu(rq);
	struct rrpc_trim_rec *tr;
	bool wait = false, rec = true;
	int i;

	if (READ_ONCE(rrpc->dead))
		return BLK_STS_IOERR;
	spin_lock(&rrpc->wb.lock);
	if (!rrpc_wb_room(rrpc, RRPC_COLD)) {
		if (!READ_ONCE(rrpc->nospc) ||
		    !rrpc_wb_unbuf_room(rrpc)) {
			rrpc_wb_starved(rrpc);
			spin_unlock(&rrpc->wb.lock);
			return BLK_STS_RESOURCE;
		}
		/* out of space, buffer full: unmap so that GC can resume */
		rec = false;
	}
	blk_mq_start_request(rq);
	if (rec) {
		tr = page_address(rrpc->trim_page);
		memset(tr, 0, RRPC_SECTOR_SIZE);
		tr->magic = cpu_to_le32(RRPC_TRIM_MAGIC);
		tr->nr = cpu_to_le32(1);
		tr->r[0].lba = cpu_to_le32(lba);
		tr->r[0].len = cpu_to_le32(nr);
		wait = rrpc_wb_add_rec(rrpc, RRPC_LBA_TRIM, tr, rrq,
				       rq->cmd_flags & (REQ_FUA | REQ_PREFLUSH));
	} else {
		/* the record waits for GC (every LUN is full: all kicked) */
		rrpc_wb_add_unbuf_trim(rrpc, lba, nr);
		if (rq->cmd_flags & (REQ_FUA | REQ_PREFLUSH))
			wait = rrpc_wb_flush_locked(rrpc, rrq);
	}
	rrpc_unmap_range(rrpc, lba, nr, rrpc_wb_last_seq(rrpc));
	spin_unlock(&rrpc->wb.lock);
	trace_rrpc_discard(rrpc->disk->disk_name, lba, nr,
			   req_op(rq) == REQ_OP_WRITE_ZEROES, rec);

	atomic64_add(nr, &rrpc->stats.discarded);
	for (i = 0; i < rrpc->nr_luns; i++)
		if (!rec || READ_ONCE(rrpc->luns[i].full))
			rrpc_gc_kick(&rrpc->luns[i]);
	if (!wait)
		blk_mq_end_request(rq, BLK_STS_OK);
	return BLK_STS_OK;
}

static blk_status_t rrpc_queue_rq(struct blk_mq_hw_ctx *hctx,
				  const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct rrpc *rrpc = hctx->queue->queuedata;
	u64 lba = blk_rq_pos(rq) >> RRPC_SECT512_SHIFT;
	u64 nr = blk_rq_bytes(rq) >> RRPC_SECTOR_SHIFT;

	if (req_op(rq) == REQ_OP_FLUSH)
		return rrpc_flush_rq(rrpc, rq);

	if (WARN_ON_ONCE(!IS_ALIGNED(blk_rq_pos(rq), RRPC_SECT512_PER_SECTOR) ||
			 !IS_ALIGNED(blk_rq_bytes(rq), RRPC_SECTOR_SIZE) ||
			 lba + nr > rrpc->nr_lbas))
		return BLK_STS_IOERR;

	switch (req_op(rq)) {
	case REQ_OP_READ:
		if (WARN_ON_ONCE(nr > rrpc->max_sectors))
			return BLK_STS_IOERR;
		return rrpc_read_rq(rrpc, rq, lba, nr);
	case REQ_OP_WRITE:
		if (WARN_ON_ONCE(nr > rrpc->max_sectors))
			return BLK_STS_IOERR;
		return rrpc_write_rq(rrpc, rq, lba, nr);
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		return rrpc_discard_rq(rrpc, rq, lba, nr);
	default:
		return BLK_STS_NOTSUPP;
	}
}

const struct blk_mq_ops rrpc_mq_ops = {
	.queue_rq	= rrpc_queue_rq,
};

/* ----------------------------------------------------- write buffer */
