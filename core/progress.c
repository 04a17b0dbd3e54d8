#include "progress.h"
#include "hook.h"

#include <string.h>
#include <unistd.h>

#define PLAIN_EVERY_NS 10000000000ULL

void nb_progress_init(struct nb_progress *p, FILE *out, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
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
}

static double fraction(const struct nb_progress *p, uint64_t bytes,
		       uint64_t elapsed_ns)
{
	double fb = p->total_bytes ? (double)bytes / (double)p->total_bytes : 0;
	double ft = p->total_ns ? (double)elapsed_ns / (double)p->total_ns : 0;
	double f = fb > ft ? fb : ft;

	return f > 1 ? 1 : f;
}

void nb_progress_update(struct nb_progress *p, uint64_t bytes,
			uint64_t elapsed_ns)
{
	double f, now_rate, eta;
	uint64_t dt = elapsed_ns - p->last_ns;

	/* a test build may stop here, once I/O is flowing: "running" */
	if (!p->hooked && bytes >= NB_HOOK_RUNNING_BYTES) {
		p->hooked = 1;
		nb_hook("running", p->label, NULL);
	}
	if (p->mode == NB_PROGRESS_QUIET || !dt)
		return;
	now_rate = (double)(bytes - p->last_bytes) * 1e9 / (double)dt;
	p->rate = p->rate ? 0.6 * p->rate + 0.4 * now_rate : now_rate;
	p->last_ns = elapsed_ns;
	p->last_bytes = bytes;
	if (p->mode == NB_PROGRESS_PLAIN &&
	    elapsed_ns - p->last_print_ns < PLAIN_EVERY_NS)
		return;
	p->last_print_ns = elapsed_ns;
	f = fraction(p, bytes, elapsed_ns);
	eta = f > 0.001 ? (double)elapsed_ns / 1e9 * (1 - f) / f : 0;
	fprintf(p->out, "%s%-48s %9.1f MB/s %3.0f%%  ETA %u:%02u%s",
		p->mode == NB_PROGRESS_TTY ? "\r" : "", p->label, p->rate / 1e6,
		f * 100, (unsigned)eta / 60, (unsigned)eta % 60,
		p->mode == NB_PROGRESS_TTY ? "\033[K" : "\n");
	fflush(p->out);
	p->shown = 1;
}

void nb_progress_end(struct nb_progress *p)
{
	if (p->mode == NB_PROGRESS_TTY && p->shown) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
	p->shown = 0;
}
