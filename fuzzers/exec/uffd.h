/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userfaultfd in the executor: one uffd per program process, made by
 * uffd_create or lazily by the first uffd call, and a handler thread that
 * resolves its faults the way the shadow model assumes.
 */
#ifndef MMF_EXEC_UFFD_H
#define MMF_EXEC_UFFD_H

#include "exec/interp.h"

/* The process's uffd, made on first use; -errno when none can be. */
long mmf_uffd_fd(struct mmf_interp *in);
/* Replace it with a new one (via: 0 the syscall, 1 /dev/userfaultfd) asking
 * for features; 0 or -errno.
 */
long mmf_uffd_new(struct mmf_interp *in, int via, uint64_t features);
/* ioctl(2) on a uffd, again on EINTR. */
int mmf_uffd_ioctl(int fd, unsigned long req, void *arg);

/* In a fork child: drop the inherited uffd (it works on the parent's mm). */
void mmf_uffd_forked(struct mmf_interp *in);
/* At the end of the program: stop the handler, close every uffd. */
void mmf_uffd_stop(struct mmf_interp *in);

#endif
