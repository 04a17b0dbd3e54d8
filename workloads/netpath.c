/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netpath.c - a multipath target's paths in the result (netpath.h). */
#include "netpath.h"

#include <stdio.h>
#include <string.h>

static const char *state_name(int s)
{
	return s == NB_PATH_DEAD ? "dead" : s == NB_PATH_STANDBY ? "standby" :
	       "active";
}

/* When path P died, how long the I/O stood still, what was reissued. */
static void death(json_t *o, const struct nb_path *p, uint64_t since_ns,
		  const char *key)
{
	if (p->state != NB_PATH_DEAD)
		return;
	if (p->died_ns >= since_ns)
		json_object_set_new(o, key, json_real(
			(double)(p->died_ns - since_ns) /
			(!strcmp(key, "died_s") ? 1e9 : 1e6)));
	if (p->failover_ns)
		json_object_set_new(o, "failover_ms",
				    json_real((double)p->failover_ns / 1e6));
	json_object_set_new(o, "reissued", json_integer((json_int_t)p->reissued));
	json_object_set_new(o, "why", json_string(p->why));
}

json_t *nb_wl_paths_json(const struct nb_target *t, uint64_t elapsed_ns)
{
	const struct nb_paths *ps = t->paths;
	double secs = (double)elapsed_ns / 1e9;
	json_t *a;

	if (!ps)
		return NULL;
	if (secs <= 0)
		secs = 1e-9;
	a = json_array();
	for (int i = 0; i < ps->n; i++) {
		const struct nb_path *p = &ps->p[i];
		uint64_t bytes = p->bytes_read + p->bytes_written;
		json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:f, s:f}",
				      "path", p->name, "state", state_name(p->state),
				      "ios", (json_int_t)p->ios, "bytes",
				      (json_int_t)bytes, "bw_bytes",
				      (double)bytes / secs, "iops",
				      (double)p->ios / secs);

		if (p->lat.count) {
			json_object_set_new(o, "lat_mean_us",
					    json_real(nb_hist_mean(&p->lat) / 1e3));
			json_object_set_new(o, "lat_p99_us", json_real(
				(double)nb_hist_percentile(&p->lat, 99) / 1e3));
		}
		death(o, p, ps->run_ns, "died_s");
		json_array_append_new(a, o);
	}
	return a;
}

json_t *nb_wl_paths_target_json(const struct nb_target *t)
{
	const struct nb_paths *ps = t->paths;
	json_t *list, *o;

	if (!ps)
		return NULL;
	list = json_array();
	for (int i = 0; i < ps->n; i++) {
		const struct nb_path *p = &ps->p[i];

		o = json_pack("{s:s, s:s, s:i, s:s}", "path", p->name, "addr",
			      p->addr, "conn", p->conn, "state", state_name(p->state));
		death(o, p, ps->opened_ns, "died_ms");
		json_array_append_new(list, o);
	}
	return json_pack("{s:s, s:s, s:o}", "policy", ps->policy, "ident",
			 ps->ident, "list", list);
}

json_t *nb_wl_sock_json(const struct nb_sockinfo *si)
{
	return json_pack("{s:s, s:i, s:i, s:i, s:s, s:s}", "iface", si->iface,
			 "iface_mtu", si->iface_mtu, "mss", si->mss, "pmtu",
			 si->pmtu, "local", si->local, "peer", si->peer);
}
