// SPDX-License-Identifier: GPL-2.0
/*
 * Run a binutils command: fork and exec with the arguments as they are (no
 * shell sees a file name), the input written and the output read at the
 * same time with poll(), so that neither side blocks on a full pipe when
 * thousands of addresses go in and their lines come out.
 *
 * The command's stdin is a socket, not a pipe: send(MSG_NOSIGNAL) to a
 * command that died gives EPIPE instead of a SIGPIPE that would kill the
 * fuzzer, and signal dispositions stay the program's business.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "symbolize/binutils.h"

#define ERR_MAX 4096

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static pid_t spawn(char *const argv[], int in, int out, int err, int ex)
{
	pid_t pid = fork();
	int e;

	if (pid)
		return pid;
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
		e = errno;
	} else {
		execvp(argv[0], argv);
		e = errno;
	}
	if (write(ex, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

/* Did exec fail? The pipe closes on exec, or carries exec's errno. */
static int exec_errno(int ex)
{
	ssize_t r;
	int e;

	do
		r = read(ex, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	return r == sizeof(e) ? e : 0;
}

/* Read what is there; false at end of file (or on an error). */
static bool drain(int fd, struct strbuf *sb, size_t max)
{
	char chunk[65536];
	ssize_t r = read(fd, chunk, sizeof(chunk));

	if (r < 0)
		return errno == EINTR || errno == EAGAIN;
	if (r > 0 && sb->len < max)
		mmf_sb_add(sb, chunk, MIN((size_t)r, max - sb->len));
	return r > 0;
}

int mmf_sym_run(char *const argv[], const char *in, size_t len, sym_enough_fn enough,
	    struct sym_proc *p)
{
	int sv[2], out[2], err[2], ex[2], e;
	size_t done = 0;
	pid_t pid;

	mmf_sb_init(&p->out);
	mmf_sb_init(&p->err);
	p->status = 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(ex, O_CLOEXEC))
		mmf_die("pipe: %s", strerror(errno));
	pid = spawn(argv, sv[1], out[1], err[1], ex[1]);
	e = pid < 0 ? errno : 0;
	close(sv[1]);
	close(out[1]);
	close(err[1]);
	close(ex[1]);
	if (!e)
		e = exec_errno(ex[0]);
	close(ex[0]);
	if (!len || e)
		close_fd(&sv[0]);
	else
		fcntl(sv[0], F_SETFL, O_NONBLOCK);
	while (!e && (out[0] >= 0 || err[0] >= 0)) {
		struct pollfd pf[3] = {
			{ .fd = sv[0], .events = POLLOUT },
			{ .fd = out[0], .events = POLLIN },
			{ .fd = err[0], .events = POLLIN },
		};

		if (poll(pf, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			mmf_die("poll: %s", strerror(errno));
		}
		if (pf[0].revents) {
			ssize_t w = send(sv[0], in + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);

			if (w > 0)
				done += w;
			/* EPIPE: it stopped reading; its status will say why */
			if (done == len || (w < 0 && errno != EAGAIN && errno != EINTR))
				close_fd(&sv[0]);
		}
		if (pf[1].revents && !drain(out[0], &p->out, SIZE_MAX))
			close_fd(&out[0]);
		if (pf[2].revents && !drain(err[0], &p->err, ERR_MAX))
			close_fd(&err[0]);
		if (enough && out[0] >= 0 && enough(&p->out)) {
			/* our own child, by its pid */
			kill(pid, SIGKILL);
			break;
		}
	}
	close_fd(&sv[0]);
	close_fd(&out[0]);
	close_fd(&err[0]);
	if (pid > 0)
		while (waitpid(pid, &p->status, 0) < 0 && errno == EINTR)
			;
	if (e) {
		mmf_sym_proc_free(p);
		return -e;
	}
	return 0;
}

void mmf_sym_proc_free(struct sym_proc *p)
{
	mmf_sb_free(&p->out);
	mmf_sb_free(&p->err);
}

int mmf_sym_run_ok(char *const argv[], struct sym_proc *p, char **why)
{
	int err = mmf_sym_run(argv, NULL, 0, NULL, p);
	char *w;

	if (err) {
		*why = mmf_xasprintf("%s: %s", argv[0], strerror(-err));
		return -1;
	}
	if (!p->status)
		return 0;
	w = mmf_sym_proc_why(p);
	*why = mmf_xasprintf("%s: %s", argv[0], w);
	free(w);
	mmf_sym_proc_free(p);
	return -1;
}

char *mmf_sym_proc_why(const struct sym_proc *p)
{
	const char *msg = p->err.buf ? p->err.buf : "";
	size_t n = strcspn(msg, "\n");

	if (WIFSIGNALED(p->status))
		return mmf_xasprintf("killed by signal %d%s%.*s", WTERMSIG(p->status), n ? ": " : "",
				 (int)n, msg);
	return mmf_xasprintf("exit status %d%s%.*s", WEXITSTATUS(p->status), n ? ": " : "", (int)n,
			 msg);
}
