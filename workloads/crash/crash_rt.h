/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crash_rt.h - inside crashcheck: what crashcheck.c (the iteration) and
 *              crashwrite.c (its writers and the crash command beside them)
 *              share.  Not a public header.
 */
#ifndef NB_WL_CRASH_RT_H
#define NB_WL_CRASH_RT_H

#include "crashcheck.h"
#include "crashlog.h"

struct nb_crash_run {
	struct nb_wl_ctx *c;
	struct nb_journal out;
	const char *path;
	char path_buf[1200];
	struct nb_crash_proof proof;
	uint64_t region, nblocks;
	uint64_t next;           /* the next write number */
	uint64_t acked, t0;      /* acknowledged in this iteration; its start */
	uint32_t bs, qd;
	int sync;                /* enum nb_sync */
	int at_point;            /* the crash point was reached */
	json_t *info;            /* the iteration's "crash" object */
};

#endif
