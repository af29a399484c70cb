/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace compile test of include/uapi/linux/lightnvm.h: the header must
 * stand alone (no other project header) and its layouts must match the
 * historical ABI byte for byte, the control device's and the vector I/O
 * ioctls' (Linux 4.11 and later) alike. Built with -std=c90 and as C++.
 */
#include <linux/lightnvm.h>
#include <stddef.h>

#define ABI_ASSERT(name, cond) typedef char abi_##name[(cond) ? 1 : -1]

ABI_ASSERT(info_tgt_size, sizeof(struct nvm_ioctl_info_tgt) == 64);
ABI_ASSERT(info_tgt_name, offsetof(struct nvm_ioctl_info_tgt, tgtname) == 16);
ABI_ASSERT(info_size, sizeof(struct nvm_ioctl_info) == 4096);
ABI_ASSERT(info_tgtsize, offsetof(struct nvm_ioctl_info, tgtsize) == 12);
ABI_ASSERT(info_tgts, offsetof(struct nvm_ioctl_info, tgts) == 64);
ABI_ASSERT(devinfo_size, sizeof(struct nvm_ioctl_device_info) == 128);
ABI_ASSERT(devinfo_bmname, offsetof(struct nvm_ioctl_device_info, bmname) == 32);
ABI_ASSERT(devinfo_bmver, offsetof(struct nvm_ioctl_device_info, bmversion) == 80);
ABI_ASSERT(devinfo_flags, offsetof(struct nvm_ioctl_device_info, flags) == 92);
ABI_ASSERT(getdev_size, sizeof(struct nvm_ioctl_get_devices) == 4096);
ABI_ASSERT(getdev_info, offsetof(struct nvm_ioctl_get_devices, info) == 128);
ABI_ASSERT(simple_size, sizeof(struct nvm_ioctl_create_simple) == 8);
ABI_ASSERT(ext_size, sizeof(struct nvm_ioctl_create_extended) == 8);
ABI_ASSERT(ext_op, offsetof(struct nvm_ioctl_create_extended, over_prov) == 4);
ABI_ASSERT(conf_size, sizeof(struct nvm_ioctl_create_conf) == 12);
ABI_ASSERT(create_size, sizeof(struct nvm_ioctl_create) == 128);
ABI_ASSERT(create_type, offsetof(struct nvm_ioctl_create, tgttype) == 32);
ABI_ASSERT(create_name, offsetof(struct nvm_ioctl_create, tgtname) == 80);
ABI_ASSERT(create_flags, offsetof(struct nvm_ioctl_create, flags) == 112);
ABI_ASSERT(create_conf, offsetof(struct nvm_ioctl_create, conf) == 116);
ABI_ASSERT(remove_size, sizeof(struct nvm_ioctl_remove) == 36);
ABI_ASSERT(init_size, sizeof(struct nvm_ioctl_dev_init) == 44);
ABI_ASSERT(factory_size, sizeof(struct nvm_ioctl_dev_factory) == 36);

ABI_ASSERT(ioc_info, NVM_INFO == 0xd0004c20UL);
ABI_ASSERT(ioc_getdev, NVM_GET_DEVICES == 0x90004c21UL);
ABI_ASSERT(ioc_create, NVM_DEV_CREATE == 0x40804c22UL);
ABI_ASSERT(ioc_remove, NVM_DEV_REMOVE == 0x40244c23UL);
ABI_ASSERT(ioc_init, NVM_DEV_INIT == 0x402c4c24UL);
ABI_ASSERT(ioc_factory, NVM_DEV_FACTORY == 0x40244c25UL);

/* the vector I/O ABI of Linux 4.11 and later, on the namespace's node */
ABI_ASSERT(uvio_size, sizeof(struct nvm_user_vio) == 64);
ABI_ASSERT(uvio_control, offsetof(struct nvm_user_vio, control) == 2);
ABI_ASSERT(uvio_nppas, offsetof(struct nvm_user_vio, nppas) == 4);
ABI_ASSERT(uvio_rsvd, offsetof(struct nvm_user_vio, rsvd) == 6);
ABI_ASSERT(uvio_metadata, offsetof(struct nvm_user_vio, metadata) == 8);
ABI_ASSERT(uvio_addr, offsetof(struct nvm_user_vio, addr) == 16);
ABI_ASSERT(uvio_ppa_list, offsetof(struct nvm_user_vio, ppa_list) == 24);
ABI_ASSERT(uvio_metadata_len, offsetof(struct nvm_user_vio, metadata_len) == 32);
ABI_ASSERT(uvio_data_len, offsetof(struct nvm_user_vio, data_len) == 36);
ABI_ASSERT(uvio_status, offsetof(struct nvm_user_vio, status) == 40);
ABI_ASSERT(uvio_result, offsetof(struct nvm_user_vio, result) == 48);
ABI_ASSERT(uvio_rsvd3, offsetof(struct nvm_user_vio, rsvd3) == 52);
ABI_ASSERT(pvio_size, sizeof(struct nvm_passthru_vio) == 80);
ABI_ASSERT(pvio_nsid, offsetof(struct nvm_passthru_vio, nsid) == 4);
ABI_ASSERT(pvio_cdw2, offsetof(struct nvm_passthru_vio, cdw2) == 8);
ABI_ASSERT(pvio_cdw3, offsetof(struct nvm_passthru_vio, cdw3) == 12);
ABI_ASSERT(pvio_metadata, offsetof(struct nvm_passthru_vio, metadata) == 16);
ABI_ASSERT(pvio_addr, offsetof(struct nvm_passthru_vio, addr) == 24);
ABI_ASSERT(pvio_metadata_len, offsetof(struct nvm_passthru_vio, metadata_len) == 32);
ABI_ASSERT(pvio_data_len, offsetof(struct nvm_passthru_vio, data_len) == 36);
ABI_ASSERT(pvio_ppa_list, offsetof(struct nvm_passthru_vio, ppa_list) == 40);
ABI_ASSERT(pvio_nppas, offsetof(struct nvm_passthru_vio, nppas) == 48);
ABI_ASSERT(pvio_control, offsetof(struct nvm_passthru_vio, control) == 50);
ABI_ASSERT(pvio_cdw13, offsetof(struct nvm_passthru_vio, cdw13) == 52);
ABI_ASSERT(pvio_cdw15, offsetof(struct nvm_passthru_vio, cdw15) == 60);
ABI_ASSERT(pvio_status, offsetof(struct nvm_passthru_vio, status) == 64);
ABI_ASSERT(pvio_result, offsetof(struct nvm_passthru_vio, result) == 72);
ABI_ASSERT(pvio_timeout, offsetof(struct nvm_passthru_vio, timeout_ms) == 76);
ABI_ASSERT(ioc_admin_vio, NVME_NVM_IOCTL_ADMIN_VIO == 0xc0504c41UL);
ABI_ASSERT(ioc_submit_vio, NVME_NVM_IOCTL_SUBMIT_VIO == 0xc0404c42UL);
ABI_ASSERT(ioc_io_vio, NVME_NVM_IOCTL_IO_VIO == 0xc0504c43UL);

int main(void)
{
	return 0;
}
