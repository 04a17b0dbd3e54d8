/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - what every libFuzzer harness in tests/fuzz needs: the input as
 * a file (the parsers read paths) and as a C string.
 *
 * The file is a memfd named by /proc/self/fd/N: nothing is written to a
 * disk and nothing is left behind when the fuzzer stops.
 */
#ifndef NB_FUZZ_H
#define NB_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../cmd/cmd.h"
#include "../../core/knobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every harness starts with the program's knob rows, as main() does
 * (core/knobs.h, cmd/knobs.c). */
__attribute__((constructor)) static void fuzz_use_knobs(void)
{
	nb_knobs_use(nb_cmd_knobs);
}

/* DATA as the contents of a file; the path stays valid until the next call. */
static inline const char *fuzz_path(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("nasbench-fuzz", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	return path;
}

/* DATA as a NUL-terminated string (cut at its first NUL); freed by the
 * next call. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	static char *s;

	free(s);
	s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The parsers report errors through core/err.c into a buffer; anything
 * they print goes to /dev/null, once per process. */
static inline void fuzz_quiet(void)
{
	static int done;

	if (!done) {
		done = 1;
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
}

#endif
