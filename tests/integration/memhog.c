/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memhog.c - take most of this machine's available memory and hold it
 * until killed (test_telemetry.sh: the box's memory verdict).
 *
 *   memhog PCT READY [MAX_MIB]
 *                        allocate and touch 256 MiB at a time until
 *                        MemAvailable is under PCT% of MemTotal (never
 *                        under 2%), or MAX_MIB are held; write READY
 *                        ("held N MiB, available A of T MiB"), then wait
 *
 * It stops taking at 2% available whatever PCT says, is the first the
 * kernel's OOM killer takes (oom_score_adj 1000), and gives back
 * everything when it is killed: the machine's other work is pressed, not
 * starved, for the seconds a test holds it.  In a VM the host may back
 * each page only when touched: 20 GiB took minutes here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHUNK (256UL << 20)

static long meminfo(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");
	size_t n = strlen(key);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = atol(line + n + 1) / 1024;    /* MiB */
			break;
		}
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	double pct = argc > 1 ? atof(argv[1]) : 3;
	long total = meminfo("MemTotal"), held = 0;
	long max = argc > 3 ? atol(argv[3]) : -1;
	FILE *r;

	if (argc < 3 || argc > 4 || pct <= 0 || total <= 0) {
		fprintf(stderr, "usage: memhog PCT READY-FILE [MAX_MIB]\n");
		return 2;
	}
	if (pct < 2)
		pct = 2;
	r = fopen("/proc/self/oom_score_adj", "w");
	if (r) {
		fputs("1000\n", r);
		fclose(r);
	}
	while (meminfo("MemAvailable") > total * pct / 100 &&
	       (max < 0 || held < max)) {
		/* huge pages where the kernel has them: 512 times fewer faults
		 * (4 KiB pages took a minute for 20 GiB in a VM) */
		char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			break;
		madvise(p, CHUNK, MADV_HUGEPAGE);
		memset(p, 0x5a, CHUNK);
		held += (long)(CHUNK >> 20);
	}
	r = fopen(argv[2], "w");
	if (!r)
		return 1;
	fprintf(r, "held %ld MiB, available %ld of %ld MiB\n", held,
		meminfo("MemAvailable"), total);
	fclose(r);
	for (;;)
		pause();
}
