// SPDX-License-Identifier: GPL-2.0
/*
 * Finding a bug's directory and locking it. The name is derived from the
 * title, but the title file inside decides: a directory holding another
 * title (a hash collision) is passed over for the next suffix, and one
 * without a title (its creator died before writing it) is free to claim.
 * Both checks run under the directory's lock, so two writers never claim
 * one directory for two titles.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/internal.h"

/* Directories tried for one name before giving up: collisions are rare. */
#define MAX_SUFFIX 64

static int lock_path(const char *bugdir)
{
	char *path = mmf_xasprintf("%s/lock", bugdir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	int err = errno;

	free(path);
	if (fd < 0)
		return -err;
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR) {
			err = errno;
			close(fd);
			return -err;
		}
	}
	return fd;
}

/* 1 if bugdir holds title, 0 if it holds no title yet, -1 if another. */
static int holds(const char *bugdir, const char *title)
{
	char *path = mmf_xasprintf("%s/title", bugdir);
	size_t len;
	char *t = mmf_read_file(path, &len);
	int ret;

	free(path);
	if (!t)
		return 0;
	if (len && t[len - 1] == '\n')
		t[--len] = '\0';
	ret = strlen(t) == len && !strcmp(t, title) ? 1 : -1;
	free(t);
	return ret;
}

static int claim(const char *bugdir, const char *title)
{
	char *path = mmf_xasprintf("%s/title", bugdir);
	char *t = mmf_xasprintf("%s\n", title);
	int ret = mmf_write_file_atomic(path, t, strlen(t)) ? -errno : 0;

	free(path);
	free(t);
	return ret;
}

/* Try one candidate: 1 locked and ours, 0 not this one, -errno. */
static int try_dir(const char *path, const char *title, bool create, struct bugdir *b)
{
	int fd, h, err;

	if (create && mkdir(path, 0755) && errno != EEXIST)
		return mmf_store_fail(errno, "cannot create %s", path);
	if (!create && access(path, F_OK))
		return errno == ENOENT ? -ENOENT : mmf_store_fail(errno, "%s", path);
	fd = lock_path(path);
	if (fd < 0)
		return mmf_store_fail(fd, "cannot lock %s", path);
	h = holds(path, title);
	if (h == 0 && create) {
		err = claim(path, title);
		if (err) {
			close(fd);
			return mmf_store_fail(err, "cannot write %s/title", path);
		}
		b->created = true;
		h = 1;
	}
	if (h != 1) {
		close(fd);
		return 0;
	}
	b->lock_fd = fd;
	return 1;
}

int mmf_bugdir_lock(const char *dir, const char *title, bool create, struct bugdir *b)
{
	char *base = mmf_store_dir_name(title);
	int ret = 0;

	memset(b, 0, sizeof(*b));
	b->lock_fd = -1;
	/* A bug's directory given as it is (a store's has no title file). */
	if (!create && holds(dir, title) == 1 && try_dir(dir, title, false, b) == 1) {
		free(base);
		b->path = mmf_xstrdup(dir);
		b->name = strrchr(b->path, '/') ? strrchr(b->path, '/') + 1 : b->path;
		return 0;
	}
	for (int k = 1; k <= MAX_SUFFIX; k++) {
		char *path = k == 1 ? mmf_xasprintf("%s/%s", dir, base) :
				      mmf_xasprintf("%s/%s-%d", dir, base, k);

		ret = try_dir(path, title, create, b);
		if (ret == 1) {
			b->path = path;
			b->name = strrchr(path, '/') + 1;
			free(base);
			return 0;
		}
		free(path);
		if (ret < 0)
			break;
	}
	free(base);
	if (ret == 0)
		ret = create ? mmf_store_msg(-ENOSPC, "%s: no free directory for '%s'", dir, title) :
			       -ENOENT;
	if (ret == -ENOENT)
		mmf_store_msg(ret, "%s: no bug titled '%s'", dir, title);
	return ret;
}

void mmf_bugdir_unlock(struct bugdir *b)
{
	if (b->lock_fd >= 0)
		close(b->lock_fd);	/* drops the flock */
	free(b->path);
	b->path = NULL;
	b->lock_fd = -1;
}

int mmf_bugdir_sync(const struct bugdir *b)
{
	int fd = open(b->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		ret = -errno;
	close(fd);
	return ret;
}
