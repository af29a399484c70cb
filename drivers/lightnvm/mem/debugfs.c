// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_mem: debugfs files of an instance, /sys/kernel/debug/nvm_mem/<name>/:
 * "stats" (counters as "key value" lines), "erase_counts" (one line per
 * LUN, one count per block), "lun_busy_ns" and "ch_busy_ns" (busy time of
 * the timing model), "memory" (what programmed sectors hold), "chunks"
 * (the chunk report of a 2.0 instance), the
 * fault injection directories when configured (fault.c), and with
 * CONFIG_NVM_DEBUG the test-only "test_io" hook.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "nvm_mem.h"

static const struct {
	const char	*key;
	size_t		off;
} nvm_mem_stat_keys[] = {
	{ "host_read_sectors", offsetof(struct nvm_mem_stats, host_read_sectors) },
	{ "host_write_sectors", offsetof(struct nvm_mem_stats, host_write_sectors) },
	{ "media_read_sectors", offsetof(struct nvm_mem_stats, media_read_sectors) },
	{ "media_write_sectors", offsetof(struct nvm_mem_stats, media_write_sectors) },
	{ "erases", offsetof(struct nvm_mem_stats, erases) },
	{ "read_errors", offsetof(struct nvm_mem_stats, read_errors) },
	{ "write_errors", offsetof(struct nvm_mem_stats, write_errors) },
	{ "erase_errors", offsetof(struct nvm_mem_stats, erase_errors) },
	{ "empty_reads", offsetof(struct nvm_mem_stats, empty_reads) },
	{ "cut_applied", offsetof(struct nvm_mem_stats, cut_applied) },
	{ "cut_dropped", offsetof(struct nvm_mem_stats, cut_dropped) },
	{ "cut_torn", offsetof(struct nvm_mem_stats, cut_torn) },
};

/* Counters live in the media: all zero before the first power-on. */
static int nvm_mem_stats_show(struct seq_file *s, void *unused)
{
	struct nvm_mem_dev *dev = s->private;
	int i;

	mutex_lock(&dev->lock);
	for (i = 0; i < ARRAY_SIZE(nvm_mem_stat_keys); i++) {
		s64 v = 0;

		if (dev->media)
			v = atomic64_read((atomic64_t *)((u8 *)&dev->media->stats +
							 nvm_mem_stat_keys[i].off));
		seq_printf(s, "%s %lld\n", nvm_mem_stat_keys[i].key, v);
	}
	mutex_unlock(&dev->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvm_mem_stats);

static int nvm_mem_erase_counts_show(struct seq_file *s, void *unused)
{
	struct nvm_mem_dev *dev = s->private;
	struct nvm_mem_media *m;
	u32 l, b;

	mutex_lock(&dev->lock);
	m = dev->media;
	for (l = 0; m && l < m->nr_luns; l++) {
		for (b = 0; b < m->cfg.num_blk; b++)
			seq_printf(s, b ? " %u" : "%u",
				   READ_ONCE(m->erase_count[l * m->cfg.num_blk + b]));
		seq_putc(s, '\n');
	}
	mutex_unlock(&dev->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvm_mem_erase_counts);

/*
 * 2.0 instances: the chunk report, one line per chunk, "GRP PU CHK STATE
 * WP WI" (state free, open, closed or offline; the write pointer in
 * logical blocks; the wear-level index). Empty on 1.2 and before the
 * first power-on; an error while unplugged, as the report itself.
 */
static int nvm_mem_chunks_show(struct seq_file *s, void *unused)
{
	struct nvm_mem_dev *dev = s->private;
	struct nvm_chk_meta *meta = NULL;
	struct nvm_mem_media *m;
	int ret = 0;
	u32 l, b;

	mutex_lock(&dev->lock);
	m = dev->media;
	if (!m || m->cfg.version != NVM_OCSSD_SPEC_20)
		goto out;
	meta = kmalloc_array(m->cfg.num_blk, sizeof(*meta), GFP_KERNEL);
	if (!meta) {
		ret = -ENOMEM;
		goto out;
	}
	for (l = 0; l < m->nr_luns && !ret; l++) {
		u64 slba = nvm_mem_encode_dev(m, l / m->cfg.num_lun,
					      l % m->cfg.num_lun, 0, 0, 0, 0);

		ret = nvm_mem_media_chunks(m, slba, m->cfg.num_blk, meta);
		for (b = 0; !ret && b < m->cfg.num_blk; b++)
			seq_printf(s, "%u %u %u %s %llu %u\n",
				   l / m->cfg.num_lun, l % m->cfg.num_lun, b,
				   meta[b].state == NVM_CHK_ST_FREE ? "free" :
				   meta[b].state == NVM_CHK_ST_OPEN ? "open" :
				   meta[b].state == NVM_CHK_ST_CLOSED ?
				   "closed" : "offline",
				   meta[b].wp, meta[b].wi);
	}
out:
	mutex_unlock(&dev->lock);
	kfree(meta);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(nvm_mem_chunks);

/* One line per LUN, then "ch" lines: busy time of the timing model. */
static void nvm_mem_busy_show(struct seq_file *s, bool lun)
{
	struct nvm_mem_dev *dev = s->private;
	struct nvm_mem_timing *t = &dev->timing;
	unsigned long flags;
	u32 i, n;
	u64 v;

	mutex_lock(&dev->lock);
	n = lun ? t->num_ch * t->num_lun : t->num_ch;
	for (i = 0; i < n; i++) {
		spin_lock_irqsave(&t->lock, flags);
		v = lun ? t->lun_busy[i] : t->ch_busy[i];
		spin_unlock_irqrestore(&t->lock, flags);
		seq_printf(s, "%llu\n", v);
	}
	mutex_unlock(&dev->lock);
}

static int nvm_mem_lun_busy_ns_show(struct seq_file *s, void *unused)
{
	nvm_mem_busy_show(s, true);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvm_mem_lun_busy_ns);

static int nvm_mem_ch_busy_ns_show(struct seq_file *s, void *unused)
{
	nvm_mem_busy_show(s, false);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvm_mem_ch_busy_ns);

/*
 * What the programmed sectors hold: "key value" lines (see nvm_mem.rst),
 * zero before the first power-on.
 */
static int nvm_mem_memory_show(struct seq_file *s, void *unused)
{
	struct nvm_mem_dev *dev = s->private;
	struct nvm_mem_media *m;
	long sects = 0, pages = 0, segs = 0;
	u64 bytes = 0;

	mutex_lock(&dev->lock);
	m = dev->media;
	if (m) {
		sects = atomic_long_read(&m->nr_sects);
		pages = atomic_long_read(&m->nr_pages);
		segs = atomic_long_read(&m->nr_segs);
		bytes = nvm_mem_media_bytes(m);
	}
	mutex_unlock(&dev->lock);
	seq_printf(s, "stored_sectors %ld\n", sects);
	seq_printf(s, "data_pages %ld\n", pages);
	seq_printf(s, "record_segments %ld\n", segs);
	seq_printf(s, "bytes %llu\n", bytes);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvm_mem_memory);

#ifdef CONFIG_NVM_DEBUG
/*
 * test_io, for tests only: synchronous commands straight on the media of a
 * powered-on instance (bypassing the core, with fault injection), so that
 * tests can check what survives power cycles without a target. Write one
 * command:
 *
 *   erase CH LUN BLK
 *   write CH LUN BLK OFF NR SEED    program sectors OFF..OFF+NR-1 of the
 *                                   block, in target order (page, plane,
 *                                   sector), with a pattern from SEED
 *   read CH LUN BLK OFF NR SEED     read them back and compare
 *   mark CH LUN BLK PL TYPE         set_bb_tbl of one (block, plane)
 *   state CH LUN BLK PL             its entry in the bad block table
 *
 * cerase, cwrite and cread do the same through the LightNVM core
 * (nvm_erase_ppa(), nvm_submit_io_sync()), so through the device
 * operations, the completion mode and nvm_end_io(); beware that the core
 * marks the blocks of a failed program grown bad. qerase and qwrite submit
 * through the core without waiting (nvm_submit_io()); their outcome is
 * not reported (read the media afterwards). Commands on the media go
 * through nvm_mem_media_run() as arriving commands: they fail with
 * NVM_MEM_RSP_GONE while unplugged.
 *
 *   stall                           hold the workqueue: commands submitted
 *                                   through the core queue up, none starts
 *   resume                          let them run
 *
 * On a 2.0 device (version=2) CH, LUN and BLK name a group, PU and chunk,
 * OFF a logical block of the chunk, erase is a chunk reset, and mark and
 * state work on the media's bad block table (a bad plane makes the chunk
 * offline).
 *
 * and read the outcome: "error 0x<status> ppa_status 0x<bits> mismatch <n>"
 * (n: sectors read successfully whose data or OOB differ from the pattern)
 * for I/O, "state <NVM_BLK_T_*>" for mark and state, "queued" for qerase
 * and qwrite, "stalled" or "resumed".
 */
static u64 nvm_mem_test_word(u32 seed, u64 ppa)
{
	return (seed + 1) * 0x9e3779b97f4a7c15ULL ^ ppa;
}

static void nvm_mem_test_fill(struct page *page, u8 *oob, u32 oob_size,
			      u32 seed, u64 ppa)
{
	u64 *p = page_address(page), w = nvm_mem_test_word(seed, ppa);
	int i;

	for (i = 0; i < NVM_MEM_SEC_SIZE / sizeof(u64); i++)
		p[i] = w + i;
	memset(oob, 0x5a, oob_size);
	memcpy(oob, &w, sizeof(w));
}

static bool nvm_mem_test_same(struct page *page, const u8 *oob, u32 oob_size,
			      u32 seed, u64 ppa, u8 *scratch)
{
	u64 *p = page_address(page), w = nvm_mem_test_word(seed, ppa);
	int i;

	for (i = 0; i < NVM_MEM_SEC_SIZE / sizeof(u64); i++)
		if (p[i] != w + i)
			return false;
	memset(scratch, 0x5a, oob_size);
	memcpy(scratch, &w, sizeof(w));
	return !memcmp(oob, scratch, oob_size);
}

/* One test command, its buffers, and for queued ones their owner. */
struct nvm_mem_test_cmd {
	struct nvm_rq		rqd;
	struct nvm_mem_dev	*dev;
	struct bio		*bio;
	u32			nr;
	struct ppa_addr		*ppas;
	u64			*dppa;
	struct page		**pages;
	u8			*meta;
};

static void nvm_mem_test_cmd_free(struct nvm_mem_test_cmd *tc)
{
	u32 i;

	for (i = 0; i < tc->nr && tc->pages && tc->pages[i]; i++)
		__free_page(tc->pages[i]);
	if (tc->bio) {
		bio_uninit(tc->bio);
		kfree(tc->bio);
	}
	kfree(tc->meta);
	kfree(tc->pages);
	kfree(tc->dppa);
	kfree(tc->ppas);
	kfree(tc);
}

/*
 * Build a command on @nr sectors from @off of a block, in target order;
 * addresses generic if @core, else in device format.
 */
static struct nvm_mem_test_cmd *
nvm_mem_test_cmd_alloc(struct nvm_mem_dev *dev, u8 opcode, bool core, u32 ch,
		       u32 lun, u32 blk, u32 off, u32 nr, u32 seed)
{
	struct nvm_mem_media *m = dev->media;
	const struct nvm_mem_cfg *c = &m->cfg;
	u32 sec_per_pl = c->sec_per_pg * c->num_pln;
	struct nvm_mem_test_cmd *tc;
	struct nvm_rq *rqd;
	u32 i;

	tc = kzalloc(sizeof(*tc), GFP_KERNEL);
	if (!tc)
		return NULL;
	tc->dev = dev;
	tc->nr = nr;
	tc->ppas = kcalloc(nr, sizeof(*tc->ppas), GFP_KERNEL);
	tc->dppa = kcalloc(nr, sizeof(*tc->dppa), GFP_KERNEL);
	tc->pages = kcalloc(nr, sizeof(*tc->pages), GFP_KERNEL);
	tc->meta = kcalloc(nr, c->oob_size, GFP_KERNEL);
	tc->bio = bio_kmalloc(nr, GFP_KERNEL);
	if (!tc->ppas || !tc->dppa || !tc->pages || !tc->meta || !tc->bio)
		goto err_free;
	bio_init(tc->bio, NULL, tc->bio->bi_inline_vecs, nr, 0);
	for (i = 0; i < nr; i++) {
		u32 o = off + i, pl = (o / c->sec_per_pg) % c->num_pln;
		u32 pg = o / sec_per_pl, sec = o % c->sec_per_pg;
		struct ppa_addr *p = &tc->ppas[i];

		tc->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!tc->pages[i])
			goto err_free;
		__bio_add_page(tc->bio, tc->pages[i], NVM_MEM_SEC_SIZE, 0);
		/* the pattern follows the device address, whatever the path */
		tc->dppa[i] = nvm_mem_encode_dev(m, ch, lun, blk, pl, pg, sec);
		if (core) {
			p->g.ch = ch;
			p->g.lun = lun;
			p->g.blk = blk;
			p->g.pl = pl;
			p->g.pg = pg;
			p->g.sec = sec;
			/* 2.0: one plane, pages of ws_min = sec_per_pl sectors */
			if (c->version == NVM_OCSSD_SPEC_20) {
				p->g.pl = 0;
				p->g.sec = o % sec_per_pl;
			}
		} else {
			p->ppa = tc->dppa[i];
		}
		if (opcode == NVM_OP_PWRITE)
			nvm_mem_test_fill(tc->pages[i], tc->meta + i * c->oob_size,
					  c->oob_size, seed, tc->dppa[i]);
	}
	rqd = &tc->rqd;
	rqd->opcode = opcode;
	rqd->nr_ppas = opcode == NVM_OP_ERASE ? 1 : nr;
	if (rqd->nr_ppas > 1)
		rqd->ppa_list = tc->ppas;
	else
		rqd->ppa_addr = tc->ppas[0];
	if (opcode != NVM_OP_ERASE) {
		rqd->bio = tc->bio;
		rqd->meta_list = tc->meta;
	}
	return tc;

err_free:
	nvm_mem_test_cmd_free(tc);
	return NULL;
}

static void nvm_mem_test_cmd_end(struct nvm_rq *rqd)
{
	nvm_mem_test_cmd_free(container_of(rqd, struct nvm_mem_test_cmd, rqd));
}

/* Queue one command through the core; it frees itself on completion. */
static int nvm_mem_test_io_queue(struct nvm_mem_test_cmd *tc)
{
	struct nvm_mem_dev *dev = tc->dev;
	struct nvm_rq *rqd = &tc->rqd;
	int ret, pl;

	if (rqd->opcode == NVM_OP_ERASE && dev->cfg.num_pln > 1 &&
	    dev->cfg.version == NVM_OCSSD_SPEC_12) {
		/* one address per plane, as nvm_erase_ppa() sends them */
		rqd->nr_ppas = dev->cfg.num_pln;
		if (rqd->nr_ppas > tc->nr)
			return -EINVAL;
		for (pl = 0; pl < rqd->nr_ppas; pl++) {
			tc->ppas[pl] = tc->ppas[0];
			tc->ppas[pl].g.pl = pl;
		}
		rqd->ppa_list = tc->ppas;
	}
	rqd->end_io = nvm_mem_test_cmd_end;
	/* may complete, and free @tc, before it returns */
	ret = nvm_submit_io(dev->ndev, rqd);
	if (ret)
		return ret;
	snprintf(dev->test_result, sizeof(dev->test_result), "queued\n");
	return 0;
}

/* Run one command on the media, or through the core if @core. */
static int nvm_mem_test_io_exec(struct nvm_mem_dev *dev, struct nvm_rq *rqd,
				bool core)
{
	int ret;

	if (!core) {
		nvm_mem_media_run(dev->media, rqd, false, NVM_MEM_FAULT_FN, dev,
				  GFP_KERNEL);
		return 0;
	}
	if (rqd->opcode == NVM_OP_ERASE) {
		ret = nvm_erase_ppa(dev->ndev, rqd->ppa_addr);
		/*
		 * The core keeps the status to itself: -EIO means the media
		 * failed it, -ENOLINK a host error (reported as the device
		 * being gone, whether it is or an abort was injected)
		 */
		rqd->error = ret == -EIO ? NVM_RSP_ERR_FAILERASE :
			     ret == -ENOLINK ? NVM_MEM_RSP_GONE : 0;
		rqd->ppa_status = ret == -EIO || ret == -ENOLINK;
	} else {
		ret = nvm_submit_io_sync(dev->ndev, rqd);
	}
	return ret == -EIO || ret == -ENOLINK ? 0 : ret;
}

/*
 * Run a command: on the media, through the core (@core), or queued
 * through the core without waiting (@queue).
 */
static int nvm_mem_test_io_run(struct nvm_mem_dev *dev, u8 opcode, bool core,
			       bool queue, u32 ch, u32 lun, u32 blk, u32 off,
			       u32 nr, u32 seed)
{
	struct nvm_mem_media *m = dev->media;
	const struct nvm_mem_cfg *c = &m->cfg;
	struct nvm_mem_test_cmd *tc;
	u8 scratch[NVM_MEM_MAX_OOB];
	int i, mismatch = 0, ret;

	lockdep_assert_held(&dev->lock);
	if (ch >= c->num_ch || lun >= c->num_lun || blk >= c->num_blk ||
	    !nr || nr > NVM_MEM_MAX_PHYS_SECT ||
	    off + nr > m->sec_per_plblk * c->num_pln)
		return -EINVAL;
	/*
	 * A synchronous command through the core would wait, holding
	 * dev->lock, for a workqueue that the stall holds until "resume",
	 * which needs dev->lock: refused. (stall takes dev->lock too, so
	 * none can come while such a command waits.) Queued ones are held.
	 */
	if (core && READ_ONCE(dev->stalled) &&
	    dev->completion_mode == NVM_MEM_COMPL_WQ) {
		pr_info_ratelimited("%s: test_io: a synchronous command while stalled would never complete: refused (resume first)\n",
				    dev->name);
		return -EBUSY;
	}

	/* room for one address per plane of an erase (1.2), one reset (2.0) */
	if (opcode == NVM_OP_ERASE)
		nr = c->version == NVM_OCSSD_SPEC_20 ? 1 : c->num_pln;
	tc = nvm_mem_test_cmd_alloc(dev, opcode, core || queue, ch, lun, blk,
				    off, nr, seed);
	if (!tc)
		return -ENOMEM;
	if (queue) {
		ret = nvm_mem_test_io_queue(tc);
		if (ret)
			nvm_mem_test_cmd_free(tc);
		return ret;
	}
	ret = nvm_mem_test_io_exec(dev, &tc->rqd, core);
	if (ret)
		goto out;

	for (i = 0; opcode == NVM_OP_PREAD && i < nr; i++)
		if (!(tc->rqd.ppa_status & BIT_ULL(i)) &&
		    !nvm_mem_test_same(tc->pages[i], tc->meta + i * c->oob_size,
				       c->oob_size, seed, tc->dppa[i], scratch))
			mismatch++;
	snprintf(dev->test_result, sizeof(dev->test_result),
		 "error 0x%x ppa_status 0x%llx mismatch %d\n", tc->rqd.error,
		 tc->rqd.ppa_status, mismatch);
out:
	nvm_mem_test_cmd_free(tc);
	return ret;
}

static int nvm_mem_test_bbt(struct nvm_mem_dev *dev, bool mark, u32 ch,
			    u32 lun, u32 blk, u32 pl, u32 type)
{
	struct nvm_mem_media *m = dev->media;
	const struct nvm_mem_cfg *c = &m->cfg;
	struct ppa_addr ppa;
	u8 *blks;
	int ret;

	lockdep_assert_held(&dev->lock);
	if (ch >= c->num_ch || lun >= c->num_lun || blk >= c->num_blk ||
	    pl >= c->num_pln)
		return -EINVAL;
	ppa.ppa = nvm_mem_encode(&m->ppaf, ch, lun, blk, pl, 0, 0);
	if (mark) {
		ret = nvm_mem_media_set_bbt(m, &ppa, 1, type);
		if (ret)
			return ret;
	}
	blks = kmalloc(c->num_blk * c->num_pln, GFP_KERNEL);
	if (!blks)
		return -ENOMEM;
	ret = nvm_mem_media_get_bbt(m, ppa.ppa, blks);
	if (!ret)
		snprintf(dev->test_result, sizeof(dev->test_result),
			 "state %u\n", blks[blk * c->num_pln + pl]);
	kfree(blks);
	return ret;
}

static ssize_t nvm_mem_test_io_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct nvm_mem_dev *dev = file->private_data;
	u32 ch, lun, blk, off = 0, nr = 1, seed = 0;
	char buf[96], op[8], *cmd;
	bool core, queue;
	u8 opcode;
	int n, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	n = sscanf(buf, "%7s %u %u %u %u %u %u", op, &ch, &lun, &blk, &off,
		   &nr, &seed);
	if (n == 1 && (!strcmp(op, "stall") || !strcmp(op, "resume"))) {
		mutex_lock(&dev->lock);
		nvm_mem_stall(dev, op[0] == 's');
		snprintf(dev->test_result, sizeof(dev->test_result), "%s\n",
			 op[0] == 's' ? "stalled" : "resumed");
		mutex_unlock(&dev->lock);
		return count;
	}
	/*
	 * "c" in front: through the core (cwrite, cread, cerase); "q": the
	 * same, queued without waiting (qwrite, qerase)
	 */
	core = op[0] == 'c';
	queue = op[0] == 'q';
	cmd = op + (core || queue);
	if (queue && strcmp(cmd, "write") && strcmp(cmd, "erase"))
		return -EINVAL;
	if (n == 4 && !strcmp(cmd, "erase"))
		opcode = NVM_OP_ERASE;
	else if (n == 7 && !strcmp(cmd, "write"))
		opcode = NVM_OP_PWRITE;
	else if (n == 7 && !strcmp(cmd, "read"))
		opcode = NVM_OP_PREAD;
	else if (!core && !queue &&
		 ((n == 6 && !strcmp(op, "mark")) ||
		  (n == 5 && !strcmp(op, "state"))))
		opcode = 0;
	else
		return -EINVAL;

	mutex_lock(&dev->lock);
	if (!dev->power)
		ret = -ENODEV;
	else if (!opcode)
		ret = nvm_mem_test_bbt(dev, n == 6, ch, lun, blk, off, nr);
	else
		ret = nvm_mem_test_io_run(dev, opcode, core, queue, ch, lun,
					  blk, off, nr, seed);
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

static ssize_t nvm_mem_test_io_read(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct nvm_mem_dev *dev = file->private_data;
	char buf[sizeof(dev->test_result)];

	mutex_lock(&dev->lock);
	strscpy(buf, dev->test_result, sizeof(buf));
	mutex_unlock(&dev->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static const struct file_operations nvm_mem_test_io_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= nvm_mem_test_io_read,
	.write	= nvm_mem_test_io_write,
	.llseek	= default_llseek,
};
#endif /* CONFIG_NVM_DEBUG */

/**
 * nvm_mem_debugfs_add() - create /sys/kernel/debug/nvm_mem/<name>/
 * @dev: the instance
 *
 * Failures are not fatal (debugfs is optional); the files are then missing.
 */
void nvm_mem_debugfs_add(struct nvm_mem_dev *dev)
{
	dev->dbg = debugfs_create_dir(dev->name, nvm_mem_dbg_root);
	debugfs_create_file("stats", 0444, dev->dbg, dev, &nvm_mem_stats_fops);
	debugfs_create_file("erase_counts", 0444, dev->dbg, dev,
			    &nvm_mem_erase_counts_fops);
	debugfs_create_file("lun_busy_ns", 0444, dev->dbg, dev,
			    &nvm_mem_lun_busy_ns_fops);
	debugfs_create_file("ch_busy_ns", 0444, dev->dbg, dev,
			    &nvm_mem_ch_busy_ns_fops);
	debugfs_create_file("memory", 0444, dev->dbg, dev,
			    &nvm_mem_memory_fops);
	debugfs_create_file("chunks", 0444, dev->dbg, dev,
			    &nvm_mem_chunks_fops);
	nvm_mem_fault_debugfs(dev);
#ifdef CONFIG_NVM_DEBUG
	debugfs_create_file("test_io", 0600, dev->dbg, dev,
			    &nvm_mem_test_io_fops);
#endif
}

/**
 * nvm_mem_debugfs_remove() - remove the instance's debugfs directory
 * @dev: the instance
 *
 * Waits for readers of its files to finish.
 */
void nvm_mem_debugfs_remove(struct nvm_mem_dev *dev)
{
	debugfs_remove_recursive(dev->dbg);
	dev->dbg = NULL;
}
