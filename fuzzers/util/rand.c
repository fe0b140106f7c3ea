// SPDX-License-Identifier: GPL-2.0
#include "util/rand.h"

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* splitmix64 spreads a small seed over the whole state. */
void mmf_rand_seed(struct mmf_rand *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		r->s[i] = z ^ (z >> 31);
	}
}

uint64_t mmf_rand64(struct mmf_rand *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

uint64_t mmf_rand_below(struct mmf_rand *r, uint64_t n)
{
	return n ? mmf_rand64(r) % n : 0;
}

int mmf_rand_oneof(struct mmf_rand *r, uint64_t n)
{
	return mmf_rand_below(r, n) == 0;
}
