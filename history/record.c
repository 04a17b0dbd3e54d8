/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.c - a run recorded in the history as it ends ('nasbench run
 * --history', [box] history = yes: this module's row).
 */
#include "history.h"
#include "../core/config.h"
#include "../core/err.h"
#include "../core/knobs.h"

#include <errno.h>
#include <stdio.h>

int nb_history_record(const json_t *doc, const char *path, int quiet,
		      FILE *tty)
{
	struct nb_history *h;
	long long id;
	int rc = nb_history_open(NULL, &h);

	if (!rc)
		rc = nb_history_add(h, doc, path ? path : "nasbench run", &id);
	if (rc < 0) {
		nb_die_msg("%s", nb_err_last());
		nb_history_close(h);
		return rc == -EINVAL ? NB_EXIT_USAGE : NB_EXIT_TARGET;
	}
	if (!quiet)
		fprintf(tty, "history: run %lld (%s)\n", id, nb_history_file(h));
	nb_history_close(h);
	return 0;
}

/* The history's row: [box] history (core/knobs.h). */
const struct nb_knob nb_history_knobs[] = {
	{ .section = "box", .name = "history", .type = NB_KT_BOOL, NB_CFG(history),
	  .def = "no",
	  .help = "record every run in the results history ($NASBENCH_DB, else "
	  "~/.local/share/nasbench/history.db; as run --history)",
	  .flags = NB_KF_NOLABEL,
	},
	{ NULL },
};
