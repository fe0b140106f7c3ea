// SPDX-License-Identifier: GPL-2.0
int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_fault, .sa_flags = SA_NODEFER };
	struct timespec ts;
	int nr_swaps = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "--no-env")) {
			no_env = 1;
		} else if (!strcmp(argv[i], "--corrupt-after") && i + 1 < argc) {
			corrupt_after = atoi(argv[++i]);
		} else if (argv[i][0] != '-' && nr_swaps < NR_SWAPS) {
			swaps[nr_swaps++] = argv[i];
		} else {
			say("usage: %s [-v] [--no-env] [--corrupt-after N] [SWAP0 [SWAP1 ...]]\n",
			    argv[0]);
			return 2;
		}
	}
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	psz = sysconf(_SC_PAGESIZE);
	if (arena_init()) {
		say("no free place for the arena\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	nonce = ((uint32_t)getpid() * 2654435761u ^ (uint32_t)ts.tv_nsec) & 0xffffff;
	prog();
	for (int f = 0; f < NR_FILES; f++)
		if (files[f] >= 0)
			close(files[f]);
	return corrupted ? 1 : 0;
}
