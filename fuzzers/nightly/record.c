// SPDX-License-Identifier: GPL-2.0
/* A night's record: S/nights/ID/{night,bugs,summary.json}. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "nightly/nightly.h"

int mmf_night_make(const char *store, char **id_out, char **dir_out, char *err, size_t n)
{
	char id[32], *nights = mmf_xasprintf("%s/nights", store), *nid = NULL, *dir = NULL;
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(id, sizeof(id), "%Y%m%dT%H%M%SZ", &tm);
	if (mmf_mkdir_p(nights, 0755)) {
		snprintf(err, n, "cannot create %s: %s", nights, strerror(errno));
		free(nights);
		return -1;
	}
	for (int k = 1; !dir; k++) {
		nid = k == 1 ? mmf_xstrdup(id) : mmf_xasprintf("%s-%d", id, k);
		dir = mmf_xasprintf("%s/%s", nights, nid);
		if (mkdir(dir, 0755) == 0)
			break;
		if (errno != EEXIST || k == 100) {
			snprintf(err, n, "cannot create %s: %s", dir, strerror(errno));
			free(nights);
			free(nid);
			free(dir);
			return -1;
		}
		free(nid);
		free(dir);
		nid = dir = NULL;
	}
	free(nights);
	*id_out = nid;
	*dir_out = dir;
	return 0;
}

void mmf_night_bug(struct strbuf *bugs, struct strbuf *js, const struct mmf_bug *b, long count,
		   bool is_new)
{
	mmf_sb_printf(bugs, "%ld\t%d\t%s\n", count, is_new, b->title);
	mmf_sb_puts(js, js->len ? ",{\"title\":" : "{\"title\":");
	mmf_sb_json_str(js, b->title);
	mmf_sb_puts(js, ",\"dir\":");
	mmf_sb_json_str(js, b->name);
	mmf_sb_printf(js, ",\"count\":%ld,\"total\":%ld,\"new\":%s,\"repro\":", count, b->count,
		      is_new ? "true" : "false");
	mmf_sb_json_str(js, b->repro);
	mmf_sb_puts(js, "}");
}

int mmf_night_write(const char *dir, const struct mmf_night_record *r, char *err, size_t n)
{
	const struct mmf_night *nt = r->night;
	struct strbuf text;
	char *path;
	int ret = 0;

	mmf_sb_init(&text);
	mmf_sb_printf(&text, "night: %s\ntree: %s\ncommit: %s\narch: %s\nkernel: %s\nconfig: %s\n"
		      "budget_s: %.0f\nfuzz_s: %.0f\nprograms: %.0f\nprograms_s: %.2f\n"
		      "coverage: %.0f\nswap_in: %.0f\nswap_out: %.0f\nboots: %d\nfindings: %d\n"
		      "bugs: %d\nnew_bugs: %d\nreproduced: %d\nno_reproducer: %d\nerror: %d\n%s",
		      nt->id, r->tree ? r->tree : "-", nt->commit, nt->arch, nt->kernel,
		      nt->config, nt->budget_s, r->fuzz_s, nt->programs, nt->programs_s,
		      nt->coverage, nt->swap_in, nt->swap_out, r->boots, nt->findings,
		      nt->bugs, nt->new_bugs, r->reproduced, r->no_reproducer, nt->error,
		      r->more ? r->more : "");
	path = mmf_xasprintf("%s/bugs", dir);
	ret |= mmf_write_file_atomic(path, r->bugs, strlen(r->bugs));
	free(path);
	path = mmf_xasprintf("%s/night", dir);
	ret |= mmf_write_file_atomic(path, text.buf, text.len);
	free(path);
	mmf_sb_free(&text);
	mmf_sb_puts(&text, "{\"night\":");
	mmf_sb_json_str(&text, nt->id);
	mmf_sb_puts(&text, ",\"tree\":");
	mmf_sb_json_str(&text, r->tree ? r->tree : "");
	mmf_sb_puts(&text, ",\"commit\":");
	mmf_sb_json_str(&text, nt->commit);
	mmf_sb_puts(&text, ",\"arch\":");
	mmf_sb_json_str(&text, nt->arch);
	mmf_sb_puts(&text, ",\"kernel\":");
	mmf_sb_json_str(&text, nt->kernel);
	mmf_sb_puts(&text, ",\"config\":");
	mmf_sb_json_str(&text, nt->config);
	mmf_sb_printf(&text, ",\"budget_s\":%.0f,\"fuzz_s\":%.0f,\"programs\":%.0f,"
		      "\"programs_per_s\":%.2f,\"coverage\":%.0f,\"swap_in\":%.0f,"
		      "\"swap_out\":%.0f,\"boots\":%d,\"findings\":%d,\"new_bugs\":%d,"
		      "\"reproduced\":%d,\"no_reproducer\":%d,\"error\":%s,\"bugs\":[%s]}\n",
		      nt->budget_s, r->fuzz_s, nt->programs, nt->programs_s, nt->coverage,
		      nt->swap_in, nt->swap_out, r->boots, nt->findings, nt->new_bugs,
		      r->reproduced, r->no_reproducer, nt->error ? "true" : "false", r->bugs_json);
	path = mmf_xasprintf("%s/summary.json", dir);
	ret |= mmf_write_file_atomic(path, text.buf, text.len);
	if (ret)
		snprintf(err, n, "cannot write the night's record in %s: %s", dir, strerror(errno));
	free(path);
	mmf_sb_free(&text);
	return ret ? -1 : 0;
}
