/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * virt.c - bare metal or which hypervisor, from the evidence read by
 * inventory.c: cpuid (the hypervisor bit and leaf 0x40000000), Xen's
 * /sys/hypervisor and /proc/xen, and the DMI strings.  The rules follow
 * systemd-detect-virt's order: Xen's own files, then cpuid, then DMI.
 */
#include "inventory.h"

#include <string.h>
#include <strings.h>

static const struct {
	const char *vendor, *hv;
} cpuid_vendors[] = {
	{ "KVMKVMKVM", "kvm" },
	{ "Linux KVM Hv", "kvm" },     /* KVM with Hyper-V enlightenments */
	{ "XenVMMXenVMM", "xen" },
	{ "VMwareVMware", "vmware" },
	{ "Microsoft Hv", "hyperv" },
	{ "TCGTCGTCGTCG", "qemu" },
	{ "bhyve bhyve", "bhyve" },
	{ "lrpepyh  vr", "parallels" },
	{ "VBoxVBoxVBox", "virtualbox" },
	{ "ACRNACRNACRN", "acrn" },
	{ "QNXQVMBSQG", "qnx" },
};

/* DMI strings (sys_vendor, board_vendor, bios_vendor, product_name). */
static const struct {
	const char *prefix, *hv;
} dmi_vendors[] = {
	{ "KVM", "kvm" },
	{ "QEMU", "qemu" },
	{ "VMware", "vmware" },
	{ "VMW", "vmware" },
	{ "innotek GmbH", "virtualbox" },
	{ "VirtualBox", "virtualbox" },
	{ "Oracle Corporation", "virtualbox" },
	{ "Xen", "xen" },
	{ "Bochs", "bochs" },
	{ "Parallels", "parallels" },
	{ "BHYVE", "bhyve" },
	{ "Amazon EC2", "amazon" },
	{ "Google Compute Engine", "google" },
};

const char *nb_hw_hypervisor_cpuid(const char *vendor)
{
	char v[16];
	size_t n;

	if (!vendor)
		return NULL;
	/* compare without the padding ("bhyve bhyve ", " lrpepyh  vr") */
	while (*vendor == ' ')
		vendor++;
	snprintf(v, sizeof(v), "%s", vendor);
	n = strlen(v);
	while (n && v[n - 1] == ' ')
		v[--n] = '\0';
	for (size_t i = 0; i < sizeof(cpuid_vendors) / sizeof(cpuid_vendors[0]); i++)
		if (!strcmp(v, cpuid_vendors[i].vendor))
			return cpuid_vendors[i].hv;
	return NULL;
}

const char *nb_hw_hypervisor_dmi(const char *s)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < sizeof(dmi_vendors) / sizeof(dmi_vendors[0]); i++)
		if (!strncasecmp(s, dmi_vendors[i].prefix, strlen(dmi_vendors[i].prefix)))
			return dmi_vendors[i].hv;
	return NULL;
}

static const char *platform_of(const char *hv)
{
	static const char *const direct[] = { "kvm", "xen", "vmware", "hyperv" };

	for (size_t i = 0; i < 4; i++)
		if (!strcmp(hv, direct[i]))
			return direct[i];
	return "other";
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Hyper-V shows "Microsoft Corporation" as vendor of real Surface machines
 * too: only with product "Virtual Machine" is it a VM. */
static const char *dmi_decide(const struct nb_virt_evidence *e)
{
	const char *hv;

	if (e->dmi_sys_vendor && !strncasecmp(e->dmi_sys_vendor, "Microsoft", 9))
		return e->dmi_product && strstr(e->dmi_product, "Virtual Machine")
		       ? "hyperv" : NULL;
	if ((hv = nb_hw_hypervisor_dmi(e->dmi_sys_vendor)) ||
	    (hv = nb_hw_hypervisor_dmi(e->dmi_product)) ||
	    (hv = nb_hw_hypervisor_dmi(e->dmi_board_vendor)) ||
	    (hv = nb_hw_hypervisor_dmi(e->dmi_bios_vendor)))
		return hv;
	return NULL;
}

json_t *nb_hw_virt_decide(const struct nb_virt_evidence *e)
{
	const char *hv = NULL, *role = NULL;
	int virt = -1;                    /* -1 unknown */

	if (e->sys_hypervisor && !strcmp(e->sys_hypervisor, "xen")) {
		hv = "xen";
		/* dom0 runs under Xen too (its memory and CPUs are Xen's to
		 * give), so it counts as virtualized, with its role said */
		if (e->xen_caps)
			role = strstr(e->xen_caps, "control_d") ? "dom0" : "domU";
	} else if (e->cpuid_bit == 1) {
		hv = nb_hw_hypervisor_cpuid(e->cpuid_vendor);
		if (!hv)
			hv = dmi_decide(e);
		if (!hv)
			hv = "other";     /* the bit says so; the name is unknown */
	} else {
		/* no hypervisor bit (some hypervisors hide it), or cpuid not
		 * consulted (not x86, a fake tree): DMI may still name one */
		hv = dmi_decide(e);
	}
	if (hv)
		virt = 1;
	else if (e->cpuid_bit == 0)
		virt = 0;         /* x86 without the hypervisor bit: bare metal */
	return json_pack("{s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:o, s:o, s:o}}",
		"virtual", virt < 0 ? json_null() : json_boolean(virt),
		"hypervisor", jstr(hv),
		"platform", virt == 1 ? json_string(platform_of(hv))
			    : virt == 0 ? json_string("bare") : json_null(),
		"xen_role", jstr(role),
		"evidence",
		"cpuid_hypervisor_bit", e->cpuid_bit < 0 ? json_null()
					: json_boolean(e->cpuid_bit),
		"cpuid_vendor", jstr(e->cpuid_vendor),
		"sys_hypervisor_type", jstr(e->sys_hypervisor),
		"xen_capabilities", jstr(e->xen_caps),
		"dmi_sys_vendor", jstr(e->dmi_sys_vendor),
		"dmi_product_name", jstr(e->dmi_product));
}

const char *nb_hw_platform(const json_t *inv)
{
	return json_string_value(json_object_get(
		json_object_get(inv, "virtualization"), "platform"));
}
