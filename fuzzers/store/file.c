// SPDX-License-Identifier: GPL-2.0
/* File primitives of the crash store: exclusive creation, names of slots. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/internal.h"

/* What is saved is never overwritten, nor seen half written. */
int mmf_put_new(const char *path, const char *buf, size_t n)
{
	return mmf_write_file_new(path, buf, n) ? -errno : 0;
}

bool mmf_is_temp_name(const char *name)
{
	const char *t = strstr(name, ".tmp.");

	if (!t || !t[5])
		return false;
	for (t += 5; *t; t++)
		if (!isdigit((unsigned char)*t))
			return false;
	return true;
}

int mmf_slot_of(const char *name, const char *prefix, const char *suffix)
{
	size_t pl = strlen(prefix);
	const char *p = name + pl;
	long n = 0;

	if (strncmp(name, prefix, pl) || !isdigit((unsigned char)*p))
		return -1;
	/* "report.01" is not slot 1: only the names we write count. */
	if (*p == '0' && isdigit((unsigned char)p[1]))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		n = n * 10 + (*p - '0');
		if (n > 1000000)
			return -1;
	}
	return strcmp(p, suffix) ? -1 : (int)n;
}

/* The files of one kept occurrence, N in the middle of each name. */
static const struct {
	const char *prefix, *suffix;
	unsigned int bit;
} occ_files[] = {
	{ "report.", "", MMF_OCC_REPORT },
	{ "report.", ".sym", MMF_OCC_SYM },
	{ "log.", "", MMF_OCC_LOG },
	{ "progs.", "", MMF_OCC_PROGS },
};

unsigned int mmf_occ_file(const char *name, int *n)
{
	for (size_t i = 0; i < ARRAY_SIZE(occ_files); i++) {
		*n = mmf_slot_of(name, occ_files[i].prefix, occ_files[i].suffix);
		if (*n >= 0)
			return occ_files[i].bit;
	}
	return 0;
}
