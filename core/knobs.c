#include "knobs.h"
#include "config.h"
#include "err.h"
#include "suggest.h"
#include "units.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#define FIELD(type, f) offsetof(type, f), sizeof(((type *)0)->f)
#define CFG(f) NB_KB_CONFIG, FIELD(struct nb_config, f)
#define PRM(f) NB_KB_PARAMS, FIELD(struct nb_params, f)
#define TGT(f) NB_KB_TARGET, FIELD(struct nb_target_cfg, f)
#define LABEL NB_KB_NONE, 0, 0

/* Rows without an option leave the option's fields out. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const struct nb_knob nb_knobs[] = {
	{ "box", "name", NB_KT_LABEL, LABEL, NULL, 0, 0, "name of the box under test" },
	{ "box", "layout", NB_KT_LABEL, LABEL,
	  "raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single",
	  0, 0, "pool or array layout" },
	{ "box", "disks", NB_KT_LABEL, LABEL, NULL, 0, 0,
	  "the disks, e.g. '5 x 3TB WD Red'" },
	{ "box", "slog", NB_KT_LABEL, LABEL, NULL, 0, 0,
	  "separate intent log: none, or what it is" },
	{ "box", "sync", NB_KT_LABEL, LABEL, "standard|always|disabled", 0, 0,
	  "ZFS sync property of the dataset" },
	{ "box", "platform", NB_KT_LABEL, LABEL,
	  "bare|xen|esxi|vmware|kvm|hyperv|other|auto", 0, 0,
	  "bare metal or hypervisor (auto: detected on this client)" },
	{ "box", "media", NB_KT_LABEL, LABEL, "hdd|ssd|nvme|mixed", 0, 0,
	  "the pool's disks: rotational or not" },
	{ "box", "disk", NB_KT_LABEL, LABEL, "hdd|ssd|none", 0, 0,
	  "disk profile of a simulated box (ci/lab --disk): the rate its "
	  "disks are throttled to, not what they are (that is media)" },
	{ "box", "plp", NB_KT_LABEL, LABEL, "yes|no", 0, 0,
	  "power-loss-protected write cache (PLP SSD, NVRAM, BBU): sync "
	  "writes may be durable at async cost" },
	{ "box", "compression", NB_KT_LABEL, LABEL, NULL, 0, 0,
	  "compression of the pool or share, e.g. off, lz4, lzjb, gzip-6" },
	{ "box", "arc", NB_KT_LABEL, LABEL, NULL, 0, 0,
	  "ZFS ARC (read cache) size, e.g. 64M" },
	{ "box", "ram", NB_KT_SIZE, PRM(ram), NULL, 0, 0,
	  "the box's memory (bonnie sizes its file at twice this)" },
	{ "box", "cpu", NB_KT_LABEL, LABEL, NULL, 0, 0, "the box's processor" },
	{ "box", "nic", NB_KT_LABEL, LABEL, NULL, 0, 0,
	  "the box's network link, e.g. 1gbit" },
	{ "box", "os", NB_KT_LABEL, LABEL, NULL, 0, 0, "the box's OS, e.g. FreeNAS 9.3" },
	{ "box", "notes", NB_KT_LABEL, LABEL, NULL, 0, 0, "free text" },
	{ "box", "history", NB_KT_BOOL, CFG(history), NULL, 0, 0,
	  "record every run in the results history ($NASBENCH_DB, else "
	  "~/.local/share/nasbench/history.db; as run --history)",
	  NULL, 0, NULL, NB_KF_NOLABEL },

	{ "target", "url", NB_KT_URL, TGT(url), NULL, 0, 0,
	  "path, file:///path, nfs://host/export/dir or iscsi://host/iqn/lun" },
	{ "target", "timeout", NB_KT_DURATION, TGT(timeout_us), NULL, 1000,
	  3600000000ULL, "give up on an unanswered request after this long "
	  "(default 10s)", "timeout", 0, "TIME" },
	{ "target", "destroy-data", NB_KT_BOOL, TGT(destroy_data), NULL, 0, 0,
	  "allow writing over a LUN or device that holds data", "destroy-data",
	  0, NULL, NB_KF_NOARG },
	{ "target", "keep", NB_KT_BOOL, TGT(keep), NULL, 0, 0,
	  "keep the scratch directory nasbench.<run-id>/ afterwards", "keep", 0,
	  NULL, NB_KF_NOARG },
	{ "target", "offset", NB_KT_SIZE, TGT(offset), NULL, 0, 0,
	  "block targets: start of the window used" },
	{ "target", "size", NB_KT_SIZE, TGT(size), NULL, 0, 0,
	  "block targets: length of the window used" },
	{ "target", "engine", NB_KT_STR, TGT(engine), "native|fio", 0, 0,
	  "who does the I/O: nasbench itself (native) or fio", "engine", 0, "E" },
	{ "target", "ioengine", NB_KT_STR, TGT(ioengine), "io_uring|libaio|psync",
	  0, 0, "fio's ioengine when engine = fio", "ioengine", 0, "E" },

	{ "suite", "workloads", NB_KT_STR, CFG(suite.workloads), NULL, 0, 0,
	  "comma-separated workloads (see 'nasbench list')" },
	{ "suite", "suite", NB_KT_STR, CFG(suite.suite), NULL, 0, 0,
	  "a named suite (see 'nasbench list suites')", "suite", 's', "NAME" },
	{ "suite", "iterations", NB_KT_UINT, CFG(suite.iterations), NULL, 1, 1000,
	  "repetitions of each workload (default 3)", "iterations", 'i', "N" },
	{ "suite", "size", NB_KT_SIZE, PRM(size), NULL, 4096, 0,
	  "bytes of the data file or LUN window per workload (default 1G); "
	  "auto: twice the box's RAM ([box] ram or --label ram=SIZE), so "
	  "reads cannot come from its cache",
	  "size", 0, "SIZE", NB_KF_AUTO },
	{ "suite", "runtime", NB_KT_DURATION, PRM(runtime_us), NULL, 1000, 0,
	  "run each iteration this long instead of once over the size",
	  "runtime", 0, "TIME" },
	{ "suite", "iodepth", NB_KT_UINT32, PRM(iodepth), NULL, 1, NB_MAX_QD,
	  "I/Os in flight (default: the workload's)", "iodepth", 0, "N" },
	{ "suite", "bs", NB_KT_SIZE32, PRM(bs), NULL, 512, 64 << 20,
	  "bytes per I/O (default: the workload's)", "bs", 0, "SIZE" },
	{ "suite", "direct", NB_KT_BOOL, PRM(direct), NULL, 0, 0,
	  "bypass the client's page cache (default yes)", "direct", 0, "yes|no" },
	{ "suite", "sync", NB_KT_CHOICE, PRM(sync), "none|end|always", 0, 0,
	  "write durability: none, one flush at the end, or every write",
	  "sync", 0, "MODE" },
	{ "suite", "verify", NB_KT_BOOL, PRM(verify), NULL, 0, 0,
	  "read written data back and check every block" },
	{ "suite", "preset", NB_KT_UINT, PRM(preset), NULL, 0, 9,
	  "xz preset (default 6)" },
	{ "suite", "files", NB_KT_UINT, PRM(files), NULL, 1, 10000000,
	  "bonnie: files to create, stat and delete (default 16384)" },
	{ "suite", "fast", NB_KT_BOOL, PRM(fast), NULL, 0, 0,
	  "bonnie: skip the per-character phases, like bonnie++ -f (default no)" },
	{ "suite", "cross-check", NB_KT_BOOL, PRM(cross_check), NULL, 0, 0,
	  "run I/O workloads with nasbench and fio, flag >10% differences",
	  "cross-check", 0, NULL, NB_KF_NOARG },
	{ NULL },
};
#pragma GCC diagnostic pop

const struct nb_knob *nb_knob_find(const char *section, const char *name)
{
	for (const struct nb_knob *k = nb_knobs; k->name; k++)
		if (!strcmp(k->section, section) && !strcmp(k->name, name))
			return k;
	return NULL;
}

const char *nb_knob_suggest(const char *section, const char *name)
{
	const char *cands[128];
	size_t n = 0;

	for (const struct nb_knob *k = nb_knobs; k->name && n < 128; k++)
		if (!strcmp(k->section, section))
			cands[n++] = k->name;
	return nb_suggest(name, cands, n);
}

/* The index of V among '|'-separated CHOICES (any case), or -1. */
static int choice_index(const char *choices, const char *v)
{
	size_t n = strlen(v);
	int i = 0;

	for (const char *p = choices; p && *p; i++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncasecmp(p, v, n))
			return i;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
}

int nb_knob_allows(const struct nb_knob *k, const char *v)
{
	return !k->choices || choice_index(k->choices, v) >= 0;
}

int nb_knob_check_choice(const struct nb_knob *k, const char *v)
{
	char near[64];

	if (!nb_knob_allows(k, v) &&
	    nb_suggest_choice(v, k->choices, near, sizeof(near)))
		return nb_err(-EINVAL, "'%s' is not one of %s; did you mean '%s'?",
			      v, k->choices, near);
	return nb_knob_allows(k, v) ? 0 :
	       nb_err(-EINVAL, "'%s' is not one of %s", v, k->choices);
}

/* A bound in the unit the user writes: "4 KiB", "0.001 s", "1000". */
static const char *bound(const struct nb_knob *k, uint64_t n, char *buf,
			 size_t len)
{
	if (k->type == NB_KT_SIZE || k->type == NB_KT_SIZE32)
		return nb_fmt_size(n, buf, len);
	if (k->type == NB_KT_DURATION)
		snprintf(buf, len, "%g s", (double)n / 1e6);
	else
		snprintf(buf, len, "%llu", (unsigned long long)n);
	return buf;
}

static int parse_number(const struct nb_knob *k, void *field, const char *v)
{
	uint64_t n;
	int rc;

	if ((k->flags & NB_KF_AUTO) && !strcmp(v, "auto")) {
		*(uint64_t *)field = NB_SIZE_AUTO;
		return 0;
	}
	switch (k->type) {
	case NB_KT_SIZE:
	case NB_KT_SIZE32:
		rc = nb_parse_size(v, &n);
		break;
	case NB_KT_DURATION:
		rc = nb_parse_duration_us(v, &n);
		break;
	default:
		rc = nb_parse_uint(v, 0, UINT64_MAX, &n);
		break;
	}
	if (rc)
		return -EINVAL;
	if ((k->min && n < k->min) || (k->max && n > k->max)) {
		char lo[32], hi[32];

		if (!k->max)
			return nb_err(-EINVAL, "value '%s' is too small: at least %s",
				      v, bound(k, k->min, lo, sizeof(lo)));
		return nb_err(-EINVAL, "value '%s' out of range (%s to %s)", v,
			      bound(k, k->min, lo, sizeof(lo)),
			      bound(k, k->max, hi, sizeof(hi)));
	}
	if (k->type == NB_KT_SIZE32 || k->type == NB_KT_UINT32)
		*(uint32_t *)field = (uint32_t)n;
	else if (k->len == sizeof(int))
		*(int *)field = (int)n;
	else
		*(uint64_t *)field = n;
	return 0;
}

int nb_knob_parse(const struct nb_knob *k, void *base, const char *v)
{
	void *field = (char *)base + k->off;
	int b;

	switch (k->type) {
	case NB_KT_LABEL:
		return nb_knob_allows(k, v) ? 0 : nb_knob_check_choice(k, v);
	case NB_KT_URL: {
		struct nb_target_cfg *t = base;

		if (nb_url_parse(v, &t->u))
			return -EINVAL;
		if (!nb_url_scheme_known(t->u.scheme))
			return nb_err(-EINVAL, "no runner for '%s://' URLs",
				      t->u.scheme);
	}
		/* fall through */
	case NB_KT_STR:
		if (strlen(v) >= k->len)
			return nb_err(-EINVAL, "value too long");
		if (!nb_knob_allows(k, v))
			return nb_knob_check_choice(k, v);
		snprintf(field, k->len, "%s", v);
		return 0;
	case NB_KT_BOOL:
		if (nb_parse_bool(v, &b))
			return -EINVAL;
		*(int *)field = b;
		return 0;
	case NB_KT_CHOICE:
		b = choice_index(k->choices, v);
		if (b < 0)
			return nb_knob_check_choice(k, v);
		*(int *)field = b;
		return 0;
	default:
		return parse_number(k, field, v);
	}
}

void nb_params_merge(struct nb_params *p, const struct nb_params *d)
{
	for (const struct nb_knob *k = nb_knobs; k->name; k++) {
		char *mine = (char *)p + k->off;
		const char *theirs = (const char *)d + k->off;

		if (k->base != NB_KB_PARAMS)
			continue;
		if (k->len == sizeof(int) && k->type != NB_KT_UINT32 &&
		    k->type != NB_KT_SIZE32) {
			if (*(int *)mine < 0)
				*(int *)mine = *(const int *)theirs;
		} else if (k->len == sizeof(uint32_t)) {
			if (!*(uint32_t *)mine)
				*(uint32_t *)mine = *(const uint32_t *)theirs;
		} else if (!*(uint64_t *)mine) {
			*(uint64_t *)mine = *(const uint64_t *)theirs;
		}
	}
}

void nb_knobs_help(FILE *out)
{
	const char *sec = "";

	for (const struct nb_knob *k = nb_knobs; k->name; k++) {
		if (strcmp(sec, k->section)) {
			fprintf(out, "%s[%s%s]\n", *sec ? "\n" : "", k->section,
				!strcmp(k->section, "target") ? " NAME" : "");
			sec = k->section;
		}
		fprintf(out, "  %-14s %s%s%s%s\n", k->name, k->help,
			k->choices ? " (" : "", k->choices ? k->choices : "",
			k->choices ? ")" : "");
	}
}

void nb_usage_line(FILE *out, char short_opt, const char *opt,
		   const char *metavar, const char *help)
{
	char head[64];
	int col = 25;

	snprintf(head, sizeof(head), "%c%c%c --%s%s%s", short_opt ? '-' : ' ',
		 short_opt ? short_opt : ' ', short_opt ? ',' : ' ', opt,
		 metavar ? " " : "", metavar ? metavar : "");
	fprintf(out, "  %-22s", head);
	if (strlen(head) > 22) {
		fputc('\n', out);
		fprintf(out, "%*s", col, "");
	} else {
		fputc(' ', out);
	}
	/* wrap the help at 78 columns or a newline, continuing under itself */
	for (const char *p = help; *p;) {
		size_t room = 78 - (size_t)col, n = strcspn(p, "\n");

		if (n > room) {
			n = room;
			while (n && p[n] != ' ')
				n--;
			if (!n)
				n = strcspn(p, " \n");
		}
		fprintf(out, "%.*s\n", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
		if (*p == '\n')
			p++;
		if (*p)
			fprintf(out, "%*s", col, "");
	}
}

void nb_knobs_usage(FILE *out, const char *section)
{
	for (const struct nb_knob *k = nb_knobs; k->name; k++) {
		char help[512];

		if (!k->opt || strcmp(k->section, section))
			continue;
		/* the choices, unless the value's name spells them */
		snprintf(help, sizeof(help), "%s%s%s%s", k->help,
			 k->choices ? " (" : "", k->choices ? k->choices : "",
			 k->choices ? ")" : "");
		nb_usage_line(out, k->short_opt, k->opt,
			      (k->flags & NB_KF_NOARG) ? NULL : k->metavar, help);
	}
}
