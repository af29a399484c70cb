// SPDX-License-Identifier: GPL-2.0
/*
 * LightNVM core: the read-only sysfs attributes of a registered device,
 * /sys/class/lightnvm/<name>/: identity, derived geometry, the bound media
 * manager, block counts and the device's targets, and one directory per
 * LUN, luns/<n>/, with the LUN's block counts and owning target. A 2.0
 * device also has the attributes of its 2.0 geometry (write sizes, chunks,
 * LBA format); the 1.2 ones show the same geometry in 1.2 terms. Documented
 * in Documentation/ABI/testing/sysfs-class-lightnvm. The attributes that
 * take nvm_lock answer while a target is created or removed: the core
 * does not hold it across a target type's init or exit.
 */

#define pr_fmt(fmt) "lightnvm: " fmt

#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/lightnvm.h>

#include "core.h"

static inline struct nvm_dev *to_nvm_dev(struct device *d)
{
	return container_of(d, struct nvm_dev, dev);
}

#define NVM_GEO_ATTR(_name, _fmt, _expr)				\
static ssize_t _name##_show(struct device *d,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct nvm_dev *dev = to_nvm_dev(d);				\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static DEVICE_ATTR_RO(_name)

NVM_GEO_ATTR(version, "%u", dev->identity.ver_id);
NVM_GEO_ATTR(vendor_opcode, "%u", dev->identity.vmnt);
NVM_GEO_ATTR(capabilities, "0x%x", dev->identity.cap);
NVM_GEO_ATTR(device_mode, "0x%x", dev->identity.dom);
NVM_GEO_ATTR(media_type, "%u", dev->identity.groups[0].mtype);
NVM_GEO_ATTR(flash_media_type, "%u", dev->identity.groups[0].fmtype);
NVM_GEO_ATTR(num_channels, "%d", dev->geo.nr_chnls);
NVM_GEO_ATTR(num_luns, "%d", dev->geo.luns_per_chnl);
NVM_GEO_ATTR(total_luns, "%d", dev->geo.nr_luns);
NVM_GEO_ATTR(num_planes, "%d", dev->geo.nr_planes);
NVM_GEO_ATTR(num_blocks, "%d", dev->geo.blks_per_lun);
NVM_GEO_ATTR(num_pages, "%d", dev->geo.pgs_per_blk);
NVM_GEO_ATTR(page_size, "%u", dev->identity.groups[0].fpg_sz);
NVM_GEO_ATTR(sector_size, "%d", dev->geo.sec_size);
NVM_GEO_ATTR(sectors_per_page, "%d", dev->geo.sec_per_pg);
NVM_GEO_ATTR(oob_size, "%d", dev->geo.oob_size);
NVM_GEO_ATTR(plane_mode, "%d", dev->geo.plane_mode);
NVM_GEO_ATTR(multiplane_modes, "0x%06x", dev->identity.groups[0].mpos);
NVM_GEO_ATTR(media_capabilities, "0x%x", dev->identity.groups[0].mccap);
NVM_GEO_ATTR(channel_parallelism, "%u", dev->identity.groups[0].cpar);
/* A timing of the identity: 1.2's first group's @v12, or the 2.0 @v20. */
static u32 nvm_timing(const struct nvm_dev *dev, u32 v12, u32 v20)
{
	return dev->geo.version == NVM_OCSSD_SPEC_20 ? v20 : v12;
}

#define NVM_ID12(t)	dev->identity.groups[0].t
#define NVM_ID20(t)	dev->identity.id20.t

NVM_GEO_ATTR(read_typ, "%u", nvm_timing(dev, NVM_ID12(trdt), NVM_ID20(trdt)));
NVM_GEO_ATTR(read_max, "%u", nvm_timing(dev, NVM_ID12(trdm), NVM_ID20(trdm)));
NVM_GEO_ATTR(prog_typ, "%u", nvm_timing(dev, NVM_ID12(tprt), NVM_ID20(tprt)));
NVM_GEO_ATTR(prog_max, "%u", nvm_timing(dev, NVM_ID12(tprm), NVM_ID20(tprm)));
NVM_GEO_ATTR(erase_typ, "%u", nvm_timing(dev, NVM_ID12(tbet), NVM_ID20(tbet)));
NVM_GEO_ATTR(erase_max, "%u", nvm_timing(dev, NVM_ID12(tbem), NVM_ID20(tbem)));
NVM_GEO_ATTR(max_phys_secs, "%u", dev->ops->max_phys_sect);
NVM_GEO_ATTR(capacity_sectors, "%llu", dev->geo.nr_secs);

static ssize_t ppa_format_show(struct device *d, struct device_attribute *attr,
			       char *buf)
{
	const struct nvm_addr_format *f = &to_nvm_dev(d)->ppaf;

	return sysfs_emit(buf, "ch %u:%u lun %u:%u pln %u:%u blk %u:%u pg %u:%u sect %u:%u\n",
			  f->ch_offset, f->ch_len, f->lun_offset, f->lun_len,
			  f->pln_offset, f->pln_len, f->blk_offset, f->blk_len,
			  f->pg_offset, f->pg_len, f->sect_offset, f->sect_len);
}
static DEVICE_ATTR_RO(ppa_format);

/**
 * nvm_sysfs_emit_mm() - a sysfs show of a device's media manager
 * @dev: a registered device
 * @buf: the show function's page
 *
 * The binding changes under nvm_lock; device_del() never runs under it,
 * so a show function may take it. The NVMe driver's lightnvm/ group of
 * the namespace's disk uses this too.
 *
 * Context: process; takes nvm_lock.
 * Return: bytes written: the name and a newline, or "none".
 */
ssize_t nvm_sysfs_emit_mm(struct nvm_dev *dev, char *buf)
{
	ssize_t ret;

	mutex_lock(&nvm_lock);
	ret = sysfs_emit(buf, "%s\n", dev->mm ? dev->mm->name : "none");
	mutex_unlock(&nvm_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(nvm_sysfs_emit_mm);

static ssize_t media_manager_show(struct device *d,
				  struct device_attribute *attr, char *buf)
{
	return nvm_sysfs_emit_mm(to_nvm_dev(d), buf);
}
static DEVICE_ATTR_RO(media_manager);

static ssize_t nvm_blocks_show(struct device *d, char *buf, bool bad)
{
	struct nvm_dev *dev = to_nvm_dev(d);
	u64 nr_free = 0, nr_bad = 0;
	ssize_t ret;

	mutex_lock(&nvm_lock);
	if (dev->mm && dev->mm->free_blocks) {
		dev->mm->free_blocks(dev, &nr_free, &nr_bad);
		ret = sysfs_emit(buf, "%llu\n", bad ? nr_bad : nr_free);
	} else {
		ret = -ENODEV;
	}
	mutex_unlock(&nvm_lock);
	return ret;
}

static ssize_t free_blocks_show(struct device *d, struct device_attribute *attr,
				char *buf)
{
	return nvm_blocks_show(d, buf, false);
}
static DEVICE_ATTR_RO(free_blocks);

static ssize_t bad_blocks_show(struct device *d, struct device_attribute *attr,
			       char *buf)
{
	return nvm_blocks_show(d, buf, true);
}
static DEVICE_ATTR_RO(bad_blocks);

static ssize_t targets_show(struct device *d, struct device_attribute *attr,
			    char *buf)
{
	struct nvm_dev *dev = to_nvm_dev(d);
	struct nvm_target *t;
	int len = 0;

	/* targets being created or removed are not (or no longer) there */
	mutex_lock(&nvm_lock);
	list_for_each_entry(t, &nvm_targets, list) {
		if (t->dev != dev ||
		    to_nvm_core_target(t)->state != NVM_TGT_LIVE)
			continue;
		len += sysfs_emit_at(buf, len, "%s %s %d %d\n", t->name,
				     t->type->name, t->conf.lun_begin,
				     t->conf.lun_end);
	}
	mutex_unlock(&nvm_lock);
	return len;
}
static DEVICE_ATTR_RO(targets);

static struct attribute *nvm_dev_attrs[] = {
	&dev_attr_version.attr,
	&dev_attr_vendor_opcode.attr,
	&dev_attr_capabilities.attr,
	&dev_attr_device_mode.attr,
	&dev_attr_media_type.attr,
	&dev_attr_flash_media_type.attr,
	&dev_attr_num_channels.attr,
	&dev_attr_num_luns.attr,
	&dev_attr_total_luns.attr,
	&dev_attr_num_planes.attr,
	&dev_attr_num_blocks.attr,
	&dev_attr_num_pages.attr,
	&dev_attr_page_size.attr,
	&dev_attr_sector_size.attr,
	&dev_attr_sectors_per_page.attr,
	&dev_attr_oob_size.attr,
	&dev_attr_plane_mode.attr,
	&dev_attr_multiplane_modes.attr,
	&dev_attr_media_capabilities.attr,
	&dev_attr_channel_parallelism.attr,
	&dev_attr_read_typ.attr,
	&dev_attr_read_max.attr,
	&dev_attr_prog_typ.attr,
	&dev_attr_prog_max.attr,
	&dev_attr_erase_typ.attr,
	&dev_attr_erase_max.attr,
	&dev_attr_max_phys_secs.attr,
	&dev_attr_capacity_sectors.attr,
	&dev_attr_ppa_format.attr,
	&dev_attr_media_manager.attr,
	&dev_attr_free_blocks.attr,
	&dev_attr_bad_blocks.attr,
	&dev_attr_targets.attr,
	NULL,
};

static const struct attribute_group nvm_dev_group = {
	.attrs = nvm_dev_attrs,
};

/* Open-Channel SSD 2.0 devices only. */
NVM_GEO_ATTR(minor_version, "%u", dev->identity.id20.ver_minor);
NVM_GEO_ATTR(num_groups, "%d", dev->geo.num_grp);
NVM_GEO_ATTR(num_pus, "%d", dev->geo.num_pu);
NVM_GEO_ATTR(num_chunks, "%d", dev->geo.num_chk);
NVM_GEO_ATTR(clba, "%d", dev->geo.clba);
NVM_GEO_ATTR(ws_min, "%d", dev->geo.ws_min);
NVM_GEO_ATTR(ws_opt, "%d", dev->geo.ws_opt);
NVM_GEO_ATTR(mw_cunits, "%d", dev->geo.mw_cunits);
NVM_GEO_ATTR(maxoc, "%u", dev->geo.maxoc);
NVM_GEO_ATTR(maxocpu, "%u", dev->geo.maxocpu);
NVM_GEO_ATTR(mccap, "0x%x", dev->geo.mccap);
NVM_GEO_ATTR(wear_threshold, "%u", dev->identity.id20.wit);

static ssize_t lba_format_show(struct device *d, struct device_attribute *attr,
			       char *buf)
{
	const struct nvm_addrf20 *f = &to_nvm_dev(d)->lbaf;

	return sysfs_emit(buf, "grp %u:%u pu %u:%u chk %u:%u lbk %u:%u\n",
			  f->grp_offset, f->grp_len, f->pu_offset, f->pu_len,
			  f->chk_offset, f->chk_len, f->lbk_offset, f->lbk_len);
}
static DEVICE_ATTR_RO(lba_format);

static struct attribute *nvm_dev20_attrs[] = {
	&dev_attr_minor_version.attr,
	&dev_attr_num_groups.attr,
	&dev_attr_num_pus.attr,
	&dev_attr_num_chunks.attr,
	&dev_attr_clba.attr,
	&dev_attr_ws_min.attr,
	&dev_attr_ws_opt.attr,
	&dev_attr_mw_cunits.attr,
	&dev_attr_maxoc.attr,
	&dev_attr_maxocpu.attr,
	&dev_attr_mccap.attr,
	&dev_attr_wear_threshold.attr,
	&dev_attr_lba_format.attr,
	NULL,
};

/* The geometry is known before device_add(): nvm_register() reads it first. */
static umode_t nvm_dev20_visible(struct kobject *kobj, struct attribute *attr,
				 int n)
{
	struct nvm_dev *dev = to_nvm_dev(kobj_to_dev(kobj));

	return dev->geo.version == NVM_OCSSD_SPEC_20 ? attr->mode : 0;
}

static const struct attribute_group nvm_dev20_group = {
	.attrs = nvm_dev20_attrs,
	.is_visible = nvm_dev20_visible,
};

const struct attribute_group *nvm_dev_groups[] = {
	&nvm_dev_group,
	&nvm_dev20_group,
	NULL,
};

/* ------------------------------------------------------ luns/<n>/ */

/* One LUN's directory; its attributes read @dev under nvm_lock. */
struct nvm_sysfs_lun {
	struct kobject		kobj;
	struct nvm_dev		*dev;
	int			id;
};

/**
 * struct nvm_sysfs_luns - the luns/ directory of a device
 * @dir: luns/
 * @nr: LUN directories added so far
 * @lun: one per LUN of the device, in device LUN index order
 */
struct nvm_sysfs_luns {
	struct kobject		*dir;
	int			nr;
	struct nvm_sysfs_lun	*lun[];
};

static inline struct nvm_sysfs_lun *to_nvm_sysfs_lun(struct kobject *kobj)
{
	return container_of(kobj, struct nvm_sysfs_lun, kobj);
}

/* The media manager's counts of LUN @l; -ENODEV while the device is unbound. */
static int nvm_sysfs_lun_stats(struct nvm_sysfs_lun *l,
			       struct nvm_lun_stats *st)
{
	struct nvm_dev *dev = l->dev;
	int ret = -ENODEV;

	/* the binding and the manager's state change under nvm_lock */
	mutex_lock(&nvm_lock);
	if (dev->mm && dev->mm->lun_stats)
		ret = dev->mm->lun_stats(dev, l->id, st);
	mutex_unlock(&nvm_lock);
	return ret;
}

#define NVM_LUN_ATTR(_name, _field)					\
static ssize_t lun_##_name##_show(struct kobject *kobj,		\
				  struct kobj_attribute *attr, char *buf) \
{									\
	struct nvm_lun_stats st;					\
	int ret;							\
									\
	ret = nvm_sysfs_lun_stats(to_nvm_sysfs_lun(kobj), &st);	\
	if (ret)							\
		return ret;						\
	return sysfs_emit(buf, "%u\n", st._field);			\
}									\
static struct kobj_attribute nvm_lun_attr_##_name =			\
	__ATTR(_name, 0444, lun_##_name##_show, NULL)

NVM_LUN_ATTR(free_blocks, nr_free);
NVM_LUN_ATTR(used_blocks, nr_used);
NVM_LUN_ATTR(bad_blocks, nr_bad);
NVM_LUN_ATTR(factory_bad_blocks, nr_factory_bad);
NVM_LUN_ATTR(grown_bad_blocks, nr_grown_bad);

/* The live target whose LUN range holds this LUN, or an empty line. */
static ssize_t lun_target_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct nvm_sysfs_lun *l = to_nvm_sysfs_lun(kobj);
	const char *name = "";
	struct nvm_target *t;
	ssize_t ret;

	mutex_lock(&nvm_lock);
	list_for_each_entry(t, &nvm_targets, list) {
		if (t->dev == l->dev &&
		    to_nvm_core_target(t)->state == NVM_TGT_LIVE &&
		    l->id >= t->conf.lun_begin && l->id <= t->conf.lun_end) {
			name = t->name;
			break;
		}
	}
	ret = sysfs_emit(buf, "%s\n", name);
	mutex_unlock(&nvm_lock);
	return ret;
}

static struct kobj_attribute nvm_lun_attr_target =
	__ATTR(target, 0444, lun_target_show, NULL);

static struct attribute *nvm_lun_attrs[] = {
	&nvm_lun_attr_free_blocks.attr,
	&nvm_lun_attr_used_blocks.attr,
	&nvm_lun_attr_bad_blocks.attr,
	&nvm_lun_attr_factory_bad_blocks.attr,
	&nvm_lun_attr_grown_bad_blocks.attr,
	&nvm_lun_attr_target.attr,
	NULL,
};
ATTRIBUTE_GROUPS(nvm_lun);

static void nvm_sysfs_lun_release(struct kobject *kobj)
{
	kfree(to_nvm_sysfs_lun(kobj));
}

static const struct kobj_type nvm_lun_ktype = {
	.release	= nvm_sysfs_lun_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= nvm_lun_groups,
};

/* Remove the LUN directories added so far and luns/ itself. */
static void nvm_sysfs_free_luns(struct nvm_sysfs_luns *s)
{
	while (s->nr--) {
		kobject_del(&s->lun[s->nr]->kobj);
		kobject_put(&s->lun[s->nr]->kobj);
	}
	kobject_del(s->dir);
	kobject_put(s->dir);
	kfree(s);
}

/**
 * nvm_sysfs_add_luns() - add /sys/class/lightnvm/<dev>/luns/<n>/
 * @dev: a device whose &nvm_dev.dev was added to sysfs
 *
 * On failure the LUN directories added so far stay, for the caller to
 * remove with nvm_sysfs_del_luns() once it dropped nvm_lock: a reader of
 * one of them (lun_target_show()) may be waiting for that lock, and the
 * removal waits for the reader.
 *
 * Context: process; may hold nvm_lock.
 * Return: 0 or -ENOMEM.
 */
int nvm_sysfs_add_luns(struct nvm_dev *dev)
{
	int nr_luns = dev->geo.nr_luns;
	struct nvm_sysfs_luns *s;
	int ret;

	s = kzalloc(struct_size(s, lun, nr_luns), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->dir = kobject_create_and_add("luns", &dev->dev.kobj);
	if (!s->dir) {
		ret = -ENOMEM;
		goto err_free;
	}
	for (; s->nr < nr_luns; s->nr++) {
		struct nvm_sysfs_lun *l = kzalloc(sizeof(*l), GFP_KERNEL);

		if (!l) {
			ret = -ENOMEM;
			goto err_free_luns;
		}
		l->dev = dev;
		l->id = s->nr;
		ret = kobject_init_and_add(&l->kobj, &nvm_lun_ktype, s->dir,
					   "%d", l->id);
		if (ret) {
			kobject_put(&l->kobj);
			goto err_free_luns;
		}
		s->lun[s->nr] = l;
	}
	dev->sysfs_luns = s;
	return 0;

err_free_luns:
	pr_err("%s: could not add the sysfs directory of LUN %d: %d\n",
	       dev->name, s->nr, ret);
	dev->sysfs_luns = s;
	return ret;
err_free:
	kfree(s);
	return ret;
}

/**
 * nvm_sysfs_del_luns() - remove what nvm_sysfs_add_luns() added
 * @dev: the device
 *
 * Waits for the LUN attributes being read, which take nvm_lock.
 *
 * Context: process, nvm_lock not held.
 */
void nvm_sysfs_del_luns(struct nvm_dev *dev)
{
	if (!dev->sysfs_luns)
		return;
	nvm_sysfs_free_luns(dev->sysfs_luns);
	dev->sysfs_luns = NULL;
}
