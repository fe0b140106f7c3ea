// SPDX-License-Identifier: GPL-2.0
/*
 * Accounting counters against each other and against the model (see
 * accounting.h for what is compared and when).
 *
 * Tolerances. After the program's processes have exited, a correct kernel
 * gives back every page: its own drift is zero once the per-CPU batches are
 * drained (lru_add_drain_all() by migrate_pages() of ourselves to the same
 * node) and vmstat_refresh folded the per-CPU deltas. What remains is other
 * load, so a tolerance per counter by how much other processes move it:
 * little for Mlocked and Unevictable, since few processes lock memory.
 * Other processes that lock and unlock memory move both counters by any
 * amount: their VmLck (locked_vm) is summed and taken off every reading,
 * and a reading during which that sum or the counters moved (a process in
 * the middle of mlock or munlock, where locked_vm and the pages disagree)
 * is no reading at all.
 * Shmem, AnonPages and SwapCached are not compared machine-wide: the
 * run's own stressors (an io_uring file on tmpfs, the workload's memory,
 * reclaim) and its output on a guest's tmpfs move them by more than any
 * tolerance a correct kernel keeps; the per-process counters below cover
 * the program's anonymous, shmem and swap pages. A reading
 * above tolerance is taken MMF_ACCT_REREADS more times, 150 ms apart; it is
 * reported if all stay above tolerance and within STABLE_KB of each other.
 *
 * The RSS counters of /proc/self/status are per-CPU counters: a read may
 * miss up to a batch (max(32, 2 * ncpus) pages) per CPU. smaps_rollup walks
 * the page tables. Both count the same anonymous pages and swap entries,
 * except that smaps_rollup also counts swapped shmem, so the swap check
 * runs only when the model says the arena has no shmem and the one shared
 * page of the hang board (outside it) is in the tolerance.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "oracle/accounting.h"

#define STABLE_KB	512
#define REREAD_MS	150
#define READ_TRIES	3

static const struct {
	const char *name;
	long tol_kb;
} counters[MMF_ACCT_NR] = {
	[MMF_ACCT_MLOCKED] = { "Mlocked", 1024 },
	[MMF_ACCT_UNEVICTABLE] = { "Unevictable", 1024 },
};

/* The test hook: kB to add to counter name, 0 if none. */
static long skew(const char *name)
{
	const char *e = getenv("MMFUZZ_ACCT_SKEW");
	size_t len = strlen(name);

	for (; e && *e; e = strchr(e, '+'), e = e ? e + 1 : NULL)
		if (!strncmp(e, name, len) && e[len] == ':')
			return strtol(e + len + 1, NULL, 10);
	return 0;
}

void mmf_acct_skew_set(const char *what, const char *spec)
{
	static const char *const names[] = {
		"Mlocked", "Unevictable", "RssAnon", "VmSwap", "VmLck",
	};

	for (const char *e = spec; e;) {
		size_t len = strcspn(e, ":+");
		bool known = false;
		char *end;

		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			known |= strlen(names[i]) == len && !strncmp(e, names[i], len);
		if (!known || e[len] != ':')
			mmf_die("%s: bad --acct-skew '%s' (COUNTER:KB, COUNTER one of Mlocked,"
			    " Unevictable, RssAnon, VmSwap, VmLck)", what, spec);
		strtol(e + len + 1, &end, 10);
		if (end == e + len + 1 || (*end && *end != '+'))
			mmf_die("%s: bad --acct-skew '%s': '%.*s' is no number of kB", what, spec,
			    (int)strcspn(e + len + 1, "+"), e + len + 1);
		e = *end ? end + 1 : NULL;
	}
	setenv("MMFUZZ_ACCT_SKEW", spec, 1);
}

static long field_kb(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ':')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

static void write_knob(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, v, strlen(v)) < 0) {
		/* Not root, or the knob is missing: the tolerance covers it. */
	}
	close(fd);
}

/* Per-CPU LRU, mlock batches and vmstat deltas into the global counters. */
static void drain(void)
{
	unsigned long node0 = 1;

	/* do_migrate_pages() starts with lru_cache_disable(): a drain on
	 * every CPU; from node 0 to node 0 moves nothing.
	 */
	syscall(SYS_migrate_pages, 0, 65, &node0, &node0);
	write_knob("/proc/sys/vm/stat_refresh", "1");
}

/*
 * The kernel threads: kthreadd's children (CONFIG_PROC_CHILDREN), read
 * afresh each time so that no pid is trusted after it could be reused.
 * They lock nothing, and under TCG their status files are most of a pass
 * over /proc. Empty (read every status) without the file.
 */
static int kthreads(long *pids, int max)
{
	char *t = mmf_read_file("/proc/2/task/2/children", NULL);
	int n = 0;

	for (char *p = t, *end; p && n < max; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		pids[n++] = pid;
	}
	free(t);
	return n;
}

static bool listed(const long *pids, int n, long pid)
{
	for (int i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/* VmLck of every process but this one (the program's are gone), in kB. */
static long others_locked_kb(void)
{
	DIR *d = opendir("/proc");
	pid_t self = getpid();
	struct dirent *e;
	char path[64], buf[4096];
	long sum = 0, kt[1024];
	int nkt = kthreads(kt, ARRAY_SIZE(kt));

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *end, *l;
		long pid = strtol(e->d_name, &end, 10);
		ssize_t n;
		int fd;

		if (*end || pid <= 0 || pid == self || pid == 2 || listed(kt, nkt, pid))
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/status", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;	/* gone meanwhile */
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		l = strstr(buf, "\nVmLck:");
		if (l)
			sum += strtol(l + 7, NULL, 10);	/* kernel threads have none */
	}
	closedir(d);
	return sum;
}

static bool meminfo_read(long kb[MMF_ACCT_NR])
{
	char *t = mmf_read_file("/proc/meminfo", NULL);
	bool ok = t != NULL;

	for (int i = 0; i < MMF_ACCT_NR; i++) {
		kb[i] = t ? field_kb(t, counters[i].name) : -1;
		ok &= kb[i] >= 0;
	}
	free(t);
	return ok;
}

/*
 * meminfo, the others' VmLck, meminfo, VmLck again: a reading holds only
 * if neither moved in between.
 */
static bool read_still(struct mmf_acct_sys *s)
{
	long first[MMF_ACCT_NR], again;

	if (!meminfo_read(first))
		return false;
	s->others_kb = others_locked_kb();
	if (!meminfo_read(s->kb) || s->others_kb < 0)
		return false;
	again = others_locked_kb();
	for (int i = 0; i < MMF_ACCT_NR; i++)
		if (labs(s->kb[i] - first[i]) > STABLE_KB)
			return false;
	return again == s->others_kb;
}

void mmf_acct_sys_read(struct mmf_acct_sys *s)
{
	drain();
	s->ok = false;
	for (int t = 0; t < READ_TRIES && !s->ok; t++) {
		if (t)
			usleep(10 * 1000);
		s->ok = read_still(s);
	}
	s->at_ns = mmf_now_ns();
}

void mmf_acct_sys_base(struct mmf_acct_sys *base)
{
	if (!base->ok || mmf_now_ns() - base->at_ns > MMF_ACCT_BASE_NS)
		mmf_acct_sys_read(base);
}

/* The test hook's skew, on a reading after the program. */
static void add_skew(struct mmf_acct_sys *s)
{
	for (int i = 0; s->ok && i < MMF_ACCT_NR; i++)
		s->kb[i] += skew(counters[i].name);
}

/* How much counter i grew from before to after, other processes' locks off. */
static long growth(const struct mmf_acct_sys *before, const struct mmf_acct_sys *after, int i)
{
	return after->kb[i] - after->others_kb - (before->kb[i] - before->others_kb);
}

bool mmf_acct_sys_suspect(const struct mmf_acct_sys *before, const struct mmf_acct_sys *after)
{
	if (!before->ok || !after->ok)
		return false;
	for (int i = 0; i < MMF_ACCT_NR; i++)
		if (growth(before, after, i) > counters[i].tol_kb)
			return true;
	return false;
}

int mmf_acct_sys_compare(const struct mmf_acct_sys *before, const struct mmf_acct_sys *after,
			 int n, struct strbuf *out)
{
	int reports = 0;

	if (!before->ok || n < 1)
		return 0;
	for (int i = 0; i < MMF_ACCT_NR; i++) {
		long lo = 0, hi = 0;
		bool ok = true;

		for (int k = 0; k < n && ok; k++) {
			long d = growth(before, &after[k], i);

			ok = after[k].ok;
			lo = k ? MIN(lo, d) : d;
			hi = k ? MAX(hi, d) : d;
		}
		if (!ok || lo <= counters[i].tol_kb || hi - lo > STABLE_KB)
			continue;
		mmf_sb_printf(out, "ACCOUNTING: %s grew after the program exited\n"
			  "%s grew by %ld kB after the program and all its processes exited"
			  " (tolerance %ld kB; %d readings within %ld kB, from %ld kB;"
			  " other processes' VmLck %ld kB before, %ld kB after, taken off)\n",
			  counters[i].name, counters[i].name, lo, counters[i].tol_kb, n,
			  hi - lo, before->kb[i], before->others_kb, after[n - 1].others_kb);
		reports++;
	}
	return reports;
}

int mmf_acct_sys_check(struct mmf_acct_sys *before, struct strbuf *out)
{
	struct mmf_acct_sys after[1 + MMF_ACCT_REREADS], clean;
	int n = 1, reports;

	if (!before->ok)
		return 0;
	mmf_acct_sys_read(&after[0]);
	clean = after[0];
	add_skew(&after[0]);
	if (!mmf_acct_sys_suspect(before, &after[0])) {
		*before = clean;
		return 0;
	}
	for (; n < 1 + MMF_ACCT_REREADS; n++) {
		usleep(REREAD_MS * 1000);
		mmf_acct_sys_read(&after[n]);
		add_skew(&after[n]);
	}
	reports = mmf_acct_sys_compare(before, after, n, out);
	before->ok = false;
	return reports;
}

/*
 * status, smaps_rollup, then status again: another process may page this
 * one out meanwhile (process_madvise, the reclaim stressor, kswapd), and
 * reading the files faults in this process's own heap, and then the two
 * files describe different moments. Such a reading is retried; after
 * READ_TRIES, no comparison.
 */
static bool proc_read_once(struct mmf_acct_proc *p)
{
	char *st = mmf_read_file("/proc/self/status", NULL);
	char *sm = mmf_read_file("/proc/self/smaps_rollup", NULL);
	char *st2 = mmf_read_file("/proc/self/status", NULL);
	bool moved = !st2 || !st || field_kb(st, "RssAnon") != field_kb(st2, "RssAnon") ||
		     field_kb(st, "VmSwap") != field_kb(st2, "VmSwap");

	p->rss_anon = st && !moved ? field_kb(st, "RssAnon") : -1;
	p->vm_swap = st && !moved ? field_kb(st, "VmSwap") : -1;
	p->vm_lck = st ? field_kb(st, "VmLck") : -1;
	p->rss_shmem = st ? field_kb(st, "RssShmem") : -1;
	p->anonymous = sm ? field_kb(sm, "Anonymous") : -1;
	p->swap = sm ? field_kb(sm, "Swap") : -1;
	free(st);
	free(st2);
	free(sm);
	return !moved;
}

void mmf_acct_proc_read(struct mmf_acct_proc *p)
{
	for (int t = 0; t < READ_TRIES && !proc_read_once(p); t++)
		;
	if (p->rss_anon >= 0)
		p->rss_anon += skew("RssAnon");
	if (p->vm_swap >= 0)
		p->vm_swap += skew("VmSwap");
	if (p->vm_lck >= 0)
		p->vm_lck += skew("VmLck");
}

/* Any page of the arena backed by shmem (a file or shared anonymous). */
static bool arena_has_shmem(const struct mmf_shadow *sh)
{
	for (int i = 0; i < MMF_ARENA_PAGES; i++)
		if (sh->pages[i].lost || (sh->pages[i].mapped && mmf_page_obj(&sh->pages[i]) >= 0))
			return true;
	return false;
}

static int differ(struct strbuf *out, const char *a, long av, const char *b, long bv, long tol)
{
	if (av < 0 || bv < 0 || labs(av - bv) <= tol)
		return 0;
	mmf_sb_printf(out, "ACCOUNTING: %s differs from smaps_rollup %s at the end of the program\n"
		  "/proc/self/status %s is %ld kB, /proc/self/smaps_rollup %s is %ld kB:"
		  " %ld kB apart, tolerance %ld kB (per-CPU counter batches)\n",
		  a, b, a, av, b, bv, av - bv, tol);
	return 1;
}

int mmf_acct_proc_compare(const struct mmf_acct_proc *p, const struct mmf_shadow *sh,
			  long psz, int ncpus, long vmlck_base_kb, struct strbuf *out)
{
	long batch = MAX(32, 2 * ncpus), tol = batch * ncpus * (psz / 1024);
	long locked = mmf_shadow_locked_pages(sh), want;
	int n = 0;

	n += differ(out, "RssAnon", p->rss_anon, "Anonymous", p->anonymous, tol);
	if (!arena_has_shmem(sh))
		n += differ(out, "VmSwap", p->vm_swap, "Swap", p->swap, tol + psz / 1024);
	if (!sh->locks_exact || locked < 0 || vmlck_base_kb < 0 || p->vm_lck < 0)
		return n;
	want = vmlck_base_kb + locked * (psz / 1024);
	if (p->vm_lck == want)
		return n;
	mmf_sb_printf(out, "ACCOUNTING: VmLck differs from mlocked pages\n"
		  "VmLck is %ld kB at the end of the program, the model locked %ld pages:"
		  " expected %ld kB\n", p->vm_lck, locked, want);
	return n + 1;
}
