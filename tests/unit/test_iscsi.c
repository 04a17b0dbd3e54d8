/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The iSCSI runner's pure logic: what a finished task's residual makes of
 * the I/O's result (a write the target took short is a short write, which
 * every caller reports as an error; before, it counted as a full one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "../../core/target.h"
#include "../../runners/iscsi.h"

static void residuals(void **state)
{
	(void)state;
	/* no residual: all of it */
	assert_int_equal(nb_iscsi_io_bytes(NB_OP_WRITE, 8192,
					   SCSI_RESIDUAL_NO_RESIDUAL, 0), 8192);
	assert_int_equal(nb_iscsi_io_bytes(NB_OP_READ, 8192,
					   SCSI_RESIDUAL_NO_RESIDUAL, 0), 8192);
	/* the target took 512 bytes fewer than were sent: a short write */
	assert_int_equal(nb_iscsi_io_bytes(NB_OP_WRITE, 8192,
					   SCSI_RESIDUAL_UNDERFLOW, 512), 7680);
	assert_int_equal(nb_iscsi_io_bytes(NB_OP_WRITE, 8192,
					   SCSI_RESIDUAL_UNDERFLOW, 8192), 0);
	/* ... and a short read, as before */
	assert_int_equal(nb_iscsi_io_bytes(NB_OP_READ, 8192,
					   SCSI_RESIDUAL_UNDERFLOW, 4096), 4096);
	/* the target wanted more than the write carried: an error */
	assert_int_equal(nb_iscsi_io_bytes(NB_OP_WRITE, 8192,
					   SCSI_RESIDUAL_OVERFLOW, 512), -EIO);
	/* a read's overflow still filled the buffer */
	assert_int_equal(nb_iscsi_io_bytes(NB_OP_READ, 8192,
					   SCSI_RESIDUAL_OVERFLOW, 512), 8192);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(residuals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
