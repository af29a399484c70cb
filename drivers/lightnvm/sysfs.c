// SPDX-License-Identifier: GPL-2.0
/*
 * LightNVM core: the read-only sysfs attributes of a registered device,
 * /sys/class/lightnvm/<name>/: identity, derived geometry, the bound media
 * manager, block counts and the device's targets. Documented in
 * Documentation/ABI/testing/sysfs-class-lightnvm. The attributes that
 * take nvm_lock answer while a target is created or removed: the core
 * does not hold it across a target type's init or exit.
 */

#include <linux/device.h>
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
NVM_GEO_ATTR(read_typ, "%u", dev->identity.groups[0].trdt);
NVM_GEO_ATTR(read_max, "%u", dev->identity.groups[0].trdm);
NVM_GEO_ATTR(prog_typ, "%u", dev->identity.groups[0].tprt);
NVM_GEO_ATTR(prog_max, "%u", dev->identity.groups[0].tprm);
NVM_GEO_ATTR(erase_typ, "%u", dev->identity.groups[0].tbet);
NVM_GEO_ATTR(erase_max, "%u", dev->identity.groups[0].tbem);
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

/* The binding changes under nvm_lock; device_del() never runs under it. */
static ssize_t media_manager_show(struct device *d,
				  struct device_attribute *attr, char *buf)
{
	struct nvm_dev *dev = to_nvm_dev(d);
	ssize_t ret;

	mutex_lock(&nvm_lock);
	ret = sysfs_emit(buf, "%s\n", dev->mm ? dev->mm->name : "none");
	mutex_unlock(&nvm_lock);
	return ret;
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

const struct attribute_group *nvm_dev_groups[] = {
	&nvm_dev_group,
	NULL,
};
