/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iscsi.h - what the iSCSI runner exposes besides its ops table (for tests).
 */
#ifndef NB_RUNNER_ISCSI_H
#define NB_RUNNER_ISCSI_H

#include <stdint.h>

/*
 * What a read or write (OP, enum nb_op) of LEN bytes that ended with SCSI
 * status GOOD did, from the task's RESIDUAL_STATUS (libiscsi's enum
 * scsi_residual) and RESIDUAL: the bytes done, as the I/O's result.  A
 * transfer the target ended short (underflow) did LEN - RESIDUAL bytes,
 * which every caller reports as a short read or write, an error; a write
 * of which the target wanted more than the command carried (overflow) is
 * -EIO.  A read's overflow (the target had more) still filled LEN bytes.
 */
int64_t nb_iscsi_io_bytes(int op, uint32_t len, int residual_status,
			  uint32_t residual);

#endif
