/* SPDX-License-Identifier: GPL-2.0 */
/* QEMU's machine protocol, within the vm layer only (snapshot.c). */
#ifndef MMF_VM_QMP_H
#define MMF_VM_QMP_H

#include <stddef.h>

#include "util/util.h"

/* Connect to QEMU's QMP socket and leave negotiation: the fd, or -1 and err. */
int mmf_qmp_open(const char *path, int timeout_ms, char *err, size_t n);
/* One command (a JSON object); its "return" line into reply. 0, or -1 and err. */
int mmf_qmp_cmd(int fd, const char *json, struct strbuf *reply, int timeout_ms, char *err,
		size_t n);
/* The string value of "key" in a reply, into buf: 0, or -1 if none. */
int mmf_qmp_value(const char *reply, const char *key, char *buf, size_t n);

#endif
