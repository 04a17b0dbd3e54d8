/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.c - 'nasbench capture': the load of a box you have, measured
 * over a period into a load file (capture/capture.h, docs/capture.md).
 */
#include "cmd.h"
#include "opts.h"
#include "../capture/capture.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../telemetry/telem.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	const char *output, *for_, *interval, *bucket, *devices, *busy;
	const char *sequential, *growth, *identity, *known_hosts, *show;
	int quiet;
};

#define AT(f) NB_OPT_AT(struct opts, f)
static const struct nb_opt capture_opts[] = {
	{ "output", 'o', "FILE", AT(output),
	  "the load file (default load.ini; '-': standard output)" },
	{ "for", 0, "TIME", AT(for_), "how long: 30m, 1h, 24h (default 1h)" },
	{ "interval", 0, "TIME", AT(interval),
	  "the counters read every (default 10s; at least 1s)" },
	{ "bucket", 0, "TIME", AT(bucket),
	  "a figure of the series covers (default 1m; at least the interval)" },
	{ "devices", 0, "GLOBS", AT(devices),
	  "the VMs' devices, comma-separated globs of their names or their LVM "
	  "or zvol names: 'vg0/vm*', 'zvol/tank/*', dm-3 (default: every LVM "
	  "logical volume and zvol)" },
	{ "busy", 0, "PCT", AT(busy),
	  "the busiest-hour level: this percentile of the buckets (default 95)" },
	{ "sequential", 0, "PCT", AT(sequential),
	  "the sequential share assumed where the counters cannot tell (LVs, "
	  "zvols, FreeBSD) (default: the [vm] profile's, 100 - random)" },
	{ "growth", 0, "RATE", AT(growth),
	  "the load's growth, for the replay's years: 25%/year, 4vms/year" },
	{ "identity", 0, "FILE", AT(identity),
	  "ssh's key (default: the agent's, or ssh's own)" },
	{ "known-hosts", 0, "FILE", AT(known_hosts),
	  "ssh's known_hosts (default: ssh's own)" },
	{ "quiet", 'q', NULL, AT(quiet), "no progress lines" },
	{ "show", 0, "FILE", AT(show),
	  "read a load file (one you edited or wrote): its figures, or where it "
	  "is wrong (FILE:LINE, exit 2); nothing is captured" },
};
#undef AT

const struct nb_usage cmd_capture_usage = {
	.head = "usage: nasbench capture [SOURCE] [options]\n"
		"       nasbench capture --show FILE\n"
		"\n"
		"Measure the load of a box you have -- each VM's volume, its NFS\n"
		"server, its pools -- over a period, into a load file for the\n"
		"replay on a candidate: per VM and in total, IOPS and MB/s per\n"
		"bucket, the busiest-hour level (a high percentile of the\n"
		"buckets) and the peak, read share, request sizes, sequential\n"
		"share, burstiness (docs/capture.md).\n"
		"\n"
		"SOURCE is local (this machine, the default) or ssh://[user@]host[:port]\n"
		"(OpenSSH in batch mode: keys or an agent, as the telemetry's).\n"
		"\n",
	.opts = capture_opts, .n = NB_OPTS_N(capture_opts),
	.tail = "\n"
		"Exit status: 0 captured (a capture too short for the busiest-hour\n"
		"level says so), 2 usage error (a bad option, no device matches),\n"
		"3 the box cannot be reached or read, or stopped answering (the\n"
		"buckets so far are written), or the file cannot be written (the\n"
		"load file is then saved in $TMPDIR, /tmp or here, and the message\n"
		"says where),\n"
		"130 interrupted (the buckets so far are written).\n",
};

static int duration_opt(const char *opt, const char *v, const char *def,
			double min_s, double max_s, uint64_t *us)
{
	if (nb_parse_duration_us(v ? v : def, us))
		return nb_err_prefix("%s", opt), -EINVAL;
	if ((double)*us < min_s * 1e6 || (double)*us > max_s * 1e6)
		return nb_err(-EINVAL, "%s: '%s' is out of range: %g s to %g s", opt,
			      v, min_s, max_s);
	return 0;
}

static int pct_opt(const char *opt, const char *v, double lo, double hi,
		   double *out)
{
	if (nb_parse_percent(v, out) || *out < lo || *out > hi)
		return nb_err(-EINVAL, "%s: expected a percentage from %g to %g, not "
			      "'%s'", opt, lo, hi, v);
	return 0;
}

/* The options into C (and the source); 0 or -EINVAL (detail set). */
static int configure(const struct opts *o, struct nb_capture_cfg *c)
{
	if (duration_opt("--for", o->for_, "1h", 1, 31 * 86400.0, &c->for_us) ||
	    duration_opt("--interval", o->interval, "10s", 1, 3600, &c->interval_us) ||
	    duration_opt("--bucket", o->bucket, "1m", 1, 86400, &c->bucket_us))
		return -EINVAL;
	if (c->bucket_us < c->interval_us)
		return nb_err(-EINVAL, "--bucket: a bucket (%s) is shorter than the "
			      "interval (%s): a bucket holds samples", o->bucket ?
			      o->bucket : "1m", o->interval ? o->interval : "10s");
	if (c->for_us < c->bucket_us)
		return nb_err(-EINVAL, "--for: '%s' is shorter than one bucket (%s)",
			      o->for_, o->bucket ? o->bucket : "1m");
	if (c->for_us / c->bucket_us > NB_LOAD_MAX_BUCKETS)
		return nb_err(-EINVAL, "--for: %llu buckets, more than %d: a longer "
			      "--bucket", (unsigned long long)(c->for_us / c->bucket_us),
			      NB_LOAD_MAX_BUCKETS);
	c->busy_pct = 95;
	if (o->busy && pct_opt("--busy", o->busy, 50, 100, &c->busy_pct))
		return -EINVAL;
	c->sequential = -1;
	if (o->sequential && pct_opt("--sequential", o->sequential, 0, 100,
				     &c->sequential))
		return -EINVAL;
	if (o->growth && nb_growth_parse(o->growth, &c->growth))
		return nb_err_prefix("--growth"), -EINVAL;
	if (o->devices && !*o->devices)
		return nb_err(-EINVAL, "--devices: no pattern given");
	c->devices = o->devices;
	c->identity = o->identity;
	c->known_hosts = o->known_hosts;
	return 0;
}

/* What the load file holds, for a person: a line a VM and the total. */
static void summary(FILE *f, const struct nb_load *l)
{
	char a[32], b[32], g[64];

	fprintf(f, "%-24s %5s %9s %9s %9s %6s %9s %9s %6s %6s\n", "vm", "count",
		"IOPS", "busy", "peak", "read%", "bs read", "bs write", "seq%",
		"burst");
	for (int i = 0; i <= l->nvms; i++) {
		const struct nb_load_vm *v = i < l->nvms ? &l->vms[i] : NULL;
		const struct nb_load_fig *x = v ? &v->f : &l->total;

		if (!v && !l->have_total)
			break;
		fprintf(f, "%-24s %5d %9.1f %9.1f %9.1f %6.1f %9s %9s ",
			v ? v->name : "total", v ? v->count : nb_load_population(l),
			x->iops_mean, x->iops, x->iops_peak, x->read,
			nb_fmt_size((uint64_t)llround(x->bs_read), a, sizeof(a)),
			nb_fmt_size((uint64_t)llround(x->bs_write), b, sizeof(b)));
		if (v)
			fprintf(f, "%5.1f%s %6.2f\n", v->sequential,
				v->seq_from == NB_SEQ_ASSUMED ? "*" : " ", x->burstiness);
		else
			fprintf(f, "%6s %6.2f\n", "", x->burstiness);
	}
	if (l->buckets)
		fprintf(f, "IOPS: the mean; busy: p%g of %d buckets of %gs; * assumed\n",
			l->busy_pct, l->buckets, l->bucket_s);
	fprintf(f, "population: %d VMs; growth: %s\n", nb_load_population(l),
		nb_growth_fmt(&l->growth, g, sizeof(g)));
	if (!l->data.have)
		return;
	/* [data]: what the box holds and caches (docs/data.md) */
	fprintf(f, "data:");
	if (!isnan(l->data.compressratio))
		fprintf(f, " compressratio %.2fx (the replay's data)", l->data.compressratio);
	if (!isnan(l->data.dedupratio))
		fprintf(f, ", dedupratio %.2fx", l->data.dedupratio);
	if (!isnan(l->data.arc_hit))
		fprintf(f, "; the ARC answered %.1f%% of the demand reads", l->data.arc_hit);
	if (!isnan(l->data.arc_size))
		fprintf(f, ", holds %s", nb_fmt_size((uint64_t)l->data.arc_size, a,
						   sizeof(a)));
	fputc('\n', f);
}

/* Said when the capture is too short for its percentile. */
static void too_short(const struct nb_load *l, int need)
{
	nb_warn("too short for a busiest-hour figure: %d buckets of %gs captured, "
		"p%g needs at least %d; the file gives their mean (%.1f IOPS in "
		"total), their peak (%.1f) and the p%g of the %d (%.1f), which is "
		"near their peak", l->buckets, l->bucket_s, l->busy_pct, need,
		l->total.iops_mean, l->total.iops_peak, l->busy_pct, l->buckets,
		l->total.iops);
}

/* L into OUT, or, when OUT cannot take it (a full disk), saved elsewhere
 * and said (nb_cmd_rescue): the hours of a capture are not lost to a
 * write.  0 or NB_EXIT_TARGET. */
static int keep(const struct nb_load *l, const char *out)
{
	char *text, where[4200];

	if (!nb_load_write(l, out))
		return 0;
	text = nb_load_format(l);
	if (!text || !strcmp(out, "-"))
		nb_die_msg("%s", nb_err_last());
	else
		nb_cmd_rescue("load file", "nasbench-load", ".ini", text,
			      strlen(text), where, sizeof(where));
	free(text);
	return NB_EXIT_TARGET;
}

/* The end: the file written (when there is a bucket), what happened said;
 * the exit status. */
static int finish(const struct nb_capture_outcome *oc, struct nb_load *l,
		  const char *out, int quiet)
{
	int rc;

	if (!oc->buckets) {
		nb_die_msg("%s before a whole bucket was captured: nothing written",
			   oc->end == NB_CAPTURE_STOPPED ? "interrupted" : oc->why);
		return oc->end == NB_CAPTURE_STOPPED ? NB_EXIT_INTR : NB_EXIT_TARGET;
	}
	rc = keep(l, out);
	if (!quiet)
		summary(strcmp(out, "-") ? stdout : stderr, l);
	if (rc)
		return rc;
	if (oc->notes[0] && !quiet)
		nb_warn("%s", oc->notes);
	if (l->buckets < oc->need)
		too_short(l, oc->need);
	if (oc->end == NB_CAPTURE_LOST) {
		nb_die_msg("%s: %s after %d of %d buckets; the %d captured so far "
			   "are in '%s'", l->source, oc->why, oc->buckets,
			   oc->total, oc->buckets, out);
		return NB_EXIT_TARGET;
	}
	if (oc->end == NB_CAPTURE_STOPPED) {
		nb_die_msg("interrupted after %d of %d buckets; the %d captured so "
			   "far are in '%s'", oc->buckets, oc->total, oc->buckets, out);
		return NB_EXIT_INTR;
	}
	return NB_EXIT_OK;
}

/* --show FILE: read, checked, shown. */
static int show(const char *path)
{
	struct nb_load l;
	int rc;

	nb_load_init(&l);
	rc = nb_load_read(&l, path);
	if (rc) {
		nb_die_msg("%s", nb_err_last());
		nb_load_free(&l);
		return NB_EXIT_USAGE;
	}
	summary(stdout, &l);
	nb_load_free(&l);
	return NB_EXIT_OK;
}

int cmd_capture(int argc, char **argv)
{
	struct opts o = { 0 };
	struct nb_capture_cfg c = { 0 };
	struct nb_capture_outcome oc;
	struct nb_load l;
	const char *out;
	int rc;

	if (nb_opts_parse("capture", argc, argv, capture_opts,
			  NB_OPTS_N(capture_opts), NULL, &o))
		return nb_cmd_usage("%s", nb_err_last());
	if (o.show && optind < argc)
		return nb_cmd_usage("--show reads a file, it captures nothing: '%s' "
				    "(see 'nasbench help capture')", argv[optind]);
	if (o.show)
		return show(o.show);
	if (argc - optind > 1)
		return nb_cmd_usage("unexpected argument '%s' (see 'nasbench help "
				    "capture')", argv[optind + 1]);
	c.source = optind < argc ? argv[optind] : "local";
	if (strcmp(c.source, "local") && strncmp(c.source, "ssh://", 6))
		return nb_cmd_usage("'%s' is not local or ssh://[user@]host[:port]",
				    c.source);
	if (nb_telem_check(c.source) || configure(&o, &c))
		return nb_cmd_usage("%s", nb_err_last());
	out = o.output ? o.output : "load.ini";
	if ((rc = nb_atomic_check(out, &nb_load_out)))
		return nb_cmd_write_error(rc);
	c.progress = o.quiet ? NULL : stderr;
	c.stop = &nb_cmd_stop;
	nb_cmd_catch_signals();
	nb_load_init(&l);
	rc = nb_capture_run(&c, &l, &oc);
	if (rc) {
		nb_load_free(&l);
		nb_die_msg("%s", nb_err_last());
		return rc == -EINVAL ? NB_EXIT_USAGE : NB_EXIT_TARGET;
	}
	rc = finish(&oc, &l, out, o.quiet);
	nb_load_free(&l);
	return rc;
}
