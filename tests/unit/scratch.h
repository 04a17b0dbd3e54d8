/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch.h - a scratch directory for the tests of one unit test file:
 * test_scratch is made by test_scratch_setup() and removed with all it
 * holds by test_scratch_teardown() (cmocka group fixtures:
 * cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown)).
 */
#ifndef NB_TEST_SCRATCH_H
#define NB_TEST_SCRATCH_H

extern char test_scratch[64];

int test_scratch_setup(void **state);
int test_scratch_teardown(void **state);

#endif
