// SPDX-License-Identifier: GPL-2.0
/*
 * sys/journal: a child makes a swap file, a zram device, a cgroup and two
 * knob changes and is SIGKILLed; mmf_cleanup() must then undo all of it,
 * while leaving a live run's journal alone. Also: pid reuse, journals of a
 * previous boot, items that cannot be undone, a kind registered outside
 * sys/ (and one nobody registered), and the guardian. Needs root.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/cgroup.h"
#include "sys/journal.h"
#include "sys/loopdev.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"
#include "tap.h"
#include "util/util.h"

#define MiB (1ULL << 20)
#define THP64 "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled"
#define SWAPPINESS "/proc/sys/vm/swappiness"

/* In a child: a failed step ends it, and the parent's read of its report fails. */
#define CHILD_OK(x)								\
	do {									\
		if ((x) != 0) {							\
			fprintf(stderr, "child: %s: %s\n", #x, mmf_sys_err());	\
			_exit(1);						\
		}								\
	} while (0)

static pid_t main_pid, child = -1, kind_pid = -1;
static struct mmf_journal *jr;
/* Journals and swap files (swapon needs a disk fs, not tmpfs: /var/tmp). */
static char state_dir[128], jp[PATH_MAX];
static char thp_orig[64], swp_orig[64], zram0_before[512];
static bool have_thp64;

static void undo_all(void)
{
	char path[PATH_MAX];

	if (getpid() != main_pid)
		return;
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (jr && mmf_journal_close(jr, true))
		fprintf(stderr, "undo: %s\n", mmf_sys_err());
	jr = NULL;
	if (mmf_cleanup(state_dir, stderr, NULL))
		fprintf(stderr, "cleanup: %s\n", mmf_sys_err());
	/* Belt and braces for the knobs, whatever the journal did. */
	if (*swp_orig)
		mmf_sysfs_write(SWAPPINESS, swp_orig);
	if (have_thp64 && *thp_orig)
		mmf_sysfs_write(THP64, thp_orig);
	/* Hand-made journals a failed test may have left. */
	snprintf(path, sizeof(path), "%s/journal.1", state_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/journal.2", state_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/journal.%d", state_dir, (int)kind_pid);
	unlink(path);
	/* Only if empty: whatever could not be undone stays for cleanup. */
	if (rmdir(state_dir) && errno != ENOENT)
		fprintf(stderr, "rmdir %s: %s\n", state_dir, strerror(errno));
}

static void knob(const char *path, char *out, size_t n)
{
	char raw[256];

	CHECK(mmf_sysfs_read(path, raw, sizeof(raw)) >= 0, "%s", mmf_sys_err());
	CHECK(mmf_knob_value(raw, out, n) >= 0, "%s", mmf_sys_err());
}

static void zram0_state(char *buf, size_t n)
{
	char a[128] = "-", b[128] = "-", c[128] = "-";

	mmf_sysfs_read("/sys/block/zram0/disksize", a, sizeof(a));
	mmf_sysfs_read("/sys/block/zram0/initstate", b, sizeof(b));
	mmf_sysfs_read("/sys/block/zram0/comp_algorithm", c, sizeof(c));
	snprintf(buf, n, "%s %s %s", a, b, c);
}

/* What the killed child made, sent back over a pipe. */
struct made {
	char swapfile[PATH_MAX];
	char loop[PATH_MAX];
	char zram[64];
	char cgroup[PATH_MAX];
	char journal[PATH_MAX];
	char thp_new[64];
	char swp_new[64];
};

/* Runs in the child: set everything up, report, wait for SIGKILL. */
static void child_setup(int fd)
{
	struct mmf_journal *j;
	struct mmf_cgroup *cg;
	struct made m = { 0 };
	char cur[64];

	CHILD_OK(mmf_journal_open(state_dir, &j));
	snprintf(m.journal, sizeof(m.journal), "%s", mmf_journal_path(j));
	CHILD_OK(mmf_swapfile_add(j, state_dir, 64 * MiB, 7, m.swapfile));
	CHILD_OK(mmf_zram_add(j, 16 * MiB, 8, m.zram));
	CHILD_OK(mmf_loop_swap_add(j, state_dir, 16 * MiB, 6, m.loop));
	CHILD_OK(mmf_cg_create(j, "killed", &cg));
	snprintf(m.cgroup, sizeof(m.cgroup), "%s", mmf_cg_path(cg));
	CHILD_OK(mmf_cg_set_limit(cg, 64 * MiB, -1, -1));
	CHILD_OK(mmf_cg_attach(cg, getpid()));
	/* Change the knobs twice: undo must bring back the value before the run. */
	snprintf(m.swp_new, sizeof(m.swp_new), "%d", atoi(swp_orig) == 100 ? 99 : 100);
	CHILD_OK(mmf_knob_set(j, SWAPPINESS, "33"));
	CHILD_OK(mmf_knob_set(j, SWAPPINESS, m.swp_new));
	if (have_thp64) {
		snprintf(m.thp_new, sizeof(m.thp_new), "%s",
			 strcmp(thp_orig, "madvise") ? "madvise" : "never");
		CHILD_OK(mmf_knob_set(j, THP64, m.thp_new));
		knob(THP64, cur, sizeof(cur));
		if (strcmp(cur, m.thp_new))
			_exit(2);
	}
	if (write(fd, &m, sizeof(m)) != sizeof(m))
		_exit(3);
	for (;;)
		pause();
}

static void write_journal(const char *path, const char *text)
{
	CHECK(mmf_write_file_atomic(path, text, strlen(text)) == 0, "%s: %s", path,
	      strerror(errno));
}

static void test_killed_child(void)
{
	struct mmf_cleanup_report rep;
	struct mmf_swap_info si;
	struct made m;
	char cur[64], blk[PATH_MAX], ownj[PATH_MAX];
	siginfo_t info;
	int p[2];
	ssize_t n;

	CHECK(!pipe(p), "pipe");
	child = fork();
	CHECK(child >= 0, "fork: %s", strerror(errno));
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* never outlive the test */
		close(p[0]);
		child_setup(p[1]);
	}
	close(p[1]);
	n = read(p[0], &m, sizeof(m));
	close(p[0]);
	CHECK(n == sizeof(m), "child failed during setup (see its message)");

	/* Everything is there while the child lives. */
	CHECK(mmf_swap_find(m.swapfile, &si) == 1 && si.prio == 7, "%s", m.swapfile);
	CHECK(mmf_swap_find(m.zram, &si) == 1 && si.prio == 8, "%s", m.zram);
	CHECK(mmf_swap_find(m.loop, &si) == 1 && si.prio == 6, "%s", m.loop);
	CHECK(!access(m.cgroup, F_OK), "%s", m.cgroup);
	knob(SWAPPINESS, cur, sizeof(cur));
	CHECK(!strcmp(cur, m.swp_new), "swappiness %s", cur);

	/* A live run is left alone, also by a cleanup racing with it. */
	CHECK(mmf_cleanup(state_dir, stdout, &rep) == 0, "cleanup: %s", mmf_sys_err());
	CHECK(rep.live == 2 && rep.replayed == 0 && rep.undone == 0,
	      "live %d replayed %d undone %d", rep.live, rep.replayed, rep.undone);
	CHECK(mmf_swap_find(m.swapfile, NULL) == 1 && !access(m.journal, F_OK),
	      "cleanup touched a live run");

	kill(child, SIGKILL);
	/* Dead but not reaped: a zombie owner counts as dead. */
	CHECK(!waitid(P_PID, child, &info, WEXITED | WNOWAIT), "waitid");
	CHECK(mmf_cleanup(state_dir, stdout, &rep) == 0, "cleanup: %s", mmf_sys_err());
	waitpid(child, NULL, 0);
	child = -1;
	printf("INFO: journals %d replayed %d live %d undone %d failed %d\n", rep.journals,
	       rep.replayed, rep.live, rep.undone, rep.failed);
	CHECK(rep.replayed == 1 && rep.live == 1 && rep.failed == 0, "report");
	/* file + swapon, zram + swapon, file + loop + swapon, cgroup, swappiness, THP. */
	CHECK(rep.undone == 9 + have_thp64, "undone %d", rep.undone);

	CHECK(access(m.journal, F_OK) && errno == ENOENT, "journal %s left", m.journal);
	CHECK(mmf_swap_find(m.swapfile, NULL) == 0, "%s still swapped on", m.swapfile);
	CHECK(access(m.swapfile, F_OK) && errno == ENOENT, "%s still on disk", m.swapfile);
	snprintf(blk, sizeof(blk), "/sys/block/%.32s", m.zram + 5);
	CHECK(mmf_swap_find(m.zram, NULL) == 0 && access(blk, F_OK), "%s still there", m.zram);
	CHECK(access(m.cgroup, F_OK) && errno == ENOENT, "%s still there", m.cgroup);
	snprintf(blk, sizeof(blk), "/sys/block/%.32s/loop/backing_file", m.loop + 5);
	CHECK(mmf_swap_find(m.loop, NULL) == 0 && access(blk, F_OK), "%s still attached", m.loop);
	knob(SWAPPINESS, cur, sizeof(cur));
	CHECK(!strcmp(cur, swp_orig), "swappiness %s, was %s", cur, swp_orig);
	if (have_thp64) {
		knob(THP64, cur, sizeof(cur));
		CHECK(!strcmp(cur, thp_orig), "64kB THP %s, was %s", cur, thp_orig);
	}
	snprintf(ownj, sizeof(ownj), "%s", mmf_journal_path(jr));
	CHECK(!access(ownj, F_OK), "our own live journal was replayed");
}

/* The pid of a process that has exited (and been reaped). */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void test_odd_journals(void)
{
	struct mmf_cleanup_report rep;
	char j1[PATH_MAX], j2[PATH_MAX], tmpj[PATH_MAX], victim[PATH_MAX];
	char text[2 * PATH_MAX + 512];
	char boot[64], cur[64], cg_root[PATH_MAX], *kept;
	struct stat st_root, st_after;
	int fd;

	CHECK(mmf_sysfs_read("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) > 0,
	      "boot_id");
	CHECK(mmf_cg_detect(cg_root, sizeof(cg_root)) > 0, "%s", mmf_sys_err());
	CHECK(stat(cg_root, &st_root) == 0, "%s: %s", cg_root, strerror(errno));
	snprintf(victim, sizeof(victim), "%s/victim file", state_dir);

	/* pid 1 lives, but started at another time: pid reuse, so dead. */
	snprintf(j1, sizeof(j1), "%s/journal.1", state_dir);
	/* Fields are %XX-escaped: the space of "victim file" is %20. */
	snprintf(text, sizeof(text), "mmfuzz-journal 1 1 999999999999 %s\n"
		 "file %s/victim%%20file\n"
		 "knob /proc/sys/kernel/osrelease cannot%%20write\n"
		 "knob " SWAPPINESS " 1\n"
		 "done knob " SWAPPINESS "\n"
		 /* Corrupt records must not reach zram0 or a hierarchy root. */
		 "zram x0\n"
		 "cgroup %s v1\n"
		 "file /torn/record/without/newline", boot, state_dir, cg_root);
	write_journal(j1, text);
	/* Journaled first, as the library does: a kill here leaves nothing. */
	fd = open(victim, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	CHECK(fd >= 0, "%s: %s", victim, strerror(errno));
	close(fd);

	/* Another boot: kernel state is gone, only files remain to remove. */
	snprintf(j2, sizeof(j2), "%s/journal.2", state_dir);
	snprintf(text, sizeof(text), "mmfuzz-journal 1 2 5 00000000-0000-0000-0000-0\n"
		 "knob " SWAPPINESS " 3\nzram 0\ncgroup /sys/fs/cgroup/memory v1\n");
	write_journal(j2, text);

	/* A rewrite killed midway leaves journal.N.tmp.<dead pid>. */
	snprintf(tmpj, sizeof(tmpj), "%s/journal.2.tmp.%d", state_dir, dead_pid());
	write_journal(tmpj, "partial");

	CHECK(mmf_cleanup(state_dir, stdout, &rep) < 0, "cleanup did not report failures");
	CHECK(rep.failed == 3 && rep.kept == 1 && rep.replayed == 1,
	      "failed %d kept %d replayed %d", rep.failed, rep.kept, rep.replayed);
	CHECK(stat(cg_root, &st_after) == 0 && st_after.st_ino == st_root.st_ino,
	      "%s was touched", cg_root);
	CHECK(access(victim, F_OK) && errno == ENOENT, "%s not removed", victim);
	knob(SWAPPINESS, cur, sizeof(cur));
	CHECK(!strcmp(cur, swp_orig), "swappiness %s: a done or old-boot record was applied",
	      cur);
	{
		char z[512];

		zram0_state(z, sizeof(z));
		CHECK(!strcmp(z, zram0_before), "zram0 changed: %s -> %s", zram0_before, z);
	}
	CHECK(access(j2, F_OK) && errno == ENOENT, "previous-boot journal left");
	CHECK(access(tmpj, F_OK) && errno == ENOENT, "stale %s left", tmpj);
	/* Only the items that failed stay, for the next cleanup. */
	kept = mmf_read_text(j1);
	CHECK(kept && strstr(kept, "osrelease") && strstr(kept, "zram x0") &&
	      !strstr(kept, "victim") && !strstr(kept, "swappiness"), "kept journal:\n%s",
	      kept ? kept : "(none)");
	free(kept);
	CHECK(unlink(j1) == 0, "unlink %s", j1);
}

/* A kind of this file, undone through the same table as sys/'s own. */
static char test_undone[256];

static int test_check(const char *key, const char *arg)
{
	if (strncmp(key, "/ok/", 4))
		return mmf_sys_fail(EPERM, "%s is not a test item", key);
	return 0;
}

static int test_undo(const char *key, const char *arg)
{
	size_t n = strlen(test_undone);

	snprintf(test_undone + n, sizeof(test_undone) - n, "%s%s%s", n ? " " : "", key,
		 arg ? arg : "");
	return MMF_UNDO_DONE;
}

static void test_describe(struct strbuf *sb, const char *key, const char *arg)
{
	mmf_sb_printf(sb, "forget test item %s", key);
}

static const struct mmf_journal_kind test_kind = {
	.name = "unittest",
	.check = test_check,
	.undo = test_undo,
	.describe = test_describe,
};
MMF_JOURNAL_KIND(test_kind);

static void test_registered_kind(void)
{
	struct mmf_cleanup_report rep;
	char jpath[PATH_MAX], boot[64], text[PATH_MAX + 512], *kept;
	int p[2];
	pid_t pid;

	/* Written through the API by a run that is then SIGKILLed. */
	CHECK(!pipe(p), "pipe");
	pid = fork();
	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct mmf_journal *j;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		CHILD_OK(mmf_journal_open(state_dir, &j));
		CHILD_OK(mmf_journal_add(j, &test_kind, "/ok/dropped", NULL));
		CHILD_OK(mmf_journal_done(j, &test_kind, "/ok/dropped"));
		CHILD_OK(mmf_journal_add(j, &test_kind, "/ok/child", ":arg"));
		if (!mmf_journal_has(j, &test_kind, "/ok/child") ||
		    mmf_journal_has(j, &test_kind, "/ok/dropped"))
			_exit(2);
		if (write(p[1], "", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	close(p[1]);
	CHECK(read(p[0], text, 1) == 1, "child failed during setup (see its message)");
	close(p[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	test_undone[0] = '\0';
	CHECK(mmf_cleanup(state_dir, stdout, &rep) == 0, "cleanup: %s", mmf_sys_err());
	CHECK(rep.replayed == 1 && rep.undone == 1 && rep.failed == 0,
	      "replayed %d undone %d failed %d", rep.replayed, rep.undone, rep.failed);
	CHECK(!strcmp(test_undone, "/ok/child:arg"), "undone: '%s'", test_undone);

	/*
	 * Hand-written, as by a crashed run: undone in reverse order; a record
	 * its kind's check refuses, and one of a kind nobody registered, stay.
	 */
	CHECK(mmf_sysfs_read("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) > 0,
	      "boot_id");
	kind_pid = dead_pid();
	snprintf(jpath, sizeof(jpath), "%s/journal.%d", state_dir, (int)kind_pid);
	snprintf(text, sizeof(text), "mmfuzz-journal 1 %d 5 %s\n"
		 "unittest /ok/a\n"
		 "unittest /ok/b %%20b\n"
		 "done unittest /ok/b\n"
		 "unittest /bad\n"
		 "nosuchkind /ok/y arg\n"
		 "unittest /ok/c\n", (int)kind_pid, boot);
	write_journal(jpath, text);
	test_undone[0] = '\0';
	CHECK(mmf_cleanup(state_dir, stdout, &rep) < 0, "cleanup did not report failures");
	CHECK(rep.undone == 2 && rep.failed == 2 && rep.kept == 1,
	      "undone %d failed %d kept %d", rep.undone, rep.failed, rep.kept);
	CHECK(!strcmp(test_undone, "/ok/c /ok/a"), "undone: '%s'", test_undone);
	kept = mmf_read_text(jpath);
	CHECK(kept && strstr(kept, "\nunittest /bad\n") &&
	      strstr(kept, "\nnosuchkind /ok/y arg\n") && !strstr(kept, "/ok/a") &&
	      !strstr(kept, "/ok/b") && !strstr(kept, "/ok/c"),
	      "kept journal:\n%s", kept ? kept : "(none)");
	free(kept);
	CHECK(unlink(jpath) == 0, "unlink %s", jpath);
}

/* A guarded run that is SIGKILLed is cleaned up by its guardian. */
static void test_guardian(void)
{
	char path[PATH_MAX], jpath[PATH_MAX];
	int p[2];
	pid_t pid;

	CHECK(!pipe(p), "pipe");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		struct mmf_journal *j;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		CHILD_OK(mmf_journal_open(state_dir, &j));
		if (mmf_journal_guard(j) <= 0)
			_exit(1);
		CHILD_OK(mmf_swapfile_add(j, state_dir, 1 * MiB, 3, path));
		snprintf(jpath, sizeof(jpath), "%s", mmf_journal_path(j));
		if (write(p[1], path, sizeof(path)) != sizeof(path) ||
		    write(p[1], jpath, sizeof(jpath)) != sizeof(jpath))
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	CHECK(read(p[0], path, sizeof(path)) == sizeof(path) &&
	      read(p[0], jpath, sizeof(jpath)) == sizeof(jpath), "guarded child failed");
	close(p[0]);
	CHECK(mmf_swap_find(path, NULL) == 1, "%s not on", path);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	for (int i = 0; i < 500 && !access(jpath, F_OK); i++)
		usleep(10 * 1000);
	CHECK(access(jpath, F_OK), "guardian did not replay %s within 5 s", jpath);
	CHECK(mmf_swap_find(path, NULL) == 0 && access(path, F_OK), "%s left", path);
}

/*
 * A close while another cleanup reads the journal (a guardian's retries
 * looked at ours for 3 s in a suite run, and the close left it there):
 * the owner waits for the lock and still undoes and removes it.
 */
static void test_close_while_read(void)
{
	char path[PATH_MAX], go = 0;
	int p[2], q[2], fd, st = -1;
	pid_t pid;

	CHECK(!pipe(p) && !pipe(q), "pipe");
	pid = fork();
	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct mmf_journal *j;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CHILD_OK(mmf_journal_open(state_dir, &j));
		CHILD_OK(mmf_journal_add(j, &test_kind, "/ok/closed", NULL));
		snprintf(path, sizeof(path), "%s", mmf_journal_path(j));
		if (write(p[1], path, sizeof(path)) != sizeof(path) || read(q[0], &go, 1) != 1)
			_exit(1);
		CHILD_OK(mmf_journal_close(j, true));
		_exit(access(path, F_OK) ? 0 : 2);
	}
	CHECK(read(p[0], path, sizeof(path)) == sizeof(path), "child failed during setup");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0 && !flock(fd, LOCK_EX), "lock %s: %s", path, strerror(errno));
	CHECK(write(q[1], &go, 1) == 1, "go");
	usleep(300 * 1000);	/* the child's close meets the lock */
	close(fd);
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the close left its journal while another held it (status %d)", st);
	for (int i = 0; i < 2; i++) {
		close(p[i]);
		close(q[i]);
	}
}

/* Last: our own journal closes clean, and zram0 is as it was. */
static void test_close(void)
{
	int ret = mmf_journal_close(jr, true);

	jr = NULL;
	CHECK(ret == 0, "close: %s", mmf_sys_err());
	CHECK(access(jp, F_OK) && errno == ENOENT, "%s left", jp);
	{
		char z[512];

		zram0_state(z, sizeof(z));
		CHECK(!strcmp(z, zram0_before), "zram0 changed: %s -> %s", zram0_before, z);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(test_killed_child),
	TAP_TEST(test_odd_journals),
	TAP_TEST(test_registered_kind),
	TAP_TEST(test_guardian),
	TAP_TEST(test_close_while_read),
	TAP_TEST(test_close),
};

int main(void)
{
	int ret;

	if (geteuid()) {
		printf("INFO: test-sys-journal skipped: needs root\n");
		return 0;
	}
	main_pid = getpid();
	/* Guard first, then make the dir: a kill at any point leaves nothing. */
	snprintf(state_dir, sizeof(state_dir), "/var/tmp/mmfuzz-test-journal.%d", (int)main_pid);
	CHECK(mmf_state_guard(state_dir) > 0, "guard: %s", mmf_sys_err());
	CHECK(!mkdir(state_dir, 0700), "mkdir %s: %s", state_dir, strerror(errno));
	knob(SWAPPINESS, swp_orig, sizeof(swp_orig));
	have_thp64 = !access(THP64, W_OK);
	if (have_thp64)
		knob(THP64, thp_orig, sizeof(thp_orig));
	zram0_state(zram0_before, sizeof(zram0_before));
	atexit(undo_all);

	/* Our own journal: live for the whole test, so cleanups must skip it. */
	ret = mmf_journal_open(state_dir, &jr);
	CHECK(ret == 0, "journal: %s", mmf_sys_err());
	snprintf(jp, sizeof(jp), "%s/journal.%d", state_dir, (int)getpid());
	CHECK(!strcmp(mmf_journal_path(jr), jp), "path %s", mmf_journal_path(jr));

	return tap_run(tests);
}
