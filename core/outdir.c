/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outdir.c - a directory of nasbench's outputs, marked and swapped in
 *            whole (see outdir.h).
 */
#include "outdir.h"
#include "atomic_file.h"
#include "err.h"
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEAD "nasbench output directory: "

/* DIR without its trailing slashes ("rep/" is "rep"), into BUF. */
static const char *trim(const char *dir, char *buf, size_t len)
{
	size_t l;

	snprintf(buf, len, "%s", dir);
	for (l = strlen(buf); l > 1 && buf[l - 1] == '/'; l--)
		buf[l - 1] = '\0';
	return buf;
}

/* "report" -> "a nasbench report", for the messages. */
static const char *kind_words(const char *kind, char *buf, size_t len)
{
	snprintf(buf, len, "a nasbench %s", kind);
	return buf;
}

/* DIR's marker, NUL-terminated, into *TEXT (free() it); its kind's line
 * checked.  1 when it is a marker of KIND, 0 when there is none or it is
 * not one nasbench wrote (*OTHER: another kind's, its kind into OTHER). */
static int read_marker(const char *dir, const char *kind, char **text,
		       char *other, size_t olen)
{
	char path[4200];
	struct stat st;
	size_t n = strlen(HEAD);

	*text = NULL;
	other[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, NB_OUTDIR_MARKER);
	if (lstat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > 1 << 20 ||
	    nb_read_file(path, text, NULL))
		return 0;
	if (strncmp(*text, HEAD, n)) {
		free(*text);
		*text = NULL;
		return 0;
	}
	snprintf(other, olen, "%.*s", (int)strcspn(*text + n, "\n"), *text + n);
	return !strcmp(other, kind);
}

/* Is NAME one of the files MARKER lists (a line of its own)? */
static int listed(const char *marker, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = strchr(marker, '\n'); l; l = strchr(l, '\n')) {
		l++;
		if (!strncmp(l, name, n) && (l[n] == '\n' || !l[n]))
			return 1;
	}
	return 0;
}

/* The first entry of DIR that is neither the marker nor listed in MARKER
 * (NULL: any entry) into FOREIGN; 0 when none, 1 when one, -errno. */
static int foreign_entry(const char *dir, const char *marker, char *foreign,
			 size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	if (!d)
		return -errno;
	while (!found && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (marker && (!strcmp(de->d_name, NB_OUTDIR_MARKER) ||
			       listed(marker, de->d_name)))
			continue;
		snprintf(foreign, len, "%s", de->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

/* DIR exists and is a directory of something: may it be replaced? */
static int check_contents(const char *dir, const char *kind)
{
	char *marker, other[64], name[256], words[96];
	int rc;

	rc = foreign_entry(dir, NULL, name, sizeof(name));
	if (rc <= 0)
		return rc ? nb_err(rc, "cannot read '%s': %s", dir, strerror(-rc)) : 0;
	if (!read_marker(dir, kind, &marker, other, sizeof(other))) {
		free(marker);
		if (other[0])
			return nb_err(-EEXIST, "'%s' holds a nasbench %s, not %s: "
				      "not replacing it; give a new or empty "
				      "directory", dir, other,
				      kind_words(kind, words, sizeof(words)));
		return nb_err(-EEXIST, "'%s' is not empty and is not %s (it has no "
			      "%s marker): not writing into it; give a new or "
			      "empty directory", dir,
			      kind_words(kind, words, sizeof(words)),
			      NB_OUTDIR_MARKER);
	}
	rc = foreign_entry(dir, marker, name, sizeof(name));
	free(marker);
	if (rc < 0)
		return nb_err(rc, "cannot read '%s': %s", dir, strerror(-rc));
	if (rc)
		return nb_err(-EEXIST, "'%s' holds '%s', which nasbench did not write "
			      "there: not replacing the directory; move it away or "
			      "give another directory", dir, name);
	return 0;
}

int nb_outdir_check(const char *path, const char *kind)
{
	char dir[4096];
	struct stat st;

	trim(path, dir, sizeof(dir));
	if (lstat(dir, &st))
		return errno == ENOENT ? 0 :
		       nb_err(-errno, "cannot use '%s': %s", dir, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return nb_err(-EEXIST, "'%s' is a symbolic link: not writing through "
			      "it; give the directory itself", dir);
	if (!S_ISDIR(st.st_mode))
		return nb_err(-EEXIST, "'%s' exists and is not a directory", dir);
	return check_contents(dir, kind);
}

int nb_outdir_begin(const char *path, char *tmp, size_t len)
{
	mode_t mask = umask(0);
	char dir[4096];

	trim(path, dir, sizeof(dir));
	umask(mask);
	if (snprintf(tmp, len, "%s.tmp.XXXXXX", dir) >= (int)len)
		return nb_err(-ENAMETOOLONG, "cannot create '%s': %s", dir,
			      strerror(ENAMETOOLONG));
	if (!mkdtemp(tmp) || chmod(tmp, 0777 & ~mask)) {
		int e = errno;

		if (tmp[strlen(tmp) - 1] != 'X')
			rmdir(tmp);
		tmp[0] = '\0';
		return nb_err(-e, "cannot create '%s': %s", dir, strerror(e));
	}
	return 0;
}

/* The marker of KIND listing every file in TMP, written into TMP. */
static int mark(const char *tmp, const char *kind)
{
	char *buf = NULL, path[4200];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	DIR *d = opendir(tmp);
	struct dirent *de;
	int rc;

	if (!f || !d) {
		rc = nb_err(-errno, "cannot list '%s': %s", tmp, strerror(errno));
		goto out;
	}
	fprintf(f, HEAD "%s\n", kind);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fprintf(f, "%s\n", de->d_name);
	if (fclose(f)) {
		f = NULL;
		rc = nb_err(-ENOMEM, "out of memory");
		goto out;
	}
	f = NULL;
	snprintf(path, sizeof(path), "%s/%s", tmp, NB_OUTDIR_MARKER);
	rc = nb_atomic_write(path, buf, len, NULL);
out:
	if (f)
		fclose(f);
	if (d)
		closedir(d);
	free(buf);
	return rc;
}

/* OLD (a replaced output directory of KIND): the files its marker lists
 * and the marker removed, then the directory; what remains is said. */
static void remove_old(const char *old, const char *kind)
{
	char *marker, other[64], path[4400];

	if (read_marker(old, kind, &marker, other, sizeof(other))) {
		for (char *l = strchr(marker, '\n'); l && l[1]; l = strchr(l, '\n')) {
			size_t n = strcspn(++l, "\n");

			/* a name of this directory only, never a way out */
			if (!n || memchr(l, '/', n) || !strncmp(l, "..", n) ||
			    !strncmp(l, ".", n))
				continue;
			snprintf(path, sizeof(path), "%s/%.*s", old, (int)n, l);
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/%s", old, NB_OUTDIR_MARKER);
		unlink(path);
	}
	free(marker);
	if (rmdir(old) && errno != ENOENT)
		nb_warn("the old '%s' was kept as '%s': %s", kind, old,
			strerror(errno));
}

/* DIR moved aside to a new name beside it (OLD); 0 or -errno. */
static int move_aside(const char *dir, char *old, size_t len)
{
	if (snprintf(old, len, "%s.old.XXXXXX", dir) >= (int)len || !mkdtemp(old))
		return nb_err(-errno, "cannot replace '%s': %s", dir, strerror(errno));
	/* onto the empty directory just made: rename(2) replaces it */
	if (rename(dir, old)) {
		int e = errno;

		rmdir(old);
		return nb_err(-e, "cannot replace '%s': %s", dir, strerror(e));
	}
	return 0;
}

int nb_outdir_commit(const char *tmp, const char *path, const char *kind)
{
	char old[4200], dir[4096];
	struct stat st;
	int had, rc;

	trim(path, dir, sizeof(dir));
	rc = mark(tmp, kind);
	if (rc)
		return rc;
	/* DIR again, as late as can be: it may have changed since the check */
	rc = nb_outdir_check(dir, kind);
	if (rc)
		return rc;
	had = !lstat(dir, &st);
	if (had && (rc = move_aside(dir, old, sizeof(old))))
		return rc;
	if (rename(tmp, dir)) {
		int e = errno;

		if (had)
			rename(old, dir);
		return nb_err(-e, "cannot create '%s': %s", dir, strerror(e));
	}
	if (had)
		remove_old(old, kind);
	return 0;
}

void nb_outdir_abort(const char *tmp, const char *path)
{
	char dir[4096], last[4400];
	const char *at;

	if (!tmp || !tmp[0])
		return;
	/* the error names DIR's files, not the directory that is gone */
	snprintf(last, sizeof(last), "%s", nb_err_last());
	at = strstr(last, tmp);
	if (at)
		nb_err_set("%.*s%s%s", (int)(at - last), last,
			   trim(path, dir, sizeof(dir)), at + strlen(tmp));
	nb_rmtree(tmp);
}
