/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Userspace ABI of the LightNVM (Open-Channel SSD) control device,
 * /dev/lightnvm/control. The ioctl numbers and every structure layout below
 * are fixed: historical tools (lnvm, nvme-cli 1.x "nvme lnvm") depend on
 * them byte for byte. All reserved fields must be zero.
 */
#ifndef _UAPI_LINUX_LIGHTNVM_H
#define _UAPI_LINUX_LIGHTNVM_H

#include <linux/types.h>
#include <linux/ioctl.h>

#ifndef DISK_NAME_LEN
#define DISK_NAME_LEN 32
#endif

#define NVM_TTYPE_NAME_MAX 48
#define NVM_TTYPE_MAX 63
#define NVM_MMTYPE_LEN 8

#define NVM_CTRL_FILE "/dev/lightnvm/control"

/* One target type known to the core. */
struct nvm_ioctl_info_tgt {
	__u32 version[3];
	__u32 reserved;
	char tgtname[NVM_TTYPE_NAME_MAX];
};

/* NVM_INFO: core version (in/out) and the registered target types. */
struct nvm_ioctl_info {
	__u32 version[3];	/* in/out: major, minor, patch */
	__u16 tgtsize;		/* out: number of entries in tgts */
	__u16 reserved16;
	__u32 reserved[12];
	struct nvm_ioctl_info_tgt tgts[NVM_TTYPE_MAX];
};

enum {
	NVM_DEVICE_ACTIVE = 1 << 0
};

/* One registered open-channel device and its media manager. */
struct nvm_ioctl_device_info {
	char devname[DISK_NAME_LEN];
	char bmname[NVM_TTYPE_NAME_MAX];
	__u32 bmversion[3];
	__u32 flags;
	__u32 reserved[8];
};

/* NVM_GET_DEVICES: at most 31 devices are reported. */
struct nvm_ioctl_get_devices {
	__u32 nr_devices;
	__u32 reserved[31];
	struct nvm_ioctl_device_info info[31];
};

/* Inclusive LUN range [lun_begin, lun_end]. */
struct nvm_ioctl_create_simple {
	__u32 lun_begin;
	__u32 lun_end;
};

/* Inclusive LUN range plus over-provisioning in percent (0: default). */
struct nvm_ioctl_create_extended {
	__u16 lun_begin;
	__u16 lun_end;
	__u16 over_prov;
	__u16 rsv;
};

enum {
	NVM_CONFIG_TYPE_SIMPLE = 0,
	NVM_CONFIG_TYPE_EXTENDED = 1
};

struct nvm_ioctl_create_conf {
	__u32 type;
	union {
		struct nvm_ioctl_create_simple s;
		struct nvm_ioctl_create_extended e;
	};
};

enum {
	NVM_TARGET_FACTORY = 1 << 0	/* create from a factory-fresh state */
};

/* NVM_DEV_CREATE: create target @tgtname of type @tgttype on device @dev. */
struct nvm_ioctl_create {
	char dev[DISK_NAME_LEN];
	char tgttype[NVM_TTYPE_NAME_MAX];
	char tgtname[DISK_NAME_LEN];
	__u32 flags;
	struct nvm_ioctl_create_conf conf;
};

/* NVM_DEV_REMOVE: remove the target named @tgtname. */
struct nvm_ioctl_remove {
	char tgtname[DISK_NAME_LEN];
	__u32 flags;
};

/* NVM_DEV_INIT: bind device @dev to media manager @mmtype. */
struct nvm_ioctl_dev_init {
	char dev[DISK_NAME_LEN];
	char mmtype[NVM_MMTYPE_LEN];
	__u32 flags;
};

enum {
	NVM_FACTORY_ERASE_ONLY_USER = 1 << 0,	/* erase only host-used and grown-bad blocks */
	NVM_FACTORY_RESET_HOST_BLKS = 1 << 1,	/* clear host-used marks */
	NVM_FACTORY_RESET_GRWN_BBLKS = 1 << 2,	/* clear grown-bad marks */
	NVM_FACTORY_NR_BITS = 1 << 3
};

/* NVM_DEV_FACTORY: bring device @dev back to a factory state. */
struct nvm_ioctl_dev_factory {
	char dev[DISK_NAME_LEN];
	__u32 flags;
};

/* The ioctl type, 'L', 0x20 - 0x2F */
enum {
	NVM_INFO_CMD = 0x20,
	NVM_GET_DEVICES_CMD,
	NVM_DEV_CREATE_CMD,
	NVM_DEV_REMOVE_CMD,
	NVM_DEV_INIT_CMD,
	NVM_DEV_FACTORY_CMD
};

#define NVM_IOCTL 'L' /* 0x4c */

#define NVM_INFO		_IOWR(NVM_IOCTL, NVM_INFO_CMD, \
						struct nvm_ioctl_info)
#define NVM_GET_DEVICES		_IOR(NVM_IOCTL, NVM_GET_DEVICES_CMD, \
						struct nvm_ioctl_get_devices)
#define NVM_DEV_CREATE		_IOW(NVM_IOCTL, NVM_DEV_CREATE_CMD, \
						struct nvm_ioctl_create)
#define NVM_DEV_REMOVE		_IOW(NVM_IOCTL, NVM_DEV_REMOVE_CMD, \
						struct nvm_ioctl_remove)
#define NVM_DEV_INIT		_IOW(NVM_IOCTL, NVM_DEV_INIT_CMD, \
						struct nvm_ioctl_dev_init)
#define NVM_DEV_FACTORY		_IOW(NVM_IOCTL, NVM_DEV_FACTORY_CMD, \
						struct nvm_ioctl_dev_factory)

#define NVM_VERSION_MAJOR	1
#define NVM_VERSION_MINOR	0
#define NVM_VERSION_PATCHLEVEL	0

#endif /* _UAPI_LINUX_LIGHTNVM_H */
