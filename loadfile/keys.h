/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * keys.h - the keys of each section of a load file, for the reader
 * (loadfile.c): a key's name, its type and where it goes in the
 * section's struct.  Private to loadfile/.
 */
#ifndef NB_LOADFILE_KEYS_H
#define NB_LOADFILE_KEYS_H

#include <stddef.h>

enum kt { KT_NUM, KT_PCT, KT_BYTES, KT_SIZE, KT_COUNT, KT_INT, KT_STR,
	  KT_DURATION, KT_BUSY, KT_BOOL, KT_SEQFROM, KT_GROWTH, KT_RATIO };

struct key {
	const char *name;
	int type;
	size_t off;              /* in the section's struct */
	size_t len;              /* KT_STR: the buffer's size */
};

/* Each table ends with a key of NULL name. */
extern const struct key nb_load_fig_keys[], nb_load_capture_keys[],
	nb_load_population_keys[], nb_load_vm_keys[], nb_load_nfs_keys[],
	nb_load_pool_keys[], nb_load_data_keys[];

#endif
