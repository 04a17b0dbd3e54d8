/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.c - a remote target's network in the result (net.h). */
#include "net.h"
#include "../core/result.h"
#include "../runners/runner.h"
#include "../telemetry/telem_mtu.h"
#include "../workloads/netpath.h"

#include <stdio.h>
#include <string.h>

/* Set label KEY to V unless the box file did: a label nasbench set and
 * another target contradicts becomes "mixed". */
static void label(struct nb_exec *x, const char *key, const char *v)
{
	json_t *labels = json_object_get(x->doc, "labels");
	const char *had = json_string_value(json_object_get(labels, key));
	char word[40];
	size_t n = strlen(x->net_labels);

	snprintf(word, sizeof(word), " %s ", key);
	if (had && !strstr(x->net_labels, word))
		return;                        /* the user's */
	if (!had && n + strlen(word) < sizeof(x->net_labels))
		snprintf(x->net_labels + n, sizeof(x->net_labels) - n, "%s",
			 n ? word + 1 : word);
	json_object_set_new(labels, key, json_string(had && strcmp(had, v) ?
						     "mixed" : v));
}

void nb_run_net_open(struct nb_exec *x, struct nb_target *t, json_t *tj)
{
	const struct nb_paths *ps = t->paths;
	char v[32];
	int addrs = 0, conns = 1;

	if (!ps)
		return;
	json_object_set_new(tj, "paths", nb_wl_paths_target_json(t));
	for (int i = 0; i < ps->n; i++) {
		addrs += ps->p[i].conn == 1;
		conns = ps->p[i].conn > conns ? ps->p[i].conn : conns;
	}
	snprintf(v, sizeof(v), "%d", addrs);
	label(x, "paths", v);
	snprintf(v, sizeof(v), "%d", conns);
	label(x, "connections", v);
	label(x, "path-policy", ps->policy);
}

/* One connection's readings (at open, now), the box's MTU for its peer,
 * and the verdict (into ENTRY's warnings). */
static json_t *reading(struct nb_exec *x, const char *name,
		       const struct nb_sockinfo *open, const struct nb_sockinfo *now,
		       int *min_pmtu, json_t *entry)
{
	struct nb_tv_mtu m = { .client_mtu = now->iface_mtu, .pmtu = now->pmtu };
	json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:i}", "path", name,
			      "iface", now->iface, "iface_mtu", now->iface_mtu,
			      "mss_open", open->mss, "pmtu_open", open->pmtu,
			      "mss", now->mss, "pmtu", now->pmtu);
	char iface[64], text[300], w[400];

	if (x->telem.on && x->telem.tm)
		m.box_mtu = nb_telem_box_mtu(x->telem.tm, now->peer, iface,
					     sizeof(iface));
	if (m.box_mtu) {
		json_object_set_new(o, "box_iface", json_string(iface));
		json_object_set_new(o, "box_mtu", json_integer(m.box_mtu));
	}
	if (now->loopback)                /* no network to judge */
		return o;
	if (now->pmtu && (!*min_pmtu || now->pmtu < *min_pmtu))
		*min_pmtu = now->pmtu;
	if (nb_tv_mtu(&m, text, sizeof(text))) {
		json_object_set_new(o, "verdict", json_string(text));
		if (strcmp(name, "-"))
			snprintf(w, sizeof(w), "path %s: %s", name, text);
		else
			snprintf(w, sizeof(w), "%s", text);
		nb_result_warn(entry, w);
	}
	return o;
}

void nb_run_net_iteration(struct nb_exec *x, struct nb_target *t,
			  json_t *extra, json_t *entry)
{
	struct nb_sockinfo now;
	json_t *a;
	int min_pmtu = 0;
	char v[16];

	if (!t->ops || (!t->paths && !t->ops->pollfd))
		return;
	nb_target_sock_now(t, &now);
	a = json_array();
	if (t->paths) {
		for (int i = 0; i < t->paths->n; i++) {
			const struct nb_path *p = &t->paths->p[i];

			if (p->state != NB_PATH_DEAD)
				json_array_append_new(a, reading(x, p->name, &p->at_open,
								 &p->now, &min_pmtu, entry));
		}
	} else if (now.mss) {
		json_array_append_new(a, reading(x, "-", &t->sock, &now, &min_pmtu,
						 entry));
	}
	if (!json_array_size(a)) {
		json_decref(a);
		return;
	}
	json_object_set_new(extra, "mtu", a);
	snprintf(v, sizeof(v), "%d", min_pmtu);
	if (min_pmtu)
		label(x, "mtu", v);
}

void nb_run_net_close(struct nb_exec *x, struct nb_target *t, json_t *tj)
{
	(void)x;
	if (t->paths)
		json_object_set_new(tj, "paths", nb_wl_paths_target_json(t));
}
