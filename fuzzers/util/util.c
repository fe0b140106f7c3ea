// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "util/util.h"

const char *mmf_progname = "mmfuzz";

void *mmf_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		mmf_die("out of memory (%zu bytes)", n);
	return p;
}

void *mmf_xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		mmf_die("out of memory (%zu x %zu bytes)", nmemb, n);
	return p;
}

void *mmf_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		mmf_die("out of memory (%zu bytes)", n);
	return p;
}

char *mmf_xstrdup(const char *s)
{
	return strcpy(mmf_xmalloc(strlen(s) + 1), s);
}

char *mmf_xvasprintf(const char *fmt, va_list ap)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_sb_vprintf(&sb, fmt, ap);
	return mmf_sb_detach(&sb);
}

char *mmf_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = mmf_xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static void vmsg(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", mmf_progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void mmf_warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void mmf_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(1);
}

void mmf_sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void mmf_sb_free(struct strbuf *sb)
{
	free(sb->buf);
	mmf_sb_init(sb);
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	sb->cap = MAX(sb->cap * 2, sb->len + extra + 64);
	sb->buf = mmf_xrealloc(sb->buf, sb->cap);
	/* Always a string, also when nothing was added (an empty file). */
	sb->buf[sb->len] = '\0';
}

void mmf_sb_add(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void mmf_sb_puts(struct strbuf *sb, const char *s)
{
	mmf_sb_add(sb, s, strlen(s));
}

void mmf_sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	char probe[1];
	int n;

	va_copy(cp, ap);
	n = vsnprintf(probe, sizeof(probe), fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	sb_grow(sb, n);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	sb->len += n;
}

void mmf_sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mmf_sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *mmf_sb_detach(struct strbuf *sb)
{
	char *s;

	if (!sb->buf)
		return mmf_xstrdup("");
	s = sb->buf;
	mmf_sb_init(sb);
	return s;
}

char *mmf_read_file(const char *path, size_t *len)
{
	struct strbuf sb;
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	mmf_sb_init(&sb);
	sb_grow(&sb, 0);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = errno;
			close(fd);
			mmf_sb_free(&sb);
			errno = n;
			return NULL;
		}
		mmf_sb_add(&sb, chunk, n);
	}
	close(fd);
	if (len)
		*len = sb.len;
	return mmf_sb_detach(&sb);
}

int mmf_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

/* Write to a temp file beside path, fsync, then rename or link it in. */
static int write_via_temp(const char *path, const void *buf, size_t n, bool replace)
{
	char *tmp = mmf_xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd, err = 0;

	/* A temp of this name is a dead writer's (pid reuse): truncate it. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	if (mmf_write_all(fd, buf, n) || fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && (replace ? rename(tmp, path) : link(tmp, path)))
		err = errno;
	if (err || !replace)
		unlink(tmp);
out:
	free(tmp);
	errno = err;
	return err ? -1 : 0;
}

int mmf_write_file_atomic(const char *path, const void *buf, size_t n)
{
	return write_via_temp(path, buf, n, true);
}

int mmf_write_file_new(const char *path, const void *buf, size_t n)
{
	return write_via_temp(path, buf, n, false);
}

bool mmf_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int mmf_mkdir_p(const char *path, unsigned int mode)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -1;
	return 0;
}

uint64_t mmf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int64_t mmf_parse_duration_ms(const char *s)
{
	static const struct {
		const char *suffix;
		int64_t ms;
	} units[] = {
		{ "ms", 1 }, { "s", 1000 }, { "", 1000 }, { "m", 60000 },
		{ "h", 3600000 }, { "d", 86400000 },
	};
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || v < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(end, units[i].suffix))
			return v * units[i].ms;
	return -1;
}

/* Length of the valid UTF-8 sequence at s, 0 if there is none. */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are invalid too */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void mmf_sb_json_str(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	mmf_sb_add(sb, "\"", 1);
	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			mmf_sb_puts(sb, "\\ufffd");
			s++;
		} else if (*s == '"' || *s == '\\') {
			mmf_sb_printf(sb, "\\%c", *s++);
		} else if (*s == '\n') {
			mmf_sb_puts(sb, "\\n");
			s++;
		} else if (*s == '\t') {
			mmf_sb_puts(sb, "\\t");
			s++;
		} else if (*s < 0x20 || *s == 0x7f) {
			mmf_sb_printf(sb, "\\u%04x", *s++);
		} else {
			mmf_sb_add(sb, (const char *)s, n);
			s += n;
		}
	}
	mmf_sb_add(sb, "\"", 1);
}

void mmf_sb_html(struct strbuf *sb, const char *str)
{
	static const struct {
		char c;
		const char *ent;
	} ents[] = {
		{ '&', "&amp;" }, { '<', "&lt;" }, { '>', "&gt;" }, { '"', "&quot;" },
		{ '\'', "&#39;" },
	};
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t n = utf8_len(s), i;

		for (i = 0; i < ARRAY_SIZE(ents) && ents[i].c != (char)*s; i++)
			;
		if (i < ARRAY_SIZE(ents))
			mmf_sb_puts(sb, ents[i].ent);
		else if (!n || (*s < ' ' && *s != '\t') || *s == 0x7f)
			mmf_sb_puts(sb, "&#xfffd;");
		else
			mmf_sb_add(sb, (const char *)s, n);
		s += n ? n : 1;
	}
}

bool mmf_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

uint64_t mmf_fnv64(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const uint8_t *)p)[i]) * 0x100000001b3ull;
	return h;
}

size_t mmf_count_le(const void *v, size_t n, size_t size, size_t off, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, (const char *)v + mid * size + off, sizeof(k));
		if (k <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool mmf_parse_hex_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (!n || n > 16)
		return false;
	for (size_t i = 0; i < n; i++) {
		int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' :
			s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10 :
			s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10 : -1;

		if (d < 0)
			return false;
		x = x << 4 | d;
	}
	*v = x;
	return true;
}

void mmf_hex_put(char *out, const uint8_t *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		*out++ = digits[b[i] >> 4];
		*out++ = digits[b[i] & 15];
	}
	*out = '\0';
}

bool mmf_hex_get(const char *s, uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		if (!mmf_parse_hex_u64(s + 2 * i, 2, &v))
			return false;
		b[i] = v;
	}
	return true;
}

void mmf_die_with_parent(pid_t parent, int sig, int status)
{
	prctl(PR_SET_PDEATHSIG, sig);
	if (getppid() != parent)
		_exit(status);
}

void mmf_sb_escaped_line(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\n')
			mmf_sb_puts(sb, "\\n");
		else if (*s == '\\')
			mmf_sb_puts(sb, "\\\\");
		else
			mmf_sb_add(sb, s, 1);
	}
}

char *mmf_unescape_line(const char *s)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (; *s; s++) {
		if (*s == '\\' && (s[1] == 'n' || s[1] == '\\')) {
			mmf_sb_add(&sb, s[1] == 'n' ? "\n" : "\\", 1);
			s++;
		} else {
			mmf_sb_add(&sb, s, 1);
		}
	}
	if (!sb.buf)
		mmf_sb_add(&sb, "", 0);
	return mmf_sb_detach(&sb);
}

const char *mmf_fmt_left(char buf[24], int64_t secs)
{
	long long s = secs > 0 ? secs : 0;

	if (s >= 3600)
		snprintf(buf, 24, "%lldh%02lldm", s / 3600, s / 60 % 60);
	else
		snprintf(buf, 24, "%lldm%02llds", s / 60, s % 60);
	return buf;
}
