/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvm_mem, the memory-backed open-channel device: private declarations
 * shared by its files. media.c owns the NAND model (pure logic, no core
 * calls), timing.c the NAND timing model (pure logic too), main.c the
 * module, its parameters and the device operations, configfs.c the
 * configfs instances, debugfs.c the counters and the debugfs directory,
 * fault.c the fault injection knobs (CONFIG_NVM_MEM_FAULT_INJECTION),
 * record.c the recorder and replayer of the crash-state explorer
 * (CONFIG_NVM_MEM_RECORD); media_test.c and timing_test.c are the KUnit
 * suites of media.c and timing.c.
 */
#ifndef _NVM_MEM_H
#define _NVM_MEM_H

#undef pr_fmt
#define pr_fmt(fmt) "nvm_mem: " fmt

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/configfs.h>
#include <linux/fault-inject.h>
#include <linux/hrtimer.h>
#include <linux/lightnvm.h>
#include <linux/list.h>
#include <linux/mempool.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/spinlock.h>
#include <linux/timerqueue.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#define NVM_MEM_SEC_SIZE	4096
#define NVM_MEM_MAX_CH		128
#define NVM_MEM_MAX_LUN		255
#define NVM_MEM_MAX_BLK		65535
#define NVM_MEM_MAX_PG		65535
#define NVM_MEM_MAX_SEC_PER_PG	15	/* fpg_sz is 16 bits */
#define NVM_MEM_MIN_OOB		16
/* 64 sectors of OOB must fit the core's PAGE_SIZE metadata buffer. */
#define NVM_MEM_MAX_OOB		64
/* Logical blocks of a 2.0 chunk: a block's sectors across its planes. */
#define NVM_MEM_MAX_CLBA	(NVM_MEM_MAX_PG * NVM_MEM_MAX_SEC_PER_PG * 4)
/* Bound on per-block state kept for all blocks up front (LUNs*blks*planes). */
#define NVM_MEM_MAX_BLK_PLANES	BIT(22)
#define NVM_MEM_MAX_PHYS_SECT	64

/*
 * Completion status of a command the device never answered because its
 * power was cut (unplugged): the status the NVMe driver gives commands
 * that did not reach or come back from the device, not a media status.
 * ppa_status has every bit set.
 */
#define NVM_MEM_RSP_GONE	NVME_SC_HOST_PATH_ERROR

/*
 * Completion status of a command failed by the fail_host fault injection,
 * as the NVMe driver completes a command that a controller reset or a
 * timeout aborted: the media is untouched, ppa_status has every bit set.
 */
#define NVM_MEM_RSP_ABORTED	NVME_SC_HOST_ABORTED_CMD

/*
 * Completion status of a program that found no memory for a sector (or
 * its index): the device's internal error, not a media one, so that no
 * block is marked bad for it. That sector and the ones after it in the
 * command are not programmed; their ppa_status bits are set.
 */
#define NVM_MEM_RSP_NOMEM	NVME_SC_INTERNAL

/*
 * Completion status of a 2.0 command with an address outside the LBA
 * format or the counts (NVMe "LBA Out of Range", with Do Not Retry, as the
 * QEMU model reports it). Not a media status.
 */
#define NVM_MEM_RSP_LBA_RANGE	0x4080

/* What a 2.0 address that names no logical block translates to. */
#define NVM_MEM_BAD_PPA		(~0ULL)

/*
 * The commands fail_host may abort (debugfs fail_host_ops, a mask): reads,
 * programs, erases. A device can fail one kind alone, as one that takes
 * no more programs (NVMe "Write Fault", "Namespace Write Protected").
 */
#define NVM_MEM_HOST_READ	BIT(0)
#define NVM_MEM_HOST_WRITE	BIT(1)
#define NVM_MEM_HOST_ERASE	BIT(2)
#define NVM_MEM_HOST_ALL	(NVM_MEM_HOST_READ | NVM_MEM_HOST_WRITE | \
				 NVM_MEM_HOST_ERASE)
/*
 * fail_host_ops flag: a command fail_host aborts is executed on the media
 * first, then reported aborted, as a program a controller reset or a
 * timeout cut off after it reached the media. Not a kind of command: it
 * changes what the abort of the kinds above does.
 */
#define NVM_MEM_HOST_EXEC	BIT(3)

/* Default seed of the choice of what a power cut does to commands. */
#define NVM_MEM_DEFAULT_CUT_SEED	1

/* Defaults of the module parameters (and of new configfs instances). */
#define NVM_MEM_DEFAULT_CFG {		\
	.num_ch		= 2,		\
	.num_lun	= 4,		\
	.num_pln	= 2,		\
	.num_blk	= 64,		\
	.num_pg		= 64,		\
	.sec_per_pg	= 4,		\
	.oob_size	= 16,		\
	.factory_bad	= 0,		\
	.bb_seed	= 1,		\
	.data		= 1,		\
	.version	= 1,		\
	.ws_opt		= 0,		\
	.mw_cunits	= 0,		\
}

/* Bounds of the timing knobs: 1 s per operation, 10 s of delay. */
#define NVM_MEM_MAX_T_US	1000000
#define NVM_MEM_MAX_DELAY_US	10000000

/*
 * Defaults of the timing knobs: model off, no delay; published MLC NAND
 * figures (tR 50 us, tPROG 1.3 ms, tBERS 3 ms) and 4 KiB per sector at
 * 400 MB/s over the channel.
 */
#define NVM_MEM_DEFAULT_TPARAMS {	\
	.timing		= 0,		\
	.t_read_us	= 50,		\
	.t_prog_us	= 1300,		\
	.t_erase_us	= 3000,		\
	.t_xfer_ns	= 10240,	\
	.completion_delay_us	= 0,	\
	.completion_jitter_us	= 0,	\
}

/**
 * struct nvm_mem_tparams - timing knobs of one instance
 * @timing: 1: the NAND timing model is on
 * @t_read_us: tR, LUN busy per page read
 * @t_prog_us: tPROG, LUN busy per page programmed
 * @t_erase_us: tBERS, LUN busy per block erased
 * @t_xfer_ns: channel busy per sector transferred
 * @completion_delay_us: added to every command's completion time
 * @completion_jitter_us: plus a random 0..this
 */
struct nvm_mem_tparams {
	u32	timing;
	u32	t_read_us;
	u32	t_prog_us;
	u32	t_erase_us;
	u32	t_xfer_ns;
	u32	completion_delay_us;
	u32	completion_jitter_us;
};

/**
 * struct nvm_mem_busy - a time a channel's bus is booked for a transfer
 * @start: when it begins (ns)
 * @end: when it ends (ns)
 */
struct nvm_mem_busy {
	u64	start;
	u64	end;
};

/*
 * Bookings kept per channel: the bus is placed in the earliest gap that
 * holds a transfer; with more bookings, the two closest become one (their
 * gap is lost, never double-booked).
 */
#define NVM_MEM_CH_RES	32

/**
 * struct nvm_mem_timing - timing state of one instance (timing.c)
 * @lock: protects everything here; innermost, taken in any context
 * @p: the knobs
 * @num_ch: channels (0 until the arrays exist)
 * @num_lun: LUNs per channel
 * @lun_free: per LUN, when it is free again (ns, CLOCK_MONOTONIC)
 * @lun_busy: per LUN, total time it was busy (ns)
 * @ch_res: per channel, %NVM_MEM_CH_RES transfers booked on its bus that
 *	have not ended yet, sorted and disjoint (ns, CLOCK_MONOTONIC)
 * @ch_nr_res: per channel, how many of its @ch_res are in use
 * @ch_busy: per channel, total time its bus carried data (ns)
 */
struct nvm_mem_timing {
	spinlock_t		lock;	/* see above */
	struct nvm_mem_tparams	p;
	u32			num_ch;
	u32			num_lun;
	u64			*lun_free;
	u64			*lun_busy;
	struct nvm_mem_busy	*ch_res;
	u32			*ch_nr_res;
	u64			*ch_busy;
};

/* timing.c */
extern const struct nvm_mem_tparams nvm_mem_default_tparams;
void nvm_mem_timing_init(struct nvm_mem_timing *t,
			 const struct nvm_mem_tparams *p);
int nvm_mem_timing_alloc(struct nvm_mem_timing *t, u32 num_ch, u32 num_lun);
void nvm_mem_timing_free(struct nvm_mem_timing *t);
u64 nvm_mem_timing_lun_op(struct nvm_mem_timing *t, int op, u32 lun,
			  u32 nr_sec, u32 nr_arr, u64 now);
struct nvm_mem_media;
u64 nvm_mem_timing_cmd(struct nvm_mem_timing *t, const struct nvm_mem_media *m,
		       const struct nvm_rq *rqd, u64 now);
int nvm_mem_tparams_validate(const struct nvm_mem_tparams *p,
			     const char *name);
u32 nvm_mem_timing_get(struct nvm_mem_timing *t, const char *field);
int nvm_mem_timing_set(struct nvm_mem_timing *t, const char *field, u32 val,
		       const char *name);
u32 nvm_mem_timing_delay(struct nvm_mem_timing *t, u32 *jitter);
bool nvm_mem_timing_deferred(struct nvm_mem_timing *t);

/* completion_mode values */
enum {
	NVM_MEM_COMPL_INLINE	= 0,	/* in the submitter's context */
	NVM_MEM_COMPL_WQ	= 1,	/* from the instance's workqueue */
};

/**
 * struct nvm_mem_cfg - geometry and media options of one instance
 * @num_ch: channels
 * @num_lun: LUNs per channel
 * @num_pln: planes per LUN (1, 2 or 4)
 * @num_blk: blocks per LUN (per plane)
 * @num_pg: pages per block
 * @sec_per_pg: 4 KiB sectors per page (per plane)
 * @oob_size: out-of-band bytes per sector
 * @factory_bad: number of (block, plane) entries marked factory bad
 * @bb_seed: seed of the deterministic choice of factory bad blocks
 * @data: 1: every programmed sector keeps a page of data; 0: a sector
 *	whose 4 KiB are one 8-byte word repeated keeps that word only (see
 *	struct nvm_mem_media)
 * @version: the specification the device speaks: 1 (Open-Channel SSD
 *	1.2) or 2 (2.0). A 2.0 device has @num_ch groups of @num_lun PUs of
 *	@num_blk chunks; a chunk is a block across its planes, of clba =
 *	@num_pg * @sec_per_pg * @num_pln logical blocks, written in units of
 *	ws_min = @sec_per_pg * @num_pln (a multi-plane page)
 * @ws_opt: 2.0: optimal write size reported, a multiple of ws_min within
 *	clba; 0: ws_min. Must be 0 on 1.2.
 * @mw_cunits: 2.0: cache minimum write size units reported, at most clba
 *	(the model has no cache: it does not enforce it). Must be 0 on 1.2.
 */
struct nvm_mem_cfg {
	u32	num_ch;
	u32	num_lun;
	u32	num_pln;
	u32	num_blk;
	u32	num_pg;
	u32	sec_per_pg;
	u32	oob_size;
	u32	factory_bad;
	u32	bb_seed;
	u32	data;
	u32	version;
	u32	ws_opt;
	u32	mw_cunits;
};

/**
 * struct nvm_mem_sect - what one program stores (nvm_mem_sect_set())
 * @page: its 4 KiB, or %NULL when they are @word repeated; the media
 *	takes it on success (see nvm_mem_media_program())
 * @word: the first 8 bytes of the sector, as they are in memory
 * @oob: its OOB bytes (oob_size of them)
 */
struct nvm_mem_sect {
	struct page	*page;
	u64		word;
	u8		oob[NVM_MEM_MAX_OOB];
};

/*
 * State of a sector in its record (struct nvm_mem_media): NONE (never
 * programmed since the erase of its block, or its program failed: reads
 * empty), TORN (by a power cut), WORD (its data is its word repeated),
 * PAGE (its data is a page in the LUN's xarray).
 */
enum {
	NVM_MEM_S_NONE	= 0,
	NVM_MEM_S_TORN	= 1,
	NVM_MEM_S_WORD	= 2,
	NVM_MEM_S_PAGE	= 3,
};

/* The counters of debugfs "stats"; see Documentation/lightnvm/nvm_mem.rst. */
struct nvm_mem_stats {
	atomic64_t	host_read_sectors;
	atomic64_t	host_write_sectors;
	atomic64_t	media_read_sectors;
	atomic64_t	media_write_sectors;
	atomic64_t	erases;
	atomic64_t	read_errors;
	atomic64_t	write_errors;
	atomic64_t	erase_errors;
	atomic64_t	empty_reads;
	atomic64_t	cut_applied;
	atomic64_t	cut_dropped;
	atomic64_t	cut_torn;
};

/**
 * enum nvm_mem_cut - what a power cut did to a command in flight
 * @NVM_MEM_CUT_DROPPED: nothing of it reached the media
 * @NVM_MEM_CUT_APPLIED: executed in full
 * @NVM_MEM_CUT_TORN: a program: one page torn, those before it
 *	programmed, those after it not
 * @NVM_MEM_CUT_NONE: not in flight at a cut, or a read
 */
enum nvm_mem_cut {
	NVM_MEM_CUT_DROPPED	= 0,
	NVM_MEM_CUT_APPLIED	= 1,
	NVM_MEM_CUT_TORN	= 2,
	NVM_MEM_CUT_NONE	= 3,
};

/*
 * Decoded device address: LUN index in the device (ch * num_lun + lun),
 * block, plane, page, sector.
 */
struct nvm_mem_addr {
	u32	lun;
	u32	blk;
	u32	pl;
	u32	pg;
	u32	sec;
};

/**
 * struct nvm_mem_media - the NAND model of one instance
 * @cfg: geometry it was created with (never changes)
 * @ppaf: the address format of the model's own addresses: the device
 *	format of a 1.2 device; a 2.0 device's logical block addresses are
 *	translated to it (nvm_mem_rq_ppa())
 * @lbaf: 2.0: the LBA format the device reports
 * @ws_min: 2.0: logical blocks of a write unit (sec_per_pg * num_pln)
 * @clba: 2.0: logical blocks of a chunk (num_pg * @ws_min)
 * @closed: 2.0: per (LUN, block), 1 when a failed write closed the chunk
 *	early (before it was full), until its next reset; %NULL on 1.2.
 *	Under the LUN lock.
 * @nr_luns: LUNs in the device
 * @sec_per_plblk: sectors in one plane of a block (num_pg * sec_per_pg)
 * @rec_size: bytes of one sector's record: its state, its OOB bytes and,
 *	with data=0, its word
 * @seg_secs: sectors per record segment (as many records as fit a page)
 * @segs_per_plblk: segments of one plane of a block
 * @tbl_size: bytes of one table of segment pointers
 * @sects: per LUN, the data pages of its sectors in state PAGE, by index
 *	in the LUN ((blk * num_pln + pl) * sec_per_plblk + pg * sec_per_pg +
 *	sec). The xarray's own lock (xa_lock_irqsave(), as the device may be
 *	driven from any context) is the LUN lock: it also protects the
 *	LUN's entries of @wp, @bbt, @erase_count, @recs and @closed. No other
 *	lock nests inside it, and no two LUN locks are ever held together.
 * @recs: per (LUN, block, plane): %NULL, or a table of @segs_per_plblk
 *	pointers to record segments, each %NULL or the records of
 *	@seg_secs sectors (fewer in the last segment), @rec_size bytes
 *	each: the sector's state, its OOB bytes and with data=0 its word.
 *	The table and a segment are allocated at the first program (or
 *	tear) of a sector they cover and freed by the erase of the block,
 *	so memory follows what is written: with data=0, oob_size + 9 bytes
 *	a sector whose data is one word, plus a page for any other
 * @wp: per (LUN, block, plane): next sector to program, as
 *	pg * sec_per_pg + sec; sec_per_plblk when the plane is full
 * @bbt: per (LUN, block, plane): %NVM_BLK_T_* state
 * @erase_count: per (LUN, block): successful erases
 * @nr_sects: sectors currently stored (state WORD or PAGE)
 * @nr_pages: data pages held (sectors in state PAGE)
 * @nr_segs: record segments held
 * @nr_tbls: segment tables held
 * @rec_bytes: memory of the segments and tables held, as allocated
 * @unplugged: set by "pull the plug" (a power cut), cleared at power-on:
 *	see nvm_mem_media_run()
 * @cut_lock: protects @cut_rand
 * @cut_rand: state of the seeded sequence that decides what a cut does to
 *	the commands in flight
 * @stats: counters
 */
struct nvm_mem_media {
	struct nvm_mem_cfg	cfg;
	struct nvm_addr_format	ppaf;
	struct nvm_addrf20	lbaf;
	u32			ws_min;
	u32			clba;
	u8			*closed;
	u32			nr_luns;
	u32			sec_per_plblk;
	u32			rec_size;
	u32			seg_secs;
	u32			segs_per_plblk;
	u32			tbl_size;
	struct xarray		*sects;
	u8			***recs;
	u32			*wp;
	u8			*bbt;
	u32			*erase_count;
	atomic_long_t		nr_sects;
	atomic_long_t		nr_pages;
	atomic_long_t		nr_segs;
	atomic_long_t		nr_tbls;
	atomic_long_t		rec_bytes;
	atomic_t		unplugged;
	spinlock_t		cut_lock;	/* protects cut_rand */
	u64			cut_rand;
	struct nvm_mem_stats	stats;
};

/* Which operation a fault callback is asked about. */
enum nvm_mem_fault {
	NVM_MEM_FAULT_READ,
	NVM_MEM_FAULT_WRITE,
	NVM_MEM_FAULT_ERASE,
	NVM_MEM_FAULT_HOST,	/* a whole command, before the media */
	NVM_MEM_FAULT_ALLOC,	/* room for one programmed sector */
};

/* Returns true when the sector (or block, for erase) must fail. */
typedef bool (nvm_mem_fault_fn)(void *priv, enum nvm_mem_fault op);

/* media.c */
extern const struct nvm_mem_cfg nvm_mem_default_cfg;
int nvm_mem_cfg_validate(const struct nvm_mem_cfg *cfg, const char *name);
u32 nvm_mem_cfg_get(const struct nvm_mem_cfg *cfg, const char *field);
int nvm_mem_cfg_set(struct nvm_mem_cfg *cfg, const char *field, u32 val,
		    const char *name);
void nvm_mem_make_ppaf(const struct nvm_mem_cfg *cfg,
		       struct nvm_addr_format *ppaf);
void nvm_mem_make_identity(const struct nvm_mem_cfg *cfg, struct nvm_id *id);
u64 nvm_mem_encode(const struct nvm_addr_format *ppaf, u32 ch, u32 lun,
		   u32 blk, u32 pl, u32 pg, u32 sec);
void nvm_mem_make_lbaf(const struct nvm_mem_cfg *cfg, struct nvm_addrf20 *f);
u64 nvm_mem_encode_dev(const struct nvm_mem_media *m, u32 ch, u32 lun,
		       u32 blk, u32 pl, u32 pg, u32 sec);
u64 nvm_mem_rq_ppa(const struct nvm_mem_media *m, const struct nvm_rq *rqd,
		   int i);
int nvm_mem_media_chunks(struct nvm_mem_media *m, u64 slba, int nr,
			 struct nvm_chk_meta *meta);
int nvm_mem_decode(const struct nvm_mem_media *m, u64 ppa,
		   struct nvm_mem_addr *a);
struct nvm_mem_media *nvm_mem_media_create(const struct nvm_mem_cfg *cfg);
void nvm_mem_media_free(struct nvm_mem_media *m);
struct nvm_mem_media *nvm_mem_media_clone(const struct nvm_mem_media *src);
u64 nvm_mem_media_bytes(const struct nvm_mem_media *m);

int nvm_mem_sect_set(const struct nvm_mem_media *m, struct nvm_mem_sect *s,
		     const void *buf, const u8 *oob, gfp_t gfp);
void nvm_mem_sect_put(struct nvm_mem_sect *s);
int nvm_mem_media_program(struct nvm_mem_media *m, u64 ppa,
			  struct nvm_mem_sect *s, bool fail, gfp_t gfp);
void nvm_mem_media_tear(struct nvm_mem_media *m, u64 ppa, gfp_t gfp);
int nvm_mem_media_read(struct nvm_mem_media *m, u64 ppa, struct bio *bio,
		       struct bvec_iter *iter, u8 *oob, bool fail);
int nvm_mem_media_erase(struct nvm_mem_media *m, u64 ppa, bool fail);
int nvm_mem_media_get_bbt(struct nvm_mem_media *m, u64 ppa, u8 *blks);
int nvm_mem_media_set_bbt(struct nvm_mem_media *m, const struct ppa_addr *ppas,
			  int nr_ppas, int type);
void nvm_mem_media_exec(struct nvm_mem_media *m, struct nvm_rq *rqd,
			nvm_mem_fault_fn *fault, void *fault_priv, gfp_t gfp);
u64 nvm_mem_rand(u64 *state);
void nvm_mem_media_gone(struct nvm_rq *rqd);
void nvm_mem_media_cut_seed(struct nvm_mem_media *m, u64 seed);
enum nvm_mem_cut nvm_mem_media_cut(struct nvm_mem_media *m, struct nvm_rq *rqd,
				   u64 r, nvm_mem_fault_fn *fault,
				   void *fault_priv, gfp_t gfp);
enum nvm_mem_cut nvm_mem_media_run(struct nvm_mem_media *m,
				   struct nvm_rq *rqd, bool queued,
				   nvm_mem_fault_fn *fault, void *fault_priv,
				   gfp_t gfp);
void nvm_mem_bio_copy(struct bio *bio, struct bvec_iter *iter, void *buf,
		      unsigned int len, bool to_bio);

/**
 * struct nvm_mem_dev - one instance (module parameter or configfs)
 * @list: on the global list of instances, under nvm_mem_lock
 * @name: name it registers under with the core
 * @lock: protects @cfg, @completion_mode, @cut_seed, @media (the
 *	pointer), @ndev, @wq, @cmd_pool and @power. Never held together
 *	with nvm_mem_lock; taken before the core's locks (it is held across
 *	nvm_register() and nvm_unregister()). Never taken on the I/O path or
 *	in the device operations, which rely on these fields (but @cut_seed)
 *	not changing while the device is registered.
 * @cfg: geometry and media options; fixed once @media exists
 * @completion_mode: %NVM_MEM_COMPL_INLINE or %NVM_MEM_COMPL_WQ
 * @cut_seed: seed of what power cuts do to commands in flight; given to
 *	the media when it is created and whenever it is set
 * @media: NAND state; created at the first power-on, kept across power
 *	cycles, freed with the instance
 * @ndev: the core's device while powered on
 * @wq: ordered workqueue executing commands while powered on
 * @cmd_pool: commands queued on @wq
 * @power: registered with the core
 * @configfs: created through configfs (else by module parameter)
 * @stalled: test hook (debugfs test_io "stall"): the workqueue holds the
 *	commands it has not started until cleared; cleared at power-off
 * @stall_wq: where the workqueue waits while @stalled
 * @item: configfs item (configfs instances only)
 * @dbg: debugfs directory
 * @fail_read: fault injection for sector reads
 * @fail_write: fault injection for sector programs
 * @fail_erase: fault injection for block erases
 * @fail_host: fault injection of host errors (aborted commands)
 * @fail_host_ops: the commands @fail_host is asked about, %NVM_MEM_HOST_*
 * @fail_nomem: that many submissions of the kinds in @fail_host_ops fail
 *	with -ENOMEM, as when the device has no memory for a command
 * @fail_alloc: that many sector allocations of programs fail, as when the
 *	media has no memory for a sector (%NVM_MEM_RSP_NOMEM)
 * @timing: the timing model and completion delay knobs and state; the
 *	arrays are allocated with @media
 * @tq_lock: protects @tq and @tq_flush; innermost but for @timing.lock
 * @tq: commands executed and waiting for their completion time
 * @tq_timer: fires at the earliest completion time of @tq (softirq)
 * @tq_flush: power-off in progress: complete at once, queue nothing
 * @test_result: outcome of the last debugfs test_io command (CONFIG_NVM_DEBUG)
 * @rec: the recording of the crash-state explorer (record.c), or %NULL
 */
struct nvm_mem_dev {
	struct list_head	list;
	char			name[DISK_NAME_LEN];
	struct mutex		lock;	/* see above */
	struct nvm_mem_cfg	cfg;
	u32			completion_mode;
	u64			cut_seed;
	struct nvm_mem_media	*media;
	struct nvm_dev		*ndev;
	struct workqueue_struct	*wq;
	mempool_t		*cmd_pool;
	bool			power;
	bool			configfs;
	bool			stalled;
	wait_queue_head_t	stall_wq;
	struct config_item	item;
	struct dentry		*dbg;
	struct nvm_mem_timing	timing;
	spinlock_t		tq_lock;	/* see above */
	struct timerqueue_head	tq;
	struct hrtimer		tq_timer;
	bool			tq_flush;
#ifdef CONFIG_NVM_MEM_FAULT_INJECTION
	struct fault_attr	fail_read;
	struct fault_attr	fail_write;
	struct fault_attr	fail_erase;
	struct fault_attr	fail_host;
	u32			fail_host_ops;
	atomic_t		fail_nomem;
	atomic_t		fail_alloc;
#endif
#ifdef CONFIG_NVM_DEBUG
	char			test_result[80];
#endif
#ifdef CONFIG_NVM_MEM_RECORD
	struct nvm_mem_rec	*rec;
#endif
};

/* main.c */
extern struct dentry *nvm_mem_dbg_root;
struct nvm_mem_dev *nvm_mem_dev_create(const char *name, bool configfs);
void nvm_mem_dev_destroy(struct nvm_mem_dev *dev);
int nvm_mem_power_on(struct nvm_mem_dev *dev);
void nvm_mem_power_off(struct nvm_mem_dev *dev);
int nvm_mem_pull_plug(struct nvm_mem_dev *dev);
void nvm_mem_set_cut_seed(struct nvm_mem_dev *dev, u64 seed);
void nvm_mem_stall(struct nvm_mem_dev *dev, bool stall);

/* record.c: the crash-state explorer's recorder (CONFIG_NVM_MEM_RECORD) */
#ifdef CONFIG_NVM_MEM_RECORD
void nvm_mem_rec_init(struct nvm_mem_dev *dev);
void nvm_mem_rec_release(struct nvm_mem_dev *dev);
void nvm_mem_rec_submit(struct nvm_mem_dev *dev, struct nvm_rq *rqd);
void nvm_mem_rec_exec(struct nvm_mem_dev *dev, struct nvm_rq *rqd);
void nvm_mem_rec_done(struct nvm_mem_dev *dev, struct nvm_rq *rqd);
#else
static inline void nvm_mem_rec_init(struct nvm_mem_dev *dev)
{
}

static inline void nvm_mem_rec_release(struct nvm_mem_dev *dev)
{
}

static inline void nvm_mem_rec_submit(struct nvm_mem_dev *dev,
				      struct nvm_rq *rqd)
{
}

static inline void nvm_mem_rec_exec(struct nvm_mem_dev *dev,
				    struct nvm_rq *rqd)
{
}

static inline void nvm_mem_rec_done(struct nvm_mem_dev *dev,
				    struct nvm_rq *rqd)
{
}
#endif

/* configfs.c */
int nvm_mem_configfs_init(void);
void nvm_mem_configfs_exit(void);

/* debugfs.c */
void nvm_mem_debugfs_add(struct nvm_mem_dev *dev);
void nvm_mem_debugfs_remove(struct nvm_mem_dev *dev);

/* fault.c */
#ifdef CONFIG_NVM_MEM_FAULT_INJECTION
int nvm_mem_fault_parse_params(void);
void nvm_mem_fault_init(struct nvm_mem_dev *dev);
void nvm_mem_fault_debugfs(struct nvm_mem_dev *dev);
bool nvm_mem_should_fail(void *priv, enum nvm_mem_fault op);
bool nvm_mem_host_should_fail(struct nvm_mem_dev *dev, u8 opcode);
bool nvm_mem_nomem_should_fail(struct nvm_mem_dev *dev, u8 opcode);
#define NVM_MEM_FAULT_FN	nvm_mem_should_fail
#else
static inline int nvm_mem_fault_parse_params(void)
{
	return 0;
}

static inline void nvm_mem_fault_init(struct nvm_mem_dev *dev)
{
}

static inline void nvm_mem_fault_debugfs(struct nvm_mem_dev *dev)
{
}

static inline bool nvm_mem_host_should_fail(struct nvm_mem_dev *dev,
					    u8 opcode)
{
	return false;
}

static inline bool nvm_mem_nomem_should_fail(struct nvm_mem_dev *dev,
					     u8 opcode)
{
	return false;
}

#define NVM_MEM_FAULT_FN	NULL
#endif

#endif /* _NVM_MEM_H */
