/* SPDX-License-Identifier: GPL-2.0-or-later */
/* criterion.c - a criterion's words and a list of criteria (criterion.h). */
#include "criterion.h"
#include "../core/err.h"

#include <errno.h>
#include <stdlib.h>

static const char *const op_names[] = { ">=", "<=", ">", "<", "=", "!=" };
static const char *const stat_names[] = { "default", "median", "worst", "best",
					  "mean", "min", "max" };

const char *nb_accept_op_name(int op)
{
	return op_names[op];
}

const char *nb_accept_stat_name(int stat)
{
	return stat_names[stat];
}

void nb_accept_init(struct nb_accept *a)
{
	a->n = 0;
	a->c = NULL;
}

void nb_accept_free(struct nb_accept *a)
{
	free(a->c);
	nb_accept_init(a);
}

int nb_accept_add(struct nb_accept *a, const struct nb_criterion *c)
{
	struct nb_criterion *n = realloc(a->c, (size_t)(a->n + 1) * sizeof(*n));

	if (!n)
		return nb_err(-ENOMEM, "out of memory");
	a->c = n;
	a->c[a->n++] = *c;
	return 0;
}
