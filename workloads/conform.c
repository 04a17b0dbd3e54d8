/*
 * conform.c - does the target speak its protocol correctly?
 *
 * iSCSI: a subset of libiscsi's conformance suite, iscsi-test-cu (Debian
 * libiscsi-bin): the Inquiry, TestUnitReady, ReadCapacity, Read, Write,
 * Verify, WriteVerify, WriteSame and Unmap families - not reservations,
 * sanitize, or the others.  It writes anywhere on the LUN, so it runs only
 * when the target says destroy-data, and never on a window (offset/size).
 * Its CUnit XML is read back into one test per case.  The binary can be
 * replaced with NASBENCH_ISCSI_TEST_CU=PATH (tests use it for a missing or
 * crashing tool).  Missing, crashing, or unable to log in: -EIO (exit 3).
 *
 * NFS: what a VM datastore relies on, checked with two client connections
 * (B and C are second and third opens of the same target, each a new
 * libnfs context and TCP connection, whose scratch directories lie inside
 * A's: A reaches B's files as "nasbench.conform-b/NAME"):
 *   create-visible   a file A created and wrote is there for B at once,
 *                    with its size and its data (close-to-open)
 *   readdir-lists    B's readdir lists every file A created
 *   rename-replaces  A renames over an existing file: B sees the new data
 *                    under the target name and the old name gone
 *   unlink-removes   A unlinks: B's stat says ENOENT, readdir omits it
 *   file-sync-read   A writes FILE_SYNC; C, a connection that never touched
 *                    the file, reads back the same bytes
 *   size-mtime       after A writes past the end, B sees the new size and a
 *                    later mtime
 * Each failure says what was expected and what was seen.
 *
 * Metrics: conform_passed, conform_failed.  The iteration's "conformance"
 * holds { "tool", "tests": [ { "name", "status": "pass"|"fail",
 * "message" } ], "notes": [...] }.
 */
#include "workload.h"
#include "../core/datagen.h"
#include "../core/err.h"
#include "../core/guard.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define TOOL_TIMEOUT_S 900

/* The families run: read/write/verify, write-same, unmap, inquiry. */
static const char iscsi_subset[] =
	"SCSI.TestUnitReady,SCSI.Inquiry,SCSI.ReadCapacity10,SCSI.ReadCapacity16,"
	"SCSI.Read10,SCSI.Read16,SCSI.Write10,SCSI.Write16,SCSI.Verify10,"
	"SCSI.Verify16,SCSI.WriteVerify10,SCSI.WriteVerify16,SCSI.WriteSame10,"
	"SCSI.WriteSame16,SCSI.Unmap";

struct tests {
	json_t *list;
	int passed, failed;
};

static void add_test(struct tests *ts, const char *name, int ok,
		     const char *msg)
{
	json_t *o = json_pack("{s:s, s:s}", "name", name, "status",
			      ok ? "pass" : "fail");

	if (msg && *msg)
		json_object_set_new(o, "message", json_string(msg));
	json_array_append_new(ts->list, o);
	if (ok)
		ts->passed++;
	else
		ts->failed++;
}

/* ---- iSCSI: iscsi-test-cu ---------------------------------------------- */

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

/* The CUnit "automated" report: suites of test records, a failed test
 * with one FAILURE record per failed assertion (kept once, first reason). */
static int parse_cunit(const char *xml, struct tests *ts)
{
	const char *p = xml;
	char suite[128] = "", name[300], full[512], cond[512], last[512] = "", why[1400];
	int n = 0;

	for (;;) {
		const char *ns = strstr(p, "<SUITE_NAME>");
		const char *ok = strstr(p, "<CUNIT_RUN_TEST_SUCCESS>");
		const char *bad = strstr(p, "<CUNIT_RUN_TEST_FAILURE>");
		const char *sfail = strstr(p, "<CUNIT_RUN_SUITE_FAILURE>");
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
			add_test(ts, full, 0, reason);
			n++;
		} else {
			if (xml_take(&p, "TEST_NAME", name, sizeof(name)))
				break;
			snprintf(full, sizeof(full), "SCSI.%s.%s", suite, name);
			if (next == ok) {
				add_test(ts, full, 1, NULL);
			} else {
				char file[256] = "", line[32] = "";

				xml_take(&p, "FILE_NAME", file, sizeof(file));
				xml_take(&p, "LINE_NUMBER", line, sizeof(line));
				xml_take(&p, "CONDITION", cond, sizeof(cond));
				if (!strcmp(full, last))
					continue;        /* same test, next assertion */
				snprintf(why, sizeof(why), "%s (%s:%s)", cond, file, line);
				add_test(ts, full, 0, why);
			}
			snprintf(last, sizeof(last), "%s", full);
			n++;
		}
	}
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void rm_tree_flat(const char *dir)
{
	static const char *const files[] = { "out.txt", "CUnitAutomated-Results.xml",
					     "CUnitAutomated-Listing.xml" };
	char p[4200];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* Wait for PID, giving up after TOOL_TIMEOUT_S or on *STOP (then kill it). */
static int wait_tool(pid_t pid, volatile sig_atomic_t *stop, int *status)
{
	for (long i = 0; i < TOOL_TIMEOUT_S * 20L; i++) {
		struct timespec ts = { 0, 50000000 };
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0)
			return -errno;
		if (*stop)
			break;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return *stop ? -EINTR : -ETIMEDOUT;
}

static int iscsi_conform(struct nb_wl_ctx *c, struct tests *ts, json_t *conf)
{
	const struct nb_target_cfg *cfg = c->t->cfg;
	const struct nb_url *u = &cfg->u;
	const char *tool = getenv("NASBENCH_ISCSI_TEST_CU");
	char url[1500], dir[] = "/tmp/nb-conform.XXXXXX", out[4200], res[4200];
	char port[16] = "", cmdline[2400];
	posix_spawn_file_actions_t fa;
	char *argv[8], *xml, *text, **envp = NULL;
	int status = 0, rc, nenv = 0;
	pid_t pid;

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
	/* the password goes through the environment, never argv (ps shows it) */
	snprintf(url, sizeof(url), "iscsi://%s%s%s%s%s", u->user, *u->user ? "@" : "",
		 u->host, port, u->path);
	snprintf(cmdline, sizeof(cmdline), "%s -d -x -t %s %s", tool, iscsi_subset,
		 url);
	json_object_set_new(conf, "command", json_string(cmdline));
	if (!mkdtemp(dir))
		return nb_err(-errno, "cannot create a scratch directory for "
			      "iscsi-test-cu: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	snprintf(res, sizeof(res), "%s/CUnitAutomated-Results.xml", dir);

	for (char **e = environ; *e; e++)
		nenv++;
	envp = calloc((size_t)nenv + 2, sizeof(*envp));
	if (!envp) {
		rmdir(dir);
		return nb_err(-ENOMEM, "out of memory");
	}
	nenv = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "LIBISCSI_CHAP_PASSWORD=", 23))
			envp[nenv++] = *e;
	if (*u->password &&
	    asprintf(&envp[nenv++], "LIBISCSI_CHAP_PASSWORD=%s", u->password) < 0) {
		free(envp);
		rmdir(dir);
		return nb_err(-ENOMEM, "out of memory");
	}
	argv[0] = (char *)tool;
	argv[1] = "-d";              /* the write tests: destroy-data was said */
	argv[2] = "-x";              /* CUnit XML into the working directory */
	argv[3] = "-t";
	argv[4] = (char *)iscsi_subset;
	argv[5] = url;
	argv[6] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	nb_progress_begin(c->progress, "iscsi-test-cu", 0, 0);
	rc = posix_spawnp(&pid, tool, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	if (*u->password)
		free(envp[nenv - 1]);
	free(envp);
	if (rc) {
		nb_progress_end(c->progress);
		rm_tree_flat(dir);
		if (rc == ENOENT)
			return nb_err(-EIO, "target '%s': cannot run '%s': not found "
				      "(install Debian's libiscsi-bin)", cfg->name, tool);
		return nb_err(-EIO, "target '%s': cannot run '%s': %s", cfg->name,
			      tool, strerror(rc));
	}
	rc = wait_tool(pid, c->stop, &status);
	nb_progress_end(c->progress);
	text = slurp(out);
	xml = slurp(res);
	rm_tree_flat(dir);
	if (rc == -EINTR) {
		free(text);
		free(xml);
		return -EINTR;
	}
	/* what it printed: skips and notes, one a line */
	if (text) {
		json_t *notes = json_array();

		for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			while (isspace((unsigned char)*l))
				l++;
			if (*l && json_array_size(notes) < 200)
				json_array_append_new(notes, json_string(l));
		}
		json_object_set_new(conf, "notes", notes);
	}
	if (rc == -ETIMEDOUT)
		rc = nb_err(-EIO, "target '%s': iscsi-test-cu did not finish in %d s",
			    cfg->name, TOOL_TIMEOUT_S);
	else if (WIFSIGNALED(status))
		rc = nb_err(-EIO, "target '%s': iscsi-test-cu crashed (signal %d, "
			    "%s)", cfg->name, WTERMSIG(status),
			    strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) == 127)
		rc = nb_err(-EIO, "target '%s': cannot run '%s': not found (install "
			    "Debian's libiscsi-bin)", cfg->name, tool);
	/* 1: some tests failed (they are in the XML); anything else: it could
	 * not test (login refused, no such LUN...) */
	else if (WEXITSTATUS(status) > 1 || (WEXITSTATUS(status) == 1 && !xml))
		rc = nb_err(-EIO, "target '%s': iscsi-test-cu failed (exit %d): %s",
			    cfg->name, WEXITSTATUS(status),
			    text && *text ? text : "no output");
	else if (!xml || parse_cunit(xml, ts) <= 0)
		rc = nb_err(-EIO, "target '%s': iscsi-test-cu wrote no test "
			    "results", cfg->name);
	else if (WEXITSTATUS(status) == 1 && !ts->failed)
		rc = nb_err(-EIO, "target '%s': iscsi-test-cu exited 1 but its "
			    "results show no failed test: %s", cfg->name,
			    text && *text ? text : "no output");
	free(text);
	free(xml);
	return rc;
}

/* ---- NFS: datastore semantics through two more connections ------------- */

#define B_DIR "nasbench.conform-b"
#define C_DIR "nasbench.conform-c"
#define FILE_LEN 8192u

struct nfsck {
	struct nb_wl_ctx *c;
	struct nb_target *a, b, cc;
	struct tests *ts;
	unsigned char *buf, *rd;
	uint64_t seed;
};

/* Open another connection to the target whose scratch directory is
 * nasbench.<SUFFIX> inside A's: A's path prefix for it is "<suffix dir>/". */
static int open_peer(struct nfsck *k, struct nb_target *t, struct nb_target_cfg *cfg,
		     const char *suffix)
{
	const struct nb_target_cfg *ac = k->a->cfg;
	char *q;

	*cfg = *ac;
	if ((size_t)snprintf(cfg->u.path, sizeof(cfg->u.path), "%s/nasbench.%s",
			     ac->u.path, ac->run_id) >= sizeof(cfg->u.path))
		return nb_err(-ENAMETOOLONG, "target '%s': path too long", ac->name);
	/* the URL string too, before its query */
	q = strchr(ac->url, '?');
	snprintf(cfg->url, sizeof(cfg->url), "%.*s/nasbench.%s%s",
		 (int)(q ? (size_t)(q - ac->url) : strlen(ac->url)), ac->url,
		 ac->run_id, q ? q : "");
	cfg->run_id = suffix;
	cfg->keep = 0;
	return nb_target_open(t, cfg);
}

static int write_file(struct nb_target *t, const char *name, unsigned flags,
		      const void *buf, uint32_t len, uint64_t off)
{
	struct nb_file *f;
	int64_t n;
	int rc = t->ops->fopen(t, name, NB_F_WRITE | NB_F_CREATE | flags, &f);

	if (rc)
		return rc;
	n = nb_target_pio(t, f, NB_OP_WRITE, (void *)buf, len, off,
			  (flags & NB_F_SYNC) != 0);
	rc = t->ops->fclose(f);
	if (n < 0)
		return (int)n;
	if (n != len)
		return nb_err(-EIO, "short write of '%s' (%lld of %u bytes)", name,
			      (long long)n, len);
	return rc;
}

static int read_file(struct nb_target *t, const char *name, void *buf,
		     uint32_t len, int64_t *got)
{
	struct nb_file *f;
	int rc = t->ops->fopen(t, name, NB_F_READ, &f);

	if (rc)
		return rc;
	*got = nb_target_pio(t, f, NB_OP_READ, buf, len, 0, 0);
	rc = t->ops->fclose(f);
	return *got < 0 ? (int)*got : rc;
}

static void fill(struct nfsck *k, unsigned char *buf, uint32_t len)
{
	struct nb_rng r;

	nb_rng_seed(&r, ++k->seed);
	nb_datagen_fill(&r, buf, len);
}

static void check(struct nfsck *k, const char *name, int ok, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void check(struct nfsck *k, const char *name, int ok, const char *fmt, ...)
{
	char msg[600] = "";
	va_list ap;

	if (!ok) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	}
	add_test(k->ts, name, ok, msg);
}

/* "ENOENT" rather than strerror's sentence, for expected-vs-seen text. */
static const char *ename(int rc)
{
	switch (-rc) {
	case 0: return "success";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EIO: return "EIO";
	default: return strerror(-rc);
	}
}

struct names {
	const char *want[8];
	int n, seen[8];
};

static int on_entry(const char *name, void *payload)
{
	struct names *w = payload;

	for (int i = 0; i < w->n; i++)
		if (!strcmp(w->want[i], name))
			w->seen[i] = 1;
	return 0;
}

static int nfs_checks(struct nfsck *k)
{
	struct nb_target *a = k->a, *b = &k->b;
	struct nb_stat st, st2;
	char pa[300];
	int64_t got;
	int rc;

	/* create-visible */
	fill(k, k->buf, FILE_LEN);
	snprintf(pa, sizeof(pa), B_DIR "/created");
	rc = write_file(a, pa, 0, k->buf, FILE_LEN, 0);
	if (rc)
		return rc;
	rc = b->ops->stat(b, "created", &st);
	if (rc)
		check(k, "nfs.create-visible", 0, "expected the file A created, "
		      "B's stat saw %s", ename(rc));
	else if (st.size != FILE_LEN)
		check(k, "nfs.create-visible", 0, "expected size %u, B saw %llu",
		      FILE_LEN, (unsigned long long)st.size);
	else {
		rc = read_file(b, "created", k->rd, FILE_LEN, &got);
		check(k, "nfs.create-visible", !rc && got == FILE_LEN &&
		      !memcmp(k->buf, k->rd, FILE_LEN), "expected the %u bytes A "
		      "wrote, B read %lld bytes%s (%s)", FILE_LEN, (long long)got,
		      rc ? "" : ", different", ename(rc));
	}

	/* readdir-lists */
	{
		struct names w = { { "d0", "d1", "d2", "d3", "d4" }, 5, { 0 } };
		char missing[200] = "";

		for (int i = 0; i < w.n; i++) {
			snprintf(pa, sizeof(pa), B_DIR "/%s", w.want[i]);
			rc = write_file(a, pa, 0, k->buf, 512, 0);
			if (rc)
				return rc;
		}
		rc = b->ops->readdir(b, "", on_entry, &w);
		for (int i = 0; i < w.n; i++)
			if (!w.seen[i])
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing), " %s",
					 w.want[i]);
		check(k, "nfs.readdir-lists", !rc && !missing[0], "expected d0 d1 "
		      "d2 d3 d4, B's readdir lacked%s (%s)", missing, ename(rc));
	}

	/* rename-replaces */
	fill(k, k->buf, FILE_LEN);
	rc = write_file(a, B_DIR "/old", 0, k->buf, FILE_LEN, 0);
	if (!rc)
		rc = write_file(a, B_DIR "/new", 0, k->rd, FILE_LEN / 2, 0);
	if (rc)
		return rc;
	rc = b->ops->stat(b, "new", &st);           /* B knows the old 'new' */
	rc = a->ops->rename(a, B_DIR "/old", B_DIR "/new");
	if (rc) {
		check(k, "nfs.rename-replaces", 0, "expected rename over an existing "
		      "file to succeed, saw %s", ename(rc));
	} else {
		int rc_old = b->ops->stat(b, "old", &st2);

		rc = read_file(b, "new", k->rd, FILE_LEN, &got);
		check(k, "nfs.rename-replaces", !rc && got == FILE_LEN &&
		      !memcmp(k->buf, k->rd, FILE_LEN) && rc_old == -ENOENT,
		      "expected 'new' to hold the %u bytes of 'old' and 'old' to be "
		      "gone; B read %lld bytes%s from 'new', stat of 'old': %s",
		      FILE_LEN, (long long)got,
		      !rc && got == FILE_LEN && memcmp(k->buf, k->rd, FILE_LEN) ?
		      " (different)" : "", ename(rc_old));
	}

	/* unlink-removes */
	rc = a->ops->unlink(a, B_DIR "/d4");
	if (rc) {
		check(k, "nfs.unlink-removes", 0, "expected unlink to succeed, saw "
		      "%s", ename(rc));
	} else {
		struct names w = { { "d4" }, 1, { 0 } };
		int rs = b->ops->stat(b, "d4", &st);

		rc = b->ops->readdir(b, "", on_entry, &w);
		check(k, "nfs.unlink-removes", rs == -ENOENT && !rc && !w.seen[0],
		      "expected ENOENT and no entry, B's stat saw %s and readdir %s "
		      "it", ename(rs), w.seen[0] ? "still listed" : "did not list");
	}

	/* file-sync-read: C never touched the file before */
	fill(k, k->buf, FILE_LEN);
	rc = write_file(a, C_DIR "/synced", NB_F_SYNC, k->buf, FILE_LEN, 0);
	if (rc)
		return rc;
	memset(k->rd, 0, FILE_LEN);
	rc = read_file(&k->cc, "synced", k->rd, FILE_LEN, &got);
	check(k, "nfs.file-sync-read", !rc && got == FILE_LEN &&
	      !memcmp(k->buf, k->rd, FILE_LEN), "expected the %u bytes written "
	      "FILE_SYNC, a fresh connection read %lld bytes%s (%s)", FILE_LEN,
	      (long long)got, !rc && got == FILE_LEN ? ", different" : "",
	      ename(rc));

	/* size-mtime */
	rc = b->ops->stat(b, "created", &st);
	if (rc)
		return rc;
	{
		struct timespec ts = { 0, 100000000 };     /* past coarse clocks */

		nanosleep(&ts, NULL);
	}
	rc = write_file(a, B_DIR "/created", 0, k->buf, 4096, st.size);
	if (rc)
		return rc;
	rc = b->ops->stat(b, "created", &st2);
	check(k, "nfs.size-mtime", !rc && st2.size == st.size + 4096 &&
	      st2.mtime_ns > st.mtime_ns, "expected size %llu and an mtime after "
	      "%llu ns, B saw size %llu, mtime %llu ns (%s)",
	      (unsigned long long)(st.size + 4096),
	      (unsigned long long)st.mtime_ns, (unsigned long long)st2.size,
	      (unsigned long long)st2.mtime_ns, ename(rc));
	return 0;
}

static int nfs_conform(struct nb_wl_ctx *c, struct tests *ts)
{
	struct nfsck k = { .c = c, .a = c->t, .ts = ts, .seed = c->seed };
	struct nb_target_cfg bc, ccfg;
	int rc;

	k.buf = nb_io_alloc(FILE_LEN);
	k.rd = nb_io_alloc(FILE_LEN);
	if (!k.buf || !k.rd) {
		free(k.buf);
		free(k.rd);
		return nb_err(-ENOMEM, "out of memory");
	}
	memset(&k.b, 0, sizeof(k.b));
	memset(&k.cc, 0, sizeof(k.cc));
	rc = open_peer(&k, &k.b, &bc, "conform-b");
	if (!rc) {
		rc = open_peer(&k, &k.cc, &ccfg, "conform-c");
		if (!rc)
			rc = nfs_checks(&k);
		nb_target_close(&k.cc);
	}
	nb_target_close(&k.b);
	free(k.buf);
	free(k.rd);
	return rc;
}

/* ---- the workload -------------------------------------------------------- */

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

static int conform_run(struct nb_wl_ctx *c)
{
	struct tests ts = { .list = json_array() };
	int iscsi = !strcmp(c->t->ops->name, "iscsi");
	json_t *conf = json_pack("{s:s}", "tool", iscsi ? "iscsi-test-cu" : "nasbench-nfs");
	int rc;

	if (c->iteration == 1)
		c->spec = iscsi ? json_pack("{s:s, s:s}", "tool", "iscsi-test-cu",
					    "tests", iscsi_subset)
				: json_pack("{s:s}", "tool", "nasbench-nfs");
	rc = iscsi ? iscsi_conform(c, &ts, conf) : nfs_conform(c, &ts);
	if (rc) {
		json_decref(ts.list);
		json_decref(conf);
		return rc;
	}
	json_object_set_new(conf, "tests", ts.list);
	json_object_set_new(c->extra, "conformance", conf);
	nb_wl_metric(c, "conform_passed", ts.passed);
	nb_wl_metric(c, "conform_failed", ts.failed);
	if (ts.failed)
		nb_wl_warn(c, "iteration %d: %d of %d conformance tests failed",
			   c->iteration, ts.failed, ts.passed + ts.failed);
	/* it wrote all over the LUN; a LUN that refuses writes keeps it */
	if (iscsi && leave_fresh(c))
		nb_wl_warn(c, "could not zero the start of the LUN after the "
			   "conformance tests: %s", nb_err_last());
	return 0;
}

const struct nb_workload nb_wl_conform = {
	.name = "conform",
	.help = "protocol conformance: iscsi-test-cu's read/write/verify, "
		"write-same, unmap and inquiry tests; NFS datastore semantics",
	.needs_any = NB_CAP_FILES | NB_CAP_BLOCK,
	.accept = "conform_failed = 0",
	.runners = "nfs,iscsi",
	.run = conform_run,
};
