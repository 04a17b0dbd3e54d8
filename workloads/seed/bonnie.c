/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bonnie.c - the phases of bonnie++ 2.00, through any runner.
 *
 * What bonnie++ 2.00 does was read off its source (bonnie++.cpp,
 * bon_io.cpp) and an strace of Debian's bonnie++ 2.00a
 * (`bonnie++ -d DIR -s 16 -r 8 -n 0`), and is done here the same way, in
 * its order, each phase timed from its first I/O to the end of the fsync
 * and close that end it (bonnie++'s Close() fsyncs every phase, reads too):
 *
 *   put_char   a new file, its first char_size bytes (bonnie++'s
 *              DefaultByteIO: 3 MiB, or the size when smaller) written one
 *              byte per write (a system call each on posix), fsync, close;
 *              then the file is removed (not timed)
 *   put_block  a new file, the whole size in 8 KiB chunks, fresh random
 *              data in every chunk (incompressible), fsync, close
 *   rewrite    each 8 KiB chunk read, one byte changed, written back in
 *              place, fsync, close
 *   get_char   the first char_size bytes read one byte per read
 *   get_block  the file read in 8 KiB chunks
 *   seeks      8192 seeks by 5 concurrent workers (bonnie++ 2.00 starts
 *              5 threads and hands out 8192 seeks): each reads the 8 KiB
 *              chunk at a random offset; every tenth is dirtied and
 *              written back.  The workers are 5 I/Os in flight on the
 *              runner's queue, each on its own handle of the file.
 *              Timed until the file is fsync'ed, closed and removed (see
 *              docs/seed.md for why bonnie++'s figure includes the
 *              removal); seeks_io_per_s is the random I/O alone.
 *   files      (NB_CAP_META) `files` empty files (default 16384, bonnie++
 *              -n 16) in a directory: created in order with names
 *              "%010x" + 0-12 random characters, stat'ed and deleted in
 *              directory order; then created with the random characters
 *              first, stat'ed and deleted in random order
 *
 * fast=yes leaves the per-char phases out (bonnie++ -f).  Writes go through
 * the client's page cache where the runner has one, as bonnie++'s do;
 * direct=yes opens the block phases and seeks with O_DIRECT (bonnie++
 * -D).  The posix runner does bonnie's I/O with pread/pwrite, a system
 * call each, as bonnie++ does with read/write.  Every figure is bytes/s
 * and bonnie++'s K/sec (1024 bytes), or operations/s, with the phase's
 * CPU% (user + system time of all threads / wall time, as bonnie++'s %CP).
 * The file should be twice the box's RAM (bonnie++ insists): the default;
 * smaller gets a warning.  Block targets (a LUN, a device) run the block
 * phases on the window, without the per-char phases (no byte I/O there).
 */
#include "seed.h"
#include "../../core/clock.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/units.h"
#include "../../core/knobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 8192
#define CHAR_IO (3ULL << 20)     /* bonnie++ 2.00's DefaultByteIO, 3 MiB */
#define SEEKS 8192
#define SEEKERS 5
#define UPDATE_SEEK 10           /* one seek in ten writes back */
#define FILES_DIR "bonnie.files"
#define DATA_FILE "bonnie.data"
#define POOL (1 << 20)           /* put_block's random data, 1 MiB */

struct bonnie {
	struct nb_wl_ctx *c;
	struct nb_target *t;
	uint64_t size;
	uint64_t char_size;      /* bytes of the per-char phases (0: none) */
	unsigned char *buf;
	struct nb_rng rng;
	struct nb_rng_wide data; /* put_block's fresh data: the pool below */
	uint64_t *pool;          /* POOL bytes of random data, made once */
	unsigned direct;         /* NB_F_DIRECT for the block phases (-D) */
	int removed;             /* the seeks phase removed the data file */
};

static void put_rate(struct nb_wl_ctx *c, const char *phase, uint64_t bytes,
		     const struct nb_phase *ph)
{
	char name[64];
	double bw = (double)bytes / ph->secs;

	snprintf(name, sizeof(name), "%s_bw_bytes", phase);
	nb_wl_metric(c, name, bw);
	snprintf(name, sizeof(name), "%s_kps", phase);
	nb_wl_metric(c, name, bw / 1024);
	snprintf(name, sizeof(name), "%s_cpu_pct", phase);
	nb_wl_metric(c, name, ph->cpu_pct);
}

static void put_ops(struct nb_wl_ctx *c, const char *phase, uint64_t ops,
		    const struct nb_phase *ph)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_per_s", phase);
	nb_wl_metric(c, name, (double)ops / ph->secs);
	snprintf(name, sizeof(name), "%s_cpu_pct", phase);
	nb_wl_metric(c, name, ph->cpu_pct);
}

static void progress(struct bonnie *bo, const char *phase, uint64_t total)
{
	char label[160];

	snprintf(label, sizeof(label), "bonnie %s on %s (%d/%d)", phase,
		 bo->t->cfg->name, bo->c->iteration, bo->c->iterations);
	nb_progress_begin(bo->c->progress, label, total, 0);
}

static int open_data(struct bonnie *bo, unsigned flags, struct nb_file **f)
{
	return bo->t->ops->fopen(bo->t, DATA_FILE, flags, f);
}

/* Close F, flushing it first when FLUSH and all went well: RC or the
 * flush's error. */
static int close_data(struct bonnie *bo, struct nb_file *f, int rc, int flush)
{
	if (!rc && flush)
		rc = bo->t->ops->flush(f);
	bo->t->ops->fclose(f);
	return rc;
}

/* A phase's I/O is over: the progress line ends; -EINTR when stopped. */
static int phase_over(struct bonnie *bo, int rc)
{
	nb_progress_end(bo->c->progress);
	if (!rc && *bo->c->stop)
		rc = -EINTR;
	return rc;
}

static int finish(struct bonnie *bo, struct nb_file *f, int rc, int flush)
{
	return phase_over(bo, close_data(bo, f, rc, flush));
}

/* every 64 MiB: show progress, look at the stop flag */
#define TICK(off) (((off) & ((64 << 20) - 1)) == 0)

/* The progress line every 64 MiB; non-zero when the run is being stopped. */
static int tick(struct bonnie *bo, uint64_t done, const struct nb_phase *ph)
{
	if (!TICK(done))
		return 0;
	nb_progress_update(bo->c->progress, done, nb_now_ns() - ph->t0);
	return *bo->c->stop;
}

/* What a chunk transfer of N bytes means: 0, the runner's -errno, or -EIO
 * for a short one (WHAT names it: "write", "read", "I/O"). */
static int chunk_rc(struct bonnie *bo, int64_t n, const char *what, uint64_t off)
{
	if (n == CHUNK)
		return 0;
	return n < 0 ? (int)n : nb_err(-EIO, "target '%s': short %s at offset %llu",
				       bo->t->cfg->name, what,
				       (unsigned long long)off);
}

/* A new data file (bonnie++ unlinks it and creates it with O_EXCL before
 * put_char and put_block; not timed).  On a block target: the window. */
static int create_data(struct bonnie *bo, unsigned flags, struct nb_file **f)
{
	if ((bo->t->caps & NB_CAP_FILES) && bo->t->ops->unlink &&
	    bo->t->ops->unlink(bo->t, DATA_FILE))
		nb_err_clear();          /* there was none: what we wanted */
	return open_data(bo, NB_F_WRITE | NB_F_CREATE | NB_F_TRUNC | flags, f);
}

/*
 * A per-char phase as bonnie++ 2.00 does it: the first char_size bytes of
 * the file, one byte per write(2) (put_char, on a new file; byte I is
 * I & 0x7f, as bonnie++ writes it) or per read(2) (get_char), then fsync
 * and close, all timed.  A system call per byte: on a local disk this
 * measures the client's system calls more than the storage, as in
 * bonnie++.
 */
static int char_pass(struct bonnie *bo, int op)
{
	const char *phase = op == NB_OP_WRITE ? "put_char" : "get_char";
	struct nb_phase ph;
	struct nb_file *f;
	unsigned char ch;
	uint64_t off;
	int64_t n = 1;
	int rc;

	rc = op == NB_OP_WRITE ? create_data(bo, 0, &f)
			       : open_data(bo, NB_F_READ, &f);
	if (rc)
		return rc;
	progress(bo, phase, bo->char_size);
	nb_phase_begin(&ph);
	for (off = 0; off < bo->char_size && n == 1; off++) {
		ch = (unsigned char)(off & 0x7f);
		n = nb_target_pio(bo->t, f, op, &ch, 1, off, 0);
		if ((off & 0xfffff) == 0)
			nb_progress_update(bo->c->progress, off, nb_now_ns() - ph.t0);
		if ((off & 0xfff) == 0 && *bo->c->stop)
			break;
	}
	rc = n == 1 ? 0 : n < 0 ? (int)n :
	     nb_err(-EIO, "target '%s': bonnie %s: a %s of 1 byte at offset "
		    "%llu did %lld", bo->t->cfg->name, phase,
		    op == NB_OP_WRITE ? "write" : "read",
		    (unsigned long long)(off - 1), (long long)n);
	rc = finish(bo, f, rc, 1);
	nb_phase_end(&ph);
	if (!rc)
		put_rate(bo->c, phase, bo->char_size, &ph);
	return rc;
}

/*
 * One timed pass over the file in CHUNK-sized steps (put_block, rewrite,
 * get_block): open with FLAGS (NB_F_CREATE: a new file), STEP at every
 * offset, fsync and close at the end (timed, as bonnie++ times them), the
 * rate recorded under PHASE.
 */
static int block_pass(struct bonnie *bo, const char *phase, unsigned flags,
		      int (*step)(struct bonnie *bo, struct nb_file *f, uint64_t off))
{
	struct nb_phase ph;
	struct nb_file *f;
	int rc;

	if (flags & NB_F_CREATE)
		rc = create_data(bo, bo->direct, &f);
	else
		rc = open_data(bo, flags | bo->direct, &f);
	if (rc)
		return rc;
	progress(bo, phase, bo->size);
	nb_phase_begin(&ph);
	for (uint64_t off = 0; off < bo->size && !rc; off += CHUNK) {
		rc = step(bo, f, off);
		if (tick(bo, off, &ph))
			break;
	}
	rc = finish(bo, f, rc, 1);
	nb_phase_end(&ph);
	if (!rc)
		put_rate(bo->c, phase, bo->size, &ph);
	return rc;
}

/*
 * Fresh random data for a chunk at a fraction of a generator's cost (the
 * generator ran at 6.6 GB/s here, a sixth of put_block's CPU time on a
 * cached 1 GiB file, which bonnie++ with its zeroes does not spend): a
 * window of the random pool at a random place, XORed with a random
 * 64-bit word of its own.  No two chunks share a byte sequence (a window
 * seen twice comes under another word), so a compressor, a deduplicating
 * box or xz over the whole file finds nothing to shrink.
 */
static void fresh_chunk(struct bonnie *bo)
{
	const uint64_t *src = bo->pool +
		nb_rng_below(&bo->rng, (POOL - CHUNK) / 8 + 1);
	uint64_t *dst = (uint64_t *)bo->buf, k = nb_rng_next(&bo->rng);

	for (size_t i = 0; i < CHUNK / 8; i++)
		dst[i] = src[i] ^ k;
}

static int put_block_step(struct bonnie *bo, struct nb_file *f, uint64_t off)
{
	/* fresh random data in every chunk: nothing for a compressing or
	 * deduplicating box to shrink (bonnie++'s chunks are zeroes with a
	 * counter byte) */
	fresh_chunk(bo);
	return chunk_rc(bo, nb_target_pio(bo->t, f, NB_OP_WRITE, bo->buf, CHUNK,
					  off, 0), "write", off);
}

/* read the chunk, change one byte, write it back in place */
static int rewrite_step(struct bonnie *bo, struct nb_file *f, uint64_t off)
{
	int64_t n = nb_target_pio(bo->t, f, NB_OP_READ, bo->buf, CHUNK, off, 0);

	if (n == CHUNK) {
		bo->buf[off / CHUNK % CHUNK]++;
		n = nb_target_pio(bo->t, f, NB_OP_WRITE, bo->buf, CHUNK, off, 0);
	}
	return chunk_rc(bo, n, "I/O", off);
}

static int get_block_step(struct bonnie *bo, struct nb_file *f, uint64_t off)
{
	return chunk_rc(bo, nb_target_pio(bo->t, f, NB_OP_READ, bo->buf, CHUNK,
					  off, 0), "read", off);
}

/* One of the SEEKERS workers: its own handle on the file (bonnie++'s
 * seekers each open it: their own read-ahead state), an I/O, a buffer. */
struct seeker {
	struct nb_file *f;
	struct nb_io io;
	unsigned char *buf;
};

static int seek_start(struct bonnie *bo, struct seeker *s)
{
	uint64_t chunks = bo->size / CHUNK;

	memset(&s->io, 0, sizeof(s->io));
	s->io.file = s->f;
	s->io.op = NB_OP_READ;
	s->io.off = nb_rng_below(&bo->rng, chunks) * CHUNK;
	s->io.len = CHUNK;
	s->io.buf = s->buf;
	s->io.priv = s;
	return bo->t->ops->submit(bo->t, &s->io);
}

/* A seek read (or its write-back) came back: the next step for its worker.
 * 0 or -errno; *INFLIGHT and *FINISHED counted. */
static int seek_done(struct bonnie *bo, struct seeker *s, int rc,
		     int *inflight, int *finished, int *issued)
{
	int r;

	if (s->io.result != CHUNK)
		return rc ? rc : s->io.result < 0 ? (int)s->io.result :
		       nb_err(-EIO, "target '%s': short seek %s at offset %llu",
			      bo->t->cfg->name,
			      s->io.op == NB_OP_READ ? "read" : "write",
			      (unsigned long long)s->io.off);
	if (s->io.op == NB_OP_READ && !rc &&
	    nb_rng_below(&bo->rng, UPDATE_SEEK) == 0) {
		s->buf[0]++;
		s->io.op = NB_OP_WRITE;
		s->io.result = 0;
		r = bo->t->ops->submit(bo->t, &s->io);
		if (r < 0)
			return r;
		++*inflight;
		return 0;
	}
	++*finished;
	if (rc || *issued >= SEEKS || *bo->c->stop)
		return rc;
	r = seek_start(bo, s);
	if (r < 0)
		return r;
	++*issued;
	++*inflight;
	return 0;
}

/*
 * Timed as bonnie++ times it: each of its seekers fsyncs and closes the
 * file when its seeks are done, one removes it, and the phase ends when
 * the last has done so (the last close frees the file).
 */
static int seeks(struct bonnie *bo)
{
	struct seeker sk[SEEKERS] = { 0 };
	struct nb_io *done[SEEKERS];
	struct nb_phase ph;
	int inflight = 0, issued = 0, finished = 0, rc = 0, i;
	double io_secs;

	for (i = 0; i < SEEKERS && !rc; i++) {
		if (!(sk[i].buf = nb_io_alloc(CHUNK)))
			rc = nb_err(-ENOMEM, "out of memory");
		else
			rc = open_data(bo, NB_F_READ | NB_F_WRITE | bo->direct,
				       &sk[i].f);
	}
	if (rc)
		goto out;
	progress(bo, "seeks", 0);
	nb_phase_begin(&ph);
	for (i = 0; i < SEEKERS && !rc; i++, issued++, inflight++)
		rc = seek_start(bo, &sk[i]);
	while (inflight) {
		int n = bo->t->ops->reap(bo->t, done, SEEKERS, 1000000);

		if (n < 0) {
			rc = n;
			inflight = 0;   /* the runner abandoned what was in flight */
			break;
		}
		for (i = 0; i < n; i++) {
			inflight--;
			rc = seek_done(bo, done[i]->priv, rc, &inflight,
				       &finished, &issued);
		}
	}
	io_secs = (double)(nb_now_ns() - ph.t0) / 1e9;
	for (i = 0; i < SEEKERS; i++) {
		rc = close_data(bo, sk[i].f, rc, 1);
		sk[i].f = NULL;
	}
	rc = phase_over(bo, rc);
	if (!rc && (bo->t->caps & NB_CAP_FILES)) {
		rc = bo->t->ops->unlink(bo->t, DATA_FILE);
		bo->removed = !rc;
	}
	nb_phase_end(&ph);
	if (!rc) {
		put_ops(bo->c, "seeks", (uint64_t)finished, &ph);
		nb_wl_metric(bo->c, "seeks_io_per_s",
			     io_secs > 0 ? finished / io_secs : 0);
	}
out:
	for (i = 0; i < SEEKERS; i++) {
		if (sk[i].f)
			bo->t->ops->fclose(sk[i].f);
		free(sk[i].buf);
	}
	return rc;
}

/* File creation: names like bonnie++'s, NAME_LEN with the terminator. */
#define NAME_LEN 40

static void random_chars(struct nb_rng *r, char *p, int n)
{
	static const char set[] = "0123456789abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

	for (int i = 0; i < n; i++)
		p[i] = set[nb_rng_below(r, sizeof(set) - 1)];
	p[n] = '\0';
}

struct names {
	char (*v)[NAME_LEN];
	uint64_t n, cap;
};

static int collect(const char *name, void *payload)
{
	struct names *ns = payload;

	if (ns->n < ns->cap)
		snprintf(ns->v[ns->n++], NAME_LEN, "%s", name);
	return 0;
}

static int file_op(struct bonnie *bo, int what, const char *name)
{
	char path[NAME_LEN + sizeof(FILES_DIR) + 1];
	struct nb_stat st;
	struct nb_file *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", FILES_DIR, name);
	switch (what) {
	case 0:
		rc = bo->t->ops->fopen(bo->t, path, NB_F_WRITE | NB_F_CREATE, &f);
		if (!rc)
			rc = bo->t->ops->fclose(f);
		return rc;
	case 1:
		return bo->t->ops->stat(bo->t, path, &st);
	default:
		return bo->t->ops->unlink(bo->t, path);
	}
}

static void shuffle(struct nb_rng *r, struct names *ns)
{
	char tmp[NAME_LEN];

	for (uint64_t i = ns->n; i > 1; i--) {
		uint64_t j = nb_rng_below(r, i);

		memcpy(tmp, ns->v[i - 1], NAME_LEN);
		memcpy(ns->v[i - 1], ns->v[j], NAME_LEN);
		memcpy(ns->v[j], tmp, NAME_LEN);
	}
}

/* One create / stat / delete round; RANDOM picks bonnie++'s random order. */
static int files_round(struct bonnie *bo, uint64_t nfiles, int random,
		       struct names *ns)
{
	static const char *const phase[2][3] = {
		{ "seq_create", "seq_stat", "seq_delete" },
		{ "ran_create", "ran_stat", "ran_delete" },
	};
	struct nb_phase ph;
	char rnd[16];
	int rc = 0;

	rc = bo->t->ops->mkdir(bo->t, FILES_DIR);
	if (rc)
		return rc;
	ns->n = 0;
	for (uint64_t i = 0; i < nfiles; i++) {
		random_chars(&bo->rng, rnd, (int)nb_rng_below(&bo->rng, 13));
		if (random)
			snprintf(ns->v[i], NAME_LEN, "%s%010llx", rnd,
				 (unsigned long long)i);
		else
			snprintf(ns->v[i], NAME_LEN, "%010llx%s",
				 (unsigned long long)i, rnd);
	}
	ns->n = nfiles;
	for (int what = 0; what < 3 && !rc; what++) {
		progress(bo, phase[random][what], 0);
		nb_phase_begin(&ph);
		if (what > 0 && !random) {
			/* bonnie++ stats and deletes in directory order */
			ns->n = 0;
			rc = bo->t->ops->readdir(bo->t, FILES_DIR, collect, ns);
		} else if (what > 0) {
			shuffle(&bo->rng, ns);
		}
		for (uint64_t i = 0; i < ns->n && !rc; i++) {
			rc = file_op(bo, what, ns->v[i]);
			if ((i & 255) == 0 && *bo->c->stop)
				rc = -EINTR;
		}
		nb_phase_end(&ph);
		nb_progress_end(bo->c->progress);
		if (!rc && ns->n != nfiles)
			rc = nb_err(-EIO, "target '%s': bonnie: the directory lists "
				    "%llu of the %llu files created",
				    bo->t->cfg->name, (unsigned long long)ns->n,
				    (unsigned long long)nfiles);
		if (!rc)
			put_ops(bo->c, phase[random][what], nfiles, &ph);
	}
	if (rc) {
		/* leave no files behind: delete what is there */
		struct names left = { ns->v, 0, ns->cap };

		if (!bo->t->ops->readdir(bo->t, FILES_DIR, collect, &left))
			for (uint64_t i = 0; i < left.n; i++)
				file_op(bo, 2, left.v[i]);
	}
	bo->t->ops->rmdir(bo->t, FILES_DIR);
	return rc;
}

static int files(struct bonnie *bo)
{
	uint64_t n = bo->c->p->files ? bo->c->p->files :
		     nb_knob_default("suite", "files");
	struct names ns = { calloc(n, NAME_LEN), 0, n };
	int rc;

	if (!ns.v)
		return nb_err(-ENOMEM, "out of memory for %llu names",
			      (unsigned long long)n);
	rc = files_round(bo, n, 0, &ns);
	if (!rc)
		rc = files_round(bo, n, 1, &ns);
	free(ns.v);
	return rc;
}

static uint64_t default_size(const struct nb_params *p)
{
	uint64_t ram = p->ram ? p->ram : nb_seed_client_ram();

	return ram ? NB_RAM_FACTOR * ram : nb_knob_default("suite", "size");
}

/* bonnie++ buffers its I/O: direct only when asked (--direct yes). */
static int bonnie_run(struct nb_wl_ctx *c)
{
	struct bonnie bo = { .c = c, .t = c->t,
			     .direct = nb_switch(c->p->direct, 0) ? NB_F_DIRECT : 0 };
	uint64_t ram = c->p->ram ? c->p->ram : nb_seed_client_ram();
	int block = !(c->t->caps & NB_CAP_FILES);
	char a[32], b[32];
	int rc;

	bo.size = c->p->size ? c->p->size : default_size(c->p);
	if (block && c->t->capacity && bo.size > c->t->capacity) {
		if (c->p->size)
			return nb_err(-ENOSPC, "target '%s' has %s, less than the "
				      "bonnie size %s", c->t->cfg->name,
				      nb_fmt_size(c->t->capacity, a, sizeof(a)),
				      nb_fmt_size(bo.size, b, sizeof(b)));
		bo.size = c->t->capacity;
	}
	bo.size -= bo.size % CHUNK;
	if (bo.size < CHUNK)
		return nb_err(-EINVAL, "target '%s': bonnie needs a size of at "
			      "least 8 KiB", c->t->cfg->name);
	/* per-char phases: byte I/O, so not on a LUN or device (512-byte
	 * blocks and more); bonnie++ -f leaves them out */
	if (c->p->fast != 1 && c->t->block_size <= 1)
		bo.char_size = bo.size < CHAR_IO ? bo.size : CHAR_IO;
	if (c->iteration == 1)
		c->spec = json_pack("{s:I, s:I, s:i, s:i, s:i, s:I, s:I}", "size",
				    (json_int_t)bo.size, "char_size",
				    (json_int_t)bo.char_size, "chunk", CHUNK,
				    "seeks", SEEKS, "seekers", SEEKERS, "files",
				    (json_int_t)(block ? 0 : c->p->files ? c->p->files
						 : nb_knob_default("suite", "files")),
				    "ram", (json_int_t)ram);
	if (ram && bo.size < NB_RAM_FACTOR * ram)
		nb_wl_warn(c, "file size %s is less than twice the %s RAM (%s): "
			   "caches may inflate the figures (bonnie++ refuses this "
			   "without -r)", nb_fmt_size(bo.size, a, sizeof(a)),
			   c->p->ram ? "box's" : "client's",
			   nb_fmt_size(ram, b, sizeof(b)));
	if (block)
		nb_wl_warn(c, "target '%s' is a block target (a LUN, device or "
			   "file): only the block phases ran (no file "
			   "create/stat/delete%s)", c->t->cfg->name,
			   c->p->fast != 1 && !bo.char_size ?
			   ", no per-char phases: its blocks take no byte I/O" : "");
	bo.buf = nb_io_alloc(CHUNK);
	bo.pool = nb_io_alloc(POOL);
	if (!bo.buf || !bo.pool) {
		free(bo.buf);
		free(bo.pool);
		return nb_err(-ENOMEM, "out of memory");
	}
	nb_rng_seed(&bo.rng, c->seed);
	nb_rng_wide_seed(&bo.data, c->seed ^ 0x626f6e6e6965ULL);
	nb_datagen_fill_wide(&bo.data, bo.pool, POOL);
	/* bonnie++ 2.00's order */
	rc = bo.char_size ? char_pass(&bo, NB_OP_WRITE) : 0;
	if (!rc)
		rc = block_pass(&bo, "put_block", NB_F_WRITE | NB_F_CREATE |
				NB_F_TRUNC, put_block_step);
	if (!rc)
		rc = block_pass(&bo, "rewrite", NB_F_READ | NB_F_WRITE,
				rewrite_step);
	if (!rc && bo.char_size)
		rc = char_pass(&bo, NB_OP_READ);
	if (!rc)
		rc = block_pass(&bo, "get_block", NB_F_READ, get_block_step);
	if (!rc)
		rc = seeks(&bo);
	if (!block && !bo.removed)
		c->t->ops->unlink(c->t, DATA_FILE);
	else if (!rc && bo.size > c->t->filled)
		c->t->filled = bo.size;
	if (!rc && !block && (c->t->caps & NB_CAP_META))
		rc = files(&bo);
	free(bo.buf);
	free(bo.pool);
	return rc;
}

static uint64_t bonnie_plan_bytes(const struct nb_workload *w,
				  const struct nb_params *p)
{
	(void)w;
	return p->size ? p->size : default_size(p);
}

static void bonnie_estimate(const struct nb_workload *w,
			    const struct nb_params *p, struct nb_estimate *e)
{
	uint64_t size = bonnie_plan_bytes(w, p);
	uint64_t chars = p->fast == 1 ? 0 : size < CHAR_IO ? size : CHAR_IO;
	double files = (double)(p->files ? p->files :
				 nb_knob_default("suite", "files"));

	/* put_block, rewrite (a read and a write), get_block; per-char: a
	 * system call per byte, about a microsecond each on a client */
	e->seconds = 4 * (double)size / NB_ESTIMATE_RATE + 2 * (double)chars / 1e6 +
		     (SEEKS + 6 * files) / NB_ESTIMATE_META_RATE;
	e->written = 2 * size + chars;
}

const struct nb_workload nb_wl_bonnie = {
	.name = "bonnie",
	.help = "bonnie++ 2.00's phases: per-char (3 MiB) and block write, "
		"rewrite, read, seeks, file create/stat/delete (size 2 x RAM)",
	.run = bonnie_run,
	.plan_bytes = bonnie_plan_bytes,
	.estimate = bonnie_estimate,
};

/* bonnie's rows: [suite] files, fast (core/knobs.h). */
const struct nb_knob nb_bonnie_knobs[] = {
	{ .section = "suite", .name = "files", .type = NB_KT_UINT, NB_PRM(files),
	  .def = "16384",
	  .min = 1, .max = 10000000,
	  .help = "bonnie: files to create, stat and delete" },
	{ .section = "suite", .name = "fast", .type = NB_KT_BOOL, NB_PRM(fast),
	  .def = "no",
	  .help = "bonnie: skip the per-character phases, like bonnie++ -f" },
	{ NULL },
};
