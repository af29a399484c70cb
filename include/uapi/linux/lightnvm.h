/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Userspace ABI of LightNVM (Open-Channel SSDs): the control device,
 * /dev/lightnvm/control, and the vector I/O ioctls of an open-channel
 * NVMe namespace's block device (/dev/nvme0n1, as in Linux 4.11 and
 * later). The ioctl numbers and every structure layout below are fixed:
 * historical tools (lnvm, nvme-cli 1.x "nvme lnvm", liblightnvm) depend
 * on them byte for byte. All reserved fields must be zero.
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

/*
 * Vector I/O on an open-channel namespace's block device (Linux 4.11 ABI).
 * Addresses are in the device's format (see the namespace's
 * lightnvm/ppa_format in sysfs). @nppas is the number of addresses minus
 * one: with one address @ppa_list holds the address itself, else a user
 * pointer to an array of nppas + 1 __u64 addresses. On return @status
 * holds the command's 64-bit completion bitmap (result dwords 0-1: bit i
 * set if address i failed) and @result the NVMe status (0 on success),
 * which the ioctl also returns. Callers need CAP_SYS_ADMIN.
 */

/* NVME_NVM_IOCTL_SUBMIT_VIO: a vector erase (0x90), write (0x91) or read (0x92). */
struct nvm_user_vio {
	__u8 opcode;
	__u8 flags;		/* must be 0 */
	__u16 control;		/* plane mode, SLC, scramble-off bits */
	__u16 nppas;		/* addresses - 1 */
	__u16 rsvd;
	__u64 metadata;		/* OOB bytes: nppas + 1 times the OOB size */
	__u64 addr;		/* data: nppas + 1 sectors */
	__u64 ppa_list;		/* the address, or a pointer to the list */
	__u32 metadata_len;
	__u32 data_len;
	__u64 status;		/* out: completion bitmap */
	__u32 result;		/* out: NVMe status */
	__u32 rsvd3[3];
};

/*
 * NVME_NVM_IOCTL_ADMIN_VIO (Open-Channel admin commands) and
 * NVME_NVM_IOCTL_IO_VIO (vector I/O commands with every dword given):
 * @nsid is 0 or the namespace's id, @timeout_ms 0 for the default.
 */
struct nvm_passthru_vio {
	__u8 opcode;
	__u8 flags;		/* must be 0 */
	__u8 rsvd[2];
	__u32 nsid;
	__u32 cdw2;
	__u32 cdw3;
	__u64 metadata;
	__u64 addr;
	__u32 metadata_len;
	__u32 data_len;
	__u64 ppa_list;		/* dwords 10-11: the address or a list pointer */
	__u16 nppas;		/* dword 12 low half: addresses - 1 */
	__u16 control;		/* dword 12 high half */
	__u32 cdw13;
	__u32 cdw14;
	__u32 cdw15;
	__u64 status;		/* out: completion bitmap */
	__u32 result;		/* out: NVMe status */
	__u32 timeout_ms;
};

/* Open-Channel SSD 1.2 opcodes the vector ioctls take */
enum {
	NVM_VIO_OP_ERASE = 0x90,	/* I/O: vector erase */
	NVM_VIO_OP_WRITE = 0x91,	/* I/O: vector write */
	NVM_VIO_OP_READ = 0x92,		/* I/O: vector read */
	NVM_VIO_OP_IDENTITY = 0xe2,	/* admin: identity, 4096 bytes */
	NVM_VIO_OP_SET_BB_TBL = 0xf1,	/* admin: set bad block table */
	NVM_VIO_OP_GET_BB_TBL = 0xf2	/* admin: get bad block table */
};

/* The ioctl type, 'L', 0x40 - 0x4F: on the namespace's block device */
enum {
	NVM_DEV_VIO_ADMIN_CMD = 0x41,
	NVM_DEV_VIO_CMD = 0x42,
	NVM_DEV_VIO_USER_CMD = 0x43
};

#define NVME_NVM_IOCTL_ADMIN_VIO	_IOWR(NVM_IOCTL, NVM_DEV_VIO_ADMIN_CMD, \
						struct nvm_passthru_vio)
#define NVME_NVM_IOCTL_SUBMIT_VIO	_IOWR(NVM_IOCTL, NVM_DEV_VIO_CMD, \
						struct nvm_user_vio)
#define NVME_NVM_IOCTL_IO_VIO		_IOWR(NVM_IOCTL, NVM_DEV_VIO_USER_CMD, \
						struct nvm_passthru_vio)

#define NVM_VERSION_MAJOR	1
#define NVM_VERSION_MINOR	0
#define NVM_VERSION_PATCHLEVEL	0

#endif /* _UAPI_LINUX_LIGHTNVM_H */
