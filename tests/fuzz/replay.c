/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - main() for a fuzz harness built without libFuzzer (gcc, in
 * every test build): runs LLVMFuzzerTestOneInput once on each file named
 * on the command line.  The harnesses thus compile with the library they
 * test, and `make unit` replays the checked-in corpus (also under ASan
 * and UBSan in `make sanitize`) on a machine without clang.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t cap = 0, len = 0, n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		do {
			if (len == cap) {
				cap = cap ? 2 * cap : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	return 0;
}
