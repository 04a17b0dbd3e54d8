/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * invoke.h - running the fio binary (through core/spawn.c).
 */
#ifndef NB_FIO_INVOKE_H
#define NB_FIO_INVOKE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* The result of running the fio binary. */
struct nb_fio_exec {
	char *out;               /* stdout, NUL-terminated (free()) */
	size_t out_len;
	char *err;               /* the last of stderr, NUL-terminated (free()) */
	int status;              /* exit status, or 128+signal */
	int stopped;             /* *stop was set: fio was sent SIGINT */
	int timed_out;           /* past LIMIT_US: fio was terminated */
};

/* Run fio with ARGV (argv[0] "fio"; $NASBENCH_FIO overrides the binary),
 * feeding STDIN_TEXT (may be NULL) on its standard input.  Sends SIGINT
 * when *STOP becomes set; LIMIT_US after the start (0: never) SIGTERM,
 * and SIGKILL 10 s later.  fio runs in a process group of its own (stop
 * and kill reach its jobs).  0 when fio ran (whatever its status), or
 * -errno when it could not be started (-ENOENT: not installed). */
int nb_fio_exec(char *const argv[], const char *stdin_text,
		volatile sig_atomic_t *stop, uint64_t limit_us,
		struct nb_fio_exec *x);
void nb_fio_exec_free(struct nb_fio_exec *x);

/* The fio program used: $NASBENCH_FIO or "fio". */
const char *nb_fio_program(void);

#endif
