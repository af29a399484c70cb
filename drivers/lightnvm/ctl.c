// SPDX-License-Identifier: GPL-2.0
/*
 * LightNVM core: the control device /dev/lightnvm/control and its six
 * ioctls (include/uapi/linux/lightnvm.h). Every field userspace hands in
 * is validated before the core acts on it, here (names through
 * nvm_check_name()) or, for the LUN range, which needs the device, in
 * nvm_tgt_reserve(); each rejection says which field was wrong. All
 * commands need CAP_SYS_ADMIN. Commands run under nvm_lock, except the
 * slow parts of create and remove (the target's init and exit, see
 * target.c), so that INFO and GET_DEVICES answer while a target is being
 * created or removed.
 */

#define pr_fmt(fmt) "lightnvm: " fmt

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/capability.h>
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/kmod.h>
#include <linux/lightnvm.h>

#include "core.h"

static long nvm_ioctl_info(void __user *arg)
{
	struct nvm_ioctl_info *info;
	struct nvm_tgt_type *tt;
	int i, n = 0;
	long ret = 0;

	info = memdup_user(arg, sizeof(*info));
	if (IS_ERR(info))
		return PTR_ERR(info);
	if (info->reserved16) {
		pr_err("info: reserved16 is not zero\n");
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(info->reserved); i++) {
		if (info->reserved[i]) {
			pr_err("info: reserved[%d] is not zero\n", i);
			ret = -EINVAL;
			goto out;
		}
	}

	memset(info->tgts, 0, sizeof(info->tgts));
	info->version[0] = NVM_VERSION_MAJOR;
	info->version[1] = NVM_VERSION_MINOR;
	info->version[2] = NVM_VERSION_PATCHLEVEL;

	mutex_lock(&nvm_lock);
	list_for_each_entry(tt, &nvm_tgt_types, list) {
		struct nvm_ioctl_info_tgt *tgt;

		if (n == NVM_TTYPE_MAX)
			break;
		tgt = &info->tgts[n++];
		memcpy(tgt->version, tt->version, sizeof(tgt->version));
		strscpy(tgt->tgtname, tt->name, sizeof(tgt->tgtname));
	}
	mutex_unlock(&nvm_lock);
	info->tgtsize = n;

	if (copy_to_user(arg, info, sizeof(*info)))
		ret = -EFAULT;
out:
	kfree(info);
	return ret;
}

static long nvm_ioctl_get_devices(void __user *arg)
{
	struct nvm_ioctl_get_devices *devs;
	struct nvm_dev *dev;
	int n = 0;
	long ret = 0;

	/* output only: the caller's buffer is not read */
	devs = kzalloc(sizeof(*devs), GFP_KERNEL);
	if (!devs)
		return -ENOMEM;

	mutex_lock(&nvm_lock);
	list_for_each_entry(dev, &nvm_devices, devices) {
		struct nvm_ioctl_device_info *info;

		if (!dev->registered)	/* being unregistered */
			continue;
		if (n == ARRAY_SIZE(devs->info))
			break;
		info = &devs->info[n++];
		strscpy(info->devname, dev->name, sizeof(info->devname));
		if (dev->mm) {
			strscpy(info->bmname, dev->mm->name,
				sizeof(info->bmname));
			memcpy(info->bmversion, dev->mm->version,
			       sizeof(info->bmversion));
			info->flags = NVM_DEVICE_ACTIVE;
		} else {
			strscpy(info->bmname, "none", sizeof(info->bmname));
		}
	}
	mutex_unlock(&nvm_lock);
	devs->nr_devices = n;

	if (copy_to_user(arg, devs, sizeof(*devs)))
		ret = -EFAULT;
	kfree(devs);
	return ret;
}

/* Find a target type, loading its module ("nvm-tgt-<name>") if needed. */
static struct nvm_tgt_type *nvm_lookup_tgt_type(const char *name)
{
	struct nvm_tgt_type *tt;

	lockdep_assert_held(&nvm_lock);
	tt = nvm_find_tgt_type(name);
	if (tt)
		return tt;
	mutex_unlock(&nvm_lock);
	request_module("nvm-tgt-%s", name);
	mutex_lock(&nvm_lock);
	return nvm_find_tgt_type(name);
}

static long nvm_ioctl_dev_create(void __user *arg)
{
	struct nvm_ioctl_create create;
	struct nvm_tgt_conf conf = { };
	struct nvm_tgt_type *tt;
	struct nvm_target *t;
	struct nvm_dev *dev;
	long ret;

	if (copy_from_user(&create, arg, sizeof(create)))
		return -EFAULT;

	ret = nvm_check_name("create", "dev", create.dev, sizeof(create.dev));
	if (ret)
		return ret;
	ret = nvm_check_name("create", "tgttype", create.tgttype,
			     sizeof(create.tgttype));
	if (ret)
		return ret;
	ret = nvm_check_name("create", "tgtname", create.tgtname,
			     sizeof(create.tgtname));
	if (ret)
		return ret;
	if (create.flags & ~NVM_TARGET_FACTORY) {
		pr_err("create: unknown flags 0x%x\n",
		       create.flags & ~NVM_TARGET_FACTORY);
		return -EINVAL;
	}

	switch (create.conf.type) {
	case NVM_CONFIG_TYPE_SIMPLE:
		/* the range is checked against the device in nvm_tgt_reserve() */
		conf.lun_begin = create.conf.s.lun_begin;
		conf.lun_end = create.conf.s.lun_end;
		break;
	case NVM_CONFIG_TYPE_EXTENDED:
		if (create.conf.e.rsv) {
			pr_err("create: conf.e.rsv is not zero\n");
			return -EINVAL;
		}
		if (create.conf.e.over_prov >= 100) {
			pr_err("create: over_prov %u%% out of range (0..99, 0: the target's default)\n",
			       create.conf.e.over_prov);
			return -EINVAL;
		}
		conf.lun_begin = create.conf.e.lun_begin;
		conf.lun_end = create.conf.e.lun_end;
		conf.over_prov = create.conf.e.over_prov;
		break;
	default:
		pr_err("create: unknown conf.type %u (0: simple, 1: extended)\n",
		       create.conf.type);
		return -EINVAL;
	}
	conf.flags = create.flags;

	/* checks and reservations under nvm_lock, the target's init without */
	mutex_lock(&nvm_lock);
	tt = nvm_lookup_tgt_type(create.tgttype);
	if (!tt) {
		pr_err("create: target type \"%s\" is not registered (see lnvm info)\n",
		       create.tgttype);
		mutex_unlock(&nvm_lock);
		return -EINVAL;
	}
	dev = nvm_find_dev(create.dev);
	if (!dev) {
		pr_err("create: device \"%s\" not found (see lnvm devices)\n",
		       create.dev);
		mutex_unlock(&nvm_lock);
		return -ENODEV;
	}
	t = nvm_tgt_reserve(dev, tt, create.tgtname, &conf);
	mutex_unlock(&nvm_lock);
	if (IS_ERR(t))
		return PTR_ERR(t);
	return nvm_tgt_create(t);
}

static long nvm_ioctl_dev_remove(void __user *arg)
{
	struct nvm_ioctl_remove remove;
	long ret;

	if (copy_from_user(&remove, arg, sizeof(remove)))
		return -EFAULT;
	ret = nvm_check_name("remove", "tgtname", remove.tgtname,
			     sizeof(remove.tgtname));
	if (ret)
		return ret;
	if (remove.flags) {
		pr_err("remove: unknown flags 0x%x\n", remove.flags);
		return -EINVAL;
	}

	/* takes nvm_lock, but not across the target's exit */
	return nvm_tgt_remove(remove.tgtname);
}

static long nvm_ioctl_dev_init(void __user *arg)
{
	struct nvm_ioctl_dev_init init;
	struct nvm_mm_type *mt;
	struct nvm_dev *dev;
	bool loaded = false;
	long ret;

	if (copy_from_user(&init, arg, sizeof(init)))
		return -EFAULT;
	ret = nvm_check_name("init", "dev", init.dev, sizeof(init.dev));
	if (ret)
		return ret;
	ret = nvm_check_name("init", "mmtype", init.mmtype,
			     sizeof(init.mmtype));
	if (ret)
		return ret;
	if (init.flags) {
		pr_err("init: unknown flags 0x%x\n", init.flags);
		return -EINVAL;
	}

	mutex_lock(&nvm_lock);
	if (!nvm_find_mm(init.mmtype)) {
		mutex_unlock(&nvm_lock);
		/* registering the manager may bind the device already */
		request_module("nvm-mm-%s", init.mmtype);
		mutex_lock(&nvm_lock);
		loaded = true;
	}
	mt = nvm_find_mm(init.mmtype);
	if (!mt) {
		pr_err("init: media manager \"%s\" is not available\n",
		       init.mmtype);
		ret = -EINVAL;
		goto out;
	}
	dev = nvm_find_dev(init.dev);
	if (!dev) {
		pr_err("init: device \"%s\" not found (see lnvm devices)\n",
		       init.dev);
		ret = -ENODEV;
		goto out;
	}
	if (dev->mm == mt && loaded) {
		ret = 0;	/* bound by the manager we just loaded */
		goto out;
	}
	if (dev->mm) {
		pr_err("init: device %s is already bound to media manager %s\n",
		       dev->name, dev->mm->name);
		ret = -EEXIST;
		goto out;
	}
	ret = nvm_bind_mm(dev, mt);
	if (ret)
		pr_err("init: media manager %s could not bind %s: %ld\n",
		       mt->name, dev->name, ret);
out:
	mutex_unlock(&nvm_lock);
	return ret;
}

static long nvm_ioctl_dev_factory(void __user *arg)
{
	struct nvm_ioctl_dev_factory fact;
	struct nvm_dev *dev;
	long ret;

	if (copy_from_user(&fact, arg, sizeof(fact)))
		return -EFAULT;
	ret = nvm_check_name("factory", "dev", fact.dev, sizeof(fact.dev));
	if (ret)
		return ret;
	if (fact.flags & ~(NVM_FACTORY_NR_BITS - 1)) {
		pr_err("factory: unknown flags 0x%x\n",
		       fact.flags & ~(NVM_FACTORY_NR_BITS - 1));
		return -EINVAL;
	}

	mutex_lock(&nvm_lock);
	dev = nvm_find_dev(fact.dev);
	if (!dev) {
		pr_err("factory: device \"%s\" not found (see lnvm devices)\n",
		       fact.dev);
		ret = -ENODEV;
		goto out;
	}
	if (!dev->mm) {
		pr_err("factory: device %s is not bound to a media manager; bind it first (lnvm init -d %s)\n",
		       dev->name, dev->name);
		ret = -ENXIO;
		goto out;
	}
	if (!dev->mm->factory) {
		pr_err("factory: media manager %s cannot reset devices\n",
		       dev->mm->name);
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (nvm_dev_has_targets(dev)) {
		pr_err("factory: device %s has targets; remove them first\n",
		       dev->name);
		ret = -EBUSY;
		goto out;
	}
	ret = dev->mm->factory(dev, fact.flags);
out:
	mutex_unlock(&nvm_lock);
	return ret;
}

static long nvm_ctl_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case NVM_INFO:
	case NVM_GET_DEVICES:
	case NVM_DEV_CREATE:
	case NVM_DEV_REMOVE:
	case NVM_DEV_INIT:
	case NVM_DEV_FACTORY:
		break;
	default:
		return -ENOTTY;
	}
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	switch (cmd) {
	case NVM_INFO:
		return nvm_ioctl_info(argp);
	case NVM_GET_DEVICES:
		return nvm_ioctl_get_devices(argp);
	case NVM_DEV_CREATE:
		return nvm_ioctl_dev_create(argp);
	case NVM_DEV_REMOVE:
		return nvm_ioctl_dev_remove(argp);
	case NVM_DEV_INIT:
		return nvm_ioctl_dev_init(argp);
	default:
		return nvm_ioctl_dev_factory(argp);
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

int nvm_ctl_init(void)
{
	int ret;

	ret = misc_register(&nvm_misc);
	if (ret)
		pr_err("can't register control device: %d\n", ret);
	return ret;
}

void nvm_ctl_exit(void)
{
	misc_deregister(&nvm_misc);
}
