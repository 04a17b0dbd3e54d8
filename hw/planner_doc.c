/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * planner_doc.c - the plan as a document: what 'nasbench hw plan --json'
 * prints (every figure with its unit), the summary of what it assumes, and
 * reading a plan file back (nasbench report --plan).  planner.h has the
 * contract.
 */
#include "planner.h"
#include "../core/err.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

static json_t *fig(double v, const char *unit)
{
	return v < 0 ? json_null() : json_pack("{s:f, s:s}", "value", v, "unit", unit);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *nb_planner_json(const struct nb_planner_in *in, const struct nb_planner_out *o)
{
	const struct nb_pool_cap *c = &o->cap;
	const char *cur = *in->currency ? in->currency : "price";
	json_t *j = json_object();

	json_object_set_new(j, "layout", json_string(o->layout));
	json_object_set_new(j, "filesystem", json_string(o->l.zfs ? "zfs" : "mdadm"));
	json_object_set_new(j, "vdevs", json_integer(o->l.nvdevs));
	json_object_set_new(j, "vdev_width", json_integer(o->l.width));
	json_object_set_new(j, "disks", json_integer(in->pool.disks.total -
						      in->pool.spares));
	json_object_set_new(j, "spares", json_integer(in->pool.spares));
	json_object_set_new(j, "data_disks", json_real(o->data_disks));
	json_object_set_new(j, "may_fail", json_integer(o->may_fail));
	json_object_set_new(j, "may_fail_best", json_integer(o->may_fail_best));
	json_object_set_new(j, "reserve", fig(in->pool.reserve, "fraction"));
	json_object_set_new(j, "block", fig((double)c->block, "B"));
	json_object_set_new(j, "raw", fig(c->raw, "B"));
	json_object_set_new(j, "after_parity", fig(c->after_parity, "B"));
	json_object_set_new(j, "allocatable", fig(c->allocatable, "B"));
	json_object_set_new(j, "slop", fig(c->slop, "B"));
	json_object_set_new(j, "usable", fig(c->usable, "B"));
	json_object_set_new(j, "usable_at_block", fig(c->usable_block, "B"));
	json_object_set_new(j, "block_efficiency", fig(c->block_eff, "fraction"));
	json_object_set_new(j, "disks_read", fig(o->disk_read, "B/s"));
	json_object_set_new(j, "disks_write", fig(o->disk_write, "B/s"));
	json_object_set_new(j, "link", fig(o->link, "B/s"));
	json_object_set_new(j, "box", fig(in->box_mbs > 0 ? in->box_mbs * 1e6 : -1,
					  "B/s"));
	json_object_set_new(j, "seq_read", fig(o->read, "B/s"));
	json_object_set_new(j, "seq_read_limit", str_or_null(o->read_limit));
	json_object_set_new(j, "seq_write", fig(o->write, "B/s"));
	json_object_set_new(j, "seq_write_limit", str_or_null(o->write_limit));
	json_object_set_new(j, "rand_read", fig(o->rand_read, "IOPS"));
	json_object_set_new(j, "rand_read_limit", str_or_null(o->rand_read_limit));
	json_object_set_new(j, "rand_write", fig(o->rand_write, "IOPS"));
	json_object_set_new(j, "rand_write_limit", str_or_null(o->rand_write_limit));
	json_object_set_new(j, "sync_write", fig(o->sync_write, "B/s"));
	json_object_set_new(j, "sync_write_limit", str_or_null(o->sync_limit));
	json_object_set_new(j, "sync_write_slog", fig(o->sync_write_slog, "B/s"));
	json_object_set_new(j, "sync_write_slog_limit",
			    str_or_null(o->sync_write_slog < 0 ? NULL :
					o->sync_slog_limit));
	json_object_set_new(j, "price", fig(o->price_total, cur));
	json_object_set_new(j, "price_per_tb", fig(o->per_tb, cur));
	json_object_set_new(j, "price_per_mb_s_read", fig(o->per_mbs_read, cur));
	json_object_set_new(j, "price_per_mb_s_write", fig(o->per_mbs_write, cur));
	json_object_set_new(j, "price_per_iops_read", fig(o->per_iops_read, cur));
	json_object_set_new(j, "price_per_iops_write", fig(o->per_iops_write, cur));
	json_object_set_new(j, "price_per_sync_mb_s", fig(o->per_sync_mbs, cur));
	return j;
}

json_t *nb_planner_input_json(const struct nb_planner_in *in)
{
	const struct nb_pool_disks *d = &in->pool.disks;
	const char *cur = *in->currency ? in->currency : "price";
	json_t *j = json_object(), *disks = json_array();

	for (int g = 0; g < d->ngroups; g++)
		json_array_append_new(disks, json_pack("{s:i, s:o}", "count", d->n[g],
						       "size", fig((double)d->bytes[g], "B")));
	json_object_set_new(j, "disks", disks);
	json_object_set_new(j, "spares", json_integer(in->pool.spares));
	json_object_set_new(j, "disk_bw", fig(in->disk_mbs < 0 ? -1 : in->disk_mbs * 1e6,
					      "B/s"));
	json_object_set_new(j, "disk_iops", fig(in->disk_iops, "IOPS"));
	json_object_set_new(j, "throttled", json_boolean(in->throttled));
	json_object_set_new(j, "box", fig(in->box_mbs > 0 ? in->box_mbs * 1e6 : -1,
					  "B/s"));
	json_object_set_new(j, "box_io", fig(in->box_io ? (double)in->box_io : -1, "B"));
	json_object_set_new(j, "ashift", json_integer(in->pool.ashift));
	json_object_set_new(j, "recordsize", fig((double)in->pool.recordsize, "B"));
	json_object_set_new(j, "volblocksize", fig(in->pool.volblocksize ?
		(double)in->pool.volblocksize : -1, "B"));
	json_object_set_new(j, "reserve", fig(in->pool.reserve, "fraction"));
	json_object_set_new(j, "sync_io", fig((double)in->sync_io, "B"));
	json_object_set_new(j, "sync_qd", json_integer(in->sync_qd));
	json_object_set_new(j, "slog", !in->slog.present ? json_null() :
		json_pack("{s:s, s:o, s:o}", "name", in->slog.name,
			  "write", fig(in->slog.mbs * 1e6, "B/s"),
			  "sync_iops", fig(in->slog.sync_iops, "IOPS")));
	json_object_set_new(j, "nic", fig(in->nic_bps ? (double)in->nic_bps : -1,
					  "bit/s"));
	json_object_set_new(j, "link_efficiency", fig(in->efficiency, "fraction"));
	json_object_set_new(j, "paths", json_integer(in->paths > 1 ? in->paths : 1));
	json_object_set_new(j, "price_per_disk", fig(in->price, cur));
	json_object_set_new(j, "base_price", fig(in->base_price, cur));
	json_object_set_new(j, "currency", str_or_null(*in->currency ? in->currency :
						       NULL));
	return j;
}

void nb_planner_summary(FILE *f, const struct nb_planner_in *in)
{
	const struct nb_pool_disks *d = &in->pool.disks;
	char mbs[32], iops[32], sz[32];

	snprintf(mbs, sizeof(mbs), in->disk_mbs < 0 ? "unknown" : "%.0f", in->disk_mbs);
	snprintf(iops, sizeof(iops), in->disk_iops < 0 ? "unknown" : "%.0f",
		 in->disk_iops);
	for (int g = 0; g < d->ngroups; g++)
		fprintf(f, "%s%d x %s", g ? " + " : "", d->n[g],
			nb_fmt_capacity((double)d->bytes[g], 0, sz, sizeof(sz)));
	fprintf(f, " disks%s, %s MB/s and %s IOPS each%s",
		d->ngroups > 1 ? " (in this order)" : "", mbs, iops,
		in->throttled ? " (throttled)" : "");
	if (in->pool.spares)
		fprintf(f, ", the last %d a spare", in->pool.spares);
	if (in->box_mbs > 0)
		fprintf(f, ", the box itself %.1f MB/s", in->box_mbs);
	if (in->pool.reserve > 0)
		fprintf(f, ", %.0f%% of each left unused", in->pool.reserve * 100);
	fprintf(f, "\nZFS: ashift %d, %s %s", in->pool.ashift,
		in->pool.volblocksize ? "volblocksize" : "recordsize",
		nb_fmt_size(in->pool.volblocksize ? in->pool.volblocksize :
			    in->pool.recordsize, sz, sizeof(sz)));
	fprintf(f, "; sync writes of %s, %d committed together",
		nb_fmt_size(in->sync_io, sz, sizeof(sz)), in->sync_qd);
	if (in->slog.present)
		fprintf(f, "; SLOG %s (%.0f MB/s, %.0f sync writes/s)", in->slog.name,
			in->slog.mbs, in->slog.sync_iops);
	if (in->nic_bps && in->paths > 1)
		fprintf(f, "\nlink %d x %.0f Mbit/s (the I/O spread over %d paths): "
			"%.1f MB/s of payload (%.1f%% of the line rate), one sync "
			"write over one", in->paths, (double)in->nic_bps / 1e6,
			in->paths, (double)in->nic_bps / 8 * in->efficiency *
			in->paths / 1e6, in->efficiency * 100);
	else if (in->nic_bps)
		fprintf(f, "\nlink %.0f Mbit/s: %.1f MB/s of payload (%.1f%% of the "
			"line rate)", (double)in->nic_bps / 1e6,
			(double)in->nic_bps / 8 * in->efficiency / 1e6,
			in->efficiency * 100);
	else
		fprintf(f, "\nno link (local): the disks are the limit");
}

json_t *nb_planner_doc(const struct nb_planner_in *in, const struct nb_planner_out *out,
		    int n, json_t *measured)
{
	json_t *plans = json_array(), *doc;
	char *sum = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sum, &len);

	if (f) {
		nb_planner_summary(f, in);
		fclose(f);
	}
	for (int i = 0; i < n; i++)
		json_array_append_new(plans, nb_planner_json(in, &out[i]));
	doc = json_pack("{s:s, s:i, s:f, s:s, s:o, s:o, s:o}",
			"kind", NB_PLANNER_KIND, "schema", NB_PLANNER_SCHEMA,
			"link_efficiency", in->efficiency,
			"summary", sum ? sum : "", "input", nb_planner_input_json(in),
			"layouts", plans, "measured",
			measured ? json_incref(measured) : json_array());
	free(sum);
	return doc;
}

/* ---- reading back ---- */

#define OUT(m) offsetof(struct nb_planner_out, m)
#define NONE ((size_t)-1)         /* checked, not kept */
#define CUR NULL                  /* the plan's currency (or "price") */

/* Every figure nb_planner_json() writes, its unit, where it goes. */
static const struct {
	const char *key, *unit;
	size_t off;
} figs[] = {
	{ "reserve", "fraction", NONE }, { "block", "B", NONE },
	{ "raw", "B", OUT(cap.raw) }, { "after_parity", "B", OUT(cap.after_parity) },
	{ "allocatable", "B", OUT(cap.allocatable) }, { "slop", "B", OUT(cap.slop) },
	{ "usable", "B", OUT(cap.usable) },
	{ "usable_at_block", "B", OUT(cap.usable_block) },
	{ "block_efficiency", "fraction", OUT(cap.block_eff) },
	{ "disks_read", "B/s", OUT(disk_read) }, { "disks_write", "B/s", OUT(disk_write) },
	{ "link", "B/s", OUT(link) }, { "box", "B/s", NONE },
	{ "seq_read", "B/s", OUT(read) }, { "seq_write", "B/s", OUT(write) },
	{ "rand_read", "IOPS", OUT(rand_read) }, { "rand_write", "IOPS", OUT(rand_write) },
	{ "sync_write", "B/s", OUT(sync_write) },
	{ "sync_write_slog", "B/s", OUT(sync_write_slog) },
	{ "price", CUR, OUT(price_total) }, { "price_per_tb", CUR, OUT(per_tb) },
	{ "price_per_mb_s_read", CUR, OUT(per_mbs_read) },
	{ "price_per_mb_s_write", CUR, OUT(per_mbs_write) },
	{ "price_per_iops_read", CUR, OUT(per_iops_read) },
	{ "price_per_iops_write", CUR, OUT(per_iops_write) },
	{ "price_per_sync_mb_s", CUR, OUT(per_sync_mbs) },
};

/* Every limit and where it goes. */
static const struct {
	const char *key;
	size_t off;
} limits[] = {
	{ "seq_read_limit", OUT(read_limit) }, { "seq_write_limit", OUT(write_limit) },
	{ "rand_read_limit", OUT(rand_read_limit) },
	{ "rand_write_limit", OUT(rand_write_limit) },
	{ "sync_write_limit", OUT(sync_limit) },
	{ "sync_write_slog_limit", OUT(sync_slog_limit) },
};

/* KEY of J: a figure {"value": v >= 0, "unit": UNIT} or null/absent (-1). */
static int read_fig(const json_t *j, const char *key, const char *unit,
		    const char **cur, double *v)
{
	const json_t *f = json_object_get(j, key), *val;
	const char *u;

	*v = -1;
	if (!f || json_is_null(f))
		return 0;
	val = json_object_get(f, "value");
	u = json_string_value(json_object_get(f, "unit"));
	if (!json_is_object(f) || !json_is_number(val) || !u ||
	    !isfinite(json_number_value(val)) || json_number_value(val) < 0)
		return nb_err(-EINVAL, "'%s' is not a figure ({\"value\": N, "
			      "\"unit\": \"%s\"} or null)", key, unit ? unit :
			      *cur ? *cur : "EUR");
	if (!unit) {             /* prices: one currency in the whole layout */
		if (!*cur && *u && strlen(u) < 16)
			*cur = u;
		unit = *cur ? *cur : "EUR";
	}
	if (strcmp(u, unit))
		return nb_err(-EINVAL, "'%s' is in '%s', not '%s'", key, u, unit);
	*v = json_number_value(val);
	return 0;
}

static int read_int(const json_t *j, const char *key, long long max, int *v)
{
	const json_t *x = json_object_get(j, key);

	if (!json_is_integer(x) || json_integer_value(x) < 0 ||
	    json_integer_value(x) > max)
		return nb_err(-EINVAL, "'%s' is not a whole number from 0 to %lld", key,
			      max);
	*v = (int)json_integer_value(x);
	return 0;
}

int nb_planner_out_from_json(const json_t *j, struct nb_planner_out *o)
{
	static const char *const why[] = { "disks", "link", "box" };
	const char *name = json_string_value(json_object_get(j, "layout")), *cur = NULL;
	int disks;

	memset(o, 0, sizeof(*o));
	if (!json_is_object(j) || !name)
		return nb_err(-EINVAL, "not a layout (an object with \"layout\")");
	if (read_int(j, "disks", NB_POOL_MAX_DISKS, &disks) ||
	    read_int(j, "may_fail", NB_POOL_MAX_DISKS, &o->may_fail) ||
	    read_int(j, "may_fail_best", NB_POOL_MAX_DISKS, &o->may_fail_best))
		return -EINVAL;
	if (nb_pool_parse_layout(name, disks, &o->l))
		return -EINVAL;
	o->layout = o->l.name;
	o->data_disks = json_number_value(json_object_get(j, "data_disks"));
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		double v;

		if (read_fig(j, figs[i].key, figs[i].unit, &cur, &v))
			return -EINVAL;
		if (figs[i].off != NONE)
			*(double *)((char *)o + figs[i].off) = v;
	}
	o->usable_bytes = o->cap.usable;
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		const json_t *x = json_object_get(j, limits[i].key);
		const char **dst = (const char **)((char *)o + limits[i].off);
		size_t k;

		if (!x || json_is_null(x))
			continue;
		for (k = 0; k < sizeof(why) / sizeof(why[0]); k++)
			if (json_is_string(x) && !strcmp(json_string_value(x), why[k]))
				*dst = why[k];
		if (!*dst)
			return nb_err(-EINVAL, "'%s' is not disks, link, box or null",
				      limits[i].key);
	}
	return 0;
}

int nb_planner_load(const char *path, json_t **out)
{
	json_error_t e;
	json_t *doc = json_load_file(path, 0, &e), *layouts, *l;
	const char *kind;
	struct nb_planner_out o;
	size_t i;

	*out = NULL;
	if (!doc) {
		if (e.line < 1 || strstr(e.text, "unable to open"))
			return nb_err(-ENOENT, "cannot read '%s': %s", path, e.text);
		return nb_err(-EINVAL, "'%s' is not valid JSON (line %d, column %d: %s)",
			      path, e.line, e.column, e.text);
	}
	kind = json_string_value(json_object_get(doc, "kind"));
	layouts = json_object_get(doc, "layouts");
	if (!kind || strcmp(kind, NB_PLANNER_KIND)) {
		json_decref(doc);
		return nb_err(-EINVAL, "'%s' is not a plan (make one with 'nasbench "
			      "hw plan ... --json > FILE')", path);
	}
	if (json_integer_value(json_object_get(doc, "schema")) > NB_PLANNER_SCHEMA) {
		long long v = (long long)json_integer_value(json_object_get(doc, "schema"));

		json_decref(doc);
		return nb_err(-EINVAL, "'%s' has plan schema %lld, newer than this "
			      "nasbench reads (%d): upgrade nasbench", path, v,
			      NB_PLANNER_SCHEMA);
	}
	if (!json_array_size(layouts)) {
		json_decref(doc);
		return nb_err(-EINVAL, "'%s' is a plan without layouts", path);
	}
	json_array_foreach(layouts, i, l)
		if (nb_planner_out_from_json(l, &o)) {
			json_decref(doc);
			return nb_err_prefix("'%s': layout %zu", path, i + 1), -EINVAL;
		}
	if (json_object_get(doc, "summary") &&
	    !json_is_string(json_object_get(doc, "summary"))) {
		json_decref(doc);
		return nb_err(-EINVAL, "'%s': 'summary' is not a string", path);
	}
	*out = doc;
	return 0;
}
