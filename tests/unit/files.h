/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * files.h - the files a unit test writes and reads back, and golden files.
 * Each asserts (cmocka) where a file cannot be written or read.
 */
#ifndef NB_TEST_FILES_H
#define NB_TEST_FILES_H

/* Write TEXT to PATH (created or truncated). */
void test_write_file(const char *path, const char *text);

/* The whole of PATH as a string (malloc'd; the caller frees it); an empty
 * file fails the test. */
char *test_slurp(const char *path);

/* GOT must be the text of the golden file PATH; with NASBENCH_UPDATE_GOLDEN
 * set in the environment, GOT is written there first. */
void test_golden(const char *got, const char *path);

#endif
