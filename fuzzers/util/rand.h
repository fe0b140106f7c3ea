/* SPDX-License-Identifier: GPL-2.0 */
/* Deterministic PRNG (xoshiro256**), so a seed reproduces a whole run. */
#ifndef MMF_RAND_H
#define MMF_RAND_H

#include <stdint.h>

struct mmf_rand {
	uint64_t s[4];
};

void mmf_rand_seed(struct mmf_rand *r, uint64_t seed);
uint64_t mmf_rand64(struct mmf_rand *r);
/* Uniform in [0, n); n == 0 gives 0. */
uint64_t mmf_rand_below(struct mmf_rand *r, uint64_t n);
/* True with probability 1/n. */
int mmf_rand_oneof(struct mmf_rand *r, uint64_t n);

#endif
