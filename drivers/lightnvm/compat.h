/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LightNVM compatibility with older kernels: the one place that knows
 * which kernel series it is built for. The drivers are written for the
 * interfaces of Linux 6.12 LTS; each item below gives Linux 6.1 LTS the
 * newer shape (or, where 6.1 cannot carry it, a small helper both series
 * share), with the kernel release that changed it. Nothing else in the
 * drivers tests LINUX_VERSION_CODE. Documentation/lightnvm/differences.rst
 * lists the same changes from the user's side.
 */
#ifndef _LIGHTNVM_COMPAT_H
#define _LIGHTNVM_COMPAT_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>

/*
 * Linux 6.5 passes ->open() of &struct block_device_operations the gendisk
 * and a blk_mode_t (BLK_OPEN_*) instead of the block device and an
 * fmode_t. A driver defines its open for the gendisk and names it in
 * its operations as nvm_bdops_open(fn). NVM_DEFINE_BDOPS_OPEN(fn);
 * follows the definition of fn: on 6.5 and later it declares fn again
 * (an open of another shape fails to build); on 6.1 it defines the
 * adapter from the old shape, fn_bdev(), which calls fn.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define NVM_DEFINE_BDOPS_OPEN(fn)					\
static int fn(struct gendisk *disk, blk_mode_t mode)

#define nvm_bdops_open(fn)		fn
#else
typedef fmode_t blk_mode_t;

#define NVM_DEFINE_BDOPS_OPEN(fn)					\
static int fn##_bdev(struct block_device *bdev, fmode_t mode)		\
{									\
	return fn(bdev->bd_disk, mode);					\
}									\
static int fn##_bdev(struct block_device *bdev, fmode_t mode)

#define nvm_bdops_open(fn)		fn##_bdev
#endif

/*
 * Linux 6.9 takes the queue limits at disk allocation
 * (blk_mq_alloc_disk(set, lim, queuedata)) and changes them as a whole:
 * queue_limits_start_update() returns a copy under the queue's
 * limits_lock, queue_limits_commit_update() validates and applies it.
 * 6.1 has one blk_queue_*() setter per limit; commit applies through them
 * the limits LightNVM's targets set (block sizes, I/O sizes, transfer and
 * segment sizes, discard and write-zeroes), which the setters derive the
 * dependent limits from as 6.9's validation does.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
static inline struct queue_limits
queue_limits_start_update(struct request_queue *q)
{
	return q->limits;
}

static inline int queue_limits_commit_update(struct request_queue *q,
					     struct queue_limits *lim)
{
	blk_queue_logical_block_size(q, lim->logical_block_size);
	blk_queue_physical_block_size(q, lim->physical_block_size);
	blk_queue_io_min(q, lim->io_min);
	blk_queue_io_opt(q, lim->io_opt);
	blk_queue_max_hw_sectors(q, lim->max_hw_sectors);
	blk_queue_max_segments(q, lim->max_segments);
	q->limits.discard_granularity = lim->discard_granularity;
	blk_queue_max_discard_sectors(q, lim->max_hw_discard_sectors);
	blk_queue_max_write_zeroes_sectors(q, lim->max_write_zeroes_sectors);
	return 0;
}

static inline struct gendisk *nvm_compat_disk_limits(struct gendisk *disk,
						     struct queue_limits *lim)
{
	if (!IS_ERR(disk) && lim)
		queue_limits_commit_update(disk->queue, lim);
	return disk;
}

#undef blk_mq_alloc_disk
#define blk_mq_alloc_disk(set, lim, queuedata)				\
({									\
	static struct lock_class_key __key;				\
									\
	nvm_compat_disk_limits(__blk_mq_alloc_disk(set, queuedata,	\
						   &__key), lim);	\
})
#endif

/*
 * Linux 6.2 keeps the DMA alignment a buffer needs (O_DIRECT checks user
 * buffers against it) in the queue limits, lim->dma_alignment; 6.1 in
 * the queue (blk_queue_dma_alignment()). nvm_lim_dma_alignment_set() sets
 * it in @lim, or at once on @q.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
static inline void nvm_lim_dma_alignment_set(struct queue_limits *lim,
					     struct request_queue *q,
					     unsigned int mask)
{
	lim->dma_alignment = mask;
}
#else
static inline void nvm_lim_dma_alignment_set(struct queue_limits *lim,
					     struct request_queue *q,
					     unsigned int mask)
{
	blk_queue_dma_alignment(q, mask);
}
#endif

/*
 * Linux 6.11 turned the request queue's flags that describe the device
 * (volatile write cache, FUA, rotational, entropy contribution) into
 * features of the queue limits, lim->features (BLK_FEAT_*), set with the
 * other limits; a blk-mq queue is non-rotational and adds no entropy
 * unless told otherwise. 6.1 keeps them in queue flags and
 * blk_queue_write_cache(), and struct queue_limits has no room for them:
 * nvm_lim_features_set() sets them in @lim (6.11) or at once on @q (6.1,
 * with 6.11's defaults for those not given). Call it between
 * queue_limits_start_update() and queue_limits_commit_update().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
static inline void nvm_lim_features_set(struct queue_limits *lim,
					struct request_queue *q,
					blk_features_t features)
{
	lim->features |= features;
}
#else
typedef unsigned int blk_features_t;
#define BLK_FEAT_WRITE_CACHE	((blk_features_t)(1u << 0))
#define BLK_FEAT_FUA		((blk_features_t)(1u << 1))
#define BLK_FEAT_ROTATIONAL	((blk_features_t)(1u << 2))
#define BLK_FEAT_ADD_RANDOM	((blk_features_t)(1u << 3))

static inline void nvm_lim_features_set(struct queue_limits *lim,
					struct request_queue *q,
					blk_features_t features)
{
	blk_queue_write_cache(q, features & BLK_FEAT_WRITE_CACHE,
			      features & BLK_FEAT_FUA);
	if (features & BLK_FEAT_ROTATIONAL)
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, q);
	else
		blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	if (features & BLK_FEAT_ADD_RANDOM)
		blk_queue_flag_set(QUEUE_FLAG_ADD_RANDOM, q);
	else
		blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
}
#endif

/*
 * Linux 6.2 dropped the namespace flag NVME_NS_DEAD: a namespace of a
 * controller that died has its disk marked dead (GD_DEAD) by
 * nvme_mark_namespaces_dead() instead. For drivers/nvme/host/lightnvm.c,
 * which includes nvme.h before this header.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define nvm_nvme_ns_dead(ns)	test_bit(GD_DEAD, &(ns)->disk->state)
#else
#define nvm_nvme_ns_dead(ns)	test_bit(NVME_NS_DEAD, &(ns)->flags)
#endif

/*
 * Linux 6.9 caches a time in the task's plug (plug->cur_ktime, valid while
 * the task has PF_BLOCK_TS set), and the scheduler drops it through
 * current->plug whenever the task runs again (blk_plug_invalidate_ts() in
 * finish_task_switch()). Code that takes the plug from the task for a
 * moment must drop the cached time first: a preemption while current->plug
 * is NULL would otherwise dereference it. nvm_plug_detach() takes the
 * task's plug away and returns it, nvm_plug_attach() gives it back; 6.1
 * caches no time.
 */
static inline struct blk_plug *nvm_plug_detach(void)
{
	struct blk_plug *plug = current->plug;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	blk_plug_invalidate_ts();
#endif
	current->plug = NULL;
	return plug;
}

static inline void nvm_plug_attach(struct blk_plug *plug)
{
	current->plug = plug;
}

#endif /* _LIGHTNVM_COMPAT_H */
