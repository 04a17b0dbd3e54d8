/* version.h - nasbench's version and the versions of what it links. */
#ifndef NB_VERSION_H
#define NB_VERSION_H

#include <jansson.h>

#ifndef NB_VERSION
#define NB_VERSION "unknown"
#endif

/* { "libnfs": "4.0.0", "libiscsi": "1.19.0", "liblzma": "5.4.1", ... } */
json_t *nb_version_libs(void);

#endif
