// SPDX-License-Identifier: GPL-2.0
/*
 * Real-kernel test of sys/swapdev: a swap file and a zram device of our own
 * show up in /proc/swaps with the asked priorities, take pages when a
 * workload exceeds a small cgroup limit, and are gone after undo, while
 * devices that existed before (e.g. /dev/zram0) stay untouched. Needs root.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/cgroup.h"
#include "sys/journal.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"
#include "hog.h"
#include "tap.h"
#include "util/util.h"

#define MiB (1ULL << 20)
/* Far above what other sessions' swap devices use, so our pages come here. */
#define ZRAM_PRIO 32000
#define FILE_PRIO 31000

/* The highest priority of the active swap devices that are not a or b. */
static int others_top_prio(const char *a, const char *b)
{
	struct mmf_swap_info *l;
	int n = mmf_swap_list(&l), top = -32768;

	for (int i = 0; i < n; i++)
		if (strcmp(l[i].path, a) && strcmp(l[i].path, b))
			top = MAX(top, l[i].prio);
	free(l);
	return top;
}

static pid_t main_pid;
static pid_t workload = -1;
static struct mmf_journal *jr;
/* Journals and swap files (swapon needs a disk fs, not tmpfs: /var/tmp). */
static char state_dir[128];

/* Runs on every exit of the test process, also after a failed CHECK. */
static void undo_all(void)
{
	if (getpid() != main_pid)
		return;
	if (workload > 0) {
		kill(workload, SIGKILL);
		waitpid(workload, NULL, 0);
	}
	if (jr && mmf_journal_close(jr, true))
		fprintf(stderr, "undo: %s\n", mmf_sys_err());
	jr = NULL;
	if (mmf_cleanup(state_dir, stderr, NULL))
		fprintf(stderr, "cleanup: %s\n", mmf_sys_err());
	/* Only if empty: whatever could not be undone stays for cleanup. */
	if (rmdir(state_dir) && errno != ENOENT)
		fprintf(stderr, "rmdir %s: %s\n", state_dir, strerror(errno));
}

/*
 * The state of /dev/zram0, which is never ours. Other sessions may add and
 * remove devices of their own meanwhile, so only zram0 is compared.
 */
static char *zram0_state(void)
{
	const char *attrs[] = { "disksize", "initstate", "comp_algorithm" };
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++) {
		char path[128], val[256];

		snprintf(path, sizeof(path), "/sys/block/zram0/%s", attrs[i]);
		if (mmf_sysfs_read(path, val, sizeof(val)) < 0)
			snprintf(val, sizeof(val), "-");
		mmf_sb_printf(&sb, "%s=%s ", attrs[i], val);
	}
	mmf_sb_printf(&sb, "swap=%d", mmf_swap_find("/dev/zram0", NULL));
	return mmf_sb_detach(&sb);
}

static void test_sys_swap(void)
{
	char fpath[PATH_MAX], f2path[PATH_MAX], zpath[PATH_MAX], blk[PATH_MAX + 64];
	struct mmf_swap_info fi, zi;
	int other;
	struct mmf_cgroup *cg;
	struct mmf_cg_stats cst;
	char *before, *after;
	int go, ready, ret;
	struct stat st;
	uint64_t t0;

	if (geteuid()) {
		printf("INFO: test-sys-swap skipped: needs root\n");
		return;
	}
	main_pid = getpid();
	/* Guard first, then make the dir: a kill at any point leaves nothing. */
	snprintf(state_dir, sizeof(state_dir), "/var/tmp/mmfuzz test-swap.%d", (int)main_pid);
	CHECK(mmf_state_guard(state_dir) > 0, "guard: %s", mmf_sys_err());
	CHECK(!mkdir(state_dir, 0700), "mkdir %s: %s", state_dir, strerror(errno));
	setenv("MMFUZZ_STATE_DIR", state_dir, 1);
	atexit(undo_all);
	before = zram0_state();

	ret = mmf_journal_open(NULL, &jr);
	CHECK(ret == 0, "journal: %s", mmf_sys_err());
	CHECK(!strncmp(mmf_journal_path(jr), state_dir, strlen(state_dir)),
	      "journal %s not in MMFUZZ_STATE_DIR", mmf_journal_path(jr));

	/* Errors name what failed. */
	ret = mmf_swapfile_add(jr, "/nonexistent-mmfuzz", 1 * MiB, 1, NULL);
	CHECK(ret == -ENOENT && strstr(mmf_sys_err(), "/nonexistent-mmfuzz"),
	      "missing dir: %d '%s'", ret, mmf_sys_err());
	ret = mmf_swapfile_add(jr, state_dir, 4096, 1, NULL);
	CHECK(ret == -EINVAL, "tiny swap file: %d", ret);
	ret = mmf_swapfile_add(jr, state_dir, 1 * MiB, 40000, NULL);
	CHECK(ret == -EINVAL, "priority over 32767: %d", ret);

	t0 = mmf_now_ns();
	ret = mmf_swapfile_add(jr, state_dir, 256 * MiB, FILE_PRIO, fpath);
	CHECK(ret == 0, "swapfile: %s", mmf_sys_err());
	printf("INFO: 256 MiB swap file (write zeros, fsync, swapon): %.0f ms\n",
	       (mmf_now_ns() - t0) / 1e6);
	CHECK(!stat(fpath, &st) && (st.st_mode & 0777) == 0600, "%s mode %o", fpath,
	      st.st_mode & 0777);
	CHECK(st.st_size == (off_t)(256 * MiB) && st.st_blocks * 512 >= st.st_size,
	      "%s: size %lld, %lld blocks (holes?)", fpath, (long long)st.st_size,
	      (long long)st.st_blocks);
	CHECK(mmf_swap_find(fpath, &fi) == 1, "%s not in /proc/swaps", fpath);
	CHECK(fi.prio == FILE_PRIO && !strcmp(fi.type, "file"), "%s: prio %d type %s", fpath,
	      fi.prio, fi.type);
	CHECK(fi.size_kb == 256 * 1024 - (uint64_t)sysconf(_SC_PAGESIZE) / 1024,
	      "%s: size %llu KiB (header page excluded)", fpath,
	      (unsigned long long)fi.size_kb);

	/* prio < 0: the kernel's own (negative) default. */
	ret = mmf_swapfile_add(jr, state_dir, 4 * MiB, -1, f2path);
	CHECK(ret == 0, "swapfile 2: %s", mmf_sys_err());
	CHECK(mmf_swap_find(f2path, &fi) == 1 && fi.prio < 0, "%s prio %d", f2path, fi.prio);

	t0 = mmf_now_ns();
	ret = mmf_zram_add(jr, 32 * MiB, ZRAM_PRIO, zpath);
	CHECK(ret == 0, "zram: %s", mmf_sys_err());
	printf("INFO: 32 MiB zram swap (hot_add, disksize, header, swapon): %.0f ms\n",
	       (mmf_now_ns() - t0) / 1e6);
	CHECK(strcmp(zpath, "/dev/zram0") || !strncmp(before, "disksize=-", 10),
	      "got zram0, which existed before");
	CHECK(mmf_swap_find(zpath, &zi) == 1, "%s not in /proc/swaps", zpath);
	CHECK(zi.prio == ZRAM_PRIO && !strcmp(zi.type, "partition"), "%s: prio %d type %s", zpath,
	      zi.prio, zi.type);
	snprintf(blk, sizeof(blk), "/sys/block/%s/comp_algorithm", zpath + 5);
	{
		char alg[256], cur[64];

		CHECK(mmf_sysfs_read(blk, alg, sizeof(alg)) > 0, "%s", mmf_sys_err());
		mmf_knob_value(alg, cur, sizeof(cur));
		CHECK(!mmf_has_word(alg, "lzo-rle") || !strcmp(cur, "lzo-rle"),
		      "%s: '%s'", blk, alg);
	}
	/* Not ours: refused, and nothing happens to it. */
	ret = mmf_swapdev_remove(jr, "/dev/zram0");
	CHECK(ret == -EPERM || !strcmp(zpath, "/dev/zram0"), "remove zram0: %d", ret);

	/* Pages over a 32 MiB limit go to swap: zram (higher prio) first, then the file. */
	ret = mmf_cg_create(jr, "swap", &cg);
	CHECK(ret == 0, "cgroup: %s", mmf_sys_err());
	ret = mmf_cg_set_limit(cg, 32 * MiB, -1, -1);
	CHECK(ret == 0, "limit: %s", mmf_sys_err());
	workload = hog_start(160 * MiB, &go, &ready);
	CHECK(mmf_cg_attach(cg, workload) == 0, "attach: %s", mmf_sys_err());
	CHECK(write(go, "g", 1) == 1, "go");
	t0 = mmf_now_ns();
	CHECK(hog_ready(ready), "workload died before it was ready");
	printf("INFO: 160 MiB dirtied under a 32 MiB limit in %.0f ms\n", (mmf_now_ns() - t0) / 1e6);
	/*
	 * Our devices take the pages only if no other device of the machine
	 * outranks them (a host may keep its own swap at the top priority):
	 * then only our cgroup's swapping, below, can be asserted.
	 */
	other = others_top_prio(zpath, fpath);
	CHECK(mmf_swap_find(zpath, &zi) == 1 && (zi.used_kb > 0 || other >= ZRAM_PRIO),
	      "%s used %llu", zpath, (unsigned long long)zi.used_kb);
	CHECK(mmf_swap_find(fpath, &fi) == 1 && (fi.used_kb > 0 || other >= FILE_PRIO),
	      "%s used %llu", fpath, (unsigned long long)fi.used_kb);
	if (other >= FILE_PRIO)
		printf("INFO: another swap device has priority %d, above ours\n", other);
	printf("INFO: swap used: zram %llu KiB, file %llu KiB\n",
	       (unsigned long long)zi.used_kb, (unsigned long long)fi.used_kb);
	CHECK(mmf_cg_stats(cg, &cst) == 0, "stats: %s", mmf_sys_err());
	CHECK(cst.swap > 0 && cst.usage <= 32 * MiB, "cgroup swap %llu usage %llu",
	      (unsigned long long)cst.swap, (unsigned long long)cst.usage);

	/* Raw helpers on our own, busy device: swapoff may say ENOMEM. */
	ret = mmf_swapoff(zpath);
	CHECK(ret == 0 || ret == -ENOMEM, "swapoff %s: %s", zpath, mmf_sys_err());
	if (ret == 0) {
		CHECK(mmf_swap_find(zpath, NULL) == 0, "%s still on", zpath);
		ret = mmf_swapon(zpath, ZRAM_PRIO);
		CHECK(ret == 0, "swapon again: %s", mmf_sys_err());
		CHECK(mmf_swap_find(zpath, &zi) == 1 && zi.prio == ZRAM_PRIO, "prio %d", zi.prio);
	}

	kill(workload, SIGKILL);
	waitpid(workload, NULL, 0);
	workload = -1;
	close(go);
	close(ready);

	/* Undo one device now, the rest at close. */
	ret = mmf_swapdev_remove(jr, zpath);
	CHECK(ret == 0, "remove %s: %s", zpath, mmf_sys_err());
	snprintf(blk, sizeof(blk), "/sys/block/%s", zpath + 5);
	CHECK(mmf_swap_find(zpath, NULL) == 0 && access(blk, F_OK), "%s still there", zpath);
	CHECK(!mmf_journal_has(jr, &mmf_jk_zram, zpath + 9), "zram record not done");

	ret = mmf_cg_destroy(cg);
	CHECK(ret == 0, "destroy cgroup: %s", mmf_sys_err());
	ret = mmf_journal_close(jr, true);
	jr = NULL;
	CHECK(ret == 0, "undo: %s", mmf_sys_err());
	CHECK(mmf_swap_find(fpath, NULL) == 0 && access(fpath, F_OK), "%s left", fpath);
	CHECK(mmf_swap_find(f2path, NULL) == 0 && access(f2path, F_OK), "%s left", f2path);

	after = zram0_state();
	CHECK(!strcmp(before, after), "zram0 changed: %s -> %s", before, after);
	free(before);
	free(after);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_sys_swap),
};

int main(void)
{
	return tap_run(tests);
}
