// SPDX-License-Identifier: GPL-2.0
struct reading {
	int si, idx;
	const struct expect *e, *end;
	int bad;
};

struct text {
	char buf[4096];
	int len;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	int room = sizeof(t->buf) - t->len, n;
	va_list ap;

	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, room, fmt, ap);
	va_end(ap);
	t->len += n < room ? n : room - 1;
}

static uint64_t pagemap(const void *addr)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	uint64_t ent = 0;

	if (fd < 0)
		return 0;
	if (pread(fd, &ent, sizeof(ent), (uintptr_t)addr / psz * sizeof(ent)) != sizeof(ent))
		ent = 0;
	close(fd);
	return ent;
}

/* What went wrong, for the title: the executor's classes. */
static const char *class_of(int idx, const uint64_t *want, int nvals, uint64_t first,
			    int uniform)
{
	if (uniform && !first)
		return "zeroed";
	for (int i = 0; i < nvals; i++)
		if (want[i] == first)
			return "torn";
	if (uniform && (first >> 32 & 0xffffff) == nonce)
		return (uint32_t)first == (uint32_t)(idx + 1) ? "stale" : "misplaced";
	return uniform ? "foreign" : "garbage";
}

static void report(int si, int idx, const struct expect *e, const uint64_t *want,
		   const uint64_t *pg, long nbad)
{
	uint64_t ent = pagemap(pg);
	long words = psz / 8, bad;
	struct text t = { .len = 0 };

	for (bad = 1; nbad && pg[bad] == pg[0]; bad++)
		;
	add(&t, "DATA CORRUPTION: %s %s\n",
	    class_of(idx, want, e->nvals, pg[0], nbad == 0), e->what);
	add(&t, "page: m%d+%d (arena page %d) at %p, read by statement %d\n",
	    idx / SLOT_PAGES, idx % SLOT_PAGES, idx, (const void *)pg, si);
	add(&t, "pagemap: present=%d swapped=%d exclusive=%d\n",
	    (int)(ent >> 63 & 1), (int)(ent >> 62 & 1), (int)(ent >> 56 & 1));
	add(&t, "expected:");
	for (int i = 0; i < e->nvals; i++)
		add(&t, " %s0x%016llx", i ? "or " : "", (unsigned long long)want[i]);
	add(&t, "\nobserved: 0x%016llx at byte 0, 0x%016llx at byte %ld;"
	    " %ld of %ld words differ from the first\n",
	    (unsigned long long)pg[0], (unsigned long long)pg[bad], bad * 8, nbad, words);
	add(&t, "calls that touched it, newest first:\n");
	for (int h = 0; h < 4 && e->hist[h] >= 0; h++)
		add(&t, "  %d: %s\n", e->hist[h], stmts[e->hist[h]].text);
	put(1, t.buf, t.len);
}

static void verify_page(int i, void *arg)
{
	struct reading *rd = arg;
	int idx = rd->idx + i;
	const uint64_t *pg = (const uint64_t *)page(idx);
	/* Fault the page in even when nothing is expected of it. */
	uint64_t first = *(volatile const uint64_t *)pg, want[4];
	long words = psz / 8, nbad = 0;
	const struct expect *e;
	int ok = 0;

	while (rd->e < rd->end && rd->e->page + rd->e->npages <= idx)
		rd->e++;
	e = rd->e;
	if (diverged || e == rd->end || e->page > idx)
		return;
	for (int i = 0; i < e->nvals; i++) {
		want[i] = e->v[i].tag ? word(e->v[i].tag, idx + e->v[i].shift) : 0;
		ok |= want[i] == first;
	}
	for (long i = 1; i < words; i++)
		nbad += pg[i] != first;
	if (ok && !nbad)
		return;
	corrupted = 1;
	/* The first bad page of a read in full, the others counted. */
	if (!rd->bad++)
		report(rd->si, idx, e, want, pg, nbad);
}

/* read(m, page, n): check each page the model could predict, touch the rest. */
static long verify(int si, int slot, int pg, int n, const struct expect *e, int nr)
{
	struct reading rd = { si, slot * SLOT_PAGES + pg, e, e ? e + nr : e, 0 };
	long r = rt_guarded(&fault_jmp, n, verify_page, &rd);

	if (rd.bad > 1)
		say("%d: %d more pages differ\n", si, rd.bad - 1);
	return r;
}
