/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_answer.c - what the telemetry's files share: the warning a
 * source leaves (telem.c shows it), a spawned shell's answer read (the
 * local shell's, telem_exec.c, and ssh's, telem_ssh.c: what ended it,
 * its text with no NUL), and a box's answer ("@NAME" sections of its
 * counters, from this machine or over ssh) parsed.
 */
#include "telem_rt.h"
#include "../core/err.h"
#include "../core/spawn.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nb_telem_warn(struct nb_telem *tm, const char *text)
{
	pthread_mutex_lock(&tm->mu);
	snprintf(tm->warning, sizeof(tm->warning), "telemetry from '%s': %s",
		 tm->source, text);
	pthread_mutex_unlock(&tm->mu);
}

void nb_telem_warn_also(struct nb_telem *tm, const char *text)
{
	size_t n;

	pthread_mutex_lock(&tm->mu);
	n = strlen(tm->warning);
	if (n)
		snprintf(tm->warning + n, sizeof(tm->warning) - n, "; %s", text);
	pthread_mutex_unlock(&tm->mu);
	if (!n)
		nb_telem_warn(tm, text);
}

void nb_telem_text(char *buf, size_t n)
{
	for (char *p = memchr(buf, 0, n); p; p = memchr(p, 0, n - (size_t)(p - buf)))
		*p = 0x1a;
}

int nb_telem_spawn_out(struct nb_spawn *sp, int rc, char **out, char *err,
		       size_t errlen, nb_telem_why_fn *why, uint64_t limit_us)
{
	if (rc) {
		snprintf(err, errlen, "%s", nb_err_last());
		nb_err_clear();
		nb_spawn_free(sp);
		return -EIO;
	}
	if (sp->out_cut) {
		snprintf(err, errlen, "its answer passed %u MiB without an end: "
			 "not read", NB_TELEM_ANSWER_MAX >> 20);
		nb_spawn_free(sp);
		return -EIO;
	}
	if (sp->status || sp->timed_out) {
		why(sp, err, errlen, limit_us);
		nb_spawn_free(sp);
		return -EIO;
	}
	nb_telem_text(sp->out, sp->out_len);
	*out = sp->out;
	sp->out = NULL;
	nb_spawn_free(sp);
	return 0;
}

static void parse_section(const char *name, const char *body, int os,
			  struct nb_telem_snap *s, int *got)
{
	if (!strcmp(name, "stat"))
		*got += nb_tp_linux_stat(body, &s->cpu);
	else if (!strcmp(name, "meminfo"))
		*got += nb_tp_linux_meminfo(body, &s->mem);
	else if (!strcmp(name, "vmstat") && os == NB_TELEM_LINUX)
		nb_tp_linux_vmstat(body, &s->mem);
	else if (!strcmp(name, "diskstats"))
		nb_tp_linux_diskstats(body, &s->disks);
	else if (!strcmp(name, "arc-kstat"))
		nb_tp_arc_kstat(body, &s->arc);
	else if (!strcmp(name, "arc-kv"))
		nb_tp_arc_kv(body, &s->arc);
	else if (!strcmp(name, "sysctl"))
		*got += nb_tp_bsd_sysctl(body, &s->cpu, &s->mem, &s->arc);
	else if (!strcmp(name, "swapinfo"))
		nb_tp_bsd_swapinfo(body, &s->mem);
	else if (!strcmp(name, "vmstat"))
		nb_tp_bsd_vmstat(body, &s->cpu, &s->mem);
	else if (!strcmp(name, "iostat"))
		nb_tp_bsd_iostat(body, &s->disks);
	else if (!strcmp(name, "gstat") && !s->disks.n)
		nb_tp_bsd_gstat(body, &s->disks);
}

int nb_telem_parse_answer(const char *text, int os, struct nb_telem_snap *s)
{
	char *copy = strdup(text ? text : ""), *line = copy, *body = NULL;
	char name[32] = "";
	int got = 0;

	if (!copy)
		return 0;
	/* "@NAME" lines open sections; each ends where the next opens */
	while (line) {
		char *nl = strchr(line, '\n');

		if (*line == '@') {
			if (line > copy)
				line[-1] = 0;
			if (body)
				parse_section(name, body, os, s, &got);
			if (nl)
				*nl = 0;
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(line + 1,
				 "\r"), line + 1);
			body = nl ? nl + 1 : "";
		}
		line = nl ? nl + 1 : NULL;
	}
	if (body)
		parse_section(name, body, os, s, &got);
	free(copy);
	return got;
}
