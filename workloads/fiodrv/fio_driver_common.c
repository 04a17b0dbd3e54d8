/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_common.c - what the local and the client/server fio runs share
 * (fio_driver_common.h).
 */
#include "fio_driver_common.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nb_wl_fio_put_counts(json_t *extra, const struct nb_fio_stats *st)
{
	json_object_set_new(extra, "bytes_read", json_integer((json_int_t)st->bytes_read));
	json_object_set_new(extra, "bytes_written",
			    json_integer((json_int_t)st->bytes_written));
	json_object_set_new(extra, "ios", json_integer((json_int_t)st->ios));
	/* fio times every I/O it completes (core/samples.h) */
	json_object_set_new(extra, "timed", json_integer((json_int_t)st->ios));
}

const char *nb_wl_fio_ioengine(const struct nb_target *t)
{
	return t->cfg->ioengine[0] ? t->cfg->ioengine : "io_uring";
}

void nb_wl_fio_comment(const struct nb_wl_ctx *c, char *buf, size_t len)
{
	snprintf(buf, len, "nasbench %s: %s on target '%s', iteration %d of %d",
		 nb_version(), c->wl->name, c->t->cfg->name, c->iteration,
		 c->iterations);
}

/* fio's first complaint ("fio: ..."; the cause comes before the "job
 * dropped" lines), else the last non-empty line of its stderr. */
const char *nb_wl_fio_complaint(const char *err, char *buf, size_t len)
{
	const char *end = err + strlen(err), *start;
	const char *first = !strncmp(err, "fio: ", 5) ? err : strstr(err, "\nfio: ");

	if (first) {
		first += *first == '\n';
		snprintf(buf, len, "%.*s", (int)strcspn(first, "\n"), first);
		return buf;
	}
	while (end > err && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > err && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf[0] ? buf : "no message";
}

uint64_t nb_wl_fio_limit(const struct nb_iospec *s)
{
	return s->runtime_us ? s->runtime_us + NB_FIO_GRACE_US : 0;
}

void nb_wl_fio_stamp(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	struct nb_target *t = c->t;
	uint32_t len = t->block_size > 4096 ? t->block_size : 4096;
	struct nb_rng rng;
	struct nb_file *f;
	void *buf;
	int64_t n = 0;
	int rc;

	if (s->rw == NB_RW_READ || !(t->caps & NB_CAP_BLOCK) || t->capacity < len)
		return;
	buf = nb_io_alloc(len);
	if (!buf)
		return;
	nb_rng_seed(&rng, c->seed ^ 0x5354414d50ULL);
	nb_datagen_fill(&rng, buf, len);
	nb_datagen_stamp(buf, len, 0, 0);
	rc = t->ops->fopen(t, "data", NB_F_WRITE | NB_F_DIRECT, &f);
	if (!rc) {
		n = nb_target_pio(t, f, NB_OP_WRITE, buf, len, 0, 1);
		rc = t->ops->fclose(f);
	}
	if (!rc && n != (int64_t)len)
		rc = n < 0 ? (int)n : -EIO;
	if (rc)
		nb_wl_warn(c, "the first block fio wrote could not be marked as "
			   "nasbench's (%s): the next run may take it for data "
			   "nasbench did not write", nb_err_last());
	nb_err_clear();
	free(buf);
}
