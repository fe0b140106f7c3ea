// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/journal.h"
#include "sys/loopdev.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"
#include "util/util.h"

#define ZRAM_CONTROL "/sys/class/zram-control"
#define MIN_SWAP_PAGES 10	/* as mkswap */

extern char **environ;

/* The kernel's union swap_header (include/linux/swap.h), info part. */
struct swap_header_info {
	char bootbits[1024];
	uint32_t version;
	uint32_t last_page;
	uint32_t nr_badpages;
	unsigned char sws_uuid[16];
	char sws_volume[16];
	uint32_t padding[117];
	uint32_t badpages[];
};

static atomic_int swapfile_seq;

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

void mmf_swap_header(unsigned char *page, uint64_t pages)
{
	struct swap_header_info *h = (struct swap_header_info *)page;
	long pg = page_size();

	h->version = 1;
	h->last_page = pages - 1;
	h->nr_badpages = 0;
	if (getrandom(h->sws_uuid, sizeof(h->sws_uuid), 0) != sizeof(h->sws_uuid)) {
		uint64_t t = mmf_now_ns() ^ getpid();	/* uniqueness is all we need */

		memcpy(h->sws_uuid, &t, sizeof(t));
	}
	h->sws_uuid[6] = (h->sws_uuid[6] & 0x0f) | 0x40;	/* RFC 4122 v4 */
	h->sws_uuid[8] = (h->sws_uuid[8] & 0x3f) | 0x80;
	strncpy(h->sws_volume, "mmfuzz", sizeof(h->sws_volume));
	memcpy(page + pg - 10, "SWAPSPACE2", 10);
}

int mmf_swap_check_args(uint64_t size_bytes, int prio, uint64_t *pages)
{
	*pages = size_bytes / page_size();
	if (*pages < MIN_SWAP_PAGES)
		return mmf_sys_fail(EINVAL, "swap size %" PRIu64 " bytes: need at least %d pages",
				    size_bytes, MIN_SWAP_PAGES);
	if (*pages - 1 > UINT32_MAX)
		return mmf_sys_fail(EFBIG, "swap size %" PRIu64 " bytes: too big", size_bytes);
	if (prio > MMF_SWAP_PRIO_MAX)
		return mmf_sys_fail(EINVAL, "swap priority %d: at most %d", prio,
				    MMF_SWAP_PRIO_MAX);
	return 0;
}

int mmf_swapon(const char *path, int prio)
{
	int flags = 0;

	if (prio > MMF_SWAP_PRIO_MAX)
		return mmf_sys_fail(EINVAL, "swapon %s: priority %d over %d", path, prio,
				    MMF_SWAP_PRIO_MAX);
	if (prio >= 0)
		flags = SWAP_FLAG_PREFER | ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	if (swapon(path, flags))
		return mmf_sys_fail(errno, "swapon %s", path);
	return 0;
}

int mmf_swapon_journaled(struct mmf_journal *j, const char *path, int prio)
{
	int ret = mmf_journal_add(j, &mmf_jk_swapon, path, NULL);

	if (ret == 0) {
		ret = mmf_swapon(path, prio);
		if (ret < 0)
			mmf_journal_done(j, &mmf_jk_swapon, path);
	}
	return ret;
}

int mmf_swapoff(const char *path)
{
	if (swapoff(path))
		return mmf_sys_fail(errno, "swapoff %s", path);
	return 0;
}

static int swapon_undo(const char *path, const char *arg)
{
	int ret = mmf_swapoff(path);

	/* EINVAL: not (any more) a swap area. */
	if (ret == -EINVAL || ret == -ENOENT)
		return MMF_UNDO_GONE;
	return ret;
}

static void swapon_describe(struct strbuf *sb, const char *path, const char *arg)
{
	mmf_sb_printf(sb, "swapoff %s", path);
}

const struct mmf_journal_kind mmf_jk_swapon = {
	.name = "swapon",
	.check = mmf_journal_check_path,
	.undo = swapon_undo,
	.describe = swapon_describe,
};
MMF_JOURNAL_KIND(mmf_jk_swapon);

/* Write the header page and zeros for the rest; no holes for swapon. */
static int fill_swapfile(int fd, uint64_t pages, const char *path)
{
	const size_t chunk = 1 << 20;
	long pg = page_size();
	uint64_t left = pages * pg;
	unsigned char *buf = mmf_xcalloc(1, chunk);
	int ret = 0;

	mmf_swap_header(buf, pages);
	while (left) {
		size_t n = MIN(left, chunk);

		if (mmf_write_all(fd, buf, n)) {
			ret = mmf_sys_fail(errno, "write %s", path);
			break;
		}
		if (left == pages * pg)
			memset(buf, 0, pg);
		left -= n;
	}
	if (!ret && fsync(fd))
		ret = mmf_sys_fail(errno, "fsync %s", path);
	free(buf);
	return ret;
}

static int file_undo(const char *path, const char *arg)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? MMF_UNDO_GONE : mmf_sys_fail(errno, "stat %s", path);
	/* Only ever a regular file we created; never follow what replaced it. */
	if (!S_ISREG(st.st_mode))
		return mmf_sys_fail(EPERM, "%s is no longer a regular file", path);
	if (unlink(path))
		return errno == ENOENT ? MMF_UNDO_GONE : mmf_sys_fail(errno, "unlink %s", path);
	return MMF_UNDO_DONE;
}

static void file_describe(struct strbuf *sb, const char *path, const char *arg)
{
	mmf_sb_printf(sb, "remove file %s", path);
}

const struct mmf_journal_kind mmf_jk_file = {
	.name = "file",
	.check = mmf_journal_check_path,
	.undo = file_undo,
	.describe = file_describe,
	.after_reboot = true,
};
MMF_JOURNAL_KIND(mmf_jk_file);

int mmf_swap_file_create(struct mmf_journal *j, const char *dir, const char *kind,
			 char *path)
{
	struct stat st;
	int fd, ret;

	if (!dir)
		dir = "/var/tmp";
	/* We create no directories: they would be changes to undo as well. */
	if (stat(dir, &st))
		return mmf_sys_fail(errno, "swap file directory %s", dir);
	for (;;) {
		if (snprintf(path, PATH_MAX, "%s/mmfuzz-%s.%d.%d", dir, kind, (int)getpid(),
			     atomic_fetch_add(&swapfile_seq, 1)) >= PATH_MAX)
			return mmf_sys_fail(ENAMETOOLONG, "swap file directory %s", dir);
		ret = mmf_journal_add(j, &mmf_jk_file, path, NULL);
		if (ret < 0)
			return ret;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		ret = errno;
		/* Not created, so not ours: replay must leave it alone. */
		mmf_journal_done(j, &mmf_jk_file, path);
		if (ret != EEXIST)
			return mmf_sys_fail(ret, "create %s", path);
	}
}

int mmf_swapfile_add(struct mmf_journal *j, const char *dir, uint64_t size_bytes,
		     int prio, char *out_path)
{
	char path[PATH_MAX];
	uint64_t pages;
	int fd, ret;

	ret = mmf_swap_check_args(size_bytes, prio, &pages);
	if (ret < 0)
		return ret;
	fd = mmf_swap_file_create(j, dir, "swap", path);
	if (fd < 0)
		return fd;
	if (fchmod(fd, 0600))	/* whatever the umask: swap holds others' memory */
		ret = mmf_sys_fail(errno, "chmod %s", path);
	else
		ret = fill_swapfile(fd, pages, path);
	close(fd);
	if (!ret)
		ret = mmf_swapon_journaled(j, path, prio);
	if (ret < 0) {
		unlink(path);
		mmf_journal_done(j, &mmf_jk_file, path);
		return ret;
	}
	if (out_path)
		strcpy(out_path, path);
	return 0;
}

/* Run argv (searched in PATH); 0 on exit status 0, else -errno. */
static int run_cmd(char *const argv[])
{
	pid_t pid;
	int st, err;

	err = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (err)
		return mmf_sys_fail(err, "run %s", argv[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return mmf_sys_fail(errno, "wait for %s", argv[0]);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		mmf_sys_fail(EIO, "%s %s: exit status %d", argv[0], argv[1], WEXITSTATUS(st));
	else
		mmf_sys_fail(EIO, "%s %s: killed by signal %d", argv[0], argv[1],
			     WTERMSIG(st));
	return -EIO;
}

/* key: a kernel module we loaded. */
static int module_check(const char *name, const char *arg)
{
	return 0;	/* modprobe -r takes a name, never a path to trust */
}

static int module_unload(const char *name, const char *arg)
{
	char *sys = mmf_xasprintf("/sys/module/%s", name);
	char *const argv[] = { "modprobe", "-r", (char *)name, NULL };
	bool loaded = !access(sys, F_OK);

	free(sys);
	return loaded ? run_cmd(argv) : MMF_UNDO_GONE;
}

static void module_describe(struct strbuf *sb, const char *name, const char *arg)
{
	mmf_sb_printf(sb, "unload module %s", name);
}

static const struct mmf_journal_kind jk_module = {
	.name = "module",
	.check = module_check,
	.undo = module_unload,
	.describe = module_describe,
};
MMF_JOURNAL_KIND(jk_module);

static int zram_control_ready(struct mmf_journal *j)
{
	char *const argv[] = { "modprobe", "zram", "num_devices=0", NULL };
	int ret;

	if (!access(ZRAM_CONTROL "/hot_add", F_OK))
		return 0;
	if (!access("/sys/module/zram", F_OK))
		return mmf_sys_fail(ENODEV, "zram is loaded but %s is missing", ZRAM_CONTROL);
	ret = mmf_journal_add(j, &jk_module, "zram", NULL);
	if (ret < 0)
		return ret;
	ret = run_cmd(argv);
	if (ret == 0 && access(ZRAM_CONTROL "/hot_add", F_OK))
		ret = mmf_sys_fail(ENODEV, "modprobe zram: still no %s", ZRAM_CONTROL);
	/* Nothing loaded (or not by us): nothing to unload. */
	if (ret < 0 || access("/sys/module/zram", F_OK))
		mmf_journal_done(j, &jk_module, "zram");
	return ret;
}

/* Read hot_add exactly once: every read creates a device. */
static int zram_hot_add(void)
{
	char buf[32];
	ssize_t n;
	int fd, id;

	fd = open(ZRAM_CONTROL "/hot_add", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return mmf_sys_fail(errno, "open %s/hot_add", ZRAM_CONTROL);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		int err = errno;

		close(fd);
		return mmf_sys_fail(err, "read %s/hot_add", ZRAM_CONTROL);
	}
	close(fd);
	buf[n] = '\0';
	if (sscanf(buf, "%d", &id) != 1 || id < 0)
		return mmf_sys_fail(EIO, "%s/hot_add returned '%s'", ZRAM_CONTROL, buf);
	return id;
}

static int zram_destroy(int id)
{
	char dev[64], blk[64], path[96], num[16];
	int ret;

	snprintf(blk, sizeof(blk), "/sys/block/zram%d", id);
	snprintf(dev, sizeof(dev), "/dev/zram%d", id);
	if (access(blk, F_OK))
		return errno == ENOENT ? MMF_UNDO_GONE : mmf_sys_fail(errno, "%s", blk);
	/* Normally the swapon record came later and was undone first. */
	if (mmf_swap_find(dev, NULL) == 1) {
		ret = mmf_swapoff(dev);
		if (ret < 0)
			return ret;
	}
	snprintf(path, sizeof(path), "%s/reset", blk);
	ret = mmf_sysfs_write(path, "1");
	if (ret == -ENOENT)
		return MMF_UNDO_GONE;
	if (ret < 0)
		return ret;
	snprintf(num, sizeof(num), "%d", id);
	ret = mmf_sysfs_write(ZRAM_CONTROL "/hot_remove", num);
	if (ret == -ENODEV || ret == -ENOENT)
		return MMF_UNDO_GONE;
	return ret < 0 ? ret : MMF_UNDO_DONE;
}

/* key: the zram device id the kernel gave us. */
static int zram_check(const char *id, const char *arg)
{
	if (!*id || strspn(id, "0123456789") != strlen(id))
		return mmf_sys_fail(EINVAL, "zram id '%s' is not a number", id);
	return 0;
}

static int zram_undo(const char *id, const char *arg)
{
	return zram_destroy(atoi(id));
}

static void zram_describe(struct strbuf *sb, const char *id, const char *arg)
{
	mmf_sb_printf(sb, "remove /dev/zram%s", id);
}

static char *zram_path(const char *id)
{
	return mmf_xasprintf("/dev/zram%s", id);
}

const struct mmf_journal_kind mmf_jk_zram = {
	.name = "zram",
	.check = zram_check,
	.undo = zram_undo,
	.describe = zram_describe,
	.path = zram_path,
};
MMF_JOURNAL_KIND(mmf_jk_zram);

static int zram_setup(int id, uint64_t pages)
{
	char path[96], dev[64], list[512], cur[64], num[32];
	unsigned char *page;
	int fd, ret;

	snprintf(path, sizeof(path), "/sys/block/zram%d/comp_algorithm", id);
	ret = mmf_sysfs_read(path, list, sizeof(list));
	if (ret < 0)
		return ret;
	mmf_knob_value(list, cur, sizeof(cur));
	/* lzo-rle is the common default; otherwise keep what the kernel chose. */
	if (mmf_has_word(list, "lzo-rle") && strcmp(cur, "lzo-rle")) {
		ret = mmf_sysfs_write(path, "lzo-rle");
		if (ret < 0)
			return ret;
	}
	snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", id);
	snprintf(num, sizeof(num), "%" PRIu64, pages * page_size());
	ret = mmf_sysfs_write(path, num);
	if (ret < 0)
		return ret;

	/* devtmpfs creates the node at once; give udev a moment otherwise. */
	snprintf(dev, sizeof(dev), "/dev/zram%d", id);
	for (int i = 0; i < 200 && access(dev, F_OK); i++)
		usleep(10 * 1000);
	/* O_EXCL: fails if anybody else has the device open or swapped on. */
	fd = open(dev, O_WRONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return mmf_sys_fail(errno, "open %s", dev);
	page = mmf_xcalloc(1, page_size());
	mmf_swap_header(page, pages);
	if (mmf_write_all(fd, page, page_size()) || fsync(fd))
		ret = mmf_sys_fail(errno, "write swap header to %s", dev);
	free(page);
	close(fd);
	return ret;
}

int mmf_zram_add(struct mmf_journal *j, uint64_t size_bytes, int prio, char *out_path)
{
	char dev[64], key[16];
	uint64_t pages;
	int id, ret;

	ret = mmf_swap_check_args(size_bytes, prio, &pages);
	if (ret < 0)
		return ret;
	ret = zram_control_ready(j);
	if (ret < 0)
		return ret;
	id = zram_hot_add();
	if (id < 0)
		return id;
	snprintf(key, sizeof(key), "%d", id);
	snprintf(dev, sizeof(dev), "/dev/zram%d", id);
	/* The kernel names the device only now: journal it before anything else. */
	ret = mmf_journal_add(j, &mmf_jk_zram, key, NULL);
	if (ret == 0)
		ret = zram_setup(id, pages);
	if (ret == 0)
		ret = mmf_swapon_journaled(j, dev, prio);
	if (ret < 0) {
		char msg[512];

		/* Keep the first error's message, not the cleanup's. */
		snprintf(msg, sizeof(msg), "%s", mmf_sys_err());
		if (zram_destroy(id) >= 0)
			mmf_journal_done(j, &mmf_jk_zram, key);
		return mmf_sys_set_err(ret, msg);
	}
	if (out_path)
		strcpy(out_path, dev);
	return 0;
}

int mmf_swapdev_remove(struct mmf_journal *j, const char *path)
{
	bool zram = !strncmp(path, "/dev/zram", 9);
	const char *key = zram ? path + 9 : NULL;
	int ret;

	if (!strncmp(path, "/dev/loop", 9))
		return mmf_loop_swap_remove(j, path);

	if (!mmf_journal_has(j, &mmf_jk_swapon, path) && !mmf_journal_has(j, &mmf_jk_file, path) &&
	    !(zram && mmf_journal_has(j, &mmf_jk_zram, key)))
		return mmf_sys_fail(EPERM, "%s is not a swap device of this run", path);
	if (mmf_journal_has(j, &mmf_jk_swapon, path)) {
		ret = mmf_swapoff(path);
		if (ret < 0 && ret != -EINVAL)
			return ret;
		mmf_journal_done(j, &mmf_jk_swapon, path);
	}
	if (zram && mmf_journal_has(j, &mmf_jk_zram, key)) {
		ret = zram_destroy(atoi(key));
		if (ret < 0)
			return ret;
		return mmf_journal_done(j, &mmf_jk_zram, key);
	}
	if (mmf_journal_has(j, &mmf_jk_file, path)) {
		if (unlink(path) && errno != ENOENT)
			return mmf_sys_fail(errno, "unlink %s", path);
		return mmf_journal_done(j, &mmf_jk_file, path);
	}
	return 0;
}

int mmf_swap_list(struct mmf_swap_info **list)
{
	struct mmf_swap_info *v = NULL;
	char *text, *line, *save = NULL;
	int n = 0, cap = 0;
	bool first = true;

	*list = NULL;
	text = mmf_read_text("/proc/swaps");
	if (!text)
		return mmf_sys_fail(errno, "read /proc/swaps");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct mmf_swap_info si = { 0 };
		char name[PATH_MAX * 4 + 1];	/* escaped form is longer */
		unsigned long long size, used;
		char *rest;
		size_t nl;

		if (first) {	/* "Filename Type Size Used Priority" */
			first = false;
			continue;
		}
		nl = strcspn(line, " \t");
		if (nl >= sizeof(name))
			continue;
		memcpy(name, line, nl);
		name[nl] = '\0';
		rest = line + nl;
		if (sscanf(rest, "%15s %llu %llu %d", si.type, &size, &used, &si.prio) != 4)
			continue;
		mmf_unescape_octal(name);
		if (strlen(name) >= sizeof(si.path))
			continue;
		strcpy(si.path, name);
		si.size_kb = size;
		si.used_kb = used;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = mmf_xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = si;
	}
	free(text);
	*list = v;
	return n;
}

int mmf_swap_find(const char *path, struct mmf_swap_info *info)
{
	struct mmf_swap_info *v;
	int n = mmf_swap_list(&v), found = 0;

	if (n < 0)
		return n;
	for (int i = 0; v && i < n && !found; i++) {
		if (strcmp(v[i].path, path))
			continue;
		found = 1;
		if (info)
			*info = v[i];
	}
	free(v);
	return found;
}
