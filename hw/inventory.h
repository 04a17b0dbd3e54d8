/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inventory.h - what a result was measured on: CPU, memory, disks, NICs,
 * OS and virtualization, read from /proc and /sys without root.
 *
 * The inventory is a JSON object (nasbench hw --json prints it, every run
 * embeds the client's as "client" and the box's as "box"):
 *
 *   { "kind": "nasbench-hw", "schema": 1, "source": "detected",
 *     "hostname": "nas",
 *     "cpu": { "model": "AMD EPYC", "vendor": "AuthenticAMD",
 *              "sockets": 1, "cores": 2, "threads": 2 },
 *     "memory": { "total_bytes": 25276502016, "swap_bytes": 0 },
 *     "disks": [ { "name": "sda", "model": "WDC WD30EFRX-68E", "vendor": "ATA",
 *                  "size_bytes": 3000592982016, "rotational": true,
 *                  "scheduler": "mq-deadline", "logical_block_size": 512,
 *                  "physical_block_size": 4096, "discard": false,
 *                  "write_cache": "write back", "removable": false } ],
 *     "arrays": [ { "name": "md0", "level": "raid6", "raid_disks": 6,
 *                   "members": ["sda1", ...], "size_bytes": ... } ],
 *     "nics": [ { "name": "eth0", "driver": "e1000e", "speed_mbit": 1000,
 *                 "duplex": "full", "mtu": 1500, "state": "up",
 *                 "virtual": false } ],
 *     "os": { "name": "Debian GNU/Linux 12 (bookworm)", "type": "Linux",
 *             "kernel": "6.1.0-26-amd64", "arch": "x86_64" },
 *     "virtualization": { "virtual": true, "hypervisor": "kvm",
 *                         "platform": "kvm", "xen_role": null,
 *                         "evidence": { "cpuid_hypervisor_bit": true,
 *                                       "cpuid_vendor": "KVMKVMKVM", ... } } }
 *
 * Whatever cannot be read, or reads as something odd, is JSON null
 * ("unknown"): never a guess.  Disks are block devices backed by a device
 * (loop, zram, dm and md are not disks; md arrays are listed apart);
 * NICs are every interface but loopback, virtual ones marked.
 */
#ifndef NB_HW_INVENTORY_H
#define NB_HW_INVENTORY_H

#include <jansson.h>
#include <stdio.h>

#define NB_HW_KIND "nasbench-hw"
#define NB_HW_SCHEMA 1

/* The inventory of this machine (ROOT NULL or "/"), or of the fake tree
 * under ROOT (directories proc/, sys/, etc/ laid out as on Linux): unit
 * tests use it to feed odd and missing entries.  A fake tree is read from
 * files only: cpuid and uname(2) describe the real machine and are not
 * consulted.  Never fails (out of memory aside: NULL). */
json_t *nb_hw_inventory(const char *root);

/* Evidence of virtualization, as read; NULL / -1 where unknown. */
struct nb_virt_evidence {
	int cpuid_bit;                 /* CPUID.1:ECX[31]; -1 not consulted */
	const char *cpuid_vendor;      /* leaf 0x40000000, e.g. "KVMKVMKVM" */
	const char *sys_hypervisor;    /* /sys/hypervisor/type */
	const char *xen_caps;          /* /proc/xen/capabilities */
	const char *dmi_sys_vendor;    /* /sys/class/dmi/id/... */
	const char *dmi_product;
	const char *dmi_board_vendor;
	const char *dmi_bios_vendor;
};

/* Decide from the evidence: the "virtualization" object above (new
 * reference).  Pure: unit tests hold every rule against it. */
json_t *nb_hw_virt_decide(const struct nb_virt_evidence *e);

/* The hypervisor a cpuid vendor string or DMI string names ("kvm", "xen",
 * "vmware", "hyperv", "qemu", "virtualbox", ...), or NULL. */
const char *nb_hw_hypervisor_cpuid(const char *vendor);
const char *nb_hw_hypervisor_dmi(const char *s);

/* The platform label (bare|xen|vmware|kvm|hyperv|other) of an inventory,
 * or NULL when it is unknown. */
const char *nb_hw_platform(const json_t *inv);

/* Load an inventory written by 'nasbench hw --json' (or take the "client"
 * of a nasbench result file made on the box).  0, or -errno/-EINVAL with
 * "'PATH': why" set. */
int nb_hw_load(const char *path, json_t **inv);

/* The box's inventory from the [box] labels of a config (cpu, ram, nic, os,
 * disks, media), as far as they say; NULL when they say nothing. */
struct nb_config;
json_t *nb_hw_from_labels(const struct nb_config *c);

/* Embed the inventories in a result: "client" (read here), "box" (BOX,
 * stolen; or this machine when every target is local; or the [box]
 * labels), and fill labels.platform when it is "auto" or missing.
 * Returns the platform label set, or NULL. */
const char *nb_hw_embed(json_t *doc, const struct nb_config *c, json_t *box);

/* The human listing of 'nasbench hw'. */
void nb_hw_print(FILE *out, const json_t *inv);

#endif
