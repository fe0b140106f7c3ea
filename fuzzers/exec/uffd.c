// SPDX-License-Identifier: GPL-2.0
/*
 * userfaultfd: the process's uffd and the handler thread behind the uffd
 * calls (calls/uffd.c).
 *
 * The handler resolves every fault the same way, so that the shadow model
 * (oracle/rules/uffd.c) can predict contents: a missing fault gets a zero
 * page (what the kernel would have given without the uffd), a write-protect
 * fault is resolved by clearing WP, a minor fault by UFFDIO_CONTINUE. A fault
 * it cannot resolve gives up cleanly: the page is unregistered, which wakes
 * the faulting thread into an ordinary fault. It drains the fork, remap,
 * remove and unmap events, and serves the uffd a fork event brings (the
 * child's) until the program ends; it never blocks the program's end, and the
 * runner's timeout bounds the rest.
 *
 * A program's fork children start without a uffd: the inherited descriptor
 * works on the parent's mm, so a child makes its own when it needs one.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec/uffd.h"
#include "model/uapi.h"

/* What a lazily made uffd asks for, of what the kernel has: no events and
 * no WP_ASYNC or SIGBUS, which change how faults resolve.
 */
#define LAZY_FEATURES	(MMF_UFFD_FEATURE_MISSING_SHMEM | MMF_UFFD_FEATURE_MINOR_SHMEM | \
			 MMF_UFFD_FEATURE_WP_SHMEM | MMF_UFFD_FEATURE_WP_UNPOPULATED | \
			 MMF_UFFD_FEATURE_POISON | MMF_UFFD_FEATURE_MOVE | \
			 MMF_UFFD_FEATURE_THREAD_ID)

/* Faults in a row on one page before the handler gives the page up. */
#define MAX_REPEATS	256

/* Child uffds from fork events served at once; more are closed (given up). */
#define MAX_KIDS	16

struct mmf_uffd {
	int fd;
	int stop[2];		/* the handler exits when stop[1] is written */
	pthread_t thread;
	long psz;
	void *zero;		/* a zero page for UFFDIO_COPY where ZEROPAGE fails */
	unsigned long last_fault;	/* the livelock guard of resolve_fault() */
	int repeats;
	int nr_kids;		/* only the handler thread changes these */
	int kids[MAX_KIDS];
};

/*
 * Thread blocks make and replace the uffd too: one at a time. A call in
 * one thread may still use a descriptor that uffd_create in another just
 * closed; the ioctl then fails (EBADF, or ENOTTY on a reused number).
 */
static pthread_mutex_t uffd_lock = PTHREAD_MUTEX_INITIALIZER;

int mmf_uffd_ioctl(int fd, unsigned long req, void *arg)
{
	int r;

	while ((r = ioctl(fd, req, arg)) < 0 && errno == EINTR)
		;
	return r;
}

static void range_of(struct uffdio_range *r, unsigned long addr, long len)
{
	r->start = addr;
	r->len = len;
}

/* Unregister the page: the waiting thread wakes into an ordinary fault. */
static void give_up(int fd, unsigned long page, long psz)
{
	struct uffdio_range r;

	range_of(&r, page, psz);
	if (mmf_uffd_ioctl(fd, UFFDIO_UNREGISTER, &r))
		mmf_uffd_ioctl(fd, UFFDIO_WAKE, &r);
}

/* EEXIST: someone else resolved it; EAGAIN: the mm changed. Either way the
 * faulting thread retries, and faults again if it must.
 */
static bool just_wake(int fd, unsigned long page, long psz)
{
	struct uffdio_range r;

	if (errno != EEXIST && errno != EAGAIN)
		return false;
	range_of(&r, page, psz);
	mmf_uffd_ioctl(fd, UFFDIO_WAKE, &r);
	return true;
}

/*
 * ZEROPAGE wants a none pte; COPY also replaces a uffd-wp marker (WP
 * registered with MISSING on a page write-protected while unpopulated).
 */
static void resolve_missing(struct mmf_uffd *u, int fd, unsigned long page)
{
	struct uffdio_zeropage z = { .mode = 0 };
	struct uffdio_copy c = { .dst = page, .src = (uintptr_t)u->zero, .len = u->psz };

	range_of(&z.range, page, u->psz);
	if (!mmf_uffd_ioctl(fd, UFFDIO_ZEROPAGE, &z) || errno == EAGAIN)
		return;
	if (!mmf_uffd_ioctl(fd, UFFDIO_COPY, &c) || just_wake(fd, page, u->psz))
		return;
	give_up(fd, page, u->psz);
}

static void resolve_fault(struct mmf_uffd *u, int fd, const struct uffd_msg *m)
{
	unsigned long page = m->arg.pagefault.address & ~(unsigned long)(u->psz - 1);
	uint64_t flags = m->arg.pagefault.flags;
	struct uffdio_writeprotect wp = { .mode = 0 };
	struct uffdio_continue co = { .mode = 0 };

	/* The same fault again and again: what resolves it does not stick. */
	u->repeats = page == u->last_fault ? u->repeats + 1 : 0;
	u->last_fault = page;
	if (u->repeats > MAX_REPEATS) {
		u->repeats = 0;
		give_up(fd, page, u->psz);
		return;
	}
	if (flags & UFFD_PAGEFAULT_FLAG_WP) {
		range_of(&wp.range, page, u->psz);
		if (mmf_uffd_ioctl(fd, UFFDIO_WRITEPROTECT, &wp) && !just_wake(fd, page, u->psz))
			give_up(fd, page, u->psz);
	} else if (flags & UFFD_PAGEFAULT_FLAG_MINOR) {
		range_of(&co.range, page, u->psz);
		if (mmf_uffd_ioctl(fd, UFFDIO_CONTINUE, &co) && !just_wake(fd, page, u->psz))
			give_up(fd, page, u->psz);
	} else {
		resolve_missing(u, fd, page);
	}
}

static void handle_msg(struct mmf_uffd *u, int fd, const struct uffd_msg *m)
{
	switch (m->event) {
	case UFFD_EVENT_PAGEFAULT:
		resolve_fault(u, fd, m);
		break;
	case UFFD_EVENT_FORK:
		/* The child's uffd: serve it, or close it, which unregisters
		 * the child's ranges.
		 */
		if (u->nr_kids < MAX_KIDS)
			u->kids[u->nr_kids++] = m->arg.fork.ufd;
		else
			close(m->arg.fork.ufd);
		break;
	default:
		/* remap, remove, unmap: reading them lets the call go on. */
		break;
	}
}

static void drain(struct mmf_uffd *u, int fd)
{
	struct uffd_msg msgs[16];
	ssize_t r;

	while ((r = read(fd, msgs, sizeof(msgs))) > 0)
		for (size_t i = 0; i < r / sizeof(msgs[0]); i++)
			handle_msg(u, fd, &msgs[i]);
}

static void *handler_main(void *arg)
{
	struct mmf_uffd *u = arg;
	struct pollfd pf[2 + MAX_KIDS];

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
				drain(u, pf[i].fd);
	}
}

static void close_all(struct mmf_uffd *u)
{
	for (int k = 0; k < u->nr_kids; k++)
		close(u->kids[k]);
	close(u->fd);
	close(u->stop[0]);
	close(u->stop[1]);
	munmap(u->zero, u->psz);
	free(u);
}

static void uffd_close(struct mmf_interp *in)
{
	struct mmf_uffd *u = in->uffd;

	if (!u)
		return;
	in->uffd = NULL;
	/* Stop first: the handler may be using the descriptors. */
	while (write(u->stop[1], "x", 1) < 0 && errno == EINTR)
		;
	pthread_join(u->thread, NULL);
	close_all(u);
}

static int open_uffd(int via)
{
	int fd, dev;

	if (!via)
		return syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -1;
	fd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC | O_NONBLOCK);
	close(dev);
	return fd;
}

/* A uffd with features, and its handler; -errno on failure. */
static long uffd_open(struct mmf_interp *in, int via, uint64_t features)
{
	struct uffdio_api api = { .api = UFFD_API, .features = features };
	struct mmf_uffd *u = mmf_xcalloc(1, sizeof(*u));
	int e;

	u->psz = in->psz;
	u->stop[0] = u->stop[1] = -1;
	u->fd = open_uffd(via);
	u->zero = mmap(NULL, u->psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u->fd < 0 || u->zero == MAP_FAILED || mmf_uffd_ioctl(u->fd, UFFDIO_API, &api) ||
	    pipe2(u->stop, O_CLOEXEC))
		goto fail;
	e = pthread_create(&u->thread, NULL, handler_main, u);
	if (e) {
		errno = e;
		goto fail;
	}
	in->uffd = u;
	return 0;
fail:
	e = errno;
	if (u->fd >= 0)
		close(u->fd);
	if (u->stop[0] >= 0) {
		close(u->stop[0]);
		close(u->stop[1]);
	}
	if (u->zero != MAP_FAILED)
		munmap(u->zero, u->psz);
	free(u);
	return -e;
}

/* The features this kernel has, probed once per process tree. */
static uint64_t kernel_features(void)
{
	static uint64_t have = ~0ull;
	struct uffdio_api api = { .api = UFFD_API };
	int fd;

	if (have != ~0ull)
		return have;
	have = 0;
	fd = open_uffd(0);
	if (fd >= 0 && !mmf_uffd_ioctl(fd, UFFDIO_API, &api))
		have = api.features;
	if (fd >= 0)
		close(fd);
	return have;
}

long mmf_uffd_fd(struct mmf_interp *in)
{
	long r = 0;

	pthread_mutex_lock(&uffd_lock);
	if (!in->uffd)
		r = uffd_open(in, 0, kernel_features() & LAZY_FEATURES);
	if (!r)
		r = in->uffd->fd;
	pthread_mutex_unlock(&uffd_lock);
	return r;
}

long mmf_uffd_new(struct mmf_interp *in, int via, uint64_t features)
{
	long r;

	pthread_mutex_lock(&uffd_lock);
	uffd_close(in);
	r = uffd_open(in, via, features);
	pthread_mutex_unlock(&uffd_lock);
	return r;
}

void mmf_uffd_forked(struct mmf_interp *in)
{
	struct mmf_uffd *u = in->uffd;

	/* Another thread may have held it when the process forked. */
	pthread_mutex_init(&uffd_lock, NULL);
	/* The handler thread did not come along; its descriptors did. */
	if (!u)
		return;
	in->uffd = NULL;
	close_all(u);
}

void mmf_uffd_stop(struct mmf_interp *in)
{
	uffd_close(in);
}
