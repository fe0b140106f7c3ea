/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loop devices of our own, as swap devices backed by a file: journaled
 * before they are made, like swap files and zram.
 * Errors follow sys/sysfs.h: -errno, message in mmf_sys_err().
 */
#ifndef MMF_SYS_LOOPDEV_H
#define MMF_SYS_LOOPDEV_H

#include <stdint.h>

struct mmf_journal;

/*
 * Create dir/mmfuzz-loop.<pid>.<n> (NULL dir: /var/tmp) of size_bytes,
 * attach it to a free loop device (direct I/O where the file system allows
 * it, so swap-out does not go through the page cache twice), write a swap
 * header and swapon it at prio. out_path (PATH_MAX bytes) gets "/dev/loopN".
 */
int mmf_loop_swap_add(struct mmf_journal *j, const char *dir, uint64_t size_bytes, int prio,
		      char *out_path);

/* mmf_swapdev_remove() for a loop device: swapoff, detach, remove its file. */
int mmf_loop_swap_remove(struct mmf_journal *j, const char *dev);

#endif
