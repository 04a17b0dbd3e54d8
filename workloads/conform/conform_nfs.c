/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conform_nfs.c - NFS conformance: what a VM datastore relies on.
 *
 * Checked with two client connections
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
 */
#include "conform_check.h"
#include "../../core/datagen.h"
#include "../../core/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#define B_DIR "nasbench.conform-b"
#define C_DIR "nasbench.conform-c"
#define FILE_LEN 8192u

struct nfsck {
	struct nb_wl_ctx *c;
	struct nb_target *a, b, cc;
	struct nb_conform_tests *ts;
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
	nb_conform_add(k->ts, name, ok, msg);
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

/* nfs.create-visible */
static int ck_create_visible(struct nfsck *k)
{
	struct nb_target *a = k->a;
	struct nb_target *b = &k->b;
	struct nb_stat st;
	char pa[300];
	int64_t got = 0;
	int rc;

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
	return 0;
}

/* nfs.readdir-lists */
static int ck_readdir_lists(struct nfsck *k)
{
	struct nb_target *a = k->a;
	struct nb_target *b = &k->b;
	char pa[300];
	int rc;
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
	return 0;
}

/* nfs.rename-replaces */
static int ck_rename_replaces(struct nfsck *k)
{
	struct nb_target *a = k->a;
	struct nb_target *b = &k->b;
	struct nb_stat st, st2;
	int64_t got = 0;
	int rc;

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
	return 0;
}

/* nfs.unlink-removes */
static int ck_unlink_removes(struct nfsck *k)
{
	struct nb_target *a = k->a;
	struct nb_target *b = &k->b;
	struct nb_stat st;
	int rc;

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
	return 0;
}

/* nfs.file-sync-read: C never touched the file before */
static int ck_file_sync_read(struct nfsck *k)
{
	struct nb_target *a = k->a;
	int64_t got = 0;
	int rc;

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
	return 0;
}

/* nfs.size-mtime */
static int ck_size_mtime(struct nfsck *k)
{
	struct nb_target *a = k->a;
	struct nb_target *b = &k->b;
	struct nb_stat st, st2;
	int rc;

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

/* The checks in order; a check that cannot set itself up ends them. */
static int nfs_checks(struct nfsck *k)
{
	static int (*const checks[])(struct nfsck *) = {
		ck_create_visible,
		ck_readdir_lists,
		ck_rename_replaces,
		ck_unlink_removes,
		ck_file_sync_read,
		ck_size_mtime,
	};
	int rc = 0;

	for (size_t i = 0; !rc && i < sizeof(checks) / sizeof(checks[0]); i++)
		rc = checks[i](k);
	return rc;
}

static int nfs_run(struct nb_wl_ctx *c, struct nb_conform_tests *ts, json_t *conf)
{
	struct nfsck k = { .c = c, .a = c->t, .ts = ts, .seed = c->seed };
	struct nb_target_cfg bc, ccfg;
	int rc;

	(void)conf;     /* its tool and tests are the whole record */

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

const struct nb_conform_proto nb_conform_nfs = {
	.runner = "nfs",
	.tool = "nasbench-nfs",
	.run = nfs_run,
};
