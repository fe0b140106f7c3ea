/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small sysfs/procfs/cgroupfs file access, journaled knob changes, and the
 * error convention of the whole sys layer:
 *
 *   Every function of fuzzers/sys/ returns 0 (or a count/length) on success
 *   and a negative errno on failure. On failure it also leaves a one-line
 *   description such as "swapon /var/tmp/mmfuzz-swap.12.0: Invalid argument"
 *   in mmf_sys_err(), which callers print as is. The message is per thread
 *   and only valid until the next failing sys call.
 */
#ifndef MMF_SYS_SYSFS_H
#define MMF_SYS_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mmf_journal;
struct mmf_journal_kind;

/* The message of the last failure in this thread ("" if none yet). */
const char *mmf_sys_err(void);
/* Set the message to "<fmt...>: strerror(err)" and return -err. */
int mmf_sys_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Put back a saved message verbatim (after cleanup calls); returns ret. */
int mmf_sys_set_err(int ret, const char *msg);

/*
 * Read a small file into buf (NUL-terminated, trailing newline removed).
 * Returns the length, or -errno; -EOVERFLOW if it does not fit in n - 1 bytes.
 */
int mmf_sysfs_read(const char *path, char *buf, size_t n);
/*
 * mmf_read_file() that also NUL-terminates an empty file (util's mmf_read_file()
 * does not then); NULL with errno set on failure. free() the result.
 */
char *mmf_read_text(const char *path);
/* Read a file holding one unsigned number ("max" reads as UINT64_MAX). */
int mmf_sysfs_read_u64(const char *path, uint64_t *val);
/* Write val with a single write(2), as sysfs stores expect. 0 or -errno. */
int mmf_sysfs_write(const char *path, const char *val);

/* Undo the \ooo escapes of /proc/mounts and /proc/swaps, in place. */
void mmf_unescape_octal(char *s);
/* Whether a space-separated list ("cpu io memory") holds word. */
bool mmf_has_word(const char *list, const char *word);

/*
 * The value of a knob as it must be written back: the bracketed word of a
 * choice knob ("always [madvise] never" -> "madvise"), else the text as is.
 * Returns the length or -EOVERFLOW.
 */
int mmf_knob_value(const char *raw, char *out, size_t n);
/*
 * Journal the knob's current value (first change of a path per journal
 * only, so undo restores the value from before the run), then write val.
 */
int mmf_knob_set(struct mmf_journal *j, const char *path, const char *val);
/* Its records: key the knob's path, arg the value to write back. */
extern const struct mmf_journal_kind mmf_jk_knob;

#endif
