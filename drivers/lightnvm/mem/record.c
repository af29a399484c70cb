// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_mem: the command recorder and replayer of the crash-state explorer
 * (CONFIG_NVM_MEM_RECORD, Documentation/lightnvm/crashcheck.rst). This
 * file owns struct nvm_mem_rec and the debugfs file "record".
 *
 * Record. "start" snapshots the media between two commands (from the
 * device's ordered workqueue) and from then on logs, in the order they
 * happen, the submission (S), execution on the media (X, with the
 * programmed data and OOB bytes, or the erased blocks) and completion to
 * the host (C) of every program and erase, and the markers (M) a
 * workload writes around its own operations. "stop" ends the log of new
 * commands (those already submitted still log their execution and
 * completion).
 *
 * Replay. While the device is powered off, "replay CUT TORN PAGE ID..."
 * rebuilds its media as the snapshot plus, in execution order, every
 * command completed before event CUT and the commands ID... (in flight
 * at CUT), command TORN (or -1) torn at its page PAGE: the pages before
 * it programmed, that page torn, the rest not. Which states to build is
 * the business of the user space enumerator (lnvm_crash).
 *
 * The hooks in main.c cost one pointer test per command when the option
 * is built and nothing is recorded; without the option they are empty.
 */

#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "nvm_mem.h"

/* Bounds of one recording; the log overflows (and says so) beyond them. */
#define NVM_MEM_REC_MAX_CMDS	16384
#define NVM_MEM_REC_MAX_EVS	65536
/* a replay keeps its prefix as the next base from this many commands on */
#define NVM_MEM_REC_BASE_STEP	16

enum {
	NVM_MEM_REC_BEGIN = 'B',	/* the snapshot */
	NVM_MEM_REC_SUBMIT = 'S',	/* the host handed the command over */
	NVM_MEM_REC_EXEC = 'X',		/* it ran on the media */
	NVM_MEM_REC_DONE = 'C',		/* the host was told */
	NVM_MEM_REC_MARK = 'M',		/* a workload's marker */
	NVM_MEM_REC_END = 'E',		/* "stop" */
};

/* One event of the log: its type and a command index or marker value. */
struct nvm_mem_rec_ev {
	u32	arg;
	u8	type;
};

/*
 * One program or erase. @rqd while submitted and not completed (to find
 * it again); @ppas, @data (programs) and @oob from its execution, with
 * @status the ppa_status it executed with.
 */
struct nvm_mem_rec_cmd {
	struct nvm_rq	*rqd;
	u64		*ppas;
	struct page	**data;
	u8		*oob;
	u64		status;
	u32		nr;
	u32		pages;
	u32		c_ev;
	u8		opcode;
	bool		executed;
	bool		done;
};

/**
 * struct nvm_mem_rec - one recording of an instance
 * @lock: protects everything below but @snap and @snap_work
 * @active: new commands are logged (between "start" and "stop")
 * @frozen: nothing is logged any more (a replay happened)
 * @overflow: the log ran out of room; the recording is incomplete
 * @snap: the media at "start"
 * @base: @snap with the first @base_len commands of @xorder applied in
 *	full: where the next replay starts if it applies them all too
 * @base_len: commands applied to @base
 * @snap_work: takes @snap from the device's workqueue
 * @dev: the instance
 * @cmds: the commands, by index
 * @nr_cmds: commands logged
 * @xorder: command indexes in execution order
 * @nr_x: commands executed
 * @evs: the events
 * @nr_evs: events logged
 */
struct nvm_mem_rec {
	spinlock_t		lock;	/* see above */
	bool			active;
	bool			frozen;
	bool			overflow;
	struct nvm_mem_media	*snap;
	struct nvm_mem_media	*base;
	u32			base_len;
	struct work_struct	snap_work;
	struct nvm_mem_dev	*dev;
	struct nvm_mem_rec_cmd	*cmds;
	u32			nr_cmds;
	u32			*xorder;
	u32			nr_x;
	struct nvm_mem_rec_ev	*evs;
	u32			nr_evs;
};

static u64 nvm_mem_rec_ppa(const struct nvm_rq *rqd, int i)
{
	return rqd->nr_ppas > 1 ? rqd->ppa_list[i].ppa : rqd->ppa_addr.ppa;
}

/* Device-format address of the page (LUN, block, plane, page) of a sector. */
static u64 nvm_mem_rec_page_of(const struct nvm_mem_media *m, u64 ppa)
{
	const struct nvm_addr_format *f = &m->ppaf;

	if (!f->sect_len)
		return ppa;
	return ppa & ~GENMASK_ULL(f->sect_offset + f->sect_len - 1,
				  f->sect_offset);
}

/* Under @rec->lock: append an event; false when the log is full. */
static bool nvm_mem_rec_push(struct nvm_mem_rec *rec, u8 type, u32 arg)
{
	if (rec->nr_evs >= NVM_MEM_REC_MAX_EVS) {
		rec->overflow = true;
		return false;
	}
	rec->evs[rec->nr_evs].type = type;
	rec->evs[rec->nr_evs].arg = arg;
	rec->nr_evs++;
	return true;
}

/* Under @rec->lock: a new command, submitted now; NULL when full. */
static struct nvm_mem_rec_cmd *nvm_mem_rec_new(struct nvm_mem_rec *rec,
					       struct nvm_rq *rqd)
{
	struct nvm_mem_rec_cmd *c;

	if (rec->nr_cmds >= NVM_MEM_REC_MAX_CMDS ||
	    !nvm_mem_rec_push(rec, NVM_MEM_REC_SUBMIT, rec->nr_cmds)) {
		rec->overflow = true;
		return NULL;
	}
	c = &rec->cmds[rec->nr_cmds++];
	c->rqd = rqd;
	c->opcode = rqd->opcode;
	c->nr = rqd->nr_ppas;
	return c;
}

/* Under @rec->lock: the open command of @rqd, or NULL. */
static struct nvm_mem_rec_cmd *nvm_mem_rec_find(struct nvm_mem_rec *rec,
						struct nvm_rq *rqd)
{
	u32 i;

	for (i = rec->nr_cmds; i-- > 0;)
		if (rec->cmds[i].rqd == rqd)
			return &rec->cmds[i];
	return NULL;
}

/**
 * nvm_mem_rec_submit() - log a command handed to the device
 * @dev: the instance
 * @rqd: the request (reads are not logged)
 *
 * Context: any (the submitter may be atomic).
 */
void nvm_mem_rec_submit(struct nvm_mem_dev *dev, struct nvm_rq *rqd)
{
	struct nvm_mem_rec *rec = READ_ONCE(dev->rec);
	unsigned long flags;

	if (!rec || rqd->opcode == NVM_OP_PREAD)
		return;
	spin_lock_irqsave(&rec->lock, flags);
	if (rec->active && !rec->frozen)
		nvm_mem_rec_new(rec, rqd);
	spin_unlock_irqrestore(&rec->lock, flags);
}

static void nvm_mem_rec_free_data(struct nvm_mem_rec_cmd *c)
{
	u32 i;

	if (c->data)
		for (i = 0; i < c->nr; i++)
			if (c->data[i])
				__free_page(c->data[i]);
	kfree(c->data);
	kfree(c->ppas);
	kfree(c->oob);
	c->data = NULL;
	c->ppas = NULL;
	c->oob = NULL;
}

/* Copy the addresses, data and OOB bytes of an executed command. */
static int nvm_mem_rec_copy(struct nvm_mem_dev *dev, struct nvm_rq *rqd,
			    struct nvm_mem_rec_cmd *c, gfp_t gfp)
{
	u32 oob_size = dev->media->cfg.oob_size;
	struct bvec_iter iter;
	u32 i;

	c->nr = rqd->nr_ppas;
	c->ppas = kcalloc(c->nr, sizeof(*c->ppas), gfp);
	if (!c->ppas)
		return -ENOMEM;
	for (i = 0; i < c->nr; i++)
		c->ppas[i] = nvm_mem_rec_ppa(rqd, i);
	c->status = rqd->ppa_status;
	c->pages = 0;
	if (rqd->opcode != NVM_OP_PWRITE)
		return 0;

	c->data = kcalloc(c->nr, sizeof(*c->data), gfp);
	c->oob = kmalloc_array(c->nr, oob_size, gfp);
	if (!c->data || !c->oob)
		return -ENOMEM;
	iter = rqd->bio->bi_iter;
	for (i = 0; i < c->nr; i++) {
		c->data[i] = alloc_page(gfp);
		if (!c->data[i])
			return -ENOMEM;
		nvm_mem_bio_copy(rqd->bio, &iter, page_address(c->data[i]),
				 NVM_MEM_SEC_SIZE, false);
		if (rqd->meta_list)
			memcpy(c->oob + i * oob_size,
			       rqd->meta_list + i * oob_size, oob_size);
		else
			memset(c->oob + i * oob_size, 0xff, oob_size);
		if (!i || nvm_mem_rec_page_of(dev->media, c->ppas[i]) !=
		    nvm_mem_rec_page_of(dev->media, c->ppas[i - 1]))
			c->pages++;
	}
	return 0;
}

/**
 * nvm_mem_rec_exec() - log a command that ran on the media
 * @dev: the instance
 * @rqd: the request, executed with the power on (reads are not logged)
 *
 * A command submitted before the snapshot is logged as submitted now.
 *
 * Context: process (the device's workqueue).
 */
void nvm_mem_rec_exec(struct nvm_mem_dev *dev, struct nvm_rq *rqd)
{
	struct nvm_mem_rec *rec = READ_ONCE(dev->rec);
	struct nvm_mem_rec_cmd tmp = {}, *c;
	unsigned long flags;
	int ret;

	if (!rec || rqd->opcode == NVM_OP_PREAD)
		return;
	spin_lock_irqsave(&rec->lock, flags);
	ret = !rec->frozen && (rec->active || nvm_mem_rec_find(rec, rqd));
	spin_unlock_irqrestore(&rec->lock, flags);
	if (!ret)
		return;

	ret = nvm_mem_rec_copy(dev, rqd, &tmp, GFP_NOIO);
	spin_lock_irqsave(&rec->lock, flags);
	c = nvm_mem_rec_find(rec, rqd);
	if (!c && rec->active && !rec->frozen)
		c = nvm_mem_rec_new(rec, rqd);
	if (ret)
		rec->overflow = true;
	if (!c || ret || c->executed || rec->frozen ||
	    !nvm_mem_rec_push(rec, NVM_MEM_REC_EXEC, c - rec->cmds)) {
		spin_unlock_irqrestore(&rec->lock, flags);
		nvm_mem_rec_free_data(&tmp);
		return;
	}
	c->ppas = tmp.ppas;
	c->data = tmp.data;
	c->oob = tmp.oob;
	c->status = tmp.status;
	c->pages = tmp.pages;
	c->nr = tmp.nr;
	c->executed = true;
	rec->xorder[rec->nr_x++] = c - rec->cmds;
	spin_unlock_irqrestore(&rec->lock, flags);
}

/**
 * nvm_mem_rec_done() - log the completion of a command to the host
 * @dev: the instance
 * @rqd: the request, about to go to nvm_end_io()
 *
 * Context: any.
 */
void nvm_mem_rec_done(struct nvm_mem_dev *dev, struct nvm_rq *rqd)
{
	struct nvm_mem_rec *rec = READ_ONCE(dev->rec);
	struct nvm_mem_rec_cmd *c;
	unsigned long flags;

	if (!rec || rqd->opcode == NVM_OP_PREAD)
		return;
	spin_lock_irqsave(&rec->lock, flags);
	c = rec->frozen ? NULL : nvm_mem_rec_find(rec, rqd);
	if (c) {
		c->rqd = NULL;
		c->done = true;
		c->c_ev = rec->nr_evs;
		if (!nvm_mem_rec_push(rec, NVM_MEM_REC_DONE, c - rec->cmds))
			c->c_ev = U32_MAX;
	}
	spin_unlock_irqrestore(&rec->lock, flags);
}

/* From the device's ordered workqueue: no command runs meanwhile. */
static void nvm_mem_rec_snap_work(struct work_struct *work)
{
	struct nvm_mem_rec *rec = container_of(work, struct nvm_mem_rec,
					       snap_work);
	unsigned long flags;

	rec->snap = nvm_mem_media_clone(rec->dev->media);
	if (!rec->snap)
		return;
	spin_lock_irqsave(&rec->lock, flags);
	nvm_mem_rec_push(rec, NVM_MEM_REC_BEGIN, 0);
	rec->active = true;
	spin_unlock_irqrestore(&rec->lock, flags);
}

static void nvm_mem_rec_destroy(struct nvm_mem_rec *rec)
{
	u32 i;

	if (!rec)
		return;
	for (i = 0; i < rec->nr_cmds; i++)
		nvm_mem_rec_free_data(&rec->cmds[i]);
	nvm_mem_media_free(rec->snap);
	nvm_mem_media_free(rec->base);
	vfree(rec->cmds);
	vfree(rec->xorder);
	vfree(rec->evs);
	kfree(rec);
}

static int nvm_mem_rec_start(struct nvm_mem_dev *dev)
{
	struct nvm_mem_rec *rec;

	if (!dev->power || dev->completion_mode != NVM_MEM_COMPL_WQ) {
		pr_err("%s: record: start needs the device powered on with completion_mode 1\n",
		       dev->name);
		return -EINVAL;
	}
	/* the replay re-executes 1.2 addresses and 1.2 program rules */
	if (dev->cfg.version != NVM_OCSSD_SPEC_12) {
		pr_err("%s: record: not supported on an Open-Channel SSD 2.0 device (version=%u)\n",
		       dev->name, dev->cfg.version);
		return -EOPNOTSUPP;
	}
	if (dev->rec) {
		pr_err("%s: record: a recording exists; power off and write \"free\" first\n",
		       dev->name);
		return -EBUSY;
	}
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	spin_lock_init(&rec->lock);
	rec->dev = dev;
	INIT_WORK(&rec->snap_work, nvm_mem_rec_snap_work);
	rec->cmds = vzalloc(NVM_MEM_REC_MAX_CMDS * sizeof(*rec->cmds));
	rec->xorder = vzalloc(NVM_MEM_REC_MAX_CMDS * sizeof(*rec->xorder));
	rec->evs = vzalloc(NVM_MEM_REC_MAX_EVS * sizeof(*rec->evs));
	if (!rec->cmds || !rec->xorder || !rec->evs) {
		nvm_mem_rec_destroy(rec);
		return -ENOMEM;
	}
	WRITE_ONCE(dev->rec, rec);
	queue_work(dev->wq, &rec->snap_work);
	flush_work(&rec->snap_work);
	if (!rec->snap) {
		/* nothing was logged: no hook can hold it now but a reader */
		pr_err("%s: record: no memory for the snapshot\n", dev->name);
		return -ENOMEM;
	}
	pr_info("%s: record: started\n", dev->name);
	return 0;
}

static int nvm_mem_rec_stop(struct nvm_mem_dev *dev)
{
	struct nvm_mem_rec *rec = dev->rec;
	unsigned long flags;

	if (!rec || !rec->snap)
		return -EINVAL;
	spin_lock_irqsave(&rec->lock, flags);
	if (rec->active)
		nvm_mem_rec_push(rec, NVM_MEM_REC_END, 0);
	rec->active = false;
	spin_unlock_irqrestore(&rec->lock, flags);
	/* what was submitted runs now, and logs its data */
	if (dev->power)
		flush_workqueue(dev->wq);
	return 0;
}

/* Program command @c on @m; torn at its page @tear (U32_MAX: none). */
static void nvm_mem_rec_program(struct nvm_mem_media *m,
				const struct nvm_mem_rec_cmd *c, u32 tear)
{
	u32 oob_size = m->cfg.oob_size, page = 0, i;
	struct nvm_mem_sect s;

	for (i = 0; i < c->nr; i++) {
		if (i && nvm_mem_rec_page_of(m, c->ppas[i]) !=
		    nvm_mem_rec_page_of(m, c->ppas[i - 1]))
			page++;
		if (page > tear)
			break;
		if (page == tear) {
			nvm_mem_media_tear(m, c->ppas[i], GFP_KERNEL);
			continue;
		}
		if (nvm_mem_sect_set(m, &s, page_address(c->data[i]),
				     c->oob + i * oob_size, GFP_KERNEL))
			continue;
		nvm_mem_media_program(m, c->ppas[i], &s,
				      c->status & BIT_ULL(i), GFP_KERNEL);
		nvm_mem_sect_put(&s);
	}
}

/* Erase command @c on @m: each block once, as it executed. */
static void nvm_mem_rec_erase(struct nvm_mem_media *m,
			      const struct nvm_mem_rec_cmd *c)
{
	struct nvm_mem_addr a, b;
	u32 i, j;

	for (i = 0; i < c->nr; i++) {
		if (c->status & BIT_ULL(i) || nvm_mem_decode(m, c->ppas[i], &a))
			continue;
		for (j = 0; j < i; j++)
			if (!nvm_mem_decode(m, c->ppas[j], &b) &&
			    a.lun == b.lun && a.blk == b.blk)
				break;
		if (j == i)
			nvm_mem_media_erase(m, c->ppas[i], false);
	}
}

/* "replay CUT TORN PAGE ID...": the media of one crash state. */
static int nvm_mem_rec_replay(struct nvm_mem_dev *dev, char *args)
{
	struct nvm_mem_rec *rec = dev->rec;
	struct nvm_mem_media *m;
	unsigned long flags;
	long torn = -1;
	u32 cut, page = 0, i, id, full, from;
	unsigned long *extra;
	char *tok;
	int ret = -EINVAL;

	if (!rec || !rec->snap || dev->power) {
		pr_err("%s: record: replay needs a recording and the device powered off\n",
		       dev->name);
		return -EINVAL;
	}
	spin_lock_irqsave(&rec->lock, flags);
	rec->frozen = true;
	spin_unlock_irqrestore(&rec->lock, flags);

	extra = bitmap_zalloc(rec->nr_cmds + 1, GFP_KERNEL);
	if (!extra)
		return -ENOMEM;
	tok = strsep(&args, " ");
	if (!tok || kstrtou32(tok, 0, &cut))
		goto out;
	tok = strsep(&args, " ");
	if (!tok || kstrtol(tok, 0, &torn) || torn < -1 ||
	    torn >= (long)rec->nr_cmds)
		goto out;
	tok = strsep(&args, " ");
	if (!tok || kstrtou32(tok, 0, &page))
		goto out;
	while ((tok = strsep(&args, " "))) {
		if (!*tok)
			continue;
		if (kstrtou32(tok, 0, &id) || id >= rec->nr_cmds)
			goto out;
		set_bit(id, extra);
	}
	if (torn >= 0)
		set_bit(torn, extra);

	/*
	 * The state's first @full commands in execution order are applied
	 * in full: start from @base if it holds no more than those, and
	 * keep a new @base when the state goes well beyond it (the states
	 * come by increasing cut, so most replays share a long prefix).
	 */
	for (full = 0; full < rec->nr_x; full++) {
		const struct nvm_mem_rec_cmd *c = &rec->cmds[rec->xorder[full]];

		id = rec->xorder[full];
		if (id == torn ||
		    (!test_bit(id, extra) && !(c->done && c->c_ev < cut)))
			break;
	}
	from = rec->base && rec->base_len <= full ? rec->base_len : 0;
	ret = -ENOMEM;
	m = nvm_mem_media_clone(from ? rec->base : rec->snap);
	if (!m)
		goto out;
	for (i = from; i < rec->nr_x; i++) {
		const struct nvm_mem_rec_cmd *c = &rec->cmds[rec->xorder[i]];

		if (i == full && full >= from + NVM_MEM_REC_BASE_STEP) {
			struct nvm_mem_media *b = nvm_mem_media_clone(m);

			if (b) {
				nvm_mem_media_free(rec->base);
				rec->base = b;
				rec->base_len = full;
			}
		}
		id = rec->xorder[i];
		if (!test_bit(id, extra) && !(c->done && c->c_ev < cut))
			continue;
		if (c->opcode == NVM_OP_ERASE)
			nvm_mem_rec_erase(m, c);
		else
			nvm_mem_rec_program(m, c, id == torn ? page : U32_MAX);
	}
	nvm_mem_media_cut_seed(m, dev->cut_seed);
	nvm_mem_media_free(dev->media);
	dev->media = m;
	ret = 0;
out:
	bitmap_free(extra);
	return ret;
}

static ssize_t nvm_mem_rec_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct nvm_mem_dev *dev = file_inode(file)->i_private;
	char *buf, *args;
	int ret = -EINVAL;
	u32 val;

	if (count > PAGE_SIZE * 4)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	args = strim(buf);
	mutex_lock(&dev->lock);
	if (!strcmp(args, "start")) {
		ret = nvm_mem_rec_start(dev);
	} else if (!strcmp(args, "stop")) {
		ret = nvm_mem_rec_stop(dev);
	} else if (!strncmp(args, "mark ", 5) && dev->rec &&
		   !kstrtou32(args + 5, 0, &val)) {
		unsigned long flags;

		spin_lock_irqsave(&dev->rec->lock, flags);
		if (dev->rec->active)
			nvm_mem_rec_push(dev->rec, NVM_MEM_REC_MARK, val);
		spin_unlock_irqrestore(&dev->rec->lock, flags);
		ret = 0;
	} else if (!strncmp(args, "replay ", 7)) {
		ret = nvm_mem_rec_replay(dev, args + 7);
	} else if (!strcmp(args, "free")) {
		ret = -EBUSY;
		if (!dev->power) {
			nvm_mem_rec_destroy(dev->rec);
			dev->rec = NULL;
			ret = 0;
		}
	}
	mutex_unlock(&dev->lock);
	kfree(buf);
	return ret ? ret : count;
}

/*
 * The log, one event a line: "B", "S ID w|e NR", "X ID PAGES", "C ID",
 * "M VALUE", "E"; a header line first.
 */
static int nvm_mem_rec_show(struct seq_file *sf, void *v)
{
	struct nvm_mem_dev *dev = sf->private;
	struct nvm_mem_rec *rec;
	unsigned long flags;
	u32 i, n;

	mutex_lock(&dev->lock);
	rec = dev->rec;
	if (!rec) {
		seq_puts(sf, "# none\n");
		goto out;
	}
	spin_lock_irqsave(&rec->lock, flags);
	n = rec->nr_evs;
	spin_unlock_irqrestore(&rec->lock, flags);
	seq_printf(sf, "# cmds %u events %u overflow %d active %d\n",
		   rec->nr_cmds, n, rec->overflow, rec->active);
	for (i = 0; i < n; i++) {
		const struct nvm_mem_rec_ev *e = &rec->evs[i];

		switch (e->type) {
		case NVM_MEM_REC_SUBMIT:
			seq_printf(sf, "S %u %c %u\n", e->arg,
				   rec->cmds[e->arg].opcode == NVM_OP_ERASE ?
				   'e' : 'w', rec->cmds[e->arg].nr);
			break;
		case NVM_MEM_REC_EXEC:
			seq_printf(sf, "X %u %u\n", e->arg,
				   rec->cmds[e->arg].pages);
			break;
		case NVM_MEM_REC_DONE:
			seq_printf(sf, "C %u\n", e->arg);
			break;
		case NVM_MEM_REC_MARK:
			seq_printf(sf, "M %u\n", e->arg);
			break;
		default:
			seq_printf(sf, "%c\n", e->type);
		}
	}
out:
	mutex_unlock(&dev->lock);
	return 0;
}

static int nvm_mem_rec_open(struct inode *inode, struct file *file)
{
	/* the log of a big recording is a few MB */
	return single_open_size(file, nvm_mem_rec_show, inode->i_private,
				4 * 1024 * 1024);
}

static const struct file_operations nvm_mem_rec_fops = {
	.owner		= THIS_MODULE,
	.open		= nvm_mem_rec_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.write		= nvm_mem_rec_write,
	.release	= single_release,
};

/**
 * nvm_mem_rec_init() - create the debugfs file "record" of an instance
 * @dev: the instance, with its debugfs directory
 *
 * Context: process.
 */
void nvm_mem_rec_init(struct nvm_mem_dev *dev)
{
	debugfs_create_file("record", 0600, dev->dbg, dev, &nvm_mem_rec_fops);
}

/**
 * nvm_mem_rec_release() - free the recording of an instance
 * @dev: the instance, powered off (no command can reach a hook)
 *
 * Context: process.
 */
void nvm_mem_rec_release(struct nvm_mem_dev *dev)
{
	nvm_mem_rec_destroy(dev->rec);
	dev->rec = NULL;
}
