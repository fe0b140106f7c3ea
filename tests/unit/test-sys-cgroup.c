// SPDX-License-Identifier: GPL-2.0
/*
 * sys/cgroup: the parsers on v1, hybrid and pure-v2 text, then on the real
 * hierarchy: create under our own cgroup, limits as written, attach, swap
 * and limit statistics, a swap limit of 0 ending in an OOM kill, reclaim,
 * destroy with a task still inside, and nothing of ours left. Needs root.
 */
#include <dirent.h>
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

static pid_t main_pid;
static pid_t kids[4];
static struct mmf_journal *jr;
/* Journals and swap files (swapon needs a disk fs, not tmpfs: /var/tmp). */
static char state_dir[128];

static void undo_all(void)
{
	if (getpid() != main_pid)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(kids); i++) {
		if (kids[i] > 0) {
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
		}
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

static void test_parsers(void)
{
	const char *hybrid =
		"sysfs /sys sysfs rw 0 0\n"
		"cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n"
		"cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\n"
		"cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\n";
	const char *pure = "proc /proc proc rw 0 0\n"
		"cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,nsdelegate 0 0";
	const char *combined = "cgroup /cg\\040x cgroup rw,cpu,memory,hugetlb 0 0\n";
	const char *self_v1 = "9:name=systemd:/\n4:memory:/process_api/abc\n0::/\n";
	const char *self_v2 = "0::/user.slice/user-0.slice/session-1.scope\n";
	const char *self_comb = "3:cpu,memory:/a b\n";
	char mnt[256], rel[256];
	const char *p;

	p = mmf_cg_next_mount(hybrid, 1, mnt, sizeof(mnt));
	CHECK(p && !strcmp(mnt, "/sys/fs/cgroup/memory"), "v1 mount: %s", mnt);
	CHECK(!mmf_cg_next_mount(p, 1, mnt, sizeof(mnt)), "second v1 memory mount");
	p = mmf_cg_next_mount(hybrid, 2, mnt, sizeof(mnt));
	CHECK(p && !strcmp(mnt, "/sys/fs/cgroup/unified"), "v2 mount: %s", mnt);
	CHECK(mmf_cg_next_mount(pure, 2, mnt, sizeof(mnt)) && !strcmp(mnt, "/sys/fs/cgroup"),
	      "pure v2 mount (no final newline): %s", mnt);
	CHECK(!mmf_cg_next_mount(pure, 1, mnt, sizeof(mnt)), "v1 on a pure v2 system");
	CHECK(mmf_cg_next_mount(combined, 1, mnt, sizeof(mnt)) && !strcmp(mnt, "/cg x"),
	      "combined v1 mount with escaped space: '%s'", mnt);

	CHECK(!mmf_cg_self_path(self_v1, 1, rel, sizeof(rel)) &&
	      !strcmp(rel, "/process_api/abc"), "v1 self: %s", rel);
	CHECK(!mmf_cg_self_path(self_v1, 2, rel, sizeof(rel)) && !strcmp(rel, "/"),
	      "v2 self on hybrid: %s", rel);
	CHECK(!mmf_cg_self_path(self_v2, 2, rel, sizeof(rel)) &&
	      !strcmp(rel, "/user.slice/user-0.slice/session-1.scope"), "v2 self: %s", rel);
	CHECK(mmf_cg_self_path(self_v2, 1, rel, sizeof(rel)) == -ENOENT, "v1 self on pure v2");
	CHECK(!mmf_cg_self_path(self_comb, 1, rel, sizeof(rel)) && !strcmp(rel, "/a b"),
	      "combined v1 self: %s", rel);
}

static uint64_t read_u64(struct mmf_cgroup *cg, const char *file)
{
	char path[PATH_MAX];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/%s", mmf_cg_path(cg), file);
	CHECK(mmf_sysfs_read_u64(path, &v) == 0, "%s", mmf_sys_err());
	return v;
}

/* Which cgroup (of the memory hierarchy) pid is in, as a path below mnt. */
static void cgroup_of(pid_t pid, int version, char *rel, size_t n)
{
	char path[64], *text;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	text = mmf_read_text(path);
	CHECK(text, "%s: %s", path, strerror(errno));
	CHECK(!mmf_cg_self_path(text, version, rel, n), "no memory cgroup in %s", path);
	free(text);
}

static void assert_none_left(const char *parent)
{
	char prefix[64];
	struct dirent *de;
	DIR *d = opendir(parent);

	CHECK(d, "open %s: %s", parent, strerror(errno));
	snprintf(prefix, sizeof(prefix), "mmfuzz.%d", (int)main_pid);
	while ((de = readdir(d)))
		CHECK(strncmp(de->d_name, prefix, strlen(prefix)), "left: %s/%s", parent,
		      de->d_name);
	closedir(d);
}

/* Cgroups made, limited, used and destroyed on the running kernel. */
static void test_live(void)
{
	char mnt[PATH_MAX], own[2 * PATH_MAX], rel[PATH_MAX], parent[2 * PATH_MAX], *self;
	char fpath[PATH_MAX];
	struct mmf_cgroup *cg, *cg2;
	struct mmf_cg_stats st;
	int version, ret, go, ready, wst;
	uint64_t v;

	if (geteuid()) {
		printf("INFO: test-sys-cgroup: live part skipped: needs root\n");
		return;
	}
	main_pid = getpid();
	/* Guard first, then make the dir: a kill at any point leaves nothing. */
	snprintf(state_dir, sizeof(state_dir), "/var/tmp/mmfuzz-test-cg.%d", (int)main_pid);
	CHECK(mmf_state_guard(state_dir) > 0, "guard: %s", mmf_sys_err());
	CHECK(!mkdir(state_dir, 0700), "mkdir %s: %s", state_dir, strerror(errno));
	atexit(undo_all);
	ret = mmf_journal_open(state_dir, &jr);
	CHECK(ret == 0, "journal: %s", mmf_sys_err());

	version = mmf_cg_detect(mnt, sizeof(mnt));
	CHECK(version == 1 || version == 2, "detect: %s", mmf_sys_err());
	printf("INFO: memory cgroup v%d at %s\n", version, mnt);
	self = mmf_read_text("/proc/self/cgroup");
	CHECK(self && !mmf_cg_self_path(self, version, rel, sizeof(rel)), "self cgroup");
	free(self);
	snprintf(own, sizeof(own), "%s%s", mnt, strcmp(rel, "/") ? rel : "");

	CHECK(mmf_cg_create(jr, "a/b", &cg) == -EINVAL, "name with '/'");
	ret = mmf_cg_create(jr, "t", &cg);
	CHECK(ret == 0, "create: %s", mmf_sys_err());
	CHECK(mmf_cg_version(cg) == version, "version");
	snprintf(parent, sizeof(parent), "%s", mmf_cg_path(cg));
	*strrchr(parent, '/') = '\0';
	printf("INFO: created %s\n", mmf_cg_path(cg));
	/* v1 (and v2 when delegated) under our own cgroup, else v2's root. */
	CHECK(!strcmp(parent, own) || (version == 2 && !strcmp(parent, mnt)),
	      "created under %s, own cgroup %s", parent, own);
	CHECK(strstr(mmf_cg_path(cg), "/mmfuzz.") && strstr(mmf_cg_path(cg), ".t"), "name %s",
	      mmf_cg_path(cg));
	CHECK(mmf_journal_has(jr, &mmf_jk_cgroup, mmf_cg_path(cg)), "not journaled");
	CHECK(mmf_cg_create(jr, "t", &cg2) == -EEXIST && strstr(mmf_sys_err(), "cleanup"),
	      "second create of the same name: %s", mmf_sys_err());
	CHECK(mmf_journal_has(jr, &mmf_jk_cgroup, mmf_cg_path(cg)), "failed create undid ours");

	/* Limits land as written; v1 memsw = max + swap, in either order. */
	ret = mmf_cg_set_limit(cg, 64 * MiB, 48 * MiB, 32 * MiB);
	CHECK(ret == 0, "limit: %s", mmf_sys_err());
	if (version == 1) {
		CHECK(read_u64(cg, "memory.limit_in_bytes") == 64 * MiB, "limit_in_bytes");
		CHECK(read_u64(cg, "memory.soft_limit_in_bytes") == 48 * MiB, "soft limit");
		CHECK(read_u64(cg, "memory.memsw.limit_in_bytes") == 96 * MiB, "memsw");
		ret = mmf_cg_set_limit(cg, 16 * MiB, -1, 0);
		CHECK(ret == 0, "lower: %s", mmf_sys_err());
		CHECK(read_u64(cg, "memory.memsw.limit_in_bytes") == 16 * MiB, "memsw low");
		ret = mmf_cg_set_limit(cg, 128 * MiB, -1, 64 * MiB);
		CHECK(ret == 0, "raise: %s", mmf_sys_err());
		CHECK(read_u64(cg, "memory.memsw.limit_in_bytes") == 192 * MiB, "memsw high");
		ret = mmf_cg_set_limit(cg, -1, -1, -1);
		CHECK(ret == 0, "unlimit: %s", mmf_sys_err());
		CHECK(read_u64(cg, "memory.limit_in_bytes") > (1ULL << 60), "unlimited");
	} else {
		CHECK(read_u64(cg, "memory.max") == 64 * MiB, "memory.max");
		CHECK(read_u64(cg, "memory.high") == 48 * MiB, "memory.high");
		CHECK(read_u64(cg, "memory.swap.max") == 32 * MiB, "memory.swap.max");
		ret = mmf_cg_set_limit(cg, -1, -1, -1);
		CHECK(ret == 0, "unlimit: %s", mmf_sys_err());
		CHECK(read_u64(cg, "memory.max") == UINT64_MAX, "max");
	}

	/* With swap and a 16 MiB limit, 64 MiB fits: the rest is in swap. */
	ret = mmf_swapfile_add(jr, state_dir, 128 * MiB, 31000, fpath);
	CHECK(ret == 0, "swapfile: %s", mmf_sys_err());
	ret = mmf_cg_set_limit(cg, 16 * MiB, -1, -1);
	CHECK(ret == 0, "limit: %s", mmf_sys_err());
	kids[0] = hog_start(64 * MiB, &go, &ready);
	CHECK(mmf_cg_attach(cg, kids[0]) == 0, "attach: %s", mmf_sys_err());
	cgroup_of(kids[0], version, rel, sizeof(rel));
	CHECK(!strcmp(rel, mmf_cg_path(cg) + strlen(mnt)), "child in %s", rel);
	CHECK(write(go, "g", 1) == 1, "go");
	CHECK(hog_ready(ready), "hog died under a limit with swap");
	close(go);
	close(ready);
	CHECK(mmf_cg_stats(cg, &st) == 0, "stats: %s", mmf_sys_err());
	printf("INFO: usage %llu swap %llu anon %llu ev_max %llu\n",
	       (unsigned long long)st.usage, (unsigned long long)st.swap,
	       (unsigned long long)st.anon, (unsigned long long)st.ev_max);
	CHECK(st.usage <= 16 * MiB && st.anon > 0, "usage %llu anon %llu",
	      (unsigned long long)st.usage, (unsigned long long)st.anon);
	CHECK(st.swap >= 32 * MiB, "swap %llu", (unsigned long long)st.swap);
	CHECK(st.ev_max > 0, "limit never hit?");
	CHECK(mmf_cg_stat(cg, "memory.stat", "pgmajfault", &v) == 0, "%s", mmf_sys_err());
	CHECK(mmf_cg_stat(cg, "memory.stat", "no_such_key", &v) == -ENOENT &&
	      strstr(mmf_sys_err(), "no_such_key"), "missing key: %s", mmf_sys_err());

	ret = mmf_cg_reclaim(cg, 1 * MiB);
	if (version == 1)
		CHECK(ret == -EOPNOTSUPP, "v1 reclaim: %d", ret);
	else
		CHECK(ret == 0 || ret == -EAGAIN || ret == -EOPNOTSUPP, "reclaim: %s",
		      mmf_sys_err());

	/* No swap allowed: the same hog is OOM-killed. */
	ret = mmf_cg_create(jr, "oom", &cg2);
	CHECK(ret == 0, "create 2: %s", mmf_sys_err());
	ret = mmf_cg_set_limit(cg2, 16 * MiB, -1, 0);
	CHECK(ret == 0, "limit 2: %s", mmf_sys_err());
	kids[1] = hog_start(64 * MiB, &go, &ready);
	CHECK(mmf_cg_attach(cg2, kids[1]) == 0, "attach 2: %s", mmf_sys_err());
	CHECK(write(go, "g", 1) == 1, "go");
	CHECK(!hog_ready(ready), "hog survived 64 MiB in 16 MiB without swap");
	close(go);
	close(ready);
	CHECK(waitpid(kids[1], &wst, 0) == kids[1] && WIFSIGNALED(wst) &&
	      WTERMSIG(wst) == SIGKILL, "hog 2 status %#x", wst);
	kids[1] = 0;
	CHECK(mmf_cg_stats(cg2, &st) == 0 && st.ev_oom_kill >= 1, "oom_kill %llu",
	      (unsigned long long)st.ev_oom_kill);
	CHECK(mmf_cg_destroy(cg2) == 0, "destroy 2: %s", mmf_sys_err());

	/* Destroy with the hog still inside: it moves up, the dir goes. */
	snprintf(parent, sizeof(parent), "%s", mmf_cg_path(cg));
	ret = mmf_cg_destroy(cg);
	CHECK(ret == 0, "destroy: %s", mmf_sys_err());
	CHECK(access(parent, F_OK) && errno == ENOENT, "%s still there", parent);
	CHECK(!mmf_journal_has(jr, &mmf_jk_cgroup, parent), "record not done");
	CHECK(kill(kids[0], 0) == 0, "hog 1 was killed by destroy");
	cgroup_of(kids[0], version, rel, sizeof(rel));
	*strrchr(parent, '/') = '\0';
	CHECK(!strcmp(rel, strcmp(parent, mnt) ? parent + strlen(mnt) : "/"),
	      "hog 1 now in %s, not the parent", rel);
	kill(kids[0], SIGKILL);
	waitpid(kids[0], NULL, 0);
	kids[0] = 0;

	ret = mmf_journal_close(jr, true);
	jr = NULL;
	CHECK(ret == 0, "undo: %s", mmf_sys_err());
	CHECK(mmf_swap_find(fpath, NULL) == 0 && access(fpath, F_OK), "%s left", fpath);
	assert_none_left(own);
	assert_none_left(mnt);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_parsers),
	TAP_TEST(test_live),
};

int main(void)
{
	return tap_run(tests);
}
