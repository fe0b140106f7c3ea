// SPDX-License-Identifier: GPL-2.0
/*
 * A series as it comes: plain diffs, git format-patch files, or one mbox
 * holding the series (b4 am). Each message's subject is what a reviewer
 * knows the patch by; the build applies the text as it is.
 */
#include <stdlib.h>
#include <string.h>

#include "validate/validate.h"

static bool starts(const char *line, const char *prefix)
{
	return !strncmp(line, prefix, strlen(prefix));
}

/* The Subject: header at line, unfolded (RFC 5322 continuation lines). */
static char *subject_at(const char *line)
{
	const char *p = line + strlen("Subject:");
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (;;) {
		size_t len;

		p += strspn(p, " \t");
		len = strcspn(p, "\n");
		if (sb.len)
			mmf_sb_puts(&sb, " ");
		mmf_sb_add(&sb, p, len);
		p += len;
		if (*p != '\n' || (p[1] != ' ' && p[1] != '\t'))
			break;
		p++;
	}
	return mmf_sb_detach(&sb);
}

/* "Name: value": a mail header field (a plain diff starts otherwise). */
static bool header_field(const char *line)
{
	size_t name = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-");

	return name && line[name] == ':';
}

int mmf_val_series_parse(const char *text, struct mmf_val_series *s)
{
	bool header = header_field(text), counted = false;
	char *subject = NULL;

	memset(s, 0, sizeof(*s));
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		/* mbox's separator (never in a hunk, whose lines start ' ', '+', '-'). */
		if (starts(l, "From ")) {
			if (!counted)
				free(subject);
			subject = NULL;
			counted = false;
			header = true;
		} else if (header && *l == '\n') {
			header = false;
		} else if (header && starts(l, "Subject:") && !subject) {
			subject = subject_at(l);
		} else if (!header && !counted && starts(l, "+++ ")) {
			/* The message's first diff: it is a patch (a cover letter is not). */
			s->subject = mmf_xrealloc(s->subject, (s->nr + 1) * sizeof(*s->subject));
			s->subject[s->nr++] = subject;
			counted = true;
		}
	}
	if (!counted)
		free(subject);
	return s->nr;
}

void mmf_val_series_free(struct mmf_val_series *s)
{
	for (int i = 0; i < s->nr; i++)
		free(s->subject[i]);
	free(s->subject);
	memset(s, 0, sizeof(*s));
}
