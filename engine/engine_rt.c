/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_rt.c - what the closed loop (engine.c) and the open loop
 *               (engine_open.c) share: a finished I/O checked and timed,
 *               the seconds' bytes, the final flush, a write's data.
 */
#include "engine_rt.h"
#include "../core/clock.h"
#include "../core/compress.h"
#include "../core/err.h"

#include <errno.h>
#include <string.h>

void nb_eng_second(struct nb_eng_secs *sc, const struct nb_engine_hooks *h,
		   uint64_t now, uint64_t bytes)
{
	unsigned sec = (unsigned)((now - sc->start) / 1000000000ULL);

	while (sec > sc->sec) {
		if (h && h->second)
			h->second(sc->sec, sc->bytes, h->payload);
		sc->bytes = 0;
		sc->sec++;
	}
	sc->bytes += bytes;
}

void nb_eng_second_end(struct nb_eng_secs *sc, const struct nb_engine_hooks *h,
		       uint64_t now)
{
	nb_eng_second(sc, h, now, 0);
	if (h && h->second && sc->bytes)
		h->second(sc->sec, sc->bytes, h->payload);
}

void nb_eng_fill(const struct nb_iospec *s, const struct nb_engine_hooks *h,
		 struct nb_io_result *r, struct nb_rng *rng, struct nb_io *io,
		 uint64_t seq)
{
	int dup;

	if (h && h->fill) {
		h->fill(io->buf, io->len, io->off, h->payload);
	} else if (nb_dataspec_plain(&s->data)) {
		nb_datagen_stamp(io->buf, io->len, io->off, seq);
	} else {
		dup = nb_datagen_write(&s->data, rng, io->buf, io->len, io->off, seq);
		r->data_blocks++;
		if (dup >= 0) {
			r->data_dups++;
			r->data_dup_set |= 1ULL << dup;
		}
	}
	if (h && h->sample)
		nb_zsample_add(h->sample, io->buf, io->len);
}

int nb_eng_done(struct nb_target *t, const struct nb_engine_hooks *h,
		struct nb_io_result *r, struct nb_io *io, uint64_t now)
{
	if (io->result < 0)
		return nb_err_set("target '%s': %s at offset %llu failed: %s",
				  t->cfg->name,
				  io->op == NB_OP_READ ? "read" : "write",
				  (unsigned long long)io->off,
				  strerror((int)-io->result)), (int)io->result;
	if ((uint64_t)io->result != io->len)
		return nb_err_set("target '%s': short %s at offset %llu (%lld of %u "
				  "bytes): is the file or LUN smaller than the size?",
				  t->cfg->name,
				  io->op == NB_OP_READ ? "read" : "write",
				  (unsigned long long)io->off, (long long)io->result,
				  io->len), -EIO;
	/* fio's clat: from the submission to the completion taken */
	nb_hist_add(&r->lat, now - io->t_submit);
	r->ios++;
	if (io->op == NB_OP_READ) {
		r->bytes_read += io->len;
		if (h && h->check && h->check(io->buf, io->len, io->off, h->payload))
			return -EIO;
	} else {
		r->bytes_written += io->len;
	}
	return 0;
}

int nb_eng_flush(struct nb_target *t, struct nb_file *f,
		 const struct nb_iospec *s, const struct nb_engine_hooks *h,
		 struct nb_io_result *r)
{
	uint64_t t0;
	int rc;

	if (s->sync == NB_SYNC_NONE || !r->bytes_written)
		return 0;
	t0 = nb_now_ns();
	if (h)
		nb_progress_phase(h->live, "flushing");
	rc = t->ops->flush(f);
	r->flush_ns = nb_now_ns() - t0;
	return rc;
}
