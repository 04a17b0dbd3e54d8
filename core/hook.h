/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hook.h - points in a run where a test build lets a test act.
 *
 * A fault test must strike at a known moment ("pass 1 of integrity has
 * been flushed", "bigfile is written, not yet read back"), never after a
 * guessed sleep.  The workloads call nb_hook() at such points.  In the
 * shipped binary it returns at once (core/hook.c): no test hook, no
 * environment variable of the tests, is in it.  The test build
 * (build/nasbench-test: tests/support/hook.c linked ahead of the library)
 * pauses there, or runs a command, as the test's environment says.
 */
#ifndef NB_HOOK_H
#define NB_HOOK_H

#include <signal.h>

/* At POINT (a name such as "pass-1" or "before-verify"), with DETAIL
 * ("key=value" lines a test may read; may be NULL).  Returns 0 to go on,
 * -EINTR when *STOP became set while waiting, or -errno (detail set). */
int nb_hook(const char *point, const char *detail, volatile sig_atomic_t *stop);

#endif
