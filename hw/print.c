/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * print.c - the inventory as a person reads it ('nasbench hw').
 * Unknown fields print as "unknown", as the JSON says null.
 */
#include "inventory.h"
#include "../core/units.h"

#include <stdio.h>
#include <string.h>

static const char *s_or(const json_t *o, const char *k, const char *dflt)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v ? v : dflt;
}

static void num_or(char *buf, size_t len, const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else
		snprintf(buf, len, "unknown");
}

static void size_or(char *buf, size_t len, const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_integer(v))
		nb_fmt_size((uint64_t)json_integer_value(v), buf, len);
	else
		snprintf(buf, len, "unknown");
}

static const char *tri(const json_t *o, const char *k, const char *yes,
		       const char *no)
{
	json_t *v = json_object_get(o, k);

	return json_is_true(v) ? yes : json_is_false(v) ? no : "unknown";
}

static void print_cpu(FILE *out, const json_t *inv)
{
	json_t *cpu = json_object_get(inv, "cpu");
	char so[32], co[32], th[32];

	num_or(so, sizeof(so), cpu, "sockets");
	num_or(co, sizeof(co), cpu, "cores");
	num_or(th, sizeof(th), cpu, "threads");
	fprintf(out, "cpu       %s, sockets %s, cores %s, threads %s\n",
		s_or(cpu, "model", "unknown"), so, co, th);
}

/* The list KEY of INV, a line each by ROW, the first headed KEY; "KEY
 * unknown" when there is no list, NONE (if any) when it is empty. */
static void print_list(FILE *out, const json_t *inv, const char *key,
		       const char *none,
		       void (*row)(FILE *out, const char *head, const json_t *e))
{
	json_t *list = json_object_get(inv, key), *e;
	size_t i;

	if (!json_is_array(list)) {
		fprintf(out, "%-9s unknown\n", key);
		return;
	}
	if (!json_array_size(list) && none)
		fprintf(out, "%-9s %s\n", key, none);
	json_array_foreach(list, i, e)
		row(out, i ? "" : key, e);
}

static void disk_row(FILE *out, const char *head, const json_t *d)
{
	char sz[32], lb[32], pb[32];

	size_or(sz, sizeof(sz), d, "size_bytes");
	num_or(lb, sizeof(lb), d, "logical_block_size");
	num_or(pb, sizeof(pb), d, "physical_block_size");
	fprintf(out, "%-9s %-8s %-10s %-14s sched %-12s blocks %s/%s  trim %s"
		"  model %s\n", head, s_or(d, "name", "?"), sz,
		tri(d, "rotational", "rotational", "solid-state"),
		s_or(d, "scheduler", "unknown"), lb, pb,
		tri(d, "discard", "yes", "no"), s_or(d, "model", "unknown"));
}

static void print_arrays(FILE *out, const json_t *inv)
{
	json_t *arr = json_object_get(inv, "arrays"), *a, *m;
	size_t i, j;

	json_array_foreach(arr, i, a) {
		char sz[32];

		size_or(sz, sizeof(sz), a, "size_bytes");
		fprintf(out, "%-9s %-8s %-10s %s of", i ? "" : "arrays",
			s_or(a, "name", "?"), sz, s_or(a, "level", "unknown"));
		json_array_foreach(json_object_get(a, "members"), j, m)
			fprintf(out, " %s", json_string_value(m));
		fputc('\n', out);
	}
}

static void nic_row(FILE *out, const char *head, const json_t *n)
{
	char sp[32], mtu[32];
	json_t *s = json_object_get(n, "speed_mbit");

	if (json_is_integer(s))
		snprintf(sp, sizeof(sp), "%lld Mbit/s",
			 (long long)json_integer_value(s));
	else
		snprintf(sp, sizeof(sp), "unknown");
	num_or(mtu, sizeof(mtu), n, "mtu");
	fprintf(out, "%-9s %-8s speed %-13s mtu %-6s %-8s driver %s%s\n", head,
		s_or(n, "name", s_or(n, "description", "?")), sp, mtu,
		s_or(n, "state", "unknown"), s_or(n, "driver", "unknown"),
		json_is_true(json_object_get(n, "virtual")) ? "  (virtual)" : "");
}

static void print_virt(FILE *out, const json_t *inv)
{
	json_t *v = json_object_get(inv, "virtualization");
	json_t *e = json_object_get(v, "evidence");
	json_t *virt = json_object_get(v, "virtual");
	const char *cv = s_or(e, "cpuid_vendor", NULL);
	const char *role = s_or(v, "xen_role", NULL);

	fprintf(out, "platform  %s", s_or(v, "platform", "unknown"));
	if (json_is_true(virt))
		fprintf(out, " (virtual machine under %s%s%s)",
			s_or(v, "hypervisor", "unknown"), role ? ", " : "",
			role ? role : "");
	else if (json_is_false(virt))
		fprintf(out, " (no hypervisor found)");
	if (cv)
		fprintf(out, "; cpuid '%s'", cv);
	if (s_or(e, "dmi_sys_vendor", NULL))
		fprintf(out, "; dmi '%s %s'", s_or(e, "dmi_sys_vendor", ""),
			s_or(e, "dmi_product_name", ""));
	if (s_or(e, "sys_hypervisor_type", NULL))
		fprintf(out, "; /sys/hypervisor '%s'",
			s_or(e, "sys_hypervisor_type", ""));
	fputc('\n', out);
}

void nb_hw_print(FILE *out, const json_t *inv)
{
	json_t *os = json_object_get(inv, "os");
	json_t *mem = json_object_get(inv, "memory");
	char tot[32], sw[32];

	size_or(tot, sizeof(tot), mem, "total_bytes");
	size_or(sw, sizeof(sw), mem, "swap_bytes");
	fprintf(out, "host      %s\n", s_or(inv, "hostname", "unknown"));
	print_cpu(out, inv);
	fprintf(out, "memory    %s, swap %s\n", tot, sw);
	fprintf(out, "os        %s, %s %s %s\n", s_or(os, "name", "unknown"),
		s_or(os, "type", "unknown"), s_or(os, "kernel", "unknown"),
		s_or(os, "arch", "unknown"));
	print_virt(out, inv);
	print_list(out, inv, "disks", "none found", disk_row);
	print_arrays(out, inv);
	print_list(out, inv, "nics", NULL, nic_row);
}
