// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only LightNVM target type "nvm_tgt_test": exercises the core's
 * target life cycle without a real FTL. Its disk completes reads with
 * zeros and discards writes. With check_blocks=1, creating a target takes
 * every free block of its LUNs from the media manager and fails unless
 * none of them is bad in the device's table and their number matches the
 * table (erase_blocks=1 also erases each). fail_init=ERRNO makes creation
 * fail, to test the core's unwinding. hold_init=1 and hold_exit=1 make
 * init and exit wait until the parameter is written back to 0 (at most a
 * minute), so that tests can look at the core while a target is being
 * created or removed. Counts are in the disk's sysfs directory, under
 * nvm_tgt_test/.
 */

#define pr_fmt(fmt) "nvm_tgt_test: " fmt

#include <linux/module.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/delay.h>
#include <linux/lightnvm.h>

#include "compat.h"

static bool check_blocks;
module_param(check_blocks, bool, 0644);
MODULE_PARM_DESC(check_blocks, "At create, take all free blocks and check them against the bad block table");

static bool erase_blocks;
module_param(erase_blocks, bool, 0644);
MODULE_PARM_DESC(erase_blocks, "With check_blocks, also erase every block taken");

static int fail_init;
module_param(fail_init, int, 0644);
MODULE_PARM_DESC(fail_init, "Make target creation fail with -fail_init (0: succeed)");

static bool hold_init;
module_param(hold_init, bool, 0644);
MODULE_PARM_DESC(hold_init, "Make init wait until this is set back to 0 (at most 60 s)");

static bool hold_exit;
module_param(hold_exit, bool, 0644);
MODULE_PARM_DESC(hold_exit, "Make exit wait until this is set back to 0 (at most 60 s)");

#define TGT_TEST_HOLD_MAX_MS	60000
#define TGT_TEST_HOLD_POLL_MS	50

/* Wait while *@hold is set; tests wait for the "held" line in the log. */
static void tgt_test_hold(const char *name, const char *what, bool *hold)
{
	unsigned int ms = 0;

	if (!READ_ONCE(*hold))
		return;
	pr_info("%s: %s held\n", name, what);
	while (READ_ONCE(*hold) && ms < TGT_TEST_HOLD_MAX_MS) {
		msleep(TGT_TEST_HOLD_POLL_MS);
		ms += TGT_TEST_HOLD_POLL_MS;
	}
	pr_info("%s: %s released%s\n", name, what,
		READ_ONCE(*hold) ? " after the maximum wait" : "");
}

struct tgt_test {
	struct nvm_target	*tgt;
	u64			blocks_checked;
	u64			bad_in_table;
	u64			erase_errors;
	u32			flags;
};

static blk_status_t tgt_test_queue_rq(struct blk_mq_hw_ctx *hctx,
				      const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct bio *bio;

	blk_mq_start_request(rq);
	if (req_op(rq) == REQ_OP_READ)
		__rq_for_each_bio(bio, rq)
			zero_fill_bio(bio);
	blk_mq_end_request(rq, BLK_STS_OK);
	return BLK_STS_OK;
}

static const struct blk_mq_ops tgt_test_mq_ops = {
	.queue_rq	= tgt_test_queue_rq,
};

/* Take every free block of one LUN and check it against the table. */
static int tgt_test_check_lun(struct tgt_test *t, int lunid, u8 *blks)
{
	struct nvm_dev *dev = t->tgt->dev;
	const struct nvm_geo *geo = &dev->geo;
	struct nvm_lun *lun = nvm_get_lun(dev, lunid);
	struct nvm_block *blk, **taken;
	unsigned int nr_free_table = 0, n = 0, i;
	int ret;

	if (!lun)
		return -EINVAL;
	ret = nvm_get_bb_tbl(dev, lunid / geo->luns_per_chnl,
			     lunid % geo->luns_per_chnl, blks);
	if (ret)
		return ret;
	nvm_bb_tbl_fold(blks, geo->blks_per_lun, geo->nr_planes);
	for (i = 0; i < geo->blks_per_lun; i++) {
		if (blks[i] == NVM_BLK_T_FREE)
			nr_free_table++;
		else
			t->bad_in_table++;
	}

	taken = kvcalloc(geo->blks_per_lun, sizeof(*taken), GFP_KERNEL);
	if (!taken)
		return -ENOMEM;
	while ((blk = nvm_get_blk(dev, lun, NVM_IOTYPE_GC))) {
		if (n == geo->blks_per_lun) {
			pr_err("LUN %d handed out more blocks than it has\n",
			       lunid);
			nvm_put_blk(dev, blk);
			ret = -EIO;
			break;
		}
		taken[n++] = blk;
		if (blks[blk->id] != NVM_BLK_T_FREE) {
			pr_err("LUN %d handed out block %u, state 0x%x in the table\n",
			       lunid, blk->id, blks[blk->id]);
			ret = -EIO;
		}
		if (erase_blocks && nvm_erase_blk(dev, blk))
			t->erase_errors++;
	}
	if (!ret && n != nr_free_table) {
		pr_err("LUN %d handed out %u blocks, the table has %u good\n",
		       lunid, n, nr_free_table);
		ret = -EIO;
	}
	t->blocks_checked += n;
	for (i = 0; i < n; i++)
		nvm_put_blk(dev, taken[i]);
	kvfree(taken);
	return ret;
}

static void *tgt_test_init(struct nvm_target *tgt, struct gendisk *disk,
			   const struct nvm_tgt_conf *conf)
{
	const struct nvm_geo *geo = &tgt->dev->geo;
	int nr_luns = conf->lun_end - conf->lun_begin + 1;
	struct queue_limits lim;
	struct tgt_test *t;
	u8 *blks;
	int i, ret = 0;

	tgt_test_hold(tgt->name, "init", &hold_init);
	if (fail_init) {
		pr_info("%s: failing init with %d as asked\n", tgt->name,
			-fail_init);
		return ERR_PTR(-abs(fail_init));
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->tgt = tgt;
	t->flags = conf->flags;

	if (check_blocks) {
		blks = kvmalloc(geo->blks_per_lun * geo->nr_planes, GFP_KERNEL);
		if (!blks) {
			ret = -ENOMEM;
			goto err_free;
		}
		for (i = conf->lun_begin; i <= conf->lun_end && !ret; i++)
			ret = tgt_test_check_lun(t, i, blks);
		kvfree(blks);
		if (ret)
			goto err_free;
		pr_info("%s: %llu blocks checked, %llu bad in the table, %llu erase errors\n",
			tgt->name, t->blocks_checked, t->bad_in_table,
			t->erase_errors);
	}

	lim = queue_limits_start_update(disk->queue);
	lim.logical_block_size = geo->sec_size;
	ret = queue_limits_commit_update(disk->queue, &lim);
	if (ret)
		goto err_free;
	set_capacity(disk, (sector_t)nr_luns * geo->sec_per_lun *
		     (geo->sec_size >> SECTOR_SHIFT));
	return t;

err_free:
	kfree(t);
	return ERR_PTR(ret);
}

static void tgt_test_exit(void *private)
{
	struct tgt_test *t = private;

	tgt_test_hold(t->tgt->name, "exit", &hold_exit);
	kfree(t);
}

static struct tgt_test *tgt_test_of(struct device *d)
{
	return dev_to_disk(d)->queue->queuedata;
}

static ssize_t blocks_checked_show(struct device *d,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", tgt_test_of(d)->blocks_checked);
}
static DEVICE_ATTR_RO(blocks_checked);

static ssize_t bad_in_table_show(struct device *d,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", tgt_test_of(d)->bad_in_table);
}
static DEVICE_ATTR_RO(bad_in_table);

static ssize_t erase_errors_show(struct device *d,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", tgt_test_of(d)->erase_errors);
}
static DEVICE_ATTR_RO(erase_errors);

static ssize_t flags_show(struct device *d, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", tgt_test_of(d)->flags);
}
static DEVICE_ATTR_RO(flags);

static struct attribute *tgt_test_attrs[] = {
	&dev_attr_blocks_checked.attr,
	&dev_attr_bad_in_table.attr,
	&dev_attr_erase_errors.attr,
	&dev_attr_flags.attr,
	NULL,
};

static const struct attribute_group tgt_test_group = {
	.name	= "nvm_tgt_test",
	.attrs	= tgt_test_attrs,
};

static const struct attribute_group *tgt_test_groups[] = {
	&tgt_test_group,
	NULL,
};

static struct nvm_tgt_type tgt_test_type = {
	.name		= "nvm_tgt_test",
	.version	= { 0, 1, 0 },
	.mq_ops		= &tgt_test_mq_ops,
	.queue_depth	= 16,
	.init		= tgt_test_init,
	.exit		= tgt_test_exit,
	.groups		= tgt_test_groups,
	.owner		= THIS_MODULE,
};

static int __init tgt_test_module_init(void)
{
	return nvm_register_tgt_type(&tgt_test_type);
}

static void __exit tgt_test_module_exit(void)
{
	nvm_unregister_tgt_type(&tgt_test_type);
}

module_init(tgt_test_module_init);
module_exit(tgt_test_module_exit);

MODULE_DESCRIPTION("LightNVM test-only target type");
MODULE_LICENSE("GPL");
MODULE_ALIAS("nvm-tgt-nvm_tgt_test");
