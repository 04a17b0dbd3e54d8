/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suggest.c - the nearest known name to a mistyped one. */
#include "suggest.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

size_t nb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row, prev, d;

	row = malloc((lb + 1) * sizeof(*row));
	if (!row)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev + (a[i - 1] != b[j - 1]);
			size_t del = row[j] + 1, ins = row[j - 1] + 1;

			prev = row[j];
			d = sub < del ? sub : del;
			row[j] = d < ins ? d : ins;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

const char *nb_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, limit = strlen(word) / 3 + 1;

	if (limit > 3)
		limit = 3;
	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!cands[i])
			continue;
		d = nb_edit_distance(word, cands[i]);
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= limit ? best : NULL;
}

const char *nb_suggest_choice(const char *word, const char *choices, char *buf,
			      size_t len)
{
	char copy[1024], *save = NULL;
	const char *cands[64], *near;
	size_t n = 0;

	if (!choices)
		return NULL;
	snprintf(copy, sizeof(copy), "%s", choices);
	for (char *c = strtok_r(copy, "|", &save); c && n < 64;
	     c = strtok_r(NULL, "|", &save))
		cands[n++] = c;
	near = nb_suggest(word, cands, n);
	if (!near)
		return NULL;
	snprintf(buf, len, "%s", near);
	return buf;
}
