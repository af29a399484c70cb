/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-kernel API of LightNVM, the Open-Channel SSD subsystem: the device
 * operations a driver implements, the geometry and address formats, the
 * physical I/O request, and the registries of media managers and targets.
 *
 * Three layers talk through this header:
 *
 *  - device drivers (NVMe, the memory-backed nvm_mem device) fill in a
 *    &struct nvm_dev_ops and call nvm_register();
 *  - media managers (gennvm) own the per-LUN block lists of a device and
 *    register a &struct nvm_mm_type;
 *  - targets (rrpc) register a &struct nvm_tgt_type; the core creates
 *    their block device and calls into them.
 *
 * Addresses: targets and media managers use the generic &struct ppa_addr
 * layout. The core converts them to the device's own format (described by
 * the identity's &struct nvm_addr_format) before calling the driver, and
 * back before completing the request, so drivers only ever see device-format
 * addresses and everything above the core only ever sees generic ones.
 */
#ifndef _LINUX_LIGHTNVM_H
#define _LINUX_LIGHTNVM_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/device.h>
#include <linux/blk-mq.h>
#include <uapi/linux/lightnvm.h>

/* Maximum number of addresses in one physical command (vector I/O). */
#define NVM_MAX_VLBA		64

/* Device completion status codes (Open-Channel SSD 1.2). */
enum {
	NVM_RSP_SUCCESS		= 0x0,
	NVM_RSP_NOT_CHANGEABLE	= 0x1,
	NVM_RSP_ERR_FAILWRITE	= 0x40ff,
	NVM_RSP_ERR_EMPTYPAGE	= 0x42ff,
	NVM_RSP_ERR_FAILECC	= 0x4281,
	NVM_RSP_ERR_FAILCRC	= 0x4004,
	NVM_RSP_ERR_FAILERASE	= 0x4005,	/* our code for a failed erase */
	NVM_RSP_WARN_HIGHECC	= 0x4700,
};

/*
 * Device completion status codes of Open-Channel SSD 2.0 (status code type
 * 2, with Do Not Retry, as the NVMe driver reports them like 1.2's).
 */
enum {
	NVM_RSP_ERR_OFFLINE	= 0x42c0,	/* offline chunk */
	NVM_RSP_ERR_INVALIDRESET = 0x42c1,	/* reset of a free chunk */
	NVM_RSP_ERR_WRITENEXTUNIT = 0x42f0,	/* write fail, write next unit */
	NVM_RSP_ERR_FAILCLOSE	= 0x42f1,	/* write fail, chunk early close */
	NVM_RSP_ERR_OUTOFORDER	= 0x42f2,	/* write not at the write pointer */
};

/**
 * nvm_rsp_is_media() - is a completion status a statement about the media?
 * @error: &nvm_rq.error of a completed command
 *
 * The Open-Channel SSD 1.2 media statuses (a failed program or erase, an
 * empty page, an uncorrectable or CRC error, a high-ECC warning) and the
 * 2.0 ones (an offline chunk, a write that failed with "write next unit"
 * or "chunk early close") say something about the addressed blocks. The
 * 2.0 out-of-order write and invalid reset are the host's mistakes. Every other non-zero status (a
 * command aborted by a controller reset or a timeout, a path error, a
 * device that is gone) is a host or transport error: it says nothing about
 * the media, and must not change any block's state.
 *
 * Return: true for a media status, false for success and host errors.
 */
static inline bool nvm_rsp_is_media(u16 error)
{
	switch (error) {
	case NVM_RSP_ERR_FAILWRITE:
	case NVM_RSP_ERR_EMPTYPAGE:
	case NVM_RSP_ERR_FAILECC:
	case NVM_RSP_ERR_FAILCRC:
	case NVM_RSP_ERR_FAILERASE:
	case NVM_RSP_WARN_HIGHECC:
	case NVM_RSP_ERR_OFFLINE:
	case NVM_RSP_ERR_WRITENEXTUNIT:
	case NVM_RSP_ERR_FAILCLOSE:
		return true;
	default:
		return false;
	}
}

/**
 * nvm_rsp_is_write_fail() - did a program fail on the media?
 * @error: &nvm_rq.error of a completed write
 *
 * The statuses that make the written block (1.2) or chunk (2.0) suspect:
 * 1.2's write failure, and 2.0's write next unit, chunk early close and
 * offline chunk. An out-of-order write (%NVM_RSP_ERR_OUTOFORDER) is the
 * host's mistake and says nothing about the media.
 *
 * Return: true for those statuses.
 */
static inline bool nvm_rsp_is_write_fail(u16 error)
{
	return error == NVM_RSP_ERR_FAILWRITE ||
	       error == NVM_RSP_ERR_WRITENEXTUNIT ||
	       error == NVM_RSP_ERR_FAILCLOSE || error == NVM_RSP_ERR_OFFLINE;
}

/* Physical command opcodes (&nvm_rq.opcode; NVMe I/O command set). */
enum {
	NVM_OP_PWRITE		= 0x91,
	NVM_OP_PREAD		= 0x92,
	NVM_OP_ERASE		= 0x90,
};

/* Command control flags (the 16-bit "control" field of a physical command). */
enum {
	NVM_IO_SNGL_ACCESS	= 0x0,
	NVM_IO_DUAL_ACCESS	= 0x1,
	NVM_IO_QUAD_ACCESS	= 0x2,
	NVM_IO_ACCESS_MASK	= 0x3,	/* the plane access mode bits */
	NVM_IO_SUSPEND		= 0x80,
	NVM_IO_SLC_MODE		= 0x100,
	NVM_IO_SCRAMBLE_DISABLE	= 0x200,
};

/* Block states in the bad block table (one byte per block and plane). */
enum {
	NVM_BLK_T_FREE		= 0x0,
	NVM_BLK_T_BAD		= 0x1,
	NVM_BLK_T_GRWN_BAD	= 0x2,
	NVM_BLK_T_DEV		= 0x4,
	NVM_BLK_T_HOST		= 0x8,
};

/* Identity capabilities (&nvm_id.cap) and device modes (&nvm_id.dom). */
enum {
	NVM_ID_CAP_BBT		= 0x1,
	NVM_ID_CAP_CMD_SUSPEND	= 0x2,
	NVM_ID_DOM_L2P		= 0x1,	/* device keeps an L2P table (hybrid) */
};

/* Plane access modes, derived from &nvm_id_group.mpos. */
enum {
	NVM_PLANE_SINGLE	= 1,
	NVM_PLANE_DOUBLE	= 2,
	NVM_PLANE_QUAD		= 4,
};

/**
 * struct nvm_addr_format - where each address field sits in a device address
 * @ch_offset: bit offset of the channel
 * @ch_len: bits of the channel
 * @lun_offset: bit offset of the LUN within its channel
 * @lun_len: bits of the LUN
 * @pln_offset: bit offset of the plane
 * @pln_len: bits of the plane
 * @blk_offset: bit offset of the block
 * @blk_len: bits of the block
 * @pg_offset: bit offset of the page
 * @pg_len: bits of the page
 * @sect_offset: bit offset of the sector within its page
 * @sect_len: bits of the sector
 * @res: reserved, completes the 16 bytes of the on-wire layout
 *
 * Offsets and lengths in bits, as reported in the identity (``ppaf``).
 */
struct nvm_addr_format {
	u8	ch_offset;
	u8	ch_len;
	u8	lun_offset;
	u8	lun_len;
	u8	pln_offset;
	u8	pln_len;
	u8	blk_offset;
	u8	blk_len;
	u8	pg_offset;
	u8	pg_len;
	u8	sect_offset;
	u8	sect_len;
	u8	res[4];
};

/* Open-Channel SSD specification of a device (&nvm_id.ver_id, &nvm_geo.version). */
enum {
	NVM_OCSSD_SPEC_12	= 1,
	NVM_OCSSD_SPEC_20	= 2,
};

/* Media and controller capabilities of a 2.0 device (&nvm_id20.mccap). */
enum {
	NVM_ID20_MCCAP_VCOPY	= 0x1,	/* vector copy supported */
	NVM_ID20_MCCAP_RESET_FREE = 0x2, /* a free chunk may be reset again */
};

/**
 * struct nvm_addrf20 - where each field sits in a 2.0 logical block address
 * @grp_offset: bit offset of the group
 * @grp_len: bits of the group
 * @pu_offset: bit offset of the parallel unit within its group
 * @pu_len: bits of the parallel unit
 * @chk_offset: bit offset of the chunk within its parallel unit
 * @chk_len: bits of the chunk
 * @lbk_offset: bit offset of the logical block within its chunk
 * @lbk_len: bits of the logical block
 *
 * A 2.0 geometry reports the four lengths only; the fields sit from bit 0
 * up in the order logical block, chunk, PU, group (nvm_addrf20_from_lens()
 * derives the offsets). The offsets are kept so that the core checks one
 * format with fields that must fit 64 bits and not overlap.
 */
struct nvm_addrf20 {
	u8	grp_offset;
	u8	grp_len;
	u8	pu_offset;
	u8	pu_len;
	u8	chk_offset;
	u8	chk_len;
	u8	lbk_offset;
	u8	lbk_len;
};

/**
 * struct nvm_id20 - the geometry of an Open-Channel SSD 2.0 device, host endian
 * @ver_minor: minor version
 * @lbaf: LBA format
 * @mccap: media and controller capabilities (%NVM_ID20_MCCAP_*)
 * @wit: wear-level index delta threshold
 * @num_grp: groups
 * @num_pu: parallel units per group
 * @num_chk: chunks per parallel unit
 * @clba: logical blocks per chunk
 * @ws_min: minimum write size in logical blocks
 * @ws_opt: optimal write size in logical blocks
 * @mw_cunits: cache minimum write size units: logical blocks that must be
 *	written after a block before that block can be read from the media
 * @maxoc: most open chunks (0: no limit)
 * @maxocpu: most open chunks per parallel unit (0: no limit)
 * @trdt: typical read time (ns)
 * @trdm: maximum read time (ns)
 * @tprt: typical write time (ns)
 * @tprm: maximum write time (ns)
 * @tbet: typical chunk reset time (ns)
 * @tbem: maximum chunk reset time (ns)
 * @csecs: logical block size in bytes (from the namespace's LBA format)
 * @sos: out-of-band (metadata) bytes per logical block (idem)
 */
struct nvm_id20 {
	u8	ver_minor;
	struct nvm_addrf20 lbaf;
	u32	mccap;
	u8	wit;
	u16	num_grp;
	u16	num_pu;
	u32	num_chk;
	u32	clba;
	u32	ws_min;
	u32	ws_opt;
	u32	mw_cunits;
	u32	maxoc;
	u32	maxocpu;
	u32	trdt;
	u32	trdm;
	u32	tprt;
	u32	tprm;
	u32	tbet;
	u32	tbem;
	u16	csecs;
	u16	sos;
};

/**
 * struct nvm_id_group - one configuration group of the identity, host endian
 * @mtype: media type (0: NAND)
 * @fmtype: flash media type (0: SLC, 1: MLC)
 * @num_ch: channels
 * @num_lun: LUNs per channel
 * @num_pln: planes per LUN
 * @num_blk: blocks per plane
 * @num_pg: pages per block
 * @fpg_sz: flash page size in bytes
 * @csecs: sector size in bytes
 * @sos: out-of-band (metadata) bytes per sector
 * @trdt: typical page read time (ns)
 * @trdm: maximum page read time (ns)
 * @tprt: typical page program time (ns)
 * @tprm: maximum page program time (ns)
 * @tbet: typical block erase time (ns)
 * @tbem: maximum block erase time (ns)
 * @mpos: multi-plane operation support
 * @mccap: media and controller capabilities
 * @cpar: channel parallelism
 */
struct nvm_id_group {
	u8	mtype;
	u8	fmtype;
	u8	num_ch;
	u8	num_lun;
	u8	num_pln;
	u16	num_blk;
	u16	num_pg;
	u16	fpg_sz;
	u16	csecs;
	u16	sos;
	u32	trdt;
	u32	trdm;
	u32	tprt;
	u32	tprm;
	u32	tbet;
	u32	tbem;
	u32	mpos;
	u32	mccap;
	u16	cpar;
};

/**
 * struct nvm_id - device identity, host endian
 * @ver_id: specification (major) version: %NVM_OCSSD_SPEC_12 (1) or
 *	%NVM_OCSSD_SPEC_20 (2)
 * @vmnt: vendor NVM opcode command set (1.2)
 * @cgrps: number of configuration groups; only 1 is supported (1.2)
 * @cap: capabilities (%NVM_ID_CAP_*) (1.2)
 * @dom: device operating mode (%NVM_ID_DOM_*) (1.2)
 * @ppaf: device address format (1.2)
 * @groups: configuration groups; only groups[0] is used (1.2)
 * @id20: the geometry of a 2.0 device (@ver_id 2); the 1.2 fields above
 *	are unused then
 */
struct nvm_id {
	u8	ver_id;
	u8	vmnt;
	u8	cgrps;
	u32	cap;
	u32	dom;
	struct nvm_addr_format ppaf;
	struct nvm_id_group groups[4];
	struct nvm_id20 id20;
};

/**
 * struct ppa_addr - generic physical page address
 * @ppa: the raw 64-bit value; %ADDR_EMPTY (all ones) means "no address"
 * @g: the generic layout, low bits first
 *
 * Every address handed to or returned by the core is in this layout; drivers
 * receive device-format addresses (see nvm_generic_to_dev()).
 */
struct ppa_addr {
	union {
		u64 ppa;
		struct {
			u64 blk		: 16;
			u64 pg		: 16;
			u64 sec		: 8;
			u64 pl		: 8;
			u64 lun		: 8;
			u64 ch		: 7;
			u64 reserved	: 1;
		} g;
	};
};

#define ADDR_EMPTY (~0ULL)

/* Chunk states (&nvm_chk_meta.state), one bit set. */
enum {
	NVM_CHK_ST_FREE		= 0x1,
	NVM_CHK_ST_CLOSED	= 0x2,
	NVM_CHK_ST_OPEN		= 0x4,
	NVM_CHK_ST_OFFLINE	= 0x8,
};

/* Chunk types (&nvm_chk_meta.type). */
enum {
	NVM_CHK_TP_W_SEQ	= 0x1,	/* sequential writes required */
	NVM_CHK_TP_W_RAN	= 0x2,	/* random writes allowed */
	NVM_CHK_TP_SZ_SPEC	= 0x10,	/* size deviates from clba */
};

/**
 * struct nvm_chk_meta - one chunk descriptor of a 2.0 device, host endian
 * @state: %NVM_CHK_ST_*
 * @type: %NVM_CHK_TP_*
 * @wi: wear-level index
 * @rsvd: reserved
 * @slba: start address of the chunk (device format, logical block 0)
 * @cnlb: logical blocks in the chunk
 * @wp: write pointer: logical blocks written since the chunk's last reset,
 *	relative to @slba (0 for a free chunk, @cnlb for a full one)
 *
 * The fields of the chunk information log page (0xCA). Drivers report the
 * write pointer relative to the chunk's start, as the QEMU model and
 * Linux's 2.0 support read the log page.
 */
struct nvm_chk_meta {
	u8	state;
	u8	type;
	u8	wi;
	u8	rsvd[5];
	u64	slba;
	u64	cnlb;
	u64	wp;
};

/**
 * struct nvm_geo - geometry of a device, derived from its identity
 * @nr_chnls: channels
 * @luns_per_chnl: LUNs per channel
 * @nr_luns: LUNs in the device (@nr_chnls * @luns_per_chnl)
 * @nr_planes: planes per LUN
 * @blks_per_lun: blocks per LUN (per plane)
 * @pgs_per_blk: pages per block
 * @sec_per_pg: sectors per flash page (per plane)
 * @sec_size: sector size in bytes (4096)
 * @oob_size: out-of-band bytes per sector
 * @plane_mode: %NVM_PLANE_SINGLE, %NVM_PLANE_DOUBLE or %NVM_PLANE_QUAD
 * @sec_per_pl: sectors written by one multi-plane program (sec_per_pg * nr_planes)
 * @sec_per_blk: sectors in a block across its planes
 * @sec_per_lun: sectors in a LUN
 * @nr_secs: sectors in the device
 * @max_rq_size: largest data transfer of one command, in bytes
 * @version: %NVM_OCSSD_SPEC_12 or %NVM_OCSSD_SPEC_20
 * @ws_min: fewest sectors a write may program, and the unit of every
 *	write's length: a multi-plane page (@sec_per_pl) on 1.2
 * @ws_opt: sectors of a write that the device programs best: @sec_per_pl
 *	on 1.2
 * @mw_cunits: sectors written after a sector before it can be read from
 *	the media (0 on 1.2)
 * @num_grp: 2.0: groups (= @nr_chnls); 0 on 1.2
 * @num_pu: 2.0: parallel units per group (= @luns_per_chnl); 0 on 1.2
 * @num_chk: 2.0: chunks per parallel unit (= @blks_per_lun); 0 on 1.2
 * @clba: 2.0: logical blocks per chunk (= @sec_per_blk); 0 on 1.2
 * @mccap: 2.0: %NVM_ID20_MCCAP_* of the device; 0 on 1.2
 * @maxoc: 2.0: most open chunks of the device (0: no limit)
 * @maxocpu: 2.0: most open chunks per parallel unit (0: no limit)
 *
 * A "block" above the driver is a block index in a LUN taken across all its
 * planes, written in multi-plane page order (see nvm_blk_off_to_ppa()).
 *
 * A 2.0 device looks to targets like a 1.2 device with one plane: a
 * channel is a group, a LUN a parallel unit, a block a chunk, a "page" a
 * unit of @ws_min logical blocks (@sec_per_pg = @ws_min, @pgs_per_blk =
 * @clba / @ws_min) and a sector a logical block. Writes in page order
 * within a block are then what 2.0 asks: in order at the write pointer, in
 * multiples of @ws_min.
 */
struct nvm_geo {
	int	nr_chnls;
	int	luns_per_chnl;
	int	nr_luns;
	int	nr_planes;
	int	blks_per_lun;
	int	pgs_per_blk;
	int	sec_per_pg;
	int	sec_size;
	int	oob_size;
	int	plane_mode;
	int	sec_per_pl;
	int	sec_per_blk;
	int	sec_per_lun;
	u64	nr_secs;
	int	max_rq_size;
	int	version;
	int	ws_min;
	int	ws_opt;
	int	mw_cunits;
	int	num_grp;
	int	num_pu;
	int	num_chk;
	int	clba;
	u32	mccap;
	u32	maxoc;
	u32	maxocpu;
};

struct nvm_dev;
struct nvm_rq;
struct nvm_block;
struct nvm_lun;
struct nvm_target;
struct nvm_sysfs_luns;

typedef void (nvm_end_io_fn)(struct nvm_rq *rqd);

/**
 * struct nvm_dev_ops - operations of an open-channel device driver
 * @identity: read the identity into @id (host endian)
 * @get_bb_tbl: read the bad block table of the LUN addressed by @ppa
 *	(device format, ch and lun set) into @blks, which holds
 *	blks_per_lun * nr_planes bytes, one %NVM_BLK_T_* per block and plane
 *	(block-major: blks[blk * nr_planes + pl])
 * @set_bb_tbl: set the state @type of the @nr_ppas blocks at @ppas
 *	(device format, pl set, pg and sec ignored)
 * @submit_io: start the read or write @rqd (%NVM_OP_PREAD / %NVM_OP_PWRITE);
 *	returns 0 once the request is owned by the driver, which then calls
 *	nvm_end_io() exactly once, from any context. Must not sleep: the
 *	caller may be in atomic context or an RCU read-side section (a
 *	target's ->queue_rq)
 * @erase_block: start the erase @rqd (%NVM_OP_ERASE), same contract
 * @create_dma_pool: create a pool of @size-byte DMA-able buffers
 * @destroy_dma_pool: destroy a pool
 * @dev_dma_alloc: allocate from a pool, returning the bus address in @dma
 * @dev_dma_free: free to a pool
 * @max_phys_sect: most addresses in one command (at most %NVM_MAX_VLBA)
 * @get_chk_meta: 2.0 devices: read the descriptors of the @nr_chks chunks
 *	that follow, in the log page's order (group, PU, chunk), the chunk
 *	at @slba (device format, logical block 0) into @meta, host endian,
 *	write pointers relative to each chunk's start. A driver that
 *	leaves it %NULL cannot drive 2.0 devices. Process context.
 *
 * All addresses passed to these operations are in device format. A 2.0
 * device has no bad block table: the core never calls @get_bb_tbl and
 * @set_bb_tbl for it.
 */
struct nvm_dev_ops {
	int	(*identity)(struct nvm_dev *dev, struct nvm_id *id);
	int	(*get_bb_tbl)(struct nvm_dev *dev, struct ppa_addr ppa, u8 *blks);
	int	(*set_bb_tbl)(struct nvm_dev *dev, struct ppa_addr *ppas,
			      int nr_ppas, int type);
	int	(*submit_io)(struct nvm_dev *dev, struct nvm_rq *rqd);
	int	(*erase_block)(struct nvm_dev *dev, struct nvm_rq *rqd);
	void	*(*create_dma_pool)(struct nvm_dev *dev, const char *name,
				    size_t size);
	void	(*destroy_dma_pool)(void *pool);
	void	*(*dev_dma_alloc)(struct nvm_dev *dev, void *pool, gfp_t gfp,
				  dma_addr_t *dma);
	void	(*dev_dma_free)(void *pool, void *vaddr, dma_addr_t dma);
	unsigned int max_phys_sect;
	int	(*get_chk_meta)(struct nvm_dev *dev, u64 slba, int nr_chks,
				struct nvm_chk_meta *meta);
};

/**
 * struct nvm_rq - a physical I/O request
 * @dev: device the request is for
 * @bio: data (reads and writes): @nr_ppas sectors of geo.sec_size bytes,
 *	in the order of the addresses; %NULL for erase
 * @ppa_addr: the address when @nr_ppas == 1
 * @ppa_list: the addresses when @nr_ppas > 1 (from nvm_alloc_ppalist())
 * @dma_ppa_list: bus address of @ppa_list
 * @meta_list: @nr_ppas * geo.oob_size bytes of per-sector OOB metadata,
 *	written with the data or filled in by a read; may be %NULL
 * @dma_meta_list: bus address of @meta_list
 * @end_io: called once on completion, in any context
 * @opcode: %NVM_OP_PREAD, %NVM_OP_PWRITE or %NVM_OP_ERASE
 * @nr_ppas: number of addresses (1..max_phys_sect)
 * @flags: %NVM_IO_* control flags; the core adds the plane access mode
 *	(%NVM_IO_DUAL_ACCESS, %NVM_IO_QUAD_ACCESS) to writes and erases
 * @error: 0, or the %NVM_RSP_* status of the command
 * @ppa_status: bit i set when address i failed (valid when @error != 0;
 *	a driver that cannot tell sets all bits)
 * @private: owner's data
 * @core_private: owned by the core while the request is in flight
 */
struct nvm_rq {
	struct nvm_dev		*dev;
	struct bio		*bio;
	union {
		struct ppa_addr	ppa_addr;
		struct ppa_addr	*ppa_list;
	};
	dma_addr_t		dma_ppa_list;
	void			*meta_list;
	dma_addr_t		dma_meta_list;
	nvm_end_io_fn		*end_io;
	u8			opcode;
	u16			nr_ppas;
	u16			flags;
	int			error;
	u64			ppa_status;
	void			*private;
	void			*core_private;
};

/* Block states kept by the media manager (&nvm_block.state). */
enum {
	NVM_BLK_ST_FREE		= 0x1,	/* erased, on the LUN's free list */
	NVM_BLK_ST_OPEN		= 0x2,	/* handed to a target */
	NVM_BLK_ST_BAD		= 0x8,	/* factory or grown bad */
};

/**
 * struct nvm_lun - one LUN as the media manager sees it
 * @id: LUN index in the device (ch * luns_per_chnl + lun_id)
 * @lun_id: LUN index within its channel
 * @chnl_id: channel index
 * @lock: protects the media manager's lists of this LUN and
 *	@nr_free_blocks; targets must not take it
 * @nr_free_blocks: blocks on the free list; written under @lock with
 *	WRITE_ONCE(), read by targets without it (READ_ONCE())
 * @nr_bad_blocks: factory and grown bad blocks
 * @blocks: the LUN's blocks, indexed by block id
 */
struct nvm_lun {
	int			id;
	int			lun_id;
	int			chnl_id;
	spinlock_t		lock;		/* media manager's lists, counters */
	unsigned int		nr_free_blocks;
	unsigned int		nr_bad_blocks;
	struct nvm_block	*blocks;
};

/**
 * struct nvm_block - one block (across its planes) of a LUN
 * @list: on the media manager's free/used/bad list of the LUN
 * @lun: the LUN the block is in
 * @id: block index in the LUN
 * @state: %NVM_BLK_ST_*
 * @priv: the owning target's data while the block is handed out
 * @chk_state: 2.0 devices: the chunk's %NVM_CHK_ST_* as the device last
 *	reported it (when the media manager bound the device or reset the
 *	device to factory state) or as the media manager's last reset of it
 *	left it; 0 on 1.2. Under the LUN's lock.
 * @wp: 2.0 devices: the chunk's write pointer (logical blocks written)
 *	at the same moment: where an open chunk's next write must go; 0 on
 *	1.2. Under the LUN's lock. A target that needs the device's current
 *	state asks for it with nvm_get_chunk_meta().
 */
struct nvm_block {
	struct list_head	list;
	struct nvm_lun		*lun;
	unsigned int		id;
	int			state;
	void			*priv;
	u8			chk_state;
	u32			wp;
};

/**
 * struct nvm_lun_stats - block counts of one LUN, for sysfs
 * @nr_free: blocks that may be handed out
 * @nr_used: blocks handed out to a target, including any that went bad
 *	while out (they count as bad once the target gives them back)
 * @nr_bad: blocks out of service: @nr_factory_bad, @nr_grown_bad and
 *	device-reserved or host-marked blocks
 * @nr_factory_bad: factory bad blocks
 * @nr_grown_bad: blocks marked grown bad in the table, or gone bad since
 *	the table was read
 *
 * @nr_free + @nr_used + @nr_bad is the number of blocks of the LUN.
 */
struct nvm_lun_stats {
	u32	nr_free;
	u32	nr_used;
	u32	nr_bad;
	u32	nr_factory_bad;
	u32	nr_grown_bad;
};

/* nvm_get_blk() flags */
enum {
	NVM_IOTYPE_NONE	= 0,
	NVM_IOTYPE_GC	= 1,	/* GC may take the last free blocks of a LUN */
};

/*
 * Free blocks of a LUN that nvm_get_blk() keeps for garbage collection:
 * without %NVM_IOTYPE_GC it returns %NULL once a LUN has this few left.
 */
#define NVM_LUN_GC_RESERVE	2

/**
 * struct nvm_mm_type - a media manager, registered by name
 * @name: unique name, at most %NVM_MMTYPE_LEN - 1 characters ("gennvm")
 * @version: major, minor, patch
 * @register_mgr: bind to @dev (load its bad block tables, build lists)
 * @unregister_mgr: unbind; no target of @dev exists any more
 * @get_blk: take a free block of @lun, or %NULL if none may be taken.
 *	The block is NOT guaranteed to be erased (a device keeps its media
 *	across target re-creation and power cycles): the target erases it
 *	with nvm_erase_blk() before its first program. Any context.
 * @claim_blk: take the free block @blkid of @lun (a target rebuilding its
 *	state from the media claims the blocks that hold its data), or
 *	%NULL if that block is not free (bad, or handed out); with @bad,
 *	the bad block @blkid instead, to read the data a program failure
 *	left in it: it stays bad (never to be programmed or erased by the
 *	target) and @put_blk returns it to the bad list. Any context.
 * @put_blk: give back a block the target no longer needs. The media
 *	manager does not erase it: a target that gives back a block whose
 *	contents must not come back (after a power cut, its next instance
 *	scans every free block) erases it first. A block marked grown bad
 *	meanwhile goes to the bad list. Any context.
 * @erase_blk: erase @blk synchronously; on failure the block is marked
 *	grown bad. Process context.
 * @mark_blk: record the state @type (%NVM_BLK_T_GRWN_BAD, ...) of the
 *	block at @ppa (generic) in the device's table. Any context: the
 *	in-memory state changes at once, the device's table may be written
 *	asynchronously (before @unregister_mgr returns at the latest).
 * @get_lun: LUN @lunid of the device
 * @reserve_lun: reserve LUNs [@begin, @end] for one target; -EBUSY if any
 *	is taken
 * @release_lun: release a reservation
 * @factory: erase and reset marks per %NVM_FACTORY_* @flags; only called
 *	while no LUN is reserved. Process context.
 * @free_blocks: optional, for sysfs: count the free and bad blocks of the
 *	device into @nr_free and @nr_bad
 * @lun_stats: optional, for sysfs: the block counts of LUN @lunid (device
 *	index, in range). Any context; returns 0 or a negative errno.
 * @owner: the module implementing the manager
 * @list: on the core's list of managers
 */
struct nvm_mm_type {
	const char		*name;
	unsigned int		version[3];
	int	(*register_mgr)(struct nvm_dev *dev);
	void	(*unregister_mgr)(struct nvm_dev *dev);
	struct nvm_block *(*get_blk)(struct nvm_dev *dev, struct nvm_lun *lun,
				     unsigned long flags);
	struct nvm_block *(*claim_blk)(struct nvm_dev *dev, struct nvm_lun *lun,
				       unsigned int blkid, bool bad);
	void	(*put_blk)(struct nvm_dev *dev, struct nvm_block *blk);
	int	(*erase_blk)(struct nvm_dev *dev, struct nvm_block *blk,
			     unsigned long flags);
	void	(*mark_blk)(struct nvm_dev *dev, struct ppa_addr ppa, int type);
	struct nvm_lun *(*get_lun)(struct nvm_dev *dev, int lunid);
	int	(*reserve_lun)(struct nvm_dev *dev, int begin, int end);
	void	(*release_lun)(struct nvm_dev *dev, int begin, int end);
	int	(*factory)(struct nvm_dev *dev, int flags);
	void	(*free_blocks)(struct nvm_dev *dev, u64 *nr_free, u64 *nr_bad);
	int	(*lun_stats)(struct nvm_dev *dev, int lunid,
			     struct nvm_lun_stats *st);
	struct module		*owner;
	struct list_head	list;
};

/**
 * struct nvm_tgt_conf - what the user asked for when creating a target
 * @lun_begin: first LUN (device index)
 * @lun_end: last LUN, inclusive
 * @over_prov: over-provisioning in percent, 0 for the target's default
 * @flags: %NVM_TARGET_* flags of the create request
 */
struct nvm_tgt_conf {
	int	lun_begin;
	int	lun_end;
	int	over_prov;
	u32	flags;
};

/**
 * struct nvm_tgt_type - a target type, registered by name
 * @name: unique name, at most %NVM_TTYPE_NAME_MAX - 1 characters ("rrpc")
 * @version: major, minor, patch
 * @mq_ops: blk-mq operations of the target's disk; the queue's
 *	queuedata is the pointer returned by @init
 * @cmd_size: per-request private bytes (blk_mq_rq_to_pdu())
 * @queue_depth: tags per hardware queue
 * @init: set up a target on @tgt's LUNs; @disk is allocated but not yet
 *	added: set its capacity and queue limits here. Returns the
 *	target's private data or an ERR_PTR().
 * @exit: tear down; called after the disk was deleted and its queue
 *	drained, so no request of the target is in flight
 * @groups: sysfs attribute groups of the disk, or %NULL
 * @owner: the module implementing the target; the core holds a reference
 *	for every target of this type
 * @list: on the core's list of target types
 */
struct nvm_tgt_type {
	const char			*name;
	unsigned int			version[3];
	const struct blk_mq_ops		*mq_ops;
	unsigned int			cmd_size;
	unsigned int			queue_depth;
	void	*(*init)(struct nvm_target *tgt, struct gendisk *disk,
			 const struct nvm_tgt_conf *conf);
	void	(*exit)(void *private);
	const struct attribute_group	**groups;
	struct module			*owner;
	struct list_head		list;
};

/**
 * struct nvm_target - one target instance
 * @list: on the core's list of targets
 * @name: the target's name, also the name of its disk
 * @dev: the device it lives on
 * @type: its type
 * @disk: its block device
 * @tag_set: the disk's blk-mq tag set
 * @conf: what it was created with
 * @private: what @type->init returned
 */
struct nvm_target {
	struct list_head	list;
	char			name[DISK_NAME_LEN];
	struct nvm_dev		*dev;
	struct nvm_tgt_type	*type;
	struct gendisk		*disk;
	struct blk_mq_tag_set	tag_set;
	struct nvm_tgt_conf	conf;
	void			*private;
};

/**
 * struct nvm_dev - a registered open-channel device
 * @ops: the driver's operations
 * @name: name under which it is registered (e.g. "nvme0n1")
 * @private_data: the driver's data
 * @parent: the driver's device, parent of @dev in sysfs (may be %NULL)
 * @dev: the device of class "lightnvm", /sys/class/lightnvm/<name>
 * @identity: identity as read at registration
 * @geo: derived geometry
 * @ppaf: copy of identity.ppaf (1.2)
 * @lbaf: copy of identity.id20.lbaf (2.0)
 * @mm: bound media manager, or %NULL; set and cleared under the core's lock
 * @mmp: the media manager's private data
 * @dma_pool: pool of DMA buffers for PPA and metadata lists, or %NULL
 *	when the driver has no pool operations (kmalloc is used then)
 * @dma_pool_size: size of one buffer of @dma_pool
 * @devices: on the core's list of devices
 * @node: NUMA node
 * @registered: between nvm_register() and nvm_unregister()
 * @sysfs_luns: the core's per-LUN sysfs directories (sysfs.c), or %NULL
 * @user_writes: user-space writes and erases in flight (admitted by
 *	nvm_user_write_begin()), under the core's lock; no target is created
 *	on the device while it is not zero
 *
 * Life cycle: nvm_alloc_dev(), fill in @ops, @name, @private_data and
 * optionally @parent, nvm_register(), ..., nvm_unregister(), nvm_free_dev().
 * nvm_free_dev() drops the reference of @dev; the structure is freed when
 * the last reference (e.g. an open sysfs file) goes away.
 */
struct nvm_dev {
	const struct nvm_dev_ops *ops;
	char			name[DISK_NAME_LEN];
	void			*private_data;
	struct device		*parent;
	struct device		dev;
	struct nvm_id		identity;
	struct nvm_geo		geo;
	struct nvm_addr_format	ppaf;
	struct nvm_addrf20	lbaf;
	struct nvm_mm_type	*mm;
	void			*mmp;
	void			*dma_pool;
	size_t			dma_pool_size;
	struct list_head	devices;
	int			node;
	bool			registered;
	struct nvm_sysfs_luns	*sysfs_luns;
	unsigned int		user_writes;
};

/**
 * nvm_generic_to_dev() - convert a generic address to the device format
 * @ppaf: the device's address format
 * @r: generic address
 *
 * Return: the device-format address; %ADDR_EMPTY stays %ADDR_EMPTY.
 */
static inline struct ppa_addr nvm_generic_to_dev(const struct nvm_addr_format *ppaf,
						 struct ppa_addr r)
{
	struct ppa_addr l;

	if (r.ppa == ADDR_EMPTY)
		return r;
	l.ppa = ((u64)r.g.blk) << ppaf->blk_offset;
	l.ppa |= ((u64)r.g.pg) << ppaf->pg_offset;
	l.ppa |= ((u64)r.g.sec) << ppaf->sect_offset;
	l.ppa |= ((u64)r.g.pl) << ppaf->pln_offset;
	l.ppa |= ((u64)r.g.lun) << ppaf->lun_offset;
	l.ppa |= ((u64)r.g.ch) << ppaf->ch_offset;
	return l;
}

static inline u64 nvm_field(u64 v, u8 off, u8 len)
{
	if (!len)
		return 0;
	return (v >> off) & (len >= 64 ? ~0ULL : ((1ULL << len) - 1));
}

/**
 * nvm_dev_to_generic() - convert a device-format address to the generic one
 * @ppaf: the device's address format
 * @r: device-format address
 *
 * Return: the generic address; %ADDR_EMPTY stays %ADDR_EMPTY.
 */
static inline struct ppa_addr nvm_dev_to_generic(const struct nvm_addr_format *ppaf,
						 struct ppa_addr r)
{
	struct ppa_addr l;

	if (r.ppa == ADDR_EMPTY)
		return r;
	l.ppa = 0;
	l.g.blk = nvm_field(r.ppa, ppaf->blk_offset, ppaf->blk_len);
	l.g.pg = nvm_field(r.ppa, ppaf->pg_offset, ppaf->pg_len);
	l.g.sec = nvm_field(r.ppa, ppaf->sect_offset, ppaf->sect_len);
	l.g.pl = nvm_field(r.ppa, ppaf->pln_offset, ppaf->pln_len);
	l.g.lun = nvm_field(r.ppa, ppaf->lun_offset, ppaf->lun_len);
	l.g.ch = nvm_field(r.ppa, ppaf->ch_offset, ppaf->ch_len);
	return l;
}

/**
 * nvm_generic_to_dev20() - convert a generic address to a 2.0 logical block
 *	address
 * @geo: the device's geometry (for @geo->ws_min, the sectors of a "page")
 * @f: the device's LBA format
 * @r: generic address: ch = group, lun = PU, blk = chunk, pg and sec the
 *	logical block pg * ws_min + sec of the chunk (pl is 0)
 *
 * The one place where generic addresses become 2.0 device addresses.
 *
 * Return: the device address; %ADDR_EMPTY stays %ADDR_EMPTY.
 */
static inline struct ppa_addr nvm_generic_to_dev20(const struct nvm_geo *geo,
						   const struct nvm_addrf20 *f,
						   struct ppa_addr r)
{
	struct ppa_addr l;
	u64 lbk;

	if (r.ppa == ADDR_EMPTY)
		return r;
	lbk = (u64)r.g.pg * geo->ws_min + r.g.sec;
	l.ppa = ((u64)r.g.ch) << f->grp_offset;
	l.ppa |= ((u64)r.g.lun) << f->pu_offset;
	l.ppa |= ((u64)r.g.blk) << f->chk_offset;
	l.ppa |= lbk << f->lbk_offset;
	return l;
}

/**
 * nvm_dev20_to_generic() - convert a 2.0 logical block address to the
 *	generic one
 * @geo: the device's geometry
 * @f: the device's LBA format
 * @r: device address
 *
 * Return: the generic address; %ADDR_EMPTY stays %ADDR_EMPTY.
 */
static inline struct ppa_addr nvm_dev20_to_generic(const struct nvm_geo *geo,
						   const struct nvm_addrf20 *f,
						   struct ppa_addr r)
{
	struct ppa_addr l;
	u32 lbk;

	if (r.ppa == ADDR_EMPTY)
		return r;
	l.ppa = 0;
	l.g.ch = nvm_field(r.ppa, f->grp_offset, f->grp_len);
	l.g.lun = nvm_field(r.ppa, f->pu_offset, f->pu_len);
	l.g.blk = nvm_field(r.ppa, f->chk_offset, f->chk_len);
	lbk = nvm_field(r.ppa, f->lbk_offset, f->lbk_len);
	l.g.pg = lbk / geo->ws_min;
	l.g.sec = lbk % geo->ws_min;
	return l;
}

/**
 * nvm_blk_off_to_ppa() - address of the @off-th sector written in a block
 * @geo: device geometry
 * @blk: generic address of the block (ch, lun, blk set)
 * @off: sector offset in the block, 0 <= @off < geo->sec_per_blk
 *
 * Sectors of a block are programmed page by page; within a page, plane by
 * plane (a multi-plane program), and within a plane, sector by sector.
 *
 * Return: the generic address of that sector.
 */
static inline struct ppa_addr nvm_blk_off_to_ppa(const struct nvm_geo *geo,
						 struct ppa_addr blk,
						 unsigned int off)
{
	struct ppa_addr p = blk;

	p.g.pg = off / geo->sec_per_pl;
	p.g.pl = (off / geo->sec_per_pg) % geo->nr_planes;
	p.g.sec = off % geo->sec_per_pg;
	return p;
}

/**
 * nvm_ppa_to_blk_off() - inverse of nvm_blk_off_to_ppa()
 * @geo: device geometry
 * @p: generic sector address
 *
 * Return: the sector offset of @p within its block.
 */
static inline unsigned int nvm_ppa_to_blk_off(const struct nvm_geo *geo,
					      struct ppa_addr p)
{
	return p.g.pg * geo->sec_per_pl + p.g.pl * geo->sec_per_pg + p.g.sec;
}

/* Registration of devices (drivers). */
struct nvm_dev *nvm_alloc_dev(int node);
int nvm_register(struct nvm_dev *dev);
void nvm_unregister(struct nvm_dev *dev);
void nvm_free_dev(struct nvm_dev *dev);

/* Registration of media managers and target types. */
int nvm_register_mm(struct nvm_mm_type *mt);
void nvm_unregister_mm(struct nvm_mm_type *mt);
int nvm_register_tgt_type(struct nvm_tgt_type *tt);
void nvm_unregister_tgt_type(struct nvm_tgt_type *tt);

/* Geometry. */
int nvm_validate_identity(const struct nvm_id *id, const char *name);
void nvm_geo_from_identity(const struct nvm_id *id, struct nvm_geo *geo);
void nvm_addrf20_from_lens(struct nvm_addrf20 *f, u8 grp_len, u8 pu_len,
			   u8 chk_len, u8 lbk_len);
u8 nvm_bb_fold_state(const u8 *planes, int nr_planes);
int nvm_bb_tbl_fold(u8 *blks, int nr_blks, int nr_planes);

/* Bad block tables (generic addresses). */
int nvm_get_bb_tbl(struct nvm_dev *dev, int ch, int lun, u8 *blks);
int nvm_set_bb_tbl(struct nvm_dev *dev, struct ppa_addr *ppas, int nr_ppas,
		   int type);

/* Chunk descriptors (2.0 devices; generic addresses). */
int nvm_get_chunk_meta(struct nvm_dev *dev, struct ppa_addr ppa, int nr_chks,
		       struct nvm_chk_meta *meta);
int nvm_check_chunk_meta(const struct nvm_geo *geo, u64 slba,
			 const struct nvm_chk_meta *m, const char *name);

/* Requests. */
int nvm_alloc_ppalist(struct nvm_dev *dev, struct nvm_rq *rqd, gfp_t gfp);
void nvm_free_ppalist(struct nvm_dev *dev, struct nvm_rq *rqd);
int nvm_alloc_meta(struct nvm_dev *dev, struct nvm_rq *rqd, gfp_t gfp);
void nvm_free_meta(struct nvm_dev *dev, struct nvm_rq *rqd);
int nvm_submit_io(struct nvm_dev *dev, struct nvm_rq *rqd);
int nvm_submit_io_sync(struct nvm_dev *dev, struct nvm_rq *rqd);
void nvm_end_io(struct nvm_rq *rqd);
int nvm_erase_ppa(struct nvm_dev *dev, struct ppa_addr ppa);
void *nvm_dev_dma_alloc(struct nvm_dev *dev, gfp_t gfp, dma_addr_t *dma);
void nvm_dev_dma_free(struct nvm_dev *dev, void *addr, dma_addr_t dma);

/* Media manager calls for targets. */
struct nvm_block *nvm_get_blk(struct nvm_dev *dev, struct nvm_lun *lun,
			      unsigned long flags);
struct nvm_block *nvm_claim_blk(struct nvm_dev *dev, struct nvm_lun *lun,
				unsigned int blkid, bool bad);
void nvm_put_blk(struct nvm_dev *dev, struct nvm_block *blk);
int nvm_erase_blk(struct nvm_dev *dev, struct nvm_block *blk);
void nvm_mark_blk(struct nvm_dev *dev, struct ppa_addr ppa, int type);
struct nvm_lun *nvm_get_lun(struct nvm_dev *dev, int lunid);
struct ppa_addr nvm_blk_to_ppa(struct nvm_dev *dev, struct nvm_block *blk);

/* user-space vector I/O (the NVMe driver's ioctls) */
bool nvm_ppa_lun_owned(struct nvm_dev *dev, struct ppa_addr ppa);
int nvm_user_write_begin(struct nvm_dev *dev, const struct ppa_addr *ppas,
			 int nr_ppas);
void nvm_user_write_end(struct nvm_dev *dev);
ssize_t nvm_sysfs_emit_mm(struct nvm_dev *dev, char *buf);

#endif /* _LINUX_LIGHTNVM_H */
