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
	u64 used = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		const struct nvm_ppaf_field *fl = &fields[i];
		u64 mask;

		/* even a 0-bit field is shifted by its offset on every I/O */
		if (fl->offset >= 64) {
			pr_err("lightnvm: %s: ppaf.%s offset %u is not below 64\n",
			       name, fl->name, fl->offset);
			return -EINVAL;
		}
		if (fl->offset + fl->len > 64) {
			pr_err("lightnvm: %s: ppaf.%s (offset %u, len %u) does not fit in 64 bits\n",
			       name, fl->name, fl->offset, fl->len);
			return -EINVAL;
		}
		if (fl->len < 32 && (1ULL << fl->len) < fl->count) {
			pr_err("lightnvm: %s: ppaf.%s is %u bits, too narrow for %u values\n",
			       name, fl->name, fl->len, fl->count);
			return -EINVAL;
		}
		if (!fl->len)
			continue;
		mask = (fl->len == 64 ? ~0ULL : (1ULL << fl->len) - 1) << fl->offset;
		if (used & mask) {
			pr_err("lightnvm: %s: ppaf.%s overlaps another address field\n",
			       name, fl->name);
			return -EINVAL;
		}
		used |= mask;
	}
	return 0;
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

/**
 * nvm_validate_identity() - check that the core can drive a device
 * @id: identity as read from the device (host endian)
 * @name: device name, for the messages
 *
 * Rejects what the core does not support (identity versions other than 1,
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

	if (id->ver_id != 1) {
		pr_err("lightnvm: %s: identity version %u not supported (need 1, Open-Channel SSD 1.2)\n",
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
