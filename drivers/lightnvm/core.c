// SPDX-License-Identifier: GPL-2.0
/*
 * LightNVM core: the registries (devices, media managers, target types),
 * the life cycle of a device (allocation, registration with identity
 * validation, binding to a media manager, unregistration), the physical
 * I/O path with its generic <-> device address conversion, and the calls
 * targets make into the bound media manager. Module entry points too.
 */

#define pr_fmt(fmt) "lightnvm: " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/completion.h>
#include <linux/kmod.h>
#include <linux/ctype.h>
#include <linux/lightnvm.h>
#include <kunit/visibility.h>

#include "core.h"

#define CREATE_TRACE_POINTS
#include <trace/events/lightnvm.h>

/* gennvm.ko fires these; they belong to the "lightnvm" event system */
EXPORT_TRACEPOINT_SYMBOL_GPL(gennvm_get_blk);
EXPORT_TRACEPOINT_SYMBOL_GPL(gennvm_claim_blk);
EXPORT_TRACEPOINT_SYMBOL_GPL(gennvm_put_blk);
EXPORT_TRACEPOINT_SYMBOL_GPL(gennvm_mark_blk);

/*
 * Protects the four lists below, target states, device registration flags
 * and bindings; see core.h for what it covers and the lock order.
 */
DEFINE_MUTEX(nvm_lock);
EXPORT_SYMBOL_IF_KUNIT(nvm_lock);
LIST_HEAD(nvm_devices);
LIST_HEAD(nvm_mms);
LIST_HEAD(nvm_tgt_types);
LIST_HEAD(nvm_targets);
EXPORT_SYMBOL_IF_KUNIT(nvm_targets);

static void nvm_dev_release(struct device *d)
{
	struct nvm_dev *dev = container_of(d, struct nvm_dev, dev);

	kfree(dev);
}

struct class nvm_class = {
	.name		= "lightnvm",
	.dev_release	= nvm_dev_release,
};

/* ------------------------------------------------------------ registries */

/*
 * A registered device of that name; a device being unregistered (still on
 * nvm_devices while its targets are torn down) is not found.
 *
 * Context: nvm_lock held.
 */
struct nvm_dev *nvm_find_dev(const char *name)
{
	struct nvm_dev *dev;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry(dev, &nvm_devices, devices)
		if (dev->registered && !strcmp(dev->name, name))
			return dev;
	return NULL;
}

/* Any device of that name on nvm_devices, being unregistered or not. */
static bool nvm_dev_name_taken(const char *name)
{
	struct nvm_dev *dev;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry(dev, &nvm_devices, devices)
		if (!strcmp(dev->name, name))
			return true;
	return false;
}

/* Context: nvm_lock held. */
struct nvm_mm_type *nvm_find_mm(const char *name)
{
	struct nvm_mm_type *mt;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry(mt, &nvm_mms, list)
		if (!strcmp(mt->name, name))
			return mt;
	return NULL;
}

/* Context: nvm_lock held. */
struct nvm_tgt_type *nvm_find_tgt_type(const char *name)
{
	struct nvm_tgt_type *tt;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry(tt, &nvm_tgt_types, list)
		if (!strcmp(tt->name, name))
			return tt;
	return NULL;
}

/**
 * nvm_bind_mm() - bind a device to a media manager
 * @dev: registered device, not bound
 * @mt: registered media manager
 *
 * No module reference is kept: a manager unbinds its devices when it
 * unregisters (nvm_unregister_mm()), and each target pins its manager.
 *
 * Context: process, nvm_lock held.
 * Return: 0, -ENODEV if @mt's module is going away, or the manager's error.
 */
int nvm_bind_mm(struct nvm_dev *dev, struct nvm_mm_type *mt)
{
	int ret;

	lockdep_assert_held(&nvm_lock);
	if (WARN_ON_ONCE(dev->mm))
		return -EEXIST;
	if (!try_module_get(mt->owner))
		return -ENODEV;
	ret = mt->register_mgr(dev);
	module_put(mt->owner);
	if (ret)
		return ret;
	/* a failed write's completion reads it without nvm_lock */
	WRITE_ONCE(dev->mm, mt);
	pr_info("%s: bound to media manager %s\n", dev->name, mt->name);
	return 0;
}

/**
 * nvm_unbind_mm() - unbind a device from its media manager, if bound
 * @dev: device without targets
 *
 * Context: process, nvm_lock held.
 */
void nvm_unbind_mm(struct nvm_dev *dev)
{
	struct nvm_mm_type *mt = dev->mm;

	lockdep_assert_held(&nvm_lock);
	if (!mt)
		return;
	WARN_ON_ONCE(nvm_dev_has_targets(dev));
	mt->unregister_mgr(dev);
	WRITE_ONCE(dev->mm, NULL);
	dev->mmp = NULL;
	pr_info("%s: unbound from media manager %s\n", dev->name, mt->name);
}

/* Bind @dev to the first registered manager that takes it. */
static void nvm_autobind(struct nvm_dev *dev)
{
	struct nvm_mm_type *mt;
	int ret;

	lockdep_assert_held(&nvm_lock);
	list_for_each_entry(mt, &nvm_mms, list) {
		ret = nvm_bind_mm(dev, mt);
		if (!ret)
			return;
		pr_warn("%s: media manager %s refused the device: %d\n",
			dev->name, mt->name, ret);
	}
}

/**
 * nvm_check_name() - check a name handed to the core
 * @ctx: what the name is for, first word of the message ("create", ...)
 * @field: the name's field, named in the message
 * @name: the name
 * @size: size of the array that holds it: at most @size - 1 characters
 *
 * Names of devices, media managers, target types and targets become
 * directory and disk names. The rule, the same for all of them: 1 to
 * @size - 1 ASCII letters, digits, '_', '-' and '.', not starting with
 * '-' or '.'. Bytes above 0x7f are refused (the kernel's isalnum() takes
 * Latin-1 letters, so it is only asked about ASCII bytes).
 *
 * Context: any.
 * Return: 0, or -EINVAL with the reason logged.
 */
int nvm_check_name(const char *ctx, const char *field, const char *name,
		   size_t size)
{
	size_t len = strnlen(name, size), i;

	if (len == size) {
		pr_err("%s: %s is not NUL-terminated within its %zu bytes\n",
		       ctx, field, size);
		return -EINVAL;
	}
	if (!len) {
		pr_err("%s: %s is empty\n", ctx, field);
		return -EINVAL;
	}
	if (name[0] == '-' || name[0] == '.') {
		pr_err("%s: %s \"%s\" starts with '%c'\n", ctx, field, name,
		       name[0]);
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if ((isascii(c) && isalnum(c)) || c == '_' || c == '-' ||
		    c == '.')
			continue;
		pr_err("%s: %s contains byte 0x%02x (allowed: ASCII letters, digits, '_', '-', '.')\n",
		       ctx, field, c);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nvm_check_name);

/**
 * nvm_register_mm() - make a media manager available
 * @mt: the manager; @mt->name unique, at most %NVM_MMTYPE_LEN - 1 bytes
 *
 * Binds every registered device that is not bound yet to @mt.
 *
 * Context: process.
 * Return: 0, -EINVAL for a bad @mt, -EEXIST if the name is taken.
 */
int nvm_register_mm(struct nvm_mm_type *mt)
{
	struct nvm_dev *dev;
	int ret = 0;

	if (!mt->name) {
		pr_err("media manager: name is NULL\n");
		return -EINVAL;
	}
	if (nvm_check_name("media manager", "name", mt->name, NVM_MMTYPE_LEN))
		return -EINVAL;
	if (!mt->register_mgr || !mt->unregister_mgr || !mt->get_blk ||
	    !mt->put_blk || !mt->erase_blk || !mt->mark_blk || !mt->get_lun ||
	    !mt->reserve_lun || !mt->release_lun) {
		pr_err("media manager %s: missing operations\n", mt->name);
		return -EINVAL;
	}

	mutex_lock(&nvm_lock);
	if (nvm_find_mm(mt->name)) {
		pr_err("media manager %s already registered\n", mt->name);
		ret = -EEXIST;
		goto out;
	}
	list_add_tail(&mt->list, &nvm_mms);
	list_for_each_entry(dev, &nvm_devices, devices) {
		if (dev->mm || !dev->registered)
			continue;
		ret = nvm_bind_mm(dev, mt);
		if (ret)
			pr_warn("%s: media manager %s refused the device: %d\n",
				dev->name, mt->name, ret);
	}
	ret = 0;
out:
	mutex_unlock(&nvm_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(nvm_register_mm);

/**
 * nvm_unregister_mm() - withdraw a media manager
 * @mt: a registered manager
 *
 * Unbinds the devices bound to @mt. None of them has a target: every
 * target holds a reference on its manager's module, so this is only
 * reached (from the manager's module exit) once all of them are gone.
 *
 * Context: process.
 */
void nvm_unregister_mm(struct nvm_mm_type *mt)
{
	struct nvm_dev *dev;

	mutex_lock(&nvm_lock);
	list_for_each_entry(dev, &nvm_devices, devices)
		if (dev->mm == mt)
			nvm_unbind_mm(dev);
	list_del_init(&mt->list);
	mutex_unlock(&nvm_lock);
}
EXPORT_SYMBOL_GPL(nvm_unregister_mm);

/**
 * nvm_register_tgt_type() - make a target type available
 * @tt: the type; @tt->name unique, at most %NVM_TTYPE_NAME_MAX - 1 bytes
 *
 * The module of @tt should carry MODULE_ALIAS("nvm-tgt-<name>") so that
 * creating a target of an unloaded type loads it.
 *
 * Context: process.
 * Return: 0, -EINVAL for a bad @tt, -EEXIST if the name is taken.
 */
int nvm_register_tgt_type(struct nvm_tgt_type *tt)
{
	int ret = 0;

	if (!tt->name) {
		pr_err("target type: name is NULL\n");
		return -EINVAL;
	}
	if (nvm_check_name("target type", "name", tt->name,
			   NVM_TTYPE_NAME_MAX))
		return -EINVAL;
	if (!tt->mq_ops || !tt->init || !tt->exit || !tt->queue_depth) {
		pr_err("target type %s: missing operations\n", tt->name);
		return -EINVAL;
	}

	mutex_lock(&nvm_lock);
	if (nvm_find_tgt_type(tt->name)) {
		pr_err("target type %s already registered\n", tt->name);
		ret = -EEXIST;
	} else {
		list_add_tail(&tt->list, &nvm_tgt_types);
	}
	mutex_unlock(&nvm_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(nvm_register_tgt_type);

/**
 * nvm_unregister_tgt_type() - withdraw a target type
 * @tt: a registered type
 *
 * No target of @tt exists: each holds a reference on @tt->owner.
 *
 * Context: process.
 */
void nvm_unregister_tgt_type(struct nvm_tgt_type *tt)
{
	mutex_lock(&nvm_lock);
	list_del_init(&tt->list);
	mutex_unlock(&nvm_lock);
}
EXPORT_SYMBOL_GPL(nvm_unregister_tgt_type);

/* --------------------------------------------------------------- devices */

/**
 * nvm_alloc_dev() - allocate a device structure for a driver
 * @node: NUMA node of the device
 *
 * Context: process.
 * Return: the zeroed device, or %NULL. Release it with nvm_free_dev().
 */
struct nvm_dev *nvm_alloc_dev(int node)
{
	struct nvm_dev *dev;

	dev = kzalloc_node(sizeof(*dev), GFP_KERNEL, node);
	if (!dev)
		return NULL;
	dev->node = node;
	INIT_LIST_HEAD(&dev->devices);
	device_initialize(&dev->dev);
	dev->dev.class = &nvm_class;
	dev->dev.groups = nvm_dev_groups;
	return dev;
}
EXPORT_SYMBOL_GPL(nvm_alloc_dev);

/**
 * nvm_free_dev() - drop the driver's reference to a device
 * @dev: from nvm_alloc_dev(), not registered (any more)
 *
 * Context: process.
 */
void nvm_free_dev(struct nvm_dev *dev)
{
	if (!dev)
		return;
	WARN_ON_ONCE(dev->registered);
	put_device(&dev->dev);
}
EXPORT_SYMBOL_GPL(nvm_free_dev);

static int nvm_check_ops(struct nvm_dev *dev)
{
	const struct nvm_dev_ops *ops = dev->ops;

	if (!ops || !ops->identity || !ops->submit_io || !ops->erase_block) {
		pr_err("%s: driver lacks identity, submit_io or erase_block\n",
		       dev->name);
		return -EINVAL;
	}
	if (!ops->max_phys_sect || ops->max_phys_sect > NVM_MAX_VLBA) {
		pr_err("%s: max_phys_sect %u out of range (1..%d)\n",
		       dev->name, ops->max_phys_sect, NVM_MAX_VLBA);
		return -EINVAL;
	}
	if (!!ops->create_dma_pool != !!ops->destroy_dma_pool ||
	    !!ops->create_dma_pool != !!ops->dev_dma_alloc ||
	    !!ops->create_dma_pool != !!ops->dev_dma_free) {
		pr_err("%s: driver has some DMA pool operations but not all\n",
		       dev->name);
		return -EINVAL;
	}
	return 0;
}

static int nvm_core_init_dev(struct nvm_dev *dev)
{
	struct nvm_geo *geo = &dev->geo;
	int ret;

	memset(&dev->identity, 0, sizeof(dev->identity));
	ret = dev->ops->identity(dev, &dev->identity);
	if (ret) {
		pr_err("%s: could not read the identity: %d\n", dev->name, ret);
		return ret;
	}
	if (dev->identity.ver_id == NVM_OCSSD_SPEC_20 &&
	    !dev->ops->get_chk_meta) {
		pr_err("%s: identity version 2 not supported by its driver (it cannot report chunks; need 1, Open-Channel SSD 1.2)\n",
		       dev->name);
		return -EINVAL;
	}
	ret = nvm_validate_identity(&dev->identity, dev->name);
	if (ret)
		return ret;
	nvm_geo_from_identity(&dev->identity, geo);
	dev->ppaf = dev->identity.ppaf;
	dev->lbaf = dev->identity.id20.lbaf;
	geo->max_rq_size = dev->ops->max_phys_sect * geo->sec_size;
	if (geo->version == NVM_OCSSD_SPEC_20 &&
	    geo->ws_min > dev->ops->max_phys_sect) {
		pr_err("%s: ws_min %d is more than the %u addresses of one command (max_phys_sect)\n",
		       dev->name, geo->ws_min, dev->ops->max_phys_sect);
		return -EINVAL;
	}
	if (dev->ops->max_phys_sect < geo->nr_planes) {
		pr_err("%s: max_phys_sect %u is less than the %d planes of a multi-plane erase\n",
		       dev->name, dev->ops->max_phys_sect, geo->nr_planes);
		return -EINVAL;
	}

	/* one buffer holds a full PPA list or a full OOB metadata list */
	dev->dma_pool_size = max3((size_t)PAGE_SIZE,
				  (size_t)NVM_MAX_VLBA * sizeof(u64),
				  (size_t)dev->ops->max_phys_sect * geo->oob_size);
	if (dev->ops->create_dma_pool) {
		dev->dma_pool = dev->ops->create_dma_pool(dev, dev->name,
							  dev->dma_pool_size);
		if (!dev->dma_pool) {
			pr_err("%s: could not create the DMA pool\n", dev->name);
			return -ENOMEM;
		}
	}
	return 0;
}

static void nvm_core_exit_dev(struct nvm_dev *dev)
{
	if (dev->dma_pool)
		dev->ops->destroy_dma_pool(dev->dma_pool);
	dev->dma_pool = NULL;
}

/**
 * nvm_register() - register an open-channel device with the core
 * @dev: from nvm_alloc_dev(), with @ops, @name and @private_data set
 *
 * Reads and validates the identity, derives the geometry, creates the
 * device's DMA pool and its sysfs directory /sys/class/lightnvm/<name>
 * (with one directory per LUN under luns/),
 * and binds the device to the first registered media manager that takes
 * it (a device no manager takes stays registered but unbound; NVM_DEV_INIT
 * binds it later).
 *
 * Context: process; may issue admin commands (identity, bad block tables).
 * Return: 0, -EINVAL for a bad @name, operations or identity, -EEXIST if a
 * device of that name is registered, or another negative errno.
 */
int nvm_register(struct nvm_dev *dev)
{
	int ret;

	if (nvm_check_name("register", "device name", dev->name,
			   sizeof(dev->name)))
		return -EINVAL;
	if (WARN_ON_ONCE(dev->registered))
		return -EBUSY;
	ret = nvm_check_ops(dev);
	if (ret)
		return ret;
	ret = nvm_core_init_dev(dev);
	if (ret)
		return ret;

	dev->dev.parent = dev->parent;
	ret = dev_set_name(&dev->dev, "%s", dev->name);
	if (ret)
		goto err_exit_dev;

	mutex_lock(&nvm_lock);
	if (nvm_dev_name_taken(dev->name)) {
		pr_err("%s: a device of that name is registered, or being unregistered\n",
		       dev->name);
		ret = -EEXIST;
		goto err_unlock;
	}
	ret = device_add(&dev->dev);
	if (ret) {
		pr_err("%s: could not add the device to sysfs: %d\n",
		       dev->name, ret);
		goto err_unlock;
	}
	ret = nvm_sysfs_add_luns(dev);
	if (ret)
		goto err_unlock_del_dev;
	list_add_tail(&dev->devices, &nvm_devices);
	dev->registered = true;
	nvm_autobind(dev);
	mutex_unlock(&nvm_lock);

	if (dev->geo.version == NVM_OCSSD_SPEC_20)
		pr_info("%s: registered (Open-Channel SSD 2.0): %d groups x %d PUs, %d chunks of %d logical blocks, ws_min %d, ws_opt %d, mw_cunits %d, %llu logical blocks\n",
			dev->name, dev->geo.num_grp, dev->geo.num_pu,
			dev->geo.num_chk, dev->geo.clba, dev->geo.ws_min,
			dev->geo.ws_opt, dev->geo.mw_cunits, dev->geo.nr_secs);
	else
		pr_info("%s: registered: %d channels x %d LUNs, %d planes, %d blocks, %d pages, %d sectors/page, %llu sectors\n",
			dev->name, dev->geo.nr_chnls, dev->geo.luns_per_chnl,
			dev->geo.nr_planes, dev->geo.blks_per_lun,
			dev->geo.pgs_per_blk, dev->geo.sec_per_pg,
			dev->geo.nr_secs);
	return 0;

err_unlock_del_dev:
	mutex_unlock(&nvm_lock);
	/* outside nvm_lock: sysfs readers of @dev may wait for it */
	nvm_sysfs_del_luns(dev);
	device_del(&dev->dev);
	goto err_exit_dev;
err_unlock:
	mutex_unlock(&nvm_lock);
err_exit_dev:
	nvm_core_exit_dev(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(nvm_register);

/**
 * nvm_unregister() - withdraw a device
 * @dev: a registered device
 *
 * Control commands stop finding @dev at once. Tears down every target of
 * @dev first, even one whose disk is open (mounted): the disk is deleted,
 * its I/O fails from then on, and the opener can still close it; targets
 * being created or removed by others are waited for. Then unbinds the
 * media manager and removes the sysfs directory. Returns once no request
 * of the core or its targets is in flight on @dev.
 *
 * @dev stays on nvm_devices until its sysfs directory is gone, so that a
 * media manager that unregisters meanwhile still unbinds it and a device
 * of the same name cannot register before.
 *
 * Context: process; nvm_lock is not held across the targets' exit.
 */
void nvm_unregister(struct nvm_dev *dev)
{
	if (WARN_ON_ONCE(!dev->registered))
		return;

	mutex_lock(&nvm_lock);
	dev->registered = false;
	nvm_tgt_remove_all(dev);	/* drops nvm_lock while tearing down */
	nvm_unbind_mm(dev);
	mutex_unlock(&nvm_lock);

	/* outside nvm_lock: sysfs readers of @dev may hold it */
	nvm_sysfs_del_luns(dev);
	device_del(&dev->dev);
	mutex_lock(&nvm_lock);
	list_del_init(&dev->devices);
	mutex_unlock(&nvm_lock);
	nvm_core_exit_dev(dev);
	pr_info("%s: unregistered\n", dev->name);
}
EXPORT_SYMBOL_GPL(nvm_unregister);

/* ------------------------------------------------------------------- I/O */

/**
 * nvm_dev_dma_alloc() - allocate a buffer from the device's DMA pool
 * @dev: registered device
 * @gfp: allocation flags
 * @dma: where to store the bus address (0 without a driver pool)
 *
 * The buffer holds &nvm_dev.dma_pool_size bytes.
 *
 * Context: any, as @gfp allows.
 * Return: the buffer or %NULL.
 */
void *nvm_dev_dma_alloc(struct nvm_dev *dev, gfp_t gfp, dma_addr_t *dma)
{
	if (dev->dma_pool)
		return dev->ops->dev_dma_alloc(dev, dev->dma_pool, gfp, dma);
	*dma = 0;
	return kmalloc(dev->dma_pool_size, gfp);
}
EXPORT_SYMBOL_GPL(nvm_dev_dma_alloc);

/**
 * nvm_dev_dma_free() - free a buffer of nvm_dev_dma_alloc()
 * @dev: the device it came from
 * @addr: the buffer, or %NULL
 * @dma: its bus address
 *
 * Context: any.
 */
void nvm_dev_dma_free(struct nvm_dev *dev, void *addr, dma_addr_t dma)
{
	if (!addr)
		return;
	if (dev->dma_pool)
		dev->ops->dev_dma_free(dev->dma_pool, addr, dma);
	else
		kfree(addr);
}
EXPORT_SYMBOL_GPL(nvm_dev_dma_free);

/**
 * nvm_alloc_ppalist() - give a request room for its address list
 * @dev: target device
 * @rqd: request with @rqd->nr_ppas set
 * @gfp: allocation flags
 *
 * Allocates @rqd->ppa_list when @rqd->nr_ppas > 1; a single address lives
 * in @rqd->ppa_addr and nothing is allocated. @rqd->nr_ppas must not change
 * before nvm_free_ppalist().
 *
 * Context: any, as @gfp allows.
 * Return: 0, -EINVAL for a bad @rqd->nr_ppas, or -ENOMEM.
 */
int nvm_alloc_ppalist(struct nvm_dev *dev, struct nvm_rq *rqd, gfp_t gfp)
{
	if (WARN_ON_ONCE(!rqd->nr_ppas ||
			 rqd->nr_ppas > dev->ops->max_phys_sect))
		return -EINVAL;
	if (rqd->nr_ppas == 1)
		return 0;
	rqd->ppa_list = nvm_dev_dma_alloc(dev, gfp, &rqd->dma_ppa_list);
	return rqd->ppa_list ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_GPL(nvm_alloc_ppalist);

/**
 * nvm_free_ppalist() - free what nvm_alloc_ppalist() allocated
 * @dev: target device
 * @rqd: the request
 *
 * Context: any.
 */
void nvm_free_ppalist(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	if (rqd->nr_ppas <= 1)
		return;
	nvm_dev_dma_free(dev, rqd->ppa_list, rqd->dma_ppa_list);
	rqd->ppa_list = NULL;
}
EXPORT_SYMBOL_GPL(nvm_free_ppalist);

/**
 * nvm_alloc_meta() - give a request room for its out-of-band bytes
 * @dev: target device
 * @rqd: request with @rqd->nr_ppas set
 * @gfp: allocation flags
 *
 * @rqd->meta_list gets @rqd->nr_ppas * geo.oob_size bytes (zeroed); it
 * stays %NULL on a device without OOB bytes.
 *
 * Context: any, as @gfp allows.
 * Return: 0, -EINVAL for a bad @rqd->nr_ppas, or -ENOMEM.
 */
int nvm_alloc_meta(struct nvm_dev *dev, struct nvm_rq *rqd, gfp_t gfp)
{
	if (WARN_ON_ONCE(!rqd->nr_ppas ||
			 rqd->nr_ppas > dev->ops->max_phys_sect))
		return -EINVAL;
	rqd->meta_list = NULL;
	if (!dev->geo.oob_size)
		return 0;
	rqd->meta_list = nvm_dev_dma_alloc(dev, gfp, &rqd->dma_meta_list);
	if (!rqd->meta_list)
		return -ENOMEM;
	memset(rqd->meta_list, 0, rqd->nr_ppas * dev->geo.oob_size);
	return 0;
}
EXPORT_SYMBOL_GPL(nvm_alloc_meta);

/**
 * nvm_free_meta() - free what nvm_alloc_meta() allocated
 * @dev: target device
 * @rqd: the request
 *
 * Context: any.
 */
void nvm_free_meta(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	nvm_dev_dma_free(dev, rqd->meta_list, rqd->dma_meta_list);
	rqd->meta_list = NULL;
}
EXPORT_SYMBOL_GPL(nvm_free_meta);

static inline struct ppa_addr *nvm_rq_ppas(struct nvm_rq *rqd)
{
	return rqd->nr_ppas > 1 ? rqd->ppa_list : &rqd->ppa_addr;
}

static bool nvm_ppa_in_range(const struct nvm_geo *geo, struct ppa_addr p)
{
	return p.g.ch < geo->nr_chnls && p.g.lun < geo->luns_per_chnl &&
	       p.g.pl < geo->nr_planes && p.g.blk < geo->blks_per_lun &&
	       p.g.pg < geo->pgs_per_blk && p.g.sec < geo->sec_per_pg;
}

/* A generic address in the device's format, whichever its version. */
static struct ppa_addr nvm_ppa_to_dev(struct nvm_dev *dev, struct ppa_addr p)
{
	if (dev->geo.version == NVM_OCSSD_SPEC_20)
		return nvm_generic_to_dev20(&dev->geo, &dev->lbaf, p);
	return nvm_generic_to_dev(&dev->ppaf, p);
}

static struct ppa_addr nvm_ppa_to_generic(struct nvm_dev *dev,
					  struct ppa_addr p)
{
	if (dev->geo.version == NVM_OCSSD_SPEC_20)
		return nvm_dev20_to_generic(&dev->geo, &dev->lbaf, p);
	return nvm_dev_to_generic(&dev->ppaf, p);
}

static void nvm_rq_to_dev(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	struct ppa_addr *ppas = nvm_rq_ppas(rqd);
	int i;

	for (i = 0; i < rqd->nr_ppas; i++)
		ppas[i] = nvm_ppa_to_dev(dev, ppas[i]);
}

static void nvm_rq_to_generic(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	struct ppa_addr *ppas = nvm_rq_ppas(rqd);
	int i;

	for (i = 0; i < rqd->nr_ppas; i++)
		ppas[i] = nvm_ppa_to_generic(dev, ppas[i]);
}

/* The control flag that asks for the device's multi-plane access mode. */
static u16 nvm_access_flag(const struct nvm_geo *geo)
{
	switch (geo->plane_mode) {
	case NVM_PLANE_QUAD:
		return NVM_IO_QUAD_ACCESS;
	case NVM_PLANE_DOUBLE:
		return NVM_IO_DUAL_ACCESS;
	default:
		return NVM_IO_SNGL_ACCESS;
	}
}

/**
 * nvm_submit_io() - start a physical read, write or erase
 * @dev: registered device
 * @rqd: the request, with generic addresses, @opcode, @nr_ppas, @bio (not
 *	for erase), optional @meta_list, and @end_io set
 *
 * Converts the addresses to the device format and hands the request to the
 * driver. On completion the addresses are converted back, a failed program
 * marks the failed blocks grown bad in the media manager, and @rqd->end_io
 * runs (in any context) with @rqd->error and @rqd->ppa_status set.
 *
 * Context: any context the driver accepts; nvm_mem and NVMe accept atomic.
 * Return: 0 if the request was started (@end_io will be called exactly
 * once), or a negative errno with @rqd unchanged and @end_io not called.
 */
int nvm_submit_io(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	struct ppa_addr *ppas;
	int i, ret;

	if (WARN_ON_ONCE(!rqd->nr_ppas ||
			 rqd->nr_ppas > dev->ops->max_phys_sect))
		return -EINVAL;
	if (WARN_ON_ONCE(rqd->opcode != NVM_OP_PREAD &&
			 rqd->opcode != NVM_OP_PWRITE &&
			 rqd->opcode != NVM_OP_ERASE))
		return -EINVAL;
	if (WARN_ON_ONCE(rqd->nr_ppas > 1 && !rqd->ppa_list))
		return -EINVAL;
	ppas = nvm_rq_ppas(rqd);
	for (i = 0; i < rqd->nr_ppas; i++) {
		if (WARN_ON_ONCE(!nvm_ppa_in_range(&dev->geo, ppas[i]))) {
			pr_err("%s: address 0x%llx (index %d) outside the device\n",
			       dev->name, ppas[i].ppa, i);
			return -EINVAL;
		}
	}

	rqd->dev = dev;
	rqd->error = 0;
	rqd->ppa_status = 0;
	if (rqd->opcode != NVM_OP_PREAD && !(rqd->flags & NVM_IO_ACCESS_MASK))
		rqd->flags |= nvm_access_flag(&dev->geo);

	trace_nvm_io_submit(dev, rqd);
	nvm_rq_to_dev(dev, rqd);
	if (rqd->opcode == NVM_OP_ERASE)
		ret = dev->ops->erase_block(dev, rqd);
	else
		ret = dev->ops->submit_io(dev, rqd);
	if (ret)
		nvm_rq_to_generic(dev, rqd);
	return ret;
}
EXPORT_SYMBOL_GPL(nvm_submit_io);

/* Mark the blocks of a failed program grown bad (any context). */
static void nvm_mark_failed_write(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	struct nvm_mm_type *mt = READ_ONCE(dev->mm);
	struct ppa_addr *ppas = nvm_rq_ppas(rqd);
	struct ppa_addr last = { .ppa = ADDR_EMPTY };
	int i;

	if (!mt)
		return;
	for (i = 0; i < rqd->nr_ppas; i++) {
		struct ppa_addr b = ppas[i];

		if (rqd->ppa_status && i < BITS_PER_TYPE(rqd->ppa_status) &&
		    !(rqd->ppa_status & BIT_ULL(i)))
			continue;
		b.g.pg = 0;
		b.g.sec = 0;
		b.g.pl = 0;
		if (b.ppa == last.ppa)
			continue;
		last = b;
		mt->mark_blk(dev, b, NVM_BLK_T_GRWN_BAD);
	}
}

/**
 * nvm_end_io() - complete a request (called by drivers)
 * @rqd: a request started by nvm_submit_io(), with @error and
 *	@ppa_status set by the driver
 *
 * Context: any.
 */
void nvm_end_io(struct nvm_rq *rqd)
{
	struct nvm_dev *dev = rqd->dev;

	nvm_rq_to_generic(dev, rqd);
	trace_nvm_io_done(dev, rqd);
	if (rqd->opcode == NVM_OP_PWRITE &&
	    (rqd->error == NVM_RSP_ERR_FAILWRITE ||
	     (dev->geo.version == NVM_OCSSD_SPEC_20 &&
	      nvm_rsp_is_write_fail(rqd->error))))
		nvm_mark_failed_write(dev, rqd);
	if (rqd->end_io)
		rqd->end_io(rqd);
}
EXPORT_SYMBOL_GPL(nvm_end_io);

static void nvm_end_io_sync(struct nvm_rq *rqd)
{
	complete(rqd->core_private);
}

/**
 * nvm_submit_io_sync() - run a physical request and wait for it
 * @dev: registered device
 * @rqd: as for nvm_submit_io(); @rqd->end_io is not called
 *
 * Context: process.
 * Return: 0 on success; -EIO if the media failed the request (details in
 * @rqd->error and @rqd->ppa_status, e.g. %NVM_RSP_ERR_EMPTYPAGE for a read
 * of an unwritten sector); -ENOLINK if it failed for a host or transport
 * reason (nvm_rsp_is_media() false: an aborted command, a path error, a
 * device that is gone), which says nothing about the media; another
 * negative errno if it was not started.
 */
int nvm_submit_io_sync(struct nvm_dev *dev, struct nvm_rq *rqd)
{
	DECLARE_COMPLETION_ONSTACK(wait);
	nvm_end_io_fn *end_io = rqd->end_io;
	int ret;

	might_sleep();
	rqd->end_io = nvm_end_io_sync;
	rqd->core_private = &wait;
	ret = nvm_submit_io(dev, rqd);
	if (!ret)
		wait_for_completion_io(&wait);
	rqd->end_io = end_io;
	rqd->core_private = NULL;
	if (ret)
		return ret;
	if (!rqd->error)
		return 0;
	return nvm_rsp_is_media(rqd->error) ? -EIO : -ENOLINK;
}
EXPORT_SYMBOL_GPL(nvm_submit_io_sync);

/**
 * nvm_erase_ppa() - erase one block, in all its planes
 * @dev: registered device
 * @ppa: generic address of the block (ch, lun, blk; the rest is ignored)
 *
 * On a 2.0 device this is the reset of one chunk (one address). A chunk
 * that is free already cannot be reset again on most devices: they answer
 * %NVM_RSP_ERR_INVALIDRESET, and the chunk is as a reset leaves it, so
 * that counts as success.
 *
 * Context: process.
 * Return: 0, -EIO if the media failed the erase (the block is bad),
 * -ENOLINK if the command failed for a host or transport reason, or
 * another errno.
 */
int nvm_erase_ppa(struct nvm_dev *dev, struct ppa_addr ppa)
{
	struct nvm_rq rqd = { };
	int pl, ret;

	ppa.g.pg = 0;
	ppa.g.sec = 0;
	ppa.g.pl = 0;
	rqd.opcode = NVM_OP_ERASE;
	rqd.nr_ppas = dev->geo.nr_planes;
	if (rqd.nr_ppas == 1) {
		rqd.ppa_addr = ppa;
	} else {
		ret = nvm_alloc_ppalist(dev, &rqd, GFP_KERNEL);
		if (ret)
			return ret;
		for (pl = 0; pl < rqd.nr_ppas; pl++) {
			rqd.ppa_list[pl] = ppa;
			rqd.ppa_list[pl].g.pl = pl;
		}
	}
	ret = nvm_submit_io_sync(dev, &rqd);
	nvm_free_ppalist(dev, &rqd);
	if (ret == -ENOLINK && dev->geo.version == NVM_OCSSD_SPEC_20 &&
	    rqd.error == NVM_RSP_ERR_INVALIDRESET)
		ret = 0;
	return ret;
}
EXPORT_SYMBOL_GPL(nvm_erase_ppa);

/**
 * nvm_get_bb_tbl() - read the bad block table of one LUN
 * @dev: registered device
 * @ch: channel
 * @lun: LUN within @ch
 * @blks: geo.blks_per_lun * geo.nr_planes bytes, filled in block-major
 *	(blks[blk * nr_planes + pl]) with %NVM_BLK_T_* values
 *
 * A driver without a table reports every block good.
 *
 * Context: process.
 * Return: 0, -EOPNOTSUPP for a 2.0 device (it reports chunks instead, see
 * nvm_get_chunk_meta()), or a negative errno.
 */
int nvm_get_bb_tbl(struct nvm_dev *dev, int ch, int lun, u8 *blks)
{
	struct ppa_addr ppa = { .ppa = 0 };

	if (dev->geo.version == NVM_OCSSD_SPEC_20)
		return -EOPNOTSUPP;
	if (WARN_ON_ONCE(ch < 0 || ch >= dev->geo.nr_chnls ||
			 lun < 0 || lun >= dev->geo.luns_per_chnl))
		return -EINVAL;
	if (!dev->ops->get_bb_tbl) {
		memset(blks, NVM_BLK_T_FREE,
		       dev->geo.blks_per_lun * dev->geo.nr_planes);
		return 0;
	}
	ppa.g.ch = ch;
	ppa.g.lun = lun;
	return dev->ops->get_bb_tbl(dev, nvm_generic_to_dev(&dev->ppaf, ppa),
				    blks);
}
EXPORT_SYMBOL_GPL(nvm_get_bb_tbl);

/**
 * nvm_set_bb_tbl() - set the state of blocks in the device's table
 * @dev: registered device
 * @ppas: generic addresses (ch, lun, pl, blk) of @nr_ppas block planes
 * @nr_ppas: 1..%NVM_MAX_VLBA
 * @type: %NVM_BLK_T_*
 *
 * Context: process.
 * Return: 0, -EOPNOTSUPP if the driver has no table (and for every 2.0
 * device: 2.0 has none), or a negative errno.
 */
int nvm_set_bb_tbl(struct nvm_dev *dev, struct ppa_addr *ppas, int nr_ppas,
		   int type)
{
	struct ppa_addr dppas[NVM_MAX_VLBA];
	int i;

	if (!dev->ops->set_bb_tbl || dev->geo.version == NVM_OCSSD_SPEC_20)
		return -EOPNOTSUPP;
	if (WARN_ON_ONCE(nr_ppas < 1 || nr_ppas > NVM_MAX_VLBA))
		return -EINVAL;
	for (i = 0; i < nr_ppas; i++) {
		if (WARN_ON_ONCE(!nvm_ppa_in_range(&dev->geo, ppas[i])))
			return -EINVAL;
		dppas[i] = nvm_generic_to_dev(&dev->ppaf, ppas[i]);
	}
	return dev->ops->set_bb_tbl(dev, dppas, nr_ppas, type);
}
EXPORT_SYMBOL_GPL(nvm_set_bb_tbl);

/**
 * nvm_get_chunk_meta() - read the descriptors of chunks of a 2.0 device
 * @dev: registered 2.0 device
 * @ppa: generic address of the first chunk (ch = group, lun = PU, blk =
 *	chunk; the rest is ignored)
 * @nr_chks: how many chunks, all in that PU: @ppa.g.blk + @nr_chks <=
 *	geo.num_chk
 * @meta: @nr_chks descriptors, filled in host endian; @slba is in device
 *	format, @wp relative to it (logical blocks written)
 *
 * Each descriptor is checked (nvm_check_chunk_meta()): a device whose
 * report makes no sense is not trusted with a target's data.
 *
 * Context: process.
 * Return: 0, -EOPNOTSUPP for a 1.2 device, -EINVAL for a range outside the
 * PU or a descriptor that fails the checks, or the driver's error.
 */
int nvm_get_chunk_meta(struct nvm_dev *dev, struct ppa_addr ppa, int nr_chks,
		       struct nvm_chk_meta *meta)
{
	const struct nvm_geo *geo = &dev->geo;
	struct ppa_addr p;
	int i, ret;

	if (geo->version != NVM_OCSSD_SPEC_20)
		return -EOPNOTSUPP;
	if (WARN_ON_ONCE(ppa.g.ch >= geo->nr_chnls ||
			 ppa.g.lun >= geo->luns_per_chnl || nr_chks < 1 ||
			 ppa.g.blk + nr_chks > geo->blks_per_lun))
		return -EINVAL;
	ppa.g.pg = 0;
	ppa.g.sec = 0;
	ppa.g.pl = 0;
	ret = dev->ops->get_chk_meta(dev, nvm_ppa_to_dev(dev, ppa).ppa,
				     nr_chks, meta);
	if (ret) {
		pr_err("%s: could not read the chunks %u..%u of group %u PU %u: %d\n",
		       dev->name, (unsigned int)ppa.g.blk,
		       (unsigned int)ppa.g.blk + nr_chks - 1,
		       (unsigned int)ppa.g.ch, (unsigned int)ppa.g.lun, ret);
		return ret;
	}
	for (i = 0; i < nr_chks; i++) {
		p = ppa;
		p.g.blk += i;
		ret = nvm_check_chunk_meta(geo, nvm_ppa_to_dev(dev, p).ppa,
					   &meta[i], dev->name);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(nvm_get_chunk_meta);

/* ------------------------------------------------- media manager wrappers */

/**
 * nvm_get_blk() - take a free block of a LUN from the media manager
 * @dev: device of a target, bound to a media manager
 * @lun: from nvm_get_lun()
 * @flags: %NVM_IOTYPE_GC to allow taking the last free blocks
 *
 * The block is not guaranteed erased: erase it with nvm_erase_blk()
 * before programming it.
 *
 * Context: any.
 * Return: the block or %NULL.
 */
struct nvm_block *nvm_get_blk(struct nvm_dev *dev, struct nvm_lun *lun,
			      unsigned long flags)
{
	return dev->mm->get_blk(dev, lun, flags);
}
EXPORT_SYMBOL_GPL(nvm_get_blk);

/**
 * nvm_claim_blk() - take a given free (or bad) block of a LUN from the media
 *	manager
 * @dev: device of a target, bound to a media manager
 * @lun: from nvm_get_lun()
 * @blkid: block index in @lun
 * @bad: take a bad block, to read it: a block retired after a program
 *	failure may still hold the only copy of data. The target reads it,
 *	never programs or erases it, and puts it back (to the bad list) once
 *	the data is elsewhere.
 *
 * For a target that rebuilds its state from the media: the blocks that
 * hold its data are claimed, so that they are never handed out as free.
 *
 * Context: any.
 * Return: the block, or %NULL if it is not free (bad, with @bad: not bad)
 * or handed out already.
 */
struct nvm_block *nvm_claim_blk(struct nvm_dev *dev, struct nvm_lun *lun,
				unsigned int blkid, bool bad)
{
	if (!dev->mm->claim_blk)
		return NULL;
	return dev->mm->claim_blk(dev, lun, blkid, bad);
}
EXPORT_SYMBOL_GPL(nvm_claim_blk);

/**
 * nvm_put_blk() - give a block back to the media manager
 * @dev: device of a target
 * @blk: a block from nvm_get_blk()
 *
 * Context: any.
 */
void nvm_put_blk(struct nvm_dev *dev, struct nvm_block *blk)
{
	dev->mm->put_blk(dev, blk);
}
EXPORT_SYMBOL_GPL(nvm_put_blk);

/**
 * nvm_erase_blk() - erase a block taken with nvm_get_blk()
 * @dev: device of a target
 * @blk: the block
 *
 * A failed erase marks the block grown bad; the caller puts it back.
 *
 * Context: process.
 * Return: 0, or a negative errno (-EIO when the device failed the erase).
 */
int nvm_erase_blk(struct nvm_dev *dev, struct nvm_block *blk)
{
	return dev->mm->erase_blk(dev, blk, 0);
}
EXPORT_SYMBOL_GPL(nvm_erase_blk);

/**
 * nvm_mark_blk() - record a block's state in the device's table
 * @dev: device of a target
 * @ppa: generic address of the block (ch, lun, blk)
 * @type: %NVM_BLK_T_GRWN_BAD, ...
 *
 * Context: any.
 */
void nvm_mark_blk(struct nvm_dev *dev, struct ppa_addr ppa, int type)
{
	dev->mm->mark_blk(dev, ppa, type);
}
EXPORT_SYMBOL_GPL(nvm_mark_blk);

/**
 * nvm_get_lun() - a LUN of a device, as its media manager keeps it
 * @dev: device of a target
 * @lunid: 0 <= @lunid < geo.nr_luns
 *
 * Context: any.
 * Return: the LUN, or %NULL for an out-of-range @lunid.
 */
struct nvm_lun *nvm_get_lun(struct nvm_dev *dev, int lunid)
{
	if (lunid < 0 || lunid >= dev->geo.nr_luns)
		return NULL;
	return dev->mm->get_lun(dev, lunid);
}
EXPORT_SYMBOL_GPL(nvm_get_lun);

/**
 * nvm_blk_to_ppa() - generic address of a block
 * @dev: the block's device
 * @blk: the block
 *
 * Context: any.
 * Return: the address with ch, lun and blk set, the rest zero.
 */
struct ppa_addr nvm_blk_to_ppa(struct nvm_dev *dev, struct nvm_block *blk)
{
	struct ppa_addr ppa = { .ppa = 0 };

	ppa.g.ch = blk->lun->chnl_id;
	ppa.g.lun = blk->lun->lun_id;
	ppa.g.blk = blk->id;
	return ppa;
}
EXPORT_SYMBOL_GPL(nvm_blk_to_ppa);

/* ------------------------------------------------- user-space vector I/O */

/* Does a target (in any state) hold the LUN of generic address @ppa? */
static bool nvm_ppa_lun_owned_locked(struct nvm_dev *dev, struct ppa_addr ppa)
{
	unsigned int lunid = ppa.g.ch * dev->geo.luns_per_chnl + ppa.g.lun;
	struct nvm_target *t;

	lockdep_assert_held(&nvm_lock);

	list_for_each_entry(t, &nvm_targets, list)
		if (t->dev == dev && lunid >= t->conf.lun_begin &&
		    lunid <= t->conf.lun_end)
			return true;
	return false;
}

/**
 * nvm_ppa_lun_owned() - is the LUN of an address owned by a target?
 * @dev: a registered device
 * @ppa: generic address; only its channel and LUN count
 *
 * A target owns its LUN range from its reservation (state CREATING) to
 * the end of its removal, as nvm_tgt_reserve() and nvm_tgt_unreserve()
 * change it under nvm_lock. The answer may be stale as soon as the lock is
 * dropped: to act on it, use nvm_user_write_begin().
 *
 * Context: process; takes nvm_lock.
 * Return: true if a target of @dev holds the LUN.
 */
bool nvm_ppa_lun_owned(struct nvm_dev *dev, struct ppa_addr ppa)
{
	bool owned;

	mutex_lock(&nvm_lock);
	owned = nvm_ppa_lun_owned_locked(dev, ppa);
	mutex_unlock(&nvm_lock);
	return owned;
}
EXPORT_SYMBOL_GPL(nvm_ppa_lun_owned);

/**
 * nvm_user_write_begin() - admit a user-space command that writes or erases
 * @dev: a registered device
 * @ppas: generic addresses of the command
 * @nr_ppas: number of @ppas
 *
 * Refuses the command if a target owns the LUN of any of @ppas; else
 * counts it in &nvm_dev.user_writes until nvm_user_write_end(), which
 * keeps targets from being created on @dev meanwhile (nvm_tgt_reserve()
 * fails with -EBUSY), so that the check stays true while the command runs.
 *
 * Context: process; takes nvm_lock.
 * Return: 0, or -EBUSY naming the first owned address's index in the log.
 */
int nvm_user_write_begin(struct nvm_dev *dev, const struct ppa_addr *ppas,
			 int nr_ppas)
{
	int i, ret = 0;

	mutex_lock(&nvm_lock);
	for (i = 0; i < nr_ppas; i++) {
		if (nvm_ppa_lun_owned_locked(dev, ppas[i])) {
			pr_err_ratelimited("%s: user-space write or erase of address %d (ch %u lun %u) refused: a target owns the LUN\n",
					   dev->name, i, (unsigned int)ppas[i].g.ch,
					   (unsigned int)ppas[i].g.lun);
			ret = -EBUSY;
			goto out;
		}
	}
	dev->user_writes++;
out:
	mutex_unlock(&nvm_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(nvm_user_write_begin);

/**
 * nvm_user_write_end() - a command nvm_user_write_begin() admitted is done
 * @dev: its device
 *
 * Context: process; takes nvm_lock.
 */
void nvm_user_write_end(struct nvm_dev *dev)
{
	mutex_lock(&nvm_lock);
	if (!WARN_ON_ONCE(!dev->user_writes))
		dev->user_writes--;
	mutex_unlock(&nvm_lock);
}
EXPORT_SYMBOL_GPL(nvm_user_write_end);

/* --------------------------------------------------------------- module */

static int __init nvm_mod_init(void)
{
	int ret;

	ret = class_register(&nvm_class);
	if (ret) {
		pr_err("can't register the lightnvm class: %d\n", ret);
		return ret;
	}
	ret = nvm_ctl_init();
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_unregister(&nvm_class);
	return ret;
}

static void __exit nvm_mod_exit(void)
{
	nvm_ctl_exit();
	class_unregister(&nvm_class);
}

/*
 * Built in, the core must be up before the drivers and the media managers
 * that register with it: subsys_initcall runs before their module_init
 * (device_initcall). As a module this is module_init.
 */
subsys_initcall(nvm_mod_init);
module_exit(nvm_mod_exit);

MODULE_DESCRIPTION("Open-Channel SSD (LightNVM) core");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0.0");
MODULE_ALIAS("devname:lightnvm/control");
