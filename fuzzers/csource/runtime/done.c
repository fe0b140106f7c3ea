// SPDX-License-Identifier: GPL-2.0
/* A result as mmfuzz prints it: "0", "64", "-1 ENOMEM". */
static const char *res(long r, char *buf, size_t size)
{
	const char *name = r < 0 ? strerrorname_np(-r) : NULL;

	if (r >= 0)
		snprintf(buf, size, "%ld", r);
	else if (name)
		snprintf(buf, size, "-1 %s", name);
	else
		snprintf(buf, size, "-1 errno %ld", -r);
	return buf;
}

/* --corrupt-after: change a page behind the program's back, as a bug would. */
static void corrupt(int idx)
{
	uint64_t junk[512];
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	long n = psz < (long)sizeof(junk) ? psz : (long)sizeof(junk);

	for (int i = 0; i < 512; i++)
		junk[i] = 0x5a5a5a5a00000000ull | i;
	if (fd < 0 || pwrite(fd, junk, n, (uintptr_t)page(idx)) != n)
		say("--corrupt-after: cannot write arena page %d\n", idx);
	if (fd >= 0)
		close(fd);
}

/* After each call: trace, the divergence guard, the test hook. */
static void done(int si, long r)
{
	const struct stmt *s = &stmts[si];
	int same = s->guard == GUARD_NONE || r == s->want ||
		   (s->guard == GUARD_SIGN && (r < 0) == (s->want < 0));
	char got[48], want[48];

	if (verbose)
		say("%d: %s = %s\n", si, s->text, res(r, got, sizeof(got)));
	if (!same && !diverged) {
		diverged = 1;
		say("%d: %s = %s, the expectations assume %s: %s\n", si, s->text,
		    res(r, got, sizeof(got)), res(s->want, want, sizeof(want)),
		    "pages are only touched from here");
	}
	if (si == corrupt_after && s->known_page >= 0)
		corrupt(s->known_page);
}
