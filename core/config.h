/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.h - the box file (INI, in fio's spirit) and command-line overrides.
 *
 *   [box]            labels of the configuration under test
 *   [target NAME]    one per datastore / LUN / directory
 *   [suite]          what to run and the knobs
 *   [accept], [clients]   kept as raw lines for their own modules
 *
 * Every key is a row of one table (core/config.c) that drives parsing,
 * validation and 'nasbench help config'.  Errors read
 * "FILE:LINE: unknown key 'iodepht' in [suite]; did you mean 'iodepth'?".
 */
#ifndef NB_CONFIG_H
#define NB_CONFIG_H

#include <stdio.h>

#include "params.h"
#include "target.h"

#define NB_MAX_TARGETS 16
#define NB_MAX_LABELS 32

struct nb_label {
	char key[32];
	char value[128];
};

struct nb_suite_cfg {
	char workloads[1024];    /* comma-separated names */
	char suite[32];
	uint64_t iterations;     /* 0: the suite's, else the knob's default */
	struct nb_params p;
};

/* A line of a section nasbench's core does not parse ([accept], ...). */
struct nb_raw_line {
	char section[64];
	int line;
	char text[512];
};

/* A key set on the command line, applied over the box file. */
struct nb_override {
	char section[16];        /* "suite", "label", "target" (every target) */
	char key[64], value[1024];
	char where[64];          /* the option: "--size", "--set size" */
};

/* [box] netbase: the network baseline before the workloads. */
enum nb_netbase { NB_NETBASE_AUTO, NB_NETBASE_YES, NB_NETBASE_NO };

/* The box's telemetry (telemetry/telem.h, run/telem.h). */
struct nb_monitor_cfg {
	char url[512];           /* "", auto, off, local, ssh://[user@]host[:port] */
	uint64_t interval_us;    /* 0: one second */
	char identity[1024];     /* ssh's key ("": the agent's, ssh's own) */
	char known_hosts[1024];  /* ssh's UserKnownHostsFile ("": ssh's own) */
	int netbase;             /* enum nb_netbase */
};

/* The failure walk (docs/failure.md, run/failure.c): [box] fail-disk and
 * replace-disk, [failure] and run's consent --fail-disks. */
struct nb_failure_cfg {
	char fail_cmd[1024];     /* fails one disk of the pool (sh -c) */
	char replace_cmd[1024];  /* brings in its replacement: the rebuild */
	char pool[64];           /* the pool or md array ("": the only one) */
	uint64_t limit_us;       /* waiting for a rebuild (0: the row's) */
	uint64_t records;        /* checked records per target (0: the row's) */
	int consent;             /* run --fail-disks */
};

struct nb_config {
	char path[4096];         /* "" when no file was read */
	int nlabels;
	struct nb_label labels[NB_MAX_LABELS];
	int ntargets;
	struct nb_target_cfg targets[NB_MAX_TARGETS];
	struct nb_suite_cfg suite;
	int nraw;
	struct nb_raw_line *raw;
	int noverrides;
	struct nb_override *overrides;
	int history;             /* [box] history = yes: record each run */
	struct nb_monitor_cfg monitor;
	struct nb_failure_cfg failure;
};

void nb_config_init(struct nb_config *c);
void nb_config_free(struct nb_config *c);

/* Read PATH into C.  0, or -errno/-EINVAL with "PATH:LINE: ..." set. */
int nb_config_load(struct nb_config *c, const char *path);

/* Set one key as the file would ("suite", "size", "12G").  WHERE names the
 * origin in messages ("--size", "box.ini:12").  0 or -EINVAL. */
int nb_config_set(struct nb_config *c, const char *section, const char *key,
		  const char *value, const char *where);

/* Set a label (box key or --label k=v).  0 or -EINVAL. */
int nb_config_label(struct nb_config *c, const char *key, const char *value,
		    const char *where);
const char *nb_config_label_get(const struct nb_config *c, const char *key);

/* Add a target from the command line: "URL" or "NAME=URL".  0 or -EINVAL. */
int nb_config_add_target(struct nb_config *c, const char *spec);

/* Keep only the targets NAMES (N of them) say, in their order: a name of
 * a configured target, or a URL, path or NAME=URL added as a new one.  No
 * names: keep all.  0 or -EINVAL. */
int nb_config_select_targets(struct nb_config *c, char *const *names, int n);

/* Set KEY of section [target] to VALUE on every target (an option of
 * 'nasbench run' such as --timeout; WHERE names it).  0 or -EINVAL. */
int nb_config_set_targets(struct nb_config *c, const char *key,
			  const char *value, const char *where);

/* There is a target, and each has a URL.  0 or -EINVAL. */
int nb_config_check_targets(const struct nb_config *c);

/* Keep KEY = VALUE of SECTION ("suite", "label", or "target": every
 * target) from the command line option WHERE, to apply over the box file
 * with nb_config_apply().  0 or -ENOMEM. */
int nb_config_override(struct nb_config *c, const char *section,
		       const char *key, const char *value, const char *where);
/* The same from ARG "KEY=VALUE" of option OPT (--label, --set): WHERE is
 * OPT, or "OPT KEY" for SECTION "suite".  0, -EINVAL ("OPT: expected
 * KEY=VALUE, not 'ARG'") or -ENOMEM. */
int nb_config_override_pair(struct nb_config *c, const char *section,
			    const char *opt, const char *arg);
struct nb_knob;
/* The same from knob K's option --K->opt with ARG ("yes" for a flag). */
int nb_config_override_knob(struct nb_config *c, const struct nb_knob *k,
			    const char *arg);
/* Apply the overrides: of "suite" and "label" (TARGETS 0: after the box
 * file is read) or of "target" (TARGETS 1: once the run's targets are
 * chosen).  0 or -EINVAL with "WHERE: ..." set. */
int nb_config_apply(struct nb_config *c, int targets);

/* The target named NAME, or NULL. */
struct nb_target_cfg *nb_config_target(struct nb_config *c, const char *name);

/* Print the key table (for 'nasbench help config'). */
void nb_config_help(FILE *out);

#endif
