// SPDX-License-Identifier: GPL-2.0
/*
 * rrpc: registration of the "rrpc" target type with the LightNVM core,
 * creation and teardown of a target (validation of the device and of the
 * create request, capacity, queue limits) and its sysfs statistics.
 */

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/sysfs.h>
#include <kunit/visibility.h>
#include "rrpc.h"

#define CREATE_TRACE_POINTS
#include "rrpc_trace.h"

static unsigned int rrpc_default_op = RRPC_DEFAULT_OP;
module_param_named(over_prov, rrpc_default_op, uint, 0644);
MODULE_PARM_DESC(over_prov,
		 "over-provisioning in percent of the capacity when the create request gives none (default 10)");

static int rrpc_hot_cold = -1;
module_param_named(hot_cold, rrpc_hot_cold, int, 0644);
MODULE_PARM_DESC(hot_cold,
		 "separate hot from cold data in targets created from now on: 1 always, 0 never, -1 (default) from 20% over-provisioning up");

/*
 * Hot/cold separation for a target (capacity and over-provisioning set):
 * as the parameter says, and only if the spare leaves room for the two
 * more open blocks per LUN (RRPC_HC_MIN_SPARE blocks).
 */
static int rrpc_temps_for(struct rrpc *rrpc)
{
	int hc = READ_ONCE(rrpc_hot_cold);
	u64 data, spare;

	if (!hc || (hc < 0 && rrpc->op < RRPC_HC_MIN_OP))
		return 1;
	data = (u64)rrpc->nr_luns * RRPC_RSV_BLKS +
	       DIV_ROUND_UP_ULL(rrpc->nr_lbas, rrpc->spb);
	spare = rrpc->good_blocks > data ? rrpc->good_blocks - data : 0;
	if (spare < (u64)rrpc->nr_luns * RRPC_HC_MIN_SPARE) {
		rrpc_info(rrpc, "%llu spare blocks on %d LUNs: too few for hot/cold separation (%d per LUN)\n",
			  spare, rrpc->nr_luns,
			  RRPC_HC_MIN_SPARE);
		return 1;
	}
	return RRPC_TEMPS;
}

/**
 * rrpc_write_unit() - the sectors rrpc programs per command
 * @geo: the device's geometry
 * @max_sectors: most addresses in one command
 *
 * The device's optimal write size (ws_opt) if one command holds it and
 * it divides a block into whole units of its minimum (ws_min); otherwise
 * the minimum. On 1.2 both are a multi-plane page (geo.sec_per_pl); on
 * 2.0 ws_min is the page of the geometry targets see, so that either unit
 * is written in order in whole multiples of ws_min.
 *
 * Return: the write unit, in sectors.
 */
u32 rrpc_write_unit(const struct nvm_geo *geo, u32 max_sectors)
{
	u32 ws = geo->ws_opt;

	if (ws >= geo->ws_min && ws <= max_sectors && !(ws % geo->ws_min) &&
	    !(geo->sec_per_blk % ws))
		return ws;
	return geo->ws_min;
}
EXPORT_SYMBOL_IF_KUNIT(rrpc_write_unit);

/* Validate the device and the create request (@rrpc: device and disk set). */
static int rrpc_check(struct rrpc *rrpc, const struct nvm_tgt_conf *conf,
		      u32 *op)
{
	struct nvm_dev *dev = rrpc->dev;
	const struct nvm_geo *geo = rrpc->geo;

	if (geo->oob_size < RRPC_OOB_SIZE) {
		rrpc_err(rrpc, "device %s has %d OOB bytes per sector; rrpc stores each sector's LBA and write sequence number there and needs %d (nvm_mem: set oob_size >= %d)\n",
			 dev->name, geo->oob_size, RRPC_OOB_SIZE,
			 RRPC_OOB_SIZE);
		return -EINVAL;
	}
	if (geo->sec_size != RRPC_SECTOR_SIZE) {
		rrpc_err(rrpc, "device %s has %d-byte sectors; rrpc needs %d\n",
			 dev->name, geo->sec_size, RRPC_SECTOR_SIZE);
		return -EINVAL;
	}
	if (geo->sec_per_pl < 1 || geo->sec_per_pl > rrpc->max_sectors ||
	    geo->sec_per_blk % geo->sec_per_pl) {
		rrpc_err(rrpc, "device %s: a multi-plane page of %d sectors does not fit a command of %u\n",
			 dev->name, geo->sec_per_pl, rrpc->max_sectors);
		return -EINVAL;
	}
	/* the core checked that the range lies within the device */
	if (conf->lun_end > U16_MAX) {
		rrpc_err(rrpc, "lun_end %d: rrpc records LUN ranges in 16 bits\n",
			 conf->lun_end);
		return -EINVAL;
	}
	*op = conf->over_prov ? conf->over_prov : rrpc_default_op;
	if (conf->over_prov < 0 || *op < 1 || *op > RRPC_MAX_OP) {
		rrpc_err(rrpc, "over_prov %d%%: must be 1..%d (0: default %u)\n",
			 conf->over_prov, RRPC_MAX_OP, rrpc_default_op);
		return -EINVAL;
	}
	return 0;
}

static int rrpc_luns_init(struct rrpc *rrpc, const struct nvm_tgt_conf *conf)
{
	const struct nvm_geo *geo = rrpc->geo;
	u32 b;
	int i;

	rrpc->nr_blocks = rrpc->nr_luns * geo->blks_per_lun;
	/* tiny blocks on many LUNs: refuse before kvmalloc() would warn */
	if ((u64)rrpc->nr_blocks * sizeof(*rrpc->blocks) > RRPC_MAX_TABLE) {
		rrpc_err(rrpc, "%u blocks need %llu MiB of block descriptors, more than rrpc allocates (%u MiB); use fewer LUNs\n",
			 rrpc->nr_blocks,
			 (u64)rrpc->nr_blocks * sizeof(*rrpc->blocks) >> 20,
			 RRPC_MAX_TABLE >> 20);
		return -EINVAL;
	}
	rrpc->luns = kvcalloc(rrpc->nr_luns, sizeof(*rrpc->luns), GFP_KERNEL);
	rrpc->blocks = kvcalloc(rrpc->nr_blocks, sizeof(*rrpc->blocks),
				GFP_KERNEL);
	if (!rrpc->luns || !rrpc->blocks)
		return -ENOMEM;

	for (i = 0; i < rrpc->nr_luns; i++) {
		struct rrpc_lun *rlun = &rrpc->luns[i];

		rlun->rrpc = rrpc;
		rlun->idx = i;
		rlun->parent = nvm_get_lun(rrpc->dev, conf->lun_begin + i);
		if (!rlun->parent) {
			rrpc_err(rrpc, "LUN %d of %s not found\n",
				 conf->lun_begin + i,
				 rrpc->dev->name);
			return -EINVAL;
		}
		spin_lock_init(&rlun->lock);
		INIT_LIST_HEAD(&rlun->closed);
		INIT_WORK(&rlun->wr_work, rrpc_wr_work);
		INIT_WORK(&rlun->gc_work, rrpc_gc_work);
		INIT_LIST_HEAD(&rlun->gc.pending);

		if (rrpc_lun_free(rlun) < RRPC_MIN_LUN_FREE) {
			rrpc_err(rrpc, "LUN %d of %s has %u free blocks; rrpc needs at least %d\n",
				 rlun->parent->id,
				 rrpc->dev->name, rrpc_lun_free(rlun),
				 RRPC_MIN_LUN_FREE);
			return -ENOSPC;
		}
		rrpc->good_blocks += rrpc_lun_free(rlun);

		for (b = 0; b < geo->blks_per_lun; b++) {
			struct rrpc_block *rblk = &rrpc->blocks[i * geo->blks_per_lun + b];

			rblk->parent = &rlun->parent->blocks[b];
			rblk->rlun = rlun;
			rblk->idx = i * geo->blks_per_lun + b;
			rblk->ppa = nvm_blk_to_ppa(rrpc->dev, rblk->parent);
			rblk->state = RRPC_BLK_FREE;
			atomic_set(&rblk->nr_readers, 0);
			INIT_LIST_HEAD(&rblk->list);
			INIT_LIST_HEAD(&rblk->vlist);
		}
	}
	return 0;
}

static void rrpc_luns_free(struct rrpc *rrpc)
{
	kvfree(rrpc->blocks);
	kvfree(rrpc->luns);
}

/* The reverse map (all empty); the map comes with recovery. */
static int rrpc_p2l_init(struct rrpc *rrpc)
{
	rrpc->p2l = kvmalloc_array(rrpc->nr_paddrs, sizeof(*rrpc->p2l),
				   GFP_KERNEL);
	if (!rrpc->p2l)
		return -ENOMEM;
	memset(rrpc->p2l, RRPC_EMPTY_BYTE, rrpc->nr_paddrs * sizeof(*rrpc->p2l));
	return 0;
}

static void rrpc_maps_free(struct rrpc *rrpc)
{
	kvfree(rrpc->p2l);
	kvfree(rrpc->map);
}

/* Every block the target holds goes back to the media manager. */
static void rrpc_put_blocks(struct rrpc *rrpc)
{
	u32 i;

	for (i = 0; i < rrpc->nr_blocks; i++) {
		struct rrpc_block *rblk = &rrpc->blocks[i];

		if (rblk->state != RRPC_BLK_FREE)
			nvm_put_blk(rrpc->dev, rblk->parent);
		rblk->state = RRPC_BLK_FREE;
	}
}

/*
 * Stop the writers and GC for good: nothing is queued on the workqueues
 * once @exiting is set (rrpc_wr_kick(), rrpc_gc_kick()).
 */
static void rrpc_stop_workers(struct rrpc *rrpc)
{
	u32 i;

	spin_lock_irq(&rrpc->kick_lock);
	rrpc->exiting = true;
	spin_unlock_irq(&rrpc->kick_lock);
	for (i = 0; i < rrpc->nr_luns; i++)
		cancel_work_sync(&rrpc->luns[i].gc_work);
	destroy_workqueue(rrpc->gc_wq);
	destroy_workqueue(rrpc->wr_wq);
}

static const char * const rrpc_rec_modes[] = {
	[RRPC_REC_NEW]		= "new",
	[RRPC_REC_FACTORY]	= "factory",
	[RRPC_REC_SCAN]		= "scan",
	[RRPC_REC_CKPT]		= "checkpoint",
};

static int rrpc_gcs_init(struct rrpc *rrpc)
{
	int i, ret;

	for (i = 0; i < rrpc->nr_luns; i++) {
		ret = rrpc_gc_init(&rrpc->luns[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static void rrpc_gcs_free(struct rrpc *rrpc)
{
	int i;

	for (i = 0; i < rrpc->nr_luns; i++)
		rrpc_gc_free(&rrpc->luns[i]);
}

/* The disk's limits, set as a whole before the disk is added. */
static int rrpc_set_limits(struct rrpc *rrpc)
{
	struct request_queue *q = rrpc->disk->queue;
	unsigned int sect512 = RRPC_SECT512_PER_SECTOR;
	struct queue_limits lim;
	int ret;

	lim = queue_limits_start_update(q);
	lim.logical_block_size = RRPC_SECTOR_SIZE;
	lim.physical_block_size = RRPC_SECTOR_SIZE;
	lim.io_min = RRPC_SECTOR_SIZE;
	lim.io_opt = rrpc->spp * RRPC_SECTOR_SIZE;
	lim.max_hw_sectors = rrpc->max_sectors * sect512;
	lim.max_segments = NVM_MAX_VLBA;
	lim.discard_granularity = RRPC_SECTOR_SIZE;
	/* bounded: each request holds wb.lock for its map updates */
	lim.max_hw_discard_sectors = RRPC_DISCARD_MAX * sect512;
	lim.max_write_zeroes_sectors = RRPC_DISCARD_MAX * sect512;
	/*
	 * writes are acknowledged from the write buffer: a volatile cache;
	 * non-rotational, no entropy from its timings
	 */
	nvm_lim_features_set(&lim, q, BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA);
	/*
	 * Buffers aligned to a sector: a read puts the media sectors of a
	 * request into the request's own pages, skipping the buffered and
	 * unmapped ones, so a sector that straddles two pages leaves gaps
	 * inside a page, which a device's segment rules (NVMe PRPs) refuse.
	 * O_DIRECT from a buffer aligned to less gets EINVAL, as on any
	 * kernel before 6.0 for 4 KiB sectors.
	 */
	nvm_lim_dma_alignment_set(&lim, q, RRPC_SECTOR_SIZE - 1);
	ret = queue_limits_commit_update(q, &lim);
	if (ret)
		rrpc_err(rrpc, "queue limits refused: %d\n",
			 ret);
	return ret;
}

static void *rrpc_init(struct nvm_target *tgt, struct gendisk *disk,
		       const struct nvm_tgt_conf *conf)
{
	struct nvm_dev *dev = tgt->dev;
	const struct nvm_geo *geo = &dev->geo;
	struct rrpc *rrpc;
	u64 nr_lbas;
	u32 op, i;
	int ret;

	rrpc = kzalloc(sizeof(*rrpc), GFP_KERNEL);
	if (!rrpc)
		return ERR_PTR(-ENOMEM);
	rrpc->tgt = tgt;
	rrpc->dev = dev;
	rrpc->disk = disk;
	rrpc->geo = geo;
	/* 1..NVM_MAX_VLBA: the core registers no device outside that */
	rrpc->max_sectors = dev->ops->max_phys_sect;
	ret = rrpc_check(rrpc, conf, &op);
	if (ret)
		goto err_check;
	rrpc->nr_luns = conf->lun_end - conf->lun_begin + 1;
	rrpc->lun_begin = conf->lun_begin;
	rrpc->lun_end = conf->lun_end;
	rrpc->spb = geo->sec_per_blk;
	rrpc->spp = rrpc_write_unit(geo, rrpc->max_sectors);
	spin_lock_init(&rrpc->map_lock);
	rrpc_wb_prepare(rrpc);
	spin_lock_init(&rrpc->kick_lock);
	init_waitqueue_head(&rrpc->read_wait);
	atomic64_set(&rrpc->close_seq, 0);

	ret = rrpc_luns_init(rrpc, conf);
	if (ret)
		goto err_luns;

	rrpc->nr_paddrs = (u64)rrpc->nr_blocks * rrpc->spb;
	nr_lbas = rrpc_capacity(rrpc->good_blocks, rrpc->nr_luns, rrpc->spb,
				op);
	if (rrpc->nr_paddrs >= RRPC_MAX_PADDRS) {
		rrpc_err(rrpc, "%llu sectors: too large for one rrpc target; use fewer LUNs\n",
			 rrpc->nr_paddrs);
		ret = -EINVAL;
		goto err_luns;
	}
	/* the largest table: the scan's 8 bytes per physical sector */
	if (rrpc->nr_paddrs * sizeof(u64) > RRPC_MAX_TABLE) {
		rrpc_err(rrpc, "%llu sectors need a %llu MiB table to recover, more than rrpc allocates (%u MiB); use fewer LUNs\n",
			 rrpc->nr_paddrs,
			 rrpc->nr_paddrs * sizeof(u64) >> 20, RRPC_MAX_TABLE >> 20);
		ret = -EINVAL;
		goto err_luns;
	}

	ret = rrpc_p2l_init(rrpc);
	if (ret)
		goto err_luns;
	rrpc->trim_page = alloc_page(GFP_KERNEL);
	if (!rrpc->trim_page) {
		ret = -ENOMEM;
		goto err_maps;
	}
	ret = rrpc_recover(rrpc, conf, &nr_lbas, &op);
	if (ret)
		goto err_trim;
	rrpc->op = op;
	rrpc->temps = rrpc_temps_for(rrpc);

	ret = rrpc_wb_init(rrpc);
	if (ret)
		goto err_blocks;
	/* on failure the LUNs' GC state is partly allocated: free it all */
	ret = rrpc_gcs_init(rrpc);
	if (ret)
		goto err_gcs;

	rrpc->wr_wq = alloc_workqueue("rrpc-wr-%s", WQ_MEM_RECLAIM | WQ_UNBOUND,
				      0, disk->disk_name);
	if (!rrpc->wr_wq) {
		ret = -ENOMEM;
		goto err_gcs;
	}
	rrpc->gc_wq = alloc_workqueue("rrpc-gc-%s", WQ_MEM_RECLAIM | WQ_UNBOUND,
				      0, disk->disk_name);
	if (!rrpc->gc_wq) {
		ret = -ENOMEM;
		goto err_wr_wq;
	}

	/* a new instance records its capacity on the media first */
	if (rrpc->sb_paddr == RRPC_ADDR_EMPTY) {
		ret = rrpc_sb_write(rrpc);
		if (ret)
			goto err_workers;
	}

	ret = rrpc_set_limits(rrpc);
	if (ret)
		goto err_workers;
	set_capacity(disk, rrpc->nr_lbas << RRPC_SECT512_SHIFT);

	rrpc_info(rrpc, "on %s LUNs %d-%d: %u good blocks of %u sectors, %llu MiB, over-provisioning %u%%, hot/cold separation %s\n",
		  dev->name, conf->lun_begin, conf->lun_end,
		  rrpc->good_blocks, rrpc->spb,
		  rrpc->nr_lbas * RRPC_SECTOR_SIZE >> 20, op,
		  rrpc->temps > 1 ? "on" : "off");
	rrpc_info(rrpc, "recovered (%s): %llu sectors mapped in %u blocks, %u trim records, %u unreadable sectors; scanned %llu %s in %llu ms\n",
		  rrpc_rec_modes[rrpc->rec.mode],
		  rrpc->rec.mapped, rrpc->rec.blocks, rrpc->rec.trims,
		  rrpc->rec.torn, rrpc->rec.scanned,
		  rrpc->rec.mode == RRPC_REC_FACTORY ? "blocks erased" : "sectors",
		  rrpc->rec.ms);
	trace_rrpc_recover(disk->disk_name, rrpc_rec_modes[rrpc->rec.mode],
			   rrpc->rec.ms, rrpc->rec.scanned, rrpc->rec.blocks,
			   rrpc->rec.mapped, rrpc->rec.trims, rrpc->rec.torn);
	/* recovered blocks may leave a LUN short of free blocks */
	for (i = 0; i < rrpc->nr_luns; i++)
		rrpc_gc_kick(&rrpc->luns[i]);
	return rrpc;

err_workers:
	WRITE_ONCE(rrpc->draining, true);
	rrpc_stop_workers(rrpc);
	goto err_gcs;
err_wr_wq:
	destroy_workqueue(rrpc->wr_wq);
err_gcs:
	rrpc_gcs_free(rrpc);
	rrpc_wb_free(rrpc);
err_blocks:
	rrpc_put_blocks(rrpc);
err_trim:
	__free_page(rrpc->trim_page);
err_maps:
	rrpc_maps_free(rrpc);
err_luns:
	rrpc_luns_free(rrpc);
err_check:
	kfree(rrpc);
	return ERR_PTR(ret);
}

static void rrpc_exit(void *private)
{
	struct rrpc *rrpc = private;
	u32 i;

	/*
	 * What the last writers left in the buffer goes to the media. A
	 * dead device, or one out of space, makes the writers drop it
	 * instead (logged): teardown never waits for the media forever.
	 */
	WRITE_ONCE(rrpc->draining, true);
	for (i = 0; i < rrpc->nr_luns; i++)
		rrpc_wr_kick(&rrpc->luns[i]);
	rrpc_wb_drain(rrpc);
	rrpc_stop_workers(rrpc);
	/* trim records the full buffer had no room for (out of space) */
	for (i = 0; i < rrpc->nr_luns && rrpc_wb_nr_unbuf(rrpc) &&
	     !READ_ONCE(rrpc->dead); i++)
		if (!rrpc->luns[i].gc.unit.nr)
			rrpc_gc_trims(&rrpc->luns[i], U64_MAX, true);
	if (rrpc_wb_nr_unbuf(rrpc))
		rrpc_err(rrpc, "%u trim records could not be written: without a checkpoint, those discards are undone at the next creation\n",
			 rrpc_wb_nr_unbuf(rrpc));
	/* the next creation reads the map instead of scanning */
	rrpc_ckpt_write(rrpc);

	/* every block goes back to the media manager, with its data */
	rrpc_put_blocks(rrpc);

	rrpc_gcs_free(rrpc);
	rrpc_wb_free(rrpc);
	__free_page(rrpc->trim_page);
	rrpc_maps_free(rrpc);
	rrpc_luns_free(rrpc);
	kfree(rrpc);
}

/* ------------------------------------------------------------- sysfs */

static struct rrpc *rrpc_of(struct device *dev)
{
	return dev_to_disk(dev)->queue->queuedata;
}

#define RRPC_STAT_ATTR(_name, _field)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n",				\
			  atomic64_read(&rrpc_of(dev)->stats._field));	\
}									\
static DEVICE_ATTR_RO(_name)

RRPC_STAT_ATTR(user_sectors_written, user_written);
RRPC_STAT_ATTR(user_sectors_read, user_read);
RRPC_STAT_ATTR(media_sectors_written, media_written);
RRPC_STAT_ATTR(gc_sectors_moved, gc_moved);
RRPC_STAT_ATTR(padded_sectors, padded);
RRPC_STAT_ATTR(discarded_sectors, discarded);
RRPC_STAT_ATTR(erases, erases);
RRPC_STAT_ATTR(gc_victims, gc_victims);
RRPC_STAT_ATTR(wl_victims, wl_victims);
RRPC_STAT_ATTR(grown_bad_blocks, grown_bad);
RRPC_STAT_ATTR(write_errors, write_errors);
RRPC_STAT_ATTR(read_errors, read_errors);
RRPC_STAT_ATTR(lost_sectors, lost);
RRPC_STAT_ATTR(dropped_sectors, dropped);
RRPC_STAT_ATTR(trim_records_dropped, trims_dropped);
RRPC_STAT_ATTR(host_errors, host_errors);
RRPC_STAT_ATTR(hot_sectors_written, hot_written);
RRPC_STAT_ATTR(gc_hot_victims, gc_hot);

static ssize_t hot_cold_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n", rrpc_of(dev)->temps > 1);
}
static DEVICE_ATTR_RO(hot_cold);

static ssize_t recovery_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct rrpc *rrpc = rrpc_of(dev);
	const struct rrpc_recovery *r = &rrpc->rec;

	return sysfs_emit(buf,
			  "mode %s scanned %llu blocks %u mapped %llu trims %u unreadable %u ms %llu\n",
			  rrpc_rec_modes[r->mode], r->scanned, r->blocks,
			  r->mapped, r->trims, r->torn, r->ms);
}
static DEVICE_ATTR_RO(recovery);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct rrpc *rrpc = rrpc_of(dev);

	if (READ_ONCE(rrpc->dead))
		return sysfs_emit(buf, "dead\n");
	if (READ_ONCE(rrpc->nospc))
		return sysfs_emit(buf, "nospc\n");
	return sysfs_emit(buf, "ok\n");
}
static DEVICE_ATTR_RO(state);

static ssize_t free_blocks_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct rrpc *rrpc = rrpc_of(dev);
	int i, n = 0;

	for (i = 0; i < rrpc->nr_luns; i++)
		n += sysfs_emit_at(buf, n, "%s%u", i ? " " : "",
				   rrpc_lun_free(&rrpc->luns[i]));
	n += sysfs_emit_at(buf, n, "\n");
	return n;
}
static DEVICE_ATTR_RO(free_blocks);

static ssize_t waf_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct rrpc *rrpc = rrpc_of(dev);
	u64 user = atomic64_read(&rrpc->stats.user_written);
	u64 media = atomic64_read(&rrpc->stats.media_written);
	u64 milli = user ? div64_u64(media * 1000, user) : 0;

	return sysfs_emit(buf, "%llu.%03llu\n", milli / 1000, milli % 1000);
}
static DEVICE_ATTR_RO(waf);

static ssize_t geometry_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct rrpc *rrpc = rrpc_of(dev);

	return sysfs_emit(buf,
			  "luns %d good_blocks %u sectors_per_block %u sectors_per_unit %u reserved_blocks_per_lun %d over_prov %u capacity_sectors %llu usable_sectors %llu open_blocks_per_lun %d wl_frac %d wl_slack %d wr_lead %d\n",
			  rrpc->nr_luns, rrpc->good_blocks, rrpc->spb,
			  rrpc->spp, RRPC_RSV_BLKS, rrpc->op, rrpc->nr_lbas,
			  (u64)(rrpc->good_blocks -
				rrpc->nr_luns * RRPC_RSV_BLKS) * rrpc->spb,
			  2 * rrpc->temps, RRPC_WL_FRAC, RRPC_WL_SLACK,
			  RRPC_WR_LEAD);
}
static DEVICE_ATTR_RO(geometry);

static struct attribute *rrpc_attrs[] = {
	&dev_attr_user_sectors_written.attr,
	&dev_attr_user_sectors_read.attr,
	&dev_attr_media_sectors_written.attr,
	&dev_attr_gc_sectors_moved.attr,
	&dev_attr_padded_sectors.attr,
	&dev_attr_discarded_sectors.attr,
	&dev_attr_erases.attr,
	&dev_attr_gc_victims.attr,
	&dev_attr_wl_victims.attr,
	&dev_attr_grown_bad_blocks.attr,
	&dev_attr_write_errors.attr,
	&dev_attr_read_errors.attr,
	&dev_attr_lost_sectors.attr,
	&dev_attr_dropped_sectors.attr,
	&dev_attr_trim_records_dropped.attr,
	&dev_attr_host_errors.attr,
	&dev_attr_hot_sectors_written.attr,
	&dev_attr_gc_hot_victims.attr,
	&dev_attr_hot_cold.attr,
	&dev_attr_recovery.attr,
	&dev_attr_state.attr,
	&dev_attr_free_blocks.attr,
	&dev_attr_waf.attr,
	&dev_attr_geometry.attr,
	NULL,
};

static const struct attribute_group rrpc_attr_group = {
	.name	= "rrpc",
	.attrs	= rrpc_attrs,
};

static const struct attribute_group *rrpc_attr_groups[] = {
	&rrpc_attr_group,
	NULL,
};

static struct nvm_tgt_type tt_rrpc = {
	.name		= "rrpc",
	.version	= {1, 0, 0},
	.mq_ops		= &rrpc_mq_ops,
	.cmd_size	= sizeof(struct rrpc_rq),
	.queue_depth	= RRPC_QUEUE_DEPTH,
	.init		= rrpc_init,
	.exit		= rrpc_exit,
	.groups		= rrpc_attr_groups,
	.owner		= THIS_MODULE,
};

static int __init rrpc_module_init(void)
{
	return nvm_register_tgt_type(&tt_rrpc);
}

static void __exit rrpc_module_exit(void)
{
	nvm_unregister_tgt_type(&tt_rrpc);
}

module_init(rrpc_module_init);
module_exit(rrpc_module_exit);

MODULE_DESCRIPTION("rrpc: round-robin host FTL target for Open-Channel SSDs");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0.0");
MODULE_ALIAS("nvm-tgt-rrpc");
