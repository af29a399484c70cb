/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LightNVM core, private declarations shared by the core's files: the
 * global lock and the lists it protects (devices, media managers, target
 * types, targets), the class of the device objects, and the entry points
 * of the registries (core.c), the control device (ctl.c), the target life
 * cycle (target.c) and sysfs (sysfs.c). The core's other file, geo.c
 * (identity validation and geometry), is declared in
 * include/linux/lightnvm.h: drivers and KUnit suites call it too.
 */
#ifndef _LIGHTNVM_CORE_H
#define _LIGHTNVM_CORE_H

#include <linux/lightnvm.h>

#include "compat.h"

/*
 * nvm_lock protects nvm_devices, nvm_mms, nvm_tgt_types and nvm_targets,
 * the state of every target on nvm_targets (&nvm_core_target.state), the
 * registration flag of a device (&nvm_dev.registered) and the binding of a
 * device to its media manager (&nvm_dev.mm, &nvm_dev.mmp). A control
 * operation checks and reserves under it (names, LUN ranges, states), so
 * that checks and the insertions they guard are atomic; it is *not* held
 * across the slow parts of a target's life cycle: the target type's init
 * and exit, del_gendisk() and device_add_disk() run without it, on a
 * target marked %NVM_TGT_CREATING or %NVM_TGT_REMOVING (see target.c).
 * Every state change of a target bumps nvm_tgt_gen and wakes nvm_tgt_wq.
 *
 * Lock order: nvm_lock, then a target disk's open_mutex, then the media
 * manager's locks (LUN spinlocks). Nothing under a disk's open_mutex, in
 * the I/O path, or in a target type's init or exit takes nvm_lock. sysfs
 * show functions may take nvm_lock, so nothing may remove a device's sysfs
 * files (device_del) under it.
 */
extern struct mutex nvm_lock;
extern struct list_head nvm_devices;
extern struct list_head nvm_mms;
extern struct list_head nvm_tgt_types;
extern struct list_head nvm_targets;
extern struct class nvm_class;
extern const struct attribute_group *nvm_dev_groups[];

/**
 * enum nvm_tgt_state - where a target is in its life cycle
 * @NVM_TGT_CREATING: name and LUNs reserved; the disk and the target type's
 *	instance are being set up without nvm_lock. Not visible in sysfs;
 *	removal fails with -EBUSY.
 * @NVM_TGT_LIVE: created: its disk is added and it can be removed
 * @NVM_TGT_REMOVING: its disk is being deleted and its type's exit runs
 *	without nvm_lock; the name and the LUNs stay reserved until the
 *	target leaves nvm_targets. Not visible in sysfs; a second removal
 *	fails with -ENODEV.
 */
enum nvm_tgt_state {
	NVM_TGT_CREATING,
	NVM_TGT_LIVE,
	NVM_TGT_REMOVING,
};

/**
 * struct nvm_core_target - the core's view of a target
 * @tgt: what the target type sees; @tgt.list is on nvm_targets
 * @mm: the media manager whose LUNs and module it holds
 * @state: an &enum nvm_tgt_state, under nvm_lock
 */
struct nvm_core_target {
	struct nvm_target	tgt;
	struct nvm_mm_type	*mm;
	enum nvm_tgt_state	state;
};

static inline struct nvm_core_target *to_nvm_core_target(struct nvm_target *t)
{
	return container_of(t, struct nvm_core_target, tgt);
}

/* core.c */
int nvm_check_name(const char *ctx, const char *field, const char *name,
		   size_t size);
struct nvm_dev *nvm_find_dev(const char *name);
struct nvm_mm_type *nvm_find_mm(const char *name);
struct nvm_tgt_type *nvm_find_tgt_type(const char *name);
int nvm_bind_mm(struct nvm_dev *dev, struct nvm_mm_type *mt);
void nvm_unbind_mm(struct nvm_dev *dev);

/* target.c */
struct nvm_target *nvm_tgt_reserve(struct nvm_dev *dev,
				   struct nvm_tgt_type *tt, const char *name,
				   const struct nvm_tgt_conf *conf);
int nvm_tgt_create(struct nvm_target *t);
int nvm_tgt_remove(const char *name);
void nvm_tgt_remove_all(struct nvm_dev *dev);
struct nvm_target *nvm_find_target(const char *name);
bool nvm_dev_has_targets(struct nvm_dev *dev);

/* sysfs.c */
int nvm_sysfs_add_luns(struct nvm_dev *dev);
void nvm_sysfs_del_luns(struct nvm_dev *dev);

/* ctl.c */
int nvm_ctl_init(void);
void nvm_ctl_exit(void);

#endif /* _LIGHTNVM_CORE_H */
