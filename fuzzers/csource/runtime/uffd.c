// SPDX-License-Identifier: GPL-2.0
/*
 * userfaultfd: one uffd per process, made on first use, and a handler thread
 * that resolves faults as the executor's does: missing with a zero page
 * (COPY where ZEROPAGE fails), write-protect by clearing WP, minor by
 * CONTINUE; it drains events and closes the child uffds of fork events
 * (which unregisters the child's ranges); a page it cannot resolve it
 * unregisters. The UAPI is spelled here: old headers lack POISON and MOVE.
 */
/* A program uses some of the calls below: the others are unused. */
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

struct uffd_range { uint64_t start, len; };
struct uffd_api { uint64_t api, features, ioctls; };
struct uffd_register { struct uffd_range range; uint64_t mode, ioctls; };
struct uffd_copy { uint64_t dst, src, len, mode; int64_t copy; };
struct uffd_fill { struct uffd_range range; uint64_t mode; int64_t done; };
struct uffd_wp { struct uffd_range range; uint64_t mode; };
struct uffd_move { uint64_t dst, src, len, mode; int64_t move; };
struct uffd_msg {
	uint8_t event, r1;
	uint16_t r2;
	uint32_t r3;
	union {
		struct { uint64_t flags, address; uint32_t ptid; } pagefault;
		struct { uint32_t ufd; } fork;
		uint64_t pad[3];
	} arg;
} __attribute__((packed));

#define UFFDIO_API_		_IOWR(0xAA, 0x3F, struct uffd_api)
#define UFFDIO_REGISTER_	_IOWR(0xAA, 0x00, struct uffd_register)
#define UFFDIO_UNREGISTER_	_IOR(0xAA, 0x01, struct uffd_range)
#define UFFDIO_WAKE_		_IOR(0xAA, 0x02, struct uffd_range)
#define UFFDIO_COPY_		_IOWR(0xAA, 0x03, struct uffd_copy)
#define UFFDIO_ZEROPAGE_	_IOWR(0xAA, 0x04, struct uffd_fill)
#define UFFDIO_MOVE_		_IOWR(0xAA, 0x05, struct uffd_move)
#define UFFDIO_WRITEPROTECT_	_IOWR(0xAA, 0x06, struct uffd_wp)
#define UFFDIO_CONTINUE_	_IOWR(0xAA, 0x07, struct uffd_fill)
#define UFFDIO_POISON_		_IOWR(0xAA, 0x08, struct uffd_fill)
#define USERFAULTFD_IOC_NEW_	_IO(0xAA, 0x00)
#ifndef SYS_userfaultfd
#define SYS_userfaultfd 323	/* x86_64; arm64 has it in its headers */
#endif

static int uffd = -1, uffd_stop[2] = { -1, -1 };
static pthread_t uffd_thread;
static void *uffd_zero;

static int uffd_ioctl(int fd, unsigned long req, void *arg)
{
	int r;

	while ((r = ioctl(fd, req, arg)) < 0 && errno == EINTR)
		;
	return r;
}

static void uffd_resolve(int fd, const struct uffd_msg *m)
{
	uint64_t page = m->arg.pagefault.address & ~(uint64_t)(psz - 1);
	struct uffd_range r = { page, psz };
	struct uffd_wp wp = { r, 0 };
	struct uffd_fill f = { r, 0, 0 };
	struct uffd_copy c = { page, (uintptr_t)uffd_zero, psz, 0, 0 };
	int e = 0;

	if (m->arg.pagefault.flags & 2) {
		e = uffd_ioctl(fd, UFFDIO_WRITEPROTECT_, &wp);
	} else if (m->arg.pagefault.flags & 4) {
		e = uffd_ioctl(fd, UFFDIO_CONTINUE_, &f);
	} else if (uffd_ioctl(fd, UFFDIO_ZEROPAGE_, &f) && errno != EAGAIN) {
		e = uffd_ioctl(fd, UFFDIO_COPY_, &c);
	}
	if (!e)
		return;
	if (errno == EEXIST || errno == EAGAIN)
		uffd_ioctl(fd, UFFDIO_WAKE_, &r);
	else if (uffd_ioctl(fd, UFFDIO_UNREGISTER_, &r))
		uffd_ioctl(fd, UFFDIO_WAKE_, &r);
}

static void *uffd_main(void *arg)
{
	struct pollfd pf[2] = { { uffd_stop[0], POLLIN, 0 }, { uffd, POLLIN, 0 } };
	struct uffd_msg msgs[16];
	ssize_t n;

	for (;;) {
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			return NULL;
		if (pf[0].revents)
			return NULL;
		while ((n = read(uffd, msgs, sizeof(msgs))) > 0) {
			for (size_t i = 0; i < n / sizeof(msgs[0]); i++) {
				if (msgs[i].event == 0x12)
					uffd_resolve(uffd, &msgs[i]);
				else if (msgs[i].event == 0x13)
					close(msgs[i].arg.fork.ufd);
			}
		}
	}
}

static void uffd_close(void)
{
	if (uffd < 0)
		return;
	while (write(uffd_stop[1], "x", 1) < 0 && errno == EINTR)
		;
	pthread_join(uffd_thread, NULL);
	close(uffd);
	close(uffd_stop[0]);
	close(uffd_stop[1]);
	uffd = -1;
}

/* In a fork child: the inherited uffd works on the parent's mm. */
static void uffd_forked(void)
{
	if (uffd < 0)
		return;
	close(uffd);
	close(uffd_stop[0]);
	close(uffd_stop[1]);
	uffd = -1;
}

static __attribute__((unused)) long uffd_open(int via, uint64_t features)
{
	static int atfork;
	struct uffd_api api = { 0xAA, features, 0 };
	int fd, dev, e;

	uffd_close();
	if (!uffd_zero)
		uffd_zero = mmap(NULL, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!atfork++)
		pthread_atfork(NULL, NULL, uffd_forked);
	if (!via) {
		fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	} else {
		dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
		fd = dev < 0 ? -1 : ioctl(dev, USERFAULTFD_IOC_NEW_, O_CLOEXEC | O_NONBLOCK);
		if (dev >= 0)
			close(dev);
	}
	if (fd < 0)
		return -errno;
	if (uffd_ioctl(fd, UFFDIO_API_, &api) || pipe2(uffd_stop, O_CLOEXEC)) {
		e = -errno;
		close(fd);
		return e;
	}
	uffd = fd;
	e = pthread_create(&uffd_thread, NULL, uffd_main, NULL);
	if (e) {
		close(fd);
		close(uffd_stop[0]);
		close(uffd_stop[1]);
		uffd = -1;
		return -e;
	}
	return 0;
}

/* The uffd of this process: made on first use with what the kernel has of
 * the executor's lazy features (shmem missing/minor/WP, WP_UNPOPULATED,
 * POISON, MOVE, THREAD_ID).
 */
static int uffd_get(void)
{
	struct uffd_api api = { 0xAA, 0, 0 };
	uint64_t have = 0;
	int fd;

	if (uffd >= 0)
		return uffd;
	fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && !uffd_ioctl(fd, UFFDIO_API_, &api))
		have = api.features;
	if (fd >= 0)
		close(fd);
	if (uffd_open(0, have & 0x17520))
		return -1;
	return uffd;
}

/* Pages done before the first failure when there are any, else -errno. */
static long uffd_done(int r, int64_t done)
{
	if (done > 0)
		return done / psz;
	if (r < 0)
		return done < 0 ? done : -errno;
	return 0;
}

static __attribute__((unused)) long uffd_register(int slot, int pg, int n, uint64_t mode)
{
	struct uffd_register reg = { { (uintptr_t)at(slot, pg), len(n) }, mode, 0 };
	int fd = uffd_get();

	return fd < 0 ? -errno : rt_ret(uffd_ioctl(fd, UFFDIO_REGISTER_, &reg));
}

static __attribute__((unused)) long uffd_unregister(int slot, int pg, int n)
{
	struct uffd_range r = { (uintptr_t)at(slot, pg), len(n) };
	int fd = uffd_get();

	return fd < 0 ? -errno : rt_ret(uffd_ioctl(fd, UFFDIO_UNREGISTER_, &r));
}

/* UFFDIO_COPY of what write(tag) would store at each destination page. */
static __attribute__((unused)) long uffd_copy(int slot, int pg, int n, int tag, uint64_t mode)
{
	int fd = uffd_get(), idx = slot * SLOT_PAGES + pg, r;
	uint64_t *buf;
	long words = psz / 8;
	struct uffd_copy c;

	if (fd < 0)
		return -errno;
	buf = mmap(NULL, len(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -errno;
	for (int i = 0; i < n; i++)
		for (long k = 0; k < words; k++)
			buf[i * words + k] = word(tag, idx + i);
	c = (struct uffd_copy){ (uintptr_t)page(idx), (uintptr_t)buf, len(n), mode, 0 };
	r = uffd_ioctl(fd, UFFDIO_COPY_, &c);
	munmap(buf, len(n));
	return uffd_done(r, c.copy);
}

/* ZEROPAGE, CONTINUE, POISON: a range, a mode, the bytes done. */
static __attribute__((unused)) long uffd_fill(unsigned long req, int slot, int pg, int n, uint64_t mode)
{
	struct uffd_fill f = { { (uintptr_t)at(slot, pg), len(n) }, mode, 0 };
	int fd = uffd_get(), r;

	if (fd < 0)
		return -errno;
	r = uffd_ioctl(fd, req, &f);
	return uffd_done(r, f.done);
}

static __attribute__((unused)) long uffd_writeprotect(int slot, int pg, int n, uint64_t mode)
{
	struct uffd_wp wp = { { (uintptr_t)at(slot, pg), len(n) }, mode };
	int fd = uffd_get();

	return fd < 0 ? -errno : rt_ret(uffd_ioctl(fd, UFFDIO_WRITEPROTECT_, &wp));
}

static __attribute__((unused)) long uffd_move(int dst, int src, int n, uint64_t mode)
{
	struct uffd_move mv = { (uintptr_t)page(dst), (uintptr_t)page(src), len(n), mode, 0 };
	int fd = uffd_get(), r;

	if (fd < 0)
		return -errno;
	r = uffd_ioctl(fd, UFFDIO_MOVE_, &mv);
	return uffd_done(r, mv.move);
}
