/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_url - target URLs as a user types them (file, nfs with query
 * arguments, iscsi with CHAP user%password): the parser, the redaction
 * (a password must never come out) and the URL handed to libnfs.
 */
#include "fuzz.h"

#include "../../core/url.h"
#include "../../runners/nfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_url u;
	char red[2048], out[2048];
	char *s = fuzz_str(data, size);

	nb_url_redact(s, red, sizeof(red));
	if (nb_url_parse(s, &u) != 0)
		return 0;
	/* a parsed password is replaced, wherever the URL is shown */
	if (u.password[0] && !strstr(red, "***"))
		abort();
	nb_url_arg(&u, "version");
	if (!strcmp(u.scheme, "nfs"))
		nb_nfs_libnfs_url("fuzz", &u, NULL, out, sizeof(out));
	return 0;
}
