// SPDX-License-Identifier: GPL-2.0
/*
 * Is a report whole? A corrupted report's title may be wrong or vague, so
 * whoever triages it should look for a better copy of the same bug.
 */
#include <string.h>

#include "report/internal.h"

/*
 * A report needs a stack trace, and each stack trace header (the first of
 * each kind) a frame within the 15 lines after it.
 */
static bool missing_stack(const struct oops_fmt *f, const char *text, size_t len)
{
	bool has_stack = false;

	if (!f || (f->flags & OOPS_NO_STACK))
		return false;
	for (const char *const *key = mmf_stack_starts; *key; key++) {
		struct rx_match m;
		size_t ls, le, nlines = 1;
		bool framed = false;

		if (!mmf_rx_find(*key, text, 0, len, &m))
			continue;
		for (ls = line_end(text, m.so, len); ls < len && nlines < 4;
		     ls = line_end(text, ls + 1, len))
			nlines++;
		if (nlines < 4)
			return true;
		ls = line_end(text, m.so, len) + 1;
		for (int i = 0; i < 15 && ls <= len; i++, ls = le + 1) {
			le = line_end(text, ls, len);
			if (mmf_is_stack_start(text, ls, le))
				break;
			if (memmem(text + ls, le - ls, "(stack is not available)", 24) ||
			    mmf_is_frame_line(text, ls, le)) {
				framed = true;
				break;
			}
		}
		if (!framed)
			return true;
		has_stack = true;
	}
	return !has_stack;
}

/*
 * x86 brackets each task stack dump in <TASK> ... </TASK> (since 5.16): an
 * unclosed one means the output stopped in the middle of a stack trace.
 */
static bool cut_in_stack(const char *text, size_t len)
{
	int open = 0;

	for (size_t ls = 0, le; ls < len; ls = le + 1) {
		size_t i;

		le = line_end(text, ls, len);
		for (i = ls; i < le && text[i] == ' '; i++)
			;
		if (le - i == 6 && !memcmp(text + i, "<TASK>", 6))
			open++;
		else if (le - i == 7 && !memcmp(text + i, "</TASK>", 7) && open)
			open--;
	}
	return open;
}

bool mmf_report_corrupted(const struct title_result *tr, const char *text, size_t titled,
		      size_t len)
{
	return tr->corrupted ||
	       /* a timestamp inside the title: lines got merged */
	       mmf_rx_find("\\[ *[0-9]+\\.[0-9]+\\]", tr->title, 0, strlen(tr->title), NULL) ||
	       missing_stack(tr->fmt, text, len) ||
	       cut_in_stack(text, titled);
}
