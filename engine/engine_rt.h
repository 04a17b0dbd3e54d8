/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_rt.h - what the closed loop (engine.c) and the open loop
 *               (engine_open.c) share; not for use outside them.
 */
#ifndef NB_ENGINE_RT_H
#define NB_ENGINE_RT_H

#include "iospec.h"

/* The bytes of each second of a run, handed to hooks->second. */
struct nb_eng_secs {
	uint64_t start;          /* the run's start, ns */
	uint64_t bytes;          /* of the second being counted */
	unsigned sec;
};

/* BYTES done at NOW: close the seconds before NOW's. */
void nb_eng_second(struct nb_eng_secs *sc, const struct nb_engine_hooks *h,
		   uint64_t now, uint64_t bytes);
/* The run ended at NOW: close its seconds, the last part-second too. */
void nb_eng_second_end(struct nb_eng_secs *sc, const struct nb_engine_hooks *h,
		       uint64_t now);

/* IO finished at NOW: checks its result (0, or -errno with the detail
 * set), times it into R->lat (from t_submit), counts its bytes, and
 * hands a read to hooks->check. */
int nb_eng_done(struct nb_target *t, const struct nb_engine_hooks *h,
		struct nb_io_result *r, struct nb_io *io, uint64_t now);

/* Fill IO's buffer, a write (its number SEQ): the hook's fill where H
 * has one; else S's data from R (core/datagen.h: fresh, counted into
 * R's data_* figures) or, for the default data, the buffer's random
 * bytes stamped anew; then offered to H's sample. */
struct nb_rng;
void nb_eng_fill(const struct nb_iospec *s, const struct nb_engine_hooks *h,
		 struct nb_io_result *r, struct nb_rng *rng, struct nb_io *io,
		 uint64_t seq);

/* The final flush where S asks for durability, timed into R->flush_ns. */
int nb_eng_flush(struct nb_target *t, struct nb_file *f,
		 const struct nb_iospec *s, const struct nb_engine_hooks *h,
		 struct nb_io_result *r);

/* The open loop (engine_open.c): nb_engine_run for a spec with a rate,
 * after nb_engine_check. */
int nb_engine_open_run(struct nb_target *t, struct nb_file *f,
		       const struct nb_iospec *s,
		       const struct nb_engine_hooks *h, struct nb_io_result *r);

#endif
