/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.h - the monotonic clock every timing in nasbench reads. */
#ifndef NB_CLOCK_H
#define NB_CLOCK_H

#include <stdint.h>

/* Monotonic clock in nanoseconds. */
uint64_t nb_now_ns(void);

/* The same in microseconds. */
static inline uint64_t nb_now_us(void)
{
	return nb_now_ns() / 1000;
}

/* And in milliseconds. */
static inline uint64_t nb_now_ms(void)
{
	return nb_now_ns() / 1000000;
}

#endif
