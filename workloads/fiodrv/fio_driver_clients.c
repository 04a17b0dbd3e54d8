/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_clients.c - the I/O workloads on many hosts at once, through
 * fio's client/server mode (--clients, the box file's [clients]).
 *
 * Each host gets its own job file (a file of its own in the target
 * directory, unlink=1 so fio removes it) through 'fio --client', all at
 * once; the job files live in a temporary directory while fio runs.
 */
#include "fio_driver_clients.h"
#include "fio_driver_common.h"
#include "fio_driver_overlap.h"
#include "fio_driver_remote.h"
#include "../../core/atomic_file.h"
#include "../../core/err.h"
#include "../../core/fsutil.h"
#include "../../core/progress.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int find_client(const struct nb_fio_output *out,
		       const struct nb_fio_client *cl)
{
	for (int i = 0; i < out->nclients; i++)
		if (out->client[i].port == cl->port &&
		    !strcmp(out->client[i].host, cl->host))
			return i;
	return -1;
}

/* Why client CL sent no figures, from fio's messages. */
static void client_missing(const struct nb_fio_client *cl, const char *err,
			   const char *file, char *buf, size_t len)
{
	char needle[300], name[300];

	snprintf(needle, sizeof(needle), "failed to connect to %s:%u", cl->host,
		 cl->port);
	nb_fio_client_name(cl, name, sizeof(name));
	if (strstr(err, needle))
		snprintf(buf, len, "fio client '%s' is unreachable (is 'fio "
			 "--server' running there?)", name);
	else
		snprintf(buf, len, "fio client '%s' died or lost its connection "
			 "mid-run: no figures from it (its file '%s' may be left "
			 "there)", name, file);
}

/* The file client I uses: its own file in the target directory, which
 * fio removes (unlink=1), or the target file or device itself. */
static void client_file(const struct nb_wl_ctx *c, int i, char *buf, size_t len,
			uint64_t *off, int *unlink_it)
{
	const char *path = c->t->cfg->u.path;
	struct stat st;

	if (!stat(path, &st) && !S_ISDIR(st.st_mode)) {
		snprintf(buf, len, "%s", path);
		*off = c->t->cfg->offset;
		*unlink_it = 0;
		return;
	}
	snprintf(buf, len, "%s%snasbench.%s-c%d", path,
		 path[strlen(path) - 1] == '/' ? "" : "/",
		 c->run_id ? c->run_id : "run", i + 1);
	*off = 0;
	*unlink_it = 1;
}

/* One run of fio on every client: its job files in DIR, its command
 * line, and what fio answered. */
struct crun {
	const struct nb_fio_clients *cl;
	char dir[32];
	char **argv;
	int argc;
	char (*paths)[PATH_MAX];      /* the job file of client I, in DIR */
	char (*files)[PATH_MAX];      /* the file it does I/O on */
	char *text;                   /* one job file's text */
	json_t *jobs;                 /* [ { "client", "job" } ] */
	struct nb_fio_output *out;
	struct nb_fio_exec x;
	int missing, got;             /* clients without and with figures */
	char first_err[1600];         /* why the first one has none */
	int remote;                   /* nfs://, iscsi://: fio's engines */
	struct nb_wl_fio_where w;        /* there: the file or LUN window */
};

static int crun_alloc(struct crun *r)
{
	size_t n = (size_t)r->cl->n;

	snprintf(r->dir, sizeof(r->dir), "/tmp/nasbench-fio.XXXXXX");
	if (!mkdtemp(r->dir)) {
		r->dir[0] = '\0';
		return nb_err(-errno, "cannot create a directory for fio job "
			      "files: %s", strerror(errno));
	}
	r->argv = calloc(n * 2 + 3, sizeof(*r->argv));
	r->paths = calloc(n, sizeof(*r->paths));
	r->files = calloc(n, sizeof(*r->files));
	r->text = malloc(NB_FIO_JOB_MAX);
	r->out = malloc(sizeof(*r->out));
	r->jobs = json_array();
	if (!r->argv || !r->paths || !r->files || !r->text || !r->out)
		return nb_err(-ENOMEM, "out of memory");
	r->argv[r->argc++] = "fio";
	r->argv[r->argc++] = "--output-format=json+";
	return 0;
}

static void crun_free(struct crun *r)
{
	nb_fio_exec_free(&r->x);
	json_decref(r->jobs);
	if (r->argv)
		for (int i = 2; i < r->argc; i += 2)
			free(r->argv[i]);
	free(r->argv);
	free(r->paths);
	free(r->files);
	free(r->text);
	free(r->out);
	if (r->dir[0])
		nb_rmtree(r->dir);
}

/* Client I's job file, written into DIR, and its "--client=ARG JOBFILE"
 * on the command line. */
static int crun_job(struct nb_wl_ctx *c, const struct nb_iospec *s,
		    struct crun *r, int i, const char *comment)
{
	const struct nb_fio_client *fc = &r->cl->c[i];
	struct nb_fio_job job = { .s = *s, .ioengine = nb_wl_fio_ioengine(c->t),
				  .comment = comment };
	char arg[300], span[sizeof(r->dir) + 32];
	int n, rc;

	/* an open loop's rate is the clients' together */
	job.s.rate = s->rate / r->cl->n;
	client_file(c, i, r->files[i], sizeof(r->files[i]), &job.offset,
		    &job.unlink);
	job.filename = r->files[i];
	if (r->remote) {
		nb_wl_fio_remote_job(&r->w, i + 1, &job);
		snprintf(r->files[i], sizeof(r->files[i]), "%s", job.filename);
	}
	nb_wl_fio_span_prefix(r->dir, i, span, sizeof(span));
	job.span_log = span;
	snprintf(r->paths[i], sizeof(r->paths[i]), "%s/client%d.fio", r->dir,
		 i + 1);
	n = nb_fio_jobfile(&job, r->text, NB_FIO_JOB_MAX);
	if (n < 0)
		return nb_err_prefix("target '%s'", c->t->cfg->name), n;
	rc = nb_atomic_write(r->paths[i], r->text, (size_t)n, NULL);
	if (rc)
		return rc;
	nb_fio_client_name(fc, arg, sizeof(arg));
	json_array_append_new(r->jobs, json_pack("{s:s, s:s}", "client", arg,
						 "job", r->text));
	nb_fio_client_arg(fc, arg, sizeof(arg));
	r->argv[r->argc] = malloc(strlen(arg) + 10);
	if (!r->argv[r->argc])
		return nb_err(-ENOMEM, "out of memory");
	sprintf(r->argv[r->argc++], "--client=%s", arg);
	r->argv[r->argc++] = r->paths[i];
	return 0;
}

/* fio's output held no figures: its own words say why. */
static int crun_no_figures(const struct crun *r)
{
	char line[512];

	if (strstr(r->x.out, "{")) {
		/* the servers dropped the job: "<host> fio: ..." */
		if (nb_wl_fio_server_complaint(r->x.out, line, sizeof(line)))
			return nb_err(-EIO, "fio clients: no client ran its job: %s",
				      line);
		nb_err_prefix("fio clients");
		return -EIO;
	}
	/* no client sent anything */
	for (int i = 0; i < r->cl->n; i++) {
		client_missing(&r->cl->c[i], r->x.err, r->files[i], line,
			       sizeof(line));
		if (strstr(line, "unreachable"))
			return nb_err(-EIO, "%s", line);
	}
	return nb_err(-EIO, "fio clients: fio failed (exit status %d): %s",
		      r->x.status, nb_wl_fio_complaint(r->x.err, line, sizeof(line)));
}

/* Run fio on every client and read its output into R->out. */
static int crun_exec(struct nb_wl_ctx *c, const struct nb_iospec *s,
		     struct crun *r)
{
	char label[200];
	int rc;

	snprintf(label, sizeof(label), "%s on %s (%d/%d, fio, %d clients)",
		 c->wl->name, c->t->cfg->name, c->iteration, c->iterations,
		 r->cl->n);
	nb_progress_begin(c->progress, label, 0, s->runtime_us * 1000);
	rc = nb_fio_exec(r->argv, NULL, c->stop, nb_wl_fio_limit(s), &r->x);
	nb_progress_end(c->progress);
	if (rc)
		return rc;
	if (r->x.stopped || (c->stop && *c->stop))
		return -EINTR;
	if (r->x.timed_out)
		return nb_err(-ETIMEDOUT, "fio clients: fio ran %llu s past its "
			      "runtime and was stopped (a client hangs?)",
			      (unsigned long long)(NB_FIO_GRACE_US / 1000000));
	if (nb_fio_parse(r->x.out, r->x.out_len, r->out))
		return crun_no_figures(r);
	return 0;
}

/* Each client's figures, or why it has none (a warning), in order. */
static json_t *crun_clients(struct nb_wl_ctx *c, struct crun *r)
{
	json_t *clients = json_array();

	for (int i = 0; i < r->cl->n; i++) {
		int k = find_client(r->out, &r->cl->c[i]);
		char name[300], why[1600];
		json_t *m;

		nb_fio_client_name(&r->cl->c[i], name, sizeof(name));
		if (k < 0 || r->out->client[k].st.error) {
			if (k < 0)
				client_missing(&r->cl->c[i], r->x.err, r->files[i],
					       why, sizeof(why));
			else
				snprintf(why, sizeof(why), "fio client '%s': its job "
					 "failed: %s (does '%s' exist there?)", name,
					 strerror(r->out->client[k].st.error),
					 c->t->cfg->u.path);
			json_array_append_new(clients, json_pack("{s:s, s:s}",
						 "client", name, "error", why));
			if (!r->missing++)
				snprintf(r->first_err, sizeof(r->first_err), "%s", why);
			nb_wl_warn(c, "%s", why);
			continue;
		}
		m = json_object();
		nb_fio_put_metrics(m, &r->out->client[k].st);
		json_array_append_new(clients, json_pack(
			"{s:s, s:o, s:I}", "client", name, "metrics", m, "bytes",
			(json_int_t)(r->out->client[k].st.bytes_read +
				     r->out->client[k].st.bytes_written)));
		r->got++;
	}
	return clients;
}

/* The iteration's metrics and its "clients" and "fio" records. */
static void crun_record(struct nb_wl_ctx *c, struct crun *r)
{
	const struct nb_fio_output *out = r->out;
	json_t *clients = crun_clients(c, r), *fj;

	if (r->got) {
		nb_fio_put_metrics(c->metrics, &out->total);
		nb_wl_fio_put_counts(c->extra, &out->total);
		if (out->has_all && !r->missing) {
			/* fio's "All clients" aggregate: every client's bytes
			 * over the longest runtime */
			json_object_set_new(c->metrics, "bw_bytes",
					    json_real(out->all_bw_bytes));
			json_object_set_new(c->metrics, "iops",
					    json_real(out->all_iops));
		}
	}
	json_object_set_new(c->extra, "clients", clients);
	fj = json_pack("{s:s, s:s, s:s, s:o}", "version", out->version,
		       "ioengine", nb_wl_fio_ioengine(c->t), "command",
		       "fio --output-format=json+ --client=HOST,PORT "
		       "JOBFILE ...", "jobs", r->jobs);
	r->jobs = NULL;
	json_object_set_new(c->extra, "fio", fj);
	if (out->has_all) {
		json_object_set_new(fj, "all_clients_bw_bytes",
				    json_real(out->all_bw_bytes));
		json_object_set_new(fj, "all_clients_bytes",
				    json_integer((json_int_t)out->all_bytes));
		/* the plain sum of the clients' own rates */
		json_object_set_new(fj, "sum_bw_bytes", json_real(out->total.bw_bytes));
	}
	if (r->remote) {
		json_object_set_new(fj, "ioengine", json_string(r->w.engine));
		json_object_set_new(fj, "durable", json_boolean(r->w.durable));
	}
	nb_wl_fio_clients_check(c, r->cl, out, clients, r->dir);
}

/* The data-loss guard where the data is, before fio touches a file or
 * device target (a directory gets files of fio's own).  Reads too: fio
 * lays out anew (unlink, truncate, write) a file shorter than its job.
 * A client on this machine (a loopback address) opens what this
 * machine's runner reads: the guard judges it as for the native engine.
 * A client on another host opens a file or device nasbench cannot read:
 * without destroy-data that is refused, not guessed. */
static int all_local(const struct nb_fio_clients *cl)
{
	for (int i = 0; i < cl->n; i++)
		if (!nb_fio_client_is_local(&cl->c[i]))
			return 0;
	return 1;
}

static int clients_guard(struct nb_wl_ctx *c)
{
	const struct nb_target *t = c->t;
	const struct nb_fio_clients *cl = t->cfg->clients;
	struct nb_file *f;
	char name[300];
	int rc;

	if (!(t->caps & NB_CAP_BLOCK) || t->cfg->destroy_data)
		return 0;
	for (int i = 0; i < cl->n; i++)
		if (!nb_fio_client_is_local(&cl->c[i]))
			return nb_err(-EPERM, "target '%s' (%s): fio client '%s' writes "
				      "it on its own host, where nasbench cannot read "
				      "it to check for data (a file system, a partition "
				      "table, data nasbench did not write): writing "
				      "could destroy what is there; if that is "
				      "intended, set 'destroy-data = yes' in its "
				      "[target] section or pass --destroy-data",
				      t->cfg->name, t->desc,
				      nb_fio_client_name(&cl->c[i], name, sizeof(name)));
	rc = c->t->ops->fopen(c->t, "data", NB_F_WRITE, &f);
	if (!rc)
		c->t->ops->fclose(f);
	return rc;
}

int nb_wl_fio_clients(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	struct crun r = { .cl = c->t->cfg->clients,
			  .remote = nb_wl_fio_is_remote(c->t) };
	char comment[256];
	int rc = crun_alloc(&r);

	/* nfs://, iscsi://: one file (one LUN window) nasbench prepared */
	if (!rc && r.remote)
		rc = nb_wl_fio_remote_prepare(c, s, &r.w);
	else if (!rc)
		rc = clients_guard(c);
	nb_wl_fio_comment(c, comment, sizeof(comment));
	for (int i = 0; !rc && i < r.cl->n; i++)
		rc = crun_job(c, s, &r, i, comment);
	if (!rc) {
		rc = crun_exec(c, s, &r);
		/* the file or LUN they wrote is the one this machine reaches */
		if (r.remote || all_local(r.cl))
			nb_wl_fio_stamp(c, s);
	}
	if (!rc) {
		crun_record(c, &r);
		if (r.missing) {
			json_object_set_new(c->extra, "partial", json_true());
			rc = r.got ? nb_err(-EIO, "%s; the figures of the other %d "
					    "client(s) are kept", r.first_err, r.got)
				   : nb_err(-EIO, "%s", r.first_err);
			if (r.missing > 1)
				nb_err_prefix("%d of %d fio clients failed",
					      r.missing, r.cl->n);
		}
	}
	crun_free(&r);
	return rc;
}

/* ---- set-up ------------------------------------------------------------ */

int nb_wl_fio_clients_setup(struct nb_fio_clients *cl,
			    const struct nb_config *cfg, const char *file)
{
	char where[4200];

	memset(cl, 0, sizeof(*cl));
	if (file) {
		if (!nb_fio_clients_load(cl, file))
			return 0;
		nb_err_prefix("--clients");
		return -EINVAL;
	}
	for (int i = 0; i < cfg->nraw; i++) {
		if (strcmp(cfg->raw[i].section, "clients"))
			continue;
		snprintf(where, sizeof(where), "%s:%d",
			 cfg->path[0] ? cfg->path : "config", cfg->raw[i].line);
		if (nb_fio_clients_add(cl, cfg->raw[i].text, where))
			return -EINVAL;
	}
	return 0;
}

void nb_wl_fio_clients_print(FILE *out, const struct nb_fio_clients *cl)
{
	char name[300], cmd[400];

	if (!cl->n)
		return;
	fprintf(out, "fio clients: start this on each host before the run "
		"(nasbench does not log in anywhere):\n");
	for (int i = 0; i < cl->n; i++) {
		nb_fio_client_name(&cl->c[i], name, sizeof(name));
		nb_fio_server_cmd(&cl->c[i], cmd, sizeof(cmd));
		fprintf(out, "  %-24s %s\n", name, cmd);
	}
}
