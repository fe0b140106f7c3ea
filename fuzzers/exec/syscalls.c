// SPDX-License-Identifier: GPL-2.0
/*
 * The system calls behind each descriptor. Addresses come from the arena:
 * a range is slot base + page * page size. Raw syscall(2) is used where the
 * C library may lack a wrapper or a sanitizer intercepts it (ASan turns
 * mlock into a no-op); flag values come straight from the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "exec/calls_c.h"
#include "exec/interp.h"
#include "exec/uffd.h"
#include "exec/pins.h"
#include "exec/placement.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static long ret(long r)
{
	return r < 0 ? -errno : r;
}

static char *range_addr(struct interp *in, const struct mmf_stmt *s, long *len)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	*len = (long)n * in->psz;
	return page_addr(in, idx);
}

static long run_mmap(struct interp *in, const struct mmf_stmt *s, int si)
{
	uint64_t backing = s->args[3], flags = s->args[6];
	int fd = -1;
	long len;
	char *addr = range_addr(in, s, &len);
	void *r;

	if (backing != MMF_BACKING_ANON) {
		fd = in->files[backing - 1];
		if (fd < 0)
			return -EBADF;
	}
	flags = (flags & ~(uint64_t)MAP_FIXED) | s->args[5] |
		(backing == MMF_BACKING_ANON ? MAP_ANONYMOUS : 0) |
		(s->args[6] & MAP_FIXED ? MAP_FIXED : MAP_FIXED_NOREPLACE);
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

static long run_munmap(struct interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = range_addr(in, s, &len);

	return ret(munmap(addr, len));
}

static long run_mremap(struct interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = range_addr(in, s, &len);
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	long len2 = (long)MIN((int)s->args[5], MMF_ARENA_PAGES - dst) * in->psz;
	char *to = page_addr(in, dst);
	char *r = mremap(addr, len, len2, s->args[6], to);
	char *end = in->arena + (long)MMF_ARENA_PAGES * in->psz;

	if (r == MAP_FAILED)
		return -errno;
	if (r < in->arena || r + len2 > end) {
		/* Moved where the kernel liked: bring it back to the slot. */
		char *b = mremap(r, len2, len2, MREMAP_MAYMOVE | MREMAP_FIXED, to);

		if (b == MAP_FAILED) {
			munmap(r, len2);
			return -EFAULT;
		}
		r = b;
	}
	return (r - in->arena) / in->psz;
}

static long run_mprotect(struct interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = range_addr(in, s, &len);

	return ret(mprotect(addr, len, s->args[3]));
}

static long run_madvise(struct interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = range_addr(in, s, &len);

	return ret(madvise(addr, len, s->args[3]));
}

static long run_process_madvise(struct interp *in, const struct mmf_stmt *s, int si)
{
	struct iovec iov;
	long r;
	int fd;

	iov.iov_base = range_addr(in, s, (long *)&iov.iov_len);
	if (s->args[3] == MMF_TARGET_SELF) {
		fd = syscall(SYS_pidfd_open, getpid(), 0);
		if (fd < 0)
			return -errno;
		r = ret(syscall(SYS_process_madvise, fd, &iov, 1, s->args[4], 0));
		close(fd);
		return r;
	}
	fd = in->pidfds[s->args[3] - 1];
	if (fd < 0)
		return -ESRCH;
	return ret(syscall(SYS_process_madvise, fd, &iov, 1, s->args[4], 0));
}

static long run_mlock(struct interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = range_addr(in, s, &len);

	return ret(syscall(SYS_mlock, addr, len));
}

static long run_mlock2(struct interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = range_addr(in, s, &len);

	return ret(syscall(SYS_mlock2, addr, len, s->args[3]));
}

static long run_munlock(struct interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = range_addr(in, s, &len);

	return ret(syscall(SYS_munlock, addr, len));
}

static long run_mlockall(struct interp *in, const struct mmf_stmt *s, int si)
{
	return ret(syscall(SYS_mlockall, s->args[0]));
}

static long run_munlockall(struct interp *in, const struct mmf_stmt *s, int si)
{
	return ret(syscall(SYS_munlockall));
}

static long run_write(struct interp *in, const struct mmf_stmt *s, int si)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	return guarded_pages(in, idx, n, si, page_fill);
}

static long run_read(struct interp *in, const struct mmf_stmt *s, int si)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	return guarded_pages(in, idx, n, si, page_verify);
}

static long run_mincore(struct interp *in, const struct mmf_stmt *s, int si)
{
	unsigned char vec[MMF_ARENA_PAGES];
	long len;
	char *addr = range_addr(in, s, &len);

	return ret(mincore(addr, len, vec));
}

static long run_msync(struct interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = range_addr(in, s, &len);

	return ret(msync(addr, len, s->args[3]));
}

long mmf_exec_set_file(struct interp *in, int f, off_t bytes, int fd)
{
	if (fd < 0)
		return -errno;
	if (bytes && ftruncate(fd, bytes)) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (in->files[f] >= 0)
		close(in->files[f]);
	in->files[f] = fd;
	return 0;
}

/* Replace file slot fN with a new file of npages pages. */
static long new_file(struct interp *in, const struct mmf_stmt *s, int fd)
{
	return mmf_exec_set_file(in, s->args[0], (off_t)s->args[1] * in->psz, fd);
}

static long run_memfd(struct interp *in, const struct mmf_stmt *s, int si)
{
	return new_file(in, s, memfd_create("mmfuzz", MFD_CLOEXEC));
}

static long run_tmpfile(struct interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->tmpdir ? in->o->tmpdir : "/dev/shm";

	return new_file(in, s, open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
}

static long run_swapoff(struct interp *in, const struct mmf_stmt *s, int si)
{
	const char *path = in->o->swaps[s->args[0]];

	return path ? ret(swapoff(path)) : -ENODEV;
}

static long run_swapon(struct interp *in, const struct mmf_stmt *s, int si)
{
	const char *path = in->o->swaps[s->args[0]];
	int64_t prio = (int64_t)s->args[1];
	int flags = s->args[2];

	if (!path)
		return -ENODEV;
	if (prio >= 0)
		flags |= SWAP_FLAG_PREFER | ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	return ret(swapon(path, flags));
}

const mmf_run_fn mmf_exec_calls[MMF_NR_CALLS] = {
	[MMF_MMAP] = run_mmap,
	[MMF_MUNMAP] = run_munmap,
	[MMF_MREMAP] = run_mremap,
	[MMF_MPROTECT] = run_mprotect,
	[MMF_MADVISE] = run_madvise,
	[MMF_PROCESS_MADVISE] = run_process_madvise,
	[MMF_MLOCK] = run_mlock,
	[MMF_MLOCK2] = run_mlock2,
	[MMF_MUNLOCK] = run_munlock,
	[MMF_MLOCKALL] = run_mlockall,
	[MMF_MUNLOCKALL] = run_munlockall,
	[MMF_WRITE] = run_write,
	[MMF_READ] = run_read,
	[MMF_MINCORE] = run_mincore,
	[MMF_MSYNC] = run_msync,
	[MMF_MEMFD] = run_memfd,
	[MMF_TMPFILE] = run_tmpfile,
	[MMF_SWAPOFF] = run_swapoff,
	[MMF_SWAPON] = run_swapon,
	/* issue 7 track B: userfaultfd (exec/uffd.c) */
	[MMF_UFFD_CREATE] = mmf_uffd_run_create,
	[MMF_UFFD_REGISTER] = mmf_uffd_run_register,
	[MMF_UFFD_UNREGISTER] = mmf_uffd_run_unregister,
	[MMF_UFFD_COPY] = mmf_uffd_run_copy,
	[MMF_UFFD_ZEROPAGE] = mmf_uffd_run_zeropage,
	[MMF_UFFD_WRITEPROTECT] = mmf_uffd_run_writeprotect,
	[MMF_UFFD_CONTINUE] = mmf_uffd_run_continue,
	[MMF_UFFD_POISON] = mmf_uffd_run_poison,
	[MMF_UFFD_MOVE] = mmf_uffd_run_move,
	/* track A: pins */
	[MMF_VMSPLICE] = mmf_run_vmsplice,
	[MMF_PIPE_READ] = mmf_run_pipe_read,
	[MMF_URING_REGISTER] = mmf_run_uring_register,
	[MMF_URING_READ_FIXED] = mmf_run_uring_read_fixed,
	[MMF_URING_WRITE_FIXED] = mmf_run_uring_write_fixed,
	[MMF_DIO_FILE] = mmf_run_dio_file,
	[MMF_DIO_READ] = mmf_run_dio_read,
	[MMF_DIO_WRITE] = mmf_run_dio_write,
	[MMF_PROCESS_VM_READV] = mmf_run_process_vm_readv,
	[MMF_PROCESS_VM_WRITEV] = mmf_run_process_vm_writev,
	/* Track C: cgknobs.c and files.c. */
	[MMF_CG_MOVE] = run_cg_move,
	[MMF_CG_LIMIT] = run_cg_limit,
	[MMF_CG_RECLAIM] = run_cg_reclaim,
	[MMF_MEMFD_CREATE] = run_memfd_create,
	[MMF_MEMFD_SECRET] = run_memfd_secret,
	[MMF_DEVZERO] = run_devzero,
	[MMF_MEMFD_SEAL] = run_memfd_seal,
	[MMF_FALLOCATE] = run_fallocate,
	[MMF_FTRUNCATE] = run_ftruncate,
	[MMF_PWRITE] = run_pwrite,
	[MMF_PREAD] = run_pread,
	[MMF_SPECIAL_MAP] = run_special_map,
	[MMF_PRCTL_MERGE] = run_prctl_merge,
	[MMF_KSM_WAIT] = run_ksm_wait,
	[MMF_THP_KNOB] = run_thp_knob,
	/* track D: placement */
	[MMF_MBIND] = mmf_run_mbind,
	[MMF_MOVE_PAGES] = mmf_run_move_pages,
	[MMF_MIGRATE_PAGES] = mmf_run_migrate_pages,
	[MMF_COMPACT] = mmf_run_compact,
	/* fork, thread, } and join are run by the interpreter itself. */
};
