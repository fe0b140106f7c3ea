// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/journal.h"
#include "sys/sysfs.h"
#include "util/util.h"

static __thread char sys_err[512];

const char *mmf_sys_err(void)
{
	return sys_err;
}

int mmf_sys_fail(int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (err <= 0)	/* a caller passing -errno or 0 still gets a sane line */
		err = err ? -err : EIO;
	va_start(ap, fmt);
	n = vsnprintf(sys_err, sizeof(sys_err), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(sys_err))
		snprintf(sys_err + n, sizeof(sys_err) - n, ": %s", strerror(err));
	return -err;
}

int mmf_sys_set_err(int ret, const char *msg)
{
	snprintf(sys_err, sizeof(sys_err), "%s", msg);
	return ret;
}

int mmf_sysfs_read(const char *path, char *buf, size_t n)
{
	size_t len = 0;
	int fd;

	if (n == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return mmf_sys_fail(errno, "open %s", path);
	for (;;) {
		ssize_t r = read(fd, buf + len, n - 1 - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;

			close(fd);
			return mmf_sys_fail(err, "read %s", path);
		}
		if (r == 0)
			break;
		len += r;
		if (len == n - 1) {
			char c;

			/* Full buffer: fine only if this was exactly the end. */
			r = read(fd, &c, 1);
			close(fd);
			if (r > 0)
				return mmf_sys_fail(EOVERFLOW, "read %s (over %zu bytes)",
						    path, n - 1);
			goto done;
		}
	}
	close(fd);
done:
	while (len && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	return len;
}

char *mmf_read_text(const char *path)
{
	size_t len;
	char *text = mmf_read_file(path, &len);

	if (text && !len) {
		free(text);
		text = mmf_xstrdup("");
	}
	return text;
}

int mmf_sysfs_read_u64(const char *path, uint64_t *val)
{
	char buf[64], *end;
	int r = mmf_sysfs_read(path, buf, sizeof(buf));

	if (r < 0)
		return r;
	if (!strcmp(buf, "max")) {
		*val = UINT64_MAX;
		return 0;
	}
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n' && *end != ' '))
		return mmf_sys_fail(EINVAL, "%s: not a number '%s'", path, buf);
	return 0;
}

int mmf_sysfs_write(const char *path, const char *val)
{
	size_t n = strlen(val);
	ssize_t w;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return mmf_sys_fail(errno, "open %s for writing", path);
	do
		w = write(fd, val, n);
	while (w < 0 && errno == EINTR);
	err = errno;
	/* Some stores report their error only at close. */
	if (close(fd) && w >= 0) {
		err = errno;
		w = -1;
	}
	if (w < 0)
		return mmf_sys_fail(err, "write '%s' to %s", val, path);
	if ((size_t)w != n)
		return mmf_sys_fail(EIO, "write '%s' to %s: short write", val, path);
	return 0;
}

void mmf_unescape_octal(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

bool mmf_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '[' || p[-1] == '\n';
		bool end = !p[n] || p[n] == ' ' || p[n] == ']' || p[n] == '\n';

		if (start && end)
			return true;
	}
	return false;
}

int mmf_knob_value(const char *raw, char *out, size_t n)
{
	const char *open = strchr(raw, '['), *close;
	size_t len;

	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		raw = open + 1;
		len = close - raw;
	} else {
		len = strlen(raw);
		while (len && (raw[len - 1] == '\n' || raw[len - 1] == ' '))
			len--;
	}
	if (len >= n)
		return mmf_sys_fail(EOVERFLOW, "knob value '%s' too long", raw);
	memcpy(out, raw, len);
	out[len] = '\0';
	return len;
}

/* key: the knob's path, arg: the value to write back. */
static int knob_undo(const char *path, const char *old)
{
	int ret = mmf_sysfs_write(path, old ? old : "");

	return ret == -ENOENT ? MMF_UNDO_GONE : ret;
}

static void knob_describe(struct strbuf *sb, const char *path, const char *old)
{
	mmf_sb_printf(sb, "restore %s = '%s'", path, old ? old : "");
}

const struct mmf_journal_kind mmf_jk_knob = {
	.name = "knob",
	.check = mmf_journal_check_path,
	.undo = knob_undo,
	.describe = knob_describe,
};
MMF_JOURNAL_KIND(mmf_jk_knob);

int mmf_knob_set(struct mmf_journal *j, const char *path, const char *val)
{
	char raw[4096], old[4096];
	int r;

	if (!mmf_journal_has(j, &mmf_jk_knob, path)) {
		r = mmf_sysfs_read(path, raw, sizeof(raw));
		if (r < 0)
			return r;
		r = mmf_knob_value(raw, old, sizeof(old));
		if (r < 0)
			return r;
		r = mmf_journal_add(j, &mmf_jk_knob, path, old);
		if (r < 0)
			return r;
	}
	return mmf_sysfs_write(path, val);
}
