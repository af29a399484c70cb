// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only LightNVM target type "nvm_unfit_test": creating one submits,
 * through the core, a two-sector vector read whose data does not fit the
 * device queue's segment limits (its second bvec starts 512 bytes into a
 * page, off the NVMe virt boundary), logs what nvm_submit_io_sync()
 * returned ("unfit read: <errno>") and fails creation with that errno, or
 * with -EPROTO if the read was carried out. The NVMe driver must refuse
 * such a command where the request is built (-EINVAL, a log line naming
 * the limit) instead of mapping it.
 */

#define pr_fmt(fmt) "nvm_unfit_test: " fmt

#include <linux/module.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/lightnvm.h>

#define UNFIT_PAGES	3

static blk_status_t unfit_queue_rq(struct blk_mq_hw_ctx *hctx,
				   const struct blk_mq_queue_data *bd)
{
	blk_mq_start_request(bd->rq);
	blk_mq_end_request(bd->rq, BLK_STS_IOERR);
	return BLK_STS_OK;
}

static const struct blk_mq_ops unfit_mq_ops = {
	.queue_rq	= unfit_queue_rq,
};

/* A read of sectors 0 and 1 of block 0 of the target's first LUN. */
static int unfit_read(struct nvm_dev *dev, int lunid, struct bio *bio)
{
	const struct nvm_geo *geo = &dev->geo;
	struct nvm_rq rqd = { };
	struct ppa_addr blk = { };
	int i, ret;

	rqd.opcode = NVM_OP_PREAD;
	rqd.nr_ppas = 2;
	rqd.bio = bio;
	ret = nvm_alloc_ppalist(dev, &rqd, GFP_KERNEL);
	if (ret)
		return ret;
	ret = nvm_alloc_meta(dev, &rqd, GFP_KERNEL);
	if (ret)
		goto out_ppas;
	blk.g.ch = lunid / geo->luns_per_chnl;
	blk.g.lun = lunid % geo->luns_per_chnl;
	for (i = 0; i < rqd.nr_ppas; i++)
		rqd.ppa_list[i] = nvm_blk_off_to_ppa(geo, blk, i);
	ret = nvm_submit_io_sync(dev, &rqd);
	nvm_free_meta(dev, &rqd);
out_ppas:
	nvm_free_ppalist(dev, &rqd);
	return ret;
}

static void *unfit_init(struct nvm_target *tgt, struct gendisk *disk,
			const struct nvm_tgt_conf *conf)
{
	struct nvm_dev *dev = tgt->dev;
	struct page *pages[UNFIT_PAGES] = { };
	struct bio *bio;
	int i, ret;

	if (dev->geo.sec_size != PAGE_SIZE) {
		pr_err("%s: sec_size %d is not a page\n", tgt->name,
		       dev->geo.sec_size);
		return ERR_PTR(-EINVAL);
	}
	bio = bio_kmalloc(UNFIT_PAGES, GFP_KERNEL);
	if (!bio)
		return ERR_PTR(-ENOMEM);
	bio_init(bio, NULL, bio->bi_inline_vecs, UNFIT_PAGES, REQ_OP_READ);
	for (i = 0; i < UNFIT_PAGES; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i]) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* 4096 + 3584 + 512 bytes; the second bvec starts off a boundary */
	if (bio_add_page(bio, pages[0], PAGE_SIZE, 0) != PAGE_SIZE ||
	    bio_add_page(bio, pages[1], PAGE_SIZE - 512, 512) != PAGE_SIZE - 512 ||
	    bio_add_page(bio, pages[2], 512, 0) != 512) {
		ret = -EINVAL;
		goto out;
	}
	ret = unfit_read(dev, conf->lun_begin, bio);
	pr_info("%s: unfit read: %d\n", tgt->name, ret);
	if (!ret)
		ret = -EPROTO;
out:
	bio_uninit(bio);
	kfree(bio);
	for (i = 0; i < UNFIT_PAGES; i++)
		if (pages[i])
			__free_page(pages[i]);
	return ERR_PTR(ret);
}

static void unfit_exit(void *private)
{
}

static struct nvm_tgt_type unfit_type = {
	.name		= "nvm_unfit_test",
	.version	= { 0, 1, 0 },
	.mq_ops		= &unfit_mq_ops,
	.queue_depth	= 4,
	.init		= unfit_init,
	.exit		= unfit_exit,
	.owner		= THIS_MODULE,
};

static int __init unfit_module_init(void)
{
	return nvm_register_tgt_type(&unfit_type);
}

static void __exit unfit_module_exit(void)
{
	nvm_unregister_tgt_type(&unfit_type);
}

module_init(unfit_module_init);
module_exit(unfit_module_exit);

MODULE_DESCRIPTION("LightNVM test-only target type: a vector command over the segment limits");
MODULE_LICENSE("GPL");
MODULE_ALIAS("nvm-tgt-nvm_unfit_test");
