/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * words.c - the words of the decision sentences: a row per configuration
 * dimension, what a figure is called, how a factor reads.
 */
#include "words.h"
#include "../core/metrics.h"
#include "../core/result.h"

#include <stdio.h>
#include <string.h>

/* How each dimension is said.  A new dimension (a label a box file or
 * ci/lab gives, a question a feature adds) is a row. */
static const struct nb_dim_words dims[] = {
	{ "slog", "none", "A SLOG", "with a SLOG", "without a SLOG",
	  "with and without a SLOG", "SLOG settings", 1 },
	{ "layout", NULL, NULL, NULL, NULL, NULL, "layouts", 1 },
	{ "target", NULL, NULL, NULL, NULL, NULL, "targets", 1 },
	{ "file", NULL, NULL, NULL, NULL, NULL, "results", 1 },
	{ "sync", "standard", "sync=%s", "with sync=%s", "with sync=standard",
	  "with either sync setting", "sync settings", 0 },
	{ "compression", "off", "Compression (%s)", "with compression (%s)",
	  "without compression", "with and without compression",
	  "compression settings", 0 },
	{ "platform", "bare", "Virtualisation (%s)", "virtualised (%s)",
	  "on bare metal", "bare and virtualised", "platforms", 1 },
	{ "mtu", "1500", "Jumbo frames (MTU %s)", "with jumbo frames (MTU %s)",
	  "at MTU 1500", "with and without jumbo frames", "MTUs", 0 },
	{ "paths", "1", "%s paths", "over %s paths", "over one path",
	  "over one path and several", "path counts", 0 },
	{ "policy", NULL, NULL, NULL, NULL, NULL, "path policies", 0 },
	{ "distribution", NULL, NULL, NULL, NULL, NULL, "distributions", 0 },
	{ "disk", NULL, NULL, NULL, NULL, NULL, "disk profiles", 0 },
	{ "arc", NULL, NULL, NULL, NULL, NULL, "ARC sizes", 0 },
	{ "recordsize", NULL, NULL, NULL, NULL, NULL, "record sizes", 0 },
	{ "atime", "on", "atime=%s", "with atime=%s", "with atime=on",
	  "with either atime setting", "atime settings", 0 },
};


const struct nb_dim_words *nb_words_dim(const char *dim)
{
	static __thread struct nb_dim_words generic;
	static __thread char plural[96];

	for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
		if (!strcmp(dims[i].dim, dim))
			return &dims[i];
	snprintf(plural, sizeof(plural), "%s values", dim);
	generic = (struct nb_dim_words){ dim, NULL, NULL, NULL, NULL, NULL, plural,
					 0 };
	return &generic;
}

void nb_words_on(const char *dim, const char *v, const char *shown, char *out,
		 size_t len)
{
	const struct nb_dim_words *w = nb_words_dim(dim);

	if (w->without && !strcmp(v, w->without))
		snprintf(out, len, "%s", w->off);
	else if (w->without)
		snprintf(out, len, w->on, v);
	else
		snprintf(out, len, "on %s", shown);
}

/* "sequential sync writes", "random read IOPS" (IOPS): a fio-like
 * entry's spec in words. */
static int spec_words(const json_t *e, int iops, char *out, size_t len)
{
	const json_t *spec = json_object_get(e, "spec");
	const char *w = nb_jstr(e, "workload"), *rw = nb_jstr(spec, "rw");
	const char *pat = nb_jstr(spec, "pattern");
	size_t n = strlen(w);
	int sync = !strcmp(nb_jstr(spec, "sync"), "always") ||
		   (n > 5 && !strcmp(w + n - 5, "-sync"));

	if (strcmp(rw, "write") && strcmp(rw, "read"))
		return 0;
	snprintf(out, len, "%s%s%s%s", !strcmp(pat, "seq") ? "sequential " :
		 !strcmp(pat, "rand") ? "random " : "", sync ? "sync " : "", rw,
		 iops ? " IOPS" : "s");
	return 1;
}

void nb_words_what(const json_t *e, const char *metric, char *out, size_t len)
{
	const struct nb_metric *m = nb_metric_find(metric);
	const char *w = nb_jstr(e, "workload");
	size_t n = strlen(metric), k = strlen("_bw_bytes");

	if (!strcmp(w, "bonnie") && ((n > k && !strcmp(metric + n - k, "_bw_bytes")) ||
				     (n > 4 && !strcmp(metric + n - 4, "_kps"))))
	{
		/* "block write (bonnie++ K/sec)": its words before the unit */
		size_t w_len = strcspn(m->help, "(");

		while (w_len && m->help[w_len - 1] == ' ')
			w_len--;
		snprintf(out, len, "bonnie++ %.*ss", (int)w_len, m->help);
	}
	else if (!strcmp(w, "bigfile"))
		snprintf(out, len, "%s", !strcmp(metric, "seconds") ?
			 "big file time" : "big file writes");
	else if (!strcmp(w, "xz"))
		snprintf(out, len, "xz compression%s", !strcmp(metric, "seconds") ?
			 " time" : "");
	else if (!strcmp(metric, "bw_bytes") || !strcmp(metric, "iops")) {
		if (!spec_words(e, !strcmp(metric, "iops"), out, len))
			snprintf(out, len, "%s%s", w, !strcmp(metric, "iops") ?
				 " IOPS" : "");
	} else {
		snprintf(out, len, "%s", m->label);   /* "sync IOPS", "VMs at the objective" */
	}
}

/* One factor to two figures: "27", "3.8", "1.15". */
static void one(double t, char *out, size_t len)
{
	snprintf(out, len, t >= 9.95 ? "%.0f" : t >= 1.995 ? "%.1f" : "%.2f", t);
}

void nb_words_factor(double lo, double hi, char *out, size_t len)
{
	char a[32], b[32];

	one(lo, a, sizeof(a));
	one(hi, b, sizeof(b));
	if (!strcmp(a, b))
		snprintf(out, len, "%sx", a);
	else
		snprintf(out, len, "%s-%sx", a, b);
}

void nb_words_confidence(int nlo, int nhi, double spread, size_t n, size_t nsig,
			 size_t nlow, int sig, char *out, size_t len)
{
	size_t l;

	if (nlo == nhi)
		l = (size_t)snprintf(out, len, "(n=%d each, \u00b1%.0f%%", nlo, spread);
	else
		l = (size_t)snprintf(out, len, "(n=%d-%d, \u00b1%.0f%%", nlo, nhi, spread);
	if (l >= len)
		return;
	if (sig && nlow == n)
		l += (size_t)snprintf(out + l, len - l, "; too few iterations to test");
	else if (sig && !nsig)
		l += (size_t)snprintf(out + l, len - l, "; not significant");
	else if (sig && nsig < n)
		l += (size_t)snprintf(out + l, len - l, "; %zu of %zu significant", nsig, n);
	if (l < len)
		snprintf(out + l, len - l, ")");
}
