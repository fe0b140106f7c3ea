// SPDX-License-Identifier: GPL-2.0
/*
 * The live console monitor (campaign/monitor.c): the input is a console
 * fed in chunks, split at positions derived from the input, with fake
 * times advancing by a few ms or by steps around the monitor's own time
 * bounds, polled after each chunk; a finding restarts the monitor, as the
 * campaign restarts its guest. At the end the guest dies: a dead guest's
 * poll always has a finding.
 */
#include <stdlib.h>
#include <string.h>

#include "campaign/monitor.h"
#include "harness.h"
#include "util/util.h"

static const struct mmf_monitor_opts opts = {
	.settle_ms = 1000, .hang_ms = 60000, .boot_ms = 120000,
	.ready = "mmfuzz: fuzzing natively",
};

/*
 * Chunk lengths and time steps come from a hash of the bytes fed so far:
 * the same input, the same run, and a mutation changes the run only from
 * where it is on.
 */
static uint64_t mix(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ h >> 32;
}

/* Mostly a few ms, sometimes around the monitor's bounds. */
static uint64_t step(uint64_t h)
{
	static const uint64_t big[] = { 99, 100, 999, 1000, 59999, 60000, 120000 };

	return h % 16 ? (h >> 8) % 16 : big[(h >> 8) % ARRAY_SIZE(big)];
}

static void check_finding(const struct mmf_finding *f, size_t log_len)
{
	FUZZ_CHECK(f->kind >= MMF_FOUND_REPORT && f->kind <= MMF_FOUND_LOST,
		   "finding of kind %d", f->kind);
	FUZZ_CHECK(f->title && f->report, "finding without title or report");
	FUZZ_CHECK((f->kind != MMF_FOUND_REPORT && f->kind != MMF_FOUND_BOOT_CRASH) ||
		   f->end <= log_len,
		   "finding ends at %zu of a %zu-byte console", f->end, log_len);
}

void fuzz_one(const uint8_t *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull, now = 1000;
	struct mmf_monitor *m = mmf_monitor_new(&opts, now);
	struct mmf_finding f;
	size_t log_len;

	for (size_t pos = 0; pos < len;) {
		/* mostly a line or so, sometimes a whole burst */
		size_t n = h >> 40 & 7 ? 1 + (h >> 16) % 128 : 1 + (h >> 16) % 4096;

		n = n < len - pos ? n : len - pos;
		mmf_monitor_feed(m, (const char *)buf + pos, n, now);
		h = mix(h, buf + pos, n);
		pos += n;
		now += step(h);
		mmf_monitor_log(m, &log_len);
		FUZZ_CHECK(log_len <= len, "console of %zu bytes from %zu fed", log_len, len);
		mmf_monitor_time_at(m, log_len / 2);
		if (mmf_monitor_poll(m, now, false, &f)) {
			check_finding(&f, log_len);
			mmf_finding_free(&f);
			mmf_monitor_free(m);
			m = mmf_monitor_new(&opts, now);
		}
	}
	now += step(h >> 4);
	mmf_monitor_log(m, &log_len);
	FUZZ_CHECK(mmf_monitor_poll(m, now, true, &f) == 1, "a dead guest without a finding");
	check_finding(&f, log_len);
	mmf_finding_free(&f);
	mmf_monitor_free(m);
}
