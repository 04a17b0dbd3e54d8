/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * box.c - the inventories a result carries: the client's (read here) and
 * the box's (a file made by 'nasbench hw --json' on the box, this machine
 * when the targets are local, or what the [box] labels say), and the
 * platform label derived from them.
 */
#include "inventory.h"
#include "planner.h"
#include "../core/config.h"
#include "../core/err.h"
#include "../core/units.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

int nb_hw_load(const char *path, json_t **out)
{
	json_error_t e;
	int in = !strcmp(path, "-");   /* '-': standard input */
	json_t *doc = in ? json_loadf(stdin, 0, &e) : json_load_file(path, 0, &e);
	json_t *inv;
	const char *kind, *tool;
	json_int_t schema;

	if (in)
		path = "standard input";
	*out = NULL;
	if (!doc) {
		if (e.line < 1)
			return nb_err(-ENOENT, "cannot read '%s': %s", path, e.text);
		return nb_err(-EINVAL, "'%s' is not valid JSON (line %d, column %d: %s)",
			      path, e.line, e.column, e.text);
	}
	kind = json_string_value(json_object_get(doc, "kind"));
	tool = json_string_value(json_object_get(doc, "tool"));
	if (kind && !strcmp(kind, NB_HW_KIND)) {
		inv = json_incref(doc);
	} else if (tool && !strcmp(tool, "nasbench") &&
		   json_is_object(json_object_get(doc, "client"))) {
		/* a result made on the box: its client is the box */
		inv = json_incref(json_object_get(doc, "client"));
	} else {
		json_decref(doc);
		return nb_err(-EINVAL, "'%s' is not a hardware inventory (make one "
			      "with 'nasbench hw --json' on the box)", path);
	}
	json_decref(doc);
	schema = json_integer_value(json_object_get(inv, "schema"));
	if (schema > NB_HW_SCHEMA) {
		json_decref(inv);
		return nb_err(-EINVAL, "'%s' has inventory schema %lld, newer than "
			      "this nasbench reads (%d)", path, (long long)schema,
			      NB_HW_SCHEMA);
	}
	*out = inv;
	return 0;
}

static json_t *label_str(const struct nb_config *c, const char *key)
{
	const char *v = nb_config_label_get(c, key);

	return v && *v ? json_string(v) : json_null();
}

/* "5 x 3TB WD Red" with media "hdd": five disks of 3 TB, model "WD Red". */
static json_t *label_disks(const struct nb_config *c)
{
	const char *d = nb_config_label_get(c, "disks");
	const char *media = nb_config_label_get(c, "media");
	json_t *arr, *rot = json_null();
	char model[128];
	uint64_t bytes;
	int n;

	if (!d || nb_planner_parse_disks(d, &n, &bytes, model, sizeof(model)))
		return json_null();      /* free text: kept as the label only */
	if (media && !strcasecmp(media, "hdd"))
		rot = json_true();
	else if (media && (!strcasecmp(media, "ssd") || !strcasecmp(media, "nvme")))
		rot = json_false();
	arr = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:o, s:I, s:O}",
			"model", *model ? json_string(model) : json_null(),
			"size_bytes", (json_int_t)bytes, "rotational", rot));
	json_decref(rot);
	return arr;
}

static json_t *label_nic(const struct nb_config *c)
{
	const char *v = nb_config_label_get(c, "nic");
	uint64_t bps;

	if (!v)
		return json_null();
	if (nb_parse_rate(v, &bps))
		return json_pack("[{s:s, s:n}]", "description", v, "speed_mbit");
	return json_pack("[{s:s, s:I}]", "description", v, "speed_mbit",
			 (json_int_t)(bps / 1000000));
}

json_t *nb_hw_from_labels(const struct nb_config *c)
{
	static const char *const keys[] = { "cpu", "ram", "nic", "os", "disks" };
	const char *ram = nb_config_label_get(c, "ram");
	const char *plat = nb_config_label_get(c, "platform");
	uint64_t bytes = 0;
	int any = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		any |= nb_config_label_get(c, keys[i]) != NULL;
	if (!any)
		return NULL;
	if (ram && nb_parse_size(ram, &bytes))
		bytes = 0;
	return json_pack("{s:s, s:i, s:s, s:{s:o}, s:{s:o}, s:o, s:o, s:{s:o},"
			 " s:{s:o}}",
		"kind", NB_HW_KIND, "schema", NB_HW_SCHEMA, "source", "box labels",
		"cpu", "model", label_str(c, "cpu"),
		"memory", "total_bytes", bytes ? json_integer((json_int_t)bytes)
					       : json_null(),
		"disks", label_disks(c), "nics", label_nic(c),
		"os", "name", label_str(c, "os"),
		"virtualization", "platform",
		plat && strcasecmp(plat, "auto") ? json_string(plat) : json_null());
}

static int all_local(const struct nb_config *c)
{
	for (int i = 0; i < c->ntargets; i++)
		if (strcmp(c->targets[i].u.scheme, "file"))
			return 0;
	return c->ntargets > 0;
}

const char *nb_hw_embed(json_t *doc, const struct nb_config *c, json_t *box)
{
	json_t *client = nb_hw_inventory(NULL);
	json_t *labels = json_object_get(doc, "labels");
	const char *plat = json_string_value(json_object_get(labels, "platform"));
	const char *detected = NULL;

	if (!box && all_local(c)) {
		box = json_deep_copy(client);
		json_object_set_new(box, "source", json_string("detected (the "
				    "targets are local: the box is this machine)"));
	}
	if (!box)
		box = nb_hw_from_labels(c);
	if (client)
		json_object_set_new(doc, "client", client);
	if (box) {
		json_object_set_new(doc, "box", box);
		detected = nb_hw_platform(box);
	}
	if (plat && strcasecmp(plat, "auto"))
		return plat;
	if (detected) {
		json_object_set_new(labels, "platform", json_string(detected));
		return json_string_value(json_object_get(labels, "platform"));
	}
	if (plat) {
		/* said auto, but nothing tells what the box runs on */
		nb_warn("platform = auto: the box is remote and its inventory "
			"unknown; give --box-hw FILE (made by 'nasbench hw --json' "
			"on the box)");
		json_object_set_new(labels, "platform", json_string("unknown"));
		return "unknown";
	}
	return NULL;
}
