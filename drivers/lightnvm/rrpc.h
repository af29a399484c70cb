/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rrpc, the round-robin host FTL target of LightNVM: the data structures
 * shared by its parts (rrpc_main.c: registration, init/exit, sysfs;
 * rrpc_io.c: blk-mq I/O path, LUN writers and placement; rrpc_wb.c: the
 * write buffer; rrpc_map.c: logical/physical maps and victim selection;
 * rrpc_gc.c: block allocation and garbage collection; rrpc_recover.c:
 * on-media format and recovery at creation; rrpc_ckpt.c: the checkpoint;
 * rrpc_trace.h: tracepoints; rrpc_test.c: KUnit). See
 * Documentation/lightnvm/rrpc.rst.
 *
 * Address spaces:
 *  - lba:   logical 4 KiB sector of the target's disk, 0 .. nr_lbas - 1
 *  - paddr: physical sector of the target, counted block by block:
 *	     paddr = block index * sec_per_blk + offset in the block, where
 *	     the block index runs over the target's LUNs (lun * blks_per_lun +
 *	     block id) and the offset is in programming order
 *	     (nvm_blk_off_to_ppa())
 *  - slot:  sector of the write buffer, unit index * sectors per unit + i
 *
 * Lock order (outermost first): rrpc->wb.lock, rrpc_lun->lock,
 * rrpc->map_lock. None is taken in interrupt context.
 */
#ifndef _RRPC_H
#define _RRPC_H

#include <linux/lightnvm.h>
#include <linux/atomic.h>
#include <linux/refcount.h>
#include <linux/sizes.h>
#include <linux/workqueue.h>
#include <linux/wait.h>

#include "compat.h"

/*
 * Every message of rrpc's files starts with "rrpc: " and, once a target
 * exists, its disk name: rrpc_err(rrpc, ...) and its siblings below. The
 * prefix is defined here, for all of rrpc's files, as null_blk does.
 */
#undef pr_fmt
#define pr_fmt(fmt) "rrpc: " fmt

#define rrpc_err(rrpc, fmt, ...) \
	pr_err("%s: " fmt, (rrpc)->disk->disk_name, ##__VA_ARGS__)
#define rrpc_warn(rrpc, fmt, ...) \
	pr_warn("%s: " fmt, (rrpc)->disk->disk_name, ##__VA_ARGS__)
#define rrpc_info(rrpc, fmt, ...) \
	pr_info("%s: " fmt, (rrpc)->disk->disk_name, ##__VA_ARGS__)
#define rrpc_dbg(rrpc, fmt, ...) \
	pr_debug("%s: " fmt, (rrpc)->disk->disk_name, ##__VA_ARGS__)
#define rrpc_err_ratelimited(rrpc, fmt, ...) \
	pr_err_ratelimited("%s: " fmt, (rrpc)->disk->disk_name, ##__VA_ARGS__)
#define rrpc_warn_ratelimited(rrpc, fmt, ...) \
	pr_warn_ratelimited("%s: " fmt, (rrpc)->disk->disk_name, ##__VA_ARGS__)

#define RRPC_ADDR_EMPTY		U32_MAX		/* no address */
#define RRPC_ADDR_LOST		(U32_MAX - 1)	/* data lost: reads fail */

/*
 * memset() of a table of addresses (u32 paddrs, slots, struct rrpc_addr)
 * with this byte sets every entry to %RRPC_ADDR_EMPTY.
 */
#define RRPC_EMPTY_BYTE		0xff

/*
 * rrpc's logical and physical sectors are 4 KiB; the block layer counts
 * positions in 512-byte sectors (SECTOR_SHIFT), RRPC_SECT512_SHIFT bits
 * finer.
 */
#define RRPC_SECTOR_SIZE	SZ_4K
#define RRPC_SECTOR_SHIFT	12
#define RRPC_SECT512_SHIFT	(RRPC_SECTOR_SHIFT - SECTOR_SHIFT)
#define RRPC_SECT512_PER_SECTOR	(RRPC_SECTOR_SIZE >> SECTOR_SHIFT)
static_assert(BIT(RRPC_SECTOR_SHIFT) == RRPC_SECTOR_SIZE);

#define RRPC_OOB_SIZE		16	/* OOB bytes rrpc writes per sector */

/*
 * An erased page reads back as all ones on devices that return its data:
 * a read's OOB buffer is filled with this byte first, so that the sectors
 * of a read that failed look erased (rrpc_scan_classify()).
 */
#define RRPC_OOB_ERASED_BYTE	0xff

#define RRPC_DEFAULT_OP		10	/* default over-provisioning, percent */
#define RRPC_MAX_OP		400

/* Requests in flight on the target's disk (blk-mq tags) */
#define RRPC_QUEUE_DEPTH	64

/*
 * Host or transport errors (a command aborted by a controller reset or a
 * timeout, a path error, a status that is not the media's): the command
 * is tried again, after a pause that grows by RRPC_HOST_RETRY_MS each
 * time. The device is taken for dead (rrpc_set_dead()) once one command
 * failed so more than RRPC_HOST_RETRIES times, or commands of its kind
 * (enum rrpc_cmd) did with none of that kind succeeding in between, or
 * they kept failing for RRPC_HOST_DEAD_MS: a device that fails only
 * programs while its erases and reads work is dead too.
 */
#define RRPC_HOST_RETRIES	5
#define RRPC_HOST_RETRY_MS	100
#define RRPC_HOST_DEAD_MS	10000

/*
 * A command that could not be submitted for want of memory or of a free
 * tag (-ENOMEM, -EAGAIN) never reached the device: it is submitted again
 * after RRPC_SUBMIT_RETRY_MS, for as long as it takes, and counts as no
 * error (rrpc_submit_busy()). Memory pressure retires no block and makes
 * no target dead.
 */
#define RRPC_SUBMIT_RETRY_MS	10

/* The kinds of command whose host errors are counted apart. */
enum rrpc_cmd {
	RRPC_CMD_READ,
	RRPC_CMD_PROGRAM,
	RRPC_CMD_ERASE,
	RRPC_CMD_KINDS,
	/*
	 * Any command at creation: the target is not running, so giving up
	 * fails the creation; no streak is kept and nothing becomes dead.
	 */
	RRPC_CMD_CREATE = RRPC_CMD_KINDS,
};

/**
 * struct rrpc_streak - host errors of one kind of command in a row
 * @n: failures since the last command of the kind that succeeded
 * @since: jiffies of the first of them
 */
struct rrpc_streak {
	atomic_t	n;
	unsigned long	since;
};

/*
 * Free blocks per LUN: user writes never take the last RRPC_GC_RSV
 * blocks, which the media manager keeps for GC (NVM_LUN_GC_RESERVE); GC
 * starts when a LUN has at most RRPC_GC_LOW free blocks, one before user
 * writes would stall, and stops at RRPC_GC_HIGH. The capacity leaves
 * RRPC_RSV_BLKS blocks per LUN out: the free blocks GC holds at most plus
 * one for the unwritten parts of the two open blocks (user and GC).
 */
#define RRPC_GC_RSV		NVM_LUN_GC_RESERVE
#define RRPC_GC_LOW		(RRPC_GC_RSV + 1)
#define RRPC_GC_HIGH		(RRPC_GC_RSV + 2)
#define RRPC_RSV_BLKS		(RRPC_GC_HIGH + 1)
/* Free blocks a LUN needs at creation: those kept out, and two of data */
#define RRPC_MIN_LUN_FREE	(RRPC_RSV_BLKS + 2)

/* Victims GC may take sectors from to fill its last unit instead of padding */
#define RRPC_GC_TOPUP_TRIES	4

/* Ages (blocks closed since) past this count as this in cost-benefit GC */
#define RRPC_CB_AGE_MAX		BIT(18)

/*
 * Static wear leveling: when the most erased block of a LUN has been
 * erased more than mean * (1 + 1 / RRPC_WL_FRAC) + RRPC_WL_SLACK times
 * (max/mean tends to 1 + 1 / RRPC_WL_FRAC as the device wears),
 * GC moves the data of the least erased closed block (cold data that
 * would otherwise never move) so that its block rejoins the free pool.
 */
#define RRPC_WL_FRAC		16
#define RRPC_WL_SLACK		8

#define RRPC_UNITS_PER_LUN	4	/* write buffer units per LUN */

/*
 * Trim records that may wait outside the write buffer (it is full and the
 * target out of space) until GC programs them; more make discards wait.
 */
#define RRPC_TPEND_UNBUF	64

/*
 * Hot/cold separation (temperature streams). Each logical sector has a
 * write count that halves every RRPC_HEAT_PERIOD capacities of user
 * writes (struct rrpc_heat); a write that brings it to RRPC_HEAT_HOT or
 * more is hot: the sector is written about once per capacity or more
 * often (a skewed workload's hot set; under uniform or sequential writes
 * most sectors sit near that rate, and either stream serves them alike;
 * the sequential fill of a new target is cold). User writes and GC
 * moves go to a hot and a cold open block per LUN, so that data that
 * dies young does not share blocks with data that stays. On by default
 * from RRPC_HC_MIN_OP over-provisioning up (module parameter hot_cold):
 * the two more open blocks per LUN cost more of a small spare than the
 * separation wins under uniform writes.
 */
enum {
	RRPC_COLD,
	RRPC_HOT,
	RRPC_TEMPS,
};

#define RRPC_HEAT_PERIOD	3
#define RRPC_HEAT_HOT		4
#define RRPC_HEAT_MAX		U8_MAX
#define RRPC_HC_MIN_OP		20
#define RRPC_HC_MIN_SPARE	4	/* spare blocks per LUN it needs */

/*
 * User units go to the LUNs in turn: a LUN writer does not take a unit
 * while it has taken RRPC_WR_LEAD more than a LUN that can take writes
 * (rrpc_wr_ahead()). A LUN that comes back after waiting for GC catches
 * up by at most one block's worth of units.
 */
#define RRPC_WR_LEAD		2
#define RRPC_WB_MAX_BYTES	SZ_64M		/* write buffer cap */
/*
 * Spinlock hold times: map_lock is held for RRPC_MAP_BATCH map entries at
 * most by the loops that walk logical ranges (discard, a trim record's
 * filter), and a discard or write-zeroes request covers RRPC_DISCARD_MAX
 * sectors at most (the block layer splits larger ones: one trim record
 * each), so that wb.lock is held for that many map updates at most.
 */
#define RRPC_MAP_BATCH		1024
#define RRPC_DISCARD_MAX	4096
#define RRPC_MAX_TABLE		SZ_1G		/* largest map/table, bytes */
#define RRPC_MAX_BVECS		(3 * NVM_MAX_VLBA)

/*
 * On-media format (version RRPC_FMT_VERSION). Every sector rrpc programs
 * carries struct rrpc_oob in the first 16 OOB bytes: what the sector holds
 * (a logical sector, padding, or a record), the LUN range of the target
 * that wrote it (its identity on the media) and the write sequence number.
 * Records are sectors of the write stream that hold metadata instead of
 * user data: a trim record lists logical ranges discarded at its sequence
 * number; a superblock record holds the target's capacity. See
 * Documentation/lightnvm/rrpc.rst, "On-media format".
 */
#define RRPC_FMT_VERSION	1
#define RRPC_SEQ_BITS		56
#define RRPC_SEQ_MASK		((1ULL << RRPC_SEQ_BITS) - 1)

/* rrpc_oob.lba values (and unit lba / p2l values) that are not user data */
#define RRPC_LBA_PAD		U32_MAX		/* padding, == RRPC_ADDR_EMPTY */
#define RRPC_LBA_TRIM		(U32_MAX - 1)	/* a trim record */
#define RRPC_LBA_SB		(U32_MAX - 2)	/* a superblock record */
#define RRPC_LBA_CKPT		(U32_MAX - 3)	/* a checkpoint sector */
#define RRPC_LBA_WIPE		(U32_MAX - 4)	/* a -f wipe under way */

/*
 * The values from RRPC_LBA_WIPE up mark what is not a sector (RRPC_ADDR_*,
 * RRPC_LBA_*): a target has fewer physical sectors than RRPC_MAX_PADDRS,
 * so that no paddr, and no lba (there are fewer), is taken for a marker.
 */
#define RRPC_MAX_PADDRS		(RRPC_LBA_WIPE - 1)

struct rrpc_oob {
	__le32	lba;		/* logical sector or RRPC_LBA_* */
	__le16	lun_begin;	/* the writer's LUN range */
	__le16	lun_end;
	__le64	seq;		/* bits 0-55 sequence, 56-63 format version */
};

#define RRPC_TRIM_MAGIC		0x4d525452	/* "RTRM" */
#define RRPC_SB_MAGIC		0x42535252	/* "RRSB" */
#define RRPC_WIPE_MAGIC		0x50495752	/* "RWIP": a -f wipe under way */

/* A trim record: the ranges discarded (or zeroed) at its sequence number. */
struct rrpc_trim_rec {
	__le32	magic;
	__le32	nr;
	struct {
		__le32	lba;
		__le32	len;
	} r[];
};

#define RRPC_TRIM_MAX	((RRPC_SECTOR_SIZE - sizeof(struct rrpc_trim_rec)) / \
			 sizeof_field(struct rrpc_trim_rec, r[0]))

/**
 * struct rrpc_meta_hdr - what a superblock record and a checkpoint header
 *	begin with: the target that wrote them and its geometry
 * @magic: %RRPC_SB_MAGIC or %RRPC_CKPT_MAGIC
 * @version: %RRPC_FMT_VERSION
 * @lun_begin: the target's first LUN
 * @lun_end: its last LUN
 * @nr_lbas: its capacity, logical sectors
 * @op: its over-provisioning, percent
 * @sec_per_blk: sectors per block of the device
 * @blks_per_lun: blocks per LUN of the device
 *
 * 36 bytes, 4-byte aligned (packed, so that the next field of the record
 * follows at offset 36 as it always did: a naturally aligned struct with
 * @nr_lbas would be padded to 40). Filled by rrpc_meta_hdr_fill(), checked
 * by rrpc_meta_hdr_valid() and rrpc_meta_hdr_fits().
 */
struct rrpc_meta_hdr {
	__le32	magic;
	__le32	version;
	__le32	lun_begin;
	__le32	lun_end;
	__le64	nr_lbas;
	__le32	op;
	__le32	sec_per_blk;
	__le32	blks_per_lun;
} __packed __aligned(4);

/* A superblock record: written when a target starts a new instance. */
struct rrpc_sb_rec {
	struct rrpc_meta_hdr	hdr;
	__le32	rsvd;
	char	name[32];
	__le32	crc;		/* crc32 of everything before */
} __aligned(8);

#define RRPC_CKPT_MAGIC		0x504b4352	/* "RCKP" */
#define RRPC_CKPT_MAX_BLKS	960

/*
 * The checkpoint a clean teardown writes: this header in the first sector
 * of its first block, then the payload (the map, a table of the blocks,
 * the live trim records; struct rrpc_ckpt_blk) in the following sectors
 * of its blocks, in programming order.
 */
struct rrpc_ckpt_hdr {
	struct rrpc_meta_hdr	hdr;
	__le32	nr_blocks;
	__le64	seq;		/* everything on the media is older */
	__le32	sb_paddr;
	__le32	nr_trims;
	__le32	payload;	/* sectors */
	__le32	payload_crc;
	__le32	nr_ckpt_blks;
	__le32	ckpt_blks[RRPC_CKPT_MAX_BLKS];	/* block indices */
	__le32	crc;		/* crc32 of everything before */
};

/* One block in the checkpoint's table. */
struct rrpc_ckpt_blk {
	__le32	next_off;
	__le32	flags;		/* RRPC_CKPT_F_* */
	__le64	min_seq;
	__le64	close_seq;
};

#define RRPC_CKPT_F_USED	0x1	/* holds data: claimed, closed */
#define RRPC_CKPT_F_ERASED	0x2	/* free and erased */
#define RRPC_CKPT_F_CKPT	0x4	/* holds the checkpoint */
#define RRPC_CKPT_F_BAD		0x8	/* retired, still to evacuate */

/**
 * struct rrpc_heat - write count of a logical sector
 * @count: user writes, halved every %RRPC_HEAT_PERIOD capacities written
 * @epoch: the period of the last write (modulo 256) that @count is for
 */
struct rrpc_heat {
	u8	count;
	u8	epoch;
};

static inline u64 rrpc_oob_seq(const struct rrpc_oob *oob)
{
	return le64_to_cpu(oob->seq) & RRPC_SEQ_MASK;
}

static inline unsigned int rrpc_oob_version(const struct rrpc_oob *oob)
{
	return le64_to_cpu(oob->seq) >> RRPC_SEQ_BITS;
}

/**
 * struct rrpc_addr - one entry of the logical-to-physical map
 * @ppa: paddr of the sector's data on the media, %RRPC_ADDR_EMPTY when
 *	never written or discarded, %RRPC_ADDR_LOST when unreadable
 * @wb: slot of the newest version still in the write buffer (written,
 *	acknowledged, not yet on the media), or %RRPC_ADDR_EMPTY
 *
 * @ppa only changes when a media write completes; reads prefer @wb.
 */
struct rrpc_addr {
	u32	ppa;
	u32	wb;
};

enum {
	RRPC_BLK_FREE,		/* with the media manager */
	RRPC_BLK_OPEN,		/* being written (user or GC stream) */
	RRPC_BLK_CLOSED,	/* fully written, a GC candidate */
	RRPC_BLK_GC,		/* a GC victim */
};

struct rrpc_lun;

/**
 * struct rrpc_block - rrpc's view of one block of its LUNs
 * @parent: the media manager's block
 * @rlun: the LUN it is in
 * @ppa: generic address of the block
 * @idx: index in rrpc->blocks (paddr / sec_per_blk)
 * @next_off: next sector offset to program (the block's writer only)
 * @nr_valid: sectors the map points to (map_lock)
 * @nr_readers: media reads in flight from this block; GC waits for zero
 *	before giving the block back
 * @state: %RRPC_BLK_* (rlun->lock)
 * @bad: a program failed in it: GC evacuates it and retires it
 * @erased: known erased (no erase needed before its first program)
 * @min_seq: lowest sequence number of the data and records programmed in
 *	it since its erase (U64_MAX: none); a trim record must outlive every
 *	block that may hold older data
 * @trim_seq: sequence number of the newest trim record that unmapped a
 *	sector of it since its erase, 0 if none (map_lock); GC makes that
 *	record durable before it erases the block (rrpc_gc_trims())
 * @close_seq: when it was closed, for GC's age tie-break (rlun->lock)
 * @erase_count: erases rrpc issued to it since the target was created
 *	(rrpc_erase(), the LUN's GC or writer; read under rlun->lock)
 * @chk_state: Open-Channel SSD 2.0: the chunk's %NVM_CHK_ST_* in the
 *	chunk report read at creation (0: 1.2, or no report); a chunk is
 *	known erased only if it is free
 * @list: on rlun->closed (rlun->lock), or on the GC's pending list
 * @vlist: while closed, on the list of its valid count in the LUN's
 *	index (&struct rrpc_vidx, map_lock); empty otherwise
 */
struct rrpc_block {
	struct nvm_block	*parent;
	struct rrpc_lun		*rlun;
	struct ppa_addr		ppa;
	u32			idx;
	u32			next_off;
	u32			nr_valid;
	atomic_t		nr_readers;
	int			state;
	bool			bad;
	bool			erased;
	u64			min_seq;
	u64			trim_seq;
	u64			close_seq;
	u32			erase_count;
	u8			chk_state;
	struct list_head	list;
	struct list_head	vlist;
};

#define RRPC_VIDX_LISTS	128	/* lists of a LUN's index, at most */

/**
 * struct rrpc_vidx - a LUN's closed blocks by count of valid sectors
 * @lists: the closed blocks with a count of valid sectors v on list
 *	v >> @shift (rrpc_block.vlist), each appended when it got there
 * @nonempty: bit n set iff @lists[n] is not empty
 * @nr: entries of @lists: (sec_per_blk >> @shift) + 1
 * @shift: 0 (a list per count) unless a block has more than
 *	%RRPC_VIDX_LISTS - 1 sectors: then 2^@shift neighbouring counts
 *	share a list
 *
 * GC's victim choice reads this index instead of every closed block: a
 * pick costs at most %RRPC_VIDX_LISTS steps, whatever the number of
 * blocks (rrpc_gc_pick(), rrpc_gc_pick_cb()). A block's count changes
 * under map_lock (it only drops while the block is closed, but for late
 * completions into a block closed after a failed program):
 * rrpc_valid_add() moves it to the end of its new list, so the index is
 * under map_lock as well.
 */
struct rrpc_vidx {
	struct list_head	*lists;
	unsigned long		*nonempty;
	u32			nr;
	u32			shift;
};

/**
 * struct rrpc_tpend - a trim record not known to be on the media yet
 * @seq: its write sequence number
 * @lba: first logical sector of its range
 * @len: sectors in the range
 * @unit: the write buffer unit that holds it, or %RRPC_ADDR_EMPTY when
 *	the buffer had no room for it (out of space): then only GC writes
 *	it (rrpc_gc_trims()), and flushes wait for that
 *
 * Until the record is on the media, GC does not erase a block that held
 * data it unmapped: it programs a copy of the record into its own stream
 * first (two copies on the media say the same).
 */
struct rrpc_tpend {
	u64	seq;
	u32	lba;
	u32	len;
	u32	unit;
};

/**
 * struct rrpc_unit - one multi-plane page program worth of sectors
 * @list: on rrpc->wb.free or rrpc->wb.queue (wb.lock)
 * @inflight: on rrpc->wb.inflight, in @seq order (wb.lock)
 * @seq: no higher than the write sequence number of any of its sectors
 *	(the number the next sector would take when the unit was started):
 *	unit order
 * @host_tries: its programs that failed on a host error since the last
 *	one that succeeded (its writer or GC work only)
 * @temp: %RRPC_COLD or %RRPC_HOT: the open blocks it goes to
 * @idx: index in rrpc->wb.units; its slots are idx * spp + i
 * @ref: one for the writer, one per reader copying from it
 * @nr: sectors filled (the rest are padding when written)
 * @lba: logical sector of each filled sector, %RRPC_ADDR_EMPTY for padding
 * @old: GC only: paddr each sector was read from
 * @pages: one page per sector
 * @bvecs: for @bio
 * @bio: the data of the program
 * @rqd: the program request
 * @ppa_list: DMA-able address list (when more than one sector)
 * @ppa_dma: its bus address
 * @meta: DMA-able OOB buffer, geo.oob_size bytes per sector; a user
 *	unit's filled sectors get their sequence number in it as they are
 *	filled (two units of different temperature fill at once)
 * @meta_dma: its bus address
 */
struct rrpc_unit {
	struct list_head	list;
	struct list_head	inflight;
	u64			seq;
	u32			idx;
	u32			host_tries;
	int			temp;
	refcount_t		ref;
	unsigned int		nr;
	u32			*lba;
	u32			*old;
	struct page		**pages;
	struct bio_vec		*bvecs;
	struct bio		bio;
	struct nvm_rq		rqd;
	struct ppa_addr		*ppa_list;
	dma_addr_t		ppa_dma;
	void			*meta;
	dma_addr_t		meta_dma;
};

/**
 * struct rrpc_wb - the write buffer of a target (rrpc_wb.c)
 * @lock: protects every field below but @units, @nr_units, @max_tpend
 *	(set at creation) and @wait. Lock order (outermost first): @lock,
 *	rrpc_lun->lock, rrpc->map_lock; never taken in interrupt context.
 *	It also protects state of struct rrpc that changes with the write
 *	stream (see there)
 * @units: the units, @nr_units of them
 * @nr_units: entries of @units
 * @nr_free: units on @free
 * @free: units free for filling
 * @queue: full units waiting for a LUN writer, in order
 * @inflight: units filled or being filled and not yet on the media, in
 *	sequence order
 * @cur: the unit being filled per temperature, or %NULL
 * @seq: next write sequence number (set by recovery before the buffer
 *	runs: rrpc_wb_set_seq())
 * @oldest: sequence number of the first unit on @inflight, U64_MAX when
 *	it is empty (rrpc_wb_oldest() reads it without @lock)
 * @flush_list: flushes and FUA writes waiting for the media
 *	(&rrpc_rq.flush_list)
 * @starved: a request waits for a free unit (queue to be rerun)
 * @tpend: trim records not known to be on the media, in sequence order
 *	(GC copies them: rrpc_wb_tpend_copy())
 * @nr_tpend: entries of @tpend
 * @max_tpend: its size: a record per buffer sector, %RRPC_TPEND_UNBUF more
 *	(set at creation)
 * @nr_unbuf: entries of @tpend that are in no unit (read without @lock:
 *	rrpc_wb_nr_unbuf())
 * @wait: teardown waits here for @inflight to drain
 */
struct rrpc_wb {
	spinlock_t		lock;	/* the fields below; see above */
	struct rrpc_unit	*units;
	u32			nr_units;
	u32			nr_free;
	struct list_head	free;
	struct list_head	queue;
	struct list_head	inflight;
	struct rrpc_unit	*cur[RRPC_TEMPS];
	u64			seq;
	u64			oldest;
	struct list_head	flush_list;
	bool			starved;
	struct rrpc_tpend	*tpend;
	u32			nr_tpend;
	u32			max_tpend;
	u32			nr_unbuf;
	wait_queue_head_t	wait;
};

/**
 * struct rrpc_gc - the garbage collector state of one LUN, owned by its
 *	GC work item
 * @unit: sectors being moved (filled by reads, then programmed)
 * @rqd: the read request
 * @bio: its data
 * @bvecs: for @bio
 * @ppa_list: DMA-able address list of the read
 * @ppa_dma: its bus address
 * @pending: victims whose last valid sectors are in @unit
 * @scratch: a sector of scratch space (trim record filtering)
 */
struct rrpc_gc {
	struct rrpc_unit	unit;
	struct nvm_rq		rqd;
	struct bio		bio;
	struct bio_vec		*bvecs;
	struct ppa_addr		*ppa_list;
	dma_addr_t		ppa_dma;
	struct list_head	pending;
	void			*scratch;
};

/**
 * struct rrpc_lun - one LUN of the target
 * @rrpc: the target
 * @parent: the media manager's LUN
 * @idx: index in rrpc->luns
 * @lock: protects @closed, @nr_closed, @nr_bad, @wr_blocked and the state
 *	of the LUN's blocks; nests inside rrpc->wb.lock, outside map_lock
 * @closed: fully written blocks, GC candidates
 * @nr_closed: blocks on @closed
 * @nr_bad: blocks on @closed marked bad, to evacuate first
 * @vidx: the blocks of @closed by valid count (map_lock), for GC
 * @wr_blocked: the user writer waits for GC to free a block
 * @erases: erases of the LUN's blocks (sum of their erase_count)
 * @max_erase: the highest erase_count of the LUN's blocks
 * @full: GC found nothing to reclaim while the writer waits
 *	(rrpc_lun_set_full(); written under rrpc->wb.lock)
 * @wr_units: user units its writer took, for placement in turn
 *	(rrpc_wr_ahead(); wb.lock)
 * @cur: open blocks of user writes, per temperature (the writer work
 *	only)
 * @gc_cur: open blocks of GC writes, per temperature (the GC work only)
 * @wr_work: programs full write buffer units into @cur
 * @gc_work: garbage collects the LUN
 * @gc: GC state
 */
struct rrpc_lun {
	struct rrpc		*rrpc;
	struct nvm_lun		*parent;
	int			idx;
	spinlock_t		lock;	/* closed list, block states; see above */
	struct list_head	closed;
	unsigned int		nr_closed;
	unsigned int		nr_bad;
	struct rrpc_vidx	vidx;
	bool			wr_blocked;
	bool			full;
	u64			erases;
	u32			max_erase;
	u64			wr_units;
	struct rrpc_block	*cur[RRPC_TEMPS];
	struct rrpc_block	*gc_cur[RRPC_TEMPS];
	struct work_struct	wr_work;
	struct work_struct	gc_work;
	struct rrpc_gc		gc;
};

/**
 * struct rrpc_stats - counters, exposed in sysfs
 * @user_written: sectors acknowledged to writers
 * @user_read: sectors returned to readers
 * @media_written: sectors programmed, all streams
 * @gc_moved: valid sectors rewritten by GC
 * @padded: padding sectors programmed
 * @discarded: sectors discarded or zeroed
 * @erases: block erases issued
 * @gc_victims: blocks reclaimed by GC
 * @wl_victims: of those, for wear leveling
 * @grown_bad: blocks retired (program or erase)
 * @write_errors: failed programs (data rewritten)
 * @read_errors: failed media reads
 * @lost: sectors GC could not read
 * @dropped: buffered sectors the device never took
 * @trims_dropped: trim records GC found obsolete
 * @host_errors: commands failed, not by the media
 * @hot_written: user sectors written as hot
 * @gc_hot: GC victims moved as hot
 */
struct rrpc_stats {
	atomic64_t	user_written;
	atomic64_t	user_read;
	atomic64_t	media_written;
	atomic64_t	gc_moved;
	atomic64_t	padded;
	atomic64_t	discarded;
	atomic64_t	erases;
	atomic64_t	gc_victims;
	atomic64_t	wl_victims;
	atomic64_t	grown_bad;
	atomic64_t	write_errors;
	atomic64_t	read_errors;
	atomic64_t	lost;
	atomic64_t	dropped;
	atomic64_t	trims_dropped;
	atomic64_t	host_errors;
	atomic64_t	hot_written;
	atomic64_t	gc_hot;
};

/* How a target got its state at creation (struct rrpc_recovery.mode). */
enum {
	RRPC_REC_NEW,		/* blank LUNs: a new instance */
	RRPC_REC_FACTORY,	/* NVM_TARGET_FACTORY: LUNs wiped */
	RRPC_REC_SCAN,		/* the map rebuilt from every written sector */
	RRPC_REC_CKPT,		/* the map read from a clean teardown's checkpoint */
};

/**
 * struct rrpc_recovery - what creation found on the media, for sysfs
 * @mode: %RRPC_REC_*
 * @scanned: sectors read (scan) or blocks erased (factory)
 * @blocks: blocks that hold data (claimed)
 * @mapped: logical sectors mapped
 * @trims: trim records found
 * @torn: sectors that could not be read (torn programs, media errors)
 * @ms: milliseconds it took
 */
struct rrpc_recovery {
	int	mode;
	u64	scanned;
	u32	blocks;
	u64	mapped;
	u32	trims;
	u32	torn;
	u64	ms;
};

/**
 * struct rrpc - one rrpc target
 * @tgt: the core's target
 * @dev: the device
 * @disk: the target's disk
 * @geo: the device geometry
 * @nr_luns: LUNs of the target
 * @luns: the LUNs
 * @blocks: every block of the target's LUNs
 * @nr_blocks: entries of @blocks
 * @spb: sectors per block
 * @spp: sectors per write unit (rrpc_write_unit(): the device's ws_opt,
 *	or ws_min; a multi-plane page, geo.sec_per_pl, on 1.2)
 * @nr_lbas: logical sectors (capacity)
 * @nr_paddrs: physical sectors of the LUNs
 * @good_blocks: good blocks of the LUNs at creation
 * @op: over-provisioning, percent of the logical capacity
 * @max_sectors: most sectors of one request
 * @map_lock: protects @map, @p2l, every block's nr_valid and the LUNs'
 *	indexes of closed blocks by it (&struct rrpc_lun.vidx); innermost
 * @map: logical to physical map, @nr_lbas entries
 * @p2l: physical to logical map, @nr_paddrs entries: the lba each written
 *	sector was programmed for (valid iff map[p2l[paddr]].ppa == paddr)
 * @wb: the write buffer (rrpc_wb.c), with the trim records not yet on the
 *	media; its lock also protects @heat, @heat_writes, @trim_page, the
 *	LUNs' wr_units and the writes of @nospc and of the LUNs' full flags
 * @temps: 1 (every write is cold) or %RRPC_TEMPS (hot/cold separation)
 * @heat: write count of each logical sector (wb.lock; GC reads it
 *	without), %NULL when @temps is 1
 * @heat_writes: sectors written by users, for @heat's periods (wb.lock)
 * @kick_next: round-robin cursor of rrpc_kick_writer() (a hint: read and
 *	written without a lock)
 * @read_wait: GC waits here for reads of a victim to finish
 * @wr_wq: the LUN writers
 * @gc_wq: the garbage collectors
 * @kick_lock: makes the checks of @exiting and the queueing of work
 *	atomic, so that nothing is queued on a destroyed workqueue
 * @exiting: the target is being torn down: no new GC or writer work
 * @dead: the device stopped taking programs (not a media error): the
 *	disk is read-only and buffered data that cannot be written is dropped
 * @nospc: every LUN is full (&rrpc_lun.full): writes fail with -ENOSPC
 *	and flushes with -EIO until a discard lets GC free a block
 * @draining: teardown is programming what is buffered (with @nospc, what
 *	cannot be programmed is dropped)
 * @trim_page: the trim record being built (wb.lock)
 * @lun_begin: first LUN of the target (device index)
 * @lun_end: last LUN
 * @sb_paddr: where the newest superblock record is, or %RRPC_ADDR_EMPTY
 *	(map_lock)
 * @rec: what creation found
 * @close_seq: source of rrpc_block.close_seq
 * @host_streak: per &enum rrpc_cmd, host or transport errors (not the
 *	media's) since the last command of the kind that succeeded; past
 *	%RRPC_HOST_RETRIES or %RRPC_HOST_DEAD_MS the target is dead
 * @stats: counters
 */
struct rrpc {
	struct nvm_target	*tgt;
	struct nvm_dev		*dev;
	struct gendisk		*disk;
	const struct nvm_geo	*geo;

	int			nr_luns;
	struct rrpc_lun		*luns;
	struct rrpc_block	*blocks;
	u32			nr_blocks;
	u32			spb;
	u32			spp;
	u64			nr_lbas;
	u64			nr_paddrs;
	u32			good_blocks;
	u32			op;
	u32			max_sectors;

	spinlock_t		map_lock;	/* map, p2l, nr_valid; see above */
	struct rrpc_addr	*map;
	u32			*p2l;

	struct rrpc_wb		wb;
	int			temps;
	struct rrpc_heat	*heat;
	u64			heat_writes;
	unsigned int		kick_next;

	wait_queue_head_t	read_wait;
	struct workqueue_struct	*wr_wq;
	struct workqueue_struct	*gc_wq;
	spinlock_t		kick_lock;	/* @exiting vs queue_work */
	bool			exiting;
	bool			dead;
	bool			nospc;
	bool			draining;
	struct page		*trim_page;
	int			lun_begin;
	int			lun_end;
	u32			sb_paddr;
	struct rrpc_recovery	rec;
	atomic64_t		close_seq;
	struct rrpc_streak	host_streak[RRPC_CMD_KINDS];

	struct rrpc_stats	stats;
};

/* Where a sector of a read comes from (struct rrpc_rq.kind). */
enum {
	RRPC_SRC_ZERO,		/* never written or discarded */
	RRPC_SRC_MEDIA,		/* src is a paddr */
	RRPC_SRC_WB,		/* src is a write buffer slot */
};

/**
 * struct rrpc_rq - per-request data of the target's disk (blk-mq pdu)
 * @rqd: media read request
 * @bio: data of @rqd: the request's pages of the sectors read from media
 * @flush_list: on rrpc->wb.flush_list while waiting for the media
 * @flush_seq: units whose sequence number is below it must be on the media
 * @kind: %RRPC_SRC_* of each sector of a read
 * @src: paddr or slot of each sector of a read
 * @retries: times a read was sent back after a host error
 * @bvecs: for @bio
 */
struct rrpc_rq {
	struct nvm_rq		rqd;
	struct bio		bio;
	struct list_head	flush_list;
	u64			flush_seq;
	u8			kind[NVM_MAX_VLBA];
	u32			src[NVM_MAX_VLBA];
	u8			retries;
	struct bio_vec		bvecs[RRPC_MAX_BVECS];
};

/* The write buffer unit that holds @slot */
static inline struct rrpc_unit *rrpc_slot_unit(struct rrpc *rrpc, u32 slot)
{
	return &rrpc->wb.units[slot / rrpc->spp];
}

/* Before the buffer runs (recovery, creation): the next sequence number */
static inline void rrpc_wb_set_seq(struct rrpc *rrpc, u64 seq)
{
	rrpc->wb.seq = seq;
}

/* The next write sequence number; a stopped buffer's (checkpoint) */
static inline u64 rrpc_wb_seq(struct rrpc *rrpc)
{
	return rrpc->wb.seq;
}

/* Sequence number of the oldest unit not on the media (U64_MAX: none) */
static inline u64 rrpc_wb_oldest(struct rrpc *rrpc)
{
	return READ_ONCE(rrpc->wb.oldest);
}

/* Trim records that wait outside the buffer for GC (read without lock) */
static inline u32 rrpc_wb_nr_unbuf(struct rrpc *rrpc)
{
	return READ_ONCE(rrpc->wb.nr_unbuf);
}

static inline struct rrpc_block *rrpc_paddr_to_blk(struct rrpc *rrpc, u32 paddr)
{
	return &rrpc->blocks[paddr / rrpc->spb];
}

static inline u32 rrpc_blk_paddr(struct rrpc *rrpc, struct rrpc_block *rblk,
				 u32 off)
{
	return rblk->idx * rrpc->spb + off;
}

static inline struct ppa_addr rrpc_paddr_to_ppa(struct rrpc *rrpc, u32 paddr)
{
	struct rrpc_block *rblk = rrpc_paddr_to_blk(rrpc, paddr);

	return nvm_blk_off_to_ppa(rrpc->geo, rblk->ppa, paddr % rrpc->spb);
}

static inline unsigned int rrpc_lun_free(struct rrpc_lun *rlun)
{
	return READ_ONCE(rlun->parent->nr_free_blocks);
}

/* rrpc_map.c: map, reverse map, victim selection, placement (pure logic) */
void rrpc_map_invalidate(struct rrpc *rrpc, u32 paddr);
bool rrpc_map_commit(struct rrpc *rrpc, u32 lba, u32 paddr, u32 slot);
bool rrpc_map_move(struct rrpc *rrpc, u32 lba, u32 old, u32 new);
void rrpc_map_discard(struct rrpc *rrpc, u32 lba);
bool rrpc_map_lose(struct rrpc *rrpc, u32 lba, u32 old);
bool rrpc_map_valid(struct rrpc *rrpc, u32 paddr, u32 *lba);
bool rrpc_map_live(struct rrpc *rrpc, u32 paddr, u32 *lba);
void rrpc_rec_programmed(struct rrpc *rrpc, u32 lba, u32 paddr);
bool rrpc_rec_move(struct rrpc *rrpc, u32 lba, u32 old, u32 new);
void rrpc_rec_drop(struct rrpc *rrpc, u32 old);
u32 rrpc_trim_filter(struct rrpc *rrpc, struct rrpc_trim_rec *tr,
		     struct rrpc_trim_rec *tmp);
int rrpc_vidx_init(struct rrpc_vidx *vx, u32 spb);
void rrpc_vidx_free(struct rrpc_vidx *vx);
void rrpc_vidx_add(struct rrpc *rrpc, struct rrpc_block *rblk);
void rrpc_vidx_del(struct rrpc *rrpc, struct rrpc_block *rblk);
struct rrpc_block *rrpc_gc_pick(struct rrpc *rrpc, struct rrpc_lun *rlun);
struct rrpc_block *rrpc_gc_pick_cb(struct rrpc *rrpc, struct rrpc_lun *rlun,
				   u64 now);
bool rrpc_wl_needed(u32 max_erase, u64 erases, u32 nr_blocks);
u32 rrpc_write_unit(const struct nvm_geo *geo, u32 max_sectors);
struct rrpc_block *rrpc_wl_pick(struct list_head *closed, u32 max_erase);
struct rrpc_block *rrpc_free_pick(struct rrpc_block *blks, u32 n, bool most);
u64 rrpc_capacity(u32 good_blocks, int nr_luns, u32 spb, u32 op);
u8 rrpc_heat_epoch(u64 writes, u64 nr_lbas);
unsigned int rrpc_heat_get(const struct rrpc_heat *h, u8 epoch);
bool rrpc_heat_bump(struct rrpc_heat *h, u8 epoch);
bool rrpc_wr_ahead(struct rrpc *rrpc, struct rrpc_lun *rlun,
		   struct rrpc_lun **lag);
void rrpc_wr_took(struct rrpc *rrpc, struct rrpc_lun *rlun);

/* rrpc_wb.c: the write buffer */
void rrpc_wb_prepare(struct rrpc *rrpc);
int rrpc_wb_init(struct rrpc *rrpc);
void rrpc_wb_free(struct rrpc *rrpc);
void rrpc_wb_drain(struct rrpc *rrpc);
int rrpc_unit_init(struct rrpc *rrpc, struct rrpc_unit *u, bool gc);
void rrpc_unit_free(struct rrpc *rrpc, struct rrpc_unit *u);
void rrpc_wb_unit_put(struct rrpc *rrpc, struct rrpc_unit *u);
void rrpc_wb_queue_cur(struct rrpc *rrpc, int temp);
struct rrpc_unit *rrpc_wb_cur(struct rrpc *rrpc, int temp);
void rrpc_wb_take_seq(struct rrpc *rrpc, struct rrpc_unit *u);
u32 rrpc_wb_room(struct rrpc *rrpc, int temp);
void rrpc_wb_starved(struct rrpc *rrpc);
u64 rrpc_wb_last_seq(struct rrpc *rrpc);
bool rrpc_wb_unbuf_room(struct rrpc *rrpc);
void rrpc_wb_add_unbuf_trim(struct rrpc *rrpc, u32 lba, u32 len);
u32 rrpc_wb_tpend_copy(struct rrpc *rrpc, struct rrpc_unit *u, u64 max_seq,
		       bool unbuf);
void rrpc_wb_tpend_written(struct rrpc *rrpc, const struct rrpc_unit *u);
bool rrpc_wb_flush_locked(struct rrpc *rrpc, struct rrpc_rq *rrq);
void rrpc_wb_flush_fail(struct rrpc *rrpc, struct list_head *failed,
			const char *why);
void rrpc_wb_flush_fail_dead(struct rrpc *rrpc);
void rrpc_wb_flush_detach(struct rrpc *rrpc, struct list_head *out);
void rrpc_wb_unit_done(struct rrpc *rrpc, struct rrpc_unit *u);
void rrpc_wb_unit_drop(struct rrpc *rrpc, struct rrpc_unit *u);
int rrpc_wb_next_temp(struct rrpc *rrpc);
int rrpc_wb_take(struct rrpc *rrpc, struct rrpc_lun *rlun, int temp,
		 bool drop, struct rrpc_unit **up, struct rrpc_lun **lag);
void rrpc_wb_requeue(struct rrpc *rrpc, struct rrpc_unit *u);
u64 rrpc_wb_next_seq(struct rrpc *rrpc);
void rrpc_wb_add_sb(struct rrpc *rrpc, const void *rec);
bool rrpc_wb_add_rec(struct rrpc *rrpc, u32 marker, const void *rec,
		     struct rrpc_rq *rrq, bool flush);

/* rrpc_io.c */
extern const struct blk_mq_ops rrpc_mq_ops;
void rrpc_wr_work(struct work_struct *work);
void rrpc_kick_writer(struct rrpc *rrpc, struct rrpc_lun *rlun);
int rrpc_program(struct rrpc_lun *rlun, struct rrpc_unit *u, bool gc);
void rrpc_set_dead(struct rrpc *rrpc, const char *why);
bool rrpc_host_retry(struct rrpc *rrpc, enum rrpc_cmd kind, const char *what,
		     int ret, u16 error, u32 tries);
void rrpc_host_ok(struct rrpc *rrpc, enum rrpc_cmd kind);
bool rrpc_submit_busy(struct rrpc *rrpc, int ret);
void rrpc_lun_set_full(struct rrpc_lun *rlun, bool full);

/* rrpc_recover.c */
enum {
	RRPC_SCAN_EMPTY,
	RRPC_SCAN_UNREADABLE,
	RRPC_SCAN_OK,
};

int rrpc_scan_classify(int error, u64 status, u32 i, const struct rrpc_oob *oob);
bool rrpc_oob_ours(struct rrpc *rrpc, const struct rrpc_oob *oob);
void rrpc_merge_data(struct rrpc *rrpc, u64 *lseq, u32 lba, u64 seq,
		     u32 paddr);
void rrpc_merge_trim(struct rrpc *rrpc, u64 *lseq, u32 lba, u32 len, u64 seq);
void rrpc_merge_count(struct rrpc *rrpc);
int rrpc_recover(struct rrpc *rrpc, const struct nvm_tgt_conf *conf,
		 u64 *nr_lbas, u32 *op);
void rrpc_sb_fill(struct rrpc *rrpc, void *buf);
int rrpc_sb_write(struct rrpc *rrpc);
void rrpc_meta_hdr_fill(struct rrpc *rrpc, struct rrpc_meta_hdr *h,
			u32 magic);
bool rrpc_meta_hdr_valid(const struct rrpc_meta_hdr *h, u32 magic,
			 size_t crc_off);
bool rrpc_meta_hdr_fits(struct rrpc *rrpc, const struct rrpc_meta_hdr *h);
bool rrpc_trim_needed(struct rrpc *rrpc, u64 seq);
int rrpc_pbuf_init(struct rrpc *rrpc, struct rrpc_unit *pb);
int rrpc_page_io(struct rrpc *rrpc, struct rrpc_unit *pb,
		 struct rrpc_block *rblk, u32 off, bool write);
int rrpc_scan_read(struct rrpc *rrpc, struct rrpc_unit *pb,
		   struct rrpc_block *rblk, u32 off);
int rrpc_rec_erase(struct rrpc *rrpc, struct nvm_block *blk);
int rrpc_rec_erase_rblk(struct rrpc *rrpc, struct rrpc_block *rblk);
int rrpc_check_op(struct rrpc *rrpc, const struct nvm_tgt_conf *conf, u32 op);
bool rrpc_claim_data_blk(struct rrpc *rrpc, struct rrpc_block *rblk);
void rrpc_rec_close_blk(struct rrpc *rrpc, struct rrpc_block *rblk);
void rrpc_unclaim_blocks(struct rrpc *rrpc);
/* What recovery's probe found at the start of a block. */
enum {
	RRPC_PROBE_EMPTY,
	RRPC_PROBE_DATA,	/* this target's data (or unreadable) */
	RRPC_PROBE_CKPT,	/* this target's checkpoint */
	RRPC_PROBE_FOREIGN,	/* another target's */
	RRPC_PROBE_WIPE,	/* this target's wipe record (-f cut short) */
};

/* rrpc_ckpt.c */
bool rrpc_ckpt_hdr_valid(const struct rrpc_ckpt_hdr *h);
bool rrpc_ckpt_matches(struct rrpc *rrpc, const struct rrpc_ckpt_blk *tbl,
		       const u8 *probe, const u64 *bseq, u64 seq);
int rrpc_ckpt_load(struct rrpc *rrpc, const struct rrpc_ckpt_hdr *h,
		   const u8 *probe, const u64 *bseq,
		   const struct nvm_tgt_conf *conf, u64 *nr_lbas, u32 *op);
int rrpc_ckpt_erase(struct rrpc *rrpc, const u8 *probe);
void rrpc_ckpt_write(struct rrpc *rrpc);

/* rrpc_gc.c */
int rrpc_gc_init(struct rrpc_lun *rlun);
void rrpc_gc_free(struct rrpc_lun *rlun);
void rrpc_gc_work(struct work_struct *work);
void rrpc_gc_kick(struct rrpc_lun *rlun);
void rrpc_wr_kick(struct rrpc_lun *rlun);
void rrpc_blk_close(struct rrpc_lun *rlun, struct rrpc_block *rblk);
struct rrpc_block *rrpc_get_blk(struct rrpc_lun *rlun, bool gc);
int rrpc_gc_trims(struct rrpc_lun *rlun, u64 max_seq, bool unbuf);

#endif /* _RRPC_H */
