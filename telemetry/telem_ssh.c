/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_ssh.c - a box's counters over SSH: OpenSSH's client in batch mode
 *               (keys or an agent: it never asks, and no password is
 *               ever given to it), one master connection for the run
 *               (ControlMaster) that every sample rides on.
 */
#include "telem_rt.h"
#include "../core/boxtext.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/grow.h"
#include "../core/fsutil.h"
#include "../core/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int nb_telem_ssh_parse(const char *url, struct nb_telem_ssh *s)
{
	const char *p = url + 6, *at, *colon, *end;
	char *e;

	memset(s, 0, sizeof(*s));
	if (strncmp(url, "ssh://", 6))
		return nb_err(-EINVAL, "'%s' is not ssh://[user@]host[:port]", url);
	end = p + strcspn(p, "/?#");
	if (*end && strcmp(end, "/"))
		return nb_err(-EINVAL, "'%s': nothing may follow the host and "
			      "port", url);
	at = memchr(p, '@', (size_t)(end - p));
	if (at) {
		if (memchr(p, ':', (size_t)(at - p)) || memchr(p, '%', (size_t)(at - p)))
			return nb_err(-EINVAL, "a password in the URL is refused; "
				      "use a key or an agent");
		if (at == p || at - p >= (long)sizeof(s->user))
			return nb_err(-EINVAL, "'%s': bad user name", url);
		memcpy(s->user, p, (size_t)(at - p));
		p = at + 1;
	}
	colon = memchr(p, ':', (size_t)(end - p));
	if (!colon)
		colon = end;
	if (colon == p || colon - p >= (long)sizeof(s->host) ||
	    strcspn(p, " \t'\";`$\\") < (size_t)(colon - p))
		return nb_err(-EINVAL, "'%s': bad host name", url);
	memcpy(s->host, p, (size_t)(colon - p));
	if (*colon == ':') {
		long port = strtol(colon + 1, &e, 10);

		if (e != end || port < 1 || port > 65535)
			return nb_err(-EINVAL, "'%s': bad port", url);
		s->port = (int)port;
	}
	return 0;
}

/* ssh's arguments for TM, then SCRIPT (NULL: "-O exit"). */
void nb_telem_ssh_argv(struct nb_telem *tm, const char *script, char **argv,
		       char bufs[][320])
{
	const struct nb_telem_cfg *c = &tm->cfg;
	int n = 0, b = 0;

#define ARG(s) (argv[n++] = (char *)(s))
#define OPT(...) (snprintf(bufs[b], 320, __VA_ARGS__), ARG("-o"), ARG(bufs[b++]))
	ARG(c->ssh ? c->ssh : "ssh");
	OPT("BatchMode=yes");
	OPT("ConnectTimeout=%u", (unsigned)(tm->timeout_us / 2000000 + 1));
	OPT("ControlMaster=auto");
	OPT("ControlPath=%s", tm->ssh.ctl);
	/* the master outlives a pause between workloads, not a lost run */
	OPT("ControlPersist=120");
	OPT("ServerAliveInterval=5");
	OPT("ServerAliveCountMax=2");
	OPT("LogLevel=ERROR");
	if (c->identity) {
		OPT("IdentityFile=%s", c->identity);
		OPT("IdentitiesOnly=yes");
	}
	if (c->known_hosts)
		OPT("UserKnownHostsFile=%s", c->known_hosts);
	if (tm->ssh.port)
		OPT("Port=%d", tm->ssh.port);
	if (tm->ssh.user[0])
		OPT("User=%s", tm->ssh.user);
	if (!script) {
		ARG("-O");
		ARG("exit");
	}
	ARG(tm->ssh.host);
	if (script) {
		ARG("--");
		ARG(script);
	}
	argv[n] = NULL;
#undef OPT
#undef ARG
}

/* ssh's last line of complaint, or why it did not answer. */
static void why(const struct nb_spawn *sp, char *err, size_t len,
		uint64_t limit_us)
{
	const char *e = sp->err ? sp->err : "";
	size_t n = strlen(e);
	char said[400];

	while (n && (e[n - 1] == '\n' || e[n - 1] == '\r'))
		n--;
	for (size_t i = n; i > 0; i--)
		if (e[i - 1] == '\n') {
			e += i;
			n -= i;
			break;
		}
	nb_boxtextn(said, sizeof(said), e, n);
	if (sp->timed_out)
		snprintf(err, len, "no answer within %.0f s",
			 (double)limit_us / 1e6);
	else if (strstr(sp->err ? sp->err : "", "Host key verification failed") ||
		 strstr(sp->err ? sp->err : "", "IDENTIFICATION HAS CHANGED"))
		snprintf(err, len, "its host key is not the one known_hosts "
			 "holds (ssh: Host key verification failed): check "
			 "the key; nasbench never accepts a changed one");
	else if (n)
		snprintf(err, len, "%s%s", strncmp(e, "ssh: ", 5) ? "ssh: " : "",
			 said);
	else
		snprintf(err, len, "ssh exited with status %d", sp->status);
}

int nb_telem_ssh_exec(struct nb_telem *tm, const char *script, uint64_t limit_us,
		      volatile sig_atomic_t *stop, char **out, char *err,
		      size_t errlen)
{
	char *argv[40], bufs[16][320];
	struct nb_spawn sp = { .argv = argv, .limit_us = limit_us,
			       .grace_us = 1000000,
			       .out_max = NB_TELEM_ANSWER_MAX };
	int rc;

	*out = NULL;
	nb_telem_ssh_argv(tm, script, argv, bufs);
	if (stop) {
		sp.stop = stop;
		sp.stop_sig = SIGTERM;
	}
	rc = nb_spawn_run(&sp);
	if (!rc && sp.stopped) {
		nb_spawn_free(&sp);
		snprintf(err, errlen, "stopped");
		return -EINTR;
	}
	return nb_telem_spawn_out(&sp, rc, out, err, errlen, why, limit_us);
}

int nb_telem_ssh_run(struct nb_telem *tm, const char *script, char **out,
		     char *err, size_t errlen)
{
	/* the last sample: a short timeout; a sample of the loop: the
	 * iteration's end lets go of one still waiting for the box (no wait
	 * of up to the timeout at every iteration's end) */
	return nb_telem_ssh_exec(tm, script, tm->final && tm->timeout_us > 3000000 ?
				 3000000 : tm->timeout_us,
				 tm->haltable ? &tm->halt : NULL, out, err, errlen);
}

/* What the box has, asked once: its system and its counters' files. */
static const char probe[] =
	"uname -s; "
	"[ -r /proc/stat ] && [ -r /proc/meminfo ] && echo have-proc; "
	"[ -r /proc/spl/kstat/zfs/arcstats ] && echo have-arc-kstat; "
	"[ -r /zfs-kstat/zfs/arcstats/hits ] && echo have-arc-kv; "
	"command -v sysctl >/dev/null 2>&1 && sysctl -n kern.cp_times "
	">/dev/null 2>&1 && echo have-sysctl; true";

static int tell_os(struct nb_telem *tm, const char *out)
{
	char os[64] = "", said[64];

	sscanf(out, "%63s", os);
	if (!strcmp(os, "Linux") && strstr(out, "have-proc")) {
		tm->os = NB_TELEM_LINUX;
		tm->arc_kind = strstr(out, "have-arc-kstat") ? NB_ARC_KSTAT :
			       strstr(out, "have-arc-kv") ? NB_ARC_KV : NB_ARC_NONE;
		return 0;
	}
	if (!strcmp(os, "FreeBSD") && strstr(out, "have-sysctl")) {
		tm->os = NB_TELEM_FREEBSD;
		return 0;
	}
	{
		char w[320];

		nb_boxtext(said, sizeof(said), os);
		snprintf(w, sizeof(w), "the box says it is '%s' (uname -s) and has "
			 "neither Linux's /proc nor FreeBSD's sysctl counters: "
			 "no telemetry", os[0] ? said : "nothing");
		nb_telem_warn(tm, w);
	}
	return -EIO;
}

int nb_telem_ssh_open(struct nb_telem *tm)
{
	char tmpl[] = "/tmp/nb-ssh.XXXXXX", err[400], w[480];
	char *out = NULL;
	int rc;

	if (!mkdtemp(tmpl)) {
		snprintf(w, sizeof(w), "cannot make a scratch directory: %s",
			 strerror(errno));
		nb_telem_warn(tm, w);
		return -EIO;
	}
	snprintf(tm->ssh.dir, sizeof(tm->ssh.dir), "%s", tmpl);
	snprintf(tm->ssh.ctl, sizeof(tm->ssh.ctl), "%s/ctl", tmpl);
	rc = nb_telem_ssh_run(tm, probe, &out, err, sizeof(err));
	if (rc) {
		snprintf(w, sizeof(w), "%s; no telemetry, the run goes on", err);
		nb_telem_warn(tm, w);
	} else {
		rc = tell_os(tm, out);
	}
	free(out);
	return rc;
}

static void script_of(struct nb_telem *tm, char *buf, size_t len)
{
	unsigned secs = (unsigned)((tm->interval_ns + 500000000) / 1000000000ULL);

	if (tm->os == NB_TELEM_FREEBSD) {
		snprintf(buf, len, "echo @sysctl; sysctl -i kern.cp_times hw.physmem "
			 "hw.pagesize vm.stats.vm.v_page_count vm.stats.vm.v_free_count "
			 "vm.stats.vm.v_inactive_count vm.stats.vm.v_cache_count "
			 "vm.stats.vm.v_page_size vm.stats.vm.v_swappgsin "
			 "vm.stats.vm.v_swappgsout kstat.zfs.misc.arcstats.hits "
			 "kstat.zfs.misc.arcstats.misses kstat.zfs.misc.arcstats.size "
			 "kstat.zfs.misc.arcstats.c_max "
			 "kstat.zfs.misc.arcstats.demand_data_hits "
			 "kstat.zfs.misc.arcstats.demand_data_misses 2>/dev/null; "
			 "echo; echo @swapinfo; swapinfo -k 2>/dev/null; "
			 "echo; echo @iostat; iostat -x -d -w %u -c 2 2>/dev/null; true",
			 secs ? secs : 1);
		return;
	}
	snprintf(buf, len, "echo @stat; cat /proc/stat; echo; echo @meminfo; "
		 "cat /proc/meminfo; echo; echo @vmstat; grep pswp /proc/vmstat; "
		 "echo; echo @diskstats; cat /proc/diskstats; %s true",
		 tm->arc_kind == NB_ARC_KSTAT ?
		 "echo; echo @arc-kstat; cat /proc/spl/kstat/zfs/arcstats;" :
		 tm->arc_kind == NB_ARC_KV ?
		 "echo; echo @arc-kv; cd /zfs-kstat/zfs/arcstats && for f in hits "
		 "misses size c_max demand_data_hits demand_data_misses; do "
		 "echo \"$f $(cat $f)\"; done;" : "");
}

/* The remote loop of this iteration: SCRIPT, "@end", a half interval's
 * sleep (FreeBSD's iostat takes the interval itself), again. */
static int stream_start(struct nb_telem *tm)
{
	char *argv[40], bufs[16][320], script[1200], loop[1500], err[128];
	struct nb_spawn *sp = calloc(1, sizeof(*sp));
	double half = (double)tm->interval_ns / 2e9;

	if (!sp)
		return -ENOMEM;
	snprintf(tm->ssh.fifo, sizeof(tm->ssh.fifo), "%s/stream", tm->ssh.dir);
	snprintf(err, sizeof(err), "%s/stream.err", tm->ssh.dir);
	unlink(tm->ssh.fifo);
	if (mkfifo(tm->ssh.fifo, 0600) ||
	    (tm->ssh.fd = open(tm->ssh.fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		free(sp);
		return -errno;
	}
	script_of(tm, script, sizeof(script));
	snprintf(loop, sizeof(loop), "while :; do %s; echo; echo @end; %s; done", script,
		 tm->os == NB_TELEM_FREEBSD ? "true" : "sleep %.3f");
	snprintf(script, sizeof(script), loop, half < 0.1 ? 0.1 : half);
	nb_telem_ssh_argv(tm, script, argv, bufs);
	sp->argv = argv;
	sp->out_path = tm->ssh.fifo;
	sp->err_path = strdup(err);
	if (nb_spawn_start(sp)) {
		free((char *)sp->err_path);
		free(sp);
		close(tm->ssh.fd);
		nb_err_clear();
		return -EIO;
	}
	tm->stream = sp;
	tm->ssh.streaming = 1;
	tm->ssh.len = 0;
	return 0;
}

void nb_telem_ssh_stream_end(struct nb_telem *tm)
{
	struct nb_spawn *sp = tm->stream;

	if (!tm->ssh.streaming)
		return;
	nb_spawn_free(sp);       /* its group killed and reaped */
	free((char *)sp->err_path);
	free(sp);
	tm->stream = NULL;
	close(tm->ssh.fd);
	unlink(tm->ssh.fifo);
	tm->ssh.streaming = 0;
}

/* What the FIFO holds now, appended to the buffer (a NUL byte made
 * SUB); -1 at its end (the remote loop is gone), -2 when the buffer
 * holds more than an answer may without a whole one. */
static int drain(struct nb_telem *tm)
{
	char chunk[16384];
	ssize_t n;

	while ((n = read(tm->ssh.fd, chunk, sizeof(chunk))) > 0) {
		char *b;

		if (tm->ssh.len + (size_t)n > NB_TELEM_ANSWER_MAX)
			return -2;
		b = nb_grow(tm->ssh.buf, &tm->ssh.cap, tm->ssh.len + (size_t)n + 1,
			    65536);
		if (!b)
			return -1;
		tm->ssh.buf = b;
		nb_telem_text(chunk, (size_t)n);
		memcpy(b + tm->ssh.len, chunk, (size_t)n);
		tm->ssh.len += (size_t)n;
		b[tm->ssh.len] = 0;
	}
	return n == 0 ? -1 : 0;  /* 0: no writer left */
}

/* The end of an answer at P ("@end" on a line of its own, its LF or CR
 * LF), its length; 0 when P is none. */
static size_t end_at(const char *b, const char *p)
{
	if (p != b && p[-1] != '\n')
		return 0;
	return !strncmp(p, "@end\n", 5) ? 5 : !strncmp(p, "@end\r\n", 6) ? 6 : 0;
}

/* The latest whole sample of the buffer into S (the older ones dropped):
 * 1, or 0 when none is whole yet. */
static int latest(struct nb_telem *tm, struct nb_telem_snap *s, int *got)
{
	char *b = tm->ssh.buf, *end = NULL, *prev = NULL, *p;
	size_t l, el = 0, pl = 0;

	for (p = b; b && (p = strstr(p, "@end")); p += 4)
		if ((l = end_at(b, p)))
			prev = end, pl = el, end = p, el = l;
	if (!end)
		return 0;
	*end = 0;
	*got = nb_telem_parse_answer(prev ? prev + pl : b, tm->os, s);
	tm->ssh.len -= (size_t)(end + el - b);
	memmove(b, end + el, tm->ssh.len + 1);
	return 1;
}

static void stream_why(struct nb_telem *tm, char *err, size_t len)
{
	char path[128], *e = NULL;

	snprintf(path, sizeof(path), "%s/stream.err", tm->ssh.dir);
	if (!nb_read_file(path, &e, NULL) && e[0]) {
		size_t n = strlen(e);

		while (n && e[n - 1] == '\n')
			e[--n] = 0;
		char said[320];

		nb_boxtext(said, sizeof(said), strrchr(e, '\n') ? strrchr(e, '\n') + 1 : e);
		snprintf(err, len, "ssh: %s", said);
	} else {
		snprintf(err, len, "the box stopped answering");
	}
	free(e);
}

int nb_telem_ssh_sample(struct nb_telem *tm, struct nb_telem_snap *s)
{
	uint64_t deadline = nb_now_us() + (tm->final && tm->timeout_us > 3000000 ?
					   3000000 : tm->timeout_us);
	char err[400];
	int got = 0, gone = 0;

	if (!tm->ssh.streaming && stream_start(tm)) {
		nb_telem_warn(tm, "cannot start the remote sampler");
		return -EIO;
	}
	for (;;) {
		struct pollfd pf = { tm->ssh.fd, POLLIN, 0 };
		int d = drain(tm);

		gone = d < 0;
		if (latest(tm, s, &got))
			break;
		if (d == -2) {
			snprintf(err, sizeof(err), "its answer passed %u MiB without "
				 "an end: not read", NB_TELEM_ANSWER_MAX >> 20);
			nb_telem_warn(tm, err);
			return -EIO;
		}
		if (tm->haltable && tm->halt)
			return -EINTR;
		if (gone || nb_now_us() >= deadline) {
			if (gone)
				stream_why(tm, err, sizeof(err));
			else
				snprintf(err, sizeof(err), "no answer within %.0f s",
					 (double)tm->timeout_us / 1e6);
			nb_telem_warn(tm, err);
			return -EIO;
		}
		poll(&pf, 1, 50);
	}
	if (!got) {
		nb_telem_warn(tm, "the box's answer held none of the counters "
			      "asked for");
		return -EIO;
	}
	return 0;
}

void nb_telem_ssh_close(struct nb_telem *tm)
{
	char *argv[40], bufs[16][320];
	struct nb_spawn sp = { .argv = argv, .limit_us = 5000000 };

	nb_telem_ssh_stream_end(tm);
	free(tm->ssh.buf);
	tm->ssh.buf = NULL;
	if (!tm->ssh.dir[0])
		return;
	nb_telem_ssh_argv(tm, NULL, argv, bufs);
	nb_spawn_run(&sp);
	nb_spawn_free(&sp);
	nb_err_clear();
	nb_rmtree(tm->ssh.dir);
	tm->ssh.dir[0] = 0;
}
