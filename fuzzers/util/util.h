/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers every layer may use: allocation that never returns NULL,
 * a growable string buffer, whole-file reads and error messages.
 */
#ifndef MMF_UTIL_H
#define MMF_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/*
 * Each argument evaluated once (MIN(left, rand()) drew twice and could
 * return the draw it never compared), in the type ?: gives them both.
 */
#define MMF_PICK_(a, b, op) ({							\
	__typeof__(1 ? (a) : (b)) mmf_pick_a_ = (a), mmf_pick_b_ = (b);		\
	mmf_pick_a_ op mmf_pick_b_ ? mmf_pick_a_ : mmf_pick_b_; })
#define MIN(a, b) MMF_PICK_(a, b, <)
#define MAX(a, b) MMF_PICK_(a, b, >)

/* The command name used as prefix of every error message. */
extern const char *mmf_progname;

void *mmf_xmalloc(size_t n);
void *mmf_xcalloc(size_t nmemb, size_t n);
void *mmf_xrealloc(void *p, size_t n);
char *mmf_xstrdup(const char *s);
char *mmf_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *mmf_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* "mmfuzz: <msg>" on stderr; mmf_die() also exits with status 1. */
void mmf_warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mmf_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

void mmf_sb_init(struct strbuf *sb);
void mmf_sb_free(struct strbuf *sb);
void mmf_sb_add(struct strbuf *sb, const char *s, size_t n);
void mmf_sb_puts(struct strbuf *sb, const char *s);
void mmf_sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mmf_sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* Hand the NUL-terminated buffer to the caller; sb is empty after. */
char *mmf_sb_detach(struct strbuf *sb);
/* Append s (NULL: "") as a JSON string; invalid UTF-8 becomes U+FFFD, so the output is valid. */
void mmf_sb_json_str(struct strbuf *sb, const char *s);
/*
 * Append s as HTML text (also inside an attribute's quotes): & < > " ' as
 * entities, invalid UTF-8 and control characters but tab as U+FFFD.
 */
void mmf_sb_html(struct strbuf *sb, const char *s);

/* s on one line: newline as \\n, backslash as \\\\; and back (malloc'ed). */
void mmf_sb_escaped_line(struct strbuf *sb, const char *s);
char *mmf_unescape_line(const char *s);

/* Read a whole file; NULL with errno set on failure. *len excludes the NUL. */
char *mmf_read_file(const char *path, size_t *len);
/* write(2) all of buf, retrying on EINTR and short writes. */
int mmf_write_all(int fd, const void *buf, size_t n);
/* Write a file atomically: temp file in the same dir, fsync, rename. */
int mmf_write_file_atomic(const char *path, const void *buf, size_t n);
/* The same, but never over an existing file: EEXIST then (link(2)). */
int mmf_write_file_new(const char *path, const void *buf, size_t n);
/* mkdir -p; 0 or -1 with errno. */
int mmf_mkdir_p(const char *path, unsigned int mode);
/* A directory (or a link to one) is there. */
bool mmf_is_dir(const char *path);

/*
 * In a forked child: get sig when the parent (its pid from before the
 * fork) dies, and exit with status at once if it already has. The parent
 * may have been gone before the signal was armed, and the child then
 * belongs to a reaper that need not be pid 1.
 */
void mmf_die_with_parent(pid_t parent, int sig, int status);

/*
 * s[0, n) as a hex number, "0x" optional: at most 16 digits and nothing
 * else. False if it is not one.
 */
bool mmf_parse_hex_u64(const char *s, size_t n, uint64_t *v);
/* b[0, n) as 2n lower-case hex digits at out, NUL after them. */
void mmf_hex_put(char *out, const uint8_t *b, size_t n);
/* 2n hex digits at s into b[0, n); false if they are not that. */
bool mmf_hex_get(const char *s, uint8_t *b, size_t n);
/* FNV-1a of p[0, n) on from h (MMF_FNV64_INIT to start): names, not security. */
#define MMF_FNV64_INIT	0xcbf29ce484222325ull
uint64_t mmf_fnv64(uint64_t h, const void *p, size_t n);
/*
 * In an array of n elements of size bytes, sorted by the uint64_t at off
 * in each: how many have that key <= x (the index of the first greater).
 */
size_t mmf_count_le(const void *v, size_t n, size_t size, size_t off, uint64_t x);
/* Whether s ends with suffix and has more before it. */
bool mmf_has_suffix(const char *s, const char *suffix);

/* Monotonic time in nanoseconds. */
uint64_t mmf_now_ns(void);
/* Parse "10m", "30s", "1h", "250ms" or plain seconds; -1 on error. */
int64_t mmf_parse_duration_ms(const char *s);
/* A time left for progress lines: "1h05m" from an hour on, else "4m30s". */
const char *mmf_fmt_left(char buf[24], int64_t secs);

#endif
