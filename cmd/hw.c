/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hw.c - 'nasbench hw': the hardware inventory of this machine, and
 * 'nasbench hw plan': what disks in a layout behind a link should give.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../core/units.h"
#include "../hw/inventory.h"
#include "../hw/planner.h"
#include "../hw/planner_result.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What -o may replace: an inventory of 'hw' (core/atomic_file.h). */
static int hw_ours(const char *head, size_t len)
{
	return nb_out_starts(head, len, "{") &&
	       nb_out_has(head, len, "\"kind\": \"nasbench-hw\"");
}

static const struct nb_out_kind hw_out = { "a hardware inventory of nasbench",
					   hw_ours };

const struct nb_usage cmd_hw_usage = { .head =
	"usage: nasbench hw [--json] [-o FILE]\n"
	"       nasbench hw plan --disks NxSIZE[,NxSIZE...] [options]\n"
	"\n"
	"nasbench hw lists what this machine is: CPU, memory, disks, NICs, OS and\n"
	"hypervisor, read from /proc and /sys (unknown where unreadable).  Run it on\n"
	"the box with --json and give the file to 'nasbench run --box-hw FILE'.\n"
	"\n"
	"  --json              the inventory as JSON\n"
	"  -o, --output FILE   write the JSON to FILE\n"
	"\n"
	"nasbench hw plan sets layouts side by side before buying: capacity as ZFS\n"
	"computes it (raw, after parity, usable as 'zfs list' shows it), disks that\n"
	"may fail, sequential, random and sync-write ceilings (disks vs the link's\n"
	"payload), and the cost of each.\n"
	"\n"
	"  --disks LIST        the disks: 5x3TB, or mixed groups 4x4TB,2x8TB (sizes\n"
	"                      are a disk maker's: 3TB = 3*10^12 bytes) (required)\n"
	"  --spares N          the last N disks are hot spares (priced, not used)\n"
	"  --layout A,B,...    stripe, mirror, raid10 (2-way mirrors, even disks),\n"
	"                      raidz1, raidz2, raidz3, 3xmirror, 2xraidz2 (K vdevs),\n"
	"                      md-raid5, md-raid6, md-raid10 (mdadm)\n"
	"                      (default: every layout the disks allow)\n"
	"  --disk-mbs N        sequential MB/s of one disk\n"
	"  --disk-iops N       random IOPS of one disk\n"
	"  --throttled         the disks are throttled, not mechanical (ci/lab's\n"
	"                      cgroup: every I/O costs 1/IOPS, no seeks)\n"
	"  --box-mbs N         the box's own ceiling in MB/s (CPU, software), as\n"
	"                      measured on fast disks: caps every MB/s figure;\n"
	"                      sync writes with a SLOG pass the box twice\n"
	"  --box-io SIZE       with --throttled: the I/O size a client's stream\n"
	"                      reaches the disks in (ci/lab's reads with its\n"
	"                      64 MiB ARC: 32K; default: aggregated to 128K)\n"
	"  --recordsize SIZE   ZFS record size (default " NB_PLAN_RECORDSIZE ")\n"
	"  --volblocksize SIZE a zvol's block size instead (iSCSI, e.g. 16K)\n"
	"  --ashift N          ZFS sector size 2^N (default " NB_STR(NB_PLAN_ASHIFT)
	": 4 KiB)\n"
	"  --slog SPEC         a log device: ssd, plp-ssd, nvme, plp-nvme, hdd, with\n"
	"                      :NNNiops (sync writes/s) and :NNNMB/s (ssd:20000iops)\n"
	"  --sync-io SIZE      bytes of one sync write (default " NB_PLAN_SYNC_IO
	", nasbench's\n"
	"                      seq512k-write-sync)\n"
	"  --sync-qd N         sync writes committed together (default "
	NB_STR(NB_PLAN_SYNC_QD) ")\n"
	"  --price N           price of one disk\n"
	"  --base-price N      the rest of the box (chassis, RAM, HBA), default 0\n"
	"  --currency CUR      shown with every price (EUR, USD, $)\n"
	"  --nic RATE          the link, in bits/s: 1gbit, 10GbE, 2.5G, 800mbit,\n"
	"                      1gbps; or bytes/s: 125MB/s (default: none, local)\n"
	"  --mtu N             the link's MTU (default " NB_STR(NB_PLAN_MTU) ")\n"
	"  --paths N           N such links, the I/O spread over them (iSCSI\n"
	"                      multipath round robin, NFS over several addresses;\n"
	"                      docs/network.md): N links' ceiling, one sync\n"
	"                      write over one (default 1)\n"
	"  --efficiency PCT    payload share of the line rate (default from the MTU:\n"
	"                      94.1% at " NB_STR(NB_PLAN_MTU) ")\n"
	"  --reserve PCT       over-provisioning: share of each disk left unused\n"
	"  --result FILE       a result of this box: measured beside expected, and\n"
	"                      a flag where measured is over 110% of the ceiling\n"
	"                      (repeatable)\n"
	"  --json              the plan as JSON, every figure with its unit (give\n"
	"                      it to 'nasbench report --plan FILE')\n"
	"\n"
	"Exit status: 0 ok, 2 usage error (unknown layout, too few disks, a bad\n"
	"size or price, an unreadable --result file, or -o names a file that is\n"
	"not an inventory: it is never replaced), 3 the output cannot be written.\n" };

static int usage_error(void)
{
	nb_die_msg("%s", nb_err_last());
	return NB_EXIT_USAGE;
}

/* ---- nasbench hw ---- */

struct inv_opts {
	const char *output;
	int json;
};

static int hw_inventory(int argc, char **argv)
{
	static const struct nb_opt opts[] = {
		{ "json", 0, NULL, NB_OPT_AT(struct inv_opts, json), NULL },
		{ "output", 'o', "FILE", NB_OPT_AT(struct inv_opts, output), NULL },
	};
	struct inv_opts o = { 0 };
	const char *output;
	int json, rc = NB_EXIT_OK;
	json_t *inv;

	if (nb_opts_parse("hw", argc, argv, opts, NB_OPTS_N(opts), NULL, &o))
		return usage_error();
	output = o.output;
	json = o.json;
	if (optind < argc)
		return nb_err_set("unexpected argument '%s' (see 'nasbench help hw')",
				  argv[optind]), usage_error();
	inv = nb_hw_inventory(NULL);
	if (!inv) {
		nb_die_msg("out of memory");
		return NB_EXIT_TARGET;
	}
	if (output) {
		char *s = nb_result_dump(inv), *t = NULL;
		size_t n = s ? strlen(s) : 0;
		int w;

		if (s && (t = realloc(s, n + 2)))
			strcpy(t + n, "\n");       /* the final newline */
		w = !t ? nb_err(-ENOMEM, "out of memory") :
		    nb_atomic_write(output, t, n + 1, &hw_out);
		free(t ? t : s);
		if (w)
			rc = nb_cmd_write_error(w);
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
	struct nb_planner_in in;
	const char *layouts[MAX_LAYOUTS];
	int nlayouts;
	char layout_buf[512];
	const char *results[MAX_RESULTS];
	int nresults;
	int json;
	const char *disks;
};

enum { P_DISKS = 256, P_LAYOUT, P_MBS, P_IOPS, P_PRICE, P_BASE, P_NIC, P_MTU,
       P_EFF, P_RESERVE, P_RESULT, P_SPARES, P_THROTTLED, P_RS, P_VBS,
       P_ASHIFT, P_SLOG, P_SYNC_IO, P_SYNC_QD, P_CURRENCY, P_BOX, P_BOX_IO,
       P_PATHS };

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

/* A ZFS block size: a power of two from 2^ashift (512) to 16 MiB. */
static int block_opt(const char *opt, const char *v, uint64_t *out)
{
	if (nb_parse_size(v, out))
		return nb_err_prefix("%s", opt), -EINVAL;
	if (*out < 512 || *out > (16 << 20) || (*out & (*out - 1)))
		return nb_err(-EINVAL, "%s: must be a power of two from 512 to 16M, "
			      "not '%s'", opt, v);
	return 0;
}

static int int_opt(const char *opt, const char *v, uint64_t min, uint64_t max,
		   int *out)
{
	uint64_t u;

	if (nb_parse_uint(v, min, max, &u))
		return nb_err(-EINVAL, "%s: expected a whole number from %llu to "
			      "%llu, not '%s'", opt, (unsigned long long)min,
			      (unsigned long long)max, v);
	*out = (int)u;
	return 0;
}

/* A size option from MIN to MAX bytes (MAXNAME: how the message says it). */
static int size_opt(const char *opt, const char *v, uint64_t min, uint64_t max,
		    const char *maxname, uint64_t *out)
{
	uint64_t u;

	if (nb_parse_size(v, &u) || u < min || u > max)
		return nb_err(-EINVAL, "%s: expected a size from %llu to %s, not "
			      "'%s'", opt, (unsigned long long)min, maxname, v);
	*out = u;
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
			      nb_planner_layouts());
	return 0;
}

static int pct_opt(const char *opt, const char *v, int zero_ok, double *out)
{
	double pct;

	if (nb_parse_percent(v, &pct) || (zero_ok ? pct < 0 : pct <= 0) ||
	    (zero_ok ? pct >= 100 : pct > 100))
		return nb_err(-EINVAL, "%s: expected a percentage %s, not '%s'", opt,
			      zero_ok ? "from 0 to below 100" : "above 0 and up to 100",
			      v);
	*out = pct / 100;
	return 0;
}

static int plan_option(int c, const struct nb_knob *k, char *v, void *payload)
{
	struct plan_opts *o = payload;
	struct nb_planner_in *in = &o->in;
	int mtu = NB_PLAN_MTU;

	(void)k;
	switch (c) {
	case P_DISKS:
		o->disks = v;
		return nb_pool_parse_disks(v, &in->pool.disks) ?
		       nb_err_prefix("--disks"), -EINVAL : 0;
	case P_LAYOUT: return split_layouts(o, v);
	case P_SPARES:
		return int_opt("--spares", v, 0, NB_POOL_MAX_DISKS, &in->pool.spares);
	case P_MBS: return number_opt("--disk-mbs", v, 1, &in->disk_mbs);
	case P_IOPS: return number_opt("--disk-iops", v, 1, &in->disk_iops);
	case P_THROTTLED: in->throttled = 1; return 0;
	case P_BOX: return number_opt("--box-mbs", v, 1, &in->box_mbs);
	case P_BOX_IO:
		return size_opt("--box-io", v, 512, 16 << 20, "16M", &in->box_io);
	case P_RS: return block_opt("--recordsize", v, &in->pool.recordsize);
	case P_VBS: return block_opt("--volblocksize", v, &in->pool.volblocksize);
	case P_ASHIFT: return int_opt("--ashift", v, 9, 16, &in->pool.ashift);
	case P_SLOG:
		return nb_planner_parse_slog(v, &in->slog) ?
		       nb_err_prefix("--slog"), -EINVAL : 0;
	case P_SYNC_IO:
		return size_opt("--sync-io", v, 512, 64 << 20, "64M", &in->sync_io);
	case P_SYNC_QD: return int_opt("--sync-qd", v, 1, 1024, &in->sync_qd);
	case P_PRICE: return number_opt("--price", v, 0, &in->price);
	case P_BASE: return number_opt("--base-price", v, 0, &in->base_price);
	case P_CURRENCY:
		if (!*v || strlen(v) >= sizeof(in->currency) || strpbrk(v, " \t\n"))
			return nb_err(-EINVAL, "--currency: expected a short code such "
				      "as EUR or $, not '%s'", v);
		snprintf(in->currency, sizeof(in->currency), "%s", v);
		return 0;
	case P_NIC:
		if (!strcasecmp(v, "none") || !strcasecmp(v, "local")) {
			in->nic_bps = 0;
			return 0;
		}
		return nb_planner_parse_link(v, &in->nic_bps) ?
		       nb_err_prefix("--nic"), -EINVAL : 0;
	case P_MTU:
		if (int_opt("--mtu", v, 576, 65535, &mtu))
			return -EINVAL;
		in->efficiency = nb_planner_efficiency(mtu);
		return 0;
	case P_EFF: return pct_opt("--efficiency", v, 0, &in->efficiency);
	case P_PATHS: return int_opt("--paths", v, 1, 16, &in->paths);
	case P_RESERVE: return pct_opt("--reserve", v, 1, &in->pool.reserve);
	case P_RESULT:
		if (o->nresults == MAX_RESULTS)
			return nb_err(-EINVAL, "--result: at most %d files", MAX_RESULTS);
		o->results[o->nresults++] = v;
		return 0;
	}
	return -EINVAL;
}

static int plan_args(struct plan_opts *o, int argc, char **argv)
{
	static const struct nb_opt opts[] = {
		{ "disks", 0, "LIST", P_DISKS, NULL },
		{ "layout", 0, "A,B", P_LAYOUT, NULL },
		{ "spares", 0, "N", P_SPARES, NULL },
		{ "disk-mbs", 0, "N", P_MBS, NULL },
		{ "disk-iops", 0, "N", P_IOPS, NULL },
		{ "throttled", 0, NULL, P_THROTTLED, NULL },
		{ "box-mbs", 0, "N", P_BOX, NULL },
		{ "box-io", 0, "SIZE", P_BOX_IO, NULL },
		{ "recordsize", 0, "SIZE", P_RS, NULL },
		{ "volblocksize", 0, "SIZE", P_VBS, NULL },
		{ "ashift", 0, "N", P_ASHIFT, NULL },
		{ "slog", 0, "SPEC", P_SLOG, NULL },
		{ "sync-io", 0, "SIZE", P_SYNC_IO, NULL },
		{ "sync-qd", 0, "N", P_SYNC_QD, NULL },
		{ "price", 0, "N", P_PRICE, NULL },
		{ "base-price", 0, "N", P_BASE, NULL },
		{ "currency", 0, "CUR", P_CURRENCY, NULL },
		{ "nic", 0, "RATE", P_NIC, NULL },
		{ "mtu", 0, "N", P_MTU, NULL },
		{ "paths", 0, "N", P_PATHS, NULL },
		{ "efficiency", 0, "PCT", P_EFF, NULL },
		{ "reserve", 0, "PCT", P_RESERVE, NULL },
		{ "result", 0, "FILE", P_RESULT, NULL },
		{ "json", 0, NULL, NB_OPT_AT(struct plan_opts, json), NULL },
	};

	nb_planner_defaults(&o->in);
	if (nb_opts_parse("hw", argc, argv, opts, NB_OPTS_N(opts), plan_option, o))
		return -EINVAL;
	if (optind < argc)
		return nb_err(-EINVAL, "unexpected argument '%s'", argv[optind]);
	if (!o->disks)
		return nb_err(-EINVAL, "--disks is required (e.g. --disks 5x3TB)");
	if (o->in.pool.spares >= o->in.pool.disks.total)
		return nb_err(-EINVAL, "--spares: %d of %d disks leaves none for the "
			      "layout", o->in.pool.spares, o->in.pool.disks.total);
	if (o->in.throttled && o->in.disk_iops < 0)
		return nb_err(-EINVAL, "--throttled needs --disk-iops (the throttle)");
	return 0;
}

/* The layouts named, or every one the disks allow. */
static int compute_all(struct plan_opts *o, struct nb_planner_out *out, int *n)
{
	static const char *const all[] = { "stripe", "mirror", "raid10", "raidz1",
					   "raidz2", "raidz3", "md-raid5", "md-raid6" };

	*n = 0;
	if (o->nlayouts) {
		for (int i = 0; i < o->nlayouts; i++)
			if (nb_planner_compute(&o->in, o->layouts[i], &out[(*n)++]))
				return -EINVAL;
		return 0;
	}
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!nb_planner_compute(&o->in, all[i], &out[*n]))
			(*n)++;
	nb_err_clear();
	if (!*n)
		return nb_err(-EINVAL, "no layout fits %d disk(s) (layouts: %s)",
			      o->in.pool.disks.total - o->in.pool.spares,
			      nb_planner_layouts());
	return 0;
}

/* ---- the table ---- */

struct ctx {
	const struct nb_planner_in *in;
	const struct nb_planner_out *o;
};

typedef void (*cell_fn)(char *b, size_t len, const struct ctx *c);

static void money(char *b, size_t l, const struct ctx *c, double v)
{
	nb_fmt_money(v, c->in->currency, b, l);
}

static void with_limit(char *b, size_t l, double v, double scale,
		       const char *fmt, const char *why)
{
	if (v < 0) {
		snprintf(b, l, "unknown");
		return;
	}
	snprintf(b, l, fmt, v / scale);
	if (why)
		snprintf(b + strlen(b), l - strlen(b), " %s", why);
}

static void c_vdevs(char *b, size_t l, const struct ctx *c)
{
	if (!c->o->l.zfs)
		snprintf(b, l, "md of %d", c->in->pool.disks.total - c->in->pool.spares);
	else
		snprintf(b, l, "%d x %d", c->o->l.nvdevs, c->o->l.width);
}
static void c_data(char *b, size_t l, const struct ctx *c)
{
	double d = c->o->data_disks;

	snprintf(b, l, d == floor(d) ? "%.0f" : "%.1f", d);
}
/* bytes in TB (GB below 1 TB), or TiB (GiB) */
static void bytes_cell(char *b, size_t l, double v, int binary)
{
	nb_fmt_capacity(v, binary, b, l);
}
static void c_raw(char *b, size_t l, const struct ctx *c)
{
	bytes_cell(b, l, c->o->cap.raw, 0);
}
static void c_parity(char *b, size_t l, const struct ctx *c)
{
	bytes_cell(b, l, c->o->cap.after_parity, 0);
}
static void c_usable(char *b, size_t l, const struct ctx *c)
{
	bytes_cell(b, l, c->o->cap.usable, 0);
}
static void c_usable_tib(char *b, size_t l, const struct ctx *c)
{
	bytes_cell(b, l, c->o->cap.usable, 1);
}
static void c_block(char *b, size_t l, const struct ctx *c)
{
	bytes_cell(b, l, c->o->cap.usable_block, 1);
}
static void c_fail(char *b, size_t l, const struct ctx *c)
{
	if (c->o->may_fail_best > c->o->may_fail)
		snprintf(b, l, "%d (up to %d)", c->o->may_fail, c->o->may_fail_best);
	else
		snprintf(b, l, "%d", c->o->may_fail);
}
static void c_read(char *b, size_t l, const struct ctx *c)
{
	with_limit(b, l, c->o->read, 1e6, "%.1f", c->o->read_limit);
}
static void c_write(char *b, size_t l, const struct ctx *c)
{
	with_limit(b, l, c->o->write, 1e6, "%.1f", c->o->write_limit);
}
static void c_disks_bw(char *b, size_t l, const struct ctx *c)
{
	if (c->o->disk_read < 0)
		snprintf(b, l, "unknown");
	else
		snprintf(b, l, "%.0f/%.0f", c->o->disk_read / 1e6,
			 c->o->disk_write / 1e6);
}
/* IOPS and sync figures name their limit only when it is not the disks */
static const char *not_disks(const char *why)
{
	return why && strcmp(why, "disks") ? why : NULL;
}
static void c_rr(char *b, size_t l, const struct ctx *c)
{
	with_limit(b, l, c->o->rand_read, 1, "%.0f", not_disks(c->o->rand_read_limit));
}
static void c_rw(char *b, size_t l, const struct ctx *c)
{
	with_limit(b, l, c->o->rand_write, 1, "%.0f",
		   not_disks(c->o->rand_write_limit));
}
static void c_sync(char *b, size_t l, const struct ctx *c)
{
	with_limit(b, l, c->o->sync_write, 1e6, "%.1f", not_disks(c->o->sync_limit));
}
static void c_sync_slog(char *b, size_t l, const struct ctx *c)
{
	if (!c->o->l.zfs)
		snprintf(b, l, "-");
	else
		with_limit(b, l, c->o->sync_write_slog, 1e6, "%.1f",
			   not_disks(c->o->sync_slog_limit));
}
static void c_price(char *b, size_t l, const struct ctx *c) { money(b, l, c, c->o->price_total); }
static void c_per_tb(char *b, size_t l, const struct ctx *c) { money(b, l, c, c->o->per_tb); }
static void c_per_r(char *b, size_t l, const struct ctx *c) { money(b, l, c, c->o->per_mbs_read); }
static void c_per_w(char *b, size_t l, const struct ctx *c) { money(b, l, c, c->o->per_mbs_write); }
static void c_per_ir(char *b, size_t l, const struct ctx *c) { money(b, l, c, c->o->per_iops_read); }
static void c_per_iw(char *b, size_t l, const struct ctx *c) { money(b, l, c, c->o->per_iops_write); }
static void c_per_sync(char *b, size_t l, const struct ctx *c) { money(b, l, c, c->o->per_sync_mbs); }

enum { ALWAYS, SLOG_ONLY, BLOCK_ONLY };

static const struct {
	const char *label;
	cell_fn fn;
	int when;
} rows[] = {
	{ "vdevs x disks", c_vdevs, ALWAYS },
	{ "data disks", c_data, ALWAYS },
	{ "raw", c_raw, ALWAYS },
	{ "after parity", c_parity, ALWAYS },
	{ "usable (zfs list)", c_usable, ALWAYS },
	{ "", c_usable_tib, ALWAYS },
	{ "", c_block, BLOCK_ONLY },
	{ "disks may fail", c_fail, ALWAYS },
	{ "seq read MB/s", c_read, ALWAYS },
	{ "seq write MB/s", c_write, ALWAYS },
	{ "disks alone r/w MB/s", c_disks_bw, ALWAYS },
	{ "rand read IOPS", c_rr, ALWAYS },
	{ "rand write IOPS", c_rw, ALWAYS },
	{ "sync write MB/s", c_sync, ALWAYS },
	{ "sync, SLOG MB/s", c_sync_slog, SLOG_ONLY },
	{ "price", c_price, ALWAYS },
	{ "per usable TB", c_per_tb, ALWAYS },
	{ "per MB/s read", c_per_r, ALWAYS },
	{ "per MB/s write", c_per_w, ALWAYS },
	{ "per read IOPS", c_per_ir, ALWAYS },
	{ "per write IOPS", c_per_iw, ALWAYS },
	{ "per sync MB/s", c_per_sync, ALWAYS },
};

static void print_table(const struct plan_opts *o, const struct nb_planner_out *out,
			int n)
{
	uint64_t blk = o->in.pool.volblocksize ? o->in.pool.volblocksize :
		       o->in.pool.recordsize, def = 0;
	char cell[64], label[40], sz[32];

	nb_parse_size(NB_PLAN_RECORDSIZE, &def);
	nb_planner_summary(stdout, &o->in);
	printf("\n\n");
	printf("%-22s", "");
	for (int j = 0; j < n; j++)
		printf(j + 1 < n ? "%-16s" : "%s", out[j].layout);
	putchar('\n');
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		if ((rows[r].when == SLOG_ONLY && !o->in.slog.present) ||
		    (rows[r].when == BLOCK_ONLY && blk == def))
			continue;
		snprintf(label, sizeof(label), "%s", rows[r].label);
		if (rows[r].when == BLOCK_ONLY)
			snprintf(label, sizeof(label), "data at %s blocks",
				 nb_fmt_size(blk, sz, sizeof(sz)));
		printf("%-22s", label);
		for (int j = 0; j < n; j++) {
			struct ctx c = { &o->in, &out[j] };

			rows[r].fn(cell, sizeof(cell), &c);
			printf(j + 1 < n ? "%-16s" : "%s", cell);
		}
		putchar('\n');
	}
}

/* ---- measured beside expected ---- */

static void print_measured(const json_t *m)
{
	const json_t *f;
	const char *note = json_string_value(json_object_get(m, "note"));
	size_t i;

	printf("\nmeasured in %s, layout %s%s%s%s:\n",
	       json_string_value(json_object_get(m, "file")),
	       json_string_value(json_object_get(m, "layout")),
	       *note ? " (" : "", note, *note ? ")" : "");
	if (json_is_true(json_object_get(m, "published")))
		printf("  (published figures, not measured by nasbench)\n");
	printf("  %-12s %-24s %14s %20s %8s\n", "target", "workload", "measured",
	       "expected", "share");
	json_array_foreach(json_object_get(m, "figures"), i, f) {
		const json_t *e = json_object_get(f, "expected");
		const char *unit = json_string_value(json_object_get(
			json_object_get(f, "measured"), "unit"));
		int mb = !strcmp(unit, "B/s");
		double v = json_real_value(json_object_get(json_object_get(f, "measured"),
							   "value"));
		const char *lim = json_string_value(json_object_get(f, "limit"));
		const char *flag = json_string_value(json_object_get(f, "flag"));
		char ms[32], xs[40], sh[16];

		snprintf(ms, sizeof(ms), "%.1f %s", mb ? v / 1e6 : v, mb ? "MB/s" : "IOPS");
		if (json_is_object(e)) {
			double x = json_real_value(json_object_get(e, "value"));

			snprintf(xs, sizeof(xs), "%.1f %s%s%s", mb ? x / 1e6 : x,
				 mb ? "MB/s" : "IOPS", lim ? " " : "", lim ? lim : "");
			snprintf(sh, sizeof(sh), "%.0f%%", 100 * v / x);
		} else {
			snprintf(xs, sizeof(xs), "unknown");
			snprintf(sh, sizeof(sh), "-");
		}
		printf("  %-12s %-24s %14s %20s %8s%s%s\n",
		       json_string_value(json_object_get(f, "target")),
		       json_string_value(json_object_get(f, "what")), ms, xs, sh,
		       flag ? "  " : "", flag ? flag : "");
	}
}

static int hw_plan(int argc, char **argv)
{
	struct plan_opts *o = calloc(1, sizeof(*o));
	struct nb_planner_out out[MAX_LAYOUTS];
	json_t *meas = json_array(), *res[MAX_RESULTS] = { NULL };
	int n, rc = NB_EXIT_OK;

	if (!o || plan_args(o, argc, argv) || compute_all(o, out, &n)) {
		rc = o ? usage_error() : NB_EXIT_TARGET;
		goto out;
	}
	/* every file is read before anything is printed */
	for (int i = 0; i < o->nresults; i++)
		if (nb_result_load(o->results[i], &res[i])) {
			nb_die_msg("--result: %s", nb_err_last());
			rc = NB_EXIT_USAGE;
			goto out;
		}
	for (int i = 0; i < o->nresults; i++)
		json_array_append_new(meas, nb_planner_measured(&o->in, o->results[i],
							     res[i], out, n));
	if (o->json) {
		json_t *doc = nb_planner_doc(&o->in, out, n, meas);
		char *s = nb_result_dump(doc);

		puts(s ? s : "{}");
		free(s);
		json_decref(doc);
	} else {
		const json_t *m;
		size_t i;

		print_table(o, out, n);
		json_array_foreach(meas, i, m)
			print_measured(m);
	}
out:
	for (int i = 0; i < MAX_RESULTS; i++)
		json_decref(res[i]);
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
