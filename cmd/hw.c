/*
 * hw.c - 'nasbench hw': the hardware inventory of this machine, and
 * 'nasbench hw plan': what disks in a layout behind a link should give.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../core/units.h"
#include "../hw/inventory.h"
#include "../hw/plan.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char cmd_hw_usage[] =
	"usage: nasbench hw [--json] [-o FILE]\n"
	"       nasbench hw plan --disks NxSIZE [options]\n"
	"\n"
	"nasbench hw lists what this machine is: CPU, memory, disks, NICs, OS and\n"
	"hypervisor, read from /proc and /sys (unknown where unreadable).  Run it on\n"
	"the box with --json and give the file to 'nasbench run --box-hw FILE'.\n"
	"\n"
	"  --json              the inventory as JSON\n"
	"  -o, --output FILE   write the JSON to FILE\n"
	"\n"
	"nasbench hw plan sets layouts side by side: usable capacity, disks that may\n"
	"fail, sequential ceilings (disks vs the link's payload), random IOPS, cost.\n"
	"\n"
	"  --disks NxSIZE      the disks, e.g. 5x3TB, 10x500GB (required)\n"
	"  --layout A,B,...    stripe, mirror, raid10, raidz1, raidz2, raidz3, raid5,\n"
	"                      raid6 (default: every layout the disks allow)\n"
	"  --disk-mbs N        sequential MB/s of one disk\n"
	"  --disk-iops N       random IOPS of one disk\n"
	"  --price N           price of one disk\n"
	"  --base-price N      the rest of the box (chassis, RAM, HBA), default 0\n"
	"  --nic RATE          the link: 1gbit, 10gbit, 800mbit (default: none, local)\n"
	"  --mtu N             the link's MTU (default 1500)\n"
	"  --efficiency PCT    payload share of the line rate (default from the MTU:\n"
	"                      94.1% at 1500)\n"
	"  --reserve PCT       over-provisioning: share of each disk left unused\n"
	"  --result FILE       a result of this box: measured beside expected\n"
	"                      (repeatable)\n"
	"  --json              the plan as JSON\n"
	"\n"
	"Exit status: 0 ok, 2 usage error (unknown layout, too few disks, a bad\n"
	"size or price, an unreadable --result file), 3 the output cannot be written.\n";

static int usage_error(void)
{
	nb_die_msg("%s", nb_err_last());
	return NB_EXIT_USAGE;
}

/* ---- nasbench hw ---- */

static int hw_inventory(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	int json = 0, c, rc = NB_EXIT_OK;
	json_t *inv;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", lo, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else if (c == 'o')
			output = optarg;
		else if (c == ':')
			return nb_err_set("option '%s' needs a value", argv[optind - 1]),
			       usage_error();
		else
			return nb_opts_unknown("hw", argv[optind - 1], lo),
			       usage_error();
	}
	if (optind < argc)
		return nb_err_set("unexpected argument '%s' (see 'nasbench help hw')",
				  argv[optind]), usage_error();
	inv = nb_hw_inventory(NULL);
	if (!inv) {
		nb_die_msg("out of memory");
		return NB_EXIT_TARGET;
	}
	if (output) {
		if (nb_result_write(inv, output)) {
			nb_die_msg("%s", nb_err_last());
			rc = NB_EXIT_TARGET;
		}
	} else if (json) {
		char *s = nb_result_dump(inv);

		puts(s ? s : "{}");
		free(s);
	}
	if (!json && !output)
		nb_hw_print(stdout, inv);
	json_decref(inv);
	return rc;
}

/* ---- nasbench hw plan ---- */

#define MAX_LAYOUTS 16
#define MAX_RESULTS 8

struct plan_opts {
	struct nb_plan_in in;
	const char *layouts[MAX_LAYOUTS];
	int nlayouts;
	char layout_buf[512];
	const char *results[MAX_RESULTS];
	int nresults;
	int json;
	const char *disks;
};

enum { P_DISKS = 256, P_LAYOUT, P_MBS, P_IOPS, P_PRICE, P_BASE, P_NIC, P_MTU,
       P_EFF, P_RESERVE, P_RESULT, P_JSON };

/* A number option: STRICT more than 0, else 0 or more. */
static int number_opt(const char *opt, const char *v, int strict, double *out)
{
	if (nb_parse_double(v, out))
		return nb_err(-EINVAL, "%s: invalid number '%s'", opt, v);
	if (strict ? *out <= 0 : *out < 0)
		return nb_err(-EINVAL, "%s: must be %s, not '%s'", opt,
			      strict ? "more than 0" : "0 or more", v);
	return 0;
}

static int split_layouts(struct plan_opts *o, const char *v)
{
	char *save = NULL, *tok;

	snprintf(o->layout_buf, sizeof(o->layout_buf), "%s", v);
	o->nlayouts = 0;
	for (tok = strtok_r(o->layout_buf, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		if (o->nlayouts == MAX_LAYOUTS)
			return nb_err(-EINVAL, "--layout: at most %d layouts",
				      MAX_LAYOUTS);
		o->layouts[o->nlayouts++] = tok;
	}
	if (!o->nlayouts)
		return nb_err(-EINVAL, "--layout: no layout given (layouts: %s)",
			      nb_plan_layouts());
	return 0;
}

static int plan_option(struct plan_opts *o, int c, const char *v)
{
	double pct;
	uint64_t u;

	switch (c) {
	case P_DISKS:
		o->disks = v;
		return nb_plan_parse_disks(v, &o->in.ndisks, &o->in.disk_bytes,
					   NULL, 0) ? nb_err_prefix("--disks"), -EINVAL : 0;
	case P_LAYOUT: return split_layouts(o, v);
	case P_MBS: return number_opt("--disk-mbs", v, 1, &o->in.disk_mbs);
	case P_IOPS: return number_opt("--disk-iops", v, 1, &o->in.disk_iops);
	case P_PRICE: return number_opt("--price", v, 0, &o->in.price);
	case P_BASE: return number_opt("--base-price", v, 0, &o->in.base_price);
	case P_NIC:
		if (!strcasecmp(v, "none") || !strcasecmp(v, "local")) {
			o->in.nic_bps = 0;
			return 0;
		}
		return nb_parse_rate(v, &o->in.nic_bps) ?
		       nb_err_prefix("--nic"), -EINVAL : 0;
	case P_MTU:
		if (nb_parse_uint(v, 576, 65535, &u))
			return nb_err_prefix("--mtu"), -EINVAL;
		o->in.efficiency = nb_plan_efficiency((int)u);
		return 0;
	case P_EFF:
		if (nb_parse_percent(v, &pct) || pct <= 0 || pct > 100)
			return nb_err(-EINVAL, "--efficiency: expected a percentage "
				      "above 0 and up to 100, not '%s'", v);
		o->in.efficiency = pct / 100;
		return 0;
	case P_RESERVE:
		if (nb_parse_percent(v, &pct) || pct < 0 || pct >= 100)
			return nb_err(-EINVAL, "--reserve: expected a percentage "
				      "from 0 to below 100, not '%s'", v);
		o->in.reserve = pct / 100;
		return 0;
	case P_RESULT:
		if (o->nresults == MAX_RESULTS)
			return nb_err(-EINVAL, "--result: at most %d files", MAX_RESULTS);
		o->results[o->nresults++] = v;
		return 0;
	case P_JSON:
		o->json = 1;
		return 0;
	}
	return -EINVAL;
}

static int plan_args(struct plan_opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "disks", required_argument, NULL, P_DISKS },
		{ "layout", required_argument, NULL, P_LAYOUT },
		{ "disk-mbs", required_argument, NULL, P_MBS },
		{ "disk-iops", required_argument, NULL, P_IOPS },
		{ "price", required_argument, NULL, P_PRICE },
		{ "base-price", required_argument, NULL, P_BASE },
		{ "nic", required_argument, NULL, P_NIC },
		{ "mtu", required_argument, NULL, P_MTU },
		{ "efficiency", required_argument, NULL, P_EFF },
		{ "reserve", required_argument, NULL, P_RESERVE },
		{ "result", required_argument, NULL, P_RESULT },
		{ "json", no_argument, NULL, P_JSON },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->in.disk_mbs = o->in.disk_iops = o->in.price = -1;
	o->in.efficiency = nb_plan_efficiency(1500);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", lo, NULL)) != -1) {
		if (c == ':')
			return nb_err(-EINVAL, "option '%s' needs a value",
				      argv[optind - 1]);
		if (c == '?')
			return nb_opts_unknown("hw", argv[optind - 1], lo);
		if (plan_option(o, c, optarg))
			return -EINVAL;
	}
	if (optind < argc)
		return nb_err(-EINVAL, "unexpected argument '%s'", argv[optind]);
	if (!o->disks)
		return nb_err(-EINVAL, "--disks is required (e.g. --disks 5x3TB)");
	return 0;
}

/* Every layout, or the ones the disks allow when none was named. */
static int compute_all(struct plan_opts *o, struct nb_plan_out *out, int *n)
{
	static const char *const all[] = { "stripe", "mirror", "raid10", "raidz1",
					   "raidz2", "raidz3", "raid5", "raid6" };

	*n = 0;
	if (o->nlayouts) {
		for (int i = 0; i < o->nlayouts; i++)
			if (nb_plan_compute(&o->in, o->layouts[i], &out[(*n)++]))
				return -EINVAL;
		return 0;
	}
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!nb_plan_compute(&o->in, all[i], &out[*n]))
			(*n)++;
	nb_err_clear();
	return 0;
}

/* ---- the table ---- */

static void cell_num(char *b, size_t len, double v, const char *fmt)
{
	if (v < 0)
		snprintf(b, len, "unknown");
	else
		snprintf(b, len, fmt, v);
}

typedef void (*cell_fn)(char *b, size_t len, const struct nb_plan_out *o);

static void c_data(char *b, size_t l, const struct nb_plan_out *o)
{
	snprintf(b, l, o->data_disks == floor(o->data_disks) ? "%.0f" : "%.1f",
		 o->data_disks);
}
static void c_usable(char *b, size_t l, const struct nb_plan_out *o)
{
	snprintf(b, l, "%.2f TB", o->usable_bytes / 1e12);
}
static void c_usable_tib(char *b, size_t l, const struct nb_plan_out *o)
{
	snprintf(b, l, "%.2f TiB", o->usable_bytes / 1099511627776.0);
}
static void c_fail(char *b, size_t l, const struct nb_plan_out *o)
{
	if (o->may_fail_best > o->may_fail)
		snprintf(b, l, "%d (up to %d)", o->may_fail, o->may_fail_best);
	else
		snprintf(b, l, "%d", o->may_fail);
}
static void bw_cell(char *b, size_t l, double v, const char *why)
{
	if (v < 0)
		snprintf(b, l, "unknown");
	else
		snprintf(b, l, "%.1f %s", v / 1e6, why);
}
static void c_read(char *b, size_t l, const struct nb_plan_out *o)
{
	bw_cell(b, l, o->read, o->read_limit);
}
static void c_write(char *b, size_t l, const struct nb_plan_out *o)
{
	bw_cell(b, l, o->write, o->write_limit);
}
static void c_disks_bw(char *b, size_t l, const struct nb_plan_out *o)
{
	if (o->disk_read < 0)
		snprintf(b, l, "unknown");
	else
		snprintf(b, l, "%.0f/%.0f", o->disk_read / 1e6, o->disk_write / 1e6);
}
/* A row is a function, or a figure of struct nb_plan_out and its format. */
#define FIG(f) NULL, offsetof(struct nb_plan_out, f)

static const struct {
	const char *label;
	cell_fn fn;
	size_t off;
	const char *fmt;
} rows[] = {
	{ "data disks", c_data, 0, NULL },
	{ "usable", c_usable, 0, NULL },
	{ "", c_usable_tib, 0, NULL },
	{ "disks may fail", c_fail, 0, NULL },
	{ "seq read MB/s", c_read, 0, NULL },
	{ "seq write MB/s", c_write, 0, NULL },
	{ "disks alone r/w MB/s", c_disks_bw, 0, NULL },
	{ "rand read IOPS", FIG(rand_read), "%.0f" },
	{ "rand write IOPS", FIG(rand_write), "%.0f" },
	{ "price", FIG(price_total), "%.2f" },
	{ "per usable TB", FIG(per_tb), "%.2f" },
	{ "per MB/s read", FIG(per_mbs_read), "%.2f" },
	{ "per MB/s write", FIG(per_mbs_write), "%.2f" },
};

static void print_header(const struct plan_opts *o)
{
	const struct nb_plan_in *in = &o->in;
	char mbs[32], iops[32];

	cell_num(mbs, sizeof(mbs), in->disk_mbs, "%.0f");
	cell_num(iops, sizeof(iops), in->disk_iops, "%.0f");
	printf("%d x %.2f TB disks, %s MB/s and %s IOPS each", in->ndisks,
	       (double)in->disk_bytes / 1e12, mbs, iops);
	if (in->reserve > 0)
		printf(", %.0f%% of each left unused", in->reserve * 100);
	if (in->nic_bps)
		printf("\nlink %.0f Mbit/s: %.1f MB/s of payload (%.1f%% of the "
		       "line rate)", (double)in->nic_bps / 1e6,
		       (double)in->nic_bps / 8 * in->efficiency / 1e6,
		       in->efficiency * 100);
	else
		printf("\nno link (local): the disks are the limit");
	printf("\n\n");
}

static void print_table(const struct plan_opts *o, const struct nb_plan_out *out,
			int n)
{
	char cell[64];

	print_header(o);
	printf("%-22s", "");
	for (int j = 0; j < n; j++)
		printf(j + 1 < n ? "%-16s" : "%s", out[j].layout);
	putchar('\n');
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		printf("%-22s", rows[r].label);
		for (int j = 0; j < n; j++) {
			if (rows[r].fn)
				rows[r].fn(cell, sizeof(cell), &out[j]);
			else
				cell_num(cell, sizeof(cell), *(const double *)
					 ((const char *)&out[j] + rows[r].off),
					 rows[r].fmt);
			printf(j + 1 < n ? "%-16s" : "%s", cell);
		}
		putchar('\n');
	}
}

/* ---- measured beside expected ---- */

enum figure { F_NONE, F_SEQ_READ, F_SEQ_WRITE, F_RAND_READ, F_RAND_WRITE };

struct measure {
	enum figure f;
	const char *metric;      /* as stored in the result */
	double v;                /* median: bytes/s or IOPS */
};

/* The figures of one result entry (at most 2) the plan has an estimate for:
 * seq* bw_bytes, rand* iops, bonnie's put_block/get_block (K/sec = KiB/s). */
static int measured(const json_t *wl, struct measure *m)
{
	static const struct { const char *metric; enum figure f; } bonnie[] = {
		{ "put_block_kps", F_SEQ_WRITE }, { "get_block_kps", F_SEQ_READ },
	};
	const char *name = json_string_value(json_object_get(wl, "workload"));
	enum figure f = F_NONE;
	int n = 0;

	if (!name)
		return 0;
	if (!strcmp(name, "bonnie")) {
		for (int i = 0; i < 2; i++)
			if (!nb_result_stat(wl, bonnie[i].metric, "median", &m[n].v)) {
				m[n].v *= 1024;
				m[n].f = bonnie[i].f;
				m[n++].metric = bonnie[i].metric;
			}
		return n;
	}
	if (!strncmp(name, "seq", 3))
		f = strstr(name, "read") ? F_SEQ_READ : strstr(name, "write") ?
		    F_SEQ_WRITE : F_NONE;
	else if (!strncmp(name, "rand", 4) && !strstr(name, "mix"))
		f = strstr(name, "read") ? F_RAND_READ : strstr(name, "write") ?
		    F_RAND_WRITE : F_NONE;
	m->metric = f == F_SEQ_READ || f == F_SEQ_WRITE ? "bw_bytes" : "iops";
	m->f = f;
	return f != F_NONE && !nb_result_stat(wl, m->metric, "median", &m->v);
}

static double expected(const struct nb_plan_out *o, enum figure f,
		       const char **why)
{
	*why = "";
	switch (f) {
	case F_SEQ_READ: *why = o->read_limit; return o->read;
	case F_SEQ_WRITE: *why = o->write_limit; return o->write;
	case F_RAND_READ: return o->rand_read;
	case F_RAND_WRITE: return o->rand_write;
	default: return -1;
	}
}

/* The plan to hold a result against: its layout label, else the first. */
static const struct nb_plan_out *plan_for(const struct plan_opts *o,
					  const json_t *doc,
					  const struct nb_plan_out *out, int n,
					  struct nb_plan_out *own,
					  const char **note)
{
	const char *layout = json_string_value(json_object_get(
		json_object_get(doc, "labels"), "layout"));

	*note = "";
	if (layout && !nb_plan_compute(&o->in, layout, own))
		return own;
	nb_err_clear();
	*note = layout ? " (its layout label does not fit these disks; against "
			 "the first layout)"
		       : " (no layout label; against the first layout)";
	return n ? &out[0] : NULL;
}

/* One measured figure beside its expected value: a printed row and JSON. */
static json_t *show(const struct nb_plan_out *p, const json_t *wl,
		    const struct measure *ms, int print)
{
	const char *why, *wname = json_string_value(json_object_get(wl, "workload"));
	double v = ms->v, e = expected(p, ms->f, &why);
	int mb = ms->f == F_SEQ_READ || ms->f == F_SEQ_WRITE;
	const char *unit = mb ? "MB/s" : "IOPS";
	char m[32], x[40], share[16], what[64];

	/* "seq512k-read"; "bonnie put_block" (bonnie's metrics end in _kps) */
	if (!strcmp(ms->metric, "bw_bytes") || !strcmp(ms->metric, "iops"))
		snprintf(what, sizeof(what), "%s", wname);
	else
		snprintf(what, sizeof(what), "%s %.*s", wname,
			 (int)(strlen(ms->metric) - strlen("_kps")), ms->metric);
	snprintf(m, sizeof(m), "%.1f %s", mb ? v / 1e6 : v, unit);
	if (e > 0) {
		snprintf(x, sizeof(x), "%.1f %s%s%s", mb ? e / 1e6 : e, unit,
			 why && *why ? " " : "", why ? why : "");
		snprintf(share, sizeof(share), "%.0f%%", 100 * v / e);
	} else {
		snprintf(x, sizeof(x), "unknown");
		snprintf(share, sizeof(share), "-");
	}
	if (print)
		printf("  %-12s %-20s %14s %20s %8s\n",
		       json_string_value(json_object_get(wl, "target")), what, m, x,
		       share);
	return json_pack("{s:O, s:O, s:s, s:f, s:o, s:o}",
		"target", json_object_get(wl, "target"),
		"workload", json_object_get(wl, "workload"), "metric", ms->metric,
		"measured", v, "expected", e > 0 ? json_real(e) : json_null(),
		"share", e > 0 ? json_real(v / e) : json_null());
}

static json_t *compare_one(const struct plan_opts *o, const char *path,
			   const json_t *doc, const struct nb_plan_out *out, int n,
			   int print)
{
	struct nb_plan_out own;
	const struct nb_plan_out *p;
	const char *note;
	json_t *wl, *rows_j = json_array();
	size_t i;

	p = plan_for(o, doc, out, n, &own, &note);
	if (print) {
		printf("\nmeasured in %s, layout %s%s:\n", path, p->layout, note);
		if (json_is_object(json_object_get(doc, "published")))
			printf("  (published figures, not measured by nasbench)\n");
		printf("  %-12s %-20s %14s %20s %8s\n", "target", "workload",
		       "measured", "expected", "share");
	}
	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		struct measure ms[2];
		int k = measured(wl, ms);

		for (int j = 0; j < k; j++)
			json_array_append_new(rows_j, show(p, wl, &ms[j], print));
	}
	return json_pack("{s:s, s:s, s:o}", "file", path, "layout", p->layout,
			 "figures", rows_j);
}

static int hw_plan(int argc, char **argv)
{
	struct plan_opts *o = calloc(1, sizeof(*o));
	struct nb_plan_out out[MAX_LAYOUTS];
	json_t *doc = NULL, *meas = json_array(), *res[MAX_RESULTS] = { NULL };
	int n, rc = NB_EXIT_OK;

	if (!o || plan_args(o, argc, argv) || compute_all(o, out, &n)) {
		rc = o ? usage_error() : NB_EXIT_TARGET;
		goto out;
	}
	if (!n) {
		nb_err_set("no layout fits %d disk(s) (layouts: %s)", o->in.ndisks,
			   nb_plan_layouts());
		rc = usage_error();
		goto out;
	}
	/* every file is read before anything is printed */
	for (int i = 0; i < o->nresults; i++)
		if (nb_result_load(o->results[i], &res[i])) {
			nb_die_msg("--result: %s", nb_err_last());
			rc = NB_EXIT_USAGE;
			goto out;
		}
	if (!o->json)
		print_table(o, out, n);
	for (int i = 0; i < o->nresults; i++)
		json_array_append_new(meas, compare_one(o, o->results[i], res[i],
							out, n, !o->json));
	if (o->json) {
		json_t *plans = json_array();
		char *s;

		for (int i = 0; i < n; i++)
			json_array_append_new(plans, nb_plan_json(&o->in, &out[i]));
		doc = json_pack("{s:f, s:o, s:O}", "link_efficiency",
				o->in.efficiency, "layouts", plans, "measured", meas);
		s = nb_result_dump(doc);
		puts(s ? s : "{}");
		free(s);
	}
out:
	for (int i = 0; i < MAX_RESULTS; i++)
		json_decref(res[i]);
	json_decref(doc);
	json_decref(meas);
	free(o);
	return rc;
}

int cmd_hw(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "plan"))
		return hw_plan(argc - 1, argv + 1);
	if (argc > 1 && argv[1][0] != '-')   /* "hw plna" */
		return nb_cmd_unknown_in("an hw command", "hw", argv[1],
					 (const char *[]){ "plan" }, 1);
	return hw_inventory(argc, argv);
}
