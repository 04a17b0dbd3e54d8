/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * knobs_use.c - every unit test starts with the program's knob rows, as
 * main() does (core/knobs.h, cmd/knobs.c): linked into each test.
 */
#include "../../cmd/cmd.h"
#include "../../core/knobs.h"

__attribute__((constructor)) static void use_knobs(void)
{
	nb_knobs_use(nb_cmd_knobs);
}
