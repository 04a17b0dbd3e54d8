/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - run another program and wait for it: the one fork/exec of
 *           nasbench (fio, iscsi-test-cu, gnuplot).
 *
 * The child runs in a process group of its own, so a stop or a kill
 * reaches whatever it forks.  Its standard input is the bytes given (or
 * /dev/null); its standard output is captured into a buffer or written to
 * a file; its standard error likewise (the last ERR_KEEP bytes of it are
 * kept), or merged with the standard output.  A stop request (*STOP set,
 * as nasbench's SIGINT handler does) sends STOP_SIG to the group; past
 * LIMIT_US the group gets SIGTERM and, GRACE_US later, SIGKILL.
 *
 * One struct holds what to run and, once it ran, what happened:
 *
 *     struct nb_spawn sp = { .argv = argv, .in = job, .stop = stop,
 *                            .limit_us = 60000000, .grace_us = 10000000 };
 *     rc = nb_spawn_run(&sp);      // 0: it ran; sp.status, sp.out, sp.err
 *     ...
 *     nb_spawn_free(&sp);
 *
 * Writing to a child that exited early does not raise SIGPIPE in nasbench
 * (the signal is blocked in the waiting thread and discarded).
 */
#ifndef NB_SPAWN_H
#define NB_SPAWN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define NB_SPAWN_ERR_KEEP 4096

struct nb_spawn {
	/* ---- what to run (the caller sets these) ---- */
	char *const *argv;       /* argv[0] is the name the program sees */
	const char *prog;        /* the program (NULL: argv[0]); searched in
				  * $PATH when it holds no '/' */
	const char *dir;         /* the child's working directory (NULL: ours) */
	char *const *envp;       /* the child's environment (NULL: ours) */
	const char *in;          /* bytes on its standard input (NULL: /dev/null) */
	size_t in_len;           /* their length (0: strlen(IN)) */
	const char *out_path;    /* standard output into this file (NULL: into OUT) */
	const char *err_path;    /* standard error into this file (NULL: into ERR) */
	int err_to_out;          /* standard error goes where standard output goes */
	size_t err_keep;         /* keep the last ERR_KEEP bytes of standard
				  * error (0: NB_SPAWN_ERR_KEEP) */
	volatile sig_atomic_t *stop; /* when *STOP becomes set: STOP_SIG to the group */
	int stop_sig;            /* 0: SIGINT */
	uint64_t limit_us;       /* past this since the start: SIGTERM (0: none) */
	uint64_t grace_us;       /* ... then SIGKILL this much later (0: SIGKILL
				  * at the limit, no SIGTERM) */
	size_t out_max;          /* captured standard output past this many
				  * bytes: the group killed, OUT_CUT set, OUT
				  * its first OUT_MAX bytes (0: no limit) */

	/* ---- what happened (set by nb_spawn_start / _wait) ---- */
	pid_t pid;               /* the child (and its process group) */
	char *out;               /* standard output, NUL-terminated ("" when
				  * it went to a file); free with nb_spawn_free */
	size_t out_len;
	char *err;               /* the last of standard error, NUL-terminated */
	size_t err_len;
	int status;              /* exit status, or 128 + the signal */
	int signal;              /* the signal that ended it, 0 when it exited */
	int stopped;             /* *STOP was seen and STOP_SIG sent */
	int timed_out;           /* LIMIT_US passed and the group was killed */
	int out_cut;             /* its output passed OUT_MAX and it was killed */

	/* ---- private ---- */
	int fd_in, fd_out, fd_err, fd_pid;
	size_t in_off, out_cap;
	uint64_t t0, t_term;
	int killed, reaped;
};

/* Run SP to its end: nb_spawn_start(), then nb_spawn_wait().  0 when the
 * program ran, whatever its status; -errno when it could not be started
 * (-ENOENT: no such program), with "cannot run 'PROG': ..." set. */
int nb_spawn_run(struct nb_spawn *sp);

/* Start SP and return at once (several can run side by side; a child
 * whose output is captured needs its nb_spawn_wait() to make progress
 * once a pipe fills).  0 or -errno as nb_spawn_run(). */
int nb_spawn_start(struct nb_spawn *sp);

/* Feed, drain and wait for SP until it ends; its figures are then set.
 * 0, or -errno when waiting failed (the child is killed). */
int nb_spawn_wait(struct nb_spawn *sp);

/* Free the buffers; a child still running is killed (its group, SIGKILL)
 * and reaped. */
void nb_spawn_free(struct nb_spawn *sp);

/* Append TEXT to SP's kept standard error (a note of nasbench's own, such
 * as why it killed the program), keeping its last ERR_KEEP bytes. */
void nb_spawn_note(struct nb_spawn *sp, const char *text);

#endif
