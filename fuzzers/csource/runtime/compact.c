// SPDX-License-Identifier: GPL-2.0
static long compact_memory(void)
{
	int fd = sys(open("/proc/sys/vm/compact_memory", O_WRONLY | O_CLOEXEC));
	long r;

	if (fd < 0)
		return fd;
	r = sys(write(fd, "1", 1));
	close(fd);
	return r < 0 ? r : 0;
}
