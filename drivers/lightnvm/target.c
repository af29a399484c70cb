// SPDX-License-Identifier: GPL-2.0
/*
 * LightNVM core: the life cycle of targets. The core owns a target's disk
 * (tag set, gendisk, open/remove synchronisation); the target type only
 * fills in the disk's limits and serves its requests. Creation reserves
 * the LUN range in the media manager and pins the modules of the target
 * type and the media manager; removal undoes it in reverse order, after
 * the disk was deleted and its queue drained.
 */

#define pr_fmt(fmt) "lightnvm: " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/lightnvm.h>

#include "core.h"

/*
 * A target's disk may only be opened while its private_data points to the
 * target; removal clears it under the disk's open_mutex once it has seen
 * no opener, so no open can slip in between the check and del_gendisk().
 */
static int nvm_tgt_open(struct block_device *bdev, fmode_t mode)
{
	lockdep_assert_held(&bdev->bd_disk->open_mutex);
	return bdev->bd_disk->private_data ? 0 : -ENXIO;
}

static const struct block_device_operations nvm_tgt_fops = {
	.owner		= THIS_MODULE,
	.open		= nvm_tgt_open,
};

/* Context: nvm_lock held. */
struct nvm_target *nvm_find_target(const char *name)
{
	struct nvm_target *t;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry(t, &nvm_targets, list)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* Context: nvm_lock held. */
bool nvm_dev_has_targets(struct nvm_dev *dev)
{
	struct nvm_target *t;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry(t, &nvm_targets, list)
		if (t->dev == dev)
			return true;
	return false;
}

/*
 * Is there a block device called @name? block_class is not exported: find
 * it through our own, not yet added, @disk.
 */
static bool nvm_disk_name_taken(struct gendisk *disk, const char *name)
{
	struct device *d;

	d = class_find_device_by_name(disk_to_dev(disk)->class, name);
	if (!d)
		return false;
	put_device(d);
	return true;
}

/**
 * nvm_tgt_create() - create a target and its disk
 * @dev: device, bound to a media manager
 * @tt: target type
 * @name: target and disk name, checked by the caller
 * @conf: LUN range (checked against @dev here), over-provisioning, flags
 *
 * Context: process, nvm_lock held.
 * Return: 0 or a negative errno, with the reason logged.
 */
int nvm_tgt_create(struct nvm_dev *dev, struct nvm_tgt_type *tt,
		   const char *name, const struct nvm_tgt_conf *conf)
{
	struct nvm_mm_type *mt = dev->mm;
	struct nvm_target *t;
	struct gendisk *disk;
	void *priv;
	int ret;

	lockdep_assert_held(&nvm_lock);

	if (!mt) {
		pr_err("%s: device is not bound to a media manager; bind it first (lnvm init -d %s)\n",
		       dev->name, dev->name);
		return -ENXIO;
	}
	if (conf->lun_begin < 0 || conf->lun_begin >= dev->geo.nr_luns) {
		pr_err("%s: lun_begin %d out of range (device has LUNs 0..%d)\n",
		       name, conf->lun_begin, dev->geo.nr_luns - 1);
		return -EINVAL;
	}
	if (conf->lun_end < conf->lun_begin ||
	    conf->lun_end >= dev->geo.nr_luns) {
		pr_err("%s: lun_end %d out of range (%d..%d)\n",
		       name, conf->lun_end, conf->lun_begin,
		       dev->geo.nr_luns - 1);
		return -EINVAL;
	}
	if (nvm_find_target(name)) {
		pr_err("%s: a target of that name exists\n", name);
		return -EEXIST;
	}

	if (!try_module_get(tt->owner)) {
		pr_err("%s: target type %s is being unloaded\n", name, tt->name);
		return -ENODEV;
	}
	if (!try_module_get(mt->owner)) {
		pr_err("%s: media manager %s is being unloaded\n", name,
		       mt->name);
		ret = -ENODEV;
		goto err_put_tt;
	}
	ret = mt->reserve_lun(dev, conf->lun_begin, conf->lun_end);
	if (ret) {
		pr_err("%s: LUNs %d..%d of %s overlap another target\n",
		       name, conf->lun_begin, conf->lun_end, dev->name);
		goto err_put_mm;
	}

	t = kzalloc_node(sizeof(*t), GFP_KERNEL, dev->node);
	if (!t) {
		ret = -ENOMEM;
		goto err_release;
	}
	strscpy(t->name, name, sizeof(t->name));
	t->dev = dev;
	t->type = tt;
	t->conf = *conf;

	t->tag_set.ops = tt->mq_ops;
	t->tag_set.nr_hw_queues = 1;
	t->tag_set.queue_depth = tt->queue_depth;
	t->tag_set.numa_node = dev->node;
	t->tag_set.cmd_size = tt->cmd_size;
	t->tag_set.flags = BLK_MQ_F_SHOULD_MERGE;
	ret = blk_mq_alloc_tag_set(&t->tag_set);
	if (ret) {
		pr_err("%s: could not allocate the tag set: %d\n", name, ret);
		goto err_free_tgt;
	}

	disk = blk_mq_alloc_disk(&t->tag_set, NULL);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		pr_err("%s: could not allocate the disk: %d\n", name, ret);
		goto err_free_tag_set;
	}
	if (nvm_disk_name_taken(disk, name)) {
		pr_err("%s: a block device of that name exists\n", name);
		ret = -EEXIST;
		goto err_put_disk;
	}
	strscpy(disk->disk_name, name, sizeof(disk->disk_name));
	disk->fops = &nvm_tgt_fops;
	disk->private_data = t;
	t->disk = disk;

	priv = tt->init(t, disk, conf);
	if (IS_ERR_OR_NULL(priv)) {
		ret = priv ? PTR_ERR(priv) : -EINVAL;
		pr_err("%s: target type %s failed to initialise: %d\n",
		       name, tt->name, ret);
		goto err_put_disk;
	}
	t->private = priv;
	disk->queue->queuedata = priv;

	ret = device_add_disk(dev->parent, disk, tt->groups);
	if (ret) {
		pr_err("%s: could not add the disk: %d\n", name, ret);
		goto err_exit_tgt;
	}

	list_add_tail(&t->list, &nvm_targets);
	pr_info("%s: created target of type %s on %s, LUNs %d..%d\n",
		name, tt->name, dev->name, conf->lun_begin, conf->lun_end);
	return 0;

err_exit_tgt:
	tt->exit(priv);
err_put_disk:
	put_disk(disk);
err_free_tag_set:
	blk_mq_free_tag_set(&t->tag_set);
err_free_tgt:
	kfree(t);
err_release:
	mt->release_lun(dev, conf->lun_begin, conf->lun_end);
err_put_mm:
	module_put(mt->owner);
err_put_tt:
	module_put(tt->owner);
	return ret;
}

/* Undo nvm_tgt_create() for a target that nobody can open any more. */
static void nvm_tgt_teardown(struct nvm_target *t)
{
	struct nvm_dev *dev = t->dev;
	struct nvm_mm_type *mt = dev->mm;
	struct nvm_tgt_type *tt = t->type;

	lockdep_assert_held(&nvm_lock);
	list_del(&t->list);
	/* fails new I/O, drains the queue: nothing of the target in flight */
	del_gendisk(t->disk);
	tt->exit(t->private);
	put_disk(t->disk);
	blk_mq_free_tag_set(&t->tag_set);
	mt->release_lun(dev, t->conf.lun_begin, t->conf.lun_end);
	pr_info("%s: removed target from %s\n", t->name, dev->name);
	kfree(t);
	module_put(mt->owner);
	module_put(tt->owner);
}

/**
 * nvm_tgt_remove() - remove a target whose disk is not open
 * @name: target name
 *
 * Context: process, nvm_lock held.
 * Return: 0, -ENODEV if there is no such target, -EBUSY if its disk is
 * open (mounted, or held by a process).
 */
int nvm_tgt_remove(const char *name)
{
	struct nvm_target *t;
	struct gendisk *disk;
	int openers;

	lockdep_assert_held(&nvm_lock);
	t = nvm_find_target(name);
	if (!t) {
		pr_err("%s: no target of that name\n", name);
		return -ENODEV;
	}
	disk = t->disk;

	mutex_lock(&disk->open_mutex);
	openers = atomic_read(&disk->part0->bd_openers);
	if (!openers)
		disk->private_data = NULL;	/* later opens fail */
	mutex_unlock(&disk->open_mutex);
	if (openers) {
		pr_err("%s: target is in use (open %d times); unmount or close it first\n",
		       name, openers);
		return -EBUSY;
	}

	nvm_tgt_teardown(t);
	return 0;
}

/**
 * nvm_tgt_remove_all() - remove every target of a device, open or not
 * @dev: the device, being unregistered
 *
 * An open disk is deleted anyway: its I/O fails from then on.
 *
 * Context: process, nvm_lock held.
 */
void nvm_tgt_remove_all(struct nvm_dev *dev)
{
	struct nvm_target *t, *tmp;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry_safe(t, tmp, &nvm_targets, list) {
		if (t->dev != dev)
			continue;
		mutex_lock(&t->disk->open_mutex);
		if (atomic_read(&t->disk->part0->bd_openers))
			pr_warn("%s: device %s goes away while the target is open; its I/O fails from now on\n",
				t->name, dev->name);
		t->disk->private_data = NULL;
		mutex_unlock(&t->disk->open_mutex);
		nvm_tgt_teardown(t);
	}
}
