/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swap devices of our own: swap files and zram devices, each journaled
 * before it is made, plus /proc/swaps parsing and raw swapon/swapoff.
 * Errors follow sys/sysfs.h: -errno, message in mmf_sys_err().
 */
#ifndef MMF_SYS_SWAPDEV_H
#define MMF_SYS_SWAPDEV_H

#include <limits.h>
#include <stdint.h>

struct mmf_journal;
struct mmf_journal_kind;

/* Highest priority swapon(2) accepts (SWAP_FLAG_PRIO_MASK). */
#define MMF_SWAP_PRIO_MAX 32767

/*
 * Create dir/mmfuzz-swap.<pid>.<n> of size_bytes (rounded down to pages,
 * at least 10 pages) by writing zeros, with a v1 swap header, and swapon it
 * at prio (< 0: let the kernel pick a priority). dir must exist; NULL means
 * /var/tmp. out_path (PATH_MAX bytes, may be NULL) receives the path.
 */
int mmf_swapfile_add(struct mmf_journal *j, const char *dir, uint64_t size_bytes,
		     int prio, char *out_path);

/*
 * Hot-add a zram device (loading the zram module if needed), prefer the
 * lzo-rle compressor, set disksize, write a swap header and swapon it.
 * out_path (PATH_MAX bytes, may be NULL) receives "/dev/zramN".
 */
int mmf_zram_add(struct mmf_journal *j, uint64_t size_bytes, int prio, char *out_path);

/*
 * Undo one device made by the two functions above (or a loop device of
 * sys/loopdev.h), now: swapoff, then remove the file, zram or loop device.
 * -EPERM for a device that is not in j; -ENOMEM from swapoff leaves
 * everything in place (swap is full).
 */
int mmf_swapdev_remove(struct mmf_journal *j, const char *path);

struct mmf_swap_info {
	char path[PATH_MAX];	/* unescaped; a deleted file ends in " (deleted)" */
	char type[16];		/* "file" or "partition" */
	uint64_t size_kb;
	uint64_t used_kb;
	int prio;
};

/*
 * Parse /proc/swaps into a malloc'd array (free() it). Returns the number
 * of entries (*list NULL if 0) or -errno.
 */
int mmf_swap_list(struct mmf_swap_info **list);
/* Look one path up in /proc/swaps: 1 found (info filled), 0 not, -errno. */
int mmf_swap_find(const char *path, struct mmf_swap_info *info);

/*
 * Raw swapon/swapoff, not journaled: for the executor's syscalls on devices
 * that are already ours (check with mmf_journal_has()). mmf_swapon() takes
 * prio < 0 as "kernel default". Both return 0 or -errno; -ENOMEM from
 * swapoff (cannot page everything back in) is an expected outcome.
 */
int mmf_swapon(const char *path, int prio);
int mmf_swapoff(const char *path);
/* Journal the swapon of a device of ours, then swapon it (record done on failure). */
int mmf_swapon_journaled(struct mmf_journal *j, const char *path, int prio);

/*
 * Create dir/mmfuzz-<kind>.<pid>.<n> (NULL dir: /var/tmp) O_EXCL, mode
 * 0600, journaled first; path (PATH_MAX bytes) gets its name. The fd or
 * -errno.
 */
int mmf_swap_file_create(struct mmf_journal *j, const char *dir, const char *kind,
			 char *path);
/* Fill page (page size, zeroed) with a v1 swap header for pages pages. */
void mmf_swap_header(unsigned char *page, uint64_t pages);
/* Pages of a swap area of size_bytes at prio, or -EINVAL/-EFBIG. */
int mmf_swap_check_args(uint64_t size_bytes, int prio, uint64_t *pages);

/*
 * Their records. swapon: key the device or file swapped on. file: key a
 * regular file we created. zram: key the device id ("3" for /dev/zram3).
 */
extern const struct mmf_journal_kind mmf_jk_swapon;
extern const struct mmf_journal_kind mmf_jk_file;
extern const struct mmf_journal_kind mmf_jk_zram;

#endif
