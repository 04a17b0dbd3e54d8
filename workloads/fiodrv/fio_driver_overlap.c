/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_overlap.c - a --clients iteration's figures held against each
 *                        other (see fio_driver_overlap.h).
 */
#include "fio_driver_overlap.h"
#include "../../fio/overlap.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nb_wl_fio_span_prefix(const char *dir, int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/client%d", dir, i + 1);
}

/* The clients' bytes added up against fio's aggregate. */
static void check_bytes(struct nb_wl_ctx *c, const struct nb_fio_output *out,
			json_t *clients, json_t *fj)
{
	uint64_t sum = 0;
	json_t *e;
	size_t i;

	json_array_foreach(clients, i, e)
		sum += (uint64_t)json_integer_value(json_object_get(e, "bytes"));
	json_object_set_new(fj, "sum_client_bytes", json_integer((json_int_t)sum));
	if (!out->has_all)
		return;         /* one client: fio prints no aggregate */
	json_object_set_new(fj, "bytes_match", json_boolean(sum == out->all_bytes));
	if (sum != out->all_bytes)
		nb_wl_warn(c, "fio clients: the clients' bytes add up to %" PRIu64
			   ", fio's \"All clients\" entry says %" PRIu64 ": its "
			   "aggregate does not hold these clients' figures", sum,
			   out->all_bytes);
}

/* Names of the clients flagged in FLAG, comma-separated, into BUF; the
 * JSON array of them into ARR. */
static void names(const struct nb_fio_clients *cl, const int *flag, char *buf,
		  size_t len, json_t *arr)
{
	char name[300];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < cl->n; i++) {
		if (!flag[i])
			continue;
		nb_fio_client_name(&cl->c[i], name, sizeof(name));
		json_array_append_new(arr, json_string(name));
		n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
				      "%s'%s'", n ? ", " : "", name);
	}
}

static json_t *client_entry(json_t *clients, const struct nb_fio_client *cl)
{
	char name[300];
	json_t *e;
	size_t i;

	nb_fio_client_name(cl, name, sizeof(name));
	json_array_foreach(clients, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "client")), name))
			return json_object_get(e, "bytes") ? e : NULL;
	return NULL;
}

/* Each reporting client's span from its log; *FIRST the earliest start.
 * Returns how many reporting clients have no span. */
static int read_spans(const struct nb_fio_clients *cl, json_t *clients,
		      const char *logdir, struct nb_fio_span *sp,
		      uint64_t *first, uint64_t *longest)
{
	char prefix[4200], path[4400];
	int lacking = 0;

	*first = UINT64_MAX;
	*longest = 0;
	for (int i = 0; i < cl->n; i++) {
		memset(&sp[i], 0, sizeof(sp[i]));
		nb_wl_fio_span_prefix(logdir, i, prefix, sizeof(prefix));
		if (!client_entry(clients, &cl->c[i]))
			continue;
		if (nb_fio_span_find(logdir, strrchr(prefix, '/') + 1, path,
				     sizeof(path)) ||
		    nb_fio_span_read(path, NB_FIO_SPAN_AVG_MS, &sp[i])) {
			lacking++;
			continue;
		}
		if (sp[i].start_ms < *first)
			*first = sp[i].start_ms;
		if (sp[i].end_ms - sp[i].start_ms > *longest)
			*longest = sp[i].end_ms - sp[i].start_ms;
	}
	return lacking;
}

static void check_overlap(struct nb_wl_ctx *c, const struct nb_fio_clients *cl,
			  json_t *clients, const char *logdir, json_t *fj)
{
	struct nb_fio_span sp[NB_FIO_MAX_CLIENTS];
	int late[NB_FIO_MAX_CLIENTS], early[NB_FIO_MAX_CLIENTS];
	uint64_t first, longest, common, tol;
	char lbuf[2000], ebuf[2000];
	json_t *ov, *la = json_array(), *ea = json_array();

	int lacking = read_spans(cl, clients, logdir, sp, &first, &longest);

	if (lacking)
		nb_wl_warn(c, "fio clients: %d client(s) sent no bandwidth log "
			   "back: whether the clients ran at the same time is not "
			   "known", lacking);
	if (lacking || first == UINT64_MAX) {
		json_decref(la);
		json_decref(ea);
		return;
	}
	tol = nb_fio_overlap_tol(longest);
	nb_fio_overlap(sp, cl->n, tol, late, early, &common);
	for (int i = 0; i < cl->n; i++) {
		json_t *e = client_entry(clients, &cl->c[i]);

		if (!e || !sp[i].ok)
			continue;
		json_object_set_new(e, "start_s",
				    json_real((double)(sp[i].start_ms - first) / 1e3));
		json_object_set_new(e, "end_s",
				    json_real((double)(sp[i].end_ms - first) / 1e3));
		json_object_set_new(e, "late", json_boolean(late[i]));
		json_object_set_new(e, "early", json_boolean(early[i]));
	}
	names(cl, late, lbuf, sizeof(lbuf), la);
	names(cl, early, ebuf, sizeof(ebuf), ea);
	ov = json_pack("{s:f, s:f, s:f, s:o, s:o}", "common_s", (double)common / 1e3,
		       "longest_s", (double)longest / 1e3, "tolerance_s",
		       (double)tol / 1e3, "late", la, "early", ea);
	json_object_set_new(fj, "overlap", ov);
	if (lbuf[0])
		nb_wl_warn(c, "fio clients %s started late (more than %.1f s after "
			   "the first): fio's aggregate counts their bytes over the "
			   "longest runtime, a load the box did not carry all at once",
			   lbuf, (double)tol / 1e3);
	if (ebuf[0])
		nb_wl_warn(c, "fio clients %s finished early (more than %.1f s before "
			   "the last): fio's aggregate counts their bytes over the "
			   "longest runtime, a load the box did not carry all at once",
			   ebuf, (double)tol / 1e3);
}

void nb_wl_fio_clients_check(struct nb_wl_ctx *c, const struct nb_fio_clients *cl,
			     const struct nb_fio_output *out, json_t *clients,
			     const char *logdir)
{
	json_t *fj = json_object_get(c->extra, "fio");

	if (!fj)
		return;
	check_bytes(c, out, clients, fj);
	check_overlap(c, cl, clients, logdir, fj);
}

const char *nb_wl_fio_server_complaint(const char *out, char *buf, size_t len)
{
	const char *json = strstr(out, "\n{");

	for (const char *l = out; l && *l && (!json || l < json);
	     l = strchr(l, '\n'), l += !!l) {
		const char *gt = l[0] == '<' ? strstr(l, "> fio: ") : NULL;
		const char *eol = strchr(l, '\n');

		if (gt && (!eol || gt < eol)) {
			snprintf(buf, len, "%.*s", (int)strcspn(l, "\n"), l);
			return buf;
		}
	}
	return NULL;
}
