// SPDX-License-Identifier: GPL-2.0
#include <sys/mman.h>
#include <sys/prctl.h>
#include <linux/perf_event.h>

/* Helpers of the calls below: a program uses only some. */
/* One write(2) to a cgroup or sysfs file. */
static __attribute__((unused)) long put_file(const char *path, const char *val)
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

/* File v2 (else v1) of memory cgroup cg ($MMFUZZ_CG<cg>) into path. */
static int cg_path(int cg, const char *v2, const char *v1, char *path, size_t n)
{
	char var[16];
	const char *dir;

	snprintf(var, sizeof(var), "MMFUZZ_CG%d", cg);
	dir = getenv(var);
	if (!dir)
		return -ENODEV;
	snprintf(path, n, "%s/%s", dir, v2);
	if (v1 && access(path, F_OK))
		snprintf(path, n, "%s/%s", dir, v1);
	return 0;
}

static __attribute__((unused)) long cg_put(int cg, const char *v2, const char *v1, const char *val)
{
	char path[4096];

	return cg_path(cg, v2, v1, path, sizeof(path)) ?: put_file(path, val);
}

static __attribute__((unused)) long cg_num(int cg, const char *v2, const char *v1, long long v)
{
	char val[32];

	snprintf(val, sizeof(val), "%lld", v);
	return cg_put(cg, v2, v1, val);
}

static __attribute__((unused)) long set_fd(int f, long fd)
{
	if (fd < 0)
		return fd;
	if (files[f] >= 0)
		close(files[f]);
	files[f] = fd;
	return 0;
}

/* pwrite/pread page by page; the pattern of file page pg. */
static __attribute__((unused)) long file_pages(int f, int pg, int n, int tag, int write)
{
	uint64_t *buf = malloc(psz);
	long done = 0, r = 0;

	for (; buf && done < n; done++) {
		for (long i = 0; write && i < psz / 8; i++)
			buf[i] = word(tag, ARENA_PAGES + pg + done);
		r = write ? pwrite(files[f], buf, psz, (pg + done) * psz) :
			    pread(files[f], buf, psz, (pg + done) * psz);
		if (r != psz)
			break;
	}
	r = done || r >= 0 ? done : -errno;
	free(buf);
	return r;
}

/* A perf ring buffer of 1 + 2^n pages at the range. */
static __attribute__((unused)) long perf_map(int slot, int pg, int n)
{
	static int fd = -1;
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				      .config = PERF_COUNT_SW_DUMMY, .exclude_kernel = 1 };
	long pages;

	if (fd < 0)
		fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 8 /* FD_CLOEXEC */);
	if (fd < 0)
		return -errno;
	for (pages = 1; pages * 2 + 1 <= n; pages *= 2)
		;
	pages = n == 1 ? 1 : pages + 1;
	if (mmap(at(slot, pg), len(pages), PROT_READ | PROT_WRITE,
		 MAP_SHARED | 0x100000 /* MAP_FIXED_NOREPLACE */, fd, 0) != at(slot, pg))
		return -errno;
	return pages;
}

/* Until ksmd finished scans more full scans, at most 1.5 s each. */
static __attribute__((unused)) long ksm_wait(int scans)
{
	char buf[32];
	long from = -1, now;

	for (int ms = 0; ms <= 1500 * scans; ms += 10) {
		int fd = open("/sys/kernel/mm/ksm/full_scans", O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

		if (fd >= 0)
			close(fd);
		if (n <= 0)
			return -EOPNOTSUPP;
		buf[n] = 0;
		now = atol(buf);
		if (from < 0)
			from = now;
		if (now - from >= scans)
			return now - from;
		usleep(10000);
	}
	return -ETIMEDOUT;
}
