/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.c - run another program and wait for it (see spawn.h).
 *
 * The child reports a failed exec (or chdir) through a close-on-exec pipe,
 * so "no such program" is an error of nb_spawn_start(), not an exit status
 * to guess from.  Its end is seen through a pidfd where the kernel has
 * them (Linux 5.3), else by polling waitpid() every 50 ms.
 */
#include "spawn.h"
#include "clock.h"
#include "err.h"
#include "grow.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define OUT_CAP0 65536

static const char *prog_of(const struct nb_spawn *sp)
{
	return sp->prog ? sp->prog : sp->argv[0];
}

static size_t keep_of(const struct nb_spawn *sp)
{
	return sp->err_keep ? sp->err_keep : NB_SPAWN_ERR_KEEP;
}

/* Append N bytes of SRC to the kept standard error, dropping its start
 * when it would outgrow ERR_KEEP. */
static void keep_tail(struct nb_spawn *sp, const char *src, size_t n)
{
	size_t cap = keep_of(sp);

	if (!sp->err)
		return;
	if (n >= cap) {
		memcpy(sp->err, src + n - cap, cap);
		sp->err_len = cap;
	} else {
		if (sp->err_len + n > cap) {
			size_t drop = sp->err_len + n - cap;

			memmove(sp->err, sp->err + drop, sp->err_len - drop);
			sp->err_len -= drop;
		}
		memcpy(sp->err + sp->err_len, src, n);
		sp->err_len += n;
	}
	sp->err[sp->err_len] = '\0';
}

void nb_spawn_note(struct nb_spawn *sp, const char *text)
{
	keep_tail(sp, text, strlen(text));
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* FD onto TO in the child, without close-on-exec. */
static int move_fd(int fd, int to)
{
	if (fd == to)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, to) < 0 ? -1 : 0;
}

static void child(const struct nb_spawn *sp, int in, int out, int err, int report)
{
	static const int sigs[] = { SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP,
				    SIGCHLD };
	sigset_t none;
	int e;

	/* a group of its own: a stop or a kill reaches what it forks */
	setpgid(0, 0);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (move_fd(in, 0) || move_fd(out, 1) || move_fd(err, 2) ||
	    (sp->dir && chdir(sp->dir))) {
		e = errno;
	} else {
		execvpe(prog_of(sp), sp->argv, sp->envp ? sp->envp : environ);
		e = errno;
	}
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static int open_out(const char *path, int *fd)
{
	/* never through a link: these are fifos and files of nasbench's own
	 * directories, or /dev/null */
	*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		   0644);
	return *fd < 0 ? nb_err(-errno, "cannot write '%s': %s", path,
				strerror(errno)) : 0;
}

/* The pipes between nasbench and the child: stdin, stdout, stderr, and
 * REPORT, on which the child writes errno when it cannot exec. */
struct pipes {
	int in[2], out[2], err[2], report[2];
};

static void close_pipes(struct pipes *p)
{
	for (int i = 0; i < 2; i++) {
		close_fd(&p->in[i]);
		close_fd(&p->out[i]);
		close_fd(&p->err[i]);
		close_fd(&p->report[i]);
	}
}

/* SP as before its first start, with its output buffers.  0 or -ENOMEM. */
static int spawn_reset(struct nb_spawn *sp)
{
	sp->pid = -1;
	sp->fd_in = sp->fd_out = sp->fd_err = sp->fd_pid = -1;
	sp->out = NULL;
	sp->err = NULL;
	sp->out_len = sp->err_len = sp->in_off = 0;
	sp->status = sp->signal = sp->stopped = sp->timed_out = 0;
	sp->out_cut = 0;
	sp->killed = sp->reaped = 0;
	if (sp->in && !sp->in_len)
		sp->in_len = strlen(sp->in);
	sp->out_cap = sp->out_path ? 1 : OUT_CAP0;
	sp->out = malloc(sp->out_cap);
	sp->err = malloc(keep_of(sp) + 1);
	if (!sp->out || !sp->err)
		return nb_err(-ENOMEM, "out of memory");
	sp->out[0] = sp->err[0] = '\0';
	return 0;
}

/* The child's stdin (a pipe with SP's input, else /dev/null), stdout and
 * stderr (pipes, or the files SP names).  0 or -errno. */
static int spawn_pipes(const struct nb_spawn *sp, struct pipes *p)
{
	int rc;

	if (pipe2(p->report, O_CLOEXEC) ||
	    (sp->in_len ? pipe2(p->in, O_CLOEXEC)
			: (p->in[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) ||
	    (!sp->out_path && pipe2(p->out, O_CLOEXEC)) ||
	    (!sp->err_path && !sp->err_to_out && pipe2(p->err, O_CLOEXEC)))
		return nb_err(-errno, "cannot run '%s': %s", prog_of(sp),
			      strerror(errno));
	if ((sp->out_path && (rc = open_out(sp->out_path, &p->out[1]))) ||
	    (sp->err_path && !sp->err_to_out &&
	     (rc = open_out(sp->err_path, &p->err[1]))))
		return rc;
	return 0;
}

/* Wait for the child's exec: 0 once it runs, else -errno with why it did
 * not (the child is reaped). */
static int spawn_wait_exec(struct nb_spawn *sp, struct pipes *p)
{
	const char *prog = prog_of(sp);
	ssize_t n;
	int e = 0;

	do
		n = read(p->report[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close_fd(&p->report[0]);
	if (n != sizeof(e))
		return 0;
	/* exec (or chdir) failed: the child is gone already */
	while (waitpid(sp->pid, NULL, 0) < 0 && errno == EINTR)
		;
	sp->pid = -1;
	if (sp->dir && e != ENOENT && e != EACCES)
		return nb_err(-e, "cannot run '%s' in '%s': %s", prog, sp->dir,
			      strerror(e));
	return nb_err(-e, "cannot run '%s': %s", prog, strerror(e));
}

int nb_spawn_start(struct nb_spawn *sp)
{
	struct pipes p = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } };
	int rc = spawn_reset(sp);

	if (!rc)
		rc = spawn_pipes(sp, &p);
	if (!rc) {
		sp->pid = fork();
		if (sp->pid < 0)
			rc = nb_err(-errno, "cannot run '%s': fork: %s", prog_of(sp),
				    strerror(errno));
	}
	if (rc)
		goto fail;
	if (sp->pid == 0)
		child(sp, p.in[0], p.out[1], sp->err_to_out ? p.out[1] : p.err[1],
		      p.report[1]);
	setpgid(sp->pid, sp->pid);
	close_fd(&p.report[1]);
	close_fd(&p.in[0]);
	close_fd(&p.out[1]);
	close_fd(&p.err[1]);
	rc = spawn_wait_exec(sp, &p);
	if (rc)
		goto fail;
	sp->t0 = nb_now_us();
	sp->fd_in = p.in[1];
	sp->fd_out = p.out[0];
	sp->fd_err = p.err[0];
	if (sp->fd_in >= 0)
		fcntl(sp->fd_in, F_SETFL, O_NONBLOCK);
#ifdef SYS_pidfd_open
	sp->fd_pid = (int)syscall(SYS_pidfd_open, sp->pid, 0);
#endif
	return 0;
fail:
	close_pipes(&p);
	free(sp->out);
	free(sp->err);
	sp->out = sp->err = NULL;
	return rc;
}

/* Stop request, time limit, the kill after the grace. */
static void enforce(struct nb_spawn *sp)
{
	uint64_t now;

	/* after the child, its group may live on and hold the pipes */
	if (sp->reaped && sp->fd_out < 0 && sp->fd_err < 0)
		return;
	if (sp->stop && *sp->stop && !sp->stopped) {
		kill(-sp->pid, sp->stop_sig ? sp->stop_sig : SIGINT);
		sp->stopped = 1;
	}
	if (!sp->limit_us)
		return;
	now = nb_now_us();
	if (!sp->killed && now - sp->t0 > sp->limit_us) {
		sp->timed_out = 1;
		if (sp->grace_us) {
			kill(-sp->pid, SIGTERM);
			sp->killed = 1;
			sp->t_term = now;
		} else {
			kill(-sp->pid, SIGKILL);
			sp->killed = 2;
		}
	} else if (sp->killed == 1 && now - sp->t_term > sp->grace_us) {
		kill(-sp->pid, SIGKILL);
		sp->killed = 2;
	}
}

static void feed(struct nb_spawn *sp)
{
	ssize_t n = write(sp->fd_in, sp->in + sp->in_off, sp->in_len - sp->in_off);

	if (n > 0)
		sp->in_off += (size_t)n;
	if ((n < 0 && errno != EAGAIN && errno != EINTR) || sp->in_off == sp->in_len)
		close_fd(&sp->fd_in);
}

/* Read what the child printed on FD; 0, or -ENOMEM (output dropped). */
static int drain(struct nb_spawn *sp, int *fd, int is_out)
{
	char buf[16384], *more;
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		close_fd(fd);
		return 0;
	}
	if (!is_out) {
		keep_tail(sp, buf, (size_t)n);
		return 0;
	}
	if (sp->out_max && sp->out_len + (size_t)n > sp->out_max) {
		/* an answer without end: what fits kept, the rest refused */
		n = (ssize_t)(sp->out_max - sp->out_len);
		sp->out_cut = 1;
		kill(-sp->pid, SIGKILL);
		close_fd(fd);
	}
	more = nb_grow(sp->out, &sp->out_cap, sp->out_len + (size_t)n + 1, 1);
	if (!more)
		return -ENOMEM;
	sp->out = more;
	memcpy(sp->out + sp->out_len, buf, (size_t)n);
	sp->out_len += (size_t)n;
	sp->out[sp->out_len] = '\0';
	return 0;
}

static void reap(struct nb_spawn *sp, int flags)
{
	int st;
	pid_t r;

	do
		r = waitpid(sp->pid, &st, flags);
	while (r < 0 && errno == EINTR);
	if (r != sp->pid)
		return;
	sp->reaped = 1;
	close_fd(&sp->fd_pid);
	if (WIFEXITED(st)) {
		sp->status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		sp->signal = WTERMSIG(st);
		sp->status = 128 + sp->signal;
	} else {
		sp->status = 255;
	}
}

int nb_spawn_wait(struct nb_spawn *sp)
{
	sigset_t pipe_set, old;
	int rc = 0;

	/* a child that exits before it read its input must not kill us */
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	while (sp->fd_out >= 0 || sp->fd_err >= 0 || !sp->reaped) {
		struct pollfd pf[4];
		int np = 0, io = -1, ie = -1, ii = -1, ip = -1, timeout = -1;

		if (sp->fd_out >= 0)
			io = np, pf[np++] = (struct pollfd){ sp->fd_out, POLLIN, 0 };
		if (sp->fd_err >= 0)
			ie = np, pf[np++] = (struct pollfd){ sp->fd_err, POLLIN, 0 };
		if (sp->fd_in >= 0)
			ii = np, pf[np++] = (struct pollfd){ sp->fd_in, POLLOUT, 0 };
		if (!sp->reaped && sp->fd_pid >= 0)
			ip = np, pf[np++] = (struct pollfd){ sp->fd_pid, POLLIN, 0 };
		if (sp->stop || sp->limit_us)
			timeout = 100;
		if (!sp->reaped && sp->fd_pid < 0)
			timeout = 50;
		if (poll(pf, (nfds_t)np, timeout) < 0 && errno != EINTR) {
			rc = nb_err(-errno, "waiting for '%s': %s", prog_of(sp),
				    strerror(errno));
			break;
		}
		enforce(sp);
		if (ii >= 0 && (pf[ii].revents & (POLLOUT | POLLERR | POLLHUP)))
			feed(sp);
		if (io >= 0 && (pf[io].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    drain(sp, &sp->fd_out, 1) && !rc) {
			/* no room for its output: end it */
			rc = nb_err(-ENOMEM, "out of memory reading the output of "
				    "'%s'", prog_of(sp));
			kill(-sp->pid, SIGKILL);
			close_fd(&sp->fd_out);
		}
		if (ie >= 0 && (pf[ie].revents & (POLLIN | POLLHUP | POLLERR)))
			drain(sp, &sp->fd_err, 0);
		if (!sp->reaped && (sp->fd_pid < 0 ||
				    (ip >= 0 && (pf[ip].revents & POLLIN))))
			reap(sp, WNOHANG);
	}
	if (!sp->reaped) {
		kill(-sp->pid, SIGKILL);
		reap(sp, 0);
	}
	close_fd(&sp->fd_in);
	{
		sigset_t pending;
		struct timespec zero = { 0, 0 };

		if (!sigpending(&pending) && sigismember(&pending, SIGPIPE) &&
		    !sigismember(&old, SIGPIPE))
			sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int nb_spawn_run(struct nb_spawn *sp)
{
	int rc = nb_spawn_start(sp);

	return rc ? rc : nb_spawn_wait(sp);
}

void nb_spawn_free(struct nb_spawn *sp)
{
	if (sp->pid > 0 && !sp->reaped) {
		kill(-sp->pid, SIGKILL);
		reap(sp, 0);
	}
	if (sp->out || sp->err) {
		close_fd(&sp->fd_in);
		close_fd(&sp->fd_out);
		close_fd(&sp->fd_err);
		close_fd(&sp->fd_pid);
	}
	free(sp->out);
	free(sp->err);
	sp->out = sp->err = NULL;
	sp->out_len = sp->err_len = 0;
}
