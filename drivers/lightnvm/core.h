/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LightNVM core, private declarations shared by the core's files: the
 * global lock and the lists it protects (devices, media managers, target
 * types, targets), the class of the device objects, and the entry points
 * of the control device (ctl.c), target life cycle (target.c) and sysfs
 * (sysfs.c).
 */
#ifndef _LIGHTNVM_CORE_H
#define _LIGHTNVM_CORE_H

#include <linux/lightnvm.h>

/*
 * nvm_lock protects nvm_devices, nvm_mms, nvm_tgt_types and nvm_targets,
 * and the binding of a device to its media manager (&nvm_dev.mm,
 * &nvm_dev.mmp). Every control operation runs entirely under it, so that
 * checks (names, LUN ranges) and the insertions they guard are atomic.
 *
 * Lock order: nvm_lock, then a target disk's open_mutex, then the media
 * manager's locks (LUN spinlocks). Nothing under a disk's open_mutex or in
 * the I/O path takes nvm_lock. sysfs show functions may take nvm_lock, so
 * nothing may remove a device's sysfs files (device_del) under it.
 */
extern struct mutex nvm_lock;
extern struct list_head nvm_devices;
extern struct list_head nvm_mms;
extern struct list_head nvm_tgt_types;
extern struct list_head nvm_targets;
extern struct class nvm_class;
extern const struct attribute_group *nvm_dev_groups[];

/* core.c */
struct nvm_dev *nvm_find_dev(const char *name);
struct nvm_mm_type *nvm_find_mm(const char *name);
struct nvm_tgt_type *nvm_find_tgt_type(const char *name);
int nvm_bind_mm(struct nvm_dev *dev, struct nvm_mm_type *mt);
void nvm_unbind_mm(struct nvm_dev *dev);

/* target.c */
int nvm_tgt_create(struct nvm_dev *dev, struct nvm_tgt_type *tt,
		   const char *name, const struct nvm_tgt_conf *conf);
int nvm_tgt_remove(const char *name);
void nvm_tgt_remove_all(struct nvm_dev *dev);
struct nvm_target *nvm_find_target(const char *name);
bool nvm_dev_has_targets(struct nvm_dev *dev);

/* ctl.c */
int nvm_ctl_init(void);
void nvm_ctl_exit(void);

#endif /* _LIGHTNVM_CORE_H */
