/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_exec.c - a box's shell for other readers than the sampler
 * (capture/): a script run on this machine, or over the one ssh
 * connection of the source (telem.h); its answer read as
 * telem_answer.c reads every spawned shell's.
 */
#include "telem_rt.h"
#include "../core/boxtext.h"
#include "../core/err.h"
#include "../core/spawn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *nb_telem_os(const struct nb_telem *tm)
{
	return tm && tm->os == NB_TELEM_FREEBSD ? "freebsd" : "linux";
}

void nb_telem_command(struct nb_telem *tm, const char *script,
		      struct nb_telem_cmd *c)
{
	if (tm->ssh.host[0]) {
		nb_telem_ssh_argv(tm, script, c->argv, c->bufs);
		return;
	}
	c->argv[0] = "sh";
	c->argv[1] = "-c";
	c->argv[2] = (char *)script;
	c->argv[3] = NULL;
}

/* Why the shell on this machine failed: its exit status and what it
 * said, or no answer within LIMIT_US. */
static void local_why(const struct nb_spawn *sp, char *err, size_t errlen,
		      uint64_t limit_us)
{
	size_t n = sp->err ? strlen(sp->err) : 0;

	while (n && sp->err[n - 1] == '\n')
		n--;
	char said[400];

	nb_boxtextn(said, sizeof(said), sp->err ? sp->err : "", n);
	if (sp->timed_out)
		snprintf(err, errlen, "no answer within %.0f s",
			 (double)limit_us / 1e6);
	else
		snprintf(err, errlen, "exit status %d%s%s", sp->status,
			 n ? ": " : "", said);
}

int nb_telem_exec(struct nb_telem *tm, const char *script, char **out,
		  char *err, size_t errlen)
{
	struct nb_telem_cmd c;
	struct nb_spawn sp = { .limit_us = tm->timeout_us, .grace_us = 1000000,
			       .out_max = NB_TELEM_ANSWER_MAX };

	if (tm->ssh.host[0])
		return nb_telem_ssh_run(tm, script, out, err, errlen);
	*out = NULL;
	nb_telem_command(tm, script, &c);
	sp.argv = c.argv;
	return nb_telem_spawn_out(&sp, nb_spawn_run(&sp), out, err, errlen,
				  local_why, tm->timeout_us);
}
