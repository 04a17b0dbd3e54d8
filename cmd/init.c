/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * init.c - 'nasbench init': a box file written for you from what the
 * targets and the box answer, for the question you ask (boxfile/).
 */
#include "cmd.h"
#include "opts.h"
#include "../boxfile/boxfile.h"
#include "../core/atomic_file.h"
#include "../core/config.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../core/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct opts {
	const char *output, *for_, *box, *identity, *known_hosts, *name;
	int force;
};

#define AT(f) NB_OPT_AT(struct opts, f)
static const struct nb_opt init_opts[] = {
	{ "for", 0, "QUESTION", AT(for_),
	  "the question the file answers: buy (which box?), tune (did my change "
	  "help?), gate (is it still as fast?) (default buy)" },
	{ "box", 0, "ssh://[user@]host[:port]", AT(box),
	  "ask the box itself over SSH: its system, memory and pools (the "
	  "file's [box] monitor)" },
	{ "identity", 0, "FILE", AT(identity), "ssh's key (default: the agent's, "
	  "or ssh's own)" },
	{ "known-hosts", 0, "FILE", AT(known_hosts),
	  "ssh's known_hosts (default: ssh's own)" },
	{ "name", 0, "NAME", AT(name), "the box's name (default: box)" },
	{ "output", 'o', "FILE", AT(output),
	  "the box file (default box.ini; '-': standard output)" },
	{ "force", 'f', NULL, AT(force), "replace FILE when it exists" },
};
#undef AT

const struct nb_usage cmd_init_usage = {
	.head = "usage: nasbench init TARGET... [options]\n"
		"\n"
		"Write a box file for you: each TARGET (a path, nfs://host/export,\n"
		"iscsi://host/iqn/lun, or NAME=URL) is probed as a run would open it\n"
		"-- reachable, the NFS export writable (a scratch directory made and\n"
		"removed), the LUN's size and whether it holds data (only read, never\n"
		"written) -- and, with --box, the box is asked for its memory and\n"
		"pools.  The file says what was found beside each key, the suite that\n"
		"answers the question, and the commands to run next; a target that\n"
		"holds data or cannot be reached is in it commented out, with why.\n"
		"\n",
	.opts = init_opts, .n = NB_OPTS_N(init_opts),
	.tail = "\n"
		"Exit status: 0 written (targets left out are said), 2 usage error\n"
		"(a bad URL or question, FILE exists without --force), 3 no target\n"
		"can be used (nothing written) or FILE cannot be written.\n",
};

/* What was found, on the terminal (stderr when the file goes to stdout). */
static FILE *msg;

static void say_target(const struct nb_probe_target *t)
{
	char a[32];

	switch (t->state) {
	case NB_PROBE_OK:
		if (t->block)
			fprintf(msg, "  %-10s %s: %s, no data on it\n", t->cfg->name, t->desc,
			       nb_fmt_size(t->capacity, a, sizeof(a)));
		else
			fprintf(msg, "  %-10s %s: writable%s%s\n", t->cfg->name, t->desc,
			       t->avail ? ", free " : "",
			       t->avail ? nb_fmt_size(t->avail, a, sizeof(a)) : "");
		break;
	case NB_PROBE_HOLDS_DATA:
		fprintf(msg, "  %-10s %s: NOT USED, it holds %s (nothing written)\n",
		       t->cfg->name, t->desc, t->holds);
		break;
	default:
		fprintf(msg, "  %-10s %s: NOT USED, %s: %s\n", t->cfg->name, t->desc,
		       t->state == NB_PROBE_READ_ONLY ? "not writable" : "unreachable",
		       t->cause);
	}
}

/* The targets of ARGV into C; 0 or an exit status (said). */
static int targets(struct nb_config *c, int argc, char **argv)
{
	if (optind >= argc)
		return nb_cmd_usage("init needs a target: a path, nfs://host/export "
				    "or iscsi://host/iqn/lun (see 'nasbench help "
				    "init')");
	for (int i = optind; i < argc; i++)
		if (nb_config_add_target(c, argv[i]))
			return nb_cmd_usage("%s", nb_err_last());
	return 0;
}


static int forced(const char *head, size_t len)
{
	(void)head;
	(void)len;
	return 1;
}

/* What the output may replace: nothing (an existing file is refused
 * before), or anything when --force says so. */
static const struct nb_out_kind *out_kind(const struct opts *o)
{
	static const struct nb_out_kind any = { "a file --force replaces", forced };

	return o->force ? &any : NULL;
}

static int probe_and_write(const struct opts *o, const struct nb_question *q,
			   struct nb_config *c, const char *path)
{
	struct nb_probe_target *t = calloc((size_t)c->ntargets, sizeof(*t));
	struct nb_probe_box box = { 0 };
	char run_id[64], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int used, rc;

	if (!t)
		return nb_cmd_usage("out of memory");
	nb_result_run_id(run_id, sizeof(run_id), "init");
	if (o->box) {
		nb_probe_box(o->box, o->identity, o->known_hosts, &box);
		fprintf(msg, "  %-10s %s: %s%s\n", "box", o->box, box.reached ? "reached, " :
		       "NOT REACHED: ", box.reached ? box.os : box.cause);
	}
	for (int i = 0; i < c->ntargets; i++) {
		nb_probe_target(&c->targets[i], run_id, &t[i]);
		say_target(&t[i]);
	}
	mem = open_memstream(&buf, &len);
	used = mem ? nb_boxfile_write(mem, path, o->name ? o->name : "box", q,
				      o->box ? &box : NULL, t, c->ntargets) : 0;
	if (mem)
		fclose(mem);
	free(t);
	if (!used) {
		free(buf);
		fprintf(stderr, "nasbench: no target can be used: nothing written\n");
		return NB_EXIT_TARGET;
	}
	rc = nb_atomic_write(path, buf, len, out_kind(o));
	rc = rc ? nb_cmd_write_error(rc) : 0;
	free(buf);
	if (!rc && strcmp(path, "-"))
		fprintf(msg, "wrote %s (%d of %d targets used, question: %s); next: "
		       "nasbench run %s\n", path, used, c->ntargets, q->name, path);
	return rc;
}

int cmd_init(int argc, char **argv)
{
	struct opts o = { 0 };
	struct nb_config c;
	const struct nb_question *q;
	const char *path;
	int rc;

	if (nb_opts_parse("init", argc, argv, init_opts, NB_OPTS_N(init_opts),
			  NULL, &o))
		return nb_cmd_usage("%s", nb_err_last());
	q = nb_question_find(o.for_ ? o.for_ : "buy");
	if (!q)
		return nb_opts_bad_choice("--for", o.for_, nb_questions()),
		       nb_cmd_usage("%s", nb_err_last());
	path = o.output ? o.output : "box.ini";
	msg = strcmp(path, "-") ? stdout : stderr;
	if (strcmp(path, "-") && !o.force && access(path, F_OK) == 0)
		return nb_cmd_usage("'%s' exists: nasbench init does not replace a "
				    "file (--force does, or -o another)", path);
	if (strcmp(path, "-") && (rc = nb_atomic_check(path, out_kind(&o))))
		return nb_cmd_write_error(rc);
	nb_config_init(&c);
	rc = targets(&c, argc, argv);
	if (!rc)
		rc = probe_and_write(&o, q, &c, path);
	nb_config_free(&c);
	return rc;
}
