// SPDX-License-Identifier: GPL-2.0
/* The guest fuzzer's options: every command puts them together here. */
#include <stdarg.h>
#include <stdio.h>

#include "vm/vm.h"

static void add(struct mmf_guest_argv *a, const char *s)
{
	if (a->n >= MMF_GUEST_ARGV_MAX) {
		a->full = true;
		return;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void mmf_guest_argv_opt(struct mmf_guest_argv *a, const char *opt, const char *fmt, ...)
{
	va_list ap;
	char *val;

	if (a->nr_vals >= (int)(sizeof(a->vals) / sizeof(a->vals[0]))) {
		a->full = true;
		return;
	}
	val = a->vals[a->nr_vals++];
	va_start(ap, fmt);
	if (vsnprintf(val, sizeof(a->vals[0]), fmt, ap) >= (int)sizeof(a->vals[0]))
		a->full = true;
	va_end(ap);
	add(a, opt);
	add(a, val);
}

void mmf_guest_argv_timeout(struct mmf_guest_argv *a, enum mmf_vm_accel accel)
{
	mmf_guest_argv_opt(a, "--timeout", "%ds", MMF_VM_PROG_MS / 1000 * mmf_vm_slowdown(accel));
}

void mmf_guest_argv_pair(struct mmf_guest_argv *a, const char *opt, const char *val)
{
	add(a, opt);
	add(a, val);
}

void mmf_guest_argv_list(struct mmf_guest_argv *a, const char *const *list)
{
	for (int i = 0; list && list[i]; i++)
		add(a, list[i]);
}

int mmf_guest_argv_check(const struct mmf_guest_argv *a, char *err, size_t n)
{
	if (!a->full)
		return 0;
	snprintf(err, n, "more than %d options for the guest's fuzzer", MMF_GUEST_ARGV_MAX);
	return -1;
}
