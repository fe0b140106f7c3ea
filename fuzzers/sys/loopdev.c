// SPDX-License-Identifier: GPL-2.0
/*
 * Loop devices as swap. The kernel hands out the device number
 * (LOOP_CTL_GET_FREE) before we bind it, so the record is journaled with
 * the backing file's path: replay detaches a device only while that file
 * still backs it, never a device somebody else took since.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/journal.h"
#include "sys/loopdev.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"
#include "util/util.h"

static int backing_of(const char *dev, char *buf, size_t n)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", dev + 5);
	return mmf_sysfs_read(path, buf, n);
}

/*
 * Detach dev if backing still backs it: MMF_UNDO_GONE if it is already
 * detached or now somebody else's.
 */
static int loop_destroy(const char *dev, const char *backing)
{
	char cur[PATH_MAX];
	int fd, ret;

	if (backing_of(dev, cur, sizeof(cur)) < 0 || strcmp(cur, backing))
		return MMF_UNDO_GONE;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? MMF_UNDO_GONE : mmf_sys_fail(errno, "open %s", dev);
	ret = ioctl(fd, LOOP_CLR_FD, 0) ? -errno : 0;
	close(fd);
	if (ret == -ENXIO)
		return MMF_UNDO_GONE;
	return ret < 0 ? mmf_sys_fail(-ret, "detach %s", dev) : MMF_UNDO_DONE;
}

/* key: /dev/loopN, arg: the backing file we attached to it. */
static int loop_check(const char *dev, const char *backing)
{
	if (strncmp(dev, "/dev/loop", 9) || !backing || !strstr(backing, "/mmfuzz-loop."))
		return mmf_sys_fail(EPERM, "%s is not an mmfuzz loop device", dev);
	return 0;
}

static int loop_undo(const char *dev, const char *backing)
{
	return loop_destroy(dev, backing ? backing : "");
}

static void loop_describe(struct strbuf *sb, const char *dev, const char *backing)
{
	mmf_sb_printf(sb, "detach %s from %s", dev, backing ? backing : "");
}

static const struct mmf_journal_kind jk_loop = {
	.name = "loop",
	.check = loop_check,
	.undo = loop_undo,
	.describe = loop_describe,
};
MMF_JOURNAL_KIND(jk_loop);

/* The backing file, allocated: no holes to fill under swap-out. */
static int make_backing(struct mmf_journal *j, const char *dir, uint64_t bytes, char *path)
{
	int fd = mmf_swap_file_create(j, dir, "loop", path), ret;

	if (fd < 0)
		return fd;
	if (fallocate(fd, 0, 0, bytes) && ftruncate(fd, bytes)) {
		ret = mmf_sys_fail(errno, "allocate %s", path);
		close(fd);
		unlink(path);
		mmf_journal_done(j, &mmf_jk_file, path);
		return ret;
	}
	return fd;
}

static int bind_free(struct mmf_journal *j, int file_fd, const char *backing, char *dev)
{
	struct loop_config cfg = { .fd = file_fd, .info.lo_flags = LO_FLAGS_DIRECT_IO };
	int ctl, nr, fd, ret = -EBUSY;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return mmf_sys_fail(errno, "open /dev/loop-control");
	/* Another process may take the free device first: EBUSY, try again. */
	for (int tries = 0; tries < 8 && ret == -EBUSY; tries++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			ret = mmf_sys_fail(errno, "get a free loop device");
			break;
		}
		snprintf(dev, PATH_MAX, "/dev/loop%d", nr);
		ret = mmf_journal_add(j, &jk_loop, dev, backing);
		if (ret < 0)
			break;
		fd = open(dev, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			ret = mmf_sys_fail(errno, "open %s", dev);
		} else {
			ret = ioctl(fd, LOOP_CONFIGURE, &cfg) ? -errno : 0;
			/* A file system without direct I/O: buffered then. */
			if (ret == -EINVAL) {
				cfg.info.lo_flags = 0;
				ret = ioctl(fd, LOOP_CONFIGURE, &cfg) ? -errno : 0;
			}
			close(fd);
			if (ret < 0)
				mmf_sys_fail(-ret, "attach %s to %s", backing, dev);
		}
		if (ret < 0)
			mmf_journal_done(j, &jk_loop, dev);
	}
	close(ctl);
	return ret;
}

static int write_header(const char *dev, uint64_t pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *page = mmf_xcalloc(1, pg);
	int fd, ret = 0;

	mmf_swap_header(page, pages);
	fd = open(dev, O_WRONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 || mmf_write_all(fd, page, pg) || fsync(fd))
		ret = mmf_sys_fail(errno, "write swap header to %s", dev);
	if (fd >= 0)
		close(fd);
	free(page);
	return ret;
}

int mmf_loop_swap_add(struct mmf_journal *j, const char *dir, uint64_t size_bytes, int prio,
		      char *out_path)
{
	char backing[PATH_MAX], dev[PATH_MAX], msg[512];
	uint64_t pages;
	int fd, ret;

	ret = mmf_swap_check_args(size_bytes, prio, &pages);
	if (ret < 0)
		return ret;
	fd = make_backing(j, dir, pages * sysconf(_SC_PAGESIZE), backing);
	if (fd < 0)
		return fd;
	ret = bind_free(j, fd, backing, dev);
	close(fd);
	if (ret == 0)
		ret = write_header(dev, pages);
	if (ret == 0)
		ret = mmf_swapon_journaled(j, dev, prio);
	if (ret == 0) {
		snprintf(out_path, PATH_MAX, "%s", dev);
		return 0;
	}
	snprintf(msg, sizeof(msg), "%s", mmf_sys_err());
	if (mmf_journal_has(j, &jk_loop, dev) && loop_destroy(dev, backing) >= 0)
		mmf_journal_done(j, &jk_loop, dev);
	unlink(backing);
	mmf_journal_done(j, &mmf_jk_file, backing);
	return mmf_sys_set_err(ret, msg);
}

int mmf_loop_swap_remove(struct mmf_journal *j, const char *dev)
{
	char backing[PATH_MAX];
	int ret;

	if (!mmf_journal_has(j, &jk_loop, dev))
		return mmf_sys_fail(EPERM, "%s is not a loop device of this run", dev);
	if (backing_of(dev, backing, sizeof(backing)) < 0 ||
	    !mmf_journal_has(j, &mmf_jk_file, backing))
		return mmf_sys_fail(EPERM, "%s is no longer backed by a file of this run", dev);
	if (mmf_journal_has(j, &mmf_jk_swapon, dev)) {
		ret = mmf_swapoff(dev);
		if (ret < 0 && ret != -EINVAL)
			return ret;
		mmf_journal_done(j, &mmf_jk_swapon, dev);
	}
	ret = loop_destroy(dev, backing);
	if (ret < 0)
		return ret;
	mmf_journal_done(j, &jk_loop, dev);
	if (unlink(backing) && errno != ENOENT)
		return mmf_sys_fail(errno, "unlink %s", backing);
	return mmf_journal_done(j, &mmf_jk_file, backing);
}
