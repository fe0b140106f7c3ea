// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/kmsg.h"
#include "report/report.h"

/* Taint flags that mean the kernel itself found something wrong. */
static const struct {
	int bit;
	char letter;
} bad_taints[] = {
	{ 4, 'M' },	/* machine check */
	{ 5, 'B' },	/* bad page */
	{ 7, 'D' },	/* died: oops or BUG */
	{ 9, 'W' },	/* warning */
	{ 14, 'L' },	/* soft lockup */
};

struct mmf_kmsg {
	int fd;
	unsigned long taint;
};

static unsigned long read_taint(void)
{
	char *s = mmf_read_file("/proc/sys/kernel/tainted", NULL);
	unsigned long t = s ? strtoul(s, NULL, 10) : 0;

	free(s);
	return t;
}

struct mmf_kmsg *mmf_kmsg_open(void)
{
	struct mmf_kmsg *k;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	lseek(fd, 0, SEEK_END);
	k = mmf_xmalloc(sizeof(*k));
	k->fd = fd;
	k->taint = read_taint();
	return k;
}

void mmf_kmsg_close(struct mmf_kmsg *k)
{
	if (!k)
		return;
	close(k->fd);
	free(k);
}

/*
 * A record is "prio,seq,usec,flags;text" with continuation lines after it;
 * print it as the console would, "[ sec.usec] text", for the parser.
 */
static void add_record(struct strbuf *log, const char *rec, size_t n)
{
	const char *semi = memchr(rec, ';', n);
	const char *end = memchr(rec, '\n', n);
	unsigned long long usec = 0;
	unsigned int prio;
	unsigned long long seq;

	if (!semi)
		return;
	sscanf(rec, "%u,%llu,%llu", &prio, &seq, &usec);
	if (!end || end < semi)
		end = rec + n;
	mmf_sb_printf(log, "[%5llu.%06llu] ", usec / 1000000, usec % 1000000);
	mmf_sb_add(log, semi + 1, end - semi - 1);
	mmf_sb_puts(log, "\n");
}

/*
 * A task that exits leaves its mm to its CPU's idle task, lazily, until a
 * user task runs there; what the kernel reports when an mm is freed
 * (check_mm()'s "Bad rss-counter state") waits for that, on an idle guest
 * for good. Running a moment on every CPU this task may use frees them.
 */
static void drop_lazy_mms(void)
{
	cpu_set_t all, one;

	if (sched_getaffinity(0, sizeof(all), &all))
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
	}
	sched_setaffinity(0, sizeof(all), &all);
}

int mmf_kmsg_poll(struct mmf_kmsg *k,
		  void (*fn)(const char *title, const char *text, void *arg), void *arg)
{
	struct mmf_report *reps = NULL;
	struct strbuf log;
	char rec[8192];
	unsigned long taint;
	int nr = 0;

	drop_lazy_mms();
	mmf_sb_init(&log);
	for (;;) {
		ssize_t n = read(k->fd, rec, sizeof(rec));

		if (n < 0 && errno == EPIPE)	/* overwritten records: go on */
			continue;
		if (n <= 0)
			break;
		add_record(&log, rec, n);
	}
	if (log.len)
		nr = mmf_report_parse(log.buf, log.len, &reps);
	for (int i = 0; i < nr; i++)
		fn(reps[i].title, reps[i].text, arg);
	mmf_reports_free(reps, nr);
	taint = read_taint();
	if (!nr) {
		char title[64] = "KERNEL TAINTED:";
		size_t len = strlen(title);

		for (size_t i = 0; i < ARRAY_SIZE(bad_taints); i++) {
			unsigned long b = 1ul << bad_taints[i].bit;

			if ((taint & b) && !(k->taint & b))
				title[len++] = bad_taints[i].letter;
		}
		title[len] = '\0';
		if (len > strlen("KERNEL TAINTED:")) {
			fn(title, log.len ? log.buf : "no kernel message recognised\n", arg);
			nr = 1;
		}
	}
	k->taint = taint;
	mmf_sb_free(&log);
	return nr;
}
