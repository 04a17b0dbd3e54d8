/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conform_iscsi.c - iSCSI conformance through libiscsi's iscsi-test-cu.
 *
 * A subset of libiscsi's conformance suite, iscsi-test-cu (Debian
 * libiscsi-bin): the Inquiry, TestUnitReady, ReadCapacity, Read, Write,
 * Verify, WriteVerify, WriteSame and Unmap families - not reservations,
 * sanitize, or the others.  It writes anywhere on the LUN, so it runs only
 * when the target says destroy-data, and never on a window (offset/size).
 * Its CUnit XML is read back into one test per case.  The binary can be
 * replaced with NASBENCH_ISCSI_TEST_CU=PATH (tests use it for a missing or
 * crashing tool).  Missing, crashing, or unable to log in: -EIO (exit 3).
 */
#include "conform_check.h"
#include "../../core/err.h"
#include "../../core/fsutil.h"
#include "../../core/guard.h"
#include "../../core/spawn.h"
#include "../../core/escape.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

#define TOOL_TIMEOUT_S 900

/* The families run: read/write/verify, write-same, unmap, inquiry. */
static const char subset[] =
	"SCSI.TestUnitReady,SCSI.Inquiry,SCSI.ReadCapacity10,SCSI.ReadCapacity16,"
	"SCSI.Read10,SCSI.Read16,SCSI.Write10,SCSI.Write16,SCSI.Verify10,"
	"SCSI.Verify16,SCSI.WriteVerify10,SCSI.WriteVerify16,SCSI.WriteSame10,"
	"SCSI.WriteSame16,SCSI.Unmap";


/* The text between <TAG> and </TAG> at or after P, trimmed; advances *P. */
static int xml_take(const char **p, const char *tag, char *out, size_t len)
{
	char open[64], close[64];
	const char *s, *e;

	snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	s = strstr(*p, open);
	if (!s)
		return -1;
	s += strlen(open);
	e = strstr(s, close);
	if (!e)
		return -1;
	*p = e + strlen(close);
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	snprintf(out, len, "%.*s", (int)(e - s), s);
	return 0;
}

/* The next TAG at or after P.  Each tag is searched for again only once
 * P has passed where it was, and never again once none is left: a report
 * of thousands of records is read in one pass, not once per record. */
struct seek {
	const char *tag, *at;
	int gone;
};

static const char *seek(struct seek *s, const char *p)
{
	if (!s->gone && (!s->at || s->at < p)) {
		s->at = strstr(p, s->tag);
		s->gone = !s->at;
	}
	return s->gone ? NULL : s->at;
}

/* The CUnit "automated" report: suites of test records, a failed test
 * with one FAILURE record per failed assertion (kept once, first reason). */
static int parse_cunit(const char *xml, struct nb_conform_tests *ts)
{
	const char *p = xml;
	char suite[128] = "", name[300], full[512], cond[512], last[512] = "", why[1400];
	struct seek t_ns = { .tag = "<SUITE_NAME>" }, t_ok = { .tag = "<CUNIT_RUN_TEST_SUCCESS>" },
		    t_bad = { .tag = "<CUNIT_RUN_TEST_FAILURE>" },
		    t_sfail = { .tag = "<CUNIT_RUN_SUITE_FAILURE>" };
	int n = 0;

	for (;;) {
		const char *ns = seek(&t_ns, p);
		const char *ok = seek(&t_ok, p);
		const char *bad = seek(&t_bad, p);
		const char *sfail = seek(&t_sfail, p);
		const char *next = ns;

		if (ok && (!next || ok < next))
			next = ok;
		if (bad && (!next || bad < next))
			next = bad;
		if (sfail && (!next || sfail < next))
			next = sfail;
		if (!next)
			break;
		p = next;
		if (next == ns) {
			xml_take(&p, "SUITE_NAME", suite, sizeof(suite));
		} else if (next == sfail) {
			char reason[256] = "";

			xml_take(&p, "SUITE_NAME", suite, sizeof(suite));
			xml_take(&p, "FAILURE_REASON", reason, sizeof(reason));
			snprintf(full, sizeof(full), "SCSI.%s", suite);
			nb_conform_add(ts, full, 0, reason);
			n++;
		} else {
			if (xml_take(&p, "TEST_NAME", name, sizeof(name)))
				break;
			snprintf(full, sizeof(full), "SCSI.%s.%s", suite, name);
			if (next == ok) {
				nb_conform_add(ts, full, 1, NULL);
			} else {
				char file[256] = "", line[32] = "";

				xml_take(&p, "FILE_NAME", file, sizeof(file));
				xml_take(&p, "LINE_NUMBER", line, sizeof(line));
				xml_take(&p, "CONDITION", cond, sizeof(cond));
				if (!strcmp(full, last))
					continue;        /* same test, next assertion */
				snprintf(why, sizeof(why), "%s (%s:%s)", cond, file, line);
				nb_conform_add(ts, full, 0, why);
			}
			snprintf(last, sizeof(last), "%s", full);
			n++;
		}
	}
	return n;
}

/* Our environment for the tool, the CHAP password (if any) in it: the
 * password goes through the environment, never argv (ps shows it).
 * NULL when out of memory; free with free_env(). */
static char **tool_env(const char *password)
{
	char **envp;
	int n = 0;

	for (char **e = environ; *e; e++)
		n++;
	envp = calloc((size_t)n + 2, sizeof(*envp));
	if (!envp)
		return NULL;
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "LIBISCSI_CHAP_PASSWORD=", 23))
			envp[n++] = *e;
	if (*password &&
	    asprintf(&envp[n], "LIBISCSI_CHAP_PASSWORD=%s", password) < 0) {
		free(envp);
		return NULL;
	}
	return envp;
}

static void free_env(char **envp, const char *password)
{
	if (envp && *password) {
		char **e = envp;

		while (e[1])
			e++;
		free(*e);
	}
	free(envp);
}

/* What the tool printed, one note a line (skips and notes). */
static json_t *tool_notes(char *text)
{
	json_t *notes = json_array();

	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		while (isspace((unsigned char)*l))
			l++;
		if (*l && json_array_size(notes) < 200)
			json_array_append_new(notes, nb_json_text(l));
	}
	return notes;
}

/* Why iscsi-test-cu, which ran as SP, did not give results: 0 when it
 * did (XML read into TS), else -EIO with the message set. */
static int tool_verdict(const struct nb_target_cfg *cfg, const char *tool,
			const struct nb_spawn *sp, const char *xml,
			struct nb_conform_tests *ts)
{
	const char *text = *sp->out ? sp->out : "no output";

	if (sp->timed_out)
		return nb_err(-EIO, "target '%s': iscsi-test-cu did not finish in "
			      "%d s", cfg->name, TOOL_TIMEOUT_S);
	if (sp->signal)
		return nb_err(-EIO, "target '%s': iscsi-test-cu crashed (signal %d, "
			      "%s)", cfg->name, sp->signal, strsignal(sp->signal));
	if (sp->status == 127)
		return nb_err(-EIO, "target '%s': cannot run '%s': not found "
			      "(install Debian's libiscsi-bin)", cfg->name, tool);
	/* 1: some tests failed (they are in the XML); anything else: it could
	 * not test (login refused, no such LUN...) */
	if (sp->status > 1 || (sp->status == 1 && !xml))
		return nb_err(-EIO, "target '%s': iscsi-test-cu failed (exit %d): %s",
			      cfg->name, sp->status, text);
	if (!xml || parse_cunit(xml, ts) <= 0)
		return nb_err(-EIO, "target '%s': iscsi-test-cu wrote no test "
			      "results", cfg->name);
	if (sp->status == 1 && !ts->failed)
		return nb_err(-EIO, "target '%s': iscsi-test-cu exited 1 but its "
			      "results show no failed test: %s", cfg->name, text);
	return 0;
}

static int iscsi_run(struct nb_wl_ctx *c, struct nb_conform_tests *ts, json_t *conf)
{
	const struct nb_target_cfg *cfg = c->t->cfg;
	const struct nb_url *u = &cfg->u;
	const char *tool = getenv("NASBENCH_ISCSI_TEST_CU");
	char url[1500], dir[] = "/tmp/nb-conform.XXXXXX", res[4200];
	char port[16] = "", cmdline[2400];
	char *argv[8], *xml, **envp;
	struct nb_spawn sp = { .argv = argv, .dir = dir, .err_to_out = 1,
			       .stop = c->stop, .stop_sig = SIGKILL,
			       .limit_us = TOOL_TIMEOUT_S * 1000000ULL };
	int rc;

	if (!tool || !*tool)
		tool = "iscsi-test-cu";
	if (!cfg->destroy_data)
		return nb_err(-EINVAL, "target '%s': the iSCSI conformance tests "
			      "write anywhere on the LUN: say destroy-data = yes "
			      "(or --destroy-data) to run them", cfg->name);
	if (cfg->offset || cfg->size)
		return nb_err(-EINVAL, "target '%s': the iSCSI conformance tests use "
			      "the whole LUN and cannot keep to the window set by "
			      "offset/size", cfg->name);
	if (u->port)
		snprintf(port, sizeof(port), ":%d", u->port);
	snprintf(url, sizeof(url), "iscsi://%s%s%s%s%s", u->user, *u->user ? "@" : "",
		 u->host, port, u->path);
	snprintf(cmdline, sizeof(cmdline), "%s -d -x -t %s %s", tool,
		 subset, url);
	json_object_set_new(conf, "command", nb_json_text(cmdline));
	if (!mkdtemp(dir))
		return nb_err(-errno, "cannot create a scratch directory for "
			      "iscsi-test-cu: %s", strerror(errno));
	snprintf(res, sizeof(res), "%s/CUnitAutomated-Results.xml", dir);
	envp = tool_env(u->password);
	if (!envp) {
		nb_rmtree(dir);
		return nb_err(-ENOMEM, "out of memory");
	}
	argv[0] = (char *)tool;
	argv[1] = "-d";              /* the write tests: destroy-data was said */
	argv[2] = "-x";              /* CUnit XML into the working directory */
	argv[3] = "-t";
	argv[4] = (char *)subset;
	argv[5] = url;
	argv[6] = NULL;
	sp.envp = envp;
	nb_progress_begin(c->progress, "iscsi-test-cu", 0, 0);
	rc = nb_spawn_run(&sp);
	nb_progress_end(c->progress);
	free_env(envp, u->password);
	if (rc) {
		nb_spawn_free(&sp);
		nb_rmtree(dir);
		if (rc == -ENOENT)
			return nb_err(-EIO, "target '%s': cannot run '%s': not found "
				      "(install Debian's libiscsi-bin)", cfg->name, tool);
		return nb_err(-EIO, "target '%s': cannot run '%s': %s", cfg->name,
			      tool, strerror(-rc));
	}
	if (nb_read_file(res, &xml, NULL))
		xml = NULL;
	nb_rmtree(dir);
	if (sp.stopped) {
		nb_spawn_free(&sp);
		free(xml);
		return -EINTR;
	}
	if (sp.out_len)
		json_object_set_new(conf, "notes", tool_notes(sp.out));
	rc = tool_verdict(cfg, tool, &sp, xml, ts);
	nb_spawn_free(&sp);
	free(xml);
	return rc;
}


/* iscsi-test-cu leaves arbitrary data on the LUN; zero its start so the
 * LUN reads as a fresh one (nothing for the data-loss guard to protect)
 * rather than as "data nasbench did not write". */
static int leave_fresh(struct nb_wl_ctx *c)
{
	uint64_t len = NB_GUARD_PROBE;
	struct nb_file *f;
	void *z;
	int64_t n;
	int rc;

	c->t->filled = 0;
	if (c->t->capacity && len > c->t->capacity)
		len = c->t->capacity;
	if (c->t->block_size > 1)
		len -= len % c->t->block_size;
	if (!len)
		return 0;
	z = nb_io_alloc(len);
	if (!z)
		return nb_err(-ENOMEM, "out of memory");
	memset(z, 0, len);
	rc = c->t->ops->fopen(c->t, "", NB_F_WRITE, &f);
	if (!rc) {
		n = nb_target_pio(c->t, f, NB_OP_WRITE, z, (uint32_t)len, 0, 1);
		rc = c->t->ops->fclose(f);
		if (n < 0)
			rc = (int)n;
		else if ((uint64_t)n != len)    /* a short write is an error */
			rc = nb_err(-EIO, "target '%s': short write at offset 0 "
				    "(%lld of %llu bytes)", c->t->cfg->name,
				    (long long)n, (unsigned long long)len);
	}
	free(z);
	return rc;
}

/* it wrote all over the LUN; a LUN that refuses writes keeps it */
static void iscsi_after(struct nb_wl_ctx *c)
{
	if (leave_fresh(c))
		nb_wl_warn(c, "could not zero the start of the LUN after the "
			   "conformance tests: %s", nb_err_last());
}

const struct nb_conform_proto nb_conform_iscsi = {
	.runner = "iscsi",
	.tool = "iscsi-test-cu",
	.tests = subset,
	.run = iscsi_run,
	.after = iscsi_after,
};
