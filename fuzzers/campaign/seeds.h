/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign's seeds, for either engine: OUT/DIR holds each seed in its
 * byte form (model/prog.h), named by its hash, and OUT/seeds.txt a line
 * "seed-HASH SOURCE" per seed, so that a finding whose program is a seed
 * run unchanged names where that seed came from (meta's found_by).
 */
#ifndef MMF_CAMPAIGN_SEEDS_H
#define MMF_CAMPAIGN_SEEDS_H

#include <stddef.h>

#include "util/util.h"

/* A seed file's name: the FNV-1a hash of its bytes (the same program twice is one seed). */
#define MMF_SEED_NAME		"seed-%016llx"
/* A generated seed's: after every corpus seed's in name order. */
#define MMF_SEED_GENERATED	"seed-generated-%016llx"
#define MMF_SEEDS_INDEX		"seeds.txt"
#define MMF_SEED_MAX		(64 << 10)

/*
 * OUT/dir from corpus (NULL-terminated; each a file: a text program *.mmf
 * or bytes; a directory of them; an AFL++ instance's directory or output;
 * an earlier campaign's OUT), topped up with generated programs (not in
 * the index) to at least min. Returns the directory and *nr, or NULL with
 * a one-line reason in err.
 */
char *mmf_seeds_make(const char *out, const char *dir, const char *const *corpus, int min,
		     int *nr, char *err, size_t n);

/* meta's found_by for a program's bytes: "seed SOURCE" if index has it, else "fuzzer". */
char *mmf_seed_origin(const char *index, const void *data, size_t len);

/* The same for the last program of an execution log's text. */
char *mmf_seed_origin_text(const char *index, const char *log);

/*
 * The seeds of dir as a guest's fuzzer reads them (fuzz --seeds): for each
 * a line MMF_SEED_MARK NAME and its text, then MMF_SEEDS_END. 0, or -1.
 */
int mmf_seeds_text(const char *dir, struct strbuf *sb, char *err, size_t n);

#endif
