// SPDX-License-Identifier: GPL-2.0
/*
 * NVMe support for Open-Channel SSDs 1.2 (LightNVM).
 *
 * This file owns the open-channel namespaces of the NVMe host driver: it
 * recognises them (PCI vendor/device of an open-channel controller and
 * Identify Namespace vs[0] == 1), registers them with the LightNVM core
 * (their disks get no capacity), and implements &struct nvm_dev_ops with the
 * Open-Channel SSD 1.2 vendor commands: admin Identity (0xe2) with its
 * conversion to &struct nvm_id, Get/Set Bad Block Table (0xf2/0xf1), and
 * the vector erase, write and read I/O commands (0x90/0x91/0x92) with their
 * address lists and per-sector out-of-band metadata in DMA buffers.
 *
 * Physical commands reuse the generic layout of an NVMe command: the first
 * address or the bus address of the address list (spba) in dwords 10-11,
 * the 0-based address count in the low half of dword 12 and the control
 * flags in its high half, and the metadata pointer for the OOB bytes. The
 * completion's status is the Open-Channel status (e.g. 0x42ff for an empty
 * page) and its result dwords 0-1 a bitmap of the failed addresses.
 *
 * The namespace keeps its block device, without capacity, as in Linux
 * 4.11 and later: user space reaches the device through it with the
 * vector I/O ioctls (NVME_NVM_IOCTL_ADMIN_VIO, _SUBMIT_VIO, _IO_VIO,
 * checked here, with writes to the LUNs of targets refused) and reads
 * the geometry from its lightnvm/ sysfs group.
 *
 * The core may start I/O from any context (targets do from ->queue_rq), so
 * commands are queued without sleeping; one that would have to wait for a
 * request (all tags busy, or the queue frozen during a controller reset)
 * is handed to a work item instead of failing.
 */

#include <linux/capability.h>
#include <linux/nvme.h>
#include <linux/pagemap.h>
#include <linux/pci.h>
#include <linux/srcu.h>
#include <linux/uaccess.h>
#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/dmapool.h>
#include <linux/lightnvm.h>

#include "nvme.h"
#include "../../lightnvm/compat.h"

#define PCI_VENDOR_ID_CNEX		0x1d1d
#define PCI_DEVICE_ID_CNEX_QEMU		0x1f1f	/* the QEMU OCSSD emulation */
#define PCI_DEVICE_ID_CNEX_WL		0x2807	/* CNEX hardware */

#define NVME_NVM_ID_SIZE		4096
#define NVME_NVM_BIO_POOL		16

/* Admin opcodes of Open-Channel SSD 1.2 that this driver sends */
enum {
	NVM_ADMIN_IDENTITY	= 0xe2,
	NVM_ADMIN_GET_BB_TBL	= 0xf2,
	NVM_ADMIN_SET_BB_TBL	= 0xf1,
};

/* Open-Channel SSD 1.2 identity, as sent by the device */
struct nvme_nvm_addr_format {
	__u8	ch_offset;
	__u8	ch_len;
	__u8	lun_offset;
	__u8	lun_len;
	__u8	pln_offset;
	__u8	pln_len;
	__u8	blk_offset;
	__u8	blk_len;
	__u8	pg_offset;
	__u8	pg_len;
	__u8	sect_offset;
	__u8	sect_len;
	__u8	res[4];
} __packed;

struct nvme_nvm_id_group {
	__u8	mtype;
	__u8	fmtype;
	__le16	res16;
	__u8	num_ch;
	__u8	num_lun;
	__u8	num_pln;
	__u8	rsvd1;
	__le16	num_blk;
	__le16	num_pg;
	__le16	fpg_sz;
	__le16	csecs;
	__le16	sos;
	__le16	rsvd2;
	__le32	trdt;
	__le32	trdm;
	__le32	tprt;
	__le32	tprm;
	__le32	tbet;
	__le32	tbem;
	__le32	mpos;
	__le32	mccap;
	__le16	cpar;
	__u8	reserved[906];
} __packed;

struct nvme_nvm_id {
	__u8				ver_id;
	__u8				vmnt;
	__u8				cgrps;
	__u8				res;
	__le32				cap;
	__le32				dom;
	struct nvme_nvm_addr_format	ppaf;
	__u8				resv[228];
	struct nvme_nvm_id_group	groups[4];
} __packed;

/* Bad block table, as sent by the device: a header, then one byte per block and plane */
struct nvme_nvm_bb_tbl {
	__u8	tblid[4];
	__le16	verid;
	__le16	revid;
	__le32	rvsd1;
	__le32	tblks;
	__le32	tfact;
	__le32	tgrown;
	__le32	tdresv;
	__le32	thresv;
	__le32	rsvd2[8];
	__u8	blk[];
} __packed;

static_assert(sizeof(struct nvme_nvm_addr_format) == 16);
static_assert(sizeof(struct nvme_nvm_id_group) == 960);
static_assert(sizeof(struct nvme_nvm_id) == NVME_NVM_ID_SIZE);
static_assert(sizeof(struct nvme_nvm_bb_tbl) == 64);
static_assert(offsetof(struct nvm_addr_format, res) ==
	      offsetof(struct nvme_nvm_addr_format, res));
static_assert(offsetof(struct nvm_addr_format, sect_len) ==
	      offsetof(struct nvme_nvm_addr_format, sect_len));

/**
 * struct nvme_nvm - an open-channel namespace registered with LightNVM
 * @ns: the namespace; its request queue carries the I/O commands
 * @dev: the LightNVM device
 * @bs: clones of the core's bios, one per data command in flight
 * @lock: protects @deferred and @nr_deferred
 * @deferred: commands that could not be queued without sleeping, in
 *	submission order, for @work to queue
 * @nr_deferred: commands taken for deferral and not queued yet; while it
 *	is not zero, new commands queue up behind them. Written under @lock
 *	with WRITE_ONCE(): the fast path reads it without the lock
 * @work: queues the deferred commands, sleeping for a request if need be
 */
struct nvme_nvm {
	struct nvme_ns		*ns;
	struct nvm_dev		*dev;
	struct bio_set		bs;
	spinlock_t		lock;	/* protects deferred, nr_deferred */
	struct list_head	deferred;
	unsigned int		nr_deferred;
	struct work_struct	work;
};

/**
 * struct nvme_nvm_deferred - a command waiting for a request
 * @list: on &nvme_nvm.deferred
 * @rqd: the core's request
 * @cmd: the NVMe command built for it
 */
struct nvme_nvm_deferred {
	struct list_head	list;
	struct nvm_rq		*rqd;
	struct nvme_command	cmd;
};

static struct nvme_ns *nvme_nvm_ns(struct nvm_dev *dev)
{
	return ((struct nvme_nvm *)dev->private_data)->ns;
}

/* spba: one device address, or the bus address of a list of them */
static void nvme_nvm_set_spba(struct nvme_command *c, u64 spba)
{
	c->common.cdw10 = cpu_to_le32(lower_32_bits(spba));
	c->common.cdw11 = cpu_to_le32(upper_32_bits(spba));
}

/* dword 12: the 0-based address count, then the control flags */
#define NVME_NVM_CDW12_CONTROL_SHIFT	16

static void nvme_nvm_set_length(struct nvme_command *c, u16 nr_ppas,
				u16 control)
{
	c->common.cdw12 = cpu_to_le32((u32)(nr_ppas - 1) |
				      (u32)control << NVME_NVM_CDW12_CONTROL_SHIFT);
}

static void nvme_nvm_id_to_host(const struct nvme_nvm_id *src,
				struct nvm_id *dst)
{
	const struct nvme_nvm_id_group *s = &src->groups[0];
	struct nvm_id_group *d = &dst->groups[0];

	memset(dst, 0, sizeof(*dst));
	dst->ver_id = src->ver_id;
	dst->vmnt = src->vmnt;
	dst->cgrps = src->cgrps;
	dst->cap = le32_to_cpu(src->cap);
	dst->dom = le32_to_cpu(src->dom);

	/* byte for byte the same layout (asserted below) */
	memcpy(&dst->ppaf, &src->ppaf, offsetof(struct nvm_addr_format, res));

	/* only the first configuration group is supported (cgrps == 1) */
	d->mtype = s->mtype;
	d->fmtype = s->fmtype;
	d->num_ch = s->num_ch;
	d->num_lun = s->num_lun;
	d->num_pln = s->num_pln;
	d->num_blk = le16_to_cpu(s->num_blk);
	d->num_pg = le16_to_cpu(s->num_pg);
	d->fpg_sz = le16_to_cpu(s->fpg_sz);
	d->csecs = le16_to_cpu(s->csecs);
	d->sos = le16_to_cpu(s->sos);
	d->trdt = le32_to_cpu(s->trdt);
	d->trdm = le32_to_cpu(s->trdm);
	d->tprt = le32_to_cpu(s->tprt);
	d->tprm = le32_to_cpu(s->tprm);
	d->tbet = le32_to_cpu(s->tbet);
	d->tbem = le32_to_cpu(s->tbem);
	d->mpos = le32_to_cpu(s->mpos);
	d->mccap = le32_to_cpu(s->mccap);
	d->cpar = le16_to_cpu(s->cpar);
}

/*
 * What this driver (not the core) needs: a full vector command of data must
 * fit the controller's transfer limit.
 */
static int nvme_nvm_check_limits(struct nvm_dev *dev, const struct nvm_id *id)
{
	struct nvme_ns *ns = nvme_nvm_ns(dev);
	const struct nvm_id_group *grp = &id->groups[0];
	u64 max_bytes = (u64)queue_max_hw_sectors(ns->queue) << SECTOR_SHIFT;
	u64 data = (u64)NVM_MAX_VLBA * grp->csecs;

	if (data > max_bytes) {
		dev_err(ns->ctrl->device,
			"%s: %u sectors of csecs %u bytes exceed the controller's transfer limit of %llu bytes (mdts)\n",
			dev->name, NVM_MAX_VLBA, grp->csecs, max_bytes);
		return -EINVAL;
	}
	return 0;
}

/* Log a failed admin command; turn an NVMe status into an errno. */
static int nvme_nvm_admin_result(struct nvm_dev *dev, const char *what,
				 int ret)
{
	struct nvme_ns *ns = nvme_nvm_ns(dev);

	if (!ret)
		return 0;
	if (ret > 0) {
		dev_err(ns->ctrl->device, "%s: %s failed: NVMe status 0x%x\n",
			dev->name, what, ret);
		return -EIO;
	}
	dev_err(ns->ctrl->device, "%s: %s failed: %d\n", dev->name, what, ret);
	return ret;
}

static int nvme_nvm_identity(struct nvm_dev *dev, struct nvm_id *id)
{
	struct nvme_ns *ns = nvme_nvm_ns(dev);
	struct nvme_nvm_id *nvme_id;
	struct nvme_command c = { };
	int ret;

	nvme_id = kzalloc(sizeof(*nvme_id), GFP_KERNEL);
	if (!nvme_id)
		return -ENOMEM;

	c.common.opcode = NVM_ADMIN_IDENTITY;
	c.common.nsid = cpu_to_le32(ns->head->ns_id);

	ret = nvme_submit_sync_cmd(ns->ctrl->admin_q, &c, nvme_id,
				   sizeof(*nvme_id));
	ret = nvme_nvm_admin_result(dev, "identity (0xe2)", ret);
	if (ret)
		goto out;

	nvme_nvm_id_to_host(nvme_id, id);
	ret = nvme_nvm_check_limits(dev, id);
out:
	kfree(nvme_id);
	return ret;
}

static int nvme_nvm_get_bb_tbl(struct nvm_dev *dev, struct ppa_addr ppa,
			       u8 *blks)
{
	struct nvme_ns *ns = nvme_nvm_ns(dev);
	u32 nr_blks = dev->geo.blks_per_lun * dev->geo.nr_planes;
	size_t len = sizeof(struct nvme_nvm_bb_tbl) + nr_blks;
	struct nvme_nvm_bb_tbl *tbl;
	struct nvme_command c = { };
	int ret;

	tbl = kzalloc(len, GFP_KERNEL);
	if (!tbl)
		return -ENOMEM;

	c.common.opcode = NVM_ADMIN_GET_BB_TBL;
	c.common.nsid = cpu_to_le32(ns->head->ns_id);
	nvme_nvm_set_spba(&c, ppa.ppa);

	ret = nvme_submit_sync_cmd(ns->ctrl->admin_q, &c, tbl, len);
	ret = nvme_nvm_admin_result(dev, "get bad block table (0xf2)", ret);
	if (ret)
		goto out;

	ret = -EINVAL;
	if (memcmp(tbl->tblid, "BBLT", 4)) {
		dev_err(ns->ctrl->device,
			"%s: bad block table: tblid is %*phN, not \"BBLT\"\n",
			dev->name, 4, tbl->tblid);
		goto out;
	}
	if (le16_to_cpu(tbl->verid) != 1) {
		dev_err(ns->ctrl->device,
			"%s: bad block table: verid %u not supported (need 1)\n",
			dev->name, le16_to_cpu(tbl->verid));
		goto out;
	}
	if (le32_to_cpu(tbl->tblks) != nr_blks) {
		dev_err(ns->ctrl->device,
			"%s: bad block table: tblks %u, expected %u (blocks x planes)\n",
			dev->name, le32_to_cpu(tbl->tblks), nr_blks);
		goto out;
	}

	memcpy(blks, tbl->blk, nr_blks);
	ret = 0;
out:
	kfree(tbl);
	return ret;
}

static int nvme_nvm_set_bb_tbl(struct nvm_dev *dev, struct ppa_addr *ppas,
			       int nr_ppas, int type)
{
	struct nvme_ns *ns = nvme_nvm_ns(dev);
	size_t list_size = NVM_MAX_VLBA * sizeof(__le64);
	struct nvme_command c = { };
	__le64 *list = NULL;
	dma_addr_t dma = 0;
	int done, n, i, ret = 0;

	if (WARN_ON_ONCE(nr_ppas < 1))
		return -EINVAL;

	if (nr_ppas > 1) {
		list = dma_alloc_coherent(ns->ctrl->dev, list_size, &dma,
					  GFP_KERNEL);
		if (!list)
			return -ENOMEM;
	}

	for (done = 0; done < nr_ppas; done += n) {
		n = min(nr_ppas - done, NVM_MAX_VLBA);

		memset(&c, 0, sizeof(c));
		c.common.opcode = NVM_ADMIN_SET_BB_TBL;
		c.common.nsid = cpu_to_le32(ns->head->ns_id);
		if (n == 1) {
			nvme_nvm_set_spba(&c, ppas[done].ppa);
		} else {
			for (i = 0; i < n; i++)
				list[i] = cpu_to_le64(ppas[done + i].ppa);
			nvme_nvm_set_spba(&c, dma);
		}
		/* the new entry value takes the place of the control flags */
		nvme_nvm_set_length(&c, n, (u8)type);

		ret = nvme_submit_sync_cmd(ns->ctrl->admin_q, &c, NULL, 0);
		ret = nvme_nvm_admin_result(dev, "set bad block table (0xf1)",
					    ret);
		if (ret)
			break;
	}

	if (list)
		dma_free_coherent(ns->ctrl->dev, list_size, list, dma);
	return ret;
}

static void nvme_nvm_bio_end(struct bio *bio)
{
	bio_put(bio);
}

static enum rq_end_io_ret nvme_nvm_end_io(struct request *rq, blk_status_t err)
{
	struct nvm_rq *rqd = rq->end_io_data;
	u16 status = nvme_req(rq)->status;

	/* a failure on the host side (no controller status) */
	if (!status && err)
		status = NVME_SC_HOST_PATH_ERROR;

	rqd->error = status;
	rqd->ppa_status = 0;
	if (status) {
		rqd->ppa_status = le64_to_cpu(nvme_req(rq)->result.u64);
		if (!rqd->ppa_status)
			rqd->ppa_status = GENMASK_ULL(rqd->nr_ppas - 1, 0);
	}

	nvm_end_io(rqd);
	return RQ_END_IO_FREE;
}

/*
 * Does the data of a vector command fit the queue's limits? blk-mq checks
 * them when it merges bios, not for the first bio of a passthrough request,
 * so a command built from a large or scattered bio would reach the driver
 * with more segments than it can map. Each bvec counts as the segments
 * that mapping splits it into (merging bvecs could only lower the count).
 * Return: NULL, or the limit the bio exceeds.
 */
static const char *nvme_nvm_bio_unfit(struct request_queue *q,
				      struct bio *bio)
{
	unsigned long boundary = queue_virt_boundary(q);
	unsigned int nr_segs = 0;
	struct bvec_iter iter;
	struct bio_vec bv;
	bool first = true, gap = false;

	if (bio->bi_iter.bi_size > queue_max_hw_sectors(q) << SECTOR_SHIFT)
		return "max_hw_sectors";
	bio_for_each_bvec(bv, bio, iter) {
		/* only the first may start, only the last end, off a boundary */
		if (gap || (!first && (bv.bv_offset & boundary)))
			return "virt_boundary";
		gap = (bv.bv_offset + bv.bv_len) & boundary;
		first = false;
		nr_segs += DIV_ROUND_UP(bv.bv_len, queue_max_segment_size(q));
	}
	if (nr_segs > queue_max_segments(q))
		return "max_segments";
	return NULL;
}

/*
 * Queue a physical command on the namespace's queue; without sleeping
 * unless @may_sleep.
 */
static int nvme_nvm_issue(struct nvme_nvm *nvm, struct nvm_rq *rqd,
			  struct nvme_command *c, bool may_sleep)
{
	struct blk_plug *plug;
	struct request *rq;
	struct bio *bio;
	int ret;

	rq = blk_mq_alloc_request(nvm->ns->queue, nvme_req_op(c),
				  may_sleep ? 0 : BLK_MQ_REQ_NOWAIT);
	if (IS_ERR(rq))
		return PTR_ERR(rq);
	nvme_init_request(rq, c);

	if (rqd->bio) {
		const char *unfit = nvme_nvm_bio_unfit(rq->q, rqd->bio);

		if (unfit) {
			dev_err_ratelimited(nvm->ns->ctrl->device,
					    "%s: command 0x%02x: %u bytes of data exceed the queue's %s\n",
					    nvm->dev->name, c->common.opcode,
					    rqd->bio->bi_iter.bi_size, unfit);
			ret = -EINVAL;
			goto err_free_rq;
		}
		/* a clone, so that completion leaves the core's bio alone */
		bio = bio_alloc_clone(NULL, rqd->bio,
				      may_sleep ? GFP_NOIO : GFP_ATOMIC, &nvm->bs);
		if (!bio) {
			ret = -ENOMEM;
			goto err_free_rq;
		}
		bio->bi_end_io = nvme_nvm_bio_end;
		ret = blk_rq_append_bio(rq, bio);
		if (ret) {
			bio_put(bio);
			goto err_free_rq;
		}
	}

	rq->end_io = nvme_nvm_end_io;
	rq->end_io_data = rqd;
	/*
	 * Not onto the task's plug: a target submits from its own
	 * ->queue_rq, which blk-mq may be running from that very plug's
	 * flush (blk_mq_flush_plug_list() clears the plug's count and pops
	 * its list as it goes), and a command added there then corrupts the
	 * list (ext4 readahead on rrpc: a NULL dereference in
	 * blk_add_rq_to_plug()). Without a plug the command is queued and
	 * the hardware queue run at once. (6.9 and later: the plug's cached
	 * time goes with it, see nvm_plug_detach().)
	 */
	plug = nvm_plug_detach();
	blk_execute_rq_nowait(rq, false);
	nvm_plug_attach(plug);
	return 0;

err_free_rq:
	blk_mq_free_request(rq);
	return ret;
}

/* Complete a command that never reached the device. */
static void nvme_nvm_fail(struct nvm_rq *rqd)
{
	rqd->error = NVME_SC_HOST_PATH_ERROR;
	rqd->ppa_status = GENMASK_ULL(rqd->nr_ppas - 1, 0);
	nvm_end_io(rqd);
}

static void nvme_nvm_deferred_work(struct work_struct *work)
{
	struct nvme_nvm *nvm = container_of(work, struct nvme_nvm, work);
	struct nvme_nvm_deferred *d;
	unsigned long flags;
	int ret;

	for (;;) {
		spin_lock_irqsave(&nvm->lock, flags);
		d = list_first_entry_or_null(&nvm->deferred,
					     struct nvme_nvm_deferred, list);
		if (d)
			list_del(&d->list);
		spin_unlock_irqrestore(&nvm->lock, flags);
		if (!d)
			return;

		ret = nvme_nvm_issue(nvm, d->rqd, &d->cmd, true);
		if (ret) {
			dev_err_ratelimited(nvm->ns->ctrl->device,
					    "%s: could not queue command 0x%02x: %d\n",
					    nvm->dev->name, d->cmd.common.opcode, ret);
			nvme_nvm_fail(d->rqd);
		}

		spin_lock_irqsave(&nvm->lock, flags);
		WRITE_ONCE(nvm->nr_deferred, nvm->nr_deferred - 1);
		spin_unlock_irqrestore(&nvm->lock, flags);
		kfree(d);
	}
}

/*
 * Start a physical command from any context. The fast path queues it at
 * once; when that would need to sleep (no free request, the queue frozen
 * for a reset or rescan, interrupts disabled) or earlier commands are
 * still deferred, it is handed to a work item, which keeps the order.
 */
static int nvme_nvm_submit_cmd(struct nvm_dev *dev, struct nvm_rq *rqd,
			       struct nvme_command *c)
{
	struct nvme_nvm *nvm = dev->private_data;
	struct nvme_nvm_deferred *d;
	unsigned long flags;
	int ret;

	if (!irqs_disabled() && !READ_ONCE(nvm->nr_deferred)) {
		ret = nvme_nvm_issue(nvm, rqd, c, false);
		/* a command the queue can never take is refused, not deferred */
		if (!ret || ret == -ENODEV || ret == -EINVAL)
			return ret;
	}

	d = kmalloc(sizeof(*d), GFP_ATOMIC);
	if (!d)
		return -ENOMEM;
	d->rqd = rqd;
	d->cmd = *c;

	spin_lock_irqsave(&nvm->lock, flags);
	list_add_tail(&d->list, &nvm->deferred);
	WRITE_ONCE(nvm->nr_deferred, nvm->nr_deferred + 1);
	spin_unlock_irqrestore(&nvm->lock, flags);
	queue_work(nvme_wq, &nvm->work);
	return 0;
}

static bool nvme_nvm_rqd_ok(struct nvm_dev *dev, struct nvm_rq *rqd,
			    bool data)
{
	if (WARN_ON_ONCE(rqd->nr_ppas < 1 || rqd->nr_ppas > NVM_MAX_VLBA))
		return false;
	if (!data)
		return true;
	if (WARN_ON_ONCE(!rqd->bio ||
			 rqd->bio->bi_iter.bi_size !=
			 rqd->nr_ppas * dev->geo.sec_size))
		return false;
	return true;
}

static u64 nvme_nvm_spba(struct nvm_rq *rqd)
{
	return rqd->nr_ppas > 1 ? rqd->dma_ppa_list : rqd->ppa_addr.ppa;
}

static int nvme_nvm_submit_io(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	struct nvme_ns *ns = nvme_nvm_ns(dev);
	struct nvme_command c = { };

	if (WARN_ON_ONCE(rqd->opcode != NVM_OP_PREAD &&
			 rqd->opcode != NVM_OP_PWRITE))
		return -EINVAL;
	if (!nvme_nvm_rqd_ok(dev, rqd, true))
		return -EINVAL;

	c.common.opcode = rqd->opcode;
	c.common.nsid = cpu_to_le32(ns->head->ns_id);
	if (rqd->meta_list)
		c.common.metadata = cpu_to_le64(rqd->dma_meta_list);
	nvme_nvm_set_spba(&c, nvme_nvm_spba(rqd));
	nvme_nvm_set_length(&c, rqd->nr_ppas, rqd->flags);

	return nvme_nvm_submit_cmd(dev, rqd, &c);
}

static int nvme_nvm_erase_block(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	struct nvme_ns *ns = nvme_nvm_ns(dev);
	struct nvme_command c = { };

	if (WARN_ON_ONCE(rqd->opcode != NVM_OP_ERASE || rqd->bio))
		return -EINVAL;
	if (!nvme_nvm_rqd_ok(dev, rqd, false))
		return -EINVAL;

	c.common.opcode = NVM_OP_ERASE;
	c.common.nsid = cpu_to_le32(ns->head->ns_id);
	nvme_nvm_set_spba(&c, nvme_nvm_spba(rqd));
	nvme_nvm_set_length(&c, rqd->nr_ppas, rqd->flags);

	return nvme_nvm_submit_cmd(dev, rqd, &c);
}

static void *nvme_nvm_create_dma_pool(struct nvm_dev *dev, const char *name,
				      size_t size)
{
	return dma_pool_create(name, nvme_nvm_ns(dev)->ctrl->dev, size,
			       PAGE_SIZE, 0);
}

static void nvme_nvm_destroy_dma_pool(void *pool)
{
	dma_pool_destroy(pool);
}

static void *nvme_nvm_dev_dma_alloc(struct nvm_dev *dev, void *pool,
				    gfp_t gfp, dma_addr_t *dma)
{
	return dma_pool_alloc(pool, gfp, dma);
}

static void nvme_nvm_dev_dma_free(void *pool, void *vaddr, dma_addr_t dma)
{
	dma_pool_free(pool, vaddr, dma);
}

static const struct nvm_dev_ops nvme_nvm_dev_ops = {
	.identity		= nvme_nvm_identity,
	.get_bb_tbl		= nvme_nvm_get_bb_tbl,
	.set_bb_tbl		= nvme_nvm_set_bb_tbl,
	.submit_io		= nvme_nvm_submit_io,
	.erase_block		= nvme_nvm_erase_block,
	.create_dma_pool	= nvme_nvm_create_dma_pool,
	.destroy_dma_pool	= nvme_nvm_destroy_dma_pool,
	.dev_dma_alloc		= nvme_nvm_dev_dma_alloc,
	.dev_dma_free		= nvme_nvm_dev_dma_free,
	.max_phys_sect		= NVM_MAX_VLBA,
};

/* ---------------------------------------------- user-space vector I/O */

/*
 * ns->ndev is set when the namespace is registered and cleared when it
 * is unregistered; the ioctls and the lightnvm/ sysfs group (both reach
 * the namespace through its disk, which outlives the registration) use
 * the device inside an SRCU read section, which the unregistration waits
 * for before the device goes away.
 */
DEFINE_STATIC_SRCU(nvme_nvm_srcu);

/* the control bits a vector command may carry */
#define NVME_NVM_VIO_CONTROL	(NVM_IO_ACCESS_MASK | NVM_IO_SUSPEND | \
				 NVM_IO_SLC_MODE | NVM_IO_SCRAMBLE_DISABLE)

/**
 * struct nvme_nvm_vcmd - a user-space vector command, from either structure
 * @admin: for the admin queue (NVME_NVM_IOCTL_ADMIN_VIO)
 * @opcode: the command's opcode
 * @nsid: 0 or the namespace's id
 * @cdw2: command dword 2
 * @cdw3: command dword 3
 * @nppas: number of addresses minus one
 * @control: command dword 12's high half
 * @cdw13: command dword 13
 * @cdw14: command dword 14
 * @cdw15: command dword 15
 * @ppa_list: the address, or a user pointer to nppas + 1 of them
 * @addr: user pointer to the data
 * @data_len: bytes of data
 * @metadata: user pointer to the OOB bytes
 * @metadata_len: bytes of OOB
 * @timeout_ms: 0 for the queue's default
 * @status: out: the completion bitmap (result dwords 0-1)
 * @result: out: the NVMe status
 */
struct nvme_nvm_vcmd {
	bool	admin;
	u8	opcode;
	u32	nsid;
	u32	cdw2;
	u32	cdw3;
	u16	nppas;
	u16	control;
	u32	cdw13;
	u32	cdw14;
	u32	cdw15;
	u64	ppa_list;
	u64	addr;
	u32	data_len;
	u64	metadata;
	u32	metadata_len;
	u32	timeout_ms;
	u64	status;
	u32	result;
};

#define nvme_nvm_vio_err(dev, fmt, ...)					\
	pr_err_ratelimited("%s: vector ioctl: " fmt "\n", (dev)->name,	\
			   ##__VA_ARGS__)

/* The control bits an opcode takes; Set Bad Block Table: the new state. */
static u16 nvme_nvm_vio_control(const struct nvme_nvm_vcmd *v)
{
	if (!v->admin)
		return NVME_NVM_VIO_CONTROL;
	return v->opcode == NVM_VIO_OP_SET_BB_TBL ? U8_MAX : 0;
}

/* An exact length: @len must be @want (both in bytes). */
static int nvme_nvm_vio_len(struct nvm_dev *dev, const char *field, u32 len,
			    u64 want)
{
	if (len == want)
		return 0;
	nvme_nvm_vio_err(dev, "%s %u, expected %llu for opcode and nppas",
			 field, len, want);
	return -EINVAL;
}

/* A user pointer is given exactly when its length is not zero. */
static int nvme_nvm_vio_ptr(struct nvm_dev *dev, const char *field, u64 ptr,
			    u32 len)
{
	if (!ptr == !len)
		return 0;
	nvme_nvm_vio_err(dev, "%s is %s but its length is %u", field,
			 ptr ? "set" : "NULL", len);
	return -EINVAL;
}

/*
 * Check a command against the opcode's rules. Sets *@addrs to whether
 * the command carries addresses in dwords 10-11 and *@modifies to
 * whether it writes or erases the media or changes the bad block table.
 */
static int nvme_nvm_vcmd_check(struct nvme_ns *ns, struct nvm_dev *dev,
			       const struct nvme_nvm_vcmd *v, bool *addrs,
			       bool *modifies)
{
	const struct nvm_geo *geo = &dev->geo;
	u32 nr = (u32)v->nppas + 1;
	u64 data = 0, meta = 0;
	bool meta_ok = false;
	int ret;

	if (v->nsid && v->nsid != ns->head->ns_id) {
		nvme_nvm_vio_err(dev, "nsid %u is not this namespace's (%u)",
				 v->nsid, ns->head->ns_id);
		return -EINVAL;
	}
	*addrs = true;
	*modifies = false;
	switch (v->admin ? v->opcode | 0x100 : v->opcode) {
	case 0x100 | NVM_VIO_OP_IDENTITY:
		*addrs = false;
		data = NVME_NVM_ID_SIZE;
		break;
	case 0x100 | NVM_VIO_OP_GET_BB_TBL:
		data = sizeof(struct nvme_nvm_bb_tbl) +
		       (u64)geo->blks_per_lun * geo->nr_planes;
		break;
	case 0x100 | NVM_VIO_OP_SET_BB_TBL:
		*modifies = true;
		break;
	case NVM_VIO_OP_ERASE:
		*modifies = true;
		break;
	case NVM_VIO_OP_WRITE:
		*modifies = true;
		fallthrough;
	case NVM_VIO_OP_READ:
		data = (u64)nr * geo->sec_size;
		meta = (u64)nr * geo->oob_size;
		meta_ok = true;
		break;
	default:
		nvme_nvm_vio_err(dev, "opcode 0x%02x: not an Open-Channel %s command",
				 v->opcode, v->admin ? "admin" : "vector I/O");
		return -EINVAL;
	}

	if (!*addrs && (v->nppas || v->ppa_list)) {
		nvme_nvm_vio_err(dev, "nppas %u and ppa_list must be 0 for opcode 0x%02x",
				 v->nppas, v->opcode);
		return -EINVAL;
	}
	if (nr > dev->ops->max_phys_sect ||
	    (v->opcode == NVM_VIO_OP_GET_BB_TBL && v->nppas)) {
		nvme_nvm_vio_err(dev, "nppas %u out of range (0..%u)", v->nppas,
				 v->opcode == NVM_VIO_OP_GET_BB_TBL ? 0 :
				 dev->ops->max_phys_sect - 1);
		return -EINVAL;
	}
	if (v->control & ~nvme_nvm_vio_control(v)) {
		nvme_nvm_vio_err(dev, "control 0x%x has bits opcode 0x%02x does not take",
				 v->control, v->opcode);
		return -EINVAL;
	}

	ret = nvme_nvm_vio_len(dev, "data_len", v->data_len, data);
	if (ret)
		return ret;
	ret = nvme_nvm_vio_ptr(dev, "addr", v->addr, v->data_len);
	if (ret)
		return ret;
	if (v->metadata_len || !meta_ok) {
		ret = nvme_nvm_vio_len(dev, "metadata_len", v->metadata_len,
				       meta_ok ? meta : 0);
		if (ret)
			return ret;
	}
	return nvme_nvm_vio_ptr(dev, "metadata", v->metadata, v->metadata_len);
}

/*
 * Read the command's addresses from user space into @ppas (device
 * format), once; check that their channel and LUN exist.
 */
static int nvme_nvm_vcmd_ppas(struct nvm_dev *dev,
			      const struct nvme_nvm_vcmd *v, u64 *ppas,
			      struct ppa_addr *gen)
{
	u32 i, nr = (u32)v->nppas + 1;

	if (nr == 1) {
		ppas[0] = v->ppa_list;
	} else if (copy_from_user(ppas, u64_to_user_ptr(v->ppa_list),
				  nr * sizeof(*ppas))) {
		nvme_nvm_vio_err(dev, "ppa_list 0x%llx: %u addresses not readable",
				 v->ppa_list, nr);
		return -EFAULT;
	}

	for (i = 0; i < nr; i++) {
		struct ppa_addr p = { .ppa = ppas[i] };

		gen[i] = nvm_dev_to_generic(&dev->ppaf, p);
		if (gen[i].g.ch >= dev->geo.nr_chnls ||
		    gen[i].g.lun >= dev->geo.luns_per_chnl) {
			nvme_nvm_vio_err(dev, "ppa_list[%u] 0x%llx: channel %u LUN %u out of range",
					 i, ppas[i], (unsigned int)gen[i].g.ch,
					 (unsigned int)gen[i].g.lun);
			return -EINVAL;
		}
	}
	return 0;
}

/* Send the checked command; wait for it. */
static int nvme_nvm_vcmd_exec(struct nvme_ns *ns, struct nvme_nvm_vcmd *v,
			      dma_addr_t list_dma, dma_addr_t meta_dma)
{
	struct request_queue *q = v->admin ? ns->ctrl->admin_q : ns->queue;
	struct nvme_command c = { };
	struct bio *bio = NULL;
	struct request *rq;
	blk_status_t err;
	int ret;

	c.common.opcode = v->opcode;
	c.common.nsid = cpu_to_le32(ns->head->ns_id);
	c.common.cdw2[0] = cpu_to_le32(v->cdw2);
	c.common.cdw2[1] = cpu_to_le32(v->cdw3);
	if (v->metadata_len)
		c.common.metadata = cpu_to_le64(meta_dma);
	nvme_nvm_set_spba(&c, v->nppas ? list_dma : v->ppa_list);
	c.common.cdw12 = cpu_to_le32((u32)v->nppas |
				     (u32)v->control << NVME_NVM_CDW12_CONTROL_SHIFT);
	c.common.cdw13 = cpu_to_le32(v->cdw13);
	c.common.cdw14 = cpu_to_le32(v->cdw14);
	c.common.cdw15 = cpu_to_le32(v->cdw15);

	rq = blk_mq_alloc_request(q, nvme_req_op(&c), 0);
	if (IS_ERR(rq))
		return PTR_ERR(rq);
	nvme_init_request(rq, &c);
	if (v->timeout_ms)
		rq->timeout = msecs_to_jiffies(v->timeout_ms);

	if (v->data_len) {
		ret = blk_rq_map_user(q, rq, NULL, u64_to_user_ptr(v->addr),
				      v->data_len, GFP_KERNEL);
		if (ret)
			goto out_free_rq;
		bio = rq->bio;
	}

	err = blk_execute_rq(rq, false);
	v->result = nvme_req(rq)->status;
	v->status = le64_to_cpu(nvme_req(rq)->result.u64);
	if (nvme_req(rq)->flags & NVME_REQ_CANCELLED)
		ret = -EINTR;
	else if (v->result)
		ret = v->result;
	else
		ret = blk_status_to_errno(err);

	if (bio && blk_rq_unmap_user(bio) && !ret)
		ret = -EFAULT;
out_free_rq:
	blk_mq_free_request(rq);
	return ret;
}

/*
 * Check, then run, a user-space vector command: addresses and OOB bytes
 * go through DMA buffers of their own, the data straight from and to the
 * user's pages (or a bounce buffer, as for NVMe passthrough).
 */
static int nvme_nvm_vcmd(struct nvme_ns *ns, struct nvm_dev *dev,
			 struct nvme_nvm_vcmd *v)
{
	struct device *dma_dev = ns->ctrl->dev;
	u32 nr = (u32)v->nppas + 1;
	dma_addr_t list_dma = 0, meta_dma = 0;
	struct ppa_addr *gen = NULL;
	u64 *list = NULL, *ppas;
	void *meta = NULL;
	bool addrs, modifies;
	int ret;

	ret = nvme_nvm_vcmd_check(ns, dev, v, &addrs, &modifies);
	if (ret)
		return ret;

	ppas = kcalloc(nr, sizeof(*ppas), GFP_KERNEL);
	if (!ppas)
		return -ENOMEM;
	gen = kcalloc(nr, sizeof(*gen), GFP_KERNEL);
	if (!gen) {
		ret = -ENOMEM;
		goto out_free_ppas;
	}
	if (addrs) {
		ret = nvme_nvm_vcmd_ppas(dev, v, ppas, gen);
		if (ret)
			goto out_free_gen;
	}

	if (nr > 1) {
		list = dma_alloc_coherent(dma_dev, nr * sizeof(*list),
					  &list_dma, GFP_KERNEL);
		if (!list) {
			ret = -ENOMEM;
			goto out_free_gen;
		}
		memcpy(list, ppas, nr * sizeof(*list));
	}
	if (v->metadata_len) {
		meta = dma_alloc_coherent(dma_dev, v->metadata_len, &meta_dma,
					  GFP_KERNEL);
		if (!meta) {
			ret = -ENOMEM;
			goto out_free_list;
		}
		if (v->opcode == NVM_VIO_OP_WRITE &&
		    copy_from_user(meta, u64_to_user_ptr(v->metadata),
				   v->metadata_len)) {
			nvme_nvm_vio_err(dev, "metadata 0x%llx: %u bytes not readable",
					 v->metadata, v->metadata_len);
			ret = -EFAULT;
			goto out_free_meta;
		}
	}

	/*
	 * The data buffer must be all there before it is mapped: refused
	 * here, a buffer with an inaccessible page fails cleanly. (Linux
	 * 6.12's iov_iter_extract_pages() leaks the page array it allocated
	 * when pinning fails part way, and bio_map_user_iov() does not free
	 * it: every such call would leak. A buffer unmapped after this check
	 * can still reach that path.) Opcode bit 0: host to device.
	 */
	if (v->data_len &&
	    ((v->opcode & 1) ?
	     fault_in_readable(u64_to_user_ptr(v->addr), v->data_len) :
	     fault_in_safe_writeable(u64_to_user_ptr(v->addr), v->data_len))) {
		nvme_nvm_vio_err(dev, "data 0x%llx: %u bytes not %s", v->addr,
				 v->data_len,
				 (v->opcode & 1) ? "readable" : "writable");
		ret = -EFAULT;
		goto out_free_meta;
	}

	/* a LUN a target owns is read only for user space */
	if (modifies) {
		ret = nvm_user_write_begin(dev, gen, nr);
		if (ret)
			goto out_free_meta;
	}

	ret = nvme_nvm_vcmd_exec(ns, v, list_dma, meta_dma);
	if (ret >= 0 && meta && v->opcode == NVM_VIO_OP_READ &&
	    copy_to_user(u64_to_user_ptr(v->metadata), meta, v->metadata_len))
		ret = -EFAULT;

	if (modifies)
		nvm_user_write_end(dev);
out_free_meta:
	if (meta)
		dma_free_coherent(dma_dev, v->metadata_len, meta, meta_dma);
out_free_list:
	if (list)
		dma_free_coherent(dma_dev, nr * sizeof(*list), list, list_dma);
out_free_gen:
	kfree(gen);
out_free_ppas:
	kfree(ppas);
	return ret;
}

static int nvme_nvm_submit_vio(struct nvme_ns *ns, struct nvm_dev *dev,
			       struct nvm_user_vio __user *uvio)
{
	struct nvme_nvm_vcmd v = { };
	struct nvm_user_vio vio;
	int ret;

	if (copy_from_user(&vio, uvio, sizeof(vio)))
		return -EFAULT;
	if (vio.flags) {
		nvme_nvm_vio_err(dev, "flags 0x%x: none are defined", vio.flags);
		return -EINVAL;
	}
	if (vio.rsvd || memchr_inv(vio.rsvd3, 0, sizeof(vio.rsvd3))) {
		nvme_nvm_vio_err(dev, "rsvd and rsvd3 must be zero");
		return -EINVAL;
	}
	if (vio.opcode != NVM_VIO_OP_ERASE && vio.opcode != NVM_VIO_OP_WRITE &&
	    vio.opcode != NVM_VIO_OP_READ) {
		nvme_nvm_vio_err(dev, "opcode 0x%02x is not a vector erase, write or read",
				 vio.opcode);
		return -EINVAL;
	}

	v.opcode = vio.opcode;
	v.control = vio.control;
	v.nppas = vio.nppas;
	v.ppa_list = vio.ppa_list;
	v.addr = vio.addr;
	v.data_len = vio.data_len;
	v.metadata = vio.metadata;
	v.metadata_len = vio.metadata_len;

	ret = nvme_nvm_vcmd(ns, dev, &v);
	if (ret < 0 && ret != -EINTR)
		return ret;
	if (put_user(v.status, &uvio->status) ||
	    put_user(v.result, &uvio->result))
		return -EFAULT;
	return ret;
}

static int nvme_nvm_passthru_vio(struct nvme_ns *ns, struct nvm_dev *dev,
				 struct nvm_passthru_vio __user *uvio,
				 bool admin)
{
	struct nvme_nvm_vcmd v = { .admin = admin };
	struct nvm_passthru_vio vio;
	int ret;

	if (copy_from_user(&vio, uvio, sizeof(vio)))
		return -EFAULT;
	if (vio.flags) {
		nvme_nvm_vio_err(dev, "flags 0x%x: none are defined", vio.flags);
		return -EINVAL;
	}
	if (vio.rsvd[0] || vio.rsvd[1]) {
		nvme_nvm_vio_err(dev, "rsvd must be zero");
		return -EINVAL;
	}

	v.opcode = vio.opcode;
	v.nsid = vio.nsid;
	v.cdw2 = vio.cdw2;
	v.cdw3 = vio.cdw3;
	v.nppas = vio.nppas;
	v.control = vio.control;
	v.cdw13 = vio.cdw13;
	v.cdw14 = vio.cdw14;
	v.cdw15 = vio.cdw15;
	v.ppa_list = vio.ppa_list;
	v.addr = vio.addr;
	v.data_len = vio.data_len;
	v.metadata = vio.metadata;
	v.metadata_len = vio.metadata_len;
	v.timeout_ms = vio.timeout_ms;

	ret = nvme_nvm_vcmd(ns, dev, &v);
	if (ret < 0 && ret != -EINTR)
		return ret;
	if (put_user(v.status, &uvio->status) ||
	    put_user(v.result, &uvio->result))
		return -EFAULT;
	return ret;
}

/**
 * nvme_nvm_ioctl() - the LightNVM ioctls of a namespace's block device
 * @ns: the namespace
 * @cmd: %NVME_NVM_IOCTL_ADMIN_VIO, %NVME_NVM_IOCTL_SUBMIT_VIO or
 *	%NVME_NVM_IOCTL_IO_VIO
 * @argp: the user's structure
 *
 * Runs one Open-Channel command from user space and waits for it.
 * Every field is checked first (-EINVAL with the field named in the
 * log); a write, erase or bad block table change of a LUN that a target
 * owns is refused with -EBUSY (reads are allowed).
 *
 * Context: process; sleeps.
 * Return: the NVMe status of the completed command (0 for success; the
 * status and completion bitmap are also copied out), -ENOTTY for another
 * ioctl or a namespace not registered with LightNVM, -EPERM without
 * CAP_SYS_ADMIN, or another negative errno.
 */
int nvme_nvm_ioctl(struct nvme_ns *ns, unsigned int cmd, void __user *argp)
{
	struct nvm_dev *dev;
	int idx, ret;

	if (cmd != NVME_NVM_IOCTL_ADMIN_VIO && cmd != NVME_NVM_IOCTL_IO_VIO &&
	    cmd != NVME_NVM_IOCTL_SUBMIT_VIO)
		return -ENOTTY;

	idx = srcu_read_lock(&nvme_nvm_srcu);
	dev = READ_ONCE(ns->ndev);
	if (!dev) {
		ret = -ENOTTY;
		goto out;
	}
	if (!capable(CAP_SYS_ADMIN)) {
		ret = -EPERM;
		goto out;
	}

	switch (cmd) {
	case NVME_NVM_IOCTL_ADMIN_VIO:
		ret = nvme_nvm_passthru_vio(ns, dev, argp, true);
		break;
	case NVME_NVM_IOCTL_IO_VIO:
		ret = nvme_nvm_passthru_vio(ns, dev, argp, false);
		break;
	default:
		ret = nvme_nvm_submit_vio(ns, dev, argp);
		break;
	}
out:
	srcu_read_unlock(&nvme_nvm_srcu, idx);
	return ret;
}

/* ----------------------------------------------- the lightnvm/ sysfs group */

enum nvme_nvm_attr_field {
	NVME_NVM_ATTR_VERSION,
	NVME_NVM_ATTR_VENDOR_OPCODE,
	NVME_NVM_ATTR_CAPABILITIES,
	NVME_NVM_ATTR_DEVICE_MODE,
	NVME_NVM_ATTR_MEDIA_MANAGER,
	NVME_NVM_ATTR_PPA_FORMAT,
	NVME_NVM_ATTR_MEDIA_TYPE,
	NVME_NVM_ATTR_FLASH_MEDIA_TYPE,
	NVME_NVM_ATTR_NUM_CHANNELS,
	NVME_NVM_ATTR_NUM_LUNS,
	NVME_NVM_ATTR_NUM_PLANES,
	NVME_NVM_ATTR_NUM_BLOCKS,
	NVME_NVM_ATTR_NUM_PAGES,
	NVME_NVM_ATTR_PAGE_SIZE,
	NVME_NVM_ATTR_HW_SECTOR_SIZE,
	NVME_NVM_ATTR_OOB_SECTOR_SIZE,
	NVME_NVM_ATTR_READ_TYP,
	NVME_NVM_ATTR_READ_MAX,
	NVME_NVM_ATTR_PROG_TYP,
	NVME_NVM_ATTR_PROG_MAX,
	NVME_NVM_ATTR_ERASE_TYP,
	NVME_NVM_ATTR_ERASE_MAX,
	NVME_NVM_ATTR_MULTIPLANE_MODES,
	NVME_NVM_ATTR_MEDIA_CAPABILITIES,
	NVME_NVM_ATTR_MAX_PHYS_SECS,
};

/**
 * struct nvme_nvm_attr - a read-only file of the lightnvm/ group
 * @dattr: the sysfs attribute
 * @field: what it shows
 */
struct nvme_nvm_attr {
	struct device_attribute		dattr;
	enum nvme_nvm_attr_field	field;
};

static ssize_t nvme_nvm_field_show(struct nvm_dev *dev,
				   enum nvme_nvm_attr_field field, char *buf)
{
	const struct nvm_id *id = &dev->identity;
	const struct nvm_id_group *g = &id->groups[0];
	const struct nvm_addr_format *f = &id->ppaf;

	switch (field) {
	case NVME_NVM_ATTR_VERSION:
		return sysfs_emit(buf, "%u\n", id->ver_id);
	case NVME_NVM_ATTR_VENDOR_OPCODE:
		return sysfs_emit(buf, "%u\n", id->vmnt);
	case NVME_NVM_ATTR_CAPABILITIES:
		return sysfs_emit(buf, "%u\n", id->cap);
	case NVME_NVM_ATTR_DEVICE_MODE:
		return sysfs_emit(buf, "%u\n", id->dom);
	case NVME_NVM_ATTR_MEDIA_MANAGER:
		return nvm_sysfs_emit_mm(dev, buf);
	case NVME_NVM_ATTR_PPA_FORMAT:
		/* offset and length of ch, lun, pln, blk, pg, sect */
		return sysfs_emit(buf, "0x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x\n",
				  f->ch_offset, f->ch_len, f->lun_offset,
				  f->lun_len, f->pln_offset, f->pln_len,
				  f->blk_offset, f->blk_len, f->pg_offset,
				  f->pg_len, f->sect_offset, f->sect_len);
	case NVME_NVM_ATTR_MEDIA_TYPE:
		return sysfs_emit(buf, "%u\n", g->mtype);
	case NVME_NVM_ATTR_FLASH_MEDIA_TYPE:
		return sysfs_emit(buf, "%u\n", g->fmtype);
	case NVME_NVM_ATTR_NUM_CHANNELS:
		return sysfs_emit(buf, "%u\n", g->num_ch);
	case NVME_NVM_ATTR_NUM_LUNS:
		return sysfs_emit(buf, "%u\n", g->num_lun);
	case NVME_NVM_ATTR_NUM_PLANES:
		return sysfs_emit(buf, "%u\n", g->num_pln);
	case NVME_NVM_ATTR_NUM_BLOCKS:
		return sysfs_emit(buf, "%u\n", g->num_blk);
	case NVME_NVM_ATTR_NUM_PAGES:
		return sysfs_emit(buf, "%u\n", g->num_pg);
	case NVME_NVM_ATTR_PAGE_SIZE:
		return sysfs_emit(buf, "%u\n", g->fpg_sz);
	case NVME_NVM_ATTR_HW_SECTOR_SIZE:
		return sysfs_emit(buf, "%u\n", g->csecs);
	case NVME_NVM_ATTR_OOB_SECTOR_SIZE:
		return sysfs_emit(buf, "%u\n", g->sos);
	case NVME_NVM_ATTR_READ_TYP:
		return sysfs_emit(buf, "%u\n", g->trdt);
	case NVME_NVM_ATTR_READ_MAX:
		return sysfs_emit(buf, "%u\n", g->trdm);
	case NVME_NVM_ATTR_PROG_TYP:
		return sysfs_emit(buf, "%u\n", g->tprt);
	case NVME_NVM_ATTR_PROG_MAX:
		return sysfs_emit(buf, "%u\n", g->tprm);
	case NVME_NVM_ATTR_ERASE_TYP:
		return sysfs_emit(buf, "%u\n", g->tbet);
	case NVME_NVM_ATTR_ERASE_MAX:
		return sysfs_emit(buf, "%u\n", g->tbem);
	case NVME_NVM_ATTR_MULTIPLANE_MODES:
		return sysfs_emit(buf, "0x%08x\n", g->mpos);
	case NVME_NVM_ATTR_MEDIA_CAPABILITIES:
		return sysfs_emit(buf, "0x%08x\n", g->mccap);
	case NVME_NVM_ATTR_MAX_PHYS_SECS:
		return sysfs_emit(buf, "%u\n", dev->ops->max_phys_sect);
	}
	return -EINVAL;
}

static ssize_t nvme_nvm_attr_show(struct device *d,
				  struct device_attribute *dattr, char *buf)
{
	struct nvme_nvm_attr *a = container_of(dattr, struct nvme_nvm_attr,
					       dattr);
	struct nvme_ns *ns = dev_to_disk(d)->private_data;
	struct nvm_dev *dev;
	ssize_t ret;
	int idx;

	idx = srcu_read_lock(&nvme_nvm_srcu);
	dev = READ_ONCE(ns->ndev);
	ret = dev ? nvme_nvm_field_show(dev, a->field, buf) : -ENODEV;
	srcu_read_unlock(&nvme_nvm_srcu, idx);
	return ret;
}

#define NVME_NVM_ATTR(_name, _field)					\
static struct nvme_nvm_attr nvme_nvm_attr_##_name = {			\
	.dattr	= __ATTR(_name, 0444, nvme_nvm_attr_show, NULL),	\
	.field	= NVME_NVM_ATTR_##_field,				\
}

NVME_NVM_ATTR(version, VERSION);
NVME_NVM_ATTR(vendor_opcode, VENDOR_OPCODE);
NVME_NVM_ATTR(capabilities, CAPABILITIES);
NVME_NVM_ATTR(device_mode, DEVICE_MODE);
NVME_NVM_ATTR(media_manager, MEDIA_MANAGER);
NVME_NVM_ATTR(ppa_format, PPA_FORMAT);
NVME_NVM_ATTR(media_type, MEDIA_TYPE);
NVME_NVM_ATTR(flash_media_type, FLASH_MEDIA_TYPE);
NVME_NVM_ATTR(num_channels, NUM_CHANNELS);
NVME_NVM_ATTR(num_luns, NUM_LUNS);
NVME_NVM_ATTR(num_planes, NUM_PLANES);
NVME_NVM_ATTR(num_blocks, NUM_BLOCKS);
NVME_NVM_ATTR(num_pages, NUM_PAGES);
NVME_NVM_ATTR(page_size, PAGE_SIZE);
NVME_NVM_ATTR(hw_sector_size, HW_SECTOR_SIZE);
NVME_NVM_ATTR(oob_sector_size, OOB_SECTOR_SIZE);
NVME_NVM_ATTR(read_typ, READ_TYP);
NVME_NVM_ATTR(read_max, READ_MAX);
NVME_NVM_ATTR(prog_typ, PROG_TYP);
NVME_NVM_ATTR(prog_max, PROG_MAX);
NVME_NVM_ATTR(erase_typ, ERASE_TYP);
NVME_NVM_ATTR(erase_max, ERASE_MAX);
NVME_NVM_ATTR(multiplane_modes, MULTIPLANE_MODES);
NVME_NVM_ATTR(media_capabilities, MEDIA_CAPABILITIES);
NVME_NVM_ATTR(max_phys_secs, MAX_PHYS_SECS);

static struct attribute *nvme_nvm_attrs[] = {
	&nvme_nvm_attr_version.dattr.attr,
	&nvme_nvm_attr_vendor_opcode.dattr.attr,
	&nvme_nvm_attr_capabilities.dattr.attr,
	&nvme_nvm_attr_device_mode.dattr.attr,
	&nvme_nvm_attr_media_manager.dattr.attr,
	&nvme_nvm_attr_ppa_format.dattr.attr,
	&nvme_nvm_attr_media_type.dattr.attr,
	&nvme_nvm_attr_flash_media_type.dattr.attr,
	&nvme_nvm_attr_num_channels.dattr.attr,
	&nvme_nvm_attr_num_luns.dattr.attr,
	&nvme_nvm_attr_num_planes.dattr.attr,
	&nvme_nvm_attr_num_blocks.dattr.attr,
	&nvme_nvm_attr_num_pages.dattr.attr,
	&nvme_nvm_attr_page_size.dattr.attr,
	&nvme_nvm_attr_hw_sector_size.dattr.attr,
	&nvme_nvm_attr_oob_sector_size.dattr.attr,
	&nvme_nvm_attr_read_typ.dattr.attr,
	&nvme_nvm_attr_read_max.dattr.attr,
	&nvme_nvm_attr_prog_typ.dattr.attr,
	&nvme_nvm_attr_prog_max.dattr.attr,
	&nvme_nvm_attr_erase_typ.dattr.attr,
	&nvme_nvm_attr_erase_max.dattr.attr,
	&nvme_nvm_attr_multiplane_modes.dattr.attr,
	&nvme_nvm_attr_media_capabilities.dattr.attr,
	&nvme_nvm_attr_max_phys_secs.dattr.attr,
	NULL,
};

/* /sys/block/<namespace>/lightnvm/: the nvme core adds it to the disk */
const struct attribute_group nvme_nvm_attr_group = {
	.name	= "lightnvm",
	.attrs	= nvme_nvm_attrs,
};

static bool nvme_nvm_pci_id(struct nvme_ctrl *ctrl)
{
	struct pci_dev *pdev;

	if (!ctrl->dev || !dev_is_pci(ctrl->dev))
		return false;
	pdev = to_pci_dev(ctrl->dev);
	return pdev->vendor == PCI_VENDOR_ID_CNEX &&
	       (pdev->device == PCI_DEVICE_ID_CNEX_QEMU ||
		pdev->device == PCI_DEVICE_ID_CNEX_WL);
}

/**
 * nvme_nvm_ns_supported() - is a namespace an Open-Channel SSD 1.2 one?
 * @ns: a namespace being added
 *
 * An open-channel namespace sits behind a controller with an open-channel
 * PCI vendor/device id and has vs[0] == 1 in its Identify Namespace data.
 *
 * Context: process context; sends an admin command.
 * Return: 1 if it is, 0 if it is an ordinary namespace, or a negative errno
 * if the namespace cannot be used as either.
 */
int nvme_nvm_ns_supported(struct nvme_ns *ns)
{
	struct nvme_ctrl *ctrl = ns->ctrl;
	struct nvme_command c = { };
	struct nvme_id_ns *id;
	int ret;

	if (!nvme_nvm_pci_id(ctrl))
		return 0;

	id = kmalloc(sizeof(*id), GFP_KERNEL);
	if (!id)
		return -ENOMEM;

	c.identify.opcode = nvme_admin_identify;
	c.identify.nsid = cpu_to_le32(ns->head->ns_id);
	c.identify.cns = NVME_ID_CNS_NS;
	ret = nvme_submit_sync_cmd(ctrl->admin_q, &c, id, sizeof(*id));
	if (ret) {
		dev_err(ctrl->device, "%s: identify namespace failed: %d\n",
			ns->disk->disk_name, ret);
		ret = ret > 0 ? -EIO : ret;
		goto out;
	}

	ret = id->vs[0] == 0x1;
	if (ret && nvme_ns_head_multipath(ns->head)) {
		dev_err(ctrl->device,
			"%s: open-channel namespaces cannot be multipath; ignoring it\n",
			ns->disk->disk_name);
		ret = -EOPNOTSUPP;
	}
out:
	kfree(id);
	return ret;
}

/**
 * nvme_nvm_register() - register an open-channel namespace with LightNVM
 * @ns: the namespace, whose disk is added afterwards, without capacity
 * @disk_name: name to register the device under (e.g. "nvme0n1")
 * @node: NUMA node
 *
 * The core reads and validates the identity; a namespace it refuses is not
 * used at all (it is not exposed as a disk either). From here on the
 * namespace's disk answers the vector I/O ioctls (nvme_nvm_ioctl()).
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int nvme_nvm_register(struct nvme_ns *ns, char *disk_name, int node)
{
	struct nvme_nvm *nvm;
	struct nvm_dev *dev;
	int ret;

	nvm = kzalloc_node(sizeof(*nvm), GFP_KERNEL, node);
	if (!nvm) {
		ret = -ENOMEM;
		goto err;
	}
	ret = bioset_init(&nvm->bs, NVME_NVM_BIO_POOL, 0, 0);
	if (ret)
		goto err_free_nvm;
	spin_lock_init(&nvm->lock);
	INIT_LIST_HEAD(&nvm->deferred);
	INIT_WORK(&nvm->work, nvme_nvm_deferred_work);

	dev = nvm_alloc_dev(node);
	if (!dev) {
		ret = -ENOMEM;
		goto err_exit_bs;
	}
	nvm->ns = ns;
	nvm->dev = dev;
	dev->ops = &nvme_nvm_dev_ops;
	dev->private_data = nvm;
	/*
	 * Not below the controller: the namespace's disk, added next, has
	 * the same name there (/sys/class/lightnvm/<name> is virtual).
	 */
	dev->parent = NULL;
	strscpy(dev->name, disk_name, sizeof(dev->name));

	ret = nvm_register(dev);
	if (ret)
		goto err_free_dev;

	WRITE_ONCE(ns->ndev, dev);
	set_bit(NVME_NS_LIGHTNVM, &ns->flags);
	dev_info(ns->ctrl->device, "%s: open-channel namespace registered with LightNVM\n",
		 disk_name);
	return 0;

err_free_dev:
	nvm_free_dev(dev);
err_exit_bs:
	bioset_exit(&nvm->bs);
err_free_nvm:
	kfree(nvm);
err:
	dev_err(ns->ctrl->device,
		"%s: open-channel namespace not registered with LightNVM (%d); ignoring it\n",
		disk_name, ret);
	return ret;
}

/**
 * nvme_nvm_unregister() - remove an open-channel namespace from LightNVM
 * @ns: a namespace nvme_nvm_register() succeeded for
 *
 * Removes the targets on the device (the core drains their I/O) before
 * freeing what the registration allocated.
 *
 * Context: process context.
 */
void nvme_nvm_unregister(struct nvme_ns *ns)
{
	struct nvm_dev *dev = ns->ndev;
	struct nvme_nvm *nvm;

	if (WARN_ON_ONCE(!dev))
		return;
	nvm = dev->private_data;

	/*
	 * A controller that died (surprise removal, a failed reset) answers
	 * nothing. For an ordinary namespace del_gendisk() marks the queue
	 * dying; ours is deleted only after LightNVM let go of it, so do it
	 * here, before the targets are removed and before the wait for the
	 * ioctls: a command waiting for a request while the queue was frozen
	 * would otherwise wait forever, and the teardown with it (6.1's
	 * blk_mark_disk_dead() does not set QUEUE_FLAG_DYING, which a
	 * passthrough request's allocation checks). An orderly removal
	 * leaves the queue alive, so that the targets can still write their
	 * checkpoints.
	 */
	if (ns->ctrl->state == NVME_CTRL_DEAD || nvm_nvme_ns_dead(ns)) {
		blk_queue_flag_set(QUEUE_FLAG_DYING, ns->queue);
		blk_mark_disk_dead(ns->disk);
	}

	/* the disk outlives the registration: end its ioctls and sysfs reads */
	WRITE_ONCE(ns->ndev, NULL);
	synchronize_srcu(&nvme_nvm_srcu);

	nvm_unregister(dev);
	/* no command is in flight any more, deferred or not */
	cancel_work_sync(&nvm->work);
	WARN_ON_ONCE(!list_empty(&nvm->deferred));
	nvm_free_dev(dev);
	bioset_exit(&nvm->bs);
	kfree(nvm);
	clear_bit(NVME_NS_LIGHTNVM, &ns->flags);
}
