// SPDX-License-Identifier: GPL-2.0
/*
 * LightNVM core: module entry points and the control device
 * /dev/lightnvm/control through which userspace manages devices and
 * targets.
 */

#define pr_fmt(fmt) "lightnvm: " fmt

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/capability.h>
#include <linux/lightnvm.h>

static long nvm_ctl_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	switch (cmd) {
	default:
		return -ENOTTY;
	}
}

static const struct file_operations nvm_ctl_fops = {
	.owner		= THIS_MODULE,
	.open		= nonseekable_open,
	.unlocked_ioctl	= nvm_ctl_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice nvm_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= "lightnvm",
	.nodename	= "lightnvm/control",
	.fops		= &nvm_ctl_fops,
};

static int __init nvm_mod_init(void)
{
	int ret;

	ret = misc_register(&nvm_misc);
	if (ret)
		pr_err("can't register control device: %d\n", ret);
	return ret;
}

static void __exit nvm_mod_exit(void)
{
	misc_deregister(&nvm_misc);
}

module_init(nvm_mod_init);
module_exit(nvm_mod_exit);

MODULE_AUTHOR("LightNVM port for Linux 6.1");
MODULE_DESCRIPTION("Open-Channel SSD (LightNVM) core");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0.0");
