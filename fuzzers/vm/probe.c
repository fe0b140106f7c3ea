// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a kernel really boots under KVM. A /dev/kvm that makes VMs and
 * vCPUs can still fail a guest: nested KVM that rejects MSRs QEMU sets for
 * -cpu host, or that stops a kernel before its first line. A second or so
 * under a working KVM; a broken one costs the timeout, once per host boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"
#include "vm/vm.h"

#define PROBE_MS	15000
#define PROBE_LINE	"Linux version"

static bool probe(const struct mmf_vm_arch *a, const char *kernel)
{
	char *append = mmf_xasprintf("console=%s panic=-1", a->console);
	const char *argv[] = {
		a->qemu, "-machine", a->machine, "-accel", "kvm", "-cpu", a->cpu[MMF_VM_KVM],
		"-m", "256", "-kernel", kernel, "-append", append, "-nographic",
		"-no-reboot", "-nic", "none", NULL,
	};
	uint64_t t0 = mmf_now_ns();
	struct strbuf out;
	bool ok = false;
	int fds[2];
	pid_t pid, parent;

	mmf_sb_init(&out);
	if (pipe2(fds, O_CLOEXEC)) {
		free(append);
		return false;
	}
	parent = getpid();
	pid = fork();
	if (pid == 0) {
		mmf_die_with_parent(parent, SIGKILL, 127);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execvp(argv[0], (char **)argv);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && !ok && mmf_now_ns() - t0 < PROBE_MS * 1000000ull) {
		struct pollfd pf = { .fd = fds[0], .events = POLLIN };
		char buf[4096];
		ssize_t r;

		if (poll(&pf, 1, 200) <= 0)
			continue;
		r = read(fds[0], buf, sizeof(buf));
		if (r <= 0)
			break;	/* QEMU exited */
		mmf_sb_add(&out, buf, r);
		mmf_sb_add(&out, "", 1);
		out.len--;
		ok = strstr(out.buf, PROBE_LINE) != NULL;
	}
	close(fds[0]);
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	mmf_sb_free(&out);
	free(append);
	return ok;
}

/*
 * The verdict holds until the host reboots: /run is a tmpfs. Kept apart
 * from the state dir, whose files are journals.
 */
bool mmf_vm_kvm_boots(const struct mmf_vm_arch *a, const char *kernel)
{
	char *path = mmf_xasprintf("/run/mmfuzz-kvm-probe.%s", a->name);
	char *old = mmf_read_file(path, NULL);
	bool ok;

	if (old && (!strcmp(old, "ok\n") || !strcmp(old, "broken\n"))) {
		ok = old[0] == 'o';
	} else {
		ok = probe(a, kernel);
		mmf_write_file_atomic(path, ok ? "ok\n" : "broken\n", ok ? 3 : 7);
	}
	free(old);
	free(path);
	return ok;
}
