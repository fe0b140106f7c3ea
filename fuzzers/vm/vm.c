// SPDX-License-Identifier: GPL-2.0
/* One QEMU process: scratch disks, console pipe, execution log, teardown. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "vm/qmp.h"
#include "vm/vm.h"

enum { PORT_CTL, PORT_FINDINGS, PORT_COVER, PORT_GO, NR_PORTS };

/* QMP's answers: QEMU is slow to answer only while it loads a saved guest. */
#define QMP_MS		10000
#define MIGRATE_MS	120000

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
	char *bin_img;		/* the guest's mmfuzz (mmf_vm_config.mmfuzz), NULL for none */
	char *qmp_path;		/* with snapshots */
	char *go_args;		/* with snapshots: the guest's options, for the go line */
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
	if (vm->bin_img)
		unlink(vm->bin_img);
	free(vm->bin_img);
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
	if (vm->qmp_path)
		unlink(vm->qmp_path);
	free(vm->qmp_path);
	free(vm->go_args);
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

/* Copy a disk image, holes kept: 0, or -1. */
static int copy_disk(const char *from, const char *to)
{
	char *cp[] = { "cp", "--sparse=always", "--reflink=auto", (char *)from, (char *)to,
		       NULL };

	return run_quiet(cp) ? 0 : -1;
}

/*
 * Sparse: a disk costs the host only what the guest writes to it. A
 * restored guest gets copies of the disks as they were saved with it.
 */
static int make_disks(const struct mmf_vm_config *c, struct mmf_vm *vm, char *err, size_t n)
{
	vm->disks = mmf_xcalloc(c->nr_disks, sizeof(*vm->disks));
	for (size_t i = 0; i < c->nr_disks; i++) {
		char *path = mmf_xasprintf("%s/%s.img", c->workdir, c->disks[i].serial);
		int fd;

		vm->disks[vm->nr_disks++] = path;
		if (c->restore) {
			char *saved = mmf_xasprintf("%s/%s.img", c->restore, c->disks[i].serial);
			int r = copy_disk(saved, path);

			if (r)
				snprintf(err, n, "saved disk %s: cannot copy it", saved);
			free(saved);
			if (r)
				return -1;
			continue;
		}
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
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

/*
 * The guest's mmfuzz disk, never saved with a guest: a guest restored reads
 * the host's build. A link in the run's directory: QEMU's argv, so the
 * snapshot's key, names no build.
 */
static int link_bin(const struct mmf_vm_config *c, struct mmf_vm *vm, char *err, size_t n)
{
	vm->bin_img = mmf_xasprintf("%s/%s.img", c->workdir, MMF_VM_BIN_SERIAL);
	unlink(vm->bin_img);
	if (access(c->guest.mmfuzz, R_OK) || symlink(c->guest.mmfuzz, vm->bin_img)) {
		snprintf(err, n, "the guest's mmfuzz %s: %s", c->guest.mmfuzz, strerror(errno));
		return -1;
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

static const char *const port_names[NR_PORTS] = { "ctl", "findings", "cover", "go" };

static bool wants_port(const struct mmf_vm_config *c, int p)
{
	const bool wanted[NR_PORTS] = { c->ctl, c->findings, c->cover, c->snapshot || c->restore };

	return wanted[p];
}

/* A restored guest: wait until QEMU has loaded it, then let it run. */
static int resume(struct mmf_vm *vm, char *err, size_t n)
{
	int fd = mmf_qmp_open(vm->qmp_path, QMP_MS, err, n), r = -1;
	uint64_t end = mmf_now_ns() + MIGRATE_MS * 1000000ull;
	struct strbuf reply;
	char status[32] = "";

	if (fd < 0)
		return -1;
	mmf_sb_init(&reply);
	while (!mmf_qmp_cmd(fd, "{\"execute\":\"query-status\"}", &reply, MIGRATE_MS, err, n) &&
	       !mmf_qmp_value(reply.buf, "status", status, sizeof(status))) {
		if (!strcmp(status, "running")) {
			r = 0;
			break;
		}
		if (strcmp(status, "inmigrate")) {
			r = mmf_qmp_cmd(fd, "{\"execute\":\"cont\"}", &reply, QMP_MS, err, n);
			break;
		}
		if (mmf_now_ns() > end || !mmf_vm_alive(vm)) {
			snprintf(err, n, "the saved guest was not loaded in %d s", MIGRATE_MS / 1000);
			break;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
	}
	mmf_sb_free(&reply);
	close(fd);
	return r;
}

/*
 * QEMU makes its socket while it starts: wait for it, a few seconds at
 * most. 0, 1 when QEMU exited first, or -1 and err.
 */
static int connect_port(struct mmf_vm *vm, int p, char *err, size_t n)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", vm->port_path[p]);
	vm->port_fd[p] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	for (int i = 0; vm->port_fd[p] >= 0 && i < 500; i++) {
		if (!connect(vm->port_fd[p], (struct sockaddr *)&sa, sizeof(sa)))
			return 0;
		if (!mmf_vm_alive(vm)) {
			close(vm->port_fd[p]);
			vm->port_fd[p] = -1;
			return 1;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	snprintf(err, n, "%s channel %s: %s", port_names[p], vm->port_path[p], strerror(errno));
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
	if (c->snapshot || c->restore) {
		struct strbuf sb;

		vm->qmp_path = mmf_xasprintf("%s/qmp.sock", c->workdir);
		unlink(vm->qmp_path);
		mmf_sb_init(&sb);
		for (size_t i = 0; c->guest.guest_args && c->guest.guest_args[i]; i++)
			mmf_sb_printf(&sb, "%s%s", i ? " " : "", c->guest.guest_args[i]);
		vm->go_args = mmf_sb_detach(&sb);
	}
	if (c->restore && strpbrk(c->restore, "'\"\\")) {
		snprintf(err, n, "snapshot directory %s: a quote or backslash in its path",
			 c->restore);
		goto fail;
	}
	vm->argv = mmf_vm_argv(c, err, n);
	if (!vm->argv)
		goto fail;
	if (mmf_mkdir_p(c->workdir, 0755)) {
		snprintf(err, n, "work directory %s: %s", c->workdir, strerror(errno));
		goto fail;
	}
	if (make_disks(c, vm, err, n) || (c->guest.mmfuzz && link_bin(c, vm, err, n)) ||
	    open_exec_log(c, vm, err, n))
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
		int r = vm->port_path[p] ? connect_port(vm, p, err, n) : 0;

		/*
		 * QEMU that exits at once (a kernel it cannot load) is a boot
		 * that failed, as when it exits a moment later: the caller
		 * sees it exited, its reason on the console.
		 */
		if (r > 0)
			break;
		if (r < 0) {
			kill(vm->pid, SIGKILL);
			waitpid(vm->pid, NULL, 0);
			vm->exited = true;
			goto fail;
		}
	}
	for (int p = PORT_FINDINGS; p < PORT_GO; p++)
		if (vm->port_fd[p] >= 0)
			fcntl(vm->port_fd[p], F_SETFL, fcntl(vm->port_fd[p], F_GETFL) | O_NONBLOCK);
	if (c->restore && resume(vm, err, n)) {
		kill(vm->pid, SIGKILL);
		waitpid(vm->pid, NULL, 0);
		vm->exited = true;
		goto fail;
	}
	*vmp = vm;
	return 0;
fail_errno:
	snprintf(err, n, "starting %s: %s", c->guest.arch->qemu, strerror(errno));
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

/* The migration stream into dir/ram.tmp, the guest stopped: 0, or -1 and err. */
static int save_ram(int fd, const char *dir, struct strbuf *reply, char *err, size_t n)
{
	uint64_t end = mmf_now_ns() + MIGRATE_MS * 1000000ull;
	char *cmd, status[32] = "";
	int r;

	cmd = mmf_xasprintf("{\"execute\":\"migrate\",\"arguments\":"
			    "{\"uri\":\"exec:cat > '%s/ram.tmp'\"}}", dir);
	r = mmf_qmp_cmd(fd, cmd, reply, QMP_MS, err, n);
	free(cmd);
	while (!r) {
		r = mmf_qmp_cmd(fd, "{\"execute\":\"query-migrate\"}", reply, QMP_MS, err, n);
		if (r || mmf_qmp_value(reply->buf, "status", status, sizeof(status)))
			break;
		if (!strcmp(status, "completed"))
			return 0;
		if (!strcmp(status, "failed") || !strcmp(status, "cancelled") ||
		    mmf_now_ns() > end) {
			snprintf(err, n, "saving the guest: migration %s", status);
			return -1;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
	}
	if (!r)
		snprintf(err, n, "saving the guest: no migration status: %.200s", reply->buf);
	return -1;
}

int mmf_vm_snapshot_save(struct mmf_vm *vm, const char *dir, char *err, size_t n)
{
	struct strbuf reply;
	char *tmp, *ram;
	int fd, r;

	if (!vm->qmp_path) {
		snprintf(err, n, "the guest was started without snapshots");
		return -1;
	}
	if (strpbrk(dir, "'\"\\")) {
		snprintf(err, n, "snapshot directory %s: a quote or backslash in its path", dir);
		return -1;
	}
	if (mmf_mkdir_p(dir, 0755)) {
		snprintf(err, n, "snapshot directory %s: %s", dir, strerror(errno));
		return -1;
	}
	fd = mmf_qmp_open(vm->qmp_path, QMP_MS, err, n);
	if (fd < 0)
		return -1;
	mmf_sb_init(&reply);
	tmp = mmf_xasprintf("%s/ram.tmp", dir);
	ram = mmf_xasprintf("%s/ram", dir);
	unlink(ram);
	/* Stopped, so that RAM and disks are of one instant. */
	r = mmf_qmp_cmd(fd, "{\"execute\":\"stop\"}", &reply, QMP_MS, err, n);
	if (!r)
		r = save_ram(fd, dir, &reply, err, n);
	for (size_t i = 0; !r && i < vm->nr_disks; i++) {
		const char *base = strrchr(vm->disks[i], '/');
		char *to = mmf_xasprintf("%s/%s", dir, base ? base + 1 : vm->disks[i]);

		unlink(to);	/* it may be a link of the snapshot cache's */
		r = copy_disk(vm->disks[i], to);
		if (r)
			snprintf(err, n, "saving the guest: cannot copy %s to %s", vm->disks[i], to);
		free(to);
	}
	/* The RAM last: a directory with it is whole. */
	if (!r && rename(tmp, ram)) {
		snprintf(err, n, "saving the guest: %s: %s", ram, strerror(errno));
		r = -1;
	}
	if (r)
		unlink(tmp);
	if (mmf_qmp_cmd(fd, "{\"execute\":\"cont\"}", &reply, QMP_MS, r ? NULL : err, r ? 0 : n))
		r = -1;
	mmf_sb_free(&reply);
	close(fd);
	free(tmp);
	free(ram);
	return r;
}

void mmf_vm_snapshot_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *path = mmf_xasprintf("%s/%s", dir, e->d_name);

		if (e->d_name[0] != '.')
			unlink(path);
		free(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/*
 * The snapshot cache. A guest saved at its snapshot point serves every
 * later guest started the same way, in this run or a later one: what
 * shapes it up to there is QEMU's binary, the kernel, the initramfs and
 * QEMU's argv but for the run's own paths (the guest's options come after
 * the point, on the go line). Entries are $MMFUZZ_CACHE/snapshots/KEY,
 * the SNAP_KEEP most recently used; files are hard links where they can be.
 */
#define SNAP_KEEP	16
#define SNAP_FORMAT	"mmfuzz snapshot 1"

static uint64_t hash_file(uint64_t h, const char *path)
{
	struct stat st;

	h = mmf_fnv64(h, path, strlen(path) + 1);
	if (stat(path, &st))
		return 0;
	/* Not the inode: a cache restored from an archive keeps paths and times. */
	h = mmf_fnv64(h, &st.st_size, sizeof(st.st_size));
	return mmf_fnv64(h, &st.st_mtim, sizeof(st.st_mtim));
}

/* The QEMU binary execvp() would run, NULL if none. */
static char *qemu_path(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL, *found = NULL;

	if (strchr(name, '/'))
		return access(name, X_OK) ? NULL : mmf_xstrdup(name);
	dirs = mmf_xstrdup(path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *f = mmf_xasprintf("%s/%s", *d ? d : ".", name);

		if (!access(f, X_OK))
			found = f;
		else
			free(f);
	}
	free(dirs);
	return found;
}

char *mmf_vm_snapshot_key(const struct mmf_vm_config *c)
{
	struct mmf_vm_config k = *c;
	char **argv, *qemu = qemu_path(c->guest.arch->qemu), err[256];
	uint64_t h = mmf_fnv64(MMF_FNV64_INIT, SNAP_FORMAT, sizeof(SNAP_FORMAT));

	k.workdir = k.exec_log = "@";
	k.snapshot = true;
	k.restore = NULL;
	argv = qemu ? mmf_vm_argv(&k, err, sizeof(err)) : NULL;
	for (size_t i = 0; argv && argv[i]; i++)
		h = mmf_fnv64(h, argv[i], strlen(argv[i]) + 1);
	mmf_vm_argv_free(argv);
	if (argv)
		h = hash_file(h, qemu);
	if (argv && h)
		h = hash_file(h, c->guest.kernel);
	if (argv && h && c->guest.initrd)
		h = hash_file(h, c->guest.initrd);
	free(qemu);
	return argv && h ? mmf_xasprintf("%016llx", (unsigned long long)h) : NULL;
}

/* Hard links of dir's files in to (created), copies where links fail. */
static int link_files(const char *dir, const char *to)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = d && !mmf_mkdir_p(to, 0755) ? 0 : -1;

	/*
	 * Through the directory opened, not its path: a keep that replaces
	 * the entry meanwhile must not give us files of two guests.
	 */
	while (!r && (e = readdir(d))) {
		char *from = mmf_xasprintf("/proc/self/fd/%d/%s", dirfd(d), e->d_name);
		char *path = mmf_xasprintf("%s/%s", to, e->d_name);

		if (e->d_name[0] != '.' && strcmp(e->d_name, "ram.tmp")) {
			unlink(path);
			if (linkat(dirfd(d), e->d_name, AT_FDCWD, path, 0))
				r = copy_disk(from, path);
		}
		free(from);
		free(path);
	}
	if (d)
		closedir(d);
	return r;
}

static char *snap_cache(void)
{
	return mmf_xasprintf("%s/snapshots", mmf_vm_cache_dir());
}

bool mmf_vm_snapshot_fetch(const char *key, const char *dir)
{
	char *cache = snap_cache(), *entry = mmf_xasprintf("%s/%s", cache, key);
	char *ram = mmf_xasprintf("%s/ram", entry);
	bool ok = !access(ram, R_OK) && !link_files(entry, dir);

	if (ok)
		utimensat(AT_FDCWD, entry, NULL, 0);	/* recently used */
	else
		mmf_vm_snapshot_remove(dir);
	free(ram);
	free(entry);
	free(cache);
	return ok;
}

struct snap_entry {
	time_t used;
	char *path;
};

static int newer_first(const void *a, const void *b)
{
	const struct snap_entry *x = a, *y = b;

	return (y->used > x->used) - (y->used < x->used);
}

/* Drop the entries past the SNAP_KEEP most recently used, and dead runs' unfinished ones. */
static void snap_prune(const char *cache)
{
	struct snap_entry *e = NULL;
	struct dirent *de;
	DIR *d = opendir(cache);
	int n = 0;

	while (d && (de = readdir(d))) {
		char *path = mmf_xasprintf("%s/%s", cache, de->d_name);
		struct stat st;
		int tid;

		if (de->d_name[0] != '.' && !stat(path, &st)) {
			e = mmf_xrealloc(e, (n + 1) * sizeof(*e));
			e[n++] = (struct snap_entry){ st.st_mtime, path };
			continue;
		}
		/* .KEY.TID and .KEY.TID.old of a keep that never finished. */
		if (sscanf(de->d_name, ".%*16[0-9a-f].%d", &tid) == 1 && kill(tid, 0) &&
		    errno == ESRCH)
			mmf_vm_snapshot_remove(path);
		free(path);
	}
	if (d)
		closedir(d);
	qsort(e, n, sizeof(*e), newer_first);
	for (int i = 0; i < n; i++) {
		if (i >= SNAP_KEEP)
			mmf_vm_snapshot_remove(e[i].path);
		free(e[i].path);
	}
	free(e);
}

void mmf_vm_snapshot_keep(const char *key, const char *dir)
{
	char *cache = snap_cache(), *entry = mmf_xasprintf("%s/%s", cache, key);
	/* The thread's id: nightly's reproducing workers may keep one key at once. */
	char *tmp = mmf_xasprintf("%s/.%s.%d", cache, key, (int)gettid());
	char *old = mmf_xasprintf("%s.old", tmp);

	/*
	 * Whole or not at all, and the newest: a guest is saved only when no
	 * entry served it (none, or one QEMU could not restore).
	 */
	if (!link_files(dir, tmp)) {
		if (rename(tmp, entry) && rename(entry, old) == 0)
			rename(tmp, entry);
		snap_prune(cache);
	}
	mmf_vm_snapshot_remove(tmp);
	mmf_vm_snapshot_remove(old);
	free(old);
	free(tmp);
	free(entry);
	free(cache);
}

void mmf_vm_snapshot_console(const char *dir, int fd)
{
	char *path = mmf_xasprintf("%s/console", dir);
	size_t len = 0;
	char *text = mmf_read_file(path, &len);

	if (text && fd >= 0)
		mmf_write_all(fd, text, len);
	free(text);
	free(path);
}

int mmf_vm_go(struct mmf_vm *vm, const char *options, const char *data, char *err, size_t n)
{
	/* The options first: the guest's own come after, and the last of two wins. */
	char *line = mmf_xasprintf("%s %s\n%s", options, vm->go_args ? vm->go_args : "",
				   data ? data : "");
	int r = vm->port_fd[PORT_GO] < 0 ? -1 : mmf_write_all(vm->port_fd[PORT_GO], line,
								   strlen(line));

	if (r)
		snprintf(err, n, "the guest's go channel: %s", vm->port_fd[PORT_GO] < 0 ?
			 "none (started without snapshots)" : strerror(errno));
	free(line);
	return r;
}

void mmf_vm_snap_init(struct mmf_vm_snap *s, char *dir)
{
	*s = (struct mmf_vm_snap){ .dir = dir };
}

void mmf_vm_snap_free(struct mmf_vm_snap *s)
{
	mmf_vm_snapshot_remove(s->dir);
	free(s->dir);
	free(s->key);
	*s = (struct mmf_vm_snap){ 0 };
}

int mmf_vm_snap_start(struct mmf_vm_snap *s, struct mmf_vm_config *c, const char *options,
		      const char *data, int console_fd, struct mmf_vm **vmp, char *why, size_t wn,
		      char *err, size_t n)
{
	why[0] = '\0';
	s->fetched = false;
	if (!s->off && !s->keyed) {
		s->keyed = true;
		s->key = mmf_vm_snapshot_key(c);
		s->saved = s->fetched = s->key && mmf_vm_snapshot_fetch(s->key, s->dir);
	}
	c->restore = s->saved && !s->off ? s->dir : NULL;
	c->snapshot = !s->saved && !s->off;
	if (c->restore) {
		if (!mmf_vm_start(c, vmp, why, wn) && !mmf_vm_go(*vmp, options, data, why, wn)) {
			mmf_vm_snapshot_console(s->dir, console_fd);
			s->at_point = false;
			return 1;
		}
		if (*vmp)
			mmf_vm_stop(*vmp);
		*vmp = NULL;
		/* Boots from now on, the first stopping at the point to be saved again. */
		s->saved = false;
		c->restore = NULL;
		c->snapshot = true;
	}
	if (mmf_vm_start(c, vmp, err, n))
		return -1;
	s->at_point = c->snapshot;
	return 0;
}

int mmf_vm_snap_point(struct mmf_vm_snap *s, struct mmf_vm *vm, const char *console,
		      const char *options, const char *data, char *err, size_t n)
{
	const char *p = console ? strstr(console, MMF_VM_SNAPSHOT_POINT) : NULL;
	char goerr[256];
	size_t len;

	err[0] = '\0';
	if (!s->at_point || !p || !strchr(p, '\n'))
		return 0;
	s->at_point = false;
	s->saved = false;
	if (!strncmp(p + strlen(MMF_VM_SNAPSHOT_POINT), "yes", 3)) {
		char *boot = mmf_xasprintf("%s/console", s->dir);

		s->saved = !mmf_vm_snapshot_save(vm, s->dir, err, n);
		/* The boot up to here, for the consoles of the guests restored from it. */
		if (s->saved && mmf_write_file_atomic(boot, console, strchr(p, '\n') + 1 - console))
			unlink(boot);
		free(boot);
		if (!s->saved) {
			len = strlen(err);
			snprintf(err + len, n - len, "; its restarts boot");
		}
	}
	if (s->saved && s->key)
		mmf_vm_snapshot_keep(s->key, s->dir);
	if (mmf_vm_go(vm, options, data, goerr, sizeof(goerr))) {
		len = strlen(err);
		snprintf(err + len, n - len, "%s%s", len ? "; " : "", goerr);
	}
	return 1;
}

bool mmf_vm_alive(struct mmf_vm *vm)
{
	if (!vm->exited && waitpid(vm->pid, &vm->status, WNOHANG) == vm->pid)
		vm->exited = true;
	return !vm->exited;
}

const char *mmf_vm_ended(struct mmf_vm *vm, char *buf, size_t n)
{
	/* Its console closes as it exits: it may not be reaped yet. */
	for (int i = 0; i < 100 && mmf_vm_alive(vm); i++)
		nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
	if (mmf_vm_alive(vm))
		snprintf(buf, n, "still running");
	else if (WIFSIGNALED(vm->status))
		snprintf(buf, n, "killed by SIG%s", sigabbrev_np(WTERMSIG(vm->status)) ?: "?");
	else
		snprintf(buf, n, "exit status %d", WEXITSTATUS(vm->status));
	return buf;
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
