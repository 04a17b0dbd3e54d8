/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mpath.c - the multipath runner (runners/mpath*.c) over a fake runner
 * of its own: the policies' shares, the refusal of paths that lead to
 * different LUs, a path that dies with I/O in flight (reissued, each I/O
 * completed once, the failover measured), every path dying, the per-path
 * bytes adding up to the engine's.
 *
 * The fake runner's paths are named by their host ("a", "b"); path "b"
 * can be told to die after N submissions (its I/O then never completes,
 * its reap answers as a timeout does) or to name another LU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/err.h"
#include "../../engine/engine.h"
#include "../../runners/runner.h"

#define CAP (1U << 20)

static struct {
	int kill_b_after;        /* path b dies at its Nth submission (0: never) */
	int submits_b;
	const char *ident_b;     /* what path b names (NULL: the same LU) */
} F;

struct fpath {
	char host[64];
	int dead;
	int pipe[2];             /* always readable while alive */
	struct nb_io *pend[NB_MAX_QD + 4];
	int npend;
};

struct nb_file {
	struct nb_target *t;
};

static int f_open(struct nb_target *t)
{
	struct fpath *p = calloc(1, sizeof(*p));

	if (!p || pipe(p->pipe))
		return -ENOMEM;
	t->priv = p;
	snprintf(p->host, sizeof(p->host), "%s", t->cfg->u.host);
	if (write(p->pipe[1], "x", 1) != 1)
		return -EIO;
	t->caps = NB_CAP_BLOCK | NB_CAP_ASYNC;
	t->block_size = 512;
	t->capacity = CAP;
	return 0;
}

static void f_close(struct nb_target *t)
{
	struct fpath *p = t->priv;

	close(p->pipe[0]);
	close(p->pipe[1]);
	free(p);
}

static int f_space(struct nb_target *t, uint64_t *a) { *a = t->capacity; return 0; }
static int f_fclose(struct nb_file *f) { free(f); return 0; }
static int f_fsize(struct nb_file *f, uint64_t *s) { *s = f->t->capacity; return 0; }
static int f_flush(struct nb_file *f) { (void)f; return 0; }

static int f_fopen(struct nb_target *t, const char *name, unsigned flags,
		   struct nb_file **out)
{
	(void)name;
	(void)flags;
	*out = calloc(1, sizeof(**out));
	(*out)->t = t;
	return 0;
}

static int f_submit(struct nb_target *t, struct nb_io *io)
{
	struct fpath *p = t->priv;

	if (p->dead)
		return nb_err(-EIO, "target '%s': connection lost", t->cfg->name);
	if (!strcmp(p->host, "b") && F.kill_b_after && ++F.submits_b >= F.kill_b_after)
		p->dead = 1;             /* taken, never answered */
	p->pend[p->npend++] = io;
	return 0;
}

static int f_reap(struct nb_target *t, struct nb_io **done, int max, int us)
{
	struct fpath *p = t->priv;
	int n = 0;

	(void)us;
	if (p->dead) {
		p->npend = 0;            /* abandoned, as a runner does */
		return nb_err(-ETIMEDOUT, "target '%s': no answer within 1000 ms",
			      t->cfg->name);
	}
	while (n < max && n < p->npend) {
		p->pend[n]->result = p->pend[n]->len;
		done[n] = p->pend[n];
		n++;
	}
	memmove(p->pend, p->pend + n, sizeof(p->pend[0]) * (size_t)(p->npend - n));
	p->npend -= n;
	return n;
}

static void f_pollfd(struct nb_target *t, int *fd, short *ev)
{
	struct fpath *p = t->priv;

	*fd = p->dead ? -1 : p->pipe[0];
	*ev = POLLIN;
}

static int f_ident(struct nb_target *t, char *id, size_t len)
{
	struct fpath *p = t->priv;

	snprintf(id, len, "naa.%s other", !strcmp(p->host, "b") && F.ident_b ?
		 F.ident_b : "6001405aaaa");
	return 0;
}

static const struct nb_runner_ops fake = {
	.name = "iscsi", .scheme = "fake", .caps = NB_CAP_BLOCK | NB_CAP_ASYNC,
	.open = f_open, .close = f_close, .space = f_space, .fopen = f_fopen,
	.fclose = f_fclose, .fsize = f_fsize, .flush = f_flush,
	.submit = f_submit, .reap = f_reap, .pollfd = f_pollfd, .ident = f_ident,
};

static struct nb_target_cfg cfg;

static int open_mp(struct nb_target *t, const char *paths, const char *policy)
{
	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "mp");
	snprintf(cfg.url, sizeof(cfg.url), "fake://a/iqn.x:y/1");
	assert_int_equal(nb_url_parse(cfg.url, &cfg.u), 0);
	snprintf(cfg.paths, sizeof(cfg.paths), "%s", paths);
	snprintf(cfg.path_policy, sizeof(cfg.path_policy), "%s", policy);
	cfg.ops = &fake;
	return nb_target_open(t, &cfg);
}

/* 64 writes of 4 KiB at depth DEPTH through the engine. */
static int run64(struct nb_target *t, unsigned depth, struct nb_io_result *r)
{
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE, .bs = 4096,
			       .qd = depth, .size = 64 * 4096, .seed = 1 };
	struct nb_file *f;
	int rc;

	assert_int_equal(t->ops->fopen(t, "data", NB_F_WRITE, &f), 0);
	rc = nb_engine_run(t, f, &s, NULL, r);
	t->ops->fclose(f);
	return rc;
}

static void shares(const char *policy, unsigned depth, uint64_t a, uint64_t b)
{
	struct nb_target t;
	static struct nb_io_result r;

	memset(&F, 0, sizeof(F));
	assert_int_equal(open_mp(&t, "a, b", policy), 0);
	assert_non_null(t.paths);
	assert_int_equal(run64(&t, depth, &r), 0);
	assert_int_equal(r.ios, 64);
	assert_int_equal(t.paths->p[0].ios, a);
	assert_int_equal(t.paths->p[1].ios, b);
	assert_int_equal(t.paths->p[0].bytes_written + t.paths->p[1].bytes_written,
			 r.bytes_written);
	nb_target_close(&t);
}

static void policies(void **state)
{
	(void)state;
	shares("rr:1", 8, 32, 32);
	shares("rr:16", 1, 32, 32);
	shares("rr:1000", 8, 64, 0);
	shares("fixed", 8, 64, 0);
	/* the fake answers at once: least outstanding alternates */
	shares("least-io", 1, 32, 32);
}

static void names_and_states(void **state)
{
	struct nb_target t;

	(void)state;
	memset(&F, 0, sizeof(F));
	assert_int_equal(open_mp(&t, "a:3262, b", "fixed"), 0);
	assert_string_equal(t.paths->p[0].name, "a:3262");
	assert_string_equal(t.paths->p[1].name, "b:3260");
	assert_string_equal(t.paths->ident, "naa.6001405aaaa");
	assert_int_equal(t.paths->p[0].state, NB_PATH_ACTIVE);
	assert_int_equal(t.paths->p[1].state, NB_PATH_STANDBY);
	nb_target_close(&t);
	cfg.connections = 2;
	assert_int_equal(nb_target_open(&t, &cfg), 0);
	assert_int_equal(t.paths->n, 4);
	assert_string_equal(t.paths->p[2].name, "a:3262#2");
	assert_string_equal(t.paths->p[3].name, "b:3260#2");
	nb_target_close(&t);
}

static void different_lus(void **state)
{
	struct nb_target t;

	(void)state;
	memset(&F, 0, sizeof(F));
	F.ident_b = "6001405bbbb";
	assert_int_equal(open_mp(&t, "a,b", "rr:1"), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'mp': the paths lead to "
			    "different LUs: 'a:3260' to naa.6001405aaaa, 'b:3260' "
			    "to naa.6001405bbbb; several paths must reach the same "
			    "LU (nothing was written)");
	nb_target_close(&t);
	/* a second designator of its own does not matter: the first's is there */
	F.ident_b = "6001405cccc naa.6001405aaaa";
	assert_int_equal(open_mp(&t, "a,b", "rr:1"), 0);
	nb_target_close(&t);
}

static void a_path_dies(void **state)
{
	struct nb_target t;
	static struct nb_io_result r;
	const struct nb_path *b;

	(void)state;
	memset(&F, 0, sizeof(F));
	F.kill_b_after = 10;
	assert_int_equal(open_mp(&t, "a,b", "rr:1"), 0);
	assert_int_equal(run64(&t, 8, &r), 0);
	b = &t.paths->p[1];
	/* every I/O completed once: b's last one went on a */
	assert_int_equal(r.ios, 64);
	assert_int_equal(r.bytes_written, 64 * 4096);
	assert_int_equal(t.paths->p[0].ios + b->ios, 64);
	assert_int_equal(b->state, NB_PATH_DEAD);
	assert_int_equal(t.paths->p[0].state, NB_PATH_ACTIVE);
	/* b's 10 I/Os: each completed there or was lost and reissued (its
	 * 11th, refused at submit, went straight to a) */
	assert_true(b->reissued >= 1);
	assert_int_equal(b->ios + b->reissued, 10);
	assert_true(b->died_ns > 0);
	assert_true(b->failover_ns > 0);
	/* found at its next submission or at its reap, whichever came first */
	assert_true(!strcmp(b->why, "no answer within 1000 ms") ||
		    !strcmp(b->why, "connection lost"));
	nb_target_close(&t);
}

static void every_path_dies(void **state)
{
	struct nb_target t;
	static struct nb_io_result r;

	(void)state;
	memset(&F, 0, sizeof(F));
	F.kill_b_after = 1;
	assert_int_equal(open_mp(&t, "b", "rr:1"), 0);
	assert_int_equal(run64(&t, 1, &r), -EIO);
	assert_string_equal(nb_err_last(), "target 'mp': every path is dead: "
			    "b:3260 (no answer within 1000 ms)");
	nb_target_close(&t);
	/* found at a submission with I/O in flight: the run still ends */
	memset(&F, 0, sizeof(F));
	F.kill_b_after = 3;
	assert_int_equal(open_mp(&t, "b", "rr:1"), 0);
	assert_int_equal(run64(&t, 8, &r), -EIO);
	assert_int_equal(r.ios, 0);
	nb_target_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(policies), cmocka_unit_test(names_and_states),
		cmocka_unit_test(different_lus), cmocka_unit_test(a_path_dies),
		cmocka_unit_test(every_path_dies),
	};

	return cmocka_run_group_tests_name("mpath", tests, NULL, NULL);
}
