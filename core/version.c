#include "version.h"

#include <lzma.h>
#include <stdio.h>

/* libnfs and libiscsi have no run-time version call: the Makefile passes
 * what pkg-config said when nasbench was built against them. */
#ifndef NB_LIBNFS_VERSION
#define NB_LIBNFS_VERSION "unknown"
#endif
#ifndef NB_LIBISCSI_VERSION
#define NB_LIBISCSI_VERSION "unknown"
#endif
#ifndef NB_LIBURING_VERSION
#define NB_LIBURING_VERSION "unknown"
#endif
#ifndef NB_INIH_VERSION
#define NB_INIH_VERSION "unknown"
#endif

json_t *nb_version_libs(void)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}",
			 "libnfs", NB_LIBNFS_VERSION,
			 "libiscsi", NB_LIBISCSI_VERSION,
			 "liblzma", lzma_version_string(),
			 "jansson", jansson_version_str(),
			 "liburing", NB_LIBURING_VERSION,
			 "inih", NB_INIH_VERSION);
}
