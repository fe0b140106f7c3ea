// SPDX-License-Identifier: GPL-2.0
/*
 * Reports of the native fuzz loop go into the crash store, OUT/crashes,
 * and, in a guest, to the host's store over the findings channel.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "store/wire.h"
#include "sys/sysfs.h"
#include "util/util.h"

/* The host saves a finding in milliseconds; this is for a host that died. */
#define ACK_MS	30000

static int findings_fd = -1;
static unsigned long findings_sent;
static bool findings_kmsg;

/* The LAVA test cases: a class per oracle (its titles' word) and the kernel's reports. */
static const char *const classes[] = {
	"kernel-report", "data-corruption", "accounting", "pagemap", "hang",
};
static bool class_failed[ARRAY_SIZE(classes)];

int mmf_findings_open(const char *path)
{
	char mode[16] = "";

	if (!strcmp(path, "kmsg")) {
		/* Rate-limited, /dev/kmsg would drop frames without a word. */
		if (mmf_sysfs_read("/proc/sys/kernel/printk_devkmsg", mode, sizeof(mode)) < 0 ||
		    strncmp(mode, "on", 2))
			return -EPERM;
		findings_kmsg = true;
		findings_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	} else {
		findings_fd = open(path, O_RDWR | O_CLOEXEC);
	}
	return findings_fd < 0 ? -errno : 0;
}

/* One kernel log record at notice level: the console prints it whole. */
static void kmsg_line(void *ctx, const char *line, size_t len)
{
	char *rec = mmf_xasprintf("<5>%.*s\n", (int)len, line);

	(void)ctx;
	if (mmf_write_all(findings_fd, rec, strlen(rec)))
		mmf_warnx_("/dev/kmsg: %s: a frame of a finding is lost", strerror(errno));
	free(rec);
}

static void kmsg_case(const char *class, const char *result)
{
	char *line = mmf_xasprintf("mmfuzz-case: %s: %s", class, result);

	kmsg_line(NULL, line, strlen(line));
	free(line);
}

/* "DATA CORRUPTION: ..." is of class data-corruption; a kernel report of kernel-report. */
static void kmsg_failed(const struct mmf_exec_report *r)
{
	char class[32];
	size_t i;

	for (i = 0; !r->kernel && r->title[i] && r->title[i] != ':' && i + 1 < sizeof(class); i++)
		class[i] = r->title[i] == ' ' ? '-' : tolower((unsigned char)r->title[i]);
	class[i] = '\0';
	for (i = 0; i < ARRAY_SIZE(classes); i++)
		if (!strcmp(r->kernel ? "kernel-report" : class, classes[i]))
			class_failed[i] = true;
	kmsg_case(r->kernel ? "kernel-report" : class, "fail");
}

void mmf_findings_close(void)
{
	if (findings_kmsg && findings_fd >= 0)
		for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
			if (!class_failed[i])
				kmsg_case(classes[i], "pass");
	if (findings_fd >= 0)
		close(findings_fd);
	findings_fd = -1;
}

/* Wait for the host's word on seq; false after ACK_MS or on a bad answer. */
static bool acked(unsigned long seq)
{
	uint64_t end = mmf_now_ns() + ACK_MS * 1000000ull;
	char buf[256];
	size_t len = 0;

	while (mmf_now_ns() < end) {
		struct pollfd pfd = { .fd = findings_fd, .events = POLLIN };
		unsigned long got;
		size_t used;
		ssize_t r;
		int k;

		if (poll(&pfd, 1, (int)((end - mmf_now_ns()) / 1000000) + 1) <= 0)
			continue;
		r = read(findings_fd, buf + len, sizeof(buf) - len);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return false;
		}
		len += r;
		while ((k = mmf_wire_get_ack(buf, len, &used, &got)) > 0) {
			if (got == seq)
				return true;
			memmove(buf, buf + used, len - used);	/* an old one's, late */
			len -= used;
		}
		if (k < 0)
			return false;
	}
	return false;
}

/*
 * One finding to the host, under a record lock of the port: the fuzzer and
 * its stressors' process share it, and each must read its own answer.
 */
static void send_finding(const struct mmf_crash *c)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	unsigned long seq = ((unsigned long)getpid() << 20) + ++findings_sent;
	struct strbuf sb;

	if (findings_kmsg) {
		mmf_wire_put_frames(seq, c, kmsg_line, NULL);
		return;
	}
	mmf_sb_init(&sb);
	mmf_wire_put(&sb, seq, c);
	while (fcntl(findings_fd, F_SETLKW, &fl) && errno == EINTR)
		;
	if (mmf_write_all(findings_fd, sb.buf, sb.len) || !acked(seq))
		mmf_warnx_("findings channel: '%s' did not reach the host (it stays in this"
		       " guest's store)", c->title);
	fl.l_type = F_UNLCK;
	fcntl(findings_fd, F_SETLK, &fl);
	mmf_sb_free(&sb);
}

int mmf_save_crash(const char *out, const struct mmf_exec_report *r, const struct mmf_prog *p,
		   const char *related, struct mmf_store_added *res)
{
	char *dir = mmf_xasprintf("%s/crashes", out), *kernel = NULL;
	struct mmf_crash c = { .title = r->title, .report = r->body, .related = related };
	struct utsname u;
	struct strbuf prog;
	int ret;

	mmf_sb_init(&prog);
	mmf_prog_print(p, &prog);
	c.progs = prog.buf ? prog.buf : "";
	/* The kernel-log oracle's report text is the log around the report. */
	if (r->kernel)
		c.log = r->body;
	if (!uname(&u)) {
		kernel = mmf_xasprintf("%s %s", u.release, u.version);
		c.kernel = kernel;
		c.arch = u.machine;
	}
	ret = mmf_store_add(dir, &c, res);
	/* Kernel reports reach the host on the console, with the kernel's state. */
	if (findings_fd >= 0 && !r->kernel)
		send_finding(&c);
	if (findings_kmsg)
		kmsg_failed(r);
	free(kernel);
	free(dir);
	mmf_sb_free(&prog);
	return ret;
}
