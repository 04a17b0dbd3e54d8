/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "lines.h"
#include "err.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s, unsigned flags)
{
	size_t len;

	while (isspace((unsigned char)*s))
		s++;
	if (flags & NB_LINES_TRAILING_COMMENTS)
		s[strcspn(s, "#;")] = '\0';
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

int nb_lines_read(const char *path, const char *what, unsigned flags,
		  nb_line_fn cb, void *payload)
{
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	char *line = NULL, where[4200];
	size_t cap = 0;
	int lineno = 0, rc = 0;

	if (!f)
		return nb_err(-errno, "cannot open %s '%s': %s", what, path,
			      strerror(errno));
	while (!rc && getline(&line, &cap, f) >= 0) {
		char *s = trim(line, flags);

		lineno++;
		if (!*s || *s == '#' || *s == ';')
			continue;
		snprintf(where, sizeof(where), "%s:%d",
			 is_stdin ? "<stdin>" : path, lineno);
		rc = cb(s, where, payload);
	}
	if (!rc && ferror(f))
		rc = nb_err(-EIO, "cannot read %s '%s': %s", what, path,
			    strerror(errno));
	free(line);
	if (!is_stdin)
		fclose(f);
	return rc;
}
