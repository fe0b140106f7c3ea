// SPDX-License-Identifier: GPL-2.0
#define MAX_KEPT 32

static struct kept {
	int lock, nr, restored;
	struct { char path[256], val[64]; } e[MAX_KEPT];
} *kept;
static pid_t kept_owner;

static void kept_restore(void)
{
	if (!kept || __atomic_exchange_n(&kept->restored, 1, __ATOMIC_SEQ_CST))
		return;
	for (int i = kept->nr - 1; i >= 0; i--)
		if (rt_put_file(kept->e[i].path, kept->e[i].val))
			say("cannot write %s back to %s\n", kept->e[i].path, kept->e[i].val);
}

static void kept_at_exit(void)
{
	if (getpid() == kept_owner)
		kept_restore();
}

static void kept_on_signal(int sig)
{
	kept_at_exit();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void __attribute__((constructor)) kept_init(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	int p[2];
	char c;

	kept = mmap(NULL, sizeof(*kept), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kept == MAP_FAILED) {
		kept = NULL;
		return;
	}
	kept_owner = getpid();
	atexit(kept_at_exit);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], kept_on_signal);
	if (pipe(p))
		return;
	if (fork() == 0) {
		/* Out of the process group a timeout or ^C signals. */
		setsid();
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_IGN);
		close(p[1]);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		kept_restore();
		_exit(0);
	}
	close(p[0]);
}

/* rt_put_file(), with the file's old value kept first (once a file). */
static long put_kept(const char *path, const char *val)
{
	int fd, i, n, missing = 0;

	if (no_env)
		return -ENODEV;
	if (!kept)
		return -ENOMEM;
	while (__atomic_exchange_n(&kept->lock, 1, __ATOMIC_ACQUIRE))
		;
	for (i = 0; i < kept->nr && strcmp(kept->e[i].path, path); i++)
		;
	fd = -1;
	if (i == kept->nr && i < MAX_KEPT && strlen(path) < sizeof(kept->e[i].path)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		missing = fd < 0 && errno == ENOENT;
	}
	if (fd >= 0) {
		n = read(fd, kept->e[i].val, sizeof(kept->e[i].val) - 1);
		close(fd);
		if (n > 0) {
			kept->e[i].val[n] = '\0';
			rt_knob_choice(kept->e[i].val);
			strcpy(kept->e[i].path, path);
			kept->nr++;
		}
	}
	__atomic_store_n(&kept->lock, 0, __ATOMIC_RELEASE);
	/* No such knob (a folio size this page size has not): as the executor. */
	if (missing)
		return -ENODEV;
	if (i == MAX_KEPT || i > kept->nr - 1 || strcmp(kept->e[i].path, path))
		return -ENOSPC;	/* its old value is unknown: not written */
	return rt_put_file(path, val);
}
