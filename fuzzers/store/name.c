// SPDX-License-Identifier: GPL-2.0
/*
 * Titles and the directory names made from them. A title is the bug's
 * identity, so it is kept byte for byte (no UTF-8 repair); the directory
 * name only has to be readable and unique, which the hash of the exact
 * title takes care of.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"

/* Readable part of a directory name, before "-<hash>". */
#define SLUG_MAX 80

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

char *mmf_store_title(const char *raw)
{
	struct strbuf sb;
	const char *s = raw, *end = raw + strlen(raw);

	while (s < end && is_space(*s))
		s++;
	while (end > s && is_space(end[-1]))
		end--;
	if (s == end)
		return NULL;
	mmf_sb_init(&sb);
	/* A title is one line: a title file and a list line hold one each. */
	while (s < end) {
		size_t n = strcspn(s, "\r\n");

		if (n > (size_t)(end - s))
			n = end - s;
		mmf_sb_add(&sb, s, n);
		s += n;
		if (s < end) {
			mmf_sb_add(&sb, " ", 1);
			s += strspn(s, "\r\n");
		}
	}
	return mmf_sb_detach(&sb);
}

/* FNV-1a, folded to 32 bits: short, stable across builds and machines. */
static uint32_t title_hash(const char *t)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *t; t++)
		h = (h ^ (unsigned char)*t) * 0x100000001b3ull;
	return (uint32_t)(h ^ (h >> 32));
}

static bool slug_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.';
}

char *mmf_store_dir_name(const char *title)
{
	char slug[SLUG_MAX + 1];
	size_t n = 0;

	for (const char *p = title; *p && n < SLUG_MAX; p++) {
		if (slug_char(*p) && !(n == 0 && *p == '.'))
			slug[n++] = *p;
		else if (n && slug[n - 1] != '_')
			slug[n++] = '_';	/* '/', spaces, ':', non-ASCII */
	}
	while (n && slug[n - 1] == '_')
		n--;
	slug[n] = '\0';
	return mmf_xasprintf("%s-%08x", n ? slug : "bug", title_hash(title));
}
