/* SPDX-License-Identifier: GPL-2.0-or-later */
/* load.c - a box's load in memory (loadfile.h): its VMs, pools, series. */
#include "loadfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const nb_load_nfs_ops[NB_NFS_N] = {
	"read", "write", "commit", "getattr", "lookup", "access", "other",
};

void nb_load_init(struct nb_load *l)
{
	memset(l, 0, sizeof(*l));
	l->busy_pct = 95;
	l->complete = 1;
	l->total.peak_bucket = -1;
	l->data.compressratio = l->data.dedupratio = l->data.arc_hit = NAN;
	l->data.arc_size = l->data.arc_max = NAN;
}

void nb_load_free(struct nb_load *l)
{
	for (int i = 0; i < l->nvms; i++)
		free(l->vms[i].series);
	free(l->vms);
	free(l->pools);
	memset(l, 0, sizeof(*l));
}

int nb_load_busy_need(double p)
{
	return p >= 100 ? 1 : (int)ceil(1.0 / (1.0 - p / 100.0) - 1e-9);
}

struct nb_load_vm *nb_load_add_vm(struct nb_load *l, const char *name)
{
	struct nb_load_vm *v;

	if (l->nvms >= NB_LOAD_MAX_VMS)
		return NULL;
	v = realloc(l->vms, (size_t)(l->nvms + 1) * sizeof(*v));
	if (!v)
		return NULL;
	l->vms = v;
	v += l->nvms++;
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->count = 1;
	v->share = -1;
	v->sequential = -1;
	v->f.peak_bucket = -1;
	return v;
}

struct nb_load_pool *nb_load_add_pool(struct nb_load *l, const char *name)
{
	struct nb_load_pool *p;

	if (l->npools >= 256)
		return NULL;
	p = realloc(l->pools, (size_t)(l->npools + 1) * sizeof(*p));
	if (!p)
		return NULL;
	l->pools = p;
	p += l->npools++;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->f.peak_bucket = -1;
	p->aggregated = -1;
	return p;
}

int nb_load_series(struct nb_load_vm *vm, int n)
{
	struct nb_load_bucket *b = calloc(n > 0 ? (size_t)n : 1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	free(vm->series);
	vm->series = b;
	vm->nbuckets = n;
	return 0;
}

struct nb_load_vm *nb_load_vm_find(const struct nb_load *l, const char *name)
{
	for (int i = 0; i < l->nvms; i++)
		if (!strcmp(l->vms[i].name, name))
			return &l->vms[i];
	return NULL;
}

int nb_load_population(const struct nb_load *l)
{
	int n = 0;

	for (int i = 0; i < l->nvms; i++)
		n += l->vms[i].count;
	return n;
}
