/*
 * io_fio_clients.c - the I/O workloads on many hosts at once, through
 * fio's client/server mode (--clients, the box file's [clients]).
 *
 * Each host gets its own job file (a file of its own in the target
 * directory, unlink=1 so fio removes it) through 'fio --client', all at
 * once; the job files live in a temporary directory while fio runs.
 */
#include "io_fio_clients.h"
#include "io_fio_common.h"
#include "io_fio_overlap.h"
#include "io_fio_remote.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/progress.h"

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

int nb_wl_fio_clients(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	const struct nb_fio_clients *cl = c->t->cfg->clients;
	char dir[] = "/tmp/nasbench-fio.XXXXXX";
	char **argv = NULL, *text = NULL, label[200], comment[256], line[512];
	char (*paths)[PATH_MAX] = NULL, (*files)[PATH_MAX] = NULL;
	struct nb_fio_output *out = NULL;
	struct nb_fio_exec x = { 0 };
	json_t *clients, *jobs;
	int rc = 0, argc = 0, missing = 0, got = 0;
	char first_err[1600] = "";
	struct nb_fio_where w;
	int remote = nb_wl_fio_is_remote(c->t);

	if (!mkdtemp(dir))
		return nb_err(-errno, "cannot create a directory for fio job files: "
			      "%s", strerror(errno));
	argv = calloc((size_t)cl->n * 2 + 3, sizeof(*argv));
	paths = calloc((size_t)cl->n, sizeof(*paths));
	files = calloc((size_t)cl->n, sizeof(*files));
	text = malloc(NB_FIO_JOB_MAX);
	out = malloc(sizeof(*out));
	jobs = json_array();
	if (!argv || !paths || !files || !text || !out) {
		rc = nb_err(-ENOMEM, "out of memory");
		goto done;
	}
	argv[argc++] = "fio";
	argv[argc++] = "--output-format=json+";
	/* nfs://, iscsi://: one file (one LUN window) nasbench prepared */
	if (remote && (rc = nb_wl_fio_remote_prepare(c, s, &w)))
		goto done;
	nb_wl_fio_comment(c, comment, sizeof(comment));
	for (int i = 0; i < cl->n; i++) {
		struct nb_fio_job job = { .s = *s, .ioengine = nb_wl_fio_ioengine(c->t),
					  .comment = comment };
		char arg[300];
		FILE *jf;
		int n;

		char span[sizeof(dir) + 32];

		client_file(c, i, files[i], sizeof(files[i]), &job.offset,
			    &job.unlink);
		job.filename = files[i];
		if (remote) {
			nb_wl_fio_remote_job(&w, i + 1, &job);
			snprintf(files[i], sizeof(files[i]), "%s", job.filename);
		}
		nb_wl_fio_span_prefix(dir, i, span, sizeof(span));
		job.span_log = span;
		n = nb_fio_jobfile(&job, text, NB_FIO_JOB_MAX);
		if (n < 0) {
			rc = n;
			nb_err_prefix("target '%s'", c->t->cfg->name);
			goto done;
		}
		snprintf(paths[i], sizeof(paths[i]), "%s/client%d.fio", dir, i + 1);
		jf = fopen(paths[i], "w");
		if (!jf || fputs(text, jf) < 0 || fclose(jf)) {
			rc = nb_err(-EIO, "cannot write '%s': %s", paths[i],
				    strerror(errno));
			goto done;
		}
		nb_fio_client_name(&cl->c[i], arg, sizeof(arg));
		json_array_append_new(jobs, json_pack("{s:s, s:s}", "client", arg,
						      "job", text));
		nb_fio_client_arg(&cl->c[i], arg, sizeof(arg));
		argv[argc] = malloc(strlen(arg) + 10);
		if (!argv[argc]) {
			rc = nb_err(-ENOMEM, "out of memory");
			goto done;
		}
		sprintf(argv[argc++], "--client=%s", arg);
		argv[argc++] = paths[i];
	}
	snprintf(label, sizeof(label), "%s on %s (%d/%d, fio, %d clients)",
		 c->wl->name, c->t->cfg->name, c->iteration, c->iterations, cl->n);
	nb_progress_begin(c->progress, label, 0, s->runtime_us * 1000);
	rc = nb_fio_exec(argv, NULL, c->stop, nb_wl_fio_limit(s), &x);
	nb_progress_end(c->progress);
	if (rc)
		goto done;
	if (x.stopped || (c->stop && *c->stop)) {
		rc = -EINTR;
		goto done;
	}
	if (x.timed_out) {
		rc = nb_err(-ETIMEDOUT, "fio clients: fio ran %llu s past its "
			    "runtime and was stopped (a client hangs?)",
			    (unsigned long long)(NB_FIO_GRACE_US / 1000000));
		goto done;
	}
	if (nb_fio_parse(x.out, x.out_len, out)) {
		if (!strstr(x.out, "{")) {
			/* no client sent anything: fio's own words say why */
			for (int i = 0; i < cl->n; i++) {
				client_missing(&cl->c[i], x.err, files[i], line,
					       sizeof(line));
				if (strstr(line, "unreachable")) {
					rc = nb_err(-EIO, "%s", line);
					goto done;
				}
			}
			rc = nb_err(-EIO, "fio clients: fio failed (exit status "
				    "%d): %s", x.status,
				    nb_wl_fio_complaint(x.err, line, sizeof(line)));
		} else if (nb_wl_fio_server_complaint(x.out, line, sizeof(line))) {
			/* the servers dropped the job: "<host> fio: ..." */
			rc = nb_err(-EIO, "fio clients: no client ran its job: %s",
				    line);
		} else {
			rc = -EIO;
			nb_err_prefix("fio clients");
		}
		goto done;
	}
	clients = json_array();
	for (int i = 0; i < cl->n; i++) {
		int k = find_client(out, &cl->c[i]);
		char name[300], why[1600];

		nb_fio_client_name(&cl->c[i], name, sizeof(name));
		if (k < 0 || out->client[k].st.error) {
			if (k < 0)
				client_missing(&cl->c[i], x.err, files[i], why,
					       sizeof(why));
			else
				snprintf(why, sizeof(why), "fio client '%s': its job "
					 "failed: %s (does '%s' exist there?)", name,
					 strerror(out->client[k].st.error),
					 c->t->cfg->u.path);
			json_array_append_new(clients, json_pack("{s:s, s:s}",
						 "client", name, "error", why));
			if (!missing++)
				snprintf(first_err, sizeof(first_err), "%s", why);
			nb_wl_warn(c, "%s", why);
			continue;
		}
		json_t *m = json_object();

		nb_fio_put_metrics(m, &out->client[k].st);
		json_array_append_new(clients, json_pack(
			"{s:s, s:o, s:I}", "client", name, "metrics", m, "bytes",
			(json_int_t)(out->client[k].st.bytes_read +
				     out->client[k].st.bytes_written)));
		got++;
	}
	if (got) {
		nb_fio_put_metrics(c->metrics, &out->total);
		nb_wl_fio_put_counts(c->extra, &out->total);
		if (out->has_all && !missing) {
			/* fio's "All clients" aggregate: every client's bytes
			 * over the longest runtime */
			json_object_set_new(c->metrics, "bw_bytes",
					    json_real(out->all_bw_bytes));
			json_object_set_new(c->metrics, "iops",
					    json_real(out->all_iops));
		}
	}
	json_object_set_new(c->extra, "clients", clients);
	json_object_set_new(c->extra, "fio",
			    json_pack("{s:s, s:s, s:s, s:o}", "version", out->version,
				      "ioengine", nb_wl_fio_ioengine(c->t), "command",
				      "fio --output-format=json+ --client=HOST,PORT "
				      "JOBFILE ...", "jobs", jobs));
	if (out->has_all) {
		json_t *fj = json_object_get(c->extra, "fio");

		json_object_set_new(fj, "all_clients_bw_bytes",
				    json_real(out->all_bw_bytes));
		json_object_set_new(fj, "all_clients_bytes",
				    json_integer((json_int_t)out->all_bytes));
		/* the plain sum of the clients' own rates */
		json_object_set_new(fj, "sum_bw_bytes", json_real(out->total.bw_bytes));
	}
	jobs = NULL;
	if (remote) {
		json_t *fj = json_object_get(c->extra, "fio");

		json_object_set_new(fj, "ioengine", json_string(w.engine));
		json_object_set_new(fj, "durable", json_boolean(w.durable));
	}
	nb_wl_fio_clients_check(c, cl, out, clients, dir);
	if (missing) {
		json_object_set_new(c->extra, "partial", json_true());
		rc = got ? nb_err(-EIO, "%s; the figures of the other %d client(s) "
				  "are kept", first_err, got)
			 : nb_err(-EIO, "%s", first_err);
		if (missing > 1)
			nb_err_prefix("%d of %d fio clients failed", missing, cl->n);
	}
done:
	nb_fio_exec_free(&x);
	json_decref(jobs);
	if (argv)
		for (int i = 2; i < argc; i += 2)
			free(argv[i]);
	free(argv);
	free(paths);
	free(files);
	free(text);
	free(out);
	nb_rmtree(dir);
	return rc;
}

/* ---- set-up ------------------------------------------------------------ */

int nb_fio_clients_setup(struct nb_fio_clients *cl, const struct nb_config *cfg,
			 const char *file)
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

void nb_fio_clients_print(FILE *out, const struct nb_fio_clients *cl)
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
