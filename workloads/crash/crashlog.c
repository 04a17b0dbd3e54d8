/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crashlog.c - append-only, fsync'ed, self-checking lines (crashlog.h). */
#include "crashlog.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what, const char *path, int e)
{
	return nb_err(-e, "cannot %s the journal '%s': %s", what, path, strerror(e));
}

/* The directory of PATH, fsynced: a new file's name is durable too. */
static void sync_dir(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
			 (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int nb_journal_create(struct nb_journal *j, const char *path, const char *first)
{
	int rc;

	snprintf(j->path, sizeof(j->path), "%s", path);
	j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	if (j->fd < 0)
		return fail("create", path, errno);
	rc = nb_journal_append(j, first);
	if (rc) {
		nb_journal_close(j);
		unlink(path);
		return rc;
	}
	sync_dir(path);
	return 0;
}

int nb_journal_open(struct nb_journal *j, const char *path)
{
	snprintf(j->path, sizeof(j->path), "%s", path);
	j->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	return j->fd < 0 ? fail("open", path, errno) : 0;
}

/* TEXT as a journal line into LINE (NB_JOURNAL_LINE_MAX): its length, or
 * -EINVAL with the detail set. */
static int format_line(const struct nb_journal *j, const char *text, char *line)
{
	size_t len = strlen(text);

	if (len + 20 > NB_JOURNAL_LINE_MAX || memchr(text, '\n', len))
		return nb_err(-EINVAL, "journal '%s': a record of %zu bytes or with "
			      "a newline", j->path, len);
	return snprintf(line, NB_JOURNAL_LINE_MAX, "%s #%016" PRIx64 "\n", text,
			nb_fnv1a(text, len, 0));
}

static int write_all(struct nb_journal *j, const char *buf, size_t n)
{
	for (size_t off = 0; off < n;) {
		ssize_t w = write(j->fd, buf + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return fail("write", j->path, errno);
		off += (size_t)w;
	}
	return fdatasync(j->fd) ? fail("sync", j->path, errno) : 0;
}

int nb_journal_append(struct nb_journal *j, const char *text)
{
	char line[NB_JOURNAL_LINE_MAX];
	int n = format_line(j, text, line);

	return n < 0 ? n : write_all(j, line, (size_t)n);
}

int nb_journal_append_n(struct nb_journal *j, char *const *texts, size_t n)
{
	char *buf = malloc(n * NB_JOURNAL_LINE_MAX + 1);
	size_t len = 0;
	int rc = 0;

	if (!buf)
		return nb_err(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		int k = format_line(j, texts[i], buf + len);

		if (k < 0)
			rc = k;
		else
			len += (size_t)k;
	}
	if (!rc && len)
		rc = write_all(j, buf, len);
	free(buf);
	return rc;
}

void nb_journal_close(struct nb_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
}

/* LINE (NUL-terminated, without its newline) checks out: its text is cut
 * off at the " #" before the sum. */
static int sound(char *line)
{
	char *hash = strrchr(line, '#');
	uint64_t want;
	char *end;

	if (!hash || hash == line || hash[-1] != ' ' || strlen(hash + 1) != 16)
		return 0;
	want = strtoull(hash + 1, &end, 16);
	if (*end)
		return 0;
	hash[-1] = '\0';
	return nb_fnv1a(line, strlen(line), 0) == want;
}

int nb_journal_read(const char *path,
		    int (*cb)(const char *text, int line, void *payload),
		    void *payload, int *torn)
{
	char *buf, *p, *nl;
	size_t len;
	int rc = 0, n = 0;

	if (torn)
		*torn = 0;
	rc = nb_read_file(path, &buf, &len);
	if (rc)
		return fail("read", path, -rc);
	for (p = buf; !rc && p < buf + len; p = nl + 1) {
		int ok, last;

		nl = memchr(p, '\n', (size_t)(buf + len - p));
		n++;
		if (!nl) {
			/* the last line, cut off: a crash while appending */
			if (torn)
				*torn = 1;
			break;
		}
		*nl = '\0';
		last = nl + 1 >= buf + len;
		ok = sound(p);
		if (!ok && last) {
			/* written in full but not its contents: a torn tail */
			if (torn)
				*torn = 1;
			break;
		}
		if (!ok)
			rc = nb_err(-EINVAL, "%s:%d: the record does not check out "
				    "(a damaged journal, or not a journal)", path, n);
		else
			rc = cb(p, n, payload);
	}
	free(buf);
	return rc;
}
