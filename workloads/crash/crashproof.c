/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashproof.c - did the box really go down?  crashcheck's evidence
 * (docs/crashcheck.md): what the box says of itself before the writes and
 * after the reconnect.
 *
 *   boot id    over the telemetry's SSH ([box] monitor): Linux's
 *              /proc/sys/kernel/random/boot_id, FreeBSD's kern.boottime;
 *              a new one is a new boot
 *   NFS        the server's write verifier (WRITE and COMMIT answers): a
 *              server hands out a new one when it restarts, so that
 *              clients resend what it may have lost (RFC 1813, COMMIT)
 *   iSCSI      the UNIT ATTENTION of the first command after a login:
 *              29/00..29/04 (power on, reset) after a restart - but some
 *              targets (tgt) report 29/00 to every new login, so a control
 *              login before the crash says whether it means anything
 *
 * Without any of them the iteration says "no crash observed": its reads
 * prove nothing about what a crash loses.
 */
#include "crashcheck.h"
#include "../../core/err.h"
#include "../../core/escape.h"
#include "../../telemetry/telem.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A power-on or reset UNIT ATTENTION (ASC 29h, ASCQ 00-04); 29/07, an
 * I_T nexus loss, is the connection's, not the box's. */
static int reset_ua(const char *ua)
{
	unsigned asc, ascq;

	return sscanf(ua, "%x/%x", &asc, &ascq) == 2 && asc == 0x29 && ascq <= 4;
}

static int is_iscsi(const struct nb_wl_ctx *c)
{
	return !strcmp(c->t->ops->name, "iscsi");
}

int nb_crash_proof_before(struct nb_wl_ctx *c, struct nb_crash_proof *pr,
			  struct nb_journal *out)
{
	char rec[300];
	int rc = 0;

	memset(pr, 0, sizeof(*pr));
	if (nb_telem_boot_id(c->box, pr->boot_before, sizeof(pr->boot_before))) {
		snprintf(pr->boot_why, sizeof(pr->boot_why), "%s", pr->boot_before);
		pr->boot_before[0] = '\0';
	} else {
		snprintf(rec, sizeof(rec), "b boot %s", pr->boot_before);
		rc = nb_journal_append(out, rec);
	}
	if (rc || !is_iscsi(c))
		return rc;
	/* a login without a crash: what the LUN reports to any new login */
	rc = nb_target_reconnect(c->t);
	if (rc)
		return rc;
	pr->ua_checked = 1;
	snprintf(pr->ua_control, sizeof(pr->ua_control), "%s", c->t->login_ua);
	snprintf(rec, sizeof(rec), "b ua %s", pr->ua_control[0] ? pr->ua_control : "none");
	return nb_journal_append(out, rec);
}

/* The NFS server's write verifier now: a COMMIT of the data file. */
static uint64_t verifier_now(struct nb_wl_ctx *c)
{
	struct nb_file *f = NULL;
	uint64_t v = 0;

	if (strcmp(c->t->ops->name, "nfs") ||
	    c->t->ops->fopen(c->t, NB_CRASH_FILE, NB_F_READ | NB_F_WRITE, &f))
		goto out;
	if (!c->t->ops->flush(f))
		v = c->t->verf;
	c->t->ops->fclose(f);
out:
	nb_err_clear();
	return v;
}

/* Append ", TEXT" (or "TEXT" first) to PR->how. */
static void say(struct nb_crash_proof *pr, const char *fmt, const char *a,
		const char *b)
{
	size_t n = strlen(pr->how);

	if (n + 3 >= sizeof(pr->how))
		return;
	if (n)
		n += (size_t)snprintf(pr->how + n, sizeof(pr->how) - n, "; ");
	snprintf(pr->how + n, sizeof(pr->how) - n, fmt, a, b);
}

static void judge_boot(struct nb_crash_proof *pr)
{
	if (!pr->boot_before[0] || !pr->boot_after[0]) {
		say(pr, "no boot id: %s%s", pr->boot_why[0] ? pr->boot_why :
		    "the box did not answer after the crash", "");
		return;
	}
	if (!strcmp(pr->boot_before, pr->boot_after)) {
		say(pr, "boot id unchanged (%s)%s", pr->boot_after, "");
		return;
	}
	pr->observed = 1;
	say(pr, "the box's boot id changed (%s -> %s)", pr->boot_before,
	    pr->boot_after);
}

static void judge_verf(struct nb_crash_proof *pr)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%016" PRIx64, pr->verf_before);
	snprintf(b, sizeof(b), "%016" PRIx64, pr->verf_after);
	if (!pr->verf_before || !pr->verf_after)
		say(pr, "no NFS write verifier %s%s", pr->verf_before ?
		    "after the crash" : "before the crash", "");
	else if (pr->verf_before == pr->verf_after)
		say(pr, "NFS write verifier unchanged (%s)%s", a, "");
	else {
		pr->observed = 1;
		say(pr, "the NFS server's write verifier changed (%s -> %s): it "
		    "restarted", a, b);
	}
}

static void judge_ua(struct nb_crash_proof *pr)
{
	if (!reset_ua(pr->ua_after) && pr->ua_after[0])
		say(pr, "no power-on or reset UNIT ATTENTION at the reconnect "
		    "(%s)%s", pr->ua_after, "");
	else if (!reset_ua(pr->ua_after))
		say(pr, "no UNIT ATTENTION at the reconnect%s%s", "", "");
	else if (pr->ua_checked && reset_ua(pr->ua_control))
		say(pr, "the LUN reports %s to every new login (a login before the "
		    "crash got it too): not evidence%s", pr->ua_control, "");
	else {
		pr->observed = 1;
		say(pr, "the LUN reported %s at the reconnect, a login before the "
		    "crash %s", pr->ua_after, pr->ua_control[0] ? pr->ua_control :
		    "none");
	}
}

void nb_crash_proof_after(struct nb_wl_ctx *c, struct nb_crash_proof *pr)
{
	pr->observed = 0;
	pr->how[0] = '\0';
	if (pr->boot_before[0] &&
	    nb_telem_boot_id(c->box, pr->boot_after, sizeof(pr->boot_after))) {
		snprintf(pr->boot_why, sizeof(pr->boot_why), "%s", pr->boot_after);
		pr->boot_after[0] = '\0';
	}
	judge_boot(pr);
	if (!strcmp(c->t->ops->name, "nfs")) {
		pr->verf_after = verifier_now(c);
		judge_verf(pr);
	}
	if (is_iscsi(c)) {
		snprintf(pr->ua_after, sizeof(pr->ua_after), "%s", c->t->login_ua);
		judge_ua(pr);
	}
}

json_t *nb_crash_proof_json(const struct nb_crash_proof *pr)
{
	json_t *o = json_pack("{s:b, s:s}", "observed", pr->observed, "how", pr->how);
	char v[32];

	if (pr->boot_before[0])
		json_object_set_new(o, "boot_id", json_pack("{s:o, s:o}", "before",
			nb_json_text(pr->boot_before), "after",
			nb_json_text(pr->boot_after)));
	if (pr->verf_before || pr->verf_after) {
		json_t *x = json_object();

		snprintf(v, sizeof(v), "%016" PRIx64, pr->verf_before);
		json_object_set_new(x, "before", json_string(v));
		snprintf(v, sizeof(v), "%016" PRIx64, pr->verf_after);
		json_object_set_new(x, "after", json_string(v));
		json_object_set_new(o, "nfs_verifier", x);
	}
	if (pr->ua_checked || pr->ua_after[0])
		json_object_set_new(o, "unit_attention", json_pack("{s:o, s:o}",
			"control", nb_json_text(pr->ua_control), "after",
			nb_json_text(pr->ua_after)));
	return o;
}
