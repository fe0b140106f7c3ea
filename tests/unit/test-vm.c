// SPDX-License-Identifier: GPL-2.0
/*
 * The guest runner without QEMU: the arch table, the kernel command line,
 * QEMU's argv (snapshots too) and its printing, QMP answers, and one run
 * of a stand-in "QEMU" script that prints a console, writes an execution
 * log and exits.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "util/util.h"
#include "vm/qmp.h"
#include "vm/vm.h"

static const char *const guest_args[] = { "--duration", "40s", "--seed", "7", NULL };

static struct mmf_vm_config config(const char *arch, enum mmf_vm_accel accel)
{
	struct mmf_vm_config c = {
		.guest = {
			.arch = mmf_vm_arch_find(arch), .accel = accel,
			.kernel = "/k/Image", .initrd = "/k/initrd.gz",
			.mem_mb = 1024, .cpus = 2, .guest_args = guest_args,
		},
		.workdir = "/w,x", .exec_log = "/o/exec.log", .disks = mmf_vm_default_disks,
		.nr_disks = mmf_vm_nr_default_disks, .zram_mb = 64,
	};

	return c;
}

/* The argument after the first one equal to key, or NULL. */
static const char *after(char **argv, const char *key)
{
	for (size_t i = 0; argv[i]; i++)
		if (!strcmp(argv[i], key))
			return argv[i + 1];
	return NULL;
}

static bool has_arg(char **argv, const char *s)
{
	for (size_t i = 0; argv[i]; i++)
		if (!strcmp(argv[i], s))
			return true;
	return false;
}

static void test_arches(void)
{
	CHECK(mmf_vm_arch_find("x86_64") == &mmf_vm_arches[0], "x86_64");
	CHECK(mmf_vm_arch_find("amd64") == mmf_vm_arch_find("x86_64"), "amd64 alias");
	CHECK(mmf_vm_arch_find("aarch64") == mmf_vm_arch_find("arm64"), "aarch64 alias");
	CHECK(!mmf_vm_arch_find("mips"), "unknown arch");
	for (size_t i = 0; i < mmf_vm_nr_arches; i++) {
		const struct mmf_vm_arch *a = &mmf_vm_arches[i];

		CHECK(a->qemu && a->machine && a->console && a->image && a->extra,
		      "%s: a field is missing", a->name);
		CHECK(a->cpu[MMF_VM_TCG] && a->cpu[MMF_VM_KVM], "%s: a cpu is missing", a->name);
	}
	CHECK(mmf_vm_slowdown(MMF_VM_TCG) == 10 && mmf_vm_slowdown(MMF_VM_KVM) == 1,
	      "slowdowns");
	setenv("MMFUZZ_ACCEL", "tcg", 1);
	CHECK(mmf_vm_accel_detect(mmf_vm_arch_find("x86_64"), NULL) == MMF_VM_TCG, "forced tcg");
	setenv("MMFUZZ_ACCEL", "kvm", 1);
	CHECK(mmf_vm_accel_detect(mmf_vm_arch_find("arm64"), NULL) == MMF_VM_KVM, "forced kvm");
	unsetenv("MMFUZZ_ACCEL");
}

static void test_cmdline(void)
{
	struct mmf_vm_config c = config("arm64", MMF_VM_TCG);
	const char *bad[] = { "--out", "a,b", NULL };
	char err[256], *s;

	s = mmf_vm_cmdline(&c, err, sizeof(err));
	CHECK(s, "cmdline: %s", err);
	CHECK(!strncmp(s, "console=ttyAMA0 panic_on_warn=1 oops=panic panic=-1 ", 52), "%s", s);
	/* Scaled by 10 under TCG, capped where the kernel caps them. */
	CHECK(strstr(s, " rcupdate.rcu_cpu_stall_timeout=210 "), "%s", s);
	CHECK(strstr(s, " watchdog_thresh=60 "), "%s", s);
	CHECK(strstr(s, " mmfuzz.zram=64 "), "%s", s);
	/* The guest's hang oracle grows its bounds by TCG's factor. */
	CHECK(strstr(s, " mmfuzz.slowdown=10 "), "%s", s);
	CHECK(strstr(s, " mmfuzz.args=--duration,40s,--seed,7") &&
	      !strcmp(strstr(s, " mmfuzz.args=") + 13, "--duration,40s,--seed,7"), "%s", s);
	free(s);

	c.guest.accel = MMF_VM_KVM;
	c.guest.append = "mmfuzz.crash_after=5";
	s = mmf_vm_cmdline(&c, err, sizeof(err));
	CHECK(strstr(s, " rcupdate.rcu_cpu_stall_timeout=21 "), "%s", s);
	CHECK(strstr(s, " mmfuzz.crash_after=5 "), "%s", s);
	CHECK(strstr(s, " mmfuzz.slowdown=1 "), "%s", s);
	free(s);

	c.guest.guest_args = bad;
	CHECK(!mmf_vm_cmdline(&c, err, sizeof(err)), "a comma must not pass");
	CHECK(strstr(err, "'a,b'"), "%s", err);
	c.guest.guest_args = NULL;
	s = mmf_vm_cmdline(&c, err, sizeof(err));
	CHECK(s && !strstr(s, "mmfuzz.args"), "%s", s);
	free(s);
}

static void test_argv(void)
{
	struct mmf_vm_config c = config("arm64", MMF_VM_TCG);
	char err[256], **argv, *line;

	argv = mmf_vm_argv(&c, err, sizeof(err));
	CHECK(argv, "argv: %s", err);
	CHECK(!strcmp(argv[0], "qemu-system-aarch64"), "%s", argv[0]);
	CHECK(!strcmp(after(argv, "-machine"), "virt,gic-version=3"), "machine");
	CHECK(!strcmp(after(argv, "-cpu"), "max,pauth=off"), "cpu");
	CHECK(!strcmp(after(argv, "-accel"), "tcg,thread=multi"), "accel");
	CHECK(!strcmp(after(argv, "-smp"), "2,sockets=2"), "smp");
	CHECK(!strcmp(after(argv, "-m"), "1024"), "mem");
	CHECK(!strcmp(after(argv, "-kernel"), "/k/Image"), "kernel");
	CHECK(!strcmp(after(argv, "-initrd"), "/k/initrd.gz"), "initrd");
	CHECK(has_arg(argv, "-nographic") && has_arg(argv, "-no-reboot"), "display, reboot");
	CHECK(!strcmp(after(argv, "-chardev"), "file,id=execlog,append=on,path=/o/exec.log"),
	      "%s", after(argv, "-chardev"));
	CHECK(has_arg(argv, "virtconsole,bus=vser0.0,chardev=execlog"), "exec log port");
	/* A comma in a path is doubled inside QEMU's option lists. */
	CHECK(!strcmp(after(argv, "-drive"), "file=/w,,x/swap0.img,if=none,id=d0,format=raw,"
		      "cache=unsafe,discard=unmap"), "%s", after(argv, "-drive"));
	CHECK(has_arg(argv, "virtio-blk-pci,drive=d2,serial=fs0"), "fs disk");
	line = mmf_vm_argv_str(argv);
	CHECK(strstr(line, " -append 'console=ttyAMA0 panic_on_warn=1 "), "%s", line);
	CHECK(strstr(line, " -smp 2,sockets=2 "), "%s", line);
	free(line);
	mmf_vm_argv_free(argv);

	c = config("x86_64", MMF_VM_KVM);
	argv = mmf_vm_argv(&c, err, sizeof(err));
	CHECK(!strcmp(argv[0], "qemu-system-x86_64"), "%s", argv[0]);
	CHECK(!strcmp(after(argv, "-machine"), "q35"), "machine");
	CHECK(!strcmp(after(argv, "-cpu"), "host") && !strcmp(after(argv, "-accel"), "kvm"),
	      "kvm cpu");
	CHECK(strstr(after(argv, "-append"), "console=ttyS0 "), "console");
	CHECK(!after(argv, "-qmp") && !after(argv, "-incoming") &&
	      !strstr(after(argv, "-append"), "mmfuzz.snapshot"), "snapshots unasked for");
	mmf_vm_argv_free(argv);

	/* Snapshots: QMP, the go port, the point; a restore loads the saved guest. */
	c.snapshot = true;
	argv = mmf_vm_argv(&c, err, sizeof(err));
	CHECK(!strcmp(after(argv, "-qmp"), "unix:/w,,x/qmp.sock,server=on,wait=off"), "qmp");
	CHECK(has_arg(argv, "virtserialport,bus=vser0.0,chardev=go,name=mmfuzz.go"), "go port");
	CHECK(strstr(after(argv, "-append"), " mmfuzz.snapshot=1"), "snapshot point");
	CHECK(!strstr(after(argv, "-append"), "mmfuzz.args"), "the options go on the go line");
	CHECK(!after(argv, "-incoming"), "a snapshot's boot loads nothing");
	mmf_vm_argv_free(argv);
	c.snapshot = false;
	c.restore = "/w/snapshot";
	argv = mmf_vm_argv(&c, err, sizeof(err));
	CHECK(!strcmp(after(argv, "-incoming"), "exec:cat '/w/snapshot/ram'"), "incoming");
	CHECK(after(argv, "-qmp") && has_arg(argv,
	      "virtserialport,bus=vser0.0,chardev=go,name=mmfuzz.go"), "restore: qmp, go port");
	CHECK(!has_arg(argv, "virtio-blk-pci,drive=bin,serial=bin"), "a disk of mmfuzz unasked for");
	mmf_vm_argv_free(argv);
	/* The guest's mmfuzz: a read-only disk in the run's directory, never its path. */
	c.guest.mmfuzz = "/build/mmfuzz-static";
	argv = mmf_vm_argv(&c, err, sizeof(err));
	CHECK(has_arg(argv, "file=/w,,x/bin.img,if=none,id=bin,format=raw,readonly=on") &&
	      has_arg(argv, "virtio-blk-pci,drive=bin,serial=bin"), "the disk of mmfuzz");
	mmf_vm_argv_free(argv);
	c.guest.mmfuzz = NULL;

	{
		char v[16];

		CHECK(!mmf_qmp_value("{\"return\": {\"status\": \"completed\", \"total-time\": 9}}",
				     "status", v, sizeof(v)) && !strcmp(v, "completed"), "%s", v);
		CHECK(!mmf_qmp_value("{\"return\":{\"running\":false,\"status\":\"inmigrate\"}}",
				     "status", v, 4) && !strcmp(v, "inm"), "cut to the buffer: %s", v);
		CHECK(mmf_qmp_value("{\"return\": {}}", "status", v, sizeof(v)), "no status");
	}
	{
		char *q[] = { "a", "it's", "", "x y", NULL };

		line = mmf_vm_argv_str(q);
		CHECK(!strcmp(line, "a 'it'\\''s' '' 'x y'"), "%s", line);
		free(line);
	}
}

/* A stand-in for QEMU: console lines, one program on the exec log, exit. */
static const char fake_qemu[] =
	"#!/bin/sh\n"
	"for a; do case $a in file,id=execlog,*) log=${a#*path=} ;; esac; done\n"
	"echo 'mmfuzz-init: start'\n"
	"echo 'stderr is the console too' >&2\n"
	"printf '# mmfuzz: executing program\\nm0 = mmap(0, 1, anon)\\n' >>\"$log\"\n"
	"[ -n \"$FAKE_HANG\" ] && exec sleep 60\n"
	"echo 'mmfuzz-init: powering off'\n";

static void test_run(void)
{
	char dir[] = "/tmp/mmfuzz-test-vm.XXXXXX", err[256], *qemu, *work, *log;
	struct mmf_vm_arch arch = mmf_vm_arches[0];
	struct mmf_vm_config c;
	struct mmf_vm *vm;
	struct stat st;
	int status;

	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	qemu = mmf_xasprintf("%s/qemu", dir);
	work = mmf_xasprintf("%s/work", dir);
	log = mmf_xasprintf("%s/exec.log", dir);
	CHECK(!mmf_write_file_atomic(qemu, fake_qemu, strlen(fake_qemu)) && !chmod(qemu, 0755),
	      "fake qemu");
	arch.qemu = qemu;
	c = config("x86_64", MMF_VM_KVM);
	c.guest.arch = &arch;
	c.workdir = work;
	c.exec_log = log;

	/* The console is QEMU's stdout and stderr; the exec log is followed. */
	CHECK(!mmf_vm_start(&c, &vm, err, sizeof(err)), "start: %s", err);
	{
		struct strbuf con, ex;
		char buf[4096];
		ssize_t n;

		mmf_sb_init(&con);
		mmf_sb_init(&ex);
		for (int i = 0; i < 500; i++) {
			while ((n = mmf_vm_read_console(vm, buf, sizeof(buf))) > 0)
				mmf_sb_add(&con, buf, n);
			while ((n = mmf_vm_read_exec_log(vm, buf, sizeof(buf))) > 0)
				mmf_sb_add(&ex, buf, n);
			if (n < 0 || (!mmf_vm_alive(vm) && strstr(con.buf ? con.buf : "",
								  "powering off")))
				break;
			usleep(10000);
		}
		mmf_sb_add(&con, "", 0);
		mmf_sb_add(&ex, "", 0);
		CHECK(strstr(con.buf, "mmfuzz-init: start\n") &&
		      strstr(con.buf, "stderr is the console"), "console: %s", con.buf);
		CHECK(!strncmp(ex.buf, MMF_VM_EXEC_MARK, strlen(MMF_VM_EXEC_MARK)), "exec log: %s",
		      ex.buf);
		mmf_sb_free(&con);
		mmf_sb_free(&ex);
	}
	status = mmf_vm_stop(vm);
	CHECK(WIFEXITED(status) && !WEXITSTATUS(status), "QEMU's status %d", status);
	/* The scratch disks are gone with the guest. */
	for (size_t i = 0; i < mmf_vm_nr_default_disks; i++) {
		char *p = mmf_xasprintf("%s/%s.img", work, mmf_vm_default_disks[i].serial);

		CHECK(stat(p, &st) && errno == ENOENT, "%s left", p);
		free(p);
	}

	/* A hung guest is killed; the exec log is read from where it ended. */
	setenv("FAKE_HANG", "1", 1);
	CHECK(!mmf_vm_start(&c, &vm, err, sizeof(err)), "start: %s", err);
	{
		char buf[4096];
		ssize_t n = 0;

		for (int i = 0; i < 500 && n <= 0; i++) {
			n = mmf_vm_read_exec_log(vm, buf, sizeof(buf));
			usleep(10000);
		}
		CHECK(n == 50 && !strncmp(buf, MMF_VM_EXEC_MARK, strlen(MMF_VM_EXEC_MARK)),
		      "new exec log bytes: %zd", n);
		CHECK(mmf_vm_alive(vm), "the hung guest is alive");
		{
			char *p = mmf_xasprintf("%s/swap0.img", work);

			CHECK(!stat(p, &st) && st.st_size == 256 << 20 && st.st_blocks == 0,
			      "a sparse 256 MiB disk");
			free(p);
		}
	}
	status = mmf_vm_stop(vm);
	CHECK(WIFSIGNALED(status), "killed: status %d", status);
	unsetenv("FAKE_HANG");

	/* A QEMU that exits before its sockets are there: a guest that ended, not an error. */
	c.findings = true;
	CHECK(!mmf_vm_start(&c, &vm, err, sizeof(err)), "start: %s", err);
	for (int i = 0; i < 500 && mmf_vm_alive(vm); i++)
		usleep(10000);
	CHECK(!mmf_vm_alive(vm) && mmf_vm_findings_fd(vm) < 0, "QEMU exited, no channel");
	mmf_vm_stop(vm);
	c.findings = false;

	arch.qemu = "/nonexistent/qemu";
	CHECK(mmf_vm_start(&c, &vm, err, sizeof(err)) && strstr(err, "cannot run"), "%s", err);

	unlink(log);
	unlink(qemu);
	rmdir(work);
	CHECK(!rmdir(dir), "rmdir %s: %s", dir, strerror(errno));
	free(qemu);
	free(work);
	free(log);
}

/* dir/name in a buffer of the caller's. */
static const char *at(char buf[256], const char *dir, const char *name)
{
	int n = snprintf(buf, 256, "%s/%s", dir, name);

	CHECK(n < 256, "%s/%s: too long", dir, name);
	return buf;
}

static void put(const char *dir, const char *name, const char *text)
{
	char p[256];

	CHECK(!mmf_write_file_atomic(at(p, dir, name), text, strlen(text)), "%s: %s", p,
	      strerror(errno));
}

/* Whether dir/name holds text. */
static bool holds(const char *dir, const char *name, const char *text)
{
	char p[256], *t = mmf_read_file(at(p, dir, name), NULL);
	bool same = t && !strcmp(t, text);

	free(t);
	return same;
}

static void rm_r(const char *dir)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -r '%s'", dir);
	CHECK(!system(cmd), "%s", cmd);
}

/* Keys: the run's paths and options do not count, the guest's make-up does. */
static void test_snapshot_key(void)
{
	static const char *const other_args[] = { "--corrupt-tag", "238", NULL };
	char dir[] = "/tmp/mmfuzz-test-vm.XXXXXX", qemu[256], kernel[256], initrd[256], *k1, *k2;
	const struct timespec old[2] = { { 1000, 0 }, { 1000, 0 } };
	struct mmf_vm_arch arch = mmf_vm_arches[0];
	struct mmf_vm_config c = config("x86_64", MMF_VM_TCG), d;

	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	put(dir, "qemu", "");
	put(dir, "kernel", "k");
	put(dir, "initrd", "i");
	CHECK(!chmod(at(qemu, dir, "qemu"), 0755), "chmod");
	arch.qemu = qemu;
	c.guest.arch = &arch;
	c.guest.kernel = at(kernel, dir, "kernel");
	c.guest.initrd = at(initrd, dir, "initrd");
	c.guest.mmfuzz = "/build-1/mmfuzz";
	d = c;
	d.workdir = "/elsewhere/boot-3";
	d.exec_log = "/elsewhere/exec.log";
	d.guest.guest_args = other_args;
	d.snapshot = true;
	/* The guest reads its mmfuzz after the point: a new build restores. */
	d.guest.mmfuzz = "/build-2/mmfuzz";
	k1 = mmf_vm_snapshot_key(&c);
	k2 = mmf_vm_snapshot_key(&d);
	CHECK(k1 && k2 && !strcmp(k1, k2), "paths, options, mmfuzz: %s %s", k1, k2);
	free(k2);
	d.guest.mmfuzz = NULL;
	k2 = mmf_vm_snapshot_key(&d);
	CHECK(k2 && strcmp(k1, k2), "without the disk of mmfuzz, the same key");
	free(k2);
	d.guest.mmfuzz = c.guest.mmfuzz;
	d.guest.mem_mb *= 2;
	k2 = mmf_vm_snapshot_key(&d);
	CHECK(k2 && strcmp(k1, k2), "more memory, the same key");
	free(k2);
	d.guest.mem_mb = c.guest.mem_mb;
	CHECK(!utimensat(AT_FDCWD, kernel, old, 0), "utimensat");
	k2 = mmf_vm_snapshot_key(&d);
	CHECK(k2 && strcmp(k1, k2), "a rebuilt kernel, the same key");
	free(k2);
	arch.qemu = "mmfuzz-no-such-qemu";
	CHECK(!mmf_vm_snapshot_key(&d), "a key without QEMU");
	free(k1);
	rm_r(dir);
}

/* The cache: kept whole, fetched as links, replaced by a newer one, a few kept. */
static void test_snapshot_cache(void)
{
	static const char key[] = "0123456789abcdef";
	char dir[] = "/tmp/mmfuzz-test-vm.XXXXXX", snap[256], w[256], cache[256], entry[256];
	char p[256], q[256];
	struct stat a, b;
	struct dirent *e;
	DIR *d;
	int n = 0;

	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	setenv("MMFUZZ_CACHE", dir, 1);
	at(snap, dir, "snap");
	at(w, dir, "w");
	at(cache, dir, "snapshots");
	at(entry, cache, key);
	CHECK(!mmf_mkdir_p(snap, 0755), "mkdir");
	put(snap, "ram", "ram 1");
	put(snap, "swap0.img", "disk");
	put(snap, "ram.tmp", "half");
	put(snap, "console", "[    0.000000] Linux version\n");
	CHECK(!mmf_vm_snapshot_fetch(key, w) && access(w, F_OK), "fetched from an empty cache");
	mmf_vm_snapshot_keep(key, snap);
	CHECK(!stat(at(p, snap, "ram"), &a) && !stat(at(q, entry, "ram"), &b) &&
	      a.st_ino == b.st_ino, "kept as a link");
	CHECK(access(at(p, entry, "ram.tmp"), F_OK), "a part-written file kept");
	CHECK(mmf_vm_snapshot_fetch(key, w) && holds(w, "swap0.img", "disk"), "not fetched");
	{
		/* A restored guest's console log starts with the saved boot's. */
		int fd = open(at(p, dir, "console.log"), O_WRONLY | O_CREAT | O_TRUNC, 0644);

		mmf_vm_snapshot_console(w, fd);
		close(fd);
		CHECK(holds(dir, "console.log", "[    0.000000] Linux version\n"),
		      "the saved boot's console");
	}
	/* A newer guest of the same key replaces it; what was fetched stays whole. */
	unlink(at(p, snap, "ram"));
	put(snap, "ram", "ram 2");
	mmf_vm_snapshot_keep(key, snap);
	CHECK(holds(entry, "ram", "ram 2"), "not replaced");
	CHECK(holds(w, "ram", "ram 1"), "a fetched snapshot changed");
	/* What a keep killed half-way left: gone at the next keep. */
	{
		pid_t dead = fork();

		if (!dead)
			_exit(0);
		waitpid(dead, NULL, 0);
		snprintf(p, sizeof(p), ".%s.%d.old", key, (int)dead);
		CHECK(!mmf_mkdir_p(at(q, cache, p), 0755), "mkdir %s", q);
	}
	for (int i = 0; i < 20; i++) {
		/* Each used longer ago than the ones after it. */
		const struct timespec t[2] = { { 2000 + i, 0 }, { 2000 + i, 0 } };

		snprintf(q, sizeof(q), "%016x", i);
		mmf_vm_snapshot_keep(q, snap);
		utimensat(AT_FDCWD, at(p, cache, q), t, 0);
	}
	d = opendir(cache);
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	CHECK(n == 16, "%d entries left, not the 16 kept (an unfinished one?)", n);
	snprintf(q, sizeof(q), "%016x", 19);
	CHECK(!access(at(p, cache, q), F_OK), "the newest dropped");
	snprintf(q, sizeof(q), "%016x", 3);
	CHECK(access(at(p, cache, q), F_OK), "a least recently used one kept");
	unsetenv("MMFUZZ_CACHE");
	rm_r(dir);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_arches),
	TAP_TEST(test_cmdline),
	TAP_TEST(test_argv),
	TAP_TEST(test_run),
	TAP_TEST(test_snapshot_key),
	TAP_TEST(test_snapshot_cache),
};

int main(void)
{
	return tap_run(tests);
}
