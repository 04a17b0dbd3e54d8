/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs_meta.c - drives a runner's file and metadata calls on a real target,
 * for tests/integration/test_nfs.sh (built by it against build/libnasbench.a).
 *
 *   nfs_meta URL RUN-ID
 *
 * In the scratch directory nasbench.RUN-ID: mkdir d, create d/f with 100000
 * bytes (then 4 KiB again as a FUA write), stat it, read it back, rename it to d/g, list d, then keep d/g
 * (with a second directory e) and exit, so the caller can look at the export
 * itself; "clean" as a third argument removes everything instead.  Prints one
 * line per call; exit 0, or 3 with nasbench's message.
 */
#include "../../core/err.h"
#include "../../runners/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(void)
{
	fprintf(stderr, "nfs_meta: %s\n", nb_err_last());
	return 3;
}

static int list_cb(const char *name, void *payload)
{
	(void)payload;
	printf("entry %s\n", name);
	return 0;
}

int main(int argc, char **argv)
{
	struct nb_target_cfg cfg = { .timeout_us = 5000000 };
	struct nb_target t;
	struct nb_stat st;
	struct nb_file *f;
	static char buf[100000], back[100000];
	int clean = argc > 3 && !strcmp(argv[3], "clean");

	if (argc < 3)
		return fprintf(stderr, "usage: nfs_meta URL RUN-ID [clean]\n"), 2;
	snprintf(cfg.name, sizeof(cfg.name), "meta");
	snprintf(cfg.url, sizeof(cfg.url), "%s", argv[1]);
	cfg.run_id = argv[2];
	cfg.keep = !clean;
	if (nb_url_parse(cfg.url, &cfg.u) || nb_target_open(&t, &cfg))
		return fail();
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 3);
	if (t.ops->mkdir(&t, "d") || t.ops->mkdir(&t, "e"))
		return fail();
	printf("mkdir ok\n");
	if (t.ops->fopen(&t, "d/f", NB_F_READ | NB_F_WRITE | NB_F_CREATE, &f))
		return fail();
	if (nb_target_pio(&t, f, NB_OP_WRITE, buf, sizeof(buf), 0, 0) != sizeof(buf) ||
	    t.ops->flush(f))
		return fail();
	/* FUA on a file opened without O_SYNC: goes through an O_SYNC twin */
	if (nb_target_pio(&t, f, NB_OP_WRITE, buf, 4096, 0, 1) != 4096)
		return fail();
	printf("fua write ok\n");
	if (nb_target_pio(&t, f, NB_OP_READ, back, sizeof(back), 0, 0) != sizeof(back))
		return fail();
	printf("readback %s\n", memcmp(buf, back, sizeof(buf)) ? "differs" : "same");
	t.ops->fclose(f);
	if (t.ops->stat(&t, "d/f", &st))
		return fail();
	printf("stat size %llu dir %d\n", (unsigned long long)st.size, st.is_dir);
	if (t.ops->stat(&t, "d", &st))
		return fail();
	printf("stat d dir %d\n", st.is_dir);
	if (t.ops->rename(&t, "d/f", "d/g"))
		return fail();
	printf("rename ok\n");
	if (t.ops->readdir(&t, "d", list_cb, NULL))
		return fail();
	if (!t.ops->stat(&t, "d/f", &st))
		printf("d/f still there\n");
	else
		printf("stat d/f: %s\n", nb_err_last());
	if (t.ops->rmdir(&t, "d") == 0)
		printf("rmdir of a full directory worked\n");
	else
		printf("rmdir d refused\n");
	if (clean) {
		if (t.ops->unlink(&t, "d/g") || t.ops->rmdir(&t, "d") ||
		    t.ops->rmdir(&t, "e"))
			return fail();
		printf("unlink rmdir ok\n");
	}
	nb_target_close(&t);
	printf("closed\n");
	return 0;
}
