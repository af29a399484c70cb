// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of nvm_mem's NAND model (media.c, linked into this module):
 * geometry validation, the identity and address format the core sees,
 * program order and program-once, empty reads, erase giving memory back,
 * OOB round trips, bad blocks, out-of-range addresses, injected faults,
 * the unplugged state, power cuts (dropped, applied and torn commands, the
 * seeded choice, torn sectors until erase), per-request status, the
 * counters, and data=0 (sectors of one repeated word kept as that word:
 * exact reads, records freed by the erase, torn sectors, copies); and the
 * same media as an Open-Channel SSD 2.0 device: its geometry, address
 * translation, chunk write and reset rules, early close and offline
 * chunks, cuts tearing whole write units, the chunk report, with data=1
 * and data=0.
 */

#include <kunit/test.h>
#include <linux/bio.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "nvm_mem.h"

#define T_MAX	NVM_MEM_MAX_PHYS_SECT

struct t_ctx {
	struct nvm_mem_media	*m;
	struct nvm_mem_media	*m2;
	struct bio		*bio;
	struct page		*pages[T_MAX];
	int			nr_pages;
	struct nvm_rq		rqd;
	struct ppa_addr		ppas[T_MAX];
	u8			meta[T_MAX * NVM_MEM_MAX_OOB];
	int			fault_every;	/* fail every n-th call, 0: never */
	int			fault_calls;
	int			alloc_fail;	/* fail the n-th allocation */
	int			alloc_calls;
	bool			unplug_in_fault; /* cut the power at a call */
	u64			words;	/* sectors t_fill() makes one word */
};

static int t_init(struct kunit *test)
{
	struct t_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	test->priv = c;
	return 0;
}

static void t_free_bio(struct t_ctx *c)
{
	int i;

	if (!c->bio)
		return;
	bio_uninit(c->bio);
	kfree(c->bio);
	c->bio = NULL;
	for (i = 0; i < c->nr_pages; i++)
		__free_page(c->pages[i]);
	c->nr_pages = 0;
}

static void t_exit(struct kunit *test)
{
	struct t_ctx *c = test->priv;

	t_free_bio(c);
	nvm_mem_media_free(c->m);
	nvm_mem_media_free(c->m2);
}

static struct nvm_mem_media *t_media(struct kunit *test,
				     const struct nvm_mem_cfg *cfg)
{
	struct t_ctx *c = test->priv;

	KUNIT_ASSERT_EQ(test, nvm_mem_cfg_validate(cfg, "kunit"), 0);
	nvm_mem_media_free(c->m);
	c->m = nvm_mem_media_create(cfg);
	KUNIT_ASSERT_NOT_NULL(test, c->m);
	return c->m;
}

/* A small geometry: 1 ch x 2 LUNs, 2 planes, 4 blocks, 4 pages, 2 sectors. */
static const struct nvm_mem_cfg t_small = {
	.num_ch = 1, .num_lun = 2, .num_pln = 2, .num_blk = 4, .num_pg = 4,
	.sec_per_pg = 2, .oob_size = 16, .factory_bad = 0, .bb_seed = 1,
	.data = 1,
	.version = 1,
};

static u64 t_ppa(struct nvm_mem_media *m, u32 ch, u32 lun, u32 blk, u32 pl,
		 u32 pg, u32 sec)
{
	return nvm_mem_encode(&m->ppaf, ch, lun, blk, pl, pg, sec);
}

static int t_set_bbt(struct nvm_mem_media *m, u64 ppa, int type)
{
	struct ppa_addr p = { .ppa = ppa };

	return nvm_mem_media_set_bbt(m, &p, 1, type);
}

/* The bio: @n sectors, each split into @chunks bvecs. */
static void t_bio(struct kunit *test, int n, int chunks)
{
	struct t_ctx *c = test->priv;
	int i, j;

	t_free_bio(c);
	c->bio = bio_kmalloc(n * chunks, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->bio);
	bio_init(c->bio, NULL, c->bio->bi_inline_vecs, n * chunks, REQ_OP_READ);
	for (i = 0; i < n; i++) {
		c->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->pages[i]);
		c->nr_pages++;
		for (j = 0; j < chunks; j++) {
			unsigned int len = NVM_MEM_SEC_SIZE / chunks;

			KUNIT_ASSERT_EQ(test, bio_add_page(c->bio, c->pages[i],
							   len, j * len), len);
		}
	}
}

static u8 t_pattern(u32 seed, int i, int byte)
{
	return (u8)(seed * 31 + i * 7 + byte * 13 + (byte >> 8));
}

/*
 * Byte @byte of sector @i: the pattern, or for the sectors in c->words an
 * 8-byte word repeated (zeroes with seed 0).
 */
static u8 t_byte(struct t_ctx *c, u32 seed, int i, int byte)
{
	if (!(c->words & BIT_ULL(i)))
		return t_pattern(seed, i, byte);
	return seed ? (u8)(seed * 17 + i * 3 + byte % 8 * 29) : 0;
}

static void t_fill(struct t_ctx *c, int n, u32 seed)
{
	int i, b;

	for (i = 0; i < n; i++) {
		u8 *p = page_address(c->pages[i]);

		for (b = 0; b < NVM_MEM_SEC_SIZE; b++)
			p[b] = t_byte(c, seed, i, b);
	}
}

static bool t_data_is(struct t_ctx *c, int i, u32 seed)
{
	u8 *p = page_address(c->pages[i]);
	int b;

	for (b = 0; b < NVM_MEM_SEC_SIZE; b++)
		if (p[b] != t_byte(c, seed, i, b))
			return false;
	return true;
}

static bool t_data_is_zero(struct t_ctx *c, int i)
{
	return !memchr_inv(page_address(c->pages[i]), 0, NVM_MEM_SEC_SIZE);
}

static bool t_fault(void *priv, enum nvm_mem_fault op)
{
	struct t_ctx *c = priv;

	if (op == NVM_MEM_FAULT_ALLOC)
		return c->alloc_fail && ++c->alloc_calls == c->alloc_fail;
	if (c->unplug_in_fault)
		atomic_set(&c->m->unplugged, 1);
	return c->fault_every && ++c->fault_calls % c->fault_every == 0;
}

/* How t_run() executes a command. */
enum t_how {
	T_EXEC,		/* nvm_mem_media_exec() */
	T_RUN,		/* nvm_mem_media_run(), arriving now */
	T_RUN_QUEUED,	/* nvm_mem_media_run(), queued before */
	T_CUT,		/* nvm_mem_media_cut() with c->cut_r */
};

static u64 t_cut_r;
static enum nvm_mem_cut t_cut_ret;

/* Run a command on @n addresses in c->ppas with a fresh bio, as @how says. */
static int t_run(struct kunit *test, enum t_how how, u8 opcode, int n,
		 u32 seed, bool meta)
{
	struct t_ctx *c = test->priv;
	struct nvm_rq *rqd = &c->rqd;

	memset(rqd, 0, sizeof(*rqd));
	rqd->opcode = opcode;
	rqd->nr_ppas = n;
	if (n > 1)
		rqd->ppa_list = c->ppas;
	else
		rqd->ppa_addr = c->ppas[0];
	if (opcode != NVM_OP_ERASE) {
		t_bio(test, n, 1);
		rqd->bio = c->bio;
	}
	if (opcode == NVM_OP_PREAD) {
		int i;

		/* what a read must overwrite */
		for (i = 0; i < n; i++)
			memset(page_address(c->pages[i]), 0xaa, NVM_MEM_SEC_SIZE);
	}
	if (opcode == NVM_OP_PWRITE) {
		int i;

		t_fill(c, n, seed);
		for (i = 0; i < n * c->m->cfg.oob_size; i++)
			c->meta[i] = (u8)(seed + i);
	} else {
		memset(c->meta, 0xaa, sizeof(c->meta));
	}
	if (meta)
		rqd->meta_list = c->meta;
	switch (how) {
	case T_EXEC:
		nvm_mem_media_exec(c->m, rqd, t_fault, c, GFP_KERNEL);
		t_cut_ret = NVM_MEM_CUT_NONE;
		break;
	case T_RUN:
	case T_RUN_QUEUED:
		t_cut_ret = nvm_mem_media_run(c->m, rqd, how == T_RUN_QUEUED,
					      t_fault, c, GFP_KERNEL);
		break;
	case T_CUT:
		t_cut_ret = nvm_mem_media_cut(c->m, rqd, t_cut_r, t_fault, c,
					      GFP_KERNEL);
		break;
	}
	return rqd->error;
}

static int t_io(struct kunit *test, u8 opcode, int n, u32 seed, bool meta)
{
	return t_run(test, T_EXEC, opcode, n, seed, meta);
}

static int t_io1(struct kunit *test, u8 opcode, u64 ppa, u32 seed)
{
	struct t_ctx *c = test->priv;

	c->ppas[0].ppa = ppa;
	return t_io(test, opcode, 1, seed, true);
}

/* Addresses of a whole block in the order a target programs it. */
static int t_block(struct kunit *test, u32 lun, u32 blk)
{
	struct t_ctx *c = test->priv;
	struct nvm_mem_media *m = c->m;
	u32 sec_per_blk = m->sec_per_plblk * m->cfg.num_pln;
	u32 off;

	KUNIT_ASSERT_LE(test, sec_per_blk, T_MAX);
	for (off = 0; off < sec_per_blk; off++) {
		u32 sec_per_pl = m->cfg.sec_per_pg * m->cfg.num_pln;

		c->ppas[off].ppa = t_ppa(m, 0, lun, blk,
					 (off / m->cfg.sec_per_pg) % m->cfg.num_pln,
					 off / sec_per_pl, off % m->cfg.sec_per_pg);
	}
	return sec_per_blk;
}

struct t_cfg_case {
	size_t		off;
	const char	*field;
	u32		val;
	int		want;
};

#define T_CFG(f, v, w) { offsetof(struct nvm_mem_cfg, f), #f, v, w }

static const struct t_cfg_case t_cfg_cases[] = {
	T_CFG(num_ch, 0, -EINVAL),
	T_CFG(num_ch, 129, -EINVAL),
	T_CFG(num_ch, 128, 0),
	T_CFG(num_lun, 0, -EINVAL),
	T_CFG(num_lun, 256, -EINVAL),
	T_CFG(num_lun, 255, 0),
	T_CFG(num_pln, 0, -EINVAL),
	T_CFG(num_pln, 3, -EINVAL),
	T_CFG(num_pln, 8, -EINVAL),
	T_CFG(num_pln, 1, 0),
	T_CFG(num_pln, 4, 0),
	T_CFG(num_blk, 0, -EINVAL),
	T_CFG(num_blk, 65536, -EINVAL),
	T_CFG(num_pg, 0, -EINVAL),
	T_CFG(num_pg, 65536, -EINVAL),
	T_CFG(num_pg, 65535, 0),
	T_CFG(sec_per_pg, 0, -EINVAL),
	T_CFG(sec_per_pg, 16, -EINVAL),
	T_CFG(sec_per_pg, 15, 0),
	T_CFG(oob_size, 15, -EINVAL),
	T_CFG(oob_size, 65, -EINVAL),
	T_CFG(oob_size, 64, 0),
	/* 2 * 4 * 64 * 2 = 1024 (block, plane) entries */
	T_CFG(factory_bad, 1024, 0),
	T_CFG(factory_bad, 1025, -EINVAL),
	T_CFG(data, 0, 0),
	T_CFG(data, 2, -EINVAL),
};

static void t_cfg_validate(struct kunit *test)
{
	struct nvm_mem_cfg cfg;
	int i;

	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_validate(&nvm_mem_default_cfg, "k"), 0);
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_validate(&t_small, "k"), 0);
	for (i = 0; i < ARRAY_SIZE(t_cfg_cases); i++) {
		const struct t_cfg_case *tc = &t_cfg_cases[i];

		cfg = nvm_mem_default_cfg;
		*(u32 *)((u8 *)&cfg + tc->off) = tc->val;
		KUNIT_EXPECT_EQ_MSG(test, nvm_mem_cfg_validate(&cfg, "k"),
				    tc->want, "%s=%u", tc->field, tc->val);
	}
	/* one option at a time, as configfs sets them */
	cfg = nvm_mem_default_cfg;
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_set(&cfg, "num_pln", 3, "k"), -EINVAL);
	KUNIT_EXPECT_EQ(test, cfg.num_pln, nvm_mem_default_cfg.num_pln);
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_set(&cfg, "oob_size", 8, "k"), -EINVAL);
	KUNIT_EXPECT_EQ(test, cfg.oob_size, nvm_mem_default_cfg.oob_size);
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_set(&cfg, "num_pln", 4, "k"), 0);
	KUNIT_EXPECT_EQ(test, cfg.num_pln, 4);
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_set(&cfg, "factory_bad", 5000, "k"), 0);
	KUNIT_EXPECT_EQ(test, cfg.factory_bad, 5000);
	/* ... and the whole is checked at power-on */
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_validate(&cfg, "k"), -EINVAL);

	/* per-block state is bounded */
	cfg = nvm_mem_default_cfg;
	cfg.num_ch = 128;
	cfg.num_lun = 255;
	cfg.num_blk = 1000;
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_validate(&cfg, "k"), -EINVAL);
}

static void t_identity_one(struct kunit *test, const struct nvm_mem_cfg *cfg)
{
	struct nvm_id id;
	struct nvm_geo geo = {};

	nvm_mem_make_identity(cfg, &id);
	KUNIT_ASSERT_EQ(test, nvm_validate_identity(&id, "kunit"), 0);
	KUNIT_EXPECT_EQ(test, id.ver_id, 1);
	KUNIT_EXPECT_EQ(test, id.cgrps, 1);
	KUNIT_EXPECT_EQ(test, id.groups[0].mtype, 0);
	KUNIT_EXPECT_TRUE(test, id.cap & NVM_ID_CAP_BBT);
	KUNIT_EXPECT_EQ(test, id.dom, 0);
	nvm_geo_from_identity(&id, &geo);
	KUNIT_EXPECT_EQ(test, geo.nr_chnls, cfg->num_ch);
	KUNIT_EXPECT_EQ(test, geo.luns_per_chnl, cfg->num_lun);
	KUNIT_EXPECT_EQ(test, geo.nr_planes, cfg->num_pln);
	KUNIT_EXPECT_EQ(test, geo.plane_mode, cfg->num_pln);
	KUNIT_EXPECT_EQ(test, geo.blks_per_lun, cfg->num_blk);
	KUNIT_EXPECT_EQ(test, geo.pgs_per_blk, cfg->num_pg);
	KUNIT_EXPECT_EQ(test, geo.sec_per_pg, cfg->sec_per_pg);
	KUNIT_EXPECT_EQ(test, geo.sec_size, NVM_MEM_SEC_SIZE);
	KUNIT_EXPECT_EQ(test, geo.oob_size, cfg->oob_size);
}

static void t_identity(struct kunit *test)
{
	struct nvm_mem_cfg cfg = nvm_mem_default_cfg;
	struct nvm_id id;
	struct nvm_geo geo = {};

	t_identity_one(test, &cfg);
	nvm_mem_make_identity(&cfg, &id);
	nvm_geo_from_identity(&id, &geo);
	KUNIT_EXPECT_EQ(test, geo.nr_secs * NVM_MEM_SEC_SIZE, 1ULL << 30);
	KUNIT_EXPECT_EQ(test, id.groups[0].mpos, 0x030303);

	t_identity_one(test, &t_small);
	cfg = (struct nvm_mem_cfg){ .num_ch = 1, .num_lun = 1, .num_pln = 1,
		.num_blk = 1, .num_pg = 1, .sec_per_pg = 1, .oob_size = 16 };
	t_identity_one(test, &cfg);
	nvm_mem_make_identity(&cfg, &id);
	KUNIT_EXPECT_EQ(test, id.groups[0].mpos, 0x010101);
	cfg = (struct nvm_mem_cfg){ .num_ch = 3, .num_lun = 5, .num_pln = 4,
		.num_blk = 1000, .num_pg = 300, .sec_per_pg = 3,
		.oob_size = 64 };
	t_identity_one(test, &cfg);
	nvm_mem_make_identity(&cfg, &id);
	KUNIT_EXPECT_EQ(test, id.groups[0].mpos, 0x070707);
	cfg.num_ch = 128;
	cfg.num_lun = 255;
	cfg.num_blk = 32;
	t_identity_one(test, &cfg);
}

/* Our encoding agrees with the core's conversion of generic addresses. */
static void t_address(struct kunit *test)
{
	struct nvm_mem_cfg cfg = { .num_ch = 3, .num_lun = 5, .num_pln = 4,
		.num_blk = 100, .num_pg = 33, .sec_per_pg = 3, .oob_size = 16,
		.version = 1 };
	struct nvm_mem_media *m = t_media(test, &cfg);
	static const u32 vals[][6] = {
		{ 0, 0, 0, 0, 0, 0 }, { 2, 4, 99, 3, 32, 2 },
		{ 1, 3, 50, 2, 17, 1 }, { 2, 0, 1, 0, 32, 0 },
	};
	struct nvm_mem_addr a;
	int i;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		const u32 *v = vals[i];
		struct ppa_addr g = { .ppa = 0 }, d;
		u64 ppa = t_ppa(m, v[0], v[1], v[2], v[3], v[4], v[5]);

		g.g.ch = v[0];
		g.g.lun = v[1];
		g.g.blk = v[2];
		g.g.pl = v[3];
		g.g.pg = v[4];
		g.g.sec = v[5];
		d = nvm_generic_to_dev(&m->ppaf, g);
		KUNIT_EXPECT_EQ(test, d.ppa, ppa);
		KUNIT_ASSERT_EQ(test, nvm_mem_decode(m, ppa, &a), 0);
		KUNIT_EXPECT_EQ(test, a.lun, v[0] * cfg.num_lun + v[1]);
		KUNIT_EXPECT_EQ(test, a.blk, v[2]);
		KUNIT_EXPECT_EQ(test, a.pl, v[3]);
		KUNIT_EXPECT_EQ(test, a.pg, v[4]);
		KUNIT_EXPECT_EQ(test, a.sec, v[5]);
	}
}

static void t_out_of_range(struct kunit *test)
{
	/* no power-of-two sizes, so that every field has invalid values */
	static const struct nvm_mem_cfg cfg = {
		.num_ch = 3, .num_lun = 3, .num_pln = 2, .num_blk = 5,
		.num_pg = 5, .sec_per_pg = 3, .oob_size = 16, .version = 1,
	};
	struct nvm_mem_media *m = t_media(test, &cfg);
	struct t_ctx *c = test->priv;
	u32 top = m->ppaf.ch_offset + m->ppaf.ch_len;
	u64 bad[] = {
		t_ppa(m, 3, 0, 0, 0, 0, 0),	/* channel */
		t_ppa(m, 0, 3, 0, 0, 0, 0),	/* LUN */
		t_ppa(m, 0, 0, 5, 0, 0, 0),	/* block */
		t_ppa(m, 0, 0, 0, 0, 5, 0),	/* page */
		t_ppa(m, 0, 0, 0, 0, 0, 3),	/* sector */
		BIT_ULL(top),			/* bit above every field */
		BIT_ULL(63),
		ADDR_EMPTY,
	};
	struct nvm_mem_addr a;
	u8 blks[16];
	int i;

	KUNIT_EXPECT_EQ(test, nvm_mem_decode(m, t_ppa(m, 2, 2, 4, 1, 4, 2), &a), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, nvm_mem_decode(m, bad[i], &a), -EINVAL,
				    "ppa 0x%llx", bad[i]);
		KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, bad[i], 1),
				NVM_RSP_ERR_FAILWRITE);
		KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 1ULL);
		KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, bad[i], 0),
				NVM_RSP_ERR_FAILECC);
		KUNIT_EXPECT_TRUE(test, t_data_is_zero(c, 0));
		KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, bad[i], 0),
				NVM_RSP_ERR_FAILERASE);
		KUNIT_EXPECT_EQ(test, nvm_mem_media_get_bbt(m, bad[i], blks),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, t_set_bbt(m, bad[i], NVM_BLK_T_GRWN_BAD),
				-EINVAL);
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.write_errors), ARRAY_SIZE(bad));
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.read_errors), ARRAY_SIZE(bad));
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.erase_errors), ARRAY_SIZE(bad));
}

static void t_program_order(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	int n;

	/* sector 1 before sector 0 */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 0, 0, 0, 1), 1),
			NVM_RSP_ERR_FAILWRITE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 0, 0, 0, 0), 1),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 0, 0, 0, 1), 1),
			NVM_RSP_SUCCESS);
	/* skipping a page */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 0, 0, 2, 0), 1),
			NVM_RSP_ERR_FAILWRITE);
	/* the other plane and the other LUN have their own write pointer */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 0, 1, 0, 0), 1),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 1, 0, 0, 0, 0), 1),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 4);

	/* a whole block in the target's multi-plane order in one command */
	n = t_block(test, 1, 3);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, n, 5, true), NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0ULL);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, n, 0, true), NVM_RSP_SUCCESS);
	for (n = 0; n < c->rqd.nr_ppas; n++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, n, 5));

	/* a command whose second half is out of order fails only there */
	n = t_block(test, 0, 1);
	c->ppas[2] = c->ppas[3];
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 1, true),
			NVM_RSP_ERR_FAILWRITE);
	/* 0, 1 (plane 0, page 0) ok; plane 1 sector 1 before 0; again */
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xcULL);
}

static void t_program_once(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	u64 p0 = t_ppa(m, 0, 0, 2, 1, 0, 0);

	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, p0, 1), NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, p0, 2),
			NVM_RSP_ERR_FAILWRITE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 1ULL);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, p0, 0), NVM_RSP_SUCCESS);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 1));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 1);
	/* the last sector of a plane, then nothing more fits */
	c->ppas[0].ppa = t_ppa(m, 0, 0, 2, 1, 0, 1);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 1, 3, true), 0);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 2, 1, 1, 0), 1),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 2, 1, 0, 1), 1),
			NVM_RSP_ERR_FAILWRITE);
}

static void t_empty_read(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	int i;

	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_ppa(m, 0, 1, 3, 1, 3, 1), 0),
			NVM_RSP_ERR_EMPTYPAGE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 1ULL);
	KUNIT_EXPECT_TRUE(test, t_data_is_zero(c, 0));
	KUNIT_EXPECT_NULL(test, memchr_inv(c->meta, 0xff, m->cfg.oob_size));

	/* two written, two empty */
	for (i = 0; i < 2; i++)
		c->ppas[i].ppa = t_ppa(m, 0, 0, 1, 0, 0, i);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 2, 9, true), 0);
	for (i = 0; i < 4; i++)
		c->ppas[i].ppa = t_ppa(m, 0, 0, 1, 0, i / 2, i % 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 4, 0, true),
			NVM_RSP_ERR_EMPTYPAGE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xcULL);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 9));
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 1, 9));
	KUNIT_EXPECT_TRUE(test, t_data_is_zero(c, 2));
	KUNIT_EXPECT_TRUE(test, t_data_is_zero(c, 3));
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.empty_reads), 3);
}

static void t_erase(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	int n, i;

	n = t_block(test, 1, 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, n, 4, true), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), n);
	/* another block stays */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 1, 1, 0, 0, 0), 6),
			0);

	/* a multi-plane erase: one address per plane, one erase */
	c->ppas[0].ppa = t_ppa(m, 0, 1, 2, 0, 0, 0);
	c->ppas[1].ppa = t_ppa(m, 0, 1, 2, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_ERASE, 2, 0, false), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 1);
	KUNIT_EXPECT_EQ(test, m->erase_count[1 * m->cfg.num_blk + 2], 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.erases), 1);

	n = t_block(test, 1, 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, n, 0, true),
			NVM_RSP_ERR_EMPTYPAGE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(n - 1, 0));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is_zero(c, i));

	/* programmable again from sector 0, in both planes */
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, n, 8, true), 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, n, 0, true), 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 8));

	/* the untouched block kept its data */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_ppa(m, 0, 1, 1, 0, 0, 0), 0),
			0);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 6));

	/* erasing an erased block is fine and counted */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_ppa(m, 0, 0, 0, 1, 0, 0), 0),
			0);
	KUNIT_EXPECT_EQ(test, m->erase_count[0], 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.erases), 2);
}

static void t_oob(struct kunit *test)
{
	struct nvm_mem_cfg cfg = t_small;
	struct nvm_mem_media *m;
	struct t_ctx *c = test->priv;
	int i;

	cfg.oob_size = 48;
	m = t_media(test, &cfg);
	for (i = 0; i < 4; i++)
		c->ppas[i].ppa = t_ppa(m, 0, 0, 0, 0, i / 2, i % 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 21, true), 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 4, 0, true), 0);
	for (i = 0; i < 4 * 48; i++)
		KUNIT_EXPECT_EQ(test, c->meta[i], (u8)(21 + i));
	/* reading without a metadata buffer */
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 4, 0, false), 0);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 3, 21));

	/* writing without metadata stores erased OOB (all ones) */
	c->ppas[0].ppa = t_ppa(m, 0, 0, 0, 0, 2, 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 1, 2, false), 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 1, 0, true), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(c->meta, 0xff, 48));
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 2));
}

static int t_count_bad(struct kunit *test, struct nvm_mem_media *m, u8 *all)
{
	u32 per_lun = m->cfg.num_blk * m->cfg.num_pln;
	int l, i, bad = 0;

	for (l = 0; l < m->nr_luns; l++) {
		u8 *blks = all + l * per_lun;
		u64 ppa = t_ppa(m, l / m->cfg.num_lun, l % m->cfg.num_lun,
				0, 0, 0, 0);

		KUNIT_EXPECT_EQ(test, nvm_mem_media_get_bbt(m, ppa, blks), 0);
		for (i = 0; i < per_lun; i++)
			bad += blks[i] == NVM_BLK_T_BAD;
	}
	return bad;
}

static void t_bad_blocks(struct kunit *test)
{
	struct t_ctx *c = test->priv;
	struct nvm_mem_cfg cfg = nvm_mem_default_cfg;
	u32 total = 2 * 4 * 64 * 2;
	struct nvm_mem_media *m;
	u8 *a, *b;
	u64 ppa;
	int i;

	a = kunit_kzalloc(test, total, GFP_KERNEL);
	b = kunit_kzalloc(test, total, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);

	/* the count is exact and the choice depends only on the seed */
	cfg.factory_bad = 40;
	cfg.bb_seed = 7;
	m = t_media(test, &cfg);
	KUNIT_EXPECT_EQ(test, t_count_bad(test, m, a), 40);
	c->m2 = nvm_mem_media_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, c->m2);
	KUNIT_EXPECT_EQ(test, t_count_bad(test, c->m2, b), 40);
	KUNIT_EXPECT_EQ(test, memcmp(a, b, total), 0);
	nvm_mem_media_free(c->m2);
	cfg.bb_seed = 8;
	c->m2 = nvm_mem_media_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, c->m2);
	KUNIT_EXPECT_EQ(test, t_count_bad(test, c->m2, b), 40);
	KUNIT_EXPECT_NE(test, memcmp(a, b, total), 0);
	/* more than half bad takes the other path */
	nvm_mem_media_free(c->m2);
	cfg.factory_bad = total - 3;
	c->m2 = nvm_mem_media_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, c->m2);
	KUNIT_EXPECT_EQ(test, t_count_bad(test, c->m2, b), total - 3);

	/* program and erase refuse a factory bad block; read is allowed */
	for (i = 0; i < total && a[i] != NVM_BLK_T_BAD; i++)
		;
	KUNIT_ASSERT_LT(test, i, total);
	{
		u32 per_lun = 64 * 2, l = i / per_lun, blk = (i % per_lun) / 2;

		ppa = t_ppa(m, l / 4, l % 4, blk, i % 2, 0, 0);
	}
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, ppa, 1),
			NVM_RSP_ERR_FAILWRITE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, ppa, 0),
			NVM_RSP_ERR_FAILERASE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, ppa, 0),
			NVM_RSP_ERR_EMPTYPAGE);
	/* factory marks survive set_bbt */
	KUNIT_EXPECT_EQ(test, t_set_bbt(m, ppa, NVM_BLK_T_FREE), 0);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, ppa, 1),
			NVM_RSP_ERR_FAILWRITE);

	/* grown bad: set, refused, cleared, accepted */
	m = t_media(test, &t_small);
	ppa = t_ppa(m, 0, 1, 2, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, t_set_bbt(m, ppa, NVM_BLK_T_GRWN_BAD), 0);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_get_bbt(m, t_ppa(m, 0, 1, 0, 0, 0, 0), a), 0);
	KUNIT_EXPECT_EQ(test, a[2 * 2 + 1], NVM_BLK_T_GRWN_BAD);
	KUNIT_EXPECT_EQ(test, a[2 * 2 + 0], NVM_BLK_T_FREE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, ppa, 1),
			NVM_RSP_ERR_FAILWRITE);
	/* plane 0 of the block is good, but erase covers both planes */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 1, 2, 0, 0, 0), 1),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_ppa(m, 0, 1, 2, 0, 0, 0), 0),
			NVM_RSP_ERR_FAILERASE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 1);
	KUNIT_EXPECT_EQ(test, t_set_bbt(m, ppa, NVM_BLK_T_FREE), 0);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, ppa, 1), NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, ppa, 0), NVM_RSP_SUCCESS);
	/* host marks do not prevent programming */
	KUNIT_EXPECT_EQ(test, t_set_bbt(m, ppa, NVM_BLK_T_HOST), 0);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, ppa, 1), NVM_RSP_SUCCESS);
	/* invalid type, or one invalid address: nothing changes */
	KUNIT_EXPECT_EQ(test, t_set_bbt(m, ppa, 3), -EINVAL);
	c->ppas[0].ppa = t_ppa(m, 0, 0, 3, 0, 0, 0);
	c->ppas[1].ppa = t_ppa(m, 1, 0, 0, 0, 0, 0);	/* no channel 1 */
	KUNIT_EXPECT_EQ(test, nvm_mem_media_set_bbt(m, c->ppas, 2,
						    NVM_BLK_T_GRWN_BAD), -EINVAL);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_get_bbt(m, t_ppa(m, 0, 0, 0, 0, 0, 0), a), 0);
	KUNIT_EXPECT_EQ(test, a[3 * 2], NVM_BLK_T_FREE);
	KUNIT_EXPECT_EQ(test, a[2 * 2 + 1], NVM_BLK_T_FREE);
}

static void t_faults(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	int i;

	/* every second program fails and consumes its sector */
	c->fault_every = 2;
	for (i = 0; i < 4; i++)
		c->ppas[i].ppa = t_ppa(m, 0, 0, 0, 0, i / 2, i % 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 3, true),
			NVM_RSP_ERR_FAILWRITE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xaULL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.write_errors), 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.media_write_sectors), 2);

	/* every second read fails with an ECC error */
	c->fault_calls = 0;
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 4, 0, true),
			NVM_RSP_ERR_FAILECC);
	/* 0 ok, 1 ECC, 2 ok, 3 ECC */
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xaULL);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 3));
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 2, 3));
	KUNIT_EXPECT_TRUE(test, t_data_is_zero(c, 1));

	/* a failed erase leaves the block as it was */
	c->fault_every = 1;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_ppa(m, 0, 0, 0, 0, 0, 0), 0),
			NVM_RSP_ERR_FAILERASE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.erase_errors), 1);
	c->fault_every = 0;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_ppa(m, 0, 0, 0, 0, 0, 0), 0),
			0);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 3));
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_ppa(m, 0, 0, 0, 0, 0, 0), 0),
			0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 0);

	/*
	 * no memory for the second sector of a program: an internal error
	 * from it on, not a media one; nothing stored past the first sector
	 */
	c->alloc_fail = 2;
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 5, true),
			NVM_MEM_RSP_NOMEM);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xeULL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.write_errors), 2);
	c->alloc_fail = 0;
}

static int t_run1(struct kunit *test, enum t_how how, u8 opcode, u64 ppa,
		  u32 seed)
{
	struct t_ctx *c = test->priv;

	c->ppas[0].ppa = ppa;
	return t_run(test, how, opcode, 1, seed, true);
}

/* Arriving at an unplugged device: the "gone" status, the media untouched. */
static void t_unplugged(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	u64 p0 = t_ppa(m, 0, 0, 0, 0, 0, 0);
	u64 p1 = t_ppa(m, 0, 0, 0, 0, 0, 1);
	u8 blks[8];

	KUNIT_EXPECT_EQ(test, t_run1(test, T_RUN, NVM_OP_PWRITE, p0, 1), 0);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_NONE);
	atomic_set(&m->unplugged, 1);
	KUNIT_EXPECT_EQ(test, t_run1(test, T_RUN, NVM_OP_PWRITE, p1, 1),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 1ULL);
	KUNIT_EXPECT_EQ(test, t_run1(test, T_RUN, NVM_OP_PREAD, p0, 0),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_run1(test, T_RUN, NVM_OP_ERASE, p0, 0),
			NVM_MEM_RSP_GONE);
	/* the gone status is none of the media's */
	KUNIT_EXPECT_NE(test, NVM_MEM_RSP_GONE, NVM_RSP_ERR_FAILWRITE);
	KUNIT_EXPECT_NE(test, NVM_MEM_RSP_GONE, NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_NE(test, NVM_MEM_RSP_GONE, NVM_RSP_ERR_FAILERASE);
	/* a multi-address command: every bit */
	c->ppas[0].ppa = p1;
	c->ppas[1].ppa = t_ppa(m, 0, 0, 0, 0, 1, 0);
	c->ppas[2].ppa = t_ppa(m, 0, 0, 0, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, t_run(test, T_RUN, NVM_OP_PWRITE, 3, 1, true),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0x7ULL);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_get_bbt(m, p0, blks), -ENODEV);
	KUNIT_EXPECT_EQ(test, t_set_bbt(m, p0, NVM_BLK_T_GRWN_BAD), -ENODEV);
	/* nothing was in flight: no cut outcome counted */
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_applied) +
			atomic64_read(&m->stats.cut_dropped) +
			atomic64_read(&m->stats.cut_torn), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.write_errors), 0);

	/* plugged in again, the media is as it was */
	atomic_set(&m->unplugged, 0);
	KUNIT_EXPECT_EQ(test, t_run1(test, T_RUN, NVM_OP_PREAD, p0, 0), 0);
	KUNIT_EXPECT_TRUE(test, t_data_is(test->priv, 0, 1));
	KUNIT_EXPECT_EQ(test, t_run1(test, T_RUN, NVM_OP_PWRITE, p1, 1), 0);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_get_bbt(m, p0, blks), 0);
	KUNIT_EXPECT_EQ(test, blks[0], NVM_BLK_T_FREE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 2);
}

/* A number that makes nvm_mem_media_cut() tear a program's page @page. */
static u64 t_torn_r(u32 page)
{
	u64 r = (u64)page << 32;

	return r + (NVM_MEM_CUT_TORN + 3 - r % 3) % 3;
}

/* Program the whole block (LUN 0, @blk) of t_small, as a cut decides. */
static int t_cut_block(struct kunit *test, u32 blk, u64 r, u32 seed)
{
	int n = t_block(test, 0, blk);

	t_cut_r = r;
	return t_run(test, T_CUT, NVM_OP_PWRITE, n, seed, true);
}

/* Read the whole block back; returns the command's error. */
static int t_read_block(struct kunit *test, u32 blk)
{
	return t_run(test, T_EXEC, NVM_OP_PREAD, t_block(test, 0, blk), 0,
		     true);
}

/* A program in flight at a cut: dropped, applied or torn, by r % 3. */
static void t_cut_program(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	int i;

	atomic_set(&m->unplugged, 1);
	KUNIT_EXPECT_EQ(test, t_cut_block(test, 0, 0, 3), NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_DROPPED);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 0));
	KUNIT_EXPECT_EQ(test, t_cut_block(test, 1, 1, 4), NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_APPLIED);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 0));
	/* 8 pages of 2 sectors (page, plane order): page 3 is pg 1, pl 1 */
	KUNIT_EXPECT_EQ(test, t_cut_block(test, 2, t_torn_r(3), 5),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_TORN);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_dropped), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_applied), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_torn), 1);
	/* 16 applied + 6 before the torn page; torn sectors hold no memory */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 22);

	/* after the power comes back */
	atomic_set(&m->unplugged, 0);
	KUNIT_EXPECT_EQ(test, t_read_block(test, 0), NVM_RSP_ERR_EMPTYPAGE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 0));
	KUNIT_EXPECT_EQ(test, t_read_block(test, 1), NVM_RSP_SUCCESS);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 4));
	/* torn sectors read as ECC errors and win over the empty ones */
	KUNIT_EXPECT_EQ(test, t_read_block(test, 2), NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 6));
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 5));
	for (i = 6; i < 16; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is_zero(c, i));
	KUNIT_EXPECT_NULL(test, memchr_inv(c->meta + 6 * 16, 0xff, 2 * 16));
	c->ppas[0].ppa = t_ppa(m, 0, 0, 2, 1, 1, 0);
	c->ppas[1].ppa = t_ppa(m, 0, 0, 2, 1, 1, 1);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 2, 0, true),
			NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0x3ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.read_errors), 2 + 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.empty_reads), 16 + 8);
}

/* Torn sectors count as programmed, stay until erase, then go. */
static void t_cut_torn_rules(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	int i;

	atomic_set(&m->unplugged, 1);
	t_cut_block(test, 2, t_torn_r(3), 5);
	/* a power cycle does not change the media */
	atomic_set(&m->unplugged, 0);
	atomic_set(&m->unplugged, 1);
	atomic_set(&m->unplugged, 0);

	/* the torn page (pg 1, pl 1) cannot be programmed again ... */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 2, 1, 1, 0), 7),
			NVM_RSP_ERR_FAILWRITE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 2, 1, 1, 1), 7),
			NVM_RSP_ERR_FAILWRITE);
	/* ... the next page of its plane can; plane 0 continues at pg 2 */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 2, 1, 2, 0), 7),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 2, 0, 2, 0), 7),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_ppa(m, 0, 0, 2, 1, 1, 1), 0),
			NVM_RSP_ERR_FAILECC);

	/* erase forgets them; the block is programmable from sector 0 */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_ppa(m, 0, 0, 2, 0, 0, 0), 0),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 0);
	KUNIT_EXPECT_EQ(test, t_read_block(test, 2), NVM_RSP_ERR_EMPTYPAGE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 0));
	KUNIT_EXPECT_EQ(test, t_run(test, T_EXEC, NVM_OP_PWRITE,
				    t_block(test, 0, 2), 8, true), 0);
	KUNIT_EXPECT_EQ(test, t_read_block(test, 2), NVM_RSP_SUCCESS);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 8));

	/* torn again, then the media freed with torn sectors in it */
	atomic_set(&m->unplugged, 1);
	t_cut_block(test, 3, t_torn_r(5), 9);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_TORN);
}

/* Which page tears: (r >> 32) modulo the pages of the command. */
static void t_cut_torn_page(struct kunit *test)
{
	struct nvm_mem_cfg cfg = t_small;
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;

	atomic_set(&m->unplugged, 1);
	/* the first page: nothing programmed */
	t_cut_block(test, 0, t_torn_r(0), 1);
	/* the last page: 14 programmed */
	t_cut_block(test, 1, t_torn_r(7), 1);
	/* 9 % 8: the second page */
	t_cut_block(test, 2, t_torn_r(9), 1);
	atomic_set(&m->unplugged, 0);
	KUNIT_EXPECT_EQ(test, t_read_block(test, 0), NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 0));
	KUNIT_EXPECT_EQ(test, t_read_block(test, 1), NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 14));
	KUNIT_EXPECT_EQ(test, t_read_block(test, 2), NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 2));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 14 + 2);

	/* one sector per page, one plane: each address is a page */
	cfg.num_pln = 1;
	cfg.sec_per_pg = 1;
	m = t_media(test, &cfg);
	atomic_set(&m->unplugged, 1);
	c->ppas[0].ppa = t_ppa(m, 0, 0, 0, 0, 0, 0);
	c->ppas[1].ppa = t_ppa(m, 0, 0, 0, 0, 1, 0);
	c->ppas[2].ppa = t_ppa(m, 0, 0, 0, 0, 2, 0);
	t_cut_r = t_torn_r(1);
	t_run(test, T_CUT, NVM_OP_PWRITE, 3, 6, true);
	atomic_set(&m->unplugged, 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 3, 0, true),
			NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0x6ULL);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 6));
	/* the write pointer is past the torn sector, not past the empty one */
	c->ppas[0].ppa = t_ppa(m, 0, 0, 0, 0, 2, 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 1, 7, true), 0);
}

/* Erases are dropped or applied; reads are not affected; both "gone". */
static void t_cut_erase_read(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	u64 p = t_ppa(m, 0, 1, 1, 0, 0, 0);

	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, p, 3), 0);
	atomic_set(&m->unplugged, 1);
	t_cut_r = 2;	/* even: dropped */
	KUNIT_EXPECT_EQ(test, t_run1(test, T_CUT, NVM_OP_ERASE, p, 0),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_DROPPED);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 1);
	t_cut_r = 1;
	KUNIT_EXPECT_EQ(test, t_run1(test, T_CUT, NVM_OP_PREAD, p, 0),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_NONE);
	/* no data reaches the host: the buffer is as t_run() left it */
	KUNIT_EXPECT_NULL(test, memchr_inv(page_address(c->pages[0]), 0xaa,
					   NVM_MEM_SEC_SIZE));
	KUNIT_EXPECT_EQ(test, t_run1(test, T_CUT, NVM_OP_ERASE, p, 0),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_APPLIED);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 0);
	KUNIT_EXPECT_EQ(test, m->erase_count[1 * m->cfg.num_blk + 1], 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_dropped), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_applied), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_torn), 0);
}

/* Queued commands draw their fate from the seeded sequence, in order. */
static void t_cut_seed(struct kunit *test)
{
	struct nvm_mem_media *m;
	struct t_ctx *c = test->priv;
	enum nvm_mem_cut got[2][12];
	u64 state, r;
	int pass, i, outcomes[3] = { 0 };

	for (pass = 0; pass < 2; pass++) {
		m = t_media(test, &t_small);
		nvm_mem_media_cut_seed(m, 42);
		atomic_set(&m->unplugged, 1);
		for (i = 0; i < 12; i++) {
			c->ppas[0].ppa = t_ppa(m, 0, i % 2, i / 2 % 4, 0, 0, 0);
			c->ppas[1].ppa = t_ppa(m, 0, i % 2, i / 2 % 4, 0, 0, 1);
			t_run(test, T_RUN_QUEUED, NVM_OP_PWRITE, 2, i, true);
			KUNIT_EXPECT_EQ(test, c->rqd.error, NVM_MEM_RSP_GONE);
			got[pass][i] = t_cut_ret;
		}
	}
	/* the same seed, the same outcomes: those of splitmix64(42) */
	state = 42;
	for (i = 0; i < 12; i++) {
		r = nvm_mem_rand(&state);
		KUNIT_EXPECT_EQ(test, got[0][i], got[1][i]);
		KUNIT_EXPECT_EQ(test, (u64)got[0][i], r % 3);
		outcomes[got[0][i]]++;
	}
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_dropped), outcomes[0]);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_applied), outcomes[1]);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_torn), outcomes[2]);

	/* reseeding restarts the sequence */
	nvm_mem_media_cut_seed(m, 42);
	state = 42;
	c->ppas[0].ppa = t_ppa(m, 0, 0, 3, 1, 3, 0);
	t_run(test, T_RUN_QUEUED, NVM_OP_PWRITE, 1, 0, true);
	KUNIT_EXPECT_EQ(test, (u64)t_cut_ret, nvm_mem_rand(&state) % 3);

	/* arriving after the cut: gone, nothing drawn, nothing counted */
	t_run(test, T_RUN, NVM_OP_PWRITE, 1, 0, true);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_NONE);
	KUNIT_EXPECT_EQ(test, c->rqd.error, NVM_MEM_RSP_GONE);
	t_run(test, T_RUN_QUEUED, NVM_OP_ERASE, 1, 0, false);
	KUNIT_EXPECT_EQ(test, (u64)t_cut_ret, nvm_mem_rand(&state) % 2);
}

/* The power goes while a command runs: applied in full, reported gone. */
static void t_cut_while_running(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	int n = t_block(test, 1, 0), i;

	c->unplug_in_fault = true;
	KUNIT_EXPECT_EQ(test, t_run(test, T_RUN, NVM_OP_PWRITE, n, 2, true),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_APPLIED);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(n - 1, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_applied), 1);
	c->unplug_in_fault = false;
	atomic_set(&m->unplugged, 0);
	n = t_block(test, 1, 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, n, 0, true), 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 2));
	/* a read that the cut overtakes is not counted */
	c->unplug_in_fault = true;
	KUNIT_EXPECT_EQ(test, t_run(test, T_RUN, NVM_OP_PREAD, n, 0, true),
			NVM_MEM_RSP_GONE);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_NONE);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.cut_applied), 1);
}

/* Worst status wins; ppa_status marks every failed address. */
static void t_status(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;

	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 0, 0, 0, 0), 1),
			0);
	c->ppas[0].ppa = t_ppa(m, 0, 0, 0, 0, 0, 0);	/* ok */
	c->ppas[1].ppa = t_ppa(m, 0, 0, 0, 0, 0, 1);	/* empty */
	c->ppas[2].ppa = t_ppa(m, 1, 0, 0, 0, 0, 0);	/* out of range */
	c->ppas[3].ppa = t_ppa(m, 0, 0, 0, 1, 0, 0);	/* empty */
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 4, 0, true),
			NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xeULL);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 1));
}

static void t_stats(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	struct nvm_mem_stats *s = &m->stats;
	int i;

	for (i = 0; i < 4; i++)
		c->ppas[i].ppa = t_ppa(m, 0, 0, 0, 0, i / 2, i % 2);
	t_io(test, NVM_OP_PWRITE, 4, 1, true);
	t_io(test, NVM_OP_PWRITE, 4, 1, true);		/* 4 rewrites */
	for (i = 0; i < 6; i++)
		c->ppas[i].ppa = t_ppa(m, 0, 0, 0, 0, i / 2, i % 2);
	t_io(test, NVM_OP_PREAD, 6, 0, true);		/* 4 ok, 2 empty */
	t_io1(test, NVM_OP_ERASE, t_ppa(m, 0, 0, 0, 0, 0, 0), 0);
	t_io1(test, NVM_OP_ERASE, t_ppa(m, 1, 0, 0, 0, 0, 0), 0);

	KUNIT_EXPECT_EQ(test, atomic64_read(&s->host_write_sectors), 8);
	KUNIT_EXPECT_EQ(test, atomic64_read(&s->media_write_sectors), 4);
	KUNIT_EXPECT_EQ(test, atomic64_read(&s->write_errors), 4);
	KUNIT_EXPECT_EQ(test, atomic64_read(&s->host_read_sectors), 6);
	KUNIT_EXPECT_EQ(test, atomic64_read(&s->media_read_sectors), 4);
	KUNIT_EXPECT_EQ(test, atomic64_read(&s->empty_reads), 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&s->read_errors), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&s->erases), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&s->erase_errors), 1);
}

/* Sectors split over several bvecs are copied whole, in order. */
static void t_bio_chunks(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	struct nvm_rq *rqd = &c->rqd;
	int i;

	for (i = 0; i < 3; i++)
		c->ppas[i].ppa = t_ppa(m, 0, 1, 1, 1, i / 2, i % 2);
	memset(rqd, 0, sizeof(*rqd));
	rqd->opcode = NVM_OP_PWRITE;
	rqd->nr_ppas = 3;
	rqd->ppa_list = c->ppas;
	t_bio(test, 3, 8);
	t_fill(c, 3, 77);
	rqd->bio = c->bio;
	nvm_mem_media_exec(m, rqd, NULL, NULL, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, rqd->error, 0);

	rqd->opcode = NVM_OP_PREAD;
	t_bio(test, 3, 4);
	rqd->bio = c->bio;
	nvm_mem_media_exec(m, rqd, NULL, NULL, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, rqd->error, 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 77));
}

/* Programs without a sleeping allocation (inline completion mode). */
static void t_atomic(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_small);
	struct t_ctx *c = test->priv;
	struct nvm_rq *rqd = &c->rqd;
	int n = t_block(test, 0, 0), i;

	memset(rqd, 0, sizeof(*rqd));
	rqd->opcode = NVM_OP_PWRITE;
	rqd->nr_ppas = n;
	rqd->ppa_list = c->ppas;
	t_bio(test, n, 1);
	t_fill(c, n, 12);
	rqd->bio = c->bio;
	local_irq_disable();
	nvm_mem_media_exec(m, rqd, NULL, NULL, GFP_ATOMIC);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, rqd->error, 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, n, 0, true), 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 12));
}

/* The t_small geometry with data=0. */
static struct nvm_mem_media *t_nodata_media(struct kunit *test)
{
	struct nvm_mem_cfg cfg = t_small;

	cfg.data = 0;
	return t_media(test, &cfg);
}

static void t_expect_mem(struct kunit *test, struct nvm_mem_media *m,
			 long sects, long pages, long segs, long tbls)
{
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), sects);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_pages), pages);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_segs), segs);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_tbls), tbls);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_bytes(m),
			pages * PAGE_SIZE +
			segs * kmalloc_size_roundup(m->seg_secs * m->rec_size) +
			tbls * kmalloc_size_roundup(m->tbl_size));
}

/*
 * data=0: a sector whose 4 KiB are one word keeps the word (zeroes too,
 * which are data, not an empty sector), any other a page; both read back
 * as written with their OOB bytes; the erase frees them; a failed program
 * stores nothing.
 */
static void t_nodata(struct kunit *test)
{
	struct nvm_mem_media *m = t_nodata_media(test);
	struct t_ctx *c = test->priv;
	int n, i;

	/* a record: state, 16 OOB bytes, the word; one segment per plane */
	KUNIT_EXPECT_EQ(test, m->rec_size, 25);
	KUNIT_EXPECT_EQ(test, m->seg_secs, 8);
	KUNIT_EXPECT_EQ(test, m->segs_per_plblk, 1);

	n = t_block(test, 1, 1);
	c->words = GENMASK_ULL(n - 1, 0) & ~BIT_ULL(5);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, n, 9, true), 0);
	t_expect_mem(test, m, n, 1, 2, 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, n, 0, true), 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 9));
	for (i = 0; i < n * 16; i++)
		KUNIT_EXPECT_EQ(test, c->meta[i], (u8)(9 + i));

	/* zeroes */
	c->words = 1;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 1, 2, 0, 0, 0), 0),
			0);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_ppa(m, 0, 1, 2, 0, 0, 0), 0),
			NVM_RSP_SUCCESS);
	KUNIT_EXPECT_TRUE(test, t_data_is_zero(c, 0));
	KUNIT_EXPECT_EQ(test, c->meta[3], 3);
	t_expect_mem(test, m, n + 1, 1, 3, 3);

	/* the erase frees block 1's page, records and tables */
	c->ppas[0].ppa = t_ppa(m, 0, 1, 1, 0, 0, 0);
	c->ppas[1].ppa = t_ppa(m, 0, 1, 1, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_ERASE, 2, 0, false), 0);
	t_expect_mem(test, m, 1, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, t_block(test, 1, 1), 0,
				   true), NVM_RSP_ERR_EMPTYPAGE);

	/* a failed program consumes its sector and stores nothing */
	c->words = 3;
	c->fault_every = 1;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 3, 0, 0, 0), 4),
			NVM_RSP_ERR_FAILWRITE);
	c->fault_every = 0;
	t_expect_mem(test, m, 1, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 0, 3, 0, 0, 1), 4),
			0);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_ppa(m, 0, 0, 3, 0, 0, 0), 0),
			NVM_RSP_ERR_EMPTYPAGE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_ppa(m, 0, 0, 3, 0, 0, 1), 0),
			0);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 4));
	t_expect_mem(test, m, 2, 0, 2, 2);
}

/*
 * data=0 with a sector's bytes split over bvecs at an odd offset: the
 * word is recognised across them, and a single differing byte past the
 * split makes the sector a page.
 */
static void t_nodata_split(struct kunit *test)
{
	struct nvm_mem_media *m = t_nodata_media(test);
	struct t_ctx *c = test->priv;
	struct nvm_rq *rqd = &c->rqd;
	int i;

	t_free_bio(c);
	c->bio = bio_kmalloc(4, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->bio);
	bio_init(c->bio, NULL, c->bio->bi_inline_vecs, 4, REQ_OP_WRITE);
	for (i = 0; i < 2; i++) {
		c->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->pages[i]);
		c->nr_pages++;
		KUNIT_ASSERT_EQ(test, bio_add_page(c->bio, c->pages[i], 1001, 0),
				1001);
		KUNIT_ASSERT_EQ(test, bio_add_page(c->bio, c->pages[i],
						   NVM_MEM_SEC_SIZE - 1001, 1001),
				NVM_MEM_SEC_SIZE - 1001);
	}
	c->words = 3;
	t_fill(c, 2, 31);
	((u8 *)page_address(c->pages[1]))[3000] ^= 1;
	memset(rqd, 0, sizeof(*rqd));
	rqd->opcode = NVM_OP_PWRITE;
	rqd->nr_ppas = 2;
	rqd->ppa_list = c->ppas;
	rqd->bio = c->bio;
	c->ppas[0].ppa = t_ppa(m, 0, 0, 0, 0, 0, 0);
	c->ppas[1].ppa = t_ppa(m, 0, 0, 0, 0, 0, 1);
	nvm_mem_media_exec(m, rqd, NULL, NULL, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, rqd->error, 0);
	t_expect_mem(test, m, 2, 1, 1, 1);

	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 2, 0, true), 0);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 31));
	KUNIT_EXPECT_FALSE(test, t_data_is(c, 1, 31));
	((u8 *)page_address(c->pages[1]))[3000] ^= 1;
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 1, 31));
}

/*
 * data=0 and power cuts: torn sectors hold a record, no data, and read as
 * media errors until the erase; a copy of the media (the recorder's
 * snapshot) reads the same; no memory for a record fails the program.
 */
static void t_nodata_cut_clone(struct kunit *test)
{
	struct nvm_mem_media *m = t_nodata_media(test), *m2;
	struct t_ctx *c = test->priv;
	int n, i;

	c->words = ~0ULL;
	atomic_set(&m->unplugged, 1);
	/* 8 pages of 2 sectors: pages 0-2 programmed, page 3 torn */
	n = t_cut_block(test, 0, t_torn_r(3), 5);
	KUNIT_EXPECT_EQ(test, n, NVM_MEM_RSP_GONE);
	atomic_set(&m->unplugged, 0);
	t_expect_mem(test, m, 6, 0, 2, 2);
	KUNIT_EXPECT_EQ(test, t_read_block(test, 0), NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 6));
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 5));
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.read_errors), 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&m->stats.empty_reads), 8);

	/* a page sector too, in another block */
	c->words = 0;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m, 0, 1, 0, 1, 0, 0), 8),
			0);

	/* the copy: same data, OOB bytes, states, write pointers, memory */
	m2 = nvm_mem_media_clone(m);
	KUNIT_ASSERT_NOT_NULL(test, m2);
	c->m2 = m;
	c->m = m2;
	t_expect_mem(test, m2, 7, 1, 3, 3);
	c->words = ~0ULL;
	KUNIT_EXPECT_EQ(test, t_read_block(test, 0), NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, GENMASK_ULL(15, 6));
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 5));
	for (i = 0; i < 6 * 16; i++)
		KUNIT_EXPECT_EQ(test, c->meta[i], (u8)(5 + i));
	c->words = 0;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_ppa(m2, 0, 1, 0, 1, 0, 0), 0),
			0);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 8));
	/* the torn page is behind the write pointer in the copy too */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m2, 0, 0, 0, 1, 1, 1), 8),
			NVM_RSP_ERR_FAILWRITE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m2, 0, 0, 0, 1, 2, 0), 8),
			0);

	/* the erase frees the torn sectors' records too */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_ppa(m2, 0, 0, 0, 0, 0, 0), 0),
			0);
	t_expect_mem(test, m2, 1, 1, 1, 1);

	/* no memory for the sector: the program fails, nothing is stored */
	c->alloc_fail = 1;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m2, 0, 0, 0, 0, 0, 0), 8),
			NVM_MEM_RSP_NOMEM);
	c->alloc_fail = 0;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PWRITE, t_ppa(m2, 0, 0, 0, 0, 0, 0), 8),
			0);
	t_expect_mem(test, m2, 2, 2, 2, 2);
	/* the original did not change */
	t_expect_mem(test, m, 7, 1, 3, 3);
}

/* ------------------------------------------------ Open-Channel SSD 2.0 */

/*
 * t_small as a 2.0 device: 1 group x 2 PUs x 4 chunks of 16 logical blocks
 * (4 pages x 2 planes x 2 sectors), ws_min 4.
 */
static const struct nvm_mem_cfg t_v2 = {
	.num_ch = 1, .num_lun = 2, .num_pln = 2, .num_blk = 4, .num_pg = 4,
	.sec_per_pg = 2, .oob_size = 16, .factory_bad = 0, .bb_seed = 1,
	.data = 1, .version = 2,
};

/* The 2.0 address of logical block @lbk of chunk (@pu, @chk). */
static u64 t_lba(struct nvm_mem_media *m, u32 pu, u32 chk, u32 lbk)
{
	return nvm_mem_encode_dev(m, 0, pu, chk, 0, lbk / m->ws_min,
				  lbk % m->ws_min);
}

/* Logical blocks [@from, @from + @n) of chunk (@pu, @chk) in c->ppas. */
static void t_lbas(struct kunit *test, u32 pu, u32 chk, u32 from, int n)
{
	struct t_ctx *c = test->priv;
	int i;

	for (i = 0; i < n; i++)
		c->ppas[i].ppa = t_lba(c->m, pu, chk, from + i);
}

/* The descriptor of chunk (@pu, @chk). */
static struct nvm_chk_meta t_chunk(struct kunit *test, u32 pu, u32 chk)
{
	struct t_ctx *c = test->priv;
	struct nvm_chk_meta meta = { };

	KUNIT_EXPECT_EQ(test, nvm_mem_media_chunks(c->m, t_lba(c->m, pu, chk, 0),
						   1, &meta), 0);
	return meta;
}

static void t20_identity(struct kunit *test)
{
	struct nvm_mem_cfg cfg = t_v2;
	struct nvm_geo geo = { };
	struct nvm_id id;

	KUNIT_ASSERT_EQ(test, nvm_mem_cfg_validate(&cfg, "k"), 0);
	cfg.ws_opt = 8;
	cfg.mw_cunits = 16;
	KUNIT_ASSERT_EQ(test, nvm_mem_cfg_validate(&cfg, "k"), 0);
	nvm_mem_make_identity(&cfg, &id);
	KUNIT_ASSERT_EQ(test, nvm_validate_identity(&id, "kunit"), 0);
	KUNIT_EXPECT_EQ(test, id.ver_id, NVM_OCSSD_SPEC_20);
	KUNIT_EXPECT_EQ(test, id.id20.num_grp, 1);
	KUNIT_EXPECT_EQ(test, id.id20.num_pu, 2);
	KUNIT_EXPECT_EQ(test, id.id20.num_chk, 4U);
	KUNIT_EXPECT_EQ(test, id.id20.clba, 16U);
	KUNIT_EXPECT_EQ(test, id.id20.ws_min, 4U);
	KUNIT_EXPECT_EQ(test, id.id20.ws_opt, 8U);
	KUNIT_EXPECT_EQ(test, id.id20.mw_cunits, 16U);
	KUNIT_EXPECT_EQ(test, id.id20.mccap, 0U);
	KUNIT_EXPECT_EQ(test, id.id20.sos, 16);
	nvm_geo_from_identity(&id, &geo);
	KUNIT_EXPECT_EQ(test, geo.version, NVM_OCSSD_SPEC_20);
	KUNIT_EXPECT_EQ(test, geo.nr_planes, 1);
	KUNIT_EXPECT_EQ(test, geo.sec_per_pg, 4);
	KUNIT_EXPECT_EQ(test, geo.pgs_per_blk, 4);
	KUNIT_EXPECT_EQ(test, geo.sec_per_blk, 16);
	KUNIT_EXPECT_EQ(test, geo.nr_secs, 128ULL);
	/* ws_opt defaults to ws_min */
	nvm_mem_make_identity(&t_v2, &id);
	KUNIT_EXPECT_EQ(test, id.id20.ws_opt, 4U);

	cfg.ws_opt = 6;
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_validate(&cfg, "k"), -EINVAL);
	cfg.ws_opt = 20;
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_validate(&cfg, "k"), -EINVAL);
	cfg.ws_opt = 0;
	cfg.mw_cunits = 17;
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_validate(&cfg, "k"), -EINVAL);
	/* 2.0 options on a 1.2 device, and unknown versions */
	cfg = t_small;
	cfg.ws_opt = 4;
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_validate(&cfg, "k"), -EINVAL);
	cfg = t_small;
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_set(&cfg, "version", 3, "k"), -EINVAL);
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_set(&cfg, "version", 0, "k"), -EINVAL);
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_set(&cfg, "version", 2, "k"), 0);
	KUNIT_EXPECT_EQ(test, nvm_mem_cfg_get(&cfg, "version"), 2U);
}

/*
 * The core's generic addresses, converted to 2.0 addresses by the core,
 * land on the sectors a 1.2 target order would: block offset off is page
 * off / ws_min, plane (off / sec_per_pg) % planes, sector off % sec_per_pg.
 */
static void t20_address(struct kunit *test)
{
	struct nvm_mem_cfg cfg = t_v2;
	struct nvm_mem_media *m = t_media(test, &cfg);
	struct t_ctx *c = test->priv;
	struct nvm_geo geo = { };
	struct nvm_rq *rqd = &c->rqd;
	struct nvm_id id;
	u32 pu, chk, off;

	nvm_mem_make_identity(&m->cfg, &id);
	nvm_geo_from_identity(&id, &geo);
	memset(rqd, 0, sizeof(*rqd));
	rqd->nr_ppas = 1;
	for (pu = 0; pu < 2; pu++)
		for (chk = 0; chk < 4; chk++)
			for (off = 0; off < 16; off++) {
				const struct nvm_addrf20 *f = &id.id20.lbaf;
				struct ppa_addr b = { .ppa = 0 }, g;

				b.g.lun = pu;
				b.g.blk = chk;
				g = nvm_blk_off_to_ppa(&geo, b, off);
				rqd->ppa_addr = nvm_generic_to_dev20(&geo, f, g);
				KUNIT_ASSERT_EQ(test, rqd->ppa_addr.ppa,
						t_lba(m, pu, chk, off));
				KUNIT_ASSERT_EQ(test, nvm_mem_rq_ppa(m, rqd, 0),
						t_ppa(m, 0, pu, chk, (off / 2) % 2,
						      off / 4, off % 2));
			}
	/* a bit outside the format, or a field beyond the counts: none */
	rqd->ppa_addr.ppa = 1ULL << 40;
	KUNIT_EXPECT_EQ(test, nvm_mem_rq_ppa(m, rqd, 0), NVM_MEM_BAD_PPA);
	cfg.num_lun = 3;
	cfg.num_blk = 3;
	cfg.num_pg = 3;
	m = t_media(test, &cfg);
	rqd->ppa_addr.ppa = t_lba(m, 0, 2, 11);
	KUNIT_EXPECT_NE(test, nvm_mem_rq_ppa(m, rqd, 0), NVM_MEM_BAD_PPA);
	rqd->ppa_addr.ppa = t_lba(m, 3, 0, 0);
	KUNIT_EXPECT_EQ(test, nvm_mem_rq_ppa(m, rqd, 0), NVM_MEM_BAD_PPA);
	rqd->ppa_addr.ppa = t_lba(m, 0, 3, 0);
	KUNIT_EXPECT_EQ(test, nvm_mem_rq_ppa(m, rqd, 0), NVM_MEM_BAD_PPA);
	rqd->ppa_addr.ppa = t_lba(m, 0, 0, 12);
	KUNIT_EXPECT_EQ(test, nvm_mem_rq_ppa(m, rqd, 0), NVM_MEM_BAD_PPA);
}

/* In order at the write pointer, in units of ws_min; full means closed. */
static void t20_write_rules(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_v2);
	struct t_ctx *c = test->priv;
	struct nvm_chk_meta meta;
	int i;

	meta = t_chunk(test, 0, 1);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_FREE);
	KUNIT_EXPECT_EQ(test, meta.wp, 0ULL);
	KUNIT_EXPECT_EQ(test, meta.cnlb, 16ULL);
	KUNIT_EXPECT_EQ(test, meta.slba, t_lba(m, 0, 1, 0));
	KUNIT_EXPECT_EQ(test, meta.type, NVM_CHK_TP_W_SEQ);

	t_lbas(test, 0, 1, 0, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 1, true), 0);
	meta = t_chunk(test, 0, 1);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_OPEN);
	KUNIT_EXPECT_EQ(test, meta.wp, 4ULL);

	/* not at the write pointer: nothing written */
	t_lbas(test, 0, 1, 8, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 2, true),
			NVM_RSP_ERR_OUTOFORDER);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xfULL);
	/* less than a unit: nothing written */
	t_lbas(test, 0, 1, 4, 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 2, 2, true),
			NVM_RSP_ERR_WRITENEXTUNIT);
	/* a good unit and a bad address: the whole command refused */
	t_lbas(test, 0, 1, 4, 4);
	c->ppas[4].ppa = 1ULL << 40;
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 5, 2, true),
			NVM_MEM_RSP_LBA_RANGE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0x10ULL);
	KUNIT_EXPECT_EQ(test, t_chunk(test, 0, 1).wp, 4ULL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 4);

	/* two units, then two chunks in one command */
	t_lbas(test, 0, 1, 4, 8);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 8, 3, true), 0);
	KUNIT_EXPECT_EQ(test, t_chunk(test, 0, 1).wp, 12ULL);
	t_lbas(test, 1, 0, 0, 4);
	for (i = 0; i < 4; i++)
		c->ppas[4 + i].ppa = t_lba(m, 0, 1, 12 + i);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 8, 4, true), 0);
	meta = t_chunk(test, 0, 1);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_CLOSED);
	KUNIT_EXPECT_EQ(test, meta.wp, 16ULL);
	KUNIT_EXPECT_EQ(test, t_chunk(test, 1, 0).state, NVM_CHK_ST_OPEN);

	/* a closed chunk takes no write */
	t_lbas(test, 0, 1, 0, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 5, true),
			NVM_RSP_ERR_OUTOFORDER);

	/* read back; at and above the write pointer: empty */
	t_lbas(test, 0, 1, 4, 8);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 8, 0, true), 0);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 3));
	t_lbas(test, 1, 0, 3, 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 2, 0, true),
			NVM_RSP_ERR_EMPTYPAGE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0x2ULL);
}

/* A reset frees a written chunk; a free one refuses it. */
static void t20_reset(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_v2);
	struct t_ctx *c = test->priv;
	struct nvm_chk_meta meta;

	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_lba(m, 0, 2, 0), 0),
			NVM_RSP_ERR_INVALIDRESET);
	t_lbas(test, 0, 2, 0, 8);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 8, 1, true), 0);
	/* the same chunk twice in one command: nothing reset */
	c->ppas[0].ppa = t_lba(m, 0, 2, 0);
	c->ppas[1].ppa = t_lba(m, 0, 2, 5);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_ERASE, 2, 0, false),
			NVM_RSP_ERR_INVALIDRESET);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0x2ULL);
	KUNIT_EXPECT_EQ(test, t_chunk(test, 0, 2).wp, 8ULL);
	/* any address of the chunk resets it */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_lba(m, 0, 2, 5), 0), 0);
	meta = t_chunk(test, 0, 2);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_FREE);
	KUNIT_EXPECT_EQ(test, meta.wp, 0ULL);
	KUNIT_EXPECT_EQ(test, meta.wi, 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&m->nr_sects), 0);
	t_lbas(test, 0, 2, 0, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 2, true), 0);
}

/* A failed write closes its chunk early; a failed reset takes it offline. */
static void t20_faults(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_v2);
	struct t_ctx *c = test->priv;
	struct nvm_chk_meta meta;

	c->fault_every = 2;
	t_lbas(test, 1, 3, 0, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 1, true),
			NVM_RSP_ERR_FAILCLOSE);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xeULL);
	c->fault_every = 0;
	meta = t_chunk(test, 1, 3);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_CLOSED);
	KUNIT_EXPECT_EQ(test, meta.wp, 1ULL);
	/* what was written before the failure reads back */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_lba(m, 1, 3, 0), 0), 0);
	KUNIT_EXPECT_TRUE(test, t_data_is(c, 0, 1));
	/* a reset reopens it */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_lba(m, 1, 3, 0), 0), 0);
	KUNIT_EXPECT_EQ(test, t_chunk(test, 1, 3).state, NVM_CHK_ST_FREE);

	t_lbas(test, 1, 3, 0, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 1, true), 0);
	c->fault_every = 1;
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_lba(m, 1, 3, 0), 0),
			NVM_RSP_ERR_OFFLINE);
	c->fault_every = 0;
	KUNIT_EXPECT_EQ(test, t_chunk(test, 1, 3).state, NVM_CHK_ST_OFFLINE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_PREAD, t_lba(m, 1, 3, 0), 0),
			NVM_RSP_ERR_OFFLINE);
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_lba(m, 1, 3, 0), 0),
			NVM_RSP_ERR_OFFLINE);
	t_lbas(test, 1, 3, 4, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 1, true),
			NVM_RSP_ERR_OFFLINE);
}

/*
 * A cut tears one write unit of a command, never part of one: the write
 * pointer stays on a unit, the chunk report survives power cycles.
 */
static void t20_cut(struct kunit *test)
{
	struct nvm_mem_media *m = t_media(test, &t_v2);
	struct t_ctx *c = test->priv;
	struct nvm_chk_meta meta;
	int i;

	atomic_set(&m->unplugged, 1);
	t_lbas(test, 0, 0, 0, 12);
	t_cut_r = t_torn_r(1);
	t_run(test, T_CUT, NVM_OP_PWRITE, 12, 6, true);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_TORN);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_chunks(m, t_lba(m, 0, 0, 0), 1,
						   &meta), -ENODEV);
	atomic_set(&m->unplugged, 0);
	meta = t_chunk(test, 0, 0);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_OPEN);
	KUNIT_EXPECT_EQ(test, meta.wp, 8ULL);
	t_lbas(test, 0, 0, 0, 8);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 8, 0, true),
			NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xf0ULL);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 6));
	/* the next unit goes at the write pointer */
	t_lbas(test, 0, 0, 8, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 7, true), 0);
}

/* The report: offline chunks from the factory marks, ranges, errors. */
static void t20_report(struct kunit *test)
{
	struct nvm_mem_cfg cfg = t_v2;
	struct nvm_chk_meta meta[8];
	struct nvm_mem_media *m;
	int i, offline = 0, bad = 0;
	u32 b;

	cfg.factory_bad = 3;
	m = t_media(test, &cfg);
	KUNIT_ASSERT_EQ(test, nvm_mem_media_chunks(m, t_lba(m, 0, 0, 0), 8,
						   meta), 0);
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, meta[i].slba, t_lba(m, i / 4, i % 4, 0));
		if (meta[i].state == NVM_CHK_ST_OFFLINE)
			offline++;
		else
			KUNIT_EXPECT_EQ(test, meta[i].state, NVM_CHK_ST_FREE);
	}
	for (b = 0; b < 8; b++)
		bad += m->bbt[b * 2] != NVM_BLK_T_FREE ||
		       m->bbt[b * 2 + 1] != NVM_BLK_T_FREE;
	KUNIT_EXPECT_EQ(test, offline, bad);
	KUNIT_EXPECT_GT(test, offline, 0);

	/* from the middle of the device to its end, not beyond */
	KUNIT_EXPECT_EQ(test, nvm_mem_media_chunks(m, t_lba(m, 0, 3, 0), 5,
						   meta), 0);
	KUNIT_EXPECT_EQ(test, meta[4].slba, t_lba(m, 1, 3, 0));
	KUNIT_EXPECT_EQ(test, nvm_mem_media_chunks(m, t_lba(m, 0, 3, 0), 6,
						   meta), -EINVAL);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_chunks(m, t_lba(m, 0, 3, 1), 1,
						   meta), -EINVAL);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_chunks(m, t_lba(m, 0, 0, 0), 0,
						   meta), -EINVAL);
	m = t_media(test, &t_small);
	KUNIT_EXPECT_EQ(test, nvm_mem_media_chunks(m, 0, 1, meta), -EOPNOTSUPP);
}

/*
 * 2.0 on data=0: the chunk rules and the report are the same, records
 * follow the units written, a cut tears a whole unit (records, no data),
 * a copy keeps a chunk closed early, a reset frees the chunk's records.
 */
static void t20_nodata(struct kunit *test)
{
	struct nvm_mem_cfg cfg = t_v2;
	struct t_ctx *c = test->priv;
	struct nvm_mem_media *m, *m2;
	struct nvm_chk_meta meta;
	int i;

	cfg.data = 0;
	m = t_media(test, &cfg);

	/* two units of one-word sectors but one, which takes a page */
	c->words = GENMASK_ULL(7, 0) & ~BIT_ULL(5);
	t_lbas(test, 0, 1, 0, 8);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 8, 9, true), 0);
	t_expect_mem(test, m, 8, 1, 2, 2);
	meta = t_chunk(test, 0, 1);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_OPEN);
	KUNIT_EXPECT_EQ(test, meta.wp, 8ULL);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 8, 0, true), 0);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 9));
	for (i = 0; i < 8 * 16; i++)
		KUNIT_EXPECT_EQ(test, c->meta[i], (u8)(9 + i));
	/* less than a unit: nothing written, nothing allocated */
	t_lbas(test, 0, 1, 8, 2);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 2, 2, true),
			NVM_RSP_ERR_WRITENEXTUNIT);
	t_expect_mem(test, m, 8, 1, 2, 2);

	/* a cut: the first unit programmed, the second torn */
	c->words = ~0ULL;
	atomic_set(&m->unplugged, 1);
	t_lbas(test, 0, 0, 0, 12);
	t_cut_r = t_torn_r(1);
	t_run(test, T_CUT, NVM_OP_PWRITE, 12, 6, true);
	KUNIT_EXPECT_EQ(test, t_cut_ret, NVM_MEM_CUT_TORN);
	atomic_set(&m->unplugged, 0);
	meta = t_chunk(test, 0, 0);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_OPEN);
	KUNIT_EXPECT_EQ(test, meta.wp, 8ULL);
	t_expect_mem(test, m, 12, 1, 4, 4);
	t_lbas(test, 0, 0, 0, 8);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PREAD, 8, 0, true),
			NVM_RSP_ERR_FAILECC);
	KUNIT_EXPECT_EQ(test, c->rqd.ppa_status, 0xf0ULL);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, t_data_is(c, i, 6));

	/* an injected failure closes chunk (1, 2) after its first sector */
	c->fault_every = 2;
	t_lbas(test, 1, 2, 0, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 3, true),
			NVM_RSP_ERR_FAILCLOSE);
	c->fault_every = 0;
	t_expect_mem(test, m, 13, 1, 5, 5);

	/* the copy: the same report, the chunk still closed early */
	m2 = nvm_mem_media_clone(m);
	KUNIT_ASSERT_NOT_NULL(test, m2);
	c->m2 = m;
	c->m = m2;
	t_expect_mem(test, m2, 13, 1, 5, 5);
	meta = t_chunk(test, 1, 2);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_CLOSED);
	KUNIT_EXPECT_EQ(test, meta.wp, 1ULL);
	meta = t_chunk(test, 0, 0);
	KUNIT_EXPECT_EQ(test, meta.state, NVM_CHK_ST_OPEN);
	KUNIT_EXPECT_EQ(test, meta.wp, 8ULL);

	/* a reset frees the chunk's records, torn ones too */
	KUNIT_EXPECT_EQ(test, t_io1(test, NVM_OP_ERASE, t_lba(m2, 0, 0, 0), 0),
			0);
	t_expect_mem(test, m2, 9, 1, 3, 3);
	KUNIT_EXPECT_EQ(test, t_chunk(test, 0, 0).state, NVM_CHK_ST_FREE);
	t_lbas(test, 0, 0, 0, 4);
	KUNIT_EXPECT_EQ(test, t_io(test, NVM_OP_PWRITE, 4, 4, true), 0);
	t_expect_mem(test, m2, 13, 1, 5, 5);
	/* the original did not change */
	t_expect_mem(test, m, 13, 1, 5, 5);
}

static struct kunit_case nvm_mem_media_cases[] = {
	KUNIT_CASE(t_cfg_validate),
	KUNIT_CASE(t_identity),
	KUNIT_CASE(t_address),
	KUNIT_CASE(t_out_of_range),
	KUNIT_CASE(t_program_order),
	KUNIT_CASE(t_program_once),
	KUNIT_CASE(t_empty_read),
	KUNIT_CASE(t_erase),
	KUNIT_CASE(t_oob),
	KUNIT_CASE(t_bad_blocks),
	KUNIT_CASE(t_faults),
	KUNIT_CASE(t_unplugged),
	KUNIT_CASE(t_cut_program),
	KUNIT_CASE(t_cut_torn_rules),
	KUNIT_CASE(t_cut_torn_page),
	KUNIT_CASE(t_cut_erase_read),
	KUNIT_CASE(t_cut_seed),
	KUNIT_CASE(t_cut_while_running),
	KUNIT_CASE(t_status),
	KUNIT_CASE(t_stats),
	KUNIT_CASE(t_bio_chunks),
	KUNIT_CASE(t_atomic),
	KUNIT_CASE(t_nodata),
	KUNIT_CASE(t_nodata_split),
	KUNIT_CASE(t_nodata_cut_clone),
	KUNIT_CASE(t20_identity),
	KUNIT_CASE(t20_address),
	KUNIT_CASE(t20_write_rules),
	KUNIT_CASE(t20_reset),
	KUNIT_CASE(t20_faults),
	KUNIT_CASE(t20_cut),
	KUNIT_CASE(t20_report),
	KUNIT_CASE(t20_nodata),
	{}
};

static struct kunit_suite nvm_mem_media_suite = {
	.name = "nvm_mem_media",
	.init = t_init,
	.exit = t_exit,
	.test_cases = nvm_mem_media_cases,
};

kunit_test_suite(nvm_mem_media_suite);

MODULE_DESCRIPTION("KUnit tests of the nvm_mem NAND model");
MODULE_LICENSE("GPL");
