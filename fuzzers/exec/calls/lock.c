// SPDX-License-Identifier: GPL-2.0
/* The lock family: mlock and its kin, by raw syscall(2) (ASan makes mlock a no-op). */
#include <sys/syscall.h>
#include <unistd.h>

#include "exec/calls.h"

long mmf_exec_mlock(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ret(syscall(SYS_mlock, addr, len));
}

long mmf_exec_mlock2(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ret(syscall(SYS_mlock2, addr, len, s->args[3]));
}

long mmf_exec_munlock(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ret(syscall(SYS_munlock, addr, len));
}

long mmf_exec_mlockall(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_ret(syscall(SYS_mlockall, s->args[0]));
}

long mmf_exec_munlockall(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_ret(syscall(SYS_munlockall));
}
