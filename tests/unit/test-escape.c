// SPDX-License-Identifier: GPL-2.0
/*
 * The one-line escape that carries a report's text over a serving guest's
 * control channel: no newline is left, and every text comes back whole.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/util.h"

static void test_escape(void)
{
	static const char *const texts[] = { "", "one line", "BUG: x\n  at y\\z\n", "\\n is not a newline",
				"\n\n\\\\" };

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct strbuf sb;
		char *back;

		mmf_sb_init(&sb);
		mmf_sb_escaped_line(&sb, texts[i]);
		CHECK(!sb.buf || !strchr(sb.buf, '\n'), "a newline left in '%s'", sb.buf);
		back = mmf_unescape_line(sb.buf ? sb.buf : "");
		CHECK(!strcmp(back, texts[i]), "'%s' came back as '%s'", texts[i], back);
		free(back);
		mmf_sb_free(&sb);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(test_escape),
};

int main(void)
{
	return tap_run(tests);
}
