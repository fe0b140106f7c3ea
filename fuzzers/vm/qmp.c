// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU's machine protocol (QMP), as much as snapshots need: connect,
 * leave capabilities negotiation, send a command, take its answer. One
 * JSON object a line; events between are skipped.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "vm/qmp.h"

/* The next line that is not an event, into reply; 0, or -1 and err. */
static int answer(int fd, struct strbuf *reply, int timeout_ms, char *err, size_t n)
{
	uint64_t end = mmf_now_ns() + timeout_ms * 1000000ull;
	char c;

	reply->len = 0;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = (int64_t)(end - mmf_now_ns()) / 1000000;
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0) {
			snprintf(err, n, "QMP: no answer in %d ms", timeout_ms);
			return -1;
		}
		r = read(fd, &c, 1);
		if (r <= 0) {
			snprintf(err, n, "QMP: %s", r ? strerror(errno) : "QEMU closed the socket");
			return -1;
		}
		if (c != '\n') {
			mmf_sb_add(reply, &c, 1);
			continue;
		}
		mmf_sb_add(reply, "", 0);
		if (reply->len && !strstr(reply->buf, "\"event\""))
			return 0;
		reply->len = 0;
	}
}

int mmf_qmp_cmd(int fd, const char *json, struct strbuf *reply, int timeout_ms, char *err,
		size_t n)
{
	char *line = mmf_xasprintf("%s\n", json);
	int r = mmf_write_all(fd, line, strlen(line));

	free(line);
	if (r) {
		snprintf(err, n, "QMP: %s", strerror(errno));
		return -1;
	}
	if (answer(fd, reply, timeout_ms, err, n))
		return -1;
	if (!strstr(reply->buf, "\"return\"")) {
		snprintf(err, n, "QMP: %s: %.200s", json, reply->buf);
		return -1;
	}
	return 0;
}

int mmf_qmp_open(const char *path, int timeout_ms, char *err, size_t n)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	uint64_t end = mmf_now_ns() + timeout_ms * 1000000ull;
	struct strbuf reply;
	int r = -1;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	/* QEMU makes the socket while it starts. */
	while (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		if (mmf_now_ns() > end) {
			snprintf(err, n, "QMP socket %s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	if (fd < 0) {
		snprintf(err, n, "QMP socket: %s", strerror(errno));
		return -1;
	}
	mmf_sb_init(&reply);
	/* The greeting, then out of negotiation mode. */
	if (!answer(fd, &reply, timeout_ms, err, n) &&
	    !mmf_qmp_cmd(fd, "{\"execute\":\"qmp_capabilities\"}", &reply, timeout_ms, err, n))
		r = fd;
	mmf_sb_free(&reply);
	if (r < 0)
		close(fd);
	return r;
}

int mmf_qmp_value(const char *reply, const char *key, char *buf, size_t n)
{
	char *pat = mmf_xasprintf("\"%s\": \"", key);
	const char *p = strstr(reply, pat);
	size_t len;

	if (!p) {
		free(pat);
		pat = mmf_xasprintf("\"%s\":\"", key);
		p = strstr(reply, pat);
	}
	if (p)
		p += strlen(pat);
	free(pat);
	if (!p || !n)
		return -1;
	len = MIN(strcspn(p, "\""), n - 1);
	memcpy(buf, p, len);
	buf[len] = '\0';
	return 0;
}
