/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Findings on the wire: a guest's fuzzer sends each report of its own
 * oracles to the host over a virtio port (vm/vm.h, the findings channel),
 * and goes on only once the host has said the finding is in its store.
 *
 *   guest: "mmfuzz-finding SEQ TITLE REPORT LOG PROGS\n", the lengths in
 *          bytes of the four fields, then the fields' bytes, back to back;
 *   host:  "mmfuzz-saved SEQ\n" once the finding is on disk.
 *
 * Pure: bytes in, records out.
 */
#ifndef MMF_STORE_WIRE_H
#define MMF_STORE_WIRE_H

#include <stddef.h>

#include "store/store.h"
#include "util/util.h"

/* No field of a finding is longer: a bigger length is not a record. */
#define MMF_WIRE_FIELD_MAX	(4u << 20)

struct mmf_wire_finding {
	unsigned long seq;
	char *title, *report, *log, *progs;	/* NUL-terminated, "" if none */
};

/* Append the record of c (title, report, log, progs; NULL as ""). */
void mmf_wire_put(struct strbuf *sb, unsigned long seq, const struct mmf_crash *c);

/*
 * The record at the start of buf: 1 with *f filled (free it with
 * mmf_wire_finding_free) and *used its size; 0 if buf holds only part of
 * one; -1 if buf does not start with a record (err says why).
 */
int mmf_wire_get(const char *buf, size_t len, size_t *used, struct mmf_wire_finding *f,
		 char *err, size_t n);
void mmf_wire_finding_free(struct mmf_wire_finding *f);

void mmf_wire_put_ack(struct strbuf *sb, unsigned long seq);
/* Like mmf_wire_get, for the host's answer. */
int mmf_wire_get_ack(const char *buf, size_t len, size_t *used, unsigned long *seq);

/*
 * The same record where a console is the only way out (a LAVA job, whose
 * log is the console line by line, without carriage returns and escape
 * bytes, and no answer): base64 in frame lines
 *
 *   "mmfuzz-frame SEQ K N CRC B64"
 *
 * part K of N (from 1) of the record's bytes, CRC their CRC-32 in hex.
 * The guest writes each line as a kernel log record of its own, so that
 * no other output cuts into one. Whatever comes before "mmfuzz-frame" on
 * its line (the kernel's time stamp) and the lines between frames are
 * not the record's.
 */
#define MMF_WIRE_FRAME_BYTES	600
#define MMF_WIRE_FRAME_WORD	"mmfuzz-frame "

/* Each frame line of c's record, without its newline, to emit in order. */
void mmf_wire_put_frames(unsigned long seq, const struct mmf_crash *c,
			 void (*emit)(void *ctx, const char *line, size_t len), void *ctx);

/* The frames seen so far, by record. */
struct mmf_wire_frames;

struct mmf_wire_frames *mmf_wire_frames_new(void);
void mmf_wire_frames_free(struct mmf_wire_frames *fr);
/* A console line: 1 a frame taken, 0 not a frame, -1 a damaged frame (err says how). */
int mmf_wire_frames_line(struct mmf_wire_frames *fr, const char *line, size_t len, char *err,
			 size_t n);
/* The records seen, in the order of their first frame. */
int mmf_wire_frames_count(const struct mmf_wire_frames *fr);
/*
 * Record i: 1 and *f (free with mmf_wire_finding_free) when whole; 0
 * when frames are missing, -1 when its bytes are no record: err says why.
 */
int mmf_wire_frames_get(const struct mmf_wire_frames *fr, int i, struct mmf_wire_finding *f,
			char *err, size_t n);

#endif
