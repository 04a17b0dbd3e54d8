/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mem_runner.c - the in-memory runner of mem_runner.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mem_runner.h"
#include "../../core/config.h"
#include "../../core/err.h"
#include "../../core/grow.h"
#include "../../core/progress.h"
#include "../../core/result.h"
#include "../../run/exec.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

struct nb_mem_faults nb_mem_faults;

struct nb_file {
	char name[64];
	unsigned char *data;
	uint64_t size;
	size_t cap;              /* bytes allocated: grows by doubling, so a
				  * file written a byte at a time (bonnie's
				  * put_char) is not copied once per byte */
	struct nb_file *next;
};

struct mem {
	struct nb_file *files;
	struct nb_io *done[NB_MAX_QD];
	int ndone;
};

static int mem_open(struct nb_target *t)
{
	if (nb_mem_faults.open_error)
		return nb_err(nb_mem_faults.open_error, "target '%s': cannot "
			      "connect", t->cfg->name);
	t->priv = calloc(1, sizeof(struct mem));
	t->caps = NB_CAP_FILES | NB_CAP_ASYNC;
	return t->priv ? 0 : -ENOMEM;
}

static void mem_close(struct nb_target *t)
{
	struct mem *m = t->priv;

	while (m && m->files) {
		struct nb_file *f = m->files;

		m->files = f->next;
		free(f->data);
		free(f);
	}
	free(m);
	t->priv = NULL;
}

static int mem_space(struct nb_target *t, uint64_t *avail)
{
	(void)t;
	*avail = nb_mem_faults.space ? nb_mem_faults.space : 1ULL << 40;
	return 0;
}

static int mem_fopen(struct nb_target *t, const char *name, unsigned flags,
		     struct nb_file **out)
{
	struct mem *m = t->priv;
	struct nb_file *f;

	for (f = m->files; f; f = f->next)
		if (!strcmp(f->name, name))
			break;
	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f)
			return -ENOMEM;
		snprintf(f->name, sizeof(f->name), "%s", name);
		f->next = m->files;
		m->files = f;
	}
	if (flags & NB_F_TRUNC)
		f->size = 0;
	*out = f;
	return 0;
}

static int mem_fclose(struct nb_file *f)
{
	(void)f;
	return 0;
}

static int mem_fsize(struct nb_file *f, uint64_t *size)
{
	*size = f->size;
	return 0;
}

static int mem_flush(struct nb_file *f)
{
	(void)f;
	return 0;
}

/* Remove NAME; its data goes to nb_mem_faults.removed. */
static int mem_unlink(struct nb_target *t, const char *name)
{
	struct mem *m = t->priv;

	for (struct nb_file **pf = &m->files; *pf; pf = &(*pf)->next) {
		struct nb_file *f = *pf;

		if (strcmp(f->name, name))
			continue;
		*pf = f->next;
		free(nb_mem_faults.removed);
		nb_mem_faults.removed = f->data;
		nb_mem_faults.removed_size = f->size;
		free(f);
		return 0;
	}
	return nb_err(-ENOENT, "target '%s': no file '%s'", t->cfg->name, name);
}

static int64_t mem_do(struct nb_io *io)
{
	struct nb_file *f = io->file;
	uint64_t end = io->off + io->len;

	if (io->op == NB_OP_WRITE) {
		unsigned char *d = nb_grow(f->data, &f->cap, end, 65536);

		if (!d)
			return -ENOMEM;
		f->data = d;
		if (end > f->size) {
			memset(f->data + f->size, 0, end - f->size);
			nb_mem_faults.grown += end - f->size;
			f->size = end;
		}
		memcpy(f->data + io->off, io->buf, io->len);
		return io->len;
	}
	if (io->off >= f->size)
		return 0;
	if (end > f->size)
		end = f->size;
	memcpy(io->buf, f->data + io->off, end - io->off);
	return (int64_t)(end - io->off);
}

static int mem_submit(struct nb_target *t, struct nb_io *io)
{
	struct mem *m = t->priv;
	long n = ++nb_mem_faults.ios;

	if (nb_mem_faults.read_log && io->op == NB_OP_READ) {
		if (nb_mem_faults.nreads == nb_mem_faults.reads_cap) {
			size_t cap = nb_mem_faults.reads_cap ? 2 * nb_mem_faults.reads_cap : 1024;
			uint64_t *r = realloc(nb_mem_faults.reads, cap * sizeof(*r));

			if (!r)
				return -ENOMEM;
			nb_mem_faults.reads = r;
			nb_mem_faults.reads_cap = cap;
		}
		nb_mem_faults.reads[nb_mem_faults.nreads++] = io->off;
	}
	if (nb_mem_faults.io_log) {
		if (nb_mem_faults.nlog == nb_mem_faults.log_cap) {
			size_t cap = nb_mem_faults.log_cap ? 2 * nb_mem_faults.log_cap : 1024;
			struct nb_mem_io *l = realloc(nb_mem_faults.log, cap * sizeof(*l));

			if (!l)
				return -ENOMEM;
			nb_mem_faults.log = l;
			nb_mem_faults.log_cap = cap;
		}
		nb_mem_faults.log[nb_mem_faults.nlog++] =
			(struct nb_mem_io){ io->off, io->len, io->op };
	}
	io->result = nb_mem_faults.fail_after && n > nb_mem_faults.fail_after ?
		     -EIO : mem_do(io);
	if (nb_mem_faults.stop_after && n == nb_mem_faults.stop_after)
		*nb_mem_faults.stop = 1;
	m->done[m->ndone++] = io;
	return 0;
}

static int mem_reap(struct nb_target *t, struct nb_io **done, int max,
		    int timeout_us)
{
	struct mem *m = t->priv;

	(void)timeout_us;
	return nb_io_take(m->done, &m->ndone, done, max);
}

const struct nb_runner_ops nb_runner_mem = {
	.name = "mem",
	.scheme = "mem",
	.help = "files in memory (tests)",
	.caps = NB_CAP_FILES | NB_CAP_ASYNC,
	.open = mem_open,
	.close = mem_close,
	.space = mem_space,
	.fopen = mem_fopen,
	.fclose = mem_fclose,
	.fsize = mem_fsize,
	.flush = mem_flush,
	.submit = mem_submit,
	.reap = mem_reap,
	.unlink = mem_unlink,
};

void nb_mem_setup(struct nb_config *cfg, volatile sig_atomic_t *stop)
{
	nb_config_init(cfg);
	memset(&nb_mem_faults, 0, sizeof(nb_mem_faults));
	nb_mem_faults.stop = stop;
	*stop = 0;
}

void nb_mem_teardown(struct nb_config *cfg)
{
	nb_config_free(cfg);
	free(nb_mem_faults.removed);
	nb_mem_faults.removed = NULL;
}

json_t *nb_mem_run(struct nb_config *cfg, struct nb_runplan *pl,
		   volatile sig_atomic_t *stop, const struct nb_runner_ops *ops,
		   const char *workloads, int code)
{
	struct nb_progress progress;
	struct nb_exec x = { .pl = pl, .cfg = cfg, .run_id = "unit",
			     .stop = stop, .progress = &progress };

	assert_int_equal(nb_config_add_target(cfg, "m=/mem"), 0);
	cfg->targets[0].ops = ops ? ops : &nb_runner_mem;
	cfg->targets[0].run_id = "unit";
	if (nb_config_apply(cfg, 0) || nb_runplan_make(pl, cfg, workloads, NULL, 0))
		fail_msg("%s", nb_err_last());
	nb_progress_init(&progress, stderr, 1);
	x.doc = nb_result_new("unit", "nasbench run");
	nb_run(&x);
	/* as 'nasbench run' ends: an unmeasured entry exits 5 */
	nb_exec_unmeasured(&x);
	assert_int_equal(x.exit_code, code);
	return x.doc;
}
