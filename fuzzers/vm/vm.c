// SPDX-License-Identifier: GPL-2.0
/* One QEMU process: scratch disks, console pipe, execution log, teardown. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "vm/vm.h"

enum { PORT_CTL, PORT_FINDINGS, PORT_COVER, NR_PORTS };

struct mmf_vm {
	pid_t pid;
	int console_fd;		/* read end of QEMU's stdout and stderr */
	int exec_fd;		/* the execution log, read from where it ended at start */
	/* The sockets of the control and findings channels, -1 for none. */
	int port_fd[NR_PORTS];
	char *port_path[NR_PORTS];
	char **argv;
	char **disks;
	size_t nr_disks;
	uint64_t started;
	bool exited;
	int status;
};

static void remove_disks(struct mmf_vm *vm)
{
	for (size_t i = 0; i < vm->nr_disks; i++) {
		unlink(vm->disks[i]);
		free(vm->disks[i]);
	}
	free(vm->disks);
	vm->disks = NULL;
	vm->nr_disks = 0;
}

static void vm_free(struct mmf_vm *vm)
{
	remove_disks(vm);
	if (vm->console_fd >= 0)
		close(vm->console_fd);
	if (vm->exec_fd >= 0)
		close(vm->exec_fd);
	for (int i = 0; i < NR_PORTS; i++) {
		if (vm->port_fd[i] >= 0)
			close(vm->port_fd[i]);
		if (vm->port_path[i])
			unlink(vm->port_path[i]);
		free(vm->port_path[i]);
	}
	mmf_vm_argv_free(vm->argv);
	free(vm);
}

/* Run argv quietly; true if it exited 0. */
static bool run_quiet(char *const argv[])
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status);
}

/* The swap file a file system disk holds (kvm/init swaps on it). */
#define SWAPFILE_MB	16

/*
 * A file system disk made here with its swap file in it: under TCG the
 * guest took 5 s to make them (mke2fs, then 16 MiB written through KASAN).
 * Its blocks are page-sized and none is zero, so that mke2fs -d gives
 * the file no holes (swapon refuses those; mkswap leaves zeros around
 * its header). Without mke2fs or mkswap the disk stays empty
 * and the guest makes both itself.
 */
static void make_fs(const char *img, int mb, const char *workdir)
{
	char *dir = mmf_xasprintf("%s/fs.XXXXXX", workdir), *file = NULL;
	char block[65536];
	int fd = -1;
	bool ok = mkdtemp(dir) != NULL;

	memset(block, 0x5a, sizeof(block));
	if (ok) {
		file = mmf_xasprintf("%s/swapfile", dir);
		fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		ok = fd >= 0;
	}
	for (int i = 0; ok && i < (SWAPFILE_MB << 20) / (int)sizeof(block); i++)
		ok = !mmf_write_all(fd, block, sizeof(block));
	if (fd >= 0)
		close(fd);
	if (ok) {
		char *mkswap[] = { "mkswap", file, NULL };

		ok = run_quiet(mkswap);
	}
	if (ok) {
		char *mke2fs[] = { "mke2fs", "-q", "-F", "-t", "ext2", "-b", "4096", "-N", "64",
				   "-d", dir,
				   (char *)img, NULL };

		ok = run_quiet(mke2fs);
	}
	/* Else an empty disk again: the guest finds no file system. */
	if (!ok && (truncate(img, 0) || truncate(img, (off_t)mb << 20)))
		mmf_warnx_("scratch disk %s: %s", img, strerror(errno));
	if (file)
		unlink(file);
	rmdir(dir);
	free(file);
	free(dir);
}

/* Sparse: a disk costs the host only what the guest writes to it. */
static int make_disks(const struct mmf_vm_config *c, struct mmf_vm *vm, char *err, size_t n)
{
	vm->disks = mmf_xcalloc(c->nr_disks, sizeof(*vm->disks));
	for (size_t i = 0; i < c->nr_disks; i++) {
		char *path = mmf_xasprintf("%s/%s.img", c->workdir, c->disks[i].serial);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		vm->disks[vm->nr_disks++] = path;
		if (fd < 0 || ftruncate(fd, (off_t)c->disks[i].mb << 20)) {
			snprintf(err, n, "scratch disk %s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		if (!strncmp(c->disks[i].serial, "fs", 2))
			make_fs(path, c->disks[i].mb, c->workdir);
	}
	return 0;
}

static int open_exec_log(const struct mmf_vm_config *c, struct mmf_vm *vm, char *err, size_t n)
{
	int fd = open(c->exec_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd >= 0) {
		close(fd);
		vm->exec_fd = open(c->exec_log, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0 || vm->exec_fd < 0 || lseek(vm->exec_fd, 0, SEEK_END) < 0) {
		snprintf(err, n, "execution log %s: %s", c->exec_log, strerror(errno));
		return -1;
	}
	return 0;
}

static const char *const port_names[NR_PORTS] = { "ctl", "findings", "cover" };

static bool wants_port(const struct mmf_vm_config *c, int p)
{
	return p == PORT_CTL ? c->ctl : p == PORT_FINDINGS ? c->findings : c->cover;
}

/* QEMU makes its socket while it starts: wait for it, a few seconds at most. */
static int connect_port(struct mmf_vm *vm, int p, char *err, size_t n)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", vm->port_path[p]);
	vm->port_fd[p] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	for (int i = 0; vm->port_fd[p] >= 0 && i < 500; i++) {
		if (!connect(vm->port_fd[p], (struct sockaddr *)&sa, sizeof(sa)))
			return 0;
		if (!mmf_vm_alive(vm))
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	snprintf(err, n, "%s channel %s: %s", port_names[p], vm->port_path[p],
		 mmf_vm_alive(vm) ? strerror(errno) : "QEMU exited");
	return -1;
}

/* In the child: never returns. An exec failure goes back through errfd. */
static void exec_qemu(char **argv, int outfd, int errfd, pid_t parent)
{
	int null = open("/dev/null", O_RDONLY);
	int e;

	/* Its own process group: a ^C is the runner's to handle, not QEMU's. */
	setpgid(0, 0);
	/* A guest never outlives its runner. */
	mmf_die_with_parent(parent, SIGKILL, 127);
	if (null < 0 || dup2(null, 0) < 0 || dup2(outfd, 1) < 0 || dup2(outfd, 2) < 0)
		goto fail;
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

int mmf_vm_start(const struct mmf_vm_config *c, struct mmf_vm **vmp, char *err, size_t n)
{
	struct mmf_vm *vm = mmf_xcalloc(1, sizeof(*vm));
	int out[2], errp[2], e;
	pid_t parent = getpid();
	ssize_t r;

	*vmp = NULL;
	vm->console_fd = vm->exec_fd = -1;
	for (int p = 0; p < NR_PORTS; p++)
		vm->port_fd[p] = -1;
	for (int p = 0; p < NR_PORTS; p++) {
		if (!wants_port(c, p))
			continue;
		vm->port_path[p] = mmf_xasprintf("%s/%s.sock", c->workdir, port_names[p]);
		if (strlen(vm->port_path[p]) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
			snprintf(err, n, "%s socket path too long: %s", port_names[p],
				 vm->port_path[p]);
			goto fail;
		}
		unlink(vm->port_path[p]);
	}
	vm->argv = mmf_vm_argv(c, err, n);
	if (!vm->argv)
		goto fail;
	if (mmf_mkdir_p(c->workdir, 0755)) {
		snprintf(err, n, "work directory %s: %s", c->workdir, strerror(errno));
		goto fail;
	}
	if (make_disks(c, vm, err, n) || open_exec_log(c, vm, err, n))
		goto fail;
	if (pipe2(out, O_CLOEXEC))
		goto fail_errno;
	if (pipe2(errp, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		goto fail_errno;
	}
	vm->started = mmf_now_ns();
	vm->pid = fork();
	if (vm->pid == 0)
		exec_qemu(vm->argv, out[1], errp[1], parent);
	e = errno;
	close(out[1]);
	close(errp[1]);
	vm->console_fd = out[0];
	if (vm->pid < 0) {
		close(errp[0]);
		errno = e;
		goto fail_errno;
	}
	setpgid(vm->pid, vm->pid);
	/* EOF: exec succeeded and closed the CLOEXEC end. */
	while ((r = read(errp[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(errp[0]);
	if (r == sizeof(e)) {
		snprintf(err, n, "cannot run %s: %s%s", vm->argv[0], strerror(e),
			 e == ENOENT ? " (scripts/setup.sh installs QEMU)" : "");
		waitpid(vm->pid, NULL, 0);
		vm->exited = true;
		goto fail;
	}
	fcntl(vm->console_fd, F_SETFL, fcntl(vm->console_fd, F_GETFL) | O_NONBLOCK);
	for (int p = 0; p < NR_PORTS; p++) {
		if (!vm->port_path[p])
			continue;
		if (connect_port(vm, p, err, n)) {
			kill(vm->pid, SIGKILL);
			waitpid(vm->pid, NULL, 0);
			vm->exited = true;
			goto fail;
		}
	}
	for (int p = PORT_FINDINGS; p < NR_PORTS; p++)
		if (vm->port_fd[p] >= 0)
			fcntl(vm->port_fd[p], F_SETFL, fcntl(vm->port_fd[p], F_GETFL) | O_NONBLOCK);
	*vmp = vm;
	return 0;
fail_errno:
	snprintf(err, n, "starting %s: %s", c->arch->qemu, strerror(errno));
fail:
	vm_free(vm);
	return -1;
}

char *const *mmf_vm_args(const struct mmf_vm *vm)
{
	return vm->argv;
}

uint64_t mmf_vm_started_ns(const struct mmf_vm *vm)
{
	return vm->started;
}

int mmf_vm_ctl_fd(const struct mmf_vm *vm)
{
	return vm->port_fd[PORT_CTL];
}

int mmf_vm_findings_fd(const struct mmf_vm *vm)
{
	return vm->port_fd[PORT_FINDINGS];
}

int mmf_vm_cover_fd(const struct mmf_vm *vm)
{
	return vm->port_fd[PORT_COVER];
}

int mmf_vm_console_fd(const struct mmf_vm *vm)
{
	return vm->console_fd;
}

ssize_t mmf_vm_read_console(struct mmf_vm *vm, char *buf, size_t n)
{
	for (;;) {
		ssize_t r = read(vm->console_fd, buf, n);

		if (r > 0)
			return r;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return 0;
		return -1;
	}
}

ssize_t mmf_vm_read_exec_log(struct mmf_vm *vm, char *buf, size_t n)
{
	ssize_t r;

	while ((r = read(vm->exec_fd, buf, n)) < 0 && errno == EINTR)
		;
	return r > 0 ? r : 0;
}

bool mmf_vm_alive(struct mmf_vm *vm)
{
	if (!vm->exited && waitpid(vm->pid, &vm->status, WNOHANG) == vm->pid)
		vm->exited = true;
	return !vm->exited;
}

int mmf_vm_stop(struct mmf_vm *vm)
{
	int status;

	/* SIGTERM first: QEMU then closes its files (the exec log) cleanly. */
	if (mmf_vm_alive(vm))
		kill(vm->pid, SIGTERM);
	for (int i = 0; i < 100 && mmf_vm_alive(vm); i++)
		nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
	if (mmf_vm_alive(vm)) {
		kill(vm->pid, SIGKILL);
		while (waitpid(vm->pid, &vm->status, 0) < 0 && errno == EINTR)
			;
		vm->exited = true;
	}
	status = vm->status;
	vm_free(vm);
	return status;
}
