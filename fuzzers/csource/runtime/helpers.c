// SPDX-License-Identifier: GPL-2.0
/* What the reproducer gives the runtime's calls: a program uses only some. */
/* Memory cgroup cg: the directory in $MMFUZZ_CG<cg>, NULL when unset. */
static __attribute__((unused)) const char *cg_dir(int cg)
{
	char var[16];

	if (no_env)
		return NULL;
	snprintf(var, sizeof(var), "MMFUZZ_CG%d", cg);
	return getenv(var);
}

/* pwrite's pattern of file page pg: the tag's word at its page past the arena. */
static __attribute__((unused)) uint64_t file_word(int pg, void *tag)
{
	return word(*(int *)tag, ARENA_PAGES + pg);
}
