// SPDX-License-Identifier: GPL-2.0
/* This process's uffd (runtime/uffd.h); a fork child starts without one. */
static struct rt_uffd_own uffd;

static void uffd_forked(void)
{
	rt_uffd_forked(&uffd);
}

static void __attribute__((constructor)) uffd_init(void)
{
	pthread_atfork(NULL, NULL, uffd_forked);
}

/* uffd_copy's source: what write(tag) would store at each destination page. */
struct copy_src {
	int idx, tag;
};

static __attribute__((unused)) uint64_t copy_word(int i, void *arg)
{
	const struct copy_src *c = arg;

	return word(c->tag, c->idx + i);
}
