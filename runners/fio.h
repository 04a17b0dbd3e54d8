/*
 * fio.h - fio as a second engine, and many clients through fio's
 *         client/server mode.
 *
 * nasbench's I/O spec (core/engine.h) becomes a fio job file; the fio
 * binary runs it with --output-format=json+ and its JSON becomes the same
 * figures the native engine records.  With a client list, one job file per
 * client host goes to 'fio --server' instances through 'fio --client=...',
 * all at once, and the per-client figures and their sum are recorded.
 *
 * Latency: nasbench times an I/O from the moment the engine hands it to the
 * runner until its completion is reaped (queueing included).  fio's lat_ns
 * (slat + clat: from fio queueing the io_u to its completion) is the same
 * span, so lat_* figures come from lat_ns; clat_ns alone (after the
 * submission system call) is kept as clat_* in the iteration's extra.
 *
 * Debian's fio 3.33 has no nfs or libiscsi engine: fio reaches local files
 * and block devices (and what is mounted on the client hosts) only.
 */
#ifndef NB_FIO_H
#define NB_FIO_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/engine.h"

#define NB_FIO_DEFAULT_PORT 8765
#define NB_FIO_MAX_CLIENTS 64

/* What one fio job does. */
struct nb_fio_job {
	struct nb_iospec s;
	const char *filename;    /* path on the host fio runs on */
	uint64_t offset;         /* window start on a file or device */
	const char *ioengine;    /* "io_uring" (default), "libaio", "psync" */
	int unlink;              /* remove the file when done (client runs) */
	const char *comment;     /* first line, after "; " (may be NULL) */
};

/* Write J as a fio job file into BUF.  Returns its length, or -ENOSPC /
 * -EINVAL (with the detail set) when it does not fit or J is invalid. */
int nb_fio_jobfile(const struct nb_fio_job *j, char *buf, size_t len);

/* 0 when NAME is an ioengine nasbench drives (libaio, io_uring, psync),
 * else -EINVAL with the detail set. */
int nb_fio_ioengine_check(const char *name);

/* One fio server: "host[:port]" from a [clients] section or a file. */
struct nb_fio_client {
	char host[256];
	unsigned port;
	char where[300];         /* "FILE:LINE" it came from */
};

struct nb_fio_clients {
	int n;
	struct nb_fio_client c[NB_FIO_MAX_CLIENTS];
};

/* Add one "host[:port]" line ("[v6addr]:port" for IPv6).  WHERE names the
 * origin ("clients.txt:3").  0 or -EINVAL ("WHERE: ..."). */
int nb_fio_clients_add(struct nb_fio_clients *cl, const char *text,
		       const char *where);
/* Read a host list file: one host[:port] a line, '#'/';' comments. */
int nb_fio_clients_load(struct nb_fio_clients *cl, const char *path);

/* "host:port" as nasbench names a client in messages and results. */
const char *nb_fio_client_name(const struct nb_fio_client *c, char *buf,
			       size_t len);
/* The --client= argument ("ip:127.0.0.1,8766") and the command a user runs
 * on the host ("fio --server=ip:127.0.0.1,8766"). */
void nb_fio_client_arg(const struct nb_fio_client *c, char *buf, size_t len);
void nb_fio_server_cmd(const struct nb_fio_client *c, char *buf, size_t len);

/* Figures of one job, one client, or a sum. */
struct nb_fio_stats {
	double bw_bytes, iops, seconds;
	double lat_mean_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_p999_us,
	       lat_max_us;
	double clat_p50_us, clat_p99_us;
	uint64_t bytes_read, bytes_written, ios;
	int error;               /* fio's job error (errno), 0 ok */
};

/* What came back from one fio run. */
struct nb_fio_output {
	char version[32];        /* "fio-3.33" */
	struct nb_fio_stats total;   /* every job (client) summed */
	int nclients;            /* client_stats entries but "All clients" */
	struct nb_fio_client_stats {
		char host[256];
		unsigned port;
		struct nb_fio_stats st;
	} client[NB_FIO_MAX_CLIENTS];
	int has_all;             /* an "All clients" entry was present */
	double all_bw_bytes;     /* its figures: fio's aggregate, all bytes */
	double all_iops;         /* over the longest client's runtime */
	uint64_t all_bytes;
};

/* Parse fio's --output-format=json(+) output TEXT (LEN bytes): plain
 * ("jobs") or client/server ("client_stats", non-JSON lines first).
 * Percentiles are computed from json+ latency bins where there are several
 * to combine (reads and writes, several clients) exactly as fio computes
 * them; from fio's own "percentile" object otherwise.  0 or -EINVAL with
 * the detail set. */
int nb_fio_parse(const char *text, size_t len, struct nb_fio_output *out);

/* The result of running the fio binary. */
struct nb_fio_exec {
	char *out;               /* stdout, NUL-terminated (free()) */
	size_t out_len;
	char *err;               /* the last of stderr, NUL-terminated (free()) */
	int status;              /* exit status, or 128+signal */
	int stopped;             /* *stop was set: fio was sent SIGINT */
	int timed_out;           /* past LIMIT_US: fio was terminated */
};

/* Run fio with ARGV (argv[0] "fio"; $NASBENCH_FIO overrides the binary),
 * feeding STDIN_TEXT (may be NULL) on its standard input, through
 * core/spawn.c.  Sends SIGINT when *STOP becomes set; LIMIT_US after the
 * start (0: never) SIGTERM, and SIGKILL 10 s later.  fio runs in a process
 * group of its own (stop and kill reach its jobs).  0 when fio ran
 * (whatever its status), or -errno when it could not be started (-ENOENT:
 * not installed). */
int nb_fio_exec(char *const argv[], const char *stdin_text,
		volatile sig_atomic_t *stop, uint64_t limit_us,
		struct nb_fio_exec *x);
void nb_fio_exec_free(struct nb_fio_exec *x);

/* The fio program used: $NASBENCH_FIO or "fio". */
const char *nb_fio_program(void);

/* Whether a target with URL scheme SCHEME can be driven by fio: 0, or
 * -EINVAL with "target 'NAME': engine = fio ..." set. */
int nb_fio_check_scheme(const char *target, const char *scheme,
			const char *why);

#endif
