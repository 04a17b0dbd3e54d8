/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - the one reader of fio's JSON output, used by the fio engine,
 *          the cross-check, the clients mode and 'nasbench import': a run
 *          and an import of the same output give the same figures.
 *
 * Latency: lat_* figures come from fio's lat_ns (slat + clat: from fio
 * preparing the io_u to its completion taken); clat_ns alone (from the
 * submission system call having returned) is kept as clat_* in the
 * iteration's extra.  The native engine's lat_* are clat's span (see
 * engine/engine.h): with io_uring slat adds a few microseconds.
 */
#ifndef NB_FIO_JSON_H
#define NB_FIO_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "clients.h"

/* Figures of one direction, one job, one client, or a sum. */
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
 * One direction of one job gives exactly nb_fio_side()'s figures (a
 * figure fio did not give is 0).  Where several directions, jobs or
 * clients add up, rates and counts are summed, the mean weighted, and the
 * percentiles computed from their json+ latency bins merged, exactly as
 * fio computes them (0 without bins).  0 or -EINVAL with the detail set. */
int nb_fio_parse(const char *text, size_t len, struct nb_fio_output *out);

/* The directions of a fio job, as nb_fio_side() counts their bytes. */
enum nb_fio_dir { NB_FIO_READ, NB_FIO_WRITE, NB_FIO_TRIM };

/* The figures of one direction of one job: SIDE is fio's "read", "write"
 * or "trim" object, DIR which (its io_bytes count as bytes_read,
 * bytes_written, or neither).  lat_* from lat_ns, clat_* from clat_ns;
 * percentiles from json+ bins where SIDE has them, else from fio's own
 * "percentile" object (lat_ns's, else clat_ns's for lat_*).  A latency
 * figure fio did not give is NAN; bw_bytes, iops and seconds are 0 when
 * absent.  0, or -ENOMEM. */
int nb_fio_side(const json_t *side, enum nb_fio_dir dir,
		struct nb_fio_stats *st);

/* ST as an iteration's metrics, into M: bw_bytes, iops, seconds,
 * lat_mean_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_p99.9_us,
 * lat_max_us (the native engine's names); a figure that is NAN (fio did
 * not give it) is left out. */
void nb_fio_put_metrics(json_t *m, const struct nb_fio_stats *st);

/* Where the JSON document in fio's output TEXT starts: the first line that
 * opens with '{' (client/server output begins with "<host> ..." lines).
 * *LINE (may be NULL) gets its line number.  NULL when there is none. */
const char *nb_fio_json_start(const char *text, size_t len, int *line);

#endif
