#include "knobs.h"
#include "arrival.h"
#include "config.h"
#include "steady.h"
#include "err.h"
#include "growth.h"
#include "replay.h"
#include "suggest.h"
#include "sweep.h"
#include "sweep_open.h"
#include "telem.h"
#include "units.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Where a knob's value lives: its base struct, the field's offset and size
 * (a label lives nowhere). */
#define FIELD(b, type, f) .base = b, .off = offsetof(type, f), \
			  .len = sizeof(((type *)0)->f)
#define CFG(f) FIELD(NB_KB_CONFIG, struct nb_config, f)
#define PRM(f) FIELD(NB_KB_PARAMS, struct nb_params, f)
#define TGT(f) FIELD(NB_KB_TARGET, struct nb_target_cfg, f)
/* A [box] key that is a label of the result only (it lives nowhere). */
#define LABEL(n) .section = "box", .name = n, .type = NB_KT_LABEL

/* The monitor's URL: local, auto, off, or an ssh:// URL nasbench can use. */
static int monitor_check(const char *v)
{
	if (!strcmp(v, "auto") || !strcmp(v, "off") || !strcmp(v, "none"))
		return 0;
	return nb_telem_check(v);
}

const struct nb_knob nb_knobs[] = {
	{ LABEL("name"), .help = "name of the box under test" },
	{ LABEL("layout"),
	  .choices = "raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single",
	  .help = "pool or array layout" },
	{ LABEL("disks"), .help = "the disks, e.g. '5 x 3TB WD Red'" },
	{ LABEL("slog"), .help = "separate intent log: none, or what it is" },
	{ LABEL("sync"), .choices = "standard|always|disabled",
	  .help = "ZFS sync property of the dataset" },
	{ LABEL("platform"),
	  .choices = "bare|xen|esxi|vmware|kvm|hyperv|other|auto",
	  .help = "bare metal or hypervisor (auto: detected on this client)" },
	{ LABEL("media"), .choices = "hdd|ssd|nvme|mixed",
	  .help = "the pool's disks: rotational or not" },
	{ LABEL("disk"), .choices = "hdd|ssd|none",
	  .help = "disk profile of a simulated box (ci/lab --disk): the rate its "
	  "disks are throttled to, not what they are (that is media)" },
	{ LABEL("plp"), .choices = "yes|no",
	  .help = "power-loss-protected write cache (PLP SSD, NVRAM, BBU): sync "
	  "writes may be durable at async cost" },
	{ LABEL("compression"),
	  .help = "compression of the pool or share, e.g. off, lz4, lzjb, gzip-6" },
	{ LABEL("arc"), .help = "ZFS ARC (read cache) size, e.g. 64M" },
	{ .section = "box", .name = "ram", .type = NB_KT_SIZE, PRM(ram),
	  .help = "the box's memory (bonnie sizes its file at twice this)" },
	{ LABEL("cpu"), .help = "the box's processor" },
	{ LABEL("nic"), .help = "the box's network link, e.g. 1gbit" },
	{ LABEL("os"), .help = "the box's OS, e.g. FreeNAS 9.3" },
	{ LABEL("notes"), .help = "free text" },
	{ .section = "box", .name = "crash", .type = NB_KT_STR,
	  PRM(crash_cmd),
	  .help = "crashcheck: the command that crashes the box at the crash "
	  "point (a PDU or IPMI power-off, 'ci/lab crash'; run with sh -c, it "
	  "returns once the box is back); without it the run says 'pull the "
	  "plug now'",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "fail-disk", .type = NB_KT_STR,
	  CFG(failure.fail_cmd),
	  .help = "failure walk: the command that fails one disk of the pool "
	  "(sh -c; 'ci/lab fail-disk 2', a slot's power-off); runs only with "
	  "run --fail-disks (docs/failure.md)",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "replace-disk", .type = NB_KT_STR,
	  CFG(failure.replace_cmd),
	  .help = "failure walk: the command that brings in the failed disk's "
	  "replacement and so starts the rebuild (sh -c; 'ci/lab replace-disk "
	  "2', 'zpool replace tank da3 da7')",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "history", .type = NB_KT_BOOL, CFG(history),
	  .help = "record every run in the results history ($NASBENCH_DB, else "
	  "~/.local/share/nasbench/history.db; as run --history)",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "monitor", .type = NB_KT_STR,
	  CFG(monitor.url), .def = "auto", .check = monitor_check,
	  .help = "what the box did during the run (docs/telemetry.md): local "
	  "(this machine is the box), ssh://[user@]host[:port] (OpenSSH, keys "
	  "or an agent only), auto (local for a local path target, else "
	  "none) or off",
	  .opt = "monitor", .metavar = "WHERE", .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "monitor-interval", .type = NB_KT_DURATION,
	  CFG(monitor.interval_us), .min = 100000, .max = 60000000, .def = "1s",
	  .help = "the box's telemetry: time between samples",
	  .opt = "monitor-interval", .metavar = "TIME", .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "monitor-identity", .type = NB_KT_STR,
	  CFG(monitor.identity),
	  .help = "ssh monitor: the private key file (else the agent's and "
	  "ssh's own)",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "monitor-known-hosts", .type = NB_KT_STR,
	  CFG(monitor.known_hosts),
	  .help = "ssh monitor: the known_hosts file that holds the box's host "
	  "key (else ssh's own)",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "netbase", .type = NB_KT_CHOICE,
	  CFG(monitor.netbase), .choices = "auto|yes|no", .def = "auto",
	  .help = "network baseline before an NFS or iSCSI target's workloads: "
	  "round trips and the ceiling of re-reading a region from the box's "
	  "RAM (auto: when a monitor is set)",
	  .opt = "netbase", .metavar = "auto|yes|no", .flags = NB_KF_NOLABEL,
	},

	{ .section = "target", .name = "url", .type = NB_KT_URL, TGT(url),
	  .help = "path, file:///path, nfs://host/export/dir or iscsi://host/iqn/lun" },
	{ .section = "target", .name = "timeout", .type = NB_KT_DURATION,
	  TGT(timeout_us), .min = 1000, .max = 3600000000ULL, .def = "10s",
	  .help = "give up on an unanswered request after this long",
	  .opt = "timeout", .metavar = "TIME" },
	{ .section = "target", .name = "destroy-data", .type = NB_KT_BOOL,
	  TGT(destroy_data),
	  .help = "allow writing over a LUN or device that holds data",
	  .opt = "destroy-data", .flags = NB_KF_NOARG },
	{ .section = "target", .name = "keep", .type = NB_KT_BOOL, TGT(keep),
	  .help = "keep the scratch directory nasbench.<run-id>/ afterwards",
	  .opt = "keep", .flags = NB_KF_NOARG },
	{ .section = "target", .name = "offset", .type = NB_KT_SIZE,
	  TGT(offset),
	  .help = "block targets: start of the window used",
	},
	{ .section = "target", .name = "size", .type = NB_KT_SIZE,
	  TGT(size),
	  .help = "block targets: length of the window used",
	},
	{ .section = "target", .name = "span", .type = NB_KT_SPAN,
	  TGT(span),
	  .help = "use only the first part of a device, LUN or file: a "
	  "percentage or a size (over-provisioning: 80% leaves a fifth "
	  "unwritten; docs/steady-state.md)",
	  .opt = "span", .metavar = "PCT|SIZE",
	},
	{ .section = "target", .name = "engine", .type = NB_KT_STR,
	  TGT(engine),
	  .choices = "native|fio",
	  .help = "who does the I/O: nasbench itself (native) or fio",
	  .opt = "engine", .metavar = "E" },
	{ .section = "target", .name = "ioengine", .type = NB_KT_STR,
	  TGT(ioengine), .choices = "io_uring|libaio|psync",
	  .help = "fio's ioengine when engine = fio", .opt = "ioengine",
	  .metavar = "E" },

	{ .section = "suite", .name = "workloads", .type = NB_KT_STR,
	  CFG(suite.workloads),
	  .help = "comma-separated workloads (see 'nasbench list')" },
	{ .section = "suite", .name = "suite", .type = NB_KT_STR,
	  CFG(suite.suite),
	  .help = "a named suite (see 'nasbench list suites')", .opt = "suite",
	  .short_opt = 's', .metavar = "NAME" },
	{ .section = "suite", .name = "iterations", .type = NB_KT_UINT,
	  CFG(suite.iterations), .min = 1, .max = 1000, .def = "3",
	  .help = "repetitions of each workload", .opt = "iterations",
	  .short_opt = 'i', .metavar = "N" },
	{ .section = "suite", .name = "size", .type = NB_KT_SIZE, PRM(size),
	  .min = 4096,
	  .help = "bytes of the data file or LUN window per workload (default 1G); "
	  "auto: twice the box's RAM ([box] ram or --label ram=SIZE), so "
	  "reads cannot come from its cache", .opt = "size", .metavar = "SIZE",
	  .flags = NB_KF_AUTO },
	{ .section = "suite", .name = "runtime", .type = NB_KT_DURATION,
	  PRM(runtime_us), .min = 1000,
	  .help = "run each iteration this long instead of once over the size",
	  .opt = "runtime", .metavar = "TIME" },
	{ .section = "suite", .name = "iodepth", .type = NB_KT_UINT32,
	  PRM(iodepth), .min = 1, .max = NB_MAX_QD,
	  .help = "I/Os in flight (default: the workload's)", .opt = "iodepth",
	  .metavar = "N" },
	{ .section = "suite", .name = "bs", .type = NB_KT_SIZE32, PRM(bs),
	  .min = 512, .max = 64 << 20,
	  .help = "bytes per I/O (default: the workload's)", .opt = "bs",
	  .metavar = "SIZE" },
	{ .section = "suite", .name = "direct", .type = NB_KT_BOOL, PRM(direct),
	  .help = "bypass the client's page cache (default yes)",
	  .opt = "direct", .metavar = "yes|no" },
	{ .section = "suite", .name = "sync", .type = NB_KT_CHOICE, PRM(sync),
	  .choices = "none|end|always",
	  .help = "write durability: none, one flush at the end, or every write",
	  .opt = "sync", .metavar = "MODE" },
	{ .section = "suite", .name = "verify", .type = NB_KT_BOOL, PRM(verify),
	  .help = "read written data back and check every block" },
	{ .section = "suite", .name = "preset", .type = NB_KT_UINT, PRM(preset),
	  .max = 9, .help = "xz preset (default 6)" },
	{ .section = "suite", .name = "files", .type = NB_KT_UINT, PRM(files),
	  .min = 1, .max = 10000000,
	  .help = "bonnie: files to create, stat and delete (default 16384)" },
	{ .section = "suite", .name = "fast", .type = NB_KT_BOOL, PRM(fast),
	  .help = "bonnie: skip the per-character phases, like bonnie++ -f (default no)" },
	{ .section = "suite", .name = "cross-check", .type = NB_KT_BOOL,
	  PRM(cross_check),
	  .help = "run I/O workloads with nasbench and fio, flag >10% differences",
	  .opt = "cross-check", .flags = NB_KF_NOARG,
	},

	/* the load sweep and its objective (docs/capacity.md) */
	{ .section = "capacity", .name = "sweep", .type = NB_KT_BOOL,
	  PRM(sweep),
	  .help = "run each I/O workload as a load sweep: outstanding I/O 1, 2, "
	  "4 ... 256 (or the steps), capacity at the objective, knee, saturation",
	  .opt = "sweep", .flags = NB_KF_NOARG,
	},
	{ .section = "capacity", .name = "steps", .type = NB_KT_STR,
	  PRM(steps), .def = "auto", .check = nb_sweep_steps_check,
	  .help = "the closed sweep's steps of outstanding I/O: a list 1,2,4,8 "
	  "or a doubling range 4..64 (auto: 1, 2, 4 ... 256); sets sweep, and "
	  "loop = closed unless --loop says otherwise",
	  .opt = "steps", .metavar = "LIST",
	},
	{ .section = "capacity", .name = "rates", .type = NB_KT_STR,
	  PRM(rates), .def = "auto", .check = nb_osweep_rates_check,
	  .help = "the open sweep's offered rates: auto (a short closed-loop "
	  "probe for the maximum, then a bisection to the objective), I/Os per "
	  "second 200,400,600 or shares of the maximum 25%,50%,90%; sets sweep",
	  .opt = "rates", .metavar = "LIST",
	},
	{ .section = "capacity", .name = "slo", .type = NB_KT_STR,
	  PRM(slo), .def = "p99=20ms", .check = nb_slo_check,
	  .help = "the latency objective: p99=20ms, p99.9=50ms, mean=5ms, p50=, "
	  "p90=, several joined by commas",
	  .opt = "slo", .metavar = "OBJ",
	},
	{ .section = "capacity", .name = "step-time", .type = NB_KT_DURATION,
	  PRM(step_us), .min = 100000, .max = 3600000000ULL, .def = "10s",
	  .help = "how long each step of a sweep runs",
	  .opt = "step-time", .metavar = "TIME",
	},
	{ .section = "capacity", .name = "sweep-time", .type = NB_KT_DURATION,
	  PRM(sweep_us), .min = 1000000,
	  .help = "start no step after the sweep has run this long (default: "
	  "no limit)",
	  .opt = "sweep-time", .metavar = "TIME",
	},

	{ .section = "capacity", .name = "loop", .type = NB_KT_CHOICE,
	  PRM(loop), .choices = "open|closed|both", .def = "open",
	  .help = "the sweep's load: open (offered rates on a schedule, each "
	  "I/O timed from when it was due: what independent VMs make), closed "
	  "(steps of outstanding I/O), or both side by side",
	  .opt = "loop", .metavar = "WHICH",
	},
	{ .section = "suite", .name = "rate", .type = NB_KT_STR, PRM(rate),
	  .check = nb_load_rate_check,
	  .help = "open loop: issue the I/O workloads' I/Os on a schedule at "
	  "this rate, I/Os per second (500) or a throughput (20MB/s), each "
	  "timed from when it was due, for step-time unless a runtime is given "
	  "(docs/capacity.md); without it the loop is closed (iodepth I/Os "
	  "kept in flight)",
	  .opt = "rate", .metavar = "RATE",
	},
	{ .section = "suite", .name = "arrival", .type = NB_KT_CHOICE,
	  PRM(arrival), .choices = "poisson|uniform|onoff", .def = "poisson",
	  .help = "open loop: the arrival process: poisson (independent "
	  "users), uniform (one I/O every 1/rate), onoff (bursts and pauses, "
	  "[suite] burst)",
	  .opt = "arrival", .metavar = "PROCESS",
	},
	{ .section = "suite", .name = "burst", .type = NB_KT_STR, PRM(burst),
	  .def = "100ms/400ms", .check = nb_burst_check,
	  .help = "arrival onoff: the mean burst and pause lengths, ON/OFF (the "
	  "rate inside a burst is rate x (ON + OFF) / ON)",
	  .opt = "burst", .metavar = "ON/OFF",
	},

	/* the VM profile: what one VM does (docs/capacity.md) */
	{ .section = "vm", .name = "count", .type = NB_KT_UINT,
	  PRM(vm_count), .min = 1, .max = 100000,
	  .help = "run the vm workload as a population of this many VMs, each "
	  "its own open-loop source at [vm] iops over its own region of the "
	  "data set",
	  .opt = "vms", .metavar = "N",
	},
	{ .section = "vm", .name = "bs", .type = NB_KT_SIZE32,
	  PRM(vm_bs), .min = 512, .max = 64 << 20, .def = "8K",
	  .help = "block size of a VM's I/O",
	  .opt = "vm-bs", .metavar = "SIZE",
	},
	{ .section = "vm", .name = "read", .type = NB_KT_UINT,
	  PRM(vm_read), .max = 100, .def = "70",
	  .help = "% of a VM's I/Os that read",
	  .opt = "vm-read", .metavar = "PCT",
	},
	{ .section = "vm", .name = "random", .type = NB_KT_UINT,
	  PRM(vm_random), .max = 100, .def = "80",
	  .help = "% of a VM's I/Os at a random offset (the others follow the "
	  "one before)",
	  .opt = "vm-random", .metavar = "PCT",
	},
	{ .section = "vm", .name = "iops", .type = NB_KT_UINT,
	  PRM(vm_iops), .min = 1, .max = 100000000, .def = "50",
	  .help = "IOPS one VM does: capacity in VMs is capacity IOPS / this",
	  .opt = "vm-iops", .metavar = "N",
	},
	{ .section = "vm", .name = "sync", .type = NB_KT_BOOL,
	  PRM(vm_sync), .def = "no",
	  .help = "every write of a VM durable, as an ESXi VM on an NFS "
	  "datastore writes",
	  .opt = "vm-sync", .metavar = "yes|no",
	},
	{ .section = "suite", .name = "steady-state", .type = NB_KT_STEADY,
	  PRM(steady),
	  .help = "run each I/O workload once, in rounds, until the last rounds "
	  "agree: snia (SNIA PTS: range 20%, slope 10%), bw:P%, iops:P%, "
	  "bw_slope:P% or iops_slope:P% (docs/steady-state.md)",
	  .opt = "steady-state", .metavar = "CRIT",
	},
	{ .section = "suite", .name = "round", .type = NB_KT_DURATION,
	  PRM(round_us), .min = 100000, .def = "60s",
	  .help = "steady state: the length of a round",
	  .opt = "round", .metavar = "TIME",
	},
	{ .section = "suite", .name = "steady-window", .type = NB_KT_UINT32,
	  PRM(steady_window), .min = 2, .max = 1000, .def = "5",
	  .help = "steady state: rounds judged together",
	  .opt = "steady-window", .metavar = "N",
	},
	{ .section = "suite", .name = "steady-rounds", .type = NB_KT_UINT32,
	  PRM(steady_rounds), .min = 2, .max = 100000, .def = "25",
	  .help = "steady state: the round limit, after which the last window "
	  "is reported, not steady",
	  .opt = "steady-rounds", .metavar = "N",
	},
	{ .section = "suite", .name = "steady-limit", .type = NB_KT_DURATION,
	  PRM(steady_max_us), .min = 1000000,
	  .help = "steady state: stop the rounds after this long (default: "
	  "only the round limit)",
	  .opt = "steady-limit", .metavar = "TIME",
	},
	{ .section = "suite", .name = "precondition", .type = NB_KT_BOOL,
	  PRM(precondition),
	  .help = "before the first workload, write the span of a device, LUN "
	  "or file sequentially with incompressible data (--precondition-passes "
	  "times), or fill a share of a directory's free space",
	  .opt = "precondition", .flags = NB_KF_NOARG,
	},
	{ .section = "suite", .name = "precondition-passes", .type = NB_KT_UINT32,
	  PRM(precondition_passes), .min = 1, .max = 100, .def = "2",
	  .help = "sequential preconditioning passes over the span",
	  .opt = "precondition-passes", .metavar = "N",
	},
	{ .section = "suite", .name = "precondition-fill", .type = NB_KT_UINT32,
	  PRM(fill_pct), .min = 1, .max = 95, .def = "50",
	  .help = "directory targets: % of the free space preconditioning fills",
	  .opt = "precondition-fill", .metavar = "PCT",
	},
	{ .section = "suite", .name = "trim", .type = NB_KT_CHOICE,
	  PRM(trim),
	  .choices = "no|before|each",
	  .help = "discard the span (BLKDISCARD, hole punch, SCSI UNMAP) before "
	  "the first workload of a target, or before each",
	  .opt = "trim", .metavar = "WHEN",
	},
	{ .section = "suite", .name = "trim-optional", .type = NB_KT_BOOL,
	  PRM(trim_optional),
	  .help = "a target that refuses the discard: a warning, and the run "
	  "goes on",
	  .opt = "trim-optional", .flags = NB_KF_NOARG,
	},
	{ .section = "suite", .name = "crash-writes", .type = NB_KT_UINT,
	  PRM(crash_writes), .min = 1, .def = "1000",
	  .help = "crashcheck: crash after this many acknowledged writes",
	  .opt = "crash-writes", .metavar = "N",
	},
	{ .section = "suite", .name = "crash-time", .type = NB_KT_DURATION,
	  PRM(crash_time_us), .min = 1000,
	  .help = "crashcheck: crash this long after the first write (with "
	  "crash-writes: whichever comes first)",
	  .opt = "crash-time", .metavar = "TIME",
	},
	/* the failure walk (docs/failure.md) */
	{ .section = "failure", .name = "rebuild", .type = NB_KT_STR,
	  PRM(rebuild), .choices = "load|idle|both",
	  .help = "walk the box through a failed disk: healthy, degraded, "
	  "rebuilding, rebuilt, the workloads measured in each; the rebuild "
	  "under the workloads' load, idle (timed, no rebuilding figures), or "
	  "both (the disk failed again and the rebuild timed idle); needs "
	  "--fail-disks",
	  .opt = "rebuild", .metavar = "WHEN",
	},
	{ .section = "failure", .name = "fail-disks", .type = NB_KT_BOOL,
	  CFG(failure.consent),
	  .help = "consent: the run may fail a disk of the box with [box] "
	  "fail-disk (its redundancy is gone until the rebuild ends)",
	  .opt = "fail-disks", .flags = NB_KF_NOARG | NB_KF_CMDLINE,
	},
	{ .section = "failure", .name = "pool", .type = NB_KT_STR,
	  CFG(failure.pool),
	  .help = "the pool or md array whose disk fails (default: the box's "
	  "only one)",
	  .opt = "fail-pool", .metavar = "NAME",
	},
	{ .section = "failure", .name = "rebuild-limit", .type = NB_KT_DURATION,
	  CFG(failure.limit_us), .min = 1000000, .def = "24h",
	  .help = "give up waiting for a rebuild after this long (the box is "
	  "left rebuilding, exit 3)",
	  .opt = "rebuild-limit", .metavar = "TIME",
	},
	{ .section = "failure", .name = "records", .type = NB_KT_SIZE,
	  CFG(failure.records), .min = 4096, .def = "64M",
	  .help = "checked records written to each target before the disk "
	  "fails, read back degraded and after the rebuild",
	  .opt = "records", .metavar = "SIZE",
	},
	/* a captured load replayed on this box (docs/replay.md) */
	{ .section = "replay", .name = "load", .type = NB_KT_STR,
	  PRM(replay_load),
	  .help = "the replay workload's load file ('nasbench capture' wrote "
	  "it, or you did): its VMs offered to the box as open-loop sources, "
	  "scaled until the objective ([capacity] slo) breaks",
	  .opt = "load", .metavar = "FILE",
	},
	{ .section = "replay", .name = "scale", .type = NB_KT_STR,
	  PRM(replay_scale), .def = "auto", .check = nb_replay_scales_check,
	  .help = "the replay's scales of the captured load: auto (today's load, "
	  "then a bisection to where the objective breaks) or rising multiples "
	  "1,1.25,1.5,2",
	  .opt = "scale", .metavar = "LIST",
	},
	{ .section = "replay", .name = "growth", .type = NB_KT_STR,
	  PRM(replay_growth), .check = nb_growth_check,
	  .help = "the load's growth, for the years the replay's headroom holds: "
	  "25%/year, or VMs a year 4vms/year (default: the load file's "
	  "[population] growth)",
	  .opt = "growth", .metavar = "RATE",
	},
	{ .section = "replay", .name = "peak", .type = NB_KT_BOOL,
	  PRM(replay_peak), .def = "yes",
	  .help = "replay also the capture's busiest bucket as it was, each VM "
	  "at its rate of that minute",
	  .opt = "peak", .metavar = "yes|no",
	},
	{ NULL },
};

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

/* "80%" or "200G": 0, or -EINVAL with what it accepts. */
static int parse_span(struct nb_span *sp, const char *v)
{
	size_t n = strlen(v);
	char *end;

	memset(sp, 0, sizeof(*sp));
	if (n && v[n - 1] == '%') {
		sp->pct = strtod(v, &end);
		if (end == v + n - 1 && sp->pct > 0 && sp->pct <= 100)
			return 0;
	} else if (!nb_parse_size(v, &sp->bytes) && sp->bytes) {
		return 0;
	}
	nb_err_clear();
	memset(sp, 0, sizeof(*sp));
	return nb_err(-EINVAL, "'%s' is not a span: it accepts a percentage "
		      "in (0, 100] or a size (80%%, 200G)", v);
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
		if (k->check && k->check(v))
			return -EINVAL;
		snprintf(field, k->len, "%s", v);
		return 0;
	case NB_KT_BOOL:
		if (nb_parse_bool(v, &b))
			return -EINVAL;
		*(int *)field = b;
		return 0;
	case NB_KT_STEADY:
		return nb_steady_parse(v, field);
	case NB_KT_SPAN:
		return parse_span(field, v);
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
		if (k->type == NB_KT_STEADY) {
			if (!((struct nb_steady_crit *)mine)->kind)
				memcpy(mine, theirs, k->len);
		} else if (k->type == NB_KT_STR) {
			if (!*mine)
				snprintf(mine, k->len, "%s", theirs);
		} else if (k->len == sizeof(int) && k->type != NB_KT_UINT32 &&
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

uint64_t nb_knob_default(const char *section, const char *name)
{
	const struct nb_knob *k = nb_knob_find(section, name);
	uint64_t n = 0;

	if (!k || !k->def)
		return 0;
	switch (k->type) {
	case NB_KT_SIZE:
	case NB_KT_SIZE32:
		nb_parse_size(k->def, &n);
		break;
	case NB_KT_DURATION:
		nb_parse_duration_us(k->def, &n);
		break;
	case NB_KT_CHOICE:
		return (uint64_t)choice_index(k->choices, k->def);
	default:
		nb_parse_uint(k->def, 0, UINT64_MAX, &n);
		break;
	}
	return n;
}

const char *nb_knob_help(const struct nb_knob *k, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s", k->help,
		 k->def ? " (default " : "", k->def ? k->def : "",
		 k->def ? ")" : "", k->choices ? " (" : "",
		 k->choices ? k->choices : "", k->choices ? ")" : "");
	return buf;
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
		char help[512];

		fprintf(out, "  %-14s %s\n", k->name,
			nb_knob_help(k, help, sizeof(help)));
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
		nb_usage_line(out, k->short_opt, k->opt,
			      (k->flags & NB_KF_NOARG) ? NULL : k->metavar,
			      nb_knob_help(k, help, sizeof(help)));
	}
}
