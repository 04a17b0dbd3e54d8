/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * knobs.h - the keys of the box file and the options of 'nasbench run':
 *           the mechanism of their rows.
 *
 * One row per knob (fio's struct fio_option is the model): its section and
 * name, its type and range, where its value lives, its default, its help,
 * and the option of 'nasbench run' that sets it.  As fio's engines bring
 * their own options, each module brings its rows: a table of its own
 * (the box file's own keys are core/config_keys.c's, the telemetry's are
 * in telemetry/, a workload's beside it), and one registry above them all
 * (cmd/knobs.c) lists the tables in the order help shows them and hands
 * them to nb_knobs_use() when the program starts.  This file knows the
 * mechanism only: the rows drive the INI parsing (core/config.c), run's
 * long options and their usage text, 'nasbench help config', the man
 * page and completion, and the merge of a suite's defaults under the
 * user's knobs.  Adding a knob is adding a row to its module's table (and,
 * for a workload knob, its field in struct nb_params).  Rows name their
 * fields (designated initialisers); a default that nasbench applies is the
 * row's .def, said nowhere else: the help texts append it, the code reads
 * it (nb_knob_default()).
 *
 * A row of type NB_KT_SECTION declares a section of the box file ([box],
 * [target NAME], [capacity], and the sections kept as lines for their
 * module: [accept], [clients]); the sections are shown in the order of
 * these rows, each section's keys in the order of the tables.
 */
#ifndef NB_KNOBS_H
#define NB_KNOBS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "params.h"

enum nb_knob_type {
	NB_KT_LABEL,      /* only a label of the result */
	NB_KT_STR,        /* a string field (choices optional) */
	NB_KT_SIZE,       /* uint64_t bytes */
	NB_KT_SIZE32,     /* uint32_t bytes */
	NB_KT_DURATION,   /* uint64_t microseconds */
	NB_KT_UINT,       /* uint64_t, or int when the field is an int */
	NB_KT_UINT32,     /* uint32_t */
	NB_KT_BOOL,       /* int 0/1 */
	NB_KT_CHOICE,     /* int: index into choices */
	NB_KT_URL,        /* the target URL: parsed into struct nb_target_cfg */
	NB_KT_SPAN,       /* struct nb_span: "80%" or a size (core/target.h) */
	NB_KT_SECTION,    /* not a key: the section .section of the box file */
};

/* Where a knob's field lives. */
enum nb_knob_base {
	NB_KB_NONE,       /* nowhere (labels) */
	NB_KB_CONFIG,     /* struct nb_config */
	NB_KB_PARAMS,     /* struct nb_params (the config's suite.p) */
	NB_KB_TARGET,     /* struct nb_target_cfg */
};

enum nb_knob_flag {
	NB_KF_NOARG = 1 << 0,  /* the option takes no value: it sets "yes" */
	NB_KF_AUTO = 1 << 1,   /* a size that may be "auto" (NB_SIZE_AUTO) */
	NB_KF_NOLABEL = 1 << 2, /* a [box] key that is not a label of the result */
	NB_KF_CMDLINE = 1 << 3, /* consent given on the command line only, never
				 * in a box file */
	NB_KF_NAMED = 1 << 4,   /* a section that takes a name: [target NAME] */
	NB_KF_LINES = 1 << 5,   /* a section kept as lines for its module
				 * ([accept]); .help says what a line is */
};

struct nb_knob {
	const char *section;     /* "box", "target", "suite"; NULL ends a table */
	const char *name;
	enum nb_knob_type type;
	enum nb_knob_base base;
	size_t off, len;         /* the field in its base */
	const char *choices;     /* '|'-separated (labels, NB_KT_STR, CHOICE) */
	uint64_t min, max;       /* 0: no bound */
	/* The default as a user writes it ("10s", "3", "no"), shown in the
	 * help as " (default 10s)" (not for a switch without a value: NOARG);
	 * NULL where no value applies (then .unset). */
	const char *def;
	/* Where no value applies by default: what does ("the workload's",
	 * "no limit"), shown as " (default: TEXT)"; "" where nothing does and
	 * the help says what leaving the key out means (url, crash).  A key
	 * row has .def or .unset, never both, and its .help states no default
	 * (tests/unit/test_config.c holds every row to it). */
	const char *unset;
	const char *help;
	/* 'nasbench run': the long option (without "--"), its short letter
	 * (0: none), the value's name in the usage text; NULL: no option.
	 * An option of a [target] knob sets it on every target of the run. */
	const char *opt;
	char short_opt;
	const char *metavar;
	unsigned flags;          /* enum nb_knob_flag */
	/* NB_KT_STR: checks a value (0, or -EINVAL with the reason set);
	 * NULL: any string that fits */
	int (*check)(const char *v);
};

/* Where a row's value lives: its base struct, the field's offset and size
 * (a label lives nowhere).  NB_CFG wants core/config.h, NB_TGT
 * core/target.h. */
#define NB_KNOB_FIELD(b, type, f) .base = b, .off = offsetof(type, f), \
				  .len = sizeof(((type *)0)->f)
#define NB_CFG(f) NB_KNOB_FIELD(NB_KB_CONFIG, struct nb_config, f)
#define NB_PRM(f) NB_KNOB_FIELD(NB_KB_PARAMS, struct nb_params, f)
#define NB_TGT(f) NB_KNOB_FIELD(NB_KB_TARGET, struct nb_target_cfg, f)
/* A [box] key that is a label of the result only (it lives nowhere). */
#define NB_LABEL(n) .section = "box", .name = n, .type = NB_KT_LABEL
/* A section: NB_SECTION("capacity"), .flags NB_KF_NAMED or NB_KF_LINES. */
#define NB_SECTION(n) .section = n, .type = NB_KT_SECTION

/* The program's rows: TABLES (ended by NULL), each ended by a row with a
 * NULL section, in the order help shows them.  Set once, before a box file
 * is read or a row is looked up (main(); the tests' support code): the
 * functions below abort on a program that never set them. */
void nb_knobs_use(const struct nb_knob *const *tables);

/* The key row after K (NULL: the first), every table's in order; NULL
 * after the last.  Section rows are passed over. */
const struct nb_knob *nb_knob_next(const struct nb_knob *k);
#define nb_knob_foreach(k) for ((k) = nb_knob_next(NULL); (k); (k) = nb_knob_next(k))

/* The section row after S (NULL: the first), in the tables' order; NULL
 * after the last. */
const struct nb_knob *nb_section_next(const struct nb_knob *s);
#define nb_section_foreach(s) \
	for ((s) = nb_section_next(NULL); (s); (s) = nb_section_next(s))

/* The section row of NAME ("target", without the target's name), or NULL. */
const struct nb_knob *nb_section_find(const char *name);

/* "box, target NAME, suite, ...": every section, into BUF.  Returns BUF. */
const char *nb_sections_list(char *buf, size_t len);

/* The number of key row K among all (0 for the first), and the row of a
 * number (NULL past the last): a key row's id in an option table. */
int nb_knob_index(const struct nb_knob *k);
const struct nb_knob *nb_knob_at(int i);

/* The row of SECTION ("suite", "target": without the target's name) and
 * NAME, or NULL. */
const struct nb_knob *nb_knob_find(const char *section, const char *name);

/* The nearest known name in SECTION to NAME ("did you mean"), or NULL. */
const char *nb_knob_suggest(const char *section, const char *name);

/* Whether V is one of K's choices (always, when K has none). */
int nb_knob_allows(const struct nb_knob *k, const char *v);

/* 0 when K allows V, else -EINVAL with "'x' is not one of a|b; did you
 * mean 'a'?" set (the suggestion when one is near). */
int nb_knob_check_choice(const struct nb_knob *k, const char *v);

/* Parse V into K's field of BASE (the struct K->base names; for a URL, the
 * target).  0, or -EINVAL with the reason set (not prefixed with a place:
 * "value '0' out of range (4096 to ...)", "'x' is not one of a|b"). */
int nb_knob_parse(const struct nb_knob *k, void *base, const char *v);

/* Under the user's params P, the knobs a suite sets (D) where the user set
 * none: a number of 0 or a switch below 0 is "not set". */
void nb_params_merge(struct nb_params *p, const struct nb_params *d);

/* The default of SECTION's knob NAME (a number, size or duration: its
 * row's .def parsed), or 0 when it has none. */
uint64_t nb_knob_default(const char *section, const char *name);

/* K's help as the user reads it: its text, " (default DEF)", and
 * " (a|b|c)" for its choices, into BUF.  Returns BUF. */
const char *nb_knob_help(const struct nb_knob *k, char *buf, size_t len);

/* 'nasbench help config': every section, its rows under it. */
void nb_knobs_help(FILE *out);

/* The usage lines of the options of SECTION's knobs, as 'nasbench help
 * run' shows them ("      --size SIZE        bytes of ..."). */
void nb_knobs_usage(FILE *out, const char *section);

/* One usage line: "  -s, --suite NAME       HELP" (SHORT_OPT 0: none;
 * METAVAR NULL: no value).  Long help wraps at 78 columns, and where
 * HELP has a newline. */
void nb_usage_line(FILE *out, char short_opt, const char *opt,
		   const char *metavar, const char *help);

#endif
