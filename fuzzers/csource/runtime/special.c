// SPDX-License-Identifier: GPL-2.0
/* The perf event behind special_map, made on first use. */
static int perf_fd(void)
{
	static int fd = -1;

	if (fd < 0)
		fd = rt_perf_dummy_open();
	return fd;
}
