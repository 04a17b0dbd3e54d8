/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * write.c - the box file 'nasbench init' writes: what the probes found,
 * said beside the keys it set, the question's suite and criteria, and the
 * commands to run next (boxfile.h).
 */
#include "boxfile.h"
#include "../core/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The three questions of DESIGN.md, each the suite that answers it. */
static const struct nb_question questions[] = {
	{ "buy", "which box should I buy (or build)?", "io", 3,
	  "512 KiB sequential and 4 KiB random reads and writes, async and\n"
	  ";   sync (what ESXi does over NFS): run it on each candidate with a\n"
	  ";   label that names it, then one report sets them side by side" },
	{ "tune", "did my change make it faster or slower?", "io", 5,
	  "the same figures before and after the change; 5 iterations a side\n"
	  ";   measure the run-to-run noise, so compare can call a change\n"
	  ";   better or worse instead of inconclusive" },
	{ "gate", "is this box still as fast as it was?", "quick", 3,
	  "small and fast (CI-sized): each run gated against the runs before\n"
	  ";   it in the history (their spread is the noise), then recorded" },
};

const struct nb_question *nb_question_find(const char *name)
{
	for (size_t i = 0; i < sizeof(questions) / sizeof(questions[0]); i++)
		if (!strcmp(questions[i].name, name))
			return &questions[i];
	return NULL;
}

const char *nb_questions(void)
{
	return "buy|tune|gate";
}

static void next_commands(FILE *out, const char *path, const struct nb_question *q)
{
	fprintf(out, "; Next:\n");
	if (!strcmp(q->name, "buy")) {
		fprintf(out, ";   nasbench run %s -l candidate=A -o A.json\n"
			";   (the same file on each candidate, its URLs changed)\n"
			";   nasbench report A.json B.json -o report/\n", path);
	} else if (!strcmp(q->name, "tune")) {
		fprintf(out, ";   nasbench run %s -l tuning=before -o before.json\n"
			";   (make the change on the box)\n"
			";   nasbench run %s -l tuning=after -o after.json\n"
			";   nasbench compare before.json after.json\n", path, path);
	} else {
		fprintf(out, ";   NASBENCH_LABELS=box=NAME sh examples/ci/nasbench-ci.sh %s\n"
			";   (each CI run: the suite, gated against the history's runs of\n"
			";   these labels, JUnit and Markdown written, recorded when it\n"
			";   did not regress; examples/ci/ has GitLab CI and GitHub Actions\n"
			";   recipes that keep the history between pipelines)\n", path);
	}
}

/* Pool I: its layout set when it is the box's only pool and one of the
 * layouts [box] layout names (K raidz vdevs are said, not set). */
static void pool_line(FILE *out, const struct nb_probe_box *b, int i)
{
	const char *l = b->layout[i];
	int k = atoi(l);
	const char *one = k > 1 ? strchr(l, 'x') + 1 : l;
	int set = b->npools == 1 && *l && k <= 1;

	fprintf(out, "%slayout = %s   ; pool %s (%s): %d disk(s)", set ? "" : "; ",
		*l ? one : "?", b->pool[i], b->state[i], b->disks[i]);
	if (k > 1)
		fprintf(out, " in %d %s vdevs", k, one);
	fprintf(out, "%s\n", b->npools > 1 ? "; keep the pool the targets are on" : "");
	if (b->logs[i])
		fprintf(out, "; slog = ...   ; pool %s has %d log, cache or spare "
			"device(s): say what its log device is\n", b->pool[i],
			b->logs[i]);
}

static void box_section(FILE *out, const char *name, const struct nb_probe_box *b)
{
	char sz[32];

	fprintf(out, "[box]\nname = %s\n", name);
	if (!b || !b->monitor[0])
		return;
	if (!b->reached) {
		fprintf(out, "; monitor = %s\n;   NOT REACHED: %s\n;   (uncomment it "
			"once 'ssh %s' answers without a password)\n",
			b->monitor, b->cause, b->monitor);
		return;
	}
	fprintf(out, "monitor = %s   ; reached: a %s box\n", b->monitor, b->os);
	if (b->identity[0])
		fprintf(out, "monitor-identity = %s\n", b->identity);
	if (b->known_hosts[0])
		fprintf(out, "monitor-known-hosts = %s\n", b->known_hosts);
	if (b->ram)
		fprintf(out, "ram = %s   ; its memory (size = auto reads twice it)\n",
			nb_fmt_size(b->ram, sz, sizeof(sz)));
	for (int i = 0; i < b->npools; i++)
		pool_line(out, b, i);
	if (b->npools)
		fprintf(out, "; disks = %d x ...   ; the disks' size and model\n",
			b->disks[0]);
}

static void said(FILE *out, const struct nb_probe_target *t)
{
	char a[32], b[32];

	if (t->block)
		fprintf(out, "; %s: a %s LUN or device of %s, %u-byte blocks, holding no "
			"data nasbench did not write", t->runner,
			!strcmp(t->runner, "iscsi") ? "SCSI" : "block",
			nb_fmt_size(t->capacity, a, sizeof(a)), t->block_size);
	else
		fprintf(out, "; %s%s: writable (a scratch directory made and removed)"
			"%s%s%s", t->runner, !strcmp(t->runner, "nfs") ? " (NFSv3)" : "",
			t->avail ? ", " : "", t->avail ? nb_fmt_size(t->avail, b,
			sizeof(b)) : "", t->avail ? " free" : "");
	if (t->rtt_ns)
		fprintf(out, ", round trip %.2f ms", (double)t->rtt_ns / 1e6);
	fputc('\n', out);
}

/* The URL as the file gives it: a password never goes into a file
 * (the runner takes it from LIBISCSI_CHAP_PASSWORD). */
static void url_line(FILE *out, const char *lead, const struct nb_probe_target *t)
{
	const char *pw = strstr(t->desc, "%***@");

	if (!pw) {
		fprintf(out, "%surl = %s\n", lead, t->desc);
		return;
	}
	fprintf(out, "%surl = %.*s%s   ; the password: LIBISCSI_CHAP_PASSWORD in "
		"nasbench's environment\n", lead, (int)(pw - t->desc), t->desc,
		pw + 4);
}

static void target_section(FILE *out, const struct nb_probe_target *t)
{
	if (t->state == NB_PROBE_OK) {
		fprintf(out, "\n[target %s]\n", t->cfg->name);
		said(out, t);
		url_line(out, "", t);
		return;
	}
	if (t->state == NB_PROBE_HOLDS_DATA)
		fprintf(out, "\n; NOT USED: it holds %s; writing to it would destroy "
			"that,\n; so nothing was written.  To use it all the same (and "
			"destroy it),\n; uncomment the three lines below.\n", t->holds);
	else
		fprintf(out, "\n; NOT USED: %s: %s\n", t->state == NB_PROBE_READ_ONLY ?
			"not writable" : "unreachable", t->cause);
	fprintf(out, ";[target %s]\n", t->cfg->name);
	url_line(out, ";", t);
	if (t->state == NB_PROBE_HOLDS_DATA)
		fprintf(out, ";destroy-data = yes\n");
}

int nb_boxfile_write(FILE *out, const char *path, const char *name,
		     const struct nb_question *q, const struct nb_probe_box *b,
		     const struct nb_probe_target *t, int n)
{
	char when[32];
	time_t now = time(NULL);
	int used = 0;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(out, "; A box file written by 'nasbench init' on %s from what the\n"
		"; targets and the box answered; every key is explained by\n"
		"; 'nasbench help config'.\n;\n"
		"; The question (--for %s): %s\n; Suite %s, %d iterations: %s.\n",
		when, q->name, q->asks, q->suite, q->iterations, q->why);
	next_commands(out, path, q);
	fputc('\n', out);
	box_section(out, name, b);
	for (int i = 0; i < n; i++) {
		target_section(out, &t[i]);
		used += t[i].state == NB_PROBE_OK;
	}
	fprintf(out, "\n[suite]\nsuite = %s\niterations = %d\n", q->suite,
		q->iterations);
	if (!strcmp(q->name, "buy"))
		fprintf(out, "\n[accept]\n; the floors a box must reach to be bought, "
			"one a line ('nasbench help accept'):\n"
			"; seq512k-write-sync@TARGET mb_s >= 80\n"
			"; rand4k-read@TARGET p99_us <= 5ms\n");
	return used;
}
