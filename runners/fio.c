/*
 * fio.c - job files for fio, running the fio binary, reading its JSON.
 *
 * The glue that turns these into a workload's figures (engine = fio,
 * --cross-check, --clients) is workloads/io_fio.c.
 */
#include "fio.h"
#include "../core/err.h"
#include "../core/lines.h"
#include "../core/spawn.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- job files ---------------------------------------------------- */

static const char *const ioengines[] = { "io_uring", "libaio", "psync" };

int nb_fio_ioengine_check(const char *name)
{
	for (size_t i = 0; i < sizeof(ioengines) / sizeof(ioengines[0]); i++)
		if (!strcmp(name, ioengines[i]))
			return 0;
	return nb_err(-EINVAL, "ioengine '%s' is not one nasbench drives "
		      "(io_uring, libaio, psync)", name);
}

static const char *rw_name(const struct nb_iospec *s)
{
	static const char *const names[2][3] = {
		{ "read", "write", "rw" },
		{ "randread", "randwrite", "randrw" },
	};

	return names[s->pattern == NB_PAT_RAND][s->rw];
}

int nb_fio_jobfile(const struct nb_fio_job *j, char *buf, size_t len)
{
	const struct nb_iospec *s = &j->s;
	const char *ioengine = j->ioengine && *j->ioengine ? j->ioengine
							    : "io_uring";
	size_t n = 0;
	int w;

#define PUT(...)                                                          \
	do {                                                              \
		w = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__);    \
		n += (size_t)w;                                           \
	} while (0)

	if (!j->filename || !*j->filename || strchr(j->filename, '\n') ||
	    strchr(j->filename, ':'))
		/* fio splits filename= at ':' (several files in one job) */
		return nb_err(-EINVAL, "fio cannot use the path '%s' (empty, or "
			      "holding ':' or a newline)",
			      j->filename ? j->filename : "");
	if (!s->bs || !s->qd || s->size < s->bs || s->rw < 0 || s->rw > 2 ||
	    s->sync < 0 || s->sync > 2)
		return nb_err(-EINVAL, "invalid I/O spec for fio (bs %u, queue "
			      "depth %u, size %llu)", s->bs, s->qd,
			      (unsigned long long)s->size);
	if (nb_fio_ioengine_check(ioengine))
		return -EINVAL;
	if (j->comment)
		PUT("; %s\n", j->comment);
	PUT("[global]\n");
	/* one process: a stop or a kill reaches the job too */
	PUT("thread=1\n");
	PUT("ioengine=%s\n", ioengine);
	PUT("filename=%s\n", j->filename);
	PUT("size=%llu\n", (unsigned long long)s->size);
	if (j->offset)
		PUT("offset=%llu\n", (unsigned long long)j->offset);
	PUT("rw=%s\n", rw_name(s));
	if (s->rw == NB_RW_MIX)
		PUT("rwmixread=%d\n", s->read_pct);
	PUT("bs=%u\n", s->bs);
	PUT("iodepth=%u\n", s->qd);
	PUT("direct=%d\n", s->direct ? 1 : 0);
	/* sync always: every write O_DSYNC and, as the native engine, one
	 * flush at the end too (a device may cache what FUA does not cover) */
	if (s->rw != NB_RW_READ && s->sync != NB_SYNC_NONE)
		PUT("end_fsync=1\n");
	if (s->rw != NB_RW_READ && s->sync == NB_SYNC_ALWAYS)
		PUT("sync=dsync\n");
	if (s->bytes)
		PUT("io_size=%llu\n", (unsigned long long)s->bytes);
	if (s->runtime_us) {
		PUT("time_based=1\n");
		if (s->runtime_us % 1000000)
			PUT("runtime=%llums\n",
			    (unsigned long long)((s->runtime_us + 999) / 1000));
		else
			PUT("runtime=%llu\n",
			    (unsigned long long)(s->runtime_us / 1000000));
	}
	if (s->pattern == NB_PAT_RAND || s->rw == NB_RW_MIX) {
		/* nasbench draws offsets uniformly, with replacement */
		/* fio parses randseed as a signed number: keep 32 bits */
		PUT("randseed=%llu\n", (unsigned long long)(s->seed & 0xffffffffu));
		PUT("norandommap=1\n");
	}
	/* extend the file as the native engine does, no preallocation */
	PUT("fallocate=none\n");
	if (j->unlink)
		PUT("unlink=1\n");
	PUT("lat_percentiles=1\n");
	PUT("percentile_list=50:90:99:99.9\n");
	PUT("\n[nasbench]\n");
#undef PUT
	if (n >= len)
		return nb_err(-ENOSPC, "fio job file longer than %zu bytes", len);
	return (int)n;
}

/* ---- client lists ------------------------------------------------- */

static int valid_host(const char *h, int v6)
{
	if (!*h)
		return 0;
	for (; *h; h++)
		if (!(isalnum((unsigned char)*h) || *h == '.' || *h == '-' ||
		      *h == '_' || (v6 && (*h == ':' || *h == '%'))))
			return 0;
	return 1;
}

int nb_fio_clients_add(struct nb_fio_clients *cl, const char *text,
		       const char *where)
{
	struct nb_fio_client c = { .port = NB_FIO_DEFAULT_PORT };
	const char *port = NULL;
	char name[300], other[300];
	int v6 = 0;
	size_t hl;

	while (isspace((unsigned char)*text))
		text++;
	if (*text == '[') {
		const char *end = strchr(text, ']');

		if (!end)
			return nb_err(-EINVAL, "%s: '%s' lacks the ']' of an IPv6 "
				      "address", where, text);
		hl = (size_t)(end - text - 1);
		if (hl >= sizeof(c.host))
			return nb_err(-EINVAL, "%s: host name too long", where);
		memcpy(c.host, text + 1, hl);
		c.host[hl] = '\0';
		v6 = 1;
		if (end[1] == ':')
			port = end + 2;
		else if (end[1] && !isspace((unsigned char)end[1]))
			return nb_err(-EINVAL, "%s: expected host[:port], not '%s'",
				      where, text);
	} else {
		const char *colon = strchr(text, ':');

		hl = colon ? (size_t)(colon - text) : strcspn(text, " \t");
		if (hl >= sizeof(c.host))
			return nb_err(-EINVAL, "%s: host name too long", where);
		memcpy(c.host, text, hl);
		c.host[hl] = '\0';
		if (colon)
			port = colon + 1;
		else if (text[hl] && text[strspn(text + hl, " \t") + hl])
			return nb_err(-EINVAL, "%s: expected one host[:port] a "
				      "line, not '%s'", where, text);
	}
	if (!valid_host(c.host, v6))
		return nb_err(-EINVAL, "%s: invalid host '%s' (expected host[:port], "
			      "e.g. 192.0.2.10:8765)", where, c.host);
	if (port) {
		char *end;
		unsigned long p = strtoul(port, &end, 10);

		while (isspace((unsigned char)*end))
			end++;
		if (!isdigit((unsigned char)*port) || *end || p < 1 || p > 65535)
			return nb_err(-EINVAL, "%s: invalid port '%s' for host '%s' "
				      "(1 to 65535)", where, port, c.host);
		c.port = (unsigned)p;
	}
	snprintf(c.where, sizeof(c.where), "%s", where);
	nb_fio_client_name(&c, name, sizeof(name));
	for (int i = 0; i < cl->n; i++)
		if (!strcmp(nb_fio_client_name(&cl->c[i], other, sizeof(other)),
			    name))
			return nb_err(-EINVAL, "%s: client '%s' is listed twice "
				      "(first at %s)", where, name, cl->c[i].where);
	if (cl->n == NB_FIO_MAX_CLIENTS)
		return nb_err(-EINVAL, "%s: more than %d clients", where,
			      NB_FIO_MAX_CLIENTS);
	cl->c[cl->n++] = c;
	return 0;
}

static int client_line(char *s, const char *where, void *payload)
{
	return nb_fio_clients_add(payload, s, where);
}

int nb_fio_clients_load(struct nb_fio_clients *cl, const char *path)
{
	int before = cl->n;
	int rc = nb_lines_read(path, "client list", NB_LINES_TRAILING_COMMENTS,
			       client_line, cl);

	if (rc)
		return rc;
	if (cl->n == before)
		return nb_err(-EINVAL, "%s: no client in it (one host[:port] a "
			      "line)", path);
	return 0;
}

static int is_ipv4(const char *h)
{
	struct in_addr a;

	return inet_pton(AF_INET, h, &a) == 1;
}

static int is_ipv6(const char *h)
{
	return strchr(h, ':') != NULL;
}

const char *nb_fio_client_name(const struct nb_fio_client *c, char *buf,
			       size_t len)
{
	snprintf(buf, len, is_ipv6(c->host) ? "[%s]:%u" : "%s:%u", c->host,
		 c->port);
	return buf;
}

void nb_fio_client_arg(const struct nb_fio_client *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s,%u",
		 is_ipv6(c->host) ? "ip6:" : is_ipv4(c->host) ? "ip:" : "",
		 c->host, c->port);
}

void nb_fio_server_cmd(const struct nb_fio_client *c, char *buf, size_t len)
{
	char arg[300];

	nb_fio_client_arg(c, arg, sizeof(arg));
	snprintf(buf, len, "fio --server=%s", arg);
}

int nb_fio_check_scheme(const char *target, const char *scheme,
			const char *why)
{
	if (!strcmp(scheme, "file"))
		return 0;
	return nb_err(-EINVAL, "target '%s': %s needs a local file, directory or "
		      "block device; Debian's fio 3.33 has no %s engine, so "
		      "'%s://' targets run with the native engine only", target,
		      why, scheme, scheme);
}

/* ---- parsing fio's JSON ------------------------------------------ */

struct bin {
	double val;              /* ns, the value fio gives the bucket */
	double n;
};

/* What is summed over directions and jobs before it becomes figures. */
struct acc {
	double bw, iops, lat_sum, lat_n, lat_max, runtime_ms;
	uint64_t bytes_r, bytes_w, ios;
	struct bin *lat, *clat;
	size_t nlat, nclat;
	json_t *pct, *cpct;      /* fio's own percentiles, when one source */
	int sources, error;
};

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static int add_bins(struct bin **b, size_t *n, const json_t *bins)
{
	const char *key;
	json_t *v;
	struct bin *nb;

	if (!json_is_object(bins) || !json_object_size(bins))
		return 0;
	nb = realloc(*b, (*n + json_object_size(bins)) * sizeof(**b));
	if (!nb)
		return nb_err(-ENOMEM, "out of memory");
	*b = nb;
	json_object_foreach((json_t *)bins, key, v) {
		nb[*n].val = strtod(key, NULL);
		nb[*n].n = json_number_value(v);
		(*n)++;
	}
	return 0;
}

static int cmp_bin(const void *a, const void *b)
{
	double x = ((const struct bin *)a)->val, y = ((const struct bin *)b)->val;

	return x < y ? -1 : x > y;
}

/* The value of the first bucket whose running count reaches P% of all,
 * as fio's calc_clat_percentiles() does. */
static double bins_pct(struct bin *b, size_t n, double p)
{
	long double total = 0, sum = 0;

	for (size_t i = 0; i < n; i++)
		total += b[i].n;
	for (size_t i = 0; i < n; i++) {
		sum += b[i].n;
		if (sum >= (long double)p / 100.0L * total)
			return b[i].val;
	}
	return n ? b[n - 1].val : 0;
}

static double pct_of(const json_t *pct, const char *key)
{
	return json_number_value(json_object_get(pct, key));
}

static int acc_dir(struct acc *a, const json_t *d, int is_write)
{
	const json_t *lat = json_object_get(d, "lat_ns");
	const json_t *clat = json_object_get(d, "clat_ns");
	double n = num(lat, "N");

	if (!json_is_object(d))
		return 0;
	if (!num(d, "io_bytes") && !n)
		return 0;
	a->bw += num(d, "bw_bytes");
	a->iops += num(d, "iops");
	if (is_write)
		a->bytes_w += (uint64_t)num(d, "io_bytes");
	else
		a->bytes_r += (uint64_t)num(d, "io_bytes");
	a->ios += (uint64_t)num(d, "total_ios");
	if (num(d, "runtime") > a->runtime_ms)
		a->runtime_ms = num(d, "runtime");
	a->lat_sum += num(lat, "mean") * n;
	a->lat_n += n;
	if (num(lat, "max") > a->lat_max)
		a->lat_max = num(lat, "max");
	if (add_bins(&a->lat, &a->nlat, json_object_get(lat, "bins")) ||
	    add_bins(&a->clat, &a->nclat, json_object_get(clat, "bins")))
		return -ENOMEM;
	a->pct = json_object_get(lat, "percentile");
	if (!a->pct)
		a->pct = json_object_get(clat, "percentile");
	a->cpct = json_object_get(clat, "percentile");
	a->sources++;
	return 0;
}

static int acc_entry(struct acc *a, const json_t *e)
{
	if (num(e, "error") && !a->error)
		a->error = (int)num(e, "error");
	if (acc_dir(a, json_object_get(e, "read"), 0) ||
	    acc_dir(a, json_object_get(e, "write"), 1))
		return -ENOMEM;
	return 0;
}

static void acc_figures(struct acc *a, struct nb_fio_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->bw_bytes = a->bw;
	st->iops = a->iops;
	st->seconds = a->runtime_ms / 1e3;
	st->bytes_read = a->bytes_r;
	st->bytes_written = a->bytes_w;
	st->ios = a->ios;
	st->error = a->error;
	st->lat_mean_us = a->lat_n ? a->lat_sum / a->lat_n / 1e3 : 0;
	st->lat_max_us = a->lat_max / 1e3;
	if (a->nlat) {
		qsort(a->lat, a->nlat, sizeof(*a->lat), cmp_bin);
		st->lat_p50_us = bins_pct(a->lat, a->nlat, 50) / 1e3;
		st->lat_p90_us = bins_pct(a->lat, a->nlat, 90) / 1e3;
		st->lat_p99_us = bins_pct(a->lat, a->nlat, 99) / 1e3;
		st->lat_p999_us = bins_pct(a->lat, a->nlat, 99.9) / 1e3;
	} else if (a->sources == 1 && a->pct) {
		st->lat_p50_us = pct_of(a->pct, "50.000000") / 1e3;
		st->lat_p90_us = pct_of(a->pct, "90.000000") / 1e3;
		st->lat_p99_us = pct_of(a->pct, "99.000000") / 1e3;
		st->lat_p999_us = pct_of(a->pct, "99.900000") / 1e3;
	}
	if (a->nclat) {
		qsort(a->clat, a->nclat, sizeof(*a->clat), cmp_bin);
		st->clat_p50_us = bins_pct(a->clat, a->nclat, 50) / 1e3;
		st->clat_p99_us = bins_pct(a->clat, a->nclat, 99) / 1e3;
	} else if (a->sources == 1 && a->cpct) {
		st->clat_p50_us = pct_of(a->cpct, "50.000000") / 1e3;
		st->clat_p99_us = pct_of(a->cpct, "99.000000") / 1e3;
	}
}

static void acc_free(struct acc *a)
{
	free(a->lat);
	free(a->clat);
	memset(a, 0, sizeof(*a));
}

/* Client/server output starts with "<host> ..." lines; the JSON document
 * is the first line that opens with '{'. */
static const char *json_start(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (text[i] == '{' && (i == 0 || text[i - 1] == '\n'))
			return text + i;
	return NULL;
}

int nb_fio_parse(const char *text, size_t len, struct nb_fio_output *out)
{
	const char *start = json_start(text, len);
	struct acc total = { 0 };
	json_error_t e;
	json_t *doc, *arr, *ent;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!start)
		return nb_err(-EINVAL, "fio printed no JSON");
	doc = json_loadb(start, len - (size_t)(start - text),
			 JSON_DISABLE_EOF_CHECK, &e);
	if (!doc)
		return nb_err(-EINVAL, "fio's JSON is not valid (line %d: %s)",
			      e.line, e.text);
	snprintf(out->version, sizeof(out->version), "%s",
		 json_string_value(json_object_get(doc, "fio version")) ?: "");
	arr = json_object_get(doc, "client_stats");
	if (!json_is_array(arr))
		arr = json_object_get(doc, "jobs");
	if (!json_is_array(arr)) {
		json_decref(doc);
		return nb_err(-EINVAL, "fio's JSON has neither 'jobs' nor "
			      "'client_stats'");
	}
	json_array_foreach(arr, i, ent) {
		const char *jobname = json_string_value(json_object_get(ent, "jobname"));
		const char *host = json_string_value(json_object_get(ent, "hostname"));
		struct nb_fio_client_stats *cs;
		struct acc one = { 0 };

		if (jobname && !strcmp(jobname, "All clients")) {
			const json_t *rd = json_object_get(ent, "read");
			const json_t *wr = json_object_get(ent, "write");

			out->has_all = 1;
			out->all_bw_bytes = num(rd, "bw_bytes") + num(wr, "bw_bytes");
			out->all_iops = num(rd, "iops") + num(wr, "iops");
			out->all_bytes = (uint64_t)(num(rd, "io_bytes") +
						    num(wr, "io_bytes"));
			continue;
		}
		if (acc_entry(&total, ent)) {
			rc = -ENOMEM;
			break;
		}
		if (!host)
			continue;
		if (out->nclients == NB_FIO_MAX_CLIENTS) {
			rc = nb_err(-EINVAL, "fio reported more than %d clients",
				    NB_FIO_MAX_CLIENTS);
			break;
		}
		cs = &out->client[out->nclients++];
		snprintf(cs->host, sizeof(cs->host), "%s", host);
		cs->port = (unsigned)num(ent, "port");
		if (acc_entry(&one, ent)) {
			acc_free(&one);
			rc = -ENOMEM;
			break;
		}
		acc_figures(&one, &cs->st);
		acc_free(&one);
	}
	if (!rc && !total.sources && !total.error)
		rc = nb_err(-EINVAL, "fio's JSON holds no job that did I/O");
	if (!rc)
		acc_figures(&total, &out->total);
	acc_free(&total);
	json_decref(doc);
	return rc;
}

/* ---- running fio --------------------------------------------------- */

#define KILL_GRACE_US 10000000ULL

const char *nb_fio_program(void)
{
	const char *p = getenv("NASBENCH_FIO");

	return p && *p ? p : "fio";
}

int nb_fio_exec(char *const argv[], const char *stdin_text,
		volatile sig_atomic_t *stop, uint64_t limit_us,
		struct nb_fio_exec *x)
{
	/* SIGTERM first: fio then stops its jobs; a job process outlives a
	 * SIGKILLed fio (hence thread=1 in job files) */
	struct nb_spawn sp = { .argv = argv, .prog = nb_fio_program(),
			       .in = stdin_text, .stop = stop,
			       .limit_us = limit_us, .grace_us = KILL_GRACE_US };
	int rc = nb_spawn_run(&sp);

	memset(x, 0, sizeof(*x));
	if (rc == -ENOENT || rc == -EACCES)
		rc = nb_err(rc, "cannot run '%s': %s (engine = fio needs fio: "
			    "apt-get install fio)", sp.prog, strerror(-rc));
	if (rc) {
		nb_spawn_free(&sp);
		return rc;
	}
	if (sp.timed_out)
		nb_spawn_note(&sp, "\nfio killed by nasbench: it ran past its time "
			      "limit\n");
	x->out = sp.out;
	x->out_len = sp.out_len;
	x->err = sp.err;
	x->status = sp.status;
	x->stopped = sp.stopped;
	x->timed_out = sp.timed_out;
	sp.out = sp.err = NULL;
	nb_spawn_free(&sp);
	return 0;
}

void nb_fio_exec_free(struct nb_fio_exec *x)
{
	free(x->out);
	free(x->err);
	x->out = x->err = NULL;
	x->out_len = 0;
}
