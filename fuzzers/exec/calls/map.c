// SPDX-License-Identifier: GPL-2.0
/*
 * The map family: mappings in the arena's slots. A mapping goes exactly
 * where its slot says, never over another one (MAP_FIXED_NOREPLACE unless
 * the program asked for MAP_FIXED). special_map places a mapping the
 * kernel backs with its own pages, a perf ring buffer, in a slot like any
 * other mapping.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec/calls.h"
#include "exec/perf_dummy.h"
#include "model/uapi.h"

long mmf_exec_mmap(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	uint64_t backing = s->args[3], flags = s->args[6];
	int fd = -1;
	long len;
	char *addr = mmf_range_addr(in, s, &len);
	void *r;

	if (backing != MMF_BACKING_ANON) {
		fd = in->files[backing - 1];
		if (fd < 0)
			return -EBADF;
	}
	flags = (flags & ~(uint64_t)MAP_FIXED) | s->args[5] |
		(backing == MMF_BACKING_ANON ? MAP_ANONYMOUS : 0) |
		(s->args[6] & MAP_FIXED ? MAP_FIXED : MMF_MAP_FIXED_NOREPLACE);
	r = mmap(addr, len, s->args[4], flags, fd,
		 backing == MMF_BACKING_ANON ? 0 : (off_t)s->args[1] * in->psz);
	if (r == MAP_FAILED)
		return -errno;
	if (r != addr) {
		/* A kernel without MAP_FIXED_NOREPLACE treats it as a hint. */
		munmap(r, len);
		return -EEXIST;
	}
	return 0;
}

long mmf_exec_munmap(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return mmf_ret(munmap(addr, len));
}

long mmf_exec_mremap(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	long len2 = (long)mmf_slot_clip(dst, s->args[5]) * in->psz;
	char *to = mmf_page_addr(in, dst);
	char *r = mremap(addr, len, len2, s->args[6], to);
	int at;

	if (r == MAP_FAILED)
		return -errno;
	at = mmf_arena_index(in->arena, r, len2);
	if (at < 0) {
		/* Moved where the kernel liked: bring it back to the slot. */
		char *b = mremap(r, len2, len2, MREMAP_MAYMOVE | MREMAP_FIXED, to);

		if (b == MAP_FAILED) {
			munmap(r, len2);
			return -EFAULT;
		}
		at = dst;
	}
	return at;
}

long mmf_exec_mprotect(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return mmf_ret(mprotect(addr, len, s->args[3]));
}

/* The perf event behind special_map, per process, made on first use. */
static pthread_mutex_t special_lock = PTHREAD_MUTEX_INITIALIZER;
static int perf_fd = -1;

static int perf(void)
{
	if (perf_fd < 0)
		perf_fd = mmf_perf_dummy_open();
	return perf_fd;
}

/*
 * One task-bound perf event open for the runner's life, never used: the
 * kernel's perf_sched_events key then stays on, so that special_map's
 * perf_event_open() does not patch kernel text (a jump label in
 * __schedule) while other CPUs run. Under TCG such a live patch has
 * crashed a 6.12 guest with "Oops: int3" in __schedule: an emulator
 * artefact, not a finding.
 */
int mmf_exec_map_init(void)
{
	return mmf_perf_dummy_open() < 0 ? -1 : 0;
}

/*
 * Map a perf ring buffer at the range: the model loses the range (it does
 * not predict these pages), but mlock, madvise and the rest treat it like
 * any other mapping. Its length is the largest 1 + 2^n pages (a control
 * page, then data) within the range, which it returns.
 */
long mmf_exec_special_map(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long pages;
	int idx, n, fd;
	void *r;

	mmf_stmt_range(s, &idx, &n);
	pthread_mutex_lock(&special_lock);
	fd = perf();
	pthread_mutex_unlock(&special_lock);
	if (fd < 0)
		return fd;
	for (pages = 1; pages * 2 + 1 <= n; pages *= 2)
		;
	pages = n == 1 ? 1 : pages + 1;
	r = mmap(mmf_page_addr(in, idx), pages * in->psz, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MMF_MAP_FIXED_NOREPLACE, fd, 0);
	if (r == MAP_FAILED)
		return -errno;
	if (r != mmf_page_addr(in, idx)) {
		munmap(r, pages * in->psz);
		return -EEXIST;
	}
	return pages;
}
