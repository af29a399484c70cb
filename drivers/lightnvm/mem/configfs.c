// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_mem: configfs instances, in the style of null_blk.
 *
 *   mkdir /sys/kernel/config/nvm_mem/<name>    a powered-off instance with
 *                                              the module parameters' options
 *   echo 8 > .../<name>/num_blk                set options (see nvm_mem.rst)
 *   echo 0 > .../<name>/data                   no data page for a sector
 *                                              that is one word repeated
 *   echo 2 > .../<name>/version                an Open-Channel SSD 2.0 device
 *   echo 1 > .../<name>/power                  register <name> with the core
 *   echo 7 > .../<name>/cut_seed               seed what a cut does
 *   echo 1 > .../<name>/unplugged              pull the plug: a power cut
 *                                              (in flight I/O dropped,
 *                                              applied or torn; everything
 *                                              fails from then on)
 *   echo 1 > .../<name>/timing                 NAND timing model on (any
 *                                              time, as the other timing
 *                                              knobs and the completion delay)
 *   echo 0 > .../<name>/power                  unregister, keep the media
 *   rmdir .../<name>                           free it (-EBUSY while on)
 */

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include "nvm_mem.h"

static struct configfs_subsystem nvm_mem_subsys;

static struct nvm_mem_dev *to_nvm_mem_dev(struct config_item *item)
{
	return container_of(item, struct nvm_mem_dev, item);
}

static ssize_t nvm_mem_cfg_show(struct config_item *item, char *page,
				const char *field)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	u32 val;

	mutex_lock(&dev->lock);
	val = nvm_mem_cfg_get(&dev->cfg, field);
	mutex_unlock(&dev->lock);
	return snprintf(page, PAGE_SIZE, "%u\n", val);
}

/* Geometry and media options: only before the media exists. */
static ssize_t nvm_mem_cfg_store(struct config_item *item, const char *page,
				 size_t count, const char *field)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	ssize_t ret;
	u32 val;

	if (kstrtou32(page, 0, &val)) {
		pr_err("%s: %s: not a number\n", dev->name, field);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	if (dev->power) {
		pr_err("%s: %s is read-only while powered on\n", dev->name,
		       field);
		ret = -EBUSY;
	} else if (dev->media) {
		pr_err("%s: %s cannot change: the media was created at the first power-on (rmdir and mkdir to start over)\n",
		       dev->name, field);
		ret = -EBUSY;
	} else {
		ret = nvm_mem_cfg_set(&dev->cfg, field, val, dev->name);
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

#define NVM_MEM_CFG_ATTR(_name)						\
static ssize_t nvm_mem_dev_##_name##_show(struct config_item *item,	\
					  char *page)			\
{									\
	return nvm_mem_cfg_show(item, page, #_name);			\
}									\
static ssize_t nvm_mem_dev_##_name##_store(struct config_item *item,	\
					   const char *page,		\
					   size_t count)		\
{									\
	return nvm_mem_cfg_store(item, page, count, #_name);		\
}									\
CONFIGFS_ATTR(nvm_mem_dev_, _name)

NVM_MEM_CFG_ATTR(num_ch);
NVM_MEM_CFG_ATTR(num_lun);
NVM_MEM_CFG_ATTR(num_pln);
NVM_MEM_CFG_ATTR(num_blk);
NVM_MEM_CFG_ATTR(num_pg);
NVM_MEM_CFG_ATTR(sec_per_pg);
NVM_MEM_CFG_ATTR(oob_size);
NVM_MEM_CFG_ATTR(factory_bad);
NVM_MEM_CFG_ATTR(bb_seed);
NVM_MEM_CFG_ATTR(data);
NVM_MEM_CFG_ATTR(version);
NVM_MEM_CFG_ATTR(ws_opt);
NVM_MEM_CFG_ATTR(mw_cunits);

/* Timing knobs and completion delay: any time, powered or not. */
static ssize_t nvm_mem_tparam_show(struct config_item *item, char *page,
				   const char *field)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);

	return snprintf(page, PAGE_SIZE, "%u\n",
			nvm_mem_timing_get(&dev->timing, field));
}

static ssize_t nvm_mem_tparam_store(struct config_item *item, const char *page,
				    size_t count, const char *field)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	u32 val;
	int ret;

	if (kstrtou32(page, 0, &val)) {
		pr_err("%s: %s: not a number\n", dev->name, field);
		return -EINVAL;
	}
	ret = nvm_mem_timing_set(&dev->timing, field, val, dev->name);
	return ret ? ret : count;
}

#define NVM_MEM_TPARAM_ATTR(_name)					\
static ssize_t nvm_mem_dev_##_name##_show(struct config_item *item,	\
					  char *page)			\
{									\
	return nvm_mem_tparam_show(item, page, #_name);			\
}									\
static ssize_t nvm_mem_dev_##_name##_store(struct config_item *item,	\
					   const char *page,		\
					   size_t count)		\
{									\
	return nvm_mem_tparam_store(item, page, count, #_name);		\
}									\
CONFIGFS_ATTR(nvm_mem_dev_, _name)

NVM_MEM_TPARAM_ATTR(timing);
NVM_MEM_TPARAM_ATTR(t_read_us);
NVM_MEM_TPARAM_ATTR(t_prog_us);
NVM_MEM_TPARAM_ATTR(t_erase_us);
NVM_MEM_TPARAM_ATTR(t_xfer_ns);
NVM_MEM_TPARAM_ATTR(completion_delay_us);
NVM_MEM_TPARAM_ATTR(completion_jitter_us);

static ssize_t nvm_mem_dev_completion_mode_show(struct config_item *item,
						char *page)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	u32 val;

	mutex_lock(&dev->lock);
	val = dev->completion_mode;
	mutex_unlock(&dev->lock);
	return snprintf(page, PAGE_SIZE, "%u\n", val);
}

static ssize_t nvm_mem_dev_completion_mode_store(struct config_item *item,
						 const char *page, size_t count)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	ssize_t ret = count;
	u32 val;

	if (kstrtou32(page, 0, &val) || val > NVM_MEM_COMPL_WQ) {
		pr_err("%s: completion_mode: must be 0 (inline) or 1 (workqueue)\n",
		       dev->name);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	if (dev->power) {
		pr_err("%s: completion_mode is read-only while powered on\n",
		       dev->name);
		ret = -EBUSY;
	} else {
		dev->completion_mode = val;
	}
	mutex_unlock(&dev->lock);
	return ret;
}

CONFIGFS_ATTR(nvm_mem_dev_, completion_mode);

static ssize_t nvm_mem_dev_power_show(struct config_item *item, char *page)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	bool power;

	mutex_lock(&dev->lock);
	power = dev->power;
	mutex_unlock(&dev->lock);
	return snprintf(page, PAGE_SIZE, "%d\n", power);
}

/*
 * While powered on the item is pinned (configfs_depend_item), so that
 * rmdir fails with -EBUSY instead of freeing a registered device.
 */
static ssize_t nvm_mem_dev_power_store(struct config_item *item,
				       const char *page, size_t count)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	bool on;
	int ret = 0;

	if (kstrtobool(page, &on)) {
		pr_err("%s: power: must be 0 or 1\n", dev->name);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	if (on && !dev->power) {
		ret = configfs_depend_item_unlocked(&nvm_mem_subsys, item);
		if (!ret) {
			ret = nvm_mem_power_on(dev);
			if (ret)
				configfs_undepend_item_unlocked(item);
		}
	} else if (!on && dev->power) {
		nvm_mem_power_off(dev);
		configfs_undepend_item_unlocked(item);
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

CONFIGFS_ATTR(nvm_mem_dev_, power);

static ssize_t nvm_mem_dev_unplugged_show(struct config_item *item, char *page)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	int val = 0;

	mutex_lock(&dev->lock);
	if (dev->media)
		val = atomic_read(&dev->media->unplugged);
	mutex_unlock(&dev->lock);
	return snprintf(page, PAGE_SIZE, "%d\n", val);
}

static ssize_t nvm_mem_dev_unplugged_store(struct config_item *item,
					   const char *page, size_t count)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	bool val;
	int ret;

	if (kstrtobool(page, &val) || !val) {
		pr_err("%s: unplugged: only 1 can be written (power-on plugs the device in again)\n",
		       dev->name);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	ret = nvm_mem_pull_plug(dev);
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

CONFIGFS_ATTR(nvm_mem_dev_, unplugged);

static ssize_t nvm_mem_dev_cut_seed_show(struct config_item *item, char *page)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	u64 val;

	mutex_lock(&dev->lock);
	val = dev->cut_seed;
	mutex_unlock(&dev->lock);
	return snprintf(page, PAGE_SIZE, "%llu\n", val);
}

/* Any time, powered or not: restarts the sequence of cut outcomes. */
static ssize_t nvm_mem_dev_cut_seed_store(struct config_item *item,
					  const char *page, size_t count)
{
	struct nvm_mem_dev *dev = to_nvm_mem_dev(item);
	u64 val;

	if (kstrtou64(page, 0, &val)) {
		pr_err("%s: cut_seed: not a 64-bit number\n", dev->name);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	nvm_mem_set_cut_seed(dev, val);
	mutex_unlock(&dev->lock);
	return count;
}

CONFIGFS_ATTR(nvm_mem_dev_, cut_seed);

static struct configfs_attribute *nvm_mem_dev_attrs[] = {
	&nvm_mem_dev_attr_num_ch,
	&nvm_mem_dev_attr_num_lun,
	&nvm_mem_dev_attr_num_pln,
	&nvm_mem_dev_attr_num_blk,
	&nvm_mem_dev_attr_num_pg,
	&nvm_mem_dev_attr_sec_per_pg,
	&nvm_mem_dev_attr_oob_size,
	&nvm_mem_dev_attr_factory_bad,
	&nvm_mem_dev_attr_bb_seed,
	&nvm_mem_dev_attr_data,
	&nvm_mem_dev_attr_version,
	&nvm_mem_dev_attr_ws_opt,
	&nvm_mem_dev_attr_mw_cunits,
	&nvm_mem_dev_attr_completion_mode,
	&nvm_mem_dev_attr_power,
	&nvm_mem_dev_attr_unplugged,
	&nvm_mem_dev_attr_cut_seed,
	&nvm_mem_dev_attr_timing,
	&nvm_mem_dev_attr_t_read_us,
	&nvm_mem_dev_attr_t_prog_us,
	&nvm_mem_dev_attr_t_erase_us,
	&nvm_mem_dev_attr_t_xfer_ns,
	&nvm_mem_dev_attr_completion_delay_us,
	&nvm_mem_dev_attr_completion_jitter_us,
	NULL,
};

static void nvm_mem_dev_release(struct config_item *item)
{
	nvm_mem_dev_destroy(to_nvm_mem_dev(item));
}

static struct configfs_item_operations nvm_mem_dev_item_ops = {
	.release	= nvm_mem_dev_release,
};

static const struct config_item_type nvm_mem_dev_type = {
	.ct_item_ops	= &nvm_mem_dev_item_ops,
	.ct_attrs	= nvm_mem_dev_attrs,
	.ct_owner	= THIS_MODULE,
};

static struct config_item *nvm_mem_make_item(struct config_group *group,
					     const char *name)
{
	struct nvm_mem_dev *dev = nvm_mem_dev_create(name, true);

	if (IS_ERR(dev))
		return ERR_CAST(dev);
	config_item_init_type_name(&dev->item, name, &nvm_mem_dev_type);
	return &dev->item;
}

static void nvm_mem_drop_item(struct config_group *group,
			      struct config_item *item)
{
	config_item_put(item);
}

static ssize_t nvm_mem_group_features_show(struct config_item *item,
					   char *page)
{
	return snprintf(page, PAGE_SIZE,
			"bb_seed,completion_delay_us,completion_jitter_us,completion_mode,cut_seed,data,factory_bad,mw_cunits,num_blk,num_ch,num_lun,num_pg,num_pln,oob_size,power,sec_per_pg,t_erase_us,t_prog_us,t_read_us,t_xfer_ns,timing,unplugged,version,ws_opt\n");
}

CONFIGFS_ATTR_RO(nvm_mem_group_, features);

static struct configfs_attribute *nvm_mem_group_attrs[] = {
	&nvm_mem_group_attr_features,
	NULL,
};

static struct configfs_group_operations nvm_mem_group_ops = {
	.make_item	= nvm_mem_make_item,
	.drop_item	= nvm_mem_drop_item,
};

static const struct config_item_type nvm_mem_group_type = {
	.ct_group_ops	= &nvm_mem_group_ops,
	.ct_attrs	= nvm_mem_group_attrs,
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem nvm_mem_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= "nvm_mem",
			.ci_type	= &nvm_mem_group_type,
		},
	},
};

/**
 * nvm_mem_configfs_init() - register /sys/kernel/config/nvm_mem
 *
 * Return: 0 or a negative errno.
 */
int nvm_mem_configfs_init(void)
{
	int ret;

	config_group_init(&nvm_mem_subsys.su_group);
	mutex_init(&nvm_mem_subsys.su_mutex);
	ret = configfs_register_subsystem(&nvm_mem_subsys);
	if (ret)
		pr_err("cannot register configfs subsystem: %d\n", ret);
	return ret;
}

/**
 * nvm_mem_configfs_exit() - unregister /sys/kernel/config/nvm_mem
 *
 * No item exists any more: each one holds a reference on the module.
 */
void nvm_mem_configfs_exit(void)
{
	configfs_unregister_subsystem(&nvm_mem_subsys);
}
