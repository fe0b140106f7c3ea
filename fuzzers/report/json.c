// SPDX-License-Identifier: GPL-2.0
/* Reports as JSON objects, one per line, for scripts and the dashboard. */
#include <string.h>

#include "report/report.h"

void mmf_report_json(const struct mmf_report *r, const char *file, struct strbuf *sb)
{
	sb_puts(sb, "{");
	if (file) {
		sb_puts(sb, "\"file\":");
		sb_json_str(sb, file);
		sb_puts(sb, ",");
	}
	sb_puts(sb, "\"title\":");
	sb_json_str(sb, r->title);
	sb_puts(sb, ",\"alt_titles\":[");
	for (int i = 0; i < r->nr_alt; i++) {
		if (i)
			sb_puts(sb, ",");
		sb_json_str(sb, r->alt_titles[i]);
	}
	sb_puts(sb, "],\"type\":");
	sb_json_str(sb, r->type);
	sb_puts(sb, ",\"frame\":");
	if (r->frame)
		sb_json_str(sb, r->frame);
	else
		sb_puts(sb, "null");
	sb_printf(sb, ",\"corrupted\":%s,\"start\":%zu,\"end\":%zu,\"text\":",
		  r->corrupted ? "true" : "false", r->start, r->end);
	sb_json_str(sb, r->text);
	sb_puts(sb, "}");
}
