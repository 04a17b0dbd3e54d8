/*
 * conform.c - the conformance workload: one protocol's checks per
 * iteration (conform_iscsi.c, conform_nfs.c), recorded as tests (see
 * conform.h).
 */
#include "conform.h"
#include "../core/err.h"

#include <string.h>

void nb_conform_add(struct nb_conform_tests *ts, const char *name, int ok,
		    const char *msg)
{
	json_t *o = json_pack("{s:s, s:s}", "name", name, "status",
			      ok ? "pass" : "fail");

	if (msg && *msg)
		json_object_set_new(o, "message", json_string(msg));
	json_array_append_new(ts->list, o);
	if (ok)
		ts->passed++;
	else
		ts->failed++;
}

static int conform_run(struct nb_wl_ctx *c)
{
	struct nb_conform_tests ts = { .list = json_array() };
	int iscsi = !strcmp(c->t->ops->name, "iscsi");
	json_t *conf = json_pack("{s:s}", "tool", iscsi ? "iscsi-test-cu" : "nasbench-nfs");
	int rc;

	if (c->iteration == 1)
		c->spec = iscsi ? json_pack("{s:s, s:s}", "tool", "iscsi-test-cu",
					    "tests", nb_conform_iscsi_subset)
				: json_pack("{s:s}", "tool", "nasbench-nfs");
	rc = iscsi ? nb_conform_iscsi(c, &ts, conf) : nb_conform_nfs(c, &ts);
	if (rc) {
		json_decref(ts.list);
		json_decref(conf);
		return rc;
	}
	json_object_set_new(conf, "tests", ts.list);
	json_object_set_new(c->extra, "conformance", conf);
	nb_wl_metric(c, "conform_passed", ts.passed);
	nb_wl_metric(c, "conform_failed", ts.failed);
	if (ts.failed)
		nb_wl_warn(c, "iteration %d: %d of %d conformance tests failed",
			   c->iteration, ts.failed, ts.passed + ts.failed);
	/* it wrote all over the LUN; a LUN that refuses writes keeps it */
	if (iscsi && nb_conform_leave_fresh(c))
		nb_wl_warn(c, "could not zero the start of the LUN after the "
			   "conformance tests: %s", nb_err_last());
	return 0;
}

const struct nb_workload nb_wl_conform = {
	.name = "conform",
	.help = "protocol conformance: iscsi-test-cu's read/write/verify, "
		"write-same, unmap and inquiry tests; NFS datastore semantics",
	.accept = "conform_failed = 0",
	.runners = "nfs,iscsi",
	.run = conform_run,
};
