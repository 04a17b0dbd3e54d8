/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * invoke.c - running the fio binary (see invoke.h).
 */
#include "invoke.h"
#include "../core/err.h"
#include "../core/spawn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>


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
