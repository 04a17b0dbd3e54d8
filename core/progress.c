/* SPDX-License-Identifier: GPL-2.0-or-later */
/* progress.c - the live line of a run. */
#include "progress.h"
#include "hook.h"

#include <string.h>
#include <unistd.h>

#define PLAIN_EVERY_NS 10000000000ULL

void nb_progress_init(struct nb_progress *p, FILE *out, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->every_ns = PLAIN_EVERY_NS;
	if (quiet)
		p->mode = NB_PROGRESS_QUIET;
	else
		p->mode = isatty(fileno(out)) ? NB_PROGRESS_TTY : NB_PROGRESS_PLAIN;
}

void nb_progress_begin(struct nb_progress *p, const char *label,
		       uint64_t total_bytes, uint64_t total_ns)
{
	snprintf(p->label, sizeof(p->label), "%s", label);
	p->total_bytes = total_bytes;
	p->total_ns = total_ns;
	p->last_ns = p->last_bytes = p->last_print_ns = 0;
	p->rate = 0;
	p->shown = 0;
	p->hooked = 0;
	p->ios = p->last_ios = 0;
	p->iops = 0;
	p->lat = NULL;
	p->untimed = 0;
	p->average = 0;
	p->phase[0] = '\0';
}

void nb_progress_average(struct nb_progress *p)
{
	p->average = 1;
}

void nb_progress_begin_untimed(struct nb_progress *p, const char *label,
			       uint64_t total_bytes)
{
	char buf[sizeof(p->label)];

	snprintf(buf, sizeof(buf), "%s (not timed)", label);
	nb_progress_begin(p, buf, total_bytes, 0);
	p->untimed = 1;
	if (p->mode == NB_PROGRESS_QUIET)
		return;
	fprintf(p->out, "%s%s%s", p->mode == NB_PROGRESS_TTY ? "\r" : "",
		p->label, p->mode == NB_PROGRESS_TTY ? "\033[K" : "\n");
	fflush(p->out);
	p->shown = 1;
}

void nb_progress_io(struct nb_progress *p, uint64_t ios,
		    const struct nb_hist *lat)
{
	if (!p)
		return;
	p->ios = ios;
	p->lat = lat;
}

/* " 12345 IOPS p99 812 us" for the engine's workloads, else "". */
static const char *io_part(const struct nb_progress *p, char *buf, size_t len)
{
	double p99;

	if (!p->lat) {
		buf[0] = '\0';
		return buf;
	}
	p99 = (double)nb_hist_percentile(p->lat, 99) / 1e3;
	if (p99 < 1000)
		snprintf(buf, len, " %8.0f IOPS  p99 %4.0f us", p->iops, p99);
	else
		snprintf(buf, len, " %8.0f IOPS  p99 %4.1f ms", p->iops, p99 / 1e3);
	return buf;
}

static double fraction(const struct nb_progress *p, uint64_t bytes,
		       uint64_t elapsed_ns)
{
	double fb = p->total_bytes ? (double)bytes / (double)p->total_bytes : 0;
	double ft = p->total_ns ? (double)elapsed_ns / (double)p->total_ns : 0;
	double f = fb > ft ? fb : ft;

	return f > 1 ? 1 : f;
}

/* The line: label (and phase), rate, IOPS and p99, % done, ETA. */
static void print_line(struct nb_progress *p, uint64_t bytes,
		       uint64_t elapsed_ns)
{
	double f = fraction(p, bytes, elapsed_ns);
	double eta = f > 0.001 ? (double)elapsed_ns / 1e9 * (1 - f) / f : 0;
	char io[64], name[sizeof(p->label) + sizeof(p->phase) + 2];

	snprintf(name, sizeof(name), "%s%s%s", p->label, p->phase[0] ? ": " : "",
		 p->phase);
	fprintf(p->out, "%s%-40s %9.1f MB/s%s %3.0f%%  ETA %u:%02u%s",
		p->mode == NB_PROGRESS_TTY ? "\r" : "", name, p->rate / 1e6,
		io_part(p, io, sizeof(io)), f * 100, (unsigned)eta / 60, (unsigned)eta % 60,
		p->mode == NB_PROGRESS_TTY ? "\033[K" : "\n");
	fflush(p->out);
	p->shown = 1;
}

void nb_progress_phase(struct nb_progress *p, const char *phase)
{
	if (!p)
		return;
	snprintf(p->phase, sizeof(p->phase), "%s", phase ? phase : "");
	if (p->mode == NB_PROGRESS_TTY && p->last_ns)
		print_line(p, p->last_bytes, p->last_ns);
}

void nb_progress_update(struct nb_progress *p, uint64_t bytes,
			uint64_t elapsed_ns)
{
	double now_rate, now_iops;
	uint64_t dt = elapsed_ns - p->last_ns;

	/* a test build may stop here, once I/O is flowing: "running" */
	if (!p->hooked && bytes >= NB_HOOK_RUNNING_BYTES) {
		p->hooked = 1;
		nb_hook("running", p->label, NULL);
	}
	if (p->mode == NB_PROGRESS_QUIET || !dt)
		return;
	/* a count that went back (a caller's bug) is no burst of bytes */
	now_rate = bytes >= p->last_bytes ?
		   (double)(bytes - p->last_bytes) * 1e9 / (double)dt : 0;
	if (p->average)
		p->rate = (double)bytes * 1e9 / (double)elapsed_ns;
	else
		p->rate = p->rate ? 0.6 * p->rate + 0.4 * now_rate : now_rate;
	now_iops = (double)(p->ios - p->last_ios) * 1e9 / (double)dt;
	p->iops = p->iops ? 0.6 * p->iops + 0.4 * now_iops : now_iops;
	p->last_ios = p->ios;
	p->last_ns = elapsed_ns;
	p->last_bytes = bytes;
	if (p->mode == NB_PROGRESS_PLAIN &&
	    elapsed_ns - p->last_print_ns < p->every_ns)
		return;
	p->last_print_ns = elapsed_ns;
	print_line(p, bytes, elapsed_ns);
}

void nb_progress_end(struct nb_progress *p)
{
	if (p->mode == NB_PROGRESS_TTY && p->shown) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
	p->shown = 0;
}
