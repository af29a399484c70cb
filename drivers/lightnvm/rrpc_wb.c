// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: the write buffer (struct rrpc_wb). Units of one multi-plane page
 * each are filled by user writes and records (rrpc_wb_cur(),
 * rrpc_wb_take_seq(), rrpc_wb_add_rec()), queued in order for the LUN
 * writers (rrpc_wb_queue_cur(), rrpc_wb_take(), rrpc_wb_requeue()), and
 * done once on the media or dropped (rrpc_wb_unit_done(),
 * rrpc_wb_unit_drop()). Flushes and FUA writes wait on the flush list
 * until every unit and trim record before their sequence number is on
 * the media (rrpc_wb_flush_locked()); the trim records not yet on the
 * media are tracked here too (struct rrpc_tpend), and teardown drains the
 * buffer (rrpc_wb_drain()). Locking: rrpc->wb.lock, outermost; see
 * struct rrpc_wb. The I/O path (rrpc_io.c), GC (rrpc_gc.c) and recovery
 * (rrpc_recover.c, rrpc_ckpt.c) use the functions here, not the fields.
 */

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include "rrpc.h"
#include "rrpc_trace.h"

/*
 * A unit is free for filling again once its writer and readers are done.
 * Readers only take a reference while the map points into the unit, and
 * the writer clears those entries before dropping its own: at zero nobody
 * can find the unit any more.
 */
void rrpc_wb_unit_put(struct rrpc *rrpc, struct rrpc_unit *u)
{
	bool run;

	if (!refcount_dec_and_test(&u->ref))
		return;
	spin_lock(&rrpc->wb.lock);
	list_add(&u->list, &rrpc->wb.free);
	rrpc->wb.nr_free++;
	run = rrpc->wb.starved;
	rrpc->wb.starved = false;
	spin_unlock(&rrpc->wb.lock);
	if (run)
		blk_mq_run_hw_queues(rrpc->disk->queue, true);
}

/* Queue the unit being filled at @temp for programming, padded if not full. */
void rrpc_wb_queue_cur(struct rrpc *rrpc, int temp)
{
	struct rrpc_unit *u = rrpc->wb.cur[temp];

	lockdep_assert_held(&rrpc->wb.lock);
	list_add_tail(&u->list, &rrpc->wb.queue);
	rrpc->wb.cur[temp] = NULL;
	rrpc_kick_writer(rrpc, NULL);
}

/* Queue every unit being filled. Return: the padding they take. */
static u32 rrpc_wb_queue_all(struct rrpc *rrpc)
{
	u32 pad = 0;
	int t;

	lockdep_assert_held(&rrpc->wb.lock);
	for (t = 0; t < RRPC_TEMPS; t++) {
		if (!rrpc->wb.cur[t])
			continue;
		pad += rrpc->spp - rrpc->wb.cur[t]->nr;
		rrpc_wb_queue_cur(rrpc, t);
	}
	return pad;
}

/*
 * The unit being filled at @temp, started if there is none: its sequence
 * number is the one its first sector will take, so that units on
 * wb.inflight stay in sequence order.
 */
struct rrpc_unit *rrpc_wb_cur(struct rrpc *rrpc, int temp)
{
	struct rrpc_unit *u = rrpc->wb.cur[temp];

	lockdep_assert_held(&rrpc->wb.lock);
	if (u)
		return u;
	u = list_first_entry(&rrpc->wb.free, struct rrpc_unit, list);
	list_del_init(&u->list);
	rrpc->wb.nr_free--;
	u->nr = 0;
	u->seq = rrpc->wb.seq;
	u->host_tries = 0;
	u->temp = temp;
	refcount_set(&u->ref, 1);
	list_add_tail(&u->inflight, &rrpc->wb.inflight);
	if (list_is_first(&u->inflight, &rrpc->wb.inflight))
		WRITE_ONCE(rrpc->wb.oldest, u->seq);
	rrpc->wb.cur[temp] = u;
	return u;
}

/*
 * The next sector of a user unit takes the next write sequence number,
 * kept in its OOB until it is programmed: sectors of the hot and the cold
 * unit interleave in the write order, and recovery orders the versions of
 * a logical sector by these numbers alone.
 */
void rrpc_wb_take_seq(struct rrpc *rrpc, struct rrpc_unit *u)
{
	struct rrpc_oob *oob = u->meta + u->nr * rrpc->geo->oob_size;

	lockdep_assert_held(&rrpc->wb.lock);
	oob->seq = cpu_to_le64(rrpc->wb.seq++);
}

/* Note a trim record with sequence number @seq, in @unit or in none. */
static void rrpc_wb_tpend_add(struct rrpc *rrpc, u64 seq, u32 lba,
			      u32 len, u32 unit)
{
	struct rrpc_tpend *t;

	lockdep_assert_held(&rrpc->wb.lock);
	if (WARN_ON_ONCE(rrpc->wb.nr_tpend >= rrpc->wb.max_tpend))
		return;
	t = &rrpc->wb.tpend[rrpc->wb.nr_tpend++];
	t->seq = seq;
	t->lba = lba;
	t->len = len;
	t->unit = unit;
	if (unit == RRPC_ADDR_EMPTY)
		WRITE_ONCE(rrpc->wb.nr_unbuf, rrpc->wb.nr_unbuf + 1);
}

/* The write sequence number taken last (by a sector or a record). */
u64 rrpc_wb_last_seq(struct rrpc *rrpc)
{
	lockdep_assert_held(&rrpc->wb.lock);
	return rrpc->wb.seq - 1;
}

/*
 * Whether one more trim record may wait outside the buffer for GC (out of
 * space with the buffer full: rrpc_wb_add_unbuf_trim()).
 */
bool rrpc_wb_unbuf_room(struct rrpc *rrpc)
{
	lockdep_assert_held(&rrpc->wb.lock);
	return rrpc->wb.nr_unbuf < RRPC_TPEND_UNBUF;
}

/*
 * A trim record of @len sectors from @lba that the full buffer has no room
 * for: it takes the next sequence number and waits for GC to program it
 * (rrpc_wb_tpend_copy()); flushes wait for that.
 */
void rrpc_wb_add_unbuf_trim(struct rrpc *rrpc, u32 lba, u32 len)
{
	lockdep_assert_held(&rrpc->wb.lock);
	rrpc_wb_tpend_add(rrpc, rrpc->wb.seq++, lba, len, RRPC_ADDR_EMPTY);
}

/**
 * rrpc_wb_tpend_copy() - fill a GC unit with copies of pending trim records
 * @rrpc: the target
 * @u: the GC unit, empty
 * @max_seq: the records with a sequence number up to this one
 * @unbuf: only those the write buffer had no room for
 *
 * Each copy keeps its record's sequence number (another copy may still be
 * in the write buffer: recovery applies both alike). The records stay
 * pending until rrpc_wb_tpend_written() is told the unit is on the media.
 *
 * Context: process; takes rrpc->wb.lock.
 * Return: the sectors filled, at most one unit's.
 */
u32 rrpc_wb_tpend_copy(struct rrpc *rrpc, struct rrpc_unit *u, u64 max_seq,
		       bool unbuf)
{
	u32 oob_size = rrpc->geo->oob_size, i;

	spin_lock(&rrpc->wb.lock);
	for (i = 0; i < rrpc->wb.nr_tpend && u->nr < rrpc->spp; i++) {
		const struct rrpc_tpend *t = &rrpc->wb.tpend[i];
		struct rrpc_oob *oob = u->meta + u->nr * oob_size;
		struct rrpc_trim_rec *tr = page_address(u->pages[u->nr]);

		if (t->seq > max_seq)
			break;
		if (unbuf && t->unit != RRPC_ADDR_EMPTY)
			continue;
		memset(tr, 0, RRPC_SECTOR_SIZE);
		tr->magic = cpu_to_le32(RRPC_TRIM_MAGIC);
		tr->nr = cpu_to_le32(1);
		tr->r[0].lba = cpu_to_le32(t->lba);
		tr->r[0].len = cpu_to_le32(t->len);
		oob->lba = cpu_to_le32(RRPC_LBA_TRIM);
		oob->lun_begin = cpu_to_le16(rrpc->lun_begin);
		oob->lun_end = cpu_to_le16(rrpc->lun_end);
		oob->seq = cpu_to_le64(t->seq | (u64)RRPC_FMT_VERSION <<
				       RRPC_SEQ_BITS);
		u->lba[u->nr] = RRPC_LBA_TRIM;
		u->old[u->nr] = RRPC_ADDR_EMPTY;
		u->nr++;
	}
	spin_unlock(&rrpc->wb.lock);
	return u->nr;
}

/* Forget entry @i of the pending trim records: it is on the media. */
static void rrpc_wb_tpend_del(struct rrpc *rrpc, u32 i)
{
	lockdep_assert_held(&rrpc->wb.lock);
	if (rrpc->wb.tpend[i].unit == RRPC_ADDR_EMPTY)
		WRITE_ONCE(rrpc->wb.nr_unbuf, rrpc->wb.nr_unbuf - 1);
	rrpc->wb.nr_tpend--;
	memmove(&rrpc->wb.tpend[i], &rrpc->wb.tpend[i + 1],
		(rrpc->wb.nr_tpend - i) * sizeof(*rrpc->wb.tpend));
}

/*
 * The lowest write sequence number that may not be on the media yet: that
 * of the oldest unit in flight, or of a trim record that waits outside the
 * buffer for GC. A flush is done once it is past the flush's number.
 */
static u64 rrpc_wb_horizon(struct rrpc *rrpc)
{
	struct rrpc_unit *first;
	u64 h;
	u32 i;

	lockdep_assert_held(&rrpc->wb.lock);
	first = list_first_entry_or_null(&rrpc->wb.inflight, struct rrpc_unit,
					 inflight);
	h = first ? first->seq : U64_MAX;
	/* in sequence order: the first one outside the buffer is the oldest */
	for (i = 0; rrpc->wb.nr_unbuf && i < rrpc->wb.nr_tpend; i++) {
		if (rrpc->wb.tpend[i].unit == RRPC_ADDR_EMPTY) {
			h = min(h, rrpc->wb.tpend[i].seq);
			break;
		}
	}
	return h;
}

/*
 * Complete the flushes (and FUA writes) whose data is on the media. Once
 * the device is dead or out of space, they fail: what they wait for may
 * not be on the media.
 */
static void rrpc_wb_flush_complete(struct rrpc *rrpc)
{
	struct rrpc_rq *rrq, *tmp;
	blk_status_t st = BLK_STS_OK;
	LIST_HEAD(done);
	u64 h;

	if (READ_ONCE(rrpc->dead) || READ_ONCE(rrpc->nospc))
		st = BLK_STS_IOERR;

	spin_lock(&rrpc->wb.lock);
	h = rrpc_wb_horizon(rrpc);
	list_for_each_entry_safe(rrq, tmp, &rrpc->wb.flush_list, flush_list) {
		if (h < rrq->flush_seq)
			break;
		list_move_tail(&rrq->flush_list, &done);
	}
	spin_unlock(&rrpc->wb.lock);

	list_for_each_entry_safe(rrq, tmp, &done, flush_list) {
		list_del_init(&rrq->flush_list);
		blk_mq_end_request(blk_mq_rq_from_pdu(rrq), st);
	}
}

/**
 * rrpc_wb_tpend_written() - GC programmed copies of pending trim records
 * @rrpc: the target
 * @u: the GC unit it programmed: its %RRPC_LBA_TRIM sectors are the copies
 *
 * The records are on the media now: blocks holding data they unmapped may
 * be erased, and flushes no longer wait for those that were outside the
 * buffer; discards that waited for room to note theirs are run again.
 *
 * Context: process (the LUN's GC work, or teardown).
 */
void rrpc_wb_tpend_written(struct rrpc *rrpc, const struct rrpc_unit *u)
{
	u32 oob_size = rrpc->geo->oob_size, i, k;
	bool run;

	spin_lock(&rrpc->wb.lock);
	for (k = 0; k < u->nr; k++) {
		const struct rrpc_oob *oob = u->meta + k * oob_size;

		if (u->lba[k] != RRPC_LBA_TRIM)
			continue;
		for (i = 0; i < rrpc->wb.nr_tpend; i++) {
			if (rrpc->wb.tpend[i].seq == rrpc_oob_seq(oob)) {
				rrpc_wb_tpend_del(rrpc, i);
				break;
			}
		}
	}
	run = rrpc->wb.starved;
	rrpc->wb.starved = false;
	spin_unlock(&rrpc->wb.lock);
	rrpc_wb_flush_complete(rrpc);
	if (run)
		blk_mq_run_hw_queues(rrpc->disk->queue, true);
}

/*
 * Make @rrq wait until every unit filled so far is on the media, padding
 * the unit being filled, and every trim record noted so far. Returns false
 * if there is nothing to wait for.
 */
bool rrpc_wb_flush_locked(struct rrpc *rrpc, struct rrpc_rq *rrq)
{
	u32 pad;
	int i;

	lockdep_assert_held(&rrpc->wb.lock);
	/* a unit being filled is on wb.inflight */
	if (list_empty(&rrpc->wb.inflight) && !rrpc->wb.nr_unbuf) {
		trace_rrpc_flush(rrpc->disk->disk_name, rrpc->wb.seq, 0, false);
		return false;
	}
	pad = rrpc_wb_queue_all(rrpc);
	trace_rrpc_flush(rrpc->disk->disk_name, rrpc->wb.seq, pad, true);
	rrq->flush_seq = rrpc->wb.seq;
	list_add_tail(&rrq->flush_list, &rrpc->wb.flush_list);
	/* dead: a writer fails it (rrpc_set_dead() kicked them before) */
	if (READ_ONCE(rrpc->dead))
		rrpc_kick_writer(rrpc, NULL);
	/* trim records outside the buffer: GC writes them */
	for (i = 0; rrpc->wb.nr_unbuf && i < rrpc->nr_luns; i++)
		rrpc_gc_kick(&rrpc->luns[i]);
	return true;
}

/*
 * A unit reached the media (or was dropped): its trim records are no longer
 * pending; wake the flushes it held up (rrpc_wb_flush_complete()).
 */
void rrpc_wb_unit_done(struct rrpc *rrpc, struct rrpc_unit *u)
{
	struct rrpc_unit *first;
	bool empty;
	u32 i = 0;

	spin_lock(&rrpc->wb.lock);
	list_del_init(&u->inflight);
	first = list_first_entry_or_null(&rrpc->wb.inflight, struct rrpc_unit,
					 inflight);
	WRITE_ONCE(rrpc->wb.oldest, first ? first->seq : U64_MAX);
	while (i < rrpc->wb.nr_tpend) {
		if (rrpc->wb.tpend[i].unit == u->idx)
			rrpc_wb_tpend_del(rrpc, i);
		else
			i++;
	}
	empty = list_empty(&rrpc->wb.inflight);
	spin_unlock(&rrpc->wb.lock);

	rrpc_wb_flush_complete(rrpc);
	if (empty)
		wake_up_all(&rrpc->wb.wait);
	rrpc_wb_unit_put(rrpc, u);
}

/*
 * A unit that cannot reach the media (the device is dead, or out of space
 * at teardown): reads of its sectors fall back to the media copies, which
 * are older versions; the loss is counted and logged.
 */
void rrpc_wb_unit_drop(struct rrpc *rrpc, struct rrpc_unit *u)
{
	u32 i, n = 0;

	spin_lock(&rrpc->map_lock);
	for (i = 0; i < u->nr; i++) {
		u32 lba = u->lba[i];

		if (lba >= rrpc->nr_lbas)
			continue;
		n++;
		if (rrpc->map[lba].wb == u->idx * rrpc->spp + i)
			rrpc->map[lba].wb = RRPC_ADDR_EMPTY;
	}
	spin_unlock(&rrpc->map_lock);
	atomic64_add(n, &rrpc->stats.dropped);
	if (n)
		rrpc_err_ratelimited(rrpc, "%u buffered sectors (write sequence %llu) could not be written and are lost\n",
				     n, u->seq);
	rrpc_wb_unit_done(rrpc, u);
}

/*
 * End the flushes and FUA writes on @failed (taken off rrpc->wb.flush_list)
 * with -EIO: the target is @why, what they wait for may never reach the
 * media. Context: process, no lock held.
 */
void rrpc_wb_flush_fail(struct rrpc *rrpc, struct list_head *failed,
			const char *why)
{
	struct rrpc_rq *rrq, *tmp;
	u32 n = 0;

	list_for_each_entry_safe(rrq, tmp, failed, flush_list) {
		list_del_init(&rrq->flush_list);
		blk_mq_end_request(blk_mq_rq_from_pdu(rrq), BLK_STS_IOERR);
		n++;
	}
	if (n)
		rrpc_err_ratelimited(rrpc, "%u flushes failed: the target is %s\n",
				     n, why);
}

/* The target is dead: fail every flush waiting. Context: a LUN writer. */
void rrpc_wb_flush_fail_dead(struct rrpc *rrpc)
{
	LIST_HEAD(failed);

	spin_lock(&rrpc->wb.lock);
	rrpc_wb_flush_detach(rrpc, &failed);
	spin_unlock(&rrpc->wb.lock);
	rrpc_wb_flush_fail(rrpc, &failed, "dead");
}

/*
 * Take every flush and FUA write waiting off the flush list onto @out, for
 * rrpc_wb_flush_fail() once the lock is dropped.
 */
void rrpc_wb_flush_detach(struct rrpc *rrpc, struct list_head *out)
{
	lockdep_assert_held(&rrpc->wb.lock);
	list_splice_init(&rrpc->wb.flush_list, out);
}

/* The temperature of the oldest queued unit (cold if none). */
int rrpc_wb_next_temp(struct rrpc *rrpc)
{
	struct rrpc_unit *u;
	int temp;

	spin_lock(&rrpc->wb.lock);
	u = list_first_entry_or_null(&rrpc->wb.queue, struct rrpc_unit, list);
	temp = u ? u->temp : RRPC_COLD;
	spin_unlock(&rrpc->wb.lock);
	return temp;
}

/**
 * rrpc_wb_drain() - program everything buffered and wait for it
 * @rrpc: the target
 *
 * Context: process; no request of the target is in flight any more.
 */
void rrpc_wb_drain(struct rrpc *rrpc)
{
	spin_lock(&rrpc->wb.lock);
	rrpc_wb_queue_all(rrpc);
	spin_unlock(&rrpc->wb.lock);
	wait_event(rrpc->wb.wait, ({
		bool empty;

		spin_lock(&rrpc->wb.lock);
		empty = list_empty(&rrpc->wb.inflight);
		spin_unlock(&rrpc->wb.lock);
		empty;
	}));
}

/*
 * A request found no room (rrpc_wb_room()) and goes back to blk-mq: the
 * next unit that comes back free reruns the queue (rrpc_wb_unit_put()).
 */
void rrpc_wb_starved(struct rrpc *rrpc)
{
	lockdep_assert_held(&rrpc->wb.lock);
	rrpc->wb.starved = true;
}

/* Sectors of @temp the write buffer can take now. */
u32 rrpc_wb_room(struct rrpc *rrpc, int temp)
{
	u32 room = rrpc->wb.nr_free * rrpc->spp;

	lockdep_assert_held(&rrpc->wb.lock);
	if (rrpc->wb.cur[temp])
		room += rrpc->spp - rrpc->wb.cur[temp]->nr;
	return room;
}

/**
 * rrpc_wb_add_rec() - put a record sector into the write buffer
 * @rrpc: the target
 * @marker: %RRPC_LBA_TRIM or %RRPC_LBA_SB
 * @rec: its %RRPC_SECTOR_SIZE bytes
 * @rrq: the request to complete once the record is on the media when
 *	@flush, else unused
 * @flush: pad and queue the unit, and make @rrq wait for it
 *
 * The record takes the next write sequence number, which orders it with
 * the data around it on the media.
 *
 * Context: rrpc->wb.lock held; the buffer has room for one sector.
 * Return: true if @rrq waits for the media.
 */
bool rrpc_wb_add_rec(struct rrpc *rrpc, u32 marker, const void *rec,
		     struct rrpc_rq *rrq, bool flush)
{
	struct rrpc_unit *u;

	lockdep_assert_held(&rrpc->wb.lock);
	u = rrpc_wb_cur(rrpc, RRPC_COLD);
	memcpy(page_address(u->pages[u->nr]), rec, RRPC_SECTOR_SIZE);
	u->lba[u->nr] = marker;
	rrpc_wb_take_seq(rrpc, u);
	if (marker == RRPC_LBA_TRIM) {
		const struct rrpc_trim_rec *tr = rec;

		/* the discard path writes one range per record */
		WARN_ON_ONCE(le32_to_cpu(tr->nr) != 1);
		rrpc_wb_tpend_add(rrpc, rrpc->wb.seq - 1, le32_to_cpu(tr->r[0].lba),
				  le32_to_cpu(tr->r[0].len), u->idx);
	}
	if (++u->nr == rrpc->spp)
		rrpc_wb_queue_cur(rrpc, RRPC_COLD);
	return flush && rrpc_wb_flush_locked(rrpc, rrq);
}

/**
 * rrpc_unit_init() - allocate the buffers of a write unit
 * @rrpc: the target
 * @u: the unit
 * @gc: a GC unit (keeps the source address of each sector)
 *
 * Return: 0 or -ENOMEM; rrpc_unit_free() undoes a partial init.
 */
int rrpc_unit_init(struct rrpc *rrpc, struct rrpc_unit *u, bool gc)
{
	u32 spp = rrpc->spp, i;

	INIT_LIST_HEAD(&u->list);
	INIT_LIST_HEAD(&u->inflight);
	u->lba = kcalloc(spp, sizeof(*u->lba), GFP_KERNEL);
	u->pages = kcalloc(spp, sizeof(*u->pages), GFP_KERNEL);
	u->bvecs = kcalloc(spp, sizeof(*u->bvecs), GFP_KERNEL);
	if (gc)
		u->old = kcalloc(spp, sizeof(*u->old), GFP_KERNEL);
	if (!u->lba || !u->pages || !u->bvecs || (gc && !u->old))
		return -ENOMEM;
	for (i = 0; i < spp; i++) {
		u->pages[i] = alloc_page(GFP_KERNEL);
		if (!u->pages[i])
			return -ENOMEM;
	}

	u->rqd.dev = rrpc->dev;
	u->rqd.nr_ppas = spp;
	if (nvm_alloc_meta(rrpc->dev, &u->rqd, GFP_KERNEL))
		return -ENOMEM;
	u->meta = u->rqd.meta_list;
	u->meta_dma = u->rqd.dma_meta_list;
	memset(u->meta, 0, spp * rrpc->geo->oob_size);
	if (spp > 1) {
		if (nvm_alloc_ppalist(rrpc->dev, &u->rqd, GFP_KERNEL))
			return -ENOMEM;
		u->ppa_list = u->rqd.ppa_list;
		u->ppa_dma = u->rqd.dma_ppa_list;
	}
	return 0;
}

/**
 * rrpc_unit_free() - free what rrpc_unit_init() allocated
 * @rrpc: the target
 * @u: the unit
 */
void rrpc_unit_free(struct rrpc *rrpc, struct rrpc_unit *u)
{
	u32 i;

	memset(&u->rqd, 0, sizeof(u->rqd));
	u->rqd.dev = rrpc->dev;
	u->rqd.nr_ppas = rrpc->spp;
	if (u->ppa_list) {
		u->rqd.ppa_list = u->ppa_list;
		u->rqd.dma_ppa_list = u->ppa_dma;
		nvm_free_ppalist(rrpc->dev, &u->rqd);
		u->ppa_list = NULL;
	}
	if (u->meta) {
		u->rqd.meta_list = u->meta;
		u->rqd.dma_meta_list = u->meta_dma;
		nvm_free_meta(rrpc->dev, &u->rqd);
		u->meta = NULL;
	}
	if (u->pages)
		for (i = 0; i < rrpc->spp; i++)
			if (u->pages[i])
				__free_page(u->pages[i]);
	kfree(u->pages);
	kfree(u->bvecs);
	kfree(u->old);
	kfree(u->lba);
}

/**
 * rrpc_wb_prepare() - the write buffer's lock, lists and sequence state
 * @rrpc: the target
 *
 * What needs no memory, before recovery sets the next sequence number
 * (rrpc_wb_set_seq()) and reads the oldest one in flight (none yet).
 */
void rrpc_wb_prepare(struct rrpc *rrpc)
{
	spin_lock_init(&rrpc->wb.lock);
	INIT_LIST_HEAD(&rrpc->wb.free);
	INIT_LIST_HEAD(&rrpc->wb.queue);
	INIT_LIST_HEAD(&rrpc->wb.inflight);
	INIT_LIST_HEAD(&rrpc->wb.flush_list);
	init_waitqueue_head(&rrpc->wb.wait);
	rrpc->wb.oldest = U64_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_wb_prepare);

/**
 * rrpc_wb_init() - allocate the write buffer
 * @rrpc: the target (spp, nr_luns and max_sectors set; rrpc_wb_prepare()
 *	called)
 *
 * Enough units for every LUN to have a few in flight, up to
 * %RRPC_WB_MAX_BYTES, and always enough for two of the largest requests
 * plus the units being filled (one per temperature). With hot/cold
 * separation (@rrpc->temps), the heat of every logical sector too.
 *
 * Return: 0 or -ENOMEM.
 */
int rrpc_wb_init(struct rrpc *rrpc)
{
	u32 n, i;
	int ret;

	/* a few per LUN, at most RRPC_WB_MAX_BYTES, never too few */
	n = min_t(u32, rrpc->nr_luns * RRPC_UNITS_PER_LUN,
		  RRPC_WB_MAX_BYTES / (rrpc->spp * RRPC_SECTOR_SIZE));
	n = max_t(u32, n, 2 * DIV_ROUND_UP(rrpc->max_sectors, rrpc->spp) +
		  RRPC_TEMPS + 1);
	/* up to 16384 units: beyond kmalloc()'s 4 MiB */
	rrpc->wb.units = kvcalloc(n, sizeof(*rrpc->wb.units), GFP_KERNEL);
	if (!rrpc->wb.units)
		return -ENOMEM;
	rrpc->wb.nr_units = n;
	/* a trim record per buffer sector at most, and those outside it */
	rrpc->wb.max_tpend = n * rrpc->spp + RRPC_TPEND_UNBUF;
	rrpc->wb.tpend = kvcalloc(rrpc->wb.max_tpend,
				  sizeof(*rrpc->wb.tpend), GFP_KERNEL);
	if (!rrpc->wb.tpend) {
		rrpc_wb_free(rrpc);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct rrpc_unit *u = &rrpc->wb.units[i];

		ret = rrpc_unit_init(rrpc, u, false);
		if (ret) {
			rrpc_wb_free(rrpc);
			return ret;
		}
		u->idx = i;
		list_add_tail(&u->list, &rrpc->wb.free);
		rrpc->wb.nr_free++;
	}
	if (rrpc->temps > 1) {
		rrpc->heat = kvcalloc(rrpc->nr_lbas, sizeof(*rrpc->heat),
				      GFP_KERNEL);
		if (!rrpc->heat) {
			rrpc_wb_free(rrpc);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * rrpc_wb_free() - free the write buffer
 * @rrpc: the target, with nothing in flight
 */
void rrpc_wb_free(struct rrpc *rrpc)
{
	u32 i;

	if (!rrpc->wb.units)
		return;
	kvfree(rrpc->heat);
	rrpc->heat = NULL;
	kvfree(rrpc->wb.tpend);
	rrpc->wb.tpend = NULL;
	for (i = 0; i < rrpc->wb.nr_units; i++)
		rrpc_unit_free(rrpc, &rrpc->wb.units[i]);
	kvfree(rrpc->wb.units);
	rrpc->wb.units = NULL;
}

/**
 * rrpc_wb_take() - the oldest queued unit, for the writer of a LUN
 * @rrpc: the target
 * @rlun: the writer's LUN
 * @temp: the temperature its open block was chosen for
 * @drop: the unit is taken to be dropped (no turn, no temperature)
 * @up: the unit taken off the queue, or %NULL when none is queued
 * @lag: with -EBUSY, the LUN whose turn it is
 *
 * Context: process; takes rrpc->wb.lock.
 * Return: 0; -EAGAIN if the oldest unit is not of @temp (another writer
 * took the one looked at: look again); -EBUSY if @rlun is ahead of @lag.
 */
int rrpc_wb_take(struct rrpc *rrpc, struct rrpc_lun *rlun, int temp,
		 bool drop, struct rrpc_unit **up, struct rrpc_lun **lag)
{
	struct rrpc_unit *u;
	int ret = 0;

	spin_lock(&rrpc->wb.lock);
	u = list_first_entry_or_null(&rrpc->wb.queue, struct rrpc_unit, list);
	if (u && !drop && u->temp != temp) {
		ret = -EAGAIN;
	} else if (u && !drop && rrpc_wr_ahead(rrpc, rlun, lag)) {
		ret = -EBUSY;
	} else if (u) {
		list_del_init(&u->list);
		if (!drop)
			rrpc_wr_took(rrpc, rlun);
	}
	spin_unlock(&rrpc->wb.lock);
	*up = ret ? NULL : u;
	return ret;
}

/* A unit whose program failed goes back to the head of the queue. */
void rrpc_wb_requeue(struct rrpc *rrpc, struct rrpc_unit *u)
{
	spin_lock(&rrpc->wb.lock);
	list_add(&u->list, &rrpc->wb.queue);
	spin_unlock(&rrpc->wb.lock);
}

/* The next write sequence number, taken (GC's rewrite of a record). */
u64 rrpc_wb_next_seq(struct rrpc *rrpc)
{
	u64 seq;

	spin_lock(&rrpc->wb.lock);
	seq = rrpc->wb.seq++;
	spin_unlock(&rrpc->wb.lock);
	return seq;
}

/* Put the superblock record @rec into the buffer (rrpc_sb_write()). */
void rrpc_wb_add_sb(struct rrpc *rrpc, const void *rec)
{
	spin_lock(&rrpc->wb.lock);
	rrpc_wb_add_rec(rrpc, RRPC_LBA_SB, rec, NULL, false);
	spin_unlock(&rrpc->wb.lock);
}
