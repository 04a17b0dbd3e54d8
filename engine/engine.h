/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.h - one generic I/O engine for every runner.
 *
 * An I/O spec says what to do (pattern, direction, block size, queue depth,
 * how much or how long, write durability); the engine keeps QD I/Os in
 * flight on a target through submit/reap - one completion taken at a time,
 * its slot refilled before the next, as fio's defaults - timing each one
 * into a latency histogram.  Runners never see the spec; workloads never
 * see the queue.
 *
 * With a rate the loop is open (engine_open.c, docs/capacity.md): I/O
 * is issued when an arrival process says it is due, from one or more
 * sources, whether or not the box has answered the I/O before it; QD is
 * then only the most in flight, and an arrival that finds every slot busy
 * waits in a queue of the client's, counted.  Each I/O is timed from its
 * intended issue time (the response a VM feels) and from its submission
 * (the service time, as in the closed loop).
 */
#ifndef NB_ENGINE_H
#define NB_ENGINE_H

#include "iospec.h"

/* Check a spec against a target (alignment, sizes); 0 or -EINVAL. */
int nb_engine_check(const struct nb_target *t, const struct nb_iospec *s);

/* Run SPEC on file F of target T.  0, or -errno (target lost, I/O error,
 * short transfer) with the detail set; R holds what finished either way. */
int nb_engine_run(struct nb_target *t, struct nb_file *f,
		  const struct nb_iospec *s, const struct nb_engine_hooks *hooks,
		  struct nb_io_result *r);

#endif
