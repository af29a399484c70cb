// SPDX-License-Identifier: GPL-2.0
/*
 * LightNVM core: validation of a device's identity and derivation of the
 * geometry every layer above the driver works with. Pure logic, covered by
 * the KUnit suite in core_test.c.
 */

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/lightnvm.h>

#define NVM_SUPPORTED_SEC_SIZE	4096
#define NVM_MAX_OOB_SIZE	1024

struct nvm_ppaf_field {
	const char *name;
	u8 offset;
	u8 len;
	u32 count;	/* how many values the field must be able to hold */
};

/*
 * Check the fields of an address format (@fmt names it in the messages:
 * "ppaf" for 1.2, "lbaf" for 2.0): each within 64 bits, wide enough for
 * its count, none overlapping another.
 */
static int nvm_check_fields(const struct nvm_ppaf_field *fields, int nr,
			    const char *fmt, const char *name)
{
	u64 used = 0;
	int i;

	for (i = 0; i < nr; i++) {
		const struct nvm_ppaf_field *fl = &fields[i];
		u64 mask;

		/* even a 0-bit field is shifted by its offset on every I/O */
		if (fl->offset >= 64) {
			pr_err("lightnvm: %s: %s.%s offset %u is not below 64\n",
			       name, fmt, fl->name, fl->offset);
			return -EINVAL;
		}
		if (fl->offset + fl->len > 64) {
			pr_err("lightnvm: %s: %s.%s (offset %u, len %u) does not fit in 64 bits\n",
			       name, fmt, fl->name, fl->offset, fl->len);
			return -EINVAL;
		}
		if (fl->len < 32 && (1ULL << fl->len) < fl->count) {
			pr_err("lightnvm: %s: %s.%s is %u bits, too narrow for %u values\n",
			       name, fmt, fl->name, fl->len, fl->count);
			return -EINVAL;
		}
		if (!fl->len)
			continue;
		mask = (fl->len == 64 ? ~0ULL : (1ULL << fl->len) - 1) << fl->offset;
		if (used & mask) {
			pr_err("lightnvm: %s: %s.%s overlaps another address field\n",
			       name, fmt, fl->name);
			return -EINVAL;
		}
		used |= mask;
	}
	return 0;
}

static int nvm_check_ppaf(const struct nvm_addr_format *f,
			  const struct nvm_id_group *grp,
			  unsigned int sec_per_pg, const char *name)
{
	const struct nvm_ppaf_field fields[] = {
		{ "ch",   f->ch_offset,   f->ch_len,   grp->num_ch },
		{ "lun",  f->lun_offset,  f->lun_len,  grp->num_lun },
		{ "pln",  f->pln_offset,  f->pln_len,  grp->num_pln },
		{ "blk",  f->blk_offset,  f->blk_len,  grp->num_blk },
		{ "pg",   f->pg_offset,   f->pg_len,   grp->num_pg },
		{ "sect", f->sect_offset, f->sect_len, sec_per_pg },
	};

	return nvm_check_fields(fields, ARRAY_SIZE(fields), "ppaf", name);
}

/*
 * Multi-plane operation support (&nvm_id_group.mpos): one byte each for
 * read (bits 0-7), program (8-15) and erase (16-23); in each, bit 1 is
 * dual-plane and bit 2 quad-plane operation.
 */
#define NVM_MPOS_DUAL	0x020202
#define NVM_MPOS_QUAD	0x040404

static int nvm_plane_mode(u32 mpos)
{
	if (mpos & NVM_MPOS_QUAD)
		return NVM_PLANE_QUAD;
	if (mpos & NVM_MPOS_DUAL)
		return NVM_PLANE_DOUBLE;
	return NVM_PLANE_SINGLE;
}

/*
 * Largest counts of a 2.0 geometry: a group, PU, chunk and ws_min unit
 * must fit the generic address's channel (7 bits), LUN (8), block (16),
 * page (16) and sector (8) fields, and ws_min logical blocks one command.
 */
#define NVM_ID20_MAX_GRP	128
#define NVM_ID20_MAX_PU		255
#define NVM_ID20_MAX_CHK	65535
#define NVM_ID20_MAX_UNITS	65535

/**
 * nvm_validate_id20() - check a 2.0 geometry
 * @id: the 2.0 part of the identity (host endian)
 * @name: device name, for the messages
 *
 * Every count must be non-zero and fit the generic address (groups
 * 1..128, PUs 1..255, chunks 1..65535, clba / ws_min units 1..65535),
 * ws_min 1..%NVM_MAX_VLBA (one command), clba and ws_opt multiples of
 * ws_min with ws_opt <= clba, mw_cunits <= clba, maxocpu <= num_chk,
 * maxoc <= the chunks of the device, 4 KiB logical blocks, at most 1 KiB
 * of OOB bytes, no product (logical blocks per PU, PUs, logical blocks
 * of the device) overflowing, and the LBA format's fields within 64 bits,
 * wide enough and not overlapping.
 *
 * Context: any.
 * Return: 0, or -EINVAL after logging the offending field.
 */
static int nvm_validate_id20(const struct nvm_id20 *id, const char *name)
{
	const struct nvm_addrf20 *f = &id->lbaf;
	u32 sec_per_lun, nr_luns;
	u64 nr_secs, nr_chks;
	const struct nvm_ppaf_field fields[] = {
		{ "grp", f->grp_offset, f->grp_len, id->num_grp },
		{ "pu",  f->pu_offset,  f->pu_len,  id->num_pu },
		{ "chk", f->chk_offset, f->chk_len, id->num_chk },
		{ "lbk", f->lbk_offset, f->lbk_len, id->clba },
	};

	if (!id->num_grp || id->num_grp > NVM_ID20_MAX_GRP) {
		pr_err("lightnvm: %s: num_grp %u out of range (1..%u)\n",
		       name, id->num_grp, NVM_ID20_MAX_GRP);
		return -EINVAL;
	}
	if (!id->num_pu || id->num_pu > NVM_ID20_MAX_PU) {
		pr_err("lightnvm: %s: num_pu %u out of range (1..%u)\n",
		       name, id->num_pu, NVM_ID20_MAX_PU);
		return -EINVAL;
	}
	if (!id->num_chk || id->num_chk > NVM_ID20_MAX_CHK) {
		pr_err("lightnvm: %s: num_chk %u out of range (1..%u)\n",
		       name, id->num_chk, NVM_ID20_MAX_CHK);
		return -EINVAL;
	}
	if (!id->ws_min || id->ws_min > NVM_MAX_VLBA) {
		pr_err("lightnvm: %s: ws_min %u out of range (1..%d)\n",
		       name, id->ws_min, NVM_MAX_VLBA);
		return -EINVAL;
	}
	if (!id->clba || id->clba % id->ws_min) {
		pr_err("lightnvm: %s: clba %u is not a non-zero multiple of ws_min %u\n",
		       name, id->clba, id->ws_min);
		return -EINVAL;
	}
	if (id->clba / id->ws_min > NVM_ID20_MAX_UNITS) {
		pr_err("lightnvm: %s: clba %u holds %u units of ws_min %u, more than %u\n",
		       name, id->clba, id->clba / id->ws_min, id->ws_min,
		       NVM_ID20_MAX_UNITS);
		return -EINVAL;
	}
	if (!id->ws_opt || id->ws_opt % id->ws_min || id->ws_opt > id->clba) {
		pr_err("lightnvm: %s: ws_opt %u is not a non-zero multiple of ws_min %u within clba %u\n",
		       name, id->ws_opt, id->ws_min, id->clba);
		return -EINVAL;
	}
	if (id->mw_cunits > id->clba) {
		pr_err("lightnvm: %s: mw_cunits %u exceeds clba %u\n",
		       name, id->mw_cunits, id->clba);
		return -EINVAL;
	}
	if (id->maxocpu > id->num_chk) {
		pr_err("lightnvm: %s: maxocpu %u exceeds num_chk %u\n",
		       name, id->maxocpu, id->num_chk);
		return -EINVAL;
	}
	if (id->csecs != NVM_SUPPORTED_SEC_SIZE) {
		pr_err("lightnvm: %s: logical block size (csecs) %u not supported (need %u)\n",
		       name, id->csecs, NVM_SUPPORTED_SEC_SIZE);
		return -EINVAL;
	}
	if (id->sos > NVM_MAX_OOB_SIZE) {
		pr_err("lightnvm: %s: out-of-band size (sos) %u too large (at most %u)\n",
		       name, id->sos, NVM_MAX_OOB_SIZE);
		return -EINVAL;
	}
	if (check_mul_overflow(id->clba, id->num_chk, &sec_per_lun) ||
	    sec_per_lun > INT_MAX) {
		pr_err("lightnvm: %s: clba %u x num_chk %u overflows the logical blocks of a PU\n",
		       name, id->clba, id->num_chk);
		return -EINVAL;
	}
	nr_luns = (u32)id->num_grp * id->num_pu;
	nr_chks = (u64)nr_luns * id->num_chk;
	if (check_mul_overflow((u64)sec_per_lun, (u64)nr_luns, &nr_secs)) {
		pr_err("lightnvm: %s: geometry too large (logical blocks of the device overflow)\n",
		       name);
		return -EINVAL;
	}
	if (id->maxoc > nr_chks) {
		pr_err("lightnvm: %s: maxoc %u exceeds the %llu chunks of the device\n",
		       name, id->maxoc, nr_chks);
		return -EINVAL;
	}
	return nvm_check_fields(fields, ARRAY_SIZE(fields), "lbaf", name);
}

/**
 * nvm_addrf20_from_lens() - a 2.0 LBA format from its four field lengths
 * @f: filled in
 * @grp_len: bits of the group
 * @pu_len: bits of the parallel unit
 * @chk_len: bits of the chunk
 * @lbk_len: bits of the logical block
 *
 * The fields sit from bit 0 up: logical block, chunk, PU, group, as the
 * 2.0 geometry's LBA format (bytes 8..11) describes them. For drivers.
 *
 * Context: any.
 */
void nvm_addrf20_from_lens(struct nvm_addrf20 *f, u8 grp_len, u8 pu_len,
			   u8 chk_len, u8 lbk_len)
{
	f->lbk_offset = 0;
	f->lbk_len = lbk_len;
	f->chk_offset = lbk_len;
	f->chk_len = chk_len;
	f->pu_offset = f->chk_offset + chk_len;
	f->pu_len = pu_len;
	f->grp_offset = f->pu_offset + pu_len;
	f->grp_len = grp_len;
}
EXPORT_SYMBOL_GPL(nvm_addrf20_from_lens);

/**
 * nvm_validate_identity() - check that the core can drive a device
 * @id: identity as read from the device (host endian)
 * @name: device name, for the messages
 *
 * Version 2 (Open-Channel SSD 2.0) goes to nvm_validate_id20(), which
 * checks every field of the 2.0 geometry. For version 1 (1.2):
 * rejects what the core does not support (identity versions other than 1,
 * several configuration groups, non-NAND media, sectors other than 4 KiB)
 * and what makes no sense (zero or out-of-range dimensions, geometries
 * whose products overflow, address formats that do not fit 64 bits or whose
 * fields overlap or are too narrow). Each rejection is logged with the
 * offending field.
 *
 * Context: any.
 * Return: 0 if the device can be used, -EINVAL otherwise.
 */
int nvm_validate_identity(const struct nvm_id *id, const char *name)
{
	const struct nvm_id_group *grp = &id->groups[0];
	unsigned int sec_per_pg;
	u32 sec_per_pl, sec_per_blk, sec_per_lun, nr_luns;
	u64 nr_secs;

	if (id->ver_id == NVM_OCSSD_SPEC_20)
		return nvm_validate_id20(&id->id20, name);
	if (id->ver_id != NVM_OCSSD_SPEC_12) {
		pr_err("lightnvm: %s: identity version %u not supported (need 1, Open-Channel SSD 1.2, or 2, Open-Channel SSD 2.0)\n",
		       name, id->ver_id);
		return -EINVAL;
	}
	if (id->cgrps != 1) {
		pr_err("lightnvm: %s: %u configuration groups not supported (need 1)\n",
		       name, id->cgrps);
		return -EINVAL;
	}
	if (grp->mtype != 0) {
		pr_err("lightnvm: %s: media type %u not supported (need 0, NAND)\n",
		       name, grp->mtype);
		return -EINVAL;
	}
	if (grp->fmtype > 1) {
		pr_err("lightnvm: %s: flash media type %u not supported (need 0 or 1)\n",
		       name, grp->fmtype);
		return -EINVAL;
	}
	if (!grp->num_ch || grp->num_ch > 128) {
		pr_err("lightnvm: %s: num_ch %u out of range (1..128)\n",
		       name, grp->num_ch);
		return -EINVAL;
	}
	if (!grp->num_lun) {
		pr_err("lightnvm: %s: num_lun is 0\n", name);
		return -EINVAL;
	}
	if (grp->num_pln != 1 && grp->num_pln != 2 && grp->num_pln != 4) {
		pr_err("lightnvm: %s: num_pln %u not supported (1, 2 or 4)\n",
		       name, grp->num_pln);
		return -EINVAL;
	}
	if (!grp->num_blk) {
		pr_err("lightnvm: %s: num_blk is 0\n", name);
		return -EINVAL;
	}
	if (!grp->num_pg) {
		pr_err("lightnvm: %s: num_pg is 0\n", name);
		return -EINVAL;
	}
	if (grp->csecs != NVM_SUPPORTED_SEC_SIZE) {
		pr_err("lightnvm: %s: sector size (csecs) %u not supported (need %u)\n",
		       name, grp->csecs, NVM_SUPPORTED_SEC_SIZE);
		return -EINVAL;
	}
	if (!grp->fpg_sz || grp->fpg_sz % grp->csecs) {
		pr_err("lightnvm: %s: page size (fpg_sz) %u is not a multiple of the sector size %u\n",
		       name, grp->fpg_sz, grp->csecs);
		return -EINVAL;
	}
	sec_per_pg = grp->fpg_sz / grp->csecs;
	if (grp->sos > NVM_MAX_OOB_SIZE) {
		pr_err("lightnvm: %s: out-of-band size (sos) %u too large (at most %u)\n",
		       name, grp->sos, NVM_MAX_OOB_SIZE);
		return -EINVAL;
	}
	if (nvm_plane_mode(grp->mpos) > grp->num_pln) {
		pr_err("lightnvm: %s: mpos 0x%x asks for %d-plane access but num_pln is %u\n",
		       name, grp->mpos, nvm_plane_mode(grp->mpos), grp->num_pln);
		return -EINVAL;
	}

	if (check_mul_overflow((u32)sec_per_pg, (u32)grp->num_pln, &sec_per_pl) ||
	    check_mul_overflow(sec_per_pl, (u32)grp->num_pg, &sec_per_blk) ||
	    check_mul_overflow(sec_per_blk, (u32)grp->num_blk, &sec_per_lun) ||
	    sec_per_lun > INT_MAX ||
	    check_mul_overflow((u32)grp->num_ch, (u32)grp->num_lun, &nr_luns) ||
	    check_mul_overflow((u64)sec_per_lun, (u64)nr_luns, &nr_secs)) {
		pr_err("lightnvm: %s: geometry too large (sectors per LUN overflow)\n",
		       name);
		return -EINVAL;
	}

	return nvm_check_ppaf(&id->ppaf, grp, sec_per_pg, name);
}
EXPORT_SYMBOL_GPL(nvm_validate_identity);

/*
 * The geometry of a 2.0 device in the terms targets use (see &struct
 * nvm_geo): one plane, a chunk as a block of clba / ws_min pages of ws_min
 * sectors.
 */
static void nvm_geo_from_id20(const struct nvm_id20 *id, struct nvm_geo *geo)
{
	geo->version = NVM_OCSSD_SPEC_20;
	geo->num_grp = id->num_grp;
	geo->num_pu = id->num_pu;
	geo->num_chk = id->num_chk;
	geo->clba = id->clba;
	geo->ws_min = id->ws_min;
	geo->ws_opt = id->ws_opt;
	geo->mw_cunits = id->mw_cunits;
	geo->mccap = id->mccap;
	geo->maxoc = id->maxoc;
	geo->maxocpu = id->maxocpu;

	geo->nr_chnls = id->num_grp;
	geo->luns_per_chnl = id->num_pu;
	geo->nr_luns = id->num_grp * id->num_pu;
	geo->nr_planes = 1;
	geo->blks_per_lun = id->num_chk;
	geo->sec_per_pg = id->ws_min;
	geo->pgs_per_blk = id->clba / id->ws_min;
	geo->sec_size = id->csecs;
	geo->oob_size = id->sos;
	geo->plane_mode = NVM_PLANE_SINGLE;
	geo->sec_per_pl = id->ws_min;
	geo->sec_per_blk = id->clba;
	geo->sec_per_lun = id->clba * id->num_chk;
	geo->nr_secs = (u64)geo->sec_per_lun * geo->nr_luns;
}

/**
 * nvm_geo_from_identity() - derive the geometry from a validated identity
 * @id: identity that passed nvm_validate_identity()
 * @geo: filled in; @geo->max_rq_size is left for the caller
 *
 * Context: any.
 */
void nvm_geo_from_identity(const struct nvm_id *id, struct nvm_geo *geo)
{
	const struct nvm_id_group *grp = &id->groups[0];

	if (id->ver_id == NVM_OCSSD_SPEC_20) {
		nvm_geo_from_id20(&id->id20, geo);
		return;
	}
	geo->version = NVM_OCSSD_SPEC_12;
	geo->nr_chnls = grp->num_ch;
	geo->luns_per_chnl = grp->num_lun;
	geo->nr_luns = grp->num_ch * grp->num_lun;
	geo->nr_planes = grp->num_pln;
	geo->blks_per_lun = grp->num_blk;
	geo->pgs_per_blk = grp->num_pg;
	geo->sec_per_pg = grp->fpg_sz / grp->csecs;
	geo->sec_size = grp->csecs;
	geo->oob_size = grp->sos;
	geo->plane_mode = nvm_plane_mode(grp->mpos);
	geo->sec_per_pl = geo->sec_per_pg * geo->nr_planes;
	geo->sec_per_blk = geo->sec_per_pl * geo->pgs_per_blk;
	geo->sec_per_lun = geo->sec_per_blk * geo->blks_per_lun;
	geo->nr_secs = (u64)geo->sec_per_lun * geo->nr_luns;
	geo->ws_min = geo->sec_per_pl;
	geo->ws_opt = geo->sec_per_pl;
	geo->mw_cunits = 0;
	geo->num_grp = 0;
	geo->num_pu = 0;
	geo->num_chk = 0;
	geo->clba = 0;
	geo->mccap = 0;
	geo->maxoc = 0;
	geo->maxocpu = 0;
}
EXPORT_SYMBOL_GPL(nvm_geo_from_identity);

/**
 * nvm_bb_fold_state() - the state of a block from the states of its planes
 * @planes: the %NVM_BLK_T_* value of each plane
 * @nr_planes: number of planes
 *
 * A block is as bad as its worst plane: factory bad over grown bad over
 * device-reserved over host-used over free. Unknown bits count as
 * factory bad.
 *
 * Context: any.
 * Return: the folded %NVM_BLK_T_* value.
 */
u8 nvm_bb_fold_state(const u8 *planes, int nr_planes)
{
	u8 all = 0;
	int pl;

	for (pl = 0; pl < nr_planes; pl++)
		all |= planes[pl];
	if (all & ~(NVM_BLK_T_BAD | NVM_BLK_T_GRWN_BAD | NVM_BLK_T_DEV |
		    NVM_BLK_T_HOST))
		return NVM_BLK_T_BAD;
	if (all & NVM_BLK_T_BAD)
		return NVM_BLK_T_BAD;
	if (all & NVM_BLK_T_GRWN_BAD)
		return NVM_BLK_T_GRWN_BAD;
	if (all & NVM_BLK_T_DEV)
		return NVM_BLK_T_DEV;
	if (all & NVM_BLK_T_HOST)
		return NVM_BLK_T_HOST;
	return NVM_BLK_T_FREE;
}
EXPORT_SYMBOL_GPL(nvm_bb_fold_state);

/**
 * nvm_bb_tbl_fold() - fold a per-plane bad block table in place
 * @blks: @nr_blks * @nr_planes states, block-major; on return the first
 *	@nr_blks bytes hold one folded state per block
 * @nr_blks: blocks per LUN
 * @nr_planes: planes per LUN (1, 2 or 4)
 *
 * Context: any.
 * Return: @nr_blks, or -EINVAL for a bad @nr_planes or @nr_blks.
 */
int nvm_bb_tbl_fold(u8 *blks, int nr_blks, int nr_planes)
{
	int blk;

	if (nr_blks < 0 || (nr_planes != 1 && nr_planes != 2 && nr_planes != 4))
		return -EINVAL;
	for (blk = 0; blk < nr_blks; blk++)
		blks[blk] = nvm_bb_fold_state(&blks[blk * nr_planes], nr_planes);
	return nr_blks;
}
EXPORT_SYMBOL_GPL(nvm_bb_tbl_fold);

/**
 * nvm_check_chunk_meta() - check one chunk descriptor a 2.0 device reported
 * @geo: the device's geometry
 * @slba: the device address the chunk must start at
 * @m: the descriptor
 * @name: device name, for the messages
 *
 * Exactly one state bit; the start address the chunk's own; 1..clba
 * logical blocks (exactly clba unless the type says the size deviates);
 * the write pointer within the chunk: 0 for a free chunk, strictly inside
 * it for an open one, anything up to the size for a closed one (an early
 * close leaves it short). An offline chunk's size and write pointer are
 * not looked at.
 *
 * Context: any.
 * Return: 0, or -EINVAL after logging the offending field.
 */
int nvm_check_chunk_meta(const struct nvm_geo *geo, u64 slba,
			 const struct nvm_chk_meta *m, const char *name)
{
	if (hweight8(m->state) != 1 || m->state > NVM_CHK_ST_OFFLINE) {
		pr_err("lightnvm: %s: chunk at 0x%llx: state 0x%x is not one of free, closed, open, offline\n",
		       name, slba, m->state);
		return -EINVAL;
	}
	if (m->slba != slba) {
		pr_err("lightnvm: %s: chunk at 0x%llx: slba 0x%llx is another chunk's\n",
		       name, slba, m->slba);
		return -EINVAL;
	}
	if (m->state == NVM_CHK_ST_OFFLINE)
		return 0;
	if (!m->cnlb || m->cnlb > geo->clba ||
	    (m->cnlb != geo->clba && !(m->type & NVM_CHK_TP_SZ_SPEC))) {
		pr_err("lightnvm: %s: chunk at 0x%llx: cnlb %llu does not fit clba %d\n",
		       name, slba, m->cnlb, geo->clba);
		return -EINVAL;
	}
	if (m->wp > m->cnlb || (m->state == NVM_CHK_ST_FREE && m->wp) ||
	    (m->state == NVM_CHK_ST_OPEN && (!m->wp || m->wp == m->cnlb))) {
		pr_err("lightnvm: %s: chunk at 0x%llx: wp %llu does not fit its state 0x%x and cnlb %llu\n",
		       name, slba, m->wp, m->state, m->cnlb);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(nvm_check_chunk_meta);
