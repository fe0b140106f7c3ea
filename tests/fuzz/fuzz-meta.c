// SPDX-License-Identifier: GPL-2.0
/*
 * The crash store's meta reader (store/meta.c): the input is a bug
 * directory's meta file, read with mmf_meta_read(); what it read is written
 * back with mmf_meta_write() and must read back the same.
 *
 * The bug directory is this process's own, in $MMF_FUZZ_TMP, else
 * /dev/shm if writable, else $TMPDIR or /tmp: "mmfuzz-fuzz-meta.<pid>",
 * emptied after every input and removed at exit; the ones of dead
 * processes (afl-fuzz kills its last child) go when the next one starts.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "store/internal.h"
#include "util/util.h"

#define PREFIX "mmfuzz-fuzz-meta."

static char *bugdir, *meta_path;

static void rm_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d))) {
			char *p;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = mmf_xasprintf("%s/%s", dir, e->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

static void cleanup(void)
{
	if (bugdir)
		rm_dir(bugdir);
}

static const char *base_dir(void)
{
	const char *b = getenv("MMF_FUZZ_TMP");

	if (b && *b)
		return b;
	if (!access("/dev/shm", W_OK | X_OK))
		return "/dev/shm";
	b = getenv("TMPDIR");
	return b && *b ? b : "/tmp";
}

/* Remove the directories of processes that are gone. */
static void rm_stale(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end, *p;
		long pid;

		if (strncmp(e->d_name, PREFIX, strlen(PREFIX)))
			continue;
		pid = strtol(e->d_name + strlen(PREFIX), &end, 10);
		if (*end || pid <= 0 || !kill(pid, 0) || errno != ESRCH)
			continue;
		p = mmf_xasprintf("%s/%s", base, e->d_name);
		rm_dir(p);
		free(p);
	}
	closedir(d);
}

static void setup(void)
{
	const char *base = base_dir();

	rm_stale(base);
	bugdir = mmf_xasprintf("%s/" PREFIX "%d", base, (int)getpid());
	if (mkdir(bugdir, 0700) && errno != EEXIST)
		mmf_die("%s: %s", bugdir, strerror(errno));
	meta_path = mmf_xasprintf("%s/meta", bugdir);
	atexit(cleanup);
}

static void check_same(const struct meta *a, const struct meta *b)
{
	FUZZ_CHECK(a->count == b->count, "count %ld, read back %ld", a->count, b->count);
	FUZZ_CHECK(!strcmp(a->first, b->first), "first_seen '%s', read back '%s'", a->first,
		   b->first);
	FUZZ_CHECK(!strcmp(a->last, b->last), "last_seen '%s', read back '%s'", a->last, b->last);
	FUZZ_CHECK(!strcmp(a->arch, b->arch), "arch '%s', read back '%s'", a->arch, b->arch);
	FUZZ_CHECK(!strcmp(a->kernel, b->kernel), "kernel '%s', read back '%s'", a->kernel,
		   b->kernel);
	FUZZ_CHECK(!strcmp(a->repro, b->repro), "repro '%s', read back '%s'", a->repro,
		   b->repro);
}

void fuzz_one(const uint8_t *buf, size_t len)
{
	struct meta m, back;
	int r;

	if (!bugdir)
		setup();
	if (mmf_write_file_atomic(meta_path, buf, len))
		mmf_die("%s: %s", meta_path, strerror(errno));
	mmf_meta_init(&m);
	r = mmf_meta_read(bugdir, &m);
	FUZZ_CHECK(!r, "mmf_meta_read: %s", strerror(-r));
	FUZZ_CHECK(m.count >= 0, "count %ld", m.count);
	FUZZ_CHECK(m.arch && m.kernel && m.repro, "a NULL value");
	r = mmf_meta_write(bugdir, &m);
	FUZZ_CHECK(!r, "mmf_meta_write: %s", strerror(-r));
	mmf_meta_init(&back);
	r = mmf_meta_read(bugdir, &back);
	FUZZ_CHECK(!r, "mmf_meta_read of mmf_meta_write's: %s", strerror(-r));
	check_same(&m, &back);
	mmf_meta_free(&m);
	mmf_meta_free(&back);
	unlink(meta_path);
}
