/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target.c - what every runner shares: opening through an ops table, the
 * blocking one-shot I/O, the open(2) flags, the capability names. */
#include "target.h"
#include "clock.h"
#include "err.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

/* Like fio's check_engine_ops(): a table missing a mandatory call is a bug. */
static int check_ops(const struct nb_runner_ops *o)
{
	return o->open && o->close && o->fopen && o->fclose && o->submit &&
	       o->reap && o->flush && o->space && o->fsize &&
	       (!(o->caps & NB_CAP_META) ||
		(o->mkdir && o->rmdir && o->unlink && o->stat && o->readdir &&
		 o->rename));
}

/* --span: the window shrinks to its first part, in whole blocks. */
static int apply_span(struct nb_target *t)
{
	const struct nb_span *sp = &t->cfg->span;
	uint64_t of = t->capacity, bytes, bs = t->block_size ? t->block_size : 1;
	char what[64];

	if (!sp->bytes && !sp->pct)
		return 0;
	if (!(t->caps & NB_CAP_BLOCK))
		return nb_err(-EINVAL, "target '%s': --span is for a device, a LUN "
			      "or a file, not the directory of a file target: "
			      "give one of those, or a smaller --size",
			      t->cfg->name);
	if (sp->pct)
		snprintf(what, sizeof(what), "%g%%", sp->pct);
	else
		snprintf(what, sizeof(what), "%llu bytes",
			 (unsigned long long)sp->bytes);
	bytes = sp->pct ? (uint64_t)((double)of * sp->pct / 100) : sp->bytes;
	if (bytes > of)
		return nb_err(-EINVAL, "target '%s': --span %s is beyond the end of "
			      "the target (%llu bytes): it accepts a percentage "
			      "in (0, 100] or a size up to the target's",
			      t->cfg->name, what, (unsigned long long)of);
	bytes -= bytes % bs;
	if (!bytes)
		return nb_err(-EINVAL, "target '%s': --span %s is less than one "
			      "%llu-byte block", t->cfg->name, what,
			      (unsigned long long)bs);
	t->capacity = bytes;
	t->span_of = of;
	return 0;
}

int nb_target_open_ops(struct nb_target *t, const struct nb_target_cfg *cfg,
		       const struct nb_runner_ops *ops)
{
	int rc;

	memset(t, 0, sizeof(*t));
	t->cfg = cfg;
	t->attach = cfg->attach;
	nb_url_redact(cfg->url, t->desc, sizeof(t->desc));
	if (!ops)
		return nb_err(-EINVAL, "target '%s': no runner for '%s://' URLs",
			      cfg->name, cfg->u.scheme);
	if (!check_ops(ops))
		return nb_err(-ENOSYS, "runner '%s' is incomplete", ops->name);
	t->ops = ops;
	t->caps = ops->caps;
	t->block_size = 1;
	rc = ops->open(t);
	return rc ? rc : apply_span(t);
}

void nb_target_close(struct nb_target *t)
{
	if (t->ops)
		t->ops->close(t);
	t->ops = NULL;
}

int nb_target_reconnect(struct nb_target *t)
{
	const struct nb_runner_ops *ops = t->ops;
	const struct nb_target_cfg *cfg = t->cfg;
	uint64_t filled = t->filled, cached = t->cached_opens;

	if (ops) {
		t->detach = 1;
		ops->close(t);
	}
	ops = ops ? ops : cfg->ops;
	memset(t, 0, sizeof(*t));
	t->cfg = cfg;
	nb_url_redact(cfg->url, t->desc, sizeof(t->desc));
	if (!ops)
		return nb_err(-EINVAL, "target '%s': not open", cfg->name);
	t->ops = ops;
	t->caps = ops->caps;
	t->block_size = 1;
	t->attach = 1;
	t->filled = filled;
	t->cached_opens = cached;
	return ops->open(t);
}

int64_t nb_target_pio(struct nb_target *t, struct nb_file *f, int op,
		      void *buf, uint32_t len, uint64_t off, unsigned fua)
{
	struct nb_io io = { .file = f, .op = op, .fua = fua, .off = off,
			    .len = len, .buf = buf };
	struct nb_io *done;
	int rc;

	if (t->ops->pio)
		return t->ops->pio(f, op, buf, len, off, fua);
	rc = t->ops->submit(t, &io);

	if (rc < 0)
		return rc;
	for (;;) {
		rc = t->ops->reap(t, &done, 1, 1000000);
		if (rc < 0)
			return rc;
		if (rc == 1)
			break;
	}
	if (done != &io)
		return nb_err(-EIO, "target '%s': unexpected completion", t->cfg->name);
	if (io.result < 0)
		return nb_err((int)io.result, "target '%s': %s at offset %llu failed: %s",
			      t->cfg->name, op == NB_OP_READ ? "read" : "write",
			      (unsigned long long)off, strerror((int)-io.result));
	return io.result;
}

int nb_io_take(struct nb_io **ready, int *nready, struct nb_io **done, int max)
{
	int n = *nready < max ? *nready : max;

	memcpy(done, ready, sizeof(*done) * (size_t)n);
	memmove(ready, ready + n, sizeof(*ready) * (size_t)(*nready - n));
	*nready -= n;
	return n;
}

int nb_open_flags(unsigned flags, int sync_flag)
{
	int o = (flags & NB_F_WRITE) ? ((flags & NB_F_READ) ? O_RDWR : O_WRONLY)
				     : O_RDONLY;

	if (flags & NB_F_CREATE)
		o |= O_CREAT;
	if (flags & NB_F_TRUNC)
		o |= O_TRUNC;
	if (flags & NB_F_SYNC)
		o |= sync_flag;
	return o;
}

static const char *const cap_names[] = { "files", "block", "async", "sync",
					 "meta", "direct" };
#define NCAPS (int)(sizeof(cap_names) / sizeof(cap_names[0]))

const char *nb_cap_name(unsigned caps, int i)
{
	for (int bit = 0; bit < NCAPS; bit++)
		if ((caps & (1u << bit)) && i-- == 0)
			return cap_names[bit];
	return NULL;
}

unsigned nb_cap_find(const char *name)
{
	for (int bit = 0; bit < NCAPS; bit++)
		if (!strcmp(cap_names[bit], name))
			return 1u << bit;
	return 0;
}

void *nb_io_alloc(size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len ? len : 4096))
		return NULL;
	return p;
}

void nb_target_paths_reset(struct nb_target *t)
{
	struct nb_paths *ps = t->paths;

	if (!ps)
		return;
	ps->run_ns = nb_now_ns();
	for (int i = 0; i < ps->n; i++) {
		ps->p[i].ios = ps->p[i].bytes_read = ps->p[i].bytes_written = 0;
		nb_hist_init(&ps->p[i].lat);
	}
}
