// SPDX-License-Identifier: GPL-2.0
/* The crash store's error line: one per thread, like mmf_sys_err(). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "store/internal.h"

static __thread char store_err[512];

const char *mmf_store_err(void)
{
	return store_err;
}

int mmf_store_fail(int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (err <= 0)	/* a caller passing -errno or 0 still gets a sane line */
		err = err ? -err : EIO;
	va_start(ap, fmt);
	n = vsnprintf(store_err, sizeof(store_err), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(store_err))
		snprintf(store_err + n, sizeof(store_err) - n, ": %s", strerror(err));
	return -err;
}

int mmf_store_msg(int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(store_err, sizeof(store_err), fmt, ap);
	va_end(ap);
	return ret;
}
