// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/receive.h"
#include "campaign/seeds.h"
#include "model/prog.h"
#include "store/wire.h"
#include "symbolize/symbolize.h"
#include "vm/vm.h"

/* The console before a finding of the channel that goes with it, as log.N. */
#define CONSOLE_SLICE	(64 << 10)

const char *mmf_last_progs(const char *log, size_t len, int n)
{
	size_t i, mark = strlen(MMF_VM_EXEC_MARK);
	int k = 0;

	if (!len)
		return "";
	for (i = len; i-- > 0; ) {
		if ((i == 0 || log[i - 1] == '\n') && len - i >= mark &&
		    !strncmp(log + i, MMF_VM_EXEC_MARK, mark) && ++k == n)
			break;
	}
	return log + (i == (size_t)-1 ? 0 : i);
}

size_t mmf_last_prog_bytes(const char *log, uint8_t *buf, size_t cap)
{
	const char *last = mmf_last_progs(log, strlen(log), 1), *text = strchr(last, '\n');
	struct mmf_prog p;
	char err[128];

	if (!strncmp(last, MMF_VM_EXEC_MARK, strlen(MMF_VM_EXEC_MARK)))
		last = text ? text + 1 : "";
	return mmf_prog_parse(last, &p, err, sizeof(err)) ? 0 : mmf_prog_encode(&p, buf, cap);
}

int mmf_receive_save(struct mmf_receiver *r, struct mmf_crash *c, const char *store,
		     bool boot, uint64_t arrived_ms, char *err, size_t n)
{
	struct mmf_sym_opts so = { .vmlinux = r->vmlinux };
	struct mmf_store_added added;
	char *sym = NULL, *notes = NULL, *origin = NULL;
	const char *related = c->related;
	/* Its program, once: which seed it is, which group it is of. */
	uint8_t buf[MMF_SEED_MAX];
	size_t len = c->progs ? mmf_last_prog_bytes(c->progs, buf, sizeof(buf)) : 0;
	uint64_t prog = boot || !len ? 0 : mmf_fnv64(MMF_FNV64_INIT, buf, len);
	int ret = 0;

	if (r->vmlinux && c->report && c->report[0] &&
	    mmf_symbolize(c->report, &so, &sym, &notes) > 0)
		c->report_sym = sym;
	c->kernel = r->kernel;
	c->arch = r->arch;
	if (!c->origin && !r->origin && r->seeds && c->progs)
		c->origin = origin = len ? mmf_seed_origin(r->seeds, buf, len) :
					   mmf_xstrdup("fuzzer");
	if (!c->origin)
		c->origin = r->origin;
	if (!c->related)
		c->related = mmf_store_group_related(&r->group, prog, arrived_ms);
	if (mmf_store_add(store, c, &added) < 0) {
		snprintf(err, n, "cannot save '%s': %s", c->title, mmf_store_err());
		ret = -1;
	} else {
		if (!boot && r->tally)
			mmf_tally_add(r->tally, added.title, &added);
		if (r->info)
			fprintf(r->info, "mmfuzz: %s: %s%s (%s/%s, %ld so far%s%s; saved %.2f s"
				" after it arrived)\n", r->who, boot ? "boot crash: " : "REPORT: ",
				c->title, store, added.name, added.count,
				added.related ? ", the same program's as " : "",
				added.related ? c->related : "",
				(mmf_now_ns() / 1000000 - arrived_ms) / 1e3);
		if (!boot)
			mmf_store_group_saved(&r->group, added.title, &added, prog, arrived_ms);
	}
	if (r->info)
		fflush(r->info);
	free(sym);
	free(notes);
	if (origin)
		c->origin = NULL;
	free(origin);
	/* The group's title may be replaced: c keeps none of it. */
	c->related = related;
	return ret;
}

int mmf_receive(struct mmf_receiver *r, int fd, const char *console, size_t clen,
		char *err, size_t n)
{
	uint64_t arrived = mmf_now_ns() / 1000000;
	char buf[65536], why[256];
	struct mmf_wire_finding f;
	size_t used;
	ssize_t got;
	int k;

	while (fd >= 0 && (got = read(fd, buf, sizeof(buf))) > 0)
		mmf_sb_add(&r->buf, buf, got);
	while (r->buf.len && (k = mmf_wire_get(r->buf.buf, r->buf.len, &used, &f, why,
					       sizeof(why))) != 0) {
		struct mmf_crash c;
		struct strbuf ack;

		if (k < 0) {
			/* Not our guest's fuzzer speaking: drop it, keep listening. */
			mmf_warnx_("%s: findings channel: %s", r->who, why);
			r->buf.len = 0;
			break;
		}
		c = (struct mmf_crash){
			.title = f.title, .report = f.report, .progs = f.progs,
			.log = f.log[0] ? f.log :
			       console + (clen > CONSOLE_SLICE ? clen - CONSOLE_SLICE : 0),
		};
		if (mmf_receive_save(r, &c, r->store, false, arrived, err, n)) {
			mmf_wire_finding_free(&f);
			return -1;
		}
		r->received++;
		mmf_sb_init(&ack);
		mmf_wire_put_ack(&ack, f.seq);
		if (mmf_write_all(fd, ack.buf, ack.len))
			mmf_warnx_("%s: findings channel: cannot answer: %s", r->who, strerror(errno));
		mmf_sb_free(&ack);
		mmf_wire_finding_free(&f);
		memmove(r->buf.buf, r->buf.buf + used, r->buf.len - used);
		r->buf.len -= used;
	}
	return 0;
}

void mmf_receiver_free(struct mmf_receiver *r)
{
	mmf_store_group_free(&r->group);
	mmf_sb_free(&r->buf);
}
