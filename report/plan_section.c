/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan_section.c - the report's Plan section: a plan file of 'nasbench hw
 * plan --json' (read and checked by hw/, held against the report's results
 * there: cmd/report.c joins the two) as paragraphs and tables, the layouts
 * side by side and the measured figures beside the expected ones.
 */
#include "model.h"
#include "../core/result.h"
#include "../core/units.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nb_report_plan(struct nb_report *r, json_t *plan, const char *path)
{
	json_decref(r->plan);
	r->plan = json_incref(plan);
	r->plan_path = path;
}

/* KEY of layout L: its value and unit; 0 when unknown (null). */
static int fig(const json_t *l, const char *key, double *v, const char **unit)
{
	const json_t *f = json_object_get(l, key);

	if (!json_is_object(f))
		return 0;
	*v = json_number_value(json_object_get(f, "value"));
	*unit = nb_jstr(f, "unit");
	return 1;
}

/* "117.7 MB/s", "147 IOPS", "11.84 TB", "400.00 EUR" */
static void fmt(char *b, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "B/s"))
		snprintf(b, len, "%.1f MB/s", v / 1e6);
	else if (!strcmp(unit, "IOPS"))
		snprintf(b, len, "%.0f IOPS", v);
	else if (!strcmp(unit, "B"))
		nb_fmt_capacity(v, 0, b, len);
	else if (!strcmp(unit, "fraction"))
		snprintf(b, len, "%.1f%%", v * 100);
	else                     /* a price: the currency, or "price" for none */
		nb_fmt_money(v, strcmp(unit, "price") ? unit : "", b, len);
}

/* A cell: the figure KEY, then its limit LIM when it is given and either
 * ALWAYS or not "disks" (as hw plan's table does). */
static json_t *cell(const json_t *l, const char *key, const char *lim, int always)
{
	const char *unit, *why = lim ? nb_jstr(l, lim) : "";
	char b[96];
	double v;

	if (!fig(l, key, &v, &unit))
		return json_string("unknown");
	fmt(b, sizeof(b), v, unit);
	if (*why && (always || strcmp(why, "disks")))
		snprintf(b + strlen(b), sizeof(b) - strlen(b), ", %s", why);
	return json_string(b);
}

static json_t *c_vdevs(const json_t *l)
{
	char b[64];

	if (!strcmp(nb_jstr(l, "filesystem"), "mdadm"))
		snprintf(b, sizeof(b), "md of %lld",
			 (long long)json_integer_value(json_object_get(l, "disks")));
	else
		snprintf(b, sizeof(b), "%lld x %lld",
			 (long long)json_integer_value(json_object_get(l, "vdevs")),
			 (long long)json_integer_value(json_object_get(l, "vdev_width")));
	return json_string(b);
}

static json_t *c_data(const json_t *l)
{
	double d = json_number_value(json_object_get(l, "data_disks"));
	char b[32];

	snprintf(b, sizeof(b), d == floor(d) ? "%.0f" : "%.1f", d);
	return json_string(b);
}

static json_t *c_fail(const json_t *l)
{
	json_int_t f = json_integer_value(json_object_get(l, "may_fail"));
	json_int_t best = json_integer_value(json_object_get(l, "may_fail_best"));
	char b[48];

	if (best > f)
		snprintf(b, sizeof(b), "%lld (up to %lld)", (long long)f, (long long)best);
	else
		snprintf(b, sizeof(b), "%lld", (long long)f);
	return json_string(b);
}

/* KEY in TB and TiB */
static json_t *tb_tib(const json_t *l, const char *key)
{
	char b[64], tb[32], tib[32];
	const char *unit;
	double v;

	if (!fig(l, key, &v, &unit))
		return json_string("unknown");
	snprintf(b, sizeof(b), "%s (%s)", nb_fmt_capacity(v, 0, tb, sizeof(tb)),
		 nb_fmt_capacity(v, 1, tib, sizeof(tib)));
	return json_string(b);
}

static json_t *c_usable(const json_t *l)
{
	return tb_tib(l, "usable");
}

static json_t *c_block(const json_t *l)
{
	return tb_tib(l, "usable_at_block");
}

static json_t *c_disks(const json_t *l)
{
	const char *unit;
	double r, w;
	char b[64];

	if (!fig(l, "disks_read", &r, &unit) || !fig(l, "disks_write", &w, &unit))
		return json_string("unknown");
	snprintf(b, sizeof(b), "%.0f / %.0f MB/s", r / 1e6, w / 1e6);
	return json_string(b);
}

static json_t *c_slog(const json_t *l)
{
	if (!strcmp(nb_jstr(l, "filesystem"), "mdadm"))
		return json_string("-");
	return cell(l, "sync_write_slog", "sync_write_slog_limit", 0);
}

/* The rows of the layouts table: a label and either a figure (KEY, its
 * limit LIM) or a cell function; a row of figures none of the layouts has
 * is left out. */
static const struct {
	const char *label, *key, *lim;
	int always;
	json_t *(*fn)(const json_t *l);
} rows[] = {
	{ "raw", "raw", NULL, 0, NULL },
	{ "after parity", "after_parity", NULL, 0, NULL },
	{ "usable (zfs list)", "usable", NULL, 0, c_usable },
	{ "data at the block size", "usable_at_block", NULL, 0, c_block },
	{ "vdevs x disks", NULL, NULL, 0, c_vdevs },
	{ "data disks", NULL, NULL, 0, c_data },
	{ "disks may fail", NULL, NULL, 0, c_fail },
	{ "seq read (seq*-read)", "seq_read", "seq_read_limit", 1, NULL },
	{ "seq write (seq*-write)", "seq_write", "seq_write_limit", 1, NULL },
	{ "disks alone read / write", "disks_read", NULL, 0, c_disks },
	{ "rand read (rand4k-read)", "rand_read", "rand_read_limit", 0, NULL },
	{ "rand write (rand4k-write)", "rand_write", "rand_write_limit", 0, NULL },
	{ "sync write, no SLOG (seq*-write-sync)", "sync_write", "sync_write_limit", 0,
	  NULL },
	{ "sync write, SLOG", "sync_write_slog", NULL, 0, c_slog },
	{ "price", "price", NULL, 0, NULL },
	{ "per usable TB", "price_per_tb", NULL, 0, NULL },
	{ "per MB/s read", "price_per_mb_s_read", NULL, 0, NULL },
	{ "per MB/s write", "price_per_mb_s_write", NULL, 0, NULL },
	{ "per read IOPS", "price_per_iops_read", NULL, 0, NULL },
	{ "per write IOPS", "price_per_iops_write", NULL, 0, NULL },
	{ "per sync MB/s", "price_per_sync_mb_s", NULL, 0, NULL },
};

static json_t *layouts_table(const json_t *plan)
{
	const json_t *ls = json_object_get(plan, "layouts"), *l;
	json_t *head = json_array(), *body = json_array();
	const char *slog = nb_jstr(json_object_get(json_object_get(plan, "input"),
						   "slog"), "name");
	double block = json_number_value(json_object_get(json_object_get(
		json_array_get(ls, 0), "block"), "value"));
	char sz[32];
	size_t i;

	json_array_append_new(head, json_string(""));
	json_array_foreach(ls, i, l)
		json_array_append_new(head, json_string(nb_jstr(l, "layout")));
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		json_t *row;
		int any = !rows[r].key;
		char label[128];

		if (rows[r].fn == c_block && (block == 131072 || block < 1 ||
					      block > 1e15))
			continue;        /* as hw plan: only at another block size */
		row = json_array();
		snprintf(label, sizeof(label), "%s", rows[r].label);
		if (rows[r].fn == c_block)
			snprintf(label, sizeof(label), "data at %s blocks",
				 nb_fmt_size((uint64_t)block, sz, sizeof(sz)));
		if (rows[r].fn == c_slog && *slog)
			snprintf(label, sizeof(label), "sync write, SLOG %s", slog);
		json_array_append_new(row, json_string(label));
		json_array_foreach(ls, i, l) {
			any |= json_is_object(json_object_get(l, rows[r].key));
			json_array_append_new(row, rows[r].fn ? rows[r].fn(l) :
					      cell(l, rows[r].key, rows[r].lim,
						   rows[r].always));
		}
		if (any)
			json_array_append_new(body, row);
		else
			json_decref(row);
	}
	return json_pack("{s:o, s:o}", "head", head, "rows", body);
}

/* One measured figure's value in its unit: "75.5 MB/s", "145 IOPS". */
static void value_of(char *b, size_t len, const json_t *f)
{
	double v = json_number_value(json_object_get(f, "value"));

	fmt(b, len, v, nb_jstr(f, "unit"));
}

static json_t *measured_table(const json_t *plan, json_t *notes)
{
	json_t *head = json_pack("[s, s, s, s, s, s, s, s]", "result", "layout",
				 "target", "workload", "measured", "expected",
				 "share", "flag");
	json_t *body = json_array(), *m, *f;
	size_t i, j;

	json_array_foreach(json_object_get(plan, "measured"), i, m) {
		const char *p = nb_jstr(m, "file"), *base = strrchr(p, '/');
		char file[300];

		snprintf(file, sizeof(file), "%s%s", base ? base + 1 : p,
			 json_is_true(json_object_get(m, "published")) ?
			 " (published)" : "");
		if (*nb_jstr(m, "note")) {
			char note[600];

			snprintf(note, sizeof(note), "%s: %s.", file, nb_jstr(m, "note"));
			json_array_append_new(notes, json_pack("{s:s}", "para", note));
		}
		json_array_foreach(json_object_get(m, "figures"), j, f) {
			const json_t *e = json_object_get(f, "expected");
			const char *flag = nb_jstr(f, "flag"), *lim = nb_jstr(f, "limit");
			char ms[64], xs[80], sh[16];

			value_of(ms, sizeof(ms), json_object_get(f, "measured"));
			if (json_is_object(e)) {
				value_of(xs, sizeof(xs), e);
				if (*lim)
					snprintf(xs + strlen(xs), sizeof(xs) - strlen(xs),
						 ", %s", lim);
				snprintf(sh, sizeof(sh), "%.0f%%", 100 *
					 json_number_value(json_object_get(f, "share")));
			} else {
				snprintf(xs, sizeof(xs), "unknown");
				snprintf(sh, sizeof(sh), "-");
			}
			json_array_append_new(body, json_pack("[s, s, s, s, s, s, s, o]",
				file, nb_jstr(m, "layout"), nb_jstr(f, "target"),
				nb_jstr(f, "what"), ms, xs, sh, *flag ?
				json_pack("{s:s, s:s}", "text", flag, "class", "worse") :
				json_string("")));
		}
	}
	return json_pack("{s:o, s:o}", "head", head, "rows", body);
}

json_t *nb_report_plan_parts(const json_t *plan, const char *path)
{
	json_t *parts = json_array(), *notes = json_array(), *t, *m;
	const char *sum = nb_jstr(plan, "summary"), *base = strrchr(path, '/');
	double over = 0, sync_over = 0;
	char buf[1024];
	size_t i;

	snprintf(buf, sizeof(buf), "What each layout should give, from %s ('nasbench "
		 "hw plan --json'): the lower of what the disks, the link and the "
		 "box give, the limit named beside the sequential figures (and the "
		 "others where it is not the disks).", base ? base + 1 : path);
	json_array_append_new(parts, json_pack("{s:s}", "para", buf));
	while (*sum) {           /* the plan's assumptions, a line each */
		size_t n = strcspn(sum, "\n");

		snprintf(buf, sizeof(buf), "%.*s", (int)n, sum);
		json_array_append_new(parts, json_pack("{s:s}", "para", buf));
		sum += n + (sum[n] == '\n');
	}
	json_array_append_new(parts, json_pack("{s:o}", "table", layouts_table(plan)));

	json_array_append_new(parts, json_pack("{s:s}", "caption",
					       "Measured against the plan"));
	json_array_foreach(json_object_get(plan, "measured"), i, m) {
		over = json_number_value(json_object_get(m, "over"));
		sync_over = json_number_value(json_object_get(m, "sync_over"));
	}
	t = measured_table(plan, notes);
	if (!json_array_size(json_object_get(t, "rows"))) {
		json_decref(t);
		json_decref(notes);
		json_array_append_new(parts, json_pack("{s:s}", "para",
			"None of the results has a figure the plan has an estimate "
			"for (seq*-read, seq*-write, seq*-write-sync, rand*-read, "
			"rand*-write, bonnie's block phases)."));
		return parts;
	}
	snprintf(buf, sizeof(buf), "Each result's median beside the expectation "
		 "for its layout label; share = measured / expected.  Over "
		 "%.0f%% of a ceiling is flagged (the disks and the link cannot "
		 "give it: a cache or compression did); a sync write over %.0f%% "
		 "of its estimate too (the model is good to a factor of 2).",
		 over * 100, sync_over * 100);
	json_array_append_new(parts, json_pack("{s:s}", "para", buf));
	json_array_append_new(parts, json_pack("{s:o}", "table", t));
	json_array_extend(parts, notes);
	json_decref(notes);
	return parts;
}
