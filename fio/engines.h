/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engines.h - which of fio's I/O engines reach a target that is not a
 *             local path, and whether the fio found has them.
 *
 * fio reaches an NFS export through its nfs engine (libnfs: ioengine=nfs,
 * nfs_url=nfs://host/export, filename= relative to the export) and a LUN
 * through its libiscsi engine (filename=iscsi\://host\:port/iqn/LUN, the
 * colons escaped).  Debian's fio is built without both; ci/fio-engines
 * builds one that has them.  The fio used is $NASBENCH_FIO or "fio".
 */
#ifndef NB_FIO_ENGINES_H
#define NB_FIO_ENGINES_H

/* The fio engine that reaches targets of URL scheme SCHEME ("nfs",
 * "libiscsi"), or NULL when fio reaches such targets as a local path
 * ("file") or not at all. */
const char *nb_fio_remote_engine(const char *scheme);

/* Whether the fio found lists ENGINE in 'fio --enghelp': 1 yes, 0 no,
 * -errno when fio cannot be run (the detail set).  Asked once per
 * program and engine. */
int nb_fio_has_engine(const char *engine);

/* For target TARGET (URL scheme SCHEME; WHY says what wants fio, e.g.
 * "engine = fio"): 0 when the fio found can reach it, else -EINVAL with
 * "target 'TARGET': WHY on 'nfs://' needs fio's nfs engine, ..." set. */
int nb_fio_check_engine(const char *target, const char *scheme,
			const char *why);

/* Whether fio may be given target TARGET's URL U: -EINVAL when it holds
 * CHAP credentials (they would be written into the job file, which the
 * result keeps), else 0. */
struct nb_url;
int nb_fio_check_credentials(const char *target, const struct nb_url *u);

#endif
