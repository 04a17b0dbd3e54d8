/* SPDX-License-Identifier: GPL-2.0-or-later */
/* box.c - the box of a capture: what it has, which of its devices are the
 * VMs', and the loops that read its counters (capture_int.h). */
#include "capture_int.h"
#include "../core/boxtext.h"
#include "../core/err.h"
#include "../core/escape.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cp_box_open(struct cp_box *b, const struct nb_capture_cfg *c)
{
	struct nb_telem_cfg tc = { .monitor = c->source,
				   .interval_us = c->interval_us,
				   .timeout_us = c->timeout_us,
				   .identity = c->identity,
				   .known_hosts = c->known_hosts };
	const char *w;
	int rc;

	memset(b, 0, sizeof(*b));
	rc = nb_telem_open(&b->tm, &tc);
	if (rc)
		return rc;
	if (!b->tm) {
		/* the telemetry's warning names the source and says why */
		char why[640], *cut;

		w = nb_telem_warning(NULL);
		snprintf(why, sizeof(why), "%s", strncmp(w, "telemetry from ", 15) ?
			 w : w + 15);
		/* what the run would do next is not the capture's */
		if ((cut = strstr(why, "; no telemetry")) ||
		    (cut = strstr(why, ": no telemetry")))
			*cut = 0;
		return nb_err(-EIO, "cannot capture from %s", why);
	}
	b->freebsd = !strcmp(nb_telem_os(b->tm), "freebsd");
	return 0;
}

void cp_box_close(struct cp_box *b)
{
	nb_telem_close(b->tm);
	b->tm = NULL;
}

/* Linux: each block device's size in sectors, its device-mapper name and
 * uuid (an LVM volume's uuid begins LVM-), the zvols' links; the pools;
 * whether there is an NFS server's counter file and zpool iostat -r.  The
 * shell reads the files itself: a fork a file took the answer past its
 * time limit on a loaded box. */
static const char linux_inv[] =
	"echo @devices; for d in /sys/block/*; do n=${d##*/}; "
	"read -r s <\"$d/size\" 2>/dev/null || continue; m=; u=; "
	"[ -r \"$d/dm/name\" ] && read -r m <\"$d/dm/name\"; "
	"[ -r \"$d/dm/uuid\" ] && read -r u <\"$d/dm/uuid\"; "
	"printf '%s %s %s %s\\n' \"$n\" \"$s\" \"${m:--}\" \"${u:--}\"; done; "
	"for l in $(find /dev/zvol -type l 2>/dev/null); do "
	"printf 'zvol %s %s\\n' \"$l\" \"$(readlink -f \"$l\")\"; done; "
	"echo; echo @pools; zpool list -H -o name 2>/dev/null; "
	"echo; echo @have; [ -r /proc/net/rpc/nfsd ] && echo nfs; "
	"p=$(zpool list -H -o name 2>/dev/null | head -n 1); "
	"[ -n \"$p\" ] && zpool iostat -r \"$p\" >/dev/null 2>&1 && echo hist; true";

/* FreeBSD: diskinfo of the disks and zvols; the same questions. */
static const char freebsd_inv[] =
	"echo @devices; for d in $(sysctl -n kern.disks); do diskinfo \"/dev/$d\"; "
	"done 2>/dev/null; for v in $(zfs list -H -t volume -o name 2>/dev/null); "
	"do diskinfo \"/dev/zvol/$v\"; done 2>/dev/null; "
	"echo; echo @pools; zpool list -H -o name 2>/dev/null; "
	"echo; echo @have; nfsstat -s >/dev/null 2>&1 && echo nfs; "
	"command -v gstat >/dev/null 2>&1 && echo gstat; "
	"p=$(zpool list -H -o name 2>/dev/null | head -n 1); "
	"[ -n \"$p\" ] && zpool iostat -r \"$p\" >/dev/null 2>&1 && echo hist; true";

/* The text of section NAME of OUT ("@NAME" up to the next "@"), cut in
 * place; "" when none. */
static char *section(char *out, const char *name)
{
	char tag[32], *p, *e;

	snprintf(tag, sizeof(tag), "@%s\n", name);
	p = strstr(out, tag);
	if (!p)
		return "";
	p += strlen(tag);
	e = strstr(p, "\n@");
	if (e)
		e[1] = 0;
	return p;
}

static void take_inventory(struct cp_box *b, char *out)
{
	char *dup = strdup(out), *s;
	char *save = NULL;

	if (!dup)
		return;
	s = section(dup, "devices");
	if (b->freebsd)
		nb_cp_diskinfo(s, &b->info);
	else
		nb_cp_sysblock(s, &b->info);
	strcpy(dup, out);
	s = section(dup, "pools");
	for (char *t = strtok_r(s, "\n", &save); t && b->npools < NB_CP_MAXPOOL;
	     t = strtok_r(NULL, "\n", &save)) {
		/* any name goes back to the box quoted (pool_args); one that
		 * begins with '-' would be an option of zpool, one too long
		 * would be cut into another: left out, said */
		if (*t == '-' || strlen(t) >= NB_CP_NAME) {
			if (!b->pools_left++)
				nb_boxtext(b->pool_left, sizeof(b->pool_left), t);
		} else if (*t) {
			snprintf(b->pools[b->npools++], NB_CP_NAME, "%s", t);
		}
	}
	strcpy(dup, out);
	s = section(dup, "have");
	b->have_nfs = strstr(s, "nfs\n") != NULL;
	b->have_gstat = strstr(s, "gstat\n") != NULL;
	b->have_hist = b->npools && strstr(s, "hist\n") != NULL;
	free(dup);
}

/* NAME's block layer merges adjacent requests: not device-mapper, md,
 * zvols, drbd (bio-based: their counters count no merge). */
static int merges(const char *name)
{
	static const char *const bio[] = { "dm-", "md", "zd", "drbd" };

	for (size_t i = 0; i < sizeof(bio) / sizeof(bio[0]); i++)
		if (!strncmp(name, bio[i], strlen(bio[i])))
			return 0;
	return 1;
}

/* The default: LVM logical volumes and zvols. */
static int by_default(const struct cp_box *b, int i)
{
	const char *n = b->info.d[i].name;

	return b->info.d[i].lv || (!strncmp(n, "zd", 2) && b->info.d[i].alias[0]) ||
	       !strncmp(n, "zvol/", 5);
}

static int glob_match(const char *pattern, const struct cp_box *b, int i)
{
	const char *p = strncmp(pattern, "/dev/", 5) ? pattern : pattern + 5;

	return !fnmatch(p, b->info.d[i].name, 0) ||
	       (b->info.d[i].alias[0] && !fnmatch(p, b->info.d[i].alias, 0));
}

static int by_name(const void *a, const void *b)
{
	return strverscmp(((const struct cp_sel *)a)->name,
			  ((const struct cp_sel *)b)->name);
}

/* The devices PATTERN (NULL: the default) picks, in their names' order
 * (dm-2 before dm-10). */
static int pick(struct cp_box *b, const char *pattern)
{
	for (int i = 0; i < b->info.n && b->nsel < CP_MAXSEL; i++) {
		int hit = 0;

		if (!b->info.d[i].whole)
			continue;
		if (!pattern) {
			hit = by_default(b, i);
		} else {
			char *copy = strdup(pattern), *save = NULL;

			for (char *g = copy ? strtok_r(copy, ",", &save) : NULL; g && !hit;
			     g = strtok_r(NULL, ",", &save))
				hit = *g && glob_match(g, b, i);
			free(copy);
		}
		if (hit) {
			struct cp_sel *s = &b->sel[b->nsel++];

			/* whole arrays of one size (snprintf from one member of
			 * B into another makes GCC's -Wrestrict guess overlap) */
			memcpy(s->name, b->info.d[i].name, sizeof(s->name));
			memcpy(s->vm, b->info.d[i].alias[0] ? b->info.d[i].alias :
			       b->info.d[i].name, sizeof(s->vm));
			s->size = b->info.d[i].size;
			s->merges = !b->freebsd && merges(s->name);
		}
	}
	qsort(b->sel, (size_t)b->nsel, sizeof(b->sel[0]), by_name);
	return 0;
}

/* "sda, sdb, loop0 ... (12 more)": what the box has, for a refusal. */
static void has(const struct cp_box *b, char *buf, size_t len)
{
	size_t o = 0;
	int shown = 0, n = 0;

	buf[0] = 0;
	for (int i = 0; i < b->info.n; i++) {
		if (!b->info.d[i].whole)
			continue;
		n++;
		if (shown >= 16 || o >= len)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s%s%s%s",
				      shown ? ", " : "", b->info.d[i].name,
				      b->info.d[i].alias[0] ? " (" : "",
				      b->info.d[i].alias,
				      b->info.d[i].alias[0] ? ")" : "");
		shown++;
	}
	if (n > shown && o < len)
		snprintf(buf + o, len - o, " and %d more", n - shown);
	if (!n)
		snprintf(buf, len, "no block device at all");
}

int cp_box_inventory(struct cp_box *b, const struct nb_capture_cfg *c,
		     char *picked, size_t len)
{
	char err[400], list[1200];
	char *out = NULL;
	size_t o = 0;

	if (nb_telem_exec(b->tm, b->freebsd ? freebsd_inv : linux_inv, &out, err,
			  sizeof(err)))
		return nb_err(-EIO, "cannot ask %s what it has: %s",
			      nb_telem_source(b->tm), err);
	take_inventory(b, out);
	free(out);
	if (pick(b, c->devices))
		return nb_err(-ENOMEM, "out of memory");
	if (!b->nsel) {
		has(b, list, sizeof(list));
		if (c->devices)
			return nb_err(-EINVAL, "no device of %s matches '%s' (it has: "
				      "%s)", nb_telem_source(b->tm), c->devices, list);
		return nb_err(-EINVAL, "no LVM logical volume or zvol on %s, the "
			      "devices picked by default (it has: %s): name the "
			      "VMs' devices with --devices", nb_telem_source(b->tm),
			      list);
	}
	picked[0] = 0;
	for (int i = 0; i < b->nsel && o < len; i++)
		o += (size_t)snprintf(picked + o, len - o, "%s%s", i ? ", " : "",
				      b->sel[i].name);
	if (o < len)
		snprintf(picked + o, len - o, " (%s)", c->devices ? "--devices" :
			 "by default: LVM logical volumes and zvols");
	return 0;
}

/* The pools as zpool's arguments, each quoted for the box's shell
 * ("'tank' 'it'\''s' ", core/escape.h): a name is the box's, and runs
 * nothing.  0, or -1 when they do not fit BUF. */
static int pool_args(const struct cp_box *b, char *buf, size_t len)
{
	size_t o = 0;
	char q[4 * NB_CP_NAME + 3];

	buf[0] = 0;
	for (int i = 0; i < b->npools; i++) {
		if (nb_sh_quote(q, sizeof(q), b->pools[i]) || o + strlen(q) + 2 >= len)
			return -1;
		o += (size_t)snprintf(buf + o, len - o, "%s ", q);
	}
	return 0;
}

int cp_box_streams(struct cp_box *b, double iv, struct cp_stream *s)
{
	char pools[1024];
	int n = 0;

	memset(s, 0, sizeof(*s) * CP_MAXSTREAM);
	if (pool_args(b, pools, sizeof(pools))) {
		/* more pools than a script holds: their figures are not read */
		b->pools_left += b->npools;
		b->npools = b->have_hist = 0;
		pools[0] = 0;
	}
	/* every answer ends with "@end"; a tool that fails still pauses, so a
	 * loop never spins */
	s[n].kind = CP_COUNTERS;
	if (!b->freebsd)
		snprintf(s[n].script, sizeof(s[n].script), "while :; do echo \"@t "
			 "$(cut -d' ' -f1 /proc/uptime)\"; echo; echo @diskstats; cat "
			 "/proc/diskstats; %s echo; echo @end; sleep %.3f; done",
			 b->have_nfs ? "echo; echo @nfsd; cat /proc/net/rpc/nfsd;" : "", iv);
	else if (b->have_gstat)
		snprintf(s[n].script, sizeof(s[n].script), "while :; do echo @t; "
			 "%s echo; echo @gstat; gstat -b -I %.0fms || sleep %.3f; echo; echo @end; "
			 "done", b->have_nfs ? "echo; echo @nfsstat; nfsstat -s;" : "",
			 iv * 1000, iv);
	else
		snprintf(s[n].script, sizeof(s[n].script), "while :; do echo @t; "
			 "%s echo; echo @iostat; iostat -x -I -d; echo; echo @end; sleep %.3f; "
			 "done", b->have_nfs ? "echo; echo @nfsstat; nfsstat -s;" : "", iv);
	n++;
	if (b->npools) {
		/* the second report is the interval's */
		s[n].kind = CP_ZPOOL;
		snprintf(s[n].script, sizeof(s[n].script), "while :; do echo @t; echo "
			 "@zpool; zpool iostat -v %s%.0f 2 || sleep %.3f; echo; echo @end; "
			 "done", pools, iv < 1 ? 1 : iv, iv);
		n++;
	}
	if (b->have_hist) {
		s[n].kind = CP_ZPOOL_R;
		snprintf(s[n].script, sizeof(s[n].script), "while :; do echo @t; echo "
			 "@zpoolr; zpool iostat -r %s%.0f 2 || sleep %.3f; echo; echo @end; "
			 "done", pools, iv < 1 ? 1 : iv, iv);
		n++;
	}
	return n;
}
