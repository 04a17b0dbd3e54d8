/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conform.c - the conformance workload: one protocol's checks per
 * iteration (the protocols of conform_check.h), recorded as tests.
 */
#include "conform_check.h"
#include "../../core/err.h"

#include <errno.h>
#include <string.h>

static const struct nb_conform_proto *const protos[] = {
	&nb_conform_iscsi,
	&nb_conform_nfs,
};

static const struct nb_conform_proto *proto_of(const char *runner)
{
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (!strcmp(protos[i]->runner, runner))
			return protos[i];
	return NULL;
}

static int conform_run(struct nb_wl_ctx *c)
{
	struct nb_conform_tests ts = { .list = json_array() };
	const struct nb_conform_proto *p = proto_of(c->t->ops->name);
	json_t *conf;
	int rc;

	if (!p) {
		json_decref(ts.list);
		return nb_err(-ENOTSUP, "conform: no checks for runner '%s'",
			      c->t->ops->name);
	}
	conf = json_pack("{s:s}", "tool", p->tool);
	if (c->iteration == 1)
		c->spec = p->tests ? json_pack("{s:s, s:s}", "tool", p->tool,
					       "tests", p->tests)
				   : json_pack("{s:s}", "tool", p->tool);
	rc = p->run(c, &ts, conf);
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
	if (p->after)
		p->after(c);
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
