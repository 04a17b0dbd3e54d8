/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outdir.h - a directory of nasbench's outputs ('report -o DIR', 'history
 *            trend -o DIR'), made whole beside its place and swapped in.
 *
 * Such a directory is recognised by its marker, DIR/.nasbench, a file
 * nasbench writes last: its first line names the kind ("nasbench output
 * directory: report"), the lines after it every file nasbench put there.
 * Not by a file name: a directory of someone else's that happens to hold
 * a report.html is not a report.  An existing DIR is replaced only when it
 * is empty or a marked directory of the same kind holding nothing its
 * marker does not list; and then only the files the marker lists are
 * removed (docs/security.md, "Nothing lost, nothing clobbered").
 */
#ifndef NB_OUTDIR_H
#define NB_OUTDIR_H

#include <stddef.h>

#define NB_OUTDIR_MARKER ".nasbench"

/* May DIR take an output directory of KIND ("report")?  0 when it is
 * absent, empty, or KIND's; -EEXIST with the refusal set ("'DIR' is not
 * empty and is not a nasbench report ..."); -errno when it cannot be
 * read. */
int nb_outdir_check(const char *dir, const char *kind);

/* A new empty directory beside DIR (DIR.tmp.XXXXXX, made exclusively,
 * mode 0777 less the umask) into TMP.  0 or -errno with the detail set. */
int nb_outdir_begin(const char *dir, char *tmp, size_t len);

/* TMP marked as KIND's (every file in it listed) and put in DIR's place;
 * an old DIR, checked again, goes: the files its marker lists, then the
 * directory.  0, or -errno with the detail set (TMP is left for
 * nb_outdir_abort()). */
int nb_outdir_commit(const char *tmp, const char *dir, const char *kind);

/* TMP, which nb_outdir_begin() made for DIR, and what was put in it,
 * removed; the error detail names DIR where it named TMP ("unable to
 * write 'DIR/chart.gp': No space left on device"). */
void nb_outdir_abort(const char *tmp, const char *dir);

#endif
