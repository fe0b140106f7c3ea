/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bytes as text a console keeps: base64 (RFC 4648, with padding) and the
 * CRC-32 (IEEE 802.3, as zlib's crc32()) that tells a damaged line.
 */
#ifndef MMF_UTIL_CODEC_H
#define MMF_UTIL_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/* Characters base64 needs for n bytes, padding included. */
#define MMF_BASE64_LEN(n)	(((n) + 2) / 3 * 4)

void mmf_base64_put(struct strbuf *sb, const void *buf, size_t n);
/* Decode s[0..len) into out (room for len / 4 * 3): its size, or -1 if not base64. */
long mmf_base64_get(const char *s, size_t len, unsigned char *out);

uint32_t mmf_crc32(const void *buf, size_t n);

#endif
