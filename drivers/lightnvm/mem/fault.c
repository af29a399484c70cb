// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_mem: fault injection (CONFIG_NVM_MEM_FAULT_INJECTION). Every instance
 * has four fault_attrs: fail_read, fail_write and fail_erase (media errors),
 * asked once per sector read, per sector programmed and per block erased,
 * and fail_host (host errors: the command is aborted before it reaches the
 * media), asked once per command of the kinds in fail_host_ops (reads,
 * programs, erases; all by default). Two counts beside them: fail_nomem
 * (submissions refused with -ENOMEM) and fail_alloc (sector allocations
 * of programs that fail, NVM_MEM_RSP_NOMEM). They appear in debugfs as
 * /sys/kernel/debug/nvm_mem/<name>/fail_{read,write,erase,host}/, with
 * fail_host_ops beside them, and start
 * from the module parameters of the same names
 * ("<interval>,<probability>,<space>,<times>", as null_blk's timeout).
 */

#include <linux/debugfs.h>
#include <linux/moduleparam.h>
#include <linux/ratelimit.h>
#include <linux/string.h>

#include "nvm_mem.h"

static char *fail_read;
module_param(fail_read, charp, 0444);
MODULE_PARM_DESC(fail_read, "Sector read errors (FAILECC) for new devices: <interval>,<probability>,<space>,<times>. Default: none");

static char *fail_write;
module_param(fail_write, charp, 0444);
MODULE_PARM_DESC(fail_write, "Program failures (FAILWRITE) for new devices: <interval>,<probability>,<space>,<times>. Default: none");

static char *fail_erase;
module_param(fail_erase, charp, 0444);
MODULE_PARM_DESC(fail_erase, "Erase failures (FAILERASE) for new devices: <interval>,<probability>,<space>,<times>. Default: none");

static char *fail_host;
module_param(fail_host, charp, 0444);
MODULE_PARM_DESC(fail_host, "Commands aborted before the media (NVMe host aborted status, as after a controller reset) for new devices: <interval>,<probability>,<space>,<times>. Default: none");

/* What the parameters asked for, copied into every new instance. */
static struct {
	unsigned long	interval;
	unsigned long	probability;
	int		space;
	int		times;
} nvm_mem_fault_tmpl[4];

static int nvm_mem_fault_parse(const char *param, const char *str, int i)
{
	DECLARE_FAULT_ATTR(attr);
	char *copy;
	int ok;

	nvm_mem_fault_tmpl[i].interval = attr.interval;
	nvm_mem_fault_tmpl[i].probability = attr.probability;
	nvm_mem_fault_tmpl[i].space = atomic_read(&attr.space);
	nvm_mem_fault_tmpl[i].times = atomic_read(&attr.times);
	if (!str || !*str)
		return 0;
	copy = kstrdup(str, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	ok = setup_fault_attr(&attr, copy);
	kfree(copy);
	if (!ok) {
		pr_err("parameters: %s=\"%s\" is not <interval>,<probability>,<space>,<times>\n",
		       param, str);
		return -EINVAL;
	}
	nvm_mem_fault_tmpl[i].interval = attr.interval;
	nvm_mem_fault_tmpl[i].probability = attr.probability;
	nvm_mem_fault_tmpl[i].space = atomic_read(&attr.space);
	nvm_mem_fault_tmpl[i].times = atomic_read(&attr.times);
	return 0;
}

/**
 * nvm_mem_fault_parse_params() - check the fail_* module parameters
 *
 * Return: 0, or -EINVAL after naming the parameter that does not parse.
 */
int nvm_mem_fault_parse_params(void)
{
	return nvm_mem_fault_parse("fail_read", fail_read, NVM_MEM_FAULT_READ) ?:
	       nvm_mem_fault_parse("fail_write", fail_write, NVM_MEM_FAULT_WRITE) ?:
	       nvm_mem_fault_parse("fail_erase", fail_erase, NVM_MEM_FAULT_ERASE) ?:
	       nvm_mem_fault_parse("fail_host", fail_host, NVM_MEM_FAULT_HOST);
}

static void nvm_mem_fault_init_one(struct fault_attr *a, int i)
{
	*a = (struct fault_attr)FAULT_ATTR_INITIALIZER;
	/* a lock of its own, not the static initializer's */
	ratelimit_state_init(&a->ratelimit_state, 0, DEFAULT_RATELIMIT_BURST);
	a->verbose = 1;		/* one line per injected failure, no stack */
	a->interval = nvm_mem_fault_tmpl[i].interval;
	a->probability = nvm_mem_fault_tmpl[i].probability;
	atomic_set(&a->space, nvm_mem_fault_tmpl[i].space);
	atomic_set(&a->times, nvm_mem_fault_tmpl[i].times);
}

/**
 * nvm_mem_fault_init() - initialise the fault_attrs of a new instance
 * @dev: the instance
 */
void nvm_mem_fault_init(struct nvm_mem_dev *dev)
{
	nvm_mem_fault_init_one(&dev->fail_read, NVM_MEM_FAULT_READ);
	nvm_mem_fault_init_one(&dev->fail_write, NVM_MEM_FAULT_WRITE);
	nvm_mem_fault_init_one(&dev->fail_erase, NVM_MEM_FAULT_ERASE);
	nvm_mem_fault_init_one(&dev->fail_host, NVM_MEM_FAULT_HOST);
	dev->fail_host_ops = NVM_MEM_HOST_ALL;
	atomic_set(&dev->fail_nomem, 0);
	atomic_set(&dev->fail_alloc, 0);
}

/**
 * nvm_mem_fault_debugfs() - expose the fault_attrs in the instance's directory
 * @dev: the instance, its debugfs directory created
 */
void nvm_mem_fault_debugfs(struct nvm_mem_dev *dev)
{
	fault_create_debugfs_attr("fail_read", dev->dbg, &dev->fail_read);
	fault_create_debugfs_attr("fail_write", dev->dbg, &dev->fail_write);
	fault_create_debugfs_attr("fail_erase", dev->dbg, &dev->fail_erase);
	fault_create_debugfs_attr("fail_host", dev->dbg, &dev->fail_host);
	debugfs_create_x32("fail_host_ops", 0600, dev->dbg, &dev->fail_host_ops);
	debugfs_create_atomic_t("fail_nomem", 0600, dev->dbg, &dev->fail_nomem);
	debugfs_create_atomic_t("fail_alloc", 0600, dev->dbg, &dev->fail_alloc);
}

/**
 * nvm_mem_should_fail() - fault callback of nvm_mem_media_exec()
 * @priv: the instance
 * @op: the operation about to be done on one sector (or block)
 *
 * Context: any.
 * Return: true if the operation must fail.
 */
bool nvm_mem_should_fail(void *priv, enum nvm_mem_fault op)
{
	struct nvm_mem_dev *dev = priv;

	switch (op) {
	case NVM_MEM_FAULT_READ:
		return should_fail(&dev->fail_read, NVM_MEM_SEC_SIZE);
	case NVM_MEM_FAULT_WRITE:
		return should_fail(&dev->fail_write, NVM_MEM_SEC_SIZE);
	case NVM_MEM_FAULT_ERASE:
		return should_fail(&dev->fail_erase, NVM_MEM_SEC_SIZE);
	case NVM_MEM_FAULT_HOST:
		return should_fail(&dev->fail_host, NVM_MEM_SEC_SIZE);
	case NVM_MEM_FAULT_ALLOC:
		return atomic_add_unless(&dev->fail_alloc, -1, 0);
	}
	return false;
}

/* The fail_host_ops bit of a command. */
static u32 nvm_mem_host_kind(u8 opcode)
{
	switch (opcode) {
	case NVM_OP_PREAD:
		return NVM_MEM_HOST_READ;
	case NVM_OP_PWRITE:
		return NVM_MEM_HOST_WRITE;
	default:
		return NVM_MEM_HOST_ERASE;
	}
}

/**
 * nvm_mem_nomem_should_fail() - should this submission fail for memory?
 * @dev: the instance
 * @opcode: the command's, %NVM_OP_PREAD, %NVM_OP_PWRITE or %NVM_OP_ERASE
 *
 * While fail_nomem is above zero, each submission of a kind in
 * fail_host_ops takes one off it and fails with -ENOMEM before anything
 * is queued, as when the device cannot allocate the command.
 *
 * Context: any.
 * Return: true if the submission must fail with -ENOMEM.
 */
bool nvm_mem_nomem_should_fail(struct nvm_mem_dev *dev, u8 opcode)
{
	if (!(READ_ONCE(dev->fail_host_ops) & nvm_mem_host_kind(opcode)))
		return false;
	return atomic_add_unless(&dev->fail_nomem, -1, 0);
}

/**
 * nvm_mem_host_should_fail() - should fail_host abort this command?
 * @dev: the instance
 * @opcode: the command's, %NVM_OP_PREAD, %NVM_OP_PWRITE or %NVM_OP_ERASE
 *
 * Commands of a kind not in fail_host_ops are not counted by fail_host
 * (its interval and times), as if it did not see them.
 *
 * Context: any.
 * Return: true if the command must complete as aborted.
 */
bool nvm_mem_host_should_fail(struct nvm_mem_dev *dev, u8 opcode)
{
	if (!(READ_ONCE(dev->fail_host_ops) & nvm_mem_host_kind(opcode)))
		return false;
	return should_fail(&dev->fail_host, NVM_MEM_SEC_SIZE);
}
