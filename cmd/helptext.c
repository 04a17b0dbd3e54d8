/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helptext.c - nasbench(1) and the bash completion from the help's tables.
 *
 * A command's usage text (what 'nasbench help CMD' prints, from its option
 * table where it has one) has a fixed shape: "usage:" lines, paragraphs,
 * option lines ("  -o, --output FILE   help", the help running on in lines
 * indented to its column) and indented examples.  One reader of that shape
 * turns it into roff for the man page and into option lists for the
 * completion.
 */
#include "helptext.h"
#include "cmd.h"
#include "../core/knobs.h"
#include "../core/version.h"
#include "../accept/accept.h"
#include "../runners/runner.h"
#include "../workloads/workload.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading a usage text ---- */

enum line_kind { L_BLANK, L_USAGE, L_TEXT, L_OPT, L_MORE, L_PRE };

struct line {
	enum line_kind kind;
	char head[128];          /* L_OPT: "-o, --output FILE" */
	const char *text;        /* L_OPT: the help on the line (may be ""),
	                          * else the line without its indent */
};

static int indent_of(const char *s)
{
	int n = 0;

	while (s[n] == ' ')
		n++;
	return n;
}

/* Classify LINE (no newline) after a line of kind PREV whose help began at
 * column *COL; an option line sets *COL. */
static void classify(char *line, enum line_kind prev, int *col, struct line *l)
{
	int ind = indent_of(line);
	const char *p = line + ind;

	memset(l, 0, sizeof(*l));
	l->text = p;
	if (!*p) {
		l->kind = L_BLANK;
	} else if (!strncmp(line, "usage: ", 7) ||
		   (ind == 7 && !strncmp(p, "nasbench ", 9))) {
		l->kind = L_USAGE;
		l->text = ind ? p : line + 7;
	} else if ((prev == L_OPT || prev == L_MORE) && ind >= 10 &&
		   (ind == *col || !*col)) {
		l->kind = L_MORE;
		*col = ind;
	} else if (ind >= 2 && ind <= 6 && p[0] == '-' &&
		   (isalpha((unsigned char)p[1]) || p[1] == '-')) {
		const char *gap = strstr(p, "  ");
		size_t len = gap ? (size_t)(gap - p) : strlen(p);

		l->kind = L_OPT;
		snprintf(l->head, sizeof(l->head), "%.*s", (int)len, p);
		l->text = gap ? gap + indent_of(gap) : "";
		*col = gap ? (int)(l->text - line) : 0;
	} else {
		l->kind = ind ? L_PRE : L_TEXT;
		if (ind)
			l->text = line;
	}
}

/* A usage text read line by line, each line classified. */
struct reader {
	char *rest;              /* what is left of the text (strsep) */
	enum line_kind prev;
	int col;
};

/* The next line of R into L: 1, or 0 at the end. */
static int next_line(struct reader *r, struct line *l)
{
	char *s = strsep(&r->rest, "\n");

	if (!s)
		return 0;
	classify(s, r->prev, &r->col, l);
	r->prev = l->kind;
	return 1;
}

/* C's usage text, as 'nasbench help C' prints it (malloc'd). */
static char *usage_text(const struct nb_command *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	nb_cmd_print_usage(c, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- roff ---- */

/* S as roff text: backslashes, minus signs, a leading control character
 * and anything outside ASCII escaped. */
static void roff(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (*p == '.' || *p == '\'')
		fputs("\\&", out);
	while (*p) {
		unsigned cp = *p, n = 0;

		if (cp < 0x80) {
			if (cp == '\\')
				fputs("\\e", out);
			else if (cp == '-')
				fputs("\\-", out);
			else
				fputc((int)cp, out);
			p++;
			continue;
		}
		if ((cp & 0xe0) == 0xc0)
			cp &= 0x1f, n = 1;
		else if ((cp & 0xf0) == 0xe0)
			cp &= 0x0f, n = 2;
		else
			cp &= 0x07, n = 3;
		for (p++; n && (*p & 0xc0) == 0x80; n--, p++)
			cp = (cp << 6) | (*p & 0x3f);
		fprintf(out, "\\[u%04X]", cp);
	}
}

static void roff_line(FILE *out, const char *s)
{
	roff(out, s);
	fputc('\n', out);
}

/* "-o, --output FILE": the option names bold, the value's name italic. */
static void roff_head(FILE *out, const char *head)
{
	char buf[128], *save = NULL;
	int first = 1;

	snprintf(buf, sizeof(buf), "%s", head);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t len = strlen(w);
		int comma = len > 1 && w[len - 1] == ',';

		if (comma)
			w[len - 1] = '\0';
		fputs(first ? "" : " ", out);
		fputs(w[0] == '-' ? "\\fB" : "\\fI", out);
		roff(out, w);
		fputs(comma ? "\\fR," : "\\fR", out);
		first = 0;
	}
	fputc('\n', out);
}

/* One command's usage text as man(7): synopsis lines, paragraphs, .TP
 * per option, examples unfilled. */
static void man_usage(FILE *out, const char *text)
{
	char *copy = strdup(text), *rest = copy;
	enum line_kind prev = L_BLANK;
	int col = 0, pre = 0;

	if (!copy)
		return;
	for (char *s = strsep(&rest, "\n"); s || pre; s = s ? strsep(&rest, "\n") : NULL) {
		struct line l = { .kind = L_BLANK, .text = "" };

		if (s)
			classify(s, prev, &col, &l);
		if (pre && l.kind != L_PRE) {
			fputs(".fi\n.RE\n", out);
			pre = 0;
		}
		if (!s)
			break;
		switch (l.kind) {
		case L_BLANK:
			break;
		case L_USAGE:
			fputs(prev == L_USAGE ? ".br\n" : ".PP\n", out);
			fputs("\\fB", out);
			roff(out, l.text);
			fputs("\\fR\n", out);
			break;
		case L_TEXT:
			if (prev != L_TEXT)
				fputs(".PP\n", out);
			roff_line(out, l.text);
			break;
		case L_OPT:
			fputs(".TP\n", out);
			roff_head(out, l.head);
			if (*l.text)
				roff_line(out, l.text);
			break;
		case L_MORE:
			roff_line(out, l.text);
			break;
		case L_PRE:
			if (!pre)
				fputs(".RS\n.nf\n", out);
			pre = 1;
			roff_line(out, l.text);
			break;
		}
		/* a blank line ends an option's help and a paragraph */
		prev = l.kind == L_BLANK ? L_BLANK : l.kind;
	}
	free(copy);
}

/* A term and its description: .TP, the term bold. */
static void man_item(FILE *out, const char *term, const char *desc)
{
	fputs(".TP\n\\fB", out);
	roff(out, term);
	fputs("\\fR\n", out);
	roff_line(out, desc);
}

/* The man page's words for a section kept as lines (.help is help
 * config's one line): its lines' form, in the page's fonts. */
static void man_lines(FILE *out, const struct nb_knob *s)
{
	if (!strcmp(s->section, "accept"))
		fputs("One criterion a line: \\fIWORKLOAD\\fR@\\fITARGET METRIC OP "
		      "VALUE\\fR (see \\fBACCEPTANCE CRITERIA\\fR).\n", out);
	else if (!strcmp(s->section, "clients"))
		fputs("One fio server a line: \\fIhost\\fR[:\\fIport\\fR].\n", out);
	else
		roff_line(out, s->help);
}

static void man_knobs(FILE *out)
{
	const struct nb_knob *s, *k;

	nb_section_foreach(s) {
		fprintf(out, ".SS [%s%s]\n", s->section,
			(s->flags & NB_KF_NAMED) ? " NAME" : "");
		if (s->flags & NB_KF_LINES)
			man_lines(out, s);
		nb_knob_foreach(k) {
			char desc[1024], help[512];

			if (strcmp(k->section, s->section))
				continue;
			snprintf(desc, sizeof(desc), "%s%s%s",
				 nb_knob_help(k, help, sizeof(help)),
				 k->opt ? "; option --" : "", k->opt ? k->opt : "");
			man_item(out, k->name, desc);
		}
	}
}

/* Text printed by FN, unfilled. */
static void man_pre(FILE *out, void (*fn)(FILE *))
{
	char *buf = NULL, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	fn(f);
	if (fclose(f)) {
		free(buf);
		return;
	}
	fputs(".nf\n", out);
	for (char *s = strtok_r(buf, "\n", &save); s; s = strtok_r(NULL, "\n", &save))
		roff_line(out, s);
	fputs(".fi\n", out);
	free(buf);
}

/* The page's title, name, synopsis and description. */
static void man_head(FILE *out)
{
	fprintf(out, ".\\\" nasbench(1), made by 'nasbench help --man' from the "
		"tables of 'nasbench help'\n"
		".TH NASBENCH 1 \"\" \"nasbench %s\" \"User Commands\"\n",
		nb_version());
	fputs(".SH NAME\nnasbench \\- storage benchmark and acceptance tests for "
	      "NAS over NFS, iSCSI and local storage\n"
	      ".SH SYNOPSIS\n\\fBnasbench\\fR \\fICOMMAND\\fR [\\fIARGS\\fR]\n.br\n"
	      "\\fBnasbench help\\fR [\\fICOMMAND\\fR | \\fBconfig\\fR | "
	      "\\fBaccept\\fR]\n.br\n"
	      "\\fBnasbench \\-\\-version\\fR | \\fB\\-V\\fR\n"
	      ".SH DESCRIPTION\n"
	      "nasbench measures a NAS over NFS (libnfs) and iSCSI (libiscsi), "
	      "local files and devices, and through fio; records MB/s, IOPS and "
	      "latency per configuration of the box (layout, log device, sync "
	      "setting, platform); compares runs and gates on regressions; and "
	      "checks acceptance criteria.\n"
	      ".PP\nData goes to standard output, messages and progress to "
	      "standard error.\n"
	      ".SH COMMANDS\n", out);
}

/* Every command: its summary, then its usage text. */
static void man_commands(FILE *out, const struct nb_command *cmds)
{
	for (int i = 0; cmds[i].name; i++)
		man_item(out, cmds[i].name, cmds[i].summary);
	for (int i = 0; cmds[i].name; i++) {
		char *text = usage_text(&cmds[i]);

		fprintf(out, ".SS \"nasbench %s\"\n", cmds[i].name);
		if (text)
			man_usage(out, text);
		free(text);
	}
}

/* The suites with their workloads, and the targets' schemes. */
static void man_suites_targets(FILE *out)
{
	fputs(".SH SUITES\n", out);
	for (int i = 0; nb_suites[i].name; i++) {
		char desc[1536];
		size_t n;

		n = (size_t)snprintf(desc, sizeof(desc), "%s: ", nb_suites[i].help);
		/* "a, b": a line may break after a comma */
		for (const char *w = nb_suites[i].workloads; *w && n + 3 < sizeof(desc); w++) {
			desc[n++] = *w;
			if (*w == ',')
				desc[n++] = ' ';
		}
		desc[n] = '\0';
		man_item(out, nb_suites[i].name, desc);
	}
	fputs(".SH TARGETS\n", out);
	for (int i = 0; nb_runners[i]; i++) {
		char term[64];

		snprintf(term, sizeof(term), "%s://", nb_runners[i]->scheme);
		man_item(out, term, nb_runners[i]->help);
	}
}

/* Exit status, environment, examples, completion, see also. */
static void man_tail(FILE *out)
{
	fputs(".PP\nA plain path is a local target (file://).\n"
	      ".SH EXIT STATUS\n"
	      ".TP\n0\nsuccess\n"
	      ".TP\n1\na regression (compare) or a failed acceptance criterion "
	      "(run)\n"
	      ".TP\n2\na usage or configuration error, an unreadable input file\n"
	      ".TP\n3\na target or I/O error, or an output that cannot be written "
	      "(wins over 1)\n"
	      ".TP\n130\ninterrupted; the result keeps what finished\n"
	      ".SH ENVIRONMENT\n"
	      ".TP\n\\fBNO_COLOR\\fR\nno colour in compare's table on a terminal\n"
	      ".TP\n\\fBNB_GNUPLOT\\fR\nthe gnuplot program of \\fBnasbench "
	      "report\\fR\n"
	      ".SH EXAMPLES\n.nf\n"
	      "nasbench run \\-\\-target /mnt/nas \\-\\-suite quick\n"
	      "nasbench run box.ini \\-\\-dry\\-run \\-\\-json\n"
	      "nasbench compare base.json new.json \\-\\-max\\-regress 5\n"
	      "nasbench report *.json \\-o report/\n"
	      "nasbench hw plan \\-\\-disks 5x3TB \\-\\-nic 1gbit\n"
	      ".fi\n"
	      ".SH SHELL COMPLETION\n"
	      "\\fBmake install\\fR installs the bash completion; to load it by "
	      "hand:\n.PP\n.RS\n.nf\n"
	      "source <(nasbench help \\-\\-completion bash)\n"
	      ".fi\n.RE\n"
	      ".SH SEE ALSO\n\\fBfio\\fR(1), \\fBbonnie++\\fR(8), "
	      "\\fBnfs\\fR(5)\n", out);
}

void nb_help_man(FILE *out, const struct nb_command *cmds)
{
	man_head(out);
	man_commands(out, cmds);
	fputs(".SH CONFIGURATION\nA box file (INI) describes the box under test and "
	      "its targets; \\fBnasbench help config\\fR lists the same keys.  "
	      "Options of \\fBnasbench run\\fR override them.\n", out);
	man_knobs(out);
	fputs(".SH ACCEPTANCE CRITERIA\n", out);
	man_pre(out, nb_accept_help);
	fputs(".SH WORKLOADS\n", out);
	for (int i = 0; nb_workloads[i]; i++)
		man_item(out, nb_workloads[i]->name, nb_workloads[i]->help);
	man_suites_targets(out);
	man_tail(out);
}

/* ---- bash completion ---- */

/* Append WORD to LIST (space-separated, LEN bytes) unless it is there. */
static void add_word(char *list, size_t len, const char *word)
{
	size_t n = strlen(word), used = strlen(list);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return;
	snprintf(list + used, len - used, "%s%s", used ? " " : "", word);
}

/* The options of C's usage text into OPTS; those that take a FILE or DIR
 * into FILES. */
static void command_opts(const struct nb_command *c, char *opts, size_t olen,
			 char *files, size_t flen)
{
	char *text = usage_text(c);
	struct reader rd = { .rest = text, .prev = L_BLANK };
	struct line l;

	while (next_line(&rd, &l)) {
		char *save2 = NULL;

		if (l.kind != L_OPT)
			continue;
		char names[128] = "";
		int takes_file = 0;

		for (char *w = strtok_r(l.head, ", ", &save2); w;
		     w = strtok_r(NULL, ", ", &save2)) {
			if (w[0] == '-') {
				add_word(opts, olen, w);
				add_word(names, sizeof(names), w);
			} else if (!strcmp(w, "FILE") || !strcmp(w, "DIR")) {
				takes_file = 1;
			}
		}
		if (takes_file)
			for (char *w = strtok_r(names, " ", &save2); w;
			     w = strtok_r(NULL, " ", &save2))
				add_word(files, flen, w);
	}
	free(text);
}

/* C's own commands into SUBS: the lowercase words after "nasbench C" on
 * its usage lines ("nasbench hw plan --disks ..." gives "plan"). */
static void command_subs(const struct nb_command *c, char *subs, size_t len)
{
	char *text = usage_text(c);
	struct reader rd = { .rest = text, .prev = L_BLANK };
	struct line l;

	while (next_line(&rd, &l)) {
		char word[64];
		int n = 0;

		if (l.kind != L_USAGE || strncmp(l.text, "nasbench ", 9) ||
		    strncmp(l.text + 9, c->name, strlen(c->name)) ||
		    l.text[9 + strlen(c->name)] != ' ')
			continue;
		if (sscanf(l.text + 10 + strlen(c->name), "%63[a-z]%n", word, &n) == 1 &&
		    (!l.text[10 + strlen(c->name) + n] ||
		     l.text[10 + strlen(c->name) + n] == ' '))
			add_word(subs, len, word);
	}
	free(text);
}

/* The command names, each followed by a space (a compgen word list). */
static void command_words(FILE *out, const struct nb_command *cmds)
{
	for (int i = 0; cmds[i].name; i++)
		fprintf(out, "%s ", cmds[i].name);
}

/* The lists a value is completed from: workloads, suites, schemes,
 * labels. */
static void bash_lists(FILE *out)
{
	const struct nb_knob *k;
	char words[4096] = "";

	for (int i = 0; nb_workloads[i]; i++)
		add_word(words, sizeof(words), nb_workloads[i]->name);
	fprintf(out, "_nasbench_workloads='%s'\n", words);
	words[0] = '\0';
	for (int i = 0; nb_suites[i].name; i++)
		add_word(words, sizeof(words), nb_suites[i].name);
	fprintf(out, "_nasbench_suites='%s'\n", words);
	words[0] = '\0';
	for (int i = 0; nb_runners[i]; i++) {
		char scheme[64];

		snprintf(scheme, sizeof(scheme), "%s://", nb_runners[i]->scheme);
		add_word(words, sizeof(words), scheme);
	}
	fprintf(out, "_nasbench_schemes='%s'\n", words);
	words[0] = '\0';
	nb_knob_foreach(k) {
		char kv[64];

		if (strcmp(k->section, "box"))
			continue;
		snprintf(kv, sizeof(kv), "%s=", k->name);
		add_word(words, sizeof(words), kv);
	}
	fprintf(out, "_nasbench_labels='%s'\n", words);
}

/* A label's values, where its knob has choices. */
static void bash_label_values(FILE *out)
{
	const struct nb_knob *k;

	fputs("_nasbench_label_values() {\n\tcase $1 in\n", out);
	nb_knob_foreach(k) {
		char list[512];

		if (strcmp(k->section, "box") || !k->choices)
			continue;
		snprintf(list, sizeof(list), "%s", k->choices);
		for (char *p = list; *p; p++)
			if (*p == '|')
				*p = ' ';
		fprintf(out, "\t%s) echo '%s' ;;\n", k->name, list);
	}
	fputs("\tesac\n}\n", out);
}

/* The values of knob K's option, when it has choices; the box file's
 * layouts for hw plan's --layout. */
static void bash_choices(FILE *out, const struct nb_knob *k)
{
	int layout = !strcmp(k->section, "box") && !strcmp(k->name, "layout");
	char list[512];

	if (!k->choices || (!k->opt && !layout))
		return;
	snprintf(list, sizeof(list), "%s", k->choices);
	for (char *p = list; *p; p++)
		if (*p == '|')
			*p = ' ';
	if (layout)
		fprintf(out, "\t--layout) _nasbench_list '%s' \"$cur\"; return ;;\n",
			list);
	else
		fprintf(out, "\t--%s) COMPREPLY=($(compgen -W '%s' -- \"$cur\"))"
			"; return ;;\n", k->opt, list);
}

/* Values of options, by the option before the word; FILES collects
 * the options that take a file. */
static void bash_values(FILE *out, const struct nb_command *cmds)
{
	const struct nb_knob *s, *k;
	char files[1024] = "";

	for (int i = 0; cmds[i].name; i++) {
		char opts[2048] = "";

		command_opts(&cmds[i], opts, sizeof(opts), files, sizeof(files));
	}
	fputs("\tcase $prev in\n"
	      "\t--completion) COMPREPLY=($(compgen -W bash -- \"$cur\")); return ;;\n"
	      "\t-w|--workload) _nasbench_list \"$_nasbench_workloads\" \"$cur\"; return ;;\n"
	      "\t-s|--suite) COMPREPLY=($(compgen -W \"$_nasbench_suites\" -- \"$cur\"))"
	      "; return ;;\n"
	      "\t-t|--target) COMPREPLY=($(compgen -W \"$_nasbench_schemes\" -- \"$cur\")"
	      " $(compgen -d -- \"$cur\")); return ;;\n"
	      "\t-l|--label)\n"
	      "\t\tif [[ $cur == *=* ]]; then\n"
	      "\t\t\tCOMPREPLY=($(compgen -P \"${cur%%=*}=\" -W \"$(_nasbench_label_values "
	      "\"${cur%%=*}\")\" -- \"${cur#*=}\"))\n"
	      "\t\telse\n"
	      "\t\t\tCOMPREPLY=($(compgen -W \"$_nasbench_labels\" -- \"$cur\"))\n"
	      "\t\t\tcompopt -o nospace 2>/dev/null\n"
	      "\t\tfi\n\t\treturn ;;\n", out);
	/* knobs with choices, section by section; hw plan's --layout: the box
	 * file's layouts */
	nb_section_foreach(s)
		nb_knob_foreach(k)
			if (!strcmp(k->section, s->section))
				bash_choices(out, k);
	for (char *p = files; *p; p++)
		if (*p == ' ')
			*p = '|';
	if (*files)
		fprintf(out, "\t%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n",
			files);
}

/* Each command's options and own commands, then what the word is. */
static void bash_commands(FILE *out, const struct nb_command *cmds)
{
	fputs("\tesac\n\tcase $cmd in\n", out);
	for (int i = 0; cmds[i].name; i++) {
		char opts[2048] = "", ignore[1024] = "", subs[256] = "";

		command_opts(&cmds[i], opts, sizeof(opts), ignore, sizeof(ignore));
		add_word(opts, sizeof(opts), "--help");
		command_subs(&cmds[i], subs, sizeof(subs));
		fprintf(out, "\t%s) opts='%s'%s%s%s ;;\n", cmds[i].name, opts,
			*subs ? " subs='" : "", subs, *subs ? "'" : "");
	}
	fputs("\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telif [ \"$cmd\" = help ] && [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W '", out);
	command_words(out, cmds);
	fputs("config accept' -- \"$cur\"))\n"
	      "\telif [ \"$cmd\" = list ] && [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W 'workloads suites runners' -- \"$cur\"))\n"
	      "\telif [ -n \"$subs\" ] && [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
	      "\telse\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n"
	      "complete -F _nasbench nasbench\n", out);
}

void nb_help_completion_bash(FILE *out, const struct nb_command *cmds)
{
	fprintf(out, "# bash completion for nasbench %s, made by 'nasbench help "
		"--completion bash'\n# from the tables of 'nasbench help'.\n",
		nb_version());
	bash_lists(out);
	bash_label_values(out);

	/* a word that ends in a comma-separated list: complete its last item */
	fputs("_nasbench_list() {\n"
	      "\tlocal head= item=$2\n"
	      "\tif [[ $item == *,* ]]; then head=${item%,*},; item=${item##*,}; fi\n"
	      "\tCOMPREPLY=($(compgen -P \"$head\" -W \"$1\" -- \"$item\"))\n"
	      "}\n", out);
	fputs("_nasbench() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd=${COMP_WORDS[1]} opts= subs=\n"
	      "\tCOMPREPLY=()\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W '", out);
	command_words(out, cmds);
	fputs("--help --version' -- \"$cur\"))\n\t\treturn\n\tfi\n", out);

	bash_values(out, cmds);
	bash_commands(out, cmds);
}
