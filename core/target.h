/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target.h - the target model: what a runner implements and the engine,
 *            the guard and the workloads use.
 *
 * A runner is one const ops table (like fio's struct ioengine_ops); the
 * tables themselves live in runners/ and are found by URL scheme there
 * (runners/runner.h).  All of a runner's state hangs off struct
 * nb_target::priv; one target is used by one thread.
 *
 * The data path is an asynchronous queue: submit() sends one I/O and
 * returns at once (the engine times it from there); reap() returns
 * finished I/Os, waiting up to a timeout.  Queue depth is real:
 * the engine keeps up to NB_MAX_QD I/Os submitted.
 *
 * Every call returns 0 (or a count) on success and a negative errno on
 * failure, with the detail set through nb_err_set(); the detail names the
 * target and never contains a password.
 */
#ifndef NB_TARGET_H
#define NB_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hist.h"
#include "url.h"

#define NB_MAX_QD 256
/* The most paths (addresses x connections) a target may have. */
#define NB_MAX_PATHS 16

/* What a runner can do (ops->caps, refined per target in t->caps). */
enum nb_cap {
	NB_CAP_FILES = 1 << 0,   /* named files in a scratch directory */
	NB_CAP_BLOCK = 1 << 1,   /* one block address space (LUN, device) */
	NB_CAP_ASYNC = 1 << 2,   /* more than one I/O in flight */
	NB_CAP_SYNC = 1 << 3,    /* durable writes: O_SYNC / FILE_SYNC / FUA */
	NB_CAP_META = 1 << 4,    /* mkdir, rmdir, unlink, stat, readdir, rename */
	NB_CAP_DIRECT = 1 << 5,  /* bypasses the client's page cache */
};

/* Flags for fopen(). */
enum nb_fflag {
	NB_F_READ = 1 << 0,
	NB_F_WRITE = 1 << 1,
	NB_F_CREATE = 1 << 2,    /* create when missing (files only) */
	NB_F_TRUNC = 1 << 5,     /* truncate to zero (files only) */
	NB_F_SYNC = 1 << 3,      /* every write durable (O_SYNC, FILE_SYNC, FUA) */
	NB_F_DIRECT = 1 << 4,    /* O_DIRECT where the runner has it */
};

/* open(2)'s flags for FLAGS (access, O_CREAT, O_TRUNC), with SYNC_FLAG
 * (O_SYNC or O_DSYNC) for NB_F_SYNC; NB_F_DIRECT is the caller's. */
int nb_open_flags(unsigned flags, int sync_flag);

enum nb_op { NB_OP_READ = 0, NB_OP_WRITE = 1 };

struct nb_io;

/* What the box promised for a write it acknowledged, as the runner saw it
 * in the answer (crashcheck classes each write by it; docs/crashcheck.md). */
enum nb_promise {
	NB_PROMISE_ASKED = 0,    /* the answer does not say: what was asked for
				  * (fua, the file's sync) */
	NB_PROMISE_DURABLE = 1,  /* on stable storage: an NFS FILE_SYNC or
				  * DATA_SYNC answer, an iSCSI FUA write or one
				  * to a LUN without a write cache */
	NB_PROMISE_CACHED = 2,   /* not yet: an NFS UNSTABLE answer, an iSCSI
				  * write into the LUN's write cache; durable
				  * once a flush (COMMIT with the same verifier,
				  * SYNCHRONIZE CACHE) returns */
};

/* A LUN's write cache (MODE SENSE caching page, WCE). */
enum nb_write_cache { NB_WC_UNKNOWN = 0, NB_WC_OFF = 1, NB_WC_ON = 2 };

/* For a runner that keeps finished I/Os in an array until reap: move up
 * to MAX of the *NREADY at READY (oldest first) into DONE, the rest moving
 * up.  Returns how many. */
int nb_io_take(struct nb_io **ready, int *nready, struct nb_io **done, int max);

/* One I/O.  The buffer is the caller's and must stay valid until reaped. */
struct nb_io {
	struct nb_file *file;
	int op;                  /* enum nb_op */
	unsigned fua;            /* this write must be durable on return */
	unsigned nowait;         /* submit() must not wait for the device: the
				  * open loop's schedule runs on (a runner
				  * whose submission can block hands it to a
				  * worker: io_uring's IOSQE_ASYNC) */
	uint64_t off;
	uint32_t len;
	void *buf;
	int64_t result;          /* set by the runner: bytes done or -errno */
	uint64_t t_submit;       /* set by the engine (ns) when submit()
				  * has returned */
	void *priv;              /* the caller's */
	void *rpriv;             /* the runner's */
	/* set by the runner with the result of a write: */
	unsigned promise;        /* enum nb_promise */
	uint64_t verf;           /* NFS: the answer's write verifier (0: none) */
};

/* --span: the first part of a device, LUN or file every workload (and
 * the preconditioning) is limited to: BYTES, or PCT of it (0: all). */
struct nb_span {
	uint64_t bytes;
	double pct;
};

/* What a target was configured with ([target NAME] and the command line). */
struct nb_target_cfg {
	char name[64];
	char url[1024];          /* as given: may hold a password, never print it */
	struct nb_url u;
	uint64_t timeout_us;     /* 0: the timeout knob's default */
	int destroy_data;        /* allowed to overwrite a LUN that holds data */
	int keep;                /* keep the scratch directory */
	uint64_t offset, size;   /* window on a block target (0: all of it) */
	struct nb_span span;     /* limits the window further (--span) */
	char engine[16];         /* "" (native) or "fio" */
	char ioengine[32];       /* for the fio engine */
	const struct nb_fio_clients *clients;  /* run through fio on these hosts */
	const char *run_id;      /* names the scratch directory nasbench.<run-id> */
	int attach;              /* use the scratch directory nasbench.<run-id>
	                          * a crashed run left (crashcheck --verify) */
	/* the runner, when not the one of the URL's scheme (tests) */
	const struct nb_runner_ops *ops;
	/* several paths to one LUN or export (runners/mpath.c,
	 * docs/network.md): */
	char paths[512];         /* "host[:port], ..." ("": the URL's) */
	int connections;         /* per address (0: 1) */
	char path_policy[32];    /* "rr:N", "fixed", "least-io" ("": the
				  * runner's default) */
	int probe;               /* open only to say what the target is
				  * (ops->ident): create nothing on it */
};

struct nb_fio_clients;
struct nb_runner_ops;

/* A connection's socket as this client's kernel sees it (runners/netsock.c,
 * docs/network.md): 0 where it cannot say. */
struct nb_sockinfo {
	char iface[32];          /* the client's interface it leaves by */
	int iface_mtu;           /* that interface's MTU */
	int mss;                 /* TCP_MAXSEG: the segment size in use */
	int pmtu;                /* IP_MTU: the path MTU the kernel knows */
	int loopback;            /* the interface is this machine's loopback */
	char local[64];          /* the client's address */
	char peer[64];           /* the box's address */
};

enum nb_path_state {
	NB_PATH_ACTIVE = 0,      /* carries I/O (or may, by the policy) */
	NB_PATH_STANDBY = 1,     /* fixed: kept for a failover */
	NB_PATH_DEAD = 2,        /* lost during the run; never used again */
};

/* One path of a multipath target: an address (and a connection to it). */
struct nb_path {
	char name[96];           /* "198.18.0.2:3260", "#2" added for the
				  * second connection to it */
	char addr[80];           /* host[:port] */
	int conn;                /* 1.. (connections to that address) */
	int state;               /* enum nb_path_state */
	/* the figures of the engine's last run (nb_target_paths_reset) */
	uint64_t ios, bytes_read, bytes_written;
	struct nb_hist lat;      /* ns, as the engine times an I/O */
	/* since the target was opened */
	uint64_t died_ns;        /* the monotonic clock when it was found
				  * dead (0: alive) */
	uint64_t failover_ns;    /* the gap in completions its death made */
	uint64_t reissued;       /* its I/Os reissued on other paths */
	char why[400];           /* why it died */
	struct nb_sockinfo at_open, now;  /* its socket at connect, and at
					   * the last nb_target_paths_sock() */
};

/* A target's paths, set by the runner that has several (NULL: one). */
struct nb_paths {
	int n;
	char policy[32];         /* as the user wrote it, or the default */
	char ident[300];         /* what every path proved to reach: the LU's
				  * designator, the export's fsid and fileid */
	int pin;                 /* -1: the policy picks; else every new I/O
				  * goes on path PIN (netbase per path) */
	uint64_t opened_ns;      /* the monotonic clock at open */
	uint64_t run_ns;         /* ... when the engine's last run began */
	struct nb_path p[NB_MAX_PATHS];
};

struct nb_stat {
	uint64_t size;
	uint64_t mtime_ns;
	int is_dir;
};

struct nb_target;
struct nb_file;

struct nb_runner_ops {
	const char *name;        /* "posix" */
	const char *scheme;      /* "file" */
	const char *help;        /* one line for 'nasbench list' */
	unsigned caps;           /* enum nb_cap: the most this runner can do */
	/* 1: the kernel or the device writes each read into the caller's
	 * buffer (posix), so every I/O in flight has a buffer of its own, as
	 * fio gives it (one shared buffer would stay in the CPU's cache and
	 * flatter the figures; docs/fio.md).  0: the runner
	 * copies each reply out of its own receive buffers (libiscsi, libnfs)
	 * and reads nobody checks share one, a copy into QD buffers their own
	 * tools (iscsi-perf) do not make. */
	int own_read_buffers;

	/* Connect; on file targets create the scratch directory. */
	int (*open)(struct nb_target *t);
	/* Remove the scratch directory (unless keep) and disconnect. */
	void (*close)(struct nb_target *t);
	/* Bytes free where the scratch files go (block: the window size). */
	int (*space)(struct nb_target *t, uint64_t *avail);

	/* A file in the scratch directory; on block targets NAME is ignored
	 * and the file is the LUN window. */
	int (*fopen)(struct nb_target *t, const char *name, unsigned flags,
		     struct nb_file **f);
	int (*fclose)(struct nb_file *f);
	int (*fsize)(struct nb_file *f, uint64_t *size);
	/* Make written data durable: fsync / COMMIT / SYNCHRONIZE CACHE. */
	int (*flush)(struct nb_file *f);

	int (*submit)(struct nb_target *t, struct nb_io *io);
	/* Up to MAX finished I/Os into DONE, waiting at most TIMEOUT_US
	 * microseconds for the first (to the timer's precision, not rounded
	 * to milliseconds: the open loop waits for the next arrival with it).
	 * Returns the count (0 on timeout) or -errno when the target is
	 * lost: then every I/O still in flight is abandoned, no completion for
	 * it will come and the runner no longer touches its buffer. */
	int (*reap)(struct nb_target *t, struct nb_io **done, int max,
		    int timeout_us);

	/* Optional: one blocking I/O where the runner has a cheaper path than
	 * submit + reap (posix: pread/pwrite).  nb_target_pio() uses it when
	 * no other I/O is in flight.  Bytes done or -errno (detail set). */
	int64_t (*pio)(struct nb_file *f, int op, void *buf, uint32_t len,
		       uint64_t off, unsigned fua);

	/* Optional: discard (TRIM / UNMAP) the LEN bytes at OFF of F (a block
	 * window from its start, or a file), so the device may free them:
	 * BLKDISCARD, FALLOC_FL_PUNCH_HOLE, SCSI UNMAP.  F is open for writing
	 * (the data-loss guard passed).  *HOW names the call used.  0,
	 * -EOPNOTSUPP when the target refuses it, or -errno (detail set). */
	int (*discard)(struct nb_file *f, uint64_t off, uint64_t len,
		       const char **how);

	/* Metadata (NB_CAP_META), paths relative to the scratch directory. */
	int (*mkdir)(struct nb_target *t, const char *path);
	int (*rmdir)(struct nb_target *t, const char *path);
	int (*unlink)(struct nb_target *t, const char *path);
	int (*stat)(struct nb_target *t, const char *path, struct nb_stat *st);
	int (*rename)(struct nb_target *t, const char *from, const char *to);
	/* Calls CB for each entry but "." and ".."; stops when CB returns != 0. */
	int (*readdir)(struct nb_target *t, const char *path,
		       int (*cb)(const char *name, void *payload), void *payload);

	/* Optional: where NAME (files) or the file or device itself (block
	 * targets; *BASE = the window's offset) is on this machine, for a
	 * program that needs a path (fio).  NULL on remote runners. */
	int (*local_path)(struct nb_target *t, const char *name, char *buf,
			  size_t len, uint64_t *base);
	/* Optional, remote runners: where NAME (files) or the LUN (block
	 * targets; *BASE = the window's offset) is for a program that reaches
	 * the box itself (fio's nfs and libiscsi engines).  URL gets the
	 * server's URL, never a credential (nfs: the mounted export with the
	 * target URL's arguments; iscsi: iscsi://host:port/iqn/lun), PATH
	 * NAME's path relative to that export ("" on a LUN).  0, or -EPERM
	 * (detail set) when the target URL holds a user or password. */
	int (*remote_path)(struct nb_target *t, const char *name, char *url,
			   size_t ulen, char *path, size_t plen, uint64_t *base);

	/* Optional: one protocol round trip that touches no data (NFS NULL,
	 * iSCSI NOP-Out), its time into *RTT_NS: the link's floor latency.
	 * Called with no I/O in flight.  0 or -errno (detail set). */
	int (*ping)(struct nb_target *t, uint64_t *rtt_ns);

	/* Optional, remote runners: the library's socket and the events it
	 * waits for (libiscsi's, libnfs's), so that one poll() serves several
	 * targets (runners/mpath.c); fd -1 when the target is lost. */
	void (*pollfd)(struct nb_target *t, int *fd, short *events);
	/* Optional: what the target is, as the box names it, into ID: an
	 * iSCSI LU's Device Identification designator (VPD page 0x83), an NFS
	 * export's root fsid and fileid.  Two targets with the same ID are
	 * the same LU or export.  0, or -errno (detail set). */
	int (*ident)(struct nb_target *t, char *id, size_t len);
};

struct nb_target {
	const struct nb_runner_ops *ops;
	const struct nb_target_cfg *cfg;
	unsigned caps;           /* what this target can do (set by open) */
	uint32_t block_size;     /* logical block size; I/O must align (1 for files) */
	uint64_t capacity;       /* block targets: bytes in the window */
	char desc[1100];         /* URL with secrets removed */
	uint64_t filled;         /* block targets: bytes from the window's start
	                          * that this run is known to have written, as
	                          * each writer counts what really completed
	                          * (nb_wl_wrote); reads prefill the rest */
	uint64_t span_of;        /* --span: the bytes the span was taken of
				  * (0: no span) */
	uint64_t cached_opens;   /* opens that asked for O_DIRECT and went
	                          * through the client's page cache (refused) */
	char leftover[1400];     /* set by close: what it could not remove from
	                          * the target, and why (the result records it) */
	int attach;              /* open: the scratch directory exists (made if
	                          * the box lost it), it is still this run's */
	int detach;              /* close: leave the scratch directory as it is */
	/* What the box says of itself (crashcheck's evidence of a restart,
	 * docs/crashcheck.md); reset by a reconnect, set again by open: */
	uint64_t verf;           /* NFS: the write verifier of the last WRITE
				  * or COMMIT answer (0: none yet); a server
				  * that restarted answers with another */
	char login_ua[96];       /* iSCSI: the UNIT ATTENTION the LUN reported
				  * to this login ("29/00 ..."), "" none */
	int write_cache;         /* iSCSI: enum nb_write_cache */
	struct nb_sockinfo sock; /* remote runners: the connection when it was
				  * made (path 1's of several) */
	struct nb_paths *paths;  /* several paths (runners/mpath.c), or NULL */
	void *priv;
};

/* Open target T with runner OPS (checks the table, fills desc).  0 or
 * -errno.  runners/runner.h's nb_target_open() finds OPS by URL scheme. */
int nb_target_open_ops(struct nb_target *t, const struct nb_target_cfg *cfg,
		       const struct nb_runner_ops *ops);
void nb_target_close(struct nb_target *t);

/* The box went away (crashed, rebooted) and may be back: drop T's
 * connection without touching the target and open it again, on the same
 * scratch directory (a file target) or LUN window.  0 or -errno (detail
 * set); T is closed either way until it succeeds. */
int nb_target_reconnect(struct nb_target *t);

/* Blocking one-shot I/O (for setup and synchronous phases like bonnie's):
 * ops->pio when the runner has one, else submit + reap; call it with no
 * other I/O in flight.  Returns bytes done or -errno. */
int64_t nb_target_pio(struct nb_target *t, struct nb_file *f, int op,
		      void *buf, uint32_t len, uint64_t off, unsigned fua);

/* The engine starts a run: each path's figures (ios, bytes, latency)
 * begin again.  Nothing without paths. */
void nb_target_paths_reset(struct nb_target *t);

/* A buffer for I/O aligned for every runner (O_DIRECT wants 4 KiB);
 * free with free().  NULL when out of memory. */
void *nb_io_alloc(size_t len);

/* The names of the capabilities in CAPS ("files", "block", "async", "sync",
 * "meta", "direct"), in that order: I is 0.. until NULL. */
const char *nb_cap_name(unsigned caps, int i);
/* The capability called NAME, or 0. */
unsigned nb_cap_find(const char *name);

#endif
