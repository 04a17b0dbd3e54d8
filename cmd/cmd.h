/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.h - the commands of nasbench; each lives in cmd/<name>.c with its own
 * usage text and returns an exit status (core/err.h's enum nb_exit).
 */
#ifndef NB_CMD_H
#define NB_CMD_H

#include <signal.h>
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

struct nb_opt;
struct nb_knob;

/* Every module's knob rows, in the order help shows them (cmd/knobs.c):
 * main() hands them to nb_knobs_use() (core/knobs.h). */
extern const struct nb_knob *const nb_cmd_knobs[];

/* A command's help text: HEAD, the option lines of OPTS (N rows of
 * cmd/opts.h; none when NULL), then TAIL (may be NULL). */
struct nb_usage {
	const char *head;
	const struct nb_opt *opts;
	size_t n;
	const char *tail;
};

struct nb_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct nb_usage *usage;
};

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_hw(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_init(int argc, char **argv);

extern const struct nb_usage cmd_run_usage, cmd_list_usage, cmd_version_usage;
extern const struct nb_usage cmd_compare_usage, cmd_report_usage, cmd_import_usage;
extern const struct nb_usage cmd_hw_usage, cmd_help_usage, cmd_history_usage;
extern const struct nb_usage cmd_export_usage;
extern const struct nb_usage cmd_capture_usage, cmd_init_usage;

/* Set by the first SIGINT or SIGTERM once nb_cmd_catch_signals() ran
 * ("stopping after the current I/O"); a second one exits 130 at once. */
extern volatile sig_atomic_t nb_cmd_stop;
void nb_cmd_catch_signals(void);

/* Print "nasbench: <message>" and return NB_EXIT_USAGE (exit 2). */
int nb_cmd_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print the last error as "nasbench: ..." and return NB_EXIT_TARGET (3):
 * the one status of "the output cannot be written", whether found before
 * anything ran (nb_atomic_check) or while writing; NB_EXIT_USAGE (2) when
 * RC is -EEXIST: the output's place holds a file nasbench may not replace
 * (core/atomic_file.h). */
int nb_cmd_write_error(int rc);

/* Figures that could not go where they were asked (the error of that
 * set): DATA (LEN bytes, WHAT: "result", "load file") saved elsewhere
 * (core/atomic_file.h's nb_atomic_rescue: NAME-XXXXXX.SUFFIX in $TMPDIR,
 * /tmp or the current directory) and said on standard error: "unable to
 * write 'X': No space left on device; the result is saved in 'Y'
 * instead".  When nothing takes it, DATA follows that message on standard
 * error, so that it is in the log at least.  WHERE: the file that holds
 * DATA now ("": none).  0 when saved, -EIO when not. */
int nb_cmd_rescue(const char *what, const char *name, const char *suffix,
		  const void *data, size_t len, char *where, size_t wlen);

/* A run's result on its way out: DOC into PATH (NULL: no file) and, with
 * JSON, on standard output. */
struct nb_cmd_put {
	const json_t *doc;
	const char *path;
	int json;
	char *text;              /* the JSON, with its final newline */
	int failed;              /* not where it was asked */
	char why[4400];          /* why not */
	char where[4200];        /* the file that holds it ("": none yet) */
};

/* PUT's result to its file and standard output; nothing said yet (the
 * caller prints its table first).  0, or -EIO when it is not where it was
 * asked (PUT->why). */
int nb_cmd_put_result(struct nb_cmd_put *put);

/* Then: what nb_cmd_put_result() could not put where it was asked given
 * to nb_cmd_rescue(); PUT->where set; PUT's text freed.  0, or -EIO when
 * the result is not where it was asked. */
int nb_cmd_put_finish(struct nb_cmd_put *put);

/* The results PATHS (N) loaded, in an array to give to
 * nb_cmd_free_results(); NULL with the error printed (exit NB_EXIT_USAGE:
 * an unreadable result is the user's to fix). */
json_t **nb_cmd_load_results(char *const *paths, size_t n);
void nb_cmd_free_results(json_t **docs, size_t n);

/* Print DOC (taken) on stdout as indented JSON: NB_EXIT_OK, or
 * NB_EXIT_TARGET when it cannot be written. */
int nb_cmd_print_json(json_t *doc);

/* The table (cmd/commands.c). */
extern const struct nb_command nb_commands[];
const struct nb_command *nb_command_find(const char *name);

/* The command list, and "'X' is not a nasbench command; did you mean ..."
 * (returns NB_EXIT_USAGE). */
void nb_cmd_overview(FILE *out);
int nb_cmd_unknown(const char *name);
/* The same for NAME among CANDS (N) of a command's own commands: "'plna'
 * is not WHAT; did you mean 'plan'?", else "...; see 'nasbench help
 * HELP'".  Returns NB_EXIT_USAGE. */
int nb_cmd_unknown_in(const char *what, const char *help, const char *name,
		      const char *const *cands, size_t n);
/* Print C's full help text to OUT. */
void nb_cmd_print_usage(const struct nb_command *c, FILE *out);

#endif
