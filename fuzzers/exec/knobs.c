// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and writing the cgroup and sysfs files of the cg_* and tune
 * calls. They only touch what the run prepared: the cgroups and knob files
 * of the exec options, which the environment made or journaled, so that a
 * killed run is undone by 'mmfuzz cleanup'.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "exec/knobs.h"

/* One write(2), as cgroupfs and sysfs stores expect; 0 or -errno. */
long mmf_knob_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	long r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		r = -errno;
	close(fd);
	return r;
}

int mmf_knob_read(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = read(fd, buf, n - 1);
	close(fd);
	if (r < 0)
		return -errno;
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
