/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iscsi_pio.c - one read or write through a runner, for the data checks of
 * test_iscsi.sh (nasbench's own workloads do not show the bytes they read).
 *
 *   iscsi_pio URL read OFF LEN > data
 *   iscsi_pio URL write OFF LEN [fua] < data     (needs destroy-data: DESTROY=1)
 *
 * OFF is relative to the target's window (OFFSET= and SIZE= in the
 * environment set it).  Exit 0, or 3 with the error on stderr.
 */
#include "../../core/err.h"
#include "../../core/url.h"
#include "../../runners/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct nb_target_cfg cfg = { .name = "pio", .timeout_us = 10000000 };
	struct nb_target t;
	struct nb_file *f;
	int write, rc;
	uint64_t off;
	uint32_t len;
	void *buf;
	int64_t n;

	if (argc < 5) {
		fprintf(stderr, "usage: iscsi_pio URL read|write OFF LEN [fua]\n");
		return 2;
	}
	snprintf(cfg.url, sizeof(cfg.url), "%s", argv[1]);
	write = !strcmp(argv[2], "write");
	off = strtoull(argv[3], NULL, 0);
	len = (uint32_t)strtoul(argv[4], NULL, 0);
	cfg.offset = getenv("OFFSET") ? strtoull(getenv("OFFSET"), NULL, 0) : 0;
	cfg.size = getenv("SIZE") ? strtoull(getenv("SIZE"), NULL, 0) : 0;
	cfg.destroy_data = getenv("DESTROY") != NULL;
	if (nb_url_parse(cfg.url, &cfg.u)) {
		fprintf(stderr, "iscsi_pio: %s\n", nb_err_last());
		return 2;
	}
	buf = aligned_alloc(4096, (len + 4095) / 4096 * 4096);
	if (!buf)
		return 3;
	if (write && fread(buf, 1, len, stdin) != len) {
		fprintf(stderr, "iscsi_pio: short input\n");
		return 2;
	}
	rc = nb_target_open(&t, &cfg);
	if (!rc)
		rc = t.ops->fopen(&t, "data", write ? NB_F_READ | NB_F_WRITE : NB_F_READ,
				  &f);
	if (!rc) {
		n = nb_target_pio(&t, f, write ? NB_OP_WRITE : NB_OP_READ, buf, len,
				  off, argc > 5 && !strcmp(argv[5], "fua"));
		rc = n < 0 ? (int)n : 0;
		t.ops->fclose(f);
	}
	if (rc) {
		fprintf(stderr, "iscsi_pio: %s\n", nb_err_last());
		nb_target_close(&t);
		free(buf);
		return 3;
	}
	if (!write)
		fwrite(buf, 1, len, stdout);
	nb_target_close(&t);
	free(buf);
	return 0;
}
