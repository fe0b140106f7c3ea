// SPDX-License-Identifier: GPL-2.0
/* A bug's meta file: "key: value" lines, read, merged and replaced whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"

/* Long enough for any uname -r -v or config hash; bounds a corrupt value. */
#define VALUE_MAX 512

void mmf_meta_init(struct meta *m)
{
	m->count = m->corrupted = 0;
	m->first[0] = m->last[0] = '\0';
	m->arch = mmf_xstrdup("");
	m->kernel = mmf_xstrdup("");
	m->repro = mmf_xstrdup("none");
	m->found_by = mmf_xstrdup("");
}

void mmf_meta_free(struct meta *m)
{
	free(m->arch);
	free(m->kernel);
	free(m->repro);
	free(m->found_by);
}

char *mmf_meta_value(const char *s)
{
	char *v = mmf_xstrdup(s ? s : ""), *p, *end;

	if (strlen(v) > VALUE_MAX)
		v[VALUE_MAX] = '\0';
	/* Control bytes (a newline above all) would forge or cut a line. */
	for (p = v; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = ' ';
	for (p = v; *p == ' '; p++)
		;
	memmove(v, p, strlen(p) + 1);
	for (end = v + strlen(v); end > v && end[-1] == ' '; end--)
		;
	*end = '\0';
	return v;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = mmf_meta_value(v);
}

static void set_time(char *dst, const char *v)
{
	/* Only our own fixed format: comparing them as strings orders them. */
	if (strlen(v) == 20 && v[4] == '-' && v[10] == 'T' && v[19] == 'Z')
		memcpy(dst, v, 21);
}

static void parse_line(struct meta *m, char *line)
{
	char *v = strstr(line, ": ");

	if (!v)
		return;
	*v = '\0';
	v += 2;
	if (!strcmp(line, "count"))
		m->count = MAX(0, strtol(v, NULL, 10));
	else if (!strcmp(line, "corrupted"))
		m->corrupted = MAX(0, strtol(v, NULL, 10));
	else if (!strcmp(line, "first_seen"))
		set_time(m->first, v);
	else if (!strcmp(line, "last_seen"))
		set_time(m->last, v);
	else if (!strcmp(line, "arch"))
		set_str(&m->arch, v);
	else if (!strcmp(line, "kernel"))
		set_str(&m->kernel, v);
	else if (!strcmp(line, "repro"))
		set_str(&m->repro, v);
	else if (!strcmp(line, "found_by"))
		set_str(&m->found_by, v);
	/* other keys: written by a newer mmfuzz, ignored */
}

int mmf_meta_read(const char *bugdir, struct meta *m)
{
	char *path = mmf_xasprintf("%s/meta", bugdir), *s, *line, *save;
	int err;

	s = mmf_read_file(path, NULL);
	err = errno;
	free(path);
	if (!s)
		return err == ENOENT ? 0 : -err;
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		parse_line(m, line);
	free(s);
	return 0;
}

int mmf_meta_write(const char *bugdir, const struct meta *m)
{
	char *path = mmf_xasprintf("%s/meta", bugdir);
	char corrupted[40] = "", *found_by = NULL;
	char *s;
	int ret;

	if (m->corrupted)
		snprintf(corrupted, sizeof(corrupted), "corrupted: %ld\n", m->corrupted);
	if (*m->found_by)
		found_by = mmf_xasprintf("found_by: %s\n", m->found_by);
	s = mmf_xasprintf("count: %ld\n%sfirst_seen: %s\nlast_seen: %s\narch: %s\n"
			  "kernel: %s\nrepro: %s\n%s", m->count, corrupted, m->first, m->last,
			  m->arch, m->kernel, m->repro, found_by ? found_by : "");
	free(found_by);
	ret = mmf_write_file_atomic(path, s, strlen(s)) ? -errno : 0;
	free(path);
	free(s);
	return ret;
}

void mmf_iso_time(time_t t, char buf[32])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* arch keeps every architecture the bug was seen on, in order of arrival. */
static void add_arch(struct meta *m, const char *arch)
{
	char *a = mmf_meta_value(arch), *w, *save, *copy;
	bool found = false;

	for (char *p = a; *p; p++)	/* one word */
		if (*p == ' ')
			*p = '_';
	copy = mmf_xstrdup(m->arch);
	for (w = strtok_r(copy, " ", &save); w && !found; w = strtok_r(NULL, " ", &save))
		found = !strcmp(w, a);
	free(copy);
	if (*a && !found) {
		char *n = *m->arch ? mmf_xasprintf("%s %s", m->arch, a) : mmf_xstrdup(a);

		free(m->arch);
		m->arch = n;
	}
	free(a);
}

void mmf_meta_merge(struct meta *m, const struct mmf_crash *c, time_t when)
{
	char t[32];

	mmf_iso_time(when, t);
	m->count++;
	m->corrupted += c->corrupted;
	/* The first occurrence says what found the bug; an earlier one arriving late, too. */
	if (c->origin && (!*m->found_by || !*m->first || strcmp(t, m->first) < 0))
		set_str(&m->found_by, c->origin);
	if (!*m->first || strcmp(t, m->first) < 0)
		memcpy(m->first, t, sizeof(t));
	/* Guests report late: the newest occurrence names the kernel. */
	if (!*m->last || strcmp(t, m->last) >= 0) {
		memcpy(m->last, t, sizeof(t));
		if (c->kernel)
			set_str(&m->kernel, c->kernel);
	}
	if (c->arch)
		add_arch(m, c->arch);
}
