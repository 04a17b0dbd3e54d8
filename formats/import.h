/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * import.h - results of other tools into the nasbench result model, so
 * they join compare and report.
 *
 *   fio JSON (--output-format=json or json+, and fio client/server output
 *   with its "client_stats" and any non-JSON lines before the JSON): one
 *   workload per job (JOB, or JOB-read / JOB-write / JOB-trim when a job
 *   did more than one kind of I/O).  bw_bytes, iops, and latency in
 *   microseconds: lat_mean_us and lat_max_us from fio's lat_ns (submission
 *   to completion, what nasbench measures), percentiles from lat_ns when
 *   fio was run with lat_percentiles=1, else from clat_ns.  Client/server:
 *   one target per client host, "all-clients" for fio's sums.
 *
 *   bonnie++ CSV (format 1.98, the lines of -q or the last line of its
 *   normal output): workload "bonnie", each column to the metric of
 *   nasbench's own bonnie workload that measures the same thing (it does
 *   every phase as bonnie++ 2.00 does): PHASE_kps (K/sec as bonnie++
 *   prints) and PHASE_bw_bytes for put_char, put_block, rewrite, get_char,
 *   get_block; PHASE_per_s for seeks, seq_create, seq_stat, seq_delete,
 *   ran_create, ran_stat, ran_delete; PHASE_cpu_pct; and bonnie++'s
 *   latency column, its longest single operation of the phase, as
 *   PHASE_lat_max_us.  "+++++" (too fast to measure) leaves the metric out
 *   of that iteration.
 *
 * Each file (each CSV line) is one more iteration of its workloads.
 */
#ifndef NB_REPORT_IMPORT_H
#define NB_REPORT_IMPORT_H

#include <jansson.h>

/* Add the runs in PATH to result DOC; TARGET names the target (NULL:
 * "local"; client/server output: "TARGET@host").  0, or -EINVAL/-errno
 * with "'PATH': ..." / "PATH:LINE: ..." set. */
int nb_import_file(json_t *doc, const char *path, const char *target);

#endif
