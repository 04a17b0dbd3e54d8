/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stream.c - the loops on the box and their answers (capture_int.h): each
 * loop's output reaches a FIFO this process drains, as the telemetry's
 * sampler does (telemetry/telem_ssh.c). */
#include "capture_int.h"
#include "../core/boxtext.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/grow.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cp_stream_start(struct cp_box *b, struct cp_stream *s, const char *dir)
{
	snprintf(s->fifo, sizeof(s->fifo), "%s/stream%d", dir, s->kind);
	snprintf(s->errpath, sizeof(s->errpath), "%s/stream%d.err", dir, s->kind);
	s->fd = -1;
	if (mkfifo(s->fifo, 0600))
		return nb_err(-errno, "cannot make '%s': %s", s->fifo, strerror(errno));
	s->fd = open(s->fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0)
		return nb_err(-errno, "cannot open '%s': %s", s->fifo, strerror(errno));
	nb_telem_command(b->tm, s->script, &s->cmd);
	s->sp.argv = s->cmd.argv;
	s->sp.out_path = s->fifo;
	s->sp.err_path = s->errpath;
	if (nb_spawn_start(&s->sp)) {
		close(s->fd);
		s->fd = -1;
		return -EIO;
	}
	return 0;
}

int cp_stream_drain(struct cp_stream *s)
{
	char chunk[16384];
	ssize_t n;

	if (s->fd < 0)
		return -1;
	while ((n = read(s->fd, chunk, sizeof(chunk))) > 0) {
		char *b;

		/* an answer without end: the stream is refused, not kept */
		if (s->len + (size_t)n > NB_TELEM_ANSWER_MAX) {
			s->too_long = s->gone = 1;
			return -1;
		}
		b = nb_grow(s->buf, &s->cap, s->len + (size_t)n + 1, 65536);
		if (!b)
			return -1;
		s->buf = b;
		nb_telem_text(chunk, (size_t)n);   /* a NUL would hide the rest */
		memcpy(b + s->len, chunk, (size_t)n);
		s->len += (size_t)n;
		b[s->len] = 0;
	}
	if (n == 0)
		s->gone = 1;         /* no writer left: the loop is gone */
	return s->gone ? -1 : 0;
}

char *cp_stream_next(struct cp_stream *s)
{
	char *p, *out;
	size_t n, e = 0;

	/* "@end" on a line of its own, ended by LF or CR LF */
	for (p = s->buf; p && (p = strstr(p, "@end")); p += 4)
		if ((p == s->buf || p[-1] == '\n') &&
		    (e = !strncmp(p + 4, "\n", 1) ? 5 : !strncmp(p + 4, "\r\n", 2) ? 6 : 0))
			break;
	if (!p)
		return NULL;
	n = (size_t)(p - s->buf);
	out = strndup(s->buf, n);
	s->len -= n + e;
	memmove(s->buf, p + e, s->len + 1);
	return out;
}

void cp_stream_why(const struct cp_stream *s, char *buf, size_t len)
{
	char *e = NULL;
	size_t n;

	buf[0] = 0;
	if (s->too_long) {
		snprintf(buf, len, "its answer passed %u MiB without an end",
			 NB_TELEM_ANSWER_MAX >> 20);
		return;
	}
	if (nb_read_file(s->errpath, &e, NULL) || !e[0]) {
		free(e);
		return;
	}
	n = strlen(e);
	while (n && (e[n - 1] == '\n' || e[n - 1] == '\r'))
		e[--n] = 0;
	/* ssh's words, or the box's shell's: carried, not sent raw */
	nb_boxtext(buf, len, strrchr(e, '\n') ? strrchr(e, '\n') + 1 : e);
	free(e);
}

void cp_stream_stop(struct cp_stream *s)
{
	if (!s->fifo[0])
		return;              /* never started */
	if (s->sp.argv && s->sp.pid > 0)
		nb_spawn_free(&s->sp);   /* its group killed and reaped */
	s->sp.argv = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->fifo[0])
		unlink(s->fifo);
	if (s->errpath[0])
		unlink(s->errpath);
	free(s->buf);
	s->buf = NULL;
	s->len = s->cap = 0;
}

/* The box's uptime at S (seconds), or -1 when it says none a clock
 * can: not a number, negative, past a century. */
static double box_time(const char *s)
{
	char *e;
	double t = strtod(s, &e);

	return e != s && isfinite(t) && t >= 0 && t < 100 * 366 * 86400.0 ? t : -1;
}

int cp_answer_parse(const char *text, struct cp_answer *a)
{
	char *copy = strdup(text), *body, *p;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	a->t = -1;
	a->have_devs = a->have_nfs = a->have_zpool = a->have_hist = 0;
	a->hist.n = 0;
	/* each "@NAME" line opens a section that ends at the next one */
	for (p = strstr(copy, "\n@"); p; p = strstr(p + 1, "\n@"))
		*p = 0;
	for (p = copy; p < copy + strlen(text); p += strlen(p) + 1) {
		if (*p != '@')
			continue;
		body = p + strcspn(p, "\n");
		body = *body ? body + 1 : body;
		if (!strncmp(p, "@t ", 3))
			a->t = box_time(p + 3);
		else if (!strncmp(p, "@diskstats", 10))
			a->have_devs = nb_cp_diskstats(body, &a->devs) > 0;
		else if (!strncmp(p, "@gstat", 6))
			a->have_devs = (rc = nb_cp_gstat(body, &a->devs)) > 0;
		else if (!strncmp(p, "@iostat", 7))
			a->have_devs = (rc = nb_cp_iostat(body, &a->devs)) > 0;
		else if (!strncmp(p, "@nfsd", 5))
			a->have_nfs = nb_cp_nfsd(body, &a->nfs) > 0;
		else if (!strncmp(p, "@nfsstat", 8))
			a->have_nfs = (rc = nb_cp_nfsstat(body, &a->nfs)) > 0;
		else if (!strncmp(p, "@zpoolr", 7))
			a->have_hist = (rc = nb_cp_zpool_hist(body, &a->hist)) > 0;
		else if (!strncmp(p, "@zpool", 6))
			a->have_zpool = nb_cp_zpool(body, &a->zpool) > 0;
		if (rc < 0)
			break;
		rc = 0;
	}
	free(copy);
	return rc < 0 ? rc : 0;
}
