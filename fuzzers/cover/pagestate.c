// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "cover/pagestate.h"

const char *mmf_page_state_name(uint8_t st, char *buf, size_t n)
{
	static const char *const names[] = {
		"present", "swapped", "exclusive", "file/shared", "thp", "mlocked",
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (st >> i & 1 && len < n)
			len += snprintf(buf + len, n - len, "%s%s", len ? "," : "", names[i]);
	if (!len)
		snprintf(buf, n, "none");
	return buf;
}
