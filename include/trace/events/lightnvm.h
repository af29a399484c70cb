/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the LightNVM core and of the gennvm media manager, in the
 * event system "lightnvm": physical I/O submitted to a device and its
 * completion, blocks handed to a target and taken back, and block state
 * marks. All of them are defined in the core (lightnvm.ko, core.c); the
 * gennvm events are exported to gennvm.ko. Addresses are generic (see
 * struct ppa_addr). See Documentation/lightnvm/tracing.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lightnvm

#if !defined(_TRACE_LIGHTNVM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_LIGHTNVM_H

#include <linux/lightnvm.h>
#include <linux/tracepoint.h>

#ifndef _TRACE_LIGHTNVM_HELPERS
#define _TRACE_LIGHTNVM_HELPERS
/* The first address of a request: where a program or read starts. */
static inline struct ppa_addr nvm_trace_ppa0(const struct nvm_rq *rqd)
{
	return rqd->nr_ppas > 1 ? rqd->ppa_list[0] : rqd->ppa_addr;
}
#endif

TRACE_DEFINE_ENUM(NVM_OP_PWRITE);
TRACE_DEFINE_ENUM(NVM_OP_PREAD);
TRACE_DEFINE_ENUM(NVM_OP_ERASE);
TRACE_DEFINE_ENUM(NVM_BLK_T_FREE);
TRACE_DEFINE_ENUM(NVM_BLK_T_BAD);
TRACE_DEFINE_ENUM(NVM_BLK_T_GRWN_BAD);
TRACE_DEFINE_ENUM(NVM_BLK_T_DEV);
TRACE_DEFINE_ENUM(NVM_BLK_T_HOST);
TRACE_DEFINE_ENUM(NVM_BLK_ST_FREE);
TRACE_DEFINE_ENUM(NVM_BLK_ST_OPEN);
TRACE_DEFINE_ENUM(NVM_BLK_ST_BAD);

#define show_nvm_opcode(op)					\
	__print_symbolic(op,					\
			 { NVM_OP_PWRITE,	"write" },	\
			 { NVM_OP_PREAD,	"read" },	\
			 { NVM_OP_ERASE,	"erase" })

#define show_nvm_blk_type(type)					\
	__print_symbolic(type,					\
			 { NVM_BLK_T_FREE,	"free" },	\
			 { NVM_BLK_T_BAD,	"bad" },	\
			 { NVM_BLK_T_GRWN_BAD,	"grown_bad" },	\
			 { NVM_BLK_T_DEV,	"device" },	\
			 { NVM_BLK_T_HOST,	"host" })

#define show_nvm_blk_state(state)				\
	__print_flags(state, "|",				\
		      { NVM_BLK_ST_FREE,	"free" },	\
		      { NVM_BLK_ST_OPEN,	"open" },	\
		      { NVM_BLK_ST_BAD,		"bad" })

DECLARE_EVENT_CLASS(nvm_io,
		    TP_PROTO(const struct nvm_dev *dev, const struct nvm_rq *rqd),
		    TP_ARGS(dev, rqd),
		    TP_STRUCT__entry(__array(char, dev, DISK_NAME_LEN)
				     __field(u8, opcode)
				     __field(u16, nr_ppas)
				     __field(u16, flags)
				     __field(u8, ch)
				     __field(u8, lun)
				     __field(u8, pl)
				     __field(u16, blk)
				     __field(u16, pg)
				     __field(u8, sec)
				     __field(int, error)
				     __field(u64, ppa_status)),
		    TP_fast_assign(strscpy(__entry->dev, dev->name,
					   sizeof(__entry->dev));
				   __entry->opcode = rqd->opcode;
				   __entry->nr_ppas = rqd->nr_ppas;
				   __entry->flags = rqd->flags;
				   __entry->ch = nvm_trace_ppa0(rqd).g.ch;
				   __entry->lun = nvm_trace_ppa0(rqd).g.lun;
				   __entry->pl = nvm_trace_ppa0(rqd).g.pl;
				   __entry->blk = nvm_trace_ppa0(rqd).g.blk;
				   __entry->pg = nvm_trace_ppa0(rqd).g.pg;
				   __entry->sec = nvm_trace_ppa0(rqd).g.sec;
				   __entry->error = rqd->error;
				   __entry->ppa_status = rqd->ppa_status;),
		    TP_printk("%s %s nr_ppas=%u ppa=ch%u/lun%u/pl%u/blk%u/pg%u/sec%u flags=0x%x error=0x%x ppa_status=0x%llx",
			      __entry->dev, show_nvm_opcode(__entry->opcode),
			      __entry->nr_ppas, __entry->ch, __entry->lun, __entry->pl,
			      __entry->blk, __entry->pg, __entry->sec, __entry->flags,
			      __entry->error, __entry->ppa_status)
);

/**
 * nvm_io_submit - a physical read, write or erase goes to the driver
 * @dev: the device
 * @rqd: the request, generic addresses (error and ppa_status are 0)
 *
 * Called by nvm_submit_io() once the request passed its checks.
 */
DEFINE_EVENT(nvm_io, nvm_io_submit,
	     TP_PROTO(const struct nvm_dev *dev, const struct nvm_rq *rqd),
	     TP_ARGS(dev, rqd)
);

/**
 * nvm_io_done - the driver completed a physical request
 * @dev: the device
 * @rqd: the request, generic addresses, with the device's status in
 *	@error (%NVM_RSP_*, 0 for success) and the failed addresses in
 *	@ppa_status (bit i: address i; 0 when the driver does not say)
 *
 * Called by nvm_end_io() before the request's end_io.
 */
DEFINE_EVENT(nvm_io, nvm_io_done,
	     TP_PROTO(const struct nvm_dev *dev, const struct nvm_rq *rqd),
	     TP_ARGS(dev, rqd)
);

DECLARE_EVENT_CLASS(gennvm_blk,
		    TP_PROTO(const struct nvm_dev *dev, const struct nvm_block *blk),
		    TP_ARGS(dev, blk),
		    TP_STRUCT__entry(__array(char, dev, DISK_NAME_LEN)
				     __field(int, lun)
				     __field(unsigned int, blk)
				     __field(int, state)),
		    TP_fast_assign(strscpy(__entry->dev, dev->name,
					   sizeof(__entry->dev));
				   __entry->lun = blk->lun->id;
				   __entry->blk = blk->id;
				   __entry->state = READ_ONCE(blk->state);),
		    TP_printk("%s lun=%d blk=%u state=%s",
			      __entry->dev, __entry->lun, __entry->blk,
			      show_nvm_blk_state(__entry->state))
);

/**
 * gennvm_get_blk - a free block goes to a target
 * @dev: the device
 * @blk: the block, now "open"
 */
DEFINE_EVENT(gennvm_blk, gennvm_get_blk,
	     TP_PROTO(const struct nvm_dev *dev, const struct nvm_block *blk),
	     TP_ARGS(dev, blk)
);

/**
 * gennvm_claim_blk - a target claims a given free block (its data, found
 *	by map recovery)
 * @dev: the device
 * @blk: the block, now "open"
 */
DEFINE_EVENT(gennvm_blk, gennvm_claim_blk,
	     TP_PROTO(const struct nvm_dev *dev, const struct nvm_block *blk),
	     TP_ARGS(dev, blk)
);

/**
 * gennvm_put_blk - a target gives a block back
 * @dev: the device
 * @blk: the block, in its state before the put: "open" goes back to the
 *	free list, "open|bad" (marked bad while out) to the bad list
 */
DEFINE_EVENT(gennvm_blk, gennvm_put_blk,
	     TP_PROTO(const struct nvm_dev *dev, const struct nvm_block *blk),
	     TP_ARGS(dev, blk)
);

/**
 * gennvm_mark_blk - a block's state is recorded for the device's table
 * @dev: the device
 * @ppa: generic address of the block (ch, lun, blk)
 * @type: the new state, %NVM_BLK_T_*
 * @changed: the block was not known bad before (it leaves service now, or
 *	when its target puts it back)
 */
TRACE_EVENT(gennvm_mark_blk,
	    TP_PROTO(const struct nvm_dev *dev, struct ppa_addr ppa, int type,
		     bool changed),
	    TP_ARGS(dev, ppa, type, changed),
	    TP_STRUCT__entry(__array(char, dev, DISK_NAME_LEN)
			     __field(int, lun)
			     __field(unsigned int, blk)
			     __field(int, type)
			     __field(bool, changed)),
	    TP_fast_assign(strscpy(__entry->dev, dev->name,
				   sizeof(__entry->dev));
			   __entry->lun = ppa.g.ch * dev->geo.luns_per_chnl + ppa.g.lun;
			   __entry->blk = ppa.g.blk;
			   __entry->type = type;
			   __entry->changed = changed;),
	    TP_printk("%s lun=%d blk=%u type=%s changed=%d",
		      __entry->dev, __entry->lun, __entry->blk,
		      show_nvm_blk_type(__entry->type), __entry->changed)
);

#endif /* _TRACE_LIGHTNVM_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
