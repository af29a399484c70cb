// SPDX-License-Identifier: GPL-2.0
/*
 * LightNVM core: the life cycle of targets. The core owns a target's disk
 * (tag set, gendisk, open/remove synchronisation); the target type only
 * fills in the disk's limits and serves its requests. Creation reserves
 * the name and the LUN range in the media manager and pins the modules of
 * the target type and the media manager; removal undoes it in reverse
 * order, after the disk was deleted and its queue drained.
 *
 * A target type's init and exit may take long (a scan of the media, or a
 * device that stopped answering), so neither runs under nvm_lock, which
 * every control command and some sysfs reads take:
 *
 *   create:  nvm_lock: checks, module references, LUNs, the name on
 *            nvm_targets in state CREATING       (nvm_tgt_reserve())
 *            unlocked: tag set, disk, type's init, device_add_disk()
 *            nvm_lock: state LIVE, or off the list and everything
 *            released if a step failed           (nvm_tgt_create())
 *   remove:  nvm_lock: LIVE and not open -> REMOVING, later opens fail
 *            unlocked: del_gendisk(), type's exit, put_disk(), tag set
 *            nvm_lock: LUNs released, off the list, freed, references
 *            dropped                             (nvm_tgt_remove())
 *
 * While a target is CREATING or REMOVING its name and LUNs stay taken
 * (create: -EEXIST, -EBUSY), a remove of it fails (-EBUSY while creating,
 * -ENODEV while removing), and nvm_tgt_remove_all() waits for it. Each
 * transition bumps nvm_tgt_gen and wakes nvm_tgt_wq.
 */

#define pr_fmt(fmt) "lightnvm: " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/lightnvm.h>
#include <linux/wait.h>

#include "core.h"

/*
 * A target's disk may only be opened while its private_data points to the
 * target; removal clears it under the disk's open_mutex once it has seen
 * no opener, so no open can slip in between the check and del_gendisk().
 */
static int nvm_tgt_open(struct gendisk *disk, blk_mode_t mode)
{
	lockdep_assert_held(&disk->open_mutex);
	return disk->private_data ? 0 : -ENXIO;
}

NVM_DEFINE_BDOPS_OPEN(nvm_tgt_open);

static const struct block_device_operations nvm_tgt_fops = {
	.owner		= THIS_MODULE,
	.open		= nvm_bdops_open(nvm_tgt_open),
};

#ifdef CONFIG_NVM_DEBUG
static unsigned int tgt_live_delay_ms;
module_param(tgt_live_delay_ms, uint, 0644);
MODULE_PARM_DESC(tgt_live_delay_ms, "Debug: pause this long (ms) after a new target went live, before its creation returns: a window for a removal (tests). Default: 0");
#endif

/*
 * Debug: the end of a creation, after the target went live and nvm_lock
 * was dropped, where a concurrent removal may already free the target.
 */
static void nvm_tgt_live_delay(void)
{
#ifdef CONFIG_NVM_DEBUG
	unsigned int ms = READ_ONCE(tgt_live_delay_ms);

	if (ms)
		msleep(ms);
#endif
}

/* Bumped under nvm_lock at every state change of a target; see core.h. */
static unsigned long nvm_tgt_gen;
static DECLARE_WAIT_QUEUE_HEAD(nvm_tgt_wq);

/* A target changed state or went away: wake those waiting for it. */
static void nvm_tgt_changed(void)
{
	lockdep_assert_held(&nvm_lock);
	WRITE_ONCE(nvm_tgt_gen, nvm_tgt_gen + 1);
	wake_up_all(&nvm_tgt_wq);
}

/*
 * Wait, without nvm_lock, until some target changed state; the caller
 * must look again at what it was waiting for.
 *
 * Context: process, nvm_lock held; dropped while waiting, held on return.
 */
static void nvm_tgt_wait_change(void)
{
	unsigned long gen = nvm_tgt_gen;

	lockdep_assert_held(&nvm_lock);
	mutex_unlock(&nvm_lock);
	wait_event(nvm_tgt_wq, READ_ONCE(nvm_tgt_gen) != gen);
	mutex_lock(&nvm_lock);
}

/*
 * Any target of that name, in any state.
 *
 * Context: nvm_lock held.
 */
struct nvm_target *nvm_find_target(const char *name)
{
	struct nvm_target *t;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry(t, &nvm_targets, list)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/*
 * Does @dev have a target, in any state?
 *
 * Context: nvm_lock held.
 */
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

/*
 * The one check of a create request's LUN range: lun_begin <= lun_end <
 * the device's number of LUNs. Compared as unsigned, so that a value of
 * the ioctl's 32-bit fields over INT_MAX (negative here) is refused too
 * and is printed as userspace gave it.
 */
static int nvm_tgt_check_luns(struct nvm_dev *dev, const char *name,
			      const struct nvm_tgt_conf *conf)
{
	unsigned int begin = conf->lun_begin, end = conf->lun_end;
	unsigned int nr_luns = dev->geo.nr_luns;

	if (begin >= nr_luns) {
		pr_err("%s: lun_begin %u out of range (%s has LUNs 0..%u)\n",
		       name, begin, dev->name, nr_luns - 1);
		return -EINVAL;
	}
	if (end < begin || end >= nr_luns) {
		pr_err("%s: lun_end %u out of range (%u..%u)\n",
		       name, end, begin, nr_luns - 1);
		return -EINVAL;
	}
	return 0;
}

/**
 * nvm_tgt_reserve() - first step of creating a target: reserve it
 * @dev: registered device, bound to a media manager
 * @tt: target type
 * @name: target and disk name, checked by the caller
 * @conf: LUN range (checked against @dev here), over-provisioning, flags
 *
 * Checks the request, takes references on the modules of @tt and of the
 * media manager, reserves the LUN range and puts the target on
 * nvm_targets in state %NVM_TGT_CREATING, which reserves @name. Finish
 * with nvm_tgt_create() after dropping nvm_lock.
 *
 * Context: process, nvm_lock held.
 * Return: the reserved target, or an ERR_PTR() with the reason logged:
 * -ENXIO (no media manager), -EINVAL (LUN range), -EEXIST (name taken,
 * possibly by a target being created or removed), -ENODEV (a module is
 * unloading), -EBUSY (LUNs taken, or user-space writes to @dev in
 * flight: nvm_user_write_begin()), -ENOMEM.
 */
struct nvm_target *nvm_tgt_reserve(struct nvm_dev *dev,
				   struct nvm_tgt_type *tt, const char *name,
				   const struct nvm_tgt_conf *conf)
{
	struct nvm_mm_type *mt = dev->mm;
	struct nvm_core_target *ct;
	struct nvm_target *t;
	int ret;

	lockdep_assert_held(&nvm_lock);

	if (!mt) {
		pr_err("%s: device is not bound to a media manager; bind it first (lnvm init -d %s)\n",
		       dev->name, dev->name);
		return ERR_PTR(-ENXIO);
	}
	ret = nvm_tgt_check_luns(dev, name, conf);
	if (ret)
		return ERR_PTR(ret);
	if (dev->user_writes) {
		pr_err("%s: %u user-space writes or erases to %s are in flight; retry when they are done\n",
		       name, dev->user_writes, dev->name);
		return ERR_PTR(-EBUSY);
	}
	t = nvm_find_target(name);
	if (t) {
		ct = to_nvm_core_target(t);
		pr_err("%s: a target of that name exists%s\n", name,
		       ct->state == NVM_TGT_CREATING ? " (being created)" :
		       ct->state == NVM_TGT_REMOVING ? " (being removed)" : "");
		return ERR_PTR(-EEXIST);
	}

	if (!try_module_get(tt->owner)) {
		pr_err("%s: target type %s is being unloaded\n", name, tt->name);
		return ERR_PTR(-ENODEV);
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

	ct = kzalloc_node(sizeof(*ct), GFP_KERNEL, dev->node);
	if (!ct) {
		ret = -ENOMEM;
		goto err_release;
	}
	ct->mm = mt;
	ct->state = NVM_TGT_CREATING;
	t = &ct->tgt;
	strscpy(t->name, name, sizeof(t->name));
	t->dev = dev;
	t->type = tt;
	t->conf = *conf;
	list_add_tail(&t->list, &nvm_targets);
	nvm_tgt_changed();
	return t;

err_release:
	mt->release_lun(dev, conf->lun_begin, conf->lun_end);
err_put_mm:
	module_put(mt->owner);
err_put_tt:
	module_put(tt->owner);
	return ERR_PTR(ret);
}

/*
 * Last step of a removal, or of a failed creation: release what
 * nvm_tgt_reserve() took and free the target.
 */
static void nvm_tgt_unreserve(struct nvm_target *t)
{
	struct nvm_core_target *ct = to_nvm_core_target(t);
	struct nvm_tgt_type *tt = t->type;
	struct nvm_mm_type *mt = ct->mm;

	lockdep_assert_held(&nvm_lock);
	WARN_ON_ONCE(ct->state == NVM_TGT_LIVE);
	mt->release_lun(t->dev, t->conf.lun_begin, t->conf.lun_end);
	list_del(&t->list);
	nvm_tgt_changed();
	kfree(ct);
	module_put(mt->owner);
	module_put(tt->owner);
}

/**
 * nvm_tgt_create() - second step of creating a target: set it up, publish
 * @t: from nvm_tgt_reserve()
 *
 * Allocates the disk and its tag set, calls the type's init and adds the
 * disk, all without nvm_lock; then makes the target %NVM_TGT_LIVE. On
 * failure everything is undone and @t is freed.
 *
 * Context: process, nvm_lock not held (it is taken).
 * Return: 0 or a negative errno, with the reason logged.
 */
int nvm_tgt_create(struct nvm_target *t)
{
	struct nvm_core_target *ct = to_nvm_core_target(t);
	struct nvm_tgt_type *tt = t->type;
	struct nvm_dev *dev = t->dev;
	struct gendisk *disk;
	void *priv;
	int ret;

	might_sleep();
	lockdep_assert_not_held(&nvm_lock);

	t->tag_set.ops = tt->mq_ops;
	t->tag_set.nr_hw_queues = 1;
	t->tag_set.queue_depth = tt->queue_depth;
	t->tag_set.numa_node = dev->node;
	t->tag_set.cmd_size = tt->cmd_size;
	/*
	 * No I/O scheduler unless the user picks one: a target places its
	 * own writes, and mq-deadline on its single queue would send every
	 * request through the scheduler and a kblockd run of the queue
	 * instead of issuing it directly.
	 */
	t->tag_set.flags = BLK_MQ_F_SHOULD_MERGE | BLK_MQ_F_NO_SCHED_BY_DEFAULT;
	ret = blk_mq_alloc_tag_set(&t->tag_set);
	if (ret) {
		pr_err("%s: could not allocate the tag set: %d\n", t->name, ret);
		goto err_unreserve;
	}

	disk = blk_mq_alloc_disk(&t->tag_set, NULL, NULL);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		pr_err("%s: could not allocate the disk: %d\n", t->name, ret);
		goto err_free_tag_set;
	}
	if (nvm_disk_name_taken(disk, t->name)) {
		pr_err("%s: a block device of that name exists\n", t->name);
		ret = -EEXIST;
		goto err_put_disk;
	}
	strscpy(disk->disk_name, t->name, sizeof(disk->disk_name));
	disk->fops = &nvm_tgt_fops;
	disk->private_data = t;
	t->disk = disk;

	priv = tt->init(t, disk, &t->conf);
	if (IS_ERR_OR_NULL(priv)) {
		ret = priv ? PTR_ERR(priv) : -EINVAL;
		pr_err("%s: target type %s failed to initialise: %d\n",
		       t->name, tt->name, ret);
		goto err_put_disk;
	}
	t->private = priv;
	disk->queue->queuedata = priv;

	ret = device_add_disk(dev->parent, disk, tt->groups);
	if (ret) {
		pr_err("%s: could not add the disk: %d\n", t->name, ret);
		goto err_exit_tgt;
	}

	mutex_lock(&nvm_lock);
	ct->state = NVM_TGT_LIVE;
	nvm_tgt_changed();
	/* before nvm_lock goes: from then on a removal may free @t */
	pr_info("%s: created target of type %s on %s, LUNs %d..%d\n",
		t->name, tt->name, dev->name, t->conf.lun_begin,
		t->conf.lun_end);
	mutex_unlock(&nvm_lock);
	nvm_tgt_live_delay();
	return 0;

err_exit_tgt:
	tt->exit(priv);
err_put_disk:
	put_disk(disk);
	t->disk = NULL;
err_free_tag_set:
	blk_mq_free_tag_set(&t->tag_set);
err_unreserve:
	mutex_lock(&nvm_lock);
	nvm_tgt_unreserve(t);
	mutex_unlock(&nvm_lock);
	return ret;
}

/*
 * Delete the disk of a %NVM_TGT_REMOVING target and exit its type's
 * instance; the slow part of a removal, run without nvm_lock.
 */
static void nvm_tgt_teardown(struct nvm_target *t)
{
	lockdep_assert_not_held(&nvm_lock);
	/* fails new I/O, drains the queue: nothing of the target in flight */
	del_gendisk(t->disk);
	t->type->exit(t->private);
	put_disk(t->disk);
	blk_mq_free_tag_set(&t->tag_set);
}

/*
 * Remove a target that nobody can open any more (its disk's private_data
 * cleared): mark it %NVM_TGT_REMOVING, tear it down without nvm_lock, then
 * free it.
 *
 * Context: process, nvm_lock held; dropped during the teardown, held on
 * return.
 */
static void nvm_tgt_remove_locked(struct nvm_target *t)
{
	struct nvm_core_target *ct = to_nvm_core_target(t);
	char name[DISK_NAME_LEN];
	char dev_name[DISK_NAME_LEN];

	lockdep_assert_held(&nvm_lock);
	ct->state = NVM_TGT_REMOVING;
	nvm_tgt_changed();
	strscpy(name, t->name, sizeof(name));
	strscpy(dev_name, t->dev->name, sizeof(dev_name));

	mutex_unlock(&nvm_lock);
	nvm_tgt_teardown(t);
	mutex_lock(&nvm_lock);

	nvm_tgt_unreserve(t);
	pr_info("%s: removed target from %s\n", name, dev_name);
}

/**
 * nvm_tgt_remove() - remove a target whose disk is not open
 * @name: target name
 *
 * Context: process, nvm_lock not held (it is taken, and dropped while the
 * disk is deleted and the target type's exit runs).
 * Return: 0, -ENODEV if there is no such target or it is being removed
 * already, -EBUSY if its disk is open (mounted, or held by a process) or
 * it is still being created.
 */
int nvm_tgt_remove(const char *name)
{
	struct nvm_core_target *ct;
	struct nvm_target *t;
	struct gendisk *disk;
	unsigned int openers;
	int ret = 0;

	mutex_lock(&nvm_lock);
	t = nvm_find_target(name);
	if (!t) {
		pr_err("%s: no target of that name\n", name);
		ret = -ENODEV;
		goto out;
	}
	ct = to_nvm_core_target(t);
	if (ct->state == NVM_TGT_REMOVING) {
		pr_err("%s: target is being removed already\n", name);
		ret = -ENODEV;
		goto out;
	}
	if (ct->state == NVM_TGT_CREATING) {
		pr_err("%s: target is still being created; remove it once created\n",
		       name);
		ret = -EBUSY;
		goto out;
	}
	disk = t->disk;

	mutex_lock(&disk->open_mutex);
	openers = disk_openers(disk);
	if (!openers)
		disk->private_data = NULL;	/* later opens fail */
	mutex_unlock(&disk->open_mutex);
	if (openers) {
		pr_err("%s: target is in use (open %u times); unmount or close it first\n",
		       name, openers);
		ret = -EBUSY;
		goto out;
	}

	nvm_tgt_remove_locked(t);
out:
	mutex_unlock(&nvm_lock);
	return ret;
}

/**
 * nvm_tgt_remove_all() - remove every target of a device, open or not
 * @dev: the device, being unregistered (control commands no longer find
 *	it, so no target of it can be created any more)
 *
 * An open disk is deleted anyway: its I/O fails from then on. Waits for
 * the targets of @dev that are being created (then removes them) or
 * removed by someone else.
 *
 * Context: process, nvm_lock held; dropped while targets are torn down or
 * waited for, held on return, when @dev has no target left.
 */
void nvm_tgt_remove_all(struct nvm_dev *dev)
{
	struct nvm_target *t;

	lockdep_assert_held(&nvm_lock);
	WARN_ON_ONCE(dev->registered);
restart:
	list_for_each_entry(t, &nvm_targets, list) {
		if (t->dev != dev)
			continue;
		if (to_nvm_core_target(t)->state != NVM_TGT_LIVE) {
			nvm_tgt_wait_change();
			goto restart;
		}
		mutex_lock(&t->disk->open_mutex);
		if (disk_openers(t->disk))
			pr_warn("%s: device %s goes away while the target is open; its I/O fails from now on\n",
				t->name, dev->name);
		t->disk->private_data = NULL;
		mutex_unlock(&t->disk->open_mutex);
		nvm_tgt_remove_locked(t);
		goto restart;
	}
}
