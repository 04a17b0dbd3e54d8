/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * network.c - what a comparison says of the network between the box and
 * the client (docs/network.md): the paths, connections, path policy or
 * MTU differ between the two runs (a change may then be the network's,
 * not the box's), or a path died during a run (its figures hold the
 * failover).
 */
#include "network.h"
#include "../core/result.h"

#include <string.h>

static const char *const net_labels[] = { "paths", "connections",
					   "path-policy", "mtu" };

/* Label K of L as a comparison takes it: a run of one path has no paths
 * or connections label (1); a run before nasbench measured the MTU has no
 * mtu, which then says nothing (NULL), nor does a missing policy. */
static const char *net_label(const json_t *l, const char *k)
{
	const char *v = json_string_value(json_object_get(l, k));

	if (v)
		return v;
	return !strcmp(k, "paths") || !strcmp(k, "connections") ? "1" : NULL;
}

/* "mtu 9000 -> 1500, path-policy rr:1000 -> rr:1" into BUF, or "". */
static void differ(const json_t *base, const json_t *new_, char *buf, size_t len)
{
	const json_t *lb = json_object_get(base, "labels");
	const json_t *ln = json_object_get(new_, "labels");
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(net_labels) / sizeof(net_labels[0]); i++) {
		const char *a = net_label(lb, net_labels[i]);
		const char *b = net_label(ln, net_labels[i]);

		if (!a || !b || !strcmp(a, b) || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s -> %s", n ? ", " : "",
				      net_labels[i], a, b);
	}
}

/* Each path of DOC (named WHICH) that died, as a warning. */
static void deaths(const json_t *doc, const char *which, json_t *warnings)
{
	const json_t *t, *p;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "targets"), i, t)
		json_array_foreach(json_object_get(json_object_get(t, "paths"), "list"),
				   j, p)
			if (!strcmp(nb_jstr(p, "state"), "dead"))
				json_array_append_new(warnings, json_sprintf(
					"%s (%s): path %s died during the run (%s): "
					"its figures hold the failover", nb_jstr(t, "name"),
					which, nb_jstr(p, "path"), nb_jstr(p, "why")));
}

void nb_compare_network(const json_t *base, const json_t *new_, json_t *warnings)
{
	char d[512];

	differ(base, new_, d, sizeof(d));
	if (d[0])
		json_array_append_new(warnings, json_sprintf(
			"the network differs: %s; the box was reached another way, "
			"so a change may be the network's, not the box's "
			"(docs/network.md)", d));
	deaths(base, "base", warnings);
	deaths(new_, "new", warnings);
}
