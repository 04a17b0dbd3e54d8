/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meta.c - what 'nasbench report' says about each result: when and
 * where it ran, with which nasbench and libraries, against which targets
 * (no secrets), the command line, the client's and the box's hardware,
 * every warning, the acceptance verdict with its criteria, and whether it
 * finished.
 */
#include "model.h"
#include "../core/result.h"
#include "../core/units.h"
#include "../core/url.h"

#include <stdio.h>
#include <string.h>

static void base_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	snprintf(out, len, "%s", b);
}

/* "AMD EPYC, 2 threads, 23.5 GiB RAM, 4 x WD Red 3TB (2.7 TiB)" */
static void hw_text(const json_t *hw, char *out, size_t len)
{
	const json_t *cpu = json_object_get(hw, "cpu"), *d;
	json_t *mem = json_object_get(json_object_get(hw, "memory"), "total_bytes");
	size_t l = 0, i, nd = json_array_size(json_object_get(hw, "disks"));
	char sz[32];

	out[0] = '\0';
	if (!hw)
		return;
	if (*nb_jstr(hw, "hostname"))
		l += (size_t)snprintf(out + l, len - l, "%s: ", nb_jstr(hw, "hostname"));
	if (*nb_jstr(hw, "product") && l < len)
		l += (size_t)snprintf(out + l, len - l, "%s, ", nb_jstr(hw, "product"));
	if (*nb_jstr(cpu, "model") && l < len)
		l += (size_t)snprintf(out + l, len - l, "%s", nb_jstr(cpu, "model"));
	if (json_integer_value(json_object_get(cpu, "threads")) && l < len)
		l += (size_t)snprintf(out + l, len - l, " (%lld threads)",
				      (long long)json_integer_value(json_object_get(cpu,
									      "threads")));
	if (json_is_number(mem) && l < len) {
		nb_fmt_size((uint64_t)json_number_value(mem), sz, sizeof(sz));
		l += (size_t)snprintf(out + l, len - l, "%s%s RAM", l ? ", " : "", sz);
	}
	json_array_foreach(json_object_get(hw, "disks"), i, d) {
		const char *model = *nb_jstr(d, "model") ? nb_jstr(d, "model") :
				    *nb_jstr(d, "name") ? nb_jstr(d, "name") : "disk";
		json_t *s = json_object_get(d, "size_bytes");

		if (i || l >= len)
			break;
		l += (size_t)snprintf(out + l, len - l, "%s%zu x %s", l ? ", " : "", nd,
				      model);
		if (json_is_number(s) && l < len) {
			nb_fmt_size((uint64_t)json_number_value(s), sz, sizeof(sz));
			l += (size_t)snprintf(out + l, len - l, " (%s)", sz);
		}
	}
	if (!l)
		snprintf(out, len, "-");
}

static void add(json_t *rows, const char *k, const char *v)
{
	if (v && *v)
		json_array_append_new(rows, json_pack("[s, s]", k, v));
}

/* What finished of an incomplete result: "interrupted: rand4k-write (1
 * iteration kept)". */
static void finished_text(const json_t *doc, char *out, size_t len)
{
	const json_t *e;
	size_t i, l;

	l = (size_t)snprintf(out, len, "%s", json_is_false(json_object_get(doc, "complete")) ?
			     "no (the run stopped early)" : "yes");
	json_array_foreach(json_object_get(doc, "results"), i, e) {
		size_t n = json_array_size(json_object_get(e, "iterations"));

		if (!strcmp(nb_jstr(e, "status"), "ok") || l >= len)
			continue;
		l += (size_t)snprintf(out + l, len - l, "; %s/%s %s (%zu iteration%s "
				      "kept)%s%s", nb_jstr(e, "target"), nb_jstr(e, "workload"),
				      nb_jstr(e, "status"), n, n == 1 ? "" : "s",
				      *nb_jstr(e, "reason") ? ": " : "", nb_jstr(e, "reason"));
	}
}

json_t *nb_report_runs(const struct nb_report *r)
{
	json_t *head = json_pack("[s, s, s, s, s, s]", "result", "configuration",
				 "started", "host", "complete", "acceptance");
	json_t *rows = json_array();

	for (size_t i = 0; i < r->ndocs; i++) {
		const json_t *d = r->docs[i], *acc = json_object_get(d, "accept");
		char f[256], host[256], v[128];
		const char *cfg = "";

		base_name(r->paths[i], f, sizeof(f));
		for (size_t c = 0; c < r->ncfg; c++) {
			json_t *x;
			size_t j;

			json_array_foreach(r->cfgs[c].docs, j, x)
				if (x == d)
					cfg = r->cfgs[c].name;
		}
		snprintf(host, sizeof(host), "%s", *nb_jstr(json_object_get(d, "client"),
							   "hostname") ?
			 nb_jstr(json_object_get(d, "client"), "hostname") : "-");
		if (acc)
			snprintf(v, sizeof(v), "%s (%lld passed, %lld failed)",
				 nb_jstr(acc, "verdict"),
				 (long long)json_integer_value(json_object_get(acc, "passed")),
				 (long long)json_integer_value(json_object_get(acc, "failed")));
		else
			snprintf(v, sizeof(v), "-");
		json_array_append_new(rows, json_pack("[s, s, s, s, s, s]", f, cfg,
			*nb_jstr(d, "started") ? nb_jstr(d, "started") : "-", host,
			json_is_false(json_object_get(d, "complete")) ? "no" : "yes", v));
	}
	return json_pack("{s:o, s:o}", "head", head, "rows", rows);
}

json_t *nb_report_run_detail(const struct nb_report *r, size_t i)
{
	const json_t *d = r->docs[i], *t, *e, *w, *lib, *acc, *c;
	json_t *rows = json_array();
	char buf[4096], url[1024];
	const char *k;
	size_t j, x, l;

	snprintf(buf, sizeof(buf), "%s to %s", nb_jstr(d, "started"), nb_jstr(d, "finished"));
	add(rows, "time", *nb_jstr(d, "started") ? buf : NULL);
	finished_text(d, buf, sizeof(buf));
	add(rows, "complete", buf);
	l = (size_t)snprintf(buf, sizeof(buf), "%s", nb_jstr(d, "version"));
	json_object_foreach((json_t *)json_object_get(d, "libs"), k, lib)
		if (l < sizeof(buf))
			l += (size_t)snprintf(buf + l, sizeof(buf) - l, "%s%s %s",
					      l ? ", " : "", k, json_string_value(lib) ?: "");
	add(rows, "nasbench", buf);
	add(rows, "command", nb_jstr(d, "command"));
	l = 0;
	buf[0] = '\0';
	json_array_foreach(json_object_get(d, "targets"), j, t)
		if (l < sizeof(buf))
			l += (size_t)snprintf(buf + l, sizeof(buf) - l, "%s%s = %s (%s)",
					      j ? "; " : "", nb_jstr(t, "name"),
					      nb_url_redact(nb_jstr(t, "url"), url, sizeof(url)),
					      nb_jstr(t, "runner"));
	add(rows, "targets", buf);
	hw_text(json_object_get(d, "client"), buf, sizeof(buf));
	add(rows, "client", buf);
	hw_text(json_object_get(d, "box"), buf, sizeof(buf));
	add(rows, "box", buf);
	l = 0;
	buf[0] = '\0';
	json_object_foreach((json_t *)json_object_get(d, "labels"), k, lib)
		if (l < sizeof(buf))
			l += (size_t)snprintf(buf + l, sizeof(buf) - l, "%s%s=%s",
					      l ? " " : "", k, json_string_value(lib) ?: "");
	add(rows, "labels", buf);
	json_array_foreach(json_object_get(d, "results"), j, e)
		json_array_foreach(json_object_get(e, "warnings"), x, w) {
			snprintf(buf, sizeof(buf), "%s/%s: %s", nb_jstr(e, "target"),
				 nb_jstr(e, "workload"), json_string_value(w) ?: "");
			add(rows, "warning", buf);
		}
	acc = json_object_get(d, "accept");
	json_array_foreach(json_object_get(acc, "criteria"), j, c) {
		json_t *m = json_object_get(c, "measured");

		l = (size_t)snprintf(buf, sizeof(buf), "%s: %s", nb_jstr(c, "verdict"),
				     nb_jstr(c, "criterion"));
		if (json_is_number(m))
			l += (size_t)snprintf(buf + l, sizeof(buf) - l, " (measured %g)",
					      json_number_value(m));
		if (*nb_jstr(c, "reason"))
			snprintf(buf + l, sizeof(buf) - l, " (%s)", nb_jstr(c, "reason"));
		add(rows, "acceptance", buf);
	}
	return json_pack("{s:[s,s], s:o, s:b}", "head", "item", "value", "rows", rows,
			 "text", 1);
}
