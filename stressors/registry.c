// SPDX-License-Identifier: GPL-2.0
/* The stressor table, the selection syntax and 'mmfuzz stress --list'. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stressors/stressor.h"

extern const struct mmf_stressor_info mmf_stressor_memcg, mmf_stressor_swap,
	mmf_stressor_folios, mmf_stressor_ksm, mmf_stressor_uring, mmf_stressor_reclaim,
	mmf_stressor_stressng;

const struct mmf_stressor_info *const mmf_stressors[] = {
	&mmf_stressor_memcg,
	&mmf_stressor_swap,
	&mmf_stressor_folios,
	&mmf_stressor_ksm,
	&mmf_stressor_uring,
	&mmf_stressor_reclaim,
	&mmf_stressor_stressng,
};
const size_t mmf_nr_stressors = ARRAY_SIZE(mmf_stressors);

/*
 * Everything but stress-ng, whose processes compete with the fuzzer for
 * the CPU and may not be installed: 'all' or naming it adds it.
 */
const char mmf_stress_default[] = "memcg,swap,folios,ksm,uring,reclaim";

const struct mmf_stressor_info *mmf_stressor_find(const char *name)
{
	for (size_t i = 0; i < mmf_nr_stressors; i++)
		if (!strcmp(mmf_stressors[i]->name, name))
			return mmf_stressors[i];
	return NULL;
}

void mmf_stress_list(struct strbuf *sb)
{
	for (size_t i = 0; i < mmf_nr_stressors; i++) {
		const struct mmf_stressor_info *s = mmf_stressors[i];

		mmf_sb_printf(sb, "%-8s %s (every %d ms)\n", s->name, s->help, s->period_ms);
		for (const struct mmf_stress_opt *o = s->opts; o < s->opts + MMF_STRESS_MAX_OPTS &&
		     o->key; o++)
			mmf_sb_printf(sb, "    %s:%s=N  %s (default %lld)\n", s->name, o->key, o->help,
				  (long long)o->def);
	}
	mmf_sb_printf(sb, "default set: %s\n", mmf_stress_default);
}

static int parse_opt(const struct mmf_stressor_info *s, char *kv, int64_t *opt, char *err,
		     size_t n)
{
	char *eq = strchr(kv, '='), *end;
	long long v;

	if (!eq) {
		snprintf(err, n, "stressor option '%s' of %s: not KEY=VALUE", kv, s->name);
		return -1;
	}
	*eq = '\0';
	for (int i = 0; i < MMF_STRESS_MAX_OPTS && s->opts[i].key; i++) {
		if (strcmp(s->opts[i].key, kv))
			continue;
		errno = 0;
		v = strtoll(eq + 1, &end, 10);
		if (errno || end == eq + 1 || *end || v < s->opts[i].min || v > s->opts[i].max) {
			snprintf(err, n, "%s:%s=%s: want a number in [%lld, %lld]", s->name, kv,
				 eq + 1, (long long)s->opts[i].min, (long long)s->opts[i].max);
			return -1;
		}
		opt[i] = v;
		return 0;
	}
	snprintf(err, n, "stressor %s has no option '%s' (see 'mmfuzz stress --list')",
		 s->name, kv);
	return -1;
}

static int add(struct mmf_stress_sel *sel, char *item, char *err, size_t n)
{
	char *save, *name = strtok_r(item, ":", &save), *kv;
	const struct mmf_stressor_info *s = name ? mmf_stressor_find(name) : NULL;
	int k;

	if (!s) {
		snprintf(err, n, "unknown stressor '%s' (see 'mmfuzz stress --list')",
			 name ? name : "");
		return -1;
	}
	for (k = 0; k < sel->nr && sel->info[k] != s; k++)
		;
	if (k == sel->nr) {
		if (sel->nr == MMF_STRESS_MAX) {
			snprintf(err, n, "at most %d stressors", MMF_STRESS_MAX);
			return -1;
		}
		sel->info[sel->nr++] = s;
		for (int i = 0; i < MMF_STRESS_MAX_OPTS; i++)
			sel->opt[k][i] = s->opts[i].def;
	}
	while ((kv = strtok_r(NULL, ":", &save)))
		if (parse_opt(s, kv, sel->opt[k], err, n))
			return -1;
	return 0;
}

int mmf_stress_parse(const char *spec, struct mmf_stress_sel *sel, char *err, size_t n)
{
	char *copy, *save, *item;
	int ret = 0;

	memset(sel, 0, sizeof(*sel));
	if (!strcmp(spec, "none"))
		return 0;
	if (!strcmp(spec, "all")) {
		struct strbuf all;

		mmf_sb_init(&all);
		for (size_t i = 0; i < mmf_nr_stressors; i++)
			mmf_sb_printf(&all, "%s%s", i ? "," : "", mmf_stressors[i]->name);
		copy = mmf_sb_detach(&all);
	} else {
		copy = mmf_xstrdup(spec);
	}
	/* '+' too: a guest's kernel command line turns commas into spaces. */
	for (item = strtok_r(copy, ",+", &save); item && !ret; item = strtok_r(NULL, ",+", &save))
		ret = add(sel, item, err, n);
	free(copy);
	if (!ret && !sel->nr) {
		snprintf(err, n, "no stressor in '%s'", spec);
		ret = -1;
	}
	return ret;
}

bool mmf_stress_expected(int err)
{
	return err == -ENOMEM || err == -EBUSY || err == -EINVAL || err == -EAGAIN ||
	       err == -ESRCH || err == -EINTR;
}
