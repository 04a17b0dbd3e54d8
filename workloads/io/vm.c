/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm.c - the VM profile's workload: the mixed I/O one VM does ([vm]:
 *        block size, read %, random %, durable writes or not) and, swept
 *        (--sweep, suite capacity), the box's capacity in such VMs.
 *
 * The default profile is the [vm] rows' defaults (below; docs/
 * capacity.md says why).  An ESXi VM on an NFS datastore writes
 * synchronously: sync = yes.
 */
#include "../workload.h"
#include "io_sweep.h"
#include "openload.h"
#include "../../core/err.h"
#include "../../core/knobs.h"
#include "../../core/units.h"

#include <errno.h>
#include <string.h>

/* The profile P gives, its defaults filled in. */
struct vm_profile {
	uint32_t bs;
	int read, random, sync;
	uint64_t iops;
};

/* The default of [vm] NAME, as its row says. */
static uint64_t def(const char *name)
{
	return nb_knob_default("vm", name);
}

static void vm_profile(const struct nb_params *p, struct vm_profile *v)
{
	const struct nb_knob *k = nb_knob_find("vm", "sync");
	int sync = 0;

	if (k->def)
		nb_parse_bool(k->def, &sync);
	v->bs = p->vm_bs ? p->vm_bs : (p->bs ? p->bs : (uint32_t)def("bs"));
	v->read = p->vm_read >= 0 ? p->vm_read : (int)def("read");
	v->random = p->vm_random >= 0 ? p->vm_random : (int)def("random");
	v->sync = p->vm_sync >= 0 ? p->vm_sync : sync;
	v->iops = p->vm_iops ? p->vm_iops : def("iops");
}

/* The I/O spec the profile implies, over the resolved DEFAULT spec. */
static void vm_spec(const struct vm_profile *v, struct nb_iospec *s)
{
	s->bs = v->bs;
	s->rw = v->read >= 100 ? NB_RW_READ : v->read <= 0 ? NB_RW_WRITE :
		NB_RW_MIX;
	s->read_pct = v->read;
	s->pattern = v->random > 0 ? NB_PAT_RAND : NB_PAT_SEQ;
	s->rand_pct = v->random > 0 && v->random < 100 ? v->random : 0;
	s->sync = v->sync ? NB_SYNC_ALWAYS : NB_SYNC_END;
	s->size -= s->size % s->bs;
}

/* What the profile does not set; vm_spec() puts the profile over it. */
static const struct nb_iospec vm_default = {
	.pattern = NB_PAT_RAND, .rw = NB_RW_MIX, .read_pct = 50, .bs = 4096,
	.qd = 32, .direct = 1, .sync = NB_SYNC_END,
};

/* --vms N: N VMs, each its own open-loop source at the profile's rate
 * over its own slice of the data set. */
static void vm_population(struct nb_iospec *s, const struct nb_params *p,
			  const struct vm_profile *v)
{
	s->rate = (double)p->vm_count * (double)v->iops;
	s->sources = (uint32_t)p->vm_count;
	if (!p->iodepth)
		s->qd = NB_MAX_QD;
	if (!p->runtime_us)
		s->runtime_us = nb_wl_step_us(p);
}

static int vm_run(struct nb_wl_ctx *c)
{
	struct vm_profile v;
	struct nb_iospec s;
	json_t *vj;
	int rc;

	vm_profile(c->p, &v);
	nb_iospec_resolve(&vm_default, c->p, c->t, &s);
	nb_wl_capacity_size(c, &s);
	vm_spec(&v, &s);
	if (s.size < s.bs)
		return nb_err(-EINVAL, "target '%s': the size is below the VM "
			      "profile's block size %u", c->t->cfg->name, s.bs);
	s.seed = c->seed;
	if (!nb_wl_sweep_wanted(c->p)) {
		nb_iospec_load(&s, c->p);
		if (c->p->vm_count)
			vm_population(&s, c->p, &v);
	} else {
		nb_iospec_arrivals(&s, c->p);
	}
	vj = json_pack("{s:i, s:i, s:i, s:I, s:b}", "bs", (int)v.bs, "read_pct",
		       v.read, "random_pct", v.random, "iops", (json_int_t)v.iops,
		       "sync", v.sync);
	if (c->iteration == 1) {
		c->spec = nb_iospec_json(&s);
		nb_open_spec_json(c->spec, &s);
		json_object_set_new(c->spec, "rand_pct", json_integer(v.random));
		json_object_set(c->spec, "vm", vj);
	}
	rc = nb_wl_io_spec_run(c, &s, vj, (double)v.iops);
	json_decref(vj);
	return rc;
}

static uint64_t vm_plan_bytes(const struct nb_workload *w,
			      const struct nb_params *p)
{
	(void)w;
	return p->size ? p->size : nb_wl_capacity_bytes(p,
							 nb_knob_default("suite", "size"));
}

const struct nb_workload nb_wl_vm = {
	.name = "vm",
	.help = "the VM profile's mixed I/O ([vm]: 8 KiB, 70% reads, 80% random "
		"by default); with --sweep: capacity in VMs",
	.io = &vm_default,
	.run = vm_run,
	.plan_bytes = vm_plan_bytes,
};

/* the VM profile's rows: [vm] (core/knobs.h). */
const struct nb_knob nb_wl_vm_knobs[] = {
	{ NB_SECTION("vm") },
	{ .section = "vm", .name = "count", .type = NB_KT_UINT,
	  NB_PRM(vm_count), .unset = "", .min = 1, .max = 100000,
	  .help = "run the vm workload as a population of this many VMs, each "
	  "its own open-loop source at [vm] iops over its own region of the "
	  "data set",
	  .opt = "vms", .metavar = "N",
	},
	{ .section = "vm", .name = "bs", .type = NB_KT_SIZE32,
	  NB_PRM(vm_bs), .min = 512, .max = 64 << 20, .def = "8K",
	  .help = "block size of a VM's I/O",
	  .opt = "vm-bs", .metavar = "SIZE",
	},
	{ .section = "vm", .name = "read", .type = NB_KT_UINT,
	  NB_PRM(vm_read), .max = 100, .def = "70",
	  .help = "% of a VM's I/Os that read",
	  .opt = "vm-read", .metavar = "PCT",
	},
	{ .section = "vm", .name = "random", .type = NB_KT_UINT,
	  NB_PRM(vm_random), .max = 100, .def = "80",
	  .help = "% of a VM's I/Os at a random offset (the others follow the "
	  "one before)",
	  .opt = "vm-random", .metavar = "PCT",
	},
	{ .section = "vm", .name = "iops", .type = NB_KT_UINT,
	  NB_PRM(vm_iops), .min = 1, .max = 100000000, .def = "50",
	  .help = "IOPS one VM does: capacity in VMs is capacity IOPS / this",
	  .opt = "vm-iops", .metavar = "N",
	},
	{ .section = "vm", .name = "sync", .type = NB_KT_BOOL,
	  NB_PRM(vm_sync), .def = "no",
	  .help = "every write of a VM durable, as an ESXi VM on an NFS "
	  "datastore writes",
	  .opt = "vm-sync", .metavar = "yes|no",
	},
	{ NULL },
};
