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

/* The box's MTU for PEER, read once per target over the telemetry's
 * source (a remote command at the end of every iteration would be cut
 * short as the sampler's last one). */
static void box_mtu_read(struct nb_exec *x, const char *peer)
{
	struct nb_exec_box_mtu *b;

	if (!peer[0] || x->nbox_mtu == NB_MAX_PATHS)
		return;
	for (int i = 0; i < x->nbox_mtu; i++)
		if (!strcmp(x->box_mtu[i].peer, peer))
			return;
	b = &x->box_mtu[x->nbox_mtu++];
	snprintf(b->peer, sizeof(b->peer), "%s", peer);
	b->mtu = x->telem.on && x->telem.tm ?
		 nb_telem_box_mtu(x->telem.tm, peer, b->iface, sizeof(b->iface)) : 0;
}

static const struct nb_exec_box_mtu *box_mtu_of(struct nb_exec *x, const char *peer)
{
	for (int i = 0; i < x->nbox_mtu; i++)
		if (!strcmp(x->box_mtu[i].peer, peer))
			return x->box_mtu[i].mtu ? &x->box_mtu[i] : NULL;
	return NULL;
}

void nb_run_net_open(struct nb_exec *x, struct nb_target *t, json_t *tj)
{
	const struct nb_paths *ps = t->paths;
	char v[32];
	int addrs = 0, conns = 1;

	x->nbox_mtu = 0;
	x->net_dead_said = 0;
	if (!ps) {
		if (t->sock.mss && !t->sock.loopback)
			box_mtu_read(x, t->sock.peer);
		return;
	}
	for (int i = 0; i < ps->n; i++)
		if (!ps->p[i].at_open.loopback)
			box_mtu_read(x, ps->p[i].at_open.peer);
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
	const struct nb_exec_box_mtu *b = box_mtu_of(x, now->peer);
	char text[300], w[400];

	if (b) {
		m.box_mtu = b->mtu;
		json_object_set_new(o, "box_iface", json_string(b->iface));
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

/* A path that died since the last iteration: said in ENTRY's warnings. */
static void deaths(struct nb_exec *x, const struct nb_paths *ps, json_t *entry)
{
	char w[700];

	for (int i = 0; i < ps->n; i++) {
		const struct nb_path *p = &ps->p[i];

		if (p->state != NB_PATH_DEAD || (x->net_dead_said & (1u << i)))
			continue;
		x->net_dead_said |= 1u << i;
		snprintf(w, sizeof(w), "path %s died %.1f s after the target was "
			 "opened (%s); its %llu I/Os in flight went on the other "
			 "paths, the I/O stood still for %.0f ms", p->name,
			 (double)(p->died_ns - ps->opened_ns) / 1e9, p->why,
			 (unsigned long long)p->reissued, (double)p->failover_ns / 1e6);
		nb_result_warn(entry, w);
	}
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
	if (t->paths)
		deaths(x, t->paths, entry);
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
