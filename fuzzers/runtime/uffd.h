/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uffd family: one userfaultfd per process, made by uffd_create or on
 * first use by any uffd call, its ioctls, and a handler thread that
 * resolves its faults the same way every time, so that the shadow model
 * (oracle/rules/uffd.c) can predict contents: a missing fault gets a zero
 * page (what the kernel would have given without the uffd; COPY where
 * ZEROPAGE fails), a write-protect fault is resolved by clearing WP, a
 * minor fault by UFFDIO_CONTINUE. A fault it cannot resolve gives up
 * cleanly: the page is unregistered, which wakes the faulting thread into
 * an ordinary fault. It drains the fork, remap, remove and unmap events,
 * and serves the uffd a fork event brings (the child's) until the program
 * ends; it never blocks the program's end.
 *
 * A fork child starts without a uffd: the inherited descriptor works on the
 * parent's mm, so a child makes its own when it needs one. The UAPI is
 * spelled here: old headers lack POISON and MOVE.
 */
#ifndef MMF_RUNTIME_UFFD_H
#define MMF_RUNTIME_UFFD_H

#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "runtime/base.h"

struct rt_uffd_range { uint64_t start, len; };
struct rt_uffd_api { uint64_t api, features, ioctls; };
struct rt_uffd_register { struct rt_uffd_range range; uint64_t mode, ioctls; };
struct rt_uffd_copy { uint64_t dst, src, len, mode; int64_t copy; };
/* ZEROPAGE, CONTINUE and POISON: a range, a mode, the bytes done. */
struct rt_uffd_fill { struct rt_uffd_range range; uint64_t mode; int64_t done; };
struct rt_uffd_wp { struct rt_uffd_range range; uint64_t mode; };
struct rt_uffd_move { uint64_t dst, src, len, mode; int64_t move; };
struct rt_uffd_msg {
	uint8_t event, r1;
	uint16_t r2;
	uint32_t r3;
	union {
		struct { uint64_t flags, address; uint32_t ptid; } pagefault;
		struct { uint32_t ufd; } fork;
		uint64_t pad[3];
	} arg;
} __attribute__((packed));

#define RT_UFFDIO_API		_IOWR(0xAA, 0x3F, struct rt_uffd_api)
#define RT_UFFDIO_REGISTER	_IOWR(0xAA, 0x00, struct rt_uffd_register)
#define RT_UFFDIO_UNREGISTER	_IOR(0xAA, 0x01, struct rt_uffd_range)
#define RT_UFFDIO_WAKE		_IOR(0xAA, 0x02, struct rt_uffd_range)
#define RT_UFFDIO_COPY		_IOWR(0xAA, 0x03, struct rt_uffd_copy)
#define RT_UFFDIO_ZEROPAGE	_IOWR(0xAA, 0x04, struct rt_uffd_fill)
#define RT_UFFDIO_MOVE		_IOWR(0xAA, 0x05, struct rt_uffd_move)
#define RT_UFFDIO_WRITEPROTECT	_IOWR(0xAA, 0x06, struct rt_uffd_wp)
#define RT_UFFDIO_CONTINUE	_IOWR(0xAA, 0x07, struct rt_uffd_fill)
#define RT_UFFDIO_POISON	_IOWR(0xAA, 0x08, struct rt_uffd_fill)
#define RT_USERFAULTFD_IOC_NEW	_IO(0xAA, 0x00)
#ifndef SYS_userfaultfd
#define SYS_userfaultfd		323	/* x86_64; arm64 has it in its headers */
#endif

#define RT_UFFD_EVENT_PAGEFAULT	0x12
#define RT_UFFD_EVENT_FORK	0x13
#define RT_UFFD_FAULT_WP	0x2
#define RT_UFFD_FAULT_MINOR	0x4

/* What a uffd made on first use asks for, of what the kernel has: shmem
 * missing, minor and WP, WP_UNPOPULATED, POISON, MOVE, THREAD_ID; no
 * events and no WP_ASYNC or SIGBUS, which change how faults resolve.
 */
#define RT_UFFD_LAZY_FEATURES	((1 << 5) | (1 << 8) | (1 << 10) | (1 << 12) | (1 << 13) | \
				 (1 << 14) | (1 << 16))

/* Faults in a row on one page before the handler gives the page up. */
#define RT_UFFD_MAX_REPEATS	256
/* Child uffds from fork events served at once; more are closed (given up). */
#define RT_UFFD_MAX_KIDS	16

struct rt_uffd {
	int fd;
	int stop[2];		/* the handler exits when stop[1] is written */
	pthread_t thread;
	long psz;
	void *zero;		/* a zero page for UFFDIO_COPY where ZEROPAGE fails */
	unsigned long last_fault;	/* the livelock guard of rt_uffd_resolve() */
	int repeats;
	int nr_kids;		/* only the handler thread changes these */
	int kids[RT_UFFD_MAX_KIDS];
};

/*
 * A process's uffd, zero to start. Threads make and replace it one at a
 * time; a call in one thread may still use a descriptor that uffd_create in
 * another just closed: the ioctl then fails (EBADF, or ENOTTY on a reused
 * number).
 */
struct rt_uffd_own {
	int lock;
	struct rt_uffd *u;
};

static inline int rt_uffd_ioctl(int fd, unsigned long req, void *arg)
{
	int r;

	while ((r = ioctl(fd, req, arg)) < 0 && errno == EINTR)
		;
	return r;
}

/* Unregister the page: the waiting thread wakes into an ordinary fault. */
static inline void rt_uffd_give_up(int fd, uint64_t page, long psz)
{
	struct rt_uffd_range r = { page, psz };

	if (rt_uffd_ioctl(fd, RT_UFFDIO_UNREGISTER, &r))
		rt_uffd_ioctl(fd, RT_UFFDIO_WAKE, &r);
}

/* EEXIST: someone else resolved it; EAGAIN: the mm changed. Either way the
 * faulting thread retries, and faults again if it must.
 */
static inline int rt_uffd_just_wake(int fd, uint64_t page, long psz)
{
	struct rt_uffd_range r = { page, psz };

	if (errno != EEXIST && errno != EAGAIN)
		return 0;
	rt_uffd_ioctl(fd, RT_UFFDIO_WAKE, &r);
	return 1;
}

static inline void rt_uffd_resolve(struct rt_uffd *u, int fd, const struct rt_uffd_msg *m)
{
	uint64_t page = m->arg.pagefault.address & ~(uint64_t)(u->psz - 1);
	uint64_t flags = m->arg.pagefault.flags;
	struct rt_uffd_range r = { page, u->psz };
	struct rt_uffd_wp wp = { r, 0 };
	struct rt_uffd_fill f = { r, 0, 0 };
	struct rt_uffd_copy c = { page, (uintptr_t)u->zero, u->psz, 0, 0 };
	int e;

	/* The same fault again and again: what resolves it does not stick. */
	u->repeats = page == u->last_fault ? u->repeats + 1 : 0;
	u->last_fault = page;
	if (u->repeats > RT_UFFD_MAX_REPEATS) {
		u->repeats = 0;
		rt_uffd_give_up(fd, page, u->psz);
		return;
	}
	if (flags & RT_UFFD_FAULT_WP) {
		e = rt_uffd_ioctl(fd, RT_UFFDIO_WRITEPROTECT, &wp);
	} else if (flags & RT_UFFD_FAULT_MINOR) {
		e = rt_uffd_ioctl(fd, RT_UFFDIO_CONTINUE, &f);
	} else {
		e = rt_uffd_ioctl(fd, RT_UFFDIO_ZEROPAGE, &f);
		/* ZEROPAGE wants a none pte; COPY also replaces a uffd-wp
		 * marker. EAGAIN (the mm is changing: a fork with
		 * EVENT_FORK, a remap) resolves nothing and wakes no one:
		 * the thread is woken below to fault again.
		 */
		if (e && errno != EAGAIN)
			e = rt_uffd_ioctl(fd, RT_UFFDIO_COPY, &c);
	}
	if (e && !rt_uffd_just_wake(fd, page, u->psz))
		rt_uffd_give_up(fd, page, u->psz);
}

static inline void rt_uffd_drain(struct rt_uffd *u, int fd)
{
	struct rt_uffd_msg msgs[16];
	ssize_t r;

	while ((r = read(fd, msgs, sizeof(msgs))) > 0) {
		for (size_t i = 0; i < r / sizeof(msgs[0]); i++) {
			if (msgs[i].event == RT_UFFD_EVENT_PAGEFAULT)
				rt_uffd_resolve(u, fd, &msgs[i]);
			else if (msgs[i].event != RT_UFFD_EVENT_FORK)
				continue;	/* remap, remove, unmap: read, the call goes on */
			else if (u->nr_kids < RT_UFFD_MAX_KIDS)
				u->kids[u->nr_kids++] = msgs[i].arg.fork.ufd;
			else	/* closing the child's uffd unregisters its ranges */
				close(msgs[i].arg.fork.ufd);
		}
	}
}

static inline void *rt_uffd_handler(void *arg)
{
	struct rt_uffd *u = arg;
	struct pollfd pf[2 + RT_UFFD_MAX_KIDS];

	for (;;) {
		int nr = 2 + u->nr_kids;

		pf[0] = (struct pollfd){ .fd = u->stop[0], .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = u->fd, .events = POLLIN };
		for (int k = 0; k < u->nr_kids; k++)
			pf[2 + k] = (struct pollfd){ .fd = u->kids[k], .events = POLLIN };
		if (poll(pf, nr, -1) < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (pf[0].revents)
			return NULL;
		for (int i = 1; i < nr; i++)
			if (pf[i].revents & POLLIN)
				rt_uffd_drain(u, pf[i].fd);
	}
}

/* Close every descriptor of u and free it; its handler is not running. */
static inline void rt_uffd_free(struct rt_uffd *u)
{
	for (int k = 0; k < u->nr_kids; k++)
		close(u->kids[k]);
	if (u->fd >= 0)
		close(u->fd);
	if (u->stop[0] >= 0) {
		close(u->stop[0]);
		close(u->stop[1]);
	}
	if (u->zero != MAP_FAILED)
		munmap(u->zero, u->psz);
	free(u);
}

/* Stop the handler first (it may be using the descriptors), then close. */
static inline void rt_uffd_close(struct rt_uffd_own *o)
{
	struct rt_uffd *u = o->u;

	if (!u)
		return;
	o->u = NULL;
	while (write(u->stop[1], "x", 1) < 0 && errno == EINTR)
		;
	pthread_join(u->thread, NULL);
	rt_uffd_free(u);
}

/* via 0: the system call; 1: /dev/userfaultfd. */
static inline int rt_uffd_fd_open(int via)
{
	int fd, dev;

	if (!via)
		return syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -1;
	fd = ioctl(dev, RT_USERFAULTFD_IOC_NEW, O_CLOEXEC | O_NONBLOCK);
	close(dev);
	return fd;
}

/* A uffd with features and its handler as o's; 0 or -errno. */
static inline long rt_uffd_open(struct rt_uffd_own *o, int via, uint64_t features, long psz)
{
	struct rt_uffd_api api = { 0xAA, features, 0 };
	struct rt_uffd *u = calloc(1, sizeof(*u));
	int e;

	if (!u)
		return -ENOMEM;
	u->psz = psz;
	u->stop[0] = u->stop[1] = -1;
	u->fd = rt_uffd_fd_open(via);
	u->zero = mmap(NULL, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u->fd < 0 || u->zero == MAP_FAILED || rt_uffd_ioctl(u->fd, RT_UFFDIO_API, &api) ||
	    pipe2(u->stop, O_CLOEXEC)) {
		e = errno;
		rt_uffd_free(u);
		return -e;
	}
	e = pthread_create(&u->thread, NULL, rt_uffd_handler, u);
	if (e) {
		rt_uffd_free(u);
		return -e;
	}
	o->u = u;
	return 0;
}

/* The features this kernel has, probed once per process tree. */
static inline uint64_t rt_uffd_kernel_features(void)
{
	static uint64_t have = ~0ull;
	struct rt_uffd_api api = { 0xAA, 0, 0 };
	int fd;

	if (have != ~0ull)
		return have;
	have = 0;
	fd = rt_uffd_fd_open(0);
	if (fd >= 0 && !rt_uffd_ioctl(fd, RT_UFFDIO_API, &api))
		have = api.features;
	if (fd >= 0)
		close(fd);
	return have;
}

static inline void rt_uffd_lock(struct rt_uffd_own *o)
{
	while (__atomic_exchange_n(&o->lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static inline void rt_uffd_unlock(struct rt_uffd_own *o)
{
	__atomic_store_n(&o->lock, 0, __ATOMIC_RELEASE);
}

/* The process's uffd, made on first use with the lazy features; fd or -errno. */
static inline long rt_uffd_get(struct rt_uffd_own *o, long psz)
{
	long r = 0;

	rt_uffd_lock(o);
	if (!o->u)
		r = rt_uffd_open(o, 0, rt_uffd_kernel_features() & RT_UFFD_LAZY_FEATURES, psz);
	if (!r)
		r = o->u->fd;
	rt_uffd_unlock(o);
	return r;
}

/* uffd_create: replace the process's uffd with a new one; 0 or -errno. */
static inline long rt_uffd_new(struct rt_uffd_own *o, int via, uint64_t features, long psz)
{
	long r;

	rt_uffd_lock(o);
	rt_uffd_close(o);
	r = rt_uffd_open(o, via, features, psz);
	rt_uffd_unlock(o);
	return r;
}

/* In a fork child: the handler did not come along, its descriptors did. */
static inline void rt_uffd_forked(struct rt_uffd_own *o)
{
	/* Another thread may have held the lock when the process forked. */
	o->lock = 0;
	if (o->u)
		rt_uffd_free(o->u);
	o->u = NULL;
}

/* The filling ioctls give the bytes done before the first failure: the
 * pages done when there are any (what the model needs, as for write),
 * else -errno.
 */
static inline long rt_uffd_done(int r, int64_t done, long psz)
{
	if (done > 0)
		return done / psz;
	if (r < 0)
		return done < 0 ? done : -errno;
	return 0;
}

/* An ioctl req on the process's uffd that gives 0 or -errno. */
static inline long rt_uffd_call(struct rt_uffd_own *o, unsigned long req, void *arg, long psz)
{
	long fd = rt_uffd_get(o, psz);

	return fd < 0 ? fd : rt_ret(rt_uffd_ioctl(fd, req, arg));
}

static inline long rt_uffd_register(struct rt_uffd_own *o, void *addr, long len, uint64_t mode,
				    long psz)
{
	struct rt_uffd_register reg = { { (uintptr_t)addr, len }, mode, 0 };

	return rt_uffd_call(o, RT_UFFDIO_REGISTER, &reg, psz);
}

static inline long rt_uffd_unregister(struct rt_uffd_own *o, void *addr, long len, long psz)
{
	struct rt_uffd_range r = { (uintptr_t)addr, len };

	return rt_uffd_call(o, RT_UFFDIO_UNREGISTER, &r, psz);
}

static inline long rt_uffd_writeprotect(struct rt_uffd_own *o, void *addr, long len,
					uint64_t mode, long psz)
{
	struct rt_uffd_wp wp = { { (uintptr_t)addr, len }, mode };

	return rt_uffd_call(o, RT_UFFDIO_WRITEPROTECT, &wp, psz);
}

/* UFFDIO_COPY to n pages at addr, page i holding word(i, arg) in every word. */
static inline long rt_uffd_copy(struct rt_uffd_own *o, char *addr, int n, uint64_t mode, long psz,
				uint64_t (*word)(int i, void *arg), void *arg)
{
	struct rt_uffd_copy c = { (uintptr_t)addr, 0, (uint64_t)n * psz, mode, 0 };
	long fd = rt_uffd_get(o, psz), words = psz / 8, res;
	uint64_t *buf, w;
	int r;

	if (fd < 0)
		return fd;
	buf = mmap(NULL, c.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -errno;
	for (int i = 0; i < n; i++) {
		w = word(i, arg);
		for (long k = 0; k < words; k++)
			buf[i * words + k] = w;
	}
	c.src = (uintptr_t)buf;
	r = rt_uffd_ioctl(fd, RT_UFFDIO_COPY, &c);
	res = rt_uffd_done(r, c.copy, psz);
	munmap(buf, c.len);
	return res;
}

/* ZEROPAGE, CONTINUE or POISON (req) of [addr, addr + len). */
static inline long rt_uffd_fill(struct rt_uffd_own *o, unsigned long req, void *addr, long len,
				uint64_t mode, long psz)
{
	struct rt_uffd_fill f = { { (uintptr_t)addr, len }, mode, 0 };
	long fd = rt_uffd_get(o, psz);
	int r;

	if (fd < 0)
		return fd;
	r = rt_uffd_ioctl(fd, req, &f);
	return rt_uffd_done(r, f.done, psz);
}

static inline long rt_uffd_move(struct rt_uffd_own *o, void *dst, void *src, long len,
				uint64_t mode, long psz)
{
	struct rt_uffd_move mv = { (uintptr_t)dst, (uintptr_t)src, len, mode, 0 };
	long fd = rt_uffd_get(o, psz);
	int r;

	if (fd < 0)
		return fd;
	r = rt_uffd_ioctl(fd, RT_UFFDIO_MOVE, &mv);
	return rt_uffd_done(r, mv.move, psz);
}

#endif
