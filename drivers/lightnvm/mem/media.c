// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_mem: the NAND model. Geometry validation, the identity and address
 * format the device reports, and the media itself: sectors programmed in
 * order and once per erase in every (LUN, block, plane), erase of whole
 * blocks, per-sector OOB bytes, the bad block table and the counters.
 * Power cuts: commands that had reached the device when the power went
 * are dropped, applied or (programs) torn, as a seeded PRNG decides, and
 * torn sectors read back as media errors until their block is erased.
 * Open-Channel SSD 2.0 (version 2): the same media seen as chunks (a
 * block across its planes): its logical block addresses are translated to
 * the model's own, writes must be at the chunk's write pointer in units of
 * ws_min, a reset of a free chunk is refused, a failed write closes its
 * chunk early, a failed reset takes it offline; the chunk report is
 * derived from the same state, so that it survives power cycles and cuts
 * as the 1.2 state does.
 * Pure logic with no call into the LightNVM core, so that the KUnit suite
 * in media_test.c drives it directly. Memory is only held for programmed
 * sectors and is given back by the erase of their block: a record (state,
 * OOB bytes) per sector in page-sized segments, and its data: a page, or
 * with data=0 the sector's word when its 4 KiB are one word repeated.
 */

#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "nvm_mem.h"

/* The defaults of the module parameters: 1 GiB. */
const struct nvm_mem_cfg nvm_mem_default_cfg = NVM_MEM_DEFAULT_CFG;

/* Range of every option; num_pln must also be a power of two. */
static const struct nvm_mem_field {
	const char	*name;
	size_t		off;
	u32		min;
	u32		max;
} nvm_mem_fields[] = {
	{ "num_ch", offsetof(struct nvm_mem_cfg, num_ch), 1, NVM_MEM_MAX_CH },
	{ "num_lun", offsetof(struct nvm_mem_cfg, num_lun), 1, NVM_MEM_MAX_LUN },
	{ "num_pln", offsetof(struct nvm_mem_cfg, num_pln), 1, 4 },
	{ "num_blk", offsetof(struct nvm_mem_cfg, num_blk), 1, NVM_MEM_MAX_BLK },
	{ "num_pg", offsetof(struct nvm_mem_cfg, num_pg), 1, NVM_MEM_MAX_PG },
	{ "sec_per_pg", offsetof(struct nvm_mem_cfg, sec_per_pg), 1,
	  NVM_MEM_MAX_SEC_PER_PG },
	{ "oob_size", offsetof(struct nvm_mem_cfg, oob_size), NVM_MEM_MIN_OOB,
	  NVM_MEM_MAX_OOB },
	{ "factory_bad", offsetof(struct nvm_mem_cfg, factory_bad), 0, U32_MAX },
	{ "bb_seed", offsetof(struct nvm_mem_cfg, bb_seed), 0, U32_MAX },
	{ "data", offsetof(struct nvm_mem_cfg, data), 0, 1 },
	{ "version", offsetof(struct nvm_mem_cfg, version), NVM_OCSSD_SPEC_12,
	  NVM_OCSSD_SPEC_20 },
	{ "ws_opt", offsetof(struct nvm_mem_cfg, ws_opt), 0, NVM_MEM_MAX_CLBA },
	{ "mw_cunits", offsetof(struct nvm_mem_cfg, mw_cunits), 0,
	  NVM_MEM_MAX_CLBA },
};

static bool nvm_mem_v2(const struct nvm_mem_media *m)
{
	return m->cfg.version == NVM_OCSSD_SPEC_20;
}

static int nvm_mem_field_check(const struct nvm_mem_field *f, u32 v,
			       const char *name)
{
	if (v < f->min || v > f->max) {
		pr_err("%s: %s=%u out of range (%u..%u)\n", name, f->name, v,
		       f->min, f->max);
		return -EINVAL;
	}
	if (f->off == offsetof(struct nvm_mem_cfg, num_pln) && !is_power_of_2(v)) {
		pr_err("%s: num_pln=%u not supported (1, 2 or 4)\n", name, v);
		return -EINVAL;
	}
	return 0;
}

static u32 nvm_mem_field_get(const struct nvm_mem_cfg *cfg,
			     const struct nvm_mem_field *f)
{
	return *(const u32 *)((const u8 *)cfg + f->off);
}

/**
 * nvm_mem_cfg_get() - read one option by name
 * @cfg: the options
 * @field: option name, as in struct nvm_mem_cfg
 *
 * Return: its value (0 for an unknown name, which is a bug).
 */
u32 nvm_mem_cfg_get(const struct nvm_mem_cfg *cfg, const char *field)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(nvm_mem_fields); i++)
		if (!strcmp(nvm_mem_fields[i].name, field))
			return nvm_mem_field_get(cfg, &nvm_mem_fields[i]);
	WARN_ON_ONCE(1);
	return 0;
}

/**
 * nvm_mem_cfg_set() - set one option after checking its range
 * @cfg: the options
 * @field: option name, as in struct nvm_mem_cfg
 * @val: new value
 * @name: instance name, for the messages
 *
 * Constraints between options are checked by nvm_mem_cfg_validate().
 *
 * Return: 0, or -EINVAL after logging the offending field.
 */
int nvm_mem_cfg_set(struct nvm_mem_cfg *cfg, const char *field, u32 val,
		    const char *name)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(nvm_mem_fields); i++) {
		if (strcmp(nvm_mem_fields[i].name, field))
			continue;
		ret = nvm_mem_field_check(&nvm_mem_fields[i], val, name);
		if (!ret)
			*(u32 *)((u8 *)cfg + nvm_mem_fields[i].off) = val;
		return ret;
	}
	WARN_ON_ONCE(1);
	return -EINVAL;
}

/* ws_opt and mw_cunits: 2.0 options, checked against the chunk's size. */
static int nvm_mem_cfg_validate20(const struct nvm_mem_cfg *cfg,
				  const char *name)
{
	u32 ws_min = cfg->sec_per_pg * cfg->num_pln;
	u32 clba = cfg->num_pg * ws_min;

	if (cfg->version != NVM_OCSSD_SPEC_20) {
		if (cfg->ws_opt || cfg->mw_cunits) {
			pr_err("%s: ws_opt=%u and mw_cunits=%u need version=2 (Open-Channel SSD 2.0)\n",
			       name, cfg->ws_opt, cfg->mw_cunits);
			return -EINVAL;
		}
		return 0;
	}
	if (cfg->ws_opt % ws_min || cfg->ws_opt > clba) {
		pr_err("%s: ws_opt=%u is not a multiple of ws_min (sec_per_pg * num_pln = %u) within a chunk of %u\n",
		       name, cfg->ws_opt, ws_min, clba);
		return -EINVAL;
	}
	if (cfg->mw_cunits > clba) {
		pr_err("%s: mw_cunits=%u exceeds a chunk's %u logical blocks\n",
		       name, cfg->mw_cunits, clba);
		return -EINVAL;
	}
	return 0;
}

/**
 * nvm_mem_cfg_validate() - check the geometry and media options of an instance
 * @cfg: the options
 * @name: instance name, for the messages
 *
 * Checks every field against what the identity can express and what this
 * model can hold; the LightNVM core validates the resulting identity again
 * at registration and may still refuse it (e.g. too many sectors per LUN).
 *
 * Return: 0, or -EINVAL after logging the offending field.
 */
int nvm_mem_cfg_validate(const struct nvm_mem_cfg *cfg, const char *name)
{
	u64 blk_planes;
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(nvm_mem_fields); i++) {
		const struct nvm_mem_field *f = &nvm_mem_fields[i];

		ret = nvm_mem_field_check(f, nvm_mem_field_get(cfg, f), name);
		if (ret)
			return ret;
	}

	blk_planes = (u64)cfg->num_ch * cfg->num_lun * cfg->num_blk *
		     cfg->num_pln;
	if (blk_planes > NVM_MEM_MAX_BLK_PLANES) {
		pr_err("%s: num_ch * num_lun * num_blk * num_pln = %llu blocks, more than %lu\n",
		       name, blk_planes, NVM_MEM_MAX_BLK_PLANES);
		return -EINVAL;
	}
	if (cfg->factory_bad > blk_planes) {
		pr_err("%s: factory_bad=%u exceeds the %llu blocks (per plane) of the device\n",
		       name, cfg->factory_bad, blk_planes);
		return -EINVAL;
	}
	return nvm_mem_cfg_validate20(cfg, name);
}

/**
 * nvm_mem_make_ppaf() - the device address format of a geometry
 * @cfg: validated geometry
 * @ppaf: filled in
 *
 * Fields are packed from bit 0 upwards, each as narrow as its range
 * allows: sector, plane, page, block, LUN, channel.
 */
void nvm_mem_make_ppaf(const struct nvm_mem_cfg *cfg,
		       struct nvm_addr_format *ppaf)
{
	u8 off = 0;

	memset(ppaf, 0, sizeof(*ppaf));
	ppaf->sect_offset = off;
	ppaf->sect_len = order_base_2(cfg->sec_per_pg);
	off += ppaf->sect_len;
	ppaf->pln_offset = off;
	ppaf->pln_len = order_base_2(cfg->num_pln);
	off += ppaf->pln_len;
	ppaf->pg_offset = off;
	ppaf->pg_len = order_base_2(cfg->num_pg);
	off += ppaf->pg_len;
	ppaf->blk_offset = off;
	ppaf->blk_len = order_base_2(cfg->num_blk);
	off += ppaf->blk_len;
	ppaf->lun_offset = off;
	ppaf->lun_len = order_base_2(cfg->num_lun);
	off += ppaf->lun_len;
	ppaf->ch_offset = off;
	ppaf->ch_len = order_base_2(cfg->num_ch);
}

/**
 * nvm_mem_make_lbaf() - the 2.0 LBA format of a geometry
 * @cfg: validated geometry
 * @f: filled in
 *
 * From bit 0 up, each as narrow as its range allows: logical block (of
 * clba), chunk, PU, group, as 2.0 orders them.
 */
void nvm_mem_make_lbaf(const struct nvm_mem_cfg *cfg, struct nvm_addrf20 *f)
{
	u32 clba = cfg->num_pg * cfg->sec_per_pg * cfg->num_pln;

	f->lbk_offset = 0;
	f->lbk_len = order_base_2(clba);
	f->chk_offset = f->lbk_offset + f->lbk_len;
	f->chk_len = order_base_2(cfg->num_blk);
	f->pu_offset = f->chk_offset + f->chk_len;
	f->pu_len = order_base_2(cfg->num_lun);
	f->grp_offset = f->pu_offset + f->pu_len;
	f->grp_len = order_base_2(cfg->num_ch);
}

/*
 * The 2.0 geometry: chunks are blocks across their planes, written in
 * units of a multi-plane page; no vector copy, a free chunk cannot be
 * reset again (as the QEMU model), no limit of open chunks.
 */
static void nvm_mem_make_id20(const struct nvm_mem_cfg *cfg,
			      struct nvm_id20 *g)
{
	u32 ws_min = cfg->sec_per_pg * cfg->num_pln;

	nvm_mem_make_lbaf(cfg, &g->lbaf);
	g->ver_minor = 0;
	g->mccap = 0;
	g->wit = 10;
	g->num_grp = cfg->num_ch;
	g->num_pu = cfg->num_lun;
	g->num_chk = cfg->num_blk;
	g->clba = cfg->num_pg * ws_min;
	g->ws_min = ws_min;
	g->ws_opt = cfg->ws_opt ? cfg->ws_opt : ws_min;
	g->mw_cunits = cfg->mw_cunits;
	g->maxoc = 0;
	g->maxocpu = 0;
	g->trdt = 25000;		/* ns, as 1.2 */
	g->trdm = 50000;
	g->tprt = 300000;
	g->tprm = 600000;
	g->tbet = 2000000;
	g->tbem = 3000000;
	g->csecs = NVM_MEM_SEC_SIZE;
	g->sos = cfg->oob_size;
}

/**
 * nvm_mem_make_identity() - the identity of a geometry
 * @cfg: validated geometry
 * @id: filled in (host endian)
 *
 * Version 1: the OCSSD 1.2 identity, one configuration group of SLC NAND
 * with a bad block table, 4 KiB sectors, multi-plane support matching the
 * planes, and typical SLC timings (they are reported, not emulated).
 * Version 2: the OCSSD 2.0 geometry of the same media (see
 * &struct nvm_mem_cfg), with the same timings.
 */
void nvm_mem_make_identity(const struct nvm_mem_cfg *cfg, struct nvm_id *id)
{
	struct nvm_id_group *g = &id->groups[0];

	memset(id, 0, sizeof(*id));
	if (cfg->version == NVM_OCSSD_SPEC_20) {
		id->ver_id = NVM_OCSSD_SPEC_20;
		nvm_mem_make_id20(cfg, &id->id20);
		return;
	}
	id->ver_id = 1;
	id->cgrps = 1;
	id->cap = NVM_ID_CAP_BBT;
	nvm_mem_make_ppaf(cfg, &id->ppaf);

	g->mtype = 0;			/* NAND */
	g->fmtype = 0;			/* SLC */
	g->num_ch = cfg->num_ch;
	g->num_lun = cfg->num_lun;
	g->num_pln = cfg->num_pln;
	g->num_blk = cfg->num_blk;
	g->num_pg = cfg->num_pg;
	g->fpg_sz = cfg->sec_per_pg * NVM_MEM_SEC_SIZE;
	g->csecs = NVM_MEM_SEC_SIZE;
	g->sos = cfg->oob_size;
	g->trdt = 25000;		/* ns */
	g->trdm = 50000;
	g->tprt = 300000;
	g->tprm = 600000;
	g->tbet = 2000000;
	g->tbem = 3000000;
	/* single-plane always; dual and quad when the planes allow */
	g->mpos = 0x010101;
	if (cfg->num_pln >= 2)
		g->mpos |= 0x020202;
	if (cfg->num_pln >= 4)
		g->mpos |= 0x040404;
	g->mccap = 0;
	g->cpar = 0;
}

/**
 * nvm_mem_encode() - build a device-format address
 * @ppaf: address format of the device
 * @ch: channel
 * @lun: LUN within the channel
 * @blk: block
 * @pl: plane
 * @pg: page
 * @sec: sector in the page
 *
 * Return: the address; values are not range checked.
 */
u64 nvm_mem_encode(const struct nvm_addr_format *ppaf, u32 ch, u32 lun,
		   u32 blk, u32 pl, u32 pg, u32 sec)
{
	return (u64)ch << ppaf->ch_offset | (u64)lun << ppaf->lun_offset |
	       (u64)blk << ppaf->blk_offset | (u64)pl << ppaf->pln_offset |
	       (u64)pg << ppaf->pg_offset | (u64)sec << ppaf->sect_offset;
}

/**
 * nvm_mem_encode_dev() - the address a device of this media's version uses
 * @m: the media
 * @ch: channel (2.0: group)
 * @lun: LUN within the channel (2.0: PU)
 * @blk: block (2.0: chunk)
 * @pl: plane
 * @pg: page
 * @sec: sector in the page
 *
 * 1.2: nvm_mem_encode(). 2.0: the logical block address of that sector,
 * whose logical block in the chunk is @pg * ws_min + @pl * sec_per_pg +
 * @sec (the multi-plane order of a 1.2 target).
 *
 * Return: the address; values are not range checked.
 */
u64 nvm_mem_encode_dev(const struct nvm_mem_media *m, u32 ch, u32 lun,
		       u32 blk, u32 pl, u32 pg, u32 sec)
{
	const struct nvm_addrf20 *f = &m->lbaf;
	u64 lbk;

	if (!nvm_mem_v2(m))
		return nvm_mem_encode(&m->ppaf, ch, lun, blk, pl, pg, sec);
	lbk = (u64)pg * m->ws_min + pl * m->cfg.sec_per_pg + sec;
	return (u64)ch << f->grp_offset | (u64)lun << f->pu_offset |
	       (u64)blk << f->chk_offset | lbk << f->lbk_offset;
}

/*
 * The model's own address of a 2.0 logical block address, or
 * %NVM_MEM_BAD_PPA if it names none (a bit outside the format, or a field
 * beyond the counts).
 */
static u64 nvm_mem_lba_to_ppa(const struct nvm_mem_media *m, u64 lba)
{
	const struct nvm_addrf20 *f = &m->lbaf;
	const struct nvm_mem_cfg *c = &m->cfg;
	u32 top = f->grp_offset + f->grp_len;
	u32 grp, pu, chk, lbk;

	if (top < 64 && lba >> top)
		return NVM_MEM_BAD_PPA;
	grp = nvm_field(lba, f->grp_offset, f->grp_len);
	pu = nvm_field(lba, f->pu_offset, f->pu_len);
	chk = nvm_field(lba, f->chk_offset, f->chk_len);
	lbk = nvm_field(lba, f->lbk_offset, f->lbk_len);
	if (grp >= c->num_ch || pu >= c->num_lun || chk >= c->num_blk ||
	    lbk >= m->clba)
		return NVM_MEM_BAD_PPA;
	return nvm_mem_encode(&m->ppaf, grp, pu, chk,
			      (lbk / c->sec_per_pg) % c->num_pln,
			      lbk / m->ws_min, lbk % c->sec_per_pg);
}

/**
 * nvm_mem_rq_ppa() - the model's address of a request's i-th address
 * @m: the media
 * @rqd: the request (device-format addresses)
 * @i: 0 <= @i < @rqd->nr_ppas
 *
 * 1.2: the address itself. 2.0: the logical block address translated to
 * the model's format, %NVM_MEM_BAD_PPA (which nvm_mem_decode() refuses)
 * if it names no logical block.
 *
 * Context: any.
 * Return: the address.
 */
u64 nvm_mem_rq_ppa(const struct nvm_mem_media *m, const struct nvm_rq *rqd,
		   int i)
{
	u64 ppa = rqd->nr_ppas > 1 ? rqd->ppa_list[i].ppa : rqd->ppa_addr.ppa;

	return nvm_mem_v2(m) ? nvm_mem_lba_to_ppa(m, ppa) : ppa;
}

/**
 * nvm_mem_decode() - split and range check a device-format address
 * @m: the media
 * @ppa: device-format address
 * @a: filled in on success
 *
 * Return: 0, or -EINVAL if a field is beyond the geometry or a bit outside
 * every field is set.
 */
int nvm_mem_decode(const struct nvm_mem_media *m, u64 ppa,
		   struct nvm_mem_addr *a)
{
	const struct nvm_addr_format *f = &m->ppaf;
	const struct nvm_mem_cfg *c = &m->cfg;
	u32 top = f->ch_offset + f->ch_len;
	u32 ch, lun;

	if (top < 64 && ppa >> top)
		return -EINVAL;
	ch = nvm_field(ppa, f->ch_offset, f->ch_len);
	lun = nvm_field(ppa, f->lun_offset, f->lun_len);
	a->blk = nvm_field(ppa, f->blk_offset, f->blk_len);
	a->pl = nvm_field(ppa, f->pln_offset, f->pln_len);
	a->pg = nvm_field(ppa, f->pg_offset, f->pg_len);
	a->sec = nvm_field(ppa, f->sect_offset, f->sect_len);
	if (ch >= c->num_ch || lun >= c->num_lun || a->blk >= c->num_blk ||
	    a->pl >= c->num_pln || a->pg >= c->num_pg ||
	    a->sec >= c->sec_per_pg)
		return -EINVAL;
	a->lun = ch * c->num_lun + lun;
	return 0;
}

/* index of (LUN, block, plane) in wp[] and bbt[] */
static u32 nvm_mem_bp(const struct nvm_mem_media *m, u32 lun, u32 blk, u32 pl)
{
	return (lun * m->cfg.num_blk + blk) * m->cfg.num_pln + pl;
}

/* index of a sector in its LUN's xarray */
static unsigned long nvm_mem_sidx(const struct nvm_mem_media *m,
				  const struct nvm_mem_addr *a)
{
	return ((unsigned long)a->blk * m->cfg.num_pln + a->pl) *
	       m->sec_per_plblk + a->pg * m->cfg.sec_per_pg + a->sec;
}

static bool nvm_mem_is_bad(u8 state)
{
	return state == NVM_BLK_T_BAD || state == NVM_BLK_T_GRWN_BAD;
}

/*
 * Sector records (struct nvm_mem_media): segment @off / seg_secs of the
 * table of plane-block @bp holds the record of sector @off of that plane,
 * at (@off % seg_secs) * rec_size: its state (a byte), its OOB bytes and,
 * with data=0, its word (unaligned). The last segment of a plane-block
 * holds only the sectors left.
 */

/* Bytes of segment @k of a plane-block. */
static u32 nvm_mem_seg_bytes(const struct nvm_mem_media *m, u32 k)
{
	return min(m->seg_secs, m->sec_per_plblk - k * m->seg_secs) *
	       m->rec_size;
}

/* The record of sector @off of plane-block @bp, or NULL. */
static u8 *nvm_mem_rec(const struct nvm_mem_media *m, u32 bp, u32 off)
{
	u8 **tbl = m->recs[bp];
	u8 *seg = tbl ? tbl[off / m->seg_secs] : NULL;

	return seg ? seg + off % m->seg_secs * m->rec_size : NULL;
}

static u8 *nvm_mem_rec_oob(u8 *rec)
{
	return rec + 1;
}

/* data=0 only */
static u64 nvm_mem_rec_word(const struct nvm_mem_media *m, const u8 *rec)
{
	u64 w;

	memcpy(&w, rec + 1 + m->cfg.oob_size, sizeof(w));
	return w;
}

/* The state of sector @off of plane-block @bp, under the LUN lock. */
static u8 nvm_mem_state(const struct nvm_mem_media *m, u32 bp, u32 off)
{
	u8 *rec = nvm_mem_rec(m, bp, off);

	return rec ? *rec : NVM_MEM_S_NONE;
}

/*
 * Under the LUN lock: the record of sector @off of plane-block @bp,
 * installing the spare table *@tbl and segment *@seg where they are
 * missing (the pointers are cleared when taken). NULL when a spare that
 * was needed is missing.
 */
static u8 *nvm_mem_seg_install(struct nvm_mem_media *m, u32 bp, u32 off,
			       u8 ***tbl, u8 **seg)
{
	u32 k = off / m->seg_secs;

	if (!m->recs[bp]) {
		if (!*tbl)
			return NULL;
		m->recs[bp] = *tbl;
		*tbl = NULL;
		atomic_long_inc(&m->nr_tbls);
		atomic_long_add(kmalloc_size_roundup(m->tbl_size),
				&m->rec_bytes);
	}
	if (!m->recs[bp][k]) {
		if (!*seg)
			return NULL;
		m->recs[bp][k] = *seg;
		*seg = NULL;
		atomic_long_inc(&m->nr_segs);
		atomic_long_add(kmalloc_size_roundup(nvm_mem_seg_bytes(m, k)),
				&m->rec_bytes);
	}
	return m->recs[bp][k] + off % m->seg_secs * m->rec_size;
}

/*
 * Allocate the spares that are missing for sector @off; false when out
 * of memory.
 */
static bool nvm_mem_seg_spares(const struct nvm_mem_media *m, u32 off,
			       u8 ***tbl, u8 **seg, gfp_t gfp)
{
	if (!*tbl)
		*tbl = kzalloc(m->tbl_size, gfp);
	if (!*seg)
		*seg = kzalloc(nvm_mem_seg_bytes(m, off / m->seg_secs), gfp);
	return *tbl && *seg;
}

/* Free a segment table taken off the media, with its segments. */
static void nvm_mem_tbl_free(struct nvm_mem_media *m, u8 **tbl)
{
	u32 k;

	if (!tbl)
		return;
	for (k = 0; k < m->segs_per_plblk; k++) {
		if (!tbl[k])
			continue;
		kfree(tbl[k]);
		atomic_long_dec(&m->nr_segs);
		atomic_long_sub(kmalloc_size_roundup(nvm_mem_seg_bytes(m, k)),
				&m->rec_bytes);
	}
	kfree(tbl);
	atomic_long_dec(&m->nr_tbls);
	atomic_long_sub(kmalloc_size_roundup(m->tbl_size), &m->rec_bytes);
}

/**
 * nvm_mem_rand() - next number of a splitmix64 sequence
 * @state: the sequence's state, advanced
 *
 * Deterministic across kernels and architectures: the same seed gives the
 * same numbers everywhere.
 *
 * Context: any; the caller serialises users of @state.
 * Return: the number.
 */
u64 nvm_mem_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void nvm_mem_mark_factory_bad(struct nvm_mem_media *m, u32 total)
{
	u32 want = m->cfg.factory_bad, n;
	u64 state = m->cfg.bb_seed;
	u8 from, to;

	/* pick the smaller of the bad and the good set at random */
	if (want * 2ULL <= total) {
		from = NVM_BLK_T_FREE;
		to = NVM_BLK_T_BAD;
		n = want;
	} else {
		memset(m->bbt, NVM_BLK_T_BAD, total);
		from = NVM_BLK_T_BAD;
		to = NVM_BLK_T_FREE;
		n = total - want;
	}
	while (n) {
		u32 r = mul_u64_u32_shr(nvm_mem_rand(&state) >> 32, total, 32);

		if (m->bbt[r] != from)
			continue;
		m->bbt[r] = to;
		n--;
	}
}

/* (LUN, block, plane) entries of the media */
static u32 nvm_mem_nr_plblks(const struct nvm_mem_media *m)
{
	return m->nr_luns * m->cfg.num_blk * m->cfg.num_pln;
}

/**
 * nvm_mem_media_create() - allocate empty, erased media
 * @cfg: validated geometry
 *
 * Every block starts erased (reads report empty sectors) and good, except
 * @cfg->factory_bad (block, plane) entries marked %NVM_BLK_T_BAD, chosen
 * deterministically from @cfg->bb_seed.
 *
 * Context: process, may sleep.
 * Return: the media or %NULL when out of memory.
 */
struct nvm_mem_media *nvm_mem_media_create(const struct nvm_mem_cfg *cfg)
{
	struct nvm_mem_media *m;
	u32 total, l;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->cfg = *cfg;
	nvm_mem_make_ppaf(cfg, &m->ppaf);
	nvm_mem_make_lbaf(cfg, &m->lbaf);
	m->ws_min = cfg->sec_per_pg * cfg->num_pln;
	m->clba = cfg->num_pg * m->ws_min;
	m->nr_luns = cfg->num_ch * cfg->num_lun;
	m->sec_per_plblk = cfg->num_pg * cfg->sec_per_pg;
	m->rec_size = 1 + cfg->oob_size + (cfg->data ? 0 : sizeof(u64));
	m->seg_secs = min_t(u32, m->sec_per_plblk, PAGE_SIZE / m->rec_size);
	m->segs_per_plblk = DIV_ROUND_UP(m->sec_per_plblk, m->seg_secs);
	m->tbl_size = m->segs_per_plblk * sizeof(*m->recs[0]);
	total = nvm_mem_nr_plblks(m);

	m->sects = kcalloc(m->nr_luns, sizeof(*m->sects), GFP_KERNEL);
	if (!m->sects)
		goto err_free_media;
	m->recs = kvcalloc(total, sizeof(*m->recs), GFP_KERNEL);
	if (!m->recs)
		goto err_free_sects;
	m->wp = kvcalloc(total, sizeof(*m->wp), GFP_KERNEL);
	if (!m->wp)
		goto err_free_recs;
	m->bbt = kvzalloc(total, GFP_KERNEL);
	if (!m->bbt)
		goto err_free_wp;
	m->erase_count = kvcalloc(m->nr_luns * cfg->num_blk,
				  sizeof(*m->erase_count), GFP_KERNEL);
	if (!m->erase_count)
		goto err_free_bbt;
	if (nvm_mem_v2(m)) {
		m->closed = kvzalloc(m->nr_luns * cfg->num_blk, GFP_KERNEL);
		if (!m->closed)
			goto err_free_erase_count;
	}

	for (l = 0; l < m->nr_luns; l++)
		xa_init_flags(&m->sects[l], XA_FLAGS_LOCK_IRQ);
	nvm_mem_mark_factory_bad(m, total);
	spin_lock_init(&m->cut_lock);
	m->cut_rand = NVM_MEM_DEFAULT_CUT_SEED;
	return m;

err_free_erase_count:
	kvfree(m->erase_count);
err_free_bbt:
	kvfree(m->bbt);
err_free_wp:
	kvfree(m->wp);
err_free_recs:
	kvfree(m->recs);
err_free_sects:
	kfree(m->sects);
err_free_media:
	kfree(m);
	return NULL;
}

/**
 * nvm_mem_media_free() - free the media and everything programmed on it
 * @m: the media, or %NULL; no request may be in flight
 *
 * Context: process.
 */
void nvm_mem_media_free(struct nvm_mem_media *m)
{
	struct page *page;
	unsigned long idx;
	u32 l, bp;

	if (!m)
		return;
	for (l = 0; l < m->nr_luns; l++) {
		xa_for_each(&m->sects[l], idx, page)
			__free_page(page);
		xa_destroy(&m->sects[l]);
	}
	for (bp = 0; bp < nvm_mem_nr_plblks(m); bp++)
		nvm_mem_tbl_free(m, m->recs[bp]);
	kvfree(m->closed);
	kvfree(m->erase_count);
	kvfree(m->bbt);
	kvfree(m->wp);
	kvfree(m->recs);
	kfree(m->sects);
	kfree(m);
}

/**
 * nvm_mem_media_clone() - a copy of the media
 * @src: the media; nothing may change it meanwhile
 *
 * Copies what is programmed (data, OOB bytes, states), the write
 * pointers, the bad block table, the erase counts and (2.0) the chunks
 * closed early; the counters but the memory ones start at zero, the
 * power is on and the cut sequence starts from the default seed.
 *
 * Context: process, may sleep.
 * Return: the copy or %NULL when out of memory.
 */
struct nvm_mem_media *nvm_mem_media_clone(const struct nvm_mem_media *src)
{
	u32 total = nvm_mem_nr_plblks(src), bp, k, l;
	struct nvm_mem_media *m;
	struct page *page, *p;
	unsigned long idx;

	m = nvm_mem_media_create(&src->cfg);
	if (!m)
		return NULL;
	memcpy(m->wp, src->wp, total * sizeof(*m->wp));
	memcpy(m->bbt, src->bbt, total);
	memcpy(m->erase_count, src->erase_count,
	       src->nr_luns * src->cfg.num_blk * sizeof(*m->erase_count));
	if (src->closed)
		memcpy(m->closed, src->closed, src->nr_luns * src->cfg.num_blk);
	for (bp = 0; bp < total; bp++) {
		if (!src->recs[bp])
			continue;
		m->recs[bp] = kzalloc(m->tbl_size, GFP_KERNEL);
		if (!m->recs[bp])
			goto err_free_media;
		atomic_long_inc(&m->nr_tbls);
		atomic_long_add(kmalloc_size_roundup(m->tbl_size),
				&m->rec_bytes);
		for (k = 0; k < m->segs_per_plblk; k++) {
			u32 size = nvm_mem_seg_bytes(m, k);

			if (!src->recs[bp][k])
				continue;
			m->recs[bp][k] = kmemdup(src->recs[bp][k], size,
						 GFP_KERNEL);
			if (!m->recs[bp][k])
				goto err_free_media;
			atomic_long_inc(&m->nr_segs);
			atomic_long_add(kmalloc_size_roundup(size),
					&m->rec_bytes);
		}
	}
	for (l = 0; l < src->nr_luns; l++) {
		xa_for_each(&src->sects[l], idx, page) {
			p = alloc_page(GFP_KERNEL);
			if (!p)
				goto err_free_media;
			copy_highpage(p, page);
			if (xa_err(xa_store(&m->sects[l], idx, p, GFP_KERNEL))) {
				__free_page(p);
				goto err_free_media;
			}
			atomic_long_inc(&m->nr_pages);
		}
	}
	atomic_long_set(&m->nr_sects, atomic_long_read(&src->nr_sects));
	return m;

err_free_media:
	nvm_mem_media_free(m);
	return NULL;
}

/**
 * nvm_mem_media_bytes() - memory held for what is programmed
 * @m: the media
 *
 * Data pages, record segments and their tables, as the allocator rounds
 * them; not the per-block state allocated with the media (write pointers,
 * bad block table, erase counts, the tables' pointers).
 *
 * Context: any.
 * Return: bytes.
 */
u64 nvm_mem_media_bytes(const struct nvm_mem_media *m)
{
	return (u64)atomic_long_read(&m->nr_pages) * PAGE_SIZE +
	       atomic_long_read(&m->rec_bytes);
}

/*
 * Whether the @n bytes at @p, found at offset @pos of a sector, are those
 * of the sector's word @word repeated.
 */
static bool nvm_mem_same(const u8 *p, size_t n, size_t pos, u64 word)
{
	const u8 *w = (const u8 *)&word;

	for (; n && (pos % 8 || !IS_ALIGNED((unsigned long)p, 8)); n--)
		if (*p++ != w[pos++ % 8])
			return false;
	for (; n >= 8; n -= 8, p += 8, pos += 8)
		if (*(const u64 *)p != word)
			return false;
	for (; n; n--)
		if (*p++ != w[pos++ % 8])
			return false;
	return true;
}

/* Whether the sector at @iter of @bio is its first 8 bytes repeated. */
static bool nvm_mem_bio_is_word(struct bio *bio, struct bvec_iter iter,
				u64 *word)
{
	struct bvec_iter it = iter;
	size_t pos = 0;

	nvm_mem_bio_copy(bio, &it, word, sizeof(*word), false);
	while (pos < NVM_MEM_SEC_SIZE && iter.bi_size) {
		struct bio_vec bv = bio_iter_iovec(bio, iter);
		unsigned int n = min_t(size_t, bv.bv_len,
				       NVM_MEM_SEC_SIZE - pos);
		void *p = bvec_kmap_local(&bv);
		bool same = nvm_mem_same(p, n, pos, *word);

		kunmap_local(p);
		if (!same)
			return false;
		bio_advance_iter_single(bio, &iter, n);
		pos += n;
	}
	return pos == NVM_MEM_SEC_SIZE;
}

static void nvm_mem_sect_oob(const struct nvm_mem_media *m,
			     struct nvm_mem_sect *s, const u8 *oob)
{
	if (oob)
		memcpy(s->oob, oob, m->cfg.oob_size);
	else
		memset(s->oob, 0xff, m->cfg.oob_size);
}

/**
 * nvm_mem_sect_set() - prepare what the program of one sector stores
 * @m: the media
 * @s: filled in; release it with nvm_mem_sect_put()
 * @buf: the sector's 4 KiB
 * @oob: its OOB bytes, or %NULL for 0xff
 * @gfp: allocation flags for its page
 *
 * With data=0, a sector whose 4 KiB are its first 8 bytes repeated is
 * stored as those 8 bytes; any other sector (every sector with data=1)
 * takes a page, allocated here.
 *
 * Context: any; may sleep only if @gfp allows it.
 * Return: 0, or -ENOMEM (nothing to release).
 */
int nvm_mem_sect_set(const struct nvm_mem_media *m, struct nvm_mem_sect *s,
		     const void *buf, const u8 *oob, gfp_t gfp)
{
	nvm_mem_sect_oob(m, s, oob);
	memcpy(&s->word, buf, sizeof(s->word));
	s->page = NULL;
	if (!m->cfg.data && nvm_mem_same(buf, NVM_MEM_SEC_SIZE, 0, s->word))
		return 0;
	s->page = alloc_page(gfp);
	if (!s->page)
		return -ENOMEM;
	memcpy(page_address(s->page), buf, NVM_MEM_SEC_SIZE);
	return 0;
}

/*
 * nvm_mem_sect_set() from the sector at @iter of @bio; @iter is advanced
 * past it on success.
 */
static int nvm_mem_sect_set_bio(const struct nvm_mem_media *m,
				struct nvm_mem_sect *s, struct bio *bio,
				struct bvec_iter *iter, const u8 *oob,
				gfp_t gfp)
{
	nvm_mem_sect_oob(m, s, oob);
	s->page = NULL;
	if (!m->cfg.data && nvm_mem_bio_is_word(bio, *iter, &s->word)) {
		bio_advance_iter(bio, iter, NVM_MEM_SEC_SIZE);
		return 0;
	}
	s->page = alloc_page(gfp);
	if (!s->page)
		return -ENOMEM;
	nvm_mem_bio_copy(bio, iter, page_address(s->page), NVM_MEM_SEC_SIZE,
			 false);
	memcpy(&s->word, page_address(s->page), sizeof(s->word));
	return 0;
}

/**
 * nvm_mem_sect_put() - release what nvm_mem_sect_set() prepared
 * @s: the sector; its page if the media did not take it
 *
 * Context: any.
 */
void nvm_mem_sect_put(struct nvm_mem_sect *s)
{
	if (s->page)
		__free_page(s->page);
	s->page = NULL;
}

/**
 * nvm_mem_bio_copy() - copy between a buffer and a bio at an iterator
 * @bio: the bio
 * @iter: position in @bio, advanced by the bytes copied
 * @buf: kernel buffer of @len bytes
 * @len: bytes to copy
 * @to_bio: copy from @buf into @bio (else from @bio into @buf)
 *
 * Stops early if @bio ends; callers check its size beforehand.
 *
 * Context: any.
 */
void nvm_mem_bio_copy(struct bio *bio, struct bvec_iter *iter, void *buf,
		      unsigned int len, bool to_bio)
{
	while (len && iter->bi_size) {
		struct bio_vec bv = bio_iter_iovec(bio, *iter);
		unsigned int n = min(len, bv.bv_len);

		bv.bv_len = n;
		if (to_bio)
			memcpy_to_bvec(&bv, buf);
		else
			memcpy_from_bvec(buf, &bv);
		bio_advance_iter_single(bio, iter, n);
		buf += n;
		len -= n;
	}
}

/* The data of an unreadable sector: zeroes, and OOB all ones. */
static void nvm_mem_fill_empty(const struct nvm_mem_media *m, struct bio *bio,
			       struct bvec_iter *iter, u8 *oob)
{
	nvm_mem_bio_copy(bio, iter, page_address(ZERO_PAGE(0)),
			 NVM_MEM_SEC_SIZE, true);
	if (oob)
		memset(oob, 0xff, m->cfg.oob_size);
}

/* The data of a sector whose 4 KiB are @word repeated. */
static void nvm_mem_fill_word(struct bio *bio, struct bvec_iter *iter,
			      u64 word)
{
	u64 buf[32];
	int i;

	for (i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = word;
	for (i = 0; i < NVM_MEM_SEC_SIZE / sizeof(buf); i++)
		nvm_mem_bio_copy(bio, iter, buf, sizeof(buf), true);
}

/* Under the LUN lock: the record of a sector programmed (@s) or torn. */
static void nvm_mem_rec_set(const struct nvm_mem_media *m, u8 *rec,
			    const struct nvm_mem_sect *s)
{
	if (!s) {
		*rec = NVM_MEM_S_TORN;
		return;
	}
	memcpy(nvm_mem_rec_oob(rec), s->oob, m->cfg.oob_size);
	if (!m->cfg.data)
		memcpy(rec + 1 + m->cfg.oob_size, &s->word, sizeof(s->word));
	*rec = s->page ? NVM_MEM_S_PAGE : NVM_MEM_S_WORD;
}

/*
 * Store @s (or, if NULL, a torn sector) as the sector at @ppa, following
 * the NAND rules; with @fail consume the sector instead.
 */
static int nvm_mem_store(struct nvm_mem_media *m, u64 ppa,
			 const struct nvm_mem_sect *s, bool fail, gfp_t gfp)
{
	int ret = NVM_RSP_ERR_FAILWRITE;
	u8 **tbl = NULL, *seg = NULL, *rec = NULL;
	struct nvm_mem_addr a;
	struct xarray *xa;
	unsigned long idx, flags;
	bool nomem = false;
	u32 bp, off;
	void *old;

	if (nvm_mem_decode(m, ppa, &a))
		return ret;
	xa = &m->sects[a.lun];
	bp = nvm_mem_bp(m, a.lun, a.blk, a.pl);
	off = a.pg * m->cfg.sec_per_pg + a.sec;
	idx = nvm_mem_sidx(m, &a);

	/* index nodes are allocated here, where the caller may sleep */
	if (!fail && s && s->page && gfpflags_allow_blocking(gfp) &&
	    xa_reserve_irq(xa, idx, gfp))
		return NVM_MEM_RSP_NOMEM;

	xa_lock_irqsave(xa, flags);
	for (;;) {
		if (nvm_mem_is_bad(m->bbt[bp]) || m->wp[bp] != off)
			goto unlock;
		if (fail) {
			m->wp[bp]++;
			goto unlock;
		}
		rec = nvm_mem_seg_install(m, bp, off, &tbl, &seg);
		if (rec || nomem)
			break;
		/* the record's memory, allocated where the caller may sleep */
		xa_unlock_irqrestore(xa, flags);
		nomem = !nvm_mem_seg_spares(m, off, &tbl, &seg, gfp);
		xa_lock_irqsave(xa, flags);
	}
	ret = NVM_MEM_RSP_NOMEM;
	if (!rec)
		goto unlock;
	if (s && s->page) {
		old = __xa_store(xa, idx, s->page, GFP_ATOMIC | __GFP_NOWARN);
		if (xa_is_err(old))
			goto unlock;
		if (WARN_ON_ONCE(old && !xa_is_zero(old))) {
			/* not reachable: sectors at or past wp hold no page */
			__xa_store(xa, idx, old, GFP_ATOMIC);
			ret = NVM_RSP_ERR_FAILWRITE;
			goto unlock;
		}
	}
	nvm_mem_rec_set(m, rec, s);
	m->wp[bp]++;
	ret = NVM_RSP_SUCCESS;
unlock:
	if (ret)
		__xa_cmpxchg(xa, idx, XA_ZERO_ENTRY, NULL, 0);
	xa_unlock_irqrestore(xa, flags);
	kfree(seg);
	kfree(tbl);
	return ret;
}

/**
 * nvm_mem_media_program() - program one sector
 * @m: the media
 * @ppa: device-format address
 * @s: the sector's data and OOB bytes (from nvm_mem_sect_set()); on
 *	success the media takes its page and sets @s->page to %NULL, the
 *	caller releases @s with nvm_mem_sect_put() either way
 * @fail: inject a program failure (the sector is consumed, nothing stored)
 * @gfp: allocation flags for the sector's record and index; may allow
 *	sleeping only if the caller may sleep
 *
 * Fails when the address is beyond the geometry, the block is bad in that
 * plane, the sector is not the next one to program in its (block, plane)
 * (out of order, or programmed or torn already since the last erase), or
 * on injection. Whether the device is unplugged is not looked at here:
 * see nvm_mem_media_run().
 *
 * Context: any.
 * Return: %NVM_RSP_SUCCESS, %NVM_RSP_ERR_FAILWRITE, or %NVM_MEM_RSP_NOMEM
 * when there was no memory for the record or the index (nothing stored).
 */
int nvm_mem_media_program(struct nvm_mem_media *m, u64 ppa,
			  struct nvm_mem_sect *s, bool fail, gfp_t gfp)
{
	int ret = nvm_mem_store(m, ppa, s, fail, gfp);

	if (ret) {
		atomic64_inc(&m->stats.write_errors);
		return ret;
	}
	if (s->page) {
		s->page = NULL;
		atomic_long_inc(&m->nr_pages);
	}
	atomic_long_inc(&m->nr_sects);
	atomic64_inc(&m->stats.media_write_sectors);
	return ret;
}

/**
 * nvm_mem_media_tear() - tear one sector, as a program cut by a power loss
 * @m: the media
 * @ppa: device-format address
 * @gfp: allocation flags for the sector's record
 *
 * The sector counts as programmed (the write pointer moves past it) and
 * reads back as a media error. Does nothing where the program would have
 * failed, nor without memory for the record. Used by power cuts and by
 * the replay of record.c.
 *
 * Context: any; may sleep only if @gfp allows it.
 */
void nvm_mem_media_tear(struct nvm_mem_media *m, u64 ppa, gfp_t gfp)
{
	nvm_mem_store(m, ppa, NULL, false, gfp);
}

/**
 * nvm_mem_media_read() - read one sector into a bio
 * @m: the media
 * @ppa: device-format address
 * @bio: destination
 * @iter: position in @bio, advanced by one sector
 * @oob: destination of the OOB bytes, or %NULL
 * @fail: inject an uncorrectable read error
 *
 * A sector reads back exactly as it was programmed, whether its data is
 * a page or a word (data=0). A sector not programmed since the last erase
 * of its block reads as zeroes with OOB bytes 0xff and status
 * %NVM_RSP_ERR_EMPTYPAGE; so do a failed read (%NVM_RSP_ERR_FAILECC:
 * address beyond the geometry, sector torn by a power cut, injection).
 * Bad blocks can be read.
 *
 * Context: any.
 * Return: %NVM_RSP_SUCCESS, %NVM_RSP_ERR_EMPTYPAGE or %NVM_RSP_ERR_FAILECC.
 */
int nvm_mem_media_read(struct nvm_mem_media *m, u64 ppa, struct bio *bio,
		       struct bvec_iter *iter, u8 *oob, bool fail)
{
	u8 state = NVM_MEM_S_NONE, *rec = NULL;
	struct nvm_mem_addr a;
	struct page *page;
	struct xarray *xa;
	unsigned long flags;
	u32 bp, off;

	if (fail || nvm_mem_decode(m, ppa, &a))
		goto err;
	xa = &m->sects[a.lun];
	bp = nvm_mem_bp(m, a.lun, a.blk, a.pl);
	off = a.pg * m->cfg.sec_per_pg + a.sec;
	xa_lock_irqsave(xa, flags);
	rec = nvm_mem_rec(m, bp, off);
	if (rec)
		state = *rec;
	if (state == NVM_MEM_S_WORD) {
		nvm_mem_fill_word(bio, iter, nvm_mem_rec_word(m, rec));
	} else if (state == NVM_MEM_S_PAGE) {
		page = xa_load(xa, nvm_mem_sidx(m, &a));
		if (WARN_ON_ONCE(!page))
			state = NVM_MEM_S_TORN;	/* not reachable */
		else
			nvm_mem_bio_copy(bio, iter, page_address(page),
					 NVM_MEM_SEC_SIZE, true);
	}
	if (oob && (state == NVM_MEM_S_WORD || state == NVM_MEM_S_PAGE))
		memcpy(oob, nvm_mem_rec_oob(rec), m->cfg.oob_size);
	xa_unlock_irqrestore(xa, flags);
	if (state == NVM_MEM_S_TORN)
		goto err;
	if (state == NVM_MEM_S_NONE) {
		nvm_mem_fill_empty(m, bio, iter, oob);
		atomic64_inc(&m->stats.empty_reads);
		return NVM_RSP_ERR_EMPTYPAGE;
	}
	atomic64_inc(&m->stats.media_read_sectors);
	return NVM_RSP_SUCCESS;

err:
	nvm_mem_fill_empty(m, bio, iter, oob);
	atomic64_inc(&m->stats.read_errors);
	return NVM_RSP_ERR_FAILECC;
}

/**
 * nvm_mem_media_erase() - erase one block, in all its planes
 * @m: the media
 * @ppa: device-format address of the block (plane, page, sector ignored
 *	but range checked)
 * @fail: inject an erase failure (the block is left as it was)
 *
 * Frees the memory of every sector of the block (pages, records), forgets
 * its torn sectors and resets the write pointers of its planes. Fails if
 * any plane of the block is bad.
 *
 * Context: any.
 * Return: %NVM_RSP_SUCCESS or %NVM_RSP_ERR_FAILERASE.
 */
int nvm_mem_media_erase(struct nvm_mem_media *m, u64 ppa, bool fail)
{
	u8 **old[4] = {};	/* num_pln is at most 4 */
	int ret = NVM_RSP_ERR_FAILERASE;
	long freed = 0, pages = 0;
	struct nvm_mem_addr a;
	struct xarray *xa;
	unsigned long flags, idx;
	u32 bp0, pl, off;

	if (nvm_mem_decode(m, ppa, &a))
		goto out;
	xa = &m->sects[a.lun];
	bp0 = nvm_mem_bp(m, a.lun, a.blk, 0);

	xa_lock_irqsave(xa, flags);
	for (pl = 0; pl < m->cfg.num_pln; pl++)
		if (nvm_mem_is_bad(m->bbt[bp0 + pl]))
			goto unlock;
	if (fail)
		goto unlock;
	for (pl = 0; pl < m->cfg.num_pln; pl++) {
		a.pl = pl;
		a.pg = 0;
		a.sec = 0;
		idx = nvm_mem_sidx(m, &a);
		for (off = 0; off < m->wp[bp0 + pl]; off++) {
			u8 state = nvm_mem_state(m, bp0 + pl, off);

			if (state == NVM_MEM_S_WORD || state == NVM_MEM_S_PAGE)
				freed++;
			if (state == NVM_MEM_S_PAGE) {
				struct page *page = __xa_erase(xa, idx + off);

				if (page)
					__free_page(page);
				pages++;
			}
		}
		old[pl] = m->recs[bp0 + pl];
		m->recs[bp0 + pl] = NULL;
		m->wp[bp0 + pl] = 0;
	}
	m->erase_count[a.lun * m->cfg.num_blk + a.blk]++;
	ret = NVM_RSP_SUCCESS;
unlock:
	xa_unlock_irqrestore(xa, flags);
out:
	if (ret) {
		atomic64_inc(&m->stats.erase_errors);
		return ret;
	}
	for (pl = 0; pl < m->cfg.num_pln; pl++)
		nvm_mem_tbl_free(m, old[pl]);
	atomic_long_sub(freed, &m->nr_sects);
	atomic_long_sub(pages, &m->nr_pages);
	atomic64_inc(&m->stats.erases);
	return ret;
}

/**
 * nvm_mem_media_get_bbt() - copy the bad block table of one LUN
 * @m: the media
 * @ppa: device-format address with the channel and LUN set
 * @blks: num_blk * num_pln bytes, blks[blk * num_pln + pl]
 *
 * Context: any.
 * Return: 0, or -EINVAL for an address beyond the geometry, -ENODEV while
 * unplugged.
 */
int nvm_mem_media_get_bbt(struct nvm_mem_media *m, u64 ppa, u8 *blks)
{
	u32 per_lun = m->cfg.num_blk * m->cfg.num_pln;
	struct nvm_mem_addr a;
	unsigned long flags;

	if (nvm_mem_decode(m, ppa, &a))
		return -EINVAL;
	if (atomic_read(&m->unplugged))
		return -ENODEV;
	xa_lock_irqsave(&m->sects[a.lun], flags);
	memcpy(blks, &m->bbt[a.lun * per_lun], per_lun);
	xa_unlock_irqrestore(&m->sects[a.lun], flags);
	return 0;
}

/**
 * nvm_mem_media_set_bbt() - record a state in the bad block table
 * @m: the media
 * @ppas: device-format addresses of (block, plane) entries
 * @nr_ppas: number of addresses
 * @type: one %NVM_BLK_T_* value
 *
 * Factory marks are permanent: entries marked %NVM_BLK_T_BAD keep it.
 * Nothing is changed unless every address is valid.
 *
 * Context: any.
 * Return: 0, -EINVAL for an unknown @type or an address beyond the
 * geometry, -ENODEV while unplugged.
 */
int nvm_mem_media_set_bbt(struct nvm_mem_media *m, const struct ppa_addr *ppas,
			  int nr_ppas, int type)
{
	struct nvm_mem_addr a;
	unsigned long flags;
	int i;

	switch (type) {
	case NVM_BLK_T_FREE:
	case NVM_BLK_T_BAD:
	case NVM_BLK_T_GRWN_BAD:
	case NVM_BLK_T_DEV:
	case NVM_BLK_T_HOST:
		break;
	default:
		return -EINVAL;
	}
	if (nr_ppas < 0)
		return -EINVAL;
	for (i = 0; i < nr_ppas; i++)
		if (nvm_mem_decode(m, ppas[i].ppa, &a))
			return -EINVAL;
	if (atomic_read(&m->unplugged))
		return -ENODEV;
	for (i = 0; i < nr_ppas; i++) {
		u32 bp;

		nvm_mem_decode(m, ppas[i].ppa, &a);
		bp = nvm_mem_bp(m, a.lun, a.blk, a.pl);
		xa_lock_irqsave(&m->sects[a.lun], flags);
		if (m->bbt[bp] != NVM_BLK_T_BAD)
			m->bbt[bp] = type;
		xa_unlock_irqrestore(&m->sects[a.lun], flags);
	}
	return 0;
}

/* Bits of the block (channel, LUN, block) of a device-format address. */
static u64 nvm_mem_blk_mask(const struct nvm_addr_format *f)
{
	u32 lo = f->blk_offset, top = f->ch_offset + f->ch_len;

	return GENMASK_ULL(top > lo ? top - 1 : lo, lo);
}

static bool nvm_mem_fail(nvm_mem_fault_fn *fault, void *priv,
			 enum nvm_mem_fault op)
{
	return fault && fault(priv, op);
}

/* Worst status wins: anything beats empty, empty beats success. */
static void nvm_mem_status(struct nvm_rq *rqd, int i, int st)
{
	if (st == NVM_RSP_SUCCESS)
		return;
	rqd->ppa_status |= BIT_ULL(i);
	if (!rqd->error || rqd->error == NVM_RSP_ERR_EMPTYPAGE)
		rqd->error = st;
}

/* ------------------------------------------------ Open-Channel SSD 2.0 */

/* Index of chunk (LUN, block) in erase_count[] and closed[]. */
static u32 nvm_mem_chk(const struct nvm_mem_media *m, u32 lun, u32 blk)
{
	return lun * m->cfg.num_blk + blk;
}

/*
 * A chunk's write pointer: the logical blocks written (or torn) since its
 * reset, the sum of its planes' (2.0 writes them in multi-plane order).
 * Context: the LUN lock held.
 */
static u32 nvm_mem_chk_wp(struct nvm_mem_media *m, u32 lun, u32 blk)
{
	u32 bp0 = nvm_mem_bp(m, lun, blk, 0), pl, wp = 0;

	lockdep_assert_held(&m->sects[lun].xa_lock);
	for (pl = 0; pl < m->cfg.num_pln; pl++)
		wp += m->wp[bp0 + pl];
	return wp;
}

/* Offline: bad in any plane. Context: the LUN lock held. */
static bool nvm_mem_chk_offline(struct nvm_mem_media *m, u32 lun, u32 blk)
{
	u32 bp0 = nvm_mem_bp(m, lun, blk, 0), pl;

	lockdep_assert_held(&m->sects[lun].xa_lock);
	for (pl = 0; pl < m->cfg.num_pln; pl++)
		if (nvm_mem_is_bad(m->bbt[bp0 + pl]))
			return true;
	return false;
}

/* %NVM_CHK_ST_* of a chunk whose write pointer is @wp. LUN lock held. */
static u8 nvm_mem_chk_state(struct nvm_mem_media *m, u32 lun, u32 blk, u32 wp)
{
	if (nvm_mem_chk_offline(m, lun, blk))
		return NVM_CHK_ST_OFFLINE;
	if (m->closed[nvm_mem_chk(m, lun, blk)] || wp == m->clba)
		return NVM_CHK_ST_CLOSED;
	return wp ? NVM_CHK_ST_OPEN : NVM_CHK_ST_FREE;
}

/* The logical block of a 2.0 address within its chunk. */
static u32 nvm_mem_rq_lbk(const struct nvm_mem_media *m,
			  const struct nvm_rq *rqd, int i)
{
	u64 lba = rqd->nr_ppas > 1 ? rqd->ppa_list[i].ppa : rqd->ppa_addr.ppa;

	return nvm_field(lba, m->lbaf.lbk_offset, m->lbaf.lbk_len);
}

/*
 * The rules of a 2.0 write, checked before anything of it is programmed,
 * as the QEMU model does (a command that breaks one changes nothing):
 * every address names a logical block (else %NVM_MEM_RSP_LBA_RANGE), of a
 * chunk that is not offline (%NVM_RSP_ERR_OFFLINE), not closed, and at
 * the chunk's write pointer as the command's earlier addresses move it
 * (%NVM_RSP_ERR_OUTOFORDER); the command's addresses in a chunk leave its
 * write pointer on a unit of ws_min (%NVM_RSP_ERR_WRITENEXTUNIT).
 * Return: true if the command may run; else its statuses are set.
 */
static bool nvm_mem_check_write20(struct nvm_mem_media *m, struct nvm_rq *rqd)
{
	bool ok = true;
	int i, j;

	for (i = 0; i < rqd->nr_ppas; i++) {
		struct nvm_mem_addr a, b;
		u32 wp, before = 0, total = 1;
		unsigned long flags;
		bool offline, closed;
		int st = 0;

		if (nvm_mem_decode(m, nvm_mem_rq_ppa(m, rqd, i), &a)) {
			nvm_mem_status(rqd, i, NVM_MEM_RSP_LBA_RANGE);
			ok = false;
			continue;
		}
		for (j = 0; j < rqd->nr_ppas; j++) {
			if (j == i ||
			    nvm_mem_decode(m, nvm_mem_rq_ppa(m, rqd, j), &b) ||
			    b.lun != a.lun || b.blk != a.blk)
				continue;
			total++;
			if (j < i)
				before++;
		}
		xa_lock_irqsave(&m->sects[a.lun], flags);
		wp = nvm_mem_chk_wp(m, a.lun, a.blk);
		offline = nvm_mem_chk_offline(m, a.lun, a.blk);
		closed = m->closed[nvm_mem_chk(m, a.lun, a.blk)] ||
			 wp == m->clba;
		xa_unlock_irqrestore(&m->sects[a.lun], flags);
		if (offline)
			st = NVM_RSP_ERR_OFFLINE;
		else if (closed || nvm_mem_rq_lbk(m, rqd, i) != wp + before)
			st = NVM_RSP_ERR_OUTOFORDER;
		else if ((wp + total) % m->ws_min)
			st = NVM_RSP_ERR_WRITENEXTUNIT;
		if (st) {
			nvm_mem_status(rqd, i, st);
			ok = false;
		}
	}
	return ok;
}

/*
 * Program one sector of a 2.0 write that passed the checks. An injected
 * failure (@fail) closes the chunk early; a closed chunk takes no more.
 */
static int nvm_mem_program20(struct nvm_mem_media *m, u64 ppa,
			     struct nvm_mem_sect *s, bool fail, gfp_t gfp)
{
	struct nvm_mem_addr a;
	unsigned long flags;
	bool closed;
	u8 *cl;
	int st;

	if (nvm_mem_decode(m, ppa, &a))
		return NVM_MEM_RSP_LBA_RANGE;
	cl = &m->closed[nvm_mem_chk(m, a.lun, a.blk)];
	xa_lock_irqsave(&m->sects[a.lun], flags);
	closed = *cl;
	if (fail)
		*cl = 1;
	xa_unlock_irqrestore(&m->sects[a.lun], flags);
	if (closed || fail) {
		atomic64_inc(&m->stats.write_errors);
		return NVM_RSP_ERR_FAILCLOSE;
	}
	st = nvm_mem_media_program(m, ppa, s, false, gfp);
	/* only a writer racing another on the chunk gets here */
	return st == NVM_RSP_ERR_FAILWRITE ? NVM_RSP_ERR_OUTOFORDER : st;
}

/* Read one sector of a 2.0 device: an offline chunk is not read. */
static int nvm_mem_read20(struct nvm_mem_media *m, u64 ppa, struct bio *bio,
			  struct bvec_iter *iter, u8 *oob, bool fail)
{
	struct nvm_mem_addr a;
	unsigned long flags;
	bool offline;

	if (nvm_mem_decode(m, ppa, &a)) {
		nvm_mem_fill_empty(m, bio, iter, oob);
		atomic64_inc(&m->stats.read_errors);
		return NVM_MEM_RSP_LBA_RANGE;
	}
	xa_lock_irqsave(&m->sects[a.lun], flags);
	offline = nvm_mem_chk_offline(m, a.lun, a.blk);
	xa_unlock_irqrestore(&m->sects[a.lun], flags);
	if (offline) {
		nvm_mem_fill_empty(m, bio, iter, oob);
		atomic64_inc(&m->stats.read_errors);
		return NVM_RSP_ERR_OFFLINE;
	}
	return nvm_mem_media_read(m, ppa, bio, iter, oob, fail);
}

/*
 * 2.0 reset, checked first as a write: every address names a logical
 * block (%NVM_MEM_RSP_LBA_RANGE) of a chunk that is not offline
 * (%NVM_RSP_ERR_OFFLINE), not free, and not reset by an earlier address
 * of the command (%NVM_RSP_ERR_INVALIDRESET). Then each chunk is erased;
 * an injected failure takes it offline (the device marks it bad itself:
 * 2.0 has no host bad block table).
 */
static void nvm_mem_exec_reset20(struct nvm_mem_media *m, struct nvm_rq *rqd,
				 nvm_mem_fault_fn *fault, void *priv)
{
	struct nvm_mem_addr a, b;
	unsigned long flags;
	bool ok = true;
	int i, j, st;
	u32 bp0, pl;

	for (i = 0; i < rqd->nr_ppas; i++) {
		u8 state;

		if (nvm_mem_decode(m, nvm_mem_rq_ppa(m, rqd, i), &a)) {
			nvm_mem_status(rqd, i, NVM_MEM_RSP_LBA_RANGE);
			ok = false;
			continue;
		}
		for (j = 0; j < i; j++)
			if (!nvm_mem_decode(m, nvm_mem_rq_ppa(m, rqd, j), &b) &&
			    b.lun == a.lun && b.blk == a.blk)
				break;
		xa_lock_irqsave(&m->sects[a.lun], flags);
		state = nvm_mem_chk_state(m, a.lun, a.blk,
					  nvm_mem_chk_wp(m, a.lun, a.blk));
		xa_unlock_irqrestore(&m->sects[a.lun], flags);
		st = 0;
		if (state == NVM_CHK_ST_OFFLINE)
			st = NVM_RSP_ERR_OFFLINE;
		else if (state == NVM_CHK_ST_FREE || j < i)
			st = NVM_RSP_ERR_INVALIDRESET;
		if (st) {
			nvm_mem_status(rqd, i, st);
			ok = false;
		}
	}
	if (!ok)
		return;

	for (i = 0; i < rqd->nr_ppas; i++) {
		u64 ppa = nvm_mem_rq_ppa(m, rqd, i);

		nvm_mem_decode(m, ppa, &a);
		if (nvm_mem_fail(fault, priv, NVM_MEM_FAULT_ERASE)) {
			bp0 = nvm_mem_bp(m, a.lun, a.blk, 0);
			xa_lock_irqsave(&m->sects[a.lun], flags);
			for (pl = 0; pl < m->cfg.num_pln; pl++)
				if (m->bbt[bp0 + pl] != NVM_BLK_T_BAD)
					m->bbt[bp0 + pl] = NVM_BLK_T_GRWN_BAD;
			xa_unlock_irqrestore(&m->sects[a.lun], flags);
			atomic64_inc(&m->stats.erase_errors);
			nvm_mem_status(rqd, i, NVM_RSP_ERR_OFFLINE);
			continue;
		}
		st = nvm_mem_media_erase(m, ppa, false);
		if (st) {
			nvm_mem_status(rqd, i, NVM_RSP_ERR_OFFLINE);
			continue;
		}
		xa_lock_irqsave(&m->sects[a.lun], flags);
		m->closed[nvm_mem_chk(m, a.lun, a.blk)] = 0;
		xa_unlock_irqrestore(&m->sects[a.lun], flags);
	}
}

/**
 * nvm_mem_media_chunks() - the chunk descriptors of a 2.0 device
 * @m: the media
 * @slba: logical block address of the first chunk (logical block 0)
 * @nr: descriptors to fill, the chunks that follow in the log page's
 *	order (group, PU, chunk), within the device
 * @meta: filled in, host endian, write pointers relative to each chunk
 *
 * Derived from the media's state: offline if any plane of the block is
 * bad; closed if full or closed early by a failed write; open if written;
 * free otherwise. The wear-level index is the chunk's resets, at most 255.
 * The write pointer counts torn logical blocks as written.
 *
 * Context: any.
 * Return: 0, -EOPNOTSUPP on a 1.2 device, -EINVAL for an address that is
 * not a chunk's start or a range beyond the device, -ENODEV while
 * unplugged.
 */
int nvm_mem_media_chunks(struct nvm_mem_media *m, u64 slba, int nr,
			 struct nvm_chk_meta *meta)
{
	const struct nvm_mem_cfg *c = &m->cfg;
	struct nvm_mem_addr a;
	unsigned long flags;
	u32 first, k;

	if (!nvm_mem_v2(m))
		return -EOPNOTSUPP;
	if (nr < 1 || nvm_mem_decode(m, nvm_mem_lba_to_ppa(m, slba), &a) ||
	    a.pl || a.pg || a.sec)
		return -EINVAL;
	first = nvm_mem_chk(m, a.lun, a.blk);
	if (nr > m->nr_luns * c->num_blk - first)
		return -EINVAL;
	if (atomic_read(&m->unplugged))
		return -ENODEV;
	for (k = 0; k < nr; k++) {
		u32 idx = first + k, lun = idx / c->num_blk;
		u32 blk = idx % c->num_blk;
		struct nvm_chk_meta *d = &meta[k];

		memset(d, 0, sizeof(*d));
		xa_lock_irqsave(&m->sects[lun], flags);
		d->wp = nvm_mem_chk_wp(m, lun, blk);
		d->state = nvm_mem_chk_state(m, lun, blk, d->wp);
		d->wi = min_t(u32, m->erase_count[idx], 255);
		xa_unlock_irqrestore(&m->sects[lun], flags);
		d->type = NVM_CHK_TP_W_SEQ;
		d->slba = nvm_mem_encode_dev(m, lun / c->num_lun,
					     lun % c->num_lun, blk, 0, 0, 0);
		d->cnlb = m->clba;
	}
	return 0;
}

/* --------------------------------------------------------- commands */

/*
 * Program the sectors [0, @tear) of a write command and tear the sectors
 * [@tear, @end); the rest is not touched (a cut stopped it). A command run
 * normally has @tear == @end == nr_ppas. On a 2.0 device nothing is done
 * unless the command follows the chunk rules (nvm_mem_check_write20()).
 */
static void nvm_mem_exec_write(struct nvm_mem_media *m, struct nvm_rq *rqd,
			       nvm_mem_fault_fn *fault, void *priv, gfp_t gfp,
			       int tear, int end)
{
	struct bvec_iter iter = rqd->bio->bi_iter;
	u32 oob_size = m->cfg.oob_size;
	int i;

	atomic64_add(rqd->nr_ppas, &m->stats.host_write_sectors);
	if (nvm_mem_v2(m) && !nvm_mem_check_write20(m, rqd))
		return;
	for (i = 0; i < tear; i++) {
		const u8 *oob = rqd->meta_list ?
				rqd->meta_list + i * oob_size : NULL;
		int st = NVM_MEM_RSP_NOMEM;
		struct nvm_mem_sect s;
		bool fail;

		if (!nvm_mem_fail(fault, priv, NVM_MEM_FAULT_ALLOC) &&
		    !nvm_mem_sect_set_bio(m, &s, rqd->bio, &iter, oob, gfp)) {
			fail = nvm_mem_fail(fault, priv, NVM_MEM_FAULT_WRITE);
			if (nvm_mem_v2(m))
				st = nvm_mem_program20(m,
						       nvm_mem_rq_ppa(m, rqd, i),
						       &s, fail, gfp);
			else
				st = nvm_mem_media_program(m,
							   nvm_mem_rq_ppa(m, rqd, i),
							   &s, fail, gfp);
			nvm_mem_sect_put(&s);
		}
		if (st == NVM_MEM_RSP_NOMEM) {
			/*
			 * No memory: not the media's fault. This sector and
			 * the rest are not programmed (the write pointer
			 * stays), and no block is to be marked bad for it.
			 */
			for (; i < end; i++)
				nvm_mem_status(rqd, i, NVM_MEM_RSP_NOMEM);
			return;
		}
		nvm_mem_status(rqd, i, st);
	}
	/* after the programs before them, for the write pointer */
	for (i = tear; i < end; i++)
		nvm_mem_media_tear(m, nvm_mem_rq_ppa(m, rqd, i), gfp);
}

static void nvm_mem_exec_read(struct nvm_mem_media *m, struct nvm_rq *rqd,
			      nvm_mem_fault_fn *fault, void *priv)
{
	struct bvec_iter iter = rqd->bio->bi_iter;
	u32 oob_size = m->cfg.oob_size;
	int i;

	atomic64_add(rqd->nr_ppas, &m->stats.host_read_sectors);
	for (i = 0; i < rqd->nr_ppas; i++) {
		u8 *oob = rqd->meta_list ? rqd->meta_list + i * oob_size : NULL;
		bool fail = nvm_mem_fail(fault, priv, NVM_MEM_FAULT_READ);
		int st;

		if (nvm_mem_v2(m))
			st = nvm_mem_read20(m, nvm_mem_rq_ppa(m, rqd, i),
					    rqd->bio, &iter, oob, fail);
		else
			st = nvm_mem_media_read(m, nvm_mem_rq_ppa(m, rqd, i),
						rqd->bio, &iter, oob, fail);
		nvm_mem_status(rqd, i, st);
	}
}

static void nvm_mem_exec_erase(struct nvm_mem_media *m, struct nvm_rq *rqd,
			       nvm_mem_fault_fn *fault, void *priv)
{
	u64 mask = nvm_mem_blk_mask(&m->ppaf);
	int i, j, st;

	if (nvm_mem_v2(m)) {
		nvm_mem_exec_reset20(m, rqd, fault, priv);
		return;
	}
	for (i = 0; i < rqd->nr_ppas; i++) {
		u64 ppa = nvm_mem_rq_ppa(m, rqd, i);

		/* one erase per block: the planes of a multi-plane erase */
		for (j = 0; j < i; j++)
			if ((nvm_mem_rq_ppa(m, rqd, j) & mask) == (ppa & mask))
				break;
		if (j < i) {
			if (rqd->ppa_status & BIT_ULL(j))
				nvm_mem_status(rqd, i, NVM_RSP_ERR_FAILERASE);
			continue;
		}
		st = nvm_mem_media_erase(m, ppa,
					 nvm_mem_fail(fault, priv,
						      NVM_MEM_FAULT_ERASE));
		nvm_mem_status(rqd, i, st);
	}
}

/**
 * nvm_mem_media_exec() - execute a physical command on the media
 * @m: the media
 * @rqd: a request that passed the driver's checks: opcode %NVM_OP_PREAD,
 *	%NVM_OP_PWRITE or %NVM_OP_ERASE, 1..%NVM_MEM_MAX_PHYS_SECT device-format
 *	addresses, and for reads and writes a bio of at least nr_ppas
 *	sectors
 * @fault: fault injection callback, or %NULL
 * @fault_priv: its argument
 * @gfp: allocation flags for programmed sectors
 *
 * Addresses are executed in order, each on its own; the request is not
 * atomic. Sets @rqd->error to the worst per-address status (any failure
 * beats %NVM_RSP_ERR_EMPTYPAGE) and bit i of @rqd->ppa_status for every
 * address i that did not succeed. Duplicate block addresses of an erase
 * (the planes of a multi-plane erase) erase the block once. The power
 * state is not looked at: nvm_mem_media_run() does that.
 *
 * Context: any; may sleep only if @gfp allows it.
 */
void nvm_mem_media_exec(struct nvm_mem_media *m, struct nvm_rq *rqd,
			nvm_mem_fault_fn *fault, void *fault_priv, gfp_t gfp)
{
	rqd->error = NVM_RSP_SUCCESS;
	rqd->ppa_status = 0;

	switch (rqd->opcode) {
	case NVM_OP_PWRITE:
		nvm_mem_exec_write(m, rqd, fault, fault_priv, gfp,
				   rqd->nr_ppas, rqd->nr_ppas);
		break;
	case NVM_OP_PREAD:
		nvm_mem_exec_read(m, rqd, fault, fault_priv);
		break;
	case NVM_OP_ERASE:
		nvm_mem_exec_erase(m, rqd, fault, fault_priv);
		break;
	default:
		WARN_ON_ONCE(1);
		rqd->error = NVM_RSP_ERR_FAILCRC;
		rqd->ppa_status = GENMASK_ULL(rqd->nr_ppas - 1, 0);
	}
}

/**
 * nvm_mem_media_gone() - complete a command as one the device never answered
 * @rqd: the request
 *
 * Sets @rqd->error to %NVM_MEM_RSP_GONE and every bit of @rqd->ppa_status:
 * what a host sees for a command the device lost with its power.
 *
 * Context: any.
 */
void nvm_mem_media_gone(struct nvm_rq *rqd)
{
	rqd->error = NVM_MEM_RSP_GONE;
	rqd->ppa_status = GENMASK_ULL(rqd->nr_ppas - 1, 0);
}

/**
 * nvm_mem_media_cut_seed() - restart the sequence that decides cut outcomes
 * @m: the media
 * @seed: the seed
 *
 * Context: any.
 */
void nvm_mem_media_cut_seed(struct nvm_mem_media *m, u64 seed)
{
	unsigned long flags;

	spin_lock_irqsave(&m->cut_lock, flags);
	m->cut_rand = seed;
	spin_unlock_irqrestore(&m->cut_lock, flags);
}

/* The sequence's next number; commands in flight draw in execution order. */
static u64 nvm_mem_cut_draw(struct nvm_mem_media *m)
{
	unsigned long flags;
	u64 r;

	spin_lock_irqsave(&m->cut_lock, flags);
	r = nvm_mem_rand(&m->cut_rand);
	spin_unlock_irqrestore(&m->cut_lock, flags);
	return r;
}

/*
 * Device-format address of the page (LUN, block, plane, page) of a sector;
 * on 2.0, the model's address of the write unit (LUN, block, page): its
 * multi-plane page of ws_min logical blocks.
 */
static u64 nvm_mem_page_of(const struct nvm_mem_media *m, u64 ppa)
{
	const struct nvm_addr_format *f = &m->ppaf;

	if (nvm_mem_v2(m) && f->pln_len)
		ppa &= ~GENMASK_ULL(f->pln_offset + f->pln_len - 1,
				    f->pln_offset);
	if (!f->sect_len)
		return ppa;
	return ppa & ~GENMASK_ULL(f->sect_offset + f->sect_len - 1,
				  f->sect_offset);
}

/*
 * The sectors [*@from, *@to) of the @k-th page of a write command, pages
 * being runs of consecutive addresses of the same page. Return: the
 * number of pages when @k is beyond them.
 */
static u32 nvm_mem_cmd_page(const struct nvm_mem_media *m,
			    const struct nvm_rq *rqd, u32 k, int *from, int *to)
{
	u32 page = 0;
	int i;

	*from = 0;
	for (i = 1; i <= rqd->nr_ppas; i++) {
		if (i < rqd->nr_ppas &&
		    nvm_mem_page_of(m, nvm_mem_rq_ppa(m, rqd, i)) ==
		    nvm_mem_page_of(m, nvm_mem_rq_ppa(m, rqd, i - 1)))
			continue;
		if (page == k) {
			*to = i;
			return k;
		}
		page++;
		*from = i;
	}
	return page;
}

/**
 * nvm_mem_media_cut() - what a power cut does to a command in flight
 * @m: the media
 * @rqd: a request that had reached the device (see nvm_mem_media_exec())
 * @r: a number that chooses the outcome (nvm_mem_media_run() draws it
 *	from the seeded sequence)
 * @fault: fault injection callback for what is applied, or %NULL
 * @fault_priv: its argument
 * @gfp: allocation flags for programmed sectors
 *
 * The outcome of a program is @r % 3: %NVM_MEM_CUT_DROPPED (nothing
 * happens), %NVM_MEM_CUT_APPLIED (executed as if the power had stayed), or
 * %NVM_MEM_CUT_TORN: of the command's pages (runs of its addresses in one
 * (LUN, block, plane, page), in command order) number (@r >> 32) % pages
 * is torn, the pages before it are programmed and those after it are not.
 * A torn sector counts as programmed for the write pointer and reads back
 * as %NVM_RSP_ERR_FAILECC until its block is erased. An erase is dropped
 * or applied (@r % 2); a read has no effect (%NVM_MEM_CUT_NONE). The
 * outcome is counted in the stats, and the request completes as with
 * nvm_mem_media_gone(): the host never learns what happened.
 *
 * Context: any; may sleep only if @gfp allows it.
 * Return: the outcome.
 */
enum nvm_mem_cut nvm_mem_media_cut(struct nvm_mem_media *m, struct nvm_rq *rqd,
				   u64 r, nvm_mem_fault_fn *fault,
				   void *fault_priv, gfp_t gfp)
{
	enum nvm_mem_cut cut = NVM_MEM_CUT_NONE;
	int from, to;
	u32 pages;

	switch (rqd->opcode) {
	case NVM_OP_PWRITE:
		cut = r % 3;
		if (cut == NVM_MEM_CUT_APPLIED) {
			nvm_mem_exec_write(m, rqd, fault, fault_priv, gfp,
					   rqd->nr_ppas, rqd->nr_ppas);
		} else if (cut == NVM_MEM_CUT_TORN) {
			pages = nvm_mem_cmd_page(m, rqd, U32_MAX, &from, &to);
			nvm_mem_cmd_page(m, rqd, (u32)(r >> 32) % pages, &from,
					 &to);
			nvm_mem_exec_write(m, rqd, fault, fault_priv, gfp, from,
					   to);
		}
		break;
	case NVM_OP_ERASE:
		cut = r % 2;
		if (cut == NVM_MEM_CUT_APPLIED)
			nvm_mem_exec_erase(m, rqd, fault, fault_priv);
		break;
	default:
		break;
	}
	switch (cut) {
	case NVM_MEM_CUT_DROPPED:
		atomic64_inc(&m->stats.cut_dropped);
		break;
	case NVM_MEM_CUT_APPLIED:
		atomic64_inc(&m->stats.cut_applied);
		break;
	case NVM_MEM_CUT_TORN:
		atomic64_inc(&m->stats.cut_torn);
		break;
	default:
		break;
	}
	nvm_mem_media_gone(rqd);
	return cut;
}

/**
 * nvm_mem_media_run() - execute a command at a command boundary
 * @m: the media
 * @rqd: a request that passed the driver's checks
 * @queued: it reached the device before now (it was accepted into the
 *	device's queue while the power was on); %false for a command that
 *	arrives now
 * @fault: fault injection callback, or %NULL
 * @fault_priv: its argument
 * @gfp: allocation flags for programmed sectors
 *
 * A power cut takes effect between commands. While the power is on the
 * command runs (nvm_mem_media_exec()) and reports its status; if the power
 * went while it ran, it was applied in full, but completes as with
 * nvm_mem_media_gone() (counted as applied by the cut, unless a read).
 * Once the power is gone, a command that was @queued before the cut is in
 * flight: nvm_mem_media_cut() decides its fate with the next number of the
 * seeded sequence; any other command completes as gone without touching
 * the media.
 *
 * Context: any; may sleep only if @gfp allows it.
 * Return: %NVM_MEM_CUT_NONE if the command ran with the power on
 * (reporting its own status) or was not in flight, else the outcome.
 */
enum nvm_mem_cut nvm_mem_media_run(struct nvm_mem_media *m,
				   struct nvm_rq *rqd, bool queued,
				   nvm_mem_fault_fn *fault, void *fault_priv,
				   gfp_t gfp)
{
	if (atomic_read(&m->unplugged)) {
		if (queued)
			return nvm_mem_media_cut(m, rqd, nvm_mem_cut_draw(m),
						 fault, fault_priv, gfp);
		nvm_mem_media_gone(rqd);
		return NVM_MEM_CUT_NONE;
	}
	nvm_mem_media_exec(m, rqd, fault, fault_priv, gfp);
	if (!atomic_read(&m->unplugged))
		return NVM_MEM_CUT_NONE;
	/* the power went while it ran */
	nvm_mem_media_gone(rqd);
	if (rqd->opcode == NVM_OP_PREAD)
		return NVM_MEM_CUT_NONE;
	atomic64_inc(&m->stats.cut_applied);
	return NVM_MEM_CUT_APPLIED;
}
