/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * overlap.h - did fio's clients run at the same time?
 *
 * fio's "All clients" aggregate is every client's bytes over the longest
 * client's runtime: it is the load the box carried only when the clients'
 * runs overlap.  Each client job writes a bandwidth log with wall-clock
 * timestamps (write_bw_log=, log_unix_epoch=1, log_avg_msec=; fio's
 * client/server mode sends it back, and the client side writes it as
 * PREFIX_bw.1.log.HOST), which gives each client's start and end, in
 * the clock of the host it ran on (keep the hosts' clocks in step: NTP).
 */
#ifndef NB_FIO_OVERLAP_H
#define NB_FIO_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

/* The averaging period of the clients' bandwidth logs, ms. */
#define NB_FIO_SPAN_AVG_MS 100

/* One client's run in wall-clock time (ms since the epoch). */
struct nb_fio_span {
	int ok;                  /* the log was found and had entries */
	uint64_t start_ms, end_ms;
};

/* Read the span from bandwidth log PATH written with log_avg_msec=AVG_MS:
 * the first entry closes the first period (start = it - AVG_MS), the last
 * one the run.  0, or -ENOENT / -EINVAL (the detail set). */
int nb_fio_span_read(const char *path, unsigned avg_ms, struct nb_fio_span *sp);

/* Find the log a client job with log prefix PREFIX wrote in DIR
 * (PREFIX_bw.1.log.HOST): 0 and its path in BUF, or -ENOENT. */
int nb_fio_span_find(const char *dir, const char *prefix, char *buf, size_t len);

/* Whether N clients' spans overlap.  A client that started more than
 * TOL_MS after the first to start is late (LATE[i] = 1), one that ended
 * more than TOL_MS before the last to end is early (EARLY[i] = 1); spans
 * not ok are neither.  *COMMON_MS gets the time all of them ran at once
 * (0 when they never did).  Returns how many clients are late or early. */
int nb_fio_overlap(const struct nb_fio_span *sp, int n, uint64_t tol_ms,
		   int *late, int *early, uint64_t *common_ms);

/* The tolerance for a run whose longest client ran LONGEST_MS: 10% of it
 * (the aggregate then overstates the load by about that much at most),
 * at least two log periods (the spans are known to a period). */
uint64_t nb_fio_overlap_tol(uint64_t longest_ms);

#endif
