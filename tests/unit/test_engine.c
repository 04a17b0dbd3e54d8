/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The engine on the real posix runner over a scratch directory, and on a
 * target with a simulated device behind it (queue depth, latency span). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../core/clock.h"
#include "../../core/datagen.h"
#include "../../engine/engine.h"
#include "../../core/err.h"
#include "../../runners/runner.h"

static char dir[64];
static struct nb_target_cfg cfg;
static struct nb_target t;
static struct nb_io_result r;

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/nb-unit-engine.XXXXXX");
	assert_non_null(mkdtemp(dir));
	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "local");
	snprintf(cfg.url, sizeof(cfg.url), "%s", dir);
	assert_int_equal(nb_url_parse(dir, &cfg.u), 0);
	cfg.run_id = "unit";
	assert_int_equal(nb_target_open(&t, &cfg), 0);
	return 0;
}

static int teardown(void **state)
{
	char scratch[128];

	(void)state;
	nb_target_close(&t);
	snprintf(scratch, sizeof(scratch), "%s/nasbench.unit", dir);
	assert_int_equal(access(scratch, F_OK), -1);   /* removed */
	rmdir(dir);
	return 0;
}

static struct nb_file *open_data(unsigned flags)
{
	struct nb_file *f;

	assert_int_equal(t.ops->fopen(&t, "data", flags | NB_F_CREATE, &f), 0);
	return f;
}

struct seen {
	uint64_t bytes;
	int bad;
};

/* every 4 KiB of what the engine wrote carries (magic, its offset) */
static int check_stamp(const void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct seen *s = payload;

	for (uint32_t o = 0; o < len; o += 4096) {
		uint64_t v[2];

		memcpy(v, (const char *)buf + o, sizeof(v));
		if (v[0] != NB_BLOCK_MAGIC || v[1] != off + o)
			s->bad++;
	}
	s->bytes += len;
	return 0;
}

static void write_then_read(void **state)
{
	struct nb_iospec w = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE,
			       .bs = 65536, .qd = 4, .size = 1 << 20,
			       .sync = NB_SYNC_END, .direct = 1, .seed = 1 };
	struct nb_iospec rd = w;
	struct seen s = { 0, 0 };
	struct nb_engine_hooks h = { .check = check_stamp, .payload = &s };
	struct nb_file *f = open_data(NB_F_READ | NB_F_WRITE | NB_F_DIRECT);
	uint64_t size;

	(void)state;
	assert_int_equal(nb_engine_run(&t, f, &w, NULL, &r), 0);
	assert_int_equal(r.bytes_written, 1 << 20);
	assert_int_equal(r.bytes_read, 0);
	assert_int_equal(r.ios, 16);
	assert_int_equal(r.lat.count, 16);
	assert_true(r.elapsed_ns > 0);
	assert_int_equal(t.ops->fsize(f, &size), 0);
	assert_int_equal(size, 1 << 20);

	rd.rw = NB_RW_READ;
	rd.pattern = NB_PAT_RAND;
	rd.bs = 4096;
	assert_int_equal(nb_engine_run(&t, f, &rd, &h, &r), 0);
	assert_int_equal(r.bytes_read, 1 << 20);
	assert_int_equal(r.ios, 256);
	assert_int_equal(s.bytes, 1 << 20);
	assert_int_equal(s.bad, 0);
	t.ops->fclose(f);
}

static void time_bound_and_stop(void **state)
{
	struct nb_iospec rd = { .pattern = NB_PAT_SEQ, .rw = NB_RW_READ,
				.bs = 65536, .qd = 8, .size = 1 << 20,
				.runtime_us = 200000, .seed = 2 };
	volatile sig_atomic_t stop = 1;
	struct nb_engine_hooks h = { .stop = &stop };
	struct nb_file *f = open_data(NB_F_READ);

	(void)state;
	assert_int_equal(nb_engine_run(&t, f, &rd, NULL, &r), 0);
	/* loops over the 1 MiB file for 0.2 s */
	assert_true(r.bytes_read > (1 << 20));
	assert_true(r.elapsed_ns >= 200000000ULL);
	assert_int_equal(nb_engine_run(&t, f, &rd, &h, &r), 0);
	assert_int_equal(r.stopped, 1);
	assert_int_equal(r.ios, 0);
	t.ops->fclose(f);
}

struct sectors {
	uint64_t *sum;
	size_t n, cap;
};

static int keep_sectors(const void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct sectors *k = payload;

	(void)off;
	for (uint32_t o = 0; o + 512 <= len && k->n < k->cap; o += 512)
		k->sum[k->n++] = nb_fnv1a((const char *)buf + o, 512, 0);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* every 512 B sector the engine writes is unique, though each of the QD
 * slots reuses its buffer for write after write */
static void sectors_unique(void **state)
{
	struct nb_iospec w = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE,
			       .bs = 4096, .qd = 4, .size = 1 << 20,
			       .sync = NB_SYNC_END, .direct = 1, .seed = 3 };
	struct nb_iospec rd = w;
	struct sectors k = { .cap = (1 << 20) / 512 };
	struct nb_engine_hooks h = { .check = keep_sectors, .payload = &k };
	struct nb_file *f = open_data(NB_F_READ | NB_F_WRITE | NB_F_DIRECT);

	(void)state;
	k.sum = calloc(k.cap, sizeof(*k.sum));
	assert_non_null(k.sum);
	assert_int_equal(nb_engine_run(&t, f, &w, NULL, &r), 0);
	assert_int_equal(r.ios, 256);
	rd.rw = NB_RW_READ;
	rd.qd = 1;
	rd.bs = 65536;
	assert_int_equal(nb_engine_run(&t, f, &rd, &h, &r), 0);
	assert_int_equal(k.n, k.cap);
	qsort(k.sum, k.n, sizeof(*k.sum), cmp_u64);
	for (size_t i = 1; i < k.n; i++)
		assert_true(k.sum[i] != k.sum[i - 1]);
	free(k.sum);
	t.ops->fclose(f);
}

static void errors(void **state)
{
	struct nb_iospec rd = { .pattern = NB_PAT_SEQ, .rw = NB_RW_READ,
				.bs = 65536, .qd = 4, .size = 4 << 20 };
	struct nb_file *f = open_data(NB_F_READ);

	(void)state;
	/* the file holds 1 MiB: reading 4 MiB runs past its end */
	assert_int_equal(nb_engine_run(&t, f, &rd, NULL, &r), -EIO);
	/* whichever I/O past the end completes first is named */
	assert_non_null(strstr(nb_err_last(), "target 'local': short read at offset "));
	assert_non_null(strstr(nb_err_last(), " (0 of 65536 bytes): is the file or LUN smaller than the size?"));
	rd.bs = 0;
	assert_int_equal(nb_engine_run(&t, f, &rd, NULL, &r), -EINVAL);
	rd.bs = 4096;
	rd.qd = 1000;
	assert_int_equal(nb_engine_run(&t, f, &rd, NULL, &r), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'local': block size and queue depth must be at least 1 (queue depth at most 256)");
	t.ops->fclose(f);
}

/*
 * A target with a device behind it.  submit() sends the I/O at once and
 * notes when it was sent (after at least one clock tick: sending takes
 * time); each reap() first lets the device finish the older half of the
 * I/Os it holds, then hands over what finished, up to MAX.  It counts the
 * reaps that found fewer I/Os in flight (sent, not handed back) than the
 * engine could have had, those that handed back more than one while there
 * was work left (slots left empty at once), and the I/Os timed from before
 * they were sent.
 */
struct dev_io {
	struct nb_io *io;
	uint64_t sent_at;
};

static struct dev {
	struct dev_io held[NB_MAX_QD];   /* at the device, oldest first */
	struct dev_io fin[NB_MAX_QD];    /* finished, not yet handed back */
	int nheld, nfin;
	uint64_t qd, total, sent, reaped;
	int reaps, short_reaps, batched, early;
	void *bufs[NB_MAX_QD];           /* the distinct buffers sent */
	int nbufs;
} dev;

static int dev_submit(struct nb_target *dt, struct nb_io *io)
{
	uint64_t t0 = nb_now_ns();
	int i = 0;

	(void)dt;
	while (nb_now_ns() == t0)
		;
	dev.held[dev.nheld].io = io;
	dev.held[dev.nheld++].sent_at = nb_now_ns();
	dev.sent++;
	/* the distinct buffers sent */
	while (i < dev.nbufs && dev.bufs[i] != io->buf)
		i++;
	if (i == dev.nbufs && i < NB_MAX_QD)
		dev.bufs[dev.nbufs++] = io->buf;
	return 0;
}

static int dev_reap(struct nb_target *dt, struct nb_io **done, int max,
		    int timeout_us)
{
	uint64_t could = dev.total - dev.reaped;
	int step = (dev.nheld + 1) / 2, n = 0;

	(void)dt;
	(void)timeout_us;
	dev.reaps++;
	if ((uint64_t)(dev.nheld + dev.nfin) < (could < dev.qd ? could : dev.qd))
		dev.short_reaps++;
	memcpy(dev.fin + dev.nfin, dev.held, (size_t)step * sizeof(*dev.held));
	dev.nfin += step;
	dev.nheld -= step;
	memmove(dev.held, dev.held + step, (size_t)dev.nheld * sizeof(*dev.held));
	for (; n < max && n < dev.nfin; n++) {
		struct nb_io *io = dev.fin[n].io;

		if (io->t_submit < dev.fin[n].sent_at)
			dev.early++;
		io->result = io->len;
		done[n] = io;
	}
	if (n > 1 && dev.sent < dev.total)
		dev.batched++;
	dev.nfin -= n;
	memmove(dev.fin, dev.fin + n, (size_t)dev.nfin * sizeof(*dev.fin));
	dev.reaped += (uint64_t)n;
	return n;
}

static const struct nb_runner_ops dev_ops = {
	.name = "dev",
	.caps = NB_CAP_ASYNC,
	.submit = dev_submit,
	.reap = dev_reap,
};

/* At QD N the engine has N I/Os in flight at every reap while there is
 * work, takes one completion at a time and refills its slot before the
 * next (fio's defaults: iodepth_batch_complete_min=1, _max = the min), and
 * times each I/O from its submission on, as fio's clat (it once
 * took QD/8 at a time, and started the clock before the I/O was sent) */
static void queue_depth_held(void **state)
{
	static const uint32_t depths[] = { 1, 2, 8, 32 };
	struct nb_target_cfg dcfg = { .name = "dev" };
	struct nb_target dt = { .ops = &dev_ops, .cfg = &dcfg, .block_size = 1 };
	struct nb_file *f = (struct nb_file *)&dev;

	(void)state;
	for (size_t i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
		struct nb_iospec rd = { .pattern = NB_PAT_RAND, .rw = NB_RW_READ,
					.bs = 4096, .qd = depths[i],
					.size = 1 << 20, .seed = 4 };

		memset(&dev, 0, sizeof(dev));
		dev.qd = rd.qd;
		dev.total = rd.size / rd.bs;
		assert_int_equal(nb_engine_run(&dt, f, &rd, NULL, &r), 0);
		assert_int_equal(r.ios, dev.total);
		assert_int_equal(r.lat.count, dev.total);
		assert_true(dev.reaps > 0);
		assert_int_equal(dev.short_reaps, 0);
		assert_int_equal(dev.batched, 0);
		assert_int_equal(dev.early, 0);
	}
}

/* A device that takes SLOW_NS over each I/O, one at a time. */
static struct { struct nb_io *io; uint64_t ns; } slow;

static int slow_submit(struct nb_target *dt, struct nb_io *io)
{
	(void)dt;
	slow.io = io;
	return 0;
}

static int slow_reap(struct nb_target *dt, struct nb_io **done, int max,
		     int timeout_us)
{
	struct timespec ts = { 0, (long)slow.ns };

	(void)dt;
	(void)max;
	(void)timeout_us;
	if (!slow.io)
		return 0;
	if (slow.ns)
		nanosleep(&ts, NULL);
	slow.io->result = slow.io->len;
	done[0] = slow.io;
	slow.io = NULL;
	return 1;
}

/* No figure without the samples to carry it (core/samples.h): a closed
 * loop whose runtime ends before it has issued the 100 I/Os a mean needs
 * runs on until it has, up to NB_RUNTIME_STRETCH runtimes, and says so. */
static void runtime_stretch(void **state)
{
	static const struct nb_runner_ops slow_ops = {
		.name = "slow", .caps = NB_CAP_ASYNC, .submit = slow_submit,
		.reap = slow_reap,
	};
	struct nb_target_cfg dcfg = { .name = "slow" };
	struct nb_target dt = { .ops = &slow_ops, .cfg = &dcfg, .block_size = 1 };
	struct nb_iospec rd = { .pattern = NB_PAT_RAND, .rw = NB_RW_READ,
				.bs = 4096, .qd = 1, .size = 1 << 20,
				.runtime_us = 50000, .seed = 5 };
	struct nb_file *f = (struct nb_file *)&slow;

	(void)state;
	/* 2 ms an I/O: 25 in the 50 ms runtime; on to 100 (0.2 s or more) */
	slow.ns = 2000000;
	assert_int_equal(nb_engine_run(&dt, f, &rd, NULL, &r), 0);
	assert_int_equal(r.ios, 100);
	assert_int_equal(r.stretched, 1);
	assert_true(r.elapsed_ns >= 200000000ULL);
	/* 20 ms an I/O: 10 runtimes (0.5 s) hold about 25: it stops there
	 * (the I/O in flight then ends it a little later; well before the
	 * 2 s that 100 would take) */
	slow.ns = 20000000;
	assert_int_equal(nb_engine_run(&dt, f, &rd, NULL, &r), 0);
	assert_int_equal(r.stretched, 1);
	assert_true(r.ios < 100);
	assert_true(r.elapsed_ns >= 500000000ULL && r.elapsed_ns < 1000000000ULL);
	/* a runtime that holds 100 (thousands without a wait): as it was */
	slow.ns = 0;
	assert_int_equal(nb_engine_run(&dt, f, &rd, NULL, &r), 0);
	assert_int_equal(r.stretched, 0);
	assert_true(r.ios >= 100);
}

/* Reads land in a buffer of their own for each I/O in flight, as fio
 * gives them, where the kernel or the device writes them (own_read_buffers:
 * posix); with one shared buffer kept hot in the CPU's cache, posix
 * seq512k-read measured 1.32x fio's MB/s.  A runner that copies replies
 * out of its own receive buffers (iSCSI, NFS) shares one. */
static void read_buffers(void **state)
{
	struct nb_runner_ops owning = dev_ops;
	struct nb_target_cfg dcfg = { .name = "dev" };
	struct nb_target dt = { .ops = &dev_ops, .cfg = &dcfg, .block_size = 1 };
	struct nb_file *f = (struct nb_file *)&dev;
	struct nb_iospec rd = { .pattern = NB_PAT_SEQ, .rw = NB_RW_READ,
				.bs = 4096, .qd = 8, .size = 1 << 20, .seed = 4 };

	(void)state;
	owning.own_read_buffers = 1;
	for (int shared = 0; shared < 2; shared++) {
		memset(&dev, 0, sizeof(dev));
		dev.qd = rd.qd;
		dev.total = rd.size / rd.bs;
		dt.ops = shared ? &dev_ops : &owning;
		assert_int_equal(nb_engine_run(&dt, f, &rd, NULL, &r), 0);
		assert_int_equal(dev.nbufs, shared ? 1 : 8);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(write_then_read),
		cmocka_unit_test(time_bound_and_stop),
		cmocka_unit_test(sectors_unique),
		cmocka_unit_test(errors),
		cmocka_unit_test(queue_depth_held),
		cmocka_unit_test(read_buffers),
		cmocka_unit_test(runtime_stretch),
	};

	return cmocka_run_group_tests_name("engine", tests, setup, teardown);
}
