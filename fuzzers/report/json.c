// SPDX-License-Identifier: GPL-2.0
/* Reports as JSON objects, one per line, for scripts and the dashboard. */
#include <string.h>

#include "report/report.h"

void mmf_report_json(const struct mmf_report *r, const char *file, struct strbuf *sb)
{
	mmf_sb_puts(sb, "{");
	if (file) {
		mmf_sb_puts(sb, "\"file\":");
		mmf_sb_json_str(sb, file);
		mmf_sb_puts(sb, ",");
	}
	mmf_sb_puts(sb, "\"title\":");
	mmf_sb_json_str(sb, r->title);
	mmf_sb_puts(sb, ",\"alt_titles\":[");
	for (int i = 0; i < r->nr_alt; i++) {
		if (i)
			mmf_sb_puts(sb, ",");
		mmf_sb_json_str(sb, r->alt_titles[i]);
	}
	mmf_sb_puts(sb, "],\"type\":");
	mmf_sb_json_str(sb, r->type);
	mmf_sb_puts(sb, ",\"frame\":");
	if (r->frame)
		mmf_sb_json_str(sb, r->frame);
	else
		mmf_sb_puts(sb, "null");
	mmf_sb_printf(sb, ",\"corrupted\":%s,\"start\":%zu,\"end\":%zu,\"text\":",
		  r->corrupted ? "true" : "false", r->start, r->end);
	mmf_sb_json_str(sb, r->text);
	mmf_sb_puts(sb, "}");
}
