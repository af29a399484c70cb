// SPDX-License-Identifier: GPL-2.0
/*
 * nvm_mem: the NAND timing model. Each LUN is busy for tR, tPROG or tBERS
 * per page read, programmed or block erased, and each channel carries one
 * sector transfer at a time (t_xfer per sector); LUNs and channels work in
 * parallel. A command's completion time follows from per-LUN "busy until"
 * timestamps and per-channel bookings of the bus (a transfer takes the
 * bus whenever it is free, gap by gap, so that a LUN with a long queue
 * does not hold up the transfers of the other LUNs on its channel and the
 * bus does not idle while data waits); nothing here sleeps or arms timers
 * (main.c does), and nothing calls the LightNVM core, so that the KUnit
 * suite in media_test.c checks the arithmetic directly.
 */

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "nvm_mem.h"

/* The module parameters' defaults of the timing knobs. */
const struct nvm_mem_tparams nvm_mem_default_tparams = NVM_MEM_DEFAULT_TPARAMS;

/**
 * nvm_mem_timing_init() - prepare the timing state of an instance
 * @t: the state, zeroed
 * @p: the knobs it starts with
 *
 * Context: any.
 */
void nvm_mem_timing_init(struct nvm_mem_timing *t,
			 const struct nvm_mem_tparams *p)
{
	spin_lock_init(&t->lock);
	t->p = *p;
}

/**
 * nvm_mem_timing_alloc() - size the timing state for a geometry
 * @t: the state, from nvm_mem_timing_init(), without arrays yet
 * @num_ch: channels
 * @num_lun: LUNs per channel
 *
 * Context: process.
 * Return: 0 or -ENOMEM.
 */
int nvm_mem_timing_alloc(struct nvm_mem_timing *t, u32 num_ch, u32 num_lun)
{
	u32 nr_luns = num_ch * num_lun;

	t->lun_free = kcalloc(nr_luns, sizeof(u64), GFP_KERNEL);
	t->lun_busy = kcalloc(nr_luns, sizeof(u64), GFP_KERNEL);
	t->ch_res = kcalloc(num_ch * NVM_MEM_CH_RES, sizeof(*t->ch_res),
			    GFP_KERNEL);
	t->ch_nr_res = kcalloc(num_ch, sizeof(u32), GFP_KERNEL);
	t->ch_busy = kcalloc(num_ch, sizeof(u64), GFP_KERNEL);
	if (!t->lun_free || !t->lun_busy || !t->ch_res || !t->ch_nr_res ||
	    !t->ch_busy) {
		nvm_mem_timing_free(t);
		return -ENOMEM;
	}
	t->num_ch = num_ch;
	t->num_lun = num_lun;
	return 0;
}

/**
 * nvm_mem_timing_free() - free the arrays of the timing state
 * @t: the state
 *
 * Context: any.
 */
void nvm_mem_timing_free(struct nvm_mem_timing *t)
{
	kfree(t->lun_free);
	kfree(t->lun_busy);
	kfree(t->ch_res);
	kfree(t->ch_nr_res);
	kfree(t->ch_busy);
	t->lun_free = NULL;
	t->lun_busy = NULL;
	t->ch_res = NULL;
	t->ch_nr_res = NULL;
	t->ch_busy = NULL;
	t->num_ch = 0;
	t->num_lun = 0;
}

/*
 * Mark [@a, @b) busy in the sorted, disjoint bookings @r (@n of them), at
 * index @i: the ones before it end by @a, those from @i on start at @b or
 * later. A piece that touches a neighbour extends it. Return: the index of
 * the booking that holds the piece.
 */
static u32 nvm_mem_timing_ch_fill(struct nvm_mem_busy *r, u32 *n, u32 i,
				  u64 a, u64 b)
{
	bool left = i && r[i - 1].end == a, right = i < *n && r[i].start == b;

	if (left && right) {
		r[i - 1].end = r[i].end;
		(*n)--;
		memmove(r + i, r + i + 1, (*n - i) * sizeof(*r));
		return i - 1;
	}
	if (left) {
		r[i - 1].end = b;
		return i - 1;
	}
	if (right) {
		r[i].start = a;
		return i;
	}
	memmove(r + i + 1, r + i, (*n - i) * sizeof(*r));
	r[i].start = a;
	r[i].end = b;
	(*n)++;
	return i;
}

/*
 * Book @len ns of channel @ch's bus from @ready on: the transfer takes the
 * bus whenever it is free from then on, in pieces if the free time comes
 * in gaps shorter than @len (a bus that idles while a LUN has data to
 * send would be slower than the media; filling only gaps that hold the
 * whole transfer left one channel of 8 LUNs 14% idle under random reads).
 * @now: bookings that ended by then are dropped. @first: where to store
 * when the transfer starts. Return: when it ends.
 */
static u64 nvm_mem_timing_ch_book(struct nvm_mem_timing *t, u32 ch, u64 ready,
				  u64 len, u64 now, u64 *first)
{
	struct nvm_mem_busy *r = &t->ch_res[ch * NVM_MEM_CH_RES];
	u32 n = t->ch_nr_res[ch], old = 0, i;
	u64 at = ready, piece;

	lockdep_assert_held(&t->lock);
	*first = ready;
	if (!len)
		return ready;
	/* sorted and disjoint: those that ended come first */
	while (old < n && r[old].end <= now)
		old++;
	n -= old;
	memmove(r, r + old, n * sizeof(*r));
	/*
	 * A booking adds at most one entry: only its first piece can start
	 * away from a booking before it, and a piece that does not end at
	 * the next booking is its last.
	 */
	if (n == NVM_MEM_CH_RES) {
		/* no room: the two closest (the latest of equals) become one */
		for (i = 0, old = 0; i < n - 1; i++)
			if (r[i + 1].start - r[i].end <=
			    r[old + 1].start - r[old].end)
				old = i;
		r[old].end = r[old + 1].end;
		n--;
		memmove(r + old + 1, r + old + 2, (n - old - 1) * sizeof(*r));
	}
	t->ch_busy[ch] += len;
	*first = U64_MAX;
	i = 0;
	while (len) {
		while (i < n && r[i].end <= at)
			i++;
		if (i < n && r[i].start <= at) {
			/* busy at @at: the gap starts where this one ends */
			at = r[i++].end;
			continue;
		}
		piece = i < n ? min(len, r[i].start - at) : len;
		if (*first == U64_MAX)
			*first = at;
		i = nvm_mem_timing_ch_fill(r, &n, i, at, at + piece);
		at += piece;
		len -= piece;
	}
	t->ch_nr_res[ch] = n;
	return at;
}

/**
 * nvm_mem_timing_lun_op() - occupy a LUN and its channel for one operation
 * @t: the state, its lock held
 * @op: %NVM_OP_PREAD, %NVM_OP_PWRITE or %NVM_OP_ERASE
 * @lun: LUN index in the device (ch * num_lun + lun)
 * @nr_sec: sectors transferred over the channel (reads and programs)
 * @nr_arr: array operations: pages read or programmed, blocks erased
 * @now: when the operation reaches the device, in ns
 *
 * A read waits for the LUN, reads the array (@nr_arr * tR), then transfers
 * @nr_sec sectors whenever the channel's bus is free; the LUN stays busy
 * until its data is out. A program waits for the LUN, transfers, then
 * programs (@nr_arr * tPROG). An erase holds
 * only the LUN (@nr_arr * tBERS). The LUN's and the channel's busy times
 * grow by the time each is held.
 *
 * Context: any; @t->lock held.
 * Return: when the operation ends, in ns.
 */
u64 nvm_mem_timing_lun_op(struct nvm_mem_timing *t, int op, u32 lun,
			  u32 nr_sec, u32 nr_arr, u64 now)
{
	const struct nvm_mem_tparams *p = &t->p;
	u32 ch = lun / t->num_lun;
	u64 xfer = (u64)nr_sec * p->t_xfer_ns;
	u64 start, end, x, xs;

	lockdep_assert_held(&t->lock);
	switch (op) {
	case NVM_OP_PREAD:
		start = max(now, t->lun_free[lun]);
		x = start + (u64)nr_arr * p->t_read_us * NSEC_PER_USEC;
		end = nvm_mem_timing_ch_book(t, ch, x, xfer, now, &xs);
		break;
	case NVM_OP_PWRITE:
		end = nvm_mem_timing_ch_book(t, ch, max(now, t->lun_free[lun]),
					     xfer, now, &start);
		end += (u64)nr_arr * p->t_prog_us * NSEC_PER_USEC;
		break;
	default:
		start = max(now, t->lun_free[lun]);
		end = start + (u64)nr_arr * p->t_erase_us * NSEC_PER_USEC;
		break;
	}
	t->lun_free[lun] = end;
	t->lun_busy[lun] += end - start;
	return end;
}

/**
 * nvm_mem_timing_cmd() - when a command on the media completes
 * @t: the state
 * @m: the media (address decoding)
 * @rqd: the command: read, program or erase
 * @now: when it reaches the device, in ns
 *
 * The command's addresses are taken in order; each run of addresses on
 * one LUN is one operation of nvm_mem_timing_lun_op(), with one array
 * operation per distinct (block, page) in a row (the planes of a
 * multi-plane page go together) and, for an erase, per block. Addresses
 * outside the device cost nothing.
 *
 * Context: any; takes @t->lock.
 * Return: the end of its last operation, or @now with the model off.
 */
u64 nvm_mem_timing_cmd(struct nvm_mem_timing *t, const struct nvm_mem_media *m,
		       const struct nvm_rq *rqd, u64 now)
{
	u32 lun = U32_MAX, blk = U32_MAX, pg = U32_MAX, nr_sec = 0, nr_arr = 0;
	bool erase = rqd->opcode == NVM_OP_ERASE;
	int op = rqd->opcode;
	struct nvm_mem_addr a;
	unsigned long flags;
	u64 end = now;
	int i;

	spin_lock_irqsave(&t->lock, flags);
	if (!t->p.timing || !t->lun_free)
		goto out;
	for (i = 0; i < rqd->nr_ppas; i++) {
		if (nvm_mem_decode(m, nvm_mem_rq_ppa(m, rqd, i), &a))
			continue;
		if (a.lun != lun) {
			if (nr_arr)
				end = max(end, nvm_mem_timing_lun_op(t, op, lun,
								     nr_sec,
								     nr_arr,
								     now));
			lun = a.lun;
			blk = U32_MAX;
			nr_sec = 0;
			nr_arr = 0;
		}
		if (a.blk != blk || (!erase && a.pg != pg))
			nr_arr++;
		blk = a.blk;
		pg = a.pg;
		nr_sec++;
	}
	if (nr_arr)
		end = max(end, nvm_mem_timing_lun_op(t, op, lun,
						     erase ? 0 : nr_sec,
						     nr_arr, now));
out:
	spin_unlock_irqrestore(&t->lock, flags);
	return end;
}

static const struct nvm_mem_tparam {
	const char	*name;
	size_t		off;
	u32		max;
} nvm_mem_tparam_fields[] = {
	{ "timing", offsetof(struct nvm_mem_tparams, timing), 1 },
	{ "t_read_us", offsetof(struct nvm_mem_tparams, t_read_us),
	  NVM_MEM_MAX_T_US },
	{ "t_prog_us", offsetof(struct nvm_mem_tparams, t_prog_us),
	  NVM_MEM_MAX_T_US },
	{ "t_erase_us", offsetof(struct nvm_mem_tparams, t_erase_us),
	  NVM_MEM_MAX_T_US },
	{ "t_xfer_ns", offsetof(struct nvm_mem_tparams, t_xfer_ns),
	  NVM_MEM_MAX_T_US },
	{ "completion_delay_us",
	  offsetof(struct nvm_mem_tparams, completion_delay_us),
	  NVM_MEM_MAX_DELAY_US },
	{ "completion_jitter_us",
	  offsetof(struct nvm_mem_tparams, completion_jitter_us),
	  NVM_MEM_MAX_DELAY_US },
};

static const struct nvm_mem_tparam *nvm_mem_tparam_find(const char *field)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(nvm_mem_tparam_fields); i++)
		if (!strcmp(nvm_mem_tparam_fields[i].name, field))
			return &nvm_mem_tparam_fields[i];
	WARN_ON_ONCE(1);
	return NULL;
}

/**
 * nvm_mem_tparams_validate() - check every timing knob
 * @p: the knobs
 * @name: who they belong to, for messages
 *
 * Return: 0, or -EINVAL after a message naming the bad knob.
 */
int nvm_mem_tparams_validate(const struct nvm_mem_tparams *p, const char *name)
{
	const struct nvm_mem_tparam *f;
	u32 v;
	int i;

	for (i = 0; i < ARRAY_SIZE(nvm_mem_tparam_fields); i++) {
		f = &nvm_mem_tparam_fields[i];
		v = *(const u32 *)((const u8 *)p + f->off);
		if (v > f->max) {
			pr_err("%s: %s=%u out of range (0..%u)\n", name,
			       f->name, v, f->max);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * nvm_mem_timing_get() - read one timing knob by name
 * @t: the state
 * @field: knob name, as in struct nvm_mem_tparams
 *
 * Context: any; takes @t->lock.
 * Return: its value.
 */
u32 nvm_mem_timing_get(struct nvm_mem_timing *t, const char *field)
{
	const struct nvm_mem_tparam *f = nvm_mem_tparam_find(field);
	unsigned long flags;
	u32 v;

	if (!f)
		return 0;
	spin_lock_irqsave(&t->lock, flags);
	v = *(u32 *)((u8 *)&t->p + f->off);
	spin_unlock_irqrestore(&t->lock, flags);
	return v;
}

/**
 * nvm_mem_timing_set() - set one timing knob by name
 * @t: the state
 * @field: knob name, as in struct nvm_mem_tparams
 * @val: the value
 * @name: the instance, for messages
 *
 * Takes effect for the commands that reach the device from then on.
 *
 * Context: any; takes @t->lock.
 * Return: 0, or -EINVAL after a message naming the knob.
 */
int nvm_mem_timing_set(struct nvm_mem_timing *t, const char *field, u32 val,
		       const char *name)
{
	const struct nvm_mem_tparam *f = nvm_mem_tparam_find(field);
	unsigned long flags;

	if (!f)
		return -EINVAL;
	if (val > f->max) {
		pr_err("%s: %s=%u out of range (0..%u)\n", name, f->name, val,
		       f->max);
		return -EINVAL;
	}
	spin_lock_irqsave(&t->lock, flags);
	*(u32 *)((u8 *)&t->p + f->off) = val;
	spin_unlock_irqrestore(&t->lock, flags);
	return 0;
}

/**
 * nvm_mem_timing_delay() - the fixed part of a completion delay, and jitter
 * @t: the state
 * @jitter: where to store the random part's range, in us
 *
 * Context: any; takes @t->lock.
 * Return: the fixed part, in us.
 */
u32 nvm_mem_timing_delay(struct nvm_mem_timing *t, u32 *jitter)
{
	unsigned long flags;
	u32 d;

	spin_lock_irqsave(&t->lock, flags);
	d = t->p.completion_delay_us;
	*jitter = t->p.completion_jitter_us;
	spin_unlock_irqrestore(&t->lock, flags);
	return d;
}

/**
 * nvm_mem_timing_deferred() - whether commands complete from a timer
 * @t: the state
 *
 * Context: any.
 * Return: true with the timing model on or a completion delay set.
 */
bool nvm_mem_timing_deferred(struct nvm_mem_timing *t)
{
	return READ_ONCE(t->p.timing) || READ_ONCE(t->p.completion_delay_us) ||
	       READ_ONCE(t->p.completion_jitter_us);
}
