// SPDX-License-Identifier: GPL-2.0
/* Where each slot starts: slots lie apart (arena_init). */
static char *slot_base[NR_MAPS];
static long psz;
static uint32_t nonce;
static int verbose;
static int corrupt_after = -1;
/* --no-env: as the executor's, no cgroups of the run and no knob writes. */
static int no_env;
static const char *swaps[NR_SWAPS];
static int files[NR_FILES] = { -1, -1, -1, -1 };
static pid_t kids[NR_CHILDREN];
static int pidfds[NR_CHILDREN] = { -1, -1, -1, -1 };
static pthread_t threads[MAX_THREADS];
static int nr_threads;
static int join_pipe[2] = { -1, -1 };
/* A call returned what the expectations did not assume: stop checking. */
static volatile sig_atomic_t diverged;
static volatile sig_atomic_t corrupted;
static __thread sigjmp_buf *fault_jmp;

static inline char *page(int idx)
{
	return slot_base[idx / SLOT_PAGES] + (long)(idx % SLOT_PAGES) * psz;
}

static inline char *at(int slot, int pg)
{
	return page(slot * SLOT_PAGES + pg);
}

static inline long len(int npages)
{
	return (long)npages * psz;
}

/* A result in bytes as the program's in pages. */
static inline long pages(long r)
{
	return r < 0 ? r : r / psz;
}

/* The pattern of every 64-bit word of a page that a write of tag filled. */
static inline uint64_t word(int tag, int idx)
{
	return rt_word(nonce, tag, idx);
}

/* Whole messages in one write(2): lines of threads and children never mix. */
static void put(int fd, const char *buf, int n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w <= 0)
			return;
		buf += w;
		n -= w;
	}
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(2, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
}

static void on_fault(int sig)
{
	if (fault_jmp)
		siglongjmp(*fault_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* join: threads end, children exit (their exit frees their swap entries). */
static long join_all(void)
{
	int st;

	for (int t = 0; t < nr_threads; t++)
		pthread_join(threads[t], NULL);
	nr_threads = 0;
	if (join_pipe[0] < 0)
		return 0;
	close(join_pipe[1]);
	for (int c = 0; c < NR_CHILDREN; c++) {
		if (kids[c] > 0 && waitpid(kids[c], &st, 0) == kids[c] &&
		    WIFEXITED(st) && WEXITSTATUS(st) == 1)
			corrupted = 1;
		kids[c] = 0;
		if (pidfds[c] >= 0)
			close(pidfds[c]);
		pidfds[c] = -1;
	}
	close(join_pipe[0]);
	join_pipe[0] = join_pipe[1] = -1;
	return 0;
}
