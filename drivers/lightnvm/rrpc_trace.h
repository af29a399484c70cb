/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of rrpc, the round-robin host FTL target of LightNVM, in the
 * event system "rrpc": user writes taken into the write buffer, write
 * units programmed, garbage collection victims, block erases, flushes,
 * discards and the map recovery at creation. Defined in rrpc.ko
 * (rrpc_main.c). Logical sectors (lba) and physical sectors of the
 * target (paddr) are 4 KiB sectors, as in rrpc.h; LUNs are device LUN
 * indices. Only rrpc uses it, so it lives next to rrpc (as null_blk's
 * trace.h does), found through the include path the Makefile gives
 * rrpc_main.o. No two events have the same fields, so there is no event
 * class. See Documentation/lightnvm/tracing.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rrpc

#if !defined(_TRACE_RRPC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RRPC_H

#include <linux/lightnvm.h>
#include <linux/tracepoint.h>

/* room for rrpc_recover's mode: the longest, "checkpoint", and its NUL */
#define RRPC_TRACE_MODE_LEN	16

/**
 * rrpc_write - a user write is in the write buffer
 * @disk: the target's disk
 * @lba: first logical sector
 * @nr: sectors
 * @flush: a FUA or preflush write: it completes once on the media
 */
TRACE_EVENT(rrpc_write,
	    TP_PROTO(const char *disk, u32 lba, u32 nr, bool flush),
	    TP_ARGS(disk, lba, nr, flush),
	    TP_STRUCT__entry(__array(char, disk, DISK_NAME_LEN)
			     __field(u32, lba)
			     __field(u32, nr)
			     __field(bool, flush)),
	    TP_fast_assign(strscpy(__entry->disk, disk, sizeof(__entry->disk));
			   __entry->lba = lba;
			   __entry->nr = nr;
			   __entry->flush = flush;),
	    TP_printk("%s lba=%u nr=%u flush=%d", __entry->disk,
		      __entry->lba, __entry->nr, __entry->flush)
);

/**
 * rrpc_program - a write unit was programmed (or failed)
 * @disk: the target's disk
 * @lun: device LUN index
 * @ppa: generic address of its first sector
 * @paddr: target physical sector of its first sector
 * @nr: sectors programmed (one multi-plane page)
 * @nr_data: of which data or records (the rest is padding)
 * @gc: written by garbage collection (else by the user stream)
 * @error: 0, the device's %NVM_RSP_* status of a failed program, or a
 *	negative errno if it was not started
 */
TRACE_EVENT(rrpc_program,
	    TP_PROTO(const char *disk, int lun, struct ppa_addr ppa, u32 paddr,
		     u32 nr, u32 nr_data, bool gc, int error),
	    TP_ARGS(disk, lun, ppa, paddr, nr, nr_data, gc, error),
	    TP_STRUCT__entry(__array(char, disk, DISK_NAME_LEN)
			     __field(int, lun)
			     __field(u16, blk)
			     __field(u16, pg)
			     __field(u32, paddr)
			     __field(u32, nr)
			     __field(u32, nr_data)
			     __field(bool, gc)
			     __field(int, error)),
	    TP_fast_assign(strscpy(__entry->disk, disk, sizeof(__entry->disk));
			   __entry->lun = lun;
			   __entry->blk = ppa.g.blk;
			   __entry->pg = ppa.g.pg;
			   __entry->paddr = paddr;
			   __entry->nr = nr;
			   __entry->nr_data = nr_data;
			   __entry->gc = gc;
			   __entry->error = error;),
	    TP_printk("%s lun=%d blk=%u pg=%u paddr=%u nr=%u data=%u gc=%d error=%d",
		      __entry->disk, __entry->lun, __entry->blk, __entry->pg,
		      __entry->paddr, __entry->nr, __entry->nr_data, __entry->gc,
		      __entry->error)
);

/**
 * rrpc_gc_victim - garbage collection chose a block to reclaim
 * @disk: the target's disk
 * @lun: device LUN index
 * @blk: block id in the LUN
 * @valid: sectors still mapped, to be moved
 * @written: sectors programmed in it; the event records the invalid ones,
 *	written but no longer mapped (overwritten, discarded)
 * @bad: the block is retired after a failed program (evacuated first)
 */
TRACE_EVENT(rrpc_gc_victim,
	    TP_PROTO(const char *disk, int lun, u32 blk, u32 valid, u32 written,
		     bool bad),
	    TP_ARGS(disk, lun, blk, valid, written, bad),
	    TP_STRUCT__entry(__array(char, disk, DISK_NAME_LEN)
			     __field(int, lun)
			     __field(u32, blk)
			     __field(u32, valid)
			     __field(u32, invalid)
			     __field(bool, bad)),
	    TP_fast_assign(strscpy(__entry->disk, disk, sizeof(__entry->disk));
			   __entry->lun = lun;
			   __entry->blk = blk;
			   __entry->valid = valid;
			   __entry->invalid = written > valid ? written - valid : 0;
			   __entry->bad = bad;),
	    TP_printk("%s lun=%d blk=%u valid=%u invalid=%u bad=%d",
		      __entry->disk, __entry->lun, __entry->blk, __entry->valid,
		      __entry->invalid, __entry->bad)
);

/**
 * rrpc_erase - a block was erased
 * @disk: the target's disk
 * @lun: device LUN index
 * @blk: block id in the LUN
 * @gc: a reclaimed GC victim (else a free block about to be opened)
 * @ret: 0, -EIO (the block is retired) or another errno
 */
TRACE_EVENT(rrpc_erase,
	    TP_PROTO(const char *disk, int lun, u32 blk, bool gc, int ret),
	    TP_ARGS(disk, lun, blk, gc, ret),
	    TP_STRUCT__entry(__array(char, disk, DISK_NAME_LEN)
			     __field(int, lun)
			     __field(u32, blk)
			     __field(bool, gc)
			     __field(int, ret)),
	    TP_fast_assign(strscpy(__entry->disk, disk, sizeof(__entry->disk));
			   __entry->lun = lun;
			   __entry->blk = blk;
			   __entry->gc = gc;
			   __entry->ret = ret;),
	    TP_printk("%s lun=%d blk=%u gc=%d ret=%d", __entry->disk,
		      __entry->lun, __entry->blk, __entry->gc, __entry->ret)
);

/**
 * rrpc_flush - a flush, FUA write or flushed record waits for the media
 * @disk: the target's disk
 * @seq: write sequence number: every unit below it must be on the media
 * @pad: padding sectors added to the unit being filled
 * @wait: something was in flight (else the flush completes at once)
 */
TRACE_EVENT(rrpc_flush,
	    TP_PROTO(const char *disk, u64 seq, u32 pad, bool wait),
	    TP_ARGS(disk, seq, pad, wait),
	    TP_STRUCT__entry(__array(char, disk, DISK_NAME_LEN)
			     __field(u64, seq)
			     __field(u32, pad)
			     __field(bool, wait)),
	    TP_fast_assign(strscpy(__entry->disk, disk, sizeof(__entry->disk));
			   __entry->seq = seq;
			   __entry->pad = pad;
			   __entry->wait = wait;),
	    TP_printk("%s seq=%llu pad=%u wait=%d", __entry->disk,
		      __entry->seq, __entry->pad, __entry->wait)
);

/**
 * rrpc_discard - a discard or write-zeroes unmapped a range
 * @disk: the target's disk
 * @lba: first logical sector
 * @nr: sectors
 * @zeroes: a write-zeroes request (else a discard)
 * @rec: a trim record went into the write stream (not when out of space
 *	with a full buffer)
 */
TRACE_EVENT(rrpc_discard,
	    TP_PROTO(const char *disk, u32 lba, u32 nr, bool zeroes, bool rec),
	    TP_ARGS(disk, lba, nr, zeroes, rec),
	    TP_STRUCT__entry(__array(char, disk, DISK_NAME_LEN)
			     __field(u32, lba)
			     __field(u32, nr)
			     __field(bool, zeroes)
			     __field(bool, rec)),
	    TP_fast_assign(strscpy(__entry->disk, disk, sizeof(__entry->disk));
			   __entry->lba = lba;
			   __entry->nr = nr;
			   __entry->zeroes = zeroes;
			   __entry->rec = rec;),
	    TP_printk("%s lba=%u nr=%u zeroes=%d rec=%d", __entry->disk,
		      __entry->lba, __entry->nr, __entry->zeroes, __entry->rec)
);

/**
 * rrpc_recover - a target got its state at creation
 * @disk: the target's disk
 * @mode: "new", "factory", "scan" or "checkpoint"
 * @ms: milliseconds it took
 * @scanned: sectors read (scan, checkpoint) or blocks erased (factory)
 * @blocks: blocks holding data
 * @mapped: logical sectors mapped
 * @trims: trim records found
 * @torn: unreadable sectors
 */
TRACE_EVENT(rrpc_recover,
	    TP_PROTO(const char *disk, const char *mode, u64 ms, u64 scanned,
		     u32 blocks, u64 mapped, u32 trims, u32 torn),
	    TP_ARGS(disk, mode, ms, scanned, blocks, mapped, trims, torn),
	    TP_STRUCT__entry(__array(char, disk, DISK_NAME_LEN)
			     __array(char, mode, RRPC_TRACE_MODE_LEN)
			     __field(u64, ms)
			     __field(u64, scanned)
			     __field(u32, blocks)
			     __field(u64, mapped)
			     __field(u32, trims)
			     __field(u32, torn)),
	    TP_fast_assign(strscpy(__entry->disk, disk, sizeof(__entry->disk));
			   strscpy(__entry->mode, mode, sizeof(__entry->mode));
			   __entry->ms = ms;
			   __entry->scanned = scanned;
			   __entry->blocks = blocks;
			   __entry->mapped = mapped;
			   __entry->trims = trims;
			   __entry->torn = torn;),
	    TP_printk("%s mode=%s ms=%llu scanned=%llu blocks=%u mapped=%llu trims=%u torn=%u",
		      __entry->disk, __entry->mode, __entry->ms,
		      __entry->scanned, __entry->blocks, __entry->mapped,
		      __entry->trims, __entry->torn)
);

#endif /* _TRACE_RRPC_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rrpc_trace
#include <trace/define_trace.h>
