/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_help.c - the help texts say what the commands do now: a command
 * whose one-line summary names the formats it writes names every format
 * its options offer (an option named after one, or a --format choice), so
 * 'nasbench help' cannot say "results as CSV" of a command that writes
 * OpenMetrics too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

#include "../../cmd/cmd.h"
#include "../../cmd/opts.h"

/* The formats a user names, as a summary spells them. */
static const char *const formats[] = { "CSV", "OpenMetrics", "JSON", "JUnit",
				       "Markdown", "HTML" };
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* Does TEXT name format F as a word (any case)? */
static int names(const char *text, const char *f)
{
	size_t n = strlen(f);

	for (const char *p = text; (p = strcasestr(p, f)); p += n)
		if ((p == text || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return 1;
	return 0;
}

/* The formats command C's options offer, as bits of formats[]. */
static unsigned offered(const struct nb_command *c)
{
	unsigned bits = 0;

	for (size_t i = 0; c->usage->opts && i < c->usage->n; i++) {
		const struct nb_opt *o = &c->usage->opts[i];

		for (size_t f = 0; o->name && f < NFORMATS; f++)
			if (!strcasecmp(o->name, formats[f]) ||
			    (!strcmp(o->name, "format") && o->help &&
			     names(o->help, formats[f])))
				bits |= 1u << f;
	}
	return bits;
}

static void summaries_name_every_format(void **state)
{
	int checked = 0;

	(void)state;
	for (int i = 0; nb_commands[i].name; i++) {
		const struct nb_command *c = &nb_commands[i];
		unsigned said = 0, offers = offered(c);

		for (size_t f = 0; f < NFORMATS; f++)
			if (names(c->summary, formats[f]))
				said |= 1u << f;
		if (!said)
			continue;            /* the summary lists no format */
		checked++;
		for (size_t f = 0; f < NFORMATS; f++)
			if ((offers & ~said) & (1u << f))
				fail_msg("'%s': its summary \"%s\" does not name %s, "
					 "which its options write", c->name,
					 c->summary, formats[f]);
	}
	/* export, compare, report and import list theirs */
	assert_true(checked >= 4);
}

static void export_says_openmetrics(void **state)
{
	(void)state;
	assert_true(names(nb_command_find("export")->summary, "OpenMetrics"));
	assert_true(names(nb_command_find("export")->summary, "CSV"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(summaries_name_every_format),
		cmocka_unit_test(export_says_openmetrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
