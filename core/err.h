/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * err.h - one error-detail channel and the exit statuses of nasbench.
 *
 * Functions return 0 on success or a negative errno; the human detail of
 * the last failure is set with nb_err_set() and read once, at the top,
 * with nb_err_last().  Messages follow git's style: lowercase, no full
 * stop, objects in quotes ("unable to open 'x.json': No such file").
 */
#ifndef NB_ERR_H
#define NB_ERR_H

#include <stdarg.h>

enum nb_exit {
	NB_EXIT_OK = 0,       /* success */
	NB_EXIT_FAIL = 1,     /* compare found a regression / a criterion failed */
	NB_EXIT_USAGE = 2,    /* usage or configuration error */
	NB_EXIT_TARGET = 3,   /* target or I/O error */
	NB_EXIT_DECIDE = 4,   /* compare --bands: between viable and not viable */
	NB_EXIT_INCONCLUSIVE = 5, /* compare: no regression seen, but the
			       * between-run noise was not measured (or too
			       * few iterations): the gate cannot say */
	NB_EXIT_INTR = 130,   /* interrupted; partial results were written */
};

/* Set the detail and return CODE (a negative errno):
 *     return nb_err(-EINVAL, "unknown suite '%s'", name);
 * Prefer it to "return nb_err_set(...), -EINVAL;": with an assignment
 * ("rc = nb_err_set(...), -E;") the comma form silently keeps -1. */
int nb_err(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Set the detail of the current error (thread-local).  Returns -1. */
int nb_err_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int nb_err_setv(const char *fmt, va_list ap);

/* Prefix the current detail: "ctx: <old detail>".  Returns -1. */
int nb_err_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last detail set on this thread ("" when none). */
const char *nb_err_last(void);
void nb_err_clear(void);

/* Print "nasbench: <msg>\n" to stderr. */
void nb_die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void nb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Quiet mode for warnings (set by --quiet). */
extern int nb_quiet;

#endif
