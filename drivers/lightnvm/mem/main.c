// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_mem: module entry points and parameters, the life cycle of an
 * instance (create, power on = register with the LightNVM core, power off,
 * pull the plug = a power cut, destroy), and the device operations the
 * core calls: identity, bad block table, and physical reads, writes and
 * erases, which run on the NAND model of media.c inline or from an ordered
 * workqueue and complete through nvm_end_io(). A power cut takes effect at
 * a command boundary: commands still in the workqueue are the ones in
 * flight, whose fate media.c decides (nvm_mem_media_run()). With the NAND
 * timing model of timing.c or a completion delay, an executed command
 * waits in a time-ordered queue for its completion time, and one hrtimer
 * per instance completes it; power-off completes what is left at once.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "nvm_mem.h"

#define NVM_MEM_MAX_DEVICES	64
#define NVM_MEM_CMD_RESERVE	64	/* queued commands guaranteed memory */

static unsigned int nr_devices = 1;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Devices nvm_mem0..N-1 to create at load (0..64). Default: 1");

static struct nvm_mem_cfg nvm_mem_params = NVM_MEM_DEFAULT_CFG;
module_param_named(num_ch, nvm_mem_params.num_ch, uint, 0444);
MODULE_PARM_DESC(num_ch, "Channels (1..128). Default: 2");
module_param_named(num_lun, nvm_mem_params.num_lun, uint, 0444);
MODULE_PARM_DESC(num_lun, "LUNs per channel (1..255). Default: 4");
module_param_named(num_pln, nvm_mem_params.num_pln, uint, 0444);
MODULE_PARM_DESC(num_pln, "Planes per LUN (1, 2 or 4). Default: 2");
module_param_named(num_blk, nvm_mem_params.num_blk, uint, 0444);
MODULE_PARM_DESC(num_blk, "Blocks per LUN (1..65535). Default: 64");
module_param_named(num_pg, nvm_mem_params.num_pg, uint, 0444);
MODULE_PARM_DESC(num_pg, "Pages per block (1..65535). Default: 64");
module_param_named(sec_per_pg, nvm_mem_params.sec_per_pg, uint, 0444);
MODULE_PARM_DESC(sec_per_pg, "4 KiB sectors per page and plane (1..15). Default: 4");
module_param_named(oob_size, nvm_mem_params.oob_size, uint, 0444);
MODULE_PARM_DESC(oob_size, "Out-of-band bytes per sector (16..64). Default: 16");
module_param_named(factory_bad, nvm_mem_params.factory_bad, uint, 0444);
MODULE_PARM_DESC(factory_bad, "Factory bad (block, plane) entries per device. Default: 0");
module_param_named(bb_seed, nvm_mem_params.bb_seed, uint, 0444);
MODULE_PARM_DESC(bb_seed, "Seed choosing the factory bad blocks. Default: 1");
module_param_named(data, nvm_mem_params.data, uint, 0444);
MODULE_PARM_DESC(data, "1: keep a page of data for every programmed sector; 0: keep only the 8-byte word of a sector whose 4 KiB are that word repeated (OOB bytes and state always). Default: 1");
module_param_named(version, nvm_mem_params.version, uint, 0444);
MODULE_PARM_DESC(version, "1: Open-Channel SSD 1.2, 2: Open-Channel SSD 2.0 (chunks of num_pg * sec_per_pg * num_pln logical blocks, written in units of sec_per_pg * num_pln). Default: 1");
module_param_named(ws_opt, nvm_mem_params.ws_opt, uint, 0444);
MODULE_PARM_DESC(ws_opt, "2.0: optimal write size reported, a multiple of the write unit; 0: the write unit. Default: 0");
module_param_named(mw_cunits, nvm_mem_params.mw_cunits, uint, 0444);
MODULE_PARM_DESC(mw_cunits, "2.0: cache minimum write size units reported (not enforced). Default: 0");

static unsigned long long nvm_mem_cut_seed = NVM_MEM_DEFAULT_CUT_SEED;
module_param_named(cut_seed, nvm_mem_cut_seed, ullong, 0444);
MODULE_PARM_DESC(cut_seed, "Seed of what a power cut (unplugged) does to the commands in flight. Default: 1");

static u32 nvm_mem_completion_mode = NVM_MEM_COMPL_WQ;
module_param_named(completion_mode, nvm_mem_completion_mode, uint, 0444);
MODULE_PARM_DESC(completion_mode, "0: execute and complete in the submitter's context, 1: from a workqueue, in submission order. Default: 1");

static struct nvm_mem_tparams nvm_mem_tparams = NVM_MEM_DEFAULT_TPARAMS;
module_param_named(timing, nvm_mem_tparams.timing, uint, 0444);
MODULE_PARM_DESC(timing, "1: emulate NAND timings (LUN busy per operation, channel transfers). Default: 0");
module_param_named(t_read_us, nvm_mem_tparams.t_read_us, uint, 0444);
MODULE_PARM_DESC(t_read_us, "Timing model: tR, per page read, in us. Default: 50");
module_param_named(t_prog_us, nvm_mem_tparams.t_prog_us, uint, 0444);
MODULE_PARM_DESC(t_prog_us, "Timing model: tPROG, per page programmed, in us. Default: 1300");
module_param_named(t_erase_us, nvm_mem_tparams.t_erase_us, uint, 0444);
MODULE_PARM_DESC(t_erase_us, "Timing model: tBERS, per block erased, in us. Default: 3000");
module_param_named(t_xfer_ns, nvm_mem_tparams.t_xfer_ns, uint, 0444);
MODULE_PARM_DESC(t_xfer_ns, "Timing model: channel transfer per 4 KiB sector, in ns. Default: 10240 (400 MB/s)");
module_param_named(completion_delay_us, nvm_mem_tparams.completion_delay_us,
		   uint, 0444);
MODULE_PARM_DESC(completion_delay_us, "Delay added to every command's completion, in us (0..10000000). Default: 0");
module_param_named(completion_jitter_us, nvm_mem_tparams.completion_jitter_us,
		   uint, 0444);
MODULE_PARM_DESC(completion_jitter_us, "Plus a random delay of 0..this, in us (0..10000000). Default: 0");

/*
 * Protects nvm_mem_devs (the list and the names on it). Never held together
 * with an instance's lock, nor across calls into the core.
 */
static DEFINE_MUTEX(nvm_mem_lock);
static LIST_HEAD(nvm_mem_devs);
struct dentry *nvm_mem_dbg_root;

/*
 * A command in the workqueue. @queued: accepted while the power was on, so
 * in flight if a cut comes before it runs. @abort: fail_host chose it, it
 * completes as aborted without reaching the media (or after it, see
 * %NVM_MEM_HOST_EXEC). Once executed, a
 * command with a completion time waits on the instance's timer queue
 * (@node; @entry while being completed); @plugged: it ran with the power
 * on, so a cut before its completion makes it complete as gone.
 */
struct nvm_mem_cmd {
	struct work_struct	work;
	struct timerqueue_node	node;
	struct list_head	entry;
	struct nvm_mem_dev	*dev;
	struct nvm_rq		*rqd;
	bool			queued;
	bool			abort;
	bool			plugged;
};

static int nvm_mem_identity(struct nvm_dev *ndev, struct nvm_id *id)
{
	struct nvm_mem_dev *dev = ndev->private_data;

	nvm_mem_make_identity(&dev->media->cfg, id);
	return 0;
}

static int nvm_mem_get_bb_tbl(struct nvm_dev *ndev, struct ppa_addr ppa,
			      u8 *blks)
{
	struct nvm_mem_dev *dev = ndev->private_data;
	int ret;

	ret = nvm_mem_media_get_bbt(dev->media, ppa.ppa, blks);
	if (ret == -EINVAL)
		pr_err("%s: get_bb_tbl: address 0x%llx outside the device\n",
		       dev->name, ppa.ppa);
	return ret;
}

static int nvm_mem_set_bb_tbl(struct nvm_dev *ndev, struct ppa_addr *ppas,
			      int nr_ppas, int type)
{
	struct nvm_mem_dev *dev = ndev->private_data;
	int ret;

	if (nr_ppas < 0 || (nr_ppas && !ppas)) {
		pr_err("%s: set_bb_tbl: bad nr_ppas %d\n", dev->name, nr_ppas);
		return -EINVAL;
	}
	ret = nvm_mem_media_set_bbt(dev->media, ppas, nr_ppas, type);
	if (ret == -EINVAL)
		pr_err("%s: set_bb_tbl: bad type %d or address outside the device\n",
		       dev->name, type);
	return ret;
}

static int nvm_mem_get_chk_meta(struct nvm_dev *ndev, u64 slba, int nr_chks,
				struct nvm_chk_meta *meta)
{
	struct nvm_mem_dev *dev = ndev->private_data;
	int ret;

	ret = nvm_mem_media_chunks(dev->media, slba, nr_chks, meta);
	if (ret == -EINVAL)
		pr_err("%s: get_chk_meta: %d chunks from 0x%llx outside the device\n",
		       dev->name, nr_chks, slba);
	return ret;
}

/* Requests come from the core, not from users: still, refuse garbage. */
static int nvm_mem_rq_check(struct nvm_mem_dev *dev, struct nvm_rq *rqd,
			    bool erase)
{
	const char *bad = NULL;

	if (erase ? rqd->opcode != NVM_OP_ERASE :
	    rqd->opcode != NVM_OP_PREAD && rqd->opcode != NVM_OP_PWRITE)
		bad = "opcode";
	else if (!rqd->nr_ppas || rqd->nr_ppas > NVM_MEM_MAX_PHYS_SECT)
		bad = "nr_ppas";
	else if (rqd->nr_ppas > 1 && !rqd->ppa_list)
		bad = "ppa_list";
	else if (!erase && !rqd->bio)
		bad = "bio";
	else if (!erase &&
		 rqd->bio->bi_iter.bi_size < rqd->nr_ppas * NVM_MEM_SEC_SIZE)
		bad = "bio size";
	if (!bad)
		return 0;
	pr_err_ratelimited("%s: request with bad %s (opcode 0x%x, nr_ppas %u)\n",
			   dev->name, bad, rqd->opcode, rqd->nr_ppas);
	return -EINVAL;
}

/*
 * A host error injected by fail_host (for the kinds of command in
 * fail_host_ops): the command completes as an aborted one, without
 * reaching the media (no power cut draws on it either), or, with
 * %NVM_MEM_HOST_EXEC in fail_host_ops, after it was executed.
 */
static bool nvm_mem_host_fault(struct nvm_mem_dev *dev, struct nvm_rq *rqd)
{
	return nvm_mem_host_should_fail(dev, rqd->opcode);
}

/* Does an aborted command reach the media first (%NVM_MEM_HOST_EXEC)? */
static bool nvm_mem_host_exec(struct nvm_mem_dev *dev)
{
#ifdef CONFIG_NVM_MEM_FAULT_INJECTION
	return READ_ONCE(dev->fail_host_ops) & NVM_MEM_HOST_EXEC;
#else
	return false;
#endif
}

static void nvm_mem_abort(struct nvm_rq *rqd)
{
	rqd->error = NVM_MEM_RSP_ABORTED;
	rqd->ppa_status = rqd->nr_ppas >= 64 ? ~0ULL :
			  GENMASK_ULL(rqd->nr_ppas - 1, 0);
}

/* Complete commands taken off the timer queue (in any context). */
static void nvm_mem_complete_list(struct nvm_mem_dev *dev,
				  struct list_head *done)
{
	struct nvm_mem_cmd *cmd, *next;
	struct nvm_rq *rqd;

	list_for_each_entry_safe(cmd, next, done, entry) {
		rqd = cmd->rqd;
		/* the host never learns what a cut did to a command */
		if (cmd->plugged && atomic_read(&dev->media->unplugged))
			nvm_mem_media_gone(rqd);
		list_del(&cmd->entry);
		mempool_free(cmd, dev->cmd_pool);
		nvm_mem_rec_done(dev, rqd);
		nvm_end_io(rqd);
	}
}

static enum hrtimer_restart nvm_mem_tq_fire(struct hrtimer *timer)
{
	struct nvm_mem_dev *dev = container_of(timer, struct nvm_mem_dev,
					       tq_timer);
	struct timerqueue_node *node;
	struct nvm_mem_cmd *cmd;
	ktime_t now = ktime_get();
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&dev->tq_lock, flags);
	while ((node = timerqueue_getnext(&dev->tq)) && node->expires <= now) {
		timerqueue_del(&dev->tq, node);
		cmd = container_of(node, struct nvm_mem_cmd, node);
		list_add_tail(&cmd->entry, &done);
	}
	/* under tq_lock, as every other start: the timer has one owner */
	if (node)
		hrtimer_start(timer, node->expires, HRTIMER_MODE_ABS_SOFT);
	spin_unlock_irqrestore(&dev->tq_lock, flags);
	nvm_mem_complete_list(dev, &done);
	return HRTIMER_NORESTART;
}

/*
 * Complete an executed command: at once, or, with the timing model or a
 * completion delay, at its completion time from the timer. @cmd is NULL
 * when none was allocated (nothing to wait for then). @media: it reached
 * the media (not gone, not aborted), so it occupied a LUN.
 */
static void nvm_mem_finish(struct nvm_mem_dev *dev, struct nvm_mem_cmd *cmd,
			   struct nvm_rq *rqd, bool media, u64 now)
{
	u64 due = now;
	unsigned long flags;
	u32 jitter;

	if (cmd) {
		if (media)
			due = nvm_mem_timing_cmd(&dev->timing, dev->media, rqd,
						 now);
		due += (u64)nvm_mem_timing_delay(&dev->timing, &jitter) *
		       NSEC_PER_USEC;
		if (jitter)
			due += (u64)get_random_u32_below(jitter + 1) *
			       NSEC_PER_USEC;
	}
	if (due <= now)
		goto now;

	spin_lock_irqsave(&dev->tq_lock, flags);
	if (dev->tq_flush) {
		spin_unlock_irqrestore(&dev->tq_lock, flags);
		goto now;
	}
	cmd->rqd = rqd;
	cmd->plugged = !atomic_read(&dev->media->unplugged);
	timerqueue_init(&cmd->node);
	cmd->node.expires = ns_to_ktime(due);
	if (timerqueue_add(&dev->tq, &cmd->node))
		hrtimer_start(&dev->tq_timer, cmd->node.expires,
			      HRTIMER_MODE_ABS_SOFT);
	spin_unlock_irqrestore(&dev->tq_lock, flags);
	return;
now:
	if (cmd)
		mempool_free(cmd, dev->cmd_pool);
	nvm_mem_rec_done(dev, rqd);
	nvm_end_io(rqd);
}

/*
 * Power-off: stop the timer and complete every command still waiting for
 * its completion time, at once (nothing is queued from then on).
 */
static void nvm_mem_tq_flush(struct nvm_mem_dev *dev)
{
	struct timerqueue_node *node;
	struct nvm_mem_cmd *cmd;
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&dev->tq_lock, flags);
	dev->tq_flush = true;
	spin_unlock_irqrestore(&dev->tq_lock, flags);
	/* waits for a running callback, and cancels a start it made */
	hrtimer_cancel(&dev->tq_timer);

	spin_lock_irqsave(&dev->tq_lock, flags);
	while ((node = timerqueue_getnext(&dev->tq))) {
		timerqueue_del(&dev->tq, node);
		cmd = container_of(node, struct nvm_mem_cmd, node);
		list_add_tail(&cmd->entry, &done);
	}
	spin_unlock_irqrestore(&dev->tq_lock, flags);
	nvm_mem_complete_list(dev, &done);
}

static void nvm_mem_work(struct work_struct *work)
{
	struct nvm_mem_cmd *cmd = container_of(work, struct nvm_mem_cmd, work);
	struct nvm_mem_dev *dev = cmd->dev;
	struct nvm_rq *rqd = cmd->rqd;
	bool media = false, deferred;
	unsigned int noio;
	u64 now;

	/* idle, not uninterruptible: a long stall is no hung task */
	wait_event_idle(dev->stall_wq, !READ_ONCE(dev->stalled));
	now = ktime_get_ns();
	if (!cmd->abort || nvm_mem_host_exec(dev)) {
		media = !atomic_read(&dev->media->unplugged);
		noio = memalloc_noio_save();
		if (nvm_mem_media_run(dev->media, rqd, cmd->queued,
				      NVM_MEM_FAULT_FN, dev, GFP_KERNEL) ==
		    NVM_MEM_CUT_NONE && media)
			nvm_mem_rec_exec(dev, rqd);
		memalloc_noio_restore(noio);
	}
	if (cmd->abort)
		nvm_mem_abort(rqd);
	deferred = nvm_mem_timing_deferred(&dev->timing);
	if (!deferred)
		mempool_free(cmd, dev->cmd_pool);
	nvm_mem_finish(dev, deferred ? cmd : NULL, rqd, media, now);
}

static int nvm_mem_queue(struct nvm_dev *ndev, struct nvm_rq *rqd, bool erase)
{
	struct nvm_mem_dev *dev = ndev->private_data;
	/*
	 * Never sleep: a submitter may hold an RCU read lock (a target's
	 * ->queue_rq does, under blk-mq), which preemptible() cannot see on
	 * a PREEMPT_RCU kernel. The command pool's reserve covers a failure.
	 */
	const gfp_t gfp = GFP_ATOMIC;
	struct nvm_mem_cmd *cmd = NULL;
	bool media = false, abort;
	u64 now;
	int ret;

	ret = nvm_mem_rq_check(dev, rqd, erase);
	if (ret)
		return ret;
	if (nvm_mem_nomem_should_fail(dev, rqd->opcode))
		return -ENOMEM;

	/*
	 * Once the power is cut, commands are still accepted and complete
	 * (from the workqueue, as usual) with NVM_MEM_RSP_GONE.
	 */
	if (dev->completion_mode == NVM_MEM_COMPL_INLINE) {
		/* executed now, completed now or from the timer */
		if (nvm_mem_timing_deferred(&dev->timing)) {
			cmd = mempool_alloc(dev->cmd_pool, gfp);
			if (!cmd)
				return -ENOMEM;
			cmd->dev = dev;
		}
		/* a clock read costs: only a deferred completion needs it */
		now = cmd ? ktime_get_ns() : 0;
		abort = nvm_mem_host_fault(dev, rqd);
		if (!abort || nvm_mem_host_exec(dev)) {
			media = !atomic_read(&dev->media->unplugged);
			nvm_mem_media_run(dev->media, rqd, false,
					  NVM_MEM_FAULT_FN, dev, gfp);
		}
		if (abort)
			nvm_mem_abort(rqd);
		nvm_mem_finish(dev, cmd, rqd, media, now);
		return 0;
	}

	cmd = mempool_alloc(dev->cmd_pool, gfp);
	if (!cmd)
		return -ENOMEM;
	INIT_WORK(&cmd->work, nvm_mem_work);
	cmd->dev = dev;
	cmd->rqd = rqd;
	cmd->queued = !atomic_read(&dev->media->unplugged);
	cmd->abort = nvm_mem_host_fault(dev, rqd);
	nvm_mem_rec_submit(dev, rqd);
	queue_work(dev->wq, &cmd->work);
	return 0;
}

static int nvm_mem_submit_io(struct nvm_dev *ndev, struct nvm_rq *rqd)
{
	return nvm_mem_queue(ndev, rqd, false);
}

static int nvm_mem_erase_block(struct nvm_dev *ndev, struct nvm_rq *rqd)
{
	return nvm_mem_queue(ndev, rqd, true);
}

static const struct nvm_dev_ops nvm_mem_dev_ops = {
	.identity		= nvm_mem_identity,
	.get_bb_tbl		= nvm_mem_get_bb_tbl,
	.set_bb_tbl		= nvm_mem_set_bb_tbl,
	.submit_io		= nvm_mem_submit_io,
	.erase_block		= nvm_mem_erase_block,
	/* no DMA pool: the core's kmalloc() buffers do for host memory */
	.max_phys_sect		= NVM_MEM_MAX_PHYS_SECT,
	.get_chk_meta		= nvm_mem_get_chk_meta,
};

/**
 * nvm_mem_power_on() - register an instance with the LightNVM core
 * @dev: the instance
 *
 * Creates the media at the first power-on (after validating the options),
 * plugs the device back in if it was unplugged, and registers it under its
 * name. On failure everything done here is undone; media created by this
 * call is freed, so the options can be corrected.
 *
 * Context: process; takes the core's locks.
 * Return: 0 (also if already on), or a negative errno.
 */
int nvm_mem_power_on(struct nvm_mem_dev *dev)
{
	bool created = false;
	struct nvm_dev *ndev;
	int ret;

	lockdep_assert_held(&dev->lock);
	if (dev->power)
		return 0;
	if (!dev->media) {
		ret = nvm_mem_cfg_validate(&dev->cfg, dev->name);
		if (ret)
			return ret;
		dev->media = nvm_mem_media_create(&dev->cfg);
		if (!dev->media)
			return -ENOMEM;
		nvm_mem_media_cut_seed(dev->media, dev->cut_seed);
		created = true;
		ret = nvm_mem_timing_alloc(&dev->timing, dev->cfg.num_ch,
					   dev->cfg.num_lun);
		if (ret)
			goto err_free_media;
	}
	dev->tq_flush = false;
	atomic_set(&dev->media->unplugged, 0);

	ret = -ENOMEM;
	dev->cmd_pool = mempool_create_kmalloc_pool(NVM_MEM_CMD_RESERVE,
						    sizeof(struct nvm_mem_cmd));
	if (!dev->cmd_pool)
		goto err_free_media;
	dev->wq = alloc_ordered_workqueue("nvm_mem_%s", WQ_MEM_RECLAIM,
					  dev->name);
	if (!dev->wq)
		goto err_destroy_pool;
	ndev = nvm_alloc_dev(NUMA_NO_NODE);
	if (!ndev)
		goto err_destroy_wq;
	ndev->ops = &nvm_mem_dev_ops;
	strscpy(ndev->name, dev->name, sizeof(ndev->name));
	ndev->private_data = dev;
	ret = nvm_register(ndev);
	if (ret) {
		pr_err("%s: registration with the LightNVM core failed: %d\n",
		       dev->name, ret);
		goto err_free_ndev;
	}
	dev->ndev = ndev;
	dev->power = true;
	return 0;

err_free_ndev:
	nvm_free_dev(ndev);
err_destroy_wq:
	destroy_workqueue(dev->wq);
	dev->wq = NULL;
err_destroy_pool:
	mempool_destroy(dev->cmd_pool);
	dev->cmd_pool = NULL;
err_free_media:
	if (created) {
		nvm_mem_timing_free(&dev->timing);
		nvm_mem_media_free(dev->media);
		dev->media = NULL;
	}
	return ret;
}

/**
 * nvm_mem_power_off() - unregister an instance from the core, keep its media
 * @dev: the instance
 *
 * The core stops using the device (its targets are removed); commands still
 * queued run to completion (a stall is lifted), those waiting for their
 * completion time (timing model, completion delay) complete at once, then
 * the data, OOB bytes,
 * torn sectors, write pointers, bad block table and counters stay as they
 * are for the next power-on.
 *
 * Context: process; takes the core's locks.
 */
void nvm_mem_power_off(struct nvm_mem_dev *dev)
{
	lockdep_assert_held(&dev->lock);
	if (!dev->power)
		return;
	nvm_mem_stall(dev, false);
	nvm_unregister(dev->ndev);
	destroy_workqueue(dev->wq);	/* drains it */
	dev->wq = NULL;
	nvm_mem_tq_flush(dev);
	nvm_free_dev(dev->ndev);
	dev->ndev = NULL;
	mempool_destroy(dev->cmd_pool);
	dev->cmd_pool = NULL;
	dev->power = false;
	pr_info("%s: powered off\n", dev->name);
}

/**
 * nvm_mem_pull_plug() - cut the power, as if unplugged
 * @dev: the instance, powered on
 *
 * Takes effect at the next command boundary. Every command that was in the
 * device's workqueue is in flight: as it comes up it is dropped, applied
 * or (programs) torn, as the seeded sequence decides; one executing
 * finishes (applied). All of them, and every later command, complete with
 * %NVM_MEM_RSP_GONE; the bad block table can be neither read nor written
 * (-ENODEV). The device stays registered until powered off; the next
 * power-on plugs it in, with the media as the cut left it.
 *
 * Context: process.
 * Return: 0, or -ENODEV if @dev is powered off.
 */
int nvm_mem_pull_plug(struct nvm_mem_dev *dev)
{
	lockdep_assert_held(&dev->lock);
	if (!dev->power) {
		pr_err("%s: unplugged: the device is not powered on\n",
		       dev->name);
		return -ENODEV;
	}
	if (atomic_xchg(&dev->media->unplugged, 1))
		return 0;
	pr_info("%s: plug pulled: commands in flight are dropped, applied or torn\n",
		dev->name);
	return 0;
}

/**
 * nvm_mem_set_cut_seed() - seed what power cuts do to commands in flight
 * @dev: the instance
 * @seed: the seed
 *
 * Restarts the sequence of the media if it exists, else it starts from
 * @seed when the media is created.
 *
 * Context: process.
 */
void nvm_mem_set_cut_seed(struct nvm_mem_dev *dev, u64 seed)
{
	lockdep_assert_held(&dev->lock);
	dev->cut_seed = seed;
	if (dev->media)
		nvm_mem_media_cut_seed(dev->media, seed);
}

/**
 * nvm_mem_stall() - hold or release the commands of the workqueue
 * @dev: the instance
 * @stall: hold (commands are accepted and queued, none starts) or release
 *
 * A test hook, so that a test can have commands in flight at a cut.
 * Inline completion is not affected.
 *
 * Context: any.
 */
void nvm_mem_stall(struct nvm_mem_dev *dev, bool stall)
{
	WRITE_ONCE(dev->stalled, stall);
	if (!stall)
		wake_up_all(&dev->stall_wq);
}

/**
 * nvm_mem_dev_create() - create a powered-off instance
 * @name: its name, unique among instances, shorter than %DISK_NAME_LEN
 * @configfs: created through configfs
 *
 * The options start from the module parameters.
 *
 * Context: process; takes nvm_mem_lock.
 * Return: the instance, or ERR_PTR(-EINVAL / -EEXIST / -ENOMEM).
 */
struct nvm_mem_dev *nvm_mem_dev_create(const char *name, bool configfs)
{
	struct nvm_mem_dev *dev, *d;

	if (!*name || strlen(name) >= DISK_NAME_LEN) {
		pr_err("name \"%s\": must be 1 to %d characters\n", name,
		       DISK_NAME_LEN - 1);
		return ERR_PTR(-EINVAL);
	}
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	mutex_init(&dev->lock);
	strscpy(dev->name, name, sizeof(dev->name));
	dev->cfg = nvm_mem_params;
	dev->completion_mode = nvm_mem_completion_mode;
	dev->cut_seed = nvm_mem_cut_seed;
	init_waitqueue_head(&dev->stall_wq);
	nvm_mem_timing_init(&dev->timing, &nvm_mem_tparams);
	spin_lock_init(&dev->tq_lock);
	timerqueue_init_head(&dev->tq);
	hrtimer_init(&dev->tq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	dev->tq_timer.function = nvm_mem_tq_fire;
	dev->configfs = configfs;
	nvm_mem_fault_init(dev);

	mutex_lock(&nvm_mem_lock);
	list_for_each_entry(d, &nvm_mem_devs, list) {
		if (!strcmp(d->name, name)) {
			mutex_unlock(&nvm_mem_lock);
			pr_err("name \"%s\": already used by another instance\n",
			       name);
			mutex_destroy(&dev->lock);
			kfree(dev);
			return ERR_PTR(-EEXIST);
		}
	}
	list_add_tail(&dev->list, &nvm_mem_devs);
	nvm_mem_debugfs_add(dev);
	nvm_mem_rec_init(dev);
	mutex_unlock(&nvm_mem_lock);
	return dev;
}

/**
 * nvm_mem_dev_destroy() - power off and free an instance and its media
 * @dev: the instance
 *
 * Context: process; takes nvm_mem_lock and the core's locks.
 */
void nvm_mem_dev_destroy(struct nvm_mem_dev *dev)
{
	mutex_lock(&dev->lock);
	nvm_mem_power_off(dev);
	mutex_unlock(&dev->lock);

	mutex_lock(&nvm_mem_lock);
	list_del(&dev->list);
	mutex_unlock(&nvm_mem_lock);
	nvm_mem_debugfs_remove(dev);
	nvm_mem_rec_release(dev);
	nvm_mem_timing_free(&dev->timing);
	nvm_mem_media_free(dev->media);
	mutex_destroy(&dev->lock);
	kfree(dev);
}

/* Destroy the instances created by module parameter. */
static void nvm_mem_destroy_param_devs(void)
{
	struct nvm_mem_dev *dev;

	for (;;) {
		mutex_lock(&nvm_mem_lock);
		dev = list_first_entry_or_null(&nvm_mem_devs,
					       struct nvm_mem_dev, list);
		mutex_unlock(&nvm_mem_lock);
		if (!dev)
			return;
		/* configfs instances pin the module: none is left here */
		WARN_ON_ONCE(dev->configfs);
		nvm_mem_dev_destroy(dev);
	}
}

static int nvm_mem_check_params(void)
{
	if (nr_devices > NVM_MEM_MAX_DEVICES) {
		pr_err("parameters: nr_devices=%u out of range (0..%d)\n",
		       nr_devices, NVM_MEM_MAX_DEVICES);
		return -EINVAL;
	}
	if (nvm_mem_completion_mode > NVM_MEM_COMPL_WQ) {
		pr_err("parameters: completion_mode=%u out of range (0..1)\n",
		       nvm_mem_completion_mode);
		return -EINVAL;
	}
	if (nvm_mem_cfg_validate(&nvm_mem_params, "parameters"))
		return -EINVAL;
	if (nvm_mem_tparams_validate(&nvm_mem_tparams, "parameters"))
		return -EINVAL;
	return nvm_mem_fault_parse_params();
}

static int __init nvm_mem_init(void)
{
	struct nvm_mem_dev *dev;
	char name[DISK_NAME_LEN];
	unsigned int i;
	int ret;

	ret = nvm_mem_check_params();
	if (ret)
		return ret;
	nvm_mem_dbg_root = debugfs_create_dir("nvm_mem", NULL);

	for (i = 0; i < nr_devices; i++) {
		snprintf(name, sizeof(name), "nvm_mem%u", i);
		dev = nvm_mem_dev_create(name, false);
		if (IS_ERR(dev)) {
			ret = PTR_ERR(dev);
			goto err_destroy_devs;
		}
		mutex_lock(&dev->lock);
		ret = nvm_mem_power_on(dev);
		mutex_unlock(&dev->lock);
		if (ret)
			goto err_destroy_devs;
	}

	ret = nvm_mem_configfs_init();
	if (ret)
		goto err_destroy_devs;
	return 0;

err_destroy_devs:
	nvm_mem_destroy_param_devs();
	debugfs_remove_recursive(nvm_mem_dbg_root);
	return ret;
}

static void __exit nvm_mem_exit(void)
{
	nvm_mem_configfs_exit();
	nvm_mem_destroy_param_devs();
	debugfs_remove_recursive(nvm_mem_dbg_root);
}

module_init(nvm_mem_init);
module_exit(nvm_mem_exit);

MODULE_DESCRIPTION("Memory-backed emulated Open-Channel SSD");
MODULE_LICENSE("GPL");
