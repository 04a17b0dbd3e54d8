/*
 * memhog.c - take most of this machine's available memory and hold it
 * until killed (test_telemetry.sh: the box's memory verdict).
 *
 *   memhog PCT READY     allocate and touch 32 MiB at a time until
 *                        MemAvailable is under PCT% of MemTotal (never
 *                        under 2%), write READY ("held N MiB"), then wait
 *
 * It stops taking at 2% available whatever PCT says, and gives back
 * everything when it is killed, so the machine's other work is pressed,
 * not starved, for the few seconds a test holds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (32UL << 20)

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
	FILE *r;

	if (argc != 3 || pct <= 0 || total <= 0) {
		fprintf(stderr, "usage: memhog PCT READY-FILE\n");
		return 2;
	}
	if (pct < 2)
		pct = 2;
	while (meminfo("MemAvailable") > total * pct / 100) {
		char *p = malloc(CHUNK);

		if (!p)
			break;
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
