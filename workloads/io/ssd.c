/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ssd.c - what an SSD, a thin LUN or a filling pool needs before its
 *         figures mean next year: preconditioning and TRIM.
 *
 * Preconditioning, as SNIA PTS's workload-independent one: a block
 * target's span (the window, --span) is written sequentially with fresh
 * incompressible data, twice by default; on a directory target a fill file
 * takes a share of the free space.  TRIM discards the span through the
 * runner's discard op (BLKDISCARD, FALLOC_FL_PUNCH_HOLE, SCSI UNMAP); a
 * runner without one (NFSv3) removes the data file instead, and says so.
 */
#include "../workload.h"
#include "../../core/clock.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/result.h"
#include "../../core/units.h"
#include "../../core/knobs.h"
#include "../../core/escape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PC_BS (1U << 20)
#define PC_QD 8
#define FILL_NAME "precondition-fill"

struct pc {
	struct nb_progress *progress;
	uint64_t seed, done;     /* bytes of the passes before this one */
	uint64_t t0;             /* when the first pass began (ns) */
};

static void pc_fill(void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct pc *pc = payload;
	struct nb_rng r;

	nb_rng_seed(&r, pc->seed ^ (off * 0x9e3779b97f4a7c15ULL));
	nb_datagen_fill(&r, buf, len);
	nb_datagen_stamp(buf, len, off, pc->seed);
}

static void pc_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	struct pc *pc = payload;

	(void)elapsed_ns;        /* of this pass; the line shows all of them */
	nb_progress_update(pc->progress, pc->done + bytes, nb_now_ns() - pc->t0);
}

/* Write [0, SIZE) of NAME once, sequentially; *WRITTEN grows. */
static int pc_pass(struct nb_wl_ctx *c, struct pc *pc, const char *name,
		   uint64_t size, uint64_t *written)
{
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE,
			       .bs = PC_BS, .qd = PC_QD, .sync = NB_SYNC_END,
			       .direct = 1, .seed = pc->seed };
	struct nb_engine_hooks h = { .fill = pc_fill, .progress = pc_progress,
				     .live = c->progress, .payload = pc,
				     .stop = c->stop };
	struct nb_io_result *r = malloc(sizeof(*r));
	struct nb_file *f;
	int rc;

	if (!r)
		return nb_err(-ENOMEM, "out of memory");
	while (s.bs > 1 && (s.bs > size || size % s.bs))
		s.bs /= 2;
	s.size = size - size % s.bs;
	rc = c->t->ops->fopen(c->t, name, NB_F_WRITE | NB_F_CREATE | NB_F_DIRECT, &f);
	if (!rc) {
		rc = nb_engine_run(c->t, f, &s, &h, r);
		c->t->ops->fclose(f);
		*written += r->bytes_written;
		pc->done += r->bytes_written;
		if (!rc && r->stopped)
			rc = -EINTR;
	}
	free(r);
	return rc;
}

/* A directory target: the fill file's size, a share of the free space. */
static int fill_size(struct nb_wl_ctx *c, uint64_t *size)
{
	unsigned pct = c->p->fill_pct;
	uint64_t avail;
	int rc = c->t->ops->space(c->t, &avail);

	if (rc)
		return rc;
	*size = (uint64_t)((double)avail * pct / 100);
	*size -= *size % PC_BS;
	if (!*size)
		return nb_err(-ENOSPC, "target '%s': no room to precondition "
			      "(%u%% of %llu bytes free)", c->t->cfg->name, pct,
			      (unsigned long long)avail);
	return 0;
}

int nb_wl_precondition(struct nb_wl_ctx *c)
{
	int block = !!(c->t->caps & NB_CAP_BLOCK);
	unsigned passes = block ? c->p->precondition_passes : 1;
	struct pc pc = { .progress = c->progress, .seed = c->seed | 1,
			 .t0 = nb_now_ns() };
	uint64_t size = c->t->capacity, written = 0, t0 = nb_now_ns();
	char label[200];
	json_t *j;
	int rc = block ? 0 : fill_size(c, &size);

	if (!rc) {
		snprintf(label, sizeof(label), "preconditioning %s (%u x %llu MB)",
			 c->t->cfg->name, passes, (unsigned long long)(size / 1000000));
		nb_progress_begin(c->progress, label, size * passes, 0);
	}
	for (unsigned i = 0; !rc && i < passes; i++)
		rc = pc_pass(c, &pc, block ? "data" : FILL_NAME, size, &written);
	if (written || !rc)
		nb_progress_end(c->progress);
	j = json_pack("{s:s, s:i, s:I, s:I, s:f}", "mode",
		      block ? "sequential" : "fill", "passes", (int)passes,
		      "span_bytes", (json_int_t)size, "bytes_written",
		      (json_int_t)written, "seconds",
		      (double)(nb_now_ns() - t0) / 1e9);
	if (!block)
		json_object_set_new(j, "fill_pct", json_integer(c->p->fill_pct));
	if (rc)
		json_object_set_new(j, "error", nb_json_text(nb_err_last()));
	json_object_set_new(c->entry, "preconditioning", j);
	if (!rc && block)
		nb_wl_wrote(c, size);
	return rc;
}

/* Discard the data file of a directory target: punch it, or remove it. */
/* TRIM's "method" when the target could not be opened for writing (the
 * data-loss guard refused it): not a discard the target refused, so
 * --trim-optional does not go on without it. */
static const char GUARDED[] = "none (not opened for writing)";

static int trim_file(struct nb_wl_ctx *c, const char **how, uint64_t *bytes)
{
	struct nb_target *t = c->t;
	struct nb_stat st;
	struct nb_file *f;
	int rc;

	if (!(t->caps & NB_CAP_META) || t->ops->stat(t, "data", &st)) {
		*how = "none (no data file yet)";
		return 0;
	}
	*bytes = st.size;
	if (!t->ops->discard) {
		*how = "unlink";
		nb_wl_warn(c, "target '%s': the %s runner has no discard (NFSv3 "
			   "has no DEALLOCATE, that is NFS 4.2): the data file "
			   "was removed instead", t->cfg->name, t->ops->name);
		return t->ops->unlink(t, "data");
	}
	rc = t->ops->fopen(t, "data", NB_F_WRITE, &f);
	if (rc) {
		*how = GUARDED;
		return rc;
	}
	rc = t->ops->discard(f, 0, st.size, how);
	t->ops->fclose(f);
	return rc;
}

static int trim_block(struct nb_wl_ctx *c, const char **how, uint64_t *bytes)
{
	struct nb_target *t = c->t;
	struct nb_file *f;
	int rc;

	*bytes = t->capacity;
	if (!t->ops->discard) {
		*how = "none";
		return nb_err(-EOPNOTSUPP, "target '%s': the %s runner cannot "
			      "discard", t->cfg->name, t->ops->name);
	}
	rc = t->ops->fopen(t, "data", NB_F_WRITE, &f);
	if (rc) {
		*how = GUARDED;
		return rc;
	}
	rc = t->ops->discard(f, 0, t->capacity, how);
	t->ops->fclose(f);
	if (!rc)
		t->filled = 0;           /* it reads zeros now: prefill again */
	return rc;
}

int nb_wl_trim(struct nb_wl_ctx *c, const char *when)
{
	const char *how = "none";
	uint64_t bytes = 0;
	int rc = (c->t->caps & NB_CAP_BLOCK) ? trim_block(c, &how, &bytes)
					     : trim_file(c, &how, &bytes);
	json_t *j = json_pack("{s:s, s:s, s:I, s:I, s:b}", "when", when,
			      "method", how, "offset", (json_int_t)0, "bytes",
			      (json_int_t)bytes, "accepted", !rc);

	if (rc)
		json_object_set_new(j, "error", nb_json_text(nb_err_last()));
	json_object_set_new(c->entry, "discard", j);
	if (rc && rc != -EINTR && how != GUARDED && c->p->trim_optional > 0) {
		nb_wl_warn(c, "TRIM refused, the run goes on without it: %s",
			   nb_err_last());
		nb_warn("%s; going on without TRIM (--trim-optional)", nb_err_last());
		nb_err_clear();
		return 0;
	}
	return rc;
}

/* preconditioning's and TRIM's rows: [suite] precondition,
 * precondition-passes, precondition-fill, trim, trim-optional (core/knobs.h). */
const struct nb_knob nb_wl_ssd_knobs[] = {
	{ .section = "suite", .name = "precondition", .type = NB_KT_BOOL,
	  NB_PRM(precondition), .def = "no",
	  .help = "before the first workload, write the span of a device, LUN "
	  "or file sequentially with incompressible data (--precondition-passes "
	  "times), or fill a share of a directory's free space",
	  .opt = "precondition", .flags = NB_KF_NOARG,
	},
	{ .section = "suite", .name = "precondition-passes", .type = NB_KT_UINT32,
	  NB_PRM(precondition_passes), .min = 1, .max = 100, .def = "2",
	  .help = "sequential preconditioning passes over the span",
	  .opt = "precondition-passes", .metavar = "N",
	},
	{ .section = "suite", .name = "precondition-fill", .type = NB_KT_UINT32,
	  NB_PRM(fill_pct), .min = 1, .max = 95, .def = "50",
	  .help = "directory targets: % of the free space preconditioning fills",
	  .opt = "precondition-fill", .metavar = "PCT",
	},
	{ .section = "suite", .name = "trim", .type = NB_KT_CHOICE,
	  NB_PRM(trim), .unset = "",
	  .choices = "no|before|each",
	  .help = "discard the span (BLKDISCARD, hole punch, SCSI UNMAP) before "
	  "the first workload of a target, or before each",
	  .opt = "trim", .metavar = "WHEN",
	},
	{ .section = "suite", .name = "trim-optional", .type = NB_KT_BOOL,
	  NB_PRM(trim_optional), .def = "no",
	  .help = "a target that refuses the discard: a warning, and the run "
	  "goes on",
	  .opt = "trim-optional", .flags = NB_KF_NOARG,
	},
	{ NULL },
};
