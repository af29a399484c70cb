/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gennvm, the general media manager of LightNVM: per-device and per-LUN
 * state (free, used and bad block lists, LUN reservations, pending bad
 * block table updates) and the list logic shared with its KUnit suite.
 */
#ifndef _GENNVM_H
#define _GENNVM_H

#include <linux/lightnvm.h>
#include <linux/sizes.h>
#include <linux/workqueue.h>

/*
 * Most memory gennvm gives the block descriptors of one device: a legal
 * identity (128 channels of 255 LUNs of 65535 blocks) would otherwise ask
 * for over a hundred GiB.
 */
#define GENNVM_MAX_DESC_BYTES	SZ_1G

/**
 * struct gennvm_lun - a LUN as gennvm keeps it
 * @vlun: the part targets see; @vlun.lock protects the lists below,
 *	the counters and the state of every block of the LUN. It is taken
 *	with interrupts disabled (blocks are marked bad from completions).
 * @free_list: blocks that may be handed out
 * @used_list: blocks handed out to a target
 * @bad_list: factory bad, grown bad, device-reserved and host-marked blocks
 * @nr_used_blocks: blocks on @used_list
 * @nr_factory_bad: blocks on @bad_list that are factory bad in the table
 * @nr_grown_bad: blocks on @bad_list that are grown bad in the table or
 *	went bad since it was read
 * @nr_blocks: blocks in the LUN
 */
struct gennvm_lun {
	struct nvm_lun		vlun;
	struct list_head	free_list;
	struct list_head	used_list;
	struct list_head	bad_list;
	unsigned int		nr_used_blocks;
	unsigned int		nr_factory_bad;
	unsigned int		nr_grown_bad;
	unsigned int		nr_blocks;
};

/**
 * struct gennvm_dev - gennvm's state for one device (&nvm_dev.mmp)
 * @dev: the device
 * @nr_luns: LUNs of the device
 * @luns: the LUNs, indexed by device LUN index
 * @lock: protects @reserved and @marks; taken with interrupts disabled,
 *	never together with a LUN lock
 * @reserved: bitmap of the LUNs reserved by targets
 * @marks: pending bad block table updates (&struct gennvm_mark)
 * @mark_work: writes @marks to the device
 */
struct gennvm_dev {
	struct nvm_dev		*dev;
	int			nr_luns;
	struct gennvm_lun	*luns;
	spinlock_t		lock;	/* see above */
	unsigned long		*reserved;
	struct list_head	marks;
	struct work_struct	mark_work;
};

#if IS_ENABLED(CONFIG_KUNIT)
int gennvm_lun_init(struct gennvm_lun *lun, int id, int chnl_id, int lun_id,
		    int nr_blks, const u8 *states);
void gennvm_lun_free(struct gennvm_lun *lun);
int gennvm_lun_reload(struct gennvm_lun *lun, const u8 *states);
struct nvm_block *gennvm_lun_get_blk(struct gennvm_lun *lun, unsigned long flags);
struct nvm_block *gennvm_lun_claim_blk(struct gennvm_lun *lun, unsigned int blkid,
				       bool bad);
void gennvm_lun_put_blk(struct gennvm_lun *lun, struct nvm_block *blk);
bool gennvm_lun_mark_bad(struct gennvm_lun *lun, unsigned int blkid);
void gennvm_lun_stats(struct gennvm_lun *lun, struct nvm_lun_stats *st);
int gennvm_factory_action(u8 state, int flags, bool *reset);
u8 gennvm_chk_to_bbt(const struct nvm_chk_meta *m);
void gennvm_lun_set_chunks(struct gennvm_lun *lun,
			   const struct nvm_chk_meta *meta);
int gennvm_factory_action20(u8 state);
#endif

#endif /* _GENNVM_H */
