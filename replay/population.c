/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * population.c - a load file's population as open-loop sources (population.h,
 *            docs/replay.md).
 */
#include "population.h"
#include "../core/err.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- scales ------------------------------------------------------------- */

static int scale_entry(const char *s, void *arg, double *out)
{
	char *end;
	double v;

	(void)arg;
	v = strtod(s, &end);
	if (end == s || !(v > 0) || v > NB_REPLAY_MAX_SCALE)
		return -EINVAL;
	if ((*end == 'x' || *end == 'X') && !end[1])
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int nb_replay_scales_parse(const char *s, double *list, size_t *n)
{
	static const struct nb_rising how = {
		.what = "scales",
		.give = "rising multiples of the captured load above 0 "
			"(1,1.25,1.5,2 or 1x,2x)",
		.entry = scale_entry,
	};

	return nb_parse_rising(s, list, NB_REPLAY_SCALES, n, &how);
}

int nb_replay_scales_check(const char *s)
{
	double list[NB_REPLAY_SCALES];
	size_t n;

	return nb_replay_scales_parse(s, list, &n);
}

/* ---- the population ----------------------------------------------------- */

void nb_replay_pop_free(struct nb_replay_pop *pop)
{
	free(pop->vms);
	free(pop->src);
	free(pop->src_vm);
	memset(pop, 0, sizeof(*pop));
}

int nb_replay_has_bucket(const struct nb_load *l, int bucket)
{
	if (bucket < 0 || !l->nvms)
		return 0;
	for (int i = 0; i < l->nvms; i++)
		if (!l->vms[i].series || l->vms[i].nbuckets <= bucket)
			return 0;
	return 1;
}

/* BYTES as a request of whole ALIGN blocks (at least one). */
static uint32_t rounded(double bytes, uint32_t align)
{
	double b = llround(bytes / align) * (double)align;

	return b < align ? align : b > NB_REPLAY_MAX_BS ? NB_REPLAY_MAX_BS + align :
	       (uint32_t)b;
}

/* VM V's rate and read share at LEVEL, its sizes and pattern. */
static int vm_level(const struct nb_load_vm *v, const char *name, int level,
		    uint32_t align, struct nb_replay_vm *o)
{
	double br = v->f.bs_read > 0 ? v->f.bs_read : v->f.bs_write;
	double bw = v->f.bs_write > 0 ? v->f.bs_write : v->f.bs_read;
	long seq = lround(v->sequential);

	o->count = v->count;
	if (level == NB_REPLAY_BUSY) {
		o->iops = v->f.iops;
		o->read_pct = v->f.read;
	} else {
		const struct nb_load_bucket *b;
		double all;

		if (!v->series || v->nbuckets <= level)
			return nb_err(-EINVAL, "load '%s': VM '%s' has no bucket %d "
				      "in its series", name, v->name, level);
		b = &v->series[level];
		all = b->r_iops + b->w_iops;
		o->iops = all > 0 ? all : 0;
		o->read_pct = all > 0 ? 100 * b->r_iops / all : v->f.read;
	}
	if (!(o->iops >= 0) || isnan(o->read_pct))
		o->iops = 0, o->read_pct = 0;
	o->bs = rounded(br > 0 ? br : align, align);
	o->bs_write = rounded(bw > 0 ? bw : align, align);
	if (o->iops > 0 && (o->bs > NB_REPLAY_MAX_BS || o->bs_write > NB_REPLAY_MAX_BS))
		return nb_err(-EINVAL, "load '%s': VM '%s' has requests of %.0f "
			      "bytes, more than the %u nasbench replays", name,
			      v->name, br > bw ? br : bw, NB_REPLAY_MAX_BS);
	o->pattern = seq >= 100 ? NB_PAT_SEQ : NB_PAT_RAND;
	o->rand_pct = seq <= 0 || seq >= 100 ? 0 : (int)(100 - seq);
	return 0;
}

/* Each VM's fraction of the data set: its share; VMs of no known share
 * split what the known leave (or, when they leave nothing, each gets
 * the known VMs' mean). */
static void shares(const struct nb_load *l, struct nb_replay_vm *vms)
{
	double known = 0, w = 0;
	long nknown = 0, nunknown = 0;

	for (int i = 0; i < l->nvms; i++) {
		if (l->vms[i].share >= 0) {
			known += l->vms[i].share * l->vms[i].count;
			nknown += l->vms[i].count;
		} else {
			nunknown += l->vms[i].count;
		}
	}
	for (int i = 0; i < l->nvms; i++) {
		double s = l->vms[i].share;

		if (s < 0)
			s = !nknown ? 1 : known < 100 ? (100 - known) / nunknown :
			    known / nknown;
		vms[i].share = s;
		w += s * l->vms[i].count;
	}
	for (int i = 0; i < l->nvms; i++)
		vms[i].share = w > 0 ? vms[i].share / w : 1.0 / l->nvms;
}

/* The data set in which every VM that issues I/O at its level gets
 * NB_REPLAY_MIN_BLOCKS of its largest requests. */
static uint64_t size_needed(const struct nb_replay_pop *p)
{
	double need = 0;

	for (int i = 0; i < p->nvms; i++) {
		const struct nb_replay_vm *v = &p->vms[i];
		uint32_t big = v->bs > v->bs_write ? v->bs : v->bs_write;
		double n = (double)(NB_REPLAY_MIN_BLOCKS * big + 2 * p->align) /
			   (v->share > 0 ? v->share : 1e-12);

		if (v->iops > 0 && n > need)
			need = n;
	}
	return (uint64_t)ceil(need / (1 << 20)) << 20;
}

static int too_small(const struct nb_replay_pop *p, const char *name, int i,
		     const struct nb_load *l, uint64_t got)
{
	const struct nb_replay_vm *v = &p->vms[i];
	uint32_t big = v->bs > v->bs_write ? v->bs : v->bs_write;
	char a[32], b[32], c[32], d[32];

	return nb_err(-EINVAL, "the load does not fit: in a data set of %s, VM "
		      "'%s' of '%s' (%.3g%% of the data) gets %s, fewer than %d of "
		      "its %s requests; give a data set of at least %s (--size), "
		      "or edit the shares", nb_fmt_size(p->size, a, sizeof(a)),
		      l->vms[i].name, name, 100 * v->share,
		      nb_fmt_size(got, b, sizeof(b)), NB_REPLAY_MIN_BLOCKS,
		      nb_fmt_size(big, c, sizeof(c)),
		      nb_fmt_size(size_needed(p), d, sizeof(d)));
}

/* Where the region at fraction CUM of the data set begins: the nearest
 * block (regions of equal shares that divide the data set are equal). */
static uint64_t at(const struct nb_replay_pop *p, double cum)
{
	uint64_t end = p->size / p->align * p->align;
	uint64_t a = (uint64_t)llround(cum * (double)p->size / p->align) * p->align;

	return a > end ? end : a;
}

/* The sources: the VMs that issue I/O, each over its region. */
static int layout(struct nb_replay_pop *p, const struct nb_load *l,
		  const char *name)
{
	double cum = 0, wr = 0, ws = 0, wb = 0;
	uint32_t k = 0;

	for (int i = 0; i < p->nvms; i++) {
		const struct nb_replay_vm *v = &p->vms[i];

		for (int j = 0; j < v->count; j++, cum += v->share) {
			uint64_t a = at(p, cum), b = at(p, cum + v->share);
			struct nb_source *s = &p->src[k];

			if (!j) {
				p->vms[i].base = a;
				p->vms[i].region = b - a;
			}
			if (!(v->iops > 0))
				continue;
			if (b < a + (uint64_t)NB_REPLAY_MIN_BLOCKS *
				    (v->bs > v->bs_write ? v->bs : v->bs_write))
				return too_small(p, name, i, l, b > a ? b - a : 0);
			*s = (struct nb_source){
				.rate = v->iops, .read_pct = (int)lround(v->read_pct),
				.pattern = v->pattern, .rand_pct = v->rand_pct,
				.bs = v->bs, .bs_write = v->bs_write, .base = a,
				.size = b - a };
			s->rw = s->read_pct >= 100 ? NB_RW_READ : s->read_pct <= 0 ?
				NB_RW_WRITE : NB_RW_MIX;
			p->src_vm[k++] = i;
			p->iops += v->iops;
			wr += v->iops * v->read_pct;
			ws += v->iops * (v->pattern == NB_PAT_SEQ ? 100 :
					 v->rand_pct ? 100 - v->rand_pct : 0);
			wb += v->iops * (v->read_pct / 100 * v->bs +
					 (1 - v->read_pct / 100) * v->bs_write);
			if (v->bs > p->bs_max)
				p->bs_max = v->bs;
			if (v->bs_write > p->bs_max)
				p->bs_max = v->bs_write;
		}
	}
	p->nsrc = k;
	p->read_pct = p->iops > 0 ? wr / p->iops : 0;
	p->seq_pct = p->iops > 0 ? ws / p->iops : 0;
	p->mean_bytes = p->iops > 0 ? wb / p->iops : 0;
	return 0;
}

static const char *level_name(int level, char *buf, size_t len)
{
	if (level == NB_REPLAY_BUSY)
		snprintf(buf, len, "its busiest hour");
	else
		snprintf(buf, len, "bucket %d", level);
	return buf;
}

int nb_replay_population(const struct nb_load *l, const char *name, int level,
			 uint64_t size, uint32_t align, struct nb_replay_pop *p)
{
	long pop = 0;
	char lv[48];
	int rc;

	memset(p, 0, sizeof(*p));
	p->level = level;
	p->align = align < 512 ? 512 : align;
	p->size = size;
	p->nvms = l->nvms;
	for (int i = 0; i < l->nvms; i++)
		pop += l->vms[i].count;
	if (!l->nvms || pop > NB_REPLAY_MAX_VMS)
		return nb_err(-EINVAL, "load '%s': %ld VMs: nasbench replays 1 to "
			      "%d", name, pop, NB_REPLAY_MAX_VMS);
	p->population = (uint32_t)pop;
	p->vms = calloc((size_t)l->nvms, sizeof(*p->vms));
	p->src = calloc((size_t)pop, sizeof(*p->src));
	p->src_vm = calloc((size_t)pop, sizeof(*p->src_vm));
	if (!p->vms || !p->src || !p->src_vm)
		return nb_err(-ENOMEM, "out of memory for %ld VMs", pop);
	for (int i = 0; i < l->nvms; i++) {
		rc = vm_level(&l->vms[i], name, level, p->align, &p->vms[i]);
		if (rc)
			return rc;
	}
	shares(l, p->vms);
	rc = layout(p, l, name);
	if (rc)
		return rc;
	p->idle = p->population - p->nsrc;
	if (!p->nsrc)
		return nb_err(-EINVAL, "load '%s': no VM issues I/O at %s", name,
			      level_name(level, lv, sizeof(lv)));
	return 0;
}
