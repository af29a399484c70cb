// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the LightNVM core's pure logic: generic <-> device address
 * conversion (1.2 address formats and 2.0 LBA formats), sector order inside
 * a block, identity validation (1.2 identity, 2.0 geometry) and the
 * geometry derived from it, the checks of 2.0 chunk descriptors, the
 * classification of completion statuses, the rule for names, and which
 * LUNs user-space vector I/O may write (a target's LUN ranges).
 */

#include <kunit/test.h>
#include <linux/lightnvm.h>

#include "core.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Generic layout itself: conversion must be the identity. */
static const struct nvm_addr_format ppaf_generic = {
	.blk_len = 16,
	.pg_offset = 16,   .pg_len = 16,
	.sect_offset = 32, .sect_len = 8,
	.pln_offset = 40,  .pln_len = 8,
	.lun_offset = 48,  .lun_len = 8,
	.ch_offset = 56,   .ch_len = 7,
};

/* Packed, sector lowest (the QEMU OCSSD style). */
static const struct nvm_addr_format ppaf_packed = {
	.sect_len = 2,
	.pln_offset = 2,  .pln_len = 1,
	.pg_offset = 3,   .pg_len = 9,
	.blk_offset = 12, .blk_len = 10,
	.lun_offset = 22, .lun_len = 2,
	.ch_offset = 24,  .ch_len = 1,
};

/* Channel lowest, high offsets, a gap between fields. */
static const struct nvm_addr_format ppaf_reversed = {
	.ch_len = 4,
	.lun_offset = 4,   .lun_len = 3,
	.pln_offset = 8,   .pln_len = 2,
	.blk_offset = 10,  .blk_len = 12,
	.pg_offset = 30,   .pg_len = 10,
	.sect_offset = 60, .sect_len = 4,
};

static struct ppa_addr mkppa(u64 ch, u64 lun, u64 pl, u64 blk, u64 pg, u64 sec)
{
	struct ppa_addr p = { .ppa = 0 };

	p.g.ch = ch;
	p.g.lun = lun;
	p.g.pl = pl;
	p.g.blk = blk;
	p.g.pg = pg;
	p.g.sec = sec;
	return p;
}

static u64 fmask(u8 len)
{
	return len >= 64 ? ~0ULL : (1ULL << len) - 1;
}

static void roundtrip(struct kunit *test, const struct nvm_addr_format *f)
{
	static const u64 seeds[] = { 0, 1, 2, 3, 0x5a5a, 0xffff, 0x1234, 0x7 };
	int i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		u64 s = seeds[i];
		struct ppa_addr g = mkppa(s & fmask(f->ch_len),
					  (s >> 1) & fmask(f->lun_len),
					  (s >> 2) & fmask(f->pln_len),
					  (s * 7) & fmask(f->blk_len),
					  (s * 3) & fmask(f->pg_len),
					  (s >> 3) & fmask(f->sect_len));
		struct ppa_addr d = nvm_generic_to_dev(f, g);
		struct ppa_addr back = nvm_dev_to_generic(f, d);

		KUNIT_EXPECT_EQ_MSG(test, back.ppa, g.ppa, "seed %llu", s);
	}
}

static void nvm_ppa_roundtrip_generic(struct kunit *test)
{
	struct ppa_addr g = mkppa(5, 3, 1, 1000, 200, 3);

	roundtrip(test, &ppaf_generic);
	KUNIT_EXPECT_EQ(test, nvm_generic_to_dev(&ppaf_generic, g).ppa, g.ppa);
}

static void nvm_ppa_roundtrip_packed(struct kunit *test)
{
	struct ppa_addr g = mkppa(1, 2, 1, 513, 257, 3), d;
	u64 want = 3ULL | 1ULL << 2 | 257ULL << 3 | 513ULL << 12 |
		   2ULL << 22 | 1ULL << 24;

	roundtrip(test, &ppaf_packed);
	KUNIT_EXPECT_EQ(test, nvm_generic_to_dev(&ppaf_packed, g).ppa, want);
	d.ppa = want;
	KUNIT_EXPECT_EQ(test, nvm_dev_to_generic(&ppaf_packed, d).ppa, g.ppa);
}

static void nvm_ppa_roundtrip_reversed(struct kunit *test)
{
	struct ppa_addr g = mkppa(9, 6, 3, 4095, 1023, 15);
	u64 want = 9ULL | 6ULL << 4 | 3ULL << 8 | 4095ULL << 10 |
		   1023ULL << 30 | 15ULL << 60;

	roundtrip(test, &ppaf_reversed);
	KUNIT_EXPECT_EQ(test, nvm_generic_to_dev(&ppaf_reversed, g).ppa, want);
}

static void nvm_ppa_empty(struct kunit *test)
{
	struct ppa_addr e = { .ppa = ADDR_EMPTY };

	KUNIT_EXPECT_EQ(test, nvm_generic_to_dev(&ppaf_packed, e).ppa, ADDR_EMPTY);
	KUNIT_EXPECT_EQ(test, nvm_dev_to_generic(&ppaf_packed, e).ppa, ADDR_EMPTY);
}

/* A valid identity: 2 ch x 4 LUN x 2 planes x 64 blk x 32 pg x 4 sectors. */
static void good_id(struct nvm_id *id)
{
	memset(id, 0, sizeof(*id));
	id->ver_id = 1;
	id->cgrps = 1;
	id->cap = NVM_ID_CAP_BBT;
	id->ppaf = ppaf_packed;
	id->ppaf.pg_len = 5;
	id->ppaf.blk_offset = 8;
	id->ppaf.blk_len = 6;
	id->ppaf.lun_offset = 14;
	id->ppaf.ch_offset = 16;
	id->groups[0].num_ch = 2;
	id->groups[0].num_lun = 4;
	id->groups[0].num_pln = 2;
	id->groups[0].num_blk = 64;
	id->groups[0].num_pg = 32;
	id->groups[0].fpg_sz = 16384;
	id->groups[0].csecs = 4096;
	id->groups[0].sos = 16;
	id->groups[0].mpos = 0x020202;
}

static void nvm_geo_good(struct kunit *test)
{
	struct nvm_id id;
	struct nvm_geo geo;

	good_id(&id);
	KUNIT_ASSERT_EQ(test, nvm_validate_identity(&id, "kunit"), 0);
	nvm_geo_from_identity(&id, &geo);
	KUNIT_EXPECT_EQ(test, geo.nr_luns, 8);
	KUNIT_EXPECT_EQ(test, geo.sec_per_pg, 4);
	KUNIT_EXPECT_EQ(test, geo.sec_per_pl, 8);
	KUNIT_EXPECT_EQ(test, geo.sec_per_blk, 8 * 32);
	KUNIT_EXPECT_EQ(test, geo.sec_per_lun, 8 * 32 * 64);
	KUNIT_EXPECT_EQ(test, geo.nr_secs, 8ULL * 32 * 64 * 8);
	KUNIT_EXPECT_EQ(test, geo.plane_mode, NVM_PLANE_DOUBLE);
	KUNIT_EXPECT_EQ(test, geo.oob_size, 16);
}

static void set_overflow(struct nvm_id *id)
{
	/* 8 sectors * 4 planes * 65535 pages * 65535 blocks per LUN */
	id->groups[0].fpg_sz = 4096 * 8;
	id->groups[0].num_pln = 4;
	id->groups[0].mpos = 0x040404;
	id->groups[0].num_pg = 65535;
	id->groups[0].num_blk = 65535;
	id->ppaf.sect_len = 3;
	id->ppaf.pln_offset = 3;
	id->ppaf.pln_len = 2;
	id->ppaf.pg_offset = 5;
	id->ppaf.pg_len = 16;
	id->ppaf.blk_offset = 21;
	id->ppaf.blk_len = 16;
	id->ppaf.lun_offset = 37;
	id->ppaf.lun_len = 3;
	id->ppaf.ch_offset = 40;
	id->ppaf.ch_len = 1;
}

static const char * const bad_cases[] = {
	"ver_id not 1 or 2", "cgrps != 1", "mtype not NAND", "fmtype > 1",
	"num_ch 0", "num_ch > 128", "num_lun 0", "num_pln 3", "num_blk 0",
	"num_pg 0", "csecs 512", "fpg_sz not a multiple of csecs", "fpg_sz 0",
	"sos too large", "quad-plane mpos on 2 planes", "ppaf beyond 64 bits",
	"ppaf fields overlap", "ppaf field too narrow",
	"sectors per LUN overflow", "ppaf 0-bit field at offset 64",
};

/* Break one thing in a good identity: bad case @i of bad_cases[]. */
static void break_id(struct nvm_id *id, int i)
{
	struct nvm_id_group *g = &id->groups[0];

	switch (i) {
	case 0:
		id->ver_id = 3;
		break;
	case 1:
		id->cgrps = 2;
		break;
	case 2:
		g->mtype = 1;
		break;
	case 3:
		g->fmtype = 2;
		break;
	case 4:
		g->num_ch = 0;
		break;
	case 5:
		g->num_ch = 200;
		break;
	case 6:
		g->num_lun = 0;
		break;
	case 7:
		g->num_pln = 3;
		break;
	case 8:
		g->num_blk = 0;
		break;
	case 9:
		g->num_pg = 0;
		break;
	case 10:
		g->csecs = 512;
		break;
	case 11:
		g->fpg_sz = 6000;
		break;
	case 12:
		g->fpg_sz = 0;
		break;
	case 13:
		g->sos = 4096;
		break;
	case 14:
		g->mpos = 0x040404;
		break;
	case 15:
		id->ppaf.ch_offset = 63;
		id->ppaf.ch_len = 2;
		break;
	case 16:
		id->ppaf.blk_offset = 4;
		break;
	case 17:
		id->ppaf.blk_len = 5;
		break;
	case 18:
		set_overflow(id);
		break;
	case 19:
		g->num_ch = 1;
		id->ppaf.ch_len = 0;
		id->ppaf.ch_offset = 64;
		break;
	}
}

static void nvm_geo_rejects(struct kunit *test)
{
	struct nvm_id id;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		good_id(&id);
		break_id(&id, i);
		KUNIT_EXPECT_EQ_MSG(test, nvm_validate_identity(&id, "kunit"),
				    -EINVAL, "case: %s", bad_cases[i]);
	}
}

static void nvm_blk_off_order(struct kunit *test)
{
	struct nvm_id id;
	struct nvm_geo geo;
	struct ppa_addr blk = mkppa(1, 3, 0, 17, 0, 0);
	unsigned int off;

	good_id(&id);
	nvm_geo_from_identity(&id, &geo);
	for (off = 0; off < geo.sec_per_blk; off++) {
		struct ppa_addr p = nvm_blk_off_to_ppa(&geo, blk, off);

		KUNIT_ASSERT_EQ(test, nvm_ppa_to_blk_off(&geo, p), off);
		KUNIT_ASSERT_EQ(test, (u64)p.g.blk, 17ULL);
		KUNIT_ASSERT_EQ(test, (u64)p.g.ch, 1ULL);
		KUNIT_ASSERT_EQ(test, (u64)p.g.lun, 3ULL);
		KUNIT_ASSERT_LT(test, (int)p.g.sec, geo.sec_per_pg);
		KUNIT_ASSERT_LT(test, (int)p.g.pl, geo.nr_planes);
		KUNIT_ASSERT_LT(test, (int)p.g.pg, geo.pgs_per_blk);
	}
	/* page-major: the 9th sector (4 sectors x 2 planes) opens page 1 */
	KUNIT_EXPECT_EQ(test, (u64)nvm_blk_off_to_ppa(&geo, blk, 8).g.pg, 1ULL);
	KUNIT_EXPECT_EQ(test, (u64)nvm_blk_off_to_ppa(&geo, blk, 4).g.pl, 1ULL);
}

/* Planes fold to the worst state; in place, block-major. */
static void nvm_bb_fold(struct kunit *test)
{
	u8 two[] = {
		NVM_BLK_T_FREE, NVM_BLK_T_FREE,		/* blk 0: free */
		NVM_BLK_T_FREE, NVM_BLK_T_BAD,		/* blk 1: bad in plane 1 */
		NVM_BLK_T_GRWN_BAD, NVM_BLK_T_FREE,	/* blk 2: grown bad */
		NVM_BLK_T_HOST, NVM_BLK_T_DEV,		/* blk 3: dev wins */
		NVM_BLK_T_HOST, NVM_BLK_T_HOST,		/* blk 4: host */
		0x40, NVM_BLK_T_FREE,			/* blk 5: unknown = bad */
	};
	u8 four[] = {
		0, 0, 0, NVM_BLK_T_GRWN_BAD,
		0, 0, 0, 0,
	};
	u8 one[] = { NVM_BLK_T_BAD, NVM_BLK_T_FREE, NVM_BLK_T_GRWN_BAD };

	KUNIT_ASSERT_EQ(test, nvm_bb_tbl_fold(two, 6, 2), 6);
	KUNIT_EXPECT_EQ(test, two[0], NVM_BLK_T_FREE);
	KUNIT_EXPECT_EQ(test, two[1], NVM_BLK_T_BAD);
	KUNIT_EXPECT_EQ(test, two[2], NVM_BLK_T_GRWN_BAD);
	KUNIT_EXPECT_EQ(test, two[3], NVM_BLK_T_DEV);
	KUNIT_EXPECT_EQ(test, two[4], NVM_BLK_T_HOST);
	KUNIT_EXPECT_EQ(test, two[5], NVM_BLK_T_BAD);

	KUNIT_ASSERT_EQ(test, nvm_bb_tbl_fold(four, 2, 4), 2);
	KUNIT_EXPECT_EQ(test, four[0], NVM_BLK_T_GRWN_BAD);
	KUNIT_EXPECT_EQ(test, four[1], NVM_BLK_T_FREE);

	KUNIT_ASSERT_EQ(test, nvm_bb_tbl_fold(one, 3, 1), 3);
	KUNIT_EXPECT_EQ(test, one[0], NVM_BLK_T_BAD);
	KUNIT_EXPECT_EQ(test, one[1], NVM_BLK_T_FREE);
	KUNIT_EXPECT_EQ(test, one[2], NVM_BLK_T_GRWN_BAD);

	KUNIT_EXPECT_EQ(test, nvm_bb_tbl_fold(one, 3, 3), -EINVAL);
}

/* Names: ASCII letters, digits, '_', '-', '.'; not leading '-' or '.'. */
static void nvm_name_accepts(struct kunit *test)
{
	static const char *const good[] = {
		"a", "rrpc0", "t_a", "nvm_mem0", "A-b.c_9", "0", "_x", "a-", "a.",
		"rrpc.1-2",
	};
	char longest[8];
	int i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		KUNIT_EXPECT_EQ_MSG(test, nvm_check_name("test", "name", good[i],
							 DISK_NAME_LEN), 0,
				    "name \"%s\"", good[i]);
	memset(longest, 'x', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = '\0';
	KUNIT_EXPECT_EQ(test, nvm_check_name("test", "name", longest,
					     sizeof(longest)), 0);
}

static void nvm_name_refuses(struct kunit *test)
{
	static const char *const bad[] = {
		"", "-a", ".a", ".", "..", "a/b", "/", "a b", " a", "a\xe9",
		"\xe9t\xe9", "a\xff", "a\x80", "a\n", "a:b", "a*", "a\\b",
	};
	char full[8];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, nvm_check_name("test", "name", bad[i],
							 DISK_NAME_LEN),
				    -EINVAL, "name %*phN", (int)strlen(bad[i]),
				    bad[i]);
	/* no NUL within the array: one character too long */
	memset(full, 'x', sizeof(full));
	KUNIT_EXPECT_EQ(test, nvm_check_name("test", "name", full,
					     sizeof(full)), -EINVAL);
}

/* ---------------------------------------------------- Open-Channel 2.0 */

/*
 * A good 2.0 geometry: 2 groups x 3 PUs x 10 chunks of 96 logical blocks,
 * ws_min 4 (24 units: not a power of two), ws_opt 8.
 */
static void good_id20(struct nvm_id *id)
{
	struct nvm_id20 *g = &id->id20;

	memset(id, 0, sizeof(*id));
	id->ver_id = NVM_OCSSD_SPEC_20;
	g->num_grp = 2;
	g->num_pu = 3;
	g->num_chk = 10;
	g->clba = 96;
	g->ws_min = 4;
	g->ws_opt = 8;
	g->mw_cunits = 8;
	g->maxoc = 60;
	g->maxocpu = 10;
	g->csecs = 4096;
	g->sos = 16;
	nvm_addrf20_from_lens(&g->lbaf, 1, 2, 4, 7);
}

static void nvm_geo20_good(struct kunit *test)
{
	struct nvm_id id;
	struct nvm_geo geo = { };

	good_id20(&id);
	KUNIT_ASSERT_EQ(test, nvm_validate_identity(&id, "kunit"), 0);
	nvm_geo_from_identity(&id, &geo);
	KUNIT_EXPECT_EQ(test, geo.version, NVM_OCSSD_SPEC_20);
	KUNIT_EXPECT_EQ(test, geo.num_grp, 2);
	KUNIT_EXPECT_EQ(test, geo.num_pu, 3);
	KUNIT_EXPECT_EQ(test, geo.num_chk, 10);
	KUNIT_EXPECT_EQ(test, geo.clba, 96);
	KUNIT_EXPECT_EQ(test, geo.ws_min, 4);
	KUNIT_EXPECT_EQ(test, geo.ws_opt, 8);
	KUNIT_EXPECT_EQ(test, geo.mw_cunits, 8);
	/* what targets see: a one-plane device with ws_min-sector pages */
	KUNIT_EXPECT_EQ(test, geo.nr_chnls, 2);
	KUNIT_EXPECT_EQ(test, geo.luns_per_chnl, 3);
	KUNIT_EXPECT_EQ(test, geo.nr_luns, 6);
	KUNIT_EXPECT_EQ(test, geo.nr_planes, 1);
	KUNIT_EXPECT_EQ(test, geo.blks_per_lun, 10);
	KUNIT_EXPECT_EQ(test, geo.sec_per_pg, 4);
	KUNIT_EXPECT_EQ(test, geo.pgs_per_blk, 24);
	KUNIT_EXPECT_EQ(test, geo.sec_per_pl, 4);
	KUNIT_EXPECT_EQ(test, geo.sec_per_blk, 96);
	KUNIT_EXPECT_EQ(test, geo.sec_per_lun, 960);
	KUNIT_EXPECT_EQ(test, geo.nr_secs, 5760ULL);
	KUNIT_EXPECT_EQ(test, geo.oob_size, 16);
	KUNIT_EXPECT_EQ(test, geo.plane_mode, NVM_PLANE_SINGLE);

	/* a 1.2 device gets its write unit in the same fields */
	good_id(&id);
	nvm_geo_from_identity(&id, &geo);
	KUNIT_EXPECT_EQ(test, geo.version, NVM_OCSSD_SPEC_12);
	KUNIT_EXPECT_EQ(test, geo.ws_min, geo.sec_per_pl);
	KUNIT_EXPECT_EQ(test, geo.ws_opt, geo.sec_per_pl);
	KUNIT_EXPECT_EQ(test, geo.num_grp, 0);
}

static const char * const bad20_cases[] = {
	"num_grp 0", "num_grp > 128", "num_pu 0", "num_pu > 255", "num_chk 0",
	"num_chk > 65535", "ws_min 0", "ws_min > 64", "clba 0",
	"clba not a multiple of ws_min", "clba / ws_min > 65535", "ws_opt 0",
	"ws_opt not a multiple of ws_min", "ws_opt > clba",
	"mw_cunits > clba", "maxocpu > num_chk", "maxoc > chunks",
	"csecs 512", "sos too large", "clba x num_chk overflows",
	"lbaf beyond 64 bits", "lbaf fields overlap", "lbaf lbk too narrow",
	"lbaf chk too narrow", "lbaf pu too narrow", "lbaf grp too narrow",
	"lbaf 0-bit field at offset 64",
};

static void break_id20(struct nvm_id *id, int i)
{
	struct nvm_id20 *g = &id->id20;

	switch (i) {
	case 0:
		g->num_grp = 0;
		break;
	case 1:
		g->num_grp = 129;
		break;
	case 2:
		g->num_pu = 0;
		break;
	case 3:
		g->num_pu = 256;
		break;
	case 4:
		g->num_chk = 0;
		break;
	case 5:
		g->num_chk = 65536;
		break;
	case 6:
		g->ws_min = 0;
		break;
	case 7:
		g->ws_min = 128;
		g->clba = 256;
		g->ws_opt = 128;
		break;
	case 8:
		g->clba = 0;
		break;
	case 9:
		g->clba = 98;
		break;
	case 10:
		g->ws_min = 1;
		g->ws_opt = 1;
		g->clba = 65536;
		nvm_addrf20_from_lens(&g->lbaf, 1, 2, 4, 17);
		break;
	case 11:
		g->ws_opt = 0;
		break;
	case 12:
		g->ws_opt = 6;
		break;
	case 13:
		g->ws_opt = 100;
		break;
	case 14:
		g->mw_cunits = 97;
		break;
	case 15:
		g->maxocpu = 11;
		break;
	case 16:
		g->maxoc = 61;
		break;
	case 17:
		g->csecs = 512;
		break;
	case 18:
		g->sos = 4096;
		break;
	case 19:
		/* 2^26 x 65535 logical blocks per PU: beyond INT_MAX */
		g->ws_min = 64;
		g->ws_opt = 64;
		g->clba = 64 * 65535;
		g->num_chk = 65535;
		g->maxocpu = 0;
		nvm_addrf20_from_lens(&g->lbaf, 1, 2, 16, 22);
		break;
	case 20:
		g->lbaf.grp_offset = 63;
		g->lbaf.grp_len = 2;
		break;
	case 21:
		g->lbaf.chk_offset = 3;
		break;
	case 22:
		g->lbaf.lbk_len = 6;
		break;
	case 23:
		g->lbaf.chk_len = 3;
		break;
	case 24:
		g->lbaf.pu_len = 1;
		break;
	case 25:
		g->num_grp = 3;
		break;
	case 26:
		g->num_grp = 1;
		g->maxoc = 30;
		g->lbaf.grp_len = 0;
		g->lbaf.grp_offset = 64;
		break;
	}
}

static void nvm_geo20_rejects(struct kunit *test)
{
	struct nvm_id id;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad20_cases); i++) {
		good_id20(&id);
		break_id20(&id, i);
		KUNIT_EXPECT_EQ_MSG(test, nvm_validate_identity(&id, "kunit"),
				    -EINVAL, "case: %s", bad20_cases[i]);
	}
}

/*
 * Every logical block of the good geometry: generic (blk_off) -> 2.0 device
 * address is grp | pu | chk | lbk in the LBA format, and back.
 */
static void nvm_ppa20_roundtrip(struct kunit *test)
{
	const struct nvm_addrf20 *f;
	struct nvm_geo geo = { };
	struct ppa_addr empty;
	struct nvm_id id;
	u32 grp, pu, chk, lbk;

	good_id20(&id);
	nvm_geo_from_identity(&id, &geo);
	f = &id.id20.lbaf;
	KUNIT_ASSERT_EQ(test, f->lbk_offset, 0);
	KUNIT_ASSERT_EQ(test, f->chk_offset, 7);
	KUNIT_ASSERT_EQ(test, f->pu_offset, 11);
	KUNIT_ASSERT_EQ(test, f->grp_offset, 13);
	for (grp = 0; grp < 2; grp++)
		for (pu = 0; pu < 3; pu++)
			for (chk = 0; chk < 10; chk++)
				for (lbk = 0; lbk < 96; lbk++) {
					struct ppa_addr b = mkppa(grp, pu, 0,
								  chk, 0, 0);
					struct ppa_addr g, d, back;
					u64 want;

					g = nvm_blk_off_to_ppa(&geo, b, lbk);
					KUNIT_ASSERT_EQ(test, (u64)g.g.pl, 0ULL);
					d = nvm_generic_to_dev20(&geo, f, g);
					want = (u64)grp << 13 | (u64)pu << 11 |
					       (u64)chk << 7 | lbk;
					KUNIT_ASSERT_EQ(test, d.ppa, want);
					back = nvm_dev20_to_generic(&geo, f, d);
					KUNIT_ASSERT_EQ(test, back.ppa, g.ppa);
					KUNIT_ASSERT_EQ(test,
							nvm_ppa_to_blk_off(&geo,
									   back),
							lbk);
				}
	/* the empty address stays empty both ways */
	empty.ppa = ADDR_EMPTY;
	KUNIT_EXPECT_EQ(test, nvm_generic_to_dev20(&geo, f, empty).ppa,
			ADDR_EMPTY);
	KUNIT_EXPECT_EQ(test, nvm_dev20_to_generic(&geo, f, empty).ppa,
			ADDR_EMPTY);
}

/* A 2.0 LBA format with the fields in the high bits and gaps between them. */
static void nvm_ppa20_gaps(struct kunit *test)
{
	struct nvm_addrf20 f = {
		.lbk_offset = 4,  .lbk_len = 8,
		.chk_offset = 16, .chk_len = 4,
		.pu_offset = 32,  .pu_len = 2,
		.grp_offset = 60, .grp_len = 1,
	};
	struct nvm_geo geo = { .ws_min = 16 };
	struct ppa_addr g = mkppa(1, 2, 0, 9, 5, 3), d;

	d = nvm_generic_to_dev20(&geo, &f, g);
	KUNIT_EXPECT_EQ(test, d.ppa, 1ULL << 60 | 2ULL << 32 | 9ULL << 16 |
			(5ULL * 16 + 3) << 4);
	KUNIT_EXPECT_EQ(test, nvm_dev20_to_generic(&geo, &f, d).ppa, g.ppa);
}

static void nvm_chunk_meta_checks(struct kunit *test)
{
	struct nvm_geo geo = { .clba = 96 };
	struct nvm_chk_meta m;
	const u64 slba = 0x2a80;

	memset(&m, 0, sizeof(m));
	m.slba = slba;
	m.cnlb = 96;
	m.type = NVM_CHK_TP_W_SEQ;

	m.state = NVM_CHK_ST_FREE;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), 0);
	m.state = NVM_CHK_ST_OPEN;
	m.wp = 8;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), 0);
	m.state = NVM_CHK_ST_CLOSED;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), 0);
	m.wp = 96;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), 0);
	/* offline: size and write pointer are not looked at */
	m.state = NVM_CHK_ST_OFFLINE;
	m.cnlb = 0;
	m.wp = 1000;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), 0);

	m.cnlb = 96;
	m.wp = 0;
	m.state = 0;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.state = NVM_CHK_ST_FREE | NVM_CHK_ST_OPEN;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.state = 0x10;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.state = NVM_CHK_ST_FREE;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba + 1, &m, "k"),
			-EINVAL);
	m.wp = 1;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.state = NVM_CHK_ST_OPEN;
	m.wp = 0;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.wp = 96;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.state = NVM_CHK_ST_CLOSED;
	m.wp = 97;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.wp = 10;
	m.cnlb = 0;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.cnlb = 97;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	/* a short chunk only when its type says so */
	m.cnlb = 48;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), -EINVAL);
	m.type |= NVM_CHK_TP_SZ_SPEC;
	KUNIT_EXPECT_EQ(test, nvm_check_chunk_meta(&geo, slba, &m, "k"), 0);
}

static struct kunit_case nvm_ppa_cases[] = {
	KUNIT_CASE(nvm_ppa_roundtrip_generic),
	KUNIT_CASE(nvm_ppa_roundtrip_packed),
	KUNIT_CASE(nvm_ppa_roundtrip_reversed),
	KUNIT_CASE(nvm_ppa_empty),
	KUNIT_CASE(nvm_blk_off_order),
	KUNIT_CASE(nvm_ppa20_roundtrip),
	KUNIT_CASE(nvm_ppa20_gaps),
	{}
};

static struct kunit_suite nvm_ppa_suite = {
	.name = "lightnvm_ppa",
	.test_cases = nvm_ppa_cases,
};

/* Media statuses against host and transport ones (NVMe generic/path). */
static void nvm_rsp_media(struct kunit *test)
{
	static const u16 media[] = {
		NVM_RSP_ERR_FAILWRITE, NVM_RSP_ERR_EMPTYPAGE,
		NVM_RSP_ERR_FAILECC, NVM_RSP_ERR_FAILCRC,
		NVM_RSP_ERR_FAILERASE, NVM_RSP_WARN_HIGHECC,
	};
	/* success, internal error, aborted, path error, host aborted */
	static const u16 host[] = { 0x0, 0x6, 0x7, 0x370, 0x371, 0x4000 };
	int i;

	for (i = 0; i < ARRAY_SIZE(media); i++)
		KUNIT_EXPECT_TRUE_MSG(test, nvm_rsp_is_media(media[i]),
				      "status 0x%x", media[i]);
	for (i = 0; i < ARRAY_SIZE(host); i++)
		KUNIT_EXPECT_FALSE_MSG(test, nvm_rsp_is_media(host[i]),
				       "status 0x%x", host[i]);
}

/* 2.0 statuses: offline and write failures are media, the rest the host's. */
static void nvm_rsp20(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, nvm_rsp_is_media(NVM_RSP_ERR_OFFLINE));
	KUNIT_EXPECT_TRUE(test, nvm_rsp_is_media(NVM_RSP_ERR_WRITENEXTUNIT));
	KUNIT_EXPECT_TRUE(test, nvm_rsp_is_media(NVM_RSP_ERR_FAILCLOSE));
	KUNIT_EXPECT_FALSE(test, nvm_rsp_is_media(NVM_RSP_ERR_OUTOFORDER));
	KUNIT_EXPECT_FALSE(test, nvm_rsp_is_media(NVM_RSP_ERR_INVALIDRESET));

	KUNIT_EXPECT_TRUE(test, nvm_rsp_is_write_fail(NVM_RSP_ERR_FAILWRITE));
	KUNIT_EXPECT_TRUE(test, nvm_rsp_is_write_fail(NVM_RSP_ERR_OFFLINE));
	KUNIT_EXPECT_TRUE(test,
			  nvm_rsp_is_write_fail(NVM_RSP_ERR_WRITENEXTUNIT));
	KUNIT_EXPECT_TRUE(test, nvm_rsp_is_write_fail(NVM_RSP_ERR_FAILCLOSE));
	KUNIT_EXPECT_FALSE(test, nvm_rsp_is_write_fail(NVM_RSP_ERR_OUTOFORDER));
	KUNIT_EXPECT_FALSE(test, nvm_rsp_is_write_fail(NVM_RSP_ERR_EMPTYPAGE));
	KUNIT_EXPECT_FALSE(test, nvm_rsp_is_write_fail(NVM_RSP_SUCCESS));
}

static struct kunit_case nvm_geo_cases[] = {
	KUNIT_CASE(nvm_geo_good),
	KUNIT_CASE(nvm_geo_rejects),
	KUNIT_CASE(nvm_bb_fold),
	KUNIT_CASE(nvm_rsp_media),
	KUNIT_CASE(nvm_geo20_good),
	KUNIT_CASE(nvm_geo20_rejects),
	KUNIT_CASE(nvm_chunk_meta_checks),
	KUNIT_CASE(nvm_rsp20),
	{}
};

static struct kunit_suite nvm_geo_suite = {
	.name = "lightnvm_geo",
	.test_cases = nvm_geo_cases,
};

static struct kunit_case nvm_name_cases[] = {
	KUNIT_CASE(nvm_name_accepts),
	KUNIT_CASE(nvm_name_refuses),
	{}
};

static struct kunit_suite nvm_name_suite = {
	.name = "lightnvm_name",
	.test_cases = nvm_name_cases,
};

/*
 * LUN ownership for user-space vector I/O: two fake targets on nvm_targets
 * (LUNs 1-2 of one device, 0-3 of another), as nvm_tgt_reserve() puts
 * them there, under nvm_lock.
 */
static void nvm_lun_owned(struct kunit *test)
{
	struct nvm_core_target *ct, *cu;
	struct nvm_dev *dev, *other;
	struct nvm_target *t, *u;
	struct ppa_addr ppas[2];
	int ch, lun;

	dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	ct = kunit_kzalloc(test, sizeof(*ct), GFP_KERNEL);
	cu = kunit_kzalloc(test, sizeof(*cu), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_ASSERT_NOT_NULL(test, ct);
	KUNIT_ASSERT_NOT_NULL(test, cu);
	/* being created: not listed in sysfs, not removable */
	ct->state = NVM_TGT_CREATING;
	cu->state = NVM_TGT_CREATING;
	t = &ct->tgt;
	u = &cu->tgt;
	strscpy(dev->name, "kunit_dev", sizeof(dev->name));
	dev->geo.nr_chnls = 2;
	dev->geo.luns_per_chnl = 2;
	dev->geo.nr_luns = 4;
	other->geo = dev->geo;
	t->dev = dev;
	t->conf.lun_begin = 1;
	t->conf.lun_end = 2;
	u->dev = other;
	u->conf.lun_begin = 0;
	u->conf.lun_end = 3;

	mutex_lock(&nvm_lock);
	list_add_tail(&t->list, &nvm_targets);
	list_add_tail(&u->list, &nvm_targets);
	mutex_unlock(&nvm_lock);

	/* LUN index = ch * luns_per_chnl + lun: 0 free, 1 and 2 owned, 3 free */
	for (ch = 0; ch < 2; ch++) {
		for (lun = 0; lun < 2; lun++) {
			int id = ch * 2 + lun;

			KUNIT_EXPECT_EQ_MSG(test,
					    (int)nvm_ppa_lun_owned(dev, mkppa(ch, lun, 1, 7, 3, 2)),
					    (int)(id == 1 || id == 2), "ch %d lun %d", ch, lun);
		}
	}

	ppas[0] = mkppa(0, 0, 0, 0, 0, 0);
	ppas[1] = mkppa(1, 1, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, nvm_user_write_begin(dev, ppas, 2), 0);
	KUNIT_EXPECT_EQ(test, dev->user_writes, 1U);
	nvm_user_write_end(dev);
	KUNIT_EXPECT_EQ(test, dev->user_writes, 0U);
	ppas[1] = mkppa(1, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, nvm_user_write_begin(dev, ppas, 2), -EBUSY);
	KUNIT_EXPECT_EQ(test, dev->user_writes, 0U);

	mutex_lock(&nvm_lock);
	list_del(&t->list);
	mutex_unlock(&nvm_lock);
	/* a removed target's LUNs are free again; the other device's are not */
	KUNIT_EXPECT_FALSE(test, nvm_ppa_lun_owned(dev, mkppa(0, 1, 0, 0, 0, 0)));
	KUNIT_EXPECT_TRUE(test, nvm_ppa_lun_owned(other, mkppa(0, 1, 0, 0, 0, 0)));
	mutex_lock(&nvm_lock);
	list_del(&u->list);
	mutex_unlock(&nvm_lock);
	KUNIT_EXPECT_FALSE(test, nvm_ppa_lun_owned(other, mkppa(0, 1, 0, 0, 0, 0)));
}

static struct kunit_case nvm_owner_cases[] = {
	KUNIT_CASE(nvm_lun_owned),
	{}
};

static struct kunit_suite nvm_owner_suite = {
	.name = "lightnvm_owner",
	.test_cases = nvm_owner_cases,
};

kunit_test_suites(&nvm_ppa_suite, &nvm_geo_suite, &nvm_name_suite,
		  &nvm_owner_suite);

MODULE_DESCRIPTION("KUnit tests for the LightNVM core");
MODULE_LICENSE("GPL");
