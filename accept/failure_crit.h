/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failure_crit.h - a failure walk's criteria (docs/failure.md): parsed
 *                  for criteria.c, judged for accept.c.
 */
#ifndef NB_ACCEPT_FAILURE_CRIT_H
#define NB_ACCEPT_FAILURE_CRIT_H

#include <jansson.h>

#include "criterion.h"

/* "max_rebuild_time = 2h", "max_rebuild_time_idle = 1h", "degraded_keeps =
 * 50%" (every workload of the walk), "WORKLOAD@TARGET rebuilding_keeps >=
 * 30%".  0 or -EINVAL. */
int nb_accept_parse_walk(struct nb_criterion *c, const char *text,
			 const char *where);
/* Whether TEXT is one of them (parsed by nb_accept_parse_walk). */
int nb_accept_is_walk(const char *text);

/* The verdict of walk criterion C on DOC (the object nb_accept_eval
 * lists); one criterion per workload of DOC's walk that a "STATE_keeps"
 * floor ("*") stands for, added to OUT (the floor itself when it stands
 * for none, to fail as not run).  0 or -ENOMEM. */
json_t *nb_accept_eval_walk(const struct nb_criterion *c, const json_t *doc);
int nb_accept_expand_walk(struct nb_accept *out, const struct nb_criterion *c,
			  const json_t *doc);

#endif
