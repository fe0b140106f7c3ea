/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime: the system-call code of the calls of model/calls.def, one
 * header per call family, that the executor compiles (exec/calls/) and
 * every C reproducer carries as text (csource/, the Makefile), so that a
 * reproducer runs the very code the fuzzer ran. Libc only, nothing outside
 * the file: a function works on what it is given (addresses, lengths, file
 * descriptors, paths, pids) and returns its result or -errno. What only
 * the executor does around a call (the model, oracles, KCOV) stays in
 * exec/; what only a reproducer does (its arena, checks, trace) in
 * csource/runtime/.
 *
 * This header is what the families share; every reproducer has it.
 */
#ifndef MMF_RUNTIME_BASE_H
#define MMF_RUNTIME_BASE_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* Recent enough to be missing from old headers; the same on every arch. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open		434
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise	440
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif
#ifndef SYS_memfd_secret
#define SYS_memfd_secret	447
#endif

/*
 * syscall(2) takes its arguments as longs through "...": an int there fills
 * only half of the slot, and a system call's sixth argument (syscall()'s
 * seventh, on the stack on x86_64) keeps garbage in the other half.
 * Arguments the kernel reads as long (sizes, counts, flags of unsigned
 * long) are passed as long.
 *
 * A call that fails with -1 and errno, as the programs see it: -errno.
 */
static inline long rt_ret(long r)
{
	return r == -1 ? -errno : r;
}

/*
 * The word a write of tag stores in every 64-bit word of arena page idx:
 * the tag and the run's nonce above, the page below, so that a page that
 * shows up elsewhere or from another run is told apart; 0 for tag 0.
 */
static inline uint64_t rt_word(uint32_t nonce, int tag, int idx)
{
	if (!tag)
		return 0;
	return (uint64_t)((uint32_t)tag << 24 | nonce) << 32 | (uint32_t)(idx + 1);
}

/* The pid of target c: this process (0) for c < 0, else child c's. */
static inline long rt_target_pid(const pid_t *kids, int c)
{
	if (c < 0)
		return 0;
	return kids[c] > 0 ? kids[c] : -ESRCH;
}

/*
 * A mapping exactly at addr and never over another one (flags get
 * MAP_FIXED_NOREPLACE unless they have MAP_FIXED): 0 or -errno.
 */
static inline long rt_mmap_at(void *addr, long len, int prot, int flags, int fd, off_t off)
{
	void *r;

	if (!(flags & MAP_FIXED))
		flags |= MAP_FIXED_NOREPLACE;
	r = mmap(addr, len, prot, flags, fd, off);
	if (r == MAP_FAILED)
		return -errno;
	if (r != addr) {
		/* A kernel without MAP_FIXED_NOREPLACE takes it as a hint. */
		munmap(r, len);
		return -EEXIST;
	}
	return 0;
}

/* One write(2) of val, as cgroupfs and sysfs stores expect: 0 or -errno. */
static inline long rt_put_file(const char *path, const char *val)
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

/* The first line of a small file into buf (n bytes): 0 or -errno. */
static inline long rt_get_file(const char *path, char *buf, size_t n)
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

/* A knob's value as it reads, the word to write back: "a [b] c" -> "b". */
static inline void rt_knob_choice(char *v)
{
	char *l = strchr(v, '['), *r = l ? strchr(l, ']') : NULL;

	if (l && r) {
		memmove(v, l + 1, r - l - 1);
		v[r - l - 1] = '\0';
	}
	v[strcspn(v, "\n")] = '\0';
}

#endif
