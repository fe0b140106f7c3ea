// SPDX-License-Identifier: GPL-2.0
/*
 * The farm (farm/): LAVA job logs read back to the guest's console
 * exactly as PyYAML reads them (tests/data/farm/NAME.log, the console in
 * NAME.console; shard.log is a real lava-run log of a shard whose guest
 * made a data corruption finding and a kernel WARNING), a log cut short
 * refused; the job and device files as tests/data/farm/ holds them; and
 * a log collected into a store: both findings with their programs, a
 * night entry, the same log again counted once, a guest gone silent
 * after a report a hang, a bad log saving nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "farm/farm.h"
#include "nightly/nightly.h"
#include "store/store.h"
#include "store/tally.h"
#include "tap.h"
#include "util/util.h"

#define DATA	"tests/data/farm/"

static char store[] = "/tmp/mmfuzz-test-farm.XXXXXX";

static char *data(const char *name, size_t *len)
{
	char *path = mmf_xasprintf(DATA "%s", name), *buf = mmf_read_file(path, len);

	CHECK(buf, "%s: %s", path, strerror(errno));
	free(path);
	return buf;
}

/* Where a and b first differ, for a message. */
static size_t differs(const char *a, size_t la, const char *b, size_t lb)
{
	size_t i = 0;

	while (i < la && i < lb && a[i] == b[i])
		i++;
	return i;
}

static void check_log(const char *name, bool lava, const char *result)
{
	char *log_name = mmf_xasprintf("%s.log", name), *con_name = mmf_xasprintf("%s.console", name);
	size_t len, clen, at;
	char *buf = data(log_name, &len), *want = data(con_name, &clen);
	struct mmf_lava_log l;
	char err[256];

	CHECK(!mmf_lava_log_parse(buf, len, &l, err, sizeof(err)), "%s: %s", name, err);
	CHECK(l.lava == lava && !strcmp(l.result, result), "%s: lava %d result '%s'", name, l.lava,
	      l.result);
	at = differs(l.console.buf, l.console.len, want, clen);
	CHECK(l.console.len == clen && at == clen, "%s: console differs at byte %zu: '%.40s'",
	      name, at, l.console.buf + MIN(at, l.console.len));
	CHECK(l.nr > 0 && l.ends[l.nr - 1] == l.console.len, "%s: %zu lines", name, l.nr);
	for (size_t i = 1; i < l.nr; i++)
		CHECK(l.ms[i] >= l.ms[i - 1] && l.ms[i] <= l.end_ms, "%s: times in order", name);
	mmf_lava_log_free(&l);
	free(buf);
	free(want);
	free(log_name);
	free(con_name);
}

static void test_logs(void)
{
	struct mmf_lava_log l;
	size_t len;
	char err[256], *buf;

	check_log("shard", true, "pass");
	check_log("server", true, "pass");
	/* The server's log: its second target line came 1.6 s after the first entry. */
	buf = data("server.log", &len);
	CHECK(!mmf_lava_log_parse(buf, len, &l, err, sizeof(err)), "%s", err);
	CHECK(l.nr == 4 && l.ms[1] == 1599 + 1 && l.end_ms == 3999 + 1, "times %llu %llu",
	      (unsigned long long)l.ms[1], (unsigned long long)l.end_ms);
	mmf_lava_log_free(&l);
	free(buf);
	/* A log cut in the middle of a line: refused, the line named. */
	buf = data("cut.log", &len);
	CHECK(mmf_lava_log_parse(buf, len, &l, err, sizeof(err)) == -1, "cut log taken");
	CHECK(!strcmp(err, "line 151 is no LAVA log entry (the log cut short?): '{\"dt\": "
		      "\"2026-12-04T05:11:40.1\", \"lvl\": \"'"), "says: %s", err);
	free(buf);
	/* A console log is taken as it is. */
	CHECK(!mmf_lava_log_parse("[ 1.0] a\nb", 10, &l, err, sizeof(err)) && !l.lava &&
	      !strcmp(l.console.buf, "[ 1.0] a\nb\n") && l.nr == 2, "plain console");
	mmf_lava_log_free(&l);
	CHECK(mmf_lava_log_parse("a\0b", 3, &l, err, sizeof(err)) == -1, "binary refused");
}

static void check_file(const char *name, const struct strbuf *got)
{
	size_t len, at;
	char *want = data(name, &len);

	at = differs(got->buf, got->len, want, len);
	CHECK(got->len == len && at == len, "%s differs at byte %zu: '%.60s'", name, at,
	      got->buf + MIN(at, got->len));
	free(want);
}

static void test_jobs(void)
{
	static const char *const args[] = { "--stress", "swap+ksm", NULL };
	struct mmf_farm_job_opts o = {
		.guest = {
			.arch = mmf_vm_arch_find("x86_64"), .accel = MMF_VM_TCG,
			.kernel = "https://lab.example/k/bzImage",
			.initrd = "https://lab.example/k/initramfs.cpio.gz", .mem_mb = 1024,
			.cpus = 2, .guest_args = args,
		},
		.shard = 2, .shards = 4, .seed = 1001, .budget_ms = 3600 * 1000, .zram_mb = 128,
		.name = "nightly",
	};
	static const char *const bad[] = { "a,b", NULL };
	struct strbuf sb;
	char err[256];

	mmf_sb_init(&sb);
	CHECK(!mmf_farm_job(&o, &sb, err, sizeof(err)), "%s", err);
	check_file("shard-x86_64-tcg.yaml", &sb);
	sb.len = 0;
	mmf_farm_device(&o, &sb);
	check_file("device-x86_64-tcg.yaml", &sb);
	sb.len = 0;
	o.guest.arch = mmf_vm_arch_find("arm64");
	o.guest.accel = MMF_VM_KVM;
	CHECK(!mmf_farm_job(&o, &sb, err, sizeof(err)), "%s", err);
	check_file("shard-arm64-kvm.yaml", &sb);
	sb.len = 0;
	o.guest.guest_args = bad;
	CHECK(mmf_farm_job(&o, &sb, err, sizeof(err)) == -1 && strstr(err, "'a,b'"),
	      "a comma refused: %s", err);
	o.guest.kernel = "/nonexistent/bzImage";
	CHECK(mmf_farm_job(&o, &sb, err, sizeof(err)) == -1 &&
	      !strcmp(err, "/nonexistent/bzImage: no such file"), "missing kernel: %s", err);
	mmf_sb_free(&sb);
}

static int bugs_in(const char *dir, struct mmf_bug **b)
{
	int n = mmf_store_list(dir, b);

	return n == -ENOENT ? 0 : n;
}

static void test_collect(void)
{
	const char *logs[] = { DATA "shard.log" }, *cut[] = { DATA "shard.log", DATA "cut.log" };
	const char *hang[] = { DATA "hang.log" }, *oops[] = { DATA "oops.log" };
	const char *pair[] = { DATA "pair.log" };
	char *crashes = mmf_xasprintf("%s/crashes", store), *s2 = mmf_xasprintf("%s/s2", store);
	char *crashes2 = mmf_xasprintf("%s/crashes", s2), *s3 = mmf_xasprintf("%s/s3", store);
	char *crashes3 = mmf_xasprintf("%s/crashes", s3), *s4 = mmf_xasprintf("%s/s4", store);
	struct mmf_farm_collect_opts o = {
		.store = store, .logs = logs, .nr_logs = 1, .hang_ms = 300000,
		.info = fopen("/dev/null", "w"),
	};
	struct mmf_bug *b;
	char err[256];
	int n, r;

	r = mmf_farm_collect(&o, err, sizeof(err));
	CHECK(r == MMF_EXIT_FOUND, "collected: %d %s", r, r < 0 ? err : "");
	n = bugs_in(crashes, &b);
	CHECK(n == 2, "%d bugs", n);
	for (int i = 0; i < n; i++) {
		char *progs = mmf_xasprintf("%s/%s/progs.0", crashes, b[i].name);
		char *p = mmf_read_file(progs, NULL);

		CHECK(!strcmp(b[i].title, "WARNING in lkdtm_WARNING") ||
		      !strcmp(b[i].title, "DATA CORRUPTION: garbage anon page after "
			      "madvise(MADV_PAGEOUT)"), "title %s", b[i].title);
		CHECK(b[i].count == 1 && !strcmp(b[i].arch, "x86_64"), "%s: count %ld arch %s",
		      b[i].title, b[i].count, b[i].arch);
		CHECK(p && strstr(p, "mmap("), "%s: its programs", b[i].title);
		free(p);
		free(progs);
	}
	mmf_bugs_free(b, n);
	/* The night: both findings and the programs the guest started before its panic. */
	{
		struct mmf_history h;

		CHECK(!mmf_history_load(store, 3, &h, err, sizeof(err)), "%s", err);
		CHECK(h.nr_nights == 1 && h.nights[0].findings == 2 && h.nights[0].bugs == 2 &&
		      h.nights[0].new_bugs == 2 && h.nights[0].programs == 30 &&
		      h.nights[0].budget_s == 30,
		      "night: %d findings %d bugs %.0f programs %.0f s",
		      h.nr_nights ? h.nights[0].findings : -1, h.nr_nights ? h.nights[0].bugs : -1,
		      h.nr_nights ? h.nights[0].programs : -1, h.nr_nights ? h.nights[0].budget_s : -1);
		mmf_history_free(&h);
	}
	/* Again: counted once. */
	r = mmf_farm_collect(&o, err, sizeof(err));
	CHECK(r == MMF_EXIT_CLEAN, "again: %d", r);
	n = bugs_in(crashes, &b);
	CHECK(n == 2 && b[0].count == 1 && b[1].count == 1, "still once each");
	mmf_bugs_free(b, n);
	/* A guest that went silent after a report: the report, then the hang. */
	o.store = s2;
	o.logs = hang;
	CHECK(mmf_farm_collect(&o, err, sizeof(err)) == MMF_EXIT_FOUND, "hang: %s", err);
	n = bugs_in(crashes2, &b);
	CHECK(n == 2 && b[0].count == 1 && b[1].count == 1, "%d bugs", n);
	for (int i = 0; i < n; i++)
		CHECK(!strcmp(b[i].title, "BUG: Bad rss-counter state") ||
		      !strcmp(b[i].title, "no output from test machine"), "title %s", b[i].title);
	mmf_bugs_free(b, n);
	/* A BUG, then oops=panic's panic: one finding, not two. */
	o.logs = oops;
	CHECK(mmf_farm_collect(&o, err, sizeof(err)) == MMF_EXIT_FOUND, "oops: %s", err);
	n = bugs_in(crashes2, &b);
	CHECK(n == 3, "%d bugs", n);
	for (int i = 0; i < n; i++)
		CHECK(strcmp(b[i].title, "kernel panic: Fatal exception") &&
		      (strcmp(b[i].title, "kernel BUG in do_swap_page") || b[i].count == 1),
		      "%s: count %ld", b[i].title, b[i].count);
	mmf_bugs_free(b, n);
	/*
	 * Two reports in one program, and the guest's closing table that
	 * names the title again: two findings, as the guest counted.
	 */
	o.store = s3;
	o.logs = pair;
	CHECK(mmf_farm_collect(&o, err, sizeof(err)) == MMF_EXIT_FOUND, "pair: %s", err);
	n = bugs_in(crashes3, &b);
	CHECK(n == 1 && b[0].count == 2 && !strcmp(b[0].title, "BUG: Bad rss-counter state"),
	      "pair: %d bugs, %s %ld times", n, n ? b[0].title : "-", n ? b[0].count : 0);
	mmf_bugs_free(b, n);
	/* A good log and a cut one: an error, and nothing saved. */
	o.store = s4;
	o.logs = cut;
	o.nr_logs = 2;
	CHECK(mmf_farm_collect(&o, err, sizeof(err)) == -1 && strstr(err, "cut.log: line 151"),
	      "cut: %s", err);
	CHECK(access(s4, F_OK) == -1, "%s made", s4);
	fclose(o.info);
	free(crashes);
	free(crashes2);
	free(s2);
	free(s3);
	free(crashes3);
	free(s4);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(test_logs), TAP_TEST(test_jobs), TAP_TEST(test_collect),
	};

	return tap_run_in(tests, store);
}
