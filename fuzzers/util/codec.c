// SPDX-License-Identifier: GPL-2.0
#include "util/codec.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void mmf_base64_put(struct strbuf *sb, const void *buf, size_t n)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		char q[4];

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		q[0] = b64[v >> 18];
		q[1] = b64[(v >> 12) & 63];
		q[2] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		q[3] = i + 2 < n ? b64[v & 63] : '=';
		mmf_sb_add(sb, q, 4);
	}
}

static int value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

long mmf_base64_get(const char *s, size_t len, unsigned char *out)
{
	long n = 0;

	if (len % 4)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;
		uint32_t w;

		for (int k = 0; k < 4; k++) {
			/* Padding only in the last group, and only at its end. */
			if (s[i + k] == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			v[k] = pad ? -1 : value(s[i + k]);
			if (v[k] < 0)
				return -1;
		}
		w = (uint32_t)v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3];
		out[n++] = w >> 16;
		if (pad < 2)
			out[n++] = (w >> 8) & 0xff;
		if (pad < 1)
			out[n++] = w & 0xff;
	}
	return n;
}

uint32_t mmf_crc32(const void *buf, size_t n)
{
	const unsigned char *p = buf;
	uint32_t crc = ~0u;

	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}
