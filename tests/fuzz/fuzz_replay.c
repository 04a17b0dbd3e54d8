/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_replay - a load file's population as the replay's sources
 * (replay/population.h): whatever a (hand-written) load file says, a population
 * is made or refused with a reason, never a crash; the sources it makes
 * have a rate, request sizes of whole blocks no larger than its largest,
 * and regions of whole blocks inside the data set, one after another.
 * The corpus: the load files of fuzz_loadfile's.
 */
#include "fuzz.h"

#include "../../core/err.h"
#include "../../loadfile/loadfile.h"
#include "../../replay/population.h"

/* POP as its promises say, at ALIGN over SIZE bytes. */
static void check(const struct nb_replay_pop *p, uint64_t size, uint32_t align)
{
	uint64_t end = 0;

	if (!p->nsrc || p->nsrc + p->idle != p->population || !(p->iops > 0))
		abort();
	for (uint32_t i = 0; i < p->nsrc; i++) {
		const struct nb_source *s = &p->src[i];

		if (!(s->rate > 0) || s->bs % align || s->bs_write % align ||
		    s->bs > p->bs_max || s->bs_write > p->bs_max ||
		    s->base % align || s->size % align || s->base < end ||
		    s->base + s->size > size ||
		    s->size < (uint64_t)NB_REPLAY_MIN_BLOCKS * s->bs ||
		    s->size < (uint64_t)NB_REPLAY_MIN_BLOCKS * s->bs_write ||
		    p->src_vm[i] < 0 || p->src_vm[i] >= p->nvms)
			abort();
		end = s->base + s->size;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	static const uint64_t sizes[] = { 1 << 20, 1ULL << 30, 1ULL << 40 };
	static const uint32_t aligns[] = { 512, 4096 };
	struct nb_replay_pop pop;
	struct nb_load l;

	nb_load_init(&l);
	if (nb_load_parse(&l, s, "fuzz.ini")) {
		nb_load_free(&l);
		return 0;
	}
	for (int k = 0; k < 6; k++) {
		uint64_t sz = sizes[k % 3];
		uint32_t al = aligns[k / 3];
		int level = k % 2 ? NB_REPLAY_BUSY : l.have_total ? l.total.peak_bucket : 0;

		nb_err_clear();
		if (!nb_replay_population(&l, "fuzz.ini", level, sz, al, &pop))
			check(&pop, sz, al);
		else if (!*nb_err_last())
			abort();
		nb_replay_pop_free(&pop);
	}
	nb_load_free(&l);
	return 0;
}
