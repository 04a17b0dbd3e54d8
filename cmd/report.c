/*
 * report.c - 'nasbench report RESULT... -o DIR': report.html, report.md
 * and the charts with their gnuplot scripts.
 *
 * Everything is written into DIR.tmp.<pid> first and renamed to DIR at the
 * end, so a failed report leaves no directory that looks complete.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../reports/chart.h"
#include "../reports/report.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char cmd_report_usage[] =
	"usage: nasbench report RESULT.json... -o DIR\n"
	"\n"
	"Write DIR/report.html (self-contained: charts inline as SVG),\n"
	"DIR/report.md, and each chart as PNG and SVG with the gnuplot script\n"
	"that drew it (NAME.gp; re-run with 'gnuplot NAME.gp').  Results whose\n"
	"labels are equal are one configuration (their iterations pooled);\n"
	"the labels that differ (layout / slog / sync / platform ...) name the\n"
	"configurations.  An existing DIR is replaced only if it holds a\n"
	"previous report.\n"
	"\n"
	"  -o, --output DIR       the report directory (required)\n"
	"      --gnuplot PROG     the gnuplot program (default $NB_GNUPLOT or\n"
	"                         gnuplot)\n"
	"\n"
	"Exit status: 0 ok, 2 usage error, unreadable result or no gnuplot,\n"
	"3 gnuplot failed or the report could not be written.\n";

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "gnuplot", required_argument, NULL, 'G' },
	{ NULL, 0, NULL, 0 },
};

/* Remove DIR and the plain files in it (a report directory has no more). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4400];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* DIR may be replaced: absent, empty, or a previous report. */
static int check_out(const char *dir)
{
	struct stat st;
	char path[4400];
	DIR *d;
	struct dirent *de;
	int empty = 1;

	if (stat(dir, &st))
		return errno == ENOENT ? 0 :
		       nb_err(-errno, "cannot use '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return nb_err(-ENOTDIR, "'%s' exists and is not a directory", dir);
	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (!access(path, F_OK))
		return 0;
	d = opendir(dir);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	return empty ? 0 : nb_err(-EEXIST, "'%s' exists and is not a nasbench "
				  "report; not overwriting it", dir);
}

static int write_doc(const char *dir, const char *name,
		     int (*fn)(const struct nb_report *, const char *, FILE *),
		     const struct nb_report *r)
{
	char path[4400], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return nb_err(-ENOMEM, "out of memory");
	rc = fn(r, dir, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!rc)
		rc = nb_atomic_write(path, buf, len);
	free(buf);
	return rc;
}

static int md(const struct nb_report *r, const char *dir, FILE *f)
{
	(void)dir;
	return nb_report_markdown(r, f);
}

static int html(const struct nb_report *r, const char *dir, FILE *f)
{
	return nb_report_html(r, dir, f);
}

/* Build the report in TMP.  0, or -ENOENT (no gnuplot) / -errno. */
static int build(const char *tmp, json_t **docs, const char **paths, size_t n,
		 const char *gnuplot, size_t *ncharts)
{
	struct nb_report *r = nb_report_new(docs, paths, n);
	char **names = NULL;
	int rc;

	rc = nb_report_charts(r, tmp, &names, ncharts);
	if (!rc)
		rc = nb_chart_render(tmp, (const char *const *)names, *ncharts,
				     gnuplot);
	if (!rc)
		rc = write_doc(tmp, "report.md", md, r);
	if (!rc)                 /* last: its presence means complete */
		rc = write_doc(tmp, "report.html", html, r);
	for (size_t i = 0; names && i < *ncharts; i++)
		free(names[i]);
	free(names);
	nb_report_free(r);
	return rc;
}

/* Put TMP in DIR's place (an old report goes away). */
static int swap_in(const char *tmp, const char *dir)
{
	char old[4400];
	int had = !access(dir, F_OK);

	snprintf(old, sizeof(old), "%s.old.%ld", dir, (long)getpid());
	if (had && rename(dir, old))
		return nb_err(-errno, "cannot replace '%s': %s", dir, strerror(errno));
	if (rename(tmp, dir)) {
		int e = errno;

		if (had)
			rename(old, dir);
		return nb_err(-e, "cannot create '%s': %s", dir, strerror(e));
	}
	if (had)
		remove_dir(old);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	const char *out = NULL, *gnuplot = NULL;
	char dir[4096], tmp[4200];
	json_t **docs;
	size_t n, ncharts = 0;
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'G')
			gnuplot = optarg;
		else if (c == ':')
			return nb_cmd_usage("option '%s' needs a value", argv[optind - 1]);
		else
			return nb_opts_unknown("report", argv[optind - 1], longopts),
			       nb_cmd_usage("%s", nb_err_last());
	}
	if (!out)
		return nb_cmd_usage("%s", "-o DIR is required; see 'nasbench help report'");
	if (optind >= argc)
		return nb_cmd_usage("%s", "no result files; see 'nasbench help report'");
	snprintf(dir, sizeof(dir), "%s", out);
	for (size_t l = strlen(dir); l > 1 && dir[l - 1] == '/'; l--)
		dir[l - 1] = '\0';
	rc = check_out(dir);
	if (rc)   /* a directory that is not a report: refused, as usage */
		return rc == -EEXIST ? nb_cmd_usage("%s", nb_err_last()) :
		       nb_cmd_write_error();
	n = (size_t)(argc - optind);
	docs = calloc(n, sizeof(*docs));
	for (size_t i = 0; i < n && !rc; i++)
		rc = nb_result_load(argv[optind + (int)i], &docs[i]);
	if (rc) {
		rc = nb_cmd_usage("%s", nb_err_last());
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", dir, (long)getpid());
	if (mkdir(tmp, 0755)) {
		nb_die_msg("cannot create '%s': %s", dir, strerror(errno));
		rc = NB_EXIT_TARGET;
		goto out;
	}
	rc = build(tmp, docs, (const char **)argv + optind, n, gnuplot, &ncharts);
	if (!rc)
		rc = swap_in(tmp, dir);
	if (rc) {
		remove_dir(tmp);
		nb_die_msg("%s", nb_err_last());
		rc = rc == -ENOENT ? NB_EXIT_USAGE : NB_EXIT_TARGET;
		goto out;
	}
	printf("report: %s/report.html (%zu charts, %s/report.md)\n", dir, ncharts,
	       dir);
out:
	for (size_t i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	return rc;
}
