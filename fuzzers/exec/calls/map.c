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

#include "exec/calls.h"
#include "model/uapi.h"
#include "runtime/map.h"
#include "runtime/perf.h"

long mmf_exec_mmap(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	uint64_t backing = s->args[3];
	bool anon = backing == MMF_BACKING_ANON;
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_mmap(addr, len, s->args[4],
		       s->args[6] | s->args[5] | (anon ? MAP_ANONYMOUS : 0),
		       anon ? -1 : in->files[backing - 1],
		       anon ? 0 : (off_t)s->args[1] * in->psz);
}

long mmf_exec_munmap(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ret(munmap(addr, len));
}

static int arena_index(const char *p, long bytes, const void *arena)
{
	return mmf_arena_index(arena, p, bytes);
}

long mmf_exec_mremap(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	long len2 = (long)mmf_slot_clip(dst, s->args[5]) * in->psz;

	return rt_mremap(addr, len, len2, s->args[6], mmf_page_addr(in, dst), dst, arena_index,
			 in->arena);
}

long mmf_exec_mprotect(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ret(mprotect(addr, len, s->args[3]));
}

long mmf_exec_mseal(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ret(syscall(SYS_mseal, addr, len, 0));
}

/* The perf event behind special_map, per process, made on first use. */
static pthread_mutex_t special_lock = PTHREAD_MUTEX_INITIALIZER;
static int perf_fd = -1;

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
	return rt_perf_dummy_open() < 0 ? -1 : 0;
}

long mmf_exec_special_map(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int idx, n, fd;

	mmf_stmt_range(s, &idx, &n);
	pthread_mutex_lock(&special_lock);
	if (perf_fd < 0)
		perf_fd = rt_perf_dummy_open();
	fd = perf_fd;
	pthread_mutex_unlock(&special_lock);
	return rt_perf_map(mmf_page_addr(in, idx), n, in->psz, fd);
}
