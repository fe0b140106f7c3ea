// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark table, the machine's default context, results as JSON
 * lines and back, and the summary statistics.
 */
#include <ctype.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/internal.h"
#include "util/util.h"

const struct mmf_bench_info mmf_benches[] = {
	{ "madv-free", "MADV_FREE of swapped-out memory in several processes, in a loop",
	  true, mmf_bench_madv_free },
	{ "madv-dontneed", "the same with MADV_DONTNEED, to compare with madv-free",
	  true, mmf_bench_madv_dontneed },
	{ "pageout-64k", "MADV_PAGEOUT latency of an area of 64 KiB large folios",
	  true, mmf_bench_pageout_64k },
	{ "pageout-4k", "MADV_PAGEOUT latency of the same area in base pages",
	  true, mmf_bench_pageout_4k },
	{ "swapin-reuse", "faults when swapped-out memory is read, then written",
	  true, mmf_bench_swapin_reuse },
	{ "swap-free-exit", "time to free the swap of processes killed at once, 1 and N devices",
	  true, mmf_bench_swap_free_exit },
	{ "mlock-scaling", "mlock/munlock latency as threads on more CPUs call it",
	  false, mmf_bench_mlock_scaling },
};

const size_t mmf_nr_benches = ARRAY_SIZE(mmf_benches);

const struct mmf_bench_info *mmf_bench_find(const char *name)
{
	for (size_t i = 0; i < mmf_nr_benches; i++)
		if (!strcmp(mmf_benches[i].name, name))
			return &mmf_benches[i];
	return NULL;
}

/*
 * An eighth of RAM, between 16 and 256 MiB: 128 MiB in a 1 GiB guest, where
 * TCG makes every page touch about ten times slower, and the 256 MB of the
 * patch postings on real machines.
 */
void mmf_bench_ctx_default(struct mmf_bench_ctx *c)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	size_t mem = pages > 0 && psz > 0 ? (size_t)pages * psz / 8 : 64 * MiB;
	cpu_set_t set;

	memset(c, 0, sizeof(*c));
	mem = MIN(MAX(mem, 16 * MiB), 256 * MiB);
	c->mem_bytes = mem & ~(MiB - 1);
	c->cpus = sched_getaffinity(0, sizeof(set), &set) ? (int)sysconf(_SC_NPROCESSORS_ONLN) :
		  CPU_COUNT(&set);
	if (c->cpus < 1)
		c->cpus = 1;
}

void mmf_bench_add(struct mmf_bench_result *res, const char *name, const char *unit,
		   double value, bool higher_is_better)
{
	struct mmf_metric *m;

	if (res->nr >= MMF_BENCH_MAX_METRICS)
		return;
	m = &res->m[res->nr++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->unit = unit;
	m->value = value;
	m->higher_is_better = higher_is_better;
}

/* Units are static strings: parsing maps a unit back to one of these. */
static const char *const units[] = { "ms", "us", "ns", "pages", "faults", "ns/call", "folios", "" };

void mmf_bench_json(const char *bench, int run, const struct mmf_bench_result *res,
		    struct strbuf *sb)
{
	mmf_sb_puts(sb, "{\"bench\":");
	mmf_sb_json_str(sb, bench);
	mmf_sb_printf(sb, ",\"run\":%d,\"metrics\":{", run);
	for (int i = 0; i < res->nr; i++) {
		const struct mmf_metric *m = &res->m[i];

		if (i)
			mmf_sb_puts(sb, ",");
		mmf_sb_json_str(sb, m->name);
		/* %.15g: exact for counts, and short for times. */
		if (isfinite(m->value))
			mmf_sb_printf(sb, ":{\"value\":%.15g,\"unit\":", m->value);
		else
			mmf_sb_puts(sb, ":{\"value\":null,\"unit\":");
		mmf_sb_json_str(sb, m->unit ? m->unit : "");
		mmf_sb_printf(sb, ",\"better\":\"%s\"}", m->higher_is_better ? "higher" : "lower");
	}
	mmf_sb_puts(sb, "}}");
}

/* A tiny parser for the shape above: keys in any order, unknown keys skipped. */
struct jp {
	const char *s;
};

static void ws(struct jp *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static bool eat(struct jp *p, char c)
{
	ws(p);
	if (*p->s != c)
		return false;
	p->s++;
	return true;
}

/* A string into out (n bytes; longer is an error); only \" \\ \/ escapes. */
static bool jstr(struct jp *p, char *out, size_t n)
{
	size_t len = 0;

	if (!eat(p, '"'))
		return false;
	for (; *p->s && *p->s != '"'; p->s++) {
		char c = *p->s;

		if (c == '\\') {
			c = *++p->s;
			if (c != '"' && c != '\\' && c != '/')
				return false;
		}
		if (len + 1 >= n)
			return false;
		out[len++] = c;
	}
	if (*p->s != '"')
		return false;
	p->s++;
	out[len] = '\0';
	return true;
}

static bool jnum(struct jp *p, double *v)
{
	char *end;

	ws(p);
	if (!strncmp(p->s, "null", 4)) {
		p->s += 4;
		*v = NAN;
		return true;
	}
	*v = strtod(p->s, &end);
	if (end == p->s)
		return false;
	p->s = end;
	return true;
}

static bool jskip(struct jp *p, int depth)
{
	char buf[256];
	double v;

	ws(p);
	if (*p->s == '"')
		return jstr(p, buf, sizeof(buf));
	if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
		p->s += *p->s == 't' ? 4 : 5;
		return true;
	}
	if (*p->s != '{')
		return jnum(p, &v);
	if (depth > 8)
		return false;
	p->s++;
	if (eat(p, '}'))
		return true;
	do {
		if (!jstr(p, buf, sizeof(buf)) || !eat(p, ':') || !jskip(p, depth + 1))
			return false;
	} while (eat(p, ','));
	return eat(p, '}');
}

static bool jmetric(struct jp *p, struct mmf_metric *m)
{
	char key[32], unit[16];
	bool have_value = false, have_unit = false;

	if (!eat(p, '{'))
		return false;
	do {
		if (!jstr(p, key, sizeof(key)) || !eat(p, ':'))
			return false;
		if (!strcmp(key, "value")) {
			if (!jnum(p, &m->value))
				return false;
			have_value = true;
		} else if (!strcmp(key, "unit")) {
			if (!jstr(p, unit, sizeof(unit)))
				return false;
			m->unit = NULL;
			for (size_t i = 0; i < ARRAY_SIZE(units); i++)
				if (!strcmp(unit, units[i]))
					m->unit = units[i];
			if (!m->unit)
				return false;
			have_unit = true;
		} else if (!strcmp(key, "better")) {
			if (!jstr(p, key, sizeof(key)))
				return false;
			if (strcmp(key, "higher") && strcmp(key, "lower"))
				return false;
			m->higher_is_better = !strcmp(key, "higher");
		} else if (!jskip(p, 1)) {
			return false;
		}
	} while (eat(p, ','));
	return eat(p, '}') && have_value && have_unit;
}

static bool jmetrics(struct jp *p, struct mmf_bench_result *res)
{
	if (!eat(p, '{'))
		return false;
	if (eat(p, '}'))
		return true;
	do {
		struct mmf_metric m = { 0 };

		if (!jstr(p, m.name, sizeof(m.name)) || !eat(p, ':') || !jmetric(p, &m))
			return false;
		if (res->nr < MMF_BENCH_MAX_METRICS)
			res->m[res->nr++] = m;
	} while (eat(p, ','));
	return eat(p, '}');
}

int mmf_bench_parse(const char *line, char *name, size_t n, struct mmf_bench_result *res)
{
	struct jp p = { line };
	bool have_bench = false, have_metrics = false;
	char key[32];
	double run;

	memset(res, 0, sizeof(*res));
	if (!eat(&p, '{'))
		return -1;
	do {
		if (!jstr(&p, key, sizeof(key)) || !eat(&p, ':'))
			return -1;
		if (!strcmp(key, "bench")) {
			if (!jstr(&p, name, n))
				return -1;
			have_bench = true;
		} else if (!strcmp(key, "metrics")) {
			if (!jmetrics(&p, res))
				return -1;
			have_metrics = true;
		} else if (!strcmp(key, "run")) {
			if (!jnum(&p, &run))
				return -1;
		} else if (!jskip(&p, 1)) {
			return -1;
		}
	} while (eat(&p, ','));
	if (!eat(&p, '}'))
		return -1;
	ws(&p);
	return *p.s || !have_bench || !have_metrics ? -1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void mmf_stats_of(const double *v, int n, struct mmf_stats *st)
{
	double sum = 0, sq = 0, *s;

	memset(st, 0, sizeof(*st));
	st->n = n;
	if (n <= 0)
		return;
	for (int i = 0; i < n; i++)
		sum += v[i];
	st->mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (v[i] - st->mean) * (v[i] - st->mean);
	/* The sample (n - 1) deviation: runs are a sample of the machine. */
	st->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
	s = mmf_xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
}
