// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: the checkpoint. A clean teardown writes the map, a table of the
 * blocks and the live trim records into free blocks (rrpc_ckpt_write());
 * the next creation reads them instead of scanning every written sector
 * (rrpc_ckpt_load(), called by recovery in rrpc_recover.c once its probe
 * of the first page of every block found a checkpoint and nothing written
 * after it), then erases the checkpoint's blocks (rrpc_ckpt_erase()), so
 * that no later creation trusts it once the media changed.
 */

#include <linux/crc32.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include "rrpc.h"

/**
 * rrpc_ckpt_hdr_valid() - is this a checkpoint header of this format?
 * @h: the first sector of a checkpoint block
 *
 * Return: true if @h has the checkpoint magic, this format's version
 * and a matching CRC.
 */
bool rrpc_ckpt_hdr_valid(const struct rrpc_ckpt_hdr *h)
{
	return rrpc_meta_hdr_valid(&h->hdr, RRPC_CKPT_MAGIC,
				   offsetof(struct rrpc_ckpt_hdr, crc));
}

static u64 rrpc_ckpt_bytes(u64 nr_lbas, u32 nr_blocks, u32 nr_trims)
{
	return nr_lbas * sizeof(__le32) +
	       (u64)nr_blocks * sizeof(struct rrpc_ckpt_blk) +
	       (u64)nr_trims * sizeof(__le32);
}

/* The block and offset of sector @pos of the checkpoint stream. */
static struct rrpc_block *rrpc_ckpt_pos(struct rrpc *rrpc,
					const struct rrpc_ckpt_hdr *h,
					u64 pos, u32 *off)
{
	*off = pos % rrpc->spb;
	return &rrpc->blocks[le32_to_cpu(h->ckpt_blks[pos / rrpc->spb])];
}

/* Read the payload of a checkpoint into @buf; false if it is not intact. */
static bool rrpc_ckpt_read(struct rrpc *rrpc, const struct rrpc_ckpt_hdr *h,
			   void *buf, struct rrpc_unit *pb)
{
	u32 payload = le32_to_cpu(h->payload), off, i, k;
	u64 pos;
	int ret;

	for (pos = 1; pos <= payload; pos += k) {
		struct rrpc_block *rblk = rrpc_ckpt_pos(rrpc, h, pos, &off);
		u32 first = off % rrpc->spp;

		ret = rrpc_scan_read(rrpc, pb, rblk, off - first);
		rrpc->rec.scanned += rrpc->spp;
		if (ret || pb->rqd.error)
			return false;
		k = min_t(u64, rrpc->spp - first, payload + 1 - pos);
		for (i = 0; i < k; i++) {
			const struct rrpc_oob *oob = pb->meta +
				(first + i) * rrpc->geo->oob_size;

			if (!rrpc_oob_ours(rrpc, oob) ||
			    le32_to_cpu(oob->lba) != RRPC_LBA_CKPT ||
			    rrpc_oob_seq(oob) != le64_to_cpu(h->seq))
				return false;
			memcpy(buf + (pos - 1 + i) * RRPC_SECTOR_SIZE,
			       page_address(pb->pages[first + i]),
			       RRPC_SECTOR_SIZE);
		}
	}
	return crc32_le(~0, buf, (size_t)payload * RRPC_SECTOR_SIZE) ==
	       le32_to_cpu(h->payload_crc);
}

/**
 * rrpc_ckpt_matches() - does a checkpoint describe the media as probed?
 * @rrpc: the target
 * @tbl: the checkpoint's block table
 * @probe: %RRPC_PROBE_* of every block
 * @bseq: every block's first sector's sequence number (0: unknown, or
 *	padding)
 * @seq: the checkpoint's sequence number
 *
 * Blocks it says hold data must start with this target's data, older than
 * the checkpoint and not older than the block's lowest number (its
 * min_seq: a block whose min_seq missed what a program reached the media
 * with lets GC drop trim records too early); every other block but its
 * own must be empty, and its own must hold it: any write after the
 * checkpoint (there should be none) shows.
 *
 * Return: true if the checkpoint can be trusted.
 */
bool rrpc_ckpt_matches(struct rrpc *rrpc, const struct rrpc_ckpt_blk *tbl,
		       const u8 *probe, const u64 *bseq, u64 seq)
{
	u32 b, f;

	for (b = 0; b < rrpc->nr_blocks; b++) {
		int st = READ_ONCE(rrpc->blocks[b].parent->state);
		bool good = st == NVM_BLK_ST_FREE;

		f = le32_to_cpu(tbl[b].flags);
		if (f & RRPC_CKPT_F_USED) {
			/* a block retired before GC moved its data: read */
			if ((!good && st != NVM_BLK_ST_BAD) ||
			    probe[b] != RRPC_PROBE_DATA ||
			    bseq[b] >= seq ||
			    (bseq[b] && bseq[b] < le64_to_cpu(tbl[b].min_seq)) ||
			    !le32_to_cpu(tbl[b].next_off) ||
			    le32_to_cpu(tbl[b].next_off) > rrpc->spb)
				return false;
		} else if (f & RRPC_CKPT_F_CKPT) {
			if (good && probe[b] != RRPC_PROBE_CKPT)
				return false;
		} else if (good && probe[b] != RRPC_PROBE_EMPTY) {
			/* free, erased or not: nothing written since */
			return false;
		}
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_ckpt_matches);

/*
 * May the checkpoint put something (a logical sector, a trim or the
 * superblock record) at @paddr? Only inside a block it says holds data, and
 * only once: a sector claimed twice (a stale superblock address over a
 * sector rewritten since, say) means the checkpoint cannot be trusted.
 */
static bool rrpc_ckpt_paddr_ok(struct rrpc *rrpc,
			       const struct rrpc_ckpt_blk *tbl, u32 paddr)
{
	return paddr < rrpc->nr_paddrs &&
	       (le32_to_cpu(tbl[paddr / rrpc->spb].flags) & RRPC_CKPT_F_USED) &&
	       rrpc->p2l[paddr] == RRPC_ADDR_EMPTY;
}

/*
 * Take the state from a checkpoint. Return: 0; -EAGAIN if it cannot be
 * trusted (the caller scans instead); another errno on failure.
 */
int rrpc_ckpt_load(struct rrpc *rrpc, const struct rrpc_ckpt_hdr *h,
		   const u8 *probe, const u64 *bseq,
		   const struct nvm_tgt_conf *conf, u64 *nr_lbas, u32 *op)
{
	u64 n = le64_to_cpu(h->hdr.nr_lbas), lba;
	u32 nr_trims = le32_to_cpu(h->nr_trims);
	u32 nblk = le32_to_cpu(h->nr_ckpt_blks), payload, b, t;
	const struct rrpc_ckpt_blk *tbl;
	const __le32 *map, *trims;
	struct rrpc_unit pb;
	void *buf;
	int ret = -EAGAIN;

	payload = DIV_ROUND_UP_ULL(rrpc_ckpt_bytes(n, rrpc->nr_blocks, nr_trims),
				   RRPC_SECTOR_SIZE);
	if (!rrpc_meta_hdr_fits(rrpc, &h->hdr) ||
	    le32_to_cpu(h->nr_blocks) != rrpc->nr_blocks ||
	    nr_trims > rrpc->nr_paddrs ||
	    le32_to_cpu(h->payload) != payload ||
	    !nblk || nblk > RRPC_CKPT_MAX_BLKS ||
	    (u64)nblk * rrpc->spb < payload + 1)
		return -EAGAIN;
	for (b = 0; b < nblk; b++)
		if (le32_to_cpu(h->ckpt_blks[b]) >= rrpc->nr_blocks ||
		    probe[le32_to_cpu(h->ckpt_blks[b])] != RRPC_PROBE_CKPT)
			return -EAGAIN;
	ret = rrpc_check_op(rrpc, conf, le32_to_cpu(h->hdr.op));
	if (ret)
		return ret;
	ret = -EAGAIN;		/* until the checkpoint proves intact */

	buf = kvmalloc((size_t)payload * RRPC_SECTOR_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (rrpc_pbuf_init(rrpc, &pb)) {
		ret = -ENOMEM;
		goto out;
	}
	if (!rrpc_ckpt_read(rrpc, h, buf, &pb))
		goto out;
	map = buf;
	tbl = buf + n * sizeof(__le32);
	trims = (const void *)(tbl + rrpc->nr_blocks);
	if (!rrpc_ckpt_matches(rrpc, tbl, probe, bseq, le64_to_cpu(h->seq)))
		goto out;

	rrpc->nr_lbas = n;
	rrpc->map = kvmalloc_array(n, sizeof(*rrpc->map), GFP_KERNEL);
	if (!rrpc->map) {
		ret = -ENOMEM;
		goto out;
	}
	for (lba = 0; lba < n; lba++) {
		u32 ppa = le32_to_cpu(map[lba]);

		rrpc->map[lba].wb = RRPC_ADDR_EMPTY;
		rrpc->map[lba].ppa = ppa;
		if (ppa == RRPC_ADDR_EMPTY || ppa == RRPC_ADDR_LOST)
			continue;
		if (!rrpc_ckpt_paddr_ok(rrpc, tbl, ppa))
			goto bad_map;
		rrpc->p2l[ppa] = lba;
	}
	for (t = 0; t < nr_trims; t++) {
		u32 paddr = le32_to_cpu(trims[t]);

		if (!rrpc_ckpt_paddr_ok(rrpc, tbl, paddr))
			goto bad_map;
		rrpc->p2l[paddr] = RRPC_LBA_TRIM;
	}
	/* never over a sector the map or a trim record claims */
	rrpc->sb_paddr = le32_to_cpu(h->sb_paddr);
	if (rrpc->sb_paddr != RRPC_ADDR_EMPTY) {
		if (!rrpc_ckpt_paddr_ok(rrpc, tbl, rrpc->sb_paddr))
			goto bad_map;
		rrpc->p2l[rrpc->sb_paddr] = RRPC_LBA_SB;
	}

	for (b = 0; b < rrpc->nr_blocks; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[b];
		u32 f = le32_to_cpu(tbl[b].flags);

		rblk->erased = f & RRPC_CKPT_F_ERASED;
		if (!(f & RRPC_CKPT_F_USED))
			continue;
		if (!rrpc_claim_data_blk(rrpc, rblk)) {
			rrpc_unclaim_blocks(rrpc);
			goto bad_map;
		}
		rblk->next_off = le32_to_cpu(tbl[b].next_off);
		rblk->min_seq = le64_to_cpu(tbl[b].min_seq);
		rblk->close_seq = le64_to_cpu(tbl[b].close_seq);
		rblk->bad = rblk->bad || (f & RRPC_CKPT_F_BAD);
		rrpc_rec_close_blk(rrpc, rblk);
		if (rblk->close_seq >= (u64)atomic64_read(&rrpc->close_seq))
			atomic64_set(&rrpc->close_seq, rblk->close_seq + 1);
	}
	rrpc_merge_count(rrpc);
	for (lba = 0; lba < n; lba++)
		if (rrpc->map[lba].ppa != RRPC_ADDR_EMPTY)
			rrpc->rec.mapped++;
	rrpc->rec.trims = nr_trims;
	rrpc_wb_set_seq(rrpc, le64_to_cpu(h->seq));
	*nr_lbas = n;
	*op = le32_to_cpu(h->hdr.op);
	ret = 0;
	goto out;

bad_map:
	rrpc_warn(rrpc, "the checkpoint's map does not fit the media; scanning instead\n");
	memset(rrpc->p2l, RRPC_EMPTY_BYTE, rrpc->nr_paddrs * sizeof(*rrpc->p2l));
	kvfree(rrpc->map);
	rrpc->map = NULL;
	rrpc->sb_paddr = RRPC_ADDR_EMPTY;
	ret = -EAGAIN;
out:
	rrpc_unit_free(rrpc, &pb);
	kvfree(buf);
	return ret;
}

/*
 * Erase the checkpoint blocks the probe found: from now on the media
 * changes, and a later creation must not trust the checkpoint.
 */
int rrpc_ckpt_erase(struct rrpc *rrpc, const u8 *probe)
{
	u32 b;
	int ret;

	for (b = 0; b < rrpc->nr_blocks; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[b];

		if (probe[b] != RRPC_PROBE_CKPT || rblk->state != RRPC_BLK_FREE)
			continue;
		ret = rrpc_rec_erase_rblk(rrpc, rblk);
		if (ret == -ENOENT)
			continue;
		if (ret && ret != -EIO) {
			rrpc_err(rrpc, "could not erase the old checkpoint in block %u of LUN %d: %d\n",
				 rblk->parent->id, rblk->rlun->parent->id, ret);
			return ret;
		}
		rblk->erased = !ret;
		rblk->next_off = 0;
	}
	return 0;
}

/**
 * rrpc_ckpt_write() - write a checkpoint of the map at a clean teardown
 * @rrpc: the target: writers and GC stopped, nothing buffered
 *
 * The next creation reads it instead of scanning the LUNs. Skipped (and
 * logged) when the device failed, or there is no room.
 */
void rrpc_ckpt_write(struct rrpc *rrpc)
{
	struct rrpc_block **cblk;
	u32 nr_trims = 0, payload, nblk = 0, need, b, i, t = 0;
	struct rrpc_ckpt_blk *tbl;
	struct rrpc_ckpt_hdr *h;
	__le32 *map, *trims;
	ktime_t start = ktime_get();
	struct rrpc_unit pb;
	u64 paddr, pos, total;
	void *buf;
	int ret;

	if (READ_ONCE(rrpc->dead) || READ_ONCE(rrpc->nospc))
		return;
	for (paddr = 0; paddr < rrpc->nr_paddrs; paddr++)
		if (rrpc->p2l[paddr] == RRPC_LBA_TRIM)
			nr_trims++;
	payload = DIV_ROUND_UP_ULL(rrpc_ckpt_bytes(rrpc->nr_lbas,
						   rrpc->nr_blocks, nr_trims),
				   RRPC_SECTOR_SIZE);
	total = (u64)payload + 1;
	need = DIV_ROUND_UP_ULL(total, rrpc->spb);
	if (need > RRPC_CKPT_MAX_BLKS) {
		rrpc_info(rrpc, "the map needs %u blocks, more than a checkpoint takes: the next creation scans\n",
			  need);
		return;
	}

	ret = rrpc_pbuf_init(rrpc, &pb);
	buf = kvzalloc((size_t)(payload + 1) * RRPC_SECTOR_SIZE, GFP_KERNEL);
	cblk = kcalloc(need, sizeof(*cblk), GFP_KERNEL);
	if (ret || !buf || !cblk) {
		rrpc_info(rrpc, "no memory for a checkpoint: the next creation scans\n");
		goto out;
	}
	for (i = 0; nblk < need && i < need + rrpc->nr_luns; i++) {
		struct rrpc_block *rblk;

		rblk = rrpc_get_blk(&rrpc->luns[i % rrpc->nr_luns], true);
		if (rblk)
			cblk[nblk++] = rblk;
	}
	if (nblk < need) {
		rrpc_info(rrpc, "no free blocks for a checkpoint: the next creation scans\n");
		goto out;
	}

	h = buf;
	map = buf + RRPC_SECTOR_SIZE;
	tbl = (void *)(map + rrpc->nr_lbas);
	trims = (void *)(tbl + rrpc->nr_blocks);
	for (paddr = 0; paddr < rrpc->nr_lbas; paddr++)
		map[paddr] = cpu_to_le32(rrpc->map[paddr].ppa);
	for (b = 0; b < rrpc->nr_blocks; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[b];
		u32 f = 0;

		if (rblk->state == RRPC_BLK_FREE && rblk->erased)
			f = RRPC_CKPT_F_ERASED;
		else if (rblk->state != RRPC_BLK_FREE && rblk->next_off)
			f = RRPC_CKPT_F_USED | (rblk->bad ? RRPC_CKPT_F_BAD : 0);
		tbl[b].next_off = cpu_to_le32(rblk->next_off);
		tbl[b].min_seq = cpu_to_le64(rblk->min_seq);
		tbl[b].close_seq = cpu_to_le64(rblk->close_seq);
		tbl[b].flags = cpu_to_le32(f);
	}
	for (i = 0; i < nblk; i++) {
		tbl[cblk[i]->idx].flags = cpu_to_le32(RRPC_CKPT_F_CKPT);
		h->ckpt_blks[i] = cpu_to_le32(cblk[i]->idx);
	}
	for (paddr = 0; paddr < rrpc->nr_paddrs; paddr++)
		if (rrpc->p2l[paddr] == RRPC_LBA_TRIM)
			trims[t++] = cpu_to_le32(paddr);

	rrpc_meta_hdr_fill(rrpc, &h->hdr, RRPC_CKPT_MAGIC);
	h->nr_blocks = cpu_to_le32(rrpc->nr_blocks);
	h->seq = cpu_to_le64(rrpc_wb_seq(rrpc));
	h->sb_paddr = cpu_to_le32(rrpc->sb_paddr);
	h->nr_trims = cpu_to_le32(nr_trims);
	h->payload = cpu_to_le32(payload);
	h->payload_crc = cpu_to_le32(crc32_le(~0, buf + RRPC_SECTOR_SIZE,
					      (size_t)payload * RRPC_SECTOR_SIZE));
	h->nr_ckpt_blks = cpu_to_le32(nblk);
	h->crc = cpu_to_le32(crc32_le(~0, (const u8 *)h,
				      offsetof(struct rrpc_ckpt_hdr, crc)));

	/* header and payload, page by page; the rest of a page is padding */
	for (pos = 0; pos < total; pos += rrpc->spp) {
		struct rrpc_block *rblk = cblk[pos / rrpc->spb];
		u32 off = pos % rrpc->spb;

		for (i = 0; i < rrpc->spp; i++) {
			struct rrpc_oob *oob = pb.meta + i * rrpc->geo->oob_size;

			if (pos + i < total)
				memcpy(page_address(pb.pages[i]),
				       buf + (pos + i) * RRPC_SECTOR_SIZE,
				       RRPC_SECTOR_SIZE);
			else
				clear_page(page_address(pb.pages[i]));
			oob->lba = cpu_to_le32(RRPC_LBA_CKPT);
			oob->lun_begin = cpu_to_le16(rrpc->lun_begin);
			oob->lun_end = cpu_to_le16(rrpc->lun_end);
			oob->seq = cpu_to_le64(rrpc_wb_seq(rrpc) |
					       (u64)RRPC_FMT_VERSION << RRPC_SEQ_BITS);
		}
		ret = rrpc_page_io(rrpc, &pb, rblk, off, true);
		rblk->erased = false;
		rblk->next_off = off + rrpc->spp;
		if (ret) {
			rrpc_err(rrpc, "writing the checkpoint failed (%d/0x%x): the next creation scans\n",
				 ret, pb.rqd.error);
			goto out;
		}
		atomic64_add(rrpc->spp, &rrpc->stats.media_written);
	}
	rrpc_info(rrpc, "checkpoint of %llu sectors in %u blocks written in %lld ms\n",
		  total, nblk, ktime_ms_delta(ktime_get(), start));
out:
	rrpc_unit_free(rrpc, &pb);
	kfree(cblk);
	kvfree(buf);
}
