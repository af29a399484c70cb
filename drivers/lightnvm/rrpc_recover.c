// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: the state of a target at creation. Rebuilding the maps from the
 * media (a scan of every written page of the target's LUNs, one worker per
 * LUN, and the merge of what it found: the newest sequence number of each
 * logical sector wins, trim records unmap what is older than them; on an
 * Open-Channel SSD 2.0 device the chunk report tells which chunks hold
 * nothing and where each written one ends, so that only written units are
 * read), the
 * ownership check (a target adopts only sectors written by a target on the
 * same LUN range), the factory wipe (NVM_TARGET_FACTORY) and the
 * superblock record that keeps the target's capacity on the media.
 */

#include <linux/blkdev.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>
#include "rrpc.h"

static_assert(sizeof(struct rrpc_oob) == RRPC_OOB_SIZE);
static_assert(sizeof(struct rrpc_sb_rec) <= RRPC_SECTOR_SIZE);
static_assert(sizeof(struct rrpc_ckpt_hdr) <= RRPC_SECTOR_SIZE);

/* The on-media layout of the records, as format version 1 defined it */
static_assert(sizeof(struct rrpc_meta_hdr) == 36);
static_assert(offsetof(struct rrpc_meta_hdr, nr_lbas) == 16);
static_assert(offsetof(struct rrpc_meta_hdr, op) == 24);
static_assert(offsetof(struct rrpc_meta_hdr, blks_per_lun) == 32);
static_assert(offsetof(struct rrpc_sb_rec, rsvd) == 36);
static_assert(offsetof(struct rrpc_sb_rec, name) == 40);
static_assert(offsetof(struct rrpc_sb_rec, crc) == 72);
static_assert(sizeof(struct rrpc_sb_rec) == 80);
static_assert(offsetof(struct rrpc_ckpt_hdr, nr_blocks) == 36);
static_assert(offsetof(struct rrpc_ckpt_hdr, seq) == 40);
static_assert(offsetof(struct rrpc_ckpt_hdr, sb_paddr) == 48);
static_assert(offsetof(struct rrpc_ckpt_hdr, nr_ckpt_blks) == 64);
static_assert(offsetof(struct rrpc_ckpt_hdr, ckpt_blks) == 68);
static_assert(offsetof(struct rrpc_ckpt_hdr, crc) ==
	      68 + RRPC_CKPT_MAX_BLKS * sizeof(__le32));
static_assert(sizeof(struct rrpc_ckpt_hdr) == 3912);

/**
 * rrpc_meta_hdr_fill() - the common header of a superblock record or a
 *	checkpoint: this target, its capacity and geometry
 * @rrpc: the target (capacity and over-provisioning set)
 * @h: the header to fill
 * @magic: %RRPC_SB_MAGIC or %RRPC_CKPT_MAGIC
 */
void rrpc_meta_hdr_fill(struct rrpc *rrpc, struct rrpc_meta_hdr *h,
			u32 magic)
{
	h->magic = cpu_to_le32(magic);
	h->version = cpu_to_le32(RRPC_FMT_VERSION);
	h->lun_begin = cpu_to_le32(rrpc->lun_begin);
	h->lun_end = cpu_to_le32(rrpc->lun_end);
	h->nr_lbas = cpu_to_le64(rrpc->nr_lbas);
	h->op = cpu_to_le32(rrpc->op);
	h->sec_per_blk = cpu_to_le32(rrpc->spb);
	h->blks_per_lun = cpu_to_le32(rrpc->geo->blks_per_lun);
}

/**
 * rrpc_meta_hdr_valid() - is this a record of this format, intact?
 * @h: the record's header (the record starts with it)
 * @magic: %RRPC_SB_MAGIC or %RRPC_CKPT_MAGIC
 * @crc_off: offset of the record's crc32, which covers all before it
 *
 * Return: true if @h has @magic, this format's version and the record a
 * matching CRC.
 */
bool rrpc_meta_hdr_valid(const struct rrpc_meta_hdr *h, u32 magic,
			 size_t crc_off)
{
	const __le32 *crc = (const void *)h + crc_off;

	return le32_to_cpu(h->magic) == magic &&
	       le32_to_cpu(h->version) == RRPC_FMT_VERSION &&
	       le32_to_cpu(*crc) == crc32_le(~0, (const u8 *)h, crc_off);
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_meta_hdr_valid);

/**
 * rrpc_meta_hdr_fits() - was a valid record written by this target?
 * @rrpc: the target (LUNs and blocks set up)
 * @h: the record's header
 *
 * Return: true if @h names this target's LUN range and the device's
 * geometry, and a capacity the LUNs can hold.
 */
bool rrpc_meta_hdr_fits(struct rrpc *rrpc, const struct rrpc_meta_hdr *h)
{
	u64 n = le64_to_cpu(h->nr_lbas);

	return le32_to_cpu(h->lun_begin) == rrpc->lun_begin &&
	       le32_to_cpu(h->lun_end) == rrpc->lun_end &&
	       le32_to_cpu(h->sec_per_blk) == rrpc->spb &&
	       le32_to_cpu(h->blks_per_lun) == rrpc->geo->blks_per_lun &&
	       n && n < rrpc->nr_paddrs;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_meta_hdr_fits);

/* ------------------------------------------------------ merge (pure logic) */

/**
 * rrpc_merge_data() - a scanned data sector
 * @rrpc: the target (map allocated, all empty before the first call)
 * @lseq: sequence number of what the map holds for each logical sector
 * @lba: the sector's logical address, < rrpc->nr_lbas
 * @seq: its write sequence number
 * @paddr: where it was found
 *
 * The newest sequence number wins. GC copies keep the number of the data
 * they copy: on a tie the copies hold the same data, and the first one
 * seen stays.
 */
void rrpc_merge_data(struct rrpc *rrpc, u64 *lseq, u32 lba, u64 seq,
		     u32 paddr)
{
	struct rrpc_addr *a = &rrpc->map[lba];

	if (a->ppa != RRPC_ADDR_EMPTY && seq <= lseq[lba])
		return;
	a->ppa = paddr;
	lseq[lba] = seq;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_merge_data);

/**
 * rrpc_merge_trim() - a range of a scanned trim record
 * @rrpc: the target, every data sector merged already
 * @lseq: as for rrpc_merge_data()
 * @lba: first logical sector of the range
 * @len: its length (clipped to the capacity)
 * @seq: the record's sequence number
 *
 * Data older than the record is unmapped; newer data stays.
 */
void rrpc_merge_trim(struct rrpc *rrpc, u64 *lseq, u32 lba, u32 len, u64 seq)
{
	u64 end = min_t(u64, (u64)lba + len, rrpc->nr_lbas);
	u64 l;

	for (l = lba; l < end; l++) {
		if (lseq[l] >= seq && rrpc->map[l].ppa != RRPC_ADDR_EMPTY)
			continue;
		rrpc->map[l].ppa = RRPC_ADDR_EMPTY;
		lseq[l] = seq;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_merge_trim);

/**
 * rrpc_merge_count() - per-block valid counts from the merged map
 * @rrpc: the target; p2l holds what each sector was written for, and
 *	live records are marked there
 *
 * A data sector is valid if the map points to it; records count as valid
 * (GC decides about trim records when it reads them).
 */
void rrpc_merge_count(struct rrpc *rrpc)
{
	u64 paddr;
	u32 lba, b;

	for (b = 0; b < rrpc->nr_blocks; b++)
		rrpc->blocks[b].nr_valid = 0;
	for (paddr = 0; paddr < rrpc->nr_paddrs; paddr++) {
		lba = rrpc->p2l[paddr];
		if (lba < rrpc->nr_lbas) {
			if (rrpc->map[lba].ppa != paddr)
				continue;
		} else if (lba != RRPC_LBA_TRIM &&
			   !(lba == RRPC_LBA_SB && paddr == rrpc->sb_paddr)) {
			continue;
		}
		rrpc_paddr_to_blk(rrpc, paddr)->nr_valid++;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_merge_count);

/**
 * rrpc_trim_needed() - may a trim record still suppress data on the media?
 * @rrpc: the target
 * @seq: the record's sequence number
 *
 * Only while a block in use (the record's own included) may hold data
 * older than the record, or the write buffer still has to program some:
 * a unit of the other temperature (or one another LUN is programming)
 * may hold a version the record discarded, which reaches the media
 * after the record. Free blocks are erased before they go back.
 *
 * Context: any.
 * Return: true while the record must be kept, false once it is obsolete.
 */
bool rrpc_trim_needed(struct rrpc *rrpc, u64 seq)
{
	u32 b;

	if (rrpc_wb_oldest(rrpc) < seq)
		return true;

	for (b = 0; b < rrpc->nr_blocks; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[b];

		if (READ_ONCE(rblk->state) != RRPC_BLK_FREE &&
		    READ_ONCE(rblk->min_seq) < seq)
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_trim_needed);

/**
 * rrpc_scan_classify() - what a sector of a scan read holds
 * @error: the read's completion status (0, or %NVM_RSP_*)
 * @status: its ppa_status (0 with an error: every sector failed)
 * @i: the sector's index in the read
 * @oob: the sector's OOB bytes as read
 *
 * Return: %RRPC_SCAN_EMPTY (never programmed since its erase),
 * %RRPC_SCAN_UNREADABLE (a program torn by a power cut, or a media
 * error: never mapped) or %RRPC_SCAN_OK (the OOB can be trusted).
 */
int rrpc_scan_classify(int error, u64 status, u32 i, const struct rrpc_oob *oob)
{
	bool failed = error && (!status || (i < BITS_PER_TYPE(status) &&
					    (status & BIT_ULL(i))));

	if (failed && error == NVM_RSP_ERR_EMPTYPAGE)
		return RRPC_SCAN_EMPTY;
	if (failed && error != NVM_RSP_WARN_HIGHECC)
		return RRPC_SCAN_UNREADABLE;
	/* erased pages of devices that read them as all ones */
	if (le32_to_cpu(oob->lba) == RRPC_LBA_PAD &&
	    le64_to_cpu(oob->seq) == U64_MAX)
		return RRPC_SCAN_EMPTY;
	return RRPC_SCAN_OK;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_scan_classify);

/**
 * rrpc_oob_ours() - was a sector written by this target?
 * @rrpc: the target
 * @oob: the sector's OOB bytes
 *
 * Same on-media format version, same LUN range.
 *
 * Return: true if @oob carries this target's format and LUN range.
 */
bool rrpc_oob_ours(struct rrpc *rrpc, const struct rrpc_oob *oob)
{
	return rrpc_oob_version(oob) == RRPC_FMT_VERSION &&
	       le16_to_cpu(oob->lun_begin) == rrpc->lun_begin &&
	       le16_to_cpu(oob->lun_end) == rrpc->lun_end;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_oob_ours);

/* ------------------------------------------------------------- the scan */

struct rrpc_trim_ent {
	u32	lba;
	u32	len;
	u64	seq;
};

enum {
	RRPC_SCAN_WIPE,		/* NVM_TARGET_FACTORY: erase */
	RRPC_SCAN_PROBE,	/* the first page of every block */
	RRPC_SCAN_FULL,		/* every written page */
};

/* Trim records a LUN's scan makes room for at first (doubled as needed) */
#define RRPC_SCAN_TRIMS_MIN	64

/**
 * struct rrpc_scan - the scan of one LUN, run by its own worker
 * @work: the worker
 * @rlun: the LUN
 * @pseq: sequence number of every scanned sector, by paddr (full scan), or
 *	of the first sector of every block, by index (probe); shared
 * @mode: %RRPC_SCAN_WIPE, %RRPC_SCAN_PROBE or %RRPC_SCAN_FULL
 * @probe: %RRPC_PROBE_* of every block, by index (shared)
 * @ckpt: the newest valid checkpoint header the probe found
 * @have_ckpt: @ckpt is set
 * @err: 0, or the error that stopped the scan
 * @scanned: sectors read (or blocks erased)
 * @torn: sectors that could not be read
 * @foreign: sectors written by another target (or another format)
 * @f_begin: LUN range of the first foreign sector
 * @f_end: see @f_begin
 * @f_ver: its format version
 * @max_seq: highest sequence number seen
 * @sb: the newest valid superblock record seen
 * @sb_seq: its sequence number
 * @sb_paddr: where it is, %RRPC_ADDR_EMPTY if none
 * @trims: ranges of the trim records seen
 * @nr_trims: entries of @trims
 * @nr_recs: trim records seen
 * @cap_trims: allocated entries of @trims
 * @chk: 2.0: the LUN's chunk report, read by its worker, by block in the
 *	LUN (%NULL on 1.2, or when the report failed: then the LUN is
 *	scanned as on 1.2)
 */
struct rrpc_scan {
	struct work_struct	work;
	struct rrpc_lun		*rlun;
	u64			*pseq;
	int			mode;
	u8			*probe;
	struct rrpc_ckpt_hdr	ckpt;
	bool			have_ckpt;
	int			err;
	u64			scanned;
	u32			torn;
	u32			foreign;
	int			f_begin;
	int			f_end;
	int			f_ver;
	u64			max_seq;
	struct rrpc_sb_rec	sb;
	u64			sb_seq;
	u32			sb_paddr;
	struct rrpc_trim_ent	*trims;
	u32			nr_trims;
	u32			nr_recs;
	u32			cap_trims;
	struct nvm_chk_meta	*chk;
};

static int rrpc_scan_add_trim(struct rrpc_scan *sc, u32 lba, u32 len, u64 seq)
{
	if (sc->nr_trims == sc->cap_trims) {
		u32 cap = max_t(u32, RRPC_SCAN_TRIMS_MIN, sc->cap_trims * 2);
		struct rrpc_trim_ent *t;

		t = kvmalloc_array(cap, sizeof(*t), GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		if (sc->trims)
			memcpy(t, sc->trims, sc->nr_trims * sizeof(*t));
		kvfree(sc->trims);
		sc->trims = t;
		sc->cap_trims = cap;
	}
	sc->trims[sc->nr_trims].lba = lba;
	sc->trims[sc->nr_trims].len = len;
	sc->trims[sc->nr_trims].seq = seq;
	sc->nr_trims++;
	return 0;
}

static bool rrpc_sb_valid(const struct rrpc_sb_rec *sb)
{
	return rrpc_meta_hdr_valid(&sb->hdr, RRPC_SB_MAGIC,
				   offsetof(struct rrpc_sb_rec, crc));
}

/* A sector of another target: remember the first one for the message. */
static void rrpc_scan_foreign(struct rrpc_scan *sc, const struct rrpc_oob *oob)
{
	if (sc->foreign++)
		return;
	sc->f_begin = le16_to_cpu(oob->lun_begin);
	sc->f_end = le16_to_cpu(oob->lun_end);
	sc->f_ver = rrpc_oob_version(oob);
}

/* One sector of the scan: what it holds goes into p2l/pseq and @sc. */
static int rrpc_scan_sector(struct rrpc *rrpc, struct rrpc_scan *sc,
			    u32 paddr, const struct rrpc_oob *oob,
			    const void *data)
{
	u32 lba = le32_to_cpu(oob->lba);
	u64 seq = rrpc_oob_seq(oob);
	const struct rrpc_trim_rec *tr = data;
	u32 i, nr;
	int ret;

	if (!rrpc_oob_ours(rrpc, oob)) {
		rrpc_scan_foreign(sc, oob);
		return 0;
	}
	if (lba == RRPC_LBA_PAD)
		return 0;
	sc->max_seq = max(sc->max_seq, seq);
	sc->pseq[paddr] = seq;
	rrpc->p2l[paddr] = lba;

	if (lba == RRPC_LBA_TRIM) {
		nr = le32_to_cpu(tr->nr);
		if (le32_to_cpu(tr->magic) != RRPC_TRIM_MAGIC ||
		    nr > RRPC_TRIM_MAX) {
			rrpc->p2l[paddr] = RRPC_ADDR_EMPTY;
			sc->torn++;
			return 0;
		}
		sc->nr_recs++;
		for (i = 0; i < nr; i++) {
			ret = rrpc_scan_add_trim(sc, le32_to_cpu(tr->r[i].lba),
						 le32_to_cpu(tr->r[i].len), seq);
			if (ret)
				return ret;
		}
	} else if (lba == RRPC_LBA_SB) {
		if (!rrpc_sb_valid(data)) {
			rrpc->p2l[paddr] = RRPC_ADDR_EMPTY;
			sc->torn++;
			return 0;
		}
		if (sc->sb_paddr == RRPC_ADDR_EMPTY || seq > sc->sb_seq) {
			memcpy(&sc->sb, data, sizeof(sc->sb));
			sc->sb_seq = seq;
			sc->sb_paddr = paddr;
		}
	}
	return 0;
}

/*
 * Synchronous page I/O uses a write buffer unit (struct rrpc_unit) for its
 * buffers: one page, bio vector and OOB slot per sector, the PPA list.
 * rrpc_pbuf_init() zeroes it first, so that rrpc_unit_free() is always
 * right, after a failed init too.
 */
int rrpc_pbuf_init(struct rrpc *rrpc, struct rrpc_unit *pb)
{
	memset(pb, 0, sizeof(*pb));
	return rrpc_unit_init(rrpc, pb, false);
}

/*
 * Read (or program) the multi-plane page at sector @off of @rblk with its
 * OOB bytes. For a program, the caller has filled the pages and the OOB.
 * Return: as nvm_submit_io_sync(); pb->rqd.error and ppa_status tell more.
 */
int rrpc_page_io(struct rrpc *rrpc, struct rrpc_unit *pb,
		 struct rrpc_block *rblk, u32 off, bool write)
{
	const struct nvm_geo *geo = rrpc->geo;
	struct nvm_rq *rqd = &pb->rqd;
	u32 spp = rrpc->spp, i;
	int ret;

	memset(rqd, 0, sizeof(*rqd));
	bio_init(&pb->bio, NULL, pb->bvecs, spp,
		 write ? REQ_OP_WRITE : REQ_OP_READ);
	for (i = 0; i < spp; i++) {
		struct ppa_addr p = nvm_blk_off_to_ppa(geo, rblk->ppa, off + i);

		if (spp > 1)
			pb->ppa_list[i] = p;
		else
			rqd->ppa_addr = p;
		__bio_add_page(&pb->bio, pb->pages[i], RRPC_SECTOR_SIZE, 0);
	}
	if (!write)
		memset(pb->meta, RRPC_OOB_ERASED_BYTE, spp * geo->oob_size);
	rqd->dev = rrpc->dev;
	rqd->opcode = write ? NVM_OP_PWRITE : NVM_OP_PREAD;
	rqd->nr_ppas = spp;
	rqd->bio = &pb->bio;
	rqd->meta_list = pb->meta;
	rqd->dma_meta_list = pb->meta_dma;
	if (spp > 1) {
		rqd->ppa_list = pb->ppa_list;
		rqd->dma_ppa_list = pb->ppa_dma;
	}
	ret = nvm_submit_io_sync(rrpc->dev, rqd);
	bio_uninit(&pb->bio);
	return ret;
}

/*
 * Read the page at sector @off of @rblk for the scan, trying again after
 * a host error. A media error is the caller's to classify (per sector:
 * empty, unreadable); only a read that keeps failing for another reason
 * stops the scan.
 * Return: 0, or -EIO after more than %RRPC_HOST_RETRIES host errors in a
 * row.
 */
int rrpc_scan_read(struct rrpc *rrpc, struct rrpc_unit *pb,
		   struct rrpc_block *rblk, u32 off)
{
	int ret, error, tries = 0;

	for (;;) {
		ret = rrpc_page_io(rrpc, pb, rblk, off, false);
		error = pb->rqd.error;
		if ((!ret || error) && (!error || nvm_rsp_is_media(error)))
			return 0;
		if (!rrpc_host_retry(rrpc, RRPC_CMD_CREATE, "a recovery read",
				     ret, error, ++tries))
			break;
	}
	rrpc_err(rrpc, "reading block %u of LUN %d failed: %d/0x%x\n",
		 rblk->parent->id, rblk->rlun->parent->id,
		 ret, error);
	return -EIO;
}

/*
 * Erase a block at creation, trying again after a host error.
 * Return: as nvm_erase_blk(): 0, -EIO for the media (the block went
 * bad), another error after more than %RRPC_HOST_RETRIES host errors
 * in a row.
 */
int rrpc_rec_erase(struct rrpc *rrpc, struct nvm_block *blk)
{
	int ret, tries = 0;

	do {
		ret = nvm_erase_blk(rrpc->dev, blk);
	} while (ret && ret != -EIO &&
		 rrpc_host_retry(rrpc, RRPC_CMD_CREATE, "an erase at creation",
				 ret, 0, ++tries));
	return ret;
}

/*
 * Erase @rblk at creation: claim its block from the media manager, erase
 * it as rrpc_rec_erase() does, give it back.
 * Return: as rrpc_rec_erase(), or -ENOENT if the block cannot be claimed
 * (it is bad or taken).
 */
int rrpc_rec_erase_rblk(struct rrpc *rrpc, struct rrpc_block *rblk)
{
	struct nvm_block *blk;
	int ret;

	blk = nvm_claim_blk(rrpc->dev, rblk->rlun->parent, rblk->parent->id,
			    false);
	if (!blk)
		return -ENOENT;
	ret = rrpc_rec_erase(rrpc, blk);
	nvm_put_blk(rrpc->dev, blk);
	return ret;
}

/*
 * 2.0: read the chunk report of the LUN of @sc into @sc->chk and note each
 * block's chunk state. Without it (no memory, or the device failed the
 * report) the LUN is scanned as on 1.2, page by page to the first empty
 * one: slower, as correct.
 */
static void rrpc_scan_chunks(struct rrpc *rrpc, struct rrpc_scan *sc)
{
	struct rrpc_lun *rlun = sc->rlun;
	u32 b, bpl = rrpc->geo->blks_per_lun;
	struct ppa_addr ppa = { .ppa = 0 };
	int ret;

	sc->chk = NULL;
	if (rrpc->geo->version != NVM_OCSSD_SPEC_20)
		return;
	sc->chk = kvmalloc_array(bpl, sizeof(*sc->chk), GFP_KERNEL);
	if (!sc->chk)
		return;
	ppa.g.ch = rlun->parent->chnl_id;
	ppa.g.lun = rlun->parent->lun_id;
	ret = nvm_get_chunk_meta(rrpc->dev, ppa, bpl, sc->chk);
	if (ret) {
		rrpc_warn(rrpc, "no chunk report for LUN %d (%d): scanning its blocks to their first empty page\n",
			  rlun->parent->id, ret);
		kvfree(sc->chk);
		sc->chk = NULL;
		return;
	}
	for (b = 0; b < bpl; b++)
		rrpc->blocks[rlun->idx * bpl + b].chk_state = sc->chk[b].state;
}

/*
 * 2.0: a block is known erased only if its chunk is free: one closed by a
 * failed write before anything was written to it reads as empty, but takes
 * no write before a reset. Always true on 1.2.
 */
static bool rrpc_chk_free(const struct rrpc_block *rblk)
{
	return !rblk->chk_state || rblk->chk_state == NVM_CHK_ST_FREE;
}

/*
 * Read the pages of one block in programming order, one multi-plane page
 * per command, until the first empty page (2.0: up to the chunk's write
 * pointer). Unreadable sectors (a program torn by a power cut, or a media
 * error) are skipped, never mapped.
 */
static int rrpc_scan_block(struct rrpc *rrpc, struct rrpc_scan *sc,
			   struct rrpc_block *rblk, struct rrpc_unit *pb)
{
	const struct nvm_geo *geo = rrpc->geo;
	u32 spp = rrpc->spp, off, i, nr_empty, end = rrpc->spb;
	int ret;

	/* nothing is written at or past the write pointer */
	if (sc->chk)
		end = min_t(u32, end,
			    DIV_ROUND_UP((u32)sc->chk[rblk->parent->id].wp,
					 spp) * spp);
	rblk->next_off = 0;
	for (off = 0; off < end; off += spp) {
		ret = rrpc_scan_read(rrpc, pb, rblk, off);
		if (ret)
			return ret;
		sc->scanned += spp;
		nr_empty = 0;
		ret = 0;
		for (i = 0; i < spp && !ret; i++) {
			const struct rrpc_oob *oob = pb->meta + i * geo->oob_size;

			switch (rrpc_scan_classify(pb->rqd.error,
						   pb->rqd.ppa_status, i, oob)) {
			case RRPC_SCAN_EMPTY:
				nr_empty++;
				continue;
			case RRPC_SCAN_UNREADABLE:
				sc->torn++;
				continue;
			}
			/* checkpoint sectors: read in the probe, erased later */
			if (le32_to_cpu(oob->lba) == RRPC_LBA_CKPT &&
			    rrpc_oob_ours(rrpc, oob))
				continue;
			ret = rrpc_scan_sector(rrpc, sc,
					       rrpc_blk_paddr(rrpc, rblk, off + i),
					       oob, page_address(pb->pages[i]));
		}
		if (ret)
			return ret;
		if (nr_empty == spp)
			break;
		rblk->next_off = off + spp;
	}
	return 0;
}

/*
 * The probe: the first page of every block tells whether it is empty,
 * holds this target's data, another target's, or a checkpoint (whose
 * header is kept when it is the newest valid one).
 */
static int rrpc_probe_block(struct rrpc *rrpc, struct rrpc_scan *sc,
			    struct rrpc_block *rblk, struct rrpc_unit *pb)
{
	const struct rrpc_oob *oob = pb->meta;
	const struct rrpc_ckpt_hdr *h = page_address(pb->pages[0]);
	bool bad = READ_ONCE(rblk->parent->state) == NVM_BLK_ST_BAD;
	int ret;

	/*
	 * 2.0: a free or offline chunk, or one closed before its first
	 * write, has nothing to read: no command
	 */
	if (sc->chk && (sc->chk[rblk->parent->id].state == NVM_CHK_ST_FREE ||
			sc->chk[rblk->parent->id].state == NVM_CHK_ST_OFFLINE ||
			!sc->chk[rblk->parent->id].wp)) {
		sc->probe[rblk->idx] = RRPC_PROBE_EMPTY;
		return 0;
	}
	ret = rrpc_scan_read(rrpc, pb, rblk, 0);
	if (ret)
		return ret;
	sc->scanned += rrpc->spp;
	switch (rrpc_scan_classify(pb->rqd.error, pb->rqd.ppa_status, 0, oob)) {
	case RRPC_SCAN_EMPTY:
		sc->probe[rblk->idx] = RRPC_PROBE_EMPTY;
		return 0;
	case RRPC_SCAN_UNREADABLE:
		sc->probe[rblk->idx] = RRPC_PROBE_DATA;
		return 0;
	}
	if (!rrpc_oob_ours(rrpc, oob)) {
		/* a bad block keeps what it held: not in the way */
		if (!bad)
			rrpc_scan_foreign(sc, oob);
		sc->probe[rblk->idx] = RRPC_PROBE_FOREIGN;
		return 0;
	}
	if (le32_to_cpu(oob->lba) == RRPC_LBA_WIPE &&
	    le32_to_cpu(*(__le32 *)h) == RRPC_WIPE_MAGIC) {
		sc->probe[rblk->idx] = RRPC_PROBE_WIPE;
		if (sc->pseq)
			sc->pseq[rblk->idx] = rrpc_oob_seq(oob);
		return 0;
	}
	if (le32_to_cpu(oob->lba) != RRPC_LBA_CKPT) {
		sc->probe[rblk->idx] = RRPC_PROBE_DATA;
		if (sc->pseq)
			sc->pseq[rblk->idx] = rrpc_oob_seq(oob);
		return 0;
	}
	sc->probe[rblk->idx] = RRPC_PROBE_CKPT;
	/* one in a bad block could not be erased after its use */
	if (!bad && rrpc_ckpt_hdr_valid(h) &&
	    (!sc->have_ckpt || le64_to_cpu(h->seq) > le64_to_cpu(sc->ckpt.seq))) {
		memcpy(&sc->ckpt, h, sizeof(sc->ckpt));
		sc->have_ckpt = true;
	}
	return 0;
}

/*
 * -f and a block that keeps what it holds (bad, or its erase failed): its
 * highest sequence number of this format goes into @sc->max_seq, so that
 * the new instance starts above it and its data outranks what the block
 * keeps, whether a later scan reads the block as bad or (its grown-bad
 * mark not on the device yet at a power cut) as free. Return: true if the
 * first page holds a readable sector.
 */
static bool rrpc_wipe_max_seq(struct rrpc *rrpc, struct rrpc_scan *sc,
			      struct rrpc_block *rblk, struct rrpc_unit *pb)
{
	const struct nvm_geo *geo = rrpc->geo;
	u32 off, i, nr_empty;

	if (rrpc_scan_read(rrpc, pb, rblk, 0) ||
	    rrpc_scan_classify(pb->rqd.error, pb->rqd.ppa_status, 0,
			       pb->meta) != RRPC_SCAN_OK)
		return false;
	for (off = 0; off < rrpc->spb; off += rrpc->spp) {
		if (off && rrpc_scan_read(rrpc, pb, rblk, off))
			break;
		nr_empty = 0;
		for (i = 0; i < rrpc->spp; i++) {
			const struct rrpc_oob *oob = pb->meta +
						     i * geo->oob_size;

			switch (rrpc_scan_classify(pb->rqd.error,
						   pb->rqd.ppa_status, i,
						   oob)) {
			case RRPC_SCAN_EMPTY:
				nr_empty++;
				break;
			case RRPC_SCAN_OK:
				if (rrpc_oob_ours(rrpc, oob))
					sc->max_seq = max(sc->max_seq,
							  rrpc_oob_seq(oob));
				break;
			}
		}
		if (nr_empty == rrpc->spp)
			break;
	}
	return true;
}

/*
 * -f and a bad block: one retired grown bad may hold a former instance's
 * sectors, which a later scan would adopt (rrpc_claim_blocks()). One whose
 * first page holds a readable sector is erased if the media lets it; it
 * stays bad. The new instance starts above what it holds
 * (rrpc_wipe_max_seq()), in case that erase fails.
 */
static void rrpc_wipe_bad(struct rrpc *rrpc, struct rrpc_scan *sc,
			  struct rrpc_block *rblk, struct rrpc_unit *pb)
{
	struct nvm_block *blk;

	if (READ_ONCE(rblk->parent->state) != NVM_BLK_ST_BAD ||
	    !rrpc_wipe_max_seq(rrpc, sc, rblk, pb))
		return;
	blk = nvm_claim_blk(rrpc->dev, rblk->rlun->parent, rblk->parent->id,
			    true);
	if (!blk)
		return;
	nvm_erase_blk(rrpc->dev, blk);
	nvm_put_blk(rrpc->dev, blk);
}

/* NVM_TARGET_FACTORY: erase every good block of the LUN. */
static int rrpc_wipe_lun(struct rrpc *rrpc, struct rrpc_scan *sc,
			 struct rrpc_unit *pb)
{
	struct rrpc_lun *rlun = sc->rlun;
	u32 b, bpl = rrpc->geo->blks_per_lun;
	struct nvm_block *blk;
	int ret;

	for (b = 0; b < bpl; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[rlun->idx * bpl + b];

		/* the wipe record goes last (rrpc_rec_factory()) */
		if (sc->probe && sc->probe[rblk->idx] == RRPC_PROBE_WIPE)
			continue;
		/* 2.0: a free chunk is as a reset leaves it */
		if (sc->chk && sc->chk[b].state == NVM_CHK_ST_FREE &&
		    READ_ONCE(rblk->parent->state) == NVM_BLK_ST_FREE) {
			rblk->erased = true;
			continue;
		}
		blk = nvm_claim_blk(rrpc->dev, rlun->parent, b, false);
		if (!blk) {
			rrpc_wipe_bad(rrpc, sc, rblk, pb);
			continue;
		}
		ret = rrpc_rec_erase(rrpc, blk);
		nvm_put_blk(rrpc->dev, blk);
		sc->scanned++;
		if (ret == -EIO) {
			/* retired; it keeps the former instance's sectors */
			atomic64_inc(&rrpc->stats.grown_bad);
			rrpc_wipe_max_seq(rrpc, sc, rblk, pb);
			continue;
		}
		if (ret) {
			rrpc_err(rrpc, "erasing block %u of LUN %d failed: %d\n",
				 b, rlun->parent->id, ret);
			return ret;
		}
		rblk->erased = true;
	}
	return 0;
}

static void rrpc_scan_work(struct work_struct *work)
{
	struct rrpc_scan *sc = container_of(work, struct rrpc_scan, work);
	struct rrpc_lun *rlun = sc->rlun;
	struct rrpc *rrpc = rlun->rrpc;
	u32 b, bpl = rrpc->geo->blks_per_lun;
	struct rrpc_unit pb;
	int ret;

	ret = rrpc_pbuf_init(rrpc, &pb);
	rrpc_scan_chunks(rrpc, sc);
	if (sc->mode == RRPC_SCAN_WIPE) {
		sc->err = ret ?: rrpc_wipe_lun(rrpc, sc, &pb);
		goto out;
	}
	for (b = 0; b < bpl && !ret; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[rlun->idx * bpl + b];
		int st = READ_ONCE(rblk->parent->state);

		/* bad blocks too: one retired may hold the newest data */
		if (st != NVM_BLK_ST_FREE && st != NVM_BLK_ST_BAD)
			continue;
		if (sc->mode == RRPC_SCAN_PROBE)
			ret = rrpc_probe_block(rrpc, sc, rblk, &pb);
		else if (sc->probe[rblk->idx] == RRPC_PROBE_DATA)
			ret = rrpc_scan_block(rrpc, sc, rblk, &pb);
		cond_resched();
	}
	sc->err = ret;
out:
	kvfree(sc->chk);
	sc->chk = NULL;
	rrpc_unit_free(rrpc, &pb);
}

/* Run the wipe, probe or scan of every LUN, in parallel. */
static int rrpc_scan_luns(struct rrpc *rrpc, struct rrpc_scan *scans,
			  int mode, u64 *pseq, u8 *probe)
{
	int i, ret = 0;

	for (i = 0; i < rrpc->nr_luns; i++) {
		struct rrpc_scan *sc = &scans[i];

		kvfree(sc->trims);
		memset(sc, 0, sizeof(*sc));
		INIT_WORK(&sc->work, rrpc_scan_work);
		sc->rlun = &rrpc->luns[i];
		sc->pseq = pseq;
		sc->probe = probe;
		sc->mode = mode;
		sc->sb_paddr = RRPC_ADDR_EMPTY;
		queue_work(system_unbound_wq, &sc->work);
	}
	for (i = 0; i < rrpc->nr_luns; i++) {
		flush_work(&scans[i].work);
		rrpc->rec.scanned += scans[i].scanned;
		if (scans[i].err && !ret)
			ret = scans[i].err;
	}
	return ret;
}

/* Log where another target's data was found. Return: how many LUNs. */
static u32 rrpc_report_foreign(struct rrpc *rrpc, struct rrpc_scan *scans)
{
	u32 foreign = 0;
	int i;

	for (i = 0; i < rrpc->nr_luns; i++) {
		struct rrpc_scan *sc = &scans[i];

		if (!sc->foreign || foreign++)
			continue;
		if (sc->f_ver != RRPC_FMT_VERSION)
			rrpc_err(rrpc, "LUN %d of %s holds data this rrpc cannot read (format version %d, this one writes %d); to start over: lnvm create -f (erases LUNs %d-%d)\n",
				 sc->rlun->parent->id, rrpc->dev->name,
				 sc->f_ver, RRPC_FMT_VERSION, rrpc->lun_begin,
				 rrpc->lun_end);
		else
			rrpc_err(rrpc, "LUN %d of %s holds data of another rrpc target, created on LUNs %d-%d; re-create that target with -b %d -e %d, or erase LUNs %d-%d and start empty with lnvm create -f\n",
				 sc->rlun->parent->id, rrpc->dev->name,
				 sc->f_begin, sc->f_end, sc->f_begin, sc->f_end,
				 rrpc->lun_begin, rrpc->lun_end);
	}
	return foreign;
}

/* Probe or scan; -EEXIST (logged) if another target's data is found. */
static int rrpc_scan_owned(struct rrpc *rrpc, struct rrpc_scan *scans,
			   int mode, u64 *pseq, u8 *probe)
{
	int ret = rrpc_scan_luns(rrpc, scans, mode, pseq, probe);

	if (!ret && rrpc_report_foreign(rrpc, scans))
		ret = -EEXIST;
	return ret;
}

/*
 * The over-provisioning of data already on the LUNs: a different one
 * asked for explicitly is refused.
 */
int rrpc_check_op(struct rrpc *rrpc, const struct nvm_tgt_conf *conf,
		  u32 op)
{
	if (!conf->over_prov || conf->over_prov == op)
		return 0;
	rrpc_err(rrpc, "over_prov %d%%: the target on these LUNs was created with %u%%; omit -o to keep its data, or use -f to start over\n",
		 conf->over_prov, op);
	return -EINVAL;
}

/* ---------------------------------------------------------- recovery */

/* The superblock found, or NULL; checked against this target. */
static const struct rrpc_sb_rec *rrpc_pick_sb(struct rrpc *rrpc,
					      struct rrpc_scan *scans)
{
	const struct rrpc_sb_rec *sb = NULL;
	u64 seq = 0;
	int i;

	for (i = 0; i < rrpc->nr_luns; i++) {
		if (scans[i].sb_paddr == RRPC_ADDR_EMPTY ||
		    (sb && scans[i].sb_seq <= seq))
			continue;
		sb = &scans[i].sb;
		seq = scans[i].sb_seq;
		rrpc->sb_paddr = scans[i].sb_paddr;
	}
	if (!sb)
		return NULL;
	if (!rrpc_meta_hdr_fits(rrpc, &sb->hdr)) {
		rrpc_warn(rrpc, "the superblock record on the media does not fit this device's geometry; ignoring it\n");
		rrpc->sb_paddr = RRPC_ADDR_EMPTY;
		return NULL;
	}
	return sb;
}

/*
 * Claim a block that holds data: a free one, or one retired grown bad
 * before its data was moved out, read-only (rblk->bad: GC evacuates it
 * first, then it goes back to the bad list). Return: false if the media
 * manager gives neither.
 */
bool rrpc_claim_data_blk(struct rrpc *rrpc, struct rrpc_block *rblk)
{
	struct nvm_lun *lun = rblk->rlun->parent;

	rblk->bad = false;
	if (nvm_claim_blk(rrpc->dev, lun, rblk->parent->id, false))
		return true;
	if (!nvm_claim_blk(rrpc->dev, lun, rblk->parent->id, true))
		return false;
	rblk->bad = true;
	return true;
}

/*
 * A bad block that holds nothing the merged map needs (no mapped sector,
 * trim record or superblock record: GC had evacuated it) stays with the
 * media manager, its sectors forgotten.
 */
static bool rrpc_bad_unneeded(struct rrpc *rrpc, struct rrpc_block *rblk)
{
	u32 off;

	if (READ_ONCE(rblk->parent->state) != NVM_BLK_ST_BAD || rblk->nr_valid)
		return false;
	for (off = 0; off < rblk->next_off; off++)
		rrpc->p2l[rrpc_blk_paddr(rrpc, rblk, off)] = RRPC_ADDR_EMPTY;
	rblk->next_off = 0;
	return true;
}

/*
 * A claimed block that holds data is closed, a GC candidate (a bad one
 * first); creation counts it.
 */
void rrpc_rec_close_blk(struct rrpc *rrpc, struct rrpc_block *rblk)
{
	rblk->state = RRPC_BLK_CLOSED;
	list_add_tail(&rblk->list, &rblk->rlun->closed);
	rblk->rlun->nr_closed++;
	if (rblk->bad)
		rblk->rlun->nr_bad++;
	rrpc->rec.blocks++;
}

/* Claim the blocks that hold data; blocks found empty are erased. */
static int rrpc_claim_blocks(struct rrpc *rrpc, u64 *pseq)
{
	u32 b, off;

	for (b = 0; b < rrpc->nr_blocks; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[b];
		u64 max = 0;

		if (!rblk->next_off || rrpc_bad_unneeded(rrpc, rblk)) {
			rblk->erased = READ_ONCE(rblk->parent->state) ==
				       NVM_BLK_ST_FREE && rrpc_chk_free(rblk);
			continue;
		}
		if (!rrpc_claim_data_blk(rrpc, rblk)) {
			rrpc_err(rrpc, "block %u of LUN %d holds data but the media manager does not give it\n",
				 rblk->parent->id,
				 rblk->rlun->parent->id);
			return -EIO;
		}
		rblk->min_seq = U64_MAX;
		for (off = 0; off < rblk->next_off; off++) {
			u32 paddr = rrpc_blk_paddr(rrpc, rblk, off);

			if (rrpc->p2l[paddr] == RRPC_ADDR_EMPTY)
				continue;
			rblk->min_seq = min(rblk->min_seq, pseq[paddr]);
			max = max(max, pseq[paddr]);
		}
		/* closed as found: a partly written block takes no more */
		rblk->close_seq = max;
		rrpc_rec_close_blk(rrpc, rblk);
	}
	return 0;
}

/* Put back what rrpc_claim_blocks() claimed (creation failed). */
void rrpc_unclaim_blocks(struct rrpc *rrpc)
{
	u32 b;

	for (b = 0; b < rrpc->nr_blocks; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[b];

		if (rblk->state == RRPC_BLK_FREE)
			continue;
		list_del_init(&rblk->list);
		rblk->state = RRPC_BLK_FREE;
		nvm_put_blk(rrpc->dev, rblk->parent);
	}
}

static void rrpc_merge(struct rrpc *rrpc, struct rrpc_scan *scans, u64 *pseq,
		       u64 *lseq)
{
	u64 paddr, mapped = 0;
	u32 lba, t;
	int i;

	for (paddr = 0; paddr < rrpc->nr_paddrs; paddr++) {
		lba = rrpc->p2l[paddr];
		if (lba == RRPC_LBA_SB && paddr != rrpc->sb_paddr)
			rrpc->p2l[paddr] = RRPC_ADDR_EMPTY;
		if (lba >= rrpc->nr_lbas)
			continue;
		rrpc_merge_data(rrpc, lseq, lba, pseq[paddr], paddr);
	}
	for (i = 0; i < rrpc->nr_luns; i++) {
		for (t = 0; t < scans[i].nr_trims; t++)
			rrpc_merge_trim(rrpc, lseq, scans[i].trims[t].lba,
					scans[i].trims[t].len,
					scans[i].trims[t].seq);
		rrpc->rec.trims += scans[i].nr_recs;
		rrpc->rec.torn += scans[i].torn;
	}
	for (lba = 0; lba < rrpc->nr_lbas; lba++)
		if (rrpc->map[lba].ppa != RRPC_ADDR_EMPTY)
			mapped++;
	rrpc->rec.mapped = mapped;
	rrpc_merge_count(rrpc);
}

/* The state the modes of recovery share: freed by rrpc_recover() */
struct rrpc_rec_state {
	struct rrpc_scan	*scans;		/* per LUN */
	u8			*probe;		/* RRPC_PROBE_* per block */
	u64			*bseq;		/* first sequence number per block */
	u64			*pseq;		/* sequence number per paddr */
	u64			*lseq;		/* sequence number per lba */
};

/* The highest sequence number the LUNs' scans found */
static u64 rrpc_scans_max_seq(struct rrpc *rrpc, struct rrpc_scan *scans)
{
	u64 max_seq = 0;
	int i;

	for (i = 0; i < rrpc->nr_luns; i++)
		max_seq = max(max_seq, scans[i].max_seq);
	return max_seq;
}

/* The map of @nr_lbas sectors, all unmapped */
static int rrpc_map_alloc(struct rrpc *rrpc, u64 nr_lbas)
{
	rrpc->nr_lbas = nr_lbas;
	rrpc->map = kvmalloc_array(rrpc->nr_lbas, sizeof(*rrpc->map),
				   GFP_KERNEL);
	if (!rrpc->map)
		return -ENOMEM;
	memset(rrpc->map, RRPC_EMPTY_BYTE, rrpc->nr_lbas * sizeof(*rrpc->map));
	return 0;
}

static void rrpc_map_free(struct rrpc *rrpc)
{
	kvfree(rrpc->map);
	rrpc->map = NULL;
}

/*
 * An empty target: no block holds its data. Blocks with nothing but
 * unreadable pages are not taken for erased.
 */
static void rrpc_blocks_forget(struct rrpc *rrpc, const u8 *probe)
{
	u32 b;

	for (b = 0; b < rrpc->nr_blocks; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[b];

		if (rrpc->rec.mode == RRPC_REC_NEW)
			rblk->erased = !rblk->next_off &&
				       probe[b] == RRPC_PROBE_EMPTY &&
				       rrpc_chk_free(rblk);
		rblk->next_off = 0;
	}
}

/*
 * The wipe record: page 0 of an empty block, its first sector
 * RRPC_WIPE_MAGIC, its OOB lba RRPC_LBA_WIPE and a sequence number above
 * the first sector of every block and every checkpoint. -f programs it
 * before it erases anything and erases it last, so that a power cut in
 * between never leaves a half-erased target whose older versions of
 * sectors would come back: the next creation without -f finds the record
 * (and nothing newer: rrpc_wipe_pending()) and finishes the wipe.
 */
#define RRPC_WIPE_REC_TRIES	3	/* blocks tried for the wipe record */

static int rrpc_wipe_record_write(struct rrpc *rrpc, struct rrpc_block *rblk,
				  u64 seq)
{
	struct nvm_block *blk;
	struct rrpc_unit pb;
	u32 i;
	int ret;

	blk = nvm_claim_blk(rrpc->dev, rblk->rlun->parent, rblk->parent->id,
			    false);
	if (!blk)
		return -ENOENT;	/* as rrpc_rec_erase_rblk(): not ours to use */
	ret = rrpc_pbuf_init(rrpc, &pb);
	if (ret)
		goto out_put;
	/* the block's first page reads empty: erasing it loses nothing */
	ret = rrpc_rec_erase(rrpc, blk);
	if (ret) {
		/* -EIO: retired grown bad, counted as the wipe's own erases */
		if (ret == -EIO)
			atomic64_inc(&rrpc->stats.grown_bad);
		goto out_free;
	}
	for (i = 0; i < rrpc->spp; i++) {
		struct rrpc_oob *oob = pb.meta + i * rrpc->geo->oob_size;

		clear_page(page_address(pb.pages[i]));
		oob->lba = cpu_to_le32(i ? RRPC_LBA_PAD : RRPC_LBA_WIPE);
		oob->lun_begin = cpu_to_le16(rrpc->lun_begin);
		oob->lun_end = cpu_to_le16(rrpc->lun_end);
		oob->seq = cpu_to_le64(seq |
				       (u64)RRPC_FMT_VERSION << RRPC_SEQ_BITS);
	}
	*(__le32 *)page_address(pb.pages[0]) = cpu_to_le32(RRPC_WIPE_MAGIC);
	ret = rrpc_page_io(rrpc, &pb, rblk, 0, true);
	if (!ret && pb.rqd.error)
		ret = -EIO;
out_free:
	rrpc_unit_free(rrpc, &pb);
out_put:
	nvm_put_blk(rrpc->dev, blk);
	return ret;
}

/* The newest first sequence number of a block or checkpoint of ours */
static u64 rrpc_probe_newest(struct rrpc *rrpc, struct rrpc_rec_state *st,
			     int kind)
{
	u64 seq = 0;
	u32 b;
	int i;

	for (b = 0; b < rrpc->nr_blocks; b++)
		if (st->probe[b] == kind)
			seq = max(seq, st->bseq[b]);
	if (kind == RRPC_PROBE_DATA)
		for (i = 0; i < rrpc->nr_luns; i++)
			if (st->scans[i].have_ckpt)
				seq = max(seq,
					  le64_to_cpu(st->scans[i].ckpt.seq));
	return seq;
}

/*
 * After the probe: a wipe record with nothing newer on the LUNs is a -f
 * that a power cut stopped half-way.
 */
static bool rrpc_wipe_pending(struct rrpc *rrpc, struct rrpc_rec_state *st)
{
	u64 wseq = rrpc_probe_newest(rrpc, st, RRPC_PROBE_WIPE);

	return wseq && rrpc_probe_newest(rrpc, st, RRPC_PROBE_DATA) < wseq;
}

/*
 * -f: before the wipe, the wipe record in an empty block, the only one to
 * keep (RRPC_PROBE_WIPE) while the others are erased; older records go
 * with them. Return: the record's sequence number, 0 if there is none.
 */
static u64 rrpc_wipe_prepare(struct rrpc *rrpc, struct rrpc_rec_state *st)
{
	int ret = -ENOMEM, tries = 0;
	u64 seq;
	u32 b;

	if (!st->bseq)
		st->bseq = kvcalloc(rrpc->nr_blocks, sizeof(*st->bseq),
				    GFP_KERNEL);
	if (!st->bseq)
		goto none;
	ret = rrpc_scan_luns(rrpc, st->scans, RRPC_SCAN_PROBE, st->bseq,
			     st->probe);
	if (ret)
		goto none;
	seq = max(rrpc_probe_newest(rrpc, st, RRPC_PROBE_DATA),
		  rrpc_probe_newest(rrpc, st, RRPC_PROBE_WIPE)) + 1;
	for (b = 0; b < rrpc->nr_blocks; b++)
		if (st->probe[b] == RRPC_PROBE_WIPE)
			st->probe[b] = RRPC_PROBE_DATA;
	ret = -ENOSPC;
	for (b = 0; b < rrpc->nr_blocks; b++) {
		struct rrpc_block *rblk = &rrpc->blocks[b];

		if (st->probe[b] != RRPC_PROBE_EMPTY ||
		    READ_ONCE(rblk->parent->state) != NVM_BLK_ST_FREE)
			continue;
		ret = rrpc_wipe_record_write(rrpc, rblk, seq);
		if (!ret) {
			st->probe[b] = RRPC_PROBE_WIPE;
			return seq;
		}
		/* a block gone bad or not claimable: another, not every one */
		if ((ret != -EIO && ret != -ENOENT) ||
		    ++tries >= RRPC_WIPE_REC_TRIES)
			break;
	}
none:
	rrpc_warn(rrpc, "no wipe record (%d): a power cut during this wipe may leave older versions of sectors readable; create with -f again after one\n",
		  ret);
	return 0;
}

/* -f: erase the wipe record, last */
static int rrpc_wipe_finish(struct rrpc *rrpc, struct rrpc_rec_state *st)
{
	u32 b;
	int ret;

	for (b = 0; b < rrpc->nr_blocks; b++) {
		if (st->probe[b] != RRPC_PROBE_WIPE)
			continue;
		ret = rrpc_rec_erase_rblk(rrpc, &rrpc->blocks[b]);
		if (ret == -ENOENT)
			continue;
		/* a record kept by a bad block is older than the new data */
		if (ret == -EIO)
			atomic64_inc(&rrpc->stats.grown_bad);
		else if (ret)
			return ret;
		st->probe[b] = RRPC_PROBE_EMPTY;
	}
	return 0;
}

/* -f (NVM_TARGET_FACTORY): wipe the LUNs, start an empty target */
static int rrpc_rec_factory(struct rrpc *rrpc, struct rrpc_rec_state *st,
			    u64 nr_lbas)
{
	u64 max_seq, wseq;
	int ret;

	wseq = rrpc_wipe_prepare(rrpc, st);
	ret = rrpc_scan_luns(rrpc, st->scans, RRPC_SCAN_WIPE, NULL,
			     wseq ? st->probe : NULL);
	if (ret)
		return ret;
	ret = rrpc_wipe_finish(rrpc, st);
	if (ret)
		return ret;
	rrpc->rec.mode = RRPC_REC_FACTORY;
	/* above what bad blocks kept (rrpc_wipe_bad()) and the record */
	max_seq = max(rrpc_scans_max_seq(rrpc, st->scans), wseq);
	rrpc_wb_set_seq(rrpc, max_seq + 1);
	atomic64_set(&rrpc->close_seq, max_seq + 1);
	ret = rrpc_map_alloc(rrpc, nr_lbas);
	if (ret)
		return ret;
	rrpc_blocks_forget(rrpc, st->probe);
	return 0;
}

/*
 * Probe the first page of every block: another target's data fails the
 * creation (-EEXIST); a checkpoint is remembered. Return: the newest
 * valid checkpoint header, NULL if none, or an ERR_PTR().
 */
static const struct rrpc_ckpt_hdr *rrpc_rec_probe(struct rrpc *rrpc,
						  struct rrpc_rec_state *st)
{
	const struct rrpc_ckpt_hdr *ckpt = NULL;
	int i, ret;

	st->bseq = kvcalloc(rrpc->nr_blocks, sizeof(*st->bseq), GFP_KERNEL);
	if (!st->bseq)
		return ERR_PTR(-ENOMEM);
	ret = rrpc_scan_owned(rrpc, st->scans, RRPC_SCAN_PROBE, st->bseq,
			      st->probe);
	if (ret)
		return ERR_PTR(ret);
	for (i = 0; i < rrpc->nr_luns; i++)
		if (st->scans[i].have_ckpt &&
		    (!ckpt || le64_to_cpu(st->scans[i].ckpt.seq) >
			      le64_to_cpu(ckpt->seq)))
			ckpt = &st->scans[i].ckpt;
	return ckpt;
}

/*
 * The state from the checkpoint @ckpt of a clean teardown. Return: 0;
 * -EAGAIN if it cannot be trusted (nothing taken from it: scan instead);
 * another errno on failure.
 */
static int rrpc_rec_ckpt(struct rrpc *rrpc, struct rrpc_rec_state *st,
			 const struct rrpc_ckpt_hdr *ckpt,
			 const struct nvm_tgt_conf *conf, u64 *nr_lbas,
			 u32 *op)
{
	int ret;

	ret = rrpc_ckpt_load(rrpc, ckpt, st->probe, st->bseq, conf, nr_lbas,
			     op);
	if (ret)
		return ret;
	rrpc->rec.mode = RRPC_REC_CKPT;
	return 0;
}

/*
 * The state from a scan of every written page: the newest version of each
 * logical sector wins, trim records unmap what is older. LUNs with
 * nothing of this target on them make a new instance (%RRPC_REC_NEW).
 */
static int rrpc_rec_scan(struct rrpc *rrpc, struct rrpc_rec_state *st,
			 const struct nvm_tgt_conf *conf, u64 *nr_lbas,
			 u32 *op)
{
	const struct rrpc_sb_rec *sb;
	u64 max_seq;
	int ret;

	st->pseq = kvcalloc(rrpc->nr_paddrs, sizeof(*st->pseq), GFP_KERNEL);
	if (!st->pseq)
		return -ENOMEM;
	ret = rrpc_scan_owned(rrpc, st->scans, RRPC_SCAN_FULL, st->pseq,
			      st->probe);
	if (ret)
		return ret;
	max_seq = rrpc_scans_max_seq(rrpc, st->scans);
	if (!max_seq) {
		rrpc->rec.mode = RRPC_REC_NEW;
		rrpc_wb_set_seq(rrpc, 1);
		ret = rrpc_map_alloc(rrpc, *nr_lbas);
		if (ret)
			return ret;
		rrpc_blocks_forget(rrpc, st->probe);
		return 0;
	}

	rrpc->rec.mode = RRPC_REC_SCAN;
	sb = rrpc_pick_sb(rrpc, st->scans);
	if (sb) {
		ret = rrpc_check_op(rrpc, conf, le32_to_cpu(sb->hdr.op));
		if (ret)
			return ret;
		*nr_lbas = le64_to_cpu(sb->hdr.nr_lbas);
		*op = le32_to_cpu(sb->hdr.op);
	} else {
		rrpc_warn(rrpc, "no superblock record on the media: assuming the capacity of a new target (%llu sectors)\n",
			  *nr_lbas);
	}
	rrpc_wb_set_seq(rrpc, max_seq + 1);
	atomic64_set(&rrpc->close_seq, max_seq + 1);

	ret = rrpc_map_alloc(rrpc, *nr_lbas);
	if (ret)
		return ret;
	st->lseq = kvcalloc(rrpc->nr_lbas, sizeof(*st->lseq), GFP_KERNEL);
	if (!st->lseq) {
		ret = -ENOMEM;
		goto err_map;
	}
	rrpc_merge(rrpc, st->scans, st->pseq, st->lseq);
	ret = rrpc_claim_blocks(rrpc, st->pseq);
	if (ret) {
		rrpc_unclaim_blocks(rrpc);
		goto err_map;
	}
	return 0;

err_map:
	rrpc_map_free(rrpc);
	return ret;
}

/**
 * rrpc_recover() - the target's state from its LUNs, before it starts
 * @rrpc: the target: LUNs, blocks and p2l set up, map not allocated
 * @conf: the create request (%NVM_TARGET_FACTORY, over_prov)
 * @nr_lbas: the capacity: in, as computed for new instances; out, the
 *	capacity to use
 * @op: over-provisioning, in/out as @nr_lbas
 *
 * With %NVM_TARGET_FACTORY the LUNs are wiped (rrpc_rec_factory()).
 * Otherwise the first page of every block is probed: a checkpoint of a
 * clean teardown gives the state (rrpc_rec_ckpt()); without one, or if it
 * cannot be trusted, every good block is scanned (rrpc_rec_scan()).
 * Sectors of this target's format and LUN range make up the map. Sectors
 * written by another target fail the creation (-EEXIST), with a message
 * that says how to get the LUNs back. On success the map is allocated
 * and filled, the blocks with data are claimed and closed, the old
 * checkpoint is erased, and the write sequence resumes above everything
 * found.
 *
 * Context: process, sleeps.
 * Return: 0 or a negative errno.
 */
int rrpc_recover(struct rrpc *rrpc, const struct nvm_tgt_conf *conf,
		 u64 *nr_lbas, u32 *op)
{
	struct rrpc_rec_state st = {};
	const struct rrpc_ckpt_hdr *ckpt;
	ktime_t start = ktime_get();
	int i, ret;

	rrpc->sb_paddr = RRPC_ADDR_EMPTY;
	/* 4 KiB per LUN, a byte per block: beyond kmalloc() for large targets */
	st.scans = kvcalloc(rrpc->nr_luns, sizeof(*st.scans), GFP_KERNEL);
	st.probe = kvcalloc(rrpc->nr_blocks, sizeof(*st.probe), GFP_KERNEL);
	if (!st.scans || !st.probe) {
		ret = -ENOMEM;
		goto out;
	}

	if (conf->flags & NVM_TARGET_FACTORY) {
		ret = rrpc_rec_factory(rrpc, &st, *nr_lbas);
		if (ret)
			goto out;
		goto done;
	}

	ckpt = rrpc_rec_probe(rrpc, &st);
	ret = PTR_ERR_OR_ZERO(ckpt);
	if (ret)
		goto out;
	if (rrpc_wipe_pending(rrpc, &st)) {
		rrpc_warn(rrpc, "a wipe (lnvm create -f) was cut short: finishing it; the target starts empty\n");
		ret = rrpc_rec_factory(rrpc, &st, *nr_lbas);
		if (ret)
			goto out;
		goto done;
	}
	ret = ckpt ? rrpc_rec_ckpt(rrpc, &st, ckpt, conf, nr_lbas, op) : -EAGAIN;
	if (ret == -EAGAIN) {
		if (ckpt)
			rrpc_warn(rrpc, "the checkpoint on the media is not intact; scanning the LUNs\n");
		ret = rrpc_rec_scan(rrpc, &st, conf, nr_lbas, op);
	}
	if (ret)
		goto out;

	/* from now on the media changes: no later creation may trust it */
	ret = rrpc_ckpt_erase(rrpc, st.probe);
	if (ret) {
		rrpc_unclaim_blocks(rrpc);
		rrpc_map_free(rrpc);
		goto out;
	}
done:
	rrpc->rec.ms = ktime_ms_delta(ktime_get(), start);
out:
	kvfree(st.lseq);
	if (st.scans)
		for (i = 0; i < rrpc->nr_luns; i++)
			kvfree(st.scans[i].trims);
	kvfree(st.scans);
	kvfree(st.probe);
	kvfree(st.bseq);
	kvfree(st.pseq);
	return ret;
}

/**
 * rrpc_sb_fill() - build the target's superblock record
 * @rrpc: the target (capacity and over-provisioning set)
 * @buf: %RRPC_SECTOR_SIZE bytes
 */
void rrpc_sb_fill(struct rrpc *rrpc, void *buf)
{
	struct rrpc_sb_rec *sb = buf;

	memset(buf, 0, RRPC_SECTOR_SIZE);
	rrpc_meta_hdr_fill(rrpc, &sb->hdr, RRPC_SB_MAGIC);
	strscpy(sb->name, rrpc->disk->disk_name, sizeof(sb->name));
	sb->crc = cpu_to_le32(crc32_le(~0, (const u8 *)sb,
				       offsetof(struct rrpc_sb_rec, crc)));
}

/**
 * rrpc_sb_write() - put a superblock record on the media, and wait
 * @rrpc: the target, its writers running
 *
 * Return: 0, or -EIO if it did not reach the media.
 */
int rrpc_sb_write(struct rrpc *rrpc)
{
	void *buf;

	buf = kmalloc(RRPC_SECTOR_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	rrpc_sb_fill(rrpc, buf);

	rrpc_wb_add_sb(rrpc, buf);
	kfree(buf);
	rrpc_wb_drain(rrpc);

	if (READ_ONCE(rrpc->sb_paddr) == RRPC_ADDR_EMPTY) {
		rrpc_err(rrpc, "could not write the superblock record\n");
		return -EIO;
	}
	return 0;
}
