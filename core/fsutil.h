/*
 * fsutil.h - small file-system helpers.
 */
#ifndef NB_FSUTIL_H
#define NB_FSUTIL_H

/* Remove PATH and everything below it (symbolic links are removed, never
 * followed).  A PATH that does not exist is nothing to do: 0.  Otherwise
 * 0, or the -errno of the first failure; it sets no error detail (it runs
 * in clean-up paths, where the detail of an earlier error must survive). */
int nb_rmtree(const char *path);

#endif
